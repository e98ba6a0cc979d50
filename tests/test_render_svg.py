"""SVG pictures of positions: well-formed XML with the expected elements (RULES.md 1-3, 5)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from render_helpers import (BOMB_BLAST, BOMB_MAP, OKABE_ITO, PLAYER1_LEGAL, SMALL_MAP,
                            TRANSITION_CAPTURE, TRANSITION_MOVE, small_state)
from reversi_ref import parse_map, play, read_map_file
from reversi_ref.cli import main
from reversi_ref.render.svg import render_svg
from reversi_ref.rules import initial_state
from reversi_ref.state import Move

NS = "{http://www.w3.org/2000/svg}"
SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def parse(svg: str) -> ET.Element:
    """The root element of an SVG document (fails when it is not well-formed XML)."""
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    return root


def with_class(root: ET.Element, name: str) -> List[ET.Element]:
    """Every element whose class attribute contains `name`."""
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def translation(element: ET.Element) -> Tuple[float, float]:
    """The (x, y) of a `translate(x y)` transform."""
    match = re.match(r"translate\(([-\d.]+) ([-\d.]+)\)", element.get("transform") or "")
    assert match is not None
    return float(match.group(1)), float(match.group(2))


def test_cells_tiles_and_stones_are_drawn() -> None:
    """RULES.md 1: every non-hole cell is drawn, each special tile once with its own symbol,
    and each stone in its player's Okabe-Ito colour with the player number on it."""
    root = parse(render_svg(small_state()))
    # 6 x 4 cells, one hole.
    assert len(with_class(root, "cell")) == 23
    for kind in ("choice", "inversion", "bonus", "expansion"):
        assert len(with_class(root, kind)) == 1, kind
    stones: Dict[str, List[str]] = {}
    for stone in with_class(root, "stone"):
        player = [c for c in stone.get("class", "").split() if c.startswith("p")][0]
        stones.setdefault(player, []).append(stone.get("fill", ""))
    assert stones == {"p1": [OKABE_ITO[1]] * 2, "p2": [OKABE_ITO[2]] * 2,
                      "p3": [OKABE_ITO[3]]}
    numbers = sorted(e.text or "" for e in with_class(root, "number"))
    assert numbers == ["1", "1", "2", "2", "3"]


def test_hole_is_left_out() -> None:
    """RULES.md 1: a hole has no cell drawn: nothing sits at (3, 1)'s place."""
    state = small_state()
    root = parse(render_svg(state))
    origins = {translation(cell) for cell in with_class(root, "cell")}
    xs = sorted({x for x, _ in origins})
    ys = sorted({y for _, y in origins})
    assert len(xs) == 6 and len(ys) == 4
    assert (xs[3], ys[1]) not in origins
    assert (xs[2], ys[1]) in origins and (xs[4], ys[1]) in origins


def test_one_element_per_transition() -> None:
    """RULES.md 1 and 2: each transition is one element naming the sides it joins."""
    root = parse(render_svg(small_state()))
    transitions = with_class(root, "transition")
    assert [t.get("id") for t in transitions] == ["transition-0", "transition-1",
                                                  "transition-2"]
    assert [t.get("data-sides") for t in transitions] == ["0 0 7 0 0 7", "5 0 0 5 3 4",
                                                          "2 1 2 4 1 6"]
    for t in transitions:
        assert len(t.findall(NS + "path")) == 1


def test_side_joined_to_itself_is_a_closed_loop() -> None:
    """RULES.md 2: a self-joined side is drawn as a loop starting and ending at one point."""
    root = parse(render_svg(small_state()))
    loop = [t for t in with_class(root, "transition") if t.get("id") == "transition-0"][0]
    path = loop.find(NS + "path")
    assert path is not None
    numbers = re.findall(r"-?\d+(?:\.\d+)?", path.get("d", ""))
    assert numbers[:2] == numbers[-2:]
    assert path.get("d", "").count("C") == 1


def test_transitions_stay_inside_the_picture() -> None:
    """Curves drawn round the board fit in the picture's view box."""
    root = parse(render_svg(small_state()))
    width, height = float(root.get("width", "0")), float(root.get("height", "0"))
    for t in with_class(root, "transition"):
        path = t.find(NS + "path")
        assert path is not None
        values = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", path.get("d", ""))]
        xs, ys = values[0::2], values[1::2]
        assert 0 <= min(xs) and max(xs) <= width
        assert 0 <= min(ys) and max(ys) <= height


def test_legal_positions_last_move_and_captures_are_marked() -> None:
    """RULES.md 2 and 3: after (4, 1) the capture through the transition is highlighted."""
    state = small_state()
    after = play(state, TRANSITION_MOVE)
    root = parse(render_svg(after, last_move=TRANSITION_MOVE, captured=TRANSITION_CAPTURE,
                            legal=[(0, 0), (1, 3)]))
    assert len(with_class(root, "last")) == 1
    assert len(with_class(root, "captured")) == 1
    assert len(with_class(root, "legal")) == 2
    cells = {translation(c): c for c in with_class(root, "cell")}
    xs = sorted({x for x, _ in cells})
    ys = sorted({y for _, y in cells})
    marks = with_class(root, "marks")[0]
    placed = {}
    for group in marks:
        mark_class = (group[0].get("class") or "").split()[1]
        placed[mark_class] = translation(group)
    assert placed["last"] == (xs[4], ys[1])
    assert placed["captured"] == (xs[2], ys[1])
    # Both moved stones now carry player 1's colour.
    fills = [s.get("fill") for s in with_class(root, "p1")]
    assert fills == [OKABE_ITO[1]] * 4


def test_legal_marks_for_the_start_position() -> None:
    """RULES.md 3: the start position marks the five cells worked out by hand, on empty
    cells with dots."""
    root = parse(render_svg(small_state(), legal=PLAYER1_LEGAL))
    legal = with_class(root, "legal")
    assert len(legal) == 5
    assert all(e.tag == NS + "circle" for e in legal)


def test_blasted_cells_are_marked() -> None:
    """RULES.md 5: the cells a bomb destroyed are marked; they are holes and not drawn."""
    state = parse_map(BOMB_MAP)
    after = play(state, Move(0, 0))
    root = parse(render_svg(after, last_move=Move(0, 0), blasted=BOMB_BLAST))
    assert len(with_class(root, "blasted")) == 4
    assert len(with_class(root, "cell")) == 12 - 4


def test_eight_players_get_eight_distinct_colours() -> None:
    """Up to 8 players each get their own colour."""
    text = "8\n0\n0 0\n1 8\n1 2 3 4 5 6 7 8\n"
    root = parse(render_svg(parse_map(text)))
    fills = {}
    for stone in with_class(root, "stone"):
        player = int([c for c in stone.get("class", "").split() if c.startswith("p")][0][1:])
        fills[player] = stone.get("fill")
    assert fills == OKABE_ITO


def test_coordinates_are_optional() -> None:
    """Row and column numbers appear unless switched off."""
    state = small_state()
    assert len(with_class(parse(render_svg(state)), "coord")) == 6 + 4
    assert with_class(parse(render_svg(state, coordinates=False)), "coord") == []


def test_caption_is_escaped() -> None:
    """Caption text with markup characters stays well-formed XML."""
    root = parse(render_svg(small_state(), caption=["a <b> & c"]))
    assert [e.text for e in with_class(root, "caption")] == ["a <b> & c"]


def test_size_scales_the_picture_not_the_drawing() -> None:
    """`size` sets the longer side in pixels; the drawing (viewBox) and proportions stay."""
    state = small_state()  # 6 columns x 4 rows: wider than tall
    natural = parse(render_svg(state))
    scaled = parse(render_svg(state, size=150))
    assert scaled.get("viewBox") == natural.get("viewBox")
    _, _, box_width, box_height = (float(v) for v in natural.get("viewBox", "").split())
    assert float(natural.get("width", "0")) == box_width
    assert float(scaled.get("width", "0")) == pytest.approx(150, abs=0.01)
    assert float(scaled.get("height", "0")) == pytest.approx(150 * box_height / box_width,
                                                             abs=0.01)
    tall = parse(render_svg(parse_map("2\n0\n0 0\n5 1\n1\n2\n0\n0\n0\n"), size=100))
    assert float(tall.get("height", "0")) == pytest.approx(100, abs=0.01)
    assert float(tall.get("width", "0")) < 100


def test_render_command_writes_an_svg_of_a_map(tmp_path: Path) -> None:
    """`reversi-ref render MAP -o out.svg` writes the picture of the start position."""
    source = tmp_path / "small.map"
    source.write_text(SMALL_MAP)
    out = tmp_path / "out.svg"
    assert main(["render", str(source), "-o", str(out)]) == 0
    root = parse(out.read_text())
    assert len(with_class(root, "transition")) == 3
    assert len(with_class(root, "legal")) == 5


def test_rejects_a_malformed_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """RULES.md 1: a bad map ends in a one-line error naming the file, no traceback."""
    source = tmp_path / "bad.map"
    source.write_text("2\n0\n0 0\n1 2\n0 9\n")
    assert main(["render", str(source), "-o", str(tmp_path / "x.svg")]) == 1
    err = capsys.readouterr().err
    assert "bad.map" in err and "Traceback" not in err
    assert not (tmp_path / "x.svg").exists()


@pytest.mark.skipif(not (SHARED / "maps").is_dir(), reason="../shared/maps is absent")
def test_real_maps_render_as_well_formed_svg() -> None:
    """Every shared map renders to well-formed SVG with one element per transition."""
    for path in sorted((SHARED / "maps").glob("*.map")):
        try:
            game_map = read_map_file(path)
        except ValueError:
            continue  # the shared maps include deliberately broken ones
        if game_map.width * game_map.height > 2500:
            continue
        root = parse(render_svg(initial_state(game_map)))
        assert len(with_class(root, "transition")) == len(game_map.transitions), path.name
