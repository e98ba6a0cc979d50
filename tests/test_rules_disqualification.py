"""Hand-worked tests of RULES.md 6, disqualification."""

from __future__ import annotations

from helpers import board, build, map_text
from reversi_ref import disqualify, legal_moves, parse_map, play, ranking
from reversi_ref.state import Move

# Three lanes separated by holes; in each lane one player can close it with one move.
LANES = """
    1 2 0
    - - -
    2 3 0
    - - -
    3 1 0
"""


def test_disqualified_players_stones_stay_on_the_board() -> None:
    """RULES.md 6: a disqualified player's stones stay on the board."""
    state = parse_map(map_text(LANES, players=3))
    after = disqualify(state, 1)
    assert after.rows() == state.rows()
    assert after.disqualified == frozenset({1})


def test_disqualified_player_is_never_asked_again() -> None:
    """RULES.md 6: the player is never asked again, even where it could move (2 at (2, 2))."""
    state = build(LANES, players=3, to_move=2)
    state = disqualify(state, 2)
    assert state.to_move == 3
    state = play(state, Move(2, 4))
    assert state.to_move == 1
    state = play(state, Move(2, 0))
    assert state.rows() == board("""
        1 1 1
        - - -
        2 3 0
        - - -
        3 3 3
    """)
    assert state.phase == "over"
    assert state.to_move is None


def test_disqualified_players_stones_remain_capturable() -> None:
    """RULES.md 6: its stones stay as ordinary other-player stones: capturable."""
    state = build("""
        1 2 0
        - - -
        3 1 0
    """, players=3, to_move=1)
    state = disqualify(state, 1)
    assert state.to_move == 3
    assert legal_moves(state) == [Move(2, 2, 0)]
    state = play(state, Move(2, 2))
    assert state.rows() == board("""
        1 2 0
        - - -
        3 3 3
    """)


def test_disqualified_player_is_swapped_by_choice_and_rotated_by_inversion() -> None:
    """RULES.md 6: its stones are swapped by choice and rotated by inversion."""
    state = build("c 3 1 i 3 1", players=3, disqualified=[3])
    # West from (3, 0): 1 at (2, 0) ends it at once; east: 3, then 1 at (5, 0).  Then the
    # inversion: 1 -> 2, 2 -> 3, 3 -> 1, the disqualified player's stone at (1, 0) included.
    after = play(state, Move(3, 0))
    assert after.rows() == board("c 1 2 2 2 2")
    # Capture east from (0, 0): 1 1 1 i 3 1; then 1 <-> 3, the named player disqualified.
    after = play(state, Move(0, 0, 3))
    assert after.rows() == board("3 3 3 i 1 3")


def test_only_one_player_left_ends_the_game_at_once() -> None:
    """RULES.md 6: if only one player is left, the game ends at once, without bombing."""
    state = parse_map(map_text("1 2 0", bombs=3, strength=1))
    assert state.phase == "build"
    after = disqualify(state, 1)
    assert after.phase == "over"
    assert after.to_move is None
    assert legal_moves(after) == []
    assert ranking(after) == [(1, 2, 1)]


def test_game_goes_on_while_two_players_are_left() -> None:
    """RULES.md 6: with two players still in, the game goes on; the last disqualification but
    one ends it."""
    state = parse_map(map_text(LANES, players=3, bombs=1))
    state = disqualify(state, 1)
    assert state.phase == "build"
    assert state.to_move == 2
    state = disqualify(state, 2)
    assert state.phase == "over"
    assert state.to_move is None
    assert [s.player for s in ranking(state)] == [3]


def test_disqualification_in_the_bombing_phase() -> None:
    """RULES.md 6: a disqualification in phase 2 also passes the turn on, and one survivor
    ends the game."""
    state = parse_map(map_text("1 2 3", players=3, bombs=2))
    assert (state.phase, state.to_move) == ("bomb", 1)
    state = disqualify(state, 1)
    assert (state.phase, state.to_move) == ("bomb", 2)
    state = disqualify(state, 2)
    assert (state.phase, state.to_move) == ("over", None)
