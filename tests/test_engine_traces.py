"""Replay the official-server games in ../shared/traces through the fast engine (RULES.md 3-7).

The same check as test_traces.py makes for the readable rules, with the engine doing the moves:
at every move request the engine must ask the same player in the same phase with the same
counts, produce the server's board, and mark the server's legal positions for the next player.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any, Dict, List, Set, Tuple

import pytest

from reversi_ref import read_map
from reversi_ref.engine import BUILD, OVER, Engine
from reversi_ref.engine.tables import CODE_TO_CHAR
from reversi_ref.state import Move

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
TRACES = sorted((SHARED / "traces").glob("*.json.gz")) if (SHARED / "traces").is_dir() else []
PHASES = {1: 0, 2: 1}  # trace phase -> engine phase (BUILD, BOMB)
# The default run compares legal positions after a sample of moves, so that no trace costs more
# than about this many cells x moves of move generation; the slow run compares after every move.
SAMPLE_BUDGET = 200000


def load(path: Path) -> Dict[str, Any]:
    """One trace, decoded."""
    with gzip.open(str(path), "rt", encoding="utf-8") as handle:
        data: Dict[str, Any] = json.load(handle)
    return data


def rows(engine: Engine) -> List[str]:
    """The engine's board as the traces write it: one string per row, no spaces."""
    text = "".join([CODE_TO_CHAR[code] for code in engine.board])
    w = engine.width
    return [text[y * w:(y + 1) * w] for y in range(engine.height)]


def legal_positions(engine: Engine) -> Set[Tuple[int, int]]:
    """The (x, y) targets of the engine's legal moves."""
    return {(m.x, m.y) for m in map(engine.decode_move, engine.legal_moves())}


def disqualify_recorded(engine: Engine, trace: Dict[str, Any], after_move: int) -> None:
    """Disqualifications the trace lists after `after_move` without a rejected move."""
    for entry in trace.get("disqualifications") or []:
        if entry.get("after_move") == after_move and not engine.disqualified[entry["player"]]:
            engine.disqualify(int(entry["player"]))


def replay(trace: Dict[str, Any], every: int = 1) -> None:
    """Replay a whole trace through the engine, failing at the first disagreement; the legal
    positions are compared after every `every`-th move (everything else after each move)."""
    engine = Engine(read_map(trace["map_text"]))
    assert rows(engine) == trace["initial"]["board"]
    disqualify_recorded(engine, trace, -1)
    if engine.phase == BUILD:
        assert legal_positions(engine) == {tuple(p) for p in trace["initial"]["valid"]}
    for index, entry in enumerate(trace["moves"]):
        player = int(entry["player"])
        where = "move %d" % index
        assert engine.to_move == player, where
        assert engine.phase == PHASES[int(entry["phase"])], where
        status = entry["status"]
        assert (engine.overrides[player], engine.bombs[player]) == (
            status["overrides"], status["bombs"]), where
        if entry.get("rejected"):
            engine.disqualify(player)
        else:
            move = engine.encode_move(Move(int(entry["x"]), int(entry["y"]),
                                           int(entry["special"])))
            assert engine.is_legal(move), where
            engine.make(move)
        disqualify_recorded(engine, trace, index)
        assert rows(engine) == entry["board_after"], where
        if index % every == 0:
            if engine.phase == BUILD:
                assert legal_positions(engine) == {tuple(p) for p in entry["valid_next"]}, where
            assert engine.hash == engine.compute_hash(), where
    assert engine.phase == OVER
    final = (trace.get("final") or {}).get("scores")
    if final:
        for player, score in final.items():
            if score != "disqualified":
                assert engine.counts[int(player)] == score
    # Taking every move back gives the initial position again.
    while engine.undo:
        engine.unmake()
    assert rows(engine) == trace["initial"]["board"]
    assert engine.hash == engine.compute_hash() == Engine(read_map(trace["map_text"])).hash


@pytest.mark.skipif(not TRACES, reason="../shared/traces is absent")
@pytest.mark.parametrize("path", TRACES, ids=[p.name[:-len(".json.gz")] for p in TRACES])
def test_engine_replays_official_games(path: Path) -> None:
    """RULES.md 3-7: the engine agrees with the official server at every move of a recorded
    game (boards, turn order, counts, phases, final scores; legal positions on a sample of
    moves)."""
    trace = load(path)
    size = read_map(trace["map_text"])
    every = max(1, size.width * size.height * len(trace["moves"]) // SAMPLE_BUDGET)
    replay(trace, every)


@pytest.mark.slow
@pytest.mark.skipif(not TRACES, reason="../shared/traces is absent")
@pytest.mark.parametrize("path", TRACES, ids=[p.name[:-len(".json.gz")] for p in TRACES])
def test_engine_replays_official_games_every_move(path: Path) -> None:
    """RULES.md 3-7: as above, with the legal positions compared after every move."""
    replay(load(path))
