"""`mcts`: Monte Carlo tree search with playouts cut off by the evaluation.

Time is planned from the request's bank like the alpha-beta players (`manages_bank`); without
a time limit it runs `ITERATIONS_PER_DEPTH * depth` iterations.  The bombing phase uses the
same target choice as the alpha-beta players.  Deterministic given the seed and the same
number of iterations.
"""

from __future__ import annotations

import random
import time
from typing import Optional

from ..engine import BOMB
from ..search.config import DEFAULT_CONFIG, EvalConfig
from ..search.context import GameContext
from ..search.mcts import Mcts
from ..search.timing import Clock
from ..state import GameState, Move
from .base import Player, SearchInfo

ITERATIONS_PER_DEPTH = 100
# Iteration cap when playing against the clock.
MAX_ITERATIONS = 1_000_000


class MctsPlayer(Player):
    """UCT with evaluation-cut playouts, seeded by `rng`."""

    name = "mcts"
    manages_bank = True

    def __init__(self, rng: Optional[random.Random] = None, config: EvalConfig = DEFAULT_CONFIG,
                 clock: Clock = time.monotonic) -> None:
        super().__init__()
        self.rng = rng if rng is not None else random.Random(0)
        self.config = config
        self.clock = clock
        self.context = GameContext(config, clock)

    def prepare(self, state: GameState) -> None:
        """Set up the engine and map analysis before the first move request."""
        self.context.prepare(state.map)

    def choose(self, state: GameState, time_ms: int, depth: int) -> Move:
        """The move for `state.to_move`; `time_ms` is the whole bank (0 = no limit)."""
        request = self.context.begin_move(state, time_ms)
        evaluator, player, deadlines = request
        engine = evaluator.engine
        if engine.phase == BOMB:
            choice = self.context.choose_bomb(request, time_ms, depth)
            self.info = SearchInfo(depth=choice.depth, nodes=choice.nodes)
            return engine.decode_move(choice.move)
        iterations = MAX_ITERATIONS if time_ms > 0 else ITERATIONS_PER_DEPTH * max(1, depth)
        search = Mcts(engine, evaluator, self.rng, self.clock)
        move = search.run(iterations, deadlines.hard)
        self.info = SearchInfo(depth=search.depth, nodes=search.nodes)
        return engine.decode_move(move)


def mcts_player(seed: int) -> Player:
    """The `mcts` player."""
    return MctsPlayer(random.Random(seed))
