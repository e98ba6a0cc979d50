"""Hand-worked tests of RULES.md 2, walking the board (shown through capture lines and `step`).

Every expected board below was worked out by hand from RULES.md, not produced by the code.
"""

from __future__ import annotations

from helpers import board, build, finishes
from reversi_ref import IllegalMoveError, legal_moves, play
from reversi_ref.rules import step
from reversi_ref.state import Move

import pytest


def test_ordinary_step_goes_to_the_neighbour() -> None:
    """RULES.md 2: without a transition a step goes to the ordinary neighbour (here diagonal)."""
    state = build("""
        1 0 0
        0 2 0
        0 0 0
    """)
    assert legal_moves(state) == [Move(2, 2, 0)]
    assert play(state, Move(2, 2)).rows() == board("""
        1 0 0
        0 1 0
        0 0 1
    """)


def test_step_function_follows_neighbours_and_transitions() -> None:
    """RULES.md 2: `step` lands on the neighbour, or on a transition's far end walking in
    direction (d' + 4) mod 8; at the board edge the walk ends."""
    state = build("""
        0 0 0
        0 0 0
        1 2 2
    """, transitions=["0 0 0 <-> 2 2 2"])
    assert step(state, 1, 1, 0) == (1, 0, 0)
    assert step(state, 1, 1, 3) == (2, 2, 3)
    # Leaving (0, 0) northwards lands on (2, 2) walking west (2 + 4 = 6).
    assert step(state, 0, 0, 0) == (2, 2, 6)
    # And back: leaving (2, 2) eastwards lands on (0, 0) walking south (0 + 4 = 4).
    assert step(state, 2, 2, 2) == (0, 0, 4)
    # No transition on (0, 0)'s west side: the board edge ends the walk.
    assert step(state, 0, 0, 6) is None
    assert step(state, 2, 2, 3) is None


def test_transition_changes_the_direction_of_a_line() -> None:
    """RULES.md 2: after a transition the walk goes on in direction (d' + 4) mod 8."""
    cells = """
        0 0 0
        0 0 0
        1 2 2
    """
    # (0, 0) northwards -> (2, 2) walking west: 2, 2, then the mover's stone at (0, 2).
    state = build(cells, transitions=["0 0 0 <-> 2 2 2"])
    assert legal_moves(state) == [Move(0, 0, 0)]
    assert play(state, Move(0, 0)).rows() == board("""
        1 0 0
        0 0 0
        1 1 1
    """)


def test_without_transition_the_edge_ends_the_walk() -> None:
    """RULES.md 2: the walk ends at the board edge (same position as above, no transition)."""
    state = build("""
        0 0 0
        0 0 0
        1 2 2
    """)
    assert legal_moves(state) == []
    with pytest.raises(IllegalMoveError):
        play(state, Move(0, 0))


def test_side_joined_to_itself_is_a_u_turn() -> None:
    """RULES.md 2: a side joined to itself lands on the cell itself, walking the opposite way."""
    state = build("""
        2 2 0 1
        1 2 0 0
    """, transitions=["0 0 6 <-> 0 0 6"])
    assert step(state, 0, 0, 6) == (0, 0, 2)


def test_u_turn_line_retraces_its_path_and_never_captures() -> None:
    """RULES.md 2: a line walked through a U-turn comes back to where it started and never
    captures: from (2, 0) west the walk meets 2, 2, turns, and comes back to the target."""
    state = build("""
        2 2 0 1
        1 2 0 0
    """, transitions=["0 0 6 <-> 0 0 6"])
    assert finishes(lambda: legal_moves(state)) == [Move(2, 1, 0)]
    with pytest.raises(IllegalMoveError):
        play(state, Move(2, 0))


def test_transition_jumps_a_hole() -> None:
    """RULES.md 2: a transition on a side facing a hole is followed, so it jumps the hole."""
    state = build("0 2 - 2 1", transitions=["1 0 2 <-> 3 0 6"])
    assert legal_moves(state) == [Move(0, 0, 0)]
    assert play(state, Move(0, 0)).rows() == board("1 1 - 1 1")


def test_hole_ends_the_walk() -> None:
    """RULES.md 2: the walk ends on a hole (no transition to jump it)."""
    state = build("0 2 - 2 1")
    assert legal_moves(state) == []
    with pytest.raises(IllegalMoveError):
        play(state, Move(0, 0))


def test_chain_of_transitions_is_followed() -> None:
    """RULES.md 2: a walk may pass through several transitions one after the other."""
    state = build("0 2 - 2 - 2 1", transitions=["1 0 2 <-> 3 0 6", "3 0 2 <-> 5 0 6"])
    assert legal_moves(state) == [Move(0, 0, 0)]
    assert play(state, Move(0, 0)).rows() == board("1 1 - 1 - 1 1")


def test_chain_of_transitions_turning_twice() -> None:
    """RULES.md 2: east from (1, 0) lands on (2, 1) walking south; south from (2, 1) lands on
    (1, 2) walking west; two sides of one cell both carry transitions."""
    state = build("""
        0 2 -
        - - 2
        1 2 -
    """, transitions=["1 0 2 <-> 2 1 0", "2 1 4 <-> 1 2 2"])
    assert step(state, 1, 0, 2) == (2, 1, 4)
    assert step(state, 2, 1, 4) == (1, 2, 6)
    assert legal_moves(state) == [Move(0, 0, 0)]
    assert play(state, Move(0, 0)).rows() == board("""
        1 1 -
        - - 1
        1 1 -
    """)


def test_walk_around_a_loop_ends_at_the_target() -> None:
    """RULES.md 2: every walk ends, also around a loop of transitions (it comes back to the
    target); no line here captures."""
    state = build("""
        0 2 2
        - - 1
    """, transitions=["2 0 2 <-> 0 0 6"])
    assert step(state, 2, 0, 2) == (0, 0, 2)
    assert finishes(lambda: legal_moves(state)) == []
