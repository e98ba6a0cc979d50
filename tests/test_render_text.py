"""Boards as terminal text, and `reversi-ref show` (RULES.md 2, 3, 5, 8)."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pytest

from helpers import make_state, map_text
from render_helpers import (PLAYER1_LEGAL, SMALL_MAP, TRANSITION_CAPTURE, TRANSITION_MOVE,
                            first_moves, small_state, trace_of, write_json)
from reversi_ref import OVER, parse_map, play
from reversi_ref.cli import main
from reversi_ref.render.text import legend, render_text, use_color


class FakeTerminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_plain_board_marks_legal_positions() -> None:
    """RULES.md 8: coordinates, and `*` after each legal position (the server's layout)."""
    text = render_text(small_state(), legal=PLAYER1_LEGAL)
    assert text.splitlines() == [
        "   0 1 2 3 4 5",
        "0  c 0 0*0 0 i",
        "1  0 1 2 - 0*0",
        "2  0*2 1 3 0*b",
        "3  x 0*0 0 0 0",
    ]


def test_last_move_and_captures_through_a_transition_are_marked() -> None:
    """RULES.md 2 and 3: `<` after the last move, `+` after the cell it captured."""
    after = play(small_state(), TRANSITION_MOVE)
    text = render_text(after, last_move=TRANSITION_MOVE, captured=TRANSITION_CAPTURE)
    assert text.splitlines()[2] == "1  0 1 1+- 1<0"


def test_blasted_cells_are_marked() -> None:
    """RULES.md 5: `#` after each cell a bomb destroyed (not `x`, an expansion stone)."""
    state = parse_map(map_text("0 0 0\n0 1 2", bombs=1, strength=0))
    text = render_text(state, blasted=[(0, 0)])
    assert text.splitlines()[1] == "0  0#0 0"


def test_markers_are_not_cell_characters() -> None:
    """RULES.md 1: no marker of the text board or of the conformance diffs is a cell character
    of the map format, and no character has two meanings between them."""
    from reversi_ref.render.text import MARKERS
    from reversi_ref.specs.judge import DIFFERS_MARK, EXTRA_MARK, MISSING_MARK
    cell_characters = set("0123456789-cibx")  # RULES.md 1, written out here
    marks = [mark for mark, _ in MARKERS] + [DIFFERS_MARK, MISSING_MARK, EXTRA_MARK]
    assert sorted(marks) == sorted(["*", "<", "+", "#", "~", "?", "!"])
    assert len(set(marks)) == len(marks)
    assert not set(marks) & cell_characters
    assert all(len(mark) == 1 and mark != " " for mark in marks)


def test_state_text_is_the_board_and_a_summary_line() -> None:
    """str(state): the board with coordinates, then phase, mover and the counts in hand
    (RULES.md 1: counts per player start at the map's)."""
    state = parse_map(map_text("1 2 0\n0 x -", overrides=3, bombs=1, strength=2))
    assert str(state) == "\n".join([
        "   0 1 2",
        "0  1 2 0",
        "1  0 x -",
        "phase 1 (building), player 1 to move; overrides 1:3 2:3; bombs 1:1 2:1",
    ])


def test_summary_names_the_disqualified_and_the_end() -> None:
    """RULES.md 6 and 7: a finished game names nobody to move and lists the disqualified."""
    state = dataclasses.replace(
        make_state("1 2 0", players=3, overrides_per_player=[0, 5, 255],
                   bombs_per_player=[2, 0, 1], disqualified=[3, 2], phase=OVER),
        to_move=None)
    assert str(state).splitlines()[-1] == (
        "game over; overrides 1:0 2:5 3:255; bombs 1:2 2:0 3:1; disqualified 2 3")


def test_legend_explains_tiles_and_markers() -> None:
    """The `show` legend names every tile of the map format and every marker."""
    assert legend().splitlines() == [
        "tiles: 0 empty, 1..8 player stones, x expansion stone, c choice, i inversion, "
        "b bonus, - hole",
        "markers: * legal, < last move, + captured, # blasted",
    ]


def test_plain_text_matches_the_referees_board_layout() -> None:
    """Without marks or colour the board is exactly what the referee prints (12 columns)."""
    state = parse_map(map_text("1 2 " + "0 " * 10))
    lines = render_text(state).splitlines()
    assert lines[0] == "   " + " " * 20 + "1 1"
    assert lines[1] == "   0 1 2 3 4 5 6 7 8 9 0 1"
    assert lines[2] == "0  1 2 0 0 0 0 0 0 0 0 0 0"


def test_colour_paints_stones_and_nothing_else_without_it() -> None:
    """Stones get ANSI colours only when colour is on."""
    state = small_state()
    assert "\x1b[" not in render_text(state, legal=PLAYER1_LEGAL)
    coloured = render_text(state, legal=PLAYER1_LEGAL, color=True)
    assert "\x1b[" in coloured
    # Player 1 (xterm colour 25) and player 3 (29) backgrounds appear.
    assert "48;5;25;" in coloured and "48;5;29;" in coloured


def test_colour_is_off_unless_a_terminal_without_no_color(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Colour: on for a terminal, off for a file or pipe, off when NO_COLOR is set; an
    explicit --color/--no-color wins."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color(FakeTerminal()) is True
    assert use_color(io.StringIO()) is False
    assert use_color(io.StringIO(), True) is True
    assert use_color(FakeTerminal(), False) is False
    monkeypatch.setenv("NO_COLOR", "1")
    assert use_color(FakeTerminal()) is False


def test_show_prints_a_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`reversi-ref show MAP` prints the start with player 1's legal positions, no colour
    when not on a terminal."""
    source = tmp_path / "small.map"
    source.write_text(SMALL_MAP)
    assert main(["show", str(source)]) == 0
    out = capsys.readouterr().out
    assert "\x1b[" not in out
    assert "2  0*2 1 3 0*b" in out
    assert "player 1 to move" in out
    assert "\ntiles: 0 empty, 1..8 player stones, x expansion stone" in out
    assert "\nmarkers: * legal, < last move, + captured, # blasted" in out


def test_show_prints_a_move_of_a_trace(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """`reversi-ref show TRACE --move N` shows the position after N moves."""
    start = small_state()
    moves, states = first_moves(start, 3)
    path = tmp_path / "game.json"
    write_json(path, trace_of(SMALL_MAP, start, moves, states))
    assert main(["show", str(path), "--move", "1", "--color"]) == 0
    out = capsys.readouterr().out
    assert "move 1 of 3: player 1 plays (%d, %d)" % moves[0][:2] in out
    assert "\x1b[" in out


def test_rejects_a_move_past_the_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A move number the game does not have is a one-line error."""
    source = tmp_path / "small.map"
    source.write_text(SMALL_MAP)
    assert main(["show", str(source), "--move", "3"]) == 1
    err = capsys.readouterr().err
    assert "no move 3" in err and "Traceback" not in err


def test_rejects_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file that does not exist is a one-line error."""
    assert main(["show", str(tmp_path / "nothing.map")]) == 1
    assert "nothing.map" in capsys.readouterr().err
