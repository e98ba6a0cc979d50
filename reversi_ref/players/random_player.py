"""`random`: a uniformly random legal move, from a `random.Random` passed in."""

from __future__ import annotations

import random

from ..errors import IllegalMoveError
from ..rules import legal_moves
from ..state import GameState, Move
from .base import Player, SearchInfo


class RandomPlayer(Player):
    """Plays a legal move chosen uniformly at random by `rng`."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng

    def choose(self, state: GameState, time_ms: int, depth: int) -> Move:
        """A random legal move of the player to move."""
        moves = legal_moves(state)
        if not moves:
            raise IllegalMoveError("no legal move", "player %s has none" % state.to_move)
        self.info = SearchInfo(depth=0, nodes=len(moves))
        return moves[self.rng.randrange(len(moves))]
