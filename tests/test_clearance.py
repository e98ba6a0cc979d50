"""Bombs that clear the board whatever is played (`reversi_ref.clearance`, RULES.md 5)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from reversi_ref.bundled import load_map_argument
from reversi_ref.cli import main
from reversi_ref.clearance import ball, bombs_clear_board, most_bombs, neighbour_masks
from reversi_ref.geometry import HOLE, Map
from reversi_ref.maplint import lint_notes
from reversi_ref.mapfile import read_map
from reversi_ref.rules import initial_state
from reversi_ref.rules.bombing import blast_cells, bombing_moves
from reversi_ref.state import GameState

SHARED_MAPS = Path(__file__).resolve().parents[1].parent / "shared" / "maps"


def header(bombs: int, strength: int, height: int, width: int) -> str:
    """A two-player map header without override stones."""
    return "2\n0\n%d %d\n%d %d\n" % (bombs, strength, height, width)


def clears(text: str, budget: int = 0) -> Optional[bool]:
    """`bombs_clear_board` for a map text."""
    return bombs_clear_board(read_map(text), budget)


PLUS = "- - 0 - -\n- - 0 - -\n0 0 1 2 0\n- - 0 - -\n- - 0 - -\n"


# Worked by hand; "B" is the bombs of both players together, "s" their strength.
@pytest.mark.parametrize("text, expected", [
    # Any bomb of strength 1 on a 2x2 board reaches all four cells.
    (header(1, 1, 2, 2) + "1 2\n2 1\n", True),
    # A row of four, B = 2, s = 1: the first blast takes two or three cells next to each
    # other, and what is left is one or two cells side by side, which the second takes.
    (header(1, 1, 1, 4) + "1 2 0 0\n", True),
    # A row of five: bombs on (0, 0) and (4, 0) leave (2, 0).
    (header(1, 1, 1, 5) + "1 2 0 0 0\n", False),
    # The same row closed into a ring by a transition: any blast takes three cells in a row
    # and leaves two neighbours (through the transition if need be) for the second bomb.
    (header(1, 1, 1, 5) + "1 2 0 0 0\n0 0 6 <-> 4 0 2\n", True),
    # A hole shields (RULES.md 5): two pieces of two cells, one bomb each clears them.
    (header(1, 1, 1, 5) + "1 2 - 0 0\n", True),
    # ... but a piece of three cells in a row takes two bombs when the first is at its end.
    (header(1, 1, 1, 6) + "1 2 - 0 0 0\n", False),
    # A plus of arms two long (diagonal neighbours of the centre are holes): a bomb on the
    # centre takes it and the four cells beside it and leaves the four arm ends apart, one
    # bomb each: five bombs in that order, so four leave a cell.
    (header(2, 1, 5, 5) + PLUS, False),
    # Strength 0 destroys one cell a bomb: four bombs for four cells, not two.
    (header(2, 0, 2, 2) + "1 2\n2 1\n", True),
    (header(1, 0, 2, 2) + "1 2\n2 1\n", False),
    # No bombs, no bombing phase.
    (header(0, 3, 2, 2) + "1 2\n2 1\n", False),
])
def test_hand_worked_boards(text: str, expected: bool) -> None:
    """RULES.md 5: the answer on boards small enough to check every order by hand."""
    assert clears(text) is expected


def test_budget_runs_out_without_an_answer() -> None:
    """A search stopped by its budget answers None, not a guess."""
    ring = header(1, 1, 1, 5) + "1 2 0 0 0\n0 0 6 <-> 4 0 2\n"
    assert clears(ring, budget=1) is None
    assert clears(ring, budget=0) is True


def test_strong_bombs_on_a_large_board_stop_at_the_budget() -> None:
    """A 100x100 open board with bombs of strength 60: the first blasts alone would reach 10^8
    cells, so a budget (here 10 pieces, 30,000 cells) stops the search with no answer
    instead of running on; so does the default one, after 3 million cells."""
    rows = ["0 " * 49 + "1 2" + " 0" * 49] + ["0" + " 0" * 99] * 99
    text = header(1, 60, 100, 100) + "\n".join(rows) + "\n"
    assert bombs_clear_board(read_map(text), budget=10) is None


def every_order_clears(state: GameState, bombs: int,
                       seen: Dict[Tuple[Tuple[str, ...], int], bool]) -> bool:
    """A second implementation on the readable rules: try every target of every bomb."""
    key = (state.board, bombs)
    if key not in seen:
        targets = bombing_moves(state)
        if not targets:
            seen[key] = True
        elif bombs == 0:
            seen[key] = False
        else:
            seen[key] = True
            for move in targets:
                board = list(state.board)
                for x, y in blast_cells(state, move.x, move.y):
                    board[state.map.index(x, y)] = HOLE
                if not every_order_clears(replace(state, board=tuple(board)), bombs - 1, seen):
                    seen[key] = False
                    break
    return seen[key]


def test_pieces_left_by_a_blast_all_count() -> None:
    """The plus above takes five bombs at most, as trying every order on the readable rules
    confirms (five always clear it, four need not): a count that left out the pieces a
    blast splits off would give two."""
    game_map = read_map(header(2, 1, 5, 5) + PLUS)
    state = initial_state(game_map)
    assert every_order_clears(state, 5, {}) and not every_order_clears(state, 4, {})
    assert most_bombs(game_map, cap=10) == 5
    assert most_bombs(game_map, cap=3) == 4
    assert bombs_clear_board(read_map(header(3, 1, 5, 5) + PLUS)) is True


@st.composite
def small_bomb_maps(draw: st.DrawFn) -> str:
    """Two-player maps of at most fifteen cells, some holes, maybe rows closed into rings."""
    height = draw(st.integers(1, 3))
    width = draw(st.integers(1, 5))
    rows = [[draw(st.sampled_from("00-12")) for _ in range(width)] for _ in range(height)]
    text = header(draw(st.integers(1, 2)), draw(st.integers(0, 2)), height, width)
    text += "".join(" ".join(row) + "\n" for row in rows)
    for y, row in enumerate(rows):
        if width > 1 and row[0] != HOLE and row[-1] != HOLE and draw(st.booleans()):
            text += "0 %d 6 <-> %d %d 2\n" % (y, width - 1, y)
    return text


@settings(max_examples=60, deadline=None)
@given(small_bomb_maps())
# Two maps where the first bomb of the longest order splits the board and each piece left
# takes a bomb of its own (found by a search over random maps for this test).
@example(header(1, 2, 3, 4) + "2 - 0 1\n- 1 0 1\n2 0 - 2\n")
@example(header(1, 2, 3, 5) + "2 - 2 1 2\n2 1 2 2 -\n1 - 0 2 1\n")
def test_agrees_with_every_order_on_the_readable_rules(text: str) -> None:
    """The search gives the answer of trying every order of targets with the readable blast."""
    game_map = read_map(text)
    state = initial_state(game_map)
    expected = every_order_clears(state, game_map.players * game_map.bombs, {})
    assert bombs_clear_board(game_map, budget=0) is expected


def compact_cells(game_map: Map) -> List[int]:
    """The board indices of the cells that are not holes, in the numbering of the masks."""
    return [index for index, cell in enumerate(game_map.cells) if cell != HOLE]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["wraparound", "torus", "octagon8p", "hexagon6p", "carnival4p"]),
       st.data())
def test_ball_is_the_readable_blast(name: str, data: st.DataObject) -> None:
    """RULES.md 5: the mask search's blast is `blast_cells`, transitions and holes included,
    on boards with holes punched in them as bombs would."""
    game_map = load_map_argument(name)[1]
    cells = compact_cells(game_map)
    holes = data.draw(st.sets(st.integers(0, len(cells) - 1), max_size=len(cells) // 3))
    target = data.draw(st.sampled_from([n for n in range(len(cells)) if n not in holes]))
    strength = data.draw(st.integers(0, 4))
    board = list(game_map.cells)
    for n in holes:
        board[cells[n]] = HOLE
    state = replace(initial_state(replace(game_map, strength=strength)), board=tuple(board))
    within = sum(1 << n for n in range(len(cells)) if n not in holes)
    mask = ball(neighbour_masks(game_map), 1 << target, within, strength)
    width = game_map.width
    expected = {(cells[n] % width, cells[n] // width) for n in range(len(cells)) if mask >> n & 1}
    x, y = cells[target] % width, cells[target] // width
    assert set(blast_cells(state, x, y)) == expected


def test_lint_bomb_budget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`lint --bomb-budget N`: too small a budget gives no warning; 0 means no limit; a
    negative one is a usage error."""
    ring = tmp_path / "ring.map"
    ring.write_text(header(1, 1, 1, 5) + "0 1 2 0 0\n0 0 6 <-> 4 0 2\n")
    assert main(["lint", "--bomb-budget", "1", str(ring)]) == 0
    assert "bombs-clear-board" not in capsys.readouterr().out
    assert main(["lint", "--strict", "--bomb-budget", "0", str(ring)]) == 1
    assert "%s:3:1: warning: every order of the 2 bombs" % ring in capsys.readouterr().out
    with pytest.raises(SystemExit) as caught:
        main(["lint", "--bomb-budget", "-1", str(ring)])
    assert caught.value.code == 2


def test_lint_warns_at_the_bomb_count() -> None:
    """`reversi-ref lint`: the warning points at the header's bomb count."""
    notes = lint_notes(header(1, 1, 1, 4) + "0 1 2 0\n")
    assert [(note.line, note.column, note.kind) for note in notes] == [
        (3, 1, "bombs-clear-board")]
    assert "0 stones" in notes[0].message
    assert lint_notes(header(1, 1, 1, 5) + "0 1 2 0 0\n") == []


def shared_map(name: str) -> Map:
    """A map of ../shared/maps (the test skips without it)."""
    path = SHARED_MAPS / (name + ".map")
    if not path.exists():
        pytest.skip("../shared/maps is not present")
    return read_map(path.read_text())


def test_infinity_is_cleared_whatever_is_played() -> None:
    """`infinity`: 2 bombs of strength 3 each on a 6x10 board that wraps top to bottom; every
    order of the four clears it, so every game there ends 0-0."""
    assert bombs_clear_board(shared_map("initialMaps__infinity")) is True


@pytest.mark.parametrize("name", ["initialMaps__window", "initialMaps__heartExercise3",
                                  "communities", "initialMaps__crown"])
def test_maps_where_stones_can_survive(name: str) -> None:
    """Maps whose bombing phases often end all 0 in our games, though some order of the
    bombs leaves cells standing: their results depend on play."""
    assert bombs_clear_board(shared_map(name)) is False


@pytest.mark.slow
def test_checkerboard_is_cleared_whatever_is_played() -> None:
    """`checkerboard`: 3 bombs of strength 6 for each of 8 players; the search examines about
    180,000 pieces (4-6 minutes) to prove every order clears the board."""
    assert bombs_clear_board(shared_map("initialMaps__checkerboard"), budget=0) is True
