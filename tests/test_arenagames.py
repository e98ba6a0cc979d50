"""`reversi-ref arena-games`: the per-game table rows of docs/strength.md.

The records are written by hand in the shape `arena --out` writes them (only the fields the
table reads), with a seat log in our client's format; every expected cell is worked out from
those by hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

from reversi_ref.arenagames import lowest_bank, place_words, row, rows
from reversi_ref.cli import main

MAPS = Path(__file__).resolve().parent.parent / "maps"

OUR_LOG = """\
connected as player 5
move 5: (23, 10) depth 5, 63479 nodes, 843 ms (bank 900 ms, pondered to depth 5)
move 13: (25, 9) depth 4, 71616 nodes, 996 ms (bank 2141 ms, pondered to depth 5)
move 21: (23, 3) depth 4, 74632 nodes, 998 ms (bank 1604 ms, pondered to depth 5)
move 29: (24, 11) depth 4, 66256 nodes, 999 ms (bank 2146 ms)
end of phase 1
"""


def game(tmp: Path, stones: List[int], phase1: List[Optional[int]], ours: int,
         depths: List[Optional[float]], disqualified: int = 0) -> Dict[str, Any]:
    """A finished eight-player game on the bundled octagon8p, ours in seat `ours`."""
    places = [None if s == disqualified else
              1 + sum(1 for i, o in enumerate(stones, 1) if i != disqualified and o > mine)
              for s, mine in enumerate(stones, 1)]
    seats = [{"seat": s, "name": "us" if s == ours else "trivial", "stones": stones[s - 1],
              "disqualified": s == disqualified, "place": places[s - 1],
              "phase1_stones": phase1[s - 1], "phase1_depth": depths[s - 1]}
             for s in range(1, 9)]
    (tmp / ("seat%d-us.log" % ours)).write_text(OUR_LOG, encoding="utf-8")
    return {"key": "1/trivial/octagon8p/%d" % ours, "map": "octagon8p",
            "map_file": str(MAPS / "octagon8p.map"), "players": 8, "ours_seat": ours,
            "outcome": "ok", "seconds": 1956.0, "logs": str(tmp), "seats": seats}


DEPTHS: List[Optional[float]] = [3.5, 4.0, 4.5, 3.9, 4.31, 3.6, 4.2, 3.8]


def test_a_shared_second_place(tmp_path: Path) -> None:
    record = game(tmp_path, [231, 184, 195, 0, 231, 208, 207, 528],
                  [232, 180, 190, 0, 231, 210, 205, 548], 5, DEPTHS)
    assert row(record) == (
        "| `octagon8p` (16x16, 8) | 5 | second (shared with player 1), "
        "231-184-195-0-231-208-207-528 | 231 (third; 548) | 4.3 / 3.5-4.5 | 1.6 | 32.6 |")


def test_first_place_is_bold_and_a_shared_phase1_place_is_named(tmp_path: Path) -> None:
    record = game(tmp_path, [254, 286, 0, 0, 271, 180, 498, 294],
                  [260, 290, 0, 0, 275, 190, 290, 297], 7, DEPTHS)
    assert row(record).split(" | ")[2:4] == [
        "**first**, 254-286-0-0-271-180-498-294", "290 (second (shared); 297)"]


def test_a_disqualified_seat_and_missing_sources(tmp_path: Path) -> None:
    record = game(tmp_path, [10, 0, 5, 0, 0, 0, 0, 0], [None] * 8, 1,
                  [None, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0], disqualified=2)
    record["map_file"] = str(tmp_path / "gone.map")
    record["logs"] = str(tmp_path / "gone")
    cells = row(record).split(" | ")
    assert cells[0] == "| `octagon8p` (8 players)"
    assert cells[2] == "**first**, 10-disq.-5-0-0-0-0-0"
    assert cells[3:6] == ["-", "- / 4.0", "-"]


def test_an_unfinished_game(tmp_path: Path) -> None:
    record = game(tmp_path, [1] * 8, [None] * 8, 3, DEPTHS)
    record.update(outcome="timeout", error="the game ran past --game-timeout 10800s")
    assert "not finished: the game ran past --game-timeout 10800s" in row(record)


def test_the_helpers() -> None:
    assert lowest_bank(OUR_LOG) == 1.604          # the first move's 0.9 s left out
    assert lowest_bank("move 5: (1, 1) depth 2, 9 nodes, 1 ms (bank 700 ms)\n") is None
    assert place_words(2, []) == "second"
    assert place_words(1, [3, 4]) == "first (shared with players 3, 4)"


def test_the_command_prints_a_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                    ) -> None:
    record = game(tmp_path, [231, 184, 195, 0, 231, 208, 207, 528],
                  [232, 180, 190, 0, 231, 210, 205, 548], 5, DEPTHS)
    results = tmp_path / "games.jsonl"
    results.write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert main(["arena-games", str(results)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].count("|") == printed[1].count("|") == printed[2].count("|") == 8
    assert printed[2] == rows({"k": record})[2]
    assert main(["arena-games", str(tmp_path / "none.jsonl")]) == 1
    assert "none.jsonl" in capsys.readouterr().err


@pytest.mark.parametrize("change, said", [
    ({"seats": []}, "no seats with number and name"),
    ({"ours_seat": 9}, "our seat 9 is not one of its 8 seats"),
    ({"map": None}, "no map name"),
    ({"seconds": "long"}, "its seconds are not a number"),
])
def test_a_record_that_cannot_make_a_row_is_named(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  change: Dict[str, Any], said: str) -> None:
    record = game(tmp_path, [1] * 8, [None] * 8, 3, DEPTHS)
    record.update(change)
    results = tmp_path / "games.jsonl"
    results.write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert main(["arena-games", str(results)]) == 1
    assert capsys.readouterr().err.strip().endswith(
        "games.jsonl: game 1/trivial/octagon8p/3: " + said)


def test_a_malformed_field_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                    ) -> None:
    record = game(tmp_path, [1] * 8, [None] * 8, 3, DEPTHS)
    record["seats"][2]["phase1_depth"] = "deep"
    results = tmp_path / "games.jsonl"
    results.write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert main(["arena-games", str(results)]) == 1
    assert "game 1/trivial/octagon8p/3: a malformed field (TypeError" in capsys.readouterr().err
