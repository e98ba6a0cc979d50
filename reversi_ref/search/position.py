"""The engine as the search uses it: one engine per map, reloaded with each position, and a
way to hand the move to any player.

Building an `Engine` computes the map's tables (neighbours, Zobrist keys), which takes a large
part of a second on a 50x50 map before the JIT has warmed up, and a player is asked about many
positions of one map, so `EngineCache` keeps the engine and loads each new position into it
(`Engine.load_state`).  Best-reply search plays moves of any opponent: `set_mover` makes a
player the one to move (`Engine.set_to_move`).
"""

from __future__ import annotations

from typing import Optional

from ..engine import Engine
from ..geometry import Map
from ..state import GameState


def set_mover(engine: Engine, player: int) -> None:
    """Make `player` the one to move in the engine's current phase, keeping the Zobrist hash
    consistent (a later `unmake` restores whoever moved then)."""
    if engine.to_move != player:
        engine.set_to_move(player)


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
        engine.load_state(state)
        return engine
