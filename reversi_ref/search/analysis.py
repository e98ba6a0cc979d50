"""What a map's geometry says about its cells, for the evaluation.

A stone is flipped only from inside a line: the capture walk enters its cell through one side
and leaves through the opposite side (RULES.md 2-3), so a line runs through a cell along an
axis (N-S, NE-SW, E-W, SE-NW) only when both sides of that axis have a step, be it to a
neighbour or through a transition.  Holes and the board edge block a side; a transition opens
it again.

- A cell is *corner-like* when every axis is blocked on at least one side: a stone there is
  never captured (only override stones, choice and inversion take it).
- *Edge-like* cells have exactly one open axis, *half-open* cells two.
- The neighbours of a corner-like cell (everything one step away) are where a player gives the
  corner away, as long as the corner is free.
- A free cell that no chain of steps links to a player's stone (nor to an expansion stone,
  when a player has or can get an override stone) can never be played or captured: every
  move lands one step from a stone it captures with, or on an expansion stone.  With
  `skip_cut_off` the time plan leaves such cells out of the moves to come
  (`timing.expected_own_moves`).
"""

from __future__ import annotations

from functools import cached_property
from typing import List, Tuple

from ..geometry import (BONUS, CHOICE, DIRECTIONS, EMPTY, EXPANSION, HOLE, INVERSION,
                        PLAYER_STONES, Map)

# The four line axes as pairs of opposite directions.
AXES: Tuple[Tuple[int, int], ...] = ((0, 4), (1, 5), (2, 6), (3, 7))

CORNER = 4
EDGE = 3
HALF_OPEN = 2


def step_exists(game_map: Map, x: int, y: int, direction: int) -> bool:
    """Whether a walk from (x, y) can take a step in `direction` (RULES.md 2): a transition
    on that side, or a neighbour on the board that is not a hole."""
    if game_map.exits.get((x, y, direction)) is not None:
        return True
    dx, dy = DIRECTIONS[direction]
    x2, y2 = x + dx, y + dy
    if not (0 <= x2 < game_map.width and 0 <= y2 < game_map.height):
        return False
    return game_map.cells[y2 * game_map.width + x2] != HOLE


def step_target(game_map: Map, x: int, y: int, direction: int) -> int:
    """The row-major index of the cell one step from (x, y) in `direction`, or -1."""
    far = game_map.exits.get((x, y, direction))
    if far is not None:
        return far[1] * game_map.width + far[0]
    dx, dy = DIRECTIONS[direction]
    x2, y2 = x + dx, y + dy
    if not (0 <= x2 < game_map.width and 0 <= y2 < game_map.height):
        return -1
    if game_map.cells[y2 * game_map.width + x2] == HOLE:
        return -1
    return y2 * game_map.width + x2


def blocked_axes(game_map: Map, x: int, y: int) -> int:
    """How many of the four axes have no line through (x, y): 4 for a corner-like cell."""
    blocked = 0
    for a, b in AXES:
        if not (step_exists(game_map, x, y, a) and step_exists(game_map, x, y, b)):
            blocked += 1
    return blocked


def unreachable_free_cells(game_map: Map) -> int:
    """How many free cells (empty, choice, inversion, bonus) no chain of steps links to a
    player's stone, nor to an expansion stone when a player has or can get an override stone
    (in hand at the start, or from a bonus tile linked to a stone)."""
    width = game_map.width
    reached = [False] * len(game_map.cells)

    def spread(seeds: str) -> None:
        frontier = [i for i, cell in enumerate(game_map.cells) if cell in seeds and not reached[i]]
        for index in frontier:
            reached[index] = True
        while frontier:
            index = frontier.pop()
            for direction in range(8):
                target = step_target(game_map, index % width, index // width, direction)
                if target >= 0 and not reached[target]:
                    reached[target] = True
                    frontier.append(target)

    spread(PLAYER_STONES[:game_map.players])
    if game_map.overrides or any(reached[i] and cell == BONUS
                                 for i, cell in enumerate(game_map.cells)):
        spread(EXPANSION)
    free = (EMPTY, CHOICE, INVERSION, BONUS)
    return sum(1 for index, cell in enumerate(game_map.cells)
               if cell in free and not reached[index])


class MapAnalysis:
    """Per-cell facts of one map (row-major lists, holes included as 0 / empty).

    `blocked[c]`: blocked axes of cell c (-1 for a hole); `corners`: the corner-like cells;
    `corner_neighbours[i]`: the cells one step from `corners[i]` (not corner-like themselves);
    `playable`: the number of non-hole cells; `unreachable_free`: free cells that no move can
    ever fill (`unreachable_free_cells`, counted on first use).
    """

    def __init__(self, game_map: Map) -> None:
        width = game_map.width
        cells = width * game_map.height
        self.width = width
        self.cells = cells
        self.blocked: List[int] = [-1] * cells
        for y in range(game_map.height):
            for x in range(width):
                if game_map.cells[y * width + x] != HOLE:
                    self.blocked[y * width + x] = blocked_axes(game_map, x, y)
        self.playable = sum(1 for b in self.blocked if b >= 0)
        self.game_map = game_map
        self.corners: List[int] = [c for c in range(cells) if self.blocked[c] == CORNER]
        self.corner_neighbours: List[List[int]] = []
        for c in self.corners:
            x, y = c % width, c // width
            near = set()
            for d in range(8):
                t = step_target(game_map, x, y, d)
                if t >= 0 and t != c and self.blocked[t] != CORNER:
                    near.add(t)
            self.corner_neighbours.append(sorted(near))

    @cached_property
    def unreachable_free(self) -> int:
        """Free cells no move can ever fill; counted only when asked (`skip_cut_off`), since
        the count costs about as much as the rest of the analysis on a large map."""
        return unreachable_free_cells(self.game_map)

    def count(self, kind: int) -> int:
        """How many cells have exactly `kind` blocked axes."""
        return sum(1 for b in self.blocked if b == kind)
