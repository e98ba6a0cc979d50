"""Alpha-beta search for several players: paranoid and best-reply search (BRS).

Both take the view of one player, the root: a position's value is the root's evaluation, the
root maximises it and the opponents minimise it.

- *Paranoid* follows the real turn order (the engine's `to_move`, skips included): every
  opponent's turn is a min node.
- *Best-reply search* (Schadd and Winands) alternates a max layer, where the root moves, with
  one min layer in which all opponents' moves are tried and only the single most harmful one
  is played (the other opponents pass).  It looks deeper into the root's own future on maps
  with many players, at the price of positions that cannot happen.

`Searcher.iterate(depth)` is iterative deepening as a generator (sunfish style): it yields
`(depth, best move, value, nodes)` after each completed depth, and the caller decides when to
stop asking.  `Searcher.ponder(depth)` deepens the same way on a position where an opponent
is to move, to fill the transposition table while the player waits for its turn.  A deadline
(`deadline`, in the clock's seconds) stops the search inside an iteration: the node counter
is checked against the clock every few nodes, a flag is set and the search unwinds without
raising; an aborted iteration yields nothing, but its best root move so far is kept in
`partial` when it was searched completely.

Move ordering: the transposition-table move, two killer moves per ply, the history heuristic
per player and target cell, and a static score per target cell from the map's geometry (corners
first, cells next to a free corner last, override moves after ordinary ones).

*Swap quiescence* (paranoid): a choice or inversion tile hands whole stone sets to another
player (RULES.md 3), so a leaf where the player to move can take one is not quiet: the static
value (its stone counts) is what that player gets only if it declines.  At such a leaf the
tile moves are searched as well (up to SWAP_PLIES of them in a row), and the player keeps the
better of declining and taking.  Tiles are few, so the leaf test costs a few board reads.
With `EvalConfig.selfish_swaps` (three or more players), an opponent takes a tile, in the tree
and at a leaf, only where it gains stones by it: paranoid opponents would otherwise hand the
root's stones on at any cost to themselves, and every line near a tile would look lost.

With `EvalConfig.skip_strangers` (paranoid, three or more players, maps cut into regions by
holes), an opponent that cannot reach the root's stones (no stone in a region of the
root's and no way into one) passes in the tree, so the plies go to the players who share a
region with the root.  With `EvalConfig.stranger_gap`, the same holds for an opponent whose
stones all lie that many free cells or more from the root's block of stones: on maps where
the players start in separate clusters (four and four on `comp2020_01_8p`), a paranoid tree
of a few plies otherwise holds the moves of the far cluster, not the root's neighbours.
Neither passes anybody over while a choice or inversion tile is left (whoever takes one
hands stone sets round); with `EvalConfig.far_swaps`, only tiles fewer than `stranger_gap`
free cells from some stone count.

With `EvalConfig.probcut_margin` (paranoid, two players, off by default), ProbCut: a
null-window node first asks a search `probcut_reduction` plies shallower whether the mover's
side of the window is beaten by the margin, and returns that bound if so.

Only phase-1 (building) positions are searched here; a position in the bombing phase or at
the end of the game is a leaf (`reversi_ref.search.bombing` searches the bombing phase).
"""

from __future__ import annotations

import time
from collections import deque
from typing import Deque, Iterator, List, Optional, Set, Tuple

from ..engine import BOMB, BUILD
from ..engine.core import Engine
from ..engine.tables import CHOICE, EXPANSION, HOLE, INVERSION, encode_board
from .analysis import CORNER, EDGE, MapAnalysis
from .config import EvalConfig
from .endgame import leaf_value
from .evaluate import INFINITY, RANK_STEP, Evaluator, connected_regions, is_free_code
from .position import set_mover
from .table import EXACT, LOWER, NO_MOVE, UPPER, TranspositionTable
from .timing import Clock

PARANOID = "paranoid"
BRS = "brs"
MODES = (PARANOID, BRS)

MAX_PLY = 128
# Swap quiescence follows at most this many choice or inversion moves from a leaf.
SWAP_PLIES = 2
# ... and only on maps with at most this many choice and inversion tiles.
MAX_SWAP_CELLS = 32
# Late move reductions (`EvalConfig.lmr`) only where at least this many plies remain, so that
# the reduced search still has a ply of its own before the leaf.
LMR_MIN_DEPTH = 3
# The clock is read every CHECK_EVERY + 1 nodes.
CHECK_EVERY = 3
# Moves are sorted as `order_key << MOVE_BITS | packed move`; a packed BRS move carries its
# player above PLAYER_SHIFT (engine moves are below 2**21 even on a 256x256 board).
PLAYER_SHIFT = 24
MOVE_BITS = 28
MOVE_MASK = (1 << PLAYER_SHIFT) - 1
PACKED_MASK = (1 << MOVE_BITS) - 1

# Order bonuses (order points).
_TT_BONUS = 1 << 30
_KILLER_BONUS = 1 << 24
_STATIC_CORNER = 40000
_STATIC_EDGE = 3000
_STATIC_NEAR_CORNER = -20000
_STATIC_OVERRIDE = -60000
_HISTORY_CAP = 1 << 22

# `EvalConfig.keep_overrides` applies only on maps that start with at most this many override
# stones per 100 own moves (the free cells shared among the players).  Where they are
# plentiful they are ordinary moves: on `map4` (10 each, 14 own moves) keeping them lost a
# game that spending them won; on `heartExercise3` (6 each, 13 own moves) keeping them won.
KEEP_OVERRIDES_MAX_PER_100_MOVES = 50

# Mixed into the key of a BRS min layer (which has no single player to move).
_MIN_LAYER_KEY = 0x2545F4914F6CDD1D


def overrides_are_scarce(engine: Engine) -> bool:
    """Whether the engine's map starts with few override stones for the moves to be played
    (`KEEP_OVERRIDES_MAX_PER_100_MOVES`)."""
    game_map = engine.map
    free = sum(1 for code in encode_board(game_map.cells) if is_free_code(code))
    own_moves = max(1, free // max(1, game_map.players))
    return game_map.overrides * 100 <= KEEP_OVERRIDES_MAX_PER_100_MOVES * own_moves


class Searcher:
    """Iterative-deepening alpha-beta over one engine, for one root player."""

    def __init__(self, engine: Engine, evaluator: Evaluator, config: EvalConfig,
                 mode: str = PARANOID, clock: Clock = time.monotonic,
                 table: Optional[TranspositionTable] = None) -> None:
        if mode not in MODES:
            raise ValueError("unknown search mode %r (known: %s)" % (mode, ", ".join(MODES)))
        self.engine = engine
        self.evaluator = evaluator
        self.config = config
        self.mode = mode
        self.clock = clock
        self.table = table if table is not None else TranspositionTable(config.tt_bits)
        self.deadline = float("inf")
        self.stopped = False
        self.nodes = 0
        self.root = engine.to_move
        # Whether the root keeps its override stones in this search (`EvalConfig.keep_overrides`).
        self.keep_overrides = False
        self.overrides_scarce = overrides_are_scarce(engine)
        self.partial: Optional[Tuple[int, int]] = None
        cells = engine.cells
        self.killers: List[int] = [NO_MOVE] * (2 * MAX_PLY + 2)
        self.history: List[int] = [0] * (9 * cells)
        self.static: List[int] = self._static_scores(evaluator.analysis)
        # The cells of the map's choice and inversion tiles (a tile, once taken, is a stone).
        # On maps strewn with tiles (hundreds on some 50x50 maps) a swap is nearly always
        # possible and checking them all at every leaf costs more than the search gains.
        swaps = [c for c, code in enumerate(encode_board(engine.map.cells))
                 if code == CHOICE or code == INVERSION]
        self.swap_cells: List[int] = (
            swaps if config.swap_quiescence and len(swaps) <= MAX_SWAP_CELLS else [])
        # Whether opponents take swap tiles only for a gain of their own (`selfish_swaps`);
        # on the maps where swap quiescence is on, for the same reason of cost.
        self.selfish = bool(config.selfish_swaps and self.swap_cells and engine.players >= 3)
        # `skip_strangers`: each playable cell's region, where holes cut the map into several
        # (empty otherwise), and per player whether its turns are passed over in this search.
        self.region_of: List[int] = []
        if config.skip_strangers and engine.players >= 3:
            regions = connected_regions(engine)
            if len(regions) >= 2:
                self.region_of = [-1] * engine.cells
                for r, group in enumerate(regions):
                    for c in group:
                        self.region_of[c] = r
        # `stranger_gap`: how many free cells away an opponent passes over (0 = never).
        self.stranger_gap = (config.stranger_gap
                             if config.stranger_gap > 0 and engine.players >= 3 else 0)
        self.strangers: List[bool] = [False] * 9
        self.any_strangers = False
        # ProbCut (`EvalConfig.probcut_margin`): two players only, 0 = off.
        self.probcut_margin = (config.probcut_margin if config.probcut_margin > 0
                               and config.probcut_reduction > 0 and engine.players == 2 else 0)
        self.probcut_min_depth = config.probcut_reduction + 2
        # Bombing-phase leaves not worth solving again in this search (`endgame.leaf_value`).
        self.hopeless_leaves: Set[Tuple[int, ...]] = set()

    # -----------------------------------------------------------------------------------------
    # Set-up
    # -----------------------------------------------------------------------------------------

    @staticmethod
    def _static_scores(analysis: MapAnalysis) -> List[int]:
        scores = [0] * analysis.cells
        for c in range(analysis.cells):
            if analysis.blocked[c] == CORNER:
                scores[c] = _STATIC_CORNER
            elif analysis.blocked[c] == EDGE:
                scores[c] = _STATIC_EDGE
        for near in analysis.corner_neighbours:
            for c in near:
                scores[c] += _STATIC_NEAR_CORNER
        return scores

    def reset(self, root: int) -> None:
        """Prepare a new search for `root` on the engine's current position."""
        self.root = root
        self.nodes = 0
        self.stopped = False
        self.partial = None
        self.table.new_search()
        self.hopeless_leaves.clear()
        keep = self.config.keep_overrides
        self.keep_overrides = (keep > 0 and self.overrides_scarce
                               and self.evaluator.progress() < keep)
        self.find_strangers()
        for i in range(len(self.killers)):
            self.killers[i] = NO_MOVE
        history = self.history
        for i in range(len(history)):
            history[i] >>= 1

    def find_strangers(self) -> None:
        """Mark the opponents whose turns the tree passes over in this search: still in the
        game, while no choice or inversion tile is left (with `EvalConfig.far_swaps`: none
        within reach, `swaps_out_of_reach`), and out of the root's reach by region
        (`EvalConfig.skip_strangers`) or by distance (`EvalConfig.stranger_gap`)."""
        strangers = self.strangers
        for p in range(len(strangers)):
            strangers[p] = False
        self.any_strangers = False
        e = self.engine
        if not self.region_of and self.stranger_gap <= 0:
            return
        if (e.counts[CHOICE] or e.counts[INVERSION]) and not self.swaps_out_of_reach():
            return
        out_of_region = self.out_of_region() if self.region_of else None
        far = self.far_away() if self.stranger_gap > 0 else None
        for p in range(1, e.players + 1):
            if p == self.root or e.disqualified[p]:
                continue
            if (out_of_region is not None and out_of_region[p]) or (far is not None and far[p]):
                strangers[p] = True
                self.any_strangers = True

    def out_of_region(self) -> List[bool]:
        """Per player, whether it has no stone in a region where the root has one and no way
        in (an override stone for an expansion stone there).  A capture, with an override
        stone or without, ends at a stone of the mover's own in the same region (RULES.md 3)."""
        region_of = self.region_of
        e = self.engine
        board = e.board
        ours = [False] * (max(region_of) + 1)
        for c in range(len(board)):
            if board[c] == self.root:
                ours[region_of[c]] = True
        near = [False] * 9
        door = False  # an expansion stone in a region of the root's
        for c in range(len(board)):
            v = board[c]
            if v == HOLE or not ours[region_of[c]]:
                continue
            if v == EXPANSION:
                door = True
            elif 1 <= v <= 8:
                near[v] = True
        return self.unreachable(near, door)

    def far_away(self) -> List[bool]:
        """Per player, whether at least `stranger_gap` free cells lie between each of its
        stones and the root's block (the stones and expansion stones joined to the root's
        by steps), with no override stone in hand while an expansion stone is on the board.

        A capture runs along unbroken stones to one of the mover's own (RULES.md 3) and each
        move fills one free cell, so such a player cannot touch the root's stones within
        fewer plies than the gap (the steps cross transitions, RULES.md 2)."""
        e = self.engine
        board = e.board
        root = self.root
        sources = [c for c in range(e.cells) if board[c] == root]
        if not sources:
            return [False] * 9
        limit = self.stranger_gap
        gap = self.free_cells_from(sources, limit)
        near = [False] * 9
        for c in range(e.cells):
            v = board[c]
            if 1 <= v <= 8 and gap[c] < limit:
                near[v] = True
        door = e.counts[EXPANSION] > 0
        return self.unreachable(near, door)

    def swaps_out_of_reach(self) -> bool:
        """Whether `stranger_gap` and `far_swaps` are on and every choice and inversion tile
        lies at least that many free cells (itself included) from every stone on the board.

        Taking such a tile hands whole stone sets round (RULES.md 3), whoever takes it, and
        the strangers marked at the root would no longer be the right ones.  A move onto a
        tile needs a stone next to it, and a move fills at most one free cell (an override
        stone fills none), so nobody can take such a tile within fewer plies than the gap."""
        limit = self.stranger_gap
        if limit <= 0 or not self.config.far_swaps:
            return False
        e = self.engine
        board = e.board
        sources = [c for c in range(e.cells) if 1 <= board[c] <= 8]
        gap = self.free_cells_from(sources, limit)
        return all(gap[c] >= limit for c in range(e.cells)
                   if board[c] == CHOICE or board[c] == INVERSION)

    def free_cells_from(self, sources: List[int], limit: int) -> List[int]:
        """Per cell, the fewest free cells (the cell itself included) on a path of steps from
        one of the `sources`, capped at `limit`; stones and expansion stones cost nothing,
        holes block (0-1 breadth-first search over the steps, which cross transitions)."""
        e = self.engine
        board = e.board
        steps = e.steps
        start = e.steps_start
        gap = [limit] * e.cells
        queue: Deque[int] = deque()
        for c in sources:
            gap[c] = 0
            queue.append(c)
        while queue:
            c = queue.popleft()
            g = gap[c]
            for k in range(start[c], start[c + 1]):
                u = steps[k] >> 3
                v = board[u]
                if v == HOLE:
                    continue
                if 1 <= v <= 8 or v == EXPANSION:
                    if g < gap[u]:
                        gap[u] = g
                        queue.appendleft(u)
                elif g + 1 < gap[u]:
                    gap[u] = g + 1
                    queue.append(u)
        return gap

    def unreachable(self, near: List[bool], door: bool) -> List[bool]:
        """Per player, whether it is not `near` and cannot come in by an override stone on
        an expansion stone (`door`: such a stone where it would count)."""
        overrides = self.engine.overrides
        return [not near[p] and not (door and overrides[p] > 0) for p in range(9)]

    def pass_stranger(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The paranoid value when the player to move is a stranger: the same position with
        the next player in turn order who is neither a stranger nor without a move to move
        (a leaf when there is none)."""
        e = self.engine
        p = e.to_move
        n = e.players
        q = p
        for _ in range(n - 1):
            q = q + 1 if q < n else 1
            if not self.strangers[q] and e.has_any_move(q):
                set_mover(e, q)
                value = self.paranoid(depth, alpha, beta, ply)
                set_mover(e, p)
                return value
        return self.evaluator.evaluate(self.root, alpha, beta)

    def out_of_time(self) -> bool:
        """Read the clock; set `stopped` when the deadline has passed."""
        if self.clock() >= self.deadline:
            self.stopped = True
        return self.stopped

    # -----------------------------------------------------------------------------------------
    # Move ordering
    # -----------------------------------------------------------------------------------------

    def order(self, packed: List[int], tt_move: int, ply: int) -> List[int]:
        """`packed` moves (player << PLAYER_SHIFT | engine move) sorted best first."""
        board = self.engine.board
        static = self.static
        history = self.history
        cells = self.engine.cells
        use_history = self.config.use_history
        k1 = self.killers[2 * ply]
        k2 = self.killers[2 * ply + 1]
        keyed = []
        for pm in packed:
            m = pm & MOVE_MASK
            t = m >> 5
            score = static[t]
            if 1 <= board[t] <= EXPANSION:
                score += _STATIC_OVERRIDE
            if use_history:
                score += history[(pm >> PLAYER_SHIFT) * cells + t]
            if pm == tt_move:
                score += _TT_BONUS
            elif pm == k1 or pm == k2:
                score += _KILLER_BONUS
            keyed.append((score << MOVE_BITS) | pm)
        keyed.sort(reverse=True)
        return [k & PACKED_MASK for k in keyed]

    def without_stone_overrides(self, packed: List[int]) -> List[int]:
        """`packed` without its moves onto stones (override stones taking a stone back),
        unless it has nothing else.  An override stone on an expansion tile stays: it claims a
        cell no plain move can take (on small maps strewn with them, such as `map4`, taking
        them early decides the game)."""
        board = self.engine.board
        kept = [pm for pm in packed if not 1 <= board[(pm & MOVE_MASK) >> 5] < EXPANSION]
        return kept if kept else packed

    def swap_gain(self, m: int) -> int:
        """The stones the player to move gains by engine move `m` (made and taken back)."""
        e = self.engine
        p = e.to_move
        before = e.counts[p]
        e.make(m)
        gain = e.counts[p] - before
        e.unmake()
        return gain

    def without_selfless_swaps(self, packed: List[int]) -> List[int]:
        """`packed` without the choice and inversion moves by which the player to move would
        lose stones or gain none (`EvalConfig.selfish_swaps`), unless it has nothing else."""
        board = self.engine.board
        kept = []
        for pm in packed:
            m = pm & MOVE_MASK
            code = board[m >> 5]
            if (code == CHOICE or code == INVERSION) and self.swap_gain(m) <= 0:
                continue
            kept.append(pm)
        return kept if kept else packed

    def reward(self, pm: int, depth: int, ply: int) -> None:
        """A move caused a cut-off: make it a killer and raise its history."""
        if self.config.use_killers and self.killers[2 * ply] != pm:
            self.killers[2 * ply + 1] = self.killers[2 * ply]
            self.killers[2 * ply] = pm
        if self.config.use_history:
            i = (pm >> PLAYER_SHIFT) * self.engine.cells + ((pm & MOVE_MASK) >> 5)
            h = self.history[i] + depth * depth
            self.history[i] = h if h < _HISTORY_CAP else _HISTORY_CAP

    # -----------------------------------------------------------------------------------------
    # Iterative deepening
    # -----------------------------------------------------------------------------------------

    def root_moves(self) -> List[int]:
        """The root's legal moves, packed, in static order."""
        e = self.engine
        root = self.root
        packed = [(root << PLAYER_SHIFT) | m for m in e.legal_moves()]
        if self.keep_overrides and e.overrides[root] and not self.swap_threat():
            packed = self.without_stone_overrides(packed)
        return self.order(packed, NO_MOVE, 0)

    def swap_threat(self) -> bool:
        """With `selfish_swaps`: whether an opponent could now take a choice or inversion
        tile with a gain of its own.  The root then may spend an override stone to take the
        tile's line away (on `comp2024_04_8p` only override moves did, stop 39)."""
        if not self.selfish:
            return False
        e = self.engine
        natural = e.to_move
        try:
            for o in e.players_in_game():
                if o == self.root:
                    continue
                set_mover(e, o)
                for m in self.swap_moves():
                    if self.swap_gain(m) > 0:
                        return True
        finally:
            set_mover(e, natural)
        return False

    def iterate(self, max_depth: int, moves: Optional[List[int]] = None
                ) -> Iterator[Tuple[int, int, int, int]]:
        """Search depth 1, 2, ..., max_depth; yield (depth, best engine move, value, nodes)
        after each completed depth.  Stops early when the deadline passes.  `moves` are the
        packed root moves from `root_moves()` when the caller has them already."""
        e = self.engine
        if e.phase != BUILD or e.to_move != self.root:
            return
        if moves is None:
            moves = self.root_moves()
        if not moves:
            return
        previous = 0
        for depth in range(1, max_depth + 1):
            value, moves = self.search_root(depth, moves, previous)
            if self.stopped:
                return
            previous = value
            yield depth, moves[0] & MOVE_MASK, value, self.nodes
            if len(moves) == 1 and depth >= 2:
                return

    def ponder(self, max_depth: int) -> Iterator[Tuple[int, int, int]]:
        """Iterative deepening on a position where an opponent of the root is to move (the
        root's own move request is still to come): yield (depth, value, nodes) after each
        completed depth.  Its point is the transposition table it leaves behind."""
        e = self.engine
        if e.phase != BUILD or e.to_move == self.root:
            return
        for depth in range(1, max_depth + 1):
            value = self.child(depth, -INFINITY, INFINITY, 1)
            if self.stopped:
                return
            yield depth, value, self.nodes

    def search_root(self, depth: int, moves: List[int], guess: int
                    ) -> Tuple[int, List[int]]:
        """One iteration at the root: (value, moves re-ordered best first).  With aspiration
        windows, a value outside the window around `guess` is searched again in full."""
        width = self.config.aspiration
        if width > 0 and depth > 2:
            value, ordered = self._search_root(depth, moves, guess - width, guess + width)
            if self.stopped or guess - width < value < guess + width:
                return value, ordered
        return self._search_root(depth, moves, -INFINITY, INFINITY)

    def _search_root(self, depth: int, moves: List[int], alpha: int, beta: int
                     ) -> Tuple[int, List[int]]:
        e = self.engine
        self.partial = None
        best_value = -INFINITY
        best_index = 0
        scores: List[Tuple[int, int]] = []
        first_done = False
        pvs = self.config.use_pvs
        for i, pm in enumerate(moves):
            e.make(pm & MOVE_MASK)
            if i > 0 and pvs and alpha > -INFINITY:
                value = self.child(depth - 1, alpha, alpha + 1, 1)
                if not self.stopped and alpha < value < beta:
                    value = self.child(depth - 1, value, beta, 1)
            else:
                value = self.child(depth - 1, alpha, beta, 1)
            e.unmake()
            if self.stopped:
                break
            scores.append((value, i))
            if i == 0:
                first_done = True
            if value > best_value:
                best_value = value
                best_index = i
                if value > alpha:
                    alpha = value
                if first_done:
                    self.partial = (pm & MOVE_MASK, value)
            if alpha >= beta:
                break
        if self.stopped:
            if not first_done:
                self.partial = None
            return best_value, moves
        # Best first, then the others by their (bound) values, then in their old order.
        seen = {i for _, i in scores}
        scores.sort(key=lambda item: (-item[0], item[1]))
        order = [best_index] + [i for _, i in scores if i != best_index]
        order += [i for i in range(len(moves)) if i not in seen]
        return best_value, [moves[i] for i in order]

    def holds_place(self, move: int, depth: int, value: int) -> bool:
        """Whether the root's engine `move`, searched `depth` plies, reaches the place of
        `value`, the proven result of the root's best move at that depth: a value above
        `value` - RANK_STEP / 2 (a place is worth RANK_STEP, the margin within it far less).
        False when the deadline stops the search."""
        floor = value - RANK_STEP // 2
        self.engine.make(move)
        result = self.child(depth - 1, floor, floor + 1, 1)
        self.engine.unmake()
        return not self.stopped and result > floor

    def child(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The value of the engine's position after a root-player move."""
        if self.mode == PARANOID:
            return self.paranoid(depth, alpha, beta, ply)
        return self.brs(depth, alpha, beta, ply, False, False)

    # -----------------------------------------------------------------------------------------
    # Paranoid
    # -----------------------------------------------------------------------------------------

    def paranoid(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """Paranoid alpha-beta value of the engine's position (root's view)."""
        e = self.engine
        self.nodes += 1
        if self.nodes & CHECK_EVERY == 0 and self.clock() >= self.deadline:
            self.stopped = True
            return 0
        if e.phase != BUILD or depth <= 0 or ply >= MAX_PLY:
            if self.swap_cells and e.phase == BUILD and ply < MAX_PLY:
                return self.swap_quiescence(alpha, beta, SWAP_PLIES)
            return self.leaf(alpha, beta)
        if self.any_strangers and self.strangers[e.to_move]:
            return self.pass_stranger(depth, alpha, beta, ply)
        table = self.table
        use_tt = self.config.use_tt
        key = e.hash
        tt_move = NO_MOVE
        if use_tt:
            i = table.probe(key)
            if i >= 0:
                tt_move = table.moves[i]
                if table.depth(i) >= depth:
                    v = table.values[i]
                    bound = table.bound(i)
                    if bound == EXACT:
                        return v
                    if bound == LOWER and v >= beta:
                        return v
                    if bound == UPPER and v <= alpha:
                        return v
        p = e.to_move
        maximizing = p == self.root
        if self.probcut_margin and depth >= self.probcut_min_depth and beta - alpha == 1:
            cut = self.probcut(depth, alpha, beta, ply, maximizing)
            if self.stopped:
                return 0
            if cut:
                return beta if maximizing else alpha
        packed = [(p << PLAYER_SHIFT) | m for m in e.legal_moves()]
        if maximizing and self.keep_overrides and e.overrides[p]:
            packed = self.without_stone_overrides(packed)
        elif not maximizing and self.selfish:
            packed = self.without_selfless_swaps(packed)
        moves = self.order(packed, tt_move, ply) if len(packed) > 1 else packed
        alpha0 = alpha
        beta0 = beta
        pvs = self.config.use_pvs
        # Moves from this index on are first searched one ply shallower (late move reductions).
        late = self.config.lmr if self.config.lmr and depth >= LMR_MIN_DEPTH else len(moves)
        best_move = NO_MOVE
        if maximizing:
            best = -INFINITY
            for i, pm in enumerate(moves):
                e.make(pm & MOVE_MASK)
                if i > 0 and pvs:
                    if i >= late:
                        v = self.paranoid(depth - 2, alpha, alpha + 1, ply + 1)
                        if v > alpha and not self.stopped:
                            v = self.paranoid(depth - 1, alpha, alpha + 1, ply + 1)
                    else:
                        v = self.paranoid(depth - 1, alpha, alpha + 1, ply + 1)
                    if alpha < v < beta and not self.stopped:
                        v = self.paranoid(depth - 1, v, beta, ply + 1)
                else:
                    v = self.paranoid(depth - 1, alpha, beta, ply + 1)
                e.unmake()
                if self.stopped:
                    return 0
                if v > best:
                    best = v
                    best_move = pm
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            self.reward(pm, depth, ply)
                            break
        else:
            best = INFINITY
            for i, pm in enumerate(moves):
                e.make(pm & MOVE_MASK)
                if i > 0 and pvs:
                    if i >= late:
                        v = self.paranoid(depth - 2, beta - 1, beta, ply + 1)
                        if v < beta and not self.stopped:
                            v = self.paranoid(depth - 1, beta - 1, beta, ply + 1)
                    else:
                        v = self.paranoid(depth - 1, beta - 1, beta, ply + 1)
                    if alpha < v < beta and not self.stopped:
                        v = self.paranoid(depth - 1, alpha, v, ply + 1)
                else:
                    v = self.paranoid(depth - 1, alpha, beta, ply + 1)
                e.unmake()
                if self.stopped:
                    return 0
                if v < best:
                    best = v
                    best_move = pm
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            self.reward(pm, depth, ply)
                            break
        if use_tt:
            if best <= alpha0:
                bound = UPPER
            elif best >= beta0:
                bound = LOWER
            else:
                bound = EXACT
            table.store(key, depth, bound, best, best_move)
        return best

    def probcut(self, depth: int, alpha: int, beta: int, ply: int, maximizing: bool) -> bool:
        """Whether a search `probcut_reduction` plies shallower beats the mover's bound of the
        null window (alpha, beta) by `probcut_margin` points (ProbCut: the caller then returns
        that bound without searching its moves)."""
        shallow = depth - self.config.probcut_reduction
        if maximizing:
            bound = beta + self.probcut_margin
            return self.paranoid(shallow, bound - 1, bound, ply) >= bound
        bound = alpha - self.probcut_margin
        return self.paranoid(shallow, bound, bound + 1, ply) <= bound

    def swap_moves(self) -> List[int]:
        """The mover's legal moves onto choice and inversion tiles (every choice of partner)."""
        e = self.engine
        board = e.board
        adjacent = e.adjacent
        moves: List[int] = []
        for c in self.swap_cells:
            v = board[c]
            if adjacent[c] == 0:
                continue  # no stone next to the tile: nothing to capture from it
            if v == CHOICE:
                if e.is_legal(c * 32 + 1):
                    moves.extend(range(c * 32 + 1, c * 32 + e.players + 1))
            elif v == INVERSION and e.is_legal(c * 32):
                moves.append(c * 32)
        return moves

    def leaf(self, alpha: int, beta: int) -> int:
        """The static value of the engine's position (root's view).  A line that ended
        phase 1 gets the bombing phase solved when that is in reach (`endgame.leaf_value`),
        else the evaluation on phase 1's scale (`Evaluator.phase_end_value`)."""
        e = self.engine
        if e.phase == BOMB:
            if self.config.exact_endgame:  # hook: search/endgame.py
                return leaf_value(self.evaluator, self.root, self.hopeless_leaves)
            return self.evaluator.phase_end_value(self.root)
        return self.evaluator.evaluate(self.root, alpha, beta)

    def swap_quiescence(self, alpha: int, beta: int, plies: int) -> int:
        """The value of a phase-1 leaf (root's view) when the player to move may take a
        choice or inversion tile: the better, for that player, of the static value and the
        value after each such move (searched the same way, at most `plies` tile moves
        deep)."""
        e = self.engine
        root = self.root
        evaluator = self.evaluator
        stand = evaluator.evaluate(root, alpha, beta)
        moves = self.swap_moves()
        if not moves:
            return stand
        maximizing = e.to_move == root
        if not maximizing and self.selfish:
            moves = [m for m in moves if self.swap_gain(m) > 0]
        best = stand
        for m in moves:
            if (best >= beta) if maximizing else (best <= alpha):
                break
            low = max(alpha, best) if maximizing else alpha
            high = beta if maximizing else min(beta, best)
            e.make(m)
            self.nodes += 1
            if plies > 1 and e.phase == BUILD:
                v = self.swap_quiescence(low, high, plies - 1)
            else:
                v = self.leaf(low, high)
            e.unmake()
            if (v > best) if maximizing else (v < best):
                best = v
        return best

    # -----------------------------------------------------------------------------------------
    # Best-reply search
    # -----------------------------------------------------------------------------------------

    def brs(self, depth: int, alpha: int, beta: int, ply: int, max_layer: bool,
            passed: bool) -> int:
        """Best-reply value of the engine's position (root's view); `max_layer` says whether
        the root moves next; `passed` that the other side of the layer had no move."""
        e = self.engine
        self.nodes += 1
        if self.nodes & CHECK_EVERY == 0 and self.clock() >= self.deadline:
            self.stopped = True
            return 0
        if e.phase != BUILD or depth <= 0 or ply >= MAX_PLY:
            return self.leaf(alpha, beta)
        root = self.root
        z = e.zobrist
        natural = e.to_move
        layer_key = z.to_move[root] if max_layer else _MIN_LAYER_KEY
        key = e.hash ^ z.to_move[natural] ^ layer_key
        table = self.table
        use_tt = self.config.use_tt
        tt_move = NO_MOVE
        if use_tt:
            i = table.probe(key)
            if i >= 0:
                tt_move = table.moves[i]
                if table.depth(i) >= depth:
                    v = table.values[i]
                    bound = table.bound(i)
                    if bound == EXACT:
                        return v
                    if bound == LOWER and v >= beta:
                        return v
                    if bound == UPPER and v <= alpha:
                        return v
        # The layer's moves, each packed with the player who makes it.
        packed: List[int] = []
        if max_layer:
            set_mover(e, root)
            for m in e.legal_moves():
                packed.append((root << PLAYER_SHIFT) | m)
            if self.keep_overrides and e.overrides[root]:
                packed = self.without_stone_overrides(packed)
        else:
            disqualified = e.disqualified
            for o in range(1, e.players + 1):
                if o != root and not disqualified[o]:
                    set_mover(e, o)
                    for m in e.legal_moves():
                        packed.append((o << PLAYER_SHIFT) | m)
        set_mover(e, natural)
        if not packed:
            if passed:
                return self.evaluator.evaluate(root, alpha, beta)
            return self.brs(depth, alpha, beta, ply, not max_layer, True)
        moves = self.order(packed, tt_move, ply) if len(packed) > 1 else packed
        alpha0 = alpha
        beta0 = beta
        pvs = self.config.use_pvs
        best_move = NO_MOVE
        if max_layer:
            best = -INFINITY
            for i, pm in enumerate(moves):
                set_mover(e, root)
                e.make(pm & MOVE_MASK)
                if i > 0 and pvs:
                    v = self.brs(depth - 1, alpha, alpha + 1, ply + 1, False, False)
                    if alpha < v < beta and not self.stopped:
                        v = self.brs(depth - 1, v, beta, ply + 1, False, False)
                else:
                    v = self.brs(depth - 1, alpha, beta, ply + 1, False, False)
                e.unmake()
                set_mover(e, natural)
                if self.stopped:
                    return 0
                if v > best:
                    best = v
                    best_move = pm
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            self.reward(pm, depth, ply)
                            break
        else:
            best = INFINITY
            for i, pm in enumerate(moves):
                set_mover(e, pm >> PLAYER_SHIFT)
                e.make(pm & MOVE_MASK)
                if i > 0 and pvs:
                    v = self.brs(depth - 1, beta - 1, beta, ply + 1, True, False)
                    if alpha < v < beta and not self.stopped:
                        v = self.brs(depth - 1, alpha, v, ply + 1, True, False)
                else:
                    v = self.brs(depth - 1, alpha, beta, ply + 1, True, False)
                e.unmake()
                set_mover(e, natural)
                if self.stopped:
                    return 0
                if v < best:
                    best = v
                    best_move = pm
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            self.reward(pm, depth, ply)
                            break
        if use_tt:
            if best <= alpha0:
                bound = UPPER
            elif best >= beta0:
                bound = LOWER
            else:
                bound = EXACT
            table.store(key, depth, bound, best, best_move)
        return best
