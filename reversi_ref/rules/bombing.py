"""RULES.md 5: the bombing phase: targets and the blast.

Rules text: docs/rules.md#5-the-bombing-phase.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Dict, List, Optional

from ..errors import IllegalMoveError
from ..geometry import HOLE, Cell
from ..state import GameState, Move
from .walking import step


def bomb_target_error(state: GameState, move: Move) -> Optional[str]:
    """RULES.md 5: why `move` is not a valid bomb target, or None (any non-hole cell is)."""
    if state.cell(move.x, move.y) == HOLE:
        return "RULES.md 5: a bomb may not target a hole"
    # A non-zero special byte on a bomb is tolerated.
    return None


def bombing_moves(state: GameState) -> List[Move]:
    """RULES.md 5: every valid bomb target, sorted by (y, x), each with special 0."""
    return [Move(x, y) for y in range(state.height) for x in range(state.width)
            if state.cell(x, y) != HOLE]


def blast_cells(state: GameState, x: int, y: int) -> List[Cell]:
    """RULES.md 5: the cells a bomb on (x, y) destroys, in breadth-first order.

    From each reached cell one step goes in each of the 8 directions, through a transition where
    one is attached (RULES.md 2); a step never enters a hole.  Cells within `strength` steps of
    the target are destroyed.
    """
    distance: Dict[Cell, int] = {(x, y): 0}
    frontier = [(x, y)]
    for radius in range(1, state.map.strength + 1):
        reached: List[Cell] = []
        for cx, cy in frontier:
            for direction in range(8):
                position = step(state, cx, cy, direction)
                if position is not None and position[:2] not in distance:
                    cell = (position[0], position[1])
                    distance[cell] = radius
                    reached.append(cell)
        frontier = reached
    return list(distance)


def check_bomb(state: GameState, player: int, move: Move) -> None:
    """RULES.md 5: raise IllegalMoveError when `move` is not a valid bomb for `player`."""
    reason = bomb_target_error(state, move)
    if reason is not None:
        raise IllegalMoveError(reason, "player %d at (%d, %d)" % (player, move.x, move.y))


def apply_bomb(state: GameState, player: int, move: Move) -> GameState:
    """RULES.md 5: every blasted cell becomes a hole and the bomber spends one bomb."""
    board = list(state.board)
    for cx, cy in blast_cells(state, move.x, move.y):
        board[state.map.index(cx, cy)] = HOLE
    i = player - 1
    bombs = state.bombs[:i] + (state.bombs[i] - 1,) + state.bombs[i + 1:]
    return replace(state, board=tuple(board), bombs=bombs)
