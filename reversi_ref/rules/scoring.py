"""RULES.md 7: scores and ranking.

Rules text: docs/rules.md#7-scores-and-ranking.
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple

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
