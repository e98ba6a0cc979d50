"""`serve` against misbehaving clients (issue 19, item 2; RULES.md 6 and 8).

Each game runs a `Referee` in a thread on a three-player map where player 1 can only play
(2, 0), player 2 (2, 1) and player 3 (2, 2).  The clients are raw sockets that follow a script,
one action per move request.  Every wait is bounded: the referee's own limits are set far above
what a scenario needs (`--wait` 30 s), and the test fails if the game is not over within
`TIMEOUT`, so a referee that waited on a misbehaving client would fail, not hang.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from typing import Any, List, Sequence, Tuple, Union

import pytest

from helpers import RefereeThread
from reversi_ref.cli import main
from reversi_ref.protocol import (Decoder, Disqualification, EndOfGame, Group, MapText, Message,
                                  MoveAnswer, MoveRequest, PlayerNumber, encode)
from reversi_ref.referee import MAX_WAITING

TIMEOUT = 10.0     # a scenario's bound; the referee's own waits are longer
LONG_WAIT = 30.0   # --wait and -z: what the referee would wait for a silent client
HEADER = struct.Struct(">BI")
TRIO = "3\n0\n0 0\n3 3\n1 2 0\n2 3 0\n3 1 0\n"
MOVES = {1: MoveAnswer(2, 0, 0), 2: MoveAnswer(2, 1, 0), 3: MoveAnswer(2, 2, 0)}

Action = Union[str, bytes, Tuple[float, bytes]]  # "close", raw bytes, (delay, raw bytes)


class Game(RefereeThread):
    """A Referee running one game on TRIO in a thread; `finish` waits at most TIMEOUT, while
    the referee itself would wait LONG_WAIT for a silent client."""

    def __init__(self, **options: Any) -> None:
        options.setdefault("connect_timeout", LONG_WAIT)
        options.setdefault("wait", LONG_WAIT)
        super().__init__(TRIO, TIMEOUT, **options)

    def reason(self, player: int) -> str:
        """Why `player` was disqualified."""
        trace = self.finish()
        reasons = [d["reason"] for d in trace["disqualifications"] if d["player"] == player]
        assert reasons, trace["disqualifications"]
        return str(reasons[0])


class Client:
    """A raw client: sends `hello`, answers each move request with the next action of
    `script` (default: the one legal move), and records what it receives in a thread."""

    def __init__(self, port: int, hello: bytes = encode(Group(1)),
                 script: Sequence[Action] = ()) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.sock.sendall(hello)
        self.script = list(script)
        self.got: List[Union[Message, str]] = []
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        decoder = Decoder()
        player = 0
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    self.got.append("EOF")
                    return
                for message in decoder.feed(data):
                    self.got.append(message)
                    if isinstance(message, PlayerNumber):
                        player = message.player
                    if isinstance(message, MoveRequest) and not self._act(player):
                        return
        except ConnectionResetError:
            self.got.append("RESET")
        except socket.timeout:
            self.got.append("TIMEOUT")
        finally:
            self.sock.close()

    def _act(self, player: int) -> bool:
        """Answer a move request; False once we closed the connection."""
        action = self.script.pop(0) if self.script else encode(MOVES[player])
        if isinstance(action, tuple):
            time.sleep(action[0])
            action = action[1]
        if action == "close":
            return False
        assert isinstance(action, bytes)
        self.sock.sendall(action)
        return True

    def finish(self) -> List[Union[Message, str]]:
        """Everything received, once the connection has ended."""
        self.thread.join(TIMEOUT)
        assert not self.thread.is_alive(), "client still reading: %r" % self.got
        return self.got


def wait_seated(game: Game, count: int) -> None:
    """Wait until `count` clients have sent their group numbers."""
    deadline = time.monotonic() + TIMEOUT
    while len(game.referee.connections) < count:
        assert time.monotonic() < deadline, "clients not seated:\n" + game.out.getvalue()
        time.sleep(0.005)


def play(game: Game, second: Sequence[Action]) -> List[Client]:
    """Seat three clients in order, the second following `second`; all of them."""
    clients = []
    for seat, script in enumerate([(), second, ()], start=1):
        clients.append(Client(game.port, encode(Group(seat)), script))
        wait_seated(game, seat)
    return clients


def is_eof(sock: socket.socket) -> bool:
    """Whether the peer has closed `sock` (reading at most TIMEOUT s)."""
    try:
        return sock.recv(16) == b""
    except ConnectionResetError:
        return True


# --------------------------------------------------------------------------- answers


@pytest.mark.parametrize("header,name", [
    (HEADER.pack(2, 100), "type 2 (map)"),
    (HEADER.pack(2, 16 * 1024 * 1024), "type 2 (map)"),
    (HEADER.pack(4, 5), "type 4 (move request)"),
    (HEADER.pack(6, 6), "type 6 (move announcement)"),
    (HEADER.pack(9, 0), "type 9 (end of game)"),
], ids=["map", "map of 16 MiB", "move request", "announcement", "end of game"])
def test_type_a_client_may_not_send_disqualifies_at_its_header(header: bytes, name: str) -> None:
    """RULES.md 8: a client sends types 1 and 5 only; any other type disqualifies as soon as
    its header arrives (issue 19: a type-2 header used to make the referee wait for up to
    16 MiB of payload), with a reason naming the type; RULES.md 6: the offender gets its 7 and
    then the end of the stream, the others play on."""
    game = Game()
    clients = play(game, [header])
    assert name in game.reason(2)
    assert "may only send type 1 (group number) and type 5 (move)" in game.reason(2)
    got = clients[1].finish()
    assert got[-2:] == [Disqualification(2), "EOF"]
    assert clients[0].finish()[-2:] == [EndOfGame(), "EOF"]


@pytest.mark.parametrize("action,reason", [
    (b"hello world\n", "unknown message type 104"),
    (HEADER.pack(5, 0xFFFFFFFF), "must have payload length 5, got 4294967295"),
    (HEADER.pack(5, 4) + b"\x00\x02\x00\x01", "must have payload length 5, got 4"),
    (encode(Group(2)), "expected type 5 (move), got type 1 (group number)"),
    ("close", "connection was closed"),
    (encode(MoveAnswer(600, 1, 0)), ""),
], ids=["garbage", "huge length", "short", "group again", "close", "off the board"])
def test_bad_answer_disqualifies_and_the_game_goes_on(action: Action, reason: str) -> None:
    """RULES.md 6: garbage, a huge or wrong length, a second group number, a closed connection
    or an illegal move disqualify the mover at once; the others play on."""
    game = Game()
    clients = play(game, [action])
    assert reason in game.reason(2)
    trace = game.finish()
    assert trace["final"]["scores"]["2"] == "disqualified"
    for client in (clients[0], clients[2]):
        assert client.finish()[-2:] == [EndOfGame(), "EOF"]


@pytest.mark.parametrize("action", [
    pytest.param((1.4, encode(MOVES[2])), marks=pytest.mark.slow, id="late"),
    pytest.param(HEADER.pack(5, 5) + b"\x00", id="half message"),
    pytest.param(b"\x05\x00", marks=pytest.mark.slow, id="half header"),
])
def test_late_or_unfinished_answer_is_disqualified_after_the_bank(action: Action) -> None:
    """RULES.md 8: with -t 1, an answer not complete within the bank (plus the 100 ms the
    server grants) disqualifies; the referee does not wait for the rest (--wait is 30 s)."""
    game = Game(time_limit=1)
    play(game, [action])
    assert "time bank" in game.reason(2)


# --------------------------------------------------------------------------- seating


def test_silent_connection_costs_the_others_nothing() -> None:
    """Issue 19: a connection that never sends its group number does not hold up the
    others: the next three are seated and play, numbered in order of connection; the silent
    one is closed when the seats are taken."""
    game = Game(group_wait=LONG_WAIT)
    silent = socket.create_connection(("127.0.0.1", game.port), timeout=TIMEOUT)
    half = socket.create_connection(("127.0.0.1", game.port), timeout=TIMEOUT)
    half.sendall(HEADER.pack(1, 1))  # a group number without its payload byte
    clients = [Client(game.port, encode(Group(group))) for group in (11, 12, 13)]
    trace = game.finish()
    assert trace["groups"] == {"1": 11, "2": 12, "3": 13}
    for client in clients:
        assert client.finish()[-2:] == [EndOfGame(), "EOF"]
    assert is_eof(silent) and is_eof(half)
    silent.close()
    half.close()


def test_late_group_number_keeps_its_place_in_connection_order() -> None:
    """RULES.md 8: players are numbered in order of connection, as the official server
    does (it reads one client at a time): a client connected first but slow to send its
    group number is still player 1."""
    game = Game()
    slow = socket.create_connection(("127.0.0.1", game.port), timeout=TIMEOUT)
    time.sleep(0.05)  # accepted before the others connect
    clients = [Client(game.port, encode(Group(group))) for group in (12, 13)]
    wait_seated(game, 2)
    slow.sendall(encode(Group(11)))
    decoder = Decoder()
    got: List[Message] = []
    while len(got) < 2:
        got.extend(decoder.feed(slow.recv(65536)))
    assert got[:2] == [MapText(TRIO.encode()), PlayerNumber(1)]
    slow.sendall(encode(MOVES[1]))
    assert game.finish()["groups"] == {"1": 11, "2": 12, "3": 13}
    for client in clients:
        assert client.finish()[-2:] == [EndOfGame(), "EOF"]
    slow.close()


def test_silent_connection_is_closed_after_the_group_wait() -> None:
    """Issue 19: a connection silent for `--group-wait` is closed, whether or not others
    are waiting; the game is then played by those who come later."""
    game = Game(group_wait=0.3)
    silent = socket.create_connection(("127.0.0.1", game.port), timeout=TIMEOUT)
    assert is_eof(silent)
    silent.close()
    clients = [Client(game.port, encode(Group(group))) for group in (11, 12, 13)]
    assert game.finish()["groups"] == {"1": 11, "2": 12, "3": 13}
    for client in clients:
        client.finish()
    assert "no group number from" in game.out.getvalue()


@pytest.mark.slow
def test_flood_of_silent_connections_is_bounded() -> None:
    """Issue 19: more silent connections than MAX_WAITING: the oldest are closed, and the
    clients that do send their group numbers still get their game."""
    game = Game(group_wait=LONG_WAIT)
    silent = [socket.create_connection(("127.0.0.1", game.port), timeout=TIMEOUT)
              for _ in range(MAX_WAITING + 6)]
    clients = [Client(game.port, encode(Group(group))) for group in (11, 12, 13)]
    assert game.finish()["groups"] == {"1": 11, "2": 12, "3": 13}
    for client in clients:
        client.finish()
    assert is_eof(silent[0])
    for sock in silent:
        sock.close()


def test_surplus_client_gets_nothing_and_disturbs_nothing() -> None:
    """RULES.md 8: a client beyond the map's n players is never seated: it receives no
    message, the game is played by the first n."""
    game = Game()
    # The second player takes its time, so the game is still on when the extra one connects.
    clients = play(game, [(1.0, encode(MOVES[2]))])
    extra = Client(game.port, encode(Group(14)))
    trace = game.finish()
    assert trace["groups"] == {"1": 1, "2": 2, "3": 3}
    assert all(c.finish()[-2:] == [EndOfGame(), "EOF"] for c in clients)
    assert extra.finish() in (["EOF"], ["RESET"])


def test_bad_first_message_from_any_connection_aborts() -> None:
    """RULES.md 8: a first message that is not a group number (here from the third
    connection, while the first is still silent) aborts the game with code 255."""
    game = Game()
    silent = socket.create_connection(("127.0.0.1", game.port), timeout=TIMEOUT)
    Client(game.port, encode(Group(12)))
    bad = Client(game.port, b"GET / HTTP/1.0\r\n\r\n")
    game.thread.join(TIMEOUT)
    assert game.code == [255]
    assert bad.finish() in (["EOF"], ["RESET"])
    assert is_eof(silent)
    silent.close()


def test_no_client_at_all_gives_up_at_z() -> None:
    """RULES.md 8 (-z): nobody connects: the referee gives up (255) at -z."""
    game = Game(connect_timeout=0.3)
    game.thread.join(TIMEOUT)
    assert game.code == [255]



@pytest.mark.parametrize("value", ["0", "-1", "soon"])
def test_rejects_a_group_wait_that_is_not_positive(capsys: pytest.CaptureFixture[str],
                                                   value: str) -> None:
    """`--group-wait` must be a positive number of seconds: a usage error (exit 2) naming
    the argument."""
    with pytest.raises(SystemExit) as caught:
        main(["serve", "-m", "map.map", "--group-wait", value])
    assert caught.value.code == 2
    assert "argument --group-wait" in capsys.readouterr().err
