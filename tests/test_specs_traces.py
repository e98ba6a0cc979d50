"""Official-server games replayed through the suite's own machinery (RULES.md 3-7).

Each trace in ../shared/traces becomes a `game` request exactly as the conformance runner would
send it (map text, initial position, one step per move); the answer of the suite's oracle (the
code that wrote every expected answer in specs/) must match the server's board after every
move, the player the server asked next, and the final scores.  This ties the golden suite's
expected answers to the arbiter, independently of our own rules text.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

from reversi_ref.specs.oracle import answer

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
TRACES = sorted((SHARED / "traces").glob("*.json.gz"), key=lambda p: p.stat().st_size) \
    if (SHARED / "traces").is_dir() else []
DEFAULT_TRACES = 6


def load(path: Path) -> Dict[str, Any]:
    """One trace."""
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        data: Dict[str, Any] = json.load(handle)
    return data


def replay(trace: Dict[str, Any]) -> None:
    """Send the trace as one game request and compare the answer with the server's record."""
    steps: List[Dict[str, Any]] = []
    for entry in trace["moves"]:
        if entry.get("rejected"):
            steps.append({"disqualify": entry["player"]})
        else:
            steps.append({"move": [entry["x"], entry["y"], entry["special"]]})
    result = answer({"kind": "game", "map": trace["map_text"], "state": None, "steps": steps})
    assert "states" in result, result
    states = result["states"]
    moves = trace["moves"]
    for index, (entry, state) in enumerate(zip(moves, states)):
        assert state["board"] == entry["board_after"], "board after move %d" % index
        if index + 1 < len(moves):
            assert state["to_move"] == moves[index + 1]["player"], "asked after move %d" % index
            assert state["phase"] == ("build" if moves[index + 1]["phase"] == 1 else "bomb")
    final = trace["final"]["scores"]
    ranked = {player: score for _, player, score in result["ranking"]}
    for player, score in final.items():
        if score == "disqualified":
            assert int(player) not in ranked
        else:
            assert ranked[int(player)] == score, "final score of player %s" % player
    assert states[-1]["phase"] == "over"


def _ids(paths: List[Path]) -> List[str]:
    return [p.name.replace(".json.gz", "") for p in paths]


@pytest.mark.parametrize("path", TRACES[:DEFAULT_TRACES], ids=_ids(TRACES[:DEFAULT_TRACES]))
def test_suite_oracle_replays_server_game(path: Path) -> None:
    """RULES.md 3-7: the suite's game answer equals a recorded server game (smallest traces)."""
    replay(load(path))


@pytest.mark.slow
@pytest.mark.parametrize("path", TRACES[DEFAULT_TRACES:], ids=_ids(TRACES[DEFAULT_TRACES:]))
def test_suite_oracle_replays_every_server_game(path: Path) -> None:
    """RULES.md 3-7: the suite's game answer equals every recorded server game."""
    replay(load(path))


def test_traces_are_present_or_skipped() -> None:
    """The replay needs ../shared/traces; without it the replay tests are skipped."""
    if not TRACES:
        pytest.skip("../shared/traces is not available")
    assert len(TRACES) >= DEFAULT_TRACES
