"""Per-map tables of the fast engine: cell codes, the neighbour table and the Zobrist keys.

Everything here is computed once per engine and then only read.  The board of the engine is a
flat row-major list of the small int codes below.
"""

from __future__ import annotations

import random
from typing import Dict, List, Sequence, Tuple

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
    """
    width = game_map.width
    height = game_map.height
    exits = game_map.exits
    table = [-1] * (width * height * 8)
    for y in range(height):
        for x in range(width):
            cell = y * width + x
            if board[cell] == HOLE:
                continue
            for d in range(8):
                far = exits.get((x, y, d))
                if far is not None:
                    x2, y2, d2 = far
                else:
                    dx, dy = DIRECTIONS[d]
                    x2, y2, d2 = x + dx, y + dy, d
                    if not (0 <= x2 < width and 0 <= y2 < height):
                        continue
                target = y2 * width + x2
                if board[target] == HOLE:
                    continue
                table[cell * 8 + d] = target * 8 + d2
    return table


def _signed_keys(rng: random.Random, count: int) -> List[int]:
    # Signed 64-bit values: XOR keeps them in the signed 64-bit range, which PyPy stores as a
    # machine int (unsigned 64-bit values above 2**63 would become big integers on PyPy).
    if count == 0:
        return []
    raw = rng.getrandbits(64 * count).to_bytes(8 * count, "little")
    return [int.from_bytes(raw[i:i + 8], "little", signed=True) for i in range(0, 8 * count, 8)]


class ZobristKeys:
    """Random keys for every hashed part of a position.

    `cell[c * 16 + code]`, `to_move[p]` (0 = nobody, game over), `phase[phase]`,
    `overrides[p * 256 + count]`, `bombs[p * 256 + count]`, `disqualified[p]`.
    """

    def __init__(self, cells: int) -> None:
        rng = random.Random(ZOBRIST_SEED)
        self.to_move = _signed_keys(rng, 9)
        self.phase = _signed_keys(rng, 3)
        self.overrides = _signed_keys(rng, 9 * 256)
        self.bombs = _signed_keys(rng, 9 * 256)
        self.disqualified = _signed_keys(rng, 9)
        self.cell = _signed_keys(rng, cells * CODE_SLOTS)
