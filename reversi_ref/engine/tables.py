"""Per-map tables of the fast engine: cell codes, the neighbour table and the Zobrist keys.

Everything here is computed once per engine and then only read.  The board of the engine is a
flat row-major list of the small int codes below.
"""

from __future__ import annotations

import random
import sys
from array import array
from typing import Dict, List, Optional, Sequence, Tuple, Union

from ..geometry import DIRECTIONS, Map

# ---------------------------------------------------------------------------------------------
# Cell codes (RULES.md 1).  Players are their own numbers 1..8.  The order is chosen so that the
# capture walk can test "stops the line" as `v == EMPTY or v >= CHOICE` and "can be collected"
# as `1 <= v <= EXPANSION`.
# ---------------------------------------------------------------------------------------------
EMPTY = 0
EXPANSION = 9
CHOICE = 10
INVERSION = 11
BONUS = 12
HOLE = 13
CODES = 14          # number of distinct codes
CODE_SLOTS = 16     # codes per cell in the Zobrist table (a power of two, for shifts)

CHAR_TO_CODE: Dict[str, int] = {
    "0": EMPTY, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8,
    "x": EXPANSION, "c": CHOICE, "i": INVERSION, "b": BONUS, "-": HOLE,
}
CODE_TO_CHAR: Tuple[str, ...] = ("0", "1", "2", "3", "4", "5", "6", "7", "8",
                                 "x", "c", "i", "b", "-")

# Phases as small ints.
BUILD = 0
BOMB = 1
OVER = 2
PHASE_NAMES: Tuple[str, ...] = ("build", "bomb", "over")

# Zobrist keys come from this fixed seed, so hashes are the same in every run and interpreter.
ZOBRIST_SEED = 0x5EED_2009


def encode_board(chars: Sequence[str]) -> List[int]:
    """The engine board (list of codes) for a row-major sequence of map-file characters."""
    return [CHAR_TO_CODE[ch] for ch in chars]


def neighbour_table(game_map: Map, board: Sequence[int]) -> List[int]:
    """The transition-aware step table: entry `cell * 8 + d` is `next_cell * 8 + next_dir`,
    or -1 when the step from `cell` in direction d leaves the board or lands on a hole of
    `board` (RULES.md 2).

    Holes that appear later (bombs) are not in the table; the bomb blast checks the board.
    Built a row at a time by slice assignment (a 1000x1000 map has 8 million entries), then
    holes and transitions are patched in.
    """
    width = game_map.width
    height = game_map.height
    table = [-1] * (width * height * 8)
    for d, (dx, dy) in enumerate(DIRECTIONS):
        # Ordinary steps: the columns x0..x1-1 and rows y0..y1-1 whose neighbour is on the board.
        x0, x1 = max(0, -dx), min(width, width - dx)
        if x1 <= x0:
            continue
        count = x1 - x0
        offset = (dy * width + dx) * 8
        for y in range(max(0, -dy), min(height, height - dy)):
            first = (y * width + x0) * 8 + d
            table[first:first + 8 * count:8] = range(first + offset, first + offset + 8 * count, 8)
    for cell in [c for c, code in enumerate(board) if code == HOLE]:
        # No step from a hole, and none onto it.
        x, y = cell % width, cell // width
        for d, (dx, dy) in enumerate(DIRECTIONS):
            table[cell * 8 + d] = -1
            sx, sy = x - dx, y - dy
            if 0 <= sx < width and 0 <= sy < height:
                table[(sy * width + sx) * 8 + d] = -1
    for (x, y, d), (x2, y2, d2) in game_map.exits.items():
        cell = y * width + x
        target = y2 * width + x2
        if board[cell] != HOLE:
            table[cell * 8 + d] = target * 8 + d2 if board[target] != HOLE else -1
    return table


# Boards with at most this many cells keep their cell keys in a list drawn from `random` (the
# keys they always had).  Larger boards compute a key when it is asked for (`MixedCellKeys`):
# drawing 16 million keys for a 1000x1000 map took most of a second even from SHAKE-128.
LIST_KEYS_LIMIT = 1 << 16
KEY_CHUNK = 1 << 12
_MASK64 = (1 << 64) - 1


def _signed_key_array(rng: random.Random, count: int) -> "array[int]":
    # Signed 64-bit values: XOR keeps them in the signed 64-bit range, which PyPy stores as a
    # machine int (unsigned 64-bit values above 2**63 would become big integers on PyPy).
    keys = array("q")
    # In chunks: one huge getrandbits is slow on PyPy; the bits drawn are the same either way.
    for first in range(0, count, KEY_CHUNK):
        size = min(KEY_CHUNK, count - first)
        keys.frombytes(rng.getrandbits(64 * size).to_bytes(8 * size, "little"))
    if sys.byteorder == "big":
        keys.byteswap()
    return keys


def _signed_keys(rng: random.Random, count: int) -> List[int]:
    return _signed_key_array(rng, count).tolist()


class MixedCellKeys:
    """The cell keys of a large board: `keys[c * 16 + code]` is a signed 64-bit hash of the
    index (the splitmix64 finaliser), except that the code cell c has on the map gets 0.

    A zero key for the map's own code changes nothing in how Zobrist hashing works, but lets
    the hash of a position be computed from the cells that differ from the map alone (see
    `ZobristKeys.base`), so a new engine computes no key at all.
    """

    def __init__(self, base: List[int]) -> None:
        self.base = base

    def __len__(self) -> int:
        return len(self.base) * CODE_SLOTS

    def __getitem__(self, index: int) -> int:
        if self.base[index >> 4] == index & 15:
            return 0
        z = (index * 0x9E3779B97F4A7C15 + ZOBRIST_SEED) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        z ^= z >> 31
        # Signed, as the other keys (see _signed_key_array).
        return z - (1 << 64) if z >> 63 else z


class ZobristKeys:
    """Random keys for every hashed part of a position.

    `cell[c * 16 + code]`, `to_move[p]` (0 = nobody, game over), `phase[phase]`,
    `overrides[p * 256 + count]`, `bombs[p * 256 + count]`, `disqualified[p]`.  `base`, when
    not None, holds for every cell a code whose key is 0 (large boards: the map's board), so
    only cells holding another code need to be hashed.
    """

    def __init__(self, cells: int, board: Optional[List[int]] = None) -> None:
        """Keys for a board of `cells` cells; `board`, the map's codes, is used on boards of
        more than LIST_KEYS_LIMIT cells (and required there)."""
        rng = random.Random(ZOBRIST_SEED)
        self.to_move = _signed_keys(rng, 9)
        self.phase = _signed_keys(rng, 3)
        self.overrides = _signed_keys(rng, 9 * 256)
        self.bombs = _signed_keys(rng, 9 * 256)
        self.disqualified = _signed_keys(rng, 9)
        self.cell: Union[List[int], MixedCellKeys]
        self.base: Optional[List[int]] = None
        if cells <= LIST_KEYS_LIMIT:
            self.cell = _signed_key_array(rng, cells * CODE_SLOTS).tolist()
        else:
            if board is None or len(board) != cells:
                raise ValueError("ZobristKeys: a board of %d cells needs its codes" % cells)
            self.base = list(board)
            self.cell = MixedCellKeys(self.base)
