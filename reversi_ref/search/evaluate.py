"""The static evaluation: how good a position is for one player, on any map.

Values are ints in points (100 = one stone), from the point of view of the `root` player, and
relative: the root's own value minus a mix of its opponents' (the best opponent and the average
one, see `EvalConfig.leader_share`), since RULES.md 7 ranks players against each other.

A player's value in the building phase counts its stones, its stones on corner-like, edge-like
and half-open cells of the map's geometry (`MapAnalysis`), a penalty for stones next to a free
corner-like cell, and its override stones and bombs in hand; weights move from their early to
their late value as the board fills.  Mobility (the cells a player could take without an
override stone, the root's against its opponents' average) is added for the root; with two
players so is the frontier (the free cells next to a player's stones, where fewer is better),
counted in the same pass over the board.  With `EvalConfig.inversion_blend` (three or more
players, off by default) each player's stones count partly as those of the player before it
(with `inversion_shift`, as many seats before it as there are tiles left), while an inversion
tile is left to hand them on.

In the bombing phase only stones and bombs count, against the players just above and just
below the root in the ranking (those are the places a bomb can win or lose).  A finished game
is valued by rank first, then by the stone margin.  A player wiped off the board with no way
back already has its final place: for the root a decisive loss, for an opponent a large bonus
(`is_eliminated`; on open maps the wipe-out is the commonest way to lose).
"""

from __future__ import annotations

import random
from typing import List, Tuple

from ..engine import BOMB, OVER
from ..engine.core import Engine
from ..engine.tables import BONUS, CHOICE, EMPTY, EXPANSION, HOLE, INVERSION
from .analysis import CORNER, EDGE, HALF_OPEN, MapAnalysis
from .config import EvalConfig, Ramp

# A finished game: each opponent beaten or lost to is worth this much; winning outright more.
RANK_STEP = 1_000_000_000
WIN_BONUS = 5_000_000_000
# An opponent with no stone that cannot place one itself (`Evaluator.is_wiped_out`); small
# enough that seven of them stay below the decisive threshold (`is_decisive`).
ELIMINATED_OPPONENT = RANK_STEP // 16
# Any evaluation lies strictly inside (-INFINITY, INFINITY).
INFINITY = 1 << 40

# Entries of the evaluation cache (a power of two); see `Evaluator.evaluate`.
EVAL_CACHE_BITS = 16

# Mixed into a position's hash to key its value for one root: random, like Zobrist keys (the
# hash's own keys for the player to move would make (position, root) pairs collide).
_ROOT_SALT = [random.Random(9000 + p).getrandbits(64) - (1 << 63) for p in range(9)]

# Rows of the per-player count table (`counts[row * 16 + code]`).
_ROW_CORNER = 1
_ROW_EDGE = 2
_ROW_HALF = 3
_ROW_NEIGHBOUR = 4


def ramp(weights: Ramp, progress: int) -> int:
    """A weight for the game's `progress` (0 = start, 1024 = board full)."""
    early, late = weights
    return early + ((late - early) * progress >> 10)


def balance(root: int, weight: int, counts: List[int], engine: Engine) -> int:
    """`weight` times (root's count - its opponents' average) / (the two + 2); opponents
    are the players still in the game."""
    own = counts[root]
    others = 0
    count = 0
    disqualified = engine.disqualified
    for p in range(1, engine.players + 1):
        if p != root and not disqualified[p]:
            others += counts[p]
            count += 1
    theirs = others // count if count else 0
    return weight * (own - theirs) // (own + theirs + 2)


def is_free_code(code: int) -> bool:
    """Whether a cell code holds no stone and is no hole (empty or a special tile)."""
    return code == EMPTY or CHOICE <= code <= BONUS


class Evaluator:
    """Evaluates positions of one engine; `root` is the player whose view is taken."""

    def __init__(self, engine: Engine, analysis: MapAnalysis, config: EvalConfig) -> None:
        self.engine = engine
        self.analysis = analysis
        self.config = config
        row_of = {CORNER: _ROW_CORNER, EDGE: _ROW_EDGE, HALF_OPEN: _ROW_HALF}
        self.weighted_cells: List[int] = []
        self.weighted_rows: List[int] = []
        for c in range(analysis.cells):
            row = row_of.get(analysis.blocked[c], 0)
            if row:
                self.weighted_cells.append(c)
                self.weighted_rows.append(row * 16)
        self.corners = analysis.corners
        self.corner_neighbours = analysis.corner_neighbours
        strength = engine.strength
        side = 2 * strength + 1
        self.blast_area = min(side * side, max(1, analysis.playable))
        self._table = [0] * (5 * 16)
        self._values = [0] * 9
        self._mobility = [0] * 9
        self._free = [is_free_code(code) for code in range(16)]
        self._access = [0] * 9
        self._stable = [0] * 9
        self._stable_mark = [0] * analysis.cells
        self._stamp = 0
        self.chains: List[List[int]] = []
        if config.stable != (0, 0):
            self.chains = stable_chains(engine.nxt, analysis)
        # Regions: the playable cells split by holes (steps, transitions included), only kept
        # when there are several; parity (two players) and region_share (more) count the
        # free cells of contested regions.
        self.regions: List[List[int]] = []
        if (config.parity if engine.players == 2 else config.region_share) != (0, 0):
            self.regions = connected_regions(engine)
            if len(self.regions) < 2:
                self.regions = []
        # `inversion_shift`: inversion tiles in regions with no stone (nor expansion stone)
        # can never be taken, since a move needs a line of stones, so they shift nothing.
        self.dead_inversions = 0
        if config.inversion_shift and engine.players >= 3:
            self.dead_inversions = dead_inversions(engine)
        # Building-phase values by Zobrist hash (mixed with the root's salt); a search meets
        # the same leaf again through transpositions and re-searches (7-35% of the calls).
        self._cache_mask = (1 << EVAL_CACHE_BITS) - 1
        self._cache_keys = [0] * (1 << EVAL_CACHE_BITS)
        self._cache_values = [0] * (1 << EVAL_CACHE_BITS)

    # -------------------------------------------------------------------------------------
    # Helpers
    # -------------------------------------------------------------------------------------

    def stones(self) -> int:
        """The cells holding a stone: every player's and the expansion stones."""
        e = self.engine
        counts = e.counts
        taken = counts[EXPANSION]
        for p in range(1, e.players + 1):
            taken += counts[p]
        return taken

    def progress(self) -> int:
        """How full the board is: 0 at no stones, 1024 when every non-hole cell holds one."""
        e = self.engine
        playable = e.cells - e.counts[HOLE]
        if playable <= 0:
            return 1024
        return min(1024, self.stones() * 1024 // playable)

    def free_cells(self) -> int:
        """The cells without a stone that are no hole (free cells and special tiles)."""
        e = self.engine
        return max(0, e.cells - e.counts[HOLE] - self.stones())

    def is_eliminated(self, player: int) -> bool:
        """Whether `player` can never hold a stone again: wiped out (`is_wiped_out`), and no
        choice or inversion tile left to hand it stones (RULES.md 3)."""
        counts = self.engine.counts
        return not (counts[CHOICE] or counts[INVERSION]) and self.is_wiped_out(player)

    def is_wiped_out(self, player: int) -> bool:
        """Whether `player` holds no stone and cannot place one itself (RULES.md 3: only an
        override stone on an `x` would).  A choice or inversion tile does not count as a way
        back here: a tile only hands stone sets from player to player, so as many players
        hold none after it as before."""
        e = self.engine
        return not e.counts[player] and not (e.overrides[player] and e.counts[EXPANSION])

    def relative(self, root: int, values: List[int]) -> int:
        """`values[root]` minus the config's mix of the best and the average opponent."""
        e = self.engine
        disqualified = e.disqualified
        best = -INFINITY
        total = 0
        others = 0
        for p in range(1, e.players + 1):
            if p != root and not disqualified[p]:
                v = values[p]
                total += v
                others += 1
                if v > best:
                    best = v
        if others == 0:
            return values[root]
        share = self.config.leader_share
        against = (share * best * others + (100 - share) * total) // (100 * others)
        return values[root] - against

    # -------------------------------------------------------------------------------------
    # Values
    # -------------------------------------------------------------------------------------

    def player_values(self, progress: int) -> List[int]:
        """Each player's own value in the building phase (index = player, 0 unused), without
        mobility; the part of `evaluate` that is the same for every point of view.
        `progress` is `self.progress()`, which the caller needs too."""
        e = self.engine
        cfg = self.config
        board = e.board
        counts = e.counts
        table = self._table
        for i in range(len(table)):
            table[i] = 0
        cells = self.weighted_cells
        rows = self.weighted_rows
        for i in range(len(cells)):
            table[rows[i] + board[cells[i]]] += 1
        free = self._free
        neighbours = self.corner_neighbours
        corners = self.corners
        for i in range(len(corners)):
            if free[board[corners[i]]]:
                for u in neighbours[i]:
                    table[_ROW_NEIGHBOUR * 16 + board[u]] += 1
        w_material = ramp(cfg.material, progress)
        w_corner = ramp(cfg.corner, progress)
        w_edge = ramp(cfg.edge, progress)
        w_half = ramp(cfg.half_open, progress)
        w_near = ramp(cfg.corner_neighbour, progress)
        w_override = ramp(cfg.override, progress)
        w_bomb = cfg.bomb_per_cell * self.blast_area + ramp(cfg.bomb_late, progress)
        values = self._values
        for p in range(1, e.players + 1):
            values[p] = (w_material * counts[p] + w_corner * table[16 + p]
                         + w_edge * table[32 + p] + w_half * table[48 + p]
                         + w_near * table[64 + p] + w_override * e.overrides[p]
                         + w_bomb * e.bombs[p])
        if cfg.corner_overridable != 100 and e.players >= 3:
            self.discount_corners(values, w_corner)
        if cfg.inversion_blend != (0, 0) and e.players >= 3 and counts[INVERSION]:
            shift = counts[INVERSION] - self.dead_inversions if cfg.inversion_shift else 1
            self.blend_inversion(values, ramp(cfg.inversion_blend, progress),
                                 w_override, w_bomb, shift)
        if self.regions and e.players >= 3:
            self.share_regions(values, ramp(cfg.region_share, progress))
        if self.chains:
            w_stable = ramp(cfg.stable, progress)
            stable = self.stable_counts()
            for p in range(1, e.players + 1):
                values[p] += w_stable * stable[p]
        return values

    def region_counts(self) -> List[Tuple[List[int], int]]:
        """Per region of `regions`: how many of its cells hold each board code that is not
        free (index p: player p's stones), and its number of free cells."""
        board = self.engine.board
        free = self._free
        tallies = []
        for cells in self.regions:
            tally = [0] * 16
            empty = 0
            for c in cells:
                v = board[c]
                if free[v]:
                    empty += 1
                else:
                    tally[v] += 1
            tallies.append((tally, empty))
        return tallies

    def share_regions(self, values: List[int], per_cell: int) -> None:
        """Add to each player's value `per_cell` times its share of the free cells of every
        region where at least two players still in the game have stones, the cells split
        among those players in proportion to their stones there."""
        e = self.engine
        players = e.players
        disqualified = e.disqualified
        for tally, empty in self.region_counts():
            if not empty:
                continue
            present = stones = 0
            for p in range(1, players + 1):
                if tally[p] and not disqualified[p]:
                    present += 1
                    stones += tally[p]
            if present < 2:
                continue  # one player left: nobody takes these cells any more
            for p in range(1, players + 1):
                if tally[p] and not disqualified[p]:
                    values[p] += per_cell * empty * tally[p] // stones

    def blend_inversion(self, values: List[int], per_mille: int, w_override: int,
                        w_bomb: int, shift: int = 1) -> None:
        """Move each player's board value (`values` without the override stones and bombs
        in hand) `per_mille` of the way to that of the player `shift` seats before it, whose
        stones that many inversions would hand it (RULES.md 3: player k's stones go to
        k mod n + 1)."""
        e = self.engine
        n = e.players
        board = [0] * (n + 1)
        for p in range(1, n + 1):
            board[p] = values[p] - w_override * e.overrides[p] - w_bomb * e.bombs[p]
        for p in range(1, n + 1):
            before = board[(p - 1 - shift) % n + 1]
            values[p] += per_mille * (before - board[p]) // 1000

    def stable_counts(self) -> List[int]:
        """Per player, the stones on edge-like cells in an unbroken run of its own stones
        from a corner-like cell it holds (`stable_chains`): none of them can be captured."""
        e = self.engine
        board = e.board
        n = e.players
        stable = self._stable
        for p in range(1, n + 1):
            stable[p] = 0
        self._stamp += 1
        stamp = self._stamp
        mark = self._stable_mark
        for chain in self.chains:
            owner = board[chain[0]]
            if owner < 1 or owner > n:
                continue
            for i in range(1, len(chain)):
                c = chain[i]
                if board[c] != owner:
                    break
                if mark[c] != stamp:
                    mark[c] = stamp
                    stable[owner] += 1
        return stable

    def evaluate(self, root: int, alpha: int = -INFINITY, beta: int = INFINITY) -> int:
        """The value of the engine's position for `root` (points, higher is better).

        Given a search window, a value outside it may come back as a bound instead: when the
        rest of the value already lies that far outside that mobility (less than its weight
        either way) cannot bring it back, mobility is not counted (a lazy evaluation).  Exact
        building-phase values are cached by position."""
        e = self.engine
        phase = e.phase
        if phase == OVER:
            return self.final_value(root)
        if phase == BOMB:
            return self.bombing_value(root)
        key = e.hash ^ _ROOT_SALT[root]
        slot = key & self._cache_mask
        if self._cache_keys[slot] == key:
            return self._cache_values[slot]
        eliminated = 0
        for p in range(1, e.players + 1):
            if e.disqualified[p]:
                continue
            if p == root:
                if self.is_eliminated(p):
                    return self.eliminated_value(root)
            elif self.is_wiped_out(p):
                # Counted with tiles left too, so that taking the last tile, which only
                # moves the empty sets on, is not worth a wiped-out player (stop 70: we
                # gave our 452 stones to the next player for it).
                eliminated += 1
        progress = self.progress()
        value = (self.relative(root, self.player_values(progress))
                 + ELIMINATED_OPPONENT * eliminated)
        cfg = self.config
        w_mobility = ramp(cfg.mobility, progress)
        w_shut = w_access = w_share = 0
        if e.players >= 3:
            w_shut = ramp(cfg.shut_in, progress)
            w_access = ramp(cfg.access, progress)
            if cfg.mobility_share and e.players <= cfg.share_max_players:
                # The bound of the term below: its weight for each free cell.
                w_share = cfg.mobility_share * self.free_cells()
        else:
            if cfg.parity != (0, 0):
                value += self.parity_term(root, ramp(cfg.parity, progress))
            # The frontier is access with the sign turned: own free neighbours count against.
            w_access = -ramp(cfg.frontier, progress)
        if w_mobility or w_shut or w_access or w_share:
            reach = abs(w_mobility) + abs(w_shut) + abs(w_access) + abs(w_share)
            if value - reach >= beta:
                return value - reach
            if value + reach <= alpha:
                return value + reach
        if e.players == 2 and w_access:
            # Mobility and the frontier from one pass over the board.
            e.mobility_and_frontier(self._mobility, self._access)
            value += (balance(root, w_mobility, self._mobility, e)
                      + balance(root, w_access, self._access, e))
        else:
            if w_mobility or w_shut or w_share:
                value += self.mobility_term(root, w_mobility, w_shut, w_share)
            if w_access:
                value += self.access_term(root, w_access)
        self._cache_keys[slot] = key
        self._cache_values[slot] = value
        return value

    def mobility_term(self, root: int, weight: int, shut_in: int = 0, share: int = 0) -> int:
        """`weight` times (own mobility - opponents' average) / (own + that + 2), where a
        player's mobility is its targets without an override stone: with one in hand nearly
        every stone on the board would be a move, and override stones in hand are valued on
        their own.  A player with no such target is shut in: `-shut_in` for the root,
        `shut_in` shared over the opponents for each of them.  `share` (the free cells times
        `mobility_share`) is split in proportion to mobility, the root's part against its
        opponents' average."""
        e = self.engine
        mobility = self._mobility
        e.plain_mobility(mobility)
        value = balance(root, weight, mobility, e)
        if shut_in:
            disqualified = e.disqualified
            count = shut = 0
            for p in range(1, e.players + 1):
                if p != root and not disqualified[p]:
                    count += 1
                    if mobility[p] == 0:
                        shut += 1
            if count:
                if mobility[root] == 0:
                    value -= shut_in
                value += shut_in * shut // count
        if share:
            value += self.share_term(root, share, mobility)
        return value

    def share_term(self, root: int, share: int, mobility: List[int]) -> int:
        """`share` times (root's mobility - its opponents' average) / everybody's mobility:
        the root's expected part of what is left against an average opponent's."""
        disqualified = self.engine.disqualified
        own = mobility[root]
        total = own
        others = count = 0
        for p in range(1, self.engine.players + 1):
            if p != root and not disqualified[p]:
                others += mobility[p]
                count += 1
        total += others
        if not count or not total:
            return 0
        return share * (own * count - others) // (count * total)

    def access_term(self, root: int, weight: int) -> int:
        """`weight` times (own access - opponents' average) / (own + that + 2), where a
        player's access is the free cells one step from its stones: where the lines that
        let it move again start (a player without any can be shut in for good)."""
        e = self.engine
        e.frontier(self._access)
        return balance(root, weight, self._access, e)

    def discount_corners(self, values: List[int], w_corner: int) -> None:
        """Three or more players: take from each player's value the part of its corner-like
        stones' weight (`w_corner` each) that `corner_overridable` drops while any opponent
        still in the game holds an override stone."""
        e = self.engine
        drop = w_corner * (100 - self.config.corner_overridable) // 100
        if not drop:
            return
        table = self._table
        overrides = e.overrides
        disqualified = e.disqualified
        holders = 0
        for p in range(1, e.players + 1):
            if overrides[p] and not disqualified[p]:
                holders += 1
        for p in range(1, e.players + 1):
            own = 1 if overrides[p] and not disqualified[p] else 0
            if holders > own:
                values[p] -= drop * table[_ROW_CORNER * 16 + p]

    def parity_term(self, root: int, weight: int) -> int:
        """Two players: `weight` when the root would make the last move into the free cells
        of the contested regions (an odd number with the root to move, an even number with
        the opponent to move), `-weight` otherwise; 0 with nothing contested."""
        e = self.engine
        counts = e.counts
        if not self.regions:
            if not (counts[1] and counts[2]):
                return 0
            left = counts[EMPTY] + counts[CHOICE] + counts[INVERSION] + counts[BONUS]
        else:
            left = 0
            for tally, empty in self.region_counts():
                if tally[1] and tally[2]:
                    left += empty
        if left == 0:
            return 0
        mine = (left & 1 == 1) == (e.to_move == root)
        return weight if mine else -weight

    def eliminated_value(self, root: int) -> int:
        """The value for a `root` wiped off the board in the building phase: it ends with no
        stones, behind everybody who still has some (RULES.md 7), so a decisive loss."""
        e = self.engine
        counts = e.counts
        ahead = 0
        best = 0
        for p in range(1, e.players + 1):
            if p != root and not e.disqualified[p] and counts[p] > 0:
                ahead += 1
                best = max(best, counts[p])
        return -RANK_STEP * max(1, ahead) - 100 * best

    def bombing_value(self, root: int) -> int:
        """The value in the bombing phase: stones against the players just above and below
        `root` in the ranking, the bombs in hand, and a bonus per place (RULES.md 5, 7)."""
        e = self.engine
        counts = e.counts
        disqualified = e.disqualified
        mine = counts[root]
        above = -1
        below = -1
        beaten = 0
        lost = 0
        others = 0
        bomb_value = self.config.bomb_per_cell * self.blast_area
        for p in range(1, e.players + 1):
            if p == root or disqualified[p]:
                continue
            others += 1
            s = counts[p]
            if s > mine:
                lost += 1
                if above < 0 or s < counts[above]:
                    above = p
            else:
                if s < mine:
                    beaten += 1
                if below < 0 or s > counts[below]:
                    below = p
        value = bomb_value * e.bombs[root]
        if others == 0:
            return value + 100 * mine
        rivals = [p for p in (above, below) if p >= 0]
        total = 0
        for p in rivals:
            total += 100 * (mine - counts[p]) - bomb_value * e.bombs[p]
        value += total // len(rivals)
        value += 2000 * (beaten - lost)
        return value

    def phase_end_value(self, root: int) -> int:
        """The value of a bombing-phase position at a leaf of a phase-1 search, on the scale
        `evaluate` keeps during phase 1: `bombing_value`, plus ELIMINATED_OPPONENT for each
        opponent without stones, and `eliminated_value` for a root without stones.  Without
        that a line that ends phase 1 would drop (or rise) by those terms against one that
        does not.  Only here: inside the bombing phase, taking an opponent's last stone is
        worth no more than the place it gains (`bombing_value`)."""
        e = self.engine
        counts = e.counts
        if counts[root] == 0:
            return self.eliminated_value(root)
        wiped = 0
        for p in range(1, e.players + 1):
            if p != root and not e.disqualified[p] and counts[p] == 0:
                wiped += 1
        return self.bombing_value(root) + ELIMINATED_OPPONENT * wiped

    def final_value(self, root: int) -> int:
        """The value of a finished game: places first (RULES.md 7), then the stone margin."""
        e = self.engine
        counts = e.counts
        if e.disqualified[root]:
            return -INFINITY + 1
        mine = counts[root]
        beaten = 0
        lost = 0
        best = -1
        others = 0
        for p in range(1, e.players + 1):
            if p == root or e.disqualified[p]:
                continue
            others += 1
            s = counts[p]
            if s > best:
                best = s
            if s < mine:
                beaten += 1
            elif s > mine:
                lost += 1
        if others == 0:
            return WIN_BONUS + RANK_STEP
        value = RANK_STEP * (beaten - lost) + 100 * (mine - best)
        if lost == 0 and beaten == others:
            value += WIN_BONUS
        return value


def stable_chains(nxt: List[int], analysis: MapAnalysis) -> List[List[int]]:
    """Lines out of corner-like cells along edge-like cells: each list is a corner, then the
    cells met stepping away from it (transitions followed) while the cell is edge-like and
    its one open axis is the walk's.  A stone there next to a stable stone of its owner on
    the walk's side can only be captured by a line through that stone too, so a run of one
    player's stones from a corner it holds is never captured (RULES.md 3)."""
    chains: List[List[int]] = []
    blocked = analysis.blocked
    for c in analysis.corners:
        for d in range(8):
            chain = [c]
            seen = {c}
            k = nxt[c * 8 + d]
            while k >= 0:
                u = k >> 3
                axis = (k & 7) % 4
                if (u in seen or blocked[u] != EDGE or nxt[u * 8 + axis] < 0
                        or nxt[u * 8 + axis + 4] < 0):
                    break
                seen.add(u)
                chain.append(u)
                k = nxt[k]
            if len(chain) > 1:
                chains.append(chain)
    return chains


def connected_regions(engine: Engine) -> List[List[int]]:
    """The playable cells of the engine's map in groups connected by steps (a step can be
    walked back, RULES.md 2), each a list of cells."""
    board = engine.board
    steps = engine.steps
    start = engine.steps_start
    cells = engine.cells
    seen = [False] * cells
    regions: List[List[int]] = []
    for c in range(cells):
        if seen[c] or board[c] == HOLE:
            continue
        seen[c] = True
        group = [c]
        i = 0
        while i < len(group):
            g = group[i]
            for k in range(start[g], start[g + 1]):
                u = steps[k] >> 3
                if not seen[u] and board[u] != HOLE:
                    seen[u] = True
                    group.append(u)
            i += 1
        regions.append(group)
    return regions


def dead_inversions(engine: Engine) -> int:
    """How many inversion tiles lie in regions (`connected_regions`) that hold no stone of a
    player and no expansion stone: nobody can ever take them."""
    board = engine.board
    n = engine.players
    dead = 0
    for region in connected_regions(engine):
        if not any(1 <= board[c] <= n or board[c] == EXPANSION for c in region):
            dead += sum(1 for c in region if board[c] == INVERSION)
    return dead


def is_decisive(value: int) -> bool:
    """Whether a search value can only come from finished games (a proven result)."""
    return abs(value) >= RANK_STEP // 2
