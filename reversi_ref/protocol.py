"""The network protocol of RULES.md 8 as a pure codec over bytes.

Every message is a header, type (uint8) and payload length (uint32), followed by the payload;
all integers are big-endian.  Each of the nine message types is a NamedTuple here; `encode`
turns one into bytes, `decode` turns the bytes of exactly one message back, and `Decoder` takes
a byte stream in arbitrary chunks and hands out whole messages as they complete.  Nothing here
does I/O.  Malformed input raises `ProtocolError` with a message naming the problem.
"""

from __future__ import annotations

import struct
from typing import Any, Dict, FrozenSet, List, NamedTuple, Optional, Tuple, Union

from .errors import ProtocolError

# --------------------------------------------------------------------------- constants

GROUP = 1              # client -> server: group number
MAP = 2                # server -> client: the map text
PLAYER_NUMBER = 3      # server -> client: your player number
MOVE_REQUEST = 4       # server -> client: time bank and depth
MOVE = 5               # client -> server: the move
MOVE_ANNOUNCEMENT = 6  # server -> all: a move that was played
DISQUALIFICATION = 7   # server -> all: a player was disqualified
END_OF_PHASE1 = 8      # server -> all: the building phase is over
END_OF_GAME = 9        # server -> all: the game is over

MESSAGE_NAMES: Dict[int, str] = {
    GROUP: "group number",
    MAP: "map",
    PLAYER_NUMBER: "player number",
    MOVE_REQUEST: "move request",
    MOVE: "move",
    MOVE_ANNOUNCEMENT: "move announcement",
    DISQUALIFICATION: "disqualification",
    END_OF_PHASE1: "end of phase 1",
    END_OF_GAME: "end of game",
}

# The exact payload length of every type but the map, whose payload has any length.
PAYLOAD_LENGTHS: Dict[int, int] = {
    GROUP: 1,
    PLAYER_NUMBER: 1,
    MOVE_REQUEST: 5,
    MOVE: 5,
    MOVE_ANNOUNCEMENT: 6,
    DISQUALIFICATION: 1,
    END_OF_PHASE1: 0,
    END_OF_GAME: 0,
}

# RULES.md 8: the only types a client may send (1 once, first; then 5).
CLIENT_TYPES = frozenset({GROUP, MOVE})

HEADER = struct.Struct(">BI")
HEADER_SIZE = HEADER.size  # 5
_U8 = struct.Struct(">B")
_REQUEST = struct.Struct(">IB")
_MOVE = struct.Struct(">HHB")
_ANNOUNCEMENT = struct.Struct(">HHBB")

MAX_PLAYERS = 8
# The largest map payload accepted: far above any real map (a 256x256 map is about 130 KB),
# small enough that a garbage length cannot make us buffer gigabytes.
MAX_MAP_BYTES = 16 * 1024 * 1024


# --------------------------------------------------------------------------- messages


class Group(NamedTuple):
    """Message 1: the client's group number (0..99; 99 marks a human; uint8 on the wire)."""

    group: int


class MapText(NamedTuple):
    """Message 2: the map file's bytes, verbatim."""

    data: bytes

    @property
    def text(self) -> str:
        """The map as text (bytes that are not UTF-8 are replaced, the parser rejects them)."""
        return self.data.decode("utf-8", errors="replace")


class PlayerNumber(NamedTuple):
    """Message 3: the receiving client's player number, 1..8."""

    player: int


class MoveRequest(NamedTuple):
    """Message 4: the whole current time bank in ms (0 = no limit) and the depth limit."""

    time_ms: int
    depth: int


class MoveAnswer(NamedTuple):
    """Message 5: the client's move: target (x, y) and the special byte."""

    x: int
    y: int
    special: int


class MoveAnnouncement(NamedTuple):
    """Message 6: a move that was played, and by whom."""

    x: int
    y: int
    special: int
    player: int


class Disqualification(NamedTuple):
    """Message 7: `player` is disqualified."""

    player: int


class EndOfPhase1(NamedTuple):
    """Message 8: the building phase is over (empty payload)."""


class EndOfGame(NamedTuple):
    """Message 9: the game is over (empty payload)."""


Message = Union[Group, MapText, PlayerNumber, MoveRequest, MoveAnswer, MoveAnnouncement,
                Disqualification, EndOfPhase1, EndOfGame]

MESSAGE_CLASSES = (Group, MapText, PlayerNumber, MoveRequest, MoveAnswer, MoveAnnouncement,
                   Disqualification, EndOfPhase1, EndOfGame)


def _same_message(self: Tuple[Any, ...], other: object) -> bool:
    """Messages are equal when they are of the same type with equal fields."""
    return type(self) is type(other) and tuple.__eq__(self, other)


def _different_message(self: Tuple[Any, ...], other: object) -> bool:
    return not _same_message(self, other)


def _message_hash(self: Tuple[Any, ...]) -> int:
    return hash((type(self).__name__,) + self)


# As plain tuples, Group(1) == PlayerNumber(1) and EndOfPhase1() == EndOfGame(); a message
# type is part of the value, so equality and hashing take it into account.
for _message_class in MESSAGE_CLASSES:
    setattr(_message_class, "__eq__", _same_message)
    setattr(_message_class, "__ne__", _different_message)
    setattr(_message_class, "__hash__", _message_hash)


def message_type(message: Message) -> int:
    """The wire type number (1..9) of `message`."""
    if isinstance(message, Group):
        return GROUP
    if isinstance(message, MapText):
        return MAP
    if isinstance(message, PlayerNumber):
        return PLAYER_NUMBER
    if isinstance(message, MoveRequest):
        return MOVE_REQUEST
    if isinstance(message, MoveAnswer):
        return MOVE
    if isinstance(message, MoveAnnouncement):
        return MOVE_ANNOUNCEMENT
    if isinstance(message, Disqualification):
        return DISQUALIFICATION
    if isinstance(message, EndOfPhase1):
        return END_OF_PHASE1
    if isinstance(message, EndOfGame):
        return END_OF_GAME
    raise ProtocolError("not a protocol message: %r" % (message,))


def describe(kind: int) -> str:
    """`kind` with its name, as error messages write it: "type 5 (move)"."""
    name = MESSAGE_NAMES.get(kind)
    return "type %d (%s)" % (kind, name) if name else "type %d" % kind


# --------------------------------------------------------------------------- encoding


def _check_range(what: str, value: int, low: int, high: int) -> None:
    """Raise ProtocolError unless low <= value <= high."""
    if not isinstance(value, int) or not low <= value <= high:
        raise ProtocolError("%s %r out of range %d..%d" % (what, value, low, high))


def encode_payload(message: Message) -> bytes:
    """The payload bytes of `message` (without the header)."""
    if isinstance(message, Group):
        _check_range("group number", message.group, 0, 255)
        return _U8.pack(message.group)
    if isinstance(message, MapText):
        if not isinstance(message.data, bytes):
            raise ProtocolError("map payload must be bytes, not %s" % type(message.data).__name__)
        if len(message.data) > MAX_MAP_BYTES:
            raise ProtocolError("map of %d bytes exceeds the limit of %d bytes"
                                % (len(message.data), MAX_MAP_BYTES))
        return message.data
    if isinstance(message, PlayerNumber):
        _check_range("player number", message.player, 1, MAX_PLAYERS)
        return _U8.pack(message.player)
    if isinstance(message, MoveRequest):
        _check_range("time bank (ms)", message.time_ms, 0, 0xFFFFFFFF)
        _check_range("depth", message.depth, 0, 255)
        return _REQUEST.pack(message.time_ms, message.depth)
    if isinstance(message, MoveAnswer):
        _check_range("x", message.x, 0, 0xFFFF)
        _check_range("y", message.y, 0, 0xFFFF)
        _check_range("special byte", message.special, 0, 255)
        return _MOVE.pack(message.x, message.y, message.special)
    if isinstance(message, MoveAnnouncement):
        _check_range("x", message.x, 0, 0xFFFF)
        _check_range("y", message.y, 0, 0xFFFF)
        _check_range("special byte", message.special, 0, 255)
        _check_range("player number", message.player, 1, MAX_PLAYERS)
        return _ANNOUNCEMENT.pack(message.x, message.y, message.special, message.player)
    if isinstance(message, Disqualification):
        _check_range("player number", message.player, 1, MAX_PLAYERS)
        return _U8.pack(message.player)
    if isinstance(message, (EndOfPhase1, EndOfGame)):
        return b""
    raise ProtocolError("not a protocol message: %r" % (message,))


def encode(message: Message) -> bytes:
    """The bytes of `message` on the wire: header and payload."""
    payload = encode_payload(message)
    return HEADER.pack(message_type(message), len(payload)) + payload


# --------------------------------------------------------------------------- decoding


def check_header(kind: int, length: int, max_map_bytes: int = MAX_MAP_BYTES) -> None:
    """Raise ProtocolError unless a message of type `kind` may have a payload of `length` bytes.

    This needs only the header, so a bad length is caught before any payload is awaited.
    """
    if kind not in MESSAGE_NAMES:
        raise ProtocolError("unknown message type %d" % kind)
    if kind == MAP:
        if length > max_map_bytes:
            raise ProtocolError("payload length %d of a %s message exceeds the limit of %d bytes"
                                % (length, describe(kind), max_map_bytes))
        return
    expected = PAYLOAD_LENGTHS[kind]
    if length != expected:
        raise ProtocolError("message %s must have payload length %d, got %d"
                            % (describe(kind), expected, length))


def _player(kind: int, value: int) -> int:
    """`value` as a player number, or ProtocolError when it is not 1..8."""
    if not 1 <= value <= MAX_PLAYERS:
        raise ProtocolError("player number %d out of range 1..%d in message %s"
                            % (value, MAX_PLAYERS, describe(kind)))
    return value


def decode_payload(kind: int, payload: bytes) -> Message:
    """The message of type `kind` whose payload is `payload` (header already checked)."""
    if kind not in MESSAGE_NAMES:
        raise ProtocolError("unknown message type %d" % kind)
    if kind != MAP and len(payload) != PAYLOAD_LENGTHS[kind]:
        raise ProtocolError("message %s must have payload length %d, got %d"
                            % (describe(kind), PAYLOAD_LENGTHS[kind], len(payload)))
    if kind == GROUP:
        return Group(_U8.unpack(payload)[0])
    if kind == MAP:
        return MapText(bytes(payload))
    if kind == PLAYER_NUMBER:
        return PlayerNumber(_player(kind, _U8.unpack(payload)[0]))
    if kind == MOVE_REQUEST:
        time_ms, depth = _REQUEST.unpack(payload)
        return MoveRequest(time_ms, depth)
    if kind == MOVE:
        x, y, special = _MOVE.unpack(payload)
        return MoveAnswer(x, y, special)
    if kind == MOVE_ANNOUNCEMENT:
        x, y, special, player = _ANNOUNCEMENT.unpack(payload)
        return MoveAnnouncement(x, y, special, _player(kind, player))
    if kind == DISQUALIFICATION:
        return Disqualification(_player(kind, _U8.unpack(payload)[0]))
    if kind == END_OF_PHASE1:
        return EndOfPhase1()
    return EndOfGame()


def decode(data: bytes) -> Message:
    """The single message whose complete bytes are `data` (header included)."""
    if len(data) < HEADER_SIZE:
        raise ProtocolError("truncated header: %d of %d bytes" % (len(data), HEADER_SIZE))
    kind, length = HEADER.unpack_from(data)
    check_header(kind, length)
    payload = data[HEADER_SIZE:]
    if len(payload) < length:
        raise ProtocolError("truncated payload of message %s: %d of %d bytes"
                            % (describe(kind), len(payload), length))
    if len(payload) > length:
        raise ProtocolError("%d bytes after a whole message %s"
                            % (len(payload) - length, describe(kind)))
    return decode_payload(kind, payload)


class Decoder:
    """Incremental decoding: feed byte chunks of any size, get back the whole messages.

    A malformed header is reported as soon as its 5 bytes have arrived, without waiting for
    the payload; so is a type outside `accept` (when given), e.g. `CLIENT_TYPES` for what a
    server reads.  After a ProtocolError the stream cannot be resynchronised and the decoder
    keeps raising it.  Call `close()` at the end of the stream to report a truncated message.
    """

    def __init__(self, max_map_bytes: int = MAX_MAP_BYTES,
                 accept: Optional[FrozenSet[int]] = None, sender: str = "the sender") -> None:
        self.max_map_bytes = max_map_bytes
        self.accept = accept
        self.sender = sender  # who sends the stream, as an error about `accept` names it
        self._buffer = bytearray()
        self._error: Optional[ProtocolError] = None

    @property
    def pending(self) -> int:
        """The number of bytes received that do not yet form a whole message."""
        return len(self._buffer)

    def feed(self, data: bytes) -> List[Message]:
        """Add `data` to the stream; return every message it completes, in order.

        Raises ProtocolError at the first malformed message; messages completed before it in
        the same call are returned first and the error is raised by the next call.
        """
        if self._error is not None:
            raise self._error
        self._buffer.extend(data)
        messages: List[Message] = []
        try:
            while len(self._buffer) >= HEADER_SIZE:
                kind, length = HEADER.unpack_from(self._buffer)
                self._check_type(kind)
                check_header(kind, length, self.max_map_bytes)
                end = HEADER_SIZE + length
                if len(self._buffer) < end:
                    break
                # One copy of the payload (a map may be 16 MiB); the views are let go before
                # the buffer shrinks.
                with memoryview(self._buffer) as view, view[HEADER_SIZE:end] as part:
                    payload = part.tobytes()
                del self._buffer[:end]
                messages.append(decode_payload(kind, payload))
        except ProtocolError as error:
            self._error = error
            if not messages:
                raise
        return messages

    def _check_type(self, kind: int) -> None:
        """Raise ProtocolError for a known type that this stream may not carry."""
        if self.accept is not None and kind in MESSAGE_NAMES and kind not in self.accept:
            raise ProtocolError("%s may only send %s, got %s"
                                % (self.sender, " and ".join(describe(k)
                                                             for k in sorted(self.accept)),
                                   describe(kind)))

    def close(self) -> None:
        """The stream has ended: raise ProtocolError if it stopped inside a message."""
        if self._error is not None:
            raise self._error
        if not self._buffer:
            return
        if len(self._buffer) < HEADER_SIZE:
            raise ProtocolError("truncated header at end of stream: %d of %d bytes"
                                % (len(self._buffer), HEADER_SIZE))
        kind, length = HEADER.unpack_from(self._buffer)
        raise ProtocolError("truncated payload of message %s at end of stream: %d of %d bytes"
                            % (describe(kind), len(self._buffer) - HEADER_SIZE, length))
