"""RULES.md 2: walking the board, one step at a time, through transitions.

Rules text: docs/rules.md#2-walking-the-board.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from ..geometry import DIRECTIONS, HOLE, opposite
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


def steps_into(state: GameState, x: int, y: int, heading: int) -> List[Position]:
    """RULES.md 2 backwards: every position from which one step lands on (x, y) with the walk
    going on in `heading`.

    A step is undone by going back through the transition attached to the side the walk came
    in by, or else to the ordinary neighbour behind.  On a board whose holes are the map's
    holes or more (as in every game) there is at most one such position, so walks never merge.
    """
    game_map = state.map
    sources: List[Position] = []
    # Through a transition: the walk came in by the side (x, y, opposite(heading)).
    far = game_map.exits.get((x, y, opposite(heading)))
    if far is not None:
        fx, fy, far_heading = far
        source = (fx, fy, opposite(far_heading))
        if state.cell(fx, fy) != HOLE and step(state, *source) == (x, y, heading):
            sources.append(source)
    # From the ordinary neighbour behind, if its own step that way is not a transition.
    dx, dy = DIRECTIONS[heading]
    px, py = x - dx, y - dy
    if (0 <= px < game_map.width and 0 <= py < game_map.height
            and state.cell(px, py) != HOLE and (px, py, heading) not in game_map.exits):
        sources.append((px, py, heading))
    return sources
