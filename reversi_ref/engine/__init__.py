"""The fast engine: the rules of RULES.md on a mutable position, tuned for the PyPy JIT.

The readable specification is `reversi_ref.rules`; this package plays the same game faster, and
`tests/test_engine_diff.py` checks the two against each other.

API
---
`Engine(map_or_state)` / `Engine.from_state(state)`
    A position that changes in place, started from a `Map`'s initial position or any
    `GameState`.
`.board`, `.width`, `.height`, `.players`
    `board[y * width + x]` is a cell code: 0 empty, 1..8 a player's stone, EXPANSION (9),
    CHOICE (10), INVERSION (11), BONUS (12), HOLE (13).  Read it; change it only by moves.

Moves are ints: `cell * 32 + special`, where `cell = y * width + x` and `special` is the
protocol's special byte (0, a player 1..8 on a choice tile, 20 or 21 on a bonus tile), so
sorting the ints sorts by (y, x, special).  `engine.encode_move(Move) -> int` and
`engine.decode_move(int) -> Move` convert.

`.legal_moves() -> List[int]`
    The mover's legal moves in the order of the rules (sorted by (y, x, special)); every
    non-hole cell in the bombing phase; [] when the game is over.
`.count_moves()`, `.has_any_move(player)`, `.is_legal(move)`
    The number of legal moves without building the list; whether a player could move if asked
    now (stops at the first move found); whether one encoded move is legal.
`.make(move)` / `.unmake()`
    Play a legal move in place (unchecked) / take back the last `make` or `disqualify`.  After
    a phase-1 move the next player (skipping those who cannot move) and a change to phase 2 are
    worked out lazily: `legal_moves()` and `count_moves()` find them while generating the
    candidates' moves, anything else that needs them (`to_move`, `phase`, `hash`, ...) first
    runs has-any-move.  Callers see no difference.
`.disqualify(player)`
    RULES.md 6; undone by `unmake()` as well.
`.to_move`, `.phase`, `.is_over()`
    The player asked next (0 when over); the phase as BUILD = 0, BOMB = 1, OVER = 2.
    (Read-only properties.)
`.counts[code]`, `.overrides[p]`, `.bombs[p]`, `.disqualified[p]`
    Lists indexed by player number 1..n (index 0 unused); `counts` is indexed by cell code, so
    `counts[p]` is player p's stone count (and `counts[HOLE]` the number of holes).
`.hash`
    A 64-bit Zobrist hash (a signed int) of board, mover, phase, override and bomb counts and
    disqualifications, maintained incrementally; `.compute_hash()` recomputes it from scratch.
`.to_state() -> GameState`, `.scores()`
    The immutable position; stones per player (index 0 = player 1).
`.perft(depth, bulk=True) -> int`
    Leaf count of the game tree: one ply per legal move (each special variant its own move);
    skipped players and the change to the bombing phase take no ply; a position where the game
    is over counts as one leaf at any remaining depth.  `bulk` counts the last ply's moves
    instead of playing them.
"""

from __future__ import annotations

from .core import MOVE_SPECIAL_SLOTS, Engine
from .tables import (BOMB, BONUS, BUILD, CHOICE, EMPTY, EXPANSION, HOLE, INVERSION, OVER,
                     PHASE_NAMES)

__all__ = [
    "Engine", "MOVE_SPECIAL_SLOTS", "BUILD", "BOMB", "OVER", "PHASE_NAMES",
    "EMPTY", "EXPANSION", "CHOICE", "INVERSION", "BONUS", "HOLE",
]
