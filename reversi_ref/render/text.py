"""Boards as terminal text: coordinates, player colours, legal positions, the last move.

The layout is the one the referee prints (`reversi_ref.match.board_lines`, after the official
server): x coordinates above (tens digit on its own line past 9), y on the left, each cell
followed by one marker column.  Markers: `*` legal for the player to move, `<` the last move's
target, `+` a cell its capture lines took, `#` a cell its bomb destroyed.  No marker is a cell
character of the map format (`x` is an expansion stone), and the conformance diffs use
characters of their own (`reversi_ref.specs.judge`), so each character has one meaning.  With
colour on, stones get their player's colour (ANSI 256-colour backgrounds, close to the SVG
palette) and the last move and its captures are underlined as well.

`state_text(state)` is what `str(state)` prints: the board and one summary line.
"""

from __future__ import annotations

import os
from typing import Collection, Dict, Iterable, List, Optional, TextIO, Tuple

from ..geometry import Cell
from ..rules import scores
from ..state import BOMB, BUILD, GameState, Move
from .record import Frame

LEGAL_MARK = "*"
LAST_MARK = "<"
CAPTURED_MARK = "+"
BLASTED_MARK = "#"
# (marker, meaning) in the order the legend lists them.
MARKERS: Tuple[Tuple[str, str], ...] = (
    (LEGAL_MARK, "legal"), (LAST_MARK, "last move"), (CAPTURED_MARK, "captured"),
    (BLASTED_MARK, "blasted"),
)
# (cell characters, meaning) of the map format (RULES.md 1), for the legend.
TILES: Tuple[Tuple[str, str], ...] = (
    ("0", "empty"), ("12345678", "player stones"), ("x", "expansion stone"), ("c", "choice"),
    ("i", "inversion"), ("b", "bonus"), ("-", "hole"),
)

RESET = "\x1b[0m"
# Per player 1..8: (xterm-256 background, foreground) approximating the SVG palette.
ANSI_STONES: Dict[str, Tuple[int, int]] = {
    "1": (25, 231), "2": (214, 16), "3": (29, 231), "4": (175, 16),
    "5": (74, 16), "6": (166, 231), "7": (227, 16), "8": (16, 231),
}
ANSI_TILES: Dict[str, str] = {
    "x": "\x1b[48;5;246;38;5;16m",   # expansion stone: grey
    "c": "\x1b[1;38;5;133m",         # choice
    "i": "\x1b[1;38;5;37m",          # inversion
    "b": "\x1b[1;38;5;136m",         # bonus
    "-": "\x1b[38;5;240m",           # hole
}
ANSI_MARK = "\x1b[1m"
UNDERLINE = "\x1b[4m"

PHASE_NAMES = {BUILD: "phase 1 (building)", BOMB: "phase 2 (bombing)", "over": "game over"}


def use_color(stream: TextIO, choice: Optional[bool] = None) -> bool:
    """Whether to write ANSI colours to `stream`: `choice` when given (--color/--no-color),
    else only for a terminal and when the NO_COLOR environment variable is unset or empty."""
    if choice is not None:
        return choice
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except (OSError, ValueError):
        return False


def _paint(cell: str, underline: bool) -> str:
    """The ANSI-coloured form of one cell character."""
    if cell in ANSI_STONES:
        background, foreground = ANSI_STONES[cell]
        style = "\x1b[1;48;5;%d;38;5;%dm" % (background, foreground)
    else:
        style = ANSI_TILES.get(cell, "")
    if underline:
        style += UNDERLINE
    return style + cell + RESET if style else cell


def _marker(cell: Cell, last: Optional[Cell], captured: Collection[Cell],
            blasted: Collection[Cell], legal: Collection[Cell]) -> str:
    if cell == last:
        return LAST_MARK
    if cell in captured:
        return CAPTURED_MARK
    if cell in blasted:
        return BLASTED_MARK
    if cell in legal:
        return LEGAL_MARK
    return " "


def render_text(state: GameState, last_move: Optional[Move] = None,
                captured: Iterable[Cell] = (), legal: Iterable[Cell] = (),
                color: bool = False, blasted: Iterable[Cell] = ()) -> str:
    """The board of `state` as text lines (no trailing newline): x coordinates above, y on
    the left, and a marker after a cell: `*` for each cell in `legal`, `<` for the last
    move's target, `+` for each `captured` cell, `#` for each `blasted` cell; ANSI colours
    when `color` (see `use_color`)."""
    last = (last_move[0], last_move[1]) if last_move is not None else None
    captured_set = set(captured)
    blasted_set = set(blasted)
    legal_set = set(legal)
    width, height = state.width, state.height
    label = len(str(max(height - 1, 0)))
    pad = " " * (label + 2)
    lines: List[str] = []
    if width > 10:
        lines.append(pad + "".join(
            (str(x // 10) if x >= 10 else " ") + " " for x in range(width)).rstrip())
    lines.append(pad + "".join(str(x % 10) + " " for x in range(width)).rstrip())
    for y in range(height):
        parts: List[str] = []
        for x in range(width):
            cell = state.cell(x, y)
            mark = _marker((x, y), last, captured_set, blasted_set, legal_set)
            if color:
                highlighted = mark in (LAST_MARK, CAPTURED_MARK)
                text = _paint(cell, highlighted)
                if mark != " ":
                    text += ANSI_MARK + mark + RESET
                else:
                    text += mark
            else:
                text = cell + mark
            parts.append(text)
        row = "".join(parts)
        lines.append(("%*d  %s" % (label, y, row)).rstrip())
    return "\n".join(lines)


def status_lines(state: GameState, color: bool = False) -> List[str]:
    """The phase, who moves, and per player stones, override stones and bombs."""
    counts = scores(state)
    mover = state.to_move
    head = PHASE_NAMES.get(state.phase, state.phase)
    if mover is not None:
        head += "; player %d to move" % mover
    lines = [head]
    for player in range(1, state.players + 1):
        name = str(player)
        if color:
            name = _paint(name, False)
        status = "  disqualified" if player in state.disqualified else ""
        arrow = "> " if player == mover else "  "
        lines.append("%splayer %s: %3d stones, %3d overrides, %3d bombs%s"
                     % (arrow, name, counts[player], state.overrides[player - 1],
                        state.bombs[player - 1], status))
    return lines


def summary_parts(state: GameState) -> List[str]:
    """The phase and who moves, each player's override stones, bombs, and who is
    disqualified (when anyone is): the parts of `summary_line`."""
    head = PHASE_NAMES.get(state.phase, state.phase)
    if state.to_move is not None:
        head += ", player %d to move" % state.to_move
    seats = range(1, state.players + 1)
    parts = [head,
             "overrides " + " ".join("%d:%d" % (p, state.overrides[p - 1]) for p in seats),
             "bombs " + " ".join("%d:%d" % (p, state.bombs[p - 1]) for p in seats)]
    if state.disqualified:
        parts.append("disqualified " + " ".join(str(p) for p in sorted(state.disqualified)))
    return parts


def summary_line(state: GameState) -> str:
    """One line: the phase, who moves, each player's override stones and bombs, and who is
    disqualified ("phase 1 (building), player 1 to move; overrides 1:3 2:3; bombs 1:1 2:1")."""
    return "; ".join(summary_parts(state))


def state_text(state: GameState) -> str:
    """The board with coordinates (`render_text`) and the `summary_line` under it: what
    `str(state)` gives."""
    return render_text(state) + "\n" + summary_line(state)


def legend(color: bool = False) -> str:
    """Two lines: what the cell characters (tiles) and the markers mean."""
    tiles: List[str] = []
    for chars, meaning in TILES:
        if color:
            shown = "".join(_paint(c, False) for c in chars)
        else:
            shown = chars if len(chars) == 1 else "%s..%s" % (chars[0], chars[-1])
        tiles.append("%s %s" % (shown, meaning))
    markers: List[str] = []
    for mark, meaning in MARKERS:
        markers.append("%s %s" % (ANSI_MARK + mark + RESET if color else mark, meaning))
    return "tiles: %s\nmarkers: %s" % (", ".join(tiles), ", ".join(markers))


def describe_move(frame: Frame) -> str:
    """What happened in `frame` in words: the mover, the move, its special effect or bomb,
    a disqualification ("start" for frame 0)."""
    parts: List[str] = []
    if frame.player is not None:
        before = frame.before
        move = frame.move
        if frame.rejected:
            where = "" if move is None else " (answered %d, %d special %d)" % move
            parts.append("player %d is disqualified: %s%s" % (frame.player, frame.reason, where))
        elif move is not None and before is not None:
            parts.append("player %d plays (%d, %d)" % (frame.player, move.x, move.y))
            if frame.phase == BOMB:
                count = len(frame.blasted)
                parts.append("bomb destroys %d cell%s" % (count, "" if count == 1 else "s"))
            else:
                target = before.cell(move.x, move.y)
                if target in "12345678x":
                    parts.append("override on %s" % ("an expansion stone" if target == "x"
                                                     else "a stone of player %s" % target))
                if target == "c":
                    parts.append("choice: swaps stones with player %d" % move.special)
                elif target == "i":
                    parts.append("inversion: every stone moves to the next player")
                elif target == "b":
                    parts.append("bonus: +1 %s" % ("bomb" if move.special == 20
                                                  else "override stone"))
                count = len(frame.captured)
                parts.append("captures %d stone%s" % (count, "" if count == 1 else "s"))
    else:
        parts.append("start")
    if frame.disqualified and not frame.rejected:
        parts.append("disqualified: %s (%s)" % (
            ", ".join("player %d" % p for p in frame.disqualified), frame.reason))
    return "; ".join(parts)
