"""The bombing phase (RULES.md 5): where to drop a bomb to gain places.

Positions are valued by `Evaluator.bombing_value`: the root's stones against the players just
above and just below it in the ranking, plus a bonus per place, and by `final_value` once the
last bomb has fallen.  A bomb that removes stones of the player just ahead (to catch up) or just
behind (to stay ahead) scores; a bomb on a player who is out of reach, or on the root's own
stones, does not.

Depth 1 tries every target (make, evaluate, unmake).  Deeper, the search is paranoid over the
bombs still to come in the real bombing order, and a beam: at every node only the
`EvalConfig.bomb_candidates` targets that look best for the bomber by that one-bomb value
(best for the root, worst for the root for an opponent) are searched further, since a board
has hundreds of targets and most of them blast the same few stones.  At the root the beam
also gets, for every other player, the target that takes the most of its stones
(`root_candidates`): the one-bomb value looks only one place up and down the ranking.
Iterative deepening stops at the soft deadline, or when the depth covers every bomb left; a
deeper result replaces a shallower one only when its iteration finished.  With
`EvalConfig.bomb_widen`, an iteration that covered every bomb left before the soft deadline
is followed by the root's other targets, in the order of the one-bomb value, until then.

Targets whose blast removes nothing that counts all get the same value; the first of them in
move order is kept, so the choice is deterministic.

With `EvalConfig.bomb_destroyers` and three or more players, an opponent is not paranoid but
bombs where it removes the most stones of the others (`destroyer_target`), one reply per
opponent.  It is off: over 398 bombing-phase games against `ai_trivial` it changed the points
of 39 and won as many as it lost (docs/strength.md).  `EvalConfig.bomb_climbers` (on by
default, and first when both are set) models an opponent instead as bombing to rise in the
ranking one bomb ahead (`climber_target`), as `ai_trivial` did in most bombs observed since
(docs/strength.md); with `EvalConfig.climber_places` it plays only for the first places, and
below them takes the first target in move order.

With `EvalConfig.exact_endgame` (the default) the whole phase is first solved exactly on
places, then margin (`reversi_ref.search.endgame`), with EXACT_SHARE of the time to the soft
deadline; the beam above is the fallback when that solve does not finish.
"""

from __future__ import annotations

import time
from typing import Iterator, List, NamedTuple, Optional, Tuple

from ..engine import BOMB
from ..engine.core import Engine
from .endgame import bombs_left, search_value, solver_for
from .evaluate import INFINITY, Evaluator
from .timing import NO_DEADLINE, Clock

# The clock is read once every this many targets (a blast can cover the whole board, so a
# target can cost as much as a small search node).
CHECK_EVERY = 4
# Depth cap against the clock (the bombs left cap it anyway).
BOMB_DEPTH = 64
# The exact solve may use this share of the time up to the soft deadline (the beam gets the
# rest when it does not finish), or this many blasts when there is no time limit.
EXACT_SHARE = 0.6
EXACT_BLASTS = 200_000
# A target's index in the move list, below its value in one sort key (a board has at most
# 1000 x 1000 cells; values lie within +-INFINITY, so a key stays below 2^62).
INDEX_BITS = 20
INDEX_MASK = (1 << INDEX_BITS) - 1


class BombChoice(NamedTuple):
    """The chosen target (an engine move), its value, the number of targets tried and the
    depth of the last finished iteration."""

    move: int
    value: int
    nodes: int
    complete: bool
    depth: int = 1


class _BombSearch:
    """One bombing-phase search: paranoid beam search for `root` on `engine`."""

    def __init__(self, engine: Engine, evaluator: Evaluator, root: int, deadline: float,
                 clock: Clock) -> None:
        self.engine = engine
        self.evaluator = evaluator
        self.root = root
        self.deadline = deadline
        self.clock = clock
        self.width = max(1, evaluator.config.bomb_candidates)
        several = len(engine.players_in_game()) >= 3
        self.climbers = evaluator.config.bomb_climbers and several
        self.destroyers = evaluator.config.bomb_destroyers and several and not self.climbers
        # Opponents get one modelled reply each instead of a paranoid beam.
        self.modelled = self.climbers or self.destroyers
        self.climber_places = evaluator.config.climber_places
        self.nodes = 0
        self.stopped = False

    def ranked(self, count: Optional[int] = None) -> Tuple[Optional[int], List[int]]:
        """The value for the root of the best target for the bomber to move (None without a
        target) and the first `count` targets (all by default), best for the bomber first,
        ties in move order; when the deadline stops it, of those tried so far."""
        engine = self.engine
        evaluate = self.evaluator.evaluate
        root = self.root
        # One int per target, (value << INDEX_BITS) | index, sorted ascending: no tuple per
        # target (a board has thousands), and only `count` moves are kept past this node's
        # sort, so a long search does not pile up lists for the GC.
        sign = -1 if engine.to_move == root else 1
        moves = engine.legal_moves()
        keys = [0] * len(moves)
        tried = len(moves)
        for index, m in enumerate(moves):
            if self.nodes % CHECK_EVERY == CHECK_EVERY - 1 and self.clock() >= self.deadline:
                self.stopped = True
                tried = index
                break
            engine.make(m)
            keys[index] = (sign * evaluate(root) + INFINITY) << INDEX_BITS | index
            engine.unmake()
            self.nodes += 1
        if tried == 0:
            return None, []
        del keys[tried:]
        keys.sort()
        best = sign * ((keys[0] >> INDEX_BITS) - INFINITY)
        return best, [moves[k & INDEX_MASK] for k in (keys if count is None else keys[:count])]

    def _targets(self) -> Iterator[int]:
        """The legal targets of the bomber to move, in move order, until the deadline stops
        the scan (which sets `stopped`)."""
        for m in self.engine.legal_moves():
            if self.nodes % CHECK_EVERY == CHECK_EVERY - 1 and self.clock() >= self.deadline:
                self.stopped = True
                return
            yield m

    def destroyer_target(self) -> int:
        """The target of the bomber to move that removes the most stones of the other players
        net of its own, the worst for the root among equals (-1 without a target, or when
        the deadline stops it)."""
        engine = self.engine
        counts = engine.counts
        bomber = engine.to_move
        players = engine.players
        own_before = counts[bomber]
        others_before = sum(counts[1:players + 1]) - own_before
        best_gain = -1 << 40
        best_value = 0
        best = -1
        for m in self._targets():
            engine.make(m)
            own = counts[bomber]
            gain = others_before - (sum(counts[1:players + 1]) - own) - (own_before - own)
            if gain >= best_gain:
                value = self.evaluator.evaluate(self.root)
                if gain > best_gain or value < best_value:
                    best_gain, best_value, best = gain, value, m
            engine.unmake()
            self.nodes += 1
        return -1 if self.stopped else best

    def climber_target(self) -> int:
        """The target of the bomber to move after which the fewest other players still in
        the game have at least as many stones as it, places past `climber_places` counting
        alike, the first such in move order (-1 without a target, or when the deadline stops
        it)."""
        engine = self.engine
        counts = engine.counts
        bomber = engine.to_move
        rivals = [p for p in engine.players_in_game() if p != bomber]
        # Places past the ones it plays for are all alike to the bomber (`climber_places`).
        worst = self.climber_places if 0 < self.climber_places <= len(rivals) else len(rivals)
        best_place = len(rivals) + 1
        best = -1
        for m in self._targets():
            engine.make(m)
            own = counts[bomber]
            place = 0
            for p in rivals:
                if counts[p] >= own:
                    place += 1
            engine.unmake()
            self.nodes += 1
            if place > worst:
                place = worst
            if place < best_place:
                best_place, best = place, m
                if place == 0:
                    break  # nobody can be left level or above; later targets only tie
        return -1 if self.stopped else best

    def value(self, depth: int, alpha: int, beta: int) -> int:
        """The value for the root of the engine's position, `depth` bombs deep: paranoid, or
        with `climbers` or `destroyers` one reply per opponent."""
        engine = self.engine
        if depth <= 0 or engine.phase != BOMB:
            return self.evaluator.evaluate(self.root)
        if self.modelled and engine.to_move != self.root:
            target = self.climber_target() if self.climbers else self.destroyer_target()
            if self.stopped:
                return 0
            if target < 0:
                return self.evaluator.evaluate(self.root)
            engine.make(target)
            v = self.value(depth - 1, alpha, beta)
            engine.unmake()
            return v
        best_value, moves = self.ranked(self.width if depth > 1 else 0)
        if self.stopped:
            return 0
        if best_value is None:
            return self.evaluator.evaluate(self.root)
        if depth == 1:
            return best_value
        maximize = engine.to_move == self.root
        best = -INFINITY if maximize else INFINITY
        for m in moves:
            engine.make(m)
            v = self.value(depth - 1, alpha, beta)
            engine.unmake()
            if self.stopped:
                return 0
            if maximize:
                if v > best:
                    best = v
                alpha = max(alpha, v)
            else:
                if v < best:
                    best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best


def _solve_exactly(evaluator: Evaluator, root: int, order: List[int], start: float,
                   soft: float, deadline: float, clock: Clock, depth: int,
                   only_first: bool = False) -> Optional[BombChoice]:
    """The exact choice (`endgame.BombSolver`, places first, ties to the earliest target in
    `order`) when it fits in half the time to `soft` (or EXACT_BLASTS blasts without a time
    limit, and only when `depth` covers every bomb left), and with `only_first` when it proves
    sole first place; None otherwise."""
    engine = evaluator.engine
    left = bombs_left(engine)
    if soft == NO_DEADLINE:
        if depth < left:
            return None
        budget, stop = EXACT_BLASTS, NO_DEADLINE
    else:
        budget, stop = 1 << 40, min(deadline, start + EXACT_SHARE * (soft - start))
    solver = solver_for(evaluator)
    solved = solver.solve(root, budget, stop, clock, order, margin=True)
    if solved is None:
        return None
    others = sum(1 for p in engine.players_in_game() if p != root)
    if only_first and solved.value < others:
        return None
    engine.make(solved.move)
    tiebreak = evaluator.evaluate(root)
    engine.unmake()
    return BombChoice(solved.move, search_value(solved.value, others, tiebreak),
                      solver.blasts, True, left)


def root_candidates(engine: Engine, root: int, beam: List[int], deadline: float = NO_DEADLINE,
                    clock: Clock = time.monotonic) -> List[int]:
    """The targets the root's deeper search tries: `beam`, then for every other player still
    in the game the target that takes the most of its stones net of the root's own (the
    first such in move order), when that is not in `beam` already; at `deadline`, the best
    of the targets tried so far.

    The beam ranks by the one-bomb `bombing_value`, which counts only the players just above
    and just below the root, so a leader several places up scores nothing until the root
    has passed the players between; over a long bombing phase first place can need bombs on
    it from the start (docs/strength.md, `Vader-Gruppe05`)."""
    counts = engine.counts
    disqualified = engine.disqualified
    players = engine.players
    before = counts[:]
    best_gain = [0] * (players + 1)
    best_move = [-1] * (players + 1)
    for index, m in enumerate(engine.legal_moves()):
        if index % CHECK_EVERY == CHECK_EVERY - 1 and clock() >= deadline:
            break
        engine.make(m)
        own_loss = before[root] - counts[root]
        for p in range(1, players + 1):
            gain = before[p] - counts[p] - own_loss
            if p != root and gain > best_gain[p]:
                best_gain[p] = gain
                best_move[p] = m
        engine.unmake()
    chosen = list(beam)
    for p in range(1, players + 1):
        m = best_move[p]
        if m >= 0 and not disqualified[p] and m not in chosen:
            chosen.append(m)
    return chosen


def choose_bomb(engine: Engine, evaluator: Evaluator, root: int, deadline: float = NO_DEADLINE,
                clock: Clock = time.monotonic, depth: int = 1,
                soft: float = NO_DEADLINE) -> BombChoice:
    """The best bomb target for `root`, who must be the player to move in the bombing phase,
    searched up to `depth` bombs deep; no new iteration after `soft`, and an iteration cut off
    at `deadline` (clock seconds) leaves the last finished one's choice."""
    if engine.phase != BOMB or engine.to_move != root:
        raise ValueError("choose_bomb: player %d is not the one to bomb" % root)
    start = clock()
    search = _BombSearch(engine, evaluator, root, deadline, clock)
    best_value, ranked = search.ranked()
    if best_value is None:
        # Out of time before the first target: any legal target will do.
        return BombChoice(engine.legal_moves()[0], -INFINITY, search.nodes, False, 0)
    best_move = ranked[0]
    if search.stopped:
        return BombChoice(best_move, best_value, search.nodes, False, 1)
    if evaluator.config.exact_endgame:
        exact = _solve_exactly(evaluator, root, ranked, start, soft, deadline, clock, depth,
                               search.modelled)
        if exact is not None:
            return BombChoice(exact.move, exact.value, search.nodes + exact.nodes, True,
                              exact.depth)
    reached = 1
    limit = min(depth, bombs_left(engine))
    roots = ranked[:search.width]
    if limit >= 2 and clock() < soft:
        roots = root_candidates(engine, root, roots, deadline, clock)
    for d in range(2, limit + 1):
        if clock() >= soft:
            break
        iteration_move, iteration_best = _best_of(search, roots, d, best_move, -INFINITY)
        if search.stopped:
            break
        best_value, best_move, reached = iteration_best, iteration_move, d
    complete = not search.stopped
    if (evaluator.config.bomb_widen and complete and reached >= 2 and reached == limit
            and soft != NO_DEADLINE):
        # Every bomb left is searched and time is left: more of the root's targets, the best
        # by the one-bomb value first.
        tried = set(roots)
        best_move, best_value = _best_of(search, [m for m in ranked if m not in tried],
                                         reached, best_move, best_value, soft)
    return BombChoice(best_move, best_value, search.nodes, complete, reached)


def _best_of(search: _BombSearch, targets: List[int], depth: int, best_move: int,
             best_value: int, soft: float = NO_DEADLINE) -> Tuple[int, int]:
    """The best of `best_move` (worth `best_value`) and `targets`, each searched `depth` bombs
    deep, in order until `soft`; a target cut off by the deadline (`search.stopped`) does
    not count."""
    engine = search.engine
    for m in targets:
        if soft != NO_DEADLINE and search.clock() >= soft:
            break
        engine.make(m)
        v = search.value(depth - 1, best_value, INFINITY)
        engine.unmake()
        if search.stopped:
            break
        if v > best_value:
            best_value, best_move = v, m
    return best_move, best_value
