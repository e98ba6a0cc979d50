"""Tests of the competition client (`reversi-ref client`), RULES.md 8, against scripted servers.

Each fake server is a thread on 127.0.0.1, port 0, with timeouts on every socket; it plays a
hand-written script and the client runs in the test's thread.  Positions are on the 4x4
Othello start below, whose moves are worked out by hand in each test.
"""

from __future__ import annotations

import io
import re
import socket
import threading
import time
from typing import Any, Callable, List, Optional

import pytest

from helpers import map_text
from reversi_ref import parse_map
from reversi_ref.arena import phase1_depths
from reversi_ref.cli import main
from reversi_ref.client import Client, move_budget_ms, parse_server
from reversi_ref.players import Player, SearchInfo
from reversi_ref.protocol import (Decoder, Disqualification, EndOfGame, EndOfPhase1, Group,
                                  MapText, Message, MoveAnnouncement, MoveAnswer, MoveRequest,
                                  PlayerNumber, encode)
from reversi_ref.state import GameState, Move

TIMEOUT = 10.0
# Player 1 may open with (2, 0), (3, 1), (0, 2) or (1, 3), each capturing one stone.
SQUARE = map_text("""
    0 0 0 0
    0 1 2 0
    0 2 1 0
    0 0 0 0
""").encode()


class FakeServer:
    """A one-client server in a thread that runs `script(self)` after reading message 1."""

    def __init__(self, script: Callable[["FakeServer"], None]) -> None:
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(1)
        self.listener.settimeout(TIMEOUT)
        self.port = self.listener.getsockname()[1]
        self.script = script
        self.conn: Optional[socket.socket] = None
        self.decoder = Decoder()
        self.received: List[Message] = []
        self.queue: List[Message] = []
        self.error: List[BaseException] = []
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    @property
    def address(self) -> str:
        return "127.0.0.1:%d" % self.port

    def _run(self) -> None:
        try:
            self.conn, _ = self.listener.accept()
            self.conn.settimeout(TIMEOUT)
            self.read()
            self.script(self)
        except BaseException as error:  # reported by finish()
            self.error.append(error)
        finally:
            if self.conn is not None:
                self.conn.close()
            self.listener.close()

    def send(self, *messages: Message) -> None:
        assert self.conn is not None
        self.conn.sendall(b"".join(encode(m) for m in messages))

    def read(self) -> Message:
        """The next message from the client."""
        assert self.conn is not None
        while len(self.queue) == 0:
            data = self.conn.recv(4096)
            assert data, "client closed the connection"
            self.queue.extend(self.decoder.feed(data))
        message = self.queue.pop(0)
        self.received.append(message)
        return message

    def finish(self) -> None:
        self.thread.join(TIMEOUT)
        assert not self.thread.is_alive()
        assert not self.error, self.error


def run(address: str, *extra: str) -> int:
    """Run `reversi-ref client` against `address`; its exit code."""
    return main(["client", "--server", address, "--timeout", str(TIMEOUT), "--seed", "1"]
                + list(extra))


# --------------------------------------------------------------------------- pure helpers


@pytest.mark.parametrize("bank,budget", [(0, 0), (1000, 500), (10000, 5000), (500, 200),
                                         (400, 100), (250, 1)])
def test_move_budget_keeps_a_safety_margin(bank: int, budget: int) -> None:
    """RULES.md 8: the time field is the whole bank; we use half, and never its last 300 ms."""
    assert move_budget_ms(bank) == budget


def test_parse_server_address() -> None:
    """`--server HOST:PORT`."""
    assert parse_server("localhost:7777") == ("localhost", 7777)
    for bad in ("7777", "host:", ":80", "host:abc", "host:70000"):
        with pytest.raises(ValueError, match="HOST:PORT"):
            parse_server(bad)


# --------------------------------------------------------------------------- whole runs


def test_plays_announced_moves_and_answers_from_the_new_state(
        capsys: pytest.CaptureFixture[str]) -> None:
    """RULES.md 3 and 8: after player 1's (2, 0) player 2 can take (1, 0), (3, 0) or (3, 2),
    one stone each; greedy answers the first, (1, 0)."""
    def script(server: FakeServer) -> None:
        server.send(MapText(SQUARE), PlayerNumber(2), MoveAnnouncement(2, 0, 0, 1),
                    MoveRequest(0, 1))
        assert server.read() == MoveAnswer(1, 0, 0)
        server.send(MoveAnnouncement(1, 0, 0, 2), EndOfPhase1(), EndOfGame())

    server = FakeServer(script)
    assert run(server.address, "--player", "greedy") == 0
    server.finish()
    assert server.received[0] == Group(1)
    out = capsys.readouterr().out
    # Our first move is the game's second: the client numbers moves as the referee does.
    assert "move 2: (1, 0) depth 1, 3 nodes" in out
    assert "1. player 1: 3 stones\n1. player 2: 3 stones  <- us" in out


def test_logs_a_proven_result_and_the_arena_leaves_it_out_of_the_depth(
        capsys: pytest.CaptureFixture[str]) -> None:
    """RULES.md 3, 4, 7: on this row player 1's (0, 0) wins within two plies (tests/
    test_search.py, TRAP), so the search stops short of the 8 plies asked and the move log
    says the result is proven; the arena's depth figure leaves such a move out."""
    trap = b"2\n0\n0 0\n1 11\n0 2 1 1 1 0 - 1 2 2 0\n"

    def script(server: FakeServer) -> None:
        server.send(MapText(trap), PlayerNumber(1), MoveRequest(0, 8))
        assert server.read() == MoveAnswer(0, 0, 0)
        server.send(MoveAnnouncement(0, 0, 0, 1), EndOfPhase1(), EndOfGame())

    server = FakeServer(script)
    assert run(server.address, "--player", "search", "--no-ponder") == 0
    server.finish()
    out = capsys.readouterr().out
    assert re.search(r"^move 1: \(0, 0\) depth [1-7] \(result proven\), ", out, re.M)
    assert phase1_depths(out) == []


def test_follows_disqualifications(capsys: pytest.CaptureFixture[str]) -> None:
    """RULES.md 6: a disqualified player is left out of the ranking; the game goes on."""
    def script(server: FakeServer) -> None:
        server.send(MapText(SQUARE), PlayerNumber(1), Disqualification(2), EndOfGame())

    server = FakeServer(script)
    assert run(server.address, "--group", "42") == 0
    server.finish()
    assert server.received[0] == Group(42)
    out = capsys.readouterr().out
    assert "1. player 1: 2 stones  <- us" in out
    assert "-  player 2: disqualified" in out


def test_being_disqualified_ends_at_our_own_7(capsys: pytest.CaptureFixture[str]) -> None:
    """RULES.md 6: the server closes our connection right after our own 7 (no 9): the client
    logs it, leaves without a lost-connection error and exits 0."""
    def script(server: FakeServer) -> None:
        server.send(MapText(SQUARE), PlayerNumber(1), MoveRequest(0, 1))
        server.read()
        server.send(Disqualification(1))
        assert server.conn is not None
        server.conn.shutdown(socket.SHUT_WR)
        assert server.conn.recv(1) == b""  # the client leaves on its own

    server = FakeServer(script)
    assert run(server.address) == 0
    server.finish()
    out = capsys.readouterr().out
    assert "player 1 disqualified (that is us)" in out
    assert "we were disqualified and left the game" in out
    assert "-  player 1: disqualified  <- us" in out


def test_bomb_announced_with_special_0_is_followed(capsys: pytest.CaptureFixture[str]) -> None:
    """RULES.md 5 and 8: a bomb is announced with special 0 whatever its sender sent; the
    client plays it without a warning.  Player 1 builds (3, 0) on the row 0 1 2 0 (taking
    the 2), nobody can build any more, player 2 bombs (3, 0) and player 1 bombs (2, 0),
    which leaves player 1 its stone at (1, 0)."""
    row = map_text("0 1 2 0", bombs=1).encode()

    def script(server: FakeServer) -> None:
        server.send(MapText(row), PlayerNumber(2), MoveAnnouncement(3, 0, 0, 1), EndOfPhase1(),
                    MoveAnnouncement(3, 0, 0, 2), MoveAnnouncement(2, 0, 0, 1), EndOfGame())

    server = FakeServer(script)
    assert run(server.address) == 0
    server.finish()
    out = capsys.readouterr().out
    assert "warning" not in out
    assert "1. player 1: 1 stones" in out and "2. player 2: 0 stones  <- us" in out


def test_disagreement_with_the_server_is_a_warning(capsys: pytest.CaptureFixture[str]) -> None:
    """An announcement our rules call illegal (player 2 on (0, 0), capturing nothing, out of
    turn) is logged and followed; the client still answers and ends cleanly."""
    def script(server: FakeServer) -> None:
        server.send(MapText(SQUARE), PlayerNumber(1), MoveAnnouncement(0, 0, 0, 2),
                    MoveRequest(0, 1))
        assert server.read() == MoveAnswer(2, 0, 0)
        server.send(EndOfGame())

    server = FakeServer(script)
    assert run(server.address, "--player", "greedy") == 0
    server.finish()
    out = capsys.readouterr().out
    assert "warning: player 2 moved but we expected 1" in out
    assert "warning: announced move (0, 0) special 0 of player 2 is illegal for us" in out
    assert "warning: the server ended the game" in out


def test_request_out_of_turn_is_answered(capsys: pytest.CaptureFixture[str]) -> None:
    """When the server asks us though we think player 1 moves, we follow the server: player 2
    may open with (1, 0), (0, 1), (3, 2) or (2, 3); greedy takes (1, 0)."""
    def script(server: FakeServer) -> None:
        server.send(MapText(SQUARE), PlayerNumber(2), MoveRequest(0, 1))
        assert server.read() == MoveAnswer(1, 0, 0)
        server.send(EndOfGame())

    server = FakeServer(script)
    assert run(server.address, "--player", "greedy") == 0
    server.finish()
    assert "warning: the server asks us (player 2) but we think player 1 moves" in (
        capsys.readouterr().out)


class Recording(Player):
    """Records the time and depth it was given and plays the first legal move."""

    name = "recording"

    def __init__(self) -> None:
        super().__init__()
        self.calls: List[Any] = []
        self.prepared = 0

    def prepare(self, state: GameState) -> None:
        self.prepared += 1

    def choose(self, state: GameState, time_ms: int, depth: int) -> Move:
        self.calls.append((time_ms, depth))
        self.info = SearchInfo(depth, 1)
        return Move(2, 0) if state.to_move == 1 else Move(1, 0)


def test_player_gets_part_of_the_bank_or_the_depth() -> None:
    """RULES.md 8: with a bank of 3000 ms the player gets 1500 ms (a player that manages the
    bank itself gets all 3000); with time 0 it gets no limit (0) and the request's depth."""
    def script(server: FakeServer) -> None:
        server.send(MapText(SQUARE), PlayerNumber(1), MoveRequest(3000, 1))
        server.read()
        server.send(MoveAnnouncement(2, 0, 0, 1), MoveAnnouncement(1, 0, 0, 2),
                    MoveRequest(0, 4))
        server.read()
        server.send(EndOfGame())

    server = FakeServer(script)
    player = Recording()
    Client(player, timeout=TIMEOUT).run("127.0.0.1", server.port)
    server.finish()
    assert player.calls == [(1500, 1), (0, 4)]
    assert player.prepared == 1

    server = FakeServer(script)
    planner = Recording()
    planner.manages_bank = True
    Client(planner, timeout=TIMEOUT).run("127.0.0.1", server.port)
    server.finish()
    assert planner.calls == [(3000, 1), (0, 4)]


class Pondering(Player):
    """Ponders until interrupted, recording each position and how long the wait lasted;
    always answers `answer`."""

    name = "pondering"

    def __init__(self, fail: bool = False, answer: Move = Move(1, 0)) -> None:
        super().__init__()
        self.fail = fail
        self.answer = answer
        self.pondered: List[Any] = []

    def choose(self, state: GameState, time_ms: int, depth: int) -> Move:
        return self.answer

    def ponder(self, state: GameState, player: int, interrupted: Callable[[], bool]) -> int:
        if self.fail:
            raise RuntimeError("ponder broke")
        start = time.monotonic()
        while not interrupted():
            assert time.monotonic() - start < TIMEOUT
            time.sleep(0.001)
        stones = sum(cell in "12" for cell in "".join(state.board))
        self.pondered.append((state.to_move, stones, player,
                              time.monotonic() - start))
        return 3


def _ponder_script(server: FakeServer) -> None:
    """We are player 2: player 1 thinks for 0.3 s, then moves (2, 0); we are asked and answer
    (1, 0); player 1 thinks 0.2 s again before the game ends."""
    server.send(MapText(SQUARE), PlayerNumber(2))
    time.sleep(0.3)
    server.send(MoveAnnouncement(2, 0, 0, 1), MoveRequest(0, 1))
    assert server.read() == MoveAnswer(1, 0, 0)
    server.send(MoveAnnouncement(1, 0, 0, 2))
    time.sleep(0.2)
    server.send(EndOfPhase1(), EndOfGame())


def test_client_ponders_while_the_others_move(capsys: pytest.CaptureFixture[str]) -> None:
    """While player 1 is to move the player ponders, for us (player 2), and stops as soon as
    the server's next message arrives; never on our own turn; the move log reports it."""
    server = FakeServer(_ponder_script)
    player = Pondering()
    out = io.StringIO()
    Client(player, out=out, timeout=TIMEOUT).run("127.0.0.1", server.port)
    server.finish()
    # The start (player 1 to move, 4 stones) and after (2, 0) and our (1, 0), each adding a
    # stone (player 1 to move again).
    assert [(to_move, stones, me) for to_move, stones, me, _ in player.pondered] == [
        (1, 4, 2), (1, 6, 2)]
    waited = [seconds for _, _, _, seconds in player.pondered]
    assert 0.2 < waited[0] < 1.5 and 0.1 < waited[1] < 1.5
    assert "move 2: (1, 0) depth 0, 0 nodes" in out.getvalue()
    assert "pondered to depth 3" in out.getvalue()


def test_client_ponders_its_first_move_in_the_pause_before_the_first_request(
        capsys: pytest.CaptureFixture[str]) -> None:
    """As player 1, in the pause between the player number and the first request (about a
    second on the official server, 0.3 s here), the player thinks about its own first move;
    after that it ponders only while the others move.  With the request sent together with
    the player number, there is no pause and nothing is pondered before it."""
    def paused(server: FakeServer) -> None:
        server.send(MapText(SQUARE), PlayerNumber(1))
        time.sleep(0.3)
        server.send(MoveRequest(0, 1))
        assert server.read() == MoveAnswer(2, 0, 0)
        server.send(MoveAnnouncement(2, 0, 0, 1))
        time.sleep(0.2)
        server.send(EndOfPhase1(), EndOfGame())

    server = FakeServer(paused)
    player = Pondering(answer=Move(2, 0))
    out = io.StringIO()
    Client(player, out=out, timeout=TIMEOUT).run("127.0.0.1", server.port)
    server.finish()
    # The start (player 1, us, to move, 4 stones), then after our (2, 0) (player 2 to move).
    assert [(to_move, stones, me) for to_move, stones, me, _ in player.pondered] == [
        (1, 4, 1), (2, 5, 1)]
    assert 0.2 < player.pondered[0][3] < 1.5
    assert "move 1: (2, 0) depth 0, 0 nodes, " in out.getvalue()
    assert "pondered to depth 3)" in out.getvalue().splitlines()[2]

    # Without a socket (TCP may split a real server's messages): a request already waiting
    # (no pause) means no ponder of the own move, whose first polls would come too late;
    # after the game's first move the own turn is never pondered; otherwise it is.
    def client_at_start(waiting: List[bool]) -> Client:
        client = Client(Pondering(answer=Move(2, 0)), timeout=TIMEOUT)
        client.state = parse_map(SQUARE.decode())
        client.me = 1
        client.message_waiting = lambda: waiting.pop(0) if waiting else True  # type: ignore
        return client

    # (Our first answer sent, its announcement not yet read: not pondered either.)
    for waiting, moves, answers, pondered in (([True], 0, 0, 0), ([False], 1, 0, 0),
                                              ([False], 0, 1, 0), ([False], 0, 0, 1)):
        client = client_at_start(waiting)
        client.game_moves, client.moves_played = moves, answers
        client.ponder_while_waiting()
        assert isinstance(client.player, Pondering)
        assert len(client.player.pondered) == pondered


def test_no_ponder_and_a_failing_ponder(capsys: pytest.CaptureFixture[str]) -> None:
    """`--no-ponder` (ponder=False) never calls it; a ponder that raises is a warning, the
    game goes on and pondering stays off."""
    server = FakeServer(_ponder_script)
    player = Pondering()
    quiet = Client(player, timeout=TIMEOUT, ponder=False)
    quiet.run("127.0.0.1", server.port)
    server.finish()
    assert player.pondered == []

    server = FakeServer(_ponder_script)
    broken = Pondering(fail=True)
    out = io.StringIO()
    client = Client(broken, out=out, timeout=TIMEOUT)
    client.run("127.0.0.1", server.port)
    server.finish()
    assert client.warnings == quiet.warnings + 1  # the script's early end warns in both
    assert out.getvalue().count("pondering switched off") == 1
    assert ("player pondering failed while pondering (RuntimeError: ponder broke); pondering "
            "switched off") in out.getvalue()


# --------------------------------------------------------------------------- failures


def test_server_disconnecting_mid_game_is_a_clean_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A server that drops the connection mid-game: one-line error, exit 1, no traceback."""
    def script(server: FakeServer) -> None:
        server.send(MapText(SQUARE), PlayerNumber(1), MoveRequest(0, 1))
        server.read()

    server = FakeServer(script)
    assert run(server.address) == 1
    server.finish()
    err = capsys.readouterr().err
    assert err == ("reversi-ref client: the server closed the connection before the end of "
                   "the game\n")


def test_server_disconnecting_inside_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    """A connection dropped in the middle of a message names the truncated message."""
    def script(server: FakeServer) -> None:
        server.send(MapText(SQUARE), PlayerNumber(1))
        assert server.conn is not None
        server.conn.sendall(encode(MoveRequest(0, 1))[:7])

    server = FakeServer(script)
    assert run(server.address) == 1
    server.finish()
    err = capsys.readouterr().err
    assert "truncated payload of message type 4 (move request)" in err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("data,reason", [
    (b"\x2a\x00\x00\x00\x00", "unknown message type 42"),
    (b"\x04\x00\x00\x00\x02\x00\x00", "type 4 (move request) must have payload length 5"),
    (encode(MoveAnswer(1, 1, 0)), "unexpected message type 5 (move) from the server"),
    (encode(MapText(b"2\n0\n0 0\n1 1\nq\n")), "the server's map is invalid"),
])
def test_malformed_message_is_a_clean_error(capsys: pytest.CaptureFixture[str], data: bytes,
                                            reason: str) -> None:
    """RULES.md 8: a malformed or unexpected message ends the run: one line, exit 1."""
    def script(server: FakeServer) -> None:
        assert server.conn is not None
        server.conn.sendall(data)
        server.conn.settimeout(TIMEOUT)
        try:
            server.conn.recv(1)
        except OSError:
            pass

    server = FakeServer(script)
    assert run(server.address) == 1
    server.finish()
    err = capsys.readouterr().err
    assert "malformed message from the server" in err and reason in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_connection_refused_is_a_clean_error(capsys: pytest.CaptureFixture[str]) -> None:
    """No server listening: one-line error, exit 1."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    assert run("127.0.0.1:%d" % port) == 1
    err = capsys.readouterr().err
    assert err.startswith("reversi-ref client: ") and len(err.splitlines()) == 1


def test_silent_server_times_out(capsys: pytest.CaptureFixture[str]) -> None:
    """Every wait has a limit: a server silent for --timeout seconds ends the run."""
    done = threading.Event()

    def script(server: FakeServer) -> None:
        server.send(MapText(SQUARE), PlayerNumber(1))
        done.wait(TIMEOUT)

    server = FakeServer(script)
    code = main(["client", "--server", server.address, "--timeout", "0.3"])
    done.set()
    server.finish()
    assert code == 1
    assert "the server sent nothing for 0.3 s" in capsys.readouterr().err


@pytest.mark.parametrize("args,message", [
    (["--server", "nowhere"], "argument --server: must be HOST:PORT"),
    (["--server", "127.0.0.1:70000"], "argument --server: must be HOST:PORT"),
    (["--player", "wizard"], "argument --player: unknown player 'wizard'"),
    (["--group", "300"], "argument --group: must be an integer from 0 to 255, got '300'"),
])
def test_rejects_bad_arguments(capsys: pytest.CaptureFixture[str], args: List[str],
                               message: str) -> None:
    """Bad --server, --player or --group: a usage error naming the argument, exit 2."""
    with pytest.raises(SystemExit) as exit_info:
        main(["client"] + args)
    assert exit_info.value.code == 2
    assert "reversi-ref client: error: " + message in capsys.readouterr().err


def test_dead_port_names_the_address(capsys: pytest.CaptureFixture[str]) -> None:
    """Nobody listening: one line naming the address and the reason, exit 1."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    listener.close()  # the port is now free: connecting is refused
    assert main(["client", "--server", "127.0.0.1:%d" % port]) == 1
    err = capsys.readouterr().err
    assert err == "reversi-ref client: cannot connect to 127.0.0.1:%d: connection refused\n" % port


def test_weights_reach_the_player(tmp_path: Any) -> None:
    """`--weights` (inline or @FILE) changes the named evaluation weights and nothing else."""
    from reversi_ref.players import read_weights
    from reversi_ref.players import tuned
    from reversi_ref.search.config import DEFAULT_CONFIG
    path = tmp_path / "w.json"
    path.write_text('{"material": [70, 90], "leader_share": 40}')
    weights = read_weights("@%s" % path, "--weights")
    assert weights == {"material": [70, 90], "leader_share": 40}
    player = tuned("search", weights, 1)
    config = getattr(player, "config")
    assert config.material == (70, 90) and config.leader_share == 40
    assert config.mobility == DEFAULT_CONFIG.mobility
    assert getattr(tuned("mcts", {}, 1), "config") == DEFAULT_CONFIG


def test_search_with_weights_plays_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    """A tuned search player answers a move request like any other."""
    def script(server: FakeServer) -> None:
        server.send(MapText(SQUARE), PlayerNumber(1), MoveRequest(0, 2))
        answer = server.read()
        assert isinstance(answer, MoveAnswer)
        assert (answer.x, answer.y) in [(2, 0), (3, 1), (0, 2), (1, 3)]
        server.send(EndOfPhase1(), EndOfGame())

    server = FakeServer(script)
    assert run(server.address, "--player", "search", "--weights", '{"material": [60, 100]}') == 0
    server.finish()
    # The log names the changed weights, so that a game's record says what played it.
    assert 'weights changed from the defaults: {"material": [60, 100]}' in capsys.readouterr().out


@pytest.mark.parametrize("player,weights,message", [
    ("search", "{material", "--weights is not JSON"),
    ("search", "[1, 2]", "--weights must be a JSON object"),
    ("search", '{"materal": [1, 2]}', "unknown evaluation weight 'materal'"),
    ("search", '{"material": 5}', "material needs two integers"),
    ("greedy", "{}", "only search, brs, mcts take evaluation weights, not 'greedy'"),
    ("brs", "@/no/such/file.json", "--weights: cannot read /no/such/file.json"),
])
def test_rejects_bad_weights(capsys: pytest.CaptureFixture[str], player: str, weights: str,
                             message: str) -> None:
    """Bad --weights: a usage error naming the argument and the problem, exit 2, no
    connection attempted."""
    with pytest.raises(SystemExit) as exit_info:
        main(["client", "--server", "127.0.0.1:1", "--player", player, "--weights", weights])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "reversi-ref client: error: argument --weights" in err and message in err
