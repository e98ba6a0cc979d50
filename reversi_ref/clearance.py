"""Whether the bombing phase empties the board whatever is played (RULES.md 5).

Holes come only from the map and from bombs, so every game on a map reaches its bombing phase
with the same holes, and the blasts do not care whose stones they hit.  If every order of the
players' bombs, on any targets, leaves no cell that is not a hole, every player ends with 0
stones whatever anyone plays: the map decides the game, not the players.  `bombs_clear_board`
answers that question exactly, by search, for maps small enough to answer it.

The search counts, for each connected piece of the board (cells joined by single steps,
RULES.md 2), the most bombs a sequence of targets can drop on it before nothing of it is left.
A blast never crosses a hole, so pieces live on independently, and the board is always cleared
exactly when the pieces' counts sum to no more than the bombs the players hold.  Bonus tiles
only add bombs, so the answer holds with them too; a disqualification, which takes a player's
bombs out of the game, is not play and is left out.
"""

from __future__ import annotations

from typing import Dict, Iterator, List, Optional

from .geometry import HOLE, Map
from .rules import initial_state
from .rules.walking import step

# The search's default limit, in pieces examined: every map the course has shipped is decided
# within it but one (`checkerboard`, whose proof examines about 180,000), and running out takes
# about a second of CPython.
DEFAULT_BUDGET = 1000
# Boards with more cells than this (holes not counted) are not searched: a bit mask of
# neighbours per cell takes memory that grows with the square of the cells (12 MB here), and
# the first blasts alone would take seconds.
MAX_CELLS = 10000


class _OutOfBudget(Exception):
    """The search examined more pieces than it was allowed to."""


def neighbour_masks(game_map: Map) -> List[int]:
    """The cells one step away (RULES.md 2) from each cell that is not a hole, as bit masks
    over those cells numbered in board order (the first such cell is bit 0).

    A step's landing depends only on whether the landing cell is a hole, so on any later board
    a cell's neighbours are these minus the cells that have become holes since."""
    state = initial_state(game_map)
    width = game_map.width
    number = {index: n for n, index in enumerate(
        index for index, cell in enumerate(game_map.cells) if cell != HOLE)}
    masks = [0] * len(number)
    for index, n in number.items():
        for direction in range(8):
            landed = step(state, index % width, index // width, direction)
            if landed is not None:
                masks[n] |= 1 << number[landed[1] * width + landed[0]]
    return masks


def cells_of(mask: int) -> Iterator[int]:
    """The cell indices in a bit mask, lowest first."""
    while mask:
        lowest = mask & -mask
        yield lowest.bit_length() - 1
        mask ^= lowest


def ball(neighbours: List[int], start: int, within: int, radius: int) -> int:
    """The cells of `within` at most `radius` steps from a cell of `start` (a mask), by steps
    inside `within`: a blast of strength `radius` from one target when `within` is the board's
    cells that are not holes."""
    reached = frontier = start
    for _ in range(radius):
        grown = 0
        for cell in cells_of(frontier):
            grown |= neighbours[cell]
        frontier = grown & within & ~reached
        if not frontier:
            break
        reached |= frontier
    return reached


def count(mask: int) -> int:
    """The number of cells in a bit mask."""
    return bin(mask).count("1")


def pieces(neighbours: List[int], cells: int) -> List[int]:
    """The connected pieces of `cells` (single steps inside `cells`), each a bit mask."""
    found = []
    left = cells
    while left:
        piece = ball(neighbours, left & -left, cells, len(neighbours))
        found.append(piece)
        left &= ~piece
    return found


def blast_sizes(neighbours: List[int], board: int, strength: int) -> Dict[int, int]:
    """Per cell of `board`, how many cells a bomb on it would destroy now."""
    return {target: count(ball(neighbours, 1 << target, board, strength))
            for target in cells_of(board)}


def smallest_blasts_first(neighbours: List[int], board: int, strength: int,
                          sizes: Dict[int, int], limit: int) -> int:
    """How many bombs it takes to clear `board` when each one destroys as few cells as it can
    (counting up to `limit` + 1), from the blast `sizes` of `board`: a quick way to find an
    order of bombs that leaves a cell."""
    sizes = dict(sizes)
    dropped = 0
    while board and dropped <= limit:
        target = min(sizes, key=sizes.__getitem__)
        blast = ball(neighbours, 1 << target, board, strength)
        # Only a target whose blast could reach a destroyed cell sees its own blast shrink.
        near = ball(neighbours, blast, board, strength) & ~blast
        board &= ~blast
        for cell in cells_of(blast):
            del sizes[cell]
        for cell in cells_of(near):
            sizes[cell] = count(ball(neighbours, 1 << cell, board, strength))
        dropped += 1
    return dropped


class _Search:
    """The most bombs a sequence can drop on a piece before it is gone, memoised by piece."""

    def __init__(self, neighbours: List[int], strength: int, budget: int) -> None:
        self.neighbours = neighbours
        self.strength = strength
        self.budget = budget
        self.examined = 0
        self.known: Dict[int, int] = {}       # piece -> its exact count
        self.above: Dict[int, int] = {}       # piece -> a number its count is known to exceed

    def most_bombs(self, piece: int, cap: int) -> int:
        """min(the count for `piece`, cap + 1)."""
        if piece in self.known:
            return min(self.known[piece], cap + 1)
        if cap < 1 or self.above.get(piece, 0) >= cap:
            return cap + 1
        self.examined += 1
        if self.budget and self.examined > self.budget:
            raise _OutOfBudget
        # Every cell within strength // 2 steps of one cell: any bomb takes the whole piece.
        if ball(self.neighbours, piece & -piece, piece, self.strength // 2) == piece:
            self.known[piece] = 1
            return 1
        blasts = {ball(self.neighbours, 1 << target, piece, self.strength)
                  for target in cells_of(piece)}
        best = 1
        # Small blasts first: they leave the most behind, so a count above `cap` shows early.
        for blast in sorted(blasts, key=count):
            total = 1
            # The largest piece first: it takes the most bombs, so it decides soonest.
            for rest in sorted(pieces(self.neighbours, piece & ~blast),
                               key=count, reverse=True):
                total += self.most_bombs(rest, cap - total)
                if total > cap:
                    self.above[piece] = cap
                    return cap + 1
            best = max(best, total)
        self.known[piece] = best
        return best


def most_bombs(game_map: Map, cap: int, budget: int = DEFAULT_BUDGET) -> Optional[int]:
    """The most bombs an order of targets can drop on `game_map`'s board before no cell is
    left but holes, counted up to `cap` + 1; None when the search runs past `budget` pieces
    (0: no limit) or the board has more than MAX_CELLS cells that are not holes."""
    cells = sum(1 for cell in game_map.cells if cell != HOLE)
    if cells > MAX_CELLS:
        return None
    neighbours = neighbour_masks(game_map)
    board = (1 << cells) - 1
    search = _Search(neighbours, game_map.strength, budget)
    total = 0
    try:
        for piece in sorted(pieces(neighbours, board), key=count, reverse=True):
            total += search.most_bombs(piece, cap - total)
            if total > cap:
                break
    except _OutOfBudget:
        return None
    return total


def bombs_clear_board(game_map: Map, budget: int = DEFAULT_BUDGET) -> Optional[bool]:
    """True when every order of the players' bombs leaves no cell that is not a hole, False
    when some order leaves one, None when the search ran past `budget` pieces (0: no limit)
    or the board has more than MAX_CELLS cells that are not holes.  A map without bombs gives
    False."""
    bombs = game_map.players * game_map.bombs
    cells = sum(1 for cell in game_map.cells if cell != HOLE)
    if bombs == 0 or cells == 0:
        return bombs > 0
    if cells > MAX_CELLS:
        return None
    neighbours = neighbour_masks(game_map)
    board = (1 << cells) - 1
    # Blasts only shrink as holes appear, so if the largest first blast times the bombs
    # cannot cover the board, some cell always survives.
    sizes = blast_sizes(neighbours, board, game_map.strength)
    if cells > bombs * max(sizes.values()):
        return False
    if smallest_blasts_first(neighbours, board, game_map.strength, sizes, bombs) > bombs:
        return False
    most = most_bombs(game_map, bombs, budget)
    return None if most is None else most <= bombs


__all__ = ["DEFAULT_BUDGET", "MAX_CELLS", "ball", "bombs_clear_board", "most_bombs",
           "neighbour_masks", "pieces"]
