"""Time management: how long to think about one move, given the move request's time bank.

RULES.md 8: the time field of a move request is the player's whole remaining bank; the bank
grows by the per-move limit S at every request after the first, unused time carries over, and
an answer after the bank ran out disqualifies.  So the budget of one move is the bank spread
over the own moves still to come, with a fixed reserve for the network, the engine set-up, the
JIT warm-up and garbage collection, and only a part of that share planned at all:

- `hard` ends the search inside an iteration (checked every few nodes);
- `soft` is when no new iteration of iterative deepening starts, since the next one usually
  costs more than all the earlier ones together.

Nothing here reads a clock: the caller passes times in, so the planning is testable with a fake
clock.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

from ..engine import BOMB, BUILD, EMPTY
from ..engine.core import Engine
from ..engine.tables import BONUS, CHOICE, INVERSION

# Kept back from every bank: the network, the engine set-up, JIT warm-up and GC pauses.
RESERVE_MS = 150.0
# A move's hard limit never exceeds this share of the usable bank, however few moves are left,
# so even a search that overran its limit twice over would still answer in time.
MAX_BANK_SHARE = 0.5
# The hard limit is this multiple of the move's fair share of the time: a move rarely reaches
# it (most end at `soft`, when the next iteration would not finish), and whatever is left over
# carries to the next moves' shares, so aiming above the fair share spends the bank, not more.
HARD_FRACTION = 1.2
# No new iteration starts after this share of the hard limit.
SOFT_FRACTION = 0.5


class Budget(NamedTuple):
    """Milliseconds from the start of the move: no new iteration after `soft`, stop at `hard`."""

    soft_ms: float
    hard_ms: float


def expected_own_moves(engine: Engine, player: int) -> int:
    """A generous estimate of how many more times `player` will be asked: the free cells
    shared among the players still in the game, plus its bombs (RULES.md 4-5)."""
    bombs = engine.bombs[player]
    if engine.phase == BOMB:
        return max(1, bombs)
    if engine.phase != BUILD:
        return 1
    counts = engine.counts
    free = counts[EMPTY] + counts[CHOICE] + counts[INVERSION] + counts[BONUS]
    active = max(1, engine.in_game)
    return max(1, (free + active - 1) // active) + bombs + 1


def plan_budget(bank_ms: float, moves_left: int, increment_ms: Optional[float] = None
                ) -> Budget:
    """The budget of one move with `bank_ms` in the bank and about `moves_left` own moves to
    come; `increment_ms` is the per-move limit S when known (the bank of the first request).

    The hard limit never exceeds MAX_BANK_SHARE of the bank after the reserve, so a wrong
    estimate of the moves left costs strength, never the game.
    """
    usable = bank_ms - RESERVE_MS
    if usable <= 0:
        return Budget(0.0, 0.0)
    moves = max(1, moves_left)
    increment = max(0.0, increment_ms or 0.0)
    share = (usable + increment * (moves - 1)) / moves
    hard = min(share * HARD_FRACTION, usable * MAX_BANK_SHARE)
    return Budget(hard * SOFT_FRACTION, hard)
