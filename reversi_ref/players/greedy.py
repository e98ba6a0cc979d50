"""`greedy`: the move after which the mover has the most stones."""

from __future__ import annotations

from typing import Tuple

from ..errors import IllegalMoveError
from ..rules import apply_bomb, apply_building_move, legal_moves, scores
from ..state import BUILD, GameState, Move
from .base import Player, SearchInfo


def stone_balance(state: GameState, player: int) -> Tuple[int, int]:
    """(`player`'s stones, minus the stones of everybody else): greater is better."""
    counts = scores(state)
    mine = counts[player]
    return mine, mine - sum(counts.values())


class GreedyPlayer(Player):
    """Plays the move leaving the mover the most stones; ties go to fewer stones for the
    others, then to the first move in `legal_moves` order (y, x, special).  Deterministic."""

    name = "greedy"

    def choose(self, state: GameState, time_ms: int, depth: int) -> Move:
        """The greedy move of the player to move."""
        player = state.to_move
        moves = legal_moves(state)
        if player is None or not moves:
            raise IllegalMoveError("no legal move", "player %s has none" % player)
        best = moves[0]
        best_value = stone_balance(self.after(state, player, best), player)
        for move in moves[1:]:
            value = stone_balance(self.after(state, player, move), player)
            if value > best_value:
                best, best_value = move, value
        self.info = SearchInfo(depth=1, nodes=len(moves))
        return best

    @staticmethod
    def after(state: GameState, player: int, move: Move) -> GameState:
        """The board after `player` plays the legal `move` (the turn is not passed on)."""
        if state.phase == BUILD:
            return apply_building_move(state, player, move)
        return apply_bomb(state, player, move)
