"""Hand-worked tests of RULES.md 5, the bombing phase: turn order, targets, the blast and the
end of the game.  Every expected board below was worked out by hand from RULES.md."""

from __future__ import annotations

from helpers import board, bombing, map_text, with_board
from reversi_ref import IllegalMoveError, disqualify, legal_moves, parse_map, play
from reversi_ref.state import Move

import pytest

OPEN_7X7 = """
    0 0 0 0 0 0 0
    0 0 0 0 0 0 0
    0 0 0 0 0 0 0
    0 0 0 0 0 0 0
    0 0 0 0 0 0 0
    0 0 0 0 0 0 0
    0 0 0 0 0 0 0
"""

# Player 1 cannot move at the start; player 2 makes the only phase-1 move at (2, 0).
LAST_MOVER_IS_TWO = """
    2 1 0
    - - 3
"""


def test_bombing_order_continues_after_last_phase_one_mover() -> None:
    """RULES.md 5: the order continues the cyclic order after the player of the last phase-1
    turn (here 2, so 3 bombs first)."""
    state = parse_map(map_text(LAST_MOVER_IS_TWO, players=3, bombs=1))
    assert state.to_move == 2
    state = play(state, Move(2, 0))
    assert state.rows() == board("""
        2 2 2
        - - 3
    """)
    assert state.phase == "bomb"
    assert state.to_move == 3


def test_bombing_order_continues_after_rejected_last_turn() -> None:
    """RULES.md 5: the order continues after the last phase-1 turn even if it was rejected."""
    state = parse_map(map_text(LAST_MOVER_IS_TWO, players=3, bombs=1))
    state = disqualify(state, 2)
    assert state.phase == "bomb"
    assert state.to_move == 3


def test_players_without_bombs_are_skipped() -> None:
    """RULES.md 5: players who have no bomb are skipped; the game ends when nobody still in the
    game has a bomb."""
    state = bombing("""
        1 2 3
        0 0 0
        0 0 0
    """, players=3, bombs_per_player=[2, 0, 1])
    state = play(state, Move(0, 2))
    assert (state.to_move, state.bombs) == (3, (1, 0, 1))
    state = play(state, Move(1, 2))
    assert (state.to_move, state.bombs) == (1, (1, 0, 0))
    state = play(state, Move(2, 2))
    assert state.bombs == (0, 0, 0)
    assert state.phase == "over"
    assert state.to_move is None
    assert state.rows() == board("""
        1 2 3
        0 0 0
        - - -
    """)


def test_disqualified_players_are_skipped() -> None:
    """RULES.md 5: disqualified players are skipped in the bombing order."""
    state = bombing("1 2 3 0", players=3, bombs=1, disqualified=[2])
    state = play(state, Move(3, 0))
    assert state.to_move == 3


def test_player_without_stones_still_bombs() -> None:
    """RULES.md 5: a player with no stones still bombs."""
    state = bombing("1 0 0", bombs=1)
    state = play(state, Move(2, 0))
    assert state.to_move == 2
    assert legal_moves(state) == [Move(0, 0, 0), Move(1, 0, 0)]


def test_player_bombs_several_times_in_a_row() -> None:
    """RULES.md 5: a player may bomb several times in a row when nobody else has a bomb."""
    state = bombing("1 2 0 0", bombs_per_player=[2, 0])
    state = play(state, Move(3, 0))
    assert state.to_move == 1
    state = play(state, Move(2, 0))
    assert state.rows() == board("1 2 - -")
    assert state.phase == "over"


def test_bomb_targets_every_non_hole_cell() -> None:
    """RULES.md 5: a target is any cell that is not a hole: empty, special, x, any stone."""
    state = bombing("""
        1 - c
        x 0 2
        i b -
    """)
    assert legal_moves(state) == [
        Move(0, 0, 0), Move(2, 0, 0), Move(0, 1, 0), Move(1, 1, 0), Move(2, 1, 0),
        Move(0, 2, 0), Move(1, 2, 0),
    ]
    for move in legal_moves(state):
        after = play(state, move)
        assert after.cell(move.x, move.y) == "-"


@pytest.mark.parametrize("x, y", [(1, 0), (2, 2), (-1, 0), (3, 0), (0, 3), (300, 300)])
def test_rejects_bomb_on_hole_or_off_board(x: int, y: int) -> None:
    """RULES.md 5: a hole or off-board target is an invalid move."""
    state = bombing("""
        1 - c
        x 0 2
        i b -
    """)
    with pytest.raises(IllegalMoveError) as info:
        play(state, Move(x, y))
    assert info.value.rule


def test_bomb_tolerates_a_special_byte() -> None:
    """RULES.md 5: a non-zero special byte on a bomb is tolerated."""
    state = bombing("1 2 0 0", strength=1)
    plain = play(state, Move(0, 0, 0))
    for special in (1, 5, 20, 21, 255):
        after = play(state, Move(0, 0, special))
        assert after.rows() == plain.rows() == board("- - 0 0")
        assert after.bombs == plain.bombs


def test_strength_zero_destroys_the_target_only() -> None:
    """RULES.md 5: strength 0 destroys the target only."""
    state = bombing("""
        0 1 0
        2 0 2
        0 1 0
    """, strength=0)
    assert play(state, Move(1, 1)).rows() == board("""
        0 1 0
        2 - 2
        0 1 0
    """)


def test_open_board_blast_is_a_square() -> None:
    """RULES.md 5: on an open board strength k removes the (2k+1) x (2k+1) square around the
    target (the blast is a breadth-first search: every cell within k steps)."""
    state = bombing(OPEN_7X7, strength=2)
    assert play(state, Move(3, 3)).rows() == board("""
        0 0 0 0 0 0 0
        0 - - - - - 0
        0 - - - - - 0
        0 - - - - - 0
        0 - - - - - 0
        0 - - - - - 0
        0 0 0 0 0 0 0
    """)
    state = bombing(OPEN_7X7, strength=1)
    assert play(state, Move(1, 5)).rows() == board("""
        0 0 0 0 0 0 0
        0 0 0 0 0 0 0
        0 0 0 0 0 0 0
        0 0 0 0 0 0 0
        - - - 0 0 0 0
        - - - 0 0 0 0
        - - - 0 0 0 0
    """)


def test_blast_clipped_at_the_edge() -> None:
    """RULES.md 5: near the edge the square is cut off by the board edge."""
    state = bombing(OPEN_7X7, strength=3)
    assert play(state, Move(6, 0)).rows() == board("""
        0 0 0 - - - -
        0 0 0 - - - -
        0 0 0 - - - -
        0 0 0 - - - -
        0 0 0 0 0 0 0
        0 0 0 0 0 0 0
        0 0 0 0 0 0 0
    """)


def test_blast_goes_through_transitions() -> None:
    """RULES.md 5: from a reached cell a step also goes through a transition on its sides."""
    state = bombing("0 0 0 0 0", strength=1, transitions=["0 0 6 <-> 4 0 2"])
    assert play(state, Move(0, 0)).rows() == board("- - 0 0 -")


def test_blast_counts_steps_by_the_shortest_way() -> None:
    """RULES.md 5: a cell is destroyed when it is reached in at most `strength` steps, the
    shortest way counting (here through a transition from (0, 0) north onto (5, 0))."""
    state = bombing("0 0 0 0 0 0 0 0", strength=2, transitions=["0 0 0 <-> 5 0 0"])
    # Step 1: (1, 0), (5, 0); step 2: (2, 0), (4, 0), (6, 0).
    assert play(state, Move(0, 0)).rows() == board("- - - 0 - - - 0")


def test_blast_never_enters_a_hole() -> None:
    """RULES.md 5: a step never enters a hole, so the blast does not jump it."""
    state = bombing("0 0 - 0 0", strength=2)
    assert play(state, Move(1, 0)).rows() == board("- - - 0 0")


def test_wall_of_holes_shields_what_is_behind_it() -> None:
    """RULES.md 5: a wall of holes shields what is behind it."""
    state = bombing("""
        0 0 - 0
        0 0 - 0
        0 0 - 0
    """, strength=3)
    assert play(state, Move(0, 1)).rows() == board("""
        - - - 0
        - - - 0
        - - - 0
    """)


def test_blast_never_enters_a_transitions_far_end_that_is_a_hole() -> None:
    """RULES.md 5: a step never enters a hole, also when a transition's far end has become a
    hole; the blast does not continue beyond it."""
    state = bombing("0 0 0 0 0 0", strength=2, transitions=["0 0 6 <-> 5 0 2"])
    state = with_board(state, "0 0 0 0 0 -")
    # Ordinary steps reach (1, 0) and (2, 0); the transition leads onto the hole (5, 0) only.
    assert play(state, Move(0, 0)).rows() == board("- - - 0 0 -")


def test_blast_uses_the_board_before_this_bomb() -> None:
    """RULES.md 5: the search runs on the board as it is before this bomb (cells destroyed by
    this bomb still carry the blast on)."""
    state = bombing("""
        0 0 0 0 0
        0 0 0 0 0
        0 0 0 0 0
    """, strength=2)
    assert play(state, Move(0, 0)).rows() == board("""
        - - - 0 0
        - - - 0 0
        - - - 0 0
    """)


def test_bomb_costs_one() -> None:
    """RULES.md 5: each bomb costs 1."""
    state = bombing("1 2 0 0", bombs_per_player=[3, 2])
    after = play(state, Move(3, 0))
    assert after.bombs == (2, 2)
    assert after.to_move == 2


def test_game_ends_when_no_non_hole_cell_is_left() -> None:
    """RULES.md 5: the game ends when no non-hole cell is left, even with bombs in hand."""
    state = parse_map(map_text("1 2", bombs=5, strength=1))
    assert state.phase == "bomb"
    after = play(state, Move(0, 0))
    assert after.rows() == board("- -")
    assert after.phase == "over"
    assert after.to_move is None
    assert legal_moves(after) == []


def test_bombs_never_capture() -> None:
    """RULES.md 5: a bomb only makes holes; stones outside the blast keep their owners."""
    state = bombing("1 2 2 0 1", strength=0)
    assert play(state, Move(3, 0)).rows() == board("1 2 2 - 1")
