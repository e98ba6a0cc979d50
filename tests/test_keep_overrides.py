"""`EvalConfig.keep_overrides`: the root player places no override stone on a stone while it
has another move and the board is less full than the threshold (expansion tiles may still be
taken).  Checked on one-row positions whose moves
are worked out by the readable rules, and against a plain minimax that leaves out the root's
override moves in the same way."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import List, Tuple

import pytest

from helpers import bench_position, build
from reversi_ref import legal_moves, play
from reversi_ref.bundled import load_map_argument
from reversi_ref.engine import BOMB, BUILD, Engine
from reversi_ref.search.alphabeta import MOVE_MASK, Searcher, overrides_are_scarce
from reversi_ref.search.analysis import MapAnalysis
from reversi_ref.search.config import DEFAULT_CONFIG, EvalConfig
from reversi_ref.search.endgame import leaf_value
from reversi_ref.search.evaluate import Evaluator
from reversi_ref.state import GameState, Move

REAL_MAPS = Path(__file__).resolve().parents[2] / "shared" / "maps"

# Player 1 to move: the overrides on cell 0 and cell 1 (player 2's) capture cells 1-2 and cell
# 2 up to its stone on cell 3; the plain move on cell 4 captures cell 5 up to its stone on 6.
ROW = "2 2 2 1 0 2 1 0 0 0 0 0"
# Overrides free of charge, so that a search that may place one does (it captures more).
FREE = replace(DEFAULT_CONFIG, override=(0, 0), use_tt=False, keep_overrides=0)
KEEP = replace(FREE, keep_overrides=1024)


def _best(state: GameState, config: EvalConfig, depth: int = 1) -> Tuple[int, int]:
    """The (x, y) the paranoid search picks for the player to move at `depth`."""
    engine = Engine(state)
    evaluator = Evaluator(engine, MapAnalysis(state.map), config)
    searcher = Searcher(engine, evaluator, config)
    searcher.reset(engine.to_move)
    *_, (_, best, _, _) = searcher.iterate(depth)
    move = engine.decode_move(best)
    return move.x, move.y


def test_row_is_what_the_tests_say() -> None:
    """By the rules: player 1's moves on ROW are the overrides on cells 0 (three stones more)
    and 1, and the plain move on cell 4 (two more)."""
    state = build(ROW, overrides_per_player=(1, 1))
    assert sorted((m.x, m.y) for m in legal_moves(state)) == [(0, 0), (1, 0), (4, 0)]
    assert play(state, Move(0, 0)).rows()[0].split()[:4] == ["1", "1", "1", "1"]
    assert play(state, Move(4, 0)).rows()[0].split()[3:7] == ["1", "1", "1", "1"]


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_the_override_stone_is_kept_while_a_plain_move_exists(depth: int) -> None:
    """With overrides free the search places one; with keep_overrides it plays the plain
    move instead."""
    state = build(ROW, overrides_per_player=(1, 1))
    assert _best(state, FREE, depth) == (0, 0)
    assert _best(state, KEEP, depth) == (4, 0)


def test_below_the_board_fill_threshold_only() -> None:
    """ROW's board is half full (6 of 12 cells, progress 512 of 1024): a threshold up to
    512 changes nothing, one above keeps the stone."""
    state = build(ROW, overrides_per_player=(1, 1))
    assert _best(state, replace(FREE, keep_overrides=512)) == (0, 0)
    assert _best(state, replace(FREE, keep_overrides=513)) == (4, 0)


# Player 1 to move: the override on cell 0 takes player 2's stone and captures cell 1; the
# override on the expansion tile at cell 5 captures nothing (allowed on a tile); the empty
# cell 3 captures nothing, so there is no plain move.
EXPANSION_ROW = "2 2 1 0 2 x"


def test_an_expansion_tile_may_still_be_taken() -> None:
    """By the rules the moves on EXPANSION_ROW are the two overrides; keeping, the search
    takes the tile rather than the stone, and without keeping it takes the stone (three
    stones more against one)."""
    state = build(EXPANSION_ROW, overrides_per_player=(1, 1))
    assert sorted((m.x, m.y) for m in legal_moves(state)) == [(0, 0), (5, 0)]
    assert _best(state, KEEP) == (5, 0)
    assert _best(state, FREE) == (0, 0)


def test_an_override_is_still_placed_when_nothing_else_is_legal() -> None:
    """A full row: only override moves are legal, and the search plays one."""
    state = build("2 2 1 2 1 2", overrides_per_player=(1, 1))
    moves = legal_moves(state)
    assert moves and all(state.rows()[0].split()[m.x] != "0" for m in moves)
    assert _best(state, KEEP) in {(m.x, m.y) for m in moves}


def _takes_a_stone(engine: Engine, move: int) -> bool:
    """Whether the engine move places an override stone on a player's stone (codes 1-8)."""
    return 1 <= engine.board[move >> 5] <= 8


def keeping_minimax(searcher: Searcher, depth: int) -> int:
    """Plain paranoid minimax in which the root leaves out its moves onto stones whenever it
    has another; no pruning."""
    e = searcher.engine
    if e.phase != BUILD or depth <= 0:
        if e.phase == BOMB and searcher.config.exact_endgame:
            return leaf_value(searcher.evaluator, searcher.root)
        return searcher.evaluator.evaluate(searcher.root)
    maximizing = e.to_move == searcher.root
    moves = e.legal_moves()
    if maximizing:
        kept = [m for m in moves if not _takes_a_stone(e, m)]
        moves = kept or moves
    values: List[int] = []
    for m in moves:
        e.make(m)
        values.append(keeping_minimax(searcher, depth - 1))
        e.unmake()
    return max(values) if maximizing else min(values)


CASES: List[Tuple[str, int, int]] = [
    ("default", 4, 3), ("default", 12, 3), ("carnival4p", 8, 2),
    (str(REAL_MAPS / "fightclub__2013_comp_5_2p.map"), 30, 3),
]


@pytest.mark.parametrize("name,ply,depth", CASES)
def test_search_equals_the_keeping_minimax(name: str, ply: int, depth: int) -> None:
    """Alpha-beta with keep_overrides finds the keeping minimax's value, and its move takes
    no stone whenever the root has another move."""
    config = replace(DEFAULT_CONFIG, keep_overrides=1024, use_tt=False, swap_quiescence=False)
    engine = Engine(bench_position(name, ply))
    root = engine.to_move
    assert engine.overrides[root] > 0  # the case tests something
    moves = engine.legal_moves()
    assert any(_takes_a_stone(engine, m) for m in moves)
    evaluator = Evaluator(engine, MapAnalysis(engine.map), config)
    searcher = Searcher(engine, evaluator, config)
    searcher.reset(root)
    *_, (reached, best, value, _) = searcher.iterate(depth)
    assert reached == depth
    check = Searcher(engine, Evaluator(engine, MapAnalysis(engine.map), config), config)
    check.reset(root)
    assert value == keeping_minimax(check, depth)
    if any(not _takes_a_stone(engine, m) for m in moves):
        assert not _takes_a_stone(engine, best & MOVE_MASK)


@pytest.mark.parametrize("overrides,scarce", [(0, True), (1, True), (2, False)])
def test_overrides_are_scarce_at_one_per_two_own_moves(overrides: int, scarce: bool) -> None:
    """Four free cells for two players are two own moves each: one override stone each is
    at the limit (50 per 100 moves), two are over it."""
    state = build("0 0 0 0 1 2", overrides=overrides)
    assert state.map.overrides == overrides
    assert overrides_are_scarce(Engine(state)) is scarce


def test_keeping_is_off_where_overrides_are_plentiful() -> None:
    """On ROW with the map's count of override stones at 2 each (6 free cells, 3 own moves)
    the rule does not apply and the search takes the stone."""
    state = build(ROW, overrides=2, overrides_per_player=(1, 1))
    assert _best(state, KEEP) == (0, 0)


@pytest.mark.parametrize("name,scarce", [("fightclub__map4", False),
                                         ("initialMaps__heartExercise3", True),
                                         ("fightclub__2013_comp_5_2p", True)])
def test_real_maps(name: str, scarce: bool) -> None:
    """map4: 10 override stones each for 28 free cells (14 own moves); heartExercise3: 6 for
    26 (13); 2013_comp_5_2p: 4 for 296 (148), counted from the map files."""
    path = REAL_MAPS / (name + ".map")
    if not path.is_file():
        pytest.skip("real maps not present")
    _, game_map = load_map_argument(str(path))
    assert overrides_are_scarce(Engine(game_map)) is scarce
