"""Hand-worked tests of RULES.md 7, scores and ranking."""

from __future__ import annotations

from helpers import make_state
from reversi_ref import ranking, scores
from reversi_ref.rules import printed_scores, seat_stones

FOUR_PLAYERS = """
    1 1 1 1 1
    2 2 2 3 3
    3 4 0 - x
"""


def test_score_is_the_number_of_stones() -> None:
    """RULES.md 7: a player's score is the number of its stones on the board."""
    state = make_state(FOUR_PLAYERS, players=4)
    assert scores(state) == {1: 5, 2: 3, 3: 3, 4: 1}


def test_ranking_best_first_ties_share_a_rank() -> None:
    """RULES.md 7: ranked by score, best first, equal scores sharing a rank (1, 2, 2, 4)."""
    standings = ranking(make_state(FOUR_PLAYERS, players=4))
    assert [(s.rank, s.score) for s in standings] == [(1, 5), (2, 3), (2, 3), (4, 1)]
    assert [s.player for s in standings][0] == 1
    assert {s.player for s in standings[1:3]} == {2, 3}
    assert standings[3].player == 4


def test_disqualified_players_get_no_rank() -> None:
    """RULES.md 7: disqualified players get no score and no rank."""
    standings = ranking(make_state(FOUR_PLAYERS, players=4, disqualified=[1]))
    assert [(s.rank, s.score) for s in standings] == [(1, 3), (1, 3), (3, 1)]
    assert {s.player for s in standings[:2]} == {2, 3}
    assert 1 not in {s.player for s in standings}


def test_player_without_stones_is_ranked_with_zero() -> None:
    """RULES.md 7: a player still in the game with no stones scores 0 and is ranked last."""
    standings = ranking(make_state("1 1 2 0", players=3))
    assert [(s.rank, s.player, s.score) for s in standings] == [(1, 1, 2), (2, 2, 1), (3, 3, 0)]


def test_all_equal_scores_share_first_rank() -> None:
    """RULES.md 7: equal scores share a rank."""
    standings = ranking(make_state("1 2 3 0", players=3))
    assert [(s.rank, s.score) for s in standings] == [(1, 1), (1, 1), (1, 1)]
    assert sorted(s.player for s in standings) == [1, 2, 3]


def test_seat_stones_count_a_disqualified_players_stones() -> None:
    """RULES.md 6-7: stones in seat order; a disqualified player's stones stay on the board."""
    state = make_state(FOUR_PLAYERS, players=4, disqualified=[2])
    assert seat_stones(state) == [5, 3, 3, 1]


def test_printed_scores_name_the_disqualified() -> None:
    """RULES.md 8: the server prints stones per player, or "disqualified" instead."""
    state = make_state(FOUR_PLAYERS, players=4, disqualified=[2])
    assert printed_scores(state) == {"1": 5, "2": "disqualified", "3": 3, "4": 1}
    assert printed_scores(make_state("1 1 2 0", players=3)) == {"1": 2, "2": 1, "3": 0}
