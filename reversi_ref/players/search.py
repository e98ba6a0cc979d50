"""`search` (paranoid alpha-beta) and `brs` (best-reply search): the competitive players.

Each move: load the position into the fast engine, plan the time from the request's bank
(`reversi_ref.search.timing`), then run iterative deepening until the soft deadline (no new
iteration) or the hard one (stop inside the iteration), and without starting an iteration
that is predicted to run far past the hard deadline; the bombing phase has its own search
(`reversi_ref.search.bombing`), deepened the same way.  Without a time limit (`time_ms` 0)
the search goes exactly `depth` plies (or bombs) deep, unless that takes longer than
`context.NO_LIMIT_SECONDS`.

`time_ms` is read as the whole time bank of the move request (RULES.md 8): the players set
`manages_bank`, which tells the client and the tournament to pass the bank unchanged.

Between its own moves the player can *ponder* (the client asks it to while it waits for the
server): the same search from the position where an opponent is to move, until the next
message arrives; before the game's first move request, also its own first move.  It answers
nothing; it leaves the transposition table filled (and PyPy's JIT warmed up), so the search of
the next own move starts with its first iterations already done.
"""

from __future__ import annotations

import random
import time
from typing import Callable, List, Optional

from ..engine import BOMB
from ..errors import IllegalMoveError
from ..search.alphabeta import BRS, MOVE_MASK, PARANOID, Searcher
from ..search.config import DEFAULT_CONFIG, EvalConfig
from ..search.context import GameContext
from ..search.evaluate import Evaluator, is_decisive
from ..search.table import NO_MOVE
from ..search.timing import UNSURE_MIN_DEPTH, Clock, next_iteration_fits
from ..state import BUILD, GameState, Move
from .base import Player, SearchInfo

# Depth cap when searching against the clock.
MAX_DEPTH = 64
# While pondering, the searcher reads its clock every few nodes (`CHECK_EVERY`); one read in
# this many asks whether the next message has come (a system call, so not at every read).
POLL_EVERY = 16


class PollingClock:
    """A stand-in for the searcher's clock while pondering: it reads 0.0 until
    `interrupted()` says the next message has come, then `PAST` (after any deadline below)."""

    DEADLINE = 1.0
    PAST = 2.0

    def __init__(self, interrupted: Callable[[], bool], every: int = POLL_EVERY) -> None:
        self.interrupted = interrupted
        self.every = every
        self.reads = 0
        self.fired = False

    def __call__(self) -> float:
        if not self.fired:
            self.reads += 1
            if self.reads % self.every == 0 and self.interrupted():
                self.fired = True
        return self.PAST if self.fired else 0.0


class SearchPlayer(Player):
    """Alpha-beta for several players, paranoid or best-reply.

    The search itself draws no random numbers (ties go to the first move in search order), so
    without a time limit it is deterministic; `rng` is kept for the registry's uniform
    interface.  `config` holds the evaluation's weights, `clock` the time source (a fake one
    in tests).
    """

    manages_bank = True

    def __init__(self, mode: str = PARANOID, rng: Optional[random.Random] = None,
                 config: EvalConfig = DEFAULT_CONFIG, clock: Clock = time.monotonic) -> None:
        super().__init__()
        self.mode = mode
        self.name = "search" if mode == PARANOID else mode
        self.rng = rng if rng is not None else random.Random(0)
        self.config = config
        self.clock = clock
        self.context = GameContext(config, clock)
        self.searcher: Optional[Searcher] = None
        self.last_value = 0

    def prepare(self, state: GameState) -> None:
        """Set up the engine, the map analysis and the search tables before the first move
        request (the time this takes is charged to the first move, see `GameContext`)."""
        context = self.context
        start = self.clock()
        context.prepare(state.map)
        self._searcher(context.load(state))
        context.prepare_seconds = self.clock() - start

    def mode_for(self, players: int) -> str:
        """The search mode on a map with `players` players (`EvalConfig.brs_players`)."""
        switch = self.config.brs_players
        if self.mode == PARANOID and switch > 0 and players >= switch:
            return BRS
        return self.mode

    def _searcher(self, evaluator: Evaluator) -> Searcher:
        searcher = self.searcher
        if searcher is None or searcher.evaluator is not evaluator:
            mode = self.mode_for(evaluator.engine.players)
            searcher = Searcher(evaluator.engine, evaluator, self.config, mode, self.clock)
            self.searcher = searcher
        return searcher

    def searcher_for(self, state: GameState) -> Searcher:
        """The searcher this player would use on `state` (building phase), loaded and reset
        for the player to move, without a deadline: for analysing a position."""
        evaluator = self.context.load(state)
        searcher = self._searcher(evaluator)
        searcher.reset(evaluator.engine.to_move)
        searcher.deadline = float("inf")
        return searcher

    def choose(self, state: GameState, time_ms: int, depth: int) -> Move:
        """The move for `state.to_move`; `time_ms` is the whole bank (0 = no limit, search
        `depth` plies)."""
        request = self.context.begin_move(state, time_ms)
        evaluator, player, deadlines = request
        engine = evaluator.engine
        if engine.phase == BOMB:
            choice = self.context.choose_bomb(request, time_ms, depth)
            self.info = SearchInfo(depth=choice.depth, nodes=choice.nodes)
            self.last_value = choice.value
            return engine.decode_move(choice.move)
        max_depth = MAX_DEPTH if time_ms > 0 else max(1, depth)
        searcher = self._searcher(evaluator)
        searcher.reset(player)
        searcher.deadline = deadlines.hard
        moves = searcher.root_moves()
        if not moves:
            raise IllegalMoveError("no legal move", "player %d has none" % player)
        best = moves[0] & MOVE_MASK
        reached = 0
        value = 0
        proven = False
        stretched = False
        held_out = False
        if len(moves) > 1 or time_ms <= 0:
            counts: List[int] = []  # the nodes of each completed iteration
            start = self.clock()
            soft, hard = deadlines.soft, deadlines.hard
            earlier = best
            unproven = NO_MOVE  # the choice of the deepest iteration that proved nothing
            for reached, best, value, nodes in searcher.iterate(max_depth, moves):
                now = self.clock()
                counts.append(nodes - sum(counts))
                # A decisive value is a proven result: deeper iterations cannot change it.
                if is_decisive(value):
                    proven = True
                    if self.holds_out(searcher, unproven, best, reached, value):
                        best = unproven
                        held_out = True
                    break
                unproven = best
                # A late change of mind: the move is not settled, so it gets the longer limits.
                if (reached >= UNSURE_MIN_DEPTH and best != earlier
                        and hard < deadlines.hard_unsure):
                    soft, hard = deadlines.soft_unsure, deadlines.hard_unsure
                    searcher.deadline = hard
                    stretched = True
                earlier = best
                # Without a time limit both deadlines are infinite, so neither test stops.
                if now >= soft or not next_iteration_fits(counts, now - start, hard - now):
                    break
            if searcher.stopped and searcher.partial is not None:
                best, value = searcher.partial
        self.last_value = value
        self.info = SearchInfo(depth=reached, nodes=searcher.nodes, proven=proven,
                               stretched=stretched, held_out=held_out)
        return engine.decode_move(best)

    def holds_out(self, searcher: Searcher, unproven: int, best: int, depth: int,
                  value: int) -> bool:
        """Whether to play `unproven`, the choice of the deepest iteration that proved
        nothing, instead of `best`, whose iteration at `depth` proved a loss of `value`
        (`EvalConfig.hold_out`): with three or more players, when it reaches the same place
        at that depth."""
        engine = searcher.engine
        return (self.config.hold_out and value < 0 and engine.in_game >= 3
                and unproven != NO_MOVE and unproven != best
                and searcher.holds_place(unproven, depth, value))

    def ponder(self, state: GameState, player: int, interrupted: Callable[[], bool]) -> int:
        """Search `state` (building phase) for `player` until `interrupted()`, a decisive
        value or MAX_DEPTH; the depth completed.  With an opponent to move, its replies are
        searched; with `player` to move (the client does that only before the game's first
        move request), `player`'s own move, as `choose` would.  The bombing phase is not
        pondered (its searches are short), nor a position where `player` has no stone and no
        move."""
        if state.phase != BUILD or state.to_move is None:
            return 0
        evaluator = self.context.load(state)
        engine = evaluator.engine
        # A player the others have taken every stone from, with no move left, has nothing to
        # think about: only a swap tile could give it stones again.  Pondering there kept a
        # core busy for the rest of a game (comp2024_04_8p seat 2, stop 64).
        if engine.counts[player] == 0 and not engine.has_any_move(player):
            return 0
        # The client ponders only while no message waits, so the next request arrives after
        # the set-up of `prepare`: the first move need not pay for it (`start_move`).
        self.context.prepare_seconds = 0.0
        searcher = self._searcher(evaluator)
        searcher.reset(player)
        poll = PollingClock(interrupted)
        searcher.clock = poll
        searcher.deadline = poll.DEADLINE
        reached = 0
        try:
            if state.to_move == player:
                for reached, _, value, _ in searcher.iterate(MAX_DEPTH):
                    if is_decisive(value):
                        break
            else:
                for reached, value, _ in searcher.ponder(MAX_DEPTH):
                    if is_decisive(value):
                        break
        finally:
            searcher.clock = self.clock
        return reached


def search_player(seed: int) -> Player:
    """The `search` player (paranoid)."""
    return SearchPlayer(PARANOID, random.Random(seed))


def brs_player(seed: int) -> Player:
    """The `brs` player (best-reply search)."""
    return SearchPlayer(BRS, random.Random(seed))

