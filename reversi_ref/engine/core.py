"""The fast engine: a mutable position with make/unmake, tuned for the PyPy JIT.

See the package docstring (`reversi_ref.engine`) for the API.  Layout of this module: board
setup, move generation, make, unmake, turn order, conversions, perft.

Hot loops use plain ints and lists held in locals, no closures, generators or exceptions.
"""

from __future__ import annotations

from array import array
from typing import List, Optional, Sequence, Union

from ..errors import IllegalMoveError
from ..geometry import DIRECTIONS, Map
from ..state import BONUS_BOMB, BONUS_OVERRIDE, GameState, Move
from .tables import (BOMB, BONUS, BUILD, CHOICE, CODE_TO_CHAR, CODES, EMPTY, EXPANSION, HOLE,
                     INVERSION, OVER, PHASE_NAMES, ZobristKeys, encode_board, neighbour_table)

# A move is `cell * MOVE_SPECIAL_SLOTS + special`; sorting these ints sorts by (y, x, special).
MOVE_SPECIAL_SLOTS = 32

# Boards with at least this many cells keep the list of free cells next to a stone (`front`).
FRONT_MIN_CELLS = 256

# plain_mobility is kept incrementally from this many players on (docs/speed.md: with two
# players the count from scratch was faster on every map measured).
MOBILITY_MIN_PLAYERS = 3

# Kinds of undo frames (the last int pushed for each make or disqualify).
_FRAME_BUILD = 1
_FRAME_BOMB = 2
_FRAME_DISQUALIFY = 3


# Step kinds, looked up as `kind[player * 16 + code]` (RULES.md 3): what a capture walk of
# `player` does on a cell holding `code`.
STOP = 0      # empty, choice, inversion, bonus, hole: the line does not capture
COLLECT = 1   # another player's stone or an expansion stone: collected, the walk goes on
CLOSE = 2     # the mover's own stone: the line captures if it collected something


def kind_table() -> List[int]:
    """The step-kind table: `kind[player * 16 + code]` for players 0..8 and codes 0..15."""
    table = [STOP] * (9 * 16)
    for p in range(1, 9):
        for code in range(1, EXPANSION + 1):
            table[p * 16 + code] = CLOSE if code == p else COLLECT
    return table


def _captures(board: List[int], nxt: List[int], kind: List[int], steps: List[int],
              lo: int, hi: int, pk: int) -> bool:
    """Whether a stone placed on the cell whose first steps are `steps[lo:hi]` captures in at
    least one direction; `pk` is the mover times 16.

    The target cell itself must read as STOP on the board during the call (it does when it is
    empty or a special tile; callers put a HOLE there for override moves): a line never closes
    through the target (RULES.md 3).
    """
    for i in range(lo, hi):
        k = steps[i]
        if kind[pk + board[k >> 3]] == COLLECT:
            k = nxt[k]
            while k >= 0:
                r = kind[pk + board[k >> 3]]
                if r != COLLECT:
                    if r == CLOSE:
                        return True
                    break
                k = nxt[k]
    return False


def _slice_starts(cells: int, missing: List[int]) -> List[int]:
    """Slice starts of per-cell runs of up to 8 entries: entry c is where cell c's run begins,
    when cell c lacks one entry for each time c appears in `missing`."""
    counts = [8] * cells
    for c in missing:
        counts[c] -= 1
    starts = [0] * (cells + 1)
    total = 0
    for c in range(cells):
        total += counts[c]
        starts[c + 1] = total
    return starts


def _without(values: List[int], missing: List[int]) -> List[int]:
    """`values` without the entries at the ascending indices `missing`, copied in slices
    (much faster than a filtering comprehension over millions of entries)."""
    kept = [0] * (len(values) - len(missing))
    first = 0
    at = 0
    for i in missing + [len(values)]:
        kept[at:at + i - first] = values[first:i]
        at += i - first
        first = i + 1
    return kept


class Engine:
    """A ReversiXT position that changes in place: `make(move)` and `unmake()`.

    Counts are lists indexed by player number (index 0 unused): `overrides[p]`, `bombs[p]`,
    `disqualified[p]` (0 or 1); `counts[code]` counts the cells holding each code, so
    `counts[p]` is player p's stones.
    """

    def __init__(self, source: Union[Map, GameState]) -> None:
        """Start from a map's initial position or from any game state."""
        if isinstance(source, GameState):
            state = source
            game_map = state.map
            chars = state.board
        else:
            state = None
            game_map = source
            chars = game_map.cells
        self.map = game_map
        self.width = game_map.width
        self.height = game_map.height
        self.players = game_map.players
        self.strength = game_map.strength
        self.cells = game_map.width * game_map.height
        self.board: List[int] = encode_board(chars)
        self.nxt: List[int] = neighbour_table(game_map, self.board)
        # Incremental plain mobility (see plain_mobility): off until first asked for.
        self._tracking = False
        self._touched: List[int] = []
        self._mob_found: List[int] = []
        self._mob_line: List[int] = []
        self._mob_mark: List[int] = []
        self._mob_stamp = 0
        self._mob_gen = 0
        self._init_adjacency()
        # Large maps' cell keys are 0 for the map's own codes (see ZobristKeys).
        self.zobrist = ZobristKeys(self.cells, self.board if state is None
                                   else encode_board(game_map.cells))
        self.undo: List[int] = []
        # Whose turn it is, the phase and the hash, resolved lazily (see _resolve).
        self._to_move = 0
        self._phase = BUILD
        self._hash = 0
        self._pending = 0
        self._after = 0
        # Scratch space reused by every move (no board-sized allocation per node).
        self._runs = [0] * 8
        self._mark = [0] * self.cells
        self._stamp = 0
        self._queue = [0] * self.cells
        self._frontier_scratch = [0] * 9
        n = self.players
        self.counts = [0] * CODES
        self.overrides = [0] * 9
        self.bombs = [0] * 9
        self.disqualified = [0] * 9
        self.in_game = n
        if state is not None:
            self._load(state)
        else:
            for code in self.board:
                self.counts[code] += 1
            for p in range(1, n + 1):
                self.overrides[p] = game_map.overrides & 255
                self.bombs[p] = game_map.bombs & 255
            # RULES.md 4: player 1 first, else the next player who can move (after "player n").
            self._finish_turn(n)
            self._hash = self.compute_hash()

    def _load(self, state: GameState) -> None:
        """Set everything but the map's tables from `state`; empty the undo stack."""
        n = self.players
        board = self.board
        board[:] = encode_board(state.board)
        self._stop_tracking()
        counts = self.counts
        for code in range(CODES):
            counts[code] = 0
        for code in board:
            counts[code] += 1
        for p in range(1, n + 1):
            self.overrides[p] = state.overrides[p - 1] & 255
            self.bombs[p] = state.bombs[p - 1] & 255
            self.disqualified[p] = 1 if p in state.disqualified else 0
        self.in_game = n - sum(self.disqualified)
        self._phase = PHASE_NAMES.index(state.phase)
        self._to_move = state.to_move if self._phase != OVER and state.to_move else 0
        self._pending = 0
        self._after = 0
        del self.undo[:]
        self._hash = self.compute_hash()

    def load_state(self, state: GameState) -> None:
        """Put `state`, a position on this engine's map, into the engine, reusing the map's
        tables (much cheaper than a new engine); the undo stack is emptied."""
        if state.map is not self.map and state.map != self.map:
            raise ValueError("load_state: the state is on another map")
        board = encode_board(state.board)
        if len(board) != self.cells:
            raise ValueError("load_state: %d cells on a map of %d" % (len(board), self.cells))
        if not self._tables_fit(board):
            # The step table left out a cell that was a hole here and is not in `state`.
            self.board[:] = board
            self.nxt[:] = neighbour_table(self.map, board)
            self._init_adjacency()
        self._load(state)
        self._init_adjacent_counts()

    def _tables_fit(self, board: List[int]) -> bool:
        """Whether the step table serves `board`: it may lack steps into cells that are holes
        on `board` (the walks check for holes), but no step between two cells that are not."""
        start = self.steps_start
        exits = self.map.exits
        width = self.width
        height = self.height
        for u in range(self.cells):
            if board[u] == HOLE or start[u] != start[u + 1]:
                continue
            # u has no step in the table: check that it has none on `board` either.
            x = u % width
            y = u // width
            for d in range(8):
                far = exits.get((x, y, d))
                if far is not None:
                    x2, y2 = far[0], far[1]
                else:
                    x2, y2 = x + DIRECTIONS[d][0], y + DIRECTIONS[d][1]
                if 0 <= x2 < width and 0 <= y2 < height and board[y2 * width + x2] != HOLE:
                    return False
        return True

    def _init_adjacent_counts(self) -> None:
        # adjacent[u] from the board (see _init_adjacency).
        board = self.board
        stone = [1 if 1 <= board[k >> 3] <= EXPANSION else 0 for k in self.steps]
        start = self.steps_start
        self.adjacent[:] = [sum(stone[start[u]:start[u + 1]]) for u in range(self.cells)]
        self._init_front()

    def _init_front(self) -> None:
        # Only boards of FRONT_MIN_CELLS cells or more keep `front`: on smaller ones the PyPy
        # JIT scans the whole board as fast, and keeping the list costs make/unmake (Othello
        # perft ran 40% slower with it; docs/speed.md).
        self.front_on = self.cells >= FRONT_MIN_CELLS
        # front: the free cells (empty or a choice, inversion or bonus tile) with adjacent > 0,
        # in no particular order: the only cells where a move needs no override stone.  Kept
        # by phase-1 make/unmake (front_at[c]: c's index in front, or -1), so move generation
        # and mobility look at these cells instead of the whole board.
        board = self.board
        adjacent = self.adjacent
        self.front = [c for c in range(self.cells)
                      if adjacent[c] and (board[c] == EMPTY or CHOICE <= board[c] < HOLE)]
        front_at = [-1] * self.cells
        for i, c in enumerate(self.front):
            front_at[c] = i
        self.front_at = front_at

    def _init_adjacency(self) -> None:
        # adjacent[u]: how many of u's 8 steps land on a stone or expansion stone; only cells
        # with adjacent > 0 can capture.  Kept up to date by phase-1 moves (the only ones that
        # turn a free cell into a stone); unused in phase 2.  incoming lists, for each cell c,
        # the cells with a step onto c (once per such step), in slices given by incoming_start.
        # Built with whole-list operations: a 1000x1000 map has 8 million steps.
        cells = self.cells
        nxt = self.nxt
        # steps[steps_start[c]:steps_start[c + 1]]: the step-states of c's existing steps.
        missing = [i for i, k in enumerate(nxt) if k < 0]
        self.steps = _without(nxt, missing)
        self.steps_start = _slice_starts(cells, [i >> 3 for i in missing])
        # A step is undone by at most one step (RULES.md 2), unless the board has a cell that
        # is a hole on the map filled in; `back[k]` is the step-state whose step is k, and
        # source[k] its cell (-1 for none).
        back = array("l", [-1]) * (cells * 8)
        source = [-1] * (cells * 8)
        merged = 0
        for i, k in enumerate(nxt):
            if k >= 0:
                if back[k] >= 0:
                    merged += 1
                back[k] = i
                source[k] = i >> 3
        self.injective = merged == 0
        self.back = back
        if self.injective:
            missing = [k for k, u in enumerate(source) if u < 0]
            self.incoming = _without(source, missing)
            self.incoming_start = _slice_starts(cells, [k >> 3 for k in missing])
        else:
            lists: List[List[int]] = [[] for _ in range(cells)]
            for i, k in enumerate(nxt):
                if k >= 0:
                    lists[k >> 3].append(i >> 3)
            self.incoming = [u for found in lists for u in found]
            self.incoming_start = [0] * (cells + 1)
            for c in range(cells):
                self.incoming_start[c + 1] = self.incoming_start[c] + len(lists[c])
        self.kind = kind_table()
        self.adjacent = [0] * cells
        self._init_adjacent_counts()
        # Marks of _mark_override_targets: a stamp per cell (allocated when first needed).
        self._target_mark: List[int] = []
        self._line_mark: List[int] = []
        self._stamp_now = 0
        self._stop_tracking()

    @classmethod
    def from_state(cls, state: GameState) -> "Engine":
        """An engine holding `state`."""
        return cls(state)

    # -----------------------------------------------------------------------------------------
    # For search: another player's moves, and changing who moves (best-reply search, mobility)
    # -----------------------------------------------------------------------------------------

    def players_in_game(self) -> List[int]:
        """The players not disqualified, in seat order."""
        disqualified = self.disqualified
        return [p for p in range(1, self.players + 1) if not disqualified[p]]

    def set_to_move(self, player: int) -> None:
        """Make `player` (1..n) the player to move in the current phase, hash included.

        Not recorded for unmake: the next `unmake()` restores whoever moved before the move it
        takes back.  Raises ValueError after the game ended.
        """
        if not 1 <= player <= self.players:
            raise ValueError("no player %d in a %d-player game" % (player, self.players))
        if self._pending:
            self._resolve()
        if self._phase == OVER:
            raise ValueError("set_to_move: the game is over")
        z = self.zobrist
        self._hash ^= z.to_move[self._to_move] ^ z.to_move[player]
        self._to_move = player

    def legal_moves_for(self, player: int) -> List[int]:
        """The moves `player` would have if asked now, in this phase (whoever is to move; in
        phase 2 a player without a bomb has none)."""
        if self._pending:
            self._resolve()
        if self._phase == BUILD:
            return self._build_moves(player)
        if self._phase == BOMB and self.bombs[player] > 0:
            board = self.board
            return [t * 32 for t in range(self.cells) if board[t] != HOLE]
        return []

    def plain_mobility(self, out: List[int]) -> None:
        """Set `out[p]`, for every player p, to the number of cells where p could place a
        stone now without an override stone (empty, choice, inversion and bonus cells with a
        capture, RULES.md 3), all players in one pass over the board; phase 1 only.

        Incremental: for each free cell the players who capture from it are kept between
        calls, per line (`_mob_line`) and per cell (`_mob_found`); only the lines that ran
        through a cell changed since the last call are walked again (`_forget_lines`).  The
        first call turns on the recording of changed cells in make/unmake."""
        if not self.injective or self.players < MOBILITY_MIN_PLAYERS:
            # Lines cannot be walked back (see _init_adjacency), or two players: the count
            # from scratch stops at a cell once both are found, and measured faster.
            self.mobility_from_scratch(out)
            return
        found = self._mob_found
        if not self._tracking:
            cells = self.cells
            if len(found) != cells:
                self._mob_found = found = [-1] * cells
                self._mob_line = [-1] * (cells * 8)
                self._mob_mark = [0] * cells
            # A new generation: every kept entry is out of date (see _capturers).
            self._mob_gen += 1
            del self._touched[:]
            self._tracking = True
        elif self._touched:
            self._forget_lines()
        gen = self._mob_gen
        n = self.players
        for p in range(1, n + 1):
            out[p] = 0
        if self.front_on:
            for t in self.front:
                f = found[t]
                if f >> 9 != gen:
                    f = self._capturers(t, gen)
                    found[t] = f
                f &= 511
                while f:
                    low = f & -f
                    out[low.bit_length() - 1] += 1
                    f ^= low
            return
        board = self.board
        adjacent = self.adjacent
        for t in range(self.cells):
            if adjacent[t] == 0:
                continue
            v = board[t]
            if v != EMPTY and (v < CHOICE or v == HOLE):
                continue
            f = found[t]
            if f >> 9 != gen:
                f = self._capturers(t, gen)
                found[t] = f
            f &= 511
            while f:
                low = f & -f
                out[low.bit_length() - 1] += 1
                f ^= low

    def _stop_tracking(self) -> None:
        # The board changed in a way not recorded cell by cell (a new position, a swap, an
        # inversion, a bomb): the next plain_mobility starts from scratch.
        self._tracking = False
        del self._touched[:]

    def _note_changed(self, undo: List[int], start: int) -> None:
        # The cells of the undo entries from `start` on change, for plain_mobility (bounded:
        # unread, they restart it).
        touched = self._touched
        for x in range(start, len(undo)):
            touched.append(undo[x] >> 4)
        if len(touched) > 4 * self.cells + 64:
            self._stop_tracking()

    def _forget_lines(self) -> None:
        """Mark unknown (-1) the kept captures of every line that may have changed since the
        last plain_mobility, and of its cell: the lines from the free (or hole) cell found
        walking back from a cell in `_touched` over stones, in every direction; and all
        lines of the cells in `_touched` themselves (lines from a stone are not kept up to
        date, so a cell that is free again starts afresh).

        A free cell t's line reads cells up to the first non-stone.  If what it reads
        changed, let c be the first changed cell it reads: the cells between t and c are
        stones now (and were), so walking back from c over stones ends at t, on t's line.
        Flips turn stones into stones, so this holds whatever happened in between."""
        board = self.board
        back = self.back
        found = self._mob_found
        line = self._mob_line
        mark = self._mob_mark
        self._mob_stamp += 1
        stamp = self._mob_stamp
        for c in self._touched:
            if mark[c] == stamp:
                continue
            mark[c] = stamp
            found[c] = -1
            for j in range(c * 8, c * 8 + 8):
                line[j] = -1
                i = back[j]
                while i >= 0 and i != j:
                    u = i >> 3
                    v = board[u]
                    if v == EMPTY or v > EXPANSION:
                        found[u] = -1
                        line[i] = -1
                        break
                    i = back[i]
        del self._touched[:]

    def _capturers(self, t: int, gen: int) -> int:
        """The players (bit p set for player p) who capture from the free cell t, plus
        `gen << 9`: from the kept captures of its lines, walking those not known.  Kept
        entries are `gen << 9 | players`; one of another generation, or -1, is unknown."""
        board = self.board
        nxt = self.nxt
        line = self._mob_line
        everyone = (1 << (self.players + 1)) - 2
        stamp = gen << 9
        found = stamp
        for j in range(t * 8, t * 8 + 8):
            f = line[j]
            if f >> 9 != gen:
                # A line whose first stone is c1 captures for every player p != c1 whose
                # stone ends the run of stones (the first p met closes it; RULES.md 3).
                f = stamp
                k = nxt[j]
                if k >= 0:
                    first = board[k >> 3]
                    if first != EMPTY and first <= EXPANSION:
                        # Everyone but the first stone's owner: nothing more to find.
                        full = stamp | (everyone & ~(1 << first))
                        k = nxt[k]
                        while k >= 0:
                            code = board[k >> 3]
                            if code == EMPTY or code > EXPANSION:
                                break
                            if code != first and code != EXPANSION:
                                f |= 1 << code
                                if f == full:
                                    break
                            k = nxt[k]
                line[j] = f
            found |= f
        return found

    def mobility_from_scratch(self, out: List[int]) -> None:
        """plain_mobility computed anew from the board (nothing kept between calls)."""
        self.mobility_and_frontier(out, self._frontier_scratch)

    def mobility_and_frontier(self, mobility: List[int], frontier: List[int]) -> None:
        """mobility_from_scratch into `mobility`, and in the same pass `frontier[p]`: the free
        cells next to a stone of p (the two counts of the two-player evaluation)."""
        board = self.board
        nxt = self.nxt
        steps = self.steps
        start = self.steps_start
        adjacent = self.adjacent
        n = self.players
        everyone = (1 << (n + 1)) - 2
        for p in range(1, n + 1):
            mobility[p] = 0
            frontier[p] = 0
        cells: Sequence[int] = self.front if self.front_on else range(self.cells)
        for t in cells:
            if adjacent[t] == 0:
                continue
            v = board[t]
            if v != EMPTY and (v < CHOICE or v == HOLE):
                continue
            # A line whose first stone is c1 captures for every player p != c1 whose stone
            # ends the run of stones (the first p met closes it; RULES.md 3), and c1 is the
            # neighbour the frontier counts.
            found = 0
            near = 0
            for i in range(start[t], start[t + 1]):
                k = steps[i]
                first = board[k >> 3]
                if first == EMPTY or first > EXPANSION:
                    continue
                near |= 1 << first
                if found == everyone:
                    # Every player captures here: only neighbours not yet seen can add.
                    if near & everyone == everyone:
                        break
                    continue
                k = nxt[k]
                while k >= 0:
                    code = board[k >> 3]
                    if code == EMPTY or code > EXPANSION:
                        break
                    if code != first and code != EXPANSION:
                        found |= 1 << code
                        if found == everyone:
                            break
                    k = nxt[k]
            while found:
                low = found & -found
                mobility[low.bit_length() - 1] += 1
                found ^= low
            near &= everyone
            while near:
                low = near & -near
                frontier[low.bit_length() - 1] += 1
                near ^= low

    def frontier(self, out: List[int]) -> None:
        """Set `out[p]` to the free cells next to a stone of p: the frontier count of
        mobility_and_frontier without its line walks."""
        board = self.board
        steps = self.steps
        start = self.steps_start
        adjacent = self.adjacent
        n = self.players
        everyone = (1 << (n + 1)) - 2
        for p in range(1, n + 1):
            out[p] = 0
        cells: Sequence[int] = self.front if self.front_on else range(self.cells)
        for t in cells:
            if adjacent[t] == 0:
                continue
            v = board[t]
            if v != EMPTY and (v < CHOICE or v == HOLE):
                continue
            near = 0
            for i in range(start[t], start[t + 1]):
                near |= 1 << board[steps[i] >> 3]
            near &= everyone
            while near:
                low = near & -near
                out[low.bit_length() - 1] += 1
                near ^= low

    def count_moves_for(self, player: int) -> int:
        """len(legal_moves_for(player)) without building the list."""
        if self._pending:
            self._resolve()
        if self._phase == BUILD:
            return self._count_build(player)
        if self._phase == BOMB and self.bombs[player] > 0:
            return self.cells - self.counts[HOLE]
        return 0

    # -----------------------------------------------------------------------------------------
    # Whose turn: resolved lazily.  After a phase-1 move, finding the next player means finding
    # the first candidate with a legal move.  When the caller asks for the moves (or their
    # count) next, as perft and search do, generating the candidates' moves answers both at
    # once; anything else (to_move, phase, hash, ...) first resolves it with has-any-move.
    # -----------------------------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        """The player asked next, 1..n; 0 when the game is over."""
        if self._pending:
            self._resolve()
        return self._to_move

    @property
    def phase(self) -> int:
        """BUILD, BOMB or OVER."""
        if self._pending:
            self._resolve()
        return self._phase

    @property
    def hash(self) -> int:
        """The Zobrist hash of the position (a signed 64-bit int), kept up to date."""
        if self._pending:
            self._resolve()
        return self._hash

    def _resolve(self) -> None:
        self._pending = 0
        self._finish_turn(self._after)

    # -----------------------------------------------------------------------------------------
    # Hashing
    # -----------------------------------------------------------------------------------------

    def compute_hash(self) -> int:
        """The Zobrist hash of the position computed from scratch (the incremental `hash` must
        always equal it)."""
        if self._pending:
            self._resolve()
        z = self.zobrist
        h = z.to_move[self._to_move] ^ z.phase[self._phase]
        zc = z.cell
        board = self.board
        base = z.base
        if base is None:
            for c in range(self.cells):
                h ^= zc[c * 16 + board[c]]
        elif board != base:
            # Cells holding their code on the map have key 0.
            for c in range(self.cells):
                if board[c] != base[c]:
                    h ^= zc[c * 16 + board[c]]
        for p in range(1, self.players + 1):
            h ^= z.overrides[p * 256 + self.overrides[p]] ^ z.bombs[p * 256 + self.bombs[p]]
            if self.disqualified[p]:
                h ^= z.disqualified[p]
        return h

    # -----------------------------------------------------------------------------------------
    # Move generation (RULES.md 3 and 5)
    # -----------------------------------------------------------------------------------------

    def legal_moves(self) -> List[int]:
        """The legal moves of the player to move, sorted by (y, x, special); [] when over."""
        if self._pending:
            return self._resolve_with_moves()
        phase = self._phase
        if phase == BUILD:
            return self._build_moves(self._to_move)
        moves: List[int] = []
        if phase == BOMB:
            board = self.board
            for t in range(self.cells):
                if board[t] != HOLE:
                    moves.append(t * 32)
        return moves

    def _resolve_with_moves(self) -> List[int]:
        # The next player is the first candidate with moves: generate them in turn.
        self._pending = 0
        after = self._after
        n = self.players
        disqualified = self.disqualified
        q = after
        for _ in range(n):
            q = q + 1 if q < n else 1
            if not disqualified[q]:
                moves = self._build_moves(q)
                if moves:
                    self._set_turn(q, BUILD)
                    return moves
        self._end_building(after)
        return self.legal_moves()

    def _mark_override_targets(self, p: int) -> int:
        """RULES.md 3 for override moves onto other players' stones: mark every such cell from
        which player p captures, in `_target_mark` with the stamp returned (0 when steps can
        merge on this board: then each override move walks its lines, see _captures).

        Such a target is collectable itself, so walking its lines forwards would cost a whole
        line per target (a board full of another player's stones: a thousand steps per
        cell).  Walking back from where lines end instead (a stone of p with a collectable
        cell before it) meets every target of the line once: each collectable cell met after
        the first is a target, unless its own line would meet it again on the way (marked in
        `_line_mark` for each walk).  The line ends are found from p's stones or from the
        collectable cells, whichever are fewer.
        """
        if not self.injective:
            return 0
        cells = self.cells
        if not self._target_mark:
            self._target_mark = [0] * cells
            self._line_mark = [0] * cells
        board = self.board
        nxt = self.nxt
        back = self.back
        kind = self.kind
        target_mark = self._target_mark
        line_mark = self._line_mark
        pk = p * 16
        self._stamp_now += 1
        stamp = self._stamp_now
        counts = self.counts
        collectable = counts[EXPANSION] - counts[p]
        for q in range(1, self.players + 1):
            collectable += counts[q]
        ends: List[int] = []  # the step-states of last collected cells
        if counts[p] <= collectable:
            for c in range(cells):
                if board[c] == p:
                    for h in range(c * 8, c * 8 + 8):
                        j = back[h]
                        if j >= 0 and kind[pk + board[j >> 3]] == COLLECT:
                            ends.append(j)
        else:
            for c in range(cells):
                if kind[pk + board[c]] == COLLECT:
                    for j in range(c * 8, c * 8 + 8):
                        k = nxt[j]
                        if k >= 0 and board[k >> 3] == p:
                            ends.append(j)
        for j in ends:
            self._stamp_now += 1
            walk = self._stamp_now
            line_mark[j >> 3] = walk
            i = back[j]
            while i >= 0:
                c = i >> 3
                if kind[pk + board[c]] != COLLECT:
                    break  # empty, special tiles and own stones are found by the scan
                if line_mark[c] != walk:
                    target_mark[c] = stamp
                    line_mark[c] = walk
                i = back[i]
        return stamp

    def _build_moves(self, p: int) -> List[int]:
        """RULES.md 3: the phase-1 moves of player p, sorted by (y, x, special)."""
        if self.overrides[p] > 0 or not self.front_on:
            return self._scan_moves(p)
        moves: List[int] = []
        board = self.board
        nxt = self.nxt
        kind = self.kind
        steps = self.steps
        start = self.steps_start
        n = self.players
        pk = p * 16
        # Without an override stone only the free cells next to a stone can be moves.
        for t in self.front:
            if board[t] == EMPTY:
                # The capture test of _captures, inlined for the common case.
                for i in range(start[t], start[t + 1]):
                    k = steps[i]
                    if kind[pk + board[k >> 3]] == COLLECT:
                        k = nxt[k]
                        r = STOP
                        while k >= 0:
                            r = kind[pk + board[k >> 3]]
                            if r != COLLECT:
                                break
                            k = nxt[k]
                        if r == CLOSE:
                            moves.append(t * 32)
                            break
            elif _captures(board, nxt, kind, steps, start[t], start[t + 1], pk):
                v = board[t]
                if v == CHOICE:
                    for m in range(t * 32 + 1, t * 32 + n + 1):
                        moves.append(m)
                elif v == BONUS:
                    moves.append(t * 32 + BONUS_BOMB)
                    moves.append(t * 32 + BONUS_OVERRIDE)
                else:
                    moves.append(t * 32)
        moves.sort()
        return moves

    def _scan_moves(self, p: int) -> List[int]:
        """_build_moves looking at every cell (with an override stone in hand, or without
        `front`)."""
        moves: List[int] = []
        board = self.board
        nxt = self.nxt
        kind = self.kind
        steps = self.steps
        start = self.steps_start
        adjacent = self.adjacent
        n = self.players
        pk = p * 16
        may_override = self.overrides[p] > 0
        stamp = self._mark_override_targets(p) if may_override else 0
        target_mark = self._target_mark
        for t in range(self.cells):
            v = board[t]
            if adjacent[t] == 0:
                # Nothing to capture next to t: only the expansion rule can apply.
                if v == EXPANSION and may_override:
                    moves.append(t * 32)
            elif v == EMPTY:
                # The capture test of _captures, inlined for the common case.
                for i in range(start[t], start[t + 1]):
                    k = steps[i]
                    if kind[pk + board[k >> 3]] == COLLECT:
                        k = nxt[k]
                        r = STOP
                        while k >= 0:
                            r = kind[pk + board[k >> 3]]
                            if r != COLLECT:
                                break
                            k = nxt[k]
                        if r == CLOSE:
                            moves.append(t * 32)
                            break
            elif v >= CHOICE:
                if v != HOLE and _captures(board, nxt, kind, steps, start[t], start[t + 1], pk):
                    if v == CHOICE:
                        for m in range(t * 32 + 1, t * 32 + n + 1):
                            moves.append(m)
                    elif v == BONUS:
                        moves.append(t * 32 + BONUS_BOMB)
                        moves.append(t * 32 + BONUS_OVERRIDE)
                    else:
                        moves.append(t * 32)
            elif may_override:
                # A stone or an expansion stone: an override move (RULES.md 3).
                if v == EXPANSION:
                    moves.append(t * 32)
                elif v != p and stamp:
                    if target_mark[t] == stamp:
                        moves.append(t * 32)
                else:
                    board[t] = HOLE
                    if _captures(board, nxt, kind, steps, start[t], start[t + 1], pk):
                        moves.append(t * 32)
                    board[t] = v
        return moves

    def count_moves(self) -> int:
        """len(legal_moves()) without building the list (for bulk perft)."""
        if self._pending:
            return self._resolve_with_count()
        phase = self._phase
        if phase == BUILD:
            return self._count_build(self._to_move)
        if phase == BOMB:
            return self.cells - self.counts[HOLE]
        return 0

    def _resolve_with_count(self) -> int:
        # As _resolve_with_moves, counting instead of listing.
        self._pending = 0
        after = self._after
        n = self.players
        disqualified = self.disqualified
        q = after
        for _ in range(n):
            q = q + 1 if q < n else 1
            if not disqualified[q]:
                count = self._count_build(q)
                if count:
                    self._set_turn(q, BUILD)
                    return count
        self._end_building(after)
        return self.count_moves()

    def _count_build(self, p: int) -> int:
        """RULES.md 3: the number of phase-1 moves of player p."""
        if self.overrides[p] == 0 and self.front_on:
            return self._count_front(p)
        board = self.board
        nxt = self.nxt
        kind = self.kind
        steps = self.steps
        start = self.steps_start
        adjacent = self.adjacent
        n = self.players
        pk = p * 16
        may_override = self.overrides[p] > 0
        stamp = self._mark_override_targets(p) if may_override else 0
        target_mark = self._target_mark
        total = 0
        for t in range(self.cells):
            v = board[t]
            if adjacent[t] == 0:
                if v == EXPANSION and may_override:
                    total += 1
            elif v == EMPTY:
                # The capture test of _captures, inlined for the common case.
                for i in range(start[t], start[t + 1]):
                    k = steps[i]
                    if kind[pk + board[k >> 3]] == COLLECT:
                        k = nxt[k]
                        r = STOP
                        while k >= 0:
                            r = kind[pk + board[k >> 3]]
                            if r != COLLECT:
                                break
                            k = nxt[k]
                        if r == CLOSE:
                            total += 1
                            break
            elif v >= CHOICE:
                if v != HOLE and _captures(board, nxt, kind, steps, start[t], start[t + 1], pk):
                    if v == CHOICE:
                        total += n
                    elif v == BONUS:
                        total += 2
                    else:
                        total += 1
            elif may_override:
                if v == EXPANSION:
                    total += 1
                elif v != p and stamp:
                    if target_mark[t] == stamp:
                        total += 1
                else:
                    board[t] = HOLE
                    if _captures(board, nxt, kind, steps, start[t], start[t + 1], pk):
                        total += 1
                    board[t] = v
        return total

    def _count_front(self, p: int) -> int:
        """_count_build for a player without override stones: only the cells in `front`."""
        board = self.board
        nxt = self.nxt
        kind = self.kind
        steps = self.steps
        start = self.steps_start
        n = self.players
        pk = p * 16
        total = 0
        for t in self.front:
            if board[t] == EMPTY:
                for i in range(start[t], start[t + 1]):
                    k = steps[i]
                    if kind[pk + board[k >> 3]] == COLLECT:
                        k = nxt[k]
                        r = STOP
                        while k >= 0:
                            r = kind[pk + board[k >> 3]]
                            if r != COLLECT:
                                break
                            k = nxt[k]
                        if r == CLOSE:
                            total += 1
                            break
            elif _captures(board, nxt, kind, steps, start[t], start[t + 1], pk):
                v = board[t]
                if v == CHOICE:
                    total += n
                elif v == BONUS:
                    total += 2
                else:
                    total += 1
        return total

    def _has_build_move(self, p: int) -> bool:
        if not self.front_on:
            return self._scan_has_move(p)
        board = self.board
        nxt = self.nxt
        kind = self.kind
        steps = self.steps
        start = self.steps_start
        pk = p * 16
        # First the moves without an override stone: only cells in `front` can be those.
        for t in self.front:
            if board[t] == EMPTY:
                # The capture test of _captures, inlined for the common case.
                for i in range(start[t], start[t + 1]):
                    k = steps[i]
                    if kind[pk + board[k >> 3]] == COLLECT:
                        k = nxt[k]
                        r = STOP
                        while k >= 0:
                            r = kind[pk + board[k >> 3]]
                            if r != COLLECT:
                                break
                            k = nxt[k]
                        if r == CLOSE:
                            return True
            elif _captures(board, nxt, kind, steps, start[t], start[t + 1], pk):
                return True
        if self.overrides[p] == 0:
            return False
        # Override moves: onto an expansion stone, or onto a stone with a capture.
        if self.counts[EXPANSION]:
            return True
        adjacent = self.adjacent
        stamp = self._mark_override_targets(p)
        target_mark = self._target_mark
        for t in range(self.cells):
            v = board[t]
            if v == EMPTY or v >= CHOICE or adjacent[t] == 0:
                continue
            if v != p and stamp:
                if target_mark[t] == stamp:
                    return True
                continue
            board[t] = HOLE
            found = _captures(board, nxt, kind, steps, start[t], start[t + 1], pk)
            board[t] = v
            if found:
                return True
        return False

    def _scan_has_move(self, p: int) -> bool:
        # _has_build_move looking at every cell (a board without `front`).
        board = self.board
        nxt = self.nxt
        kind = self.kind
        steps = self.steps
        start = self.steps_start
        adjacent = self.adjacent
        pk = p * 16
        may_override = self.overrides[p] > 0
        stamp = self._mark_override_targets(p) if may_override else 0
        target_mark = self._target_mark
        for t in range(self.cells):
            v = board[t]
            if adjacent[t] == 0:
                if v == EXPANSION and may_override:
                    return True
            elif v == EMPTY:
                # The capture test of _captures, inlined for the common case.
                for i in range(start[t], start[t + 1]):
                    k = steps[i]
                    if kind[pk + board[k >> 3]] == COLLECT:
                        k = nxt[k]
                        r = STOP
                        while k >= 0:
                            r = kind[pk + board[k >> 3]]
                            if r != COLLECT:
                                break
                            k = nxt[k]
                        if r == CLOSE:
                            return True
            elif v >= CHOICE:
                if v != HOLE and _captures(board, nxt, kind, steps, start[t], start[t + 1], pk):
                    return True
            elif may_override:
                if v == EXPANSION:
                    return True
                if v != p and stamp:
                    if target_mark[t] == stamp:
                        return True
                    continue
                board[t] = HOLE
                found = _captures(board, nxt, kind, steps, start[t], start[t + 1], pk)
                board[t] = v
                if found:
                    return True
        return False

    def has_any_move(self, player: int) -> bool:
        """Whether `player` would have a legal move if asked now in this phase (RULES.md 4-5);
        stops at the first one found."""
        if self._pending:
            self._resolve()
        if self._phase == OVER or self.disqualified[player]:
            return False
        if self._phase == BOMB:
            return self.bombs[player] > 0 and self.counts[HOLE] < self.cells
        return self._has_build_move(player)

    def is_legal(self, move: int) -> bool:
        """Whether `move` (an encoded int) is legal for the player to move."""
        if self._pending:
            self._resolve()
        t = move >> 5
        s = move & 31
        if move < 0 or t >= self.cells:
            return False
        v = self.board[t]
        if self._phase == BOMB:
            return v != HOLE
        if self._phase != BUILD:
            return False
        p = self._to_move
        if v == CHOICE:
            if not 1 <= s <= self.players:
                return False
        elif v == BONUS:
            if s != BONUS_BOMB and s != BONUS_OVERRIDE:
                return False
        elif s != 0:
            return False
        if v == HOLE:
            return False
        lo = self.steps_start[t]
        hi = self.steps_start[t + 1]
        if v == EMPTY or v >= CHOICE:
            return _captures(self.board, self.nxt, self.kind, self.steps, lo, hi, p * 16)
        if self.overrides[p] == 0:
            return False
        if v == EXPANSION:
            return True
        self.board[t] = HOLE
        found = _captures(self.board, self.nxt, self.kind, self.steps, lo, hi, p * 16)
        self.board[t] = v
        return found

    # -----------------------------------------------------------------------------------------
    # Make (RULES.md 3 effect, 5 blast)
    # -----------------------------------------------------------------------------------------

    def make(self, move: int) -> None:
        """Play a legal move (an encoded int) in place; `unmake()` takes it back.

        The move is not checked: call it only with a move from `legal_moves()` (or one that
        `is_legal` accepts).  In the bombing phase the special byte is ignored.
        """
        if self._pending:
            self._resolve()
        phase = self._phase
        if phase == BUILD:
            self._make_build(move)
        elif phase == BOMB:
            self._make_bomb(move)
        else:
            raise IllegalMoveError("game over", "no move is possible after the game ended")

    def _make_build(self, move: int) -> None:
        board = self.board
        nxt = self.nxt
        undo = self.undo
        counts = self.counts
        z = self.zobrist
        zc = z.cell
        runs = self._runs
        p = self._to_move
        t = move >> 5
        s = move & 31
        h = self._hash
        kind = self.kind
        steps = self.steps
        lo = self.steps_start[t]
        hi = self.steps_start[t + 1]
        pk = p * 16
        old = board[t]
        # Pass 1: length of the captured run along each step, on the board before the move;
        # the target reads as a hole meanwhile, since a line never closes through it.
        board[t] = HOLE
        for i in range(lo, hi):
            n = 0
            k = steps[i]
            while k >= 0:
                r = kind[pk + board[k >> 3]]
                if r != COLLECT:
                    if r == STOP:
                        n = 0
                    break
                n += 1
                k = nxt[k]
            if k < 0:
                n = 0
            runs[i - lo] = n
        board[t] = old
        # Pass 2: flip the runs (a cell met twice is flipped once).
        flipped = 0
        base = len(undo)
        for i in range(lo, hi):
            n = runs[i - lo]
            if n:
                k = steps[i]
                while n:
                    c = k >> 3
                    v = board[c]
                    if v != p:
                        undo.append(c * 16 + v)
                        board[c] = p
                        counts[v] -= 1
                        h ^= zc[c * 16 + v] ^ zc[c * 16 + p]
                        flipped += 1
                    k = nxt[k]
                    n -= 1
        counts[p] += flipped
        if old == EMPTY or old >= CHOICE:
            adjacent = self.adjacent
            incoming = self.incoming
            if not self.front_on:
                for i in range(self.incoming_start[t], self.incoming_start[t + 1]):
                    adjacent[incoming[i]] += 1
            else:
                front = self.front
                front_at = self.front_at
                for i in range(self.incoming_start[t], self.incoming_start[t + 1]):
                    u = incoming[i]
                    a = adjacent[u] + 1
                    adjacent[u] = a
                    if a == 1:
                        v = board[u]
                        if (v == EMPTY or CHOICE <= v < HOLE) and front_at[u] < 0:
                            front_at[u] = len(front)
                            front.append(u)
                # t is a stone now.
                j = front_at[t]
                if j >= 0:
                    last = front.pop()
                    if last != t:
                        front[j] = last
                        front_at[last] = j
                    front_at[t] = -1
        undo.append(t * 16 + old)
        board[t] = p
        counts[old] -= 1
        counts[p] += 1
        h ^= zc[t * 16 + old] ^ zc[t * 16 + p]
        if self._tracking:
            self._note_changed(undo, base)
        overrides = self.overrides
        bombs = self.bombs
        old_overrides = overrides[p]
        old_bombs = bombs[p]
        if 1 <= old <= EXPANSION:
            # An override move costs one override stone.
            overrides[p] = old_overrides - 1
            h ^= z.overrides[p * 256 + old_overrides] ^ z.overrides[p * 256 + old_overrides - 1]
        elif old == CHOICE:
            if s != p:
                h = self._swap(p, s, h)
        elif old == INVERSION:
            h = self._rotate(True, h)
        elif old == BONUS:
            if s == BONUS_BOMB:
                bombs[p] = (old_bombs + 1) & 255
                h ^= z.bombs[p * 256 + old_bombs] ^ z.bombs[p * 256 + bombs[p]]
            else:
                overrides[p] = (old_overrides + 1) & 255
                h ^= z.overrides[p * 256 + old_overrides] ^ z.overrides[p * 256 + overrides[p]]
        undo.append(flipped + 1)
        undo.append(old_overrides)
        undo.append(old_bombs)
        undo.append(self._hash)
        undo.append(p * 4 + BUILD)
        undo.append(move)
        undo.append(_FRAME_BUILD)
        self._hash = h
        # The next player is found when first needed (see _resolve).
        self._after = p
        self._pending = 1

    def _swap(self, p: int, q: int, h: int) -> int:
        """Swap the stones of p and q on the whole board; return the updated hash."""
        self._stop_tracking()
        board = self.board
        zc = self.zobrist.cell
        for c in range(self.cells):
            v = board[c]
            if v == p:
                board[c] = q
                h ^= zc[c * 16 + p] ^ zc[c * 16 + q]
            elif v == q:
                board[c] = p
                h ^= zc[c * 16 + q] ^ zc[c * 16 + p]
        counts = self.counts
        counts[p], counts[q] = counts[q], counts[p]
        return h

    def _rotate(self, forward: bool, h: int) -> int:
        """Inversion: stone k becomes (k mod n) + 1 (backward: the reverse); return the hash."""
        self._stop_tracking()
        board = self.board
        zc = self.zobrist.cell
        n = self.players
        for c in range(self.cells):
            v = board[c]
            if 1 <= v <= n:
                if forward:
                    w = v + 1 if v < n else 1
                else:
                    w = v - 1 if v > 1 else n
                board[c] = w
                h ^= zc[c * 16 + v] ^ zc[c * 16 + w]
        counts = self.counts
        if forward:
            last = counts[n]
            for k in range(n, 1, -1):
                counts[k] = counts[k - 1]
            counts[1] = last
        else:
            first = counts[1]
            for k in range(1, n):
                counts[k] = counts[k + 1]
            counts[n] = first
        return h

    def _make_bomb(self, move: int) -> None:
        board = self.board
        nxt = self.nxt
        undo = self.undo
        counts = self.counts
        z = self.zobrist
        zc = z.cell
        p = self._to_move
        t = move >> 5
        mark = self._mark
        queue = self._queue
        if self._tracking:
            self._stop_tracking()
        stamp = self._stamp + 1
        self._stamp = stamp
        # Breadth-first blast on the board before this bomb; a step never enters a hole.
        mark[t] = stamp
        queue[0] = t
        head = 0
        tail = 1
        for _ in range(self.strength):
            if head == tail:
                break
            layer_end = tail
            while head < layer_end:
                base = queue[head] * 8
                head += 1
                for d in range(8):
                    k = nxt[base + d]
                    if k >= 0:
                        c = k >> 3
                        if mark[c] != stamp and board[c] != HOLE:
                            mark[c] = stamp
                            queue[tail] = c
                            tail += 1
        h = self._hash
        for i in range(tail):
            c = queue[i]
            v = board[c]
            undo.append(c * 16 + v)
            board[c] = HOLE
            counts[v] -= 1
            h ^= zc[c * 16 + v] ^ zc[c * 16 + HOLE]
        counts[HOLE] += tail
        bombs = self.bombs
        old_bombs = bombs[p]
        bombs[p] = old_bombs - 1
        h ^= z.bombs[p * 256 + old_bombs] ^ z.bombs[p * 256 + old_bombs - 1]
        undo.append(tail)
        undo.append(self._hash)
        undo.append(p * 4 + BOMB)
        undo.append(_FRAME_BOMB)
        self._hash = h
        self._finish_turn(p)

    # -----------------------------------------------------------------------------------------
    # Unmake
    # -----------------------------------------------------------------------------------------

    def unmake(self) -> None:
        """Take back the last `make` or `disqualify`."""
        undo = self.undo
        if not undo:
            raise IndexError("unmake: nothing to take back")
        kind = undo.pop()
        board = self.board
        counts = self.counts
        self._pending = 0
        if kind == _FRAME_BUILD:
            move = undo.pop()
            turn = undo.pop()
            old_hash = undo.pop()
            old_bombs = undo.pop()
            old_overrides = undo.pop()
            changed = undo.pop()
            p = turn >> 2
            old = undo[-1] & 15
            if old == CHOICE:
                s = move & 31
                if s != p:
                    self._swap(p, s, 0)
            elif old == INVERSION:
                self._rotate(False, 0)
            freed = old == EMPTY or old >= CHOICE
            t = move >> 5
            if freed and not self.front_on:
                adjacent = self.adjacent
                incoming = self.incoming
                for i in range(self.incoming_start[t], self.incoming_start[t + 1]):
                    adjacent[incoming[i]] -= 1
                freed = False
            if freed:
                adjacent = self.adjacent
                incoming = self.incoming
                front = self.front
                front_at = self.front_at
                for i in range(self.incoming_start[t], self.incoming_start[t + 1]):
                    u = incoming[i]
                    a = adjacent[u] - 1
                    adjacent[u] = a
                    if a == 0:
                        j = front_at[u]
                        if j >= 0:
                            last = front.pop()
                            if last != u:
                                front[j] = last
                                front_at[last] = j
                            front_at[u] = -1
            self.overrides[p] = old_overrides
            self.bombs[p] = old_bombs
            if self._tracking:
                # The cells about to change back.
                self._note_changed(undo, len(undo) - changed)
            for _ in range(changed):
                e = undo.pop()
                c = e >> 4
                v = e & 15
                counts[board[c]] -= 1
                counts[v] += 1
                board[c] = v
            if freed and self.adjacent[t] and self.front_at[t] < 0:
                # t is free again.
                self.front_at[t] = len(self.front)
                self.front.append(t)
            self._hash = old_hash
            self._to_move = p
            self._phase = BUILD
        elif kind == _FRAME_BOMB:
            if self._tracking:
                self._stop_tracking()
            turn = undo.pop()
            old_hash = undo.pop()
            changed = undo.pop()
            p = turn >> 2
            for _ in range(changed):
                e = undo.pop()
                c = e >> 4
                v = e & 15
                board[c] = v
                counts[v] += 1
            counts[HOLE] -= changed
            self.bombs[p] += 1
            self._hash = old_hash
            self._to_move = p
            self._phase = BOMB
        else:
            turn = undo.pop()
            old_hash = undo.pop()
            was_disqualified = undo.pop()
            player = undo.pop()
            if not was_disqualified:
                self.disqualified[player] = 0
                self.in_game += 1
            self._hash = old_hash
            self._to_move = turn >> 2
            self._phase = turn & 3

    # -----------------------------------------------------------------------------------------
    # Turn order (RULES.md 4, 5, 6)
    # -----------------------------------------------------------------------------------------

    def _set_turn(self, player: int, phase: int) -> None:
        z = self.zobrist
        self._hash ^= (z.to_move[self._to_move] ^ z.to_move[player]
                       ^ z.phase[self._phase] ^ z.phase[phase])
        self._to_move = player
        self._phase = phase

    def _next_bomber(self, after: int) -> int:
        """The first player after `after` (cyclically, `after` last) still in the game with a
        bomb, or 0 (RULES.md 5)."""
        n = self.players
        disqualified = self.disqualified
        bombs = self.bombs
        q = after
        for _ in range(n):
            q = q + 1 if q < n else 1
            if not disqualified[q] and bombs[q] > 0:
                return q
        return 0

    def _finish_turn(self, after: int) -> None:
        """Set who moves next and in which phase, after a turn of player `after`
        (RULES.md 4-6)."""
        if self.in_game <= 1:
            # RULES.md 6: a sole remaining player ends the game at once.
            self._set_turn(0, OVER)
            return
        if self._phase == BUILD:
            n = self.players
            disqualified = self.disqualified
            q = after
            for _ in range(n):
                q = q + 1 if q < n else 1
                if not disqualified[q] and self._has_build_move(q):
                    self._set_turn(q, BUILD)
                    return
        self._end_building(after)

    def _end_building(self, after: int) -> None:
        """Nobody can build (RULES.md 4) or a bomb was dropped (RULES.md 5): the next player
        after `after` with a bomb bombs, if any cell is left; otherwise the game is over."""
        if self.in_game > 1 and self.counts[HOLE] < self.cells:
            q = self._next_bomber(after)
            if q:
                self._set_turn(q, BOMB)
                return
        self._set_turn(0, OVER)

    def disqualify(self, player: int) -> None:
        """Take `player` out of the game (RULES.md 6); `unmake()` takes this back too.

        As in the rules: the turn passes on when `player` was the one asked, the game ends when
        one player is left, and disqualifying after the game ended only records it.
        """
        if not 1 <= player <= self.players:
            raise ValueError("no player %d in a %d-player game" % (player, self.players))
        if self._pending:
            self._resolve()
        undo = self.undo
        undo.append(player)
        undo.append(self.disqualified[player])
        undo.append(self._hash)
        undo.append(self._to_move * 4 + self._phase)
        undo.append(_FRAME_DISQUALIFY)
        if self.disqualified[player]:
            return
        self.disqualified[player] = 1
        self.in_game -= 1
        self._hash ^= self.zobrist.disqualified[player]
        if self._phase == OVER:
            return
        if self.in_game <= 1:
            self._set_turn(0, OVER)
        elif player == self._to_move:
            self._finish_turn(player)

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase == OVER

    # -----------------------------------------------------------------------------------------
    # Conversions
    # -----------------------------------------------------------------------------------------

    def encode_move(self, move: Move) -> int:
        """The engine's int for a `Move` (x, y, special); raises IllegalMoveError when the
        target is off the board or the special byte does not fit."""
        if not (0 <= move.x < self.width and 0 <= move.y < self.height):
            raise IllegalMoveError("off board", "(%d, %d) is not on the %dx%d board"
                                   % (move.x, move.y, self.width, self.height))
        if not 0 <= move.special < MOVE_SPECIAL_SLOTS:
            raise IllegalMoveError("special byte", "%d is not a special byte the rules use"
                                   % move.special)
        return (move.y * self.width + move.x) * MOVE_SPECIAL_SLOTS + move.special

    def decode_move(self, move: int) -> Move:
        """The `Move` for an engine int."""
        cell = move >> 5
        return Move(cell % self.width, cell // self.width, move & 31)

    def to_state(self) -> GameState:
        """The position as an immutable `GameState`."""
        n = self.players
        phase = self.phase
        to_move: Optional[int] = self._to_move if phase != OVER else None
        return GameState(
            map=self.map,
            board=tuple(CODE_TO_CHAR[v] for v in self.board),
            overrides=tuple(self.overrides[1:n + 1]),
            bombs=tuple(self.bombs[1:n + 1]),
            disqualified=frozenset(p for p in range(1, n + 1) if self.disqualified[p]),
            phase=PHASE_NAMES[phase],
            to_move=to_move,
        )

    def scores(self) -> List[int]:
        """Stones per player: index 0 is player 1 (disqualified players included)."""
        return self.counts[1:self.players + 1]

    # -----------------------------------------------------------------------------------------
    # Perft
    # -----------------------------------------------------------------------------------------

    def perft(self, depth: int, bulk: bool = True) -> int:
        """The number of leaves of the game tree `depth` plies deep.

        One ply is one legal move (each special variant of a target is its own move); skipped
        players and the change to the bombing phase take no ply; a position where the game is
        over is one leaf whatever depth remains.  With `bulk`, the last ply is counted
        (`count_moves`) instead of played.
        """
        # An explicit stack instead of recursion: the PyPy JIT unrolls recursive calls into
        # traces that grow too long, which made a recursive perft several times slower.
        if depth <= 0 or self.phase == OVER:
            return 1
        if bulk and depth == 1:
            return self.count_moves()
        move_lists = [self.legal_moves()]
        positions = [0]
        total = 0
        while move_lists:
            level = len(move_lists)
            moves = move_lists[-1]
            i = positions[-1]
            if i == len(moves):
                move_lists.pop()
                positions.pop()
                if move_lists:
                    self.unmake()
                continue
            positions[-1] = i + 1
            self.make(moves[i])
            remaining = depth - level
            # Generating (or counting) the next moves also finds the next player and phase.
            if remaining == 0:
                total += 1
            elif bulk and remaining == 1:
                count = self.count_moves()
                total += 1 if self._phase == OVER else count
            else:
                children = self.legal_moves()
                if self._phase != OVER:
                    move_lists.append(children)
                    positions.append(0)
                    continue
                total += 1
            self.unmake()
        return total
