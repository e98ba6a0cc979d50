"""A position of a game: the board as it is now, the counts in hand, who moves, which phase.

`GameState` is immutable: the rules return new states and never change one (python-chess
keeps a mutable board; we keep sunfish's immutable positions, which also serve as keys).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import FrozenSet, List, NamedTuple, Optional, Tuple

from .errors import InvalidMoveError
from .geometry import Map

BUILD = "build"   # phase 1, RULES.md 3
BOMB = "bomb"     # phase 2, RULES.md 5
OVER = "over"     # the game has ended

# Wire values of the special byte (RULES.md 3 and 8).
NO_SPECIAL = 0
BONUS_BOMB = 20
BONUS_OVERRIDE = 21

# The ranges of the move message's fields (RULES.md 8: x, y uint16, special uint8).
MAX_COORDINATE = 0xFFFF
MAX_SPECIAL = 0xFF

# Two or three decimal numbers separated by a comma and/or blanks: "3 4", "3,4,20", "3, 4".
# A minus sign is read so that "-1 4" gets the range error, which says more than "not a move".
# (Each blank run can be split only one way, so a long bad text fails in linear time.)  Kept
# as text: `re` compiles it on the first parse, not at `import reversi_ref` (PyPy's compiler
# is slow enough to notice).
_SEPARATOR = r"(?:\s*,\s*|\s+)"
_MOVE_NUMBERS = r"(-?[0-9]+)%s(-?[0-9]+)(?:%s(-?[0-9]+))?\Z" % (_SEPARATOR, _SEPARATOR)
_BRACKETS = {"(": ")", "[": "]"}


class Move(NamedTuple):
    """A move as the protocol sends it: target (x, y) and the special byte.

    `special` is 0, a player 1..8 on a choice tile, 20 (bonus bomb) or 21 (bonus override).
    As text (`str(move)`, `Move.parse`) it is "x,y", or "x,y,special" when special is not 0.
    """

    x: int
    y: int
    special: int = NO_SPECIAL

    def __str__(self) -> str:
        if self.special == NO_SPECIAL:
            return "%d,%d" % (self.x, self.y)
        return "%d,%d,%d" % (self.x, self.y, self.special)

    @classmethod
    def parse(cls, text: str) -> "Move":
        """The move that `text` spells: "x y" or "x y special", the numbers separated by
        commas and/or blanks, optionally in parentheses or brackets ("3 4", "3,4,20",
        "(3, 4)" all work).  Every message the protocol can carry parses (x and y 0..65535,
        special 0..255); whether the move is legal is for `play` to say.  Raises
        InvalidMoveError naming the text when it is not a move."""
        body = text.strip()
        if body[:1] in _BRACKETS and body[-1:] == _BRACKETS[body[:1]]:
            body = body[1:-1].strip()
        found = re.match(_MOVE_NUMBERS, body)
        if found is None:
            raise InvalidMoveError(text, "expected 'x y' or 'x y special', whole numbers "
                                         "separated by commas or blanks, e.g. '3 4' or '3,4,20'")
        x, y = int(found.group(1)), int(found.group(2))
        special = int(found.group(3)) if found.group(3) is not None else NO_SPECIAL
        for name, value, limit in (("x", x, MAX_COORDINATE), ("y", y, MAX_COORDINATE),
                                   ("special", special, MAX_SPECIAL)):
            if not 0 <= value <= limit:
                raise InvalidMoveError(text, "%s is %d, the protocol allows 0..%d"
                                       % (name, value, limit))
        return cls(x, y, special)


@dataclass(frozen=True)
class GameState:
    """A whole position.

    `board` is row-major (index `y * width + x`) in map-file characters.  `overrides` and
    `bombs` hold one 8-bit count per player: index 0 is player 1.  `to_move` is the 1-based
    player asked next, or None when the game is over.

    `print(state)` draws the board with coordinates and a summary line, `repr(state)` is one
    short line, and Jupyter shows an SVG picture (`_repr_svg_`).
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

    # The drawing code lives in `render`, which imports this module; it is imported on first
    # use so that data keeps flowing one way (and `import reversi_ref` stays light).

    def __str__(self) -> str:
        """The board as text with coordinates, then a line with the phase, the player to move
        and each player's override stones and bombs (`render.text.state_text`)."""
        from .render.text import state_text
        return state_text(self)

    def __repr__(self) -> str:
        mover = "nobody to move" if self.to_move is None else "player %d to move" % self.to_move
        gone = ", disqualified %s" % sorted(self.disqualified) if self.disqualified else ""
        return "<GameState %dx%d, %d players, phase %s, %s, overrides %s, bombs %s%s>" % (
            self.width, self.height, self.players, self.phase, mover, list(self.overrides),
            list(self.bombs), gone)

    def _repr_svg_(self) -> str:
        """The position as an SVG picture (Jupyter shows it in place of the repr)."""
        from .render.svg import notebook_svg
        return notebook_svg(self)
