"""The evaluation features of issue 23, each on small positions whose value is known by hand:
shut in and access (three or more players), parity, stable runs along transitions, bombs
in hand late in phase 1.  Every feature is off at weight 0, so its term is checked as the
difference it makes to the whole evaluation."""

from __future__ import annotations

from dataclasses import replace
from typing import List, Tuple

import pytest

from helpers import build, random_positions
from reversi_ref import legal_moves, play
from reversi_ref.engine import Engine
from reversi_ref.search.analysis import MapAnalysis
from reversi_ref.search.config import DEFAULT_CONFIG, EvalConfig
from reversi_ref.search.evaluate import Evaluator
from reversi_ref.state import GameState, Move

# Every new weight at zero: the evaluation as it was before these features.
OFF = replace(DEFAULT_CONFIG, shut_in=(0, 0), access=(0, 0), parity=(0, 0), stable=(0, 0),
              frontier=(0, 0), mobility_share=0,
              bomb_late=(0, 0))


def _evaluator(state: GameState, config: EvalConfig) -> Evaluator:
    return Evaluator(Engine(state), MapAnalysis(state.map), config)


def _value(state: GameState, root: int, config: EvalConfig) -> int:
    return _evaluator(state, config).evaluate(root)


def _gain(state: GameState, root: int, **weights: Tuple[int, int]) -> int:
    """What the given weights (all others as OFF) add to root's value."""
    changed = replace(OFF, **weights)  # type: ignore[arg-type]
    return _value(state, root, changed) - _value(state, root, OFF)


def _plain_targets(state: GameState, player: int) -> List[Tuple[int, int]]:
    """The cells `player` could take without an override stone, by the readable rules."""
    moves = legal_moves(replace(state, to_move=player))
    return sorted({(m.x, m.y) for m in moves if state.map.cells[m.y * state.map.width + m.x]
                   != "x" and state.rows()[m.y].split()[m.x] in "0cib"})


# Player 1 behind a hole (shut in); the same stones with player 1 reaching a free cell.
SHUT = "1 - 2 3 0 3 2 0"
OPEN = "1 2 2 3 0 3 2 0"


def test_the_positions_are_what_the_tests_say() -> None:
    """By the rules: in SHUT player 1 has no move and players 2 and 3 have; in OPEN player 1
    has one."""
    shut = build(SHUT, players=3)
    assert _plain_targets(shut, 1) == []
    assert _plain_targets(shut, 2) and _plain_targets(shut, 3)
    assert _plain_targets(build(OPEN, players=3), 1) == [(4, 0)]


def test_shut_in_costs_the_root_its_weight() -> None:
    """Shut in, the root loses the whole weight; not shut in (and no opponent shut in),
    nothing."""
    assert _gain(build(SHUT, players=3), 1, shut_in=(700, 700)) == -700
    assert _gain(build(OPEN, players=3), 1, shut_in=(700, 700)) == 0


def test_an_opponent_shut_in_gains_its_share() -> None:
    """One of the root's two opponents shut in: half the weight."""
    assert _gain(build(SHUT, players=3), 2, shut_in=(700, 700)) == 350


def test_shut_in_position_scores_below_one_with_a_move() -> None:
    """With shut_in on, SHUT is worse for player 1 than OPEN (where player 2 has a stone
    more), by the weight more than with it off."""
    on = replace(OFF, shut_in=(3000, 3000))
    shut, open_ = build(SHUT, players=3), build(OPEN, players=3)
    assert _value(shut, 1, on) < _value(open_, 1, on)
    assert (_value(open_, 1, on) - _value(shut, 1, on)
            == _value(open_, 1, OFF) - _value(shut, 1, OFF) + 3000)


def test_shut_in_needs_three_players() -> None:
    """Two players: the feature is off (mobility already values a player without moves)."""
    state = build("1 - 2 0 1 1", to_move=2)
    assert _plain_targets(state, 2) == []
    assert _gain(state, 1, shut_in=(700, 700)) == 0


def _share_gain(state: GameState, root: int, weight: int, max_players: int = 3) -> int:
    """What `mobility_share` at `weight` (all else as OFF) adds to root's value."""
    on = replace(OFF, mobility_share=weight, share_max_players=max_players)
    return _value(state, root, on) - _value(state, root, OFF)


def test_mobility_share_splits_the_free_cells_by_mobility() -> None:
    """SHUT has two free cells (4 and 7) and mobilities 0, 1, 1 (cell 4 for player 2, cell 7
    for player 3).  Root 1 expects 0 of them, each opponent 2 * 1/2 = 1: at 100 a cell,
    -100.  Root 2 expects 1, its opponents 0 and 1, average 1/2: +50."""
    shut = build(SHUT, players=3)
    assert _share_gain(shut, 1, 100) == -100
    assert _share_gain(shut, 2, 100) == 50
    assert _share_gain(shut, 3, 100) == 50


def test_mobility_share_is_nothing_at_equal_mobility() -> None:
    """OPEN: every player has one target, so every expected share is the same."""
    open_ = build(OPEN, players=3)
    assert [_share_gain(open_, root, 100) for root in (1, 2, 3)] == [0, 0, 0]


def test_mobility_share_with_nobody_to_move_and_with_two_players() -> None:
    """No player with a target shares nothing; with two players the feature is off."""
    stuck = build("1 - 2 - 3 - 0", players=3)
    assert all(not _plain_targets(stuck, p) for p in (1, 2, 3))
    assert _share_gain(stuck, 1, 100) == 0
    two = build("1 - 2 0 1 1", to_move=2)
    assert _share_gain(two, 1, 100) == 0


def test_mobility_share_counts_up_to_share_max_players() -> None:
    """SHUT with a fourth player walled off behind a hole (no move): off with four players
    at the default bound of three.  When the bound admits four, root 1 expects 0 of the two
    free cells and its opponents 1, 1 and 0, average 2/3: -66.7 at 100 a cell, -67 as the
    evaluation rounds down."""
    four = build(SHUT + " - 4", players=4)
    assert _plain_targets(four, 4) == []
    assert _share_gain(four, 1, 100) == 0
    assert _share_gain(four, 1, 100, max_players=4) == -67


def test_free_cells_leave_out_holes_and_stones() -> None:
    """SHUT: eight cells, one hole, five stones: two free."""
    assert _evaluator(build(SHUT, players=3), OFF).free_cells() == 2


def test_access_counts_free_cells_next_to_stones() -> None:
    """Access of `0 1 0 2 3 -`: player 1 two free cells, player 2 one, player 3 none.  Root 1:
    1000 (2 - 0) / (2 + 0 + 2) = 500 (the opponents' average 1/2 rounds down to 0); root 3:
    1000 (0 - 1) / (0 + 1 + 2), rounded down, -334."""
    state = build("0 1 0 2 3 -", players=3)
    evaluator = _evaluator(state, OFF)
    assert evaluator.access_term(1, 1000) == 500
    assert evaluator.access_term(3, 1000) == -334
    assert _gain(state, 1, access=(1000, 1000)) == 500


def test_frontier_counts_own_free_neighbours_against() -> None:
    """Two players, `0 1 1 0 2 -`: the free cell on the left is next to player 1 only, the one
    in the middle next to both, so player 1's frontier is 2 and player 2's is 1.  Root 1:
    600 (1 - 2) / (2 + 1 + 2) = -120; root 2: +120.  With three players it is off."""
    state = build("0 1 1 0 2 -")
    assert _gain(state, 1, frontier=(600, 600)) == -120
    assert _gain(state, 2, frontier=(600, 600)) == 120
    assert _gain(build("0 1 1 0 2 3", players=3), 1, frontier=(600, 600)) == 0


@pytest.mark.parametrize("cells,to_move,expected", [
    ("1 2 0 0 0", 1, 300),          # three free cells, root to move: root moves last
    ("1 2 0 0", 1, -300),           # two: the opponent does
    ("1 2 0 0", 2, 300),            # two with the opponent to move: root again
    ("1 2 0 - 0 0", 1, 300),        # the region right of the hole has no stone: one cell
    ("1 2 0 - 1 0 0", 1, 300),      # only player 1 there: nothing to capture, not counted
    ("1 2 0 - 1 0 2", 1, -300),     # both there: 1 + 2 free cells, even
])
def test_parity_counts_the_free_cells_of_contested_regions(cells: str, to_move: int,
                                                           expected: int) -> None:
    """The root gains the weight when it would make the last move into the contested
    regions' free cells, and loses it otherwise; the opponent's view is the opposite."""
    state = build(cells, to_move=to_move)
    assert _gain(state, 1, parity=(300, 300)) == expected
    evaluator = _evaluator(state, replace(OFF, parity=(300, 300)))
    assert evaluator.parity_term(1, 300) == -evaluator.parity_term(2, 300) == expected


def _captured_by_someone(state: GameState, x: int) -> bool:
    """Whether any move of any player, by the readable rules, flips the stone at (x, 0)."""
    owner = state.rows()[0].split()[x]
    for player in range(1, state.players + 1):
        mover = replace(state, to_move=player)
        for move in legal_moves(mover):
            if move.x != x and play(mover, move).rows()[0].split()[x] != owner:
                return True
    return False


RING = ["0 0 6 <-> 4 0 2"]   # the row's west end steps to its east end: no corners


@pytest.mark.parametrize("cells,transitions,stable_x", [
    ("1 1 1 2 0", [], [1, 2]),      # corner at x=0 held by 1: x=1, 2 stable
    ("1 1 2 1 0", [], [1]),         # the run from the corner stops at player 2's stone
    ("0 1 1 2 0", [], []),          # the corner is free
    ("1 1 1 2 0", RING, []),        # a ring: no corner, nothing stable
])
def test_stable_runs_from_corners(cells: str, transitions: List[str],
                                  stable_x: List[int]) -> None:
    """Stable stones are counted where they are (a run of the corner owner's stones along an
    edge-like line), and only there."""
    state = build(cells, transitions=transitions)
    evaluator = _evaluator(state, replace(OFF, stable=(100, 100)))
    assert evaluator.stable_counts()[1] == len(stable_x)
    assert _gain(state, 1, stable=(100, 100)) == 100 * len(stable_x)


def test_the_ring_really_lets_those_stones_be_captured() -> None:
    """Independent check by the rules: in the ring, player 2 at x=4 flips x=0 and x=1 (the
    line wraps through the transition); on the open row nothing flips x=1."""
    ring = build("1 1 2 0 0", to_move=2, transitions=RING)
    after = play(ring, next(m for m in legal_moves(ring) if (m.x, m.y) == (4, 0)))
    assert after.rows()[0].split()[:2] == ["2", "2"]
    assert not _captured_by_someone(build("1 1 2 0 0"), 1)


def test_stable_run_follows_a_transition_into_another_row() -> None:
    """Two rows joined end to end by a transition (row 0's east end steps south-west... as
    east into row 1's west end): the run from player 1's corner at (0, 0) continues through
    the transition.  Row 1's west side opens only through it, so its cells are edge-like."""
    cells = "1 1 1\n- - -\n1 1 2\n- - -\n0 0 0"
    state = build(cells, transitions=["2 0 2 <-> 0 2 6"])
    # (0, 0) is a corner; (1, 0), (2, 0) edge-like along the row; the transition continues
    # the row into (0, 2), (1, 2); (2, 2) holds player 2.
    evaluator = _evaluator(state, replace(OFF, stable=(100, 100)))
    assert evaluator.stable_counts()[1] == 4


def test_bombs_in_hand_gain_late() -> None:
    """Two of four cells taken (progress 512): a bomb in hand gains half the late weight,
    against the opponent's none."""
    state = build("1 2 0 0", bombs=1, bombs_per_player=[1, 0])
    assert _gain(state, 1, bomb_late=(0, 1000)) == 500
    assert _gain(state, 2, bomb_late=(0, 1000)) == -500


ALL_ON = replace(DEFAULT_CONFIG, shut_in=(3000, 1000), access=(800, 200), parity=(0, 400),
                 frontier=(600, 200),
                 stable=(200, 100), bomb_late=(0, 800), region_share=(60, 60), mobility_share=20)


@pytest.mark.parametrize("name", ["othello8x8.map", "sparks3p.map"])
def test_lazy_bounds_hold_with_every_feature_on(name: str) -> None:
    """With every feature on, a lazy value outside the window is still a true bound."""
    import random
    rng = random.Random(6)
    for i, state in enumerate(random_positions(name, count=None, seed=4)):
        if i % 3:
            continue
        engine = Engine(state)
        analysis = MapAnalysis(state.map)
        for root in range(1, state.players + 1):
            full = Evaluator(engine, analysis, ALL_ON).evaluate(root)
            alpha = full + rng.randint(-4000, 4000)
            beta = alpha + rng.choice([1, 50, 2000])
            lazy = Evaluator(engine, analysis, ALL_ON).evaluate(root, alpha, beta)
            assert lazy == full or (lazy >= beta and full >= beta) or (
                lazy <= alpha and full <= alpha)


# Corner-like stones while an opponent holds an override stone (three or more players).  One
# row: cells 0 and 9 are corner-like (the board's ends), player 1 holds cell 6 and, with
# cell 0 held by player 2, could override it (capturing the 3 at cell 1) or play on cell 3
# (capturing the 2 and 3 at cells 4-5 against its 1 at cell 6).
CORNER_ROW = "2 3 1 0 2 3 1 0 0 0"
HELD = "1 3 2 0 0 0 0 0 0 0"


def _corner_config(keep: int) -> EvalConfig:
    return replace(OFF, corner=(800, 800), corner_overridable=keep)


def test_corner_row_is_what_the_tests_say() -> None:
    """By the rules: player 1's moves in CORNER_ROW are the override on the corner, the plain
    move on cell 3 and the override on cell 4; cells 0 and 9 are the corner-like ones."""
    state = build(CORNER_ROW, players=3, overrides_per_player=(1, 1, 1))
    assert sorted((m.x, m.y) for m in legal_moves(state)) == [(0, 0), (3, 0), (4, 0)]
    assert MapAnalysis(state.map).corners == [0, 9]


@pytest.mark.parametrize("keep,drop", [(0, 800), (25, 600), (100, 0)])
def test_a_corner_loses_its_share_while_an_opponent_holds_an_override(keep: int,
                                                                       drop: int) -> None:
    """Player 1 holds the corner, player 3 an override stone: the root's value drops by the
    part of the corner weight not kept."""
    state = build(HELD, players=3, overrides_per_player=(0, 0, 1))
    assert (_value(state, 1, _corner_config(keep))
            == _value(state, 1, _corner_config(100)) - drop)


def test_a_corner_keeps_its_weight_when_no_opponent_holds_an_override() -> None:
    """Only the corner's owner holds an override stone, or nobody does: nothing changes;
    with two players the weight never changes."""
    for overrides in ((1, 0, 0), (0, 0, 0)):
        state = build(HELD, players=3, overrides_per_player=overrides)
        assert _value(state, 1, _corner_config(0)) == _value(state, 1, _corner_config(100))
    two = build("1 2 0 0 0 0 0 0 0 0", overrides_per_player=(0, 1))
    assert _value(two, 1, _corner_config(0)) == _value(two, 1, _corner_config(100))


def test_an_override_is_kept_rather_than_spent_on_a_contested_corner() -> None:
    """One ply on CORNER_ROW: at full corner weight player 1 overrides the corner held by
    player 2 (whose opponents keep override stones to take it back); with the corner
    discounted it plays the plain move and keeps its override stone."""
    state = build(CORNER_ROW, players=3, overrides_per_player=(1, 1, 1))

    def best(config: EvalConfig) -> Tuple[int, int]:
        scored = [(_value(play(state, m), 1, config), (m.x, m.y)) for m in legal_moves(state)]
        return max(scored)[1]

    # At the late override weight of 600: the default's higher weight keeps the stone anyway,
    # so only the lower one shows what the corner discount does.
    base = replace(DEFAULT_CONFIG, override=(350, 600))
    assert best(replace(base, corner_overridable=100)) == (0, 0)
    assert best(replace(base, corner_overridable=0)) == (3, 0)


# Late in the game (two free cells of ten): player 1 may spend its override stone on its own
# stone at cell 7 (capturing cells 5 and 6) or play the plain move on cell 3 (capturing cell 2).
LATE_ROW = "1 1 2 0 1 2 2 1 0 1"


def test_late_row_is_what_the_tests_say() -> None:
    """By the rules: on LATE_ROW player 1 captures two stones by the override on cell 7 and one
    by the plain move on cell 3."""
    state = build(LATE_ROW, overrides_per_player=(1, 1))
    assert play(state, Move(7, 0)).rows()[0].split() == "1 1 2 0 1 1 1 1 0 1".split()
    assert play(state, Move(3, 0)).rows()[0].split() == "1 1 1 1 1 2 2 1 0 1".split()


def test_an_override_is_kept_for_the_end_rather_than_spent_for_one_stone_more() -> None:
    """One ply on LATE_ROW: with the late override weight the default had before (600) player
    1 spends its override stone for the extra stone; with the default it keeps it."""
    state = build(LATE_ROW, overrides_per_player=(1, 1))

    def best(config: EvalConfig) -> Tuple[int, int]:
        scored = [(_value(play(state, m), 1, config), (m.x, m.y)) for m in legal_moves(state)]
        return max(scored)[1]

    assert best(replace(DEFAULT_CONFIG, override=(350, 600))) == (7, 0)
    assert best(DEFAULT_CONFIG) == (3, 0)


@pytest.mark.parametrize("name", ["octagon8p.map", "labyrinth50x50.map"])
def test_access_from_the_front_list_is_the_whole_board_count(name: str) -> None:
    """On boards large enough for the engine to keep its front list, access counted over that
    list is the count over every cell, for every root, along a random game."""
    import random
    from pathlib import Path
    from reversi_ref.mapfile import read_map
    from reversi_ref.engine import BUILD
    game_map = read_map((Path(__file__).resolve().parents[1] / "maps" / name).read_text())
    engine = Engine(game_map)
    assert engine.front_on
    evaluator = Evaluator(engine, MapAnalysis(game_map), OFF)
    rng = random.Random(9)
    compared = 0
    while engine.phase == BUILD and compared < 40:
        engine.make(rng.choice(engine.legal_moves()))
        compared += 1
        roots = range(1, engine.players + 1)
        kept = [evaluator.access_term(root, 1000) for root in roots]
        engine.front_on = False
        counted = [evaluator.access_term(root, 1000) for root in roots]
        engine.front_on = True
        assert kept == counted
    assert compared == 40


# Stones alone (100 each) and override stones in hand (1000 each): the other weights at 0.
STONES = replace(OFF, material=(100, 100), corner=(0, 0), edge=(0, 0), half_open=(0, 0),
                 corner_neighbour=(0, 0), override=(1000, 1000), bomb_per_cell=0)
# Player 1 three stones, player 2 one, player 3 two, and an inversion tile left.
INVERTIBLE = "1 1 1 2 3 3 i"


def _player_values(state: GameState, config: EvalConfig) -> List[int]:
    evaluator = _evaluator(state, config)
    return list(evaluator.player_values(evaluator.progress())[1:state.players + 1])


def test_inversion_blend_values_each_player_towards_its_predecessor() -> None:
    """RULES.md 3: an inversion hands player 1's stones to 2, 2's to 3 and 3's to 1.  With
    the whole weight (1000) each player is worth its predecessor's stones: 1 gets 3's 200,
    2 gets 1's 300, 3 gets 2's 100; with half of it, half-way: 250, 200, 150."""
    state = build(INVERTIBLE, players=3)
    assert _player_values(state, STONES) == [300, 100, 200]
    assert _player_values(state, replace(STONES, inversion_blend=(1000, 1000))) == [200, 300, 100]
    assert _player_values(state, replace(STONES, inversion_blend=(500, 500))) == [250, 200, 150]


def test_inversion_blend_leaves_override_stones_with_their_owner() -> None:
    """An inversion moves stones, not what is in hand: player 1's override stone (1000)
    stays player 1's, and only the stones are blended."""
    state = build(INVERTIBLE, players=3, overrides_per_player=(1, 0, 0))
    assert _player_values(state, replace(STONES, inversion_blend=(1000, 1000))) == [
        1200, 300, 100]


def test_inversion_shift_blends_towards_the_player_as_many_seats_back_as_tiles_left() -> None:
    """Two tiles left and both taken: player 1's stones go to 2 and then to 3, 2's to 3 and
    then to 1, 3's to 1 and then to 2.  So with the whole weight player 1 is worth 2's 100,
    2 is worth 3's 200 and 3 is worth 1's 300; half-way: 200, 150, 250.  Without the shift
    the blend stays one seat back, as with one tile."""
    state = build("1 1 1 2 3 3 i i", players=3)
    assert _player_values(state, STONES) == [300, 100, 200]
    shifted = replace(STONES, inversion_shift=True)
    assert _player_values(state, replace(shifted, inversion_blend=(1000, 1000))) == [
        100, 200, 300]
    assert _player_values(state, replace(shifted, inversion_blend=(500, 500))) == [
        200, 150, 250]
    assert _player_values(state, replace(STONES, inversion_blend=(1000, 1000))) == [
        200, 300, 100]


def test_inversion_shift_by_a_whole_round_changes_nothing() -> None:
    """Three tiles and three players: after all three inversions every player has its own
    stones back, so the shifted values are the plain ones; one tile shifts one seat, as the
    plain blend does."""
    three = build("1 1 1 2 3 3 i i i", players=3)
    shifted = replace(STONES, inversion_shift=True, inversion_blend=(1000, 1000))
    assert _player_values(three, shifted) == _player_values(three, STONES) == [300, 100, 200]
    one = build(INVERTIBLE, players=3)
    assert _player_values(one, shifted) == [200, 300, 100]


def test_inversion_shift_leaves_out_tiles_no_stone_can_reach() -> None:
    """The last tile sits alone behind a hole: no line of stones can ever end on it, so only
    the first tile counts and the shift is one seat (200, 300, 100), not two."""
    state = build("1 1 1 2 3 3 i - i", players=3)
    shifted = replace(STONES, inversion_shift=True, inversion_blend=(1000, 1000))
    assert _player_values(state, shifted) == [200, 300, 100]
    # With a stone of player 1 beside it (four stones now) the tile counts: two seats.
    walled_with_a_stone = build("1 1 1 2 3 3 i - i 1", players=3)
    assert _player_values(walled_with_a_stone, shifted) == [100, 200, 400]


def test_inversion_shift_needs_the_blend() -> None:
    """The shift only says how far the blend reaches: with the blend at 0 nothing moves."""
    state = build("1 1 1 2 3 3 i i", players=3)
    assert (_player_values(state, replace(STONES, inversion_shift=True))
            == _player_values(state, STONES))


@pytest.mark.parametrize("cells,players", [
    ("1 1 1 2 3 3 0", 3),  # no inversion tile left: nothing to blend
    ("1 1 1 2 2 c 0", 2),  # two players: an inversion swaps the two, as a choice would
    ("1 1 1 2 2 i 0", 2),
])
def test_inversion_blend_needs_a_tile_and_three_players(cells: str, players: int) -> None:
    """Without an inversion tile, or with two players, the blend changes no value."""
    state = build(cells, players=players)
    assert (_player_values(state, replace(STONES, inversion_blend=(1000, 1000)))
            == _player_values(state, STONES))


# Three regions cut by holes: (1, 2, 2 and two free cells), (3 and two free cells), (1, 3 and
# two free cells).
ROOMS = "1 2 2 0 0 - 3 0 0 - 1 3 0 0"


def _region_gains(state: GameState, weight: int) -> List[int]:
    """What region_share at `weight` (early and late) adds to each player's own value."""
    without = _evaluator(state, OFF)
    base = list(without.player_values(without.progress()))
    with_share = _evaluator(state, replace(OFF, region_share=(weight, weight)))
    values = with_share.player_values(with_share.progress())
    return [values[p] - base[p] for p in range(1, state.players + 1)]


def test_region_share_splits_the_free_cells_of_contested_regions() -> None:
    """Worked by hand on ROOMS at 300 a cell: the first region's two free cells are shared by
    players 1 and 2 one to two (200 and 400), the second has player 3 alone (nothing), the
    third's two free cells go to players 1 and 3 one to one (300 each)."""
    assert _region_gains(build(ROOMS, players=3), 300) == [500, 400, 300]


def test_region_share_leaves_out_disqualified_players_and_two_player_games() -> None:
    """With player 2 disqualified the first region has one player left and counts for
    nobody; with two players (parity's domain) and on a map of one region it is off."""
    assert _region_gains(build(ROOMS, players=3, disqualified=[2]), 300) == [300, 0, 300]
    assert _region_gains(build("1 2 0 - 1 0 2", players=2), 300) == [0, 0]
    assert _region_gains(build("1 2 0 3 0 0", players=3), 300) == [0, 0, 0]
