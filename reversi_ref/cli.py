"""The `reversi-ref` command line: one subcommand per job, each defined beside its module.

Every module named in SUBCOMMAND_MODULES provides `register(subparsers)`, which adds its
subcommand and sets `func` (taking the parsed args, returning an exit code).  Bad input ends in
a one-line message and a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import List, Optional

from .errors import ReversiError

# Modules that add subcommands, in the order `--help` lists them.
SUBCOMMAND_MODULES = (
    "reversi_ref.match",
    "reversi_ref.referee",
    "reversi_ref.client",
    "reversi_ref.tournament",
    "reversi_ref.tune",
    "reversi_ref.render.cli",
    "reversi_ref.specs",
    "reversi_ref.perft",
    "reversi_ref.conform",
    "reversi_ref.bench",
    "reversi_ref.maplint",
    "reversi_ref.mapfuzz",
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="reversi-ref",
        description="ReversiXT reference implementation: rules, referee, player, golden suite.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
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
