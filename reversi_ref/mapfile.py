"""Reading and writing map files (RULES.md 1).

`read_map` accepts exactly what the official server accepts and rejects everything else with a
`MapError` that names the problem and points at the offending token (1-based line and column).
`format_map` writes the canonical layout; `read_map(format_map(m)) == m` for every valid map.

Layout of a map file, as whitespace-separated tokens::

    n                     players, 2..8
    overrides             per player, taken modulo 256
    bombs strength        per player, taken modulo 256
    height width
    height * width cells  each one of 0-8 - c i b x
    x1 y1 d1 <-> x2 y2 d2 transitions, any number

Readings of our own (RULES.md 1 asks for the strict one where the server was not probed):
- height and width must be decimal integers in 0..1000 (the server's own limit); "-3" or "ten"
  is an error;
- a side joined to itself and listed twice is an error, like any transition listed twice.
Also strict by our choice: whitespace means the ASCII whitespace of C's isspace (space, tab,
newline, carriage return, vertical tab, form feed); numbers are ASCII decimal with an optional
sign, so "1_000", "0x10" or non-ASCII digits are errors, and so is a number of more than 100
digits (leading zeros aside), so that every Python reads the same maps.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, Iterator, List, NamedTuple, Tuple, Union

from .errors import MapError
from .geometry import (CELL_CHARS, DIRECTIONS, HOLE, PLAYER_STONES, Map, Side,
                       Transition)
from .state import GameState

MIN_PLAYERS = 2
MAX_PLAYERS = 8
# The official server refuses boards larger than this ("dimensions too large (max 1000x1000)");
# RULES.md 1 only says no limit was found, so we take the server's.
MAX_DIMENSION = 1000
ARROW = "<->"

_TOKEN = re.compile(r"[^ \t\n\r\v\f]+")
_INTEGER = re.compile(r"[+-]?[0-9]+\Z")
_SHOWN_LENGTH = 20  # longer tokens are cut short in error messages
_MAX_DIGITS = 100   # longer numbers are rejected, the same way on every Python (strict reading)


# --- tokens ---------------------------------------------------------------------------------

class Token(NamedTuple):
    """One whitespace-separated word of a map file and where it starts (1-based)."""

    text: str
    line: int
    column: int


def tokenize(text: str) -> Iterator[Token]:
    """Yield the tokens of a map text with their 1-based line and column."""
    for line_number, line in enumerate(text.split("\n"), start=1):
        for match in _TOKEN.finditer(line):
            yield Token(match.group(), line_number, match.start() + 1)


class _Tokens:
    """A cursor over the tokens of one map text, raising MapError where the text runs out."""

    def __init__(self, text: str) -> None:
        self.tokens: List[Token] = list(tokenize(text))
        self.position = 0
        if self.tokens:
            last = self.tokens[-1]
            self.end = (last.line, last.column + len(last.text))
        else:
            self.end = (1, 1)

    def remaining(self) -> int:
        """How many tokens are still unread."""
        return len(self.tokens) - self.position

    def take(self, what: str) -> Token:
        """The next token; `what` names the expected item if the text has ended."""
        if self.position >= len(self.tokens):
            raise MapError("missing %s: the map ends too early" % what, *self.end)
        token = self.tokens[self.position]
        self.position += 1
        return token


def _error(reason: str, token: Token) -> MapError:
    return MapError(reason, token.line, token.column)


def _shown(text: str) -> str:
    """A token quoted for an error message, cut short if it is long."""
    return repr(text) if len(text) <= _SHOWN_LENGTH else repr(text[:_SHOWN_LENGTH]) + "..."


def _integer(token: Token, what: str) -> int:
    """The token read as a decimal integer; `what` names it in the error."""
    if not _INTEGER.match(token.text):
        raise _error("%s %s is not an integer" % (what, _shown(token.text)), token)
    if len(token.text.lstrip("+-").lstrip("0")) > _MAX_DIGITS:
        raise _error("%s %s has more than %d digits" % (what, _shown(token.text), _MAX_DIGITS),
                     token)
    return int(token.text)


# --- header ---------------------------------------------------------------------------------

class _Header(NamedTuple):
    players: int
    overrides: int
    bombs: int
    strength: int
    height: int
    width: int


def _read_player_count(tokens: _Tokens) -> int:
    token = tokens.take("player count")
    players = _integer(token, "player count")
    # RULES.md 1: n is 2..8.
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise _error("player count %d outside %d..%d" % (players, MIN_PLAYERS, MAX_PLAYERS),
                     token)
    return players


def _read_byte(tokens: _Tokens, what: str) -> int:
    # RULES.md 1: counts and strength are unsigned 8-bit, taken modulo 256 (-1 -> 255).
    return _integer(tokens.take(what), what) % 256


def _read_dimension(tokens: _Tokens, what: str) -> int:
    token = tokens.take(what)
    value = _integer(token, what)
    # A negative size is an error (the server says "dimensions too large" for it).
    if value < 0:
        raise _error("%s %d is negative" % (what, value), token)
    if value > MAX_DIMENSION:
        raise _error("%s %d too large (at most %d)" % (what, value, MAX_DIMENSION), token)
    return value


def _read_header(tokens: _Tokens) -> _Header:
    players = _read_player_count(tokens)
    overrides = _read_byte(tokens, "override count")
    bombs = _read_byte(tokens, "bomb count")
    strength = _read_byte(tokens, "bomb strength")
    height = _read_dimension(tokens, "height")
    width = _read_dimension(tokens, "width")
    return _Header(players, overrides, bombs, strength, height, width)


# --- cells ----------------------------------------------------------------------------------

def _read_cell(token: Token, players: int) -> str:
    # RULES.md 1: a cell is one character of 0-8 - c i b x ...
    if len(token.text) != 1 or token.text not in CELL_CHARS:
        hint = " (fewer cells than height x width?)" if token.text == ARROW else ""
        raise _error("bad cell token %s%s" % (_shown(token.text), hint), token)
    # ... and a stone belongs to one of the n players.
    if token.text in PLAYER_STONES and int(token.text) > players:
        raise _error("stone %s above player count %d" % (token.text, players), token)
    return token.text


def _read_cells(tokens: _Tokens, header: _Header) -> Tuple[str, ...]:
    expected = header.height * header.width
    cells: List[str] = []
    while len(cells) < expected:
        # RULES.md 1: too few cells is an error ("board truncated").
        if not tokens.remaining():
            raise MapError("board truncated: expected %d cells, found %d"
                           % (expected, len(cells)), *tokens.end)
        cells.append(_read_cell(tokens.take("cell"), header.players))
    return tuple(cells)


# --- transitions ----------------------------------------------------------------------------

class _End(NamedTuple):
    """One end of a transition as written, with the tokens that wrote it."""

    side: Side
    x_token: Token
    d_token: Token


def _read_transition_tokens(tokens: _Tokens) -> List[Token]:
    # RULES.md 1: a transition is exactly 7 tokens; leftovers that are fewer are an error.
    if tokens.remaining() < 7:
        first = tokens.take("transition")
        raise _error("incomplete transition: expected 7 tokens 'x1 y1 d1 <-> x2 y2 d2', "
                     "found %d" % (tokens.remaining() + 1), first)
    words = [tokens.take("transition") for _ in range(7)]
    # The fourth token, and only the fourth, is the arrow.
    for index, word in enumerate(words):
        if index == 3 and word.text != ARROW:
            raise _error("malformed transition: expected %r, found %s"
                         % (ARROW, _shown(word.text)), word)
        if index != 3 and word.text == ARROW:
            raise _error("malformed transition: %r in place of a number" % ARROW, word)
    return words


def _read_end(words: List[Token], m: Map) -> _End:
    x, y, d = (_integer(word, "transition number") for word in words)
    # Each end lies on the board ...
    if not m.is_on_board(x, y):
        raise _error("transition end (%d, %d) off the board" % (x, y), words[0])
    # ... is not a hole ...
    if m.cells[m.index(x, y)] == HOLE:
        raise _error("transition end (%d, %d) is a hole" % (x, y), words[0])
    # ... names a direction 0..7 ...
    if not 0 <= d <= 7:
        raise _error("transition direction %d outside 0..7" % d, words[2])
    # ... and its side faces off the board or onto a hole.
    dx, dy = DIRECTIONS[d]
    nx, ny = x + dx, y + dy
    if m.is_on_board(nx, ny) and m.cells[m.index(nx, ny)] != HOLE:
        raise _error("side (%d, %d, %d) faces cell (%d, %d), not the edge or a hole"
                     % (x, y, d, nx, ny), words[2])
    return _End((x, y, d), words[0], words[2])


def _check_sides_unused(first: _End, second: _End, used: Dict[Side, Token],
                        seen: Dict[Tuple[Side, Side], Token], start: Token) -> None:
    """Reject a transition listed twice, or one using a side another transition uses."""
    key = (min(first.side, second.side), max(first.side, second.side))
    if key in seen:
        raise _error("transition %s <-> %s listed twice (first on line %d)"
                     % (first.side, second.side, seen[key].line), start)
    # RULES.md 1: no side is used by two transitions (a side joined to itself is one use).
    for end in (first, second):
        if end.side in used:
            raise _error("side %s used by two transitions (first on line %d)"
                         % (end.side, used[end.side].line), end.x_token)
    seen[key] = start
    used[first.side] = first.x_token
    used[second.side] = second.x_token


def _read_transitions(tokens: _Tokens, m: Map) -> Tuple[Transition, ...]:
    transitions: List[Transition] = []
    used: Dict[Side, Token] = {}
    seen: Dict[Tuple[Side, Side], Token] = {}
    while tokens.remaining():
        words = _read_transition_tokens(tokens)
        first = _read_end(words[0:3], m)
        second = _read_end(words[4:7], m)
        _check_sides_unused(first, second, used, seen, words[0])
        transitions.append(Transition(*(first.side + second.side)))
    return tuple(transitions)


# --- reading --------------------------------------------------------------------------------

def read_map(text: str) -> Map:
    """Parse a map text (RULES.md 1); raise MapError naming the first problem and its place."""
    tokens = _Tokens(text)
    header = _read_header(tokens)
    cells = _read_cells(tokens, header)
    board = Map(header.players, header.overrides, header.bombs, header.strength,
                header.height, header.width, cells)
    transitions = _read_transitions(tokens, board)
    return Map(header.players, header.overrides, header.bombs, header.strength,
               header.height, header.width, cells, transitions)


def decode_map_bytes(data: bytes) -> str:
    """The text of a map file's bytes; undecodable bytes become U+FFFD and fail as bad tokens."""
    return data.decode("utf-8", errors="replace")


def read_map_file(path: Union[str, Path]) -> Map:
    """Read and parse a map file; a MapError names the file. OSError passes through."""
    data = Path(path).read_bytes()
    try:
        return read_map(decode_map_bytes(data))
    except MapError as error:
        raise error.with_source(str(path)) from None


# --- writing --------------------------------------------------------------------------------

def _live_transitions(m: Map, cells: Tuple[str, ...]) -> List[Transition]:
    """The map's transitions whose ends are both still cells (not bombed into holes)."""
    return [t for t in m.transitions
            if cells[m.index(t.x1, t.y1)] != HOLE and cells[m.index(t.x2, t.y2)] != HOLE]


def format_map(m: Union[Map, GameState]) -> str:
    """The map file text of a map, or of a game state's current board under its map's header.

    For a state in the bombing phase, transitions with an end bombed into a hole are left out:
    a walk could not use them anyway (RULES.md 2 and 5), and the text stays a valid map.
    """
    geometry = m.map if isinstance(m, GameState) else m
    cells = m.board if isinstance(m, GameState) else m.cells
    lines = [
        str(geometry.players),
        str(geometry.overrides),
        "%d %d" % (geometry.bombs, geometry.strength),
        "%d %d" % (geometry.height, geometry.width),
    ]
    width = geometry.width
    if width:
        lines.extend(" ".join(cells[y * width:(y + 1) * width]) for y in range(geometry.height))
    lines.extend("%d %d %d %s %d %d %d" % (t.x1, t.y1, t.d1, ARROW, t.x2, t.y2, t.d2)
                 for t in _live_transitions(geometry, cells))
    return "\n".join(lines) + "\n"


__all__ = ["Token", "decode_map_bytes", "format_map", "read_map", "read_map_file", "tokenize"]
