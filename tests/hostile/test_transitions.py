"""Many transitions (issue 19, item 1; RULES.md 1): numbers written in many distinct ways, read
in bulk, give the values strtol gives; lint notes for many repeated self-joins are one per side
and found at their places.  Expected values and places come from how each text is built.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Tuple

import pytest

from reversi_ref import read_map
from reversi_ref.errors import MapError
from reversi_ref.geometry import Transition
from reversi_ref.maplint import lint_notes
from reversi_ref.mapfile import _numbers, read_map_notes

from .measure import PARSE, ROOT, run_bounded

TIMEOUT = 120.0
MEMORY_MB = 1500
PEAK_MB = 300
HEAD = "2\n0\n0 0\n1 1\n1\n"   # a 1x1 board: every side of (0, 0) faces the edge
HEAD_LINES = 5


def spelled(value: int, k: int) -> str:
    """The k-th of many distinct texts that strtol, cut to 32 bits, reads as `value` (0..7)."""
    kind = k % 8
    if kind == 0:
        return "%dx%d" % (value, k)                        # digits, then anything
    if kind == 1:
        return "+%s%dx%d" % ("0" * (k % 30), value, k)      # sign and leading zeros
    if kind == 2:
        return "\v%d\f%d" % (value, k)                     # whitespace skipped, then a stop
    if kind == 3:
        return str(value + 2 ** 32 * (1 + k))              # cut to 32 bits
    if kind == 4:
        return "%d_%d" % (value, k)                        # int() would read the underscore
    if kind == 5 and value == 0:
        return "-%sy%d" % ("9" * (20 + k % 40), k)         # saturates at LONG_MIN, cut to 0
    if kind == 6 and value == 0:
        return "x%d" % k                                    # no digits at all
    if kind == 7 and value == 0:
        return "-%sx%d" % ("0" * (1 + k % 25), k)          # minus zero
    return "%d%s%d" % (value, "\u00e9+-"[k % 3], k)        # stops at a non-digit


def test_numbers_read_together_are_those_strtol_gives() -> None:
    """RULES.md 1: the bulk reading of transition numbers (used a stretch at a time) on texts
    whose values are known by construction, including values past 32 and 64 bits."""
    texts, expected = [], []
    for k in range(4000):
        value = (k * 37) % 1000
        texts.append(spelled(value, k))
        expected.append(value)
    edge = {"2147483647": 2 ** 31 - 1, "2147483648": -2 ** 31, "-2147483649": 2 ** 31 - 1,
            "4294967295": -1, "9" * 19: -1, "9" * 30: -1, "-" + "9" * 30: 0, "0" * 40 + "7": 7,
            "+": 0, "-": 0, "\v": 0, "\f-12": -12, "-\f12": 0, "12\v3": 12, "1_000": 1,
            "\u0663": 0, "<->": 0}
    texts += list(edge)
    expected += list(edge.values())
    assert _numbers(texts) == expected
    # Alone (no larger value in the same call): cut to 32 bits, and left alone.
    assert _numbers(["2147483648", "4294967295", "7"]) == [-2 ** 31, -1, 7]
    assert _numbers(["-2147483648", "2147483647"]) == [-2 ** 31, 2 ** 31 - 1]


def self_joins(count: int) -> Tuple[str, List[Tuple[int, int]]]:
    """`count` self-joins of the sides of (0, 0), every number spelled differently, and the
    (direction, line) of each."""
    lines, joins = [], []
    for n in range(count):
        d = (n * 5 + n // 8) % 8
        k = 7 * n
        lines.append(" ".join([spelled(0, k), spelled(0, k + 1), spelled(d, k + 2), "<->",
                               spelled(0, k + 3), spelled(0, k + 4), spelled(d, k + 5)]))
        joins.append((d, HEAD_LINES + 1 + n))
    return "\n".join(lines) + "\n", joins


def test_distinct_spellings_read_as_strtol_reads_them() -> None:
    """RULES.md 1: 20,000 self-joins whose 140,000 numbers are all written differently load
    as the eight self-joins of (0, 0), kept once each, in the order of their first joining."""
    body, joins = self_joins(20_000)
    first: List[int] = []
    for d, _ in joins:
        if d not in first:
            first.append(d)
    m = read_map(HEAD + body)
    assert m.transitions == tuple(Transition(0, 0, d, 0, 0, d) for d in first)


@pytest.mark.parametrize("bad", ["8x1", "+0008", "\v8", str(8 + 2 ** 32), "-1", "9é"])
def test_a_bad_number_after_many_distinct_ones_is_found_at_its_place(bad: str) -> None:
    """RULES.md 1: after 9,000 distinct well-formed transitions, a direction that reads as 8,
    9 or -1 is reported at its token, with the server's problem."""
    body, _ = self_joins(9_000)
    line = HEAD_LINES + 9_000 + 1
    with pytest.raises(MapError) as caught:
        read_map(HEAD + body + "0 0 0 <-> 0x 00 %s\n" % bad)
    error = caught.value
    assert error.problem == "invalid-second-coordinate"
    assert (error.line, error.column) == (line, len("0 0 0 <-> ") + 1)
    assert "transition 9000" in str(error)


def test_repeated_self_joins_are_noted_once_per_side() -> None:
    """RULES.md 1 (lint): 30,000 repeats of two sides give one note each, at the first repeat,
    counting the later ones; a self-join replaced after the repeats is noted at its place."""
    repeats = 15_000
    lines = ["0 0 1 <-> 0 0 1", "0 0 2 <-> 0 0 2"] + ["0 0 1 <-> 0 0 1",
                                                      "0 0 2 <-> 0 0 2"] * repeats
    lines += ["0 0 3 <-> 0 0 3", "0 0 3 <-> 0 0 4"]
    text = HEAD + "\n".join(lines) + "\n"
    m, notes = read_map_notes(text)
    assert m == read_map(text)
    assert m.transitions == (Transition(0, 0, 1, 0, 0, 1), Transition(0, 0, 2, 0, 0, 2),
                             Transition(0, 0, 3, 0, 0, 4))
    found = [(note.line, note.column, note.kind, note.message) for note in notes]
    later = repeats - 1
    assert found == [
        (HEAD_LINES + 3, 1, "repeated-self-join",
         "side (0, 0, 1) is joined to itself again (transition 0 already does it), and again "
         "by %d later transitions; no change" % later),
        (HEAD_LINES + 4, 1, "repeated-self-join",
         "side (0, 0, 2) is joined to itself again (transition 1 already does it), and again "
         "by %d later transitions; no change" % later),
        (HEAD_LINES + len(lines) - 1, 1, "replaced-self-join",
         "side (0, 0, 3) joined to itself here is joined elsewhere by transition %d, which "
         "applies" % (len(lines) - 1)),
    ]


def test_lint_of_many_distinct_self_joins_places_the_first_repeat() -> None:
    """RULES.md 1 (lint): with every number written differently, each side's first repeat is
    still noted at its own line."""
    body, joins = self_joins(5_000)
    seen: List[int] = []
    expected: List[Tuple[int, int]] = []
    for d, line in joins:
        if d in seen and d not in [e[0] for e in expected]:
            expected.append((d, line))
        seen.append(d)
    notes = [note for note in lint_notes(HEAD + body) if note.kind == "repeated-self-join"]
    assert sorted((note.line, note.message.split(")")[0]) for note in notes) == sorted(
        (line, "side (0, 0, %d" % d) for d, line in expected)


@pytest.mark.slow
def test_sixteen_mebibytes_of_distinct_numbers_in_a_fresh_process() -> None:
    """RULES.md 1: about 1.7 million distinct number tokens (16 MiB) load in bounded time and
    memory."""
    text = ("%r + ''.join('0x%%d 0x%%d 0x%%d <-> 0x%%d 0x%%d 0x%%d\\n' %% tuple(range(i, i + 6)) "
            "for i in range(0, 6 * 279_000, 6))" % HEAD)
    run = run_bounded([sys.executable, "-c", PARSE % text], TIMEOUT, MEMORY_MB)
    assert not run.timed_out
    assert "loads" in run.output, run.output
    assert run.peak_mb < PEAK_MB


@pytest.mark.slow
def test_lint_of_a_million_repeated_self_joins_in_a_fresh_process(tmp_path: Path) -> None:
    """RULES.md 1 (lint): 16 MiB of one repeated self-join: one note for it, in bounded time
    and memory (it used to be a million notes and 1.4 GB)."""
    path = tmp_path / "selfjoins.map"
    path.write_text(HEAD + "0 0 0 <-> 0 0 0\n" * 1_000_000)
    run = run_bounded([sys.executable, "-m", "reversi_ref", "lint", str(path)], TIMEOUT,
                      MEMORY_MB, root=ROOT)
    assert not run.timed_out and run.code == 0, run.output
    lines = run.output.strip().splitlines()
    assert len(lines) == 3, lines[:5]
    assert "and again by 999998 later transitions" in run.output
    assert run.peak_mb < PEAK_MB
