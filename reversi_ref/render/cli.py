"""`reversi-ref show`, `render` and `replay`: pictures of maps and recorded games.

- `show MAP|TRACE [--move N] [--color/--no-color]`: the board as text in the terminal.
- `render MAP|TRACE [--move N] -o out.svg`: the board as an SVG picture.
- `replay TRACE -o game.html`: the whole game as one self-contained HTML page.

MAP is a map file; TRACE a JSON game record (ours or the official server's, gzip or plain),
told apart by content.  `--move N` selects the position after N moves (0 = the start,
negative numbers count from the end; default: the last).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, List, Optional

from ..bundled import load_map_argument
from ..cli import output_file_or_stdout
from ..errors import MapError
from ..mapfile import decode_map_bytes, read_map
from ..rules import initial_state
from ..state import Move
from .html import render_replay
from .record import GZIP_MAGIC, Frame, Record, is_trace_text, load_record, record_of_state
from .svg import render_svg
from .text import PHASE_NAMES, describe_move, legend, render_text, status_lines, use_color


def load_input(path: str) -> Record:
    """A map file (one frame: the start), a bundled map's name, or a trace (every frame) as
    a Record."""
    if not Path(path).is_file():
        source, game_map = load_map_argument(path)  # a bundled map, else a one-line error
        return record_of_state(initial_state(game_map), source.label)
    data = Path(path).read_bytes()
    if data[:2] == GZIP_MAGIC or is_trace_text(data[:4096].decode("utf-8", "replace")):
        return load_record(path)
    try:
        state = initial_state(read_map(decode_map_bytes(data)))
    except MapError as error:
        raise error.with_source(path) from None
    return record_of_state(state, path)


def frame_heading(record: Record, frame: Frame) -> str:
    """"move k of N: what happened" (or "start"), for captions and the terminal."""
    total = len(record.frames) - 1
    if frame.number == 0:
        return "start" if total == 0 else "start (game of %d moves)" % total
    return "move %d of %d: %s" % (frame.number, total, describe_move(frame))


def frame_now(frame: Frame) -> str:
    """The phase of the position and who moves next."""
    state = frame.state
    text = PHASE_NAMES.get(state.phase, state.phase)
    if state.to_move is not None:
        text += "; player %d to move" % state.to_move
    return text


def _last_move(frame: Frame) -> Optional[Move]:
    return None if frame.rejected else frame.move


def _write(text: str, output: str) -> None:
    if output == "-":
        sys.stdout.write(text)
    else:
        Path(output).write_text(text, encoding="utf-8")


def run_show(args: argparse.Namespace) -> int:
    """`reversi-ref show`: print the board of a map or of a trace's position as text."""
    record = load_input(args.input)
    frame = record.frame(args.move)
    color = use_color(sys.stdout, args.color)
    lines: List[str] = ["%s: %s" % (args.input, frame_heading(record, frame))]
    lines.append(render_text(frame.state, _last_move(frame), frame.captured, frame.legal,
                             color, frame.blasted))
    lines.extend(status_lines(frame.state, color))
    lines.append(legend(color))
    print("\n".join(lines))
    return 0


def run_render(args: argparse.Namespace) -> int:
    """`reversi-ref render`: write the board of a map or of a trace's position as SVG."""
    record = load_input(args.input)
    frame = record.frame(args.move)
    caption: List[str] = []
    if not args.no_caption:
        caption = ["%s: %s" % (Path(args.input).name, frame_heading(record, frame)),
                   frame_now(frame)]
    svg = render_svg(frame.state, _last_move(frame), frame.captured,
                     frame.legal if not args.no_legal else (), frame.blasted,
                     coordinates=not args.no_coordinates, caption=caption)
    _write(svg, args.output)
    return 0


def run_replay(args: argparse.Namespace) -> int:
    """`reversi-ref replay`: write a recorded game as one self-contained HTML page."""
    data = Path(args.input).read_bytes()
    if not (data[:2] == GZIP_MAGIC or is_trace_text(data[:4096].decode("utf-8", "replace"))):
        print("reversi-ref replay: %s is not a JSON trace (use `render` or `show` for a map)"
              % args.input, file=sys.stderr)
        return 1
    record = load_record(args.input)
    _write(render_replay(record, "reversi-ref replay: %s" % Path(args.input).name),
           args.output)
    return 0


def _add_input(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("input", metavar=what,
                        help="a map file, a bundled map's name, or a JSON trace (ours or "
                             "the official server's, gzip or plain)" if what != "TRACE" else
                        "a JSON trace (ours or the official server's, gzip or plain)")


def _add_move(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--move", type=int, default=-1, metavar="N",
                        help="the position after N moves (0 = the start, negative counts from "
                             "the end; default: the last)")


def register(subparsers: Any) -> None:
    """Add the `show`, `render` and `replay` subcommands."""
    show = subparsers.add_parser(
        "show", help="print a map or a position of a recorded game as text",
        description="Print the board with coordinates, legal positions (*), the last move (<) "
                    "and its captured (+) or blasted (#) cells, then each player's counts and "
                    "a legend of the tiles and markers.")
    _add_input(show, "MAP|TRACE")
    _add_move(show)
    colors = show.add_mutually_exclusive_group()
    colors.add_argument("--color", dest="color", action="store_const", const=True,
                        default=None, help="ANSI colours even when not writing to a terminal")
    colors.add_argument("--no-color", dest="color", action="store_const", const=False,
                        help="no colours (also when NO_COLOR is set or not on a terminal)")
    show.set_defaults(func=run_show)

    render = subparsers.add_parser(
        "render", help="draw a map or a position of a recorded game as SVG",
        description="Write an SVG picture: cells, holes, special tiles, stones, transitions, "
                    "legal positions and the last move with its captures.")
    _add_input(render, "MAP|TRACE")
    _add_move(render)
    render.add_argument("-o", "--output", required=True, metavar="FILE", type=output_file_or_stdout,
                        help="the SVG file to write (- for standard output)")
    render.add_argument("--no-coordinates", action="store_true",
                        help="leave out the row and column numbers")
    render.add_argument("--no-legal", action="store_true",
                        help="do not mark the legal positions")
    render.add_argument("--no-caption", action="store_true",
                        help="leave out the caption under the board")
    render.set_defaults(func=run_render)

    replay = subparsers.add_parser(
        "replay", help="write a recorded game as a self-contained HTML page",
        description="Write one HTML file (inline SVG and a little JavaScript, no network) that "
                    "steps through the game with the arrow keys, Home/End and a slider.")
    _add_input(replay, "TRACE")
    replay.add_argument("-o", "--output", required=True, metavar="FILE", type=output_file_or_stdout,
                        help="the HTML file to write (- for standard output)")
    replay.set_defaults(func=run_replay)
