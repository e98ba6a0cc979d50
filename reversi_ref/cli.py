"""The `reversi-ref` command line: one subcommand per job, each defined beside its module.

Every module named in SUBCOMMAND_MODULES provides `register(subparsers)`, which adds its
subcommand and sets `func` (taking the parsed args, returning an exit code).  Bad input ends in
a one-line message and a non-zero exit code, never a traceback:

- exit 2, a usage error, in argparse's words and naming the argument: a value of the wrong form
  or out of range (the `type=` validators below), an unknown name, an output
  file whose directory is missing or not writable (checked before any work starts), or a
  `UsageError` raised by a command once it knows more (`tournament --players` naming a variant);
- exit 1, a runtime error, in one line naming the file, address or port: a map or trace that
  cannot be read or is malformed, a server that cannot be reached, a port already taken.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any, Callable, Iterator, List, Optional, Sequence

from . import __version__
from .errors import ReversiError

# Modules that add subcommands, in the order `--help` lists them.
SUBCOMMAND_MODULES = (
    "reversi_ref.match",
    "reversi_ref.bundled",
    "reversi_ref.referee",
    "reversi_ref.client",
    "reversi_ref.human",
    "reversi_ref.tournament",
    "reversi_ref.arena",
    "reversi_ref.arenacompare",
    "reversi_ref.arenagames",
    "reversi_ref.tune",
    "reversi_ref.render.cli",
    "reversi_ref.analyse",
    "reversi_ref.timeline",
    "reversi_ref.specs",
    "reversi_ref.perft",
    "reversi_ref.conform",
    "reversi_ref.bench",
    "reversi_ref.maplint",
    "reversi_ref.mapfuzz",
    "reversi_ref.bombmaps",
    "reversi_ref.fuzz",
)


class UsageError(Exception):
    """A bad command line found by a command itself: reported as argparse reports its own
    errors (usage, then `prog: error: message`, exit 2); the message names the argument."""


def usage_error(error: ValueError, argument: str) -> UsageError:
    """`error`, found in the value of `argument` (e.g. "argument --weights"), as a UsageError
    whose message starts with the argument's name."""
    text = str(error)
    return UsageError(text if text.startswith(argument) else "%s: %s" % (argument, text))


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM (a plain `kill`) stops the command as Ctrl-C does: the
    command keeps what it finished and stops what it started, and exits with 130."""
    # Without this Python dies at once on SIGTERM: no `finally`, so hours of tournament
    # games are lost and an arena's server and clients are left running.
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


# --------------------------------------------------------------------------- argument types
# Each raises argparse.ArgumentTypeError, whose message argparse prints after the argument's
# name ("argument -t: must be an integer of at least 0, got '-5'"), with exit code 2.


def int_range(low: int, high: Optional[int] = None) -> Callable[[str], int]:
    """An argparse type: an integer from `low` to `high` (no upper bound when None)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            if high is None:
                raise argparse.ArgumentTypeError(
                    "must be an integer of at least %d, got %r" % (low, text))
            raise argparse.ArgumentTypeError(
                "must be an integer from %d to %d, got %r" % (low, high, text))
        return value
    parse.__name__ = "integer"
    return parse


def positive_float(text: str) -> float:
    """An argparse type: a number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError("must be a number above 0, got %r" % text)
    return value


def non_negative_float(text: str) -> float:
    """An argparse type: a finite number of at least 0."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError("must be a number of at least 0, got %r" % text)
    return value


PORT = int_range(0, 65535)


def name_list(choices: Sequence[str], what: str, plural: str = "") -> Callable[[str], str]:
    """An argparse type: one or more of `choices`, separated by commas (returned as given)."""
    def parse(text: str) -> str:
        unknown = [name for name in text.split(",") if name and name not in choices]
        if unknown or not text.strip(","):
            raise argparse.ArgumentTypeError("unknown %s %s; %s are: %s" % (
                what, ", ".join(repr(name) for name in unknown) or repr(text),
                plural or what + "s", ", ".join(choices)))
        return text
    parse.__name__ = what
    return parse


def output_file_or_stdout(text: str) -> str:
    """An argparse type: `-` (standard output) or an `output_file`."""
    return text if text == "-" else output_file(text)


def output_file(text: str) -> str:
    """An argparse type: a file we may write, checked before any work starts (its directory
    exists and is writable; it is not a directory; if it exists, it is writable)."""
    if text == "-":
        raise argparse.ArgumentTypeError("give a file name: this output cannot go to standard "
                                         "output")
    path = Path(text)
    directory = path.parent
    if not text or path.is_dir():
        raise argparse.ArgumentTypeError("cannot write %r: it is a directory" % text)
    if not directory.is_dir():
        raise argparse.ArgumentTypeError("cannot write %s: directory %s does not exist"
                                         % (text, directory))
    if not os.access(directory, os.W_OK | os.X_OK) or (
            path.exists() and not os.access(path, os.W_OK)):
        raise argparse.ArgumentTypeError("cannot write %s: permission denied" % text)
    return text


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="reversi-ref",
        description="ReversiXT reference implementation: rules, referee, player, golden suite.")
    parser.add_argument("--version", action="version", version="reversi-ref %s" % __version__)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    # Each subcommand knows its own parser, to report a UsageError in argparse's form.
    for subparser in subparsers.choices.values():
        subparser.set_defaults(command_parser=subparser)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """Run the command line; return the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "func", None) is None:
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
        return code
    except UsageError as error:
        args.command_parser.error(str(error))
        return 2  # not reached: error() exits with 2
    except ReversiError as error:
        print("reversi-ref %s: %s" % (args.command, error), file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (`... | head`): stop quietly, as other command-line tools do.
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 141
    except OSError as error:
        print("reversi-ref %s: %s" % (args.command, error), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("reversi-ref %s: interrupted" % args.command, file=sys.stderr)
        return 130
