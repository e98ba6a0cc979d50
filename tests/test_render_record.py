"""Game records for the renderers: traces replayed through the rules, with each move's captured
and blasted cells (RULES.md 2, 3, 5, 6)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

from render_helpers import (BOMB_BLAST, BOMB_MAP, PLAYER1_LEGAL, SMALL_MAP, TRANSITION_CAPTURE,
                            TRANSITION_MOVE, first_moves, small_state, trace_of, write_json)
from reversi_ref import parse_map
from reversi_ref.errors import TraceError
from reversi_ref.render.record import (load_record, record_from_moves,
                                       record_of_state, replay_trace)
from reversi_ref.state import Move

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
TRACES = sorted((SHARED / "traces").glob("*.json.gz")) if (SHARED / "traces").is_dir() else []


def test_start_frame_marks_the_first_movers_legal_positions() -> None:
    """RULES.md 3: frame 0 lists the cells player 1 may play on, worked out by hand."""
    record = record_of_state(small_state())
    frame = record.frame(0)
    assert frame.number == 0 and frame.player is None and frame.move is None
    assert list(frame.legal) == PLAYER1_LEGAL


def test_capture_through_a_transition_is_recorded() -> None:
    """RULES.md 2 and 3: the move (4, 1) captures (2, 1) through the transition."""
    record = record_from_moves(small_state(), [TRANSITION_MOVE])
    frame = record.frame(1)
    assert frame.player == 1 and frame.move == TRANSITION_MOVE and frame.phase == "build"
    assert list(frame.captured) == TRANSITION_CAPTURE
    assert frame.blasted == ()
    assert frame.state.cell(2, 1) == "1" and frame.state.cell(4, 1) == "1"
    assert frame.before is not None and frame.before.cell(2, 1) == "2"


def test_bomb_records_the_blasted_cells() -> None:
    """RULES.md 5: a strength-1 bomb in the corner destroys the 2 x 2 square there."""
    state = parse_map(BOMB_MAP)
    assert state.phase == "bomb"
    record = record_from_moves(state, [Move(0, 0)])
    frame = record.frame(-1)
    assert frame.phase == "bomb" and frame.captured == ()
    assert sorted(frame.blasted) == sorted(BOMB_BLAST)
    assert all(frame.state.cell(x, y) == "-" for x, y in BOMB_BLAST)
    assert frame.legal == ()


def test_trace_in_our_format_replays_from_plain_and_gzip_files(tmp_path: Path) -> None:
    """The loader reads the referee's trace format, plain or gzip, into the same frames."""
    start = small_state()
    moves, states = first_moves(start, 6)
    assert len(moves) == 6
    trace = trace_of(SMALL_MAP, start, moves, states)
    plain = tmp_path / "game.json"
    write_json(plain, trace)
    packed = tmp_path / "game.json.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    for path in (plain, packed):
        record = load_record(path)
        assert len(record.frames) == 7
        assert [f.move for f in record.frames[1:]] == moves
        assert [f.state for f in record.frames[1:]] == states
        assert record.format == "reversi-ref-trace-1"


def test_rejected_move_disqualifies_the_mover() -> None:
    """RULES.md 6: a rejected entry disqualifies its player; the board is unchanged."""
    start = small_state()
    trace: Dict[str, Any] = {"map_text": SMALL_MAP, "moves": [
        {"player": 1, "x": 0, "y": 0, "special": 0, "rejected": True,
         "reason": "RULES.md 3: the move captures in no direction"}]}
    record = replay_trace(trace)
    frame = record.frame(1)
    assert frame.rejected and frame.disqualified == (1,)
    assert frame.state.board == start.board
    assert 1 in frame.state.disqualified and frame.state.to_move == 2


def test_rejects_an_illegal_recorded_move() -> None:
    """RULES.md 3: a recorded move the rules reject is an error naming the entry."""
    trace = {"map_text": SMALL_MAP, "moves": [{"player": 1, "x": 0, "y": 0, "special": 0}]}
    with pytest.raises(TraceError, match="move entry 0"):
        replay_trace(trace)


def test_rejects_a_recorded_board_that_disagrees() -> None:
    """A board_after that differs from the rules' replay is an error, not a wrong picture."""
    start = small_state()
    moves, states = first_moves(start, 2)
    trace = trace_of(SMALL_MAP, start, moves, states)
    trace["moves"][1]["board_after"][0] = "000000"
    with pytest.raises(TraceError, match="move entry 1: the recorded board differs"):
        replay_trace(trace)


def test_rejects_a_move_by_the_wrong_player() -> None:
    """RULES.md 4: the trace must have the player the rules ask move."""
    trace = {"map_text": SMALL_MAP, "moves": [{"player": 2, "x": 4, "y": 1, "special": 0}]}
    with pytest.raises(TraceError, match="rules ask player 1"):
        replay_trace(trace)


@pytest.mark.parametrize("content, message", [
    (b"not json at all {", "not valid JSON"),
    (b"\x1f\x8b\x08\x00garbage", "gzip"),
    (b"[1, 2, 3]", "JSON object"),
    (b'{"moves": []}', "map_text"),
    (b'{"map_text": "2\\n0\\n0 0\\n1 1\\n7\\n", "moves": []}', "map_text"),
])
def test_rejects_unreadable_traces(tmp_path: Path, content: bytes, message: str) -> None:
    """Bad input gives a TraceError saying what is wrong."""
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(TraceError, match=message):
        load_record(path)


def test_rejects_a_frame_number_past_the_end() -> None:
    """Asking for a move the game does not have is a clear error."""
    record = record_from_moves(small_state(), [TRANSITION_MOVE])
    assert record.frame(-2).number == 0
    with pytest.raises(TraceError, match="no move 2"):
        record.frame(2)


@pytest.mark.skipif(not TRACES, reason="../shared/traces is absent")
def test_official_traces_replay_to_their_recorded_final_scores() -> None:
    """RULES.md 7: a few official-server traces replay to the scores the server printed."""
    smallest = sorted(TRACES, key=lambda p: p.stat().st_size)[:3]
    for path in smallest:
        with gzip.open(str(path), "rt", encoding="utf-8") as handle:
            data = json.load(handle)
        record = load_record(path)
        assert len(record.frames) == len(data["moves"]) + 1
        final = record.frame(-1).state
        counts: List[int] = [0] * (final.players + 1)
        for cell in final.board:
            if cell in "12345678":
                counts[int(cell)] += 1
        for player, score in data["final"]["scores"].items():
            if score != "disqualified":
                assert counts[int(player)] == score, path.name
