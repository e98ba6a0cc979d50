"""RULES.md 2: walking the board, one step at a time, through transitions.

Rules text: docs/rules.md#2-walking-the-board.
"""

from __future__ import annotations

from typing import Optional, Tuple

from ..geometry import DIRECTIONS, HOLE
from ..state import GameState

# Where a step lands: the cell (x, y) and the direction the walk goes on in.
Position = Tuple[int, int, int]


def step(state: GameState, x: int, y: int, direction: int) -> Optional[Position]:
    """RULES.md 2: one step from (x, y) in `direction`; None at the board edge or a hole.

    A transition attached to the side (x, y, direction) is followed and the walk goes on away
    from the far end's side; otherwise the step goes to the ordinary neighbour.
    """
    game_map = state.map
    exit_side = game_map.exits.get((x, y, direction))
    if exit_side is not None:
        nx, ny, heading = exit_side
    else:
        dx, dy = DIRECTIONS[direction]
        nx, ny, heading = x + dx, y + dy, direction
        # The walk ends at the board edge.
        if not (0 <= nx < game_map.width and 0 <= ny < game_map.height):
            return None
    # The walk ends on a hole (a transition's far end may have become one in phase 2).
    if state.board[ny * game_map.width + nx] == HOLE:
        return None
    return nx, ny, heading
