"""Map file reading and writing: what the server accepts, what it rejects, and where."""

from __future__ import annotations

from pathlib import Path
import ctypes
import re
from typing import Any, List, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi_ref.errors import MapError
from reversi_ref.geometry import Map, Transition
from reversi_ref.mapfile import format_map, read_long, read_map, read_map_file, tokenize
from reversi_ref.state import GameState
from strategies import maps

SHARED_MAPS = Path(__file__).resolve().parents[1].parent / "shared" / "maps"
# The shared maps the official server rejects, each for an invalid transition (shared/README.md).
SERVER_REJECTS = {"evilMaps_g04__evilMap01.map": "transition-invalid-field",
                  "fightclub__pika.map": "invalid-second-coordinate",
                  "initialMaps__scope.map": "transition-invalid-field"}

# 2 players, 3 overrides, 1 bomb of strength 2, a 3x4 board with a hole at (1, 1) and
# transitions over the hole, off the edge, and a side joined to itself.
SMALL = """2
3
1 2
3 4
1 2 0 c
0 - i b
x 0 0 2
0 1 2 <-> 1 2 0
3 0 0 <-> 3 0 0
"""
SMALL_CELLS = ("1", "2", "0", "c",
               "0", "-", "i", "b",
               "x", "0", "0", "2")


def board(height: int, width: int, cell: str = "0") -> str:
    """Rows of one repeated cell, for hand-written maps."""
    return "\n".join(" ".join([cell] * width) for _ in range(height)) + "\n"


# --- accepted texts ---------------------------------------------------------------------------

def test_reads_header_cells_and_transitions() -> None:
    """RULES.md 1: header, row-major cells, transitions in file order."""
    m = read_map(SMALL)
    assert (m.players, m.overrides, m.bombs, m.strength, m.height, m.width) == (2, 3, 1, 2, 3, 4)
    assert m.cells == SMALL_CELLS
    assert m.transitions == (Transition(0, 1, 2, 1, 2, 0), Transition(3, 0, 0, 3, 0, 0))


def test_accepts_any_whitespace() -> None:
    """RULES.md 1: tabs, runs of spaces, blank lines and trailing spaces do not matter."""
    text = ("\n\n 2\t\n3  \n\n1\t2\n 3 4 \n1 2\t0 c\n\n0 - i b   x 0 0 2\n"
            "0\t1 2 <->\n1 2 0\n3 0 0 <-> 3 0 0\t\n\n")
    assert read_map(text) == read_map(SMALL)


def test_accepts_crlf_line_ends() -> None:
    """RULES.md 1: \\r\\n line ends read like \\n."""
    assert read_map(SMALL.replace("\n", "\r\n")) == read_map(SMALL)


def test_accepts_header_on_one_line() -> None:
    """RULES.md 1: the header numbers may share a line, and the cells need no row breaks."""
    text = "2 3 1 2 3 4 " + " ".join(SMALL_CELLS) + " 0 1 2 <-> 1 2 0 3 0 0 <-> 3 0 0"
    assert read_map(text) == read_map(SMALL)


@pytest.mark.parametrize("written, value", [
    ("0", 0), ("255", 255), ("256", 0), ("257", 1), ("300", 44), ("-1", 255), ("-256", 0),
    ("+7", 7), ("0010", 10), ("1000000", 64),
    # read like C's atoi: the leading digits count, the rest of the token is ignored
    ("1.5", 1), ("0x1", 0), ("many", 0), ("3abc", 3), ("-", 0), ("+-3", 0), ("\f7", 7),
    ("\v-1", 255), ("1e3", 1),
    # too many digits saturate at 2**63 - 1 (low byte 255) or -2**63 (low byte 0)
    ("9" * 40, 255), ("-" + "9" * 40, 0), ("0" * 200 + "300", 44),
])
def test_takes_counts_like_atoi_modulo_256(written: str, value: int) -> None:
    """RULES.md 1: override count, bomb count and strength are atoi values, unsigned 8-bit."""
    m = read_map("2\n%s\n%s %s\n1 1\n0\n" % (written, written, written))
    assert (m.overrides, m.bombs, m.strength) == (value, value, value)


@pytest.mark.parametrize("written, players", [
    ("2", 2), ("2.0", 2), ("2abc", 2), ("+3", 3), ("008", 8), ("258", 2), ("-248", 8),
])
def test_reads_player_count_like_atoi(written: str, players: int) -> None:
    """RULES.md 1: the player count is an atoi value; the server keeps its low byte (258 is 2,
    -248 is 8: -248 + 256)."""
    assert read_map("%s 0 0 0 1 1 0" % written).players == players


@pytest.mark.parametrize("written, size", [
    ("3.9", 3), ("2x", 2), ("+1", 1), ("4294967297", 1), ("-4294967295", 1), ("1000", 1000),
    ("4294967296000", 0),
])
def test_reads_height_like_atoi_as_32_bit_unsigned(written: str, size: int) -> None:
    """RULES.md 1: height and width are atoi values; the server compares them as 32-bit unsigned
    numbers (2**32 + 1 and -(2**32 - 1) are both 1, 1000 * 2**32 is 0)."""
    m = read_map("2 0 0 0 %s 1 " % written + "0 " * size)
    assert (m.height, m.width) == (size, 1)


def test_reads_a_width_of_zero_then_cells_as_transitions() -> None:
    """RULES.md 1: width 'many' is 0, so the cells that follow are read as a transition."""
    error = rejection_error("2 0 0 0 2 many 0 0 0 0")
    assert (error.problem, error.line, error.column) == ("transition-truncated", 1, 23)
    assert error.reason.startswith("transition 0 is truncated")


def test_accepts_0x0_map() -> None:
    """RULES.md 1: a 0x0 map loads (the game is over at once)."""
    m = read_map("2 0 0 0 0 0")
    assert (m.height, m.width, m.cells, m.transitions) == (0, 0, (), ())


def test_accepts_zero_height_or_width() -> None:
    """RULES.md 1: a board with no cells has no rows to read."""
    assert read_map("3 0 0 0 0 7\n").cells == ()
    assert read_map("3 0 0 0 7 0\n").cells == ()


def test_accepts_stone_of_every_player_up_to_n() -> None:
    """RULES.md 1: stones 1..n are allowed, also n = 8."""
    m = read_map("8 0 0 0 1 9\n1 2 3 4 5 6 7 8 0\n")
    assert m.cells == tuple("123456780")


def test_accepts_two_sides_of_one_cell_and_diagonal_sides() -> None:
    """RULES.md 1: two different sides of one cell may both have transitions."""
    m = read_map("2 0 0 0 1 1\n0\n0 0 0 <-> 0 0 4\n0 0 1 <-> 0 0 5\n0 0 7 <-> 0 0 7\n")
    assert len(m.transitions) == 3
    assert m.transition_exit(0, 0, 0) == (0, 0, 0)  # leaves north, arrives from the south
    assert m.transition_exit(0, 0, 7) == (0, 0, 3)  # joined to itself: a U-turn


def test_accepts_256x256_map() -> None:
    """RULES.md 1: 256x256 loads on the server, and on ours."""
    text = "2 0 0 0 256 256\n" + board(256, 256) + "255 255 3 <-> 0 0 7\n"
    m = read_map(text)
    assert len(m.cells) == 65536 and m.transitions == (Transition(255, 255, 3, 0, 0, 7),)


def test_accepts_board_at_the_server_limit() -> None:
    """RULES.md 1: 1000 is the largest height or width the server takes."""
    assert read_map("2 0 0 0 1 1000 " + "0 " * 1000).width == 1000


# --- separators and the end of the text -------------------------------------------------------

def test_ends_the_text_at_a_nul() -> None:
    """RULES.md 1 (probed): the server reads the file as a C string; a NUL ends it."""
    assert read_map("2 0 0 0 1 1 0\0 junk that would fail") == read_map("2 0 0 0 1 1 0")


def test_accepts_form_feed_and_vertical_tab_in_the_header() -> None:
    """RULES.md 1: \\f and \\v before a header number are skipped by atoi."""
    assert read_map("\f2\n\v0\n0 0\n1 2\n1 2\n").cells == ("1", "2")


def test_accepts_missing_final_newline_and_crs() -> None:
    """RULES.md 1: CR separates tokens after the player count; no final newline is needed."""
    assert read_map("2\n0\n0 0\n1 2\r1\r2").cells == ("1", "2")


def test_rejects_bare_cr_line_breaks() -> None:
    """RULES.md 1: the player count token ends only at a space, tab or LF, so with bare CRs it
    swallows the next lines ('2\\r0\\r0' is 2 players) and the header shifts: overrides 0,
    bombs 1, strength 2, a 1x2 board with no cells left."""
    error = rejection_error("2\r0\r0 0\r1 2\r1 2\r")
    assert (error.problem, error.line, error.column) == ("board-truncated", 1, 16)
    assert error.reason.startswith("board truncated at (x,y) = (0,0)")


@pytest.mark.parametrize("cell", ["0\f1", "1\v", "\f0"])
def test_form_feed_in_the_board_is_part_of_a_token(cell: str) -> None:
    """RULES.md 1: \\f and \\v do not separate cells; the token is then invalid."""
    error = rejection_error("2 0 0 0 1 2 %s 1\n" % cell)
    assert (error.problem, error.line, error.column) == ("invalid-token", 1, 13)
    assert error.reason.startswith("invalid token %s at (0,0)" % ascii(cell))


def test_tokenize_splits_as_the_server() -> None:
    """RULES.md 1: the first token ends at space, tab or LF; later ones at CR too; \\v and \\f
    belong to tokens; a NUL ends the text; lines are counted at LF."""
    tokens = list(tokenize("2\r3 \t4\r5\n\n<->\x0b5\r6\0 7"))
    assert [tuple(t) for t in tokens] == [("2\r3", 1, 1), ("4", 1, 6), ("5", 1, 8),
                                          ("<->\x0b5", 3, 1), ("6", 3, 7)]


# --- rejected texts: every problem the server names, with its place -------------------------

def rejection_error(text: str) -> MapError:
    """The MapError that reading `text` raises."""
    with pytest.raises(MapError) as caught:
        read_map(text)
    return caught.value


def problem_at(text: str) -> Tuple[str, int, int]:
    """The (problem, line, column) of the MapError that reading `text` raises."""
    error = rejection_error(text)
    return error.problem, error.line, error.column


@pytest.mark.parametrize("text, what, line, column", [
    ("", "number of players", 1, 1),
    ("  \n\t\n", "number of players", 1, 1),
    ("2\n", "override count", 1, 2),
    ("2\n3\n", "bomb count", 2, 2),
    ("2\n3\n1\n", "bomb power", 3, 2),
    ("2\n3\n1 2\n", "height", 3, 4),
    ("2 3 1 2 4", "width", 1, 10),
])
def test_rejects_truncated_header(text: str, what: str, line: int, column: int) -> None:
    """RULES.md 1: the header is n, overrides, bombs, strength, height, width."""
    error = rejection_error(text)
    assert (error.problem, error.line, error.column) == ("header-truncated", line, column)
    assert error.reason.startswith("board truncated before %s" % what)


@pytest.mark.parametrize("players", ["0", "1", "9", "-2", "many", "257", "265", "9" * 30])
def test_rejects_player_count_outside_2_to_8(players: str) -> None:
    """RULES.md 1: n (atoi, low byte) outside 2..8 is an error, found before the rest."""
    error = rejection_error("\n%s\n" % players)
    assert (error.problem, error.line, error.column) == ("invalid-player-count", 2, 1)
    assert error.reason.startswith("invalid number of players")


@pytest.mark.parametrize("text, column", [
    ("2 0 0 0 1001 1", 9), ("2 0 0 0 1 1001", 11), ("2 0 0 0 -3 1", 9), ("2 0 0 0 1 -1", 11),
    # 99999999999 is 1215752191 in 32 bits; 4294968297 is 2**32 + 1001
    ("2 0 0 0 99999999999 1", 9), ("2 0 0 0 4294968297 1", 9),
    ("2 0 0 0 %s 1" % ("9" * 25), 9), ("2 0 0 0 5000", 9),
])
def test_rejects_dimensions_too_large(text: str, column: int) -> None:
    """RULES.md 1: height or width above 1000 as 32-bit unsigned (so also negative) is an error,
    found before the width is read."""
    error = rejection_error(text)
    assert (error.problem, error.line, error.column) == ("dimensions-too-large", 1, column)
    assert error.reason.startswith("dimensions too large (max 1000x1000)")


def test_rejects_truncated_board() -> None:
    """RULES.md 1: too few cells is an error at the first missing cell, placed after the last
    token: 7 rows of 8 and 4 more cells, so (4, 7) is missing."""
    text = "4\n0\n0 0\n8 8\n" + board(7, 8) + "0 0 0 0\n"
    error = rejection_error(text)
    assert (error.problem, error.line, error.column) == ("board-truncated", 12, 8)
    assert error.reason.startswith("board truncated at (x,y) = (4,7)")


@pytest.mark.parametrize("cell", ["00", "1c", "--", "<->", "\u00e4", "\u00a0", "0\u00a00"])
def test_rejects_cell_token_longer_than_one_byte(cell: str) -> None:
    """RULES.md 1: a cell is one byte; a character outside ASCII takes two in UTF-8."""
    error = rejection_error("2\n0\n0 0\n2 2\n0 1\n2 %s\n" % cell)
    assert (error.problem, error.line, error.column) == ("invalid-token", 6, 3)
    assert error.reason.startswith("invalid token %s at (1,1)" % ascii(cell))


@pytest.mark.parametrize("cell", ["q", "9", "B", "X", "o", "*", "3", "\udce4"])
def test_rejects_invalid_square(cell: str) -> None:
    """RULES.md 1: a one-byte cell outside 0 1 2 - c i b x (n = 2) is an invalid square; a raw
    non-UTF-8 byte is one byte."""
    error = rejection_error("2\n0\n0 0\n2 2\n0 1\n2 %s\n" % cell)
    assert (error.problem, error.line, error.column) == ("invalid-square", 6, 3)
    assert error.reason.startswith("invalid square %s at (1,1)" % ascii(cell))


def test_reads_a_raw_byte_cell_from_a_file(tmp_path: Path) -> None:
    """RULES.md 1: a file's byte 0xe4 is one invalid square, the UTF-8 'ä' one invalid token."""
    for data, problem in ((b"\xe4", "invalid-square"), (b"\xc3\xa4", "invalid-token")):
        path = tmp_path / "bad.map"
        path.write_bytes(b"2 0 0 0 1 1 " + data)
        with pytest.raises(MapError) as caught:
            read_map_file(path)
        assert (caught.value.problem, caught.value.line, caught.value.column) == (problem, 1, 13)


@pytest.mark.parametrize("players, stone", [(2, "3"), (4, "5"), (7, "8")])
def test_rejects_stone_above_player_count(players: int, stone: str) -> None:
    """RULES.md 1: a stone number greater than n is an invalid square."""
    text = "%d\n0\n0 0\n2 3\n0 0 0\n0 %s 0\n" % (players, stone)
    error = rejection_error(text)
    assert (error.problem, error.line, error.column) == ("invalid-square", 6, 3)
    assert "above the player count %d" % players in error.reason


# A 3x4 board with a hole at (1, 1) for the transition tests.
HOLED = "2 0 0 0 3 4\n0 0 0 0\n0 - 0 0\n0 0 0 0\n"


TRANSITION_TAILS: List[Tuple[str, List[Transition]]] = [
    ("0 a 0 <-> 1.9 +0 0x", [Transition(0, 0, 0, 1, 0, 0)]),
    ("4294967296 0 0 <-> 1 0 0", [Transition(0, 0, 0, 1, 0, 0)]),
    ("1 0 4 <-> 1 0 4\n1 0 4 <-> 1 2 0", [Transition(1, 0, 4, 1, 2, 0)]),
    ("0 0 7 <-> 0 0 7\n0 0 7 <-> 0 0 7", [Transition(0, 0, 7, 0, 0, 7)]),
    ("0 0 7 <-> 0 0 7\n3 2 3 <-> 3 2 3\n0 0 7 <-> 3 2 3",
     [Transition(0, 0, 7, 3, 2, 3)]),
    ("0 0 7 <-> 0 0 7\n0 0 6 <-> 0 0 6\n0 0 7 <-> 3 2 3",
     [Transition(0, 0, 6, 0, 0, 6), Transition(0, 0, 7, 3, 2, 3)]),
]


@pytest.mark.parametrize("tail, transitions", TRANSITION_TAILS)
def test_keeps_the_transitions_that_apply(tail: str, transitions: List[Transition]) -> None:
    """RULES.md 1: numbers read like atoi cut to 32 bits; a side joined to itself may come again
    (kept once) or be joined elsewhere later (the later transition applies)."""
    m = read_map(HOLED + tail + "\n")
    assert list(m.transitions) == transitions


def test_geometry_follows_the_later_transition() -> None:
    """RULES.md 1 and 2: after `1 0 4 <-> 1 0 4` and `1 0 4 <-> 1 2 0`, leaving (1, 0) south
    lands on (1, 2) going south (away from its north side)."""
    m = read_map(HOLED + "1 0 4 <-> 1 0 4\n1 0 4 <-> 1 2 0\n")
    assert m.transition_exit(1, 0, 4) == (1, 2, 4)
    assert m.transition_exit(1, 2, 0) == (1, 0, 0)


TRANSITION_PROBLEMS: List[Tuple[str, str, int, int, str]] = [
    # leftover tokens
    ("0", "transition-truncated", 5, 2, "transition 0 is truncated"),
    ("0 0 0 <-> 1 0", "transition-truncated", 5, 14, "transition 0 is truncated"),
    ("0 0 0 <-> 1 0 0\n1 1", "transition-truncated", 6, 4, "transition 1 is truncated"),
    ("0 0 0 <-> 0 0 0 0", "transition-truncated", 5, 18, "transition 1 is truncated"),
    ("0 0 1 <-> 0 0 7 \f<->", "transition-truncated", 5, 21, "transition 1 is truncated"),
    # the fourth token is the arrow
    ("0 0 0 -> 1 0 0", "invalid-delimiter", 5, 7, 'invalid delimiter "->" in transition 0'),
    ("0 0 0 <=> 9 9 9", "invalid-delimiter", 5, 7, 'invalid delimiter "<=>" in transition 0'),
    ("0 0 <-> 0 1 0 0", "invalid-delimiter", 5, 9, 'invalid delimiter "0" in transition 0'),
    ("0 0 0 <->\v 1 0 0", "invalid-delimiter", 5, 7,
     'invalid delimiter "<->\\x0b" in transition 0'),
    # each end on the board with a direction 0..7, the first one checked first
    ("3 9 0 <-> 0 0 0", "invalid-first-coordinate", 5, 1, "invalid first coordinate (3,9,0)"),
    ("-1 0 6 <-> 0 0 0", "invalid-first-coordinate", 5, 1,
     "invalid first coordinate (-1,0,6)"),
    ("0 0 8 <-> 1 0 0", "invalid-first-coordinate", 5, 1, "invalid first coordinate (0,0,8)"),
    ("0 0 -1 <-> 9 9 9", "invalid-first-coordinate", 5, 1,
     "invalid first coordinate (0,0,-1)"),
    ("0 0 0 <-> 4 0 0", "invalid-second-coordinate", 5, 11,
     "invalid second coordinate (4,0,0)"),
    ("0 0 2 <-> 9 9 9", "invalid-second-coordinate", 5, 11,
     "invalid second coordinate (9,9,9)"),
    # each side free: facing the edge or a hole, not a hole itself, not joined before
    ("0 0 2 <-> 1 0 0", "transition-invalid-field", 5, 1, "transition 0 is invalid"),
    ("0 0 0 <-> 2 2 1", "transition-invalid-field", 5, 11, "transition 0 is invalid"),
    ("1 2 2 <-> 1 2 2", "transition-invalid-field", 5, 1, "transition 0 is invalid"),
    ("1 1 0 <-> 0 0 0", "transition-invalid-field", 5, 1, "transition 0 is invalid"),
    ("0 0 0 <-> 1 1 0", "transition-invalid-field", 5, 11, "transition 0 is invalid"),
    ("0 0 7 <-> 3 2 3\n0 0 7 <-> 3 0 0", "transition-invalid-field", 6, 1,
     "transition 1 is invalid"),
    ("0 0 7 <-> 3 2 3\n3 0 0 <-> 0 0 7", "transition-invalid-field", 6, 11,
     "transition 1 is invalid"),
    ("0 0 7 <-> 3 2 3\n0 0 7 <-> 3 2 3", "transition-invalid-field", 6, 1,
     "transition 1 is invalid"),
    ("0 0 7 <-> 3 2 3\n3 2 3 <-> 0 0 7", "transition-invalid-field", 6, 1,
     "transition 1 is invalid"),
    ("1 0 4 <-> 1 2 0\n1 0 4 <-> 1 0 4", "transition-invalid-field", 6, 1,
     "transition 1 is invalid"),
    ("0 0 7 <-> 0 0 7\n0 0 7 <-> 0 0 7\n0 0 7 <-> 3 2 3\n0 0 7 <-> 0 0 7",
     "transition-invalid-field", 8, 1, "transition 3 is invalid"),
]


@pytest.mark.parametrize("tail, problem, line, column, start", TRANSITION_PROBLEMS)
def test_rejects_transition(tail: str, problem: str, line: int, column: int,
                            start: str) -> None:
    """RULES.md 1: the server's checks of a transition, in its order, numbered from 0."""
    error = rejection_error(HOLED + tail + "\n")
    assert (error.problem, error.line, error.column) == (problem, line, column)
    assert error.reason.startswith(start)


# Long runs of transitions are read many at a time; these prefixes make the tails above come
# after stretches of every size.  (0, 2, 5) faces the edge and no tail uses it.
LONG_PREFIXES = ["0 2 5 <-> 0 2 5\n", "0 2 5\f <-> +0 02 5\n", "0 2 5 <-> 0 2 5\t\r\n"]


@pytest.mark.parametrize("prefix", LONG_PREFIXES)
@pytest.mark.parametrize("count", [1, 9000])
def test_keeps_the_transitions_after_a_long_run(prefix: str, count: int) -> None:
    """RULES.md 1: a repeated self-join is kept once, wherever the runs of transitions end."""
    for tail, transitions in TRANSITION_TAILS:
        m = read_map(HOLED + prefix * count + tail + "\n")
        assert list(m.transitions) == [Transition(0, 2, 5, 0, 2, 5)] + transitions


@pytest.mark.parametrize("prefix", LONG_PREFIXES)
@pytest.mark.parametrize("count", [1, 9000])
def test_rejects_transition_after_a_long_run(prefix: str, count: int) -> None:
    """RULES.md 1: each problem above, after `count` good transitions, is the same problem
    `count` lines further down and `count` transitions later."""
    for tail, problem, line, column, start in TRANSITION_PROBLEMS:
        error = rejection_error(HOLED + prefix * count + tail + "\n")
        assert (error.problem, error.line, error.column) == (problem, line + count, column)
        assert error.reason.startswith(re.sub(
            r"transition (\d+)", lambda match: "transition %d" % (int(match[1]) + count),
            start))


def test_replaces_a_self_join_after_a_long_run() -> None:
    """RULES.md 1: a self-join joined elsewhere thousands of transitions later is dropped."""
    text = HOLED + "0 0 7 <-> 0 0 7\n" + "0 2 5 <-> 0 2 5\n" * 9000 + "0 0 7 <-> 3 2 3\n"
    assert list(read_map(text).transitions) == [Transition(0, 2, 5, 0, 2, 5),
                                                Transition(0, 0, 7, 3, 2, 3)]


def test_reports_file_name_line_and_column(tmp_path: Path) -> None:
    """RULES.md 1: a map file's error names the file, line, column and reason."""
    path = tmp_path / "bad.map"
    path.write_bytes(b"2 0 0 0 1 2\r\n0 q\r\n")
    with pytest.raises(MapError) as caught:
        read_map_file(path)
    assert caught.value.source == str(path)
    assert caught.value.problem == "invalid-square"
    assert str(caught.value).startswith("%s:2:3: invalid square 'q' at (1,0)" % path)


def test_cuts_long_tokens_short_in_messages() -> None:
    """RULES.md 1: a reason stays one short line even for a huge bad token."""
    error = rejection_error("2 0 0 0 1 1 " + "q" * 5000)
    assert error.reason.startswith("invalid token 'qqqqqqqqqqqqqqqqqqqq'... at (0,0)")
    assert len(error.reason) < 200


# --- atoi against an independent reference ----------------------------------------------------

def reference_strtol(text: str) -> int:
    """strtol(text, NULL, 10) on 64-bit longs, written out step by step for the tests."""
    i = 0
    while i < len(text) and text[i] in " \t\n\v\f\r":
        i += 1
    negative = False
    if i < len(text) and text[i] in "+-":
        negative = text[i] == "-"
        i += 1
    value = 0
    while i < len(text) and "0" <= text[i] <= "9":
        value = value * 10 + (ord(text[i]) - ord("0"))
        i += 1
    value = -value if negative else value
    return max(-2 ** 63, min(2 ** 63 - 1, value))


NUMBER_TEXTS = st.text(alphabet=st.sampled_from("0123456789+- .x\f\v\rae9"), max_size=30)


@settings(max_examples=300, deadline=None)
@given(NUMBER_TEXTS)
def test_read_long_matches_a_step_by_step_strtol(text: str) -> None:
    """RULES.md 1: header numbers are read like C's strtol / atoi."""
    assert read_long(text) == reference_strtol(text)


def _libc_strtol() -> Any:
    try:
        libc = ctypes.CDLL(None)
        function = libc.strtol
    except (OSError, AttributeError, TypeError):
        return None
    function.restype = ctypes.c_long
    function.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int]
    if ctypes.sizeof(ctypes.c_long) != 8:
        return None
    return function


@settings(max_examples=300, deadline=None)
@given(NUMBER_TEXTS)
def test_read_long_matches_libc_strtol(text: str) -> None:
    """RULES.md 1: compared with the C library's own strtol where ctypes reaches it."""
    strtol = _libc_strtol()
    if strtol is None:
        pytest.skip("no 64-bit libc strtol through ctypes here")
    assert read_long(text) == strtol(text.encode("ascii"), None, 10)


# --- writing ----------------------------------------------------------------------------------

def test_formats_canonical_layout() -> None:
    """RULES.md 1: format_map writes header lines, one row per line, one transition per line."""
    text = "2 259 1 -254 3 4 " + " ".join(SMALL_CELLS) + " 0 1 2 <-> 1 2 0   3 0 0 <-> 3 0 0"
    assert format_map(read_map(text)) == SMALL


def test_formats_game_state_board_without_bombed_transitions() -> None:
    """RULES.md 5: a state's board is written; a transition with a bombed end is dropped."""
    m = read_map(SMALL)
    bombed = list(SMALL_CELLS)
    bombed[1 * 4 + 0] = "-"   # (0, 1), one end of the first transition
    bombed[0 * 4 + 2] = "1"
    state = GameState(map=m, board=tuple(bombed), overrides=(0, 5), bombs=(0, 0),
                      disqualified=frozenset(), phase="bomb", to_move=2)
    assert format_map(state) == ("2\n3\n1 2\n3 4\n1 2 1 c\n- - i b\nx 0 0 2\n"
                                 "3 0 0 <-> 3 0 0\n")


def test_formats_0x0_map() -> None:
    """RULES.md 1: a map without cells is just its header."""
    assert format_map(read_map("5 1 2 3 0 0")) == "5\n1\n2 3\n0 0\n"


@settings(max_examples=150, deadline=None)
@given(maps(messy=True, wrap_counts=True))
def test_round_trip(text: str) -> None:
    """RULES.md 1: read_map(format_map(read_map(t))) == read_map(t) for every valid map."""
    m = read_map(text)
    again = read_map(format_map(m))
    assert again == m
    assert again.exits == m.exits


@settings(max_examples=100, deadline=None)
@given(maps(messy=True), st.data())
def test_rejects_corrupted_cell_at_its_place(text: str, data: st.DataObject) -> None:
    """RULES.md 1: replacing any one cell by a bad token is reported at that token."""
    tokens = list(tokenize(text))
    m = read_map(text)
    first_cell = 6
    index = data.draw(st.integers(first_cell, first_cell + m.height * m.width - 1))
    token = tokens[index]
    lines = text.split("\n")
    line = lines[token.line - 1]
    lines[token.line - 1] = line[:token.column - 1] + "q" + line[token.column:]
    assert problem_at("\n".join(lines)) == ("invalid-square", token.line, token.column)


def test_reads_shared_maps_as_the_server_does() -> None:
    """RULES.md 1: every real map the server loads reads and round-trips; the three it rejects
    raise MapError naming the server's problem (probed with mapinfo)."""
    if not SHARED_MAPS.is_dir():
        pytest.skip("../shared/maps is not present")
    paths = sorted(SHARED_MAPS.glob("*.map"))
    assert paths
    for path in paths:
        if path.name in SERVER_REJECTS:
            with pytest.raises(MapError) as caught:
                read_map_file(path)
            assert caught.value.problem == SERVER_REJECTS[path.name]
            continue
        m = read_map_file(path)
        assert isinstance(m, Map)
        assert read_map(format_map(m)) == m
