"""reversi-ref: the open reference implementation of ReversiXT.

The public API (stable; other teams' tools depend on these names):

- `parse_map(text)` -> the initial `GameState`; `read_map(text)` -> the `Map` geometry;
  `format_map(map_or_state)` -> map-file text; `initial_state(map)` -> `GameState`.
- `legal_moves(state)` -> the `Move`s of the player to move, sorted by (y, x, special).
- `play(state, move)` -> the next `GameState` (raises `IllegalMoveError` naming the rule).
- `disqualify(state, player)` -> `GameState`.
- `scores(state)` and `ranking(state)` (RULES.md 7).
- `Move.parse("3 4")`, `Move.parse("3,4,20")` -> `Move` (raises `InvalidMoveError`);
  `str(move)` -> "3,4" / "3,4,20".
- `str(state)` -> the board as text with a summary line; in Jupyter a `GameState` or a `Map`
  shows as a picture (`_repr_svg_`).
- Drawing: `render_text(state, last_move, captured, legal, color, blasted)` -> text;
  `render_svg(state, last_move, captured, legal, blasted, ...)` -> an SVG document;
  `load_record(path)` (a trace file) or `record_from_moves(state, moves)` -> a `Record`, and
  `render_replay(record)` -> a self-contained HTML page stepping through it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import (IllegalMoveError, InvalidMoveError, MapError, ProtocolError, ReversiError,
                     TraceError)
from .geometry import Map, Transition
from .mapfile import format_map, read_map, read_map_file
from .rules import Standing, disqualify, initial_state, legal_moves, play, ranking, scores
from .state import BOMB, BUILD, OVER, GameState, Move

if TYPE_CHECKING:
    from .render import load_record, record_from_moves, render_replay, render_svg, render_text

__version__ = "0.1.0"

# The drawing functions live in `reversi_ref.render`, imported on first use: it would add a
# third to a half to the time of `import reversi_ref` (docs/api.md), and the referee, the client
# and the engines never draw.
_RENDER_NAMES = ("load_record", "record_from_moves", "render_replay", "render_svg",
                 "render_text")


def __getattr__(name: str) -> Any:
    """The drawing functions of `_RENDER_NAMES`, imported from `render` on first use."""
    if name in _RENDER_NAMES:
        from . import render
        value = getattr(render, name)
        globals()[name] = value
        return value
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def parse_map(text: str) -> GameState:
    """The initial state of a game on the map `text` (raises MapError when it is invalid)."""
    return initial_state(read_map(text))


__all__ = [
    "BOMB", "BUILD", "GameState", "IllegalMoveError", "InvalidMoveError", "Map", "MapError",
    "Move", "OVER", "ProtocolError", "ReversiError", "Standing", "TraceError", "Transition",
    "disqualify", "format_map", "initial_state", "legal_moves", "load_record", "parse_map",
    "play", "ranking", "read_map", "read_map_file", "record_from_moves", "render_replay",
    "render_svg", "render_text", "scores", "__version__",
]
