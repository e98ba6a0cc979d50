"""A transposition table of fixed size, keyed by the engine's Zobrist hash.

Four parallel lists of `2**bits` plain ints (no per-entry objects, so memory is fixed from the
start and the garbage collector has nothing to trace): the full key, the value, the depth and
bound packed in one int, and the best move.  An entry is replaced when the new search is at
least as deep or the old entry comes from an earlier move (an older generation).
"""

from __future__ import annotations

from typing import List

EXACT = 0
LOWER = 1   # the value is at least this (a cut-off at a max node)
UPPER = 2   # the value is at most this

NO_MOVE = -1


class TranspositionTable:
    """`2**bits` entries; `probe` finds an entry's index, `store` writes one."""

    def __init__(self, bits: int = 18) -> None:
        if not 4 <= bits <= 26:
            raise ValueError("transposition table bits must be 4..26, got %d" % bits)
        size = 1 << bits
        self.size = size
        self.mask = size - 1
        self.keys: List[int] = [0] * size
        self.values: List[int] = [0] * size
        self.info: List[int] = [-1] * size      # generation << 16 | depth << 2 | bound
        self.moves: List[int] = [NO_MOVE] * size
        self.generation = 0
        self.used = 0

    def new_search(self) -> None:
        """Start a new move: older entries become the first to be replaced."""
        self.generation = (self.generation + 1) & 0x7FFF

    def probe(self, key: int) -> int:
        """The index of the entry for `key`, or -1."""
        i = key & self.mask
        if self.keys[i] == key and self.info[i] >= 0:
            return i
        return -1

    def store(self, key: int, depth: int, bound: int, value: int, move: int) -> None:
        """Remember a search result (depth 0..16383)."""
        i = key & self.mask
        old = self.info[i]
        if old >= 0:
            if self.keys[i] != key and (old >> 16) == self.generation and (
                    (old >> 2) & 0x3FFF) > depth:
                return
            if self.keys[i] == key and move == NO_MOVE:
                move = self.moves[i]
        else:
            self.used += 1
        self.keys[i] = key
        self.values[i] = value
        self.info[i] = (self.generation << 16) | (min(depth, 0x3FFF) << 2) | bound
        self.moves[i] = move

    def depth(self, i: int) -> int:
        """The depth of entry `i`."""
        return (self.info[i] >> 2) & 0x3FFF

    def bound(self, i: int) -> int:
        """EXACT, LOWER or UPPER of entry `i`."""
        return self.info[i] & 3

    def clear(self) -> None:
        """Forget everything."""
        for i in range(self.size):
            self.keys[i] = 0
            self.info[i] = -1
            self.moves[i] = NO_MOVE
        self.used = 0
