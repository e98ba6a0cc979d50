"""reversi-ref: the open reference implementation of ReversiXT.

The public API (stable; other teams' tools depend on these names):

- `parse_map(text)` -> the initial `GameState`; `read_map(text)` -> the `Map` geometry;
  `format_map(map_or_state)` -> map-file text; `initial_state(map)` -> `GameState`.
- `legal_moves(state)` -> the `Move`s of the player to move, sorted by (y, x, special).
- `play(state, move)` -> the next `GameState` (raises `IllegalMoveError` naming the rule).
- `disqualify(state, player)` -> `GameState`.
- `scores(state)` and `ranking(state)` (RULES.md 7).
"""

from __future__ import annotations

from .errors import IllegalMoveError, MapError, ProtocolError, ReversiError, TraceError
from .geometry import Map, Transition
from .mapfile import format_map, read_map, read_map_file
from .rules import Standing, disqualify, initial_state, legal_moves, play, ranking, scores
from .state import BOMB, BUILD, OVER, GameState, Move

__version__ = "0.1.0"


def parse_map(text: str) -> GameState:
    """The initial state of a game on the map `text` (raises MapError when it is invalid)."""
    return initial_state(read_map(text))


__all__ = [
    "BOMB", "BUILD", "GameState", "IllegalMoveError", "Map", "MapError", "Move", "OVER",
    "ProtocolError", "ReversiError", "Standing", "TraceError", "Transition", "disqualify", "format_map",
    "initial_state", "legal_moves", "parse_map", "play", "ranking", "read_map",
    "read_map_file", "scores", "__version__",
]
