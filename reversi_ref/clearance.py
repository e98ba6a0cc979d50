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
# within it but one (`checkerboard`, whose proof examines about 180,000).
DEFAULT_BUDGET = 1000
# With a budget, the blasts may also reach at most this many cells per piece of the budget in
# all (the first blasts of a large board with strong bombs cost more than many pieces): at the
# default, a few seconds of CPython at most.
CELLS_PER_PIECE = 3000
# Boards with more cells than this (holes not counted) are not searched: a bit mask of
# neighbours per cell takes memory that grows with the square of the cells (12 MB here).
MAX_CELLS = 10000


class _OutOfBudget(Exception):
    """The search examined more pieces, or its blasts reached more cells, than allowed."""


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


class _Board:
    """Blasts and pieces on one map's board, with the cells they reach counted against a
    limit (0: none)."""

    def __init__(self, game_map: Map, cell_limit: int) -> None:
        self.neighbours = neighbour_masks(game_map)
        self.strength = game_map.strength
        self.cells = (1 << len(self.neighbours)) - 1
        self.cell_limit = cell_limit
        self.reached = 0

    def reach(self, start: int, within: int, radius: int) -> int:
        """`ball` from `start`, counted against the limit."""
        found = ball(self.neighbours, start, within, radius)
        self.reached += count(found)
        if self.cell_limit and self.reached > self.cell_limit:
            raise _OutOfBudget
        return found

    def blast(self, target: int, within: int) -> int:
        """What a bomb on cell `target` destroys when `within` is all that is not a hole."""
        return self.reach(1 << target, within, self.strength)

    def pieces(self, cells: int) -> List[int]:
        """The connected pieces of `cells` (single steps inside `cells`), largest first."""
        found = []
        left = cells
        while left:
            piece = self.reach(left & -left, cells, len(self.neighbours))
            found.append(piece)
            left &= ~piece
        return sorted(found, key=count, reverse=True)

    def smallest_blasts_first(self, limit: int) -> int:
        """How many bombs it takes to clear the board when each one destroys as few cells as
        it can (counting up to `limit` + 1): a quick way to an order that leaves a cell."""
        board = self.cells
        sizes = {target: count(self.blast(target, board)) for target in cells_of(board)}
        # Blasts only shrink as holes appear: if the largest first blast times the bombs
        # cannot cover the board, some cell always survives.
        if count(board) > limit * max(sizes.values()):
            return limit + 1
        dropped = 0
        while board and dropped <= limit:
            blast = self.blast(min(sizes, key=sizes.__getitem__), board)
            # Only a target whose blast could reach a destroyed cell sees its blast shrink.
            near = self.reach(blast, board, self.strength) & ~blast
            board &= ~blast
            for cell in cells_of(blast):
                del sizes[cell]
            for cell in cells_of(near):
                sizes[cell] = count(self.blast(cell, board))
            dropped += 1
        return dropped


class _Search:
    """The most bombs a sequence can drop on a piece before it is gone, memoised by piece."""

    def __init__(self, board: _Board, budget: int) -> None:
        self.board = board
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
        board = self.board
        # Every cell within strength // 2 steps of one cell: any bomb takes the whole piece.
        if board.reach(piece & -piece, piece, board.strength // 2) == piece:
            self.known[piece] = 1
            return 1
        blasts = {board.blast(target, piece) for target in cells_of(piece)}
        best = 1
        # Small blasts first: they leave the most behind, so a count above `cap` shows early;
        # and the largest piece left first, since it takes the most bombs.
        for blast in sorted(blasts, key=count):
            total = 1
            for rest in board.pieces(piece & ~blast):
                total += self.most_bombs(rest, cap - total)
                if total > cap:
                    self.above[piece] = cap
                    return cap + 1
            best = max(best, total)
        self.known[piece] = best
        return best

    def whole_board(self, cap: int) -> int:
        """min(the most bombs an order can drop before the board is clear, cap + 1)."""
        total = 0
        for piece in self.board.pieces(self.board.cells):
            total += self.most_bombs(piece, cap - total)
            if total > cap:
                break
        return total


def _cells(game_map: Map) -> int:
    """The number of cells that are not holes."""
    return sum(1 for cell in game_map.cells if cell != HOLE)


def most_bombs(game_map: Map, cap: int, budget: int = DEFAULT_BUDGET) -> Optional[int]:
    """The most bombs an order of targets can drop on `game_map`'s board before no cell is
    left but holes, counted up to `cap` + 1; None when the search runs past its budget, as
    for `bombs_clear_board`."""
    if _cells(game_map) > MAX_CELLS:
        return None
    try:
        return _Search(_Board(game_map, budget * CELLS_PER_PIECE), budget).whole_board(cap)
    except _OutOfBudget:
        return None


def bombs_clear_board(game_map: Map, budget: int = DEFAULT_BUDGET) -> Optional[bool]:
    """True when every order of the players' bombs leaves no cell that is not a hole, False
    when some order leaves one, None when the search ran past `budget` pieces or
    `budget` * CELLS_PER_PIECE cells reached by blasts (0: no limit), or the board has more
    than MAX_CELLS cells that are not holes.  A map without bombs gives False."""
    bombs = game_map.players * game_map.bombs
    cells = _cells(game_map)
    if bombs == 0 or cells == 0:
        return bombs > 0
    if cells > MAX_CELLS:
        return None
    board = _Board(game_map, budget * CELLS_PER_PIECE)
    try:
        if board.smallest_blasts_first(bombs) > bombs:
            return False
        return _Search(board, budget).whole_board(bombs) <= bombs
    except _OutOfBudget:
        return None


__all__ = ["CELLS_PER_PIECE", "DEFAULT_BUDGET", "MAX_CELLS", "ball", "bombs_clear_board", "cells_of", "count",
           "most_bombs", "neighbour_masks"]
