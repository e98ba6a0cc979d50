"""Tests of the search machinery: the transposition table, engines reused across positions,
the map analysis and the evaluation's config."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from helpers import build, map_text, random_positions
from reversi_ref import legal_moves, play, read_map
from reversi_ref.engine import Engine
from reversi_ref.mapfile import read_map_file
from reversi_ref.search.alphabeta import BRS, PARANOID, Searcher
from reversi_ref.search.analysis import MapAnalysis
from reversi_ref.search.config import DEFAULT_CONFIG, config_from_dict
from reversi_ref.search.evaluate import INFINITY, Evaluator
from reversi_ref.search.position import EngineCache, set_mover
from reversi_ref.search.table import EXACT, LOWER, TranspositionTable
from reversi_ref.state import GameState

MAPS = Path(__file__).resolve().parents[1] / "maps"


# --------------------------------------------------------------------------- table


def test_table_keeps_its_size() -> None:
    """Storing many more positions than it holds keeps the table's memory fixed."""
    table = TranspositionTable(bits=6)
    rng = random.Random(1)
    for i in range(5000):
        table.store(rng.getrandbits(63) - (1 << 62), i % 7, EXACT, i, i)
    assert len(table.keys) == len(table.values) == len(table.info) == len(table.moves) == 64
    assert table.used <= 64


def test_table_finds_what_it_stored() -> None:
    """A stored entry is found again with its value, depth, bound and move."""
    table = TranspositionTable(bits=8)
    table.store(-12345, 3, LOWER, 77, 640)
    i = table.probe(-12345)
    assert i >= 0
    assert (table.values[i], table.depth(i), table.bound(i), table.moves[i]) == (
        77, 3, LOWER, 640)
    assert table.probe(-12345 + 256) == -1


def test_table_keeps_the_deeper_entry_of_this_search() -> None:
    """Two keys on the same slot: a shallower result does not replace a deeper one of the
    same search, but does replace one from an earlier move."""
    table = TranspositionTable(bits=4)
    table.store(1, 5, EXACT, 10, 1)
    table.store(17, 2, EXACT, 20, 2)
    assert table.probe(1) >= 0 and table.probe(17) == -1
    table.new_search()
    table.store(17, 2, EXACT, 20, 2)
    assert table.probe(17) >= 0


def test_rejects_table_sizes_out_of_range() -> None:
    """Bits outside 4..26 are refused with a clear error."""
    with pytest.raises(ValueError, match="bits"):
        TranspositionTable(bits=40)


# --------------------------------------------------------------------------- engine reuse


def _same_engine(a: Engine, b: Engine) -> None:
    for name in ("board", "counts", "overrides", "bombs", "disqualified", "in_game", "phase",
                 "to_move", "hash", "adjacent"):
        assert getattr(a, name) == getattr(b, name), name
    assert a.legal_moves() == b.legal_moves()


@pytest.mark.parametrize("name", ["default.map", "islands4p.map", "sparks3p.map",
                                  "carnival4p.map"])
def test_loaded_engine_equals_a_fresh_one(name: str) -> None:
    """Loading positions of random games (both phases, a disqualification) into one engine
    gives the same fields, hash and legal moves as building an engine for each."""
    game_map = read_map_file(str(MAPS / name))
    cache = EngineCache()
    rng = random.Random(name)
    engine = Engine(game_map)
    for step in range(60):
        if engine.is_over():
            break
        if step == 25 and engine.players > 2:
            engine.disqualify(engine.to_move)
        else:
            moves = engine.legal_moves()
            engine.make(moves[rng.randrange(len(moves))])
        if step % 5 == 0:
            state = engine.to_state()
            reused = cache.engine_for(state)
            assert reused is cache.engine_for(state)
            _same_engine(reused, Engine(state))


@pytest.mark.parametrize("name", ["default.map", "carnival4p.map"])
def test_set_mover_gives_that_players_moves(name: str) -> None:
    """RULES.md 3: after `set_mover(engine, p)` the engine lists p's legal moves (as the
    readable rules do for the same position with p to move), its hash is the one computed
    from scratch, and the engine's `count_moves_for` agrees."""
    game_map = read_map_file(str(MAPS / name))
    engine = Engine(game_map)
    rng = random.Random(7)
    for _ in range(20):
        moves = engine.legal_moves()
        if not moves or engine.phase != 0:
            break
        engine.make(moves[rng.randrange(len(moves))])
        state = engine.to_state()
        for p in range(1, engine.players + 1):
            expected = legal_moves(replace(state, to_move=p))
            assert engine.count_moves_for(p) == len(expected)
            saved = engine.to_move
            set_mover(engine, p)
            assert engine.to_move == p
            assert engine.hash == engine.compute_hash()
            assert [engine.decode_move(m) for m in engine.legal_moves()] == expected
            set_mover(engine, saved)
            assert engine.hash == engine.compute_hash()


# --------------------------------------------------------------------------- analysis


def test_corners_of_an_open_board() -> None:
    """RULES.md 2: on a plain 3x3 board the four corners block every axis, the edge middles
    three, the centre none."""
    analysis = MapAnalysis(read_map(map_text("0 0 0\n0 1 2\n0 2 1")))
    assert analysis.blocked == [4, 3, 4, 3, 0, 3, 4, 3, 4]
    assert analysis.corners == [0, 2, 6, 8]
    assert analysis.corner_neighbours[0] == [1, 3, 4]


def test_transition_opens_a_corner() -> None:
    """RULES.md 2: a transition on the north side of (0, 0) opens its north-south axis, so
    the corner becomes edge-like."""
    analysis = MapAnalysis(read_map(map_text("0 0 0\n0 1 2\n0 2 1",
                                             transitions=["0 0 0 <-> 2 2 4"])))
    assert analysis.blocked[0] == 3
    assert analysis.blocked[8] == 3


def test_holes_make_corners_inside_the_board() -> None:
    """RULES.md 2: (2, 2) has holes to its north, north-east, west and north-west, one side
    of every axis, so it is corner-like; with (3, 1) not a hole, north-east to south-west is a
    line and it blocks only three axes."""
    analysis = MapAnalysis(read_map(map_text("0 0 0 0\n0 - - -\n0 - 1 2\n0 0 2 1")))
    assert analysis.blocked[2 * 4 + 2] == 4
    assert analysis.blocked[5] == -1
    opened = MapAnalysis(read_map(map_text("0 0 0 0\n0 - - 0\n0 - 1 2\n0 0 2 1")))
    assert opened.blocked[2 * 4 + 2] == 3


# --------------------------------------------------------------------------- config


def test_config_from_dict_replaces_named_weights() -> None:
    """Named weights change, the others keep their defaults."""
    config = config_from_dict({"material": [10, 20], "use_pvs": False, "tt_bits": 10})
    assert config.material == (10, 20) and not config.use_pvs and config.tt_bits == 10
    assert config.corner == DEFAULT_CONFIG.corner


@pytest.mark.parametrize("values", [{"nonsense": 1}, {"material": 3}, {"use_tt": 1},
                                    {"tt_bits": "big"}])
def test_rejects_bad_config_values(values: dict) -> None:  # type: ignore[type-arg]
    """Unknown names and values of the wrong shape are refused."""
    with pytest.raises(ValueError):
        config_from_dict(values)


def test_search_plays_from_a_state_it_was_not_prepared_for() -> None:
    """A player asked about a new map (a new game) sets itself up again."""
    from reversi_ref.players.search import SearchPlayer
    player = SearchPlayer()
    first = build("1 2 0")
    second = build("0 2 1")
    assert player.choose(first, 0, 1) in legal_moves(first)
    assert player.choose(second, 0, 1) in legal_moves(second)
    state: GameState = play(second, player.choose(second, 0, 1))
    assert state.phase == "over"


# --------------------------------------------------------------------------- elimination

def _evaluate(state: GameState, root: int) -> int:
    from reversi_ref.search.context import GameContext
    return GameContext(DEFAULT_CONFIG).load(state).evaluate(root)


def test_wiped_out_player_is_a_decisive_loss() -> None:
    """RULES.md 3 and 7: with no stone, no override for an `x` and no choice or inversion
    tile, player 1 can never move again and ends last: one rank step behind the one player
    with stones, minus 100 per stone of the best (2 stones)."""
    from reversi_ref.search.evaluate import RANK_STEP, is_decisive
    value = _evaluate(build("2 2 0 - 0 0", to_move=2), 1)
    assert value == -RANK_STEP - 200
    assert is_decisive(value)


@pytest.mark.parametrize("cells,overrides", [
    ("2 2 0 x", [1, 0]),   # an override stone on the x is always legal (RULES.md 3)
    ("2 2 0 i", [0, 0]),   # an inversion hands player 2's stones to player 1
    ("2 2 0 c", [0, 0]),   # player 2 may swap stones with player 1 on the choice tile
])
def test_no_stones_with_a_way_back_is_not_decisive(cells: str, overrides: list) -> None:  # type: ignore[type-arg]
    """A player without stones who can still get some is valued normally."""
    from reversi_ref.search.evaluate import is_decisive
    value = _evaluate(build(cells, to_move=2, overrides_per_player=overrides), 1)
    assert not is_decisive(value)


def test_wiping_out_an_opponent_is_worth_more_than_any_stone_count() -> None:
    """An opponent without stones and without a way back adds ELIMINATED_OPPONENT, below the
    decisive threshold, far above what stones and mobility are worth."""
    from reversi_ref.search.evaluate import ELIMINATED_OPPONENT, is_decisive
    alone = _evaluate(build("1 1 0 0 - 0 0", to_move=1), 1)
    contested = _evaluate(build("1 1 0 2 - 0 0", to_move=1), 1)
    assert not is_decisive(alone)
    assert abs(contested) < 100_000
    assert alone - contested > ELIMINATED_OPPONENT - 100_000


# --------------------------------------------------------------------------- lazy evaluation

class _FullEvaluator(Evaluator):
    """The evaluation without the lazy shortcut: the window is ignored."""

    def evaluate(self, root: int, alpha: int = -INFINITY, beta: int = INFINITY) -> int:
        return super().evaluate(root)


@pytest.mark.parametrize("name", ["othello8x8.map", "carnival4p.map"])
def test_lazy_evaluation_returns_true_bounds(name: str) -> None:
    """Outside a window the lazy evaluation may differ from the full one, but only on the
    same side of the window (a value at or above beta is a lower bound, at or below alpha an
    upper bound); on some of these windows it does take the shortcut."""
    rng = random.Random(3)
    shortcuts = 0
    for state in random_positions(name, 40, 5):
        engine = Engine(state)
        analysis = MapAnalysis(state.map)
        for root in range(1, state.players + 1):
            full = Evaluator(engine, analysis, DEFAULT_CONFIG).evaluate(root)
            for _ in range(5):
                alpha = full + rng.randint(-3000, 3000)
                beta = alpha + rng.choice([1, 50, 2000])
                # A new evaluator each time: a cached value would be the full one.
                lazy = Evaluator(engine, analysis, DEFAULT_CONFIG).evaluate(root, alpha, beta)
                if lazy != full:
                    shortcuts += 1
                    assert (lazy >= beta and full >= beta) or (lazy <= alpha and full <= alpha)
    assert shortcuts > 0


@pytest.mark.parametrize("name", ["othello8x8.map", "carnival4p.map"])
def test_cached_values_are_the_values_computed_afresh(name: str) -> None:
    """One evaluator asked about many positions, twice over and for every root, answers what
    a new evaluator computes for each; a lazy bound (a window far below the value) is not
    kept as if it were the value, and the second time round the exact value is found in the
    cache even through that window."""
    states = random_positions(name, 40, 11)
    engine = Engine(states[0])
    analysis = MapAnalysis(states[0].map)
    shared = Evaluator(engine, analysis, DEFAULT_CONFIG)
    bounds = [0, 0]
    for round_ in range(2):
        for state in states:
            engine.load_state(state)
            for root in range(1, state.players + 1):
                expected = Evaluator(engine, analysis, DEFAULT_CONFIG).evaluate(root)
                beta = expected - 10 ** 6
                low = shared.evaluate(root, beta - 1, beta)
                assert low >= beta
                bounds[round_] += low != expected
                assert shared.evaluate(root) == expected
    # Second time round, a value may be missing only where another position took its slot.
    assert bounds[0] >= len(states) and bounds[1] <= 2


@pytest.mark.parametrize("mode", [PARANOID, BRS])
def test_lazy_evaluation_changes_no_search_value(mode: str) -> None:
    """Alpha-beta with the lazy evaluation finds the same value at every depth as with the
    full one (the bounds it returns only ever cause cut-offs that were due anyway)."""
    for state in random_positions("carnival4p.map", 24, 9)[4::5]:
        root = state.to_move
        assert root is not None
        values = []
        for evaluator_class in (Evaluator, _FullEvaluator):
            engine = Engine(state)
            evaluator = evaluator_class(engine, MapAnalysis(state.map), DEFAULT_CONFIG)
            searcher = Searcher(engine, evaluator, DEFAULT_CONFIG, mode)
            searcher.reset(root)
            values.append([value for _, _, value, _ in searcher.iterate(3)])
        assert values[0] == values[1] and len(values[0]) >= 1


@pytest.mark.parametrize("name", ["othello8x8.map", "sparks3p.map"])
def test_late_move_reductions_search_fewer_nodes_and_play_legal_moves(name: str) -> None:
    """With `lmr` the search to a fixed depth visits fewer nodes over these positions than
    without it (the late moves' reduced searches mostly fail low), and every move it picks
    is legal (RULES.md 3)."""
    nodes = {0: 0, 3: 0}
    for state in random_positions(name, 30, 13)[8::10]:
        for lmr in nodes:
            config = replace(DEFAULT_CONFIG, lmr=lmr)
            engine = Engine(state)
            searcher = Searcher(engine, Evaluator(engine, MapAnalysis(state.map), config),
                                config)
            assert state.to_move is not None
            searcher.reset(state.to_move)
            best = -1
            for _, best, _, _ in searcher.iterate(4):
                pass
            nodes[lmr] += searcher.nodes
            assert engine.decode_move(best) in legal_moves(state)
    assert nodes[3] < nodes[0]
