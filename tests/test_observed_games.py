"""Games recorded on the official server (specs/observed/) replayed through the readable rules
(RULES.md 3-8): every board, every player asked, the end of phase 1, the counts in hand, the
cells the server marked as legal and the scores must be the server's.

The recorded file is read as data, so no server is needed; only the end-to-end test of the
recorder runs the official server, and only when REVERSI_REF_OFFICIAL names its directory.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any, Dict, List

import pytest

from reversi_ref.specs.observe import check_game, parse_output, read_records, record_game

ROOT = Path(__file__).resolve().parents[1]
GAMES_FILE = ROOT / "specs" / "observed" / "server-games.jsonl"
GAMES = read_records(GAMES_FILE)
OFFICIAL = os.environ.get("REVERSI_REF_OFFICIAL", "")

TINY = "2\n1\n1 0\n3 3\n0 2 c\n1 x 2\nb 1 0\n0 0 6 <-> 2 2 2\n2 0 0 <-> 2 0 0\n"


def game_id(record: Dict[str, Any]) -> str:
    return "%s-seed%d" % (record["label"], record["seed"])


def first_game_with(predicate_key: str) -> Dict[str, Any]:
    """A deep copy of the first recorded game that has a step with `predicate_key`."""
    for record in GAMES:
        if any(predicate_key in step for step in record["steps"]):
            return copy.deepcopy(record)
    raise LookupError(predicate_key)


@pytest.mark.parametrize("record", GAMES, ids=[game_id(record) for record in GAMES])
def test_observed_game_agrees_with_rules(record: Dict[str, Any]) -> None:
    """RULES.md 3-8: our rules reproduce every step of a game the official server played."""
    assert check_game(record) == []


def test_observed_file_is_compact_ascii() -> None:
    """The recorded file stays small and ASCII, one game per line."""
    data = GAMES_FILE.read_bytes()
    assert len(data) < 1_500_000
    data.decode("ascii")
    assert len(GAMES) == data.count(b"\n")


def test_observed_games_cover_the_rule_areas() -> None:
    """The file holds bombs, disqualifications, every special tile and the end of phase 1."""
    steps = [step for record in GAMES for step in record["steps"]]
    assert len(GAMES) >= 50
    assert any(step.get("disq") for step in steps)
    assert any(step.get("end1") for step in steps)
    assert any(not record["started"] for record in GAMES)
    assert any(record["end1_at_start"] for record in GAMES)
    specials = {step["move"][2] for step in steps if "move" in step}
    assert {20, 21} <= specials


def test_checker_reports_a_changed_board() -> None:
    """The checker fails a game whose recorded board was altered (RULES.md 3)."""
    record = first_game_with("board")
    step = next(step for step in record["steps"] if "board" in step and step["board"])
    row = step["board"][0]
    step["board"][0] = ("-" if row[0] != "-" else "0") + row[1:]
    assert any("board" in problem for problem in check_game(record))


def test_checker_reports_another_player_asked() -> None:
    """The checker fails a game whose next player asked was altered (RULES.md 4)."""
    record = first_game_with("ask")
    step = next(step for step in record["steps"] if step["ask"] is not None)
    step["ask"] = step["ask"] % record["players"] + 1
    assert any("asks" in problem for problem in check_game(record))


def test_checker_reports_changed_scores() -> None:
    """The checker fails a game whose printed final scores were altered (RULES.md 7)."""
    record = next(copy.deepcopy(r) for r in GAMES if r.get("final_scores"))
    record["final_scores"]["1"] = 999
    assert any("final scores" in problem for problem in check_game(record))


def test_checker_reports_a_rejected_move_our_rules_accept() -> None:
    """The checker fails a disqualification whose rejected move is legal for us (RULES.md 6)."""
    record = first_game_with("move")
    index = next(i for i, step in enumerate(record["steps"]) if "move" in step)
    step = record["steps"][index]
    step["disq"] = True
    step["sent"] = step.pop("move")
    assert any("our rules accept" in problem for problem in check_game(record))


def test_parse_output_reads_boards_requests_and_scores() -> None:
    """The server's printed board, marks, status, answer, rejection and scores are read."""
    text = "\n".join([
        "[10:00:00] Game started.",
        "      0 1 2",
        "    /------",
        "  0 | 0 2'c ",
        "  1 | 1 x'2'",
        "valid positions: 3",
        "[10:00:00] Player 1 has 1 overrides and 2 bombs.",
        "[10:00:00] Sending move request to player 1 with depth 1, time left: 0 msecs.",
        "[10:00:00] Answer from player 1 for move 0 was (x,y,c) = (1,0,0); time left: 0 msecs.",
        "[10:00:00] Sorry, this move was invalid.",
        "Player 2 disqualified (invalid move: (9,9,0). time left: 0 msecs).",
        "Scores:",
        "Player 1: 4 points",
        "Player 2: disqualified",
        "bye bye.",
    ])
    events = parse_output(text)
    kinds = [event["kind"] for event in events]
    assert kinds == ["start", "board", "status", "request", "answer", "line", "invalid",
                     "scores", "line"]
    assert events[1] == {"kind": "board", "rows": ["02c", "1x2"],
                         "marked": [[1, 0], [1, 1], [2, 1]]}
    assert events[2] == {"kind": "status", "player": 1, "overrides": 1, "bombs": 2}
    assert events[4] == {"kind": "answer", "player": 1, "x": 1, "y": 0, "special": 0}
    assert events[6]["why"] == "invalid move: (9,9,0). time left: 0 msecs"
    assert events[7]["scores"] == {"1": 4, "2": "disqualified"}


@pytest.mark.skipif(not OFFICIAL, reason="REVERSI_REF_OFFICIAL does not name the official binaries")
def test_recorder_plays_a_whole_game_on_the_official_server() -> None:
    """End to end: the recorder plays a tiny map on the official server, and the game it keeps
    agrees with our rules."""
    server = Path(OFFICIAL) / "server_nogl"
    record = record_game(str(server), TINY, 3, "tiny")
    assert record["started"] and record["ended"]
    assert record["steps"]
    assert check_game(record) == []
    json.dumps(record).encode("ascii")


def test_recorded_steps_name_their_players() -> None:
    """Every recorded step names a seat of its map (a sanity check on the file)."""
    bad: List[str] = []
    for record in GAMES:
        for number, step in enumerate(record["steps"]):
            if not 1 <= step["p"] <= record["players"]:
                bad.append("%s step %d" % (game_id(record), number))
    assert bad == []
