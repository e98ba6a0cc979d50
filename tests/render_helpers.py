"""A small hand-made position shared by the rendering tests, worked out by hand.

The map (3 players, no override stones, no bombs), 6 columns x 4 rows:

    c 0 0 0 0 i        row 0
    0 1 2 - 0 0        row 1: (3, 1) is a hole
    0 2 1 3 0 b        row 2
    x 0 0 0 0 0        row 3

Transitions: (0, 0) NW joined to itself; (5, 0) N <-> (5, 3) S, both facing off the board;
(2, 1) E <-> (4, 1) W, both facing the hole (3, 1).

Player 1 (stones at (1, 1) and (2, 2)) may play on (2, 0), (4, 1), (0, 2), (4, 2), (1, 3)
(each checked direction by direction, RULES.md 3); on (4, 1) it captures (2, 1) by walking
west through the transition into (2, 1) and on to its own (1, 1) (RULES.md 2).
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Tuple

from reversi_ref import legal_moves, parse_map, play
from reversi_ref.state import GameState, Move

TRANSITIONS = ("0 0 7 <-> 0 0 7", "5 0 0 <-> 5 3 4", "2 1 2 <-> 4 1 6")

SMALL_MAP = """3
0
0 0
4 6
c 0 0 0 0 i
0 1 2 - 0 0
0 2 1 3 0 b
x 0 0 0 0 0
""" + "\n".join(TRANSITIONS) + "\n"

PLAYER1_LEGAL = [(2, 0), (4, 1), (0, 2), (4, 2), (1, 3)]  # in (y, x) order
TRANSITION_MOVE = Move(4, 1)
TRANSITION_CAPTURE = [(2, 1)]

# A 4 x 3 map where nobody can build (every line runs into the edge), so the game starts in
# phase 2; a bomb of strength 1 on (0, 0) destroys (0, 0), (1, 0), (0, 1), (1, 1).
BOMB_MAP = """2
0
1 1
3 4
1 0 0 2
0 0 0 0
2 0 0 1
"""
BOMB_BLAST = [(0, 0), (1, 0), (0, 1), (1, 1)]

# Okabe & Ito's palette as published, player 1..8 (written out here, not read from the code).
OKABE_ITO = {1: "#0072B2", 2: "#E69F00", 3: "#009E73", 4: "#CC79A7",
             5: "#56B4E9", 6: "#D55E00", 7: "#F0E442", 8: "#000000"}


def small_state() -> GameState:
    """The start of a game on SMALL_MAP (player 1 to move)."""
    return parse_map(SMALL_MAP)


def first_moves(state: GameState, count: int) -> Tuple[List[Move], List[GameState]]:
    """Up to `count` moves, each the first legal move of the player to move, and the
    positions after each."""
    moves: List[Move] = []
    states: List[GameState] = []
    for _ in range(count):
        options = legal_moves(state)
        if not options:
            break
        moves.append(options[0])
        state = play(state, options[0])
        states.append(state)
    return moves, states


def trace_of(map_text: str, state: GameState, moves: List[Move],
             states: List[GameState]) -> Dict[str, Any]:
    """A trace in the referee's format (only the fields a replayer reads)."""
    entries: List[Dict[str, Any]] = []
    before = state
    for move, after in zip(moves, states):
        w = after.width
        entries.append({
            "move": len(entries), "player": before.to_move,
            "phase": 1 if before.phase == "build" else 2,
            "x": move.x, "y": move.y, "special": move.special,
            "board_after": ["".join(after.board[y * w:(y + 1) * w]) for y in range(after.height)],
        })
        before = after
    return {"format": "reversi-ref-trace-1", "map_text": map_text, "players": state.players,
            "moves": entries,
            "disqualifications": [], "phase1_end": None, "final": None}


def write_json(path: Any, data: Dict[str, Any]) -> None:
    """Write `data` as JSON to `path`."""
    with open(str(path), "w", encoding="utf-8") as handle:
        json.dump(data, handle)
