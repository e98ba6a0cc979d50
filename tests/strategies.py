"""Hypothesis strategies shared by the tests: random valid map texts (RULES.md 1).

`maps()` draws the TEXT of a map the official server would accept: random size, 2..8 players,
counts near 0 and near 255, holes, every tile type and transitions on valid sides only (a side
of a non-hole cell facing the edge or a hole), some of them sides joined to themselves.  Use
`read_map` / `parse_map` on the text.  Everything shrinks towards a small empty board without
transitions.
"""

from __future__ import annotations

import random
from typing import List, Sequence, Tuple

from hypothesis import strategies as st

# (dx, dy) for directions 0..7, clockwise from north; written out again here on purpose, so a
# mistake in reversi_ref.geometry cannot hide in the test data.
_STEPS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))

_SPECIALS = "cibx"
_DRAWN_CELLS_LIMIT = 256  # boards larger than this roll their cells from a seed
_SEPARATORS = (" ", "  ", "\t", "\n", "\r\n", " \n", "\n\n", " \t ")

Side = Tuple[int, int, int]


def valid_sides(height: int, width: int, cells: Sequence[str]) -> List[Side]:
    """Every side (x, y, d) a transition may use: a non-hole cell facing the edge or a hole."""
    sides: List[Side] = []
    for y in range(height):
        for x in range(width):
            if cells[y * width + x] == "-":
                continue
            for d, (dx, dy) in enumerate(_STEPS):
                nx, ny = x + dx, y + dy
                if not (0 <= nx < width and 0 <= ny < height) or cells[ny * width + nx] == "-":
                    sides.append((x, y, d))
    return sides


@st.composite
def counts(draw: st.DrawFn, wrap: bool = False) -> Tuple[int, str]:
    """An 8-bit count near 0, near 255 or anywhere, as (value, text written in the map).

    With `wrap`, the text may differ from the value by a multiple of 256 ("-1" for 255).
    """
    value = draw(st.one_of(st.integers(0, 3), st.integers(252, 255), st.integers(0, 255)))
    written = value + 256 * draw(st.integers(-2, 2)) if wrap else value
    return value, str(written)


def _cell(roll: int, rates: Tuple[int, int, int], stone: str, special: str) -> str:
    """The cell a roll 0..99 gives under (hole, special, stone) rates in percent."""
    hole_rate, special_rate, stone_rate = rates
    if roll >= 100 - hole_rate:
        return "-"
    if roll >= 100 - hole_rate - special_rate:
        return special
    if roll >= 100 - hole_rate - special_rate - stone_rate:
        return stone
    return "0"


@st.composite
def board_cells(draw: st.DrawFn, height: int, width: int, players: int) -> List[str]:
    """height * width random cells: empty, stones of players 1..n, holes and special tiles."""
    # A density profile per board, so some boards are mostly holes and some have none.
    rates = (draw(st.sampled_from((0, 10, 30, 60))),   # holes
             draw(st.sampled_from((0, 5, 20))),        # special tiles
             draw(st.sampled_from((10, 30, 60))))      # stones
    if height * width > _DRAWN_CELLS_LIMIT:
        # Too many cells to draw one by one within hypothesis' data budget: roll them from a
        # drawn seed (such boards do not shrink cell by cell, but stay reproducible).
        rng = random.Random(draw(st.integers(0, 2 ** 32 - 1)))
        return [_cell(rng.randrange(100), rates, str(rng.randint(1, players)),
                      rng.choice(_SPECIALS)) for _ in range(height * width)]
    cells: List[str] = []
    for _ in range(height * width):
        roll = draw(st.integers(0, 99))  # shrinks to 0, an empty cell
        stone = str(draw(st.integers(1, players))) if roll >= 100 - sum(rates) else "1"
        special = draw(st.sampled_from(_SPECIALS)) if roll >= 100 - sum(rates) else "c"
        cells.append(_cell(roll, rates, stone, special))
    return cells


@st.composite
def transitions(draw: st.DrawFn, height: int, width: int, cells: Sequence[str],
                max_transitions: int = 12) -> List[Tuple[Side, Side]]:
    """Transitions joining distinct valid sides, each side used once; some self-joined."""
    available = valid_sides(height, width, cells)
    joined: List[Tuple[Side, Side]] = []
    for _ in range(draw(st.integers(0, max_transitions))):
        if not available:
            break
        first = available.pop(draw(st.integers(0, len(available) - 1)))
        if not available or draw(st.integers(0, 5)) == 5:
            joined.append((first, first))  # a side joined to itself: a U-turn
        else:
            joined.append((first, available.pop(draw(st.integers(0, len(available) - 1)))))
    return joined


@st.composite
def maps(draw: st.DrawFn, max_size: int = 12, min_size: int = 1, min_players: int = 2,
         max_players: int = 8, max_transitions: int = 12, messy: bool = False,
         wrap_counts: bool = False) -> str:
    """The text of a random valid map, height and width in min_size..max_size.

    `messy` separates tokens by random whitespace (tabs, CRLF, blank lines, header numbers on
    one line); `wrap_counts` writes counts as any value congruent modulo 256 (RULES.md 1).
    """
    players = draw(st.integers(min_players, max_players))
    height = draw(st.integers(min_size, max_size))
    width = draw(st.integers(min_size, max_size))
    _, overrides = draw(counts(wrap_counts))
    _, bombs = draw(counts(wrap_counts))
    _, strength = draw(counts(wrap_counts))
    cells = draw(board_cells(height, width, players))
    joined = draw(transitions(height, width, cells, max_transitions))

    lines = [[str(players)], [overrides], [bombs, strength], [str(height), str(width)]]
    lines.extend(cells[y * width:(y + 1) * width] for y in range(height))
    lines.extend([str(a[0]), str(a[1]), str(a[2]), "<->", str(b[0]), str(b[1]), str(b[2])]
                 for a, b in joined)
    if not messy:
        return "\n".join(" ".join(line) for line in lines) + "\n"
    tokens = [token for line in lines for token in line]
    # No CR before the player count: the server's first token ends only at a space, tab or LF,
    # so a leading CR would be that token ("\r" reads as 0 players, RULES.md 1).
    text = draw(st.sampled_from(("", " ", "\n", "\t\n")))
    for token in tokens:
        text += token + draw(st.sampled_from(_SEPARATORS))
    return text
