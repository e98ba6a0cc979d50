"""The immutable geometry of a map: size, cells at the start, counts and transitions.

A `Map` is what a map file says and nothing more; the board as it changes during a game lives
in `GameState`.  Cells are `(x, y)` with `(0, 0)` top left; directions are 0..7 = N, NE, E, SE,
S, SW, W, NW (RULES.md, notation).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

Cell = Tuple[int, int]
Side = Tuple[int, int, int]  # (x, y, direction): the side of cell (x, y) facing direction

# The cell characters of the map format (RULES.md 1).
EMPTY = "0"
HOLE = "-"
CHOICE = "c"
INVERSION = "i"
BONUS = "b"
EXPANSION = "x"
PLAYER_STONES = "12345678"
CELL_CHARS = "012345678-cibx"

# (dx, dy) for directions 0..7, clockwise from north.
DIRECTIONS: Tuple[Tuple[int, int], ...] = (
    (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1),
)
DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def opposite(direction: int) -> int:
    """The direction pointing the other way."""
    return (direction + 4) % 8


def open_sides(height: int, width: int, cells: Sequence[str]) -> List[Tuple[int, int, int]]:
    """Every side (x, y, d), in (y, x, d) order, of a non-hole cell that faces off the board
    or onto a hole: the sides a transition may use (RULES.md 1)."""
    sides: List[Tuple[int, int, int]] = []
    for y in range(height):
        for x in range(width):
            if cells[y * width + x] == HOLE:
                continue
            for d, (dx, dy) in enumerate(DIRECTIONS):
                nx, ny = x + dx, y + dy
                if not (0 <= nx < width and 0 <= ny < height) or cells[ny * width + nx] == HOLE:
                    sides.append((x, y, d))
    return sides


class Transition(NamedTuple):
    """A transition `x1 y1 d1 <-> x2 y2 d2` joining two sides (RULES.md 1)."""

    x1: int
    y1: int
    d1: int
    x2: int
    y2: int
    d2: int

    @property
    def sides(self) -> Tuple[Side, Side]:
        """The two sides it joins."""
        return (self.x1, self.y1, self.d1), (self.x2, self.y2, self.d2)


def _transition_exits(transitions: Tuple[Transition, ...]) -> Dict[Side, Side]:
    exits: Dict[Side, Side] = {}
    for t in transitions:
        (x1, y1, d1), (x2, y2, d2) = t.sides
        # Leaving through one side, the walk arrives on the other end's cell and
        # continues away from the side it came in by (RULES.md 2).
        exits[(x1, y1, d1)] = (x2, y2, opposite(d2))
        exits[(x2, y2, d2)] = (x1, y1, opposite(d1))
    return exits


@dataclass(frozen=True)
class Map:
    """A parsed map file: n players, counts, size, the starting cells and the transitions.

    `cells` is row-major (index `y * width + x`), one map-file character per cell.
    `overrides`, `bombs` and `strength` are already reduced modulo 256 (RULES.md 1).
    """

    players: int
    overrides: int
    bombs: int
    strength: int
    height: int
    width: int
    cells: Tuple[str, ...]
    transitions: Tuple[Transition, ...] = ()
    exits: Dict[Side, Side] = field(default_factory=dict, compare=False, hash=False,
                                    repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "exits", _transition_exits(self.transitions))

    def is_on_board(self, x: int, y: int) -> bool:
        """Whether (x, y) lies inside the width x height rectangle."""
        return 0 <= x < self.width and 0 <= y < self.height

    def index(self, x: int, y: int) -> int:
        """The row-major index of cell (x, y)."""
        return y * self.width + x

    def transition_exit(self, x: int, y: int, direction: int) -> Optional[Side]:
        """Where a step through side (x, y, direction) lands and in which direction it goes on,
        or None when no transition is attached to that side."""
        return self.exits.get((x, y, direction))

    def __repr__(self) -> str:
        holes = self.cells.count("-")
        return "<Map %dx%d, %d players, overrides %d, bombs %d (strength %d), %d holes, " \
               "%d transitions>" % (self.width, self.height, self.players, self.overrides,
                                    self.bombs, self.strength, holes, len(self.transitions))

    def _repr_svg_(self) -> str:
        """The map as an SVG picture (Jupyter shows it in place of the repr)."""
        # Imported on first use: drawing lives downstream of the geometry (one-way data flow).
        from .render.svg import notebook_map_svg
        return notebook_map_svg(self)
