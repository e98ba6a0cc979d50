"""RULES.md 7: scores and ranking.

Rules text: docs/rules.md#7-scores-and-ranking.
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Union

from ..state import GameState


class Standing(NamedTuple):
    """One line of a ranking: rank (ties share one), player and score."""

    rank: int
    player: int
    score: int


def scores(state: GameState) -> Dict[int, int]:
    """RULES.md 7: the number of stones each player 1..n has on the board."""
    counts = {player: 0 for player in range(1, state.players + 1)}
    for cell in state.board:
        if cell.isdigit() and cell != "0":
            counts[int(cell)] += 1
    return counts


def seat_stones(state: GameState) -> List[int]:
    """RULES.md 7: every player's stones in seat order (index 0 is player 1); a disqualified
    player's stones are counted too, since they stay on the board (RULES.md 6)."""
    counts = scores(state)
    return [counts[player] for player in range(1, state.players + 1)]


def printed_scores(state: GameState) -> Dict[str, Union[int, str]]:
    """RULES.md 8: the scores as the server prints them at the end of each phase: each
    player's stones, or "disqualified", keyed by the player's number as text."""
    counts = scores(state)
    return {str(player): ("disqualified" if player in state.disqualified else counts[player])
            for player in range(1, state.players + 1)}


def ranking(state: GameState) -> List[Standing]:
    """RULES.md 7: players still in the game by score, best first; equal scores share a rank
    (1, 2, 2, 4); disqualified players get no rank."""
    counts = scores(state)
    ordered = sorted(state.active_players(), key=lambda p: (-counts[p], p))
    standings: List[Standing] = []
    for position, player in enumerate(ordered):
        tied = standings and standings[-1].score == counts[player]
        rank = standings[-1].rank if tied else position + 1
        standings.append(Standing(rank, player, counts[player]))
    return standings
