"""The exact bombing-phase solver and the end of phase 1 searched through the bombs.

Expected values come from an independent brute force: every bomb order and every target,
played with the readable rules (`reversi_ref.rules` through `play` and `legal_moves`).
"""

from __future__ import annotations

import itertools
import random
import time
from dataclasses import replace
from typing import Any, List, Optional, Set, Tuple

import pytest

from helpers import bombing, brute_force, build, finishes
from reversi_ref import Move, legal_moves, play, scores
from reversi_ref.engine import BOMB, Engine
from reversi_ref.players import get
from reversi_ref.players.greedy import GreedyPlayer
from reversi_ref.players.search import SearchPlayer
from reversi_ref.search.alphabeta import PARANOID, Searcher
from reversi_ref.search.analysis import MapAnalysis
from reversi_ref.search.bombing import BOMB_DEPTH, _BombSearch, choose_bomb, root_candidates
from reversi_ref.search.config import DEFAULT_CONFIG, EvalConfig
from reversi_ref.search.endgame import (LEAF_BUDGET, BombSolver, Solved, leaf_key, leaf_value,
                                        places)
from reversi_ref.search.evaluate import Evaluator, is_decisive
from reversi_ref.search.timing import NO_DEADLINE, Clock, expected_own_moves, plan_budget
from reversi_ref.state import GameState


def random_bombing_position(seed: int) -> GameState:
    """A small bombing-phase position: 2 or 3 players, holes, strength 0 to 2, few bombs."""
    rng = random.Random(seed)
    players = rng.choice([2, 2, 3])
    width, height = rng.randint(3, 5), rng.randint(1, 2)
    cells = "\n".join(" ".join(rng.choice("00-" + "123"[:players] * 2) for _ in range(width))
                      for _ in range(height))
    bombs = [rng.randint(0, 2) for _ in range(players)]
    bombs[0] = max(1, bombs[0])
    while sum(bombs) > 4:
        bombs[bombs.index(max(bombs))] -= 1
    return bombing(cells, players=players, strength=rng.randint(0, 2),
                   bombs_per_player=bombs, to_move=rng.choice([1, 1, 2]))


def test_solver_matches_brute_force_on_places_and_margin() -> None:
    """RULES.md 5, 7: on 50 random small positions the solver's place value equals the brute
    force's, the target it picks reaches it, and with `margin` also reaches the best margin;
    with the root not to move the value is the same as the brute force's."""
    checked = 0
    for seed in range(50):
        state = random_bombing_position(seed)
        if state.phase != "bomb":
            continue
        best = brute_force(state, 1, {})
        solver = BombSolver(Engine(state))
        solved = solver.solve(1, 10 ** 6)
        assert solved is not None and solved.value == best[0], (seed, state.rows())
        if state.to_move == 1:
            move = solver.engine.decode_move(solved.move)
            assert brute_force(play(state, move), 1, {})[0] == best[0], seed
            lexicographic = solver.solve(1, 10 ** 6, margin=True)
            assert lexicographic is not None
            move = solver.engine.decode_move(lexicographic.move)
            assert brute_force(play(state, move), 1, {}) == best, (seed, state.rows())
        checked += 1
    assert checked >= 40


def test_solver_with_tiny_tables_still_matches_brute_force() -> None:
    """Tables of two slots (every store replaces another key, a probe mostly finds another
    key) and one solver kept for both players of a position: a slot holding another position,
    or the other root's value, is a miss, never a wrong value."""
    checked = 0
    for seed in range(50):
        state = random_bombing_position(seed)
        if state.phase != "bomb":
            continue
        solver = BombSolver(Engine(state), table_bits=1, counts_bits=1)
        for root in (1, 2, 1):
            solved = solver.solve(root, 10 ** 6, margin=True)
            assert solved is not None, seed
            assert solved.value == brute_force(state, root, {})[0], (seed, root, state.rows())
        checked += 1
    assert checked >= 40


def test_solver_gives_up_past_its_budget() -> None:
    """A budget of a handful of blasts cannot solve a position with eight targets and
    several bombs: the solver says so (None) instead of guessing."""
    state = bombing("1 2 1 2 0 1 2 0", strength=1, bombs_per_player=[2, 2])
    assert BombSolver(Engine(state)).solve(1, 5) is None


# Player 1's last phase-1 moves are (1, 2) and (3, 2); then player 2 has one move, and each
# player drops one strength-1 bomb, player 1 first (RULES.md 4-5):
#   1 1 0 1 2
#   2 0 2 - 1
#   1 0 - 0 -
# (1, 2) is the move with more stones after it (greedy), but the bombs then leave a draw at
# best; only (3, 2) wins after the bombs (the brute force below plays every line).
BEFORE_BOMBS = "1 1 0 1 2\n2 0 2 - 1\n1 0 - 0 -"


def test_end_of_phase_one_is_searched_through_the_bombs() -> None:
    """RULES.md 4, 5, 7: searching to the end of phase 1, with the bombing phase solved at
    the leaves, the search takes (3, 2), the only move that wins once the bombs have
    fallen; greedy's move only draws."""
    state = build(BEFORE_BOMBS, strength=1, bombs_per_player=[1, 1])
    results = {m: brute_force(play(state, m), 1, {})[0] for m in legal_moves(state)}
    assert results == {Move(1, 2): 0, Move(3, 2): 1}
    assert results[GreedyPlayer().choose(state, 0, 1)] == 0
    assert SearchPlayer().choose(state, 0, 6) == Move(3, 2)


def test_leaf_value_is_decisive_only_when_solved() -> None:
    """A leaf in the bombing phase that the solver proves won is worth a decisive value;
    with the solver off (`exact_endgame` false) it is the evaluation's estimate."""
    # Player 1 bombs first with strength 0 and then player 2: 3 against 1 stone, each loses
    # one stone, 2 to 0 (RULES.md 5).
    state = bombing("1 1 1 2 0", bombs_per_player=[1, 1])
    assert brute_force(state, 1, {})[0] == 1
    engine = Engine(state)
    analysis = MapAnalysis(state.map)
    on = Evaluator(engine, analysis, DEFAULT_CONFIG)
    assert is_decisive(leaf_value(on, 1)) and leaf_value(on, 1) > 0
    off = Evaluator(engine, analysis, replace(DEFAULT_CONFIG, exact_endgame=False))
    assert not is_decisive(off.evaluate(1))


def eight_players_three_bombs() -> GameState:
    """A bombing position of eight players with 5 to 12 stones and three strength-0 bombs
    each: the paranoid counts game is far over the leaf budget."""
    rows = [str(p) * (4 + p) + "0" * (12 - 4 - p) for p in range(1, 9)]
    return bombing("\n".join(" ".join(row) for row in rows), players=8, bombs=3)


def count_solves(monkeypatch: pytest.MonkeyPatch) -> List[int]:
    """Patch BombSolver.solve to count its calls; the list's length is the count."""
    calls: List[int] = []
    solve = BombSolver.solve

    def counted(self: BombSolver, root: int, budget: int, *args: Any, **kwargs: Any
                ) -> Optional[Solved]:
        calls.append(root)
        return solve(self, root, budget, *args, **kwargs)

    monkeypatch.setattr(BombSolver, "solve", counted)
    return calls


def test_a_hopeless_leaf_is_tried_once_per_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """With eight players the strength-0 leaf solve runs out of budget; the search then values
    leaves with the same bombs in hand by the evaluation without trying again, until its
    next search."""
    state = eight_players_three_bombs()
    engine = Engine(state)
    evaluator = Evaluator(engine, MapAnalysis(state.map), DEFAULT_CONFIG)
    assert BombSolver(engine).solve(1, LEAF_BUDGET) is None
    searcher = Searcher(engine, evaluator, DEFAULT_CONFIG)
    searcher.reset(1)
    calls = count_solves(monkeypatch)
    values = [leaf_value(evaluator, 1, searcher.hopeless_leaves) for _ in range(3)]
    assert len(calls) == 1 and values == [evaluator.evaluate(1)] * 3
    assert searcher.hopeless_leaves == {leaf_key(engine, 1)}
    engine.make(engine.legal_moves()[0])  # player 1 bombs: other bombs in hand, tried again
    leaf_value(evaluator, 1, searcher.hopeless_leaves)
    engine.unmake()
    assert len(calls) == 2
    searcher.reset(1)
    leaf_value(evaluator, 1, searcher.hopeless_leaves)
    assert len(calls) == 3


def test_two_player_and_solved_leaves_are_always_tried(monkeypatch: pytest.MonkeyPatch) -> None:
    """The memory of hopeless leaves keeps only failures, and only with three or more
    players: a solved leaf stays exact, and two players' leaves are tried every time."""
    hopeless: Set[Tuple[int, ...]] = set()
    solved = bombing("1 1 1 2 0", bombs_per_player=[1, 1])  # 2 to 0 after the bombs
    engine = Engine(solved)
    evaluator = Evaluator(engine, MapAnalysis(solved.map), DEFAULT_CONFIG)
    assert is_decisive(leaf_value(evaluator, 1, hopeless)) and not hopeless
    # Two players with 40 bombs each over 44 cells: past the budget, tried every time.
    long = bombing("\n".join(["1 2 0 0 0 0 0 0 0 0 0"] * 4), bombs=40)
    engine = Engine(long)
    evaluator = Evaluator(engine, MapAnalysis(long.map), DEFAULT_CONFIG)
    assert BombSolver(engine).solve(1, LEAF_BUDGET) is None
    calls = count_solves(monkeypatch)
    for _ in range(2):
        leaf_value(evaluator, 1, hopeless)
    assert len(calls) == 2 and not hopeless


def test_choose_bomb_is_exact_where_a_narrow_beam_misses() -> None:
    """RULES.md 5, 7: with a beam of one target per bomber, the beam alone takes the best
    single bomb (6, 0) and draws; the exact solve takes (2, 0), the only win (worked in
    test_search.LAST_BOMB)."""
    state = bombing("1 0 0 0 1 2 2 0", strength=1, bombs_per_player=[2, 1])
    narrow = replace(DEFAULT_CONFIG, bomb_candidates=1)
    for exact, expected in ((True, Move(2, 0)), (False, Move(6, 0))):
        config = replace(narrow, exact_endgame=exact)
        engine = Engine(state)
        evaluator = Evaluator(engine, MapAnalysis(state.map), config)
        choice = choose_bomb(engine, evaluator, 1, depth=BOMB_DEPTH)
        assert engine.decode_move(choice.move) == expected, exact


@pytest.mark.parametrize("name", ["search", "brs", "mcts"])
def test_every_search_player_bombs_with_the_bombing_search(name: str) -> None:
    """RULES.md 5, 7: in the position above, each search player takes (2, 0), the only win,
    at a fixed depth and with a bank of 2 s."""
    state = bombing("1 0 0 0 1 2 2 0", strength=1, bombs_per_player=[2, 1])
    assert get(name, 1).choose(state, 0, BOMB_DEPTH) == Move(2, 0)
    assert get(name, 1).choose(state, 2000, 1) == Move(2, 0)


def test_root_also_tries_the_best_target_against_every_player() -> None:
    """RULES.md 5, 7: "3 1 1 2 2 2 2", three strength-0 bombs for player 1 alone (2 stones
    against 4 and 1).  First place alone needs all three on player 2.  A one-target beam
    spends the first bomb on player 3 (the first of the targets the one-bomb value scores
    alike) and ends level with player 2; with the root's target against each player the
    search reaches the brute force's best place (worked by hand: (3, 0) is player 2's first
    stone, (0, 0) player 3's only one)."""
    state = bombing("3 1 1 2 2 2 2", players=3, bombs_per_player=[3, 0, 0])
    best = brute_force(state, 1, {})[0]
    assert best == 2
    config = replace(DEFAULT_CONFIG, bomb_candidates=1, exact_endgame=False)
    engine = Engine(state)
    assert [engine.decode_move(m) for m in root_candidates(engine, 1, [])] == [
        Move(3, 0), Move(0, 0)]
    evaluator = Evaluator(engine, MapAnalysis(state.map), config)
    while engine.phase == BOMB:
        engine.make(choose_bomb(engine, evaluator, 1, depth=BOMB_DEPTH).move)
    assert places(engine.counts, engine.disqualified, engine.players, 1) == best


def test_counts_solve_keeps_to_its_deadline() -> None:
    """Strength 0 with eight players and 23 bombs (as on compMaps__comp2024_04_8p, where our
    client ran past its 19 s bank on its first bomb in stop 38) is a counts game far too large
    to finish.  With no blast budget, the solver gives up once its clock passes the deadline
    (a fake clock, one tick a reading) instead of running on."""
    row = " ".join("12345678") + " 0 0"
    state = bombing("\n".join([row] * 4), players=8, strength=0, to_move=6,
                    bombs_per_player=[3, 3, 3, 3, 2, 3, 3, 3])
    ticks = itertools.count()
    solver = BombSolver(Engine(state))
    solved = finishes(lambda: solver.solve(6, 1 << 40, deadline=1000.0,
                                           clock=lambda: float(next(ticks))), seconds=20.0)
    assert solved is None


def test_first_bombs_get_the_larger_share_of_the_bank() -> None:
    """RULES.md 8: with four bombs to drop and 8000 ms banked (1000 ms per request), the
    first bomb's hard limit is above the even share of the bank and what follows (two
    moves' worth of planning instead of four), and still within half the bank."""
    state = bombing("1 2 1 2 0 1 2 0", strength=1, bombs_per_player=[4, 4])
    engine = Engine(state)
    moves = expected_own_moves(engine, 1)
    assert moves == 2
    budget = plan_budget(8000, moves, 1000)
    even = plan_budget(8000, 4, 1000)
    assert even.hard_ms < budget.hard_ms <= 0.5 * (8000 - 150)


def _bomb_search(state: GameState, config: EvalConfig, root: int = 1,
                 deadline: float = NO_DEADLINE, clock: Clock = time.monotonic
                 ) -> Tuple[Engine, _BombSearch]:
    """An engine on `state` and the bombing search of `root` on it under `config`."""
    engine = Engine(state)
    return engine, _BombSearch(engine, Evaluator(engine, MapAnalysis(state.map), config), root,
                               deadline, clock)


# Three players, strength 1 (a 3x3 blast): (3, 1), (4, 1) and (5, 1) each remove nine stones
# of players 2 and 3 and none of player 1's; every other target fewer (worked by hand).
DESTROYER_BOARD = "1 1 2 2 3 3 3\n1 1 2 2 3 3 3\n1 1 2 2 3 3 3"


@pytest.mark.parametrize("root, expected", [(2, Move(3, 1)), (3, Move(5, 1))])
def test_destroyer_takes_most_stones_of_the_others_worst_for_the_root(
        root: int, expected: Move) -> None:
    """RULES.md 5: with `bomb_destroyers`, player 1 is taken to bomb where it removes the most
    stones of the others; of the three such targets, the one that leaves the root fewest:
    (3, 1) takes all six of player 2's, (5, 1) all nine of player 3's."""
    state = bombing(DESTROYER_BOARD, players=3, strength=1)
    engine, search = _bomb_search(
        state, replace(DEFAULT_CONFIG, bomb_destroyers=True, bomb_climbers=False), root)
    assert search.destroyers
    assert engine.decode_move(search.destroyer_target()) == expected


@pytest.mark.parametrize("switch", ["bomb_destroyers", "bomb_climbers"])
def test_opponent_models_are_off_with_two_players(switch: str) -> None:
    """Two players: paranoid is the exact model of the one opponent, so it stays."""
    config = replace(DEFAULT_CONFIG, bomb_destroyers=switch == "bomb_destroyers",
                     bomb_climbers=switch == "bomb_climbers")
    _, search = _bomb_search(bombing("1 1 2 2 0 1", strength=1), config)
    assert not search.modelled and not search.destroyers and not search.climbers


@pytest.mark.parametrize("switch", ["bomb_destroyers", "bomb_climbers"])
def test_opponent_models_keep_a_proven_first_place(switch: str) -> None:
    """The position of test_root_also_tries_the_best_target_against_every_player: the exact
    solve proves first place alone, so either opponent model keeps its targets and ends
    there too."""
    state = bombing("3 1 1 2 2 2 2", players=3, bombs_per_player=[3, 0, 0])
    config = replace(DEFAULT_CONFIG, bomb_candidates=1,
                     bomb_destroyers=switch == "bomb_destroyers",
                     bomb_climbers=switch == "bomb_climbers")
    engine = Engine(state)
    evaluator = Evaluator(engine, MapAnalysis(state.map), config)
    while engine.phase == BOMB:
        engine.make(choose_bomb(engine, evaluator, 1, depth=BOMB_DEPTH).move)
    assert places(engine.counts, engine.disqualified, engine.players, 1) == 2


def _climber_search(state: GameState, destroyers: bool = False) -> Tuple[Engine, _BombSearch]:
    return _bomb_search(state, replace(DEFAULT_CONFIG, bomb_climbers=True,
                                       bomb_destroyers=destroyers))


def test_climber_rises_in_the_ranking_at_the_first_such_target() -> None:
    """RULES.md 5 and 7, worked by hand on DESTROYER_BOARD (player 1 to move, 6 stones
    against 6 and 9, so two players are level with it or above): (4, 0) takes 2 of player
    2's and 4 of player 3's stones and leaves nobody level or above, as the first target in
    move order to do so; the destroyer's targets are in row 1."""
    engine, search = _climber_search(bombing(DESTROYER_BOARD, players=3, strength=1),
                                     destroyers=True)
    assert search.climbers and search.modelled and not search.destroyers
    assert engine.decode_move(search.climber_target()) == Move(4, 0)


def test_climber_counts_a_tie_against_itself() -> None:
    """Player 3 to move with 2 stones, player 1 with 3 and player 2 with 2, strength 0: a
    stone of player 1 removed leaves it level (still counted as ahead), one of player 2's
    puts it behind, so the first stone of player 2, (3, 0), is the target."""
    state = bombing("1 1 1 2 2 0 3 3", players=3, to_move=3)
    engine, search = _climber_search(state)
    assert engine.decode_move(search.climber_target()) == Move(3, 0)


# Seven players, strength 0, player 7 to move (worked by hand).  CLIMB_LOW: player 7 has 2
# stones, player 1 too and players 2-6 three each, so all six count as level or above.  Only
# a stone of player 1 bombed, first (15, 0), leaves five: sixth place, which does not count
# with `climber_places` 5, so every target is alike and the first, (0, 0), is taken.
# CLIMB_HIGH: player 7 has 3 stones, so players 2-6 count as level or above and player 1
# does not; a stone of player 2, first (2, 0), leaves four: fifth place, taken either way.
CLIMB_LOW = "2 2 2 3 3 3 4 4 4 5 5 5 6 6 6 1 1 7 7"
CLIMB_HIGH = "1 1 2 2 2 3 3 3 4 4 4 5 5 5 6 6 6 7 7 7"


@pytest.mark.parametrize("board, places, expected", [
    (CLIMB_LOW, 0, Move(15, 0)), (CLIMB_LOW, 5, Move(0, 0)),
    (CLIMB_HIGH, 0, Move(2, 0)), (CLIMB_HIGH, 5, Move(2, 0))])
def test_climber_places_past_the_counted_ones_are_alike(
        board: str, places: int, expected: Move) -> None:
    """`climber_places`: a bomber that cannot reach one of the counted places takes the
    first target in move order; one that can still climbs."""
    state = bombing(board, players=7, to_move=7)
    engine, search = _bomb_search(state, replace(DEFAULT_CONFIG, climber_places=places))
    assert search.climbers
    assert engine.decode_move(search.climber_target()) == expected


def _climber_by_the_rules(state: GameState, places: int = 0) -> Move:
    """The climber's target with the readable rules: every legal target played, the number
    of other players in the game with at least the bomber's stones (at most `places` when
    that is set), the least, the first in row-major order."""
    bomber = state.to_move
    assert bomber is not None
    best = None
    for move in sorted(legal_moves(state), key=lambda m: (m.y, m.x)):
        after = scores(play(state, move))
        place = sum(1 for p, n in after.items() if p != bomber and n >= after[bomber])
        if places:
            place = min(place, places)
        if best is None or place < best[0]:
            best = (place, move)
    assert best is not None
    return best[1]


@pytest.mark.parametrize("seed, players, widths, copies, strengths, places", [
    (54, (3, 4), (3, 6), 3, 2, 0), (57, (6, 7, 8), (4, 8), 2, 1, 5)])
def test_climber_agrees_with_the_readable_rules_on_random_positions(
        seed: int, players: Tuple[int, ...], widths: Tuple[int, int], copies: int,
        strengths: int, places: int) -> None:
    """The fast climber against _climber_by_the_rules on 60 random bombing positions, holes
    included: three or four players and every place counted, and six to eight players with
    `climber_places` 5, where some bombers can only end below fifth place."""
    rng = random.Random(seed)
    config = replace(DEFAULT_CONFIG, bomb_climbers=True, climber_places=places)
    checked = 0
    for _ in range(60):
        n = rng.choice(players)
        width, height = rng.randint(*widths), rng.randint(2, 4)
        alphabet = "0" + "".join(str(p) for p in range(1, n + 1)) * copies + "-"
        rows = [" ".join(rng.choice(alphabet) for _ in range(width)) for _ in range(height)]
        state = bombing("\n".join(rows), players=n, strength=rng.randint(0, strengths),
                        to_move=rng.randint(1, n))
        if not legal_moves(state):
            continue
        engine, search = _bomb_search(state, config)
        assert engine.decode_move(search.climber_target()) == _climber_by_the_rules(state,
                                                                                    places)
        checked += 1
    assert checked >= 50


def test_default_search_reaches_the_best_place_against_climbers() -> None:
    """With three players and the default `bomb_climbers`, the whole phase searched (beam
    wider than the board): the target taken reaches the best place that the root's every
    line against climbing opponents reaches with the readable rules, on random positions;
    the paranoid search's target falls short of it on some of them."""
    wide = replace(DEFAULT_CONFIG, bomb_candidates=99)
    paranoid = replace(wide, bomb_climbers=False)
    checked = paranoid_missed = 0
    for seed in range(1000):
        state = random_bombing_position(seed)
        if state.players < 3 or state.to_move != 1:
            continue
        climbers = _climber_by_the_rules
        best = brute_force(state, 1, {}, climbers)[0]
        move = SearchPlayer(PARANOID, config=wide).choose(state, 0, 10)
        assert brute_force(play(state, move), 1, {}, climbers)[0] == best, seed
        move = SearchPlayer(PARANOID, config=paranoid).choose(state, 0, 10)
        paranoid_missed += brute_force(play(state, move), 1, {}, climbers)[0] != best
        checked += 1
    assert checked > 150 and paranoid_missed > 0


def test_widening_reaches_the_best_outcome_against_climbers() -> None:
    """`bomb_widen` with a beam of one: on random three-player positions where the root drops
    its last bomb, so that every bomb after it is a climber's and each target's value is
    exact, the target taken reaches the best outcome (places, then margin) of the readable
    rules' brute force over climbing opponents; without widening, the beam and each
    player's most-destroying target fall short on some positions."""
    assert DEFAULT_CONFIG.bomb_widen  # on by default since stop 56
    narrow = replace(DEFAULT_CONFIG, bomb_candidates=1, exact_endgame=False, bomb_widen=False)
    widen = replace(narrow, bomb_widen=True)
    climbers = _climber_by_the_rules
    checked = narrow_missed = 0
    for seed in range(1000):
        state = random_bombing_position(seed)
        if state.players < 3 or state.to_move != 1 or state.bombs[0] != 1:
            continue
        best = brute_force(state, 1, {}, climbers)
        found = []
        for config in (widen, narrow):
            engine, search = _bomb_search(state, config)
            # A clock that stands still: the soft deadline is never reached.
            choice = choose_bomb(engine, search.evaluator, 1, 1e9, lambda: 0.0, BOMB_DEPTH, 1e9)
            move = engine.decode_move(choice.move)
            found.append(brute_force(play(state, move), 1, {}, climbers))
        assert found[0] == best, seed
        narrow_missed += found[1] != best
        checked += 1
    assert checked > 50 and narrow_missed > 0, (checked, narrow_missed)


@pytest.mark.parametrize("switch", ["bomb_destroyers", "bomb_climbers"])
def test_opponent_model_stops_at_the_deadline(switch: str) -> None:
    """With the clock past the deadline, the modelled opponent's scan of DESTROYER_BOARD
    (21 targets) stops at its first look at the clock and names no target."""
    config = replace(DEFAULT_CONFIG, bomb_destroyers=switch == "bomb_destroyers",
                     bomb_climbers=switch == "bomb_climbers")
    engine, search = _bomb_search(bombing(DESTROYER_BOARD, players=3, strength=1), config, 2,
                                  0.0, lambda: 1.0)
    target = search.climber_target() if search.climbers else search.destroyer_target()
    assert target == -1 and search.stopped
    assert search.nodes < len(engine.legal_moves())


def test_climbers_model_the_opponents_by_default() -> None:
    """With three or more players the default config models each opponent as a climber
    (`bomb_climbers`, stop 55), not paranoid."""
    _, search = _bomb_search(bombing(DESTROYER_BOARD, players=3, strength=1), DEFAULT_CONFIG)
    assert search.climbers and search.modelled and not search.destroyers
