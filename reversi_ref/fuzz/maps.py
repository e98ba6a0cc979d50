"""Random maps for differential fuzzing, covering every feature of RULES.md 1-5.

`generate_map(rng, features)` draws one valid map: 1x1 to 50x50 (mostly small), 2-8 players,
holes (scattered, and walls of holes that split the board into regions), every tile, stones in
Othello blocks and scattered, counts near 0 and near 255, strength 0 and more, often no bombs,
and transitions of every kind: random pairs of sides, sides joined to themselves, wrap-arounds
that loop a line back to its target, jumps over holes, and chains (a transition landing where
the walk leaves by another transition).  Some maps leave players without a move at the start,
or are over before the first move.

Only `random()`, `randrange()`, `randint()` and `choice()` on lists are used, so a seed gives
the same map on every CPython 3.9+ and on PyPy.
"""

from __future__ import annotations

import random
from typing import AbstractSet, List, Set, Tuple

from ..geometry import DIRECTIONS, HOLE, Map, Side, Transition, opposite, open_sides

# What `--features` may ask for more of.
FEATURES = ("transitions", "choice", "inversion", "bonus", "expansion", "overrides", "holes",
            "bombs", "players", "wrap", "illegal", "disqualify", "small", "large")

TILE_FEATURES = (("c", "choice"), ("i", "inversion"), ("b", "bonus"), ("x", "expansion"))


def _size(rng: random.Random, features: AbstractSet[str]) -> Tuple[int, int]:
    """Height and width: mostly small boards, some thin ones, 1x1, and a few up to 50x50."""
    roll = rng.random()
    if "large" in features:
        roll = 0.8 + 0.2 * roll
    elif "small" in features:
        roll = 0.75 * roll
    if roll < 0.03:
        return 1, 1
    if roll < 0.11:
        length = rng.randint(2, 20)
        return (1, length) if rng.random() < 0.5 else (length, 1)
    if roll < 0.75:
        return rng.randint(2, 8), rng.randint(2, 8)
    if roll < 0.94:
        return rng.randint(4, 16), rng.randint(4, 16)
    return rng.randint(10, 50), rng.randint(10, 50)


def _count(rng: random.Random, wrap: bool, usual: List[int]) -> int:
    """An 8-bit count: near 0 usually, near 255 sometimes (always often with `wrap`)."""
    if rng.random() < (0.5 if wrap else 0.12):
        return rng.choice([253, 254, 255, 255])
    if rng.random() < 0.05:
        return rng.randint(0, 255)
    return rng.choice(usual)


def _hole_walls(rng: random.Random, cells: List[str], height: int, width: int) -> None:
    """One or two lines of holes across the board (row, column or diagonal), some with a gap,
    so that the board falls apart into regions."""
    for _ in range(rng.choice([1, 1, 2])):
        kind = rng.randrange(3)
        if kind == 0 and height > 2:
            y = rng.randint(1, height - 2)
            line = [(x, y) for x in range(width)]
        elif kind == 1 and width > 2:
            x = rng.randint(1, width - 2)
            line = [(x, y) for y in range(height)]
        else:
            start = rng.randrange(max(1, width))
            line = [(start + k, k) for k in range(height) if 0 <= start + k < width]
        gap = rng.randrange(len(line)) if line and rng.random() < 0.3 else -1
        for k, (x, y) in enumerate(line):
            if k != gap:
                cells[y * width + x] = HOLE


def _place_block(rng: random.Random, cells: List[str], height: int, width: int,
                 players: int) -> None:
    """Two rows of stones 1..n, the second shifted by one (an Othello start for n = 2)."""
    rows, cols = min(2, height), min(players, width)
    top = rng.randrange(height - rows + 1)
    left = rng.randrange(width - cols + 1)
    shift = rng.randrange(players)
    for r in range(rows):
        for c in range(cols):
            cells[(top + r) * width + left + c] = str((c + r + shift) % players + 1)


def _cells(rng: random.Random, height: int, width: int, players: int,
           features: AbstractSet[str]) -> List[str]:
    cells = ["0"] * (height * width)
    hole_rate = rng.choice([0.0, 0.0, 0.0, 0.05, 0.1, 0.2, 0.4])
    if "holes" in features:
        hole_rate = rng.choice([0.1, 0.2, 0.3])
    rates = []
    for _, feature in TILE_FEATURES:
        rate = rng.choice([0.0, 0.0, 0.02, 0.05, 0.1])
        rates.append(rng.choice([0.05, 0.1, 0.2]) if feature in features else rate)
    stone_rate = rng.choice([0.0, 0.0, 0.05, 0.15, 0.3])
    for index in range(len(cells)):
        roll = rng.random()
        if roll < hole_rate:
            cells[index] = HOLE
            continue
        roll -= hole_rate
        for (tile, _), rate in zip(TILE_FEATURES, rates):
            if roll < rate:
                cells[index] = tile
                break
            roll -= rate
        else:
            if roll < stone_rate:
                cells[index] = str(rng.randint(1, players))
    if rng.random() < (0.6 if "holes" in features else 0.2):
        _hole_walls(rng, cells, height, width)
    # No block at all sometimes: players without a move, maps over at the start.
    for _ in range(rng.choice([0, 1, 1, 1, 2, 3])):
        _place_block(rng, cells, height, width, players)
    return cells


class _Sides:
    """The open sides of a board still free for a transition (RULES.md 1: each side once)."""

    def __init__(self, height: int, width: int, cells: List[str]) -> None:
        self.height, self.width, self.cells = height, width, cells
        self.order = open_sides(height, width, cells)
        self.free: Set[Side] = set(self.order)

    def pick(self, rng: random.Random) -> Side:
        """A random free side (there must be one)."""
        candidates = [s for s in self.order if s in self.free]
        return candidates[rng.randrange(len(candidates))]

    def take(self, side: Side) -> bool:
        """Mark `side` used; False when it is not free."""
        if side not in self.free:
            return False
        self.free.discard(side)
        return True

    def cell(self, x: int, y: int) -> str:
        """The cell at (x, y), or a hole off the board."""
        if 0 <= x < self.width and 0 <= y < self.height:
            return self.cells[y * self.width + x]
        return HOLE


def _wrap(rng: random.Random, sides: _Sides) -> List[Tuple[Side, Side]]:
    """A row or column joined end to end: a line walked along it comes back to its target."""
    if rng.random() < 0.5:
        y = rng.randrange(sides.height)
        pair = ((sides.width - 1, y, 2), (0, y, 6))
    else:
        x = rng.randrange(sides.width)
        pair = ((x, sides.height - 1, 4), (x, 0, 0))
    return [pair]


def _jump(rng: random.Random, sides: _Sides) -> List[Tuple[Side, Side]]:
    """A side facing a hole joined to the cell beyond the holes: the walk jumps them."""
    facing_holes = [s for s in sides.order if s in sides.free
                    and sides.cell(s[0] + DIRECTIONS[s[2]][0], s[1] + DIRECTIONS[s[2]][1]) == HOLE
                    and 0 <= s[0] + DIRECTIONS[s[2]][0] < sides.width
                    and 0 <= s[1] + DIRECTIONS[s[2]][1] < sides.height]
    if not facing_holes:
        return []
    x, y, d = facing_holes[rng.randrange(len(facing_holes))]
    dx, dy = DIRECTIONS[d]
    cx, cy = x + dx, y + dy
    while 0 <= cx < sides.width and 0 <= cy < sides.height and sides.cell(cx, cy) == HOLE:
        cx, cy = cx + dx, cy + dy
    if not (0 <= cx < sides.width and 0 <= cy < sides.height):
        return []
    return [((x, y, d), (cx, cy, opposite(d)))]


def _transitions(rng: random.Random, height: int, width: int, cells: List[str],
                 features: AbstractSet[str]) -> Tuple[Transition, ...]:
    sides = _Sides(height, width, cells)
    count = rng.choice([0, 0, 0, 1, 2, 3, 5, 8, 12])
    if "transitions" in features:
        count = rng.choice([3, 5, 8, 12, 16])
    links: List[Transition] = []
    for _ in range(count):
        if not sides.free:
            break
        roll = rng.random()
        if roll < 0.15:
            pairs = _wrap(rng, sides)
        elif roll < 0.3:
            pairs = _jump(rng, sides)
        else:
            first = sides.pick(rng)
            if roll < 0.4 or len(sides.free) == 1:
                pairs = [(first, first)]                   # a U-turn
            else:
                sides.take(first)
                second = sides.pick(rng)
                sides.free.add(first)
                pairs = [(first, second)]
        for a, b in pairs:
            if a == b:
                if sides.take(a):
                    links.append(Transition(*(a + b)))
                continue
            if a not in sides.free or b not in sides.free:
                continue
            sides.take(a)
            sides.take(b)
            links.append(Transition(*(a + b)))
            # A chain: where the walk through a arrives on b's cell and goes on, another
            # transition may wait on that very side.
            landing = (b[0], b[1], opposite(b[2]))
            if rng.random() < 0.4 and landing in sides.free and len(sides.free) > 1:
                sides.take(landing)
                other = sides.pick(rng)
                sides.take(other)
                links.append(Transition(*(landing + other)))
    return tuple(links)


def generate_map(rng: random.Random, features: AbstractSet[str] = frozenset()) -> Map:
    """One random valid map drawn from `rng`; `features` (names from FEATURES) biases it."""
    players = rng.randint(4, 8) if "players" in features else rng.choice(
        [2, 2, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8])
    height, width = _size(rng, features)
    cells = _cells(rng, height, width, players, features)
    wrap = "wrap" in features
    overrides = _count(rng, wrap, [0, 0, 1, 1, 2, 3, 5] if "overrides" not in features
                       else [2, 3, 5, 10])
    bombs = _count(rng, wrap, [0, 0, 0, 1, 1, 2, 3] if "bombs" not in features
                   else [1, 2, 3, 5])
    strength = rng.choice([0, 0, 1, 1, 2, 3, 5]) if rng.random() < 0.97 else 255
    transitions = _transitions(rng, height, width, cells, features)
    return Map(players, overrides, bombs, strength, height, width, tuple(cells), transitions)


__all__ = ["FEATURES", "generate_map"]
