"""What a search player keeps between the moves of one game: the engine, the map analysis and
the evaluator for the map, and the time keeping (the per-move limit seen in the first bank).
"""

from __future__ import annotations

import time
from typing import NamedTuple, Optional

from ..engine import BOMB, BUILD
from ..engine.core import Engine
from ..errors import IllegalMoveError
from ..geometry import Map
from ..state import GameState
from .analysis import MapAnalysis
from .bombing import BOMB_DEPTH, BombChoice, choose_bomb
from .config import EvalConfig
from .evaluate import Evaluator
from .position import EngineCache
from .timing import (NO_DEADLINE, Budget, Clock, expected_own_moves, last_move_budget,
                     plan_budget, stretched)


# Without a time limit the search goes its full depth, but stops here (seconds) all the same,
# with the deepest iteration it finished: at the end of phase 1 with override stones in hand
# nearly every stone is a move, and a paranoid search 3 plies deep then runs for hours (stop
# 73: `comp2017_02_3p` under `serve -t 0 -d 3`, disqualified after the referee's 600 s).
NO_LIMIT_SECONDS = 120.0


class Deadlines(NamedTuple):
    """Clock times (seconds): no new iteration after `soft`, stop searching at `hard`; the
    `unsure` pair replaces them once the search changes its mind late (`stretch_unsure`)."""

    soft: float
    hard: float
    soft_unsure: float
    hard_unsure: float


class MoveRequest(NamedTuple):
    """One move request, set up: the evaluator (whose `.engine` holds the position), the
    player to move and the move's deadlines."""

    evaluator: Evaluator
    player: int
    deadlines: Deadlines


class GameContext:
    """Per-game state of a search player: engine, analysis, evaluator and time keeping."""

    def __init__(self, config: EvalConfig, clock: Clock = time.monotonic) -> None:
        self.config = config
        self.clock = clock
        self.cache = EngineCache()
        self.map: Optional[Map] = None
        self.analysis: Optional[MapAnalysis] = None
        self.evaluator: Optional[Evaluator] = None
        self.increment_ms: Optional[float] = None
        self.prepare_seconds = 0.0
        self.requests = 0
        self.last_budget = Budget(0.0, 0.0)

    def prepare(self, game_map: Map) -> None:
        """Build the engine and the map analysis (before the first move request, if the
        caller can)."""
        if self.map is game_map and self.evaluator is not None:
            return
        start = self.clock()
        engine = self.cache.prepare(game_map)
        self.analysis = MapAnalysis(game_map)
        self.evaluator = Evaluator(engine, self.analysis, self.config)
        self.map = game_map
        self.increment_ms = None
        self.requests = 0
        self.prepare_seconds = self.clock() - start

    def load(self, state: GameState) -> Evaluator:
        """Load `state` into the engine; the evaluator (whose `.engine` holds the state)."""
        if self.map is not state.map and self.map != state.map:
            self.prepare(state.map)
        engine = self.cache.engine_for(state)
        evaluator = self.evaluator
        if evaluator is None or evaluator.engine is not engine:
            if self.analysis is None:
                self.analysis = MapAnalysis(state.map)
            evaluator = Evaluator(engine, self.analysis, self.config)
            self.evaluator = evaluator
        return evaluator

    def start_move(self, bank_ms: int) -> float:
        """Note a move request with `bank_ms` in the bank; the clock time the move started
        (the first move also counts the set-up done in `prepare`, in case the request was
        already waiting)."""
        now = self.clock()
        self.requests += 1
        if self.requests == 1:
            if bank_ms > 0:
                self.increment_ms = float(bank_ms)
            return now - self.prepare_seconds
        return now

    def deadlines(self, start: float, bank_ms: int, engine: Engine, player: int) -> Deadlines:
        """The move's deadlines from its start and the bank (when `bank_ms` is 0, no soft one
        and a hard one NO_LIMIT_SECONDS on)."""
        if bank_ms <= 0:
            cap = start + NO_LIMIT_SECONDS
            return Deadlines(NO_DEADLINE, cap, NO_DEADLINE, cap)
        unreachable = 0
        if self.analysis is not None and self.config.skip_cut_off:
            unreachable = self.analysis.unreachable_free
        if self.config.spend_last and engine.phase == BOMB and engine.bombs[player] == 1:
            budget = last_move_budget(bank_ms)
        else:
            budget = plan_budget(bank_ms, expected_own_moves(engine, player, unreachable),
                                 self.increment_ms, self.config.spend_surplus / 100.0)
        self.last_budget = budget
        longer = stretched(budget, bank_ms, 1.0 + self.config.stretch_unsure / 100.0)
        return Deadlines(start + budget.soft_ms / 1000.0, start + budget.hard_ms / 1000.0,
                         start + longer.soft_ms / 1000.0, start + longer.hard_ms / 1000.0)

    def begin_move(self, state: GameState, bank_ms: int) -> MoveRequest:
        """Start answering a move request for `state` with `bank_ms` in the bank: the position
        loaded and the deadlines planned; IllegalMoveError if nobody can move in `state`."""
        if self.map is not state.map and self.map != state.map:
            self.prepare(state.map)  # before start_move, which counts the game's requests
        start = self.start_move(bank_ms)
        player = state.to_move
        if player is None:
            raise IllegalMoveError("game over", "nobody is to move")
        evaluator = self.load(state)
        engine = evaluator.engine
        if engine.phase != BOMB and (engine.phase != BUILD or engine.to_move != player):
            raise IllegalMoveError("not to move", "player %d cannot move now" % player)
        return MoveRequest(evaluator, player, self.deadlines(start, bank_ms, engine, player))

    def choose_bomb(self, request: MoveRequest, bank_ms: int, depth: int) -> BombChoice:
        """The bombing search's choice for `request`: within its deadlines to the end of the
        phase when there is a bank, else `depth` bombs deep."""
        evaluator, player, deadlines = request
        return choose_bomb(evaluator.engine, evaluator, player, deadlines.hard, self.clock,
                           BOMB_DEPTH if bank_ms > 0 else max(1, depth), deadlines.soft)
