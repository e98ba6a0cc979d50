"""The search's speed work changes no result: paranoid alpha-beta (move ordering, killers,
history, PVS, lazy mobility, swap quiescence) finds the value of a plain paranoid minimax over
the same engine and evaluation, on positions of bundled maps and, when present, real maps.

The transposition table is off here: it may answer a node with a deeper search's value, which
a fixed-depth minimax does not see.  `python3 -m reversi_ref bench search --against FILE`
checks the default search (table on) node for node against an earlier report.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import List, Tuple

import pytest

from helpers import bench_position
from reversi_ref import rules, searchbench
from reversi_ref.bundled import load_map_argument
from reversi_ref.cli import main
from reversi_ref.engine import BOMB, BUILD, Engine
from reversi_ref.search.alphabeta import MOVE_MASK, Searcher
from reversi_ref.search.analysis import MapAnalysis
from reversi_ref.search.config import DEFAULT_CONFIG, EvalConfig
from reversi_ref.search.endgame import leaf_value
from reversi_ref.search.evaluate import Evaluator
from reversi_ref.searchbench import bench_positions

REAL_MAPS = Path(__file__).resolve().parents[2] / "shared" / "maps"
# Keeping override stones (`keep_overrides`) prunes the root's moves; test_keep_overrides.py
# checks it against a minimax of its own.
NO_TABLE = replace(DEFAULT_CONFIG, use_tt=False, keep_overrides=0)


def quiescence(searcher: Searcher, plies: int) -> int:
    """Swap quiescence with a full window: the better, for the player to move, of the static
    value and each choice or inversion move (followed the same way)."""
    e = searcher.engine
    evaluate = searcher.evaluator.evaluate
    best = evaluate(searcher.root)
    maximizing = e.to_move == searcher.root
    for m in searcher.swap_moves():
        e.make(m)
        if plies > 1 and e.phase == BUILD:
            v = quiescence(searcher, plies - 1)
        else:
            v = evaluate(searcher.root)
        e.unmake()
        best = max(best, v) if maximizing else min(best, v)
    return best


def minimax(searcher: Searcher, depth: int) -> int:
    """Plain paranoid minimax: every move of every node, no pruning."""
    e = searcher.engine
    if e.phase != BUILD or depth <= 0:
        if e.phase == BOMB and searcher.config.exact_endgame:
            return leaf_value(searcher.evaluator, searcher.root)  # the bombing phase, solved
        if searcher.swap_cells and e.phase == BUILD:
            return quiescence(searcher, 2)
        return searcher.evaluator.evaluate(searcher.root)
    maximizing = e.to_move == searcher.root
    values: List[int] = []
    for m in e.legal_moves():
        e.make(m)
        values.append(minimax(searcher, depth - 1))
        e.unmake()
    return max(values) if maximizing else min(values)


def searcher_for(engine: Engine, config: EvalConfig) -> Searcher:
    """A fresh paranoid searcher for the player to move."""
    evaluator = Evaluator(engine, MapAnalysis(engine.map), config)
    searcher = Searcher(engine, evaluator, config)
    searcher.reset(engine.to_move)
    return searcher


CASES: List[Tuple[str, int, int]] = [
    # (map, ply of the bench's game, depth)
    ("othello8x8", 6, 4), ("othello8x8", 20, 4), ("othello8x8", 40, 4),
    ("octagon8p", 6, 2), ("octagon8p", 20, 2),
    ("sparks3p", 6, 3), ("carnival4p", 20, 2), ("tiny3x3", 0, 4),
    (str(REAL_MAPS / "compMaps__comp2024_04_2p.map"), 20, 3),
    (str(REAL_MAPS / "fightclub__comp2020_02_4p.map"), 6, 2),
    (str(REAL_MAPS / "fightclub__2013_comp_9_2.map"), 20, 3),
    (str(REAL_MAPS / "fightclub__original.map"), 20, 4),
]


@pytest.mark.parametrize("name,ply,depth", CASES)
def test_alphabeta_equals_minimax(name: str, ply: int, depth: int) -> None:
    """Alpha-beta's root value and best move's value are the minimax value at that depth."""
    engine = Engine(bench_position(name, ply))
    searcher = searcher_for(engine, NO_TABLE)
    results = list(searcher.iterate(depth))
    assert results and results[-1][0] == depth
    _, best, value, _ = results[-1]
    assert value == minimax(searcher_for(engine, NO_TABLE), depth)
    # The move found is worth that value.
    check = searcher_for(engine, NO_TABLE)
    engine.make(best & MOVE_MASK)
    assert minimax(check, depth - 1) == value
    engine.unmake()


def test_bench_search_checks_against_an_earlier_report(tmp_path: Path) -> None:
    """`bench search --against` accepts its own report and names a changed value."""
    first = tmp_path / "first.json"
    args = ["bench", "search", "--map", "othello8x8", "-t", "0", "--depth", "2"]
    assert main(args + ["--json", str(first)]) == 0
    report = json.loads(first.read_text())
    positions = report["maps"][0]["positions"]
    assert [p["ply"] for p in positions] == [6, 20, 40]
    assert all(p["fixed"]["depth"] == 2 and p["fixed"]["nodes"] > 0 for p in positions)
    assert main(args + ["--against", str(first)]) == 0
    positions[1]["fixed"]["value"] += 1
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(report))
    assert main(args + ["--against", str(changed)]) == 1


def test_bench_search_with_weights_searches_the_variant(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`bench search --weights` searches with the changed weights: its report names them,
    and with mobility off the values at the fixed depth are not the default player's (they
    differ at ply 20 of othello8x8, where each side has several moves), while the nodes are
    counted the same way.  An unknown weight is a usage error (exit 2)."""
    args = ["bench", "search", "--map", "othello8x8", "-t", "0", "--depth", "2"]
    default = tmp_path / "default.json"
    variant = tmp_path / "variant.json"
    assert main(args + ["--json", str(default)]) == 0
    assert main(args + ["--weights", '{"mobility": [0, 0]}', "--json", str(variant)]) == 0
    assert "weights changed: {\"mobility\": [0, 0]}" in capsys.readouterr().out
    before = json.loads(default.read_text())
    after = json.loads(variant.read_text())
    assert "weights" not in before and after["weights"] == {"mobility": [0, 0]}
    values = [[p["fixed"]["value"] for p in r["maps"][0]["positions"]] for r in (before, after)]
    assert values[0] != values[1]
    assert main(args + ["--weights", '{"mobility": [0, 0]}', "--against", str(variant)]) == 0
    with pytest.raises(SystemExit) as stop:
        main(args + ["--weights", '{"mobilty": [0, 0]}'])
    assert stop.value.code == 2
    assert "unknown evaluation weight 'mobilty'" in capsys.readouterr().err


def test_bench_search_repeats_each_fixed_depth_search(tmp_path: Path) -> None:
    """`bench search --repeat 3` runs each fixed-depth search three times: the same nodes,
    moves and values as one run (checked with --against), CPU time the median of the three."""
    args = ["bench", "search", "--map", "othello8x8", "-t", "0", "--depth", "2"]
    once = tmp_path / "once.json"
    thrice = tmp_path / "thrice.json"
    assert main(args + ["--json", str(once)]) == 0
    assert main(args + ["--repeat", "3", "--json", str(thrice), "--against", str(once)]) == 0
    report = json.loads(thrice.read_text())
    assert report["repeat"] == 3 and json.loads(once.read_text())["repeat"] == 1
    assert all(p["fixed"]["seconds"] > 0 for p in report["maps"][0]["positions"])


def widest_by_the_rules(name: str) -> int:
    """The most legal moves, counted by the readable rules, of `bench search`'s positions."""
    _, game_map = load_map_argument(name)
    return max(len(rules.legal_moves(state)) for _, state in bench_positions(game_map))


def test_bench_search_lowers_its_default_depth_where_moves_are_many(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without `--depth`, a map is searched to the deepest depth up to 4 at which its widest
    position's moves (counted here by the readable rules), raised to the depth, stay within
    LEAF_BOUND; the report and every position's search give that depth, and `--depth` still
    wins over the bound."""
    widest = widest_by_the_rules("othello8x8")
    assert widest > 2

    def depths(*extra: str) -> List[int]:
        out = tmp_path / "d.json"
        assert main(["bench", "search", "--map", "othello8x8", "-t", "0", "--json", str(out),
                     *extra]) == 0
        row = json.loads(out.read_text())["maps"][0]
        return [row["depth"]] + [p["fixed"]["depth"] for p in row["positions"]]

    assert depths() == [4] * 4
    monkeypatch.setattr(searchbench, "LEAF_BOUND", widest ** 2)
    assert depths() == [2] * 4
    monkeypatch.setattr(searchbench, "LEAF_BOUND", widest ** 2 - 1)
    assert depths() == [1] * 4
    assert depths("--depth", "3") == [3] * 4


@pytest.mark.slow
@pytest.mark.skipif(not REAL_MAPS.is_dir(), reason="needs ../shared/maps")
def test_bench_search_default_depths_on_real_maps() -> None:
    """`group2_chaos` (255 override stones each, about 2,400 moves) is searched to depth 2 by
    default, where depth 4 had not ended after 5 minutes; the widest default real map
    (`2013_comp_5_2p`, 62 moves) keeps depth 4."""
    for name, expected in (("matchpoint__frequentlyPlayed__group2_chaos", 2),
                           ("fightclub__2013_comp_5_2p", 4)):
        path = str(REAL_MAPS / (name + ".map"))
        widest = widest_by_the_rules(path)
        assert widest ** expected <= searchbench.LEAF_BOUND < widest ** (expected + 1)
        _, game_map = load_map_argument(path)
        positions = bench_positions(game_map)
        assert searchbench.default_depth(name, Engine(game_map), positions) == expected
