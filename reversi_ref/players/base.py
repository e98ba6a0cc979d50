"""The interface every player implements: given a position, choose a move.

Time control, randomness and I/O stay outside the player's decision (STYLE.md 9): the caller
passes the time it may use and the depth limit; a random player gets its `random.Random`.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from ..state import GameState, Move


class SearchInfo(NamedTuple):
    """What the last `choose` did: depth reached, positions (nodes) looked at, and whether
    the search stopped early because it had proven the game's result (`proven`), took the
    longer limits of a move it was unsure of (`stretched`) and played a move that holds out
    against a proven loss (`held_out`, `EvalConfig.hold_out`)."""

    depth: int = 0
    nodes: int = 0
    proven: bool = False
    stretched: bool = False
    held_out: bool = False


class Player:
    """A player: `choose(state, time_ms, depth)` returns a move for `state.to_move`.

    `time_ms` is the time the player may use for this move (0 = no limit, then respect
    `depth`).  After each call `info` says how deep it looked and how many nodes it visited.

    A player that plans its own time sets `manages_bank`: it is then given the whole time bank
    of the move request (RULES.md 8) instead of a budget for this move.  `prepare` is called
    once with the initial state before the first request (free time to set up).  A player
    that can think on the other players' time overrides `ponder`.  A `timeless` player (a
    person, group 99 on the server) is never held to a time bank in local matches.
    """

    name = "player"
    manages_bank = False
    timeless = False

    def __init__(self) -> None:
        self.info = SearchInfo()

    def prepare(self, state: GameState) -> None:
        """Get ready for a game starting at `state` (nothing to do by default)."""

    def choose(self, state: GameState, time_ms: int, depth: int) -> Move:
        """The move to play in `state` for the player to move."""
        raise NotImplementedError

    def ponder(self, state: GameState, player: int, interrupted: Callable[[], bool]) -> int:
        """Think about `state` on behalf of `player` until `interrupted()` says the next
        message has come; the depth completed (0: this player does not ponder).  Another
        player is to move in `state`, or `player` itself before the game's first move
        request (the official server's pause after the player numbers, docs/rules.md 8)."""
        return 0
