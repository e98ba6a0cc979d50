"""Hand-worked tests of RULES.md 3, legal moves in the building phase: placements, overrides,
the expansion rule, choice, bonus and inversion tiles, holes, and the order of the list."""

from __future__ import annotations

from typing import List

from helpers import board, build
from reversi_ref import IllegalMoveError, legal_moves, play
from reversi_ref.state import Move

import pytest

SPECIAL_TILES = """
    c 2 1
    i 2 1
    b 2 1
    0 2 1
"""


@pytest.mark.parametrize("players", [2, 3, 8])
def test_placements_on_free_and_special_cells(players: int) -> None:
    """RULES.md 3: 0, c, i and b cells are legal when a direction captures; a choice tile gives
    one move per player 1..n, a bonus tile specials 20 and 21, the others special 0; the list is
    sorted by (y, x, special)."""
    state = build(SPECIAL_TILES, players=players)
    expected: List[Move] = [Move(0, 0, p) for p in range(1, players + 1)]
    expected += [Move(0, 1, 0), Move(0, 2, 20), Move(0, 2, 21), Move(0, 3, 0)]
    assert legal_moves(state) == expected


def test_choice_targets_include_disqualified_players() -> None:
    """RULES.md 3 and 6: a disqualified player remains a legal choice target."""
    state = build("c 2 1", players=3, disqualified=[3])
    assert legal_moves(state) == [Move(0, 0, 1), Move(0, 0, 2), Move(0, 0, 3)]


def test_special_cells_need_a_capture() -> None:
    """RULES.md 3: c, i, b and 0 cells are not legal without a capturing direction."""
    state = build("""
        c 0 1
        i 0 1
        b 0 1
        0 0 1
    """)
    assert legal_moves(state) == []


def test_legal_moves_sorted_by_row_then_column() -> None:
    """RULES.md 3 (order, STYLE.md 4): legal moves are sorted by (y, x, special)."""
    state = build("""
        1 2 0 0
        0 2 1 0
    """)
    assert legal_moves(state) == [Move(2, 0, 0), Move(0, 1, 0)]


def test_override_on_own_stone_needs_an_override_in_hand() -> None:
    """RULES.md 3: the mover's own stone is a legal target with an override stone in hand and a
    capturing direction; a stone without a capturing direction is not."""
    assert legal_moves(build("1 2 1", overrides=1)) == [Move(0, 0, 0), Move(2, 0, 0)]
    assert legal_moves(build("1 2 1", overrides=0)) == []


def test_override_on_other_stone_needs_an_override_in_hand() -> None:
    """RULES.md 3: another player's stone is a legal target with an override stone in hand and
    a capturing direction."""
    state = build("1 2 2 1", overrides=1)
    assert legal_moves(state) == [Move(0, 0, 0), Move(1, 0, 0), Move(2, 0, 0), Move(3, 0, 0)]
    assert legal_moves(build("1 2 2 1", overrides=0)) == []


def test_override_counts_only_the_movers_stones_in_hand() -> None:
    """RULES.md 3: it is the mover's override stones that count, not another player's."""
    state = build("1 2 2 1", overrides_per_player=[0, 5])
    assert legal_moves(state) == []
    state = build("1 2 2 1", overrides_per_player=[1, 0])
    assert len(legal_moves(state)) == 4


def test_override_on_a_disqualified_players_stone() -> None:
    """RULES.md 3 and 6: a disqualified player's stone is an ordinary other player's stone."""
    state = build("3 2 1", players=3, overrides=1, disqualified=[3])
    # (1, 0) and (2, 0): their lines run into the edge after collecting; only (0, 0) captures.
    assert legal_moves(state) == [Move(0, 0, 0)]
    assert play(state, Move(0, 0)).rows() == board("1 1 1")


def test_expansion_rule_on_x_without_capture() -> None:
    """RULES.md 3: an x with at least 1 override stone is always legal, capture or not."""
    state = build("x 0 1", overrides=1)
    assert legal_moves(state) == [Move(0, 0, 0)]
    after = play(state, Move(0, 0))
    assert after.rows() == board("1 0 1")
    assert after.overrides == (0, 1)


def test_expansion_stone_needs_an_override_even_with_capture() -> None:
    """RULES.md 3: without an override stone an x is not a legal target, capture or not."""
    state = build("x 2 1", overrides=0)
    assert legal_moves(state) == []
    with pytest.raises(IllegalMoveError):
        play(state, Move(0, 0))


def test_hole_is_never_a_legal_target() -> None:
    """RULES.md 3: a hole is never a legal target, even where a line from it would capture and
    the mover has override stones."""
    state = build("- 2 1", overrides=3)
    assert legal_moves(state) == []
    with pytest.raises(IllegalMoveError):
        play(state, Move(0, 0))


def test_rejects_move_without_capture() -> None:
    """RULES.md 3: a free cell with no capturing direction is an invalid move."""
    state = build("1 2 0 0")
    assert legal_moves(state) == [Move(2, 0, 0)]
    with pytest.raises(IllegalMoveError) as info:
        play(state, Move(3, 0))
    assert info.value.rule


def test_rejects_override_without_override_stones() -> None:
    """RULES.md 3: a move onto a stone without override stones in hand is invalid."""
    state = build("1 2 2 1")
    with pytest.raises(IllegalMoveError) as info:
        play(state, Move(1, 0))
    assert info.value.rule


def test_rejects_stone_without_capture_even_with_overrides() -> None:
    """RULES.md 3: a stone with an override in hand still needs a capturing direction."""
    state = build("1 2 1", overrides=2)
    with pytest.raises(IllegalMoveError):
        play(state, Move(1, 0))


@pytest.mark.parametrize("x, y", [(-1, 0), (0, -1), (3, 0), (0, 4), (65535, 65535)])
def test_rejects_off_board_target(x: int, y: int) -> None:
    """RULES.md 6: off-board coordinates are an invalid move."""
    state = build(SPECIAL_TILES)
    with pytest.raises(IllegalMoveError) as info:
        play(state, Move(x, y))
    assert info.value.rule
