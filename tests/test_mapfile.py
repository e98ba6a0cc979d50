"""Map file reading and writing: what the server accepts, what it rejects, and where."""

from __future__ import annotations

from pathlib import Path
from typing import List, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi_ref.errors import MapError
from reversi_ref.geometry import Map, Transition
from reversi_ref.mapfile import format_map, read_map, read_map_file, tokenize
from reversi_ref.state import GameState
from strategies import maps

SHARED_MAPS = Path(__file__).resolve().parents[1].parent / "shared" / "maps"
# The shared maps the official server rejects, each for an invalid transition (shared/README.md).
SERVER_REJECTS = {"evilMaps_g04__evilMap01.map", "fightclub__pika.map",
                  "initialMaps__scope.map"}

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


def rejection(text: str) -> Tuple[str, int, int]:
    """The (reason, line, column) of the MapError that reading `text` raises."""
    with pytest.raises(MapError) as caught:
        read_map(text)
    return caught.value.reason, caught.value.line, caught.value.column


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
])
def test_takes_counts_modulo_256(written: str, value: int) -> None:
    """RULES.md 1: override count, bomb count and strength are unsigned 8-bit (mod 256)."""
    m = read_map("2\n%s\n%s %s\n1 1\n0\n" % (written, written, written))
    assert (m.overrides, m.bombs, m.strength) == (value, value, value)


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
    """RULES.md 1: no size limit; ours handles at least 256x256."""
    text = "2 0 0 0 256 256\n" + board(256, 256) + "255 255 3 <-> 0 0 7\n"
    m = read_map(text)
    assert len(m.cells) == 65536 and m.transitions == (Transition(255, 255, 3, 0, 0, 7),)


# --- rejected texts: every kind of error, with its place -------------------------------------

@pytest.mark.parametrize("text, reason, line, column", [
    ("", "missing player count: the map ends too early", 1, 1),
    ("  \n\t\n", "missing player count: the map ends too early", 1, 1),
    ("2\n3\n", "missing bomb count: the map ends too early", 2, 2),
    ("2\n3\n1\n", "missing bomb strength: the map ends too early", 3, 2),
    ("2\n3\n1 2\n", "missing height: the map ends too early", 3, 4),
    ("2 3 1 2 4", "missing width: the map ends too early", 1, 10),
])
def test_rejects_missing_header(text: str, reason: str, line: int, column: int) -> None:
    """RULES.md 1: the header is n, overrides, bombs, strength, height, width."""
    assert rejection(text) == (reason, line, column)


@pytest.mark.parametrize("text, reason, column", [
    ("two 0 0 0 1 1 0", "player count 'two' is not an integer", 1),
    ("2 1.5 0 0 1 1 0", "override count '1.5' is not an integer", 3),
    ("2 0 x 0 1 1 0", "bomb count 'x' is not an integer", 5),
    ("2 0 0 0x10 1 1 0", "bomb strength '0x10' is not an integer", 7),
    ("2 0 0 0 1_0 1 0", "height '1_0' is not an integer", 9),
    ("2 0 0 0 1 \u0661 0", "width '\u0661' is not an integer", 11),
    ("2 0 0 0 1 1e0 0", "width '1e0' is not an integer", 11),
    ("2 0 0 0 1 - 0", "width '-' is not an integer", 11),
])
def test_rejects_non_numeric_header(text: str, reason: str, column: int) -> None:
    """RULES.md 1: header values are decimal integers (ASCII digits, optional sign)."""
    assert rejection(text) == (reason, 1, column)


@pytest.mark.parametrize("players", ["0", "1", "9", "-2", "258"])
def test_rejects_player_count_outside_2_to_8(players: str) -> None:
    """RULES.md 1: n outside 2..8 is an error (n is not taken modulo 256)."""
    text = "\n%s\n0\n0 0\n1 1\n0\n" % players
    assert rejection(text) == ("player count %s outside 2..8" % int(players), 2, 1)


@pytest.mark.parametrize("text, reason, column", [
    ("2 0 0 0 -3 1 0", "height -3 is negative", 9),
    ("2 0 0 0 1 -1 0", "width -1 is negative", 11),
])
def test_rejects_negative_size(text: str, reason: str, column: int) -> None:
    """RULES.md 1 (not probed on the server, strict reading): height and width are >= 0."""
    assert rejection(text) == (reason, 1, column)


def test_rejects_board_larger_than_the_server_allows() -> None:
    """RULES.md 1: the official server refuses a height or width above 1000."""
    with pytest.raises(MapError) as caught:
        read_map("2 0 0 0 1 1001 " + "0 " * 1001)
    assert (caught.value.reason, caught.value.line, caught.value.column) == (
        "width 1001 too large (at most 1000)", 1, 11)


def test_accepts_board_at_the_server_limit() -> None:
    """RULES.md 1: 1000 is the largest height or width the server takes."""
    assert read_map("2 0 0 0 1 1000 " + "0 " * 1000).width == 1000



@pytest.mark.parametrize("cell", ["q", "9", "00", "B", "X", "o", "1c", "--", "*", "\u00a0"])
def test_rejects_bad_cell_token(cell: str) -> None:
    """RULES.md 1: a cell is one character of 0-8 - c i b x; anything else is an error."""
    text = "2\n0\n0 0\n2 2\n0 1\n2 %s\n" % cell
    assert rejection(text) == ("bad cell token %r" % cell, 6, 3)


def test_rejects_overlong_number() -> None:
    """RULES.md 1 (strict reading): a number of more than 100 digits is an error; leading
    zeros do not count."""
    # 10**8 is a multiple of 256, so only the last 8 digits count: 11111111 % 256 = 199.
    assert read_map("2 %s 0 0 1 1 0" % ("0" * 200 + "1" * 100)).overrides == 199
    reason = "override count '11111111111111111111'... has more than 100 digits"
    assert rejection("2 %s 0 0 1 1 0" % ("1" * 101)) == (reason, 1, 3)


def test_cuts_long_tokens_short_in_messages() -> None:
    """RULES.md 1: a reason stays one short line even for a huge bad token."""
    text = "2 0 0 0 1 1 " + "q" * 5000
    assert rejection(text) == ("bad cell token 'qqqqqqqqqqqqqqqqqqqq'...", 1, 13)


def test_rejects_arrow_among_cells_with_a_hint() -> None:
    """RULES.md 1: a transition read as cells means the board is short of cells."""
    text = "2 0 0 0\n3 3\n0 1 2\n0 0 0 <-> 1 1 4\n"
    assert rejection(text) == ("bad cell token '<->' (fewer cells than height x width?)", 4, 7)


def test_rejects_non_ascii_whitespace() -> None:
    """RULES.md 1: whitespace is ASCII whitespace; a no-break space glues two tokens."""
    text = "2 0 0 0 1 2\n0\u00a00\n"
    assert rejection(text) == ("bad cell token '0\\xa00'", 2, 1)


@pytest.mark.parametrize("players, stone", [(2, "3"), (4, "5"), (7, "8")])
def test_rejects_stone_above_player_count(players: int, stone: str) -> None:
    """RULES.md 1: a stone number greater than n is an error."""
    text = "%d\n0\n0 0\n2 3\n0 0 0\n0 %s 0\n" % (players, stone)
    assert rejection(text) == ("stone %s above player count %d" % (stone, players), 6, 3)


def test_rejects_truncated_board() -> None:
    """RULES.md 1: too few cells is an error ("board truncated"), placed after the last token."""
    text = "4\n0\n0 0\n8 8\n" + board(7, 8) + "0 0 0 0\n"
    assert rejection(text) == ("board truncated: expected 64 cells, found 60", 12, 8)


@pytest.mark.parametrize("tail, reason, column", [
    ("0", "incomplete transition: expected 7 tokens 'x1 y1 d1 <-> x2 y2 d2', found 1", 1),
    ("0 0 0 <-> 1 0", "incomplete transition: expected 7 tokens 'x1 y1 d1 <-> x2 y2 d2', "
     "found 6", 1),
    ("0 0 0 -> 1 0 0", "malformed transition: expected '<->', found '->'", 7),
    ("0 0 0 <> 1 0 0", "malformed transition: expected '<->', found '<>'", 7),
    ("0 0 <-> 0 1 0 0", "malformed transition: '<->' in place of a number", 5),
    ("0 0 0 <-> 1 0 <->", "malformed transition: '<->' in place of a number", 15),
    ("0 a 0 <-> 1 0 0", "transition number 'a' is not an integer", 3),
    ("0 0 0 <-> 1 0 N", "transition number 'N' is not an integer", 15),
])
def test_rejects_malformed_transition(tail: str, reason: str, column: int) -> None:
    """RULES.md 1: a transition is exactly 7 tokens x1 y1 d1 <-> x2 y2 d2, leftovers are errors."""
    text = "2 0 0 0 2 2\n0 0\n0 0\n" + tail + "\n"
    assert rejection(text) == (reason, 4, column)


def test_rejects_leftover_tokens_after_transitions() -> None:
    """RULES.md 1: tokens after the last whole transition are an error."""
    text = "2 0 0 0 2 2\n0 0\n0 0\n0 0 0 <-> 1 0 0\n1 1\n"
    reason = "incomplete transition: expected 7 tokens 'x1 y1 d1 <-> x2 y2 d2', found 2"
    assert rejection(text) == (reason, 5, 1)


# A 3x4 board with a hole at (1, 1) for the transition-end tests.
HOLED = "2 0 0 0 3 4\n0 0 0 0\n0 - 0 0\n0 0 0 0\n"


@pytest.mark.parametrize("tail, reason, column", [
    ("3 9 0 <-> 0 0 0", "transition end (3, 9) off the board", 1),
    ("0 0 0 <-> 4 0 0", "transition end (4, 0) off the board", 11),
    ("-1 0 6 <-> 0 0 0", "transition end (-1, 0) off the board", 1),
    ("0 0 0 <-> 1 1 0", "transition end (1, 1) is a hole", 11),
    ("0 0 8 <-> 1 0 0", "transition direction 8 outside 0..7", 5),
    ("0 0 -1 <-> 1 0 0", "transition direction -1 outside 0..7", 5),
    ("0 0 2 <-> 1 0 0", "side (0, 0, 2) faces cell (1, 0), not the edge or a hole", 5),
    ("0 0 0 <-> 2 2 1", "side (2, 2, 1) faces cell (3, 1), not the edge or a hole", 15),
    ("1 2 2 <-> 1 2 2", "side (1, 2, 2) faces cell (2, 2), not the edge or a hole", 5),
])
def test_rejects_invalid_transition_end(tail: str, reason: str, column: int) -> None:
    """RULES.md 1: each end is on the board, not a hole, d in 0..7, facing the edge or a hole."""
    assert rejection(HOLED + tail + "\n") == (reason, 5, column)


@pytest.mark.parametrize("tails, reason, column", [
    (["0 0 7 <-> 3 2 3", "0 0 7 <-> 3 0 0"], "side (0, 0, 7) used by two transitions "
     "(first on line 5)", 1),
    (["0 0 7 <-> 3 2 3", "3 0 0 <-> 0 0 7"], "side (0, 0, 7) used by two transitions "
     "(first on line 5)", 11),
    (["0 0 7 <-> 0 0 7", "0 0 7 <-> 3 0 0"], "side (0, 0, 7) used by two transitions "
     "(first on line 5)", 1),
    (["0 0 7 <-> 3 2 3", "0 0 6 <-> 0 0 6", "3 2 3 <-> 0 1 6"], "side (3, 2, 3) used by two "
     "transitions (first on line 5)", 1),
    (["0 0 7 <-> 3 2 3", "0 0 7 <-> 3 2 3"], "transition (0, 0, 7) <-> (3, 2, 3) listed twice "
     "(first on line 5)", 1),
    (["0 0 7 <-> 3 2 3", "3 2 3 <-> 0 0 7"], "transition (3, 2, 3) <-> (0, 0, 7) listed twice "
     "(first on line 5)", 1),
    (["0 0 7 <-> 0 0 7", "0 0 7 <-> 0 0 7"], "transition (0, 0, 7) <-> (0, 0, 7) listed twice "
     "(first on line 5)", 1),
    (["1 0 1 <-> 1 0 0", "1 0 0 <-> 1 0 0"], "side (1, 0, 0) used by two transitions "
     "(first on line 5)", 1),
])
def test_rejects_side_used_twice(tails: List[str], reason: str, column: int) -> None:
    """RULES.md 1: no side in two transitions; a side joined to itself listed twice is an error
    too (strict reading, not probed on the server)."""
    text = HOLED + "\n".join(tails) + "\n"
    assert rejection(text) == (reason, 4 + len(tails), column)


def test_reports_file_name_line_and_column(tmp_path: Path) -> None:
    """RULES.md 1: a map file's error names the file, line, column and reason."""
    path = tmp_path / "bad.map"
    path.write_bytes(b"2 0 0 0 1 2\r\n0 q\r\n")
    with pytest.raises(MapError) as caught:
        read_map_file(path)
    assert caught.value.source == str(path)
    assert str(caught.value) == "%s:2:3: bad cell token 'q'" % path


def test_tokenize_gives_1_based_line_and_column() -> None:
    """RULES.md 1: tokens are whitespace-separated; lines split at \\n only."""
    tokens = list(tokenize("2\r\n \t3  4\n\n<->\x0b5"))
    assert [tuple(t) for t in tokens] == [("2", 1, 1), ("3", 2, 3), ("4", 2, 6),
                                          ("<->", 4, 1), ("5", 4, 5)]


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
    assert rejection("\n".join(lines)) == ("bad cell token 'q'", token.line, token.column)


def test_reads_shared_maps_as_the_server_does() -> None:
    """RULES.md 1: every real map the server loads reads and round-trips; the three it rejects
    raise MapError."""
    if not SHARED_MAPS.is_dir():
        pytest.skip("../shared/maps is not present")
    paths = sorted(SHARED_MAPS.glob("*.map"))
    assert paths
    for path in paths:
        if path.name in SERVER_REJECTS:
            with pytest.raises(MapError):
                read_map_file(path)
            continue
        m = read_map_file(path)
        assert isinstance(m, Map)
        assert read_map(format_map(m)) == m
