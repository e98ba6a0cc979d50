"""The search's few needs beyond the engine's documented API, in one place.

The search needs two things the engine's API (`reversi_ref.engine`) does not offer yet:

- `set_mover(engine, p)`: make p the player to move (best-reply search plays a move of any
  opponent), hash kept consistent;
- `load_state(engine, state)`: put a new position into an engine already built for its map.
  Building an `Engine` computes the map's tables (neighbours, Zobrist keys), which takes a
  large part of a second on a 50x50 map before the JIT has warmed up, and a player is asked
  about many positions of one map.

They are written here against the engine's attributes, for the two layouts the engine has had
(turn, phase and hash as plain attributes, or resolved lazily after a move).  Each function
first checks that the engine has exactly the attributes it knows; otherwise `set_mover` raises
`EngineMismatch` and `load_state` returns False, so the cache builds a fresh engine (slow,
never wrong).  `tests/test_search_parts.py` checks them against fresh
engines and the readable rules.  Public methods on the engine would make this module a few
lines long.
"""

from __future__ import annotations

from typing import Any, Dict, FrozenSet, Optional

from ..engine import Engine
from ..engine.tables import CODES, EXPANSION, OVER, PHASE_NAMES, encode_board
from ..geometry import Map
from ..state import GameState

# Attributes fixed by the map, the same in every layout.
MAP_FIELDS: FrozenSet[str] = frozenset({
    "map", "width", "height", "players", "strength", "cells", "nxt", "zobrist", "steps",
    "steps_start", "kind", "incoming_start", "incoming"})
_COMMON = frozenset({"board", "counts", "overrides", "bombs", "disqualified", "in_game",
                     "undo", "adjacent", "_runs", "_mark", "_stamp", "_queue"})
# Layout 1: to_move, phase and hash are plain attributes, updated by every move.
EAGER_FIELDS: FrozenSet[str] = _COMMON | {"to_move", "phase", "hash"}
# Layout 2: they live in private attributes and the next player is resolved lazily.
LAZY_FIELDS: FrozenSet[str] = _COMMON | {"_to_move", "_phase", "_hash", "_pending", "_after"}
EAGER = 1
LAZY = 2
_LAYOUTS: Dict[type, int] = {}


class EngineMismatch(RuntimeError):
    """The engine's attributes are not those this module was written for."""


def engine_layout(engine: Engine) -> int:
    """EAGER or LAZY, or 0 when the engine's attributes match neither."""
    fields = set(vars(engine))
    if fields == MAP_FIELDS | LAZY_FIELDS:
        return LAZY
    if fields == MAP_FIELDS | EAGER_FIELDS:
        return EAGER
    return 0


def set_mover(engine: Engine, player: int) -> None:
    """Make `player` the one to move in the engine's current phase, keeping the Zobrist hash
    consistent (a later `unmake` restores whoever moved then)."""
    raw: Any = engine
    current = engine.to_move  # resolves a pending turn first
    if current == player:
        return
    z = engine.zobrist
    layout = _LAYOUTS.get(type(engine)) or _layout_of(engine)
    if layout == LAZY:
        raw._hash ^= z.to_move[current] ^ z.to_move[player]
        raw._to_move = player
    else:
        raw.hash ^= z.to_move[current] ^ z.to_move[player]
        raw.to_move = player


def _layout_of(engine: Engine) -> int:
    """The engine class's layout, checked once per class; EngineMismatch if unknown."""
    layout = engine_layout(engine)
    if not layout:
        raise EngineMismatch("the engine's attributes changed; update "
                             "reversi_ref/search/position.py")
    _LAYOUTS[type(engine)] = layout
    return layout


def load_state(engine: Engine, state: GameState) -> bool:
    """Put `state` (a position on the engine's map) into `engine`; False when the engine's
    attributes are not the ones this module knows (then build a fresh engine instead)."""
    layout = engine_layout(engine)
    if not layout:
        return False
    if state.map is not engine.map and state.map != engine.map:
        return False
    raw: Any = engine
    n = engine.players
    board = encode_board(state.board)
    raw.board = board
    counts = [0] * CODES
    for code in board:
        counts[code] += 1
    raw.counts = counts
    overrides = [0] * 9
    bombs = [0] * 9
    disqualified = [0] * 9
    for p in range(1, n + 1):
        overrides[p] = state.overrides[p - 1] & 255
        bombs[p] = state.bombs[p - 1] & 255
        disqualified[p] = 1 if p in state.disqualified else 0
    raw.overrides = overrides
    raw.bombs = bombs
    raw.disqualified = disqualified
    raw.in_game = n - sum(disqualified)
    phase = PHASE_NAMES.index(state.phase)
    to_move = state.to_move if state.to_move is not None and phase != OVER else 0
    raw.undo = []
    steps = engine.steps
    start = engine.steps_start
    adjacent = [0] * engine.cells
    for u in range(engine.cells):
        total = 0
        for i in range(start[u], start[u + 1]):
            if 1 <= board[steps[i] >> 3] <= EXPANSION:
                total += 1
        adjacent[u] = total
    raw.adjacent = adjacent
    if layout == LAZY:
        raw._pending = 0
        raw._after = 0
        raw._phase = phase
        raw._to_move = to_move
        raw._hash = engine.compute_hash()
    else:
        raw.phase = phase
        raw.to_move = to_move
        raw.hash = engine.compute_hash()
    return True


class EngineCache:
    """One engine per map, reloaded with each position asked about."""

    def __init__(self) -> None:
        self.engine: Optional[Engine] = None
        self.map: Optional[Map] = None

    def prepare(self, game_map: Map) -> Engine:
        """Build (or keep) the engine for `game_map`."""
        if self.engine is None or (self.map is not game_map and self.map != game_map):
            self.engine = Engine(game_map)
            self.map = game_map
        return self.engine

    def engine_for(self, state: GameState) -> Engine:
        """An engine holding `state`; the cached one when the map is the same."""
        engine = self.prepare(state.map)
        if not load_state(engine, state):
            engine = Engine(state)
            self.engine = engine
        return engine
