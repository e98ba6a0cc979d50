"""`reversi-ref serve` on the wire: every client gets exactly the messages the official server
sends, connection closes included (RULES.md 6 and 8).

Each scenario starts `python3 -m reversi_ref serve` on a tiny map, connects raw-socket clients
in seat order and lets each follow a script (one action per move request).  A client records
every message it receives, decoded here with `struct` (not with our codec), and how its
connection ended.  The expected sequences are written by hand from RULES.md 6 and 8 and were
checked against runs of the official server_nogl on the same maps and scripts.

With REVERSI_REF_OFFICIAL set to the directory holding server_nogl, the same scenarios are
also run against the official server (skipped otherwise); nothing here needs it.
"""

from __future__ import annotations

import os
import re
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, List, NamedTuple, Optional, Sequence, Tuple, Union

import pytest

from helpers import map_text

REPO = Path(__file__).resolve().parents[1]
TIMEOUT = 20.0
HEADER = struct.Struct(">BI")

Item = Tuple[Any, ...]   # a received message: (type, fields...), or ("EOF",) / ("RESET",)
Action = Union[str, Tuple[Any, ...]]

# Three players, no bombs.  Player 1 can only take (2, 0) (capturing the 2 at (1, 0)),
# player 2 then (2, 1), player 3 then (2, 2); after those three nobody can move.
TRIO = map_text("""
    1 2 0
    2 3 0
    3 1 0
""", players=3)

# Two players on the 4x4 Othello start; (0, 0) is never a legal opening.
SQUARE = map_text("""
    0 0 0 0
    0 1 2 0
    0 2 1 0
    0 0 0 0
""")

# Two players, one bomb each (strength 0).  Player 1 takes (3, 0); then nobody can build, and
# phase 2 starts with player 2 (the turn order goes on after player 1).
ROW = map_text("0 1 2 0", bombs=1)

# Three players, one bomb each.  Only player 1 can build: (2, 0), capturing the 2.
LONE = map_text("1 2 0 - 3 3", players=3, bombs=1)

EOF: Item = ("EOF",)
END1: Item = (8,)
END: Item = (9,)


def request(time_ms: int = 0, depth: int = 1) -> Item:
    return (4, time_ms, depth)


def moved(x: int, y: int, special: int, player: int) -> Item:
    return (6, x, y, special, player)


def out(player: int) -> Item:
    return (7, player)


def seated(player: int) -> List[Item]:
    """What every client gets first: the map (2) and its player number (3)."""
    return [(2, "map"), (3, player)]


def move(x: int, y: int, special: int = 0) -> Action:
    return ("send", HEADER.pack(5, 5) + struct.pack(">HHB", x, y, special))


def later(seconds: float, action: Action) -> Action:
    return ("later", seconds, action)


def raw(data: bytes) -> Action:
    return ("send", data)


def group(number: int) -> bytes:
    return HEADER.pack(1, 1) + bytes([number])


# --------------------------------------------------------------------------- the clients


class ScriptedClient:
    """A raw-socket client: sends `hello`, answers the k-th move request with `script[k]`
    ("silent" by default) and records what it receives until its connection ends."""

    def __init__(self, port: int, hello: bytes, script: Sequence[Action],
                 map_bytes: bytes) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.sock.sendall(hello)
        self.script = list(script)
        self.map_bytes = map_bytes
        self.got: List[Item] = []
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _exact(self, count: int) -> Optional[bytes]:
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                return None
            data += chunk
        return data

    def _run(self) -> None:
        try:
            while True:
                head = self._exact(HEADER.size)
                if head is None:
                    self.got.append(EOF)
                    return
                kind, length = HEADER.unpack(head)
                payload = self._exact(length) if length else b""
                if payload is None:
                    self.got.append(("truncated", kind))
                    return
                self.got.append(self._item(kind, payload))
                if kind == 4 and not self._act():
                    return
        except ConnectionResetError:
            self.got.append(("RESET",))
        except socket.timeout:
            self.got.append(("TIMEOUT",))
        finally:
            self.sock.close()

    def _item(self, kind: int, payload: bytes) -> Item:
        if kind == 2:
            return (2, "map" if payload == self.map_bytes else payload)
        layouts = {3: ">B", 4: ">IB", 6: ">HHBB", 7: ">B", 8: "", 9: ""}
        if kind in layouts and len(payload) == struct.calcsize(layouts[kind]):
            return (kind,) + tuple(struct.unpack(layouts[kind], payload))
        return (kind, payload)

    def _act(self) -> bool:
        """Answer a move request; False once this client has closed its socket."""
        action = self.script.pop(0) if self.script else "silent"
        if isinstance(action, tuple) and action[0] == "later":
            time.sleep(action[1])
            action = action[2]
        if isinstance(action, tuple) and action[0] == "send":
            self.sock.sendall(action[1])
        elif action == "close":
            self.got.append(("closed by us",))
            return False
        elif action == "halfclose":
            self.sock.shutdown(socket.SHUT_WR)
        return True

    def finish(self) -> List[Item]:
        self.thread.join(TIMEOUT)
        assert not self.thread.is_alive(), "client still reading: %r" % self.got
        return self.got


# --------------------------------------------------------------------------- the servers


class Outcome(NamedTuple):
    received: List[List[Item]]
    code: int
    result: Optional[bytes]
    log: str


def free_port() -> int:
    """A port with the following 8 free too (the official server may take any of them)."""
    for _ in range(200):
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
        probe.close()
        if port > 65000:
            continue
        try:
            for candidate in range(port, port + 9):
                with socket.socket() as other:
                    other.bind(("127.0.0.1", candidate))
        except OSError:
            continue
        return port
    raise RuntimeError("no free port")


Command = Callable[[Path, List[str]], Tuple[List[str], Optional[int]]]


def serve_command(map_path: Path, options: List[str]) -> Tuple[List[str], Optional[int]]:
    """`reversi-ref serve` on a free port, which it prints; without the start pause, which
    changes no message (tests/test_referee.py checks the pause)."""
    return [sys.executable, "-m", "reversi_ref", "serve", "-m", str(map_path), "-p", "0", "-q",
            "--no-color", "-z", str(TIMEOUT), "--start-pause", "0"] + options, None


def official_command(map_path: Path, options: List[str]) -> Tuple[List[str], Optional[int]]:
    """server_nogl on a port found free (it buffers its output, so it is not read)."""
    directory = os.environ.get("REVERSI_REF_OFFICIAL", "")
    port = free_port()
    return [str(Path(directory) / "server_nogl"), "-m", str(map_path), "-p", str(port),
            "-C", "-z", str(int(TIMEOUT))] + options, port


def connect(port: int, hello: bytes, script: Sequence[Action], map_bytes: bytes,
            retry_until: float) -> Optional[ScriptedClient]:
    """A scripted client, or None when the connection is refused (retried until
    `retry_until`, for a server that may not be listening yet) or reset at once."""
    while True:
        try:
            return ScriptedClient(port, hello, script, map_bytes)
        except ConnectionRefusedError:
            if time.monotonic() > retry_until:
                return None
            time.sleep(0.05)
        except OSError:
            return None  # accepted, then reset: the server has given up


LISTENING = re.compile(r"listening on (?:[\d.]+:|port )(\d+)")


def run_game(command: Command, tmp_path: Path, text: str,
             clients: Sequence[Tuple[bytes, Sequence[Action]]],
             options: Sequence[str] = ()) -> Outcome:
    """Start a server on `text`, connect `clients` (hello bytes, script) in seat order and
    play the game out; what each client received, the exit code and the `-r` file."""
    map_path = tmp_path / "tiny.map"
    map_path.write_text(text)
    result_path = tmp_path / "result.txt"
    log_path = tmp_path / "server.log"
    # The map is named as it lies in the server's directory, so that the -r file's first line
    # is the same whether a server writes the path as given (RULES.md 8) or its file name.
    argv, port = command(Path(map_path.name), list(options) + ["-r", str(result_path)])
    with open(log_path, "w") as log:
        server = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, cwd=str(tmp_path),
                                  env=dict(os.environ, PYTHONPATH=str(REPO)))
    try:
        deadline = time.monotonic() + TIMEOUT
        while port is None:
            assert time.monotonic() < deadline and server.poll() is None, log_path.read_text()
            time.sleep(0.02)
            found = LISTENING.search(log_path.read_text())
            port = int(found.group(1)) if found else None
        scripted: List[ScriptedClient] = []
        for hello, script in clients:
            client = connect(port, hello, script, text.encode(),
                             deadline if not scripted else 0.0)
            if client is None:
                break  # the server has given up (a bad first message)
            scripted.append(client)
        received = [client.finish() for client in scripted]
        code = server.wait(TIMEOUT)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(TIMEOUT)
    result = result_path.read_bytes() if result_path.exists() else None
    return Outcome(received, code, result, log_path.read_text())


def official_or_skip() -> Command:
    directory = os.environ.get("REVERSI_REF_OFFICIAL")
    if not directory or not (Path(directory) / "server_nogl").is_file():
        pytest.skip("REVERSI_REF_OFFICIAL does not name a directory with server_nogl")
    return official_command


SERVERS = {"serve": lambda: serve_command, "official": official_or_skip}


@pytest.fixture(params=["serve", "official"])
def server(request: Any) -> Command:
    """The server under test: `reversi-ref serve`, and server_nogl when available."""
    name: str = request.param
    return SERVERS[name]()


def same(got: List[Item], expected: List[Item], reset_allowed: bool = False) -> None:
    """`got` is `expected`; with `reset_allowed` (official server only, see below) a reset
    may replace the final 7 and end of stream."""
    if reset_allowed and got and got[-1] == ("RESET",):
        assert got[:-1] == expected[:len(got) - 1]
        assert expected[len(got) - 1:] in ([out(expected[-2][1]), EOF], [EOF])
        return
    assert got == expected


# --------------------------------------------------------------------------- whole games


def test_clean_game_and_result_file(server: Any, tmp_path: Path) -> None:
    """RULES.md 8: 2 and 3 to each, 4 to the mover, each move announced (6) to all, the
    mover included, then 8 and 9 to all and the end of the stream; the `-r` file."""
    game = run_game(server, tmp_path, TRIO,
                    [(group(5), [move(2, 0)]), (group(6), [move(2, 1)]),
                     (group(7), [move(2, 2)])])
    p1, p2, p3 = moved(2, 0, 0, 1), moved(2, 1, 0, 2), moved(2, 2, 0, 3)
    assert game.received[0] == seated(1) + [request(), p1, p2, p3, END1, END, EOF]
    assert game.received[1] == seated(2) + [p1, request(), p2, p3, END1, END, EOF]
    assert game.received[2] == seated(3) + [p1, p2, request(), p3, END1, END, EOF]
    assert game.code == 0
    # Player 1: (0, 0), (1, 0), (2, 0); player 2: (0, 1), (1, 1), (2, 1); player 3: (2, 2),
    # (1, 2) taken from player 1, (0, 2).
    assert game.result == b"tiny.map\n5\t3\tinf\tok\n6\t3\tinf\tok\n7\t3\tinf\tok\n"


# --------------------------------------------------------------------------- disqualification

ZERO_LENGTH = raw(HEADER.pack(5, 0))
SHORT = raw(HEADER.pack(5, 4) + b"\x00\x02\x00\x01")
LONG = raw(HEADER.pack(5, 6) + b"\x00\x02\x00\x01\x00\x00")
GROUP_AGAIN = raw(group(6))
UNKNOWN_TYPE = raw(HEADER.pack(9, 5) + b"\x00\x02\x00\x01\x00")
ILLEGAL = move(0, 0)
OFF_BOARD = move(600, 1)
BAD_SPECIAL = move(2, 1, 3)

# The official server leaves the bytes after a bad header unread and so resets the
# connection when it closes it, which may destroy the 7 it has just sent; we read them.
RESETS = {"short", "long", "unknown type"}


@pytest.mark.parametrize("name,action", [
    ("zero length", ZERO_LENGTH), ("short", SHORT), ("long", LONG),
    ("group again", GROUP_AGAIN), ("unknown type", UNKNOWN_TYPE), ("illegal", ILLEGAL),
    ("off board", OFF_BOARD), ("bad special", BAD_SPECIAL), ("half-close", "halfclose"),
    ("close", "close")])
def test_disqualified_client_gets_its_7_then_the_end_of_the_stream(
        server: Any, tmp_path: Path, name: str, action: Action) -> None:
    """RULES.md 6: any bad answer: 7 to every client still connected, the offender included,
    whose connection is then closed (nothing after its 7: no 6, 8 or 9); the others play on,
    the 7 coming before the next request."""
    game = run_game(server, tmp_path, TRIO,
                    [(group(5), [move(2, 0)]), (group(6), [action]), (group(7), [move(2, 2)])])
    p1, p3 = moved(2, 0, 0, 1), moved(2, 2, 0, 3)
    assert game.received[0] == seated(1) + [request(), p1, out(2), p3, END1, END, EOF]
    offender = seated(2) + [p1, request()]
    if action == "close":
        assert game.received[1] == offender + [("closed by us",)]
    else:
        same(game.received[1], offender + [out(2), EOF],
             reset_allowed=server is official_command and name in RESETS)
    assert game.received[2] == seated(3) + [p1, out(2), request(), p3, END1, END, EOF]
    assert game.result == b"tiny.map\n5\t3\tinf\tok\n6\t0\tinf\tdisq.\n7\t4\tinf\tok\n"


@pytest.mark.parametrize("name,header", [
    ("map", HEADER.pack(2, 100)), ("move request", HEADER.pack(4, 5)),
    ("map of 16 MiB", HEADER.pack(2, 16 * 1024 * 1024))])
def test_type_only_a_server_sends_disqualifies(server: Any, tmp_path: Path, name: str,
                                              header: bytes) -> None:
    """RULES.md 8: a client may send types 1 and 5 only.  The header of another type (sent
    without its payload) disqualifies: 7 to all, the offender's connection closed, the others
    play on, and the bank is not charged.  We refuse it as soon as the header arrives; the
    official server waits for the payload until the bank runs out (or, past its size limit,
    refuses at once), so the messages agree and only the timing differs."""
    game = run_game(server, tmp_path, TRIO,
                    [(group(5), [move(2, 0)]), (group(6), [raw(header)]),
                     (group(7), [move(2, 2)])], ["-t", "1"])
    p1, p3 = moved(2, 0, 0, 1), moved(2, 2, 0, 3)
    first = request(1000)
    assert game.received[0] == seated(1) + [first, p1, out(2), p3, END1, END, EOF]
    same(game.received[1], seated(2) + [p1, first, out(2), EOF],
         reset_allowed=server is official_command)
    assert game.received[2] == seated(3) + [p1, out(2), first, p3, END1, END, EOF]
    assert game.result is not None
    assert game.result.decode().split("\n")[2] == "6\t0\t1000 msecs\tdisq."


def test_silent_client_is_disqualified_after_its_bank(server: Any, tmp_path: Path) -> None:
    """RULES.md 8: no answer within the bank (1000 ms here): 7 to all, the offender's
    connection closed; its bank left is the one it was sent (a timeout is not charged)."""
    game = run_game(server, tmp_path, TRIO,
                    [(group(5), [move(2, 0)]), (group(6), ["silent"]),
                     (group(7), [move(2, 2)])], ["-t", "1"])
    p1, p3 = moved(2, 0, 0, 1), moved(2, 2, 0, 3)
    first = request(1000)
    assert game.received[0] == seated(1) + [first, p1, out(2), p3, END1, END, EOF]
    assert game.received[1] == seated(2) + [p1, first, out(2), EOF]
    assert game.received[2] == seated(3) + [p1, out(2), first, p3, END1, END, EOF]
    assert game.result is not None
    lines = game.result.decode().split("\n")
    assert lines[2] == "6\t0\t1000 msecs\tdisq."
    # Player 1 answered at once; its bank is charged for that answer alone (under 100 ms even
    # on a loaded machine, where a scripted answer took 48 ms).
    assert re.fullmatch(r"5\t3\t(1000|9\d\d) msecs\tok", lines[1])


def test_sole_survivor_gets_7_then_9(server: Any, tmp_path: Path) -> None:
    """RULES.md 6: the second of two players is left: 7 then 9 (no 8) to it; the offender
    gets its 7 only.  A malformed answer is not charged: the bank left is still 1000 ms;
    a player never asked has 0 ms."""
    game = run_game(server, tmp_path, SQUARE,
                    [(group(5), [ZERO_LENGTH]), (group(6), [])], ["-t", "1"])
    assert game.received[0] == seated(1) + [request(1000), out(1), EOF]
    assert game.received[1] == seated(2) + [out(1), END, EOF]
    assert game.result == b"tiny.map\n5\t0\t1000 msecs\tdisq.\n6\t2\t0 msecs\tok\n"


def test_phase_1_ended_by_a_disqualification(server: Any, tmp_path: Path) -> None:
    """RULES.md 4 and 6: the only player who could build is disqualified: 7, then 8 to the
    others, and phase 2 goes on with the next player (2, then 3)."""
    game = run_game(server, tmp_path, LONE,
                    [(group(5), [move(5, 0)]), (group(6), [move(0, 0)]),
                     (group(7), [move(1, 0)])])
    b2, b3 = moved(0, 0, 0, 2), moved(1, 0, 0, 3)
    assert game.received[0] == seated(1) + [request(), out(1), EOF]
    assert game.received[1] == seated(2) + [out(1), END1, request(), b2, b3, END, EOF]
    assert game.received[2] == seated(3) + [out(1), END1, b2, request(), b3, END, EOF]
    assert game.result == b"tiny.map\n5\t0\tinf\tdisq.\n6\t0\tinf\tok\n7\t2\tinf\tok\n"


# --------------------------------------------------------------------------- phase 2


def test_bomb_is_announced_with_special_0(server: Any, tmp_path: Path) -> None:
    """RULES.md 5 and 8: a non-zero special byte on a bomb is tolerated and the bomb is
    announced with special 0."""
    game = run_game(server, tmp_path, ROW,
                    [(group(5), [move(3, 0), move(1, 0)]), (group(6), [move(0, 0, 7)])])
    p1, b2, b1 = moved(3, 0, 0, 1), moved(0, 0, 0, 2), moved(1, 0, 0, 1)
    assert game.received[0] == seated(1) + [request(), p1, END1, b2, request(), b1, END, EOF]
    assert game.received[1] == seated(2) + [p1, END1, request(), b2, b1, END, EOF]
    assert game.result == b"tiny.map\n5\t2\tinf\tok\n6\t0\tinf\tok\n"


def test_sole_survivor_in_phase_2(server: Any, tmp_path: Path) -> None:
    """RULES.md 5 and 6: bombing a hole disqualifies; with one player left, 7 then 9."""
    game = run_game(server, tmp_path, ROW,
                    [(group(5), [move(3, 0), move(0, 0)]), (group(6), [move(0, 0, 255)])])
    p1, b2 = moved(3, 0, 0, 1), moved(0, 0, 0, 2)
    assert game.received[0] == seated(1) + [request(), p1, END1, b2, request(), out(1), EOF]
    assert game.received[1] == seated(2) + [p1, END1, request(), b2, out(1), END, EOF]
    assert game.result == b"tiny.map\n5\t0\tinf\tdisq.\n6\t0\tinf\tok\n"


# --------------------------------------------------------------------------- humans


def test_human_gets_the_time_field_and_is_never_late(server: Any, tmp_path: Path) -> None:
    """RULES.md 8: group 99 gets the bank in its requests as the others do (1000 on the
    first with -t 1) and may answer after it: not disqualified, and not charged either
    (the official server's bank left for it is 1000 ms per request)."""
    outcome = run_game(server, tmp_path, ROW,
                       [(group(99), [later(1.3, move(3, 0)), move(1, 0)]),
                        (group(6), [move(0, 0)])], ["-t", "1"])
    p1, b2, b1 = moved(3, 0, 0, 1), moved(0, 0, 0, 2), moved(1, 0, 0, 1)
    assert outcome.received[0] == seated(1) + [request(1000), p1, END1, b2, request(2000),
                                               b1, END, EOF]
    assert outcome.received[1][:5] == seated(2) + [p1, END1, request(1000)]
    assert outcome.received[1][5:] == [b2, b1, END, EOF]
    assert outcome.result is not None
    assert outcome.result.startswith(b"tiny.map\n99\t2\t2000 msecs\tok\n6\t0\t")


# --------------------------------------------------------------------------- bad first messages


@pytest.mark.parametrize("hello", [
    group(100), b"hello world\n", HEADER.pack(5, 5) + b"\x00\x01\x00\x01\x00",
    HEADER.pack(1, 2) + b"\x00\x03"], ids=["group 100", "text", "a move", "long group"])
def test_bad_first_message_aborts_the_game(server: Any, tmp_path: Path, hello: bytes) -> None:
    """RULES.md 8: the first message of the second client is not a valid group number: the
    server gives up at once (exit code 255, no result file); the first client gets no
    message, only the end of the stream, and the third cannot connect."""
    game = run_game(server, tmp_path, TRIO,
                    [(group(5), []), (hello, []), (group(7), [])])
    assert game.received[0] == [EOF]
    assert game.received[1] in ([EOF], [("RESET",)])
    assert len(game.received) == 2 or game.received[2] in ([EOF], [("RESET",)])
    assert game.code == 255
    assert game.result is None
