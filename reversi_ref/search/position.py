"""Engines for the positions a player is asked about, built once per map.

Building an `Engine` computes the map's tables (neighbours, Zobrist keys), which takes a large
part of a second on a 50x50 map before the JIT has warmed up.  A player is asked about many
positions of the same map, so `EngineCache` builds the engine once and afterwards only loads
each new position into it.

Loading writes the engine's per-position fields; the field list below is checked against the
engine at load time, and if the engine has grown a field this module does not know, the cache
falls back to building a fresh engine (slow, never wrong).  `tests/test_search_position.py`
compares a loaded engine with a fresh one field by field.
"""

from __future__ import annotations

from typing import FrozenSet, Optional

from ..engine import Engine
from ..engine.tables import CODES, EXPANSION, PHASE_NAMES, OVER, encode_board
from ..geometry import Map
from ..state import GameState

# Every attribute of an Engine, split into what a position changes and what the map fixes.
POSITION_FIELDS: FrozenSet[str] = frozenset({
    "board", "counts", "overrides", "bombs", "disqualified", "in_game", "phase", "to_move",
    "hash", "undo", "adjacent", "_runs", "_mark", "_stamp", "_queue"})
MAP_FIELDS: FrozenSet[str] = frozenset({
    "map", "width", "height", "players", "strength", "cells", "nxt", "zobrist", "steps",
    "steps_start", "kind", "incoming_start", "incoming"})


def set_mover(engine: Engine, player: int) -> None:
    """Make `player` the one to move (for best-reply search and mobility counts), keeping the
    Zobrist hash consistent with the mover."""
    z = engine.zobrist
    engine.hash ^= z.to_move[engine.to_move] ^ z.to_move[player]
    engine.to_move = player


def load_state(engine: Engine, state: GameState) -> bool:
    """Put `state` (a position on the engine's map) into `engine`; False when the engine's
    fields are not the ones this module knows (then build a fresh engine instead)."""
    if set(vars(engine)) != POSITION_FIELDS | MAP_FIELDS:
        return False
    if state.map is not engine.map and state.map != engine.map:
        return False
    n = engine.players
    board = encode_board(state.board)
    engine.board = board
    counts = [0] * CODES
    for code in board:
        counts[code] += 1
    engine.counts = counts
    overrides = [0] * 9
    bombs = [0] * 9
    disqualified = [0] * 9
    for p in range(1, n + 1):
        overrides[p] = state.overrides[p - 1] & 255
        bombs[p] = state.bombs[p - 1] & 255
        disqualified[p] = 1 if p in state.disqualified else 0
    engine.overrides = overrides
    engine.bombs = bombs
    engine.disqualified = disqualified
    engine.in_game = n - sum(disqualified)
    engine.phase = PHASE_NAMES.index(state.phase)
    engine.to_move = state.to_move if state.to_move is not None and engine.phase != OVER else 0
    engine.undo = []
    steps = engine.steps
    start = engine.steps_start
    adjacent = [0] * engine.cells
    for u in range(engine.cells):
        total = 0
        for i in range(start[u], start[u + 1]):
            if 1 <= board[steps[i] >> 3] <= EXPANSION:
                total += 1
        adjacent[u] = total
    engine.adjacent = adjacent
    engine.hash = engine.compute_hash()
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
