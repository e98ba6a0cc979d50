"""The Python API a newcomer meets: moves as text, states and maps as text and pictures, the
drawing functions exported from `reversi_ref` (RULES.md 1, 3 and 8)."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import List, Optional, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reversi_ref
from helpers import make_state
from render_helpers import SMALL_MAP, TRANSITIONS, small_state
from reversi_ref import InvalidMoveError, Move, ReversiError, parse_map, play, read_map

NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[1]

# The protocol's move message (RULES.md 8): x and y are uint16, special a uint8.
coordinates = st.integers(min_value=0, max_value=65535)
specials = st.integers(min_value=0, max_value=255)
# Parsing is cheap; a few dozen examples cover the spellings, and PyPy's warm-up can pass
# Hypothesis's default deadline on a loaded machine.
QUICK = settings(max_examples=40, deadline=None)


# --------------------------------------------------------------------------- moves as text


@pytest.mark.parametrize("text, move", [
    ("3 4", Move(3, 4, 0)),
    ("3,4,20", Move(3, 4, 20)),
    ("3,4", Move(3, 4, 0)),
    ("3 4 21", Move(3, 4, 21)),
    ("(3, 4)", Move(3, 4, 0)),
    ("[3, 4, 2]", Move(3, 4, 2)),
    ("  12\t7 , 0 ", Move(12, 7, 0)),
    ("0 0", Move(0, 0, 0)),
    ("65535,65535,255", Move(65535, 65535, 255)),
    ("007 08", Move(7, 8, 0)),
])
def test_parse_reads_the_usual_spellings(text: str, move: Move) -> None:
    """Two or three whole numbers, separated by commas and/or blanks, optionally in one pair
    of parentheses or brackets."""
    parsed = Move.parse(text)
    assert parsed == move
    assert type(parsed) is Move


def test_str_of_a_move_is_short() -> None:
    """"x,y" when special is 0, "x,y,special" otherwise (RULES.md 3: choice 1..8, bonus
    20/21)."""
    assert str(Move(3, 4)) == "3,4"
    assert str(Move(3, 4, 0)) == "3,4"
    assert str(Move(3, 4, 20)) == "3,4,20"
    assert str(Move(0, 10, 8)) == "0,10,8"
    assert "%s" % (Move(1, 2, 21),) == "1,2,21"


def test_move_stays_a_named_tuple() -> None:
    """The wire values are unchanged: a Move is the tuple (x, y, special)."""
    move = Move.parse("5,6,21")
    assert move == (5, 6, 21)
    assert isinstance(move, tuple)
    assert move._fields == ("x", "y", "special")
    x, y, special = move
    assert (x, y, special) == (5, 6, 21)
    assert repr(move) == "Move(x=5, y=6, special=21)"


@pytest.mark.parametrize("text", [
    "", "3", "3 4 5 6", "3 x", "x 3", "+3 4", "3,,4", "3 4,", ",3 4", "--1 4", "3 - 4",
    "(3 4]", "(3 4", "3 4)", "((3 4))", "3.0 4", "3 4 c", "3;4", "\u0663 4", "34",
])
def test_rejects_text_that_is_not_a_move(text: str) -> None:
    """Bad text raises InvalidMoveError (a ValueError and a ReversiError) naming the text."""
    with pytest.raises(InvalidMoveError) as caught:
        Move.parse(text)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, ReversiError)
    assert repr(text) in str(caught.value)
    assert caught.value.text == text
    assert "\n" not in str(caught.value)


def test_rejects_long_bad_text_at_once() -> None:
    """Long runs of blanks before a bad character are rejected (a regular expression that
    could split a blank run many ways would take hours here)."""
    for text in ["1" + " " * 50000 + "x", " " * 50000 + "x", "1" + " " * 50000 + "2 " + "," * 9,
                 "(" + " " * 50000 + "1 2" + " " * 50000 + "]"]:
        with pytest.raises(InvalidMoveError):
            Move.parse(text)


@pytest.mark.parametrize("text, field", [
    ("65536 0", "x is 65536"), ("0 65536", "y is 65536"), ("1 2 256", "special is 256"),
    ("99999999999999999999 1", "x is 99999999999999999999"), ("-1 4", "x is -1"),
    ("3,-4", "y is -4"), ("(3 4 -20)", "special is -20"),
])
def test_rejects_numbers_the_protocol_cannot_carry(text: str, field: str) -> None:
    """RULES.md 8: x and y are uint16, special a uint8; the error names the field."""
    with pytest.raises(InvalidMoveError, match=field):
        Move.parse(text)


@QUICK
@given(coordinates, coordinates, specials)
def test_str_and_parse_round_trip(x: int, y: int, special: int) -> None:
    """parse(str(move)) is the move, for every move the protocol can carry."""
    move = Move(x, y, special)
    assert Move.parse(str(move)) == move


@QUICK
@given(coordinates, coordinates, st.one_of(st.none(), specials),
       st.lists(st.sampled_from([",", " ", ", ", " ,", "\t", "  ", " , "]), min_size=2,
                max_size=2),
       st.sampled_from([("", ""), ("(", ")"), ("[", "]"), (" ( ", " ) ")]))
def test_parse_of_any_spelling_gives_the_numbers(x: int, y: int, special: Optional[int],
                                                 separators: List[str],
                                                 brackets: Tuple[str, str]) -> None:
    """Whatever separators and brackets spell the numbers, they come back, and str() gives
    the one short spelling."""
    numbers = [str(x), str(y)] + ([] if special is None else [str(special)])
    text = numbers[0] + separators[0] + numbers[1]
    if special is not None:
        text += separators[1] + numbers[2]
    text = brackets[0] + text + brackets[1]
    move = Move.parse(text)
    assert move == (x, y, 0 if special is None else special)
    expected = "%d,%d" % (x, y) if not special else "%d,%d,%d" % (x, y, special)
    assert str(move) == expected


def test_a_parsed_move_plays() -> None:
    """RULES.md 3: on the hand-made map player 1 may play (4, 1) (see render_helpers)."""
    start = small_state()
    assert play(start, Move.parse("4 1")) == play(start, Move(4, 1, 0))


# --------------------------------------------------------------------------- states and maps


def test_repr_of_a_state_is_one_short_line() -> None:
    """repr names the size, players, phase, mover and counts, not every cell."""
    assert repr(small_state()) == ("<GameState 6x4, 3 players, phase build, player 1 to move, "
                                   "overrides [0, 0, 0], bombs [0, 0, 0]>")
    big = make_state("\n".join(["1 2" + " 0" * 48] + ["0" + " 0" * 49] * 49), players=2,
                     overrides=3, bombs=1, disqualified=[2])
    text = repr(big)
    assert text == ("<GameState 50x50, 2 players, phase build, player 1 to move, "
                    "overrides [3, 3], bombs [1, 1], disqualified [2]>")


def test_repr_of_a_map_is_one_short_line() -> None:
    """repr of the geometry counts its parts instead of listing every cell (the hand-made map
    of render_helpers: 6x4, one hole, the transitions listed there)."""
    assert repr(small_state().map) == ("<Map 6x4, 3 players, overrides 0, bombs 0 (strength 0), "
                                       "1 holes, %d transitions>" % len(TRANSITIONS))


def test_str_of_a_state_is_the_board() -> None:
    """print(state) shows the board with coordinates and the summary line."""
    assert str(small_state()).splitlines() == [
        "   0 1 2 3 4 5",
        "0  c 0 0 0 0 i",
        "1  0 1 2 - 0 0",
        "2  0 2 1 3 0 b",
        "3  x 0 0 0 0 0",
        "phase 1 (building), player 1 to move; overrides 1:0 2:0 3:0; bombs 1:0 2:0 3:0",
    ]


def svg_root(text: str) -> ET.Element:
    """The root of an SVG document (fails when it is not well-formed)."""
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    return root


def captions(root: ET.Element) -> List[str]:
    """The caption lines of a picture."""
    return [e.text or "" for e in root.iter() if e.get("class") == "caption"]


def cells(root: ET.Element) -> int:
    """How many cells a picture draws."""
    return sum(1 for e in root.iter() if e.get("class") == "cell")


def test_state_shows_as_a_picture_in_jupyter() -> None:
    """_repr_svg_ (what Jupyter displays) is an SVG of the board with the summary below."""
    root = svg_root(small_state()._repr_svg_())
    assert cells(root) == 23  # 6 x 4, one hole
    assert captions(root) == ["phase 1 (building), player 1 to move",
                              "overrides 1:0 2:0 3:0", "bombs 1:0 2:0 3:0"]


def test_map_shows_as_a_picture_in_jupyter() -> None:
    """RULES.md 1: Map._repr_svg_ draws the cells and the transitions, with the header."""
    root = svg_root(read_map(SMALL_MAP)._repr_svg_())
    assert cells(root) == 23
    transitions = [e for e in root.iter() if "transition" in (e.get("class") or "").split()]
    assert len(transitions) == 3
    assert captions(root) == ["3 players, 6 x 4", "overrides 0, bombs 0, strength 0"]


def test_big_boards_are_scaled_down_for_jupyter() -> None:
    """A 30 x 20 board is 480 pixels wide in a notebook, with its proportions kept; a small
    board keeps its natural size (the width of its viewBox)."""
    state = parse_map("2\n0\n0 0\n20 30\n" + ("1 2" + " 0" * 28 + "\n") * 20)
    root = svg_root(state._repr_svg_())
    width, height = float(root.get("width", "0")), float(root.get("height", "0"))
    _, _, box_width, box_height = (float(v) for v in root.get("viewBox", "").split())
    assert width == pytest.approx(480, abs=0.01)
    assert height < width
    assert width / height == pytest.approx(box_width / box_height, rel=1e-3)
    small = svg_root(small_state()._repr_svg_())
    assert small.get("width") == small.get("viewBox", "").split()[2]


# --------------------------------------------------------------------------- the package


DRAWING = ["render_text", "render_svg", "render_replay", "load_record", "record_from_moves"]


def test_drawing_functions_are_exported_and_documented() -> None:
    """`from reversi_ref import render_text, render_svg, ...` works; each has a docstring."""
    from reversi_ref.render import svg, text
    assert reversi_ref.render_text is text.render_text
    assert reversi_ref.render_svg is svg.render_svg
    for name in DRAWING + ["InvalidMoveError"]:
        assert name in reversi_ref.__all__, name
        assert (getattr(reversi_ref, name).__doc__ or "").strip(), name
    for name in reversi_ref.__all__:
        assert hasattr(reversi_ref, name), name
    with pytest.raises(AttributeError, match="no_such_name"):
        getattr(reversi_ref, "no_such_name")


def test_exported_render_text_draws_a_board() -> None:
    """The exported render_text marks legal cells (`*`) after the cell (RULES.md 3)."""
    state = parse_map("2\n0\n0 0\n1 4\n0 1 2 0\n")
    legal = sorted({(m.x, m.y) for m in reversi_ref.legal_moves(state)})
    assert legal == [(3, 0)]
    assert reversi_ref.render_text(state, legal=legal) == "   0 1 2 3\n0  0 1 2 0*"


def test_import_stays_light(tmp_path: Path) -> None:
    """`import reversi_ref`, a state, its repr and a parsed move do not load the drawing code;
    str(state) loads it on first use."""
    code = ("import sys, reversi_ref\n"
            "state = reversi_ref.parse_map(open(sys.argv[1]).read())\n"
            "repr(state); reversi_ref.Move.parse('1 2')\n"
            "print('reversi_ref.render' in sys.modules)\n"
            "str(state)\n"
            "print('reversi_ref.render' in sys.modules)\n")
    path = tmp_path / "small.map"
    path.write_text(SMALL_MAP)
    result = subprocess.run([sys.executable, "-c", code, str(path)], cwd=str(ROOT),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "True"]
