"""`reversi-ref arena-compare`: pairing by key, the counts, the sign test and bad files.

The records are written by hand in the shape `arena --out` writes them (only the fields the
comparison reads), so every expected count below is counted from the records themselves.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

from reversi_ref.arenacompare import compare, outcome, read_records, table
from reversi_ref.cli import main
from reversi_ref.sprt import sign_test


def record(key: str, players: int, place: int, points: float, outcome_: str = "ok",
           status: str = "ok", disqualified: bool = False) -> Dict[str, Any]:
    """One game with ours in seat 1 at `place`."""
    seats: List[Dict[str, Any]] = [{"seat": 1, "place": place, "status": status,
                                    "disqualified": disqualified}]
    for seat in range(2, players + 1):
        seats.append({"seat": seat, "place": 1 if place != 1 else 2, "status": "ok",
                      "disqualified": False})
    return {"key": key, "players": players, "ours_seat": 1, "outcome": outcome_,
            "points": points, "seats": seats}


def write(path: Path, records: List[Dict[str, Any]], tail: str = "") -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records) + tail, encoding="utf-8")
    return str(path)


BEFORE = [
    record("1/t/a/1", 3, 1, 1.0),        # first alone, then second: lower
    record("1/t/b/2", 4, 1, 0.5),        # shared first in both: same
    record("1/t/c/3", 8, 3, 0.0),        # third, then first alone: higher
    record("1/t/d/1", 3, 2, 0.0),        # only in before
    record("1/t/e/1", 5, 1, 1.0),        # not finished in after
]
AFTER = [
    record("1/t/a/1", 3, 2, 0.0),
    record("1/t/b/2", 4, 1, 0.5),
    record("1/t/c/3", 8, 1, 1.0),
    record("1/t/e/1", 5, 1, 0.0, outcome_="error"),
    record("1/t/f/2", 3, 1, 1.0),        # only in after
]


def test_sign_test_by_hand() -> None:
    # 2 * P(X <= k) for X ~ Binomial(n, 1/2), capped at 1.
    assert sign_test(0, 0) == 1.0
    assert sign_test(5, 0) == pytest.approx(2 / 32)
    assert sign_test(0, 5) == pytest.approx(2 / 32)
    assert sign_test(9, 1) == pytest.approx(2 * (1 + 10) / 1024)  # C(10, 0) + C(10, 1)
    assert sign_test(3, 1) == pytest.approx(2 * (1 + 4) / 16)
    assert sign_test(5, 5) == 1.0


def test_outcome_reads_our_seat() -> None:
    assert outcome(record("k", 3, 1, 0.5)) == (True, 0.5, False, 0)
    assert outcome(record("k", 3, 2, 0.0, status="timeout")) == (False, 0.0, True, 0)
    assert outcome(record("k", 3, 2, 0.0, disqualified=True)) == (False, 0.0, True, 0)
    assert outcome(record("k", 3, 1, 1.0, outcome_="error")) is None


def opponent_failed(game: Dict[str, Any], seat: int, how: str) -> Dict[str, Any]:
    """`game` with the opponent in `seat` timed out ("timeout") or disqualified."""
    for s in game["seats"]:
        if s["seat"] == seat:
            if how == "timeout":
                s["status"] = "timeout"
            else:
                s["disqualified"] = True
    return game


def test_outcome_counts_failed_opponents() -> None:
    game = opponent_failed(opponent_failed(record("k", 8, 1, 1.0), 3, "timeout"), 7, "dq")
    assert outcome(game) == (True, 1.0, False, 2)
    # ours failing is not an opponent failing
    ours = outcome(record("k", 4, 2, 0.0, disqualified=True))
    assert ours is not None and ours.failed and ours.others_failed == 0


def test_table_flags_games_an_opponent_lost_by_failing(tmp_path: Path) -> None:
    before = [record("1/t/a/1", 8, 2, 0.0), record("1/t/b/1", 3, 2, 0.0),
              record("1/t/c/1", 4, 1, 1.0)]
    after = [opponent_failed(record("1/t/a/1", 8, 1, 1.0), 4, "dq"), record("1/t/b/1", 3, 1, 1.0),
             opponent_failed(record("1/t/c/1", 4, 1, 1.0), 2, "timeout")]
    c = compare(read_records(write(tmp_path / "a.jsonl", before)),
                read_records(write(tmp_path / "b.jsonl", after)))
    text = "\n".join(table(c, ("old", "new")))
    assert "games with an opponent timed out or disqualified: old 0, new 2" in text
    assert "  + 1/t/a/1 0.00 -> 1.00  (opponent failed in new)\n" in text + "\n"
    assert "  + 1/t/b/1 0.00 -> 1.00\n" in text + "\n"
    assert "1/t/c/1" not in text  # same points in both: not listed


def test_pairs_by_key(tmp_path: Path) -> None:
    c = compare(read_records(write(tmp_path / "a.jsonl", BEFORE)),
                read_records(write(tmp_path / "b.jsonl", AFTER)))
    assert [key for key, _, _, _ in c.pairs] == ["1/t/a/1", "1/t/b/2", "1/t/c/3"]
    assert c.only_before == ["1/t/d/1"]
    assert c.only_after == ["1/t/f/2"]
    assert c.unfinished == ["1/t/e/1"]


def test_table_counts(tmp_path: Path) -> None:
    c = compare(read_records(write(tmp_path / "a.jsonl", BEFORE)),
                read_records(write(tmp_path / "b.jsonl", AFTER)))
    lines = table(c, ("old", "new"))
    rows = {line.split()[0]: line.split()[1:] for line in lines[2:6]}
    # games, first old, first new, points old, points new, higher / lower
    assert rows["3"] == ["1", "1", "0", "1.00", "0.00", "0", "/", "1"]
    assert rows["4"] == ["1", "1", "1", "0.50", "0.50", "0", "/", "0"]
    assert rows["5-8"] == ["1", "0", "1", "0.00", "1.00", "1", "/", "0"]
    assert rows["all"] == ["3", "2", "2", "1.50", "1.50", "1", "/", "1"]
    text = "\n".join(lines)
    assert "first place in one only: new 1, old 1 (sign test, two-sided p = 1.000)" in text
    assert "points differ in 2 of 3 games: new higher in 1, lower in 1" in text
    assert "only in old (1, left out): 1/t/d/1" in text
    assert "not finished in one of them (1, left out): 1/t/e/1" in text
    assert "  - 1/t/a/1 1.00 -> 0.00" in text
    assert "  + 1/t/c/3 0.00 -> 1.00" in text


def test_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = write(tmp_path / "a.jsonl", BEFORE)
    b = write(tmp_path / "b.jsonl", AFTER, tail='{"key": "1/t/g')  # a torn last line
    assert main(["arena-compare", a, b, "--names", "old,new"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].split()[:2] == ["old", "new"]
    assert "all          3" in out


@pytest.mark.parametrize("text, message", [
    ('{"key": "k", "players": 3}\nnot json\n{"key": "j", "players": 3}\n', "line 2: not JSON"),
    ('{"players": 3}\n', "line 1: not an arena game record"),
    ("[1, 2]\n", "line 1: not an arena game record"),
])
def test_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                  message: str) -> None:
    good = write(tmp_path / "good.jsonl", BEFORE)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(text, encoding="utf-8")
    assert main(["arena-compare", good, str(bad)]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_missing_file_and_nothing_in_common(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path / "good.jsonl", BEFORE)
    assert main(["arena-compare", good, str(tmp_path / "none.jsonl")]) == 1
    assert "none.jsonl" in capsys.readouterr().err
    other = write(tmp_path / "other.jsonl", [record("2/t/z/1", 3, 1, 1.0)])
    with pytest.raises(SystemExit) as stop:
        main(["arena-compare", good, other])
    assert stop.value.code == 2
    assert "no finished game in common" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["arena-compare", good, good, "--names", "only-one"])
