"""`arenatrace`: the server's announcements of a game replayed through the readable rules.

The official-server traces of `../shared/traces` are the independent check: the announcements
a relay would have heard are built from their moves, and the stones at the end of phase 1 and
of the game must be the server's own.  The hand-made cases check that each kind of
disagreement is found and named.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

from reversi_ref import load_record, parse_map
from reversi_ref.arenatrace import TRACE_FORMAT, replay_events, write_trace
from reversi_ref.bundled import find_map
from reversi_ref.rules import legal_moves, play, scores

TRACES = Path(__file__).resolve().parents[2] / "shared" / "traces"
OFFICIAL = ["maps_communities_100022", "maps_example_100023",
            "maps_fightclub_comp2020_02_4p_100060", "maps_fightclub_g2_map3_100062",
            "maps_initialMaps_window_100080", "maps_fightclub_map3_100067",
            "maps_testMaps_inversions_100093"]


def official(name: str) -> Dict[str, Any]:
    """An official-server trace (the test is skipped without ../shared)."""
    path = TRACES / (name + ".json.gz")
    if not path.is_file():
        pytest.skip("no ../shared/traces")
    data: Dict[str, Any] = json.loads(gzip.decompress(path.read_bytes()))
    return data


def announcements(data: Dict[str, Any]) -> List[str]:
    """What the server announced in the traced game, as the relay writes it: every move (a
    phase-2 move with the special byte 0, RULES.md 8), the end of phase 1, the end."""
    events: List[str] = []
    phase1_end = data["phase1_end"]["after_move"]
    for index, entry in enumerate(data["moves"]):
        special = entry["special"] if entry["phase"] == 1 else 0
        events.append("move %d %d %d %d" % (entry["x"], entry["y"], special, entry["player"]))
        if index == phase1_end:
            events.append("end of phase 1")
    events.append("end")
    return events


def numbers(scores_field: Dict[str, Any], players: int) -> List[int]:
    return [int(scores_field[str(p)]) for p in range(1, players + 1)]


@pytest.mark.parametrize("name", OFFICIAL)
def test_official_games_replay_to_the_servers_stones(name: str, tmp_path: Path) -> None:
    data = official(name)
    players = data["players"]
    final = numbers(data["final"]["scores"], players)
    replay = replay_events(data["map_text"], announcements(data), final)
    assert replay.problem == ""
    assert replay.phase1_stones == numbers(data["phase1_end"]["scores"], players)
    assert replay.final_stones == final
    assert replay.trace["rules"] == {"agree": True, "problem": ""}
    # The written trace is one `show` and `replay` read: the same last position.
    path = tmp_path / "trace.json"
    write_trace(replay, str(path))
    record = load_record(path)
    assert record.format == TRACE_FORMAT
    last = scores(record.frame(-1).state)
    assert [last[p] for p in range(1, players + 1)] == final


def test_a_result_that_differs_is_named(tmp_path: Path) -> None:
    data = official("maps_fightclub_g2_map3_100062")
    final = numbers(data["final"]["scores"], data["players"])
    final[2] += 1
    replay = replay_events(data["map_text"], announcements(data), final)
    assert "the server's result gives player 3 %d stones, the rules %d" % (
        final[2], final[2] - 1) in replay.problem


SMALL = find_map("sparks3p").text


def opening(count: int) -> List[str]:
    """The first `count` moves of a game on `sparks3p`, each the first legal move."""
    state = parse_map(SMALL)
    events = []
    for _ in range(count):
        move = legal_moves(state)[0]
        assert state.to_move is not None
        events.append("move %d %d %d %d" % (move.x, move.y, move.special, state.to_move))
        state = play(state, move)
    return events


@pytest.mark.parametrize("events, problem", [
    (["move 0 0 0 2"], "event 1 (move 0 0 0 2): the server had player 2 move, the rules ask "
                       "player 1"),
    (["end of phase 1"], "event 1 (end of phase 1): the rules are still in the building phase "
                         "(player 1 to move)"),
    (["end"], "event 1 (end): by the rules the game goes on (player 1 to move)"),
    (["move 3 x 0 1"], "event 1 (move 3 x 0 1): not an announcement the relay writes"),
    (["disq"], "event 1 (disq): not an announcement the relay writes"),
    (["hello"], "event 1 (hello): not an announcement the relay writes"),
    (["disq 9"], "event 1 (disq 9): the map has players 1..3"),
    (["disq 2", "disq 2"], "event 2 (disq 2): player 2 was already disqualified"),
])
def test_each_disagreement_is_named(events: List[str], problem: str) -> None:
    replay = replay_events(SMALL, events)
    assert replay.problem == problem
    assert replay.trace["rules"]["agree"] is False


def test_an_illegal_move_stops_the_replay_there() -> None:
    events = opening(3)
    x, y = 0, 0
    state = parse_map(SMALL)
    while any((m.x, m.y) == (x, y) for m in legal_moves(state)) or state.cell(x, y) != "0":
        x += 1
    events.insert(1, "move %d %d 0 2" % (x, y))
    replay = replay_events(SMALL, events)
    assert replay.problem.startswith("event 2 (move %d %d 0 2): the rules reject the move: "
                                     % (x, y))
    assert len(replay.trace["moves"]) == 1


def test_a_disqualification_passes_the_turn_and_is_recorded() -> None:
    events = opening(2) + ["disq 3"]
    replay = replay_events(SMALL, events)
    assert replay.problem == ""
    assert replay.trace["disqualifications"] == [
        {"player": 3, "reason": "announced by the server", "after_move": 1}]
    assert replay.trace["final"] is None  # no end was announced


def test_nothing_after_the_end() -> None:
    data = official("maps_fightclub_map3_100067")
    events = announcements(data) + ["move 0 0 0 1"]
    replay = replay_events(data["map_text"], events)
    assert replay.problem == ("event %d (move 0 0 0 1): the server had already ended the game"
                              % len(events))


def test_a_map_that_does_not_load() -> None:
    replay = replay_events("2\n0\n", ["end"])
    assert replay.problem.startswith("the map does not load: ")
