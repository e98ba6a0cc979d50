"""Reading and writing map files (RULES.md 1).

`read_map` accepts exactly the texts the official server loads, with the values the server reads,
and rejects the rest with a `MapError` whose `.problem` names the server's own diagnosis and
whose `.line` / `.column` (1-based) point at the token where the server's reading fails (just
past the last token when the text ends early). `format_map` writes the canonical layout;
`read_map(format_map(m)) == m` for every valid map. A text is read token by token only up to
its first problem, so time and memory grow with what is read, never with the rest: a board
declared above 1000x1000 is rejected at its header, before any cell.

Layout of a map file::

    n                     players, 2..8
    overrides             per player
    bombs strength        per player
    height width          each at most 1000
    height * width cells  each one of 0-8 - c i b x
    x1 y1 d1 <-> x2 y2 d2 transitions, any number

How the server reads it (probed with the official `mapinfo` and read off its disassembly):
- Tokens are what C's `strtok` makes of the text: the text ends at the first NUL character; the
  first token (the player count) ends at a space, tab or LF, every later token at a space, tab,
  LF or CR. So a CR right after the player count is part of that token, which is why a file whose
  only line breaks are bare CRs fails. Form feed, vertical tab and every other character are
  parts of tokens: `0\\f1` is one invalid cell token.
- Header numbers are read like `atoi` (C `strtol`, base 10): leading whitespace, an optional
  sign and the leading ASCII digits; the rest of the token is ignored and no digits read as 0.
  Out-of-range values saturate at the 64-bit limits, then the server keeps the low bits: the
  player count and the three counts modulo 256 (`258` players are 2), height and width as 32-bit
  unsigned numbers that must be at most 1000 (`4294967297` is 1; `99999999999`, `-1` and every
  saturated value are too large). The header is checked as it is read: a bad player count is
  reported before a missing override count, a too large height before a missing width.
- A cell is a token of exactly one byte (a character outside ASCII is more than one byte in
  UTF-8 and so an "invalid token"), and that byte one of `0 - c i b x` or a stone `1..n`.
- Transition numbers are `strtol` values cut to 32-bit ints (`4294967296` is 0). A transition is
  checked in this order: the fourth token is exactly `<->`; the first end is on the board with a
  direction 0..7; so is the second; the first side is free; the second side is free. A side is
  free when it faces the edge or a hole and no earlier transition took it; a hole as an end is
  never free. Transitions are numbered from 0 in the messages, as the server does. The server
  goes on checking the transitions after a bad one and prints every problem; we report the
  first. (A hole as an end makes it read before its neighbour table: on small boards that reads
  as taken, on boards of roughly 2000 cells or more `mapinfo` may crash instead. Either way the
  map does not load.)
- A side joined to itself takes nothing: the server keeps it out of its neighbour table, so the
  same self-join may come again, and a later transition may join that side elsewhere. A side
  joined elsewhere and then to itself is taken. Walking through a self-joined side is a U-turn
  (RULES.md 2), which captures nothing and blasts nothing more than a dead end does, so the
  server's choice to ignore it and ours to keep it agree in every game.

What `Map.transitions` holds: the effective transitions, in file order. A repeated self-join is
kept once, and a self-join whose side a later transition joins elsewhere is dropped (the later
transition applies). Both engines and the geometry build their tables from this tuple, so they
see what the server sees. `read_map_notes` returns the same map plus notes on what was dropped
and on header tokens that are not written canonically, for `reversi-ref lint`.
"""

from __future__ import annotations

import re
from itertools import compress
from pathlib import Path
from typing import (Dict, FrozenSet, Iterator, List, NamedTuple, Optional, Sequence, Tuple,
                    Union)

from .errors import MapError
from .geometry import (DIRECTIONS, HOLE, Map, Side, Transition)
from .state import GameState

MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_DIMENSION = 1000  # the server's limit ("dimensions too large (max 1000x1000)")
ARROW = "<->"

# The server's problems, as machine-readable ids (MapError.problem).
PROBLEM_PLAYER_COUNT = "invalid-player-count"
PROBLEM_HEADER_TRUNCATED = "header-truncated"
PROBLEM_DIMENSIONS = "dimensions-too-large"
PROBLEM_BOARD_TRUNCATED = "board-truncated"
PROBLEM_SQUARE = "invalid-square"
PROBLEM_TOKEN = "invalid-token"
PROBLEM_TRANSITION_TRUNCATED = "transition-truncated"
PROBLEM_DELIMITER = "invalid-delimiter"
PROBLEM_FIRST_COORDINATE = "invalid-first-coordinate"
PROBLEM_SECOND_COORDINATE = "invalid-second-coordinate"
PROBLEM_INVALID_FIELD = "transition-invalid-field"
PROBLEMS = (PROBLEM_PLAYER_COUNT, PROBLEM_HEADER_TRUNCATED, PROBLEM_DIMENSIONS,
            PROBLEM_BOARD_TRUNCATED, PROBLEM_SQUARE, PROBLEM_TOKEN,
            PROBLEM_TRANSITION_TRUNCATED, PROBLEM_DELIMITER, PROBLEM_FIRST_COORDINATE,
            PROBLEM_SECOND_COORDINATE, PROBLEM_INVALID_FIELD)

_FIRST_TOKEN = re.compile(r"[^ \t\n]+")
_TOKEN = re.compile(r"[^ \t\n\r]+")
_SEPARATORS = " \t\n\r"
_SEPARATOR = re.compile(r"[ \t\n\r]")
_SEVEN_TOKENS = re.compile(r"[ \t\n\r]*" + r"[ \t\n\r]+".join([r"([^ \t\n\r]+)"] * 7))
_SMALL_NUMBERS = {str(value): value for value in range(1001)}  # as strtol reads them
_TRANSITION_WORDS = dict(_SMALL_NUMBERS, **{ARROW: 0})  # the usual tokens of a transition
_UNUSUAL = re.compile(r"[^ -~\t\n\r]")  # what str.split() may treat otherwise than the server
_CHUNK_MIN = 64        # cells read a stretch at a time while at least this many are wanted ...
_CHUNK_MAX = 1 << 16   # ... in stretches of about this many characters
_BATCH_MIN = 256       # transitions are read in stretches of this many characters at first,
_BATCH_MAX = 1 << 16   # ... doubling up to this many while every transition is well-formed
_STRTOL = re.compile(r"[ \t\n\v\f\r]*([+-]?)([0-9]*)")
# The rest of a token from the first character strtol cannot read on (tokens joined by spaces).
_STRTOL_TAIL = re.compile(r"[^0-9 +\-\v\f][^ ]*")
# A number int() reads as strtol does, and without saturating.
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]{1,18}")
_CANONICAL = re.compile(r"(?:0|[1-9][0-9]*)\Z")
_LONG_MAX = 2 ** 63 - 1
_LONG_MIN = -2 ** 63
_SHOWN_LENGTH = 20  # longer tokens are cut short in error messages
_PLAIN_CELLS = "0-cibx"
_CELL_OBJECTS = {cell: cell for cell in _PLAIN_CELLS + "12345678"}


# --- tokens ---------------------------------------------------------------------------------

class Token(NamedTuple):
    """One token of a map file as the server splits it, and where it starts (1-based)."""

    text: str
    line: int
    column: int


class _Scanner:
    """The tokens of one map text, found one at a time as the server splits them.

    Nothing is split ahead: a text is read only as far as its first problem, and besides the
    text itself only the tokens asked for are held.  Places (line, column) are worked out only
    for the tokens that need one (header numbers, transitions, the token in an error), by
    counting the line breaks skipped since the last place asked for.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        # The text ends at the first NUL character.
        stop = text.find("\0")
        self.stop = stop if stop >= 0 else len(text)
        self.position = 0                  # the next token starts at or after this
        self._pattern = _FIRST_TOKEN       # the first token ends at a CR only at a line break
        self._last = (0, 0)                # start and length of the last token handed out
        self._counted = 0                  # line breaks are counted up to here ...
        self._line = 1                     # ... giving the line there
        self._line_start = 0               # ... and where that line starts

    def next_match(self) -> Optional[re.Match[str]]:
        """The next token as a regex match, or None when the text has ended."""
        match = self._pattern.search(self.text, self.position, self.stop)
        self._pattern = _TOKEN
        if match is None:
            self.position = self.stop
            return None
        self.position = match.end()
        self._last = (match.start(), self.position - match.start())
        return match

    def next_cells(self, count: int, allowed: FrozenSet[str]) -> List[str]:
        """Up to `count` next tokens, taken while each is one of `allowed`; stops before the
        first that is not (the next `next_match` returns it) and at the end of the text."""
        cells: List[str] = []
        text = self.text
        while count - len(cells) >= _CHUNK_MIN:
            # A stretch of text ending just after a separator holds whole tokens only; it is
            # short enough to hold no more tokens than are still wanted (each takes at least
            # a character and a separator).
            start = self.position
            far = start + min(2 * (count - len(cells)) - 2, _CHUNK_MAX)
            separator = _SEPARATOR.search(text, far, self.stop)
            cut = separator.end() if separator is not None else self.stop
            chunk = text[start:cut]
            # str.split() splits as the server does where only printable ASCII, space, tab,
            # LF and CR occur; elsewhere, and at a token not allowed, go token by token.
            if _UNUSUAL.search(chunk):
                break
            words = chunk.split()
            if not allowed.issuperset(words):
                break
            if words:
                finish = start + len(chunk.rstrip(_SEPARATORS))
                self._last = (finish - len(words[-1]), len(words[-1]))
            # One shared string object per cell kind (PyPy would keep a million copies).
            cells.extend(map(_CELL_OBJECTS.__getitem__, words))
            self.position = cut
            if cut >= self.stop:
                return cells
        while len(cells) < count:
            position = self.position
            match = self.next_match()
            if match is None:
                break
            cell = match.group()
            if cell not in allowed:
                self.position = position  # handed out again by the next call
                break
            cells.append(cell)
        return cells

    def place(self, start: int) -> Tuple[int, int]:
        """(line, column), 1-based, of the character at `start`; lines are counted at LF."""
        text = self.text
        if start < self._counted:  # not needed in reading order; counted afresh
            return (text.count("\n", 0, start) + 1,
                    start - text.rfind("\n", 0, start))
        breaks = text.count("\n", self._counted, start)
        if breaks:
            self._line += breaks
            self._line_start = text.rfind("\n", self._counted, start) + 1
        self._counted = start
        return self._line, start - self._line_start + 1

    def token(self, match: re.Match[str]) -> Token:
        """A matched token with its place."""
        return Token(match.group(), *self.place(match.start()))

    def token_at(self, start: int, text: str) -> Token:
        """The token `text` starting at `start`, with its place."""
        return Token(text, *self.place(start))

    def next_transition(self) -> Optional[re.Match[str]]:
        """The next 7 tokens as the groups of one match, or None when fewer are left."""
        match = _SEVEN_TOKENS.match(self.text, self.position, self.stop)
        if match is None:
            return None
        self.position = match.end()
        self._last = (match.start(7), self.position - match.start(7))
        return match

    def next(self) -> Optional[Token]:
        """The next token with its place, or None when the text has ended."""
        match = self.next_match()
        return None if match is None else self.token(match)

    @property
    def end(self) -> Tuple[int, int]:
        """The place just past the last token handed out ((1, 1) when there was none); read
        when the text has ended, this is where an error about a text ending early points."""
        start, length = self._last
        if not length:
            return (1, 1)
        line, column = self.place(start)
        return line, column + length


def tokenize(text: str) -> Iterator[Token]:
    """Yield the tokens of a map text, split as the server splits them, with line and column."""
    scanner = _Scanner(text)
    token = scanner.next()
    while token is not None:
        yield token
        token = scanner.next()


def _shown(text: str) -> str:
    """A token quoted for an error message (ASCII only), cut short if it is long."""
    if len(text) <= _SHOWN_LENGTH:
        return ascii(text)
    return ascii(text[:_SHOWN_LENGTH]) + "..."


def _byte_length(text: str) -> int:
    """How many bytes the server saw for this text (UTF-8; escaped raw bytes count one)."""
    count = 0
    for char in text:
        code = ord(char)
        if code < 0x80 or 0xDC80 <= code <= 0xDCFF:
            count += 1
        else:
            count += len(char.encode("utf-8", "surrogatepass"))
    return count


def read_long(text: str) -> int:
    """The value C's strtol(text, NULL, 10) returns on a 64-bit system (saturating)."""
    match = _STRTOL.match(text)
    sign, digits = match.groups() if match else ("", "")
    digits = digits.lstrip("0")
    if len(digits) > 19:
        value = _LONG_MAX + 1
    else:
        value = int(digits) if digits else 0
    if sign == "-":
        return max(-value, _LONG_MIN)
    return min(value, _LONG_MAX)


def _int32(value: int) -> int:
    """A long cut to a signed 32-bit int, as C does."""
    return (value + 2 ** 31) % 2 ** 32 - 2 ** 31


# --- notes for the linter -------------------------------------------------------------------

class MapNote(NamedTuple):
    """Something legal but suspicious in a map text: where, a kind, and what."""

    line: int
    column: int
    kind: str
    message: str


# --- header ---------------------------------------------------------------------------------

class _Header(NamedTuple):
    players: int
    overrides: int
    bombs: int
    strength: int
    height: int
    width: int


def _take_header_token(tokens: _Scanner, what: str) -> Token:
    token = tokens.next()
    if token is None:
        raise MapError("board truncated before %s (the map ends too early)" % what,
                       *tokens.end, problem=PROBLEM_HEADER_TRUNCATED)
    return token


def _note_number(token: Token, what: str, value: int, notes: List[MapNote]) -> None:
    # Compared as text: a canonical number is the decimal of its value, and int() of a long
    # token would be slow (or refused by Python's digit limit).
    if not _CANONICAL.match(token.text) or token.text != str(value):
        notes.append(MapNote(token.line, token.column, "non-canonical-number",
                             "%s %s reads as %d" % (what, _shown(token.text), value)))


def _read_header(tokens: _Scanner, notes: List[MapNote]) -> _Header:
    token = _take_header_token(tokens, "number of players")
    players = read_long(token.text) % 256
    # The server keeps the player count as one byte; it must be 2..8.
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise MapError("invalid number of players: %s reads as %d, not %d..%d"
                       % (_shown(token.text), players, MIN_PLAYERS, MAX_PLAYERS),
                       token.line, token.column, problem=PROBLEM_PLAYER_COUNT)
    _note_number(token, "player count", players, notes)
    counts: List[int] = []
    for what, name in (("override count", "override count"), ("bomb count", "bomb count"),
                       ("bomb power", "bomb strength")):
        token = _take_header_token(tokens, what)
        # Counts and strength are unsigned 8-bit: taken modulo 256.
        counts.append(read_long(token.text) % 256)
        _note_number(token, name, counts[-1], notes)
    sizes: List[int] = []
    for what in ("height", "width"):
        token = _take_header_token(tokens, what)
        # Height and width are compared as unsigned 32-bit numbers against 1000.
        size = read_long(token.text) % 2 ** 32
        if size > MAX_DIMENSION:
            raise MapError("dimensions too large (max 1000x1000): %s %s reads as %d"
                           % (what, _shown(token.text), _int32(size)),
                           token.line, token.column, problem=PROBLEM_DIMENSIONS)
        _note_number(token, what, size, notes)
        sizes.append(size)
    return _Header(players, counts[0], counts[1], counts[2], sizes[0], sizes[1])


# --- cells ----------------------------------------------------------------------------------

def _read_cells(tokens: _Scanner, header: _Header) -> Tuple[str, ...]:
    stones = "".join(str(p) for p in range(1, header.players + 1))
    allowed = frozenset(_PLAIN_CELLS + stones)
    width = header.width
    count = header.height * width
    cells = tokens.next_cells(count, allowed)
    if len(cells) == count:
        return tuple(cells)
    bad = tokens.next_match()
    index = len(cells)
    x, y = index % width, index // width
    if bad is None:
        raise MapError("board truncated at (x,y) = (%d,%d): the map ends after %d of %d "
                       "cells" % (x, y, index, count), *tokens.end,
                       problem=PROBLEM_BOARD_TRUNCATED)
    token = tokens.token(bad)
    # A cell is a token of one byte ...
    if len(token.text) != 1 or _byte_length(token.text) != 1:
        raise MapError("invalid token %s at (%d,%d): a cell is one character of 0-8 - c i b x"
                       % (_shown(token.text), x, y), token.line, token.column,
                       problem=PROBLEM_TOKEN)
    # ... one of 0 - c i b x or the stone of one of the n players.
    why = ("player %s is above the player count %d" % (token.text, header.players)
           if token.text in "12345678" else "not one of 0-8 - c i b x")
    raise MapError("invalid square %s at (%d,%d): %s" % (_shown(token.text), x, y, why),
                   token.line, token.column, problem=PROBLEM_SQUARE)


# --- transitions ----------------------------------------------------------------------------

def _take_transition(tokens: _Scanner, number: int) -> Optional[re.Match[str]]:
    """The next transition's 7 tokens as the groups of one match; None at the end of the text;
    a MapError when the text ends inside it."""
    match = tokens.next_transition()
    if match is not None:
        return match
    count = 0
    while tokens.next_match() is not None:
        count += 1
    if count:
        raise MapError("transition %d is truncated: %d of its 7 tokens "
                       "'x1 y1 d1 <-> x2 y2 d2' before the map ends" % (number, count),
                       *tokens.end, problem=PROBLEM_TRANSITION_TRUNCATED)
    return None


def _where(number: int, texts: Sequence[str]) -> str:
    """A transition as error messages name it."""
    shown = " ".join(texts)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return "in transition %d (%s)" % (number, ascii(shown)[1:-1])


def _number(text: str) -> int:
    """A transition number as the server reads it: strtol cut to a 32-bit int."""
    value = _SMALL_NUMBERS.get(text)
    return value if value is not None else _int32(read_long(text))


def _end_on_board(values: Tuple[int, int, int], m: Map) -> Optional[str]:
    """Why an end (x, y, d) is not a cell of the board with a direction, or None."""
    x, y, d = values
    if not m.is_on_board(x, y):
        return "(%d,%d) is off the %dx%d board" % (x, y, m.width, m.height)
    if not 0 <= d <= 7:
        return "direction %d is not 0..7" % d
    return None


def _side_taken(side: Side, m: Map, taken: Dict[Side, int]) -> Optional[str]:
    """Why a side may not be joined now, or None when it is free."""
    x, y, d = side
    if m.cells[m.index(x, y)] == HOLE:
        return "(%d,%d) is a hole" % (x, y)
    dx, dy = DIRECTIONS[d]
    if m.is_on_board(x + dx, y + dy) and m.cells[m.index(x + dx, y + dy)] != HOLE:
        return "side (%d,%d,%d) faces cell (%d,%d), not the edge or a hole" % (
            x, y, d, x + dx, y + dy)
    if side in taken:
        return "side (%d,%d,%d) is already joined by transition %d" % (x, y, d, taken[side])
    return None


def _faces_out(side: Side, m: Map) -> bool:
    """Whether an end (on the board) is a cell, not a hole, whose side faces the edge or a
    hole."""
    x, y, d = side
    width = m.width
    if m.cells[y * width + x] == HOLE:
        return False
    dx, dy = DIRECTIONS[d]
    x, y = x + dx, y + dy
    return not (0 <= x < width and 0 <= y < m.height) or m.cells[y * width + x] == HOLE


def _check_transition(tokens: _Scanner, words: re.Match[str], number: int, m: Map,
                      taken: Dict[Side, int]) -> None:
    """Raise a MapError naming the first problem of a transition whose arrow is in place,
    checked in the server's order."""
    texts = words.groups()
    side1: Side = (_number(texts[0]), _number(texts[1]), _number(texts[2]))
    side2: Side = (_number(texts[4]), _number(texts[5]), _number(texts[6]))
    # Each end is a cell of the board with a direction 0..7, the first end checked first.
    for side, problem, group, name in (
            (side1, PROBLEM_FIRST_COORDINATE, 1, "first"),
            (side2, PROBLEM_SECOND_COORDINATE, 5, "second")):
        why = _end_on_board(side, m)
        if why:
            token = tokens.token_at(words.start(group), texts[group - 1])
            raise MapError("invalid %s coordinate (%d,%d,%d) %s: %s"
                           % ((name,) + side + (_where(number, texts), why)),
                           token.line, token.column, problem=problem)
    # Each side is free: facing the edge or a hole, and not joined by an earlier transition.
    for side, group in ((side1, 1), (side2, 5)):
        why = _side_taken(side, m, taken)
        if why:
            token = tokens.token_at(words.start(group), texts[group - 1])
            raise MapError("transition %d is invalid (leading to/coming from invalid field): "
                           "%s" % (number, why), token.line, token.column,
                           problem=PROBLEM_INVALID_FIELD)


def _numbers(texts: List[str]) -> List[int]:
    """Each text's number as `_number` reads it, read together (a Python call per text costs
    more than the reading itself)."""
    # What strtol reads of each text (sign and digits, perhaps after \v or \f); the same
    # number as the text's.
    heads = _STRTOL_TAIL.sub("", " ".join(texts)).split(" ")
    distinct = list(set(heads))
    plain = list(compress(distinct, map(_PLAIN_NUMBER.fullmatch, distinct)))
    values = list(map(int, plain))
    if values and not (-2 ** 31 <= min(values) and max(values) < 2 ** 31):
        values = list(map(_int32, values))
    lookup = dict(zip(plain, values))
    for head in distinct:
        if head not in lookup:  # no digits, whitespace, or too long: read as strtol does
            lookup[head] = _number(head)
    return list(map(lookup.__getitem__, heads))


def _read_transition_batch(tokens: _Scanner, chars: int, number: int, m: Map,
                           kept: List[Optional[Tuple[int, ...]]], taken: Dict[Side, int],
                           self_joins: Dict[Side, Tuple[int, Tuple[int, int]]],
                           notes: Optional[List[MapNote]], repeats: Dict[Side, List[int]]
                           ) -> Tuple[int, bool]:
    """Read the well-formed transitions in about `chars` characters of text, as
    `_read_transitions` would one by one, numbering them from `number`; stop before the first
    that has a problem (whose message needs the token's place), and with `notes` also before
    the first that needs its own place for a note (a new self-join, a side's first repeat).
    Return how many were read and whether they were all the stretch held (at least one)."""
    text = tokens.text
    start = tokens.position
    # A stretch ending just after a separator holds whole tokens only.
    separator = _SEPARATOR.search(text, start + chars, tokens.stop)
    cut = separator.end() if separator is not None else tokens.stop
    chunk = text[start:cut]
    # str.split() splits as the server does where only printable ASCII, space, tab, LF and CR
    # occur; elsewhere (form feeds, non-ASCII) the server's own separators split (faster so
    # than a regex under PyPy).
    words = (list(filter(None, chunk.replace("\t", " ").replace("\n", " ").replace("\r", " ")
                         .split(" "))) if _UNUSUAL.search(chunk) else chunk.split())
    whole_groups = len(words) // 7
    if not whole_groups:
        return 0, False
    # The transitions up to the first whose fourth token is not the arrow.
    arrows = words[3:7 * whole_groups:7]
    groups = whole_groups if arrows.count(ARROW) == whole_groups else (
        [arrow == ARROW for arrow in arrows].index(False))
    # The tokens' numbers (the arrows' too, unused): small decimal numbers are looked up; if
    # there are others, each distinct one is read once, all together.
    read_words = words[:7 * groups]
    try:
        values = list(map(_TRANSITION_WORDS.__getitem__, read_words))
    except KeyError:
        unusual = list(set(read_words).difference(_TRANSITION_WORDS))
        lookup = dict(zip(unusual, _numbers(unusual)))
        lookup.update(_TRANSITION_WORDS)
        values = list(map(lookup.__getitem__, read_words))
    width, height = m.width, m.height
    read = 0
    for x1, y1, d1, _, x2, y2, d2 in zip(*[iter(values)] * 7):
        if not (0 <= x1 < width and 0 <= y1 < height and 0 <= d1 <= 7
                and 0 <= x2 < width and 0 <= y2 < height and 0 <= d2 <= 7):
            break
        side1: Side = (x1, y1, d1)
        side2: Side = (x2, y2, d2)
        if side1 == side2:
            # A kept self-join's side faces out and is not taken (taking it drops the
            # self-join), so a repeat needs no more checks.
            if side1 in self_joins:
                if notes is not None:
                    if side1 not in repeats:
                        break
                    repeats[side1][3] += 1
                kept.append(None)
            elif side1 in taken or not _faces_out(side1, m) or notes is not None:
                break
            else:
                self_joins[side1] = (number + read, (0, 0))
                kept.append(side1 + side2)
        else:
            if (side1 in taken or side2 in taken
                    or not _faces_out(side1, m) or not _faces_out(side2, m)):
                break
            taken[side1] = taken[side2] = number + read
            # A side joined to itself before and now elsewhere: the self-join is dropped.
            for side in (side1, side2):
                if side in self_joins:
                    _drop_self_join(side, number + read, kept, self_joins, notes)
            kept.append(side1 + side2)
        read += 1
    if read == whole_groups:
        # Just past the last token of the last transition read (some tokens may follow).
        end = len(chunk.rstrip(_SEPARATORS))
        for word in reversed(words[7 * read:]):
            end -= len(word)
            while chunk[end - 1] in _SEPARATORS:
                end -= 1
        position = start + end
        last = words[7 * read - 1]
        tokens.position = position
        tokens._last = (position - len(last), len(last))
        return read, True
    # Back to the start of the transition that stopped the batch, token by token.
    for _ in range(read):
        tokens.next_transition()
    return read, False


def _drop_self_join(side: Side, number: int, kept: List[Optional[Tuple[int, ...]]],
                    self_joins: Dict[Side, Tuple[int, Tuple[int, int]]],
                    notes: Optional[List[MapNote]]) -> None:
    """Drop the kept self-join of `side`, which transition `number` joins elsewhere."""
    earlier, (line, column) = self_joins.pop(side)
    kept[earlier] = None
    if notes is not None:
        notes.append(MapNote(line, column, "replaced-self-join",
                             "side %s joined to itself here is joined elsewhere by transition "
                             "%d, which applies" % (side, number)))


def _repeat_notes(repeats: Dict[Side, List[int]]) -> Iterator[MapNote]:
    """One note per side joined to itself again, at its first repeat."""
    for side, (line, column, first, more) in repeats.items():
        later = ", and again by %d later transition%s" % (more, "s"[more == 1:]) if more else ""
        yield MapNote(line, column, "repeated-self-join",
                      "side %s is joined to itself again (transition %d already does it)%s; "
                      "no change" % (side, first, later))


def _read_transitions(tokens: _Scanner, m: Map,
                      notes: Optional[List[MapNote]]) -> Tuple[Transition, ...]:
    """The effective transitions (see the module's docstring); notes only when asked for."""
    kept: List[Optional[Tuple[int, ...]]] = []
    taken: Dict[Side, int] = {}                      # side -> number of the joining transition
    # kept self-join -> its number and (for a note) its place
    self_joins: Dict[Side, Tuple[int, Tuple[int, int]]] = {}
    # side joined to itself again -> the first repeat's line and column, the self-join's
    # number, and how many more repeats follow (one note per side)
    repeats: Dict[Side, List[int]] = {}
    small = _SMALL_NUMBERS.get
    width, height = m.width, m.height
    number = 0
    chars = _BATCH_MIN
    while True:
        # Well-formed transitions are read a stretch at a time, growing while that goes well;
        # the first one that is not (or needs its place for a note), and the end of the text,
        # are read alone below.
        done, whole = _read_transition_batch(tokens, chars, number, m, kept, taken,
                                             self_joins, notes, repeats)
        number += done
        if whole:
            chars = min(2 * chars, _BATCH_MAX)
            continue
        chars = _BATCH_MIN
        words = _take_transition(tokens, number)
        if words is None:
            break
        texts = words.groups()
        # The fourth token is exactly the arrow.
        if texts[3] != ARROW:
            token = tokens.token_at(words.start(4), texts[3])
            raise MapError('invalid delimiter "%s" %s: expected <->'
                           % (_shown(token.text)[1:-1], _where(number, texts)), token.line,
                           token.column, problem=PROBLEM_DELIMITER)
        # Small decimal numbers are looked up (in C); anything else is read as strtol does.
        x1, y1, d1, _, x2, y2, d2 = map(small, texts)
        if x1 is None or y1 is None or d1 is None or x2 is None or y2 is None or d2 is None:
            x1, y1, d1 = _number(texts[0]), _number(texts[1]), _number(texts[2])
            x2, y2, d2 = _number(texts[4]), _number(texts[5]), _number(texts[6])
        side1: Side = (x1, y1, d1)
        side2: Side = (x2, y2, d2)
        # A quick test that both ends are on the board, with free sides; when it fails, the
        # checks in the server's order say which problem comes first.
        if not (0 <= x1 < width and 0 <= y1 < height and 0 <= d1 <= 7
                and 0 <= x2 < width and 0 <= y2 < height and 0 <= d2 <= 7
                and _faces_out(side1, m) and _faces_out(side2, m)
                and side1 not in taken and side2 not in taken):
            _check_transition(tokens, words, number, m, taken)
        if side1 == side2:
            if side1 not in self_joins:
                place = tokens.place(words.start(1)) if notes is not None else (0, 0)
                self_joins[side1] = (number, place)
                kept.append(side1 + side2)
            else:
                if notes is not None:
                    if side1 in repeats:
                        repeats[side1][3] += 1
                    else:
                        line, column = tokens.place(words.start(1))
                        repeats[side1] = [line, column, self_joins[side1][0], 0]
                kept.append(None)
        else:
            for side in (side1, side2):
                taken[side] = number
                if side in self_joins:
                    _drop_self_join(side, number, kept, self_joins, notes)
            kept.append(side1 + side2)
        number += 1
    if notes is not None:
        notes.extend(_repeat_notes(repeats))
    return tuple(Transition._make(t) for t in kept if t is not None)


# --- reading --------------------------------------------------------------------------------

def _read(text: str, notes: Optional[List[MapNote]]) -> Map:
    """Parse a map text as the server does, adding to `notes` (when given) what a strict
    reading flags."""
    tokens = _Scanner(text)
    header = _read_header(tokens, notes if notes is not None else [])
    cells = _read_cells(tokens, header)
    board = Map(header.players, header.overrides, header.bombs, header.strength,
                header.height, header.width, cells)
    transitions = _read_transitions(tokens, board, notes)
    return Map(header.players, header.overrides, header.bombs, header.strength,
               header.height, header.width, cells, transitions)


def read_map_notes(text: str) -> Tuple[Map, List[MapNote]]:
    """Parse a map text as the server does; also return notes on what a strict reading flags."""
    notes: List[MapNote] = []
    m = _read(text, notes)
    notes.sort(key=lambda note: (note.line, note.column))
    return m, notes


def read_map(text: str) -> Map:
    """Parse a map text (RULES.md 1); raise MapError naming the first problem and its place."""
    return _read(text, None)


def decode_map_bytes(data: bytes) -> str:
    """The text of a map file's bytes: UTF-8, each undecodable byte kept as one escaped
    character, so that a cell of one such byte is read as the server reads it."""
    return data.decode("utf-8", errors="surrogateescape")


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


__all__ = ["MapNote", "PROBLEMS", "Token", "decode_map_bytes", "format_map", "read_long",
           "read_map", "read_map_file", "read_map_notes", "tokenize"]
