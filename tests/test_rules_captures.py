"""Hand-worked tests of RULES.md 3, capture in direction d: what a line collects and where it
stops.  Every expected board below was worked out by hand from RULES.md."""

from __future__ import annotations

from helpers import board, build, finishes, targets
from reversi_ref import IllegalMoveError, legal_moves, play
from reversi_ref.rules import capture_targets, has_capture
from reversi_ref.state import Move

import pytest


@pytest.mark.parametrize("stopper", ["0", "c", "i", "b"])
def test_line_stops_without_capture_at_a_free_cell(stopper: str) -> None:
    """RULES.md 3: a line stops without a capture at an empty 0, c, i or b cell."""
    # West from (3, 0): a 2, then the free cell; the mover's stone behind it does not count.
    state = build("1 %s 2 0" % stopper)
    assert legal_moves(state) == []
    with pytest.raises(IllegalMoveError):
        play(state, Move(3, 0))


def test_line_collects_expansion_stones() -> None:
    """RULES.md 3: an expansion stone x is collected like another player's stone."""
    state = build("1 x 2 0")
    assert legal_moves(state) == [Move(3, 0, 0)]
    assert play(state, Move(3, 0)).rows() == board("1 1 1 1")


def test_line_stops_without_capture_at_a_hole() -> None:
    """RULES.md 3: a line stops without a capture at a hole."""
    state = build("1 - 2 0")
    assert legal_moves(state) == []


def test_line_stops_without_capture_at_the_edge() -> None:
    """RULES.md 3: a line stops without a capture at the board edge; a stone of the mover
    right next to the target, with nothing collected, does not capture either."""
    state = build("2 2 0 1")
    assert legal_moves(state) == []


def test_line_ends_at_the_first_stone_of_the_mover() -> None:
    """RULES.md 3: the walk always ends at the first stone of the mover."""
    state = build("1 2 1 2 0")
    assert legal_moves(state) == [Move(4, 0, 0)]
    assert play(state, Move(4, 0)).rows() == board("1 2 1 1 1")


def test_line_stops_on_reaching_an_empty_target_again() -> None:
    """RULES.md 3: a line that comes back to the target stops there without a capture."""
    # Both ways round the loop (0,0) -> 2 -> 2 -> (0,0) meet only the target again.
    state = build("""
        0 2 2
        - - 1
    """, transitions=["2 0 2 <-> 0 0 6"])
    assert finishes(lambda: legal_moves(state)) == []


def test_line_never_closes_through_the_target_holding_own_stone() -> None:
    """RULES.md 3: a line never closes through the target, whatever it holds: an override on
    the mover's own stone at (0, 0) reaches (0, 0) again and captures nothing."""
    state = build("1 2 2", overrides=1, transitions=["2 0 2 <-> 0 0 6"])
    # (1, 0) east: 2, then through the transition onto the mover's stone at (0, 0): captures.
    # (2, 0) west: 2, then the mover's stone at (0, 0): captures.
    assert finishes(lambda: legal_moves(state)) == [Move(1, 0, 0), Move(2, 0, 0)]
    with pytest.raises(IllegalMoveError):
        finishes(lambda: play(state, Move(0, 0)))
    # After it, player 2's lines from its targets (all 1s) come back to the target too.
    assert finishes(lambda: play(state, Move(1, 0))).rows() == board("1 1 1")


def test_line_collects_a_disqualified_players_stones() -> None:
    """RULES.md 3: stones of disqualified players are collected too."""
    state = build("1 3 0", players=3, disqualified=[3])
    assert legal_moves(state) == [Move(2, 0, 0)]
    assert play(state, Move(2, 0)).rows() == board("1 1 1")


def test_cell_collected_twice_in_a_loop_still_captures() -> None:
    """RULES.md 3: a cell may be collected twice in one line (a transition loop); the line
    still captures.  East from (0, 1): (1, 1), (2, 1), through the transition onto (1, 2)
    walking north, (1, 1) again, then the mover's stone at (1, 0)."""
    state = build("""
        - 1 -
        0 2 2
        - 2 -
    """, transitions=["2 1 2 <-> 1 2 4"])
    assert legal_moves(state) == [Move(0, 1, 0)]
    assert play(state, Move(0, 1)).rows() == board("""
        - 1 -
        1 1 1
        - 1 -
    """)


def test_capture_through_a_transition_collects_both_ends() -> None:
    """RULES.md 3 with 2: cells on both sides of a transition are collected in one line."""
    state = build("""
        0 2 -
        - - 2
        - 1 -
    """, transitions=["1 0 2 <-> 2 1 0"])
    # East from (0, 0): (1, 0), then onto (2, 1) walking south... (2, 2) is a hole: no capture.
    assert legal_moves(state) == []
    state = build("""
        0 2 -
        - - 2
        - - 1
    """, transitions=["1 0 2 <-> 2 1 0"])
    # Now south of (2, 1) is the mover's stone at (2, 2).
    assert legal_moves(state) == [Move(0, 0, 0)]
    assert play(state, Move(0, 0)).rows() == board("""
        1 1 -
        - - 1
        - - 1
    """)


def test_captures_in_every_direction_at_once() -> None:
    """RULES.md 3: every capturing direction's cells are collected; a direction that does not
    capture (east: runs to the edge; south: ends at an empty cell) is left untouched."""
    state = build("""
        1 0 1 0 1
        0 2 2 2 0
        1 2 0 2 2
        0 2 2 2 0
        1 0 0 0 1
    """)
    assert play(state, Move(2, 2)).rows() == board("""
        1 0 1 0 1
        0 1 1 1 0
        1 1 1 2 2
        0 1 2 1 0
        1 0 0 0 1
    """)


def test_override_target_whose_line_meets_it_again_does_not_capture() -> None:
    """RULES.md 3: an override on another player's stone whose line comes back to it captures
    nothing that way.  (1, 0) east: a 2, the U-turn at the east side, the same 2, then the
    target again; west: the mover's stone at once.  (2, 0) west: a 2, then the mover's stone."""
    state = build("1 2 2", overrides=1, transitions=["2 0 2 <-> 2 0 2"])
    assert finishes(lambda: legal_moves(state)) == [Move(2, 0, 0)]
    assert capture_targets(state, 1) == {(2, 0)}
    with pytest.raises(IllegalMoveError):
        finishes(lambda: play(state, Move(1, 0)))
    assert play(state, Move(2, 0)).rows() == board("1 1 1")


def test_lines_through_a_loop_of_opponent_stones() -> None:
    """RULES.md 3: a row of 2s joined end to end is a loop: lines along it go round and meet
    their target, so the row without a 1 has no target; diagonals and columns leave the board
    after one 2."""
    state = build("""
        1 2 2 2
        2 2 2 2
    """, overrides=1, transitions=["3 0 2 <-> 0 0 6", "3 1 2 <-> 0 1 6"])
    # (2, 0) and (3, 0): west over 2s to the 1.  (1, 0): east 2 2, then round to the 1.
    expected = {(1, 0), (2, 0), (3, 0)}
    assert capture_targets(state, 1) == expected
    assert targets(legal_moves(state)) == sorted(expected, key=lambda c: (c[1], c[0]))


def test_capture_targets_are_the_cells_with_a_capturing_direction() -> None:
    """RULES.md 3: walking lines back from the mover's stones finds exactly the cells from
    which some direction captures (checked cell by cell with `has_capture`) on a position
    with stones of three players, an expansion stone and a transition."""
    state = build("""
        1 2 2 0 3
        2 x 3 2 1
        0 2 1 3 2
        3 - 2 2 0
    """, players=3, overrides=2, transitions=["4 0 0 <-> 0 3 4"])
    for player in (1, 2, 3):
        expected = {(x, y) for y in range(state.height) for x in range(state.width)
                    if state.cell(x, y) != "-" and has_capture(state, player, x, y)}
        assert capture_targets(state, player) == expected, player
