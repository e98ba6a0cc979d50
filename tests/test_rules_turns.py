"""Hand-worked tests of RULES.md 4, turn order and the end of phase 1."""

from __future__ import annotations

from helpers import board, build, make_state, map_text
from reversi_ref import disqualify, legal_moves, parse_map, play
from reversi_ref.state import Move

# Three lanes separated by holes: player 1 can move only in the top lane, player 2 only in the
# middle one, player 3 only in the bottom one; each lane is closed by its one move.
LANES = """
    1 2 0
    - - -
    2 3 0
    - - -
    3 1 0
"""


def test_player_one_moves_first() -> None:
    """RULES.md 4: player 1 moves first."""
    state = parse_map(map_text(LANES, players=3))
    assert state.phase == "build"
    assert state.to_move == 1


def test_turns_go_round_in_cyclic_order() -> None:
    """RULES.md 4: after each turn the next player is tried in the cyclic order p+1, ..., n."""
    state = parse_map(map_text(LANES, players=3))
    state = play(state, Move(2, 0))
    assert state.to_move == 2
    state = play(state, Move(2, 2))
    assert state.to_move == 3
    state = play(state, Move(2, 4))
    assert state.rows() == board("""
        1 1 1
        - - -
        2 2 2
        - - -
        3 3 3
    """)


def test_phase_one_ends_in_game_over_without_bombs() -> None:
    """RULES.md 4: phase 1 ends when no player can move; without bombs the game is over."""
    state = parse_map(map_text(LANES, players=3))
    for move in (Move(2, 0), Move(2, 2), Move(2, 4)):
        state = play(state, move)
    assert state.phase == "over"
    assert state.to_move is None
    assert legal_moves(state) == []


def test_phase_one_ends_in_bombing_phase_with_bombs() -> None:
    """RULES.md 4 and 5: phase 2 starts if anyone still in the game has a bomb; the order goes
    on after the last mover (3), so player 1 bombs first."""
    state = parse_map(map_text(LANES, players=3, bombs=1))
    for move in (Move(2, 0), Move(2, 2), Move(2, 4)):
        state = play(state, move)
    assert state.phase == "bomb"
    assert state.to_move == 1


def test_no_bombing_phase_when_only_disqualified_players_have_bombs() -> None:
    """RULES.md 4: phase 2 starts only if someone still in the game has a bomb."""
    state = build(LANES, players=3, to_move=1, bombs_per_player=[0, 0, 3],
                  disqualified=[3])
    state = play(state, Move(2, 0))
    assert state.to_move == 2
    state = play(state, Move(2, 2))
    # Player 3 (disqualified) is skipped; lane 3 is open only to player 3: phase 1 is over.
    assert state.phase == "over"
    assert state.to_move is None


def test_player_without_a_move_is_skipped() -> None:
    """RULES.md 4: a player with no legal move is skipped."""
    state = parse_map(map_text("""
        1 2 0
        - - -
        3 1 0
    """, players=3))
    assert state.to_move == 1
    state = play(state, Move(2, 0))
    # Player 2 has no stone left; player 3 can take the bottom lane.
    assert state.to_move == 3


def test_player_moves_several_times_in_a_row() -> None:
    """RULES.md 4: the player just asked is the last candidate, so it may move again when
    nobody else can."""
    state = parse_map(map_text("1 2 0 2 0"))
    assert state.to_move == 1
    state = play(state, Move(2, 0))
    assert state.rows() == board("1 1 1 2 0")
    assert state.to_move == 1
    state = play(state, Move(4, 0))
    assert state.rows() == board("1 1 1 1 1")
    assert state.phase == "over"


def test_mover_is_last_candidate_after_wrapping_round() -> None:
    """RULES.md 4: after player 2, players 3 and 1 are tried before 2 itself."""
    state = build("2 1 0 1 0", players=3, to_move=2)
    state = play(state, Move(2, 0))
    assert state.rows() == board("2 2 2 1 0")
    # Player 3 has no stone, player 1's only line from (4, 0) ends on its own stone at once.
    assert state.to_move == 2


def test_order_wraps_from_last_player_to_first() -> None:
    """RULES.md 4: after player n comes player 1."""
    state = build(LANES, players=3, to_move=3)
    state = play(state, Move(2, 4))
    assert state.to_move == 1


def test_player_one_without_move_at_start_is_skipped() -> None:
    """RULES.md 4: if player 1 has no legal move at the start, the next player who can move
    starts."""
    state = parse_map(map_text("2 1 0"))
    assert state.phase == "build"
    assert state.to_move == 2
    state = parse_map(map_text("3 2 0", players=3))
    assert state.to_move == 3


def test_override_moves_count_as_moves() -> None:
    """RULES.md 4: override moves count when looking for a player who can move."""
    state = parse_map(map_text("1 2 1", overrides=1))
    assert state.to_move == 1
    assert legal_moves(state) == [Move(0, 0, 0), Move(2, 0, 0)]
    state = parse_map(map_text("1 2 1", overrides=0))
    assert state.phase == "over"


def test_nobody_can_move_at_start_with_bombs() -> None:
    """RULES.md 4: if nobody can move at the very start and there are bombs, the game starts in
    phase 2 with player 1."""
    state = parse_map(map_text("1 2", bombs=1, strength=1))
    assert state.phase == "bomb"
    assert state.to_move == 1


def test_nobody_can_move_at_start_without_bombs() -> None:
    """RULES.md 4: if nobody can move at the very start and there are no bombs, the game is
    over before it starts."""
    state = parse_map(map_text("1 2", bombs=0))
    assert state.phase == "over"
    assert state.to_move is None
    assert legal_moves(state) == []


def test_next_player_after_the_movers_disqualification() -> None:
    """RULES.md 4: the order after a turn that ended in the mover's disqualification goes on
    after the disqualified mover."""
    state = build(LANES, players=3, to_move=2)
    state = disqualify(state, 2)
    assert state.to_move == 3
    assert 2 in state.disqualified
    state = build(LANES, players=3, to_move=3)
    state = disqualify(state, 3)
    assert state.to_move == 1


def test_disqualification_skips_players_without_moves() -> None:
    """RULES.md 4: after a disqualification players with no legal move are skipped too."""
    state = make_state("""
        1 2 0
        - - -
        3 1 0
    """, players=3, to_move=1, phase="build")
    # Player 2 can move nowhere (its only line from (2, 0) ends on its own stone at once).
    state = disqualify(state, 1)
    assert state.to_move == 3
