"""Huge and hostile map texts (issue 19, item 1; RULES.md 1): rejected at the first problem,
in bounded time and memory, with the same error as a small text with the same problem.

Memory is checked in a fresh process (peak RSS, and an address-space limit so a regression
fails instead of exhausting the machine); every bound is a generous sanity limit, not a speed
target.
"""

from __future__ import annotations

import sys

import pytest

from reversi_ref import read_map
from reversi_ref.errors import MapError
from reversi_ref.mapfile import read_map_notes

from .measure import PARSE, run_bounded

TIMEOUT = 60.0
MEMORY_MB = 1500      # address space for a child process (PyPy reserves a lot up front)
PEAK_MB = 300         # far above what the reader needs, far below what it needed before


def rejection(text: str) -> MapError:
    """The MapError raised for `text`."""
    with pytest.raises(MapError) as caught:
        read_map(text)
    return caught.value


def board(height: int, width: int, last: str = "0") -> str:
    """A map declaring height x width with every cell 0 but the last, which is `last`."""
    cells = ["0"] * (height * width)
    cells[-1] = last
    rows = (" ".join(cells[y * width:(y + 1) * width]) for y in range(height))
    return "2\n0\n0 0\n%d %d\n%s\n" % (height, width, "\n".join(rows))


def test_rejects_ten_megabytes_of_nines_in_a_fresh_process() -> None:
    """RULES.md 1: `9 9 9 ...` (5 million tokens) fails at its first token, the player count;
    issue 19 measured 614 MB (CPython) and 1.0 GB (PyPy) for it before."""
    run = run_bounded([sys.executable, "-c", PARSE % "'9 ' * 5_000_000"], TIMEOUT, MEMORY_MB)
    assert not run.timed_out
    assert "rejected: 1:1: invalid number of players: '9' reads as 9" in run.output, run.output
    assert run.peak_mb < PEAK_MB


def test_first_problem_wins_however_long_the_text() -> None:
    """RULES.md 1: the error of a huge text is the one of its first problem."""
    short = rejection("9 9 9")
    long = rejection("9 " * 2_000_000)
    assert (long.problem, long.line, long.column, long.reason) == (
        short.problem, short.line, short.column, short.reason)


@pytest.mark.parametrize("size", ["1001 1", "1 1001", "4294967295 2", "-1 5", "99999999999 1"])
def test_rejects_a_board_above_the_limit_before_its_cells(size: str) -> None:
    """RULES.md 1: a height or width above 1000 is rejected at the header, whatever follows
    (here two million cells that are never looked at)."""
    text = "2 0 0 0 %s " % size + "0 " * 2_000_000
    error = rejection(text)
    assert error.problem == "dimensions-too-large"
    assert error.line == 1


def test_header_number_of_many_digits_is_read_like_atoi() -> None:
    """RULES.md 1: a canonical-looking count of 5000 digits is read modulo 256 like any other
    (it used to reach int(), which Python refuses beyond 4300 digits)."""
    digits = "1" + "0" * 4999
    m, notes = read_map_notes("2\n%s\n0 0\n1 1\n1\n" % digits)
    assert m.overrides == (2 ** 63 - 1) % 256  # strtol saturates, the server keeps 8 bits
    assert [note.kind for note in notes] == ["non-canonical-number"]


@pytest.mark.parametrize("last,problem", [
    ("q", "invalid-square"), ("00", "invalid-token"), ("3", "invalid-square"),
    ("\f0", "invalid-token")])
def test_bad_last_cell_of_a_large_board_is_found(last: str, problem: str) -> None:
    """RULES.md 1: the board is read a stretch at a time, and a bad cell anywhere is still
    reported at its own place: here the last of 300x300."""
    text = board(300, 300, last)
    error = rejection(text)
    assert (error.problem, error.line, error.column) == (problem, 304, 2 * 299 + 1)
    assert error.reason.startswith("invalid ")
    assert "at (299,299)" in error.reason


def test_truncated_large_board_points_past_its_last_cell() -> None:
    """RULES.md 1: a board that ends early is reported just past its last token."""
    text = board(300, 300)[:-3]  # drops the last cell, its separator and the line break
    error = rejection(text)
    assert error.problem == "board-truncated"
    assert (error.line, error.column) == (304, 2 * 298 + 2)
    assert "after 89999 of 90000 cells" in error.reason


@pytest.mark.slow
def test_maximum_board_with_a_bad_last_cell_in_a_fresh_process() -> None:
    """RULES.md 1: a 1000x1000 board whose last cell is bad: rejected at that cell, in bounded
    time and memory."""
    text = "%r + '0 ' * 999999 + 'q\\n'" % "2\n0\n0 0\n1000 1000\n"
    run = run_bounded([sys.executable, "-c", PARSE % text], TIMEOUT, MEMORY_MB)
    assert not run.timed_out
    assert "invalid square 'q' at (999,999)" in run.output, run.output
    assert run.peak_mb < PEAK_MB


@pytest.mark.slow
def test_sixteen_mebibytes_of_self_joins_in_a_fresh_process() -> None:
    """RULES.md 1: a million repeated self-joins (a valid map of 16 MiB) and the same with a
    bad last transition: both read in bounded time and memory."""
    head = "'2\\n0\\n0 0\\n1 1\\n1\\n'"
    body = "'0 0 0 <-> 0 0 0\\n' * 1_000_000"
    for tail, expected in (("''", "loads"),
                           ("'0 0 0 <-> 0 0 9\\n'", "invalid second coordinate (0,0,9) in "
                                                    "transition 1000000")):
        run = run_bounded([sys.executable, "-c", PARSE % " + ".join((head, body, tail))],
                          4 * TIMEOUT, MEMORY_MB)
        assert not run.timed_out
        assert expected in run.output, run.output
        assert run.peak_mb < PEAK_MB
