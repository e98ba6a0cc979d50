"""`reversi-ref timeline`: the turning points of small games worked out by hand (RULES.md 3, 5,
6 and 7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reversi_ref import parse_map
from reversi_ref.cli import main
from reversi_ref.render.record import Frame, record_from_moves, replay_trace
from reversi_ref.state import BONUS_BOMB, Move
from reversi_ref.timeline import (Event, bomb_victims, events, format_timeline, phase1_end,
                                  stone_events, stone_table)

# Player 1 takes the inversion tile (2, 0), capturing (1, 0) through (0, 0): before the stones
# pass on, row 0 holds three of player 1's and row 1 player 3's two.  Then player 1's go to
# player 2, player 2's (none left) to player 3, player 3's to player 1: stones 1-1-2 -> 2-3-0.
# Nobody can move after that (the holes stop every line), so phase 1 ends after move 1 and the
# bombs fall in the order after player 1: players 2, 3, 1 (RULES.md 5).
INVERSION_MAP = """3
0
1 0
2 5
1 2 i 0 0
3 3 - - -
"""
INVERSION_MOVES = [Move(2, 0, 0),
                   Move(0, 1, 0),   # player 2 bombs one of player 1's two stones
                   Move(0, 0, 0),   # player 3 (no stone, still bombing) one of player 2's
                   Move(4, 0, 0)]   # player 1 an empty cell


def test_an_inversion_tile_and_the_player_it_leaves_without_stones() -> None:
    """RULES.md 3: the tile hands every stone set to the next player, by hand as above."""
    record = record_from_moves(parse_map(INVERSION_MAP), INVERSION_MOVES, "inv")
    assert events(record) == [
        Event(1, "player 1 takes the inversion tile (2, 0): stones 1-1-2 -> 2-3-0"),
        Event(1, "player 3 has no stone left")]
    assert phase1_end(record) == 1
    assert stone_table(record, 1) == ["  move     p1    p2    p3",
                                      "     0      1     1     2",
                                      "     1      2     3     0"]


def test_bomb_victims_count_the_owners_of_the_blasted_cells() -> None:
    """RULES.md 5: strength 0 destroys the target only; an empty cell costs nobody a stone."""
    record = record_from_moves(parse_map(INVERSION_MAP), INVERSION_MOVES, "inv")
    assert bomb_victims(record) == {2: {1: 1}, 3: {2: 1}, 1: {}}
    lines = format_timeline(record)
    assert "end of phase 1 after move 1: 1. player 2 (3), 2. player 1 (2), 3. player 3 (0)" \
        in lines
    assert lines[-4:] == ["  player 1: no stone", "  player 2: player 1 1",
                          "  player 3: player 2 1",
                          "final places: 1. player 2 (2), 2. player 1 (1), 3. player 3 (0)"]


@pytest.mark.parametrize("tile, special, text, after", [
    ("c", 2, "player 1 takes the choice tile (2, 0), swapping stones with player 2: "
             "stones 1-1 -> 0-3", "player 1 has no stone left"),
    ("b", BONUS_BOMB, "player 1 takes the bonus tile (2, 0) for a bomb: stones 1-1 -> 3-0",
     "player 2 has no stone left"),
    ("b", 21, "player 1 takes the bonus tile (2, 0) for an override stone: stones 1-1 -> 3-0",
     "player 2 has no stone left"),
])
def test_choice_and_bonus_tiles(tile: str, special: int, text: str, after: str) -> None:
    """RULES.md 3: (2, 0) captures (1, 0); a choice swaps the three stones with player 2's
    none, a bonus keeps them."""
    state = parse_map("2\n0\n0 0\n1 4\n1 2 %s 0\n" % tile)
    record = record_from_moves(state, [Move(2, 0, special)])
    assert events(record) == [Event(1, text), Event(1, after)]


def test_a_player_back_with_stones() -> None:
    """A player with none before a move and some after it is reported back (hand positions)."""
    before = parse_map("3\n0\n0 0\n1 4\n1 2 1 0\n")
    after = parse_map("3\n0\n0 0\n1 4\n3 2 3 0\n")
    frame = Frame(7, after, before, 1, Move(3, 0, 0), "build", (), (), False, None, (), ())
    assert stone_events(frame) == [Event(7, "player 1 has no stone left"),
                                   Event(7, "player 3 has stones again (2)")]


def test_a_disqualification_and_its_reason() -> None:
    """RULES.md 6: a rejected move disqualifies its player; the trace's reason is kept."""
    trace = {"map_text": INVERSION_MAP,
             "moves": [{"player": 1, "x": 4, "y": 0, "special": 0, "rejected": True,
                        "reason": "no capture"}]}
    record = replay_trace(trace)
    assert events(record) == [Event(1, "player 1 is disqualified (no capture)")]


def test_the_command_prints_the_report_and_rejects_a_bad_trace(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The subcommand reads a trace file; a file that is not a trace is a one-line error."""
    path = tmp_path / "game.json"
    moves = [{"player": p, "x": m.x, "y": m.y, "special": m.special}
             for p, m in zip([1, 2, 3, 1], INVERSION_MOVES)]
    path.write_text(json.dumps({"map_text": INVERSION_MAP, "moves": moves}))
    assert main(["timeline", str(path), "--every", "1"]) == 0
    out = capsys.readouterr().out
    assert "     1  player 3 has no stone left" in out
    assert out.rstrip().endswith("3. player 3 (0)")
    bad = tmp_path / "bad.json"
    bad.write_text('{"map_text": 3}')
    assert main(["timeline", str(bad)]) == 1
    error = capsys.readouterr().err
    assert "map_text" in error and "Traceback" not in error
