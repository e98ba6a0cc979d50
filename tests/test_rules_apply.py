"""Hand-worked tests of RULES.md 3, the effect of a building move: captures, the new stone,
override cost, the choice, inversion and bonus effects, 8-bit counts, and special byte
validity.  Every expected board below was worked out by hand from RULES.md."""

from __future__ import annotations

from helpers import board, build
from reversi_ref import IllegalMoveError, legal_moves, play
from reversi_ref.state import Move

import pytest


def test_placement_turns_target_and_captured_cells_only() -> None:
    """RULES.md 3: collected cells of capturing directions and the target become the mover's;
    the non-capturing direction east of the target is untouched."""
    state = build("1 2 0 2 0 2 1")
    after = play(state, Move(2, 0))
    assert after.rows() == board("1 1 1 2 0 2 1")


def test_placement_on_free_cell_costs_nothing() -> None:
    """RULES.md 3: only a move onto a stone or x costs an override stone."""
    state = build("1 2 0", overrides=1)
    after = play(state, Move(2, 0))
    assert after.rows() == board("1 1 1")
    assert after.overrides == (1, 1)


def test_override_on_other_stone_costs_one() -> None:
    """RULES.md 3: a move onto another player's stone costs exactly 1 override stone, however
    much it captures."""
    state = build("1 2 2 2 1", overrides_per_player=[2, 7])
    after = play(state, Move(1, 0))
    assert after.rows() == board("1 1 1 1 1")
    assert after.overrides == (1, 7)


def test_override_on_own_stone_costs_one() -> None:
    """RULES.md 3: a move onto the mover's own stone costs exactly 1 override stone."""
    state = build("1 2 1", overrides=1)
    after = play(state, Move(0, 0))
    assert after.rows() == board("1 1 1")
    assert after.overrides == (0, 1)


def test_override_on_expansion_stone_captures_and_costs_one() -> None:
    """RULES.md 3: a move onto an x captures like any move and costs 1 override stone."""
    state = build("x 2 1", overrides=3)
    after = play(state, Move(0, 0))
    assert after.rows() == board("1 1 1")
    assert after.overrides == (2, 3)


def test_choice_swaps_all_stones_including_the_new_one() -> None:
    """RULES.md 3: after capturing, the mover's and the named player's stones swap owners on the
    whole board, the new stone included; counts in hand do not move."""
    state = build("""
        c 2 1
        2 0 0
    """, overrides_per_player=[3, 5], bombs_per_player=[1, 2])
    after = play(state, Move(0, 0, 2))
    # Capture: 1 1 1 / 2 0 0; then 1 <-> 2.
    assert after.rows() == board("""
        2 2 2
        1 0 0
    """)
    assert after.overrides == (3, 5)
    assert after.bombs == (1, 2)


def test_choice_naming_yourself_swaps_nothing() -> None:
    """RULES.md 3: naming yourself on a choice tile is legal and swaps nothing."""
    state = build("""
        c 2 1
        2 0 0
    """)
    assert Move(0, 0, 1) in legal_moves(state)
    assert play(state, Move(0, 0, 1)).rows() == board("""
        1 1 1
        2 0 0
    """)


def test_choice_naming_a_third_player_leaves_others_alone() -> None:
    """RULES.md 3: only the mover's and the named player's stones swap."""
    state = build("""
        c 2 1
        3 0 2
    """, players=3)
    assert play(state, Move(0, 0, 3)).rows() == board("""
        3 3 3
        1 0 2
    """)


def test_choice_naming_a_disqualified_player_swaps() -> None:
    """RULES.md 3 and 6: naming a disqualified player is legal and swaps."""
    state = build("""
        c 2 1
        3 0 2
    """, players=3, disqualified=[3])
    assert play(state, Move(0, 0, 3)).rows() == board("""
        3 3 3
        1 0 2
    """)


def test_inversion_rotates_every_player_including_disqualified_and_new_stone() -> None:
    """RULES.md 3: on i, every stone of player k becomes (k mod n) + 1, for all k in 1..n,
    disqualified players and the new stone included."""
    state = build("""
        i 2 1 4
        3 0 0 0
    """, players=4, disqualified=[3])
    # Capture: 1 1 1 4 / 3 0 0 0; then 1->2, 2->3, 3->4, 4->1.
    assert play(state, Move(0, 0)).rows() == board("""
        2 2 2 1
        4 0 0 0
    """)


def test_inversion_with_two_players_swaps_colours() -> None:
    """RULES.md 3: with n = 2 the inversion turns 1 into 2 and 2 into 1."""
    state = build("""
        i 2 1
        2 0 0
    """)
    assert play(state, Move(0, 0)).rows() == board("""
        2 2 2
        1 0 0
    """)


def test_bonus_bomb_adds_one_bomb() -> None:
    """RULES.md 3: a bonus tile with special 20 gives the mover +1 bomb."""
    state = build("b 2 1", bombs_per_player=[4, 4], overrides_per_player=[2, 2])
    after = play(state, Move(0, 0, 20))
    assert after.rows() == board("1 1 1")
    assert after.bombs == (5, 4)
    assert after.overrides == (2, 2)


def test_bonus_override_adds_one_override() -> None:
    """RULES.md 3: a bonus tile with special 21 gives the mover +1 override stone."""
    state = build("b 2 1", bombs_per_player=[4, 4], overrides_per_player=[2, 2])
    after = play(state, Move(0, 0, 21))
    assert after.rows() == board("1 1 1")
    assert after.bombs == (4, 4)
    assert after.overrides == (3, 2)


def test_bonus_counts_wrap_at_eight_bits() -> None:
    """RULES.md 3: counts stay 8-bit: 255 + 1 = 0."""
    state = build("b 2 1", overrides=255, bombs=255)
    assert state.overrides == (255, 255)
    after = play(state, Move(0, 0, 21))
    assert after.overrides == (0, 255)
    assert after.bombs == (255, 255)
    after = play(state, Move(0, 0, 20))
    assert after.bombs == (0, 255)
    assert after.overrides == (255, 255)


def test_special_tile_is_used_up() -> None:
    """RULES.md 3: a used special tile is gone: the target holds the mover's stone after."""
    state = build("b 2 1 0 2 b")
    after = play(state, Move(0, 0, 21))
    assert after.rows() == board("1 1 1 0 2 b")


BAD_SPECIALS = [
    # (x, y, special) on the board below: c at (0,0), i at (0,1), b at (0,2), 0 at (0,3).
    (0, 0, 0), (0, 0, 3), (0, 0, 9), (0, 0, 20), (0, 0, 255),
    (0, 1, 1), (0, 1, 2), (0, 1, 20), (0, 1, 21),
    (0, 2, 0), (0, 2, 1), (0, 2, 19), (0, 2, 22),
    (0, 3, 1), (0, 3, 20), (0, 3, 21),
]


@pytest.mark.parametrize("x, y, special", BAD_SPECIALS)
def test_rejects_bad_special_byte(x: int, y: int, special: int) -> None:
    """RULES.md 3: on c the special byte must be 1..n, on b 20 or 21, everywhere else 0."""
    state = build("""
        c 2 1
        i 2 1
        b 2 1
        0 2 1
    """)
    with pytest.raises(IllegalMoveError) as info:
        play(state, Move(x, y, special))
    assert info.value.rule


@pytest.mark.parametrize("special", [1, 2, 20, 21])
def test_rejects_special_byte_on_override_moves(special: int) -> None:
    """RULES.md 3: on override moves (stone or x) the special byte must be 0."""
    state = build("1 2 x 1", overrides=2)
    assert Move(0, 0, 0) in legal_moves(state)
    assert Move(2, 0, 0) in legal_moves(state)
    with pytest.raises(IllegalMoveError):
        play(state, Move(0, 0, special))
    with pytest.raises(IllegalMoveError):
        play(state, Move(2, 0, special))


def test_rejected_move_leaves_the_state_alone() -> None:
    """RULES.md 3: an invalid move raises and the state it was tried on is unchanged."""
    state = build("b 2 1")
    rows = state.rows()
    with pytest.raises(IllegalMoveError):
        play(state, Move(0, 0, 0))
    assert state.rows() == rows
