"""Tests of the network referee (`reversi-ref serve`), RULES.md 6 and 8, over 127.0.0.1 only.

Every server listens on port 0 (a free port), every socket has a timeout and every thread is
joined with one, so the tests run in parallel and never hang.  Misbehaving clients are raw
sockets scripted to break one rule each; they take seat 1 (they connect first) so that their
first move request comes before anybody else's.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple, Type, TypeVar

import pytest

from helpers import RefereeThread, map_text
from reversi_ref import legal_moves, parse_map
from reversi_ref.client import Client
from reversi_ref.cli import main
from reversi_ref.errors import ReversiError
from reversi_ref.players import get
from reversi_ref.protocol import (HEADER, Decoder, Disqualification, EndOfGame, EndOfPhase1,
                                  Group, MapText, Message, MoveAnswer, MoveRequest,
                                  PlayerNumber, encode)
from reversi_ref.referee import START_PAUSE, Referee, bind_listener
from reversi_ref.state import GameState

REPO = Path(__file__).resolve().parents[1]
TIMEOUT = 20.0
M = TypeVar("M")

# Three players with a bomb each: player 1 may open with (4, 1) (capturing 3 and 2).
THREE = map_text("""
    0 0 0 0 0 0
    0 1 2 3 0 0
    0 3 1 2 0 0
    0 2 3 1 0 0
    0 0 0 0 c b
    0 0 0 0 i 0
""", players=3, overrides=1, bombs=1, strength=1)

# Eight players with overrides, bombs, every special tile and a transition.
EIGHT = map_text("""
    1 2 3 4 5 6
    7 8 1 2 3 4
    5 6 7 8 1 2
    3 4 5 6 7 8
    c i b x 0 0
    0 0 0 0 0 0
""", players=8, overrides=2, bombs=1, strength=1, transitions=["0 5 4 <-> 5 0 0"])


# --------------------------------------------------------------------------- harness


class Server(RefereeThread):
    """A Referee running in a thread, every wait bounded by TIMEOUT."""

    def __init__(self, text: str, **options: Any) -> None:
        super().__init__(text, TIMEOUT, **options)


def wait_seated(server: Server, count: int) -> None:
    """Wait until `count` clients have their seats (so the next one gets seat count + 1)."""
    deadline = time.monotonic() + TIMEOUT
    while len(server.referee.connections) < count:
        assert time.monotonic() < deadline, "clients not seated"
        time.sleep(0.005)


class Player:
    """A `reversi_ref.client.Client` playing in a thread."""

    def __init__(self, port: int, name: str = "random", seed: int = 1, group: int = 1) -> None:
        self.client = Client(get(name, seed), group, out=None, timeout=TIMEOUT)
        self.result: List[Any] = []
        self.thread = threading.Thread(target=self._run, args=(port,), daemon=True)
        self.thread.start()

    def _run(self, port: int) -> None:
        try:
            self.result.append(self.client.run("127.0.0.1", port))
        except ReversiError as error:
            self.result.append(error)

    def finish(self) -> GameState:
        """Wait for the end of the game; our final state."""
        self.thread.join(TIMEOUT)
        assert not self.thread.is_alive()
        assert isinstance(self.result[0], GameState), self.result
        return self.result[0]


class Raw:
    """A raw-socket client that speaks the protocol only as far as a test scripts it."""

    def __init__(self, port: int, group: Optional[int] = 1) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.decoder = Decoder()
        self.queue: List[Message] = []
        self.history: List[Message] = []
        if group is not None:
            self.send(Group(group))

    def send(self, message: Message) -> None:
        self.sock.sendall(encode(message))

    def receive(self) -> Optional[Message]:
        """The next message, or None at the end of the stream."""
        while not self.queue:
            data = self.sock.recv(65536)
            if not data:
                return None
            self.queue.extend(self.decoder.feed(data))
        message = self.queue.pop(0)
        self.history.append(message)
        return message

    def expect(self, kind: Type[M]) -> M:
        """Read messages up to the first of type `kind`."""
        while True:
            message = self.receive()
            assert message is not None, "stream ended before %s" % kind.__name__
            if isinstance(message, kind):
                return message

    def rest(self) -> List[Message]:
        """Every message up to the end of the game (or of the stream)."""
        got: List[Message] = []
        while True:
            try:
                message = self.receive()
            except OSError:
                return got
            if message is None:
                return got
            got.append(message)
            if isinstance(message, EndOfGame):
                return got

    def close(self) -> None:
        self.sock.close()


def seat_raw_then_players(server: Server, others: int,
                          group: int = 1) -> Tuple[Raw, List[Player], GameState]:
    """Seat a raw client as player 1, then `others` random clients; the raw client's state."""
    raw = Raw(server.port, group)
    wait_seated(server, 1)
    players = [Player(server.port, "random", seed=s) for s in range(others)]
    state = parse_map(raw.expect(MapText).text)
    assert raw.expect(PlayerNumber) == PlayerNumber(1)
    return raw, players, state


def reason_of(trace: Dict[str, Any], player: int) -> str:
    """The disqualification reason of `player` in a trace."""
    reasons = [d["reason"] for d in trace["disqualifications"] if d["player"] == player]
    assert reasons, trace["disqualifications"]
    return str(reasons[0])


# --------------------------------------------------------------------------- whole games


@pytest.mark.parametrize("text,names", [
    (THREE, ["greedy", "random", "random"]),
    (EIGHT, ["random", "greedy"] * 4),
], ids=["3-players", "8-players"])
def test_whole_game_between_clients(text: str, names: List[str]) -> None:
    """RULES.md 8: a whole game over TCP; every client's tracked state ends equal to the
    referee's, with 8 and 9 said to everybody and nobody disqualified."""
    server = Server(text)
    players = []
    for seat, name in enumerate(names):
        players.append(Player(server.port, name, seed=seat, group=seat + 10))
        wait_seated(server, seat + 1)  # connection order gives the seat
    finals = [p.finish() for p in players]
    trace = server.finish()
    assert trace["disqualifications"] == []
    assert trace["final"] is not None and trace["phase1_end"] is not None
    for player, final in zip(players, finals):
        assert final.board == server.referee.game.state.board
        assert player.client.warnings == 0
        assert player.client.history[-1] == EndOfGame()
        assert EndOfPhase1() in player.client.history
    assert trace["groups"] == {str(i + 1): i + 10 for i in range(len(names))}
    assert any(m["phase"] == 2 for m in trace["moves"])


@pytest.mark.parametrize("name", [
    "default.map", pytest.param("octagon8p.map", marks=pytest.mark.slow)])
def test_whole_game_on_bundled_map(name: str) -> None:
    """A whole game over TCP on a bundled map (8 players, bombs on octagon8p)."""
    path = REPO / "maps" / name
    if not path.is_file():
        pytest.skip("maps/%s not present" % name)
    text = path.read_text()
    server = Server(text)
    players = [Player(server.port, "random", seed=s) for s in range(parse_map(text).players)]
    for player in players:
        player.finish()
    trace = server.finish()
    assert trace["disqualifications"] == []
    assert all(p.client.warnings == 0 for p in players)


def test_time_bank_grows_by_the_limit_each_request() -> None:
    """RULES.md 8: the bank starts at S*1000 ms, each later request adds S*1000 ms and the
    time used is subtracted; the request carries the whole bank."""
    server = Server(THREE, time_limit=1)
    players = [Player(server.port, "random", seed=s) for s in range(3)]
    for player in players:
        player.finish()
    trace = server.finish()
    for seat in (1, 2, 3):
        entries = [m for m in trace["moves"] if m["player"] == seat]
        assert entries[0]["request"]["time_left_ms"] == 1000
        for before, after in zip(entries, entries[1:]):
            # Whole milliseconds are charged; the trace rounds the time used to 0.1 ms.
            sent, used = before["request"]["time_left_ms"], before["time_used_ms"]
            low = sent - math.floor(used + 0.05) + 1000
            high = sent - math.floor(max(0.0, used - 0.05)) + 1000
            assert low <= after["request"]["time_left_ms"] <= high


@pytest.mark.parametrize("pause", [0.0, 1.0])
def test_start_pause_comes_before_the_first_request_and_costs_no_bank(pause: float) -> None:
    """docs/rules.md 8: the official server waits about a second between the player numbers
    and the first move request (`serve --start-pause`, START_PAUSE); the wait is charged to
    nobody, so the first request still carries the whole S * 1000 ms."""
    server = Server(THREE, time_limit=1, start_pause=pause)
    raw, players, _ = seat_raw_then_players(server, 2)
    numbered = time.monotonic()
    request = raw.expect(MoveRequest)
    waited = time.monotonic() - numbered
    assert request.time_ms == 1000
    if pause:
        assert pause - 0.05 <= waited < pause + 1.0
    else:
        assert waited < 0.5
    raw.send(MoveAnswer(4, 1, 0))
    raw.close()
    for player in players:
        player.finish()
    server.finish()


def test_serve_pauses_as_the_official_server_by_default() -> None:
    """`serve` waits START_PAUSE seconds (measured on the official server: 1.0 s at -t 1 and
    -t 2, with two and four players) unless --start-pause says otherwise."""
    from reversi_ref.cli import build_parser
    assert START_PAUSE == 1.0
    args = build_parser().parse_args(["serve", "-m", "tiny3x3"])
    assert args.start_pause == START_PAUSE
    assert build_parser().parse_args(["serve", "-m", "tiny3x3", "--start-pause", "0"]
                                     ).start_pause == 0.0


def test_human_group_is_never_out_of_time() -> None:
    """RULES.md 8: group 99 (a human) gets the time field as the others do (1000, then 1000
    more each request: the official server charges it nothing) but is never disqualified for
    time: here it answers its first request after 1.3 s of a 1000 ms bank."""
    server = Server(THREE, time_limit=1)
    raw = Raw(server.port, 99)
    wait_seated(server, 1)
    players = [Player(server.port, "random", seed=s) for s in (1, 2)]
    state = parse_map(raw.expect(MapText).text)
    assert raw.expect(PlayerNumber) == PlayerNumber(1)
    fields = [raw.expect(MoveRequest).time_ms]
    time.sleep(1.3)
    move = legal_moves(state)[0]
    raw.send(MoveAnswer(move.x, move.y, move.special))
    while True:
        message = raw.receive()
        assert message is not None and not isinstance(message, Disqualification)
        if isinstance(message, EndOfGame):
            break
        if isinstance(message, MoveRequest):
            fields.append(message.time_ms)
            raw.send(MoveAnswer(600, 600, 0))  # off the board: ends the test quickly
            assert raw.receive() == Disqualification(1)
            assert raw.receive() is None
            break
    for player in players:
        player.finish()
    trace = server.finish()
    assert fields[:2] == [1000, 2000][:len(fields)]
    assert trace["moves"][0].get("rejected") is None


def test_game_starting_in_phase_two_sends_8_before_any_request() -> None:
    """RULES.md 4: nobody can build but there are bombs: 8 comes before the first request."""
    text = map_text("1 0 2", bombs=1)
    server = Server(text)
    raw = Raw(server.port)
    player = Player(server.port)
    raw.expect(PlayerNumber)
    first = raw.receive()
    assert first == EndOfPhase1()
    request = raw.expect(MoveRequest)
    assert request == MoveRequest(0, 1)
    raw.send(MoveAnswer(1, 0, 0))
    raw.rest()
    player.finish()
    server.finish()


# --------------------------------------------------------------------------- misbehaving clients


def garbage(raw: Raw, state: GameState) -> None:
    raw.sock.sendall(b"\xde\xad\xbe\xef\x00\x01\x02")


def wrong_type(raw: Raw, state: GameState) -> None:
    raw.send(Group(1))


def wrong_length(raw: Raw, state: GameState) -> None:
    raw.sock.sendall(HEADER.pack(5, 4) + b"\x00\x04\x00\x01")


def truncated(raw: Raw, state: GameState) -> None:
    raw.sock.sendall(HEADER.pack(5, 5) + b"\x00\x04")
    raw.sock.shutdown(socket.SHUT_WR)


def disconnect(raw: Raw, state: GameState) -> None:
    raw.sock.shutdown(socket.SHUT_RDWR)


def illegal_move(raw: Raw, state: GameState) -> None:
    raw.send(MoveAnswer(0, 0, 0))


def bad_special(raw: Raw, state: GameState) -> None:
    move = legal_moves(state)[0]
    raw.send(MoveAnswer(move.x, move.y, 9))


def off_board(raw: Raw, state: GameState) -> None:
    raw.send(MoveAnswer(600, 2, 0))


@pytest.mark.parametrize("behaviour,reason", [
    (garbage, "RULES.md 8: unknown message type 222"),
    (wrong_type, "RULES.md 6: wrong message type: expected type 5 (move), got type 1"),
    (wrong_length, "RULES.md 8: message type 5 (move) must have payload length 5, got 4"),
    (truncated, "RULES.md 8: truncated payload of message type 5 (move) at end of stream"),
    (disconnect, "RULES.md 6: the connection was closed"),
    (illegal_move, "RULES.md 3: the move captures in no direction"),
    (bad_special, "RULES.md 3: the special byte must be 0"),
    (off_board, "RULES.md 6: the target is off the board"),
])
def test_misbehaving_client_is_disqualified_and_game_goes_on(
        behaviour: Callable[[Raw, GameState], None], reason: str) -> None:
    """RULES.md 6: each kind of bad answer disqualifies its sender with the rule named, the
    others are told (7) and finish the game."""
    server = Server(THREE)
    raw, players, state = seat_raw_then_players(server, 2)
    raw.expect(MoveRequest)
    behaviour(raw, state)
    rest = raw.rest()
    finals = [p.finish() for p in players]
    trace = server.finish()
    raw.close()
    assert reason in reason_of(trace, 1)
    assert trace["moves"][0]["rejected"] is True
    assert trace["final"]["scores"]["1"] == "disqualified"
    for player, final in zip(players, finals):
        assert Disqualification(1) in player.client.history
        assert final.disqualified == frozenset({1})
        assert player.client.warnings == 0
    if behaviour is not disconnect:
        # RULES.md 6: its own 7, then the connection is closed: no announcement, 8 or 9.
        assert rest == [Disqualification(1)]
    assert reason in server.out.getvalue()


def test_garbage_after_a_good_move_is_caught_at_the_next_request() -> None:
    """RULES.md 8: a move followed by garbage in one packet is played; the garbage
    disqualifies its sender at its next request, at once (no waiting for a timeout)."""
    server = Server(THREE, wait=TIMEOUT)
    raw, players, state = seat_raw_then_players(server, 2)
    raw.expect(MoveRequest)
    move = legal_moves(state)[0]
    raw.sock.sendall(encode(MoveAnswer(move.x, move.y, move.special)) + b"\xff" * 5)
    raw.rest()
    for player in players:
        player.finish()
    trace = server.finish()
    assert trace["moves"][0].get("rejected") is None
    assert "RULES.md 8: unknown message type 255" in reason_of(trace, 1)
    assert all(m["time_used_ms"] < 1000 for m in trace["moves"])


def test_answer_after_the_bank_is_disqualified() -> None:
    """RULES.md 8: an answer that arrives after the bank ran out (no grace) disqualifies."""
    server = Server(THREE, time_limit=1, grace_ms=1500)
    raw, players, state = seat_raw_then_players(server, 2)
    assert raw.expect(MoveRequest) == MoveRequest(1000, 1)
    time.sleep(1.2)
    move = legal_moves(state)[0]
    raw.send(MoveAnswer(move.x, move.y, move.special))
    raw.rest()
    for player in players:
        player.finish()
    trace = server.finish()
    assert "RULES.md 8: answer after the time bank ran out" in reason_of(trace, 1)
    assert trace["moves"][0]["x"] == move.x
    assert trace["moves"][0]["board_after"] == trace["initial"]["board"]


def test_silent_client_is_disqualified_soon_after_its_bank_ran_out() -> None:
    """RULES.md 8: the server stops waiting about 100 ms after the bank ran out."""
    server = Server(THREE, time_limit=1)
    raw, players, state = seat_raw_then_players(server, 2)
    raw.expect(MoveRequest)
    start = time.monotonic()
    raw.expect(Disqualification)
    waited = time.monotonic() - start
    assert 1.0 <= waited < 3.0
    raw.rest()
    for player in players:
        player.finish()
    trace = server.finish()
    assert "RULES.md 8: no answer before the time bank ran out" in reason_of(trace, 1)


def test_sole_remaining_player_gets_7_then_9() -> None:
    """RULES.md 6: when only one player is left the game ends at once: 7, then 9, no 8."""
    server = Server(map_text("0 0 0 0\n0 1 2 0\n0 2 1 0\n0 0 0 0", bombs=1))
    raw, players, state = seat_raw_then_players(server, 1)
    raw.expect(MoveRequest)
    raw.close()
    players[0].finish()
    trace = server.finish()
    history = players[0].client.history
    assert history[-2:] == [Disqualification(1), EndOfGame()]
    assert EndOfPhase1() not in history
    assert trace["phase1_end"] is None
    assert trace["final"]["ranking"] == [{"rank": 1, "player": 2, "score": 2}]


def bad_group(raw: Raw) -> None:
    raw.send(Group(100))


def move_first(raw: Raw) -> None:
    raw.send(MoveAnswer(1, 1, 0))


def junk_first(raw: Raw) -> None:
    raw.sock.sendall(b"hello world\n")


def group_too_long(raw: Raw) -> None:
    raw.sock.sendall(HEADER.pack(1, 2) + b"\x00\x03")


@pytest.mark.parametrize("behaviour", [bad_group, move_first, junk_first, group_too_long])
def test_bad_first_message_aborts_the_whole_game(tmp_path: Path,
                                                 behaviour: Callable[[Raw], None]) -> None:
    """RULES.md 8: a first message that is not a valid group number (garbage, a group above
    99) aborts the game, as on the official server: the clients already connected get no
    message at all, only the end of the stream; the listener closes, nothing is written to
    the result file and the exit code is 255."""
    result = tmp_path / "result.txt"
    server = Server(THREE, result_path=str(result))
    first = Raw(server.port, 5)
    wait_seated(server, 1)
    offender = Raw(server.port, group=None)
    behaviour(offender)
    assert first.receive() is None
    try:
        assert offender.receive() is None
    except ConnectionResetError:
        pass  # unread bytes may make the close a reset
    server.thread.join(TIMEOUT)
    assert server.code == [255]
    assert not result.exists()
    with pytest.raises(OSError):
        Raw(server.port, 7).receive()
    first.close()
    offender.close()
    assert "aborting the game" in server.out.getvalue()


def test_port_busy_tries_the_next() -> None:
    """RULES.md 8 (server habits): when the port is busy the next ones are tried."""
    blocker = bind_listener("127.0.0.1", 0)
    try:
        busy = blocker.getsockname()[1]
        if busy > 65000:
            pytest.skip("no room above the busy port")
        listener = bind_listener("127.0.0.1", busy)
        try:
            assert busy < listener.getsockname()[1] <= busy + 8
        finally:
            listener.close()
    finally:
        blocker.close()


def test_gives_up_when_clients_do_not_connect() -> None:
    """RULES.md 8 (-z): the referee gives up when the clients do not connect in time."""
    referee = Referee(THREE.encode(), parse_map(THREE), port=0, connect_timeout=0.3,
                      out=io.StringIO())
    referee.listen()
    start = time.monotonic()
    assert referee.run() == 255  # as the official server's
    assert time.monotonic() - start < 5


def test_result_file_and_trace(tmp_path: Path) -> None:
    """RULES.md 8 (-r), in the official server's layout: the map path as given, then per
    player, tab-separated: group, stones (0 when disqualified), bank
    left or inf, "ok" or "disq."; the trace has the documented fields."""
    result, trace_path = tmp_path / "result.txt", tmp_path / "trace.json"
    text = map_text("0 0 0 0\n0 1 2 0\n0 2 1 0\n0 0 0 0")
    server = Server(text, map_name="maps/sub/square.map", result_path=str(result),
                    trace_path=str(trace_path))
    raw, players, state = seat_raw_then_players(server, 1, group=7)
    raw.expect(MoveRequest)
    raw.send(MoveAnswer(0, 0, 0))
    raw.rest()
    players[0].finish()
    server.finish()
    assert result.read_bytes() == b"maps/sub/square.map\n7\t0\tinf\tdisq.\n1\t2\tinf\tok\n"
    trace = json.loads(trace_path.read_text())
    assert trace["format"] == "reversi-ref-trace-1"
    assert trace["map_text"] == text
    assert trace["initial"]["valid"] == [[0, 2], [1, 3], [2, 0], [3, 1]]
    entry = trace["moves"][0]
    assert entry["player"] == 1 and entry["phase"] == 1 and entry["rejected"] is True
    assert entry["status"] == {"overrides": 0, "bombs": 0}
    assert entry["request"] == {"depth": 1, "time_left_ms": 0}
    assert trace["disqualifications"] == [
        {"player": 1, "after_move": 0, "reason": entry["reason"]}]


# --------------------------------------------------------------------------- the commands


def test_rejects_malformed_map_in_serve(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    """RULES.md 1: `serve` with a malformed map names file, line and column; exit 1."""
    path = tmp_path / "bad.map"
    path.write_text("2\n0\n0 0\n1 2\n1 9\n")
    assert main(["serve", "-m", str(path), "-p", "0"]) == 1
    err = capsys.readouterr().err
    assert str(path) + ":5:" in err and "Traceback" not in err


def test_serve_and_client_commands_play_a_game(tmp_path: Path) -> None:
    """The commands as a user runs them: `serve -p 0` prints its port, two `client`s play,
    everybody exits 0 and the clients print the final ranking."""
    path = tmp_path / "square.map"
    path.write_text(map_text("0 0 0 0\n0 1 2 0\n0 2 1 0\n0 0 0 0", bombs=1))
    env = dict(os.environ, PYTHONPATH=str(REPO))
    command = [sys.executable, "-m", "reversi_ref"]
    serve = subprocess.Popen(command + ["serve", "-m", str(path), "-p", "0", "-z", "20"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env)
    try:
        assert serve.stdout is not None
        line = serve.stdout.readline()
        assert line.startswith("listening on 127.0.0.1:")
        address = line.split()[-1]
        clients = [subprocess.Popen(command + ["client", "--server", address, "--player",
                                               name, "--seed", "3", "--timeout", "20"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    env=env)
                   for name in ("greedy", "random")]
        client_moves = set()
        for client in clients:
            out, err = client.communicate(timeout=TIMEOUT)
            assert client.returncode == 0, err
            assert "end of game; final ranking:" in out
            assert "<- us" in out
            client_moves |= set(re.findall(r"^move (\d+): \((\d+), (\d+)\)", out, re.M))
        out, err = serve.communicate(timeout=TIMEOUT)
        assert serve.returncode == 0, err
        assert "final ranking:" in out and "end of phase 1" in out
        # Moves are numbered alike in every log: each client's move N is the server's move N.
        served = set(re.findall(r"^move (\d+): player \d+ plays \((\d+), (\d+)\)", out, re.M))
        assert min(int(n) for n, _, _ in served) == 1
        assert client_moves and client_moves == served
    finally:
        serve.kill()
        serve.wait(TIMEOUT)


def test_silent_first_client_makes_the_referee_give_up_at_z() -> None:
    """RULES.md 8 (-z): a client that connects but never sends its group number, and no other
    client: the referee gives up at the `-z` limit (255), as the official server does, and
    closes the silent connection.  (With other clients it costs them nothing: see
    tests/hostile/test_serve.py.)"""
    referee = Referee(THREE.encode(), parse_map(THREE), port=0, connect_timeout=0.5,
                      out=io.StringIO())
    port = referee.listen()
    silent = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    start = time.monotonic()
    assert referee.run() == 255
    assert time.monotonic() - start < 5
    assert silent.recv(16) == b""
    silent.close()
