"""The bombing phase solved exactly, on places (RULES.md 5 and 7).

What counts at the end of a ReversiXT game is the place, not the margin: stones are counted
only after the last bomb, and in two players a 1-0 win is a win.  So the solver's value of a
finished game for the root is its places: the opponents it beats minus those that beat it
(equal scores share a place), and one below the worst for a disqualified root.  Values are
small integers, so alpha-beta cuts as soon as the best place in reach is proven.

The search is paranoid (every opponent bombs against the root) over every target, in the real
bombing order.  Targets that lead to the same position (the same cells become holes) are one
child: the position's hash tells them apart, so the set searched is provably sufficient.
Children are ordered by the root's stone lead after the bomb, the bomber's best first; a
transposition table keyed on the position (root included) keeps proven values and bounds
across searches of the same game: fixed-size flat lists of ints (as `table`), created full
size with the solver, so its memory does not change as they fill.  A search that runs past
its blast budget or its deadline gives up and says so; the callers then fall back to the
beam (`bombing`) or the evaluation.

With strength-0 bombs a blast removes its target cell only, and holes never shield anything,
so a position's value depends only on the stone counts, the bombs in hand and the empty
cells left: `counts_value` solves that small game instead of the board.
"""

from __future__ import annotations

import time
from typing import List, NamedTuple, Optional, Set, Tuple

from ..engine import BOMB, EMPTY
from ..engine.core import Engine
from ..engine.tables import HOLE, OVER
from .evaluate import RANK_STEP, WIN_BONUS, Evaluator
from .timing import NO_DEADLINE, Clock

# Transposition-table bounds (as in `table`): the stored value is exact, a lower or an upper
# bound of the true one.
_EXACT = 0
_LOWER = 1
_UPPER = 2
# Slots of each table (2**bits), created full size with the solver; an entry replaces whatever
# held its slot.  About 1-2 MB under PyPy for both (flat lists of machine ints; dicts of 2**17
# tuples, the tables before, took 45-50 MB when full).
TABLE_BITS = 16
COUNTS_BITS = 16
_EMPTY = -1  # `BombSolver.data` of a slot never written (bound 3: no bound)
# The counts solver's keys pack numbers below this (a board has at most 1000x1000 cells and a
# player at most 255 bombs, RULES.md 3) three to a word.
_FIELD_BITS = 20
_FIELD_LIMIT = 1 << _FIELD_BITS
_PER_WORD = 3
# The clock is read every this many blasts.
CHECK_EVERY = 32
# Lexicographic values: places times this plus the stone margin (margins stay far below half).
MARGIN_SCALE = 1 << 20
# Added to a stone lead (at most the board's 1000x1000 cells either way) to sort it unsigned.
_LEAD_OFFSET = 1 << 21
# Below and above any value.
_LOW = -(1 << 40)
_HIGH = 1 << 40
# Mixed into table keys per root player (the value of a position depends on whose view).
# Below 2**63, so a key (the engine's signed 64-bit hash xor these) stays a machine int.
_MARGIN_SALT = 0x2B992DDFA23249D6
_ROOT_SALT = [0x5851F42D4C957F2D * (p + 1) & 0x7FFFFFFFFFFFFFFF for p in range(9)]


class OutOfBudget(Exception):
    """A solve ran past its blast budget or its deadline."""


class Solved(NamedTuple):
    """A proven result: the root's place value and a move that reaches it (-1 when the root
    is not to move)."""

    value: int
    move: int


def places(counts: List[int], disqualified: List[int], players: int, root: int) -> int:
    """The root's place value of a finished game: opponents beaten minus opponents ahead
    (RULES.md 7); -players for a disqualified root."""
    if disqualified[root]:
        return -players
    mine = counts[root]
    value = 0
    for p in range(1, players + 1):
        if p != root and not disqualified[p]:
            if counts[p] < mine:
                value += 1
            elif counts[p] > mine:
                value -= 1
    return value


def lexicographic(counts: List[int], disqualified: List[int], players: int, root: int) -> int:
    """`places` times MARGIN_SCALE plus the root's lead over the best other player still in
    the game: places first, then the margin."""
    best = 0
    for p in range(1, players + 1):
        if p != root and not disqualified[p] and counts[p] > best:
            best = counts[p]
    return places(counts, disqualified, players, root) * MARGIN_SCALE + counts[root] - best


def place_of(value: int) -> int:
    """The places of a `lexicographic` value."""
    return (value + MARGIN_SCALE // 2) // MARGIN_SCALE


def search_value(place: int, players_left: int, tiebreak: int) -> int:
    """A solved place value on the evaluation's scale (see `evaluate.final_value`): RANK_STEP
    per place, WIN_BONUS for the sole first place, plus a small `tiebreak` (an evaluation)."""
    bound = RANK_STEP // 4
    value = place * RANK_STEP + max(-bound, min(bound, tiebreak))
    if players_left > 0 and place == players_left:
        value += WIN_BONUS
    return value


class BombSolver:
    """Exact paranoid place search of the bombing phase on one engine."""

    def __init__(self, engine: Engine, table_bits: int = TABLE_BITS,
                 counts_bits: int = COUNTS_BITS) -> None:
        self.engine = engine
        # Board positions: the full key and value << 2 | bound per slot (key & mask).
        size = 1 << table_bits
        self.mask = size - 1
        self.keys: List[int] = [0] * size
        self.data: List[int] = [_EMPTY] * size
        # Strength 0: per slot the whole key (`counts_stride` words, 0 for a slot never
        # written) and the value.
        self.counts_stride = 1 + -(-2 * engine.players // _PER_WORD)
        size = 1 << counts_bits
        self.counts_mask = size - 1
        self.counts_keys: List[int] = [0] * (size * self.counts_stride)
        self.counts_values: List[int] = [0] * size
        self.counts_header = 0
        self.counts_cached = True
        self.blasts = 0
        self.budget = 0
        self.deadline = NO_DEADLINE
        self.clock: Clock = time.monotonic
        self.root = 1
        self.margin = False

    # -----------------------------------------------------------------------------------------
    # Board search
    # -----------------------------------------------------------------------------------------

    def solve(self, root: int, budget: int, deadline: float = NO_DEADLINE,
              clock: Clock = time.monotonic, order: Optional[List[int]] = None,
              margin: bool = False) -> Optional[Solved]:
        """The root's exact place value of the engine's position (bombing phase or over) and,
        when the root is to bomb, a target reaching it (the first such in `order`, when
        given); None when more than `budget` blasts or the deadline would be needed.  With
        `margin`, the target is then the one with the best stone margin among those, when
        the budget left allows (else the first one again)."""
        e = self.engine
        self.root = root
        self.blasts = 0
        self.budget = budget
        self.deadline = deadline
        self.clock = clock
        self.margin = False
        try:
            if e.phase != BOMB:
                return Solved(self.final(), -1)
            if e.strength == 0:
                return Solved(place_of(self.counts_value()), self._first_strength0_move(order))
            # Places lie in [-top, top]: a window of exactly that cuts at a proven best.
            top = sum(1 for p in e.players_in_game() if p != root)
            if e.to_move != root:
                return Solved(max(-top, min(top, self.value(-top, top))), -1)
            solved = self.root_search(order, -top, top, top)
            solved = Solved(max(-top, min(top, solved.value)), solved.move)
        except OutOfBudget:
            return None
        if not margin:
            return solved
        # Second pass: the best margin among the targets that keep the proven places.
        self.margin = True
        centre = solved.value * MARGIN_SCALE
        try:
            better = self.root_search(order, centre - MARGIN_SCALE // 2,
                                      centre + MARGIN_SCALE // 2, _HIGH)
        except OutOfBudget:
            return solved
        finally:
            self.margin = False
        if place_of(better.value) != solved.value:
            return solved  # cannot happen with exact values; keep the proven one
        return Solved(solved.value, better.move)

    def final(self) -> int:
        """The root's value of the engine's (finished) position: places, or places then
        margin (`lexicographic`) when `self.margin` is set."""
        e = self.engine
        if self.margin:
            return lexicographic(e.counts, e.disqualified, e.players, self.root)
        return places(e.counts, e.disqualified, e.players, self.root)

    def children(self) -> List[int]:
        """The distinct targets of the bomber to move, the bomber's best first by the root's
        stone lead after it (paranoid: the root's best for the root, its worst for an
        opponent); ties keep board order."""
        e = self.engine
        root = self.root
        counts = e.counts
        disqualified = e.disqualified
        players = e.players
        # Each target as one int, (lead, for the bomber) << 32 | index, so sorting ints gives
        # the order: the lists and the set hold machine ints only (little for the GC to do).
        sign = -1 if e.to_move == root else 1
        moves = e.legal_moves()
        seen = set()
        scored: List[int] = []
        for index, m in enumerate(moves):
            self.spend()
            e.make(m)
            h = e.hash
            if h not in seen:
                seen.add(h)
                best_other = 0
                for p in range(1, players + 1):
                    if p != root and not disqualified[p] and counts[p] > best_other:
                        best_other = counts[p]
                scored.append((sign * (counts[root] - best_other) + _LEAD_OFFSET) << 32 | index)
            e.unmake()
        scored.sort()
        return [moves[s & 0xFFFFFFFF] for s in scored]

    def value(self, alpha: int, beta: int) -> int:
        """The root's paranoid place value of the engine's position within (alpha, beta):
        exact inside, a bound outside (fail-soft)."""
        e = self.engine
        if e.phase != BOMB:
            return self.final()
        key = e.hash ^ _ROOT_SALT[self.root] ^ (_MARGIN_SALT if self.margin else 0)
        i = key & self.mask
        entry = self.data[i]
        if entry != _EMPTY and self.keys[i] == key:
            v = entry >> 2
            bound = entry & 3
            if bound == _EXACT or (bound == _LOWER and v >= beta) or (
                    bound == _UPPER and v <= alpha):
                return v
        alpha0 = alpha
        beta0 = beta
        maximizing = e.to_move == self.root
        best = _LOW if maximizing else _HIGH
        for m in self.children():
            e.make(m)
            try:
                v = self.value(alpha, beta)
            finally:
                e.unmake()
            if maximizing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        if best <= alpha0:
            bound = _UPPER
        elif best >= beta0:
            bound = _LOWER
        else:
            bound = _EXACT
        self.keys[i] = key
        self.data[i] = best << 2 | bound
        return best

    def root_search(self, order: Optional[List[int]], alpha: int, beta: int, top: int
                    ) -> Solved:
        """The root's value within (alpha, beta) and the first target (in `order`, else the
        solver's own order) that reaches it; the root is to bomb, and `top` is the best value
        there can be."""
        moves = self.children()
        if order is not None:
            rank = {m: i for i, m in enumerate(order)}
            position = {m: i for i, m in enumerate(moves)}
            moves.sort(key=lambda m: (rank.get(m, len(rank)), position[m]))
        e = self.engine
        best = _LOW
        best_move = moves[0]
        for m in moves:
            e.make(m)
            try:
                v = self.value(max(alpha, best), beta)
            finally:
                e.unmake()
            if v > best:
                best = v
                best_move = m
            if best >= top or best >= beta:
                break  # the best value there is
        return Solved(best, best_move)

    def spend(self) -> None:
        """Count one blast (or one counts position); OutOfBudget past the budget or, read every
        CHECK_EVERY blasts, the deadline."""
        self.blasts += 1
        if self.blasts > self.budget:
            raise OutOfBudget()
        if self.blasts % CHECK_EVERY == 0 and self.clock() >= self.deadline:
            raise OutOfBudget()

    # -----------------------------------------------------------------------------------------
    # Strength 0: a game on the counts
    # -----------------------------------------------------------------------------------------

    def counts_value(self) -> int:
        """The root's paranoid `lexicographic` value with strength-0 bombs, from the counts
        alone."""
        e = self.engine
        players = e.players
        active = e.players_in_game()
        stones = [e.counts[p] for p in range(players + 1)]
        bombs = [e.bombs[p] for p in range(players + 1)]
        others = e.cells - e.counts[HOLE] - sum(stones[p] for p in active)
        # The key's first word: root, active players, then (per position) bomber and others.
        mask = 0
        for p in active:
            mask |= 1 << p
        self.counts_header = (self.root << 9 | mask) << 24
        self.counts_cached = e.cells < _FIELD_LIMIT and all(
            0 <= bombs[p] < _FIELD_LIMIT for p in active)
        return self._counts(e.to_move, stones, bombs, others, active)

    def _counts_key(self, bomber: int, stones: List[int], bombs: List[int], others: int,
                    active: List[int]) -> List[int]:
        """The whole key of a counts position as `counts_stride` words (machine ints)."""
        words = [self.counts_header | bomber << _FIELD_BITS | others]
        fields = [stones[p] for p in active] + [bombs[p] for p in active]
        for start in range(0, len(fields), _PER_WORD):
            word = 0
            for shift, v in enumerate(fields[start:start + _PER_WORD]):
                word |= v << (shift * _FIELD_BITS)
            words.append(word)
        words.extend([0] * (self.counts_stride - len(words)))
        return words

    def _counts(self, bomber: int, stones: List[int], bombs: List[int], others: int,
                active: List[int]) -> int:
        e = self.engine
        players = e.players
        root = self.root
        if bomber == 0:
            return lexicographic(stones, e.disqualified, players, root)
        cached = self.counts_cached
        if cached:
            key = self._counts_key(bomber, stones, bombs, others, active)
            stride = self.counts_stride
            slot = hash(tuple(key)) & self.counts_mask
            at = slot * stride
            if self.counts_keys[at:at + stride] == key:
                return self.counts_values[slot]
        # With many players and bombs this small game is not small (8 players, 23 bombs: no
        # end in sight), so it keeps to the budget and the deadline as the board search does.
        self.spend()
        bombs[bomber] -= 1
        # The next bomber (RULES.md 5), unless no cell is left.
        left = others + sum(stones[p] for p in active)
        nxt = 0
        if left > 1:
            q = bomber
            for _ in range(players):
                q = q + 1 if q < players else 1
                if q in active and bombs[q] > 0:
                    nxt = q
                    break
        maximizing = bomber == root
        best = _LOW if maximizing else _HIGH
        # A target is a stone of some player or any other cell; which one does not matter.
        for victim in [0] + active:
            if victim == 0:
                if others == 0:
                    continue
                v = self._counts(nxt, stones, bombs, others - 1, active)
            else:
                if stones[victim] == 0:
                    continue
                stones[victim] -= 1
                v = self._counts(nxt, stones, bombs, others, active)
                stones[victim] += 1
            best = max(best, v) if maximizing else min(best, v)
        bombs[bomber] += 1
        if cached:
            self.counts_keys[at:at + stride] = key
            self.counts_values[slot] = best
        return best

    def _first_strength0_move(self, order: Optional[List[int]]) -> int:
        """With strength 0 and the root to bomb: the first target (in `order`, else board
        order) on a cell whose kind reaches the root's solved value; -1 if not the root's
        turn."""
        e = self.engine
        if e.to_move != self.root:
            return -1
        target = self.counts_value()
        moves = order if order is not None else e.legal_moves()
        tried = set()
        for m in moves:
            v = e.board[m >> 5]
            kind = v if 1 <= v <= e.players else EMPTY
            if kind in tried:
                continue
            tried.add(kind)
            e.make(m)
            try:
                value = (self.counts_value() if e.phase == BOMB else
                         lexicographic(e.counts, e.disqualified, e.players, self.root))
            finally:
                e.unmake()
            if value == target:
                return m
        return moves[0]


def solver_for(evaluator: Evaluator) -> BombSolver:
    """The solver kept with `evaluator` (one per engine, so its table lasts the game)."""
    solver = getattr(evaluator, "_bomb_solver", None)
    if not isinstance(solver, BombSolver) or solver.engine is not evaluator.engine:
        solver = BombSolver(evaluator.engine)
        setattr(evaluator, "_bomb_solver", solver)
    return solver


# A phase-1 leaf in the bombing phase is solved only when even trying every target for every
# bomb left (cells ** bombs) takes at most this many blasts, so a leaf never costs more than
# a few milliseconds.  A long bombing phase (heartExercise3: 11 bombs over 100 cells) is out
# of reach at the leaves.  With strength 0 the solve is always tried (the counts game is
# small with few players and bombs) and stops at this many counts positions.
LEAF_BUDGET = 400


# With three or more players still in the game, a strength-0 leaf whose solve ran past
# LEAF_BUDGET is not tried again in the same search with the same bombs in hand (`leaf_value`'s
# `hopeless`).  The paranoid counts game of eight players with three bombs each is far over
# the budget, so every such leaf fails alike, and each failure spent the whole budget: about
# 8 ms under PyPy, where an evaluation costs microseconds (docs/speed.md).
HOPELESS_MIN_PLAYERS = 3


def bombs_left(engine: Engine) -> int:
    """How many bombs the players still in the game hold (the bombing phase's length)."""
    return sum(engine.bombs[p] for p in engine.players_in_game())


def leaf_key(engine: Engine, root: int) -> Tuple[int, ...]:
    """What the size of a strength-0 leaf's solve depends on besides the stone counts: the
    root, the bomber to move and the bombs in hand of each player (-1: disqualified)."""
    return (root, engine.to_move) + tuple(
        -1 if engine.disqualified[p] else engine.bombs[p] for p in range(1, engine.players + 1))


def leaf_value(evaluator: Evaluator, root: int,
               hopeless: Optional[Set[Tuple[int, ...]]] = None) -> int:
    """The search value of a position at the end of phase 1 (or later) for `root`: the
    bombing phase solved exactly (on places, the evaluation breaking ties) when that is in
    reach (see LEAF_BUDGET), else the evaluation on phase 1's scale
    (`Evaluator.phase_end_value`).  `hopeless` (kept by the caller for one search) holds the
    `leaf_key`s whose solve ran out of budget (HOPELESS_MIN_PLAYERS)."""
    e = evaluator.engine
    if e.phase == OVER:
        return evaluator.evaluate(root)
    if e.strength > 0 and (e.cells - e.counts[HOLE]) ** bombs_left(e) > LEAF_BUDGET:
        return evaluator.phase_end_value(root)
    key: Optional[Tuple[int, ...]] = None
    if (hopeless is not None and e.strength == 0
            and len(e.players_in_game()) >= HOPELESS_MIN_PLAYERS):
        key = leaf_key(e, root)
        if key in hopeless:
            return evaluator.phase_end_value(root)
    solved = solver_for(evaluator).solve(root, LEAF_BUDGET)
    if solved is None:
        if key is not None and hopeless is not None:
            hopeless.add(key)
        return evaluator.phase_end_value(root)
    left = sum(1 for p in e.players_in_game() if p != root)
    return search_value(solved.value, left, evaluator.evaluate(root))
