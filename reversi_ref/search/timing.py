"""Time management: how long to think about one move, given the move request's time bank.

RULES.md 8: the time field of a move request is the player's whole remaining bank; the bank
grows by the per-move limit S at every request after the first, unused time carries over, and
an answer after the bank ran out disqualifies.  So the budget of one move is the bank spread
over the own moves still to come, with a fixed reserve for the network, the engine set-up, the
JIT warm-up and garbage collection.  The spread is uneven: the last ENDGAME_MOVES own moves
count ENDGAME_WEIGHT times, so a long game saves part of each early move's share for its end.
Only a part of the share is planned at all:

- `hard` ends the search inside an iteration (checked every few nodes);
- `soft` is when no new iteration of iterative deepening starts, since the next one usually
  costs more than all the earlier ones together;
- before `soft`, a new iteration still does not start when it is predicted to need more than
  twice the time left to `hard` (`next_iteration_fits`): an iteration stopped at `hard` is
  mostly wasted, while time not used stays in the bank for later moves.

Nothing here reads a clock: the caller passes times in, so the planning is testable with a fake
clock.
"""

from __future__ import annotations

from typing import Callable, NamedTuple, Optional, Sequence

from ..engine import BOMB, BUILD, EMPTY
from ..engine.core import Engine
from ..engine.tables import BONUS, CHOICE, INVERSION

# A clock in seconds (time.monotonic, or a fake one in tests), and the deadline of a search
# with no time limit.
Clock = Callable[[], float]
NO_DEADLINE = float("inf")

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
# The last ENDGAME_MOVES own moves weigh ENDGAME_WEIGHT times as much as earlier ones when the
# bank is shared out.  Close games on large maps are decided there (long lines change hands
# with every move, and ai_trivial spends its bank there too), and the exact end of the game
# comes within reach of the search.
ENDGAME_MOVES = 16
ENDGAME_WEIGHT = 2.0
# `surplus_share` (off by default, `EvalConfig.spend_surplus`): the bank beyond this many
# fair shares is surplus, and a move may add the given part of it to its limits.  Moves stop
# short of their share (at `soft`, or before an iteration that would not fit), so the bank
# grows: on the official server at `-t 1` the median game left a fifth of the time given
# unspent at the end (docs/strength.md, "Time left unspent").  The next iteration costs
# several times the last one, so a small rise of every share seldom buys a ply; a part of the
# surplus can.
SURPLUS_CUSHION_SHARES = 4.0
# `stretched` (off by default, `EvalConfig.stretch_unsure`): a move whose last iteration, at
# this depth or deeper, chose another move than the one before it is not settled yet, and
# may run longer.  Changes in the cheap shallow iterations do not count.
UNSURE_MIN_DEPTH = 4
# `last_move_budget` (`EvalConfig.spend_last`): a player's last bomb is its last move of the
# game, and the bank is worth nothing after it, so its hard limit may take this share of the
# bank after the reserve (MAX_BANK_SHARE keeps room for a search that overruns; the bombing
# search checks its deadline every CHECK_EVERY targets, far more often than that needs).
LAST_MOVE_SHARE = 0.8


class Budget(NamedTuple):
    """Milliseconds from the start of the move: no new iteration after `soft`, stop at `hard`."""

    soft_ms: float
    hard_ms: float


def expected_own_moves(engine: Engine, player: int, unreachable: int = 0) -> int:
    """A generous estimate of how many more times `player` will be asked: the free cells
    shared among the players still in the game, plus its override stones and its bombs
    (RULES.md 4-5), less `unreachable` free cells: those no move can ever fill
    (`analysis.unreachable_free_cells`, passed with `EvalConfig.skip_cut_off`), which stay
    free all through phase 1.  An override stone fills no free cell, so each one placed is a
    move on top of the free cells' share; the search keeps them for the end of phase 1 where
    they are scarce (`keep_overrides`), and those last moves come after the board is full.
    In the bombing phase, half its bombs: the first bombs decide the most and their exact solve
    (`endgame`) costs the most, while later ones find the board emptier and the solver's
    table filled, so the bank goes to the first ones (what they leave carries over)."""
    bombs = engine.bombs[player]
    if engine.phase == BOMB:
        return max(1, (bombs + 1) // 2)
    if engine.phase != BUILD:
        return 1
    counts = engine.counts
    free = counts[EMPTY] + counts[CHOICE] + counts[INVERSION] + counts[BONUS] - unreachable
    active = max(1, engine.in_game)
    return max(1, (free + active - 1) // active) + engine.overrides[player] + bombs + 1


def plan_budget(bank_ms: float, moves_left: int, increment_ms: Optional[float] = None,
                surplus_share: float = 0.0) -> Budget:
    """The budget of one move with `bank_ms` in the bank and about `moves_left` own moves to
    come; `increment_ms` is the per-move limit S when known (the bank of the first request).
    The last ENDGAME_MOVES moves get ENDGAME_WEIGHT times the share of earlier ones; with
    `surplus_share` > 0 the limits also grow by that part of the bank beyond
    SURPLUS_CUSHION_SHARES shares.

    The hard limit never exceeds MAX_BANK_SHARE of the bank after the reserve, so a wrong
    estimate of the moves left costs strength, never the game.
    """
    usable = bank_ms - RESERVE_MS
    if usable <= 0:
        return Budget(0.0, 0.0)
    moves = max(1, moves_left)
    increment = max(0.0, increment_ms or 0.0)
    total = usable + increment * (moves - 1)
    endgame = min(moves, ENDGAME_MOVES)
    weights = endgame * ENDGAME_WEIGHT + (moves - endgame)
    share = total * (ENDGAME_WEIGHT if moves <= ENDGAME_MOVES else 1.0) / weights
    hard = share * HARD_FRACTION
    if surplus_share > 0.0:
        hard += max(0.0, usable - SURPLUS_CUSHION_SHARES * share) * surplus_share
    hard = min(hard, usable * MAX_BANK_SHARE)
    return Budget(hard * SOFT_FRACTION, hard)


def stretched(budget: Budget, bank_ms: float, factor: float) -> Budget:
    """The budget of a move whose search is unsure of its choice: both limits `factor`
    times as long, the hard one still within MAX_BANK_SHARE of the bank after the reserve
    (the time comes out of later moves' shares, as any time spent does)."""
    usable = bank_ms - RESERVE_MS
    if usable <= 0 or factor <= 1.0:
        return budget
    hard = max(budget.hard_ms, min(budget.hard_ms * factor, usable * MAX_BANK_SHARE))
    return Budget(hard * SOFT_FRACTION, hard)


def last_move_budget(bank_ms: float) -> Budget:
    """The budget of a player's last move of the game: LAST_MOVE_SHARE of the bank after the
    reserve, with no iteration held back (`soft` equals `hard`), since no later move needs
    the time."""
    usable = bank_ms - RESERVE_MS
    if usable <= 0:
        return Budget(0.0, 0.0)
    hard = usable * LAST_MOVE_SHARE
    return Budget(hard, hard)


def predicted_nodes(nodes: Sequence[int]) -> Optional[float]:
    """The node count of the next iteration of iterative deepening, from the counts of the
    iterations so far (depth 1 first); None with fewer than three.

    Alpha-beta grows by different factors at odd and even depths (about b/2 and 2 with b
    moves per position, for a well-ordered tree), so the next count is the one before the
    last times the growth between the two iterations before that: n(d+1) = n(d-1) * n(d) /
    n(d-2)."""
    if len(nodes) < 3:
        return None
    return nodes[-2] * nodes[-1] / max(1, nodes[-3])


def next_iteration_fits(nodes: Sequence[int], elapsed: float, remaining: float) -> bool:
    """Whether to start the next iteration: `nodes` are the node counts of the iterations so
    far, which took `elapsed` seconds together, and `remaining` seconds are left before the
    hard limit.  No, when even half of the predicted time does not fit; with too little
    history to predict, yes."""
    predicted = predicted_nodes(nodes)
    total = sum(nodes)
    if predicted is None or total <= 0:
        return True
    return 0.5 * predicted * elapsed / total <= remaining
