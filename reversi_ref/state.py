"""A position of a game: the board as it is now, the counts in hand, who moves, which phase.

`GameState` is immutable: the rules return new states and never change one (python-chess
keeps a mutable board; we keep sunfish's immutable positions, which also serve as keys).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import FrozenSet, List, NamedTuple, Optional, Tuple

from .geometry import Map

BUILD = "build"   # phase 1, RULES.md 3
BOMB = "bomb"     # phase 2, RULES.md 5
OVER = "over"     # the game has ended

# Wire values of the special byte (RULES.md 3 and 8).
NO_SPECIAL = 0
BONUS_BOMB = 20
BONUS_OVERRIDE = 21


class Move(NamedTuple):
    """A move as the protocol sends it: target (x, y) and the special byte.

    `special` is 0, a player 1..8 on a choice tile, 20 (bonus bomb) or 21 (bonus override).
    """

    x: int
    y: int
    special: int = NO_SPECIAL


@dataclass(frozen=True)
class GameState:
    """A whole position.

    `board` is row-major (index `y * width + x`) in map-file characters.  `overrides` and
    `bombs` hold one 8-bit count per player: index 0 is player 1.  `to_move` is the 1-based
    player asked next, or None when the game is over.
    """

    map: Map
    board: Tuple[str, ...]
    overrides: Tuple[int, ...]
    bombs: Tuple[int, ...]
    disqualified: FrozenSet[int]
    phase: str
    to_move: Optional[int]

    @property
    def players(self) -> int:
        """The number of players n the map declares."""
        return self.map.players

    @property
    def width(self) -> int:
        """Board width (number of columns)."""
        return self.map.width

    @property
    def height(self) -> int:
        """Board height (number of rows)."""
        return self.map.height

    def cell(self, x: int, y: int) -> str:
        """The map-file character at (x, y)."""
        return self.board[y * self.map.width + x]

    def rows(self) -> List[str]:
        """The board as map-file cell characters, one space-separated string per row."""
        w = self.map.width
        return [" ".join(self.board[y * w:(y + 1) * w]) for y in range(self.map.height)]

    def is_in_game(self, player: int) -> bool:
        """Whether `player` (1..n) has not been disqualified."""
        return player not in self.disqualified

    def active_players(self) -> List[int]:
        """The players still in the game, in seat order."""
        return [p for p in range(1, self.map.players + 1) if p not in self.disqualified]
