"""The JSON forms the golden suite and the adapter protocol use (specs/README.md, "Format").

Everything here is plain JSON: objects, arrays, strings, integers and null.  A state is
`{"board": [rows], "to_move": p or null, "phase": "build"|"bomb"|"over", "overrides": [...],
"bombs": [...], "disqualified": [...]}` where each row is a string of one map-file character
per cell (no spaces), counts are listed for players 1..n and `disqualified` is sorted.  A move
is `[x, y, special]`.  A step of a game is `{"move": [x, y, special]}` or `{"disqualify": p}`.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Dict, List, Optional, Tuple

from ..errors import ReversiError
from ..geometry import CELL_CHARS, Map
from ..mapfile import read_map
from ..rules import initial_state
from ..state import BOMB, BUILD, OVER, GameState, Move

PHASES = (BUILD, BOMB, OVER)

# One JSON value; the suite only holds objects, arrays, strings, ints and null.
JSON = Any
JSONObject = Dict[str, Any]


class SpecError(ReversiError, ValueError):
    """A suite file, case or request that does not follow the format of specs/README.md."""


# --------------------------------------------------------------------------- states


def state_to_json(state: GameState) -> JSONObject:
    """The JSON form of a position (board rows without spaces, counts for players 1..n)."""
    width = state.width
    board = ["".join(state.board[y * width:(y + 1) * width]) for y in range(state.height)]
    return {
        "board": board,
        "to_move": state.to_move,
        "phase": state.phase,
        "overrides": list(state.overrides),
        "bombs": list(state.bombs),
        "disqualified": sorted(state.disqualified),
    }


def _int_list(value: JSON, length: int, what: str) -> Tuple[int, ...]:
    if not isinstance(value, list) or len(value) != length or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise SpecError("%s must be a list of %d integers" % (what, length))
    return tuple(value)


def state_from_json(game_map: Map, value: JSON) -> GameState:
    """The `GameState` a JSON state describes on `game_map` (raises SpecError when malformed)."""
    if not isinstance(value, dict):
        raise SpecError("a state must be a JSON object")
    n = game_map.players
    rows = value.get("board")
    if (not isinstance(rows, list) or len(rows) != game_map.height
            or not all(isinstance(r, str) and len(r) == game_map.width for r in rows)):
        raise SpecError("state board must be %d strings of %d cells"
                        % (game_map.height, game_map.width))
    board = tuple(c for row in rows for c in row)
    if any(c not in CELL_CHARS for c in board):
        raise SpecError("state board holds a character that is not a cell")
    phase = value.get("phase")
    if phase not in PHASES:
        raise SpecError("state phase must be one of %s" % ", ".join(PHASES))
    to_move = value.get("to_move")
    if to_move is not None and (not isinstance(to_move, int) or not 1 <= to_move <= n):
        raise SpecError("state to_move must be null or a player 1..%d" % n)
    disqualified = value.get("disqualified", [])
    if not isinstance(disqualified, list) or not all(
            isinstance(p, int) and 1 <= p <= n for p in disqualified):
        raise SpecError("state disqualified must be a list of players 1..%d" % n)
    return GameState(
        map=game_map,
        board=board,
        overrides=_int_list(value.get("overrides"), n, "state overrides"),
        bombs=_int_list(value.get("bombs"), n, "state bombs"),
        disqualified=frozenset(disqualified),
        phase=str(phase),
        to_move=to_move,
    )


def position(map_text: str, state: Optional[JSONObject]) -> GameState:
    """The position of a case or request: the map's initial state, or `state` on the map."""
    game_map = read_map(map_text)
    if state is None:
        return initial_state(game_map)
    return state_from_json(game_map, state)


def with_changes(state: GameState, **changes: Any) -> GameState:
    """`state` with some fields replaced (a thin wrapper so callers need not import dataclasses)."""
    return replace(state, **changes)


# --------------------------------------------------------------------------- moves and maps


def move_to_json(move: Move) -> List[int]:
    """`[x, y, special]`."""
    return [move.x, move.y, move.special]


def move_from_json(value: JSON) -> Move:
    """The `Move` of `[x, y, special]` (raises SpecError when malformed)."""
    if (not isinstance(value, list) or len(value) != 3
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise SpecError("a move must be [x, y, special], three integers")
    return Move(value[0], value[1], value[2])


def map_to_json(game_map: Map) -> JSONObject:
    """The header and transitions of a map as the `map_load` answer gives them."""
    return {
        "players": game_map.players,
        "overrides": game_map.overrides,
        "bombs": game_map.bombs,
        "strength": game_map.strength,
        "height": game_map.height,
        "width": game_map.width,
        "transitions": [list(t) for t in game_map.transitions],
    }


def normalized_transitions(value: JSON) -> List[List[int]]:
    """The transitions a list puts in force, as sorted `[x1, y1, d1, x2, y2, d2]` with the
    smaller side first, so that engines storing them in another order or the other way round
    compare equal.  Read in order, a transition replaces any earlier one on the same side
    (RULES.md 1), and sides joined to themselves are left out: walking one is a U-turn that
    captures nothing and blasts nothing new, exactly like the edge."""
    if not isinstance(value, list):
        raise SpecError("transitions must be a list")
    exits: Dict[Tuple[int, ...], Tuple[int, ...]] = {}
    for t in value:
        if (not isinstance(t, list) or len(t) != 6
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in t)):
            raise SpecError("a transition must be six integers [x1, y1, d1, x2, y2, d2]")
        first, second = tuple(t[:3]), tuple(t[3:])
        for side in (first, second):
            if side in exits:
                exits.pop(exits.pop(side), None)
        exits[first], exits[second] = second, first
    return sorted([list(a + b) for a, b in exits.items() if a < b])


# --------------------------------------------------------------------------- lines


def dumps(value: JSON) -> str:
    """Compact, deterministic JSON text (ASCII only, keys in the order built)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True)
