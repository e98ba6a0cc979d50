"""Tests of the protocol codec, RULES.md 8: message layout, incremental decoding, bad input.

Expected bytes are written out by hand from the table in RULES.md 8 (type uint8, length uint32,
payload, big-endian).
"""

from __future__ import annotations

from typing import List

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reversi_ref.errors import ProtocolError
from reversi_ref.protocol import (CLIENT_TYPES, HEADER, Decoder, Disqualification, EndOfGame,
                                  EndOfPhase1, Group, MapText, Message, MoveAnnouncement,
                                  MoveAnswer, MoveRequest, PlayerNumber, decode, describe, encode,
                                  message_type)

# Every message type with its bytes worked out by hand.
EXAMPLES = [
    (Group(7), b"\x01\x00\x00\x00\x01\x07"),
    (MapText(b"2\n0\n"), b"\x02\x00\x00\x00\x04" + b"2\n0\n"),
    (PlayerNumber(3), b"\x03\x00\x00\x00\x01\x03"),
    (MoveRequest(1000, 2), b"\x04\x00\x00\x00\x05\x00\x00\x03\xe8\x02"),
    (MoveAnswer(1, 258, 20), b"\x05\x00\x00\x00\x05\x00\x01\x01\x02\x14"),
    (MoveAnnouncement(300, 0, 21, 8), b"\x06\x00\x00\x00\x06\x01\x2c\x00\x00\x15\x08"),
    (Disqualification(2), b"\x07\x00\x00\x00\x01\x02"),
    (EndOfPhase1(), b"\x08\x00\x00\x00\x00"),
    (EndOfGame(), b"\x09\x00\x00\x00\x00"),
]


def messages_strategy() -> st.SearchStrategy[Message]:
    """Any valid message."""
    u8, u16, u32 = (st.integers(0, 255), st.integers(0, 0xFFFF), st.integers(0, 0xFFFFFFFF))
    player = st.integers(1, 8)
    return st.one_of(
        st.builds(Group, u8),
        st.builds(MapText, st.binary(max_size=300)),
        st.builds(PlayerNumber, player),
        st.builds(MoveRequest, u32, u8),
        st.builds(MoveAnswer, u16, u16, u8),
        st.builds(MoveAnnouncement, u16, u16, u8, player),
        st.builds(Disqualification, player),
        st.just(EndOfPhase1()),
        st.just(EndOfGame()),
    )


@pytest.mark.parametrize("message,data", EXAMPLES)
def test_encodes_each_message_type_as_the_table_says(message: Message, data: bytes) -> None:
    """RULES.md 8: header (type uint8, length uint32) and payload, big-endian."""
    assert encode(message) == data
    assert message_type(message) == data[0]


@pytest.mark.parametrize("message,data", EXAMPLES)
def test_decodes_each_message_type(message: Message, data: bytes) -> None:
    """RULES.md 8: the bytes of one message decode to it."""
    assert decode(data) == message


def test_map_payload_is_the_text_verbatim() -> None:
    """RULES.md 8: message 2 carries the map file's bytes unchanged (CR, tabs, odd bytes)."""
    raw = b"2\r\n0\t\n0 0\r\n1 2\n\xff1 2\n"
    assert encode(MapText(raw))[5:] == raw
    assert decode(encode(MapText(raw))) == MapText(raw)


def test_decoder_takes_one_byte_at_a_time() -> None:
    """RULES.md 8: a message split over many reads is decoded once it is whole."""
    stream = b"".join(data for _, data in EXAMPLES)
    decoder = Decoder()
    got: List[Message] = []
    for i in range(len(stream)):
        got.extend(decoder.feed(stream[i:i + 1]))
    assert got == [message for message, _ in EXAMPLES]
    assert decoder.pending == 0
    decoder.close()


# Drawing the messages can be slow on a busy machine; that is not what is tested.
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(messages_strategy(), max_size=8), st.lists(st.integers(1, 40), max_size=30))
def test_decoder_is_independent_of_chunking(messages: List[Message], cuts: List[int]) -> None:
    """RULES.md 8: however the stream is cut into reads, the same messages come out."""
    stream = b"".join(encode(m) for m in messages)
    decoder = Decoder()
    got: List[Message] = []
    position = 0
    for size in cuts + [len(stream)]:
        got.extend(decoder.feed(stream[position:position + size]))
        position += size
    assert got == messages
    decoder.close()


def test_rejects_unknown_message_type() -> None:
    """RULES.md 8: types are 1..9; anything else is named as unknown."""
    with pytest.raises(ProtocolError, match="unknown message type 42"):
        Decoder().feed(b"\x2a\x00\x00\x00\x00")
    with pytest.raises(ProtocolError, match="unknown message type 0"):
        decode(b"\x00\x00\x00\x00\x00")


def test_rejects_wrong_length_from_the_header_alone() -> None:
    """RULES.md 8: a move must have length 5; the header is enough to reject it."""
    with pytest.raises(ProtocolError, match=r"type 5 \(move\) must have payload length 5, got 4"):
        Decoder().feed(b"\x05\x00\x00\x00\x04")


@pytest.mark.parametrize("kind,length", [(1, 2), (3, 0), (4, 4), (6, 5), (7, 2), (8, 1), (9, 4)])
def test_rejects_wrong_length_of_every_fixed_type(kind: int, length: int) -> None:
    """RULES.md 8: each fixed-size message has exactly its length (8 and 9: empty)."""
    with pytest.raises(ProtocolError, match="must have payload length"):
        decode(bytes([kind, 0, 0, 0, length]) + b"\x01" * length)


def test_rejects_oversized_map_length() -> None:
    """RULES.md 8: a map length beyond any real map is rejected before buffering it."""
    with pytest.raises(ProtocolError, match="exceeds the limit"):
        Decoder().feed(b"\x02\xff\xff\xff\xff")
    with pytest.raises(ProtocolError, match="exceeds the limit of 10 bytes"):
        Decoder(max_map_bytes=10).feed(b"\x02\x00\x00\x00\x0b")


def test_rejects_truncated_payload_at_end_of_stream() -> None:
    """RULES.md 8: a stream ending inside a message is reported with what is missing."""
    decoder = Decoder()
    assert decoder.feed(b"\x05\x00\x00\x00\x05\x00\x01") == []
    with pytest.raises(ProtocolError, match=r"truncated payload .*type 5 \(move\).*2 of 5"):
        decoder.close()


def test_rejects_truncated_header_at_end_of_stream() -> None:
    """RULES.md 8: a stream ending inside a header is reported."""
    decoder = Decoder()
    decoder.feed(b"\x05\x00")
    with pytest.raises(ProtocolError, match="truncated header.*2 of 5"):
        decoder.close()
    with pytest.raises(ProtocolError, match="truncated"):
        decode(b"\x05\x00\x00\x00\x05\x00")


@pytest.mark.parametrize("data", [
    b"\x03\x00\x00\x00\x01\x00",                      # player number 0
    b"\x03\x00\x00\x00\x01\x09",                      # player number 9
    b"\x06\x00\x00\x00\x06\x00\x01\x00\x02\x00\x00",  # move announced for player 0
    b"\x07\x00\x00\x00\x01\x0c",                      # disqualification of player 12
])
def test_rejects_player_numbers_out_of_range(data: bytes) -> None:
    """RULES.md 8: player numbers are 1..8."""
    with pytest.raises(ProtocolError, match="player number .* out of range 1..8"):
        decode(data)


@pytest.mark.parametrize("message", [
    Group(256), PlayerNumber(0), MoveRequest(-1, 1), MoveRequest(0, 256),
    MoveAnswer(65536, 0, 0), MoveAnswer(0, 0, 256), MoveAnnouncement(0, 0, 0, 9),
    Disqualification(0),
])
def test_rejects_encoding_values_out_of_range(message: Message) -> None:
    """RULES.md 8: values must fit their field (uint8, uint16, uint32; players 1..8)."""
    with pytest.raises(ProtocolError, match="out of range"):
        encode(message)


def test_messages_before_an_error_are_delivered_first() -> None:
    """RULES.md 8: a whole message followed by garbage in one read is still delivered; the
    garbage is reported by the next call, and the stream stays broken."""
    decoder = Decoder()
    got = decoder.feed(encode(MoveAnswer(1, 2, 0)) + b"\xff\xff\xff\xff\xff")
    assert got == [MoveAnswer(1, 2, 0)]
    with pytest.raises(ProtocolError, match="unknown message type 255"):
        decoder.feed(b"")
    with pytest.raises(ProtocolError, match="unknown message type 255"):
        decoder.feed(encode(EndOfGame()))


def test_rejects_bytes_after_a_whole_message() -> None:
    """RULES.md 8: `decode` takes exactly one message."""
    with pytest.raises(ProtocolError, match="1 bytes after a whole message"):
        decode(encode(EndOfGame()) + b"\x00")


def test_messages_of_different_types_are_never_equal() -> None:
    """RULES.md 8: the type is part of a message: 8 is not 9, group 1 is not player 1."""
    phase_end: object = EndOfPhase1()
    group: object = Group(1)
    assert phase_end != EndOfGame()
    assert group != PlayerNumber(1) and group != Disqualification(1)
    assert MoveAnswer(1, 2, 0) != (1, 2, 0)
    assert MoveAnswer(1, 2, 0) == MoveAnswer(1, 2, 0)
    assert len({EndOfPhase1(), EndOfGame(), EndOfGame()}) == 2


@pytest.mark.parametrize("kind", [2, 3, 4, 6, 7, 8, 9])
def test_rejects_a_type_outside_accept_from_the_header_alone(kind: int) -> None:
    """RULES.md 8: a stream limited to the client's types (1 and 5) refuses any other known
    type as soon as its 5-byte header is in, naming the type, before any payload."""
    decoder = Decoder(accept=CLIENT_TYPES, sender="a client")
    with pytest.raises(ProtocolError) as caught:
        decoder.feed(HEADER.pack(kind, 16 * 1024 * 1024))
    assert str(caught.value) == ("a client may only send type 1 (group number) and type 5 "
                                 "(move), got %s" % describe(kind))


def test_accept_lets_the_client_types_through() -> None:
    """RULES.md 8: types 1 and 5 pass a stream limited to them; an unknown type is still
    reported as unknown."""
    decoder = Decoder(accept=CLIENT_TYPES)
    assert decoder.feed(encode(Group(3)) + encode(MoveAnswer(1, 2, 0))) == [
        Group(3), MoveAnswer(1, 2, 0)]
    with pytest.raises(ProtocolError, match="unknown message type 10"):
        decoder.feed(HEADER.pack(10, 0))
