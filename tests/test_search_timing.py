"""Time management of the search players, with a fake clock (no timed tests).

RULES.md 8: the time field of a move request is the whole bank; the bank starts at S, grows by
S at every later request, and an answer after it ran out disqualifies.
"""

from __future__ import annotations

import math
import random
from typing import List

import pytest

from helpers import bombing, build
from reversi_ref import BUILD, legal_moves, play
from reversi_ref.engine import Engine
from reversi_ref.players import Player
from reversi_ref.players.greedy import GreedyPlayer
from reversi_ref.players.mcts import MctsPlayer
from reversi_ref.players.search import SearchPlayer
from reversi_ref.search.alphabeta import BRS, MOVE_MASK, PARANOID, Searcher
from reversi_ref.search.config import config_from_dict
from reversi_ref.search.context import GameContext
from reversi_ref.search.timing import (ENDGAME_MOVES, ENDGAME_WEIGHT, HARD_FRACTION,
                                       LAST_MOVE_SHARE, MAX_BANK_SHARE, RESERVE_MS,
                                       SOFT_FRACTION, SURPLUS_CUSHION_SHARES, UNSURE_MIN_DEPTH,
                                       Budget, expected_own_moves, last_move_budget,
                                       next_iteration_fits, plan_budget, predicted_nodes,
                                       stretched)

SIX = ("0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 1 2 0 0\n0 0 2 1 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0")


class FakeClock:
    """A clock that moves on by `tick` seconds each time it is read."""

    def __init__(self, tick: float) -> None:
        self.now = 100.0
        self.tick = tick
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.tick
        return self.now


def test_budget_is_zero_below_the_reserve() -> None:
    """RULES.md 8: with no more than the reserve left, no search time is planned."""
    assert plan_budget(RESERVE_MS, 10, 1000.0).hard_ms == 0.0
    assert plan_budget(RESERVE_MS / 2, 1, None).hard_ms == 0.0


@pytest.mark.parametrize("surplus_share", [0.0, 1.0])
def test_budget_never_plans_more_than_a_share_of_the_bank(surplus_share: float) -> None:
    """RULES.md 8: one move never plans more than MAX_BANK_SHARE of the bank after the
    reserve, whatever the estimate of the moves left, even with all of the surplus given."""
    for bank in (200, 1000, 5000, 60000, 300000):
        for moves in (1, 2, 10, 300):
            for increment in (None, 500.0, 1000.0, 10000.0):
                budget = plan_budget(bank, moves, increment, surplus_share)
                limit = (bank - RESERVE_MS) * MAX_BANK_SHARE
                assert 0 <= budget.soft_ms <= budget.hard_ms <= limit


def test_budget_spreads_the_bank_over_the_moves_left() -> None:
    """RULES.md 8: 10 s in the bank, 1 s per move and 16 moves to go (all of them endgame
    moves, so of equal weight): the fair share is (9850 + 15 * 1000) / 16 = 1553.125 ms, of
    which HARD_FRACTION is planned (below the cap of half of 9850 ms)."""
    budget = plan_budget(10000, 16, 1000.0)
    assert budget.hard_ms == pytest.approx(1553.125 * HARD_FRACTION)


def test_budget_saves_for_the_endgame() -> None:
    """RULES.md 8: 100 moves to go with 1 s per move and 10 s in the bank: the time to share
    is 9850 + 99 * 1000 = 108850 ms over 84 early moves of weight 1 and ENDGAME_MOVES = 16
    late moves of weight ENDGAME_WEIGHT = 2, so this early move's share is 108850 / 116."""
    assert (ENDGAME_MOVES, ENDGAME_WEIGHT) == (16, 2.0)
    budget = plan_budget(10000, 100, 1000.0)
    assert budget.hard_ms == pytest.approx(108850 / 116 * HARD_FRACTION)


def test_simulated_game_spends_the_saved_time_at_the_end() -> None:
    """RULES.md 8: a player that uses exactly its share each move of a 200-move game (1 s per
    move, moves left known) spends about ENDGAME_WEIGHT times as long on each of the last
    ENDGAME_MOVES moves as on the early ones, and ends with little more than it started with
    (the saved time is spent, not left in the bank)."""
    bank = 1000.0
    used: List[float] = []
    for move in range(200):
        if move:
            bank += 1000.0
        spent = plan_budget(bank, 200 - move, 1000.0).hard_ms / HARD_FRACTION
        used.append(spent)
        bank -= spent
        assert bank >= RESERVE_MS
    early = sum(used[20:100]) / 80
    late = sum(used[-ENDGAME_MOVES:-3]) / (ENDGAME_MOVES - 3)
    assert early < 1000.0 < late
    assert late / early == pytest.approx(ENDGAME_WEIGHT, rel=0.05)
    assert bank < 2000.0


def test_budget_is_capped_by_the_bank_share() -> None:
    """RULES.md 8: the first request of a 1 s game (bank 1000 ms, 30 moves to go) has a fair
    share of (850 + 29 * 1000) / 30 = 995 ms, but plans at most half of the 850 ms usable."""
    budget = plan_budget(1000, 30, 1000.0)
    assert budget.hard_ms == pytest.approx(425.0)


def test_surplus_beyond_four_shares_raises_the_limits_by_its_given_part() -> None:
    """RULES.md 8: 30 s in the bank, 1 s per move, 100 moves to go: the fair share is
    (29850 + 99 * 1000) / 116 = 1110.78 ms; the bank beyond four such shares, 29850 - 4443.10
    = 25406.90 ms, is surplus, and with a quarter of it the hard limit is 1110.78 * 1.2 +
    6351.72 = 7684.66 ms (under the cap of 14925 ms)."""
    assert SURPLUS_CUSHION_SHARES == 4.0
    budget = plan_budget(30000, 100, 1000.0, 0.25)
    assert budget.hard_ms == pytest.approx(7684.66, abs=0.01)
    assert plan_budget(30000, 100, 1000.0).hard_ms == pytest.approx(1332.93, abs=0.01)


def test_no_surplus_below_the_cushion() -> None:
    """RULES.md 8: with less than four shares in the bank there is no surplus, so the plan is
    the one without it (the cap with surplus: the bank-share test above)."""
    assert plan_budget(3000, 100, 1000.0, 0.25) == plan_budget(3000, 100, 1000.0)


def test_spending_surplus_leaves_less_in_the_bank_at_the_end() -> None:
    """RULES.md 8: a player that stops at half of its hard limit (as iterative deepening often
    does) in a 200-move game at 1 s per move ends with more than 10 s in the bank; spending a
    quarter of the surplus, it ends with less than half of that and spends more on its early
    moves."""
    def play_out(share: float) -> List[float]:
        bank = 1000.0
        used: List[float] = []
        for move in range(200):
            if move:
                bank += 1000.0
            spent = plan_budget(bank, 200 - move, 1000.0, share).hard_ms * 0.5
            used.append(spent)
            bank -= spent
            assert bank >= RESERVE_MS
        return used + [bank]

    plain, spending = play_out(0.0), play_out(0.25)
    assert plain[-1] > 10000.0 and spending[-1] < plain[-1] / 2
    assert sum(spending[:100]) > 1.2 * sum(plain[:100])


def test_the_player_plans_with_the_configured_surplus_share() -> None:
    """`EvalConfig.spend_surplus` (per cent) reaches the plan: with a 30 s bank in the middle
    of a game the search player's hard deadline lies further out than without it."""
    state = build(SIX)
    limits = []
    for share in (0, 25):
        context = GameContext(config_from_dict({"spend_surplus": share}), clock=lambda: 0.0)
        context.prepare(state.map)
        context.start_move(1000)  # the first request sets the per-move limit
        request = context.begin_move(state, 30000)
        limits.append(request.deadlines.hard)
    assert limits[1] > limits[0] > 0.0


def test_stretched_limits_grow_by_the_factor_within_the_cap() -> None:
    """RULES.md 8: a move the search is unsure of gets twice its limits with factor 2
    (1,000 ms hard of a 10,150 ms bank: 2,000 ms), but never more than MAX_BANK_SHARE of the
    bank after the reserve (1,500 ms hard of a 4,150 ms bank: 2,000 ms, not 3,000 ms), and
    never less than it had."""
    assert stretched(Budget(500.0, 1000.0), 10150.0, 2.0) == Budget(1000.0, 2000.0)
    assert stretched(Budget(750.0, 1500.0), 4150.0, 2.0).hard_ms == pytest.approx(
        4000.0 * MAX_BANK_SHARE)
    assert stretched(Budget(500.0, 1000.0), 10150.0, 1.0) == Budget(500.0, 1000.0)
    tight = Budget(1000.0, 2000.0)  # already above the cap: kept, not cut
    assert stretched(tight, 2150.0, 2.0).hard_ms == 2000.0
    assert stretched(Budget(0.0, 0.0), RESERVE_MS, 3.0) == Budget(0.0, 0.0)


def _iterations_until_stop(monkeypatch: pytest.MonkeyPatch, stretch: int,
                           bests: List[int]) -> SearchPlayer:
    """The player after one move with 30 s in the bank at 1 s a move, its iterative
    deepening replaced by fake iterations, one each 100 ms of a fake clock, whose best moves
    are the root moves numbered `bests` (depth 1 first)."""
    clock = FakeClock(0.0)
    state = build(SIX)
    player = SearchPlayer(PARANOID, random.Random(1), config_from_dict(
        {"stretch_unsure": stretch}), clock=clock)
    player.prepare(state)
    player.context.start_move(1000)  # the first request sets the per-move limit
    roots = player.searcher_for(state).root_moves()

    def iterate(self: Searcher, max_depth: int, moves: object = None) -> object:
        for depth, best in enumerate(bests, 1):
            clock.now += 0.1
            self.nodes = 1000 * depth
            yield depth, roots[best] & MOVE_MASK, 0, self.nodes

    monkeypatch.setattr(Searcher, "iterate", iterate)
    player.choose(state, 30000, 1)
    return player


def test_a_late_change_of_mind_takes_the_longer_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """With `stretch_unsure` 100, a change of the best move at depth UNSURE_MIN_DEPTH makes
    the player start iterations until twice the plain soft limit, and say so; a change one
    depth earlier, or the switch off, keeps the plain limits.  (Each fake iteration takes
    100 ms and as many nodes as the one before, so only the soft limit stops them.)"""
    moves_left = 16 + 1  # 32 free cells shared by two players, plus this one
    soft = plan_budget(30000, moves_left, 1000.0).soft_ms / 1000.0
    change_late = [0] * (UNSURE_MIN_DEPTH - 1) + [1] * 60
    change_early = [0] * (UNSURE_MIN_DEPTH - 2) + [1] * 60
    plain = _iterations_until_stop(monkeypatch, 0, change_late)
    late = _iterations_until_stop(monkeypatch, 100, change_late)
    early = _iterations_until_stop(monkeypatch, 100, change_early)
    off = _iterations_until_stop(monkeypatch, 0, change_early)
    assert late.info.stretched and not plain.info.stretched and not early.info.stretched
    # the first iteration at or past the soft limit is the last one
    assert plain.info.depth == early.info.depth == off.info.depth == math.ceil(soft / 0.1)
    assert late.info.depth == math.ceil(2 * soft / 0.1)
    # and the search inside an iteration stops at the longer hard limit (the move began at
    # 100.0 s on the fake clock)
    assert late.searcher is not None and plain.searcher is not None
    assert late.searcher.deadline - 100.0 == pytest.approx(2 * (plain.searcher.deadline - 100.0))


def test_next_iteration_is_predicted_from_the_same_parity() -> None:
    """Iterations of 100, 200 and 2000 nodes: depth 4 is predicted to grow over depth 2 as
    depth 3 grew over depth 1, 200 * (2000 / 100) = 4000 nodes; fewer than three
    iterations predict nothing."""
    assert predicted_nodes([100, 200, 2000]) == pytest.approx(4000.0)
    assert predicted_nodes([5, 100, 200, 2000]) == pytest.approx(4000.0)
    assert predicted_nodes([100, 200]) is None


def test_next_iteration_starts_unless_half_of_it_cannot_fit() -> None:
    """The same iterations took 0.23 s (0.1 ms per node), so depth 4 should take 0.4 s: it
    starts with at least half of that (0.2 s) left before the hard limit, and not with
    less.  With two iterations done there is no prediction, and it always starts."""
    nodes = [100, 200, 2000]
    assert next_iteration_fits(nodes, 0.23, 0.21)
    assert not next_iteration_fits(nodes, 0.23, 0.19)
    assert next_iteration_fits([100, 200], 0.03, 0.0)


def test_simulated_bank_never_runs_dry() -> None:
    """RULES.md 8: a player that always uses its whole hard limit, with the bank growing by
    1 s per request, keeps at least the reserve over a 400-move game with falling estimates
    of the moves left (even estimates that are far too low)."""
    for increment in (100, 1000):
        bank = float(increment)
        for move in range(400):
            if move:
                bank += increment
            moves_left = max(1, 50 - move)
            budget = plan_budget(bank, moves_left, float(increment))
            assert budget.hard_ms <= bank - RESERVE_MS or budget.hard_ms == 0.0
            bank -= budget.hard_ms
            assert bank >= min(RESERVE_MS, increment) - 1e-9


FULL = "\n".join(" ".join("12"[(x + y) % 2] for x in range(6)) for y in range(6))


@pytest.mark.parametrize("overrides", [3, 6])
def test_override_stones_in_hand_count_as_moves_to_come(overrides: int) -> None:
    """RULES.md 4, 8: on a full board each override stone in hand is one more request, so the
    estimate of the moves to come covers them (it used to count one move and spend half the
    bank on each of them).  Counted by playing the position out with greedy players."""
    state = build(FULL, overrides=overrides)
    estimate = expected_own_moves(Engine(state), 1)
    greedy = GreedyPlayer()
    asked = 0
    while state.phase == BUILD:
        asked += state.to_move == 1
        state = play(state, greedy.choose(state, 0, 1))
    assert asked == overrides
    assert asked <= estimate <= asked + 2


def _play_against_greedy(player: Player, clock: FakeClock, seconds: int) -> List[float]:
    """A whole game on SIX: `player` (player 1) against greedy, with a server-like bank for
    player 1 only; the time player 1 used per move, in ms of the fake clock."""
    state = build(SIX)
    player.prepare(state)
    bank = seconds * 1000.0
    used: List[float] = []
    greedy = GreedyPlayer()
    while state.phase != "over":
        if state.to_move == 1:
            if used:
                bank += seconds * 1000.0
            start = clock.now
            move = player.choose(state, int(bank), 1)
            spent = (clock.now - start) * 1000.0
            assert move in legal_moves(state)
            assert spent <= bank - RESERVE_MS + 1e-6, "overdrew the bank"
            # the cap plus five readings of the clock (the search checks it every few nodes)
            slack = 5 * clock.tick * 1000.0
            assert spent <= (bank - RESERVE_MS) * MAX_BANK_SHARE + slack, "over half the bank"
            bank -= spent
            used.append(spent)
        else:
            move = greedy.choose(state, 0, 1)
        state = play(state, move)
    return used


@pytest.mark.parametrize("mode", [PARANOID, BRS])
def test_search_keeps_within_the_bank(mode: str) -> None:
    """RULES.md 8: with a clock that advances 5 ms per reading, alpha-beta never overdraws a
    1 s-per-move bank (nor dips into the reserve) in a whole game."""
    clock = FakeClock(0.005)
    player = SearchPlayer(mode, random.Random(1), clock=clock)
    used = _play_against_greedy(player, clock, 1)
    assert len(used) >= 5


def test_search_stops_at_the_hard_limit() -> None:
    """RULES.md 8: each move's time stays within its hard limit plus a few clock readings
    (the search stops inside an iteration)."""
    clock = FakeClock(0.005)
    player = SearchPlayer(PARANOID, random.Random(1), clock=clock)
    state = build(SIX)
    player.prepare(state)
    start = clock.now
    player.choose(state, 600, 1)
    spent = (clock.now - start) * 1000.0
    assert spent <= player.context.last_budget.hard_ms + 3 * 5.0 + 1e-6


def test_mcts_keeps_within_the_bank() -> None:
    """RULES.md 8: the same for MCTS (which reads the clock once per iteration; the fake
    clock moves on faster to keep the test short)."""
    clock = FakeClock(0.04)
    used = _play_against_greedy(MctsPlayer(random.Random(1), clock=clock), clock, 1)
    assert used


def test_bomb_search_stops_at_the_hard_limit() -> None:
    """RULES.md 5, 8: in the bombing phase (ten bombs to go, so the whole phase is far too
    deep to search) a move also stays within its hard limit plus a few clock readings, and
    still names a legal target."""
    clock = FakeClock(0.005)
    player = SearchPlayer(PARANOID, random.Random(1), clock=clock)
    state = bombing(SIX, strength=1, bombs_per_player=[5, 5])
    player.prepare(state)
    start = clock.now
    move = player.choose(state, 600, 1)
    spent = (clock.now - start) * 1000.0
    assert move in legal_moves(state)
    assert spent <= player.context.last_budget.hard_ms + 3 * 5.0 + 1e-6
    assert 1 <= player.info.depth < 10


def test_last_move_budget_takes_its_share_with_no_iteration_held_back() -> None:
    """RULES.md 8: the last move may plan LAST_MOVE_SHARE of the bank after the reserve
    (0.8 of 2,000 ms of a 2,150 ms bank: 1,600 ms), both limits alike, and nothing at or
    below the reserve."""
    assert last_move_budget(2150.0) == Budget(1600.0, 1600.0)
    assert LAST_MOVE_SHARE * (2150.0 - RESERVE_MS) > plan_budget(2150.0, 1, 1000.0).hard_ms
    assert last_move_budget(RESERVE_MS) == Budget(0.0, 0.0)


@pytest.mark.parametrize("bombs", [1, 2])
def test_only_the_last_bomb_spends_the_bank_with_spend_last(bombs: int) -> None:
    """RULES.md 5, 8: with `spend_last`, a player bombing its last bomb plans
    `last_move_budget`; with a bomb more, or with the switch off, the plain plan."""
    state = bombing(SIX, strength=1, bombs_per_player=[bombs, 3])
    bank = 3000
    hard = {}
    for on in (False, True):
        context = GameContext(config_from_dict({"spend_last": on}), clock=lambda: 0.0)
        context.prepare(state.map)
        context.start_move(1000)  # the first request sets the per-move limit
        request = context.begin_move(state, bank)
        hard[on] = request.deadlines.hard * 1000.0
        assert request.deadlines.soft <= request.deadlines.hard
    plain = plan_budget(bank, expected_own_moves(Engine(state), 1), 1000.0).hard_ms
    assert hard[False] == pytest.approx(plain)
    expected = last_move_budget(bank).hard_ms if bombs == 1 else plain
    assert hard[True] == pytest.approx(expected)


def test_last_bomb_search_stays_within_its_limit() -> None:
    """RULES.md 5, 8: a last bomb with `spend_last`, with ten bombs of the opponent to come
    (far too deep to search), stays within its hard limit plus a few clock readings, uses
    more than the plain plan's hard limit, and names a legal target."""
    clock = FakeClock(0.005)
    player = SearchPlayer(PARANOID, random.Random(1), config_from_dict({"spend_last": True}),
                          clock=clock)
    state = bombing(SIX, strength=1, bombs_per_player=[1, 10])
    player.prepare(state)
    player.context.start_move(1000)
    start = clock.now
    move = player.choose(state, 3000, 1)
    spent = (clock.now - start) * 1000.0
    assert move in legal_moves(state)
    assert player.context.last_budget == last_move_budget(3000)
    assert plan_budget(3000, 1, 1000.0).hard_ms < spent
    assert spent <= last_move_budget(3000).hard_ms + 3 * 5.0 + 1e-6
