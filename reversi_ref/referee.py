"""`reversi-ref serve`: a drop-in referee server speaking the official protocol (RULES.md 8).

Every client gets the same sequence of messages, connection closes included, as from the
official server_nogl.  It listens (trying the next 8 ports when the port is busy; port 0 picks a
free one), accepts the map's n clients, reading the group numbers (message 1) of all new
connections at once, and once n have arrived sends each of those the map (2) and its player
number (3), players numbered in order of connection (see `Referee.seat_clients`).  Then it
asks for moves (4) in the rules' turn order, with the time bank of RULES.md 8, validates each
answer with the rules, announces it (6) to everybody (a bomb with special 0, whatever byte came
with it), and disqualifies on an illegal move, a message of the wrong type or length, a closed
connection or an answer after the bank ran out, printing the rule broken; a type a client may
not send at all (anything but 1 and 5) is refused as soon as its 5-byte header arrives, without
waiting for its payload.  A disqualification (7) goes to every client still connected, the
disqualified one included, whose connection is then closed: it is sent nothing more.  8 ends
phase 1 (always), 9 ends the game (right after the 7 when only one player is left).  (One
difference is kept on purpose: after a bad header the official server leaves the rest of the
message unread, so its close resets the connection and the offender usually loses its 7; we
read what the offender still sends before closing, so the 7 arrives unless the offender keeps
sending.)  Every wait has a time limit: connecting and sending the group number (`-z`, as on
the official server; and `--group-wait` per connection, 10 s by default, after which a silent
connection is closed, the others being seated meanwhile), each answer (the bank plus 100 ms, or
`--wait` without a time limit) and each send (5 s).

A first message that is not a valid group number (garbage, or a group above 99) aborts the
whole game, as on the official server: every connection is closed without a message, nothing is
written and the exit code is 255 (also when `-z` runs out).  A client of group 99 (a human) gets
the time field as the others do but is never charged for its time nor disqualified for it
(`--wait` still bounds the wait).  The bank is kept in whole milliseconds; a well-formed move
that arrives in time is charged, an illegal one too, anything else leaves the bank as sent.

The result file (`-r FILE`) has the official server's layout: the map path as given to `-m`
(RULES.md 8; the binary we probed writes the file name alone, which is the same when the map
lies in the server's directory), then one line per player, tab-separated: group, stones (0 when disqualified), the
bank left as "N msecs" (0 for a player never asked) or "inf" without a time limit, and "ok"
or "disq.".

Trace format (`--trace FILE`, JSON; the field names of the official-server traces in the golden
suite, `../shared/traces/README.md`, so one replayer reads both):

- `format`: "reversi-ref-trace-1"; `map_text`: the map as sent; `players`: n;
  `groups`: {player: group number} (player numbers as strings, as in every table here).
- `initial`: `board` (one string per row, one character per cell, no spaces) and `valid`
  (the positions [x, y] legal for the first mover, sorted by x then y; empty in phase 2).
- `moves`: one entry per move request, in order: `move` (its index), `player`, `phase`
  (1 building, 2 bombing), `status` ({overrides, bombs} of the mover before the move),
  `request` ({depth, time_left_ms}: the bank sent, 0 = no limit), `x`, `y`, `special` (null
  when no well-formed move arrived), `time_used_ms`, `board_after`, `valid_next` (positions
  legal for the next player asked, empty in phase 2), and `rejected: true` with `reason` when
  the mover was disqualified instead (the board is then unchanged).
- `disqualifications`: [{player, reason, after_move}] (`after_move`: the index of the move entry).
- `phase1_end`: {after_move, scores}, `after_move` null when phase 1 ended before any move;
  `phase1_end` itself is null when the game ended without it (a sole remaining player).
- `final`: {after_move, scores, ranking} (`after_move` as above); `scores` maps each player to
  its stone count or "disqualified"; `ranking` is [{rank, player, score}] (RULES.md 7).
- `meta`: the server's settings: map path, time limit, depth, port, client addresses.
- `interrupted`: true, only in the trace of a game the server was stopped in (Ctrl-C or
  SIGTERM, exit 130): the moves so far, and `final` null unless the game had ended.

Replaying: start from `parse_map(map_text)`; for each entry, `disqualify(state, player)` when
`rejected`, else `play(state, Move(x, y, special))`; compare with `board_after`.
"""

from __future__ import annotations

import argparse
import selectors
import socket
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, NamedTuple, Optional, TextIO, Union

from .cli import (PORT, int_range, non_negative_float, output_file, positive_float,
                  sigterm_as_interrupt)
from .errors import ProtocolError
from .match import Game, add_color_flags, load_map
from .render.text import use_color
from .mapfile import decode_map_bytes
from .protocol import (CLIENT_TYPES, GROUP, MOVE, Decoder, Disqualification, Group, MapText,
                       Message, MoveAnswer, MoveRequest, PlayerNumber, describe, encode,
                       message_type)
from .rules import scores
from .state import GameState, Move
from .watch.server import watch_address

DEFAULT_PORT = 7777
PORT_TRIES = 9               # the port asked for and the next 8
SEND_TIMEOUT = 5.0           # seconds a send may block before the connection counts as dead
GRACE_MS = 100.0             # the server stops waiting this long after the bank ran out
CLOSE_LINGER = 0.5           # seconds, in all, to let clients read the end before closing
HUMAN_GROUP = 99             # RULES.md 8: group 99 marks a human, whose time is not limited
MAX_GROUP = 99
ABORTED = 255                # the official server's exit code when it gives up
GROUP_WAIT = 10.0            # seconds a new connection has to send its group number
# Seconds between the player numbers and the first move request (`serve`'s default): the
# official server waits that long (measured: 1.0 s at -t 1 and -t 2, two and four players).
START_PAUSE = 1.0
MAX_WAITING = 64             # connections without a group number kept open at once




class Failure(NamedTuple):
    """Why no message could be read: the connection closed, a timeout, or bad bytes."""

    reason: str
    timed_out: bool = False


class Connection:
    """One client's socket, with its own decoder and the messages it sent ahead of time.

    `alive` says whether we still send to it; the end or corruption of its input does not
    change that (a client that half-closed still gets its message 7).
    """

    def __init__(self, sock: socket.socket, address: str) -> None:
        self.sock = sock
        self.address = address
        # RULES.md 8: a client may send types 1 and 5 only; any other type is refused as soon
        # as its header arrives, without waiting for a payload.
        self.decoder = Decoder(accept=CLIENT_TYPES, sender="a client")
        self.queue: List[Message] = []
        self.alive = True
        self.input_failure: Optional[Failure] = None
        self.group = 0
        self.group_deadline = 0.0  # (monotonic) when seating gives up on its group number

    def send(self, message: Message) -> bool:
        """Send `message`; on failure mark the connection dead and return False."""
        if not self.alive:
            return False
        try:
            self.sock.settimeout(SEND_TIMEOUT)
            self.sock.sendall(encode(message))
            return True
        except OSError:
            self.alive = False
            return False

    def receive(self, deadline: float) -> Union[Message, Failure]:
        """The next message, or a Failure when none arrives before `deadline` (monotonic)."""
        while not self.queue:
            if self.input_failure is not None:
                return self.input_failure
            try:
                # Bad bytes that came with an earlier message are reported now.
                self.queue.extend(self.decoder.feed(b""))
            except ProtocolError as error:
                return self._fail_input("RULES.md 8: %s" % error)
            if self.queue:
                break
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return Failure("timeout", timed_out=True)
            self._read(remaining)
        return self.queue.pop(0)

    def poll(self) -> Union[Message, Failure, None]:
        """The next message if its bytes are here, a Failure, or None; reads at most once and
        never waits."""
        if not self.queue and self.input_failure is None:
            self._read(0.0)
        if self.queue:
            return self.queue.pop(0)
        return self.input_failure

    def _read(self, timeout: float) -> None:
        """Read what has arrived, waiting up to `timeout` s for it (0: not at all), and decode
        it; the end or corruption of the input is remembered as `input_failure`."""
        try:
            self.sock.settimeout(timeout)
            data = self.sock.recv(65536)
        except (socket.timeout, BlockingIOError):
            return
        except OSError as error:
            self.alive = False
            self._fail_input("RULES.md 6: the connection was closed (%s)" % error)
            return
        try:
            if not data:
                self.decoder.close()
                self._fail_input("RULES.md 6: the connection was closed")
                return
            self.queue.extend(self.decoder.feed(data))
        except ProtocolError as error:
            self._fail_input("RULES.md 8: %s" % error)

    def _fail_input(self, reason: str) -> Failure:
        """Remember that no more messages can be read from this client."""
        self.input_failure = Failure(reason)
        return self.input_failure

    def close(self, deadline: float = 0.0) -> None:
        """Close; until `deadline` (monotonic) first read what the client still sends, so that
        our last messages are not lost to a connection reset."""
        try:
            while time.monotonic() < deadline:
                self.sock.settimeout(max(0.001, deadline - time.monotonic()))
                if not self.sock.recv(65536):
                    break
        except OSError:
            pass
        finally:
            self.alive = False
            self.sock.close()

    def finish_sending(self) -> None:
        """Tell the client we send nothing more (half-close); nothing is sent after this."""
        if self.alive:
            try:
                self.sock.shutdown(socket.SHUT_WR)
            except OSError:
                pass
        self.alive = False


def bind_listener(host: str, port: int, out: Optional[TextIO] = None) -> socket.socket:
    """A listening socket on `host`:`port`, or the next free of the following 8 ports (port 0:
    any free port).  Raises OSError when none is free."""
    last: Optional[OSError] = None
    for candidate in ([0] if port == 0 else range(port, min(port + PORT_TRIES, 65536))):
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            listener.bind((host, candidate))
            listener.listen(16)
            return listener
        except OSError as error:
            listener.close()
            last = error
            if out is not None:
                print("port %d busy (%s), trying the next" % (candidate, error), file=out)
    tried = ("%d" % port if port == 0 or port + 1 >= min(port + PORT_TRIES, 65536)
             else "%d..%d" % (port, min(port + PORT_TRIES, 65536) - 1))
    reason = last.strerror if last is not None and last.strerror else str(last)
    raise OSError("cannot listen on %s:%s: %s" % (host, tried, reason[:1].lower() + reason[1:]))


class Referee:
    """A whole networked game: listen, seat the clients, run the game, write the results."""

    def __init__(self, map_bytes: bytes, state: GameState, map_name: str = "map",
                 time_limit: int = 0, depth: int = 1, host: str = "127.0.0.1",
                 port: int = DEFAULT_PORT, connect_timeout: float = 600.0,
                 wait: float = 600.0, out: Optional[TextIO] = None, quiet: bool = False,
                 trace_path: Optional[str] = None, result_path: Optional[str] = None,
                 grace_ms: float = GRACE_MS, group_wait: float = GROUP_WAIT,
                 start_pause: float = 0.0) -> None:
        self.map_bytes = map_bytes
        self.map_name = map_name
        self.time_limit = time_limit
        self.depth = depth
        self.host = host
        self.requested_port = port
        self.connect_timeout = connect_timeout
        self.wait = wait
        self.out = out
        self.quiet = quiet
        self.trace_path = trace_path
        self.result_path = result_path
        self.grace_ms = grace_ms
        self.group_wait = group_wait
        self.start_pause = start_pause
        self.listener: Optional[socket.socket] = None
        self.port = 0
        self.connections: Dict[int, Connection] = {}
        self.accepted: List[Connection] = []   # every connection accepted, in order
        self.banks: Dict[int, int] = {}
        self.game = Game(state, decode_map_bytes(map_bytes), out=out, quiet=quiet,
                         meta={"map": map_name, "timelimit": time_limit or None,
                               "depth": depth})
        # Called with the game after its start and after every move request (`--watch`);
        # an observer must return at once (the live page queues and draws on its own thread).
        self.observers: List[Callable[[Game], None]] = []

    def say(self, line: str) -> None:
        """Print a line of the server log."""
        if self.out is not None:
            print(line, file=self.out)
            self.out.flush()

    # -- seating

    def listen(self) -> int:
        """Open the listening socket; return the port and print "listening on HOST:PORT"."""
        self.listener = bind_listener(self.host, self.requested_port, self.out)
        self.port = self.listener.getsockname()[1]
        self.game.trace["meta"]["port"] = self.port
        self.say("listening on %s:%d" % (self.host, self.port))
        return self.port

    def seat_clients(self) -> Optional[bool]:
        """Accept clients and read their group numbers, all at once, until every seat is
        taken; then send each its map (2) and player number (3).  False when `-z` ran out
        first, None when a client's first message was not a valid group number (the game is
        off).

        Players are numbered in order of connection, among the clients whose group number
        has arrived: the official server's numbering, which reads one client at a time.  A
        connection that sends no group number within `group_wait` seconds is closed, and
        nobody waits for it meanwhile (the official server would wait up to `-z` and give
        up)."""
        if self.listener is None:
            self.listen()
        listener = self.listener
        if listener is None:
            return False
        n = self.game.state.players
        deadline = time.monotonic() + self.connect_timeout
        self.say("waiting for %d clients" % n)
        waiting: List[Connection] = []   # accepted, no group number yet
        selector = selectors.DefaultSelector()
        listener.setblocking(False)
        selector.register(listener, selectors.EVENT_READ)
        try:
            while len(self.connections) < n:
                now = time.monotonic()
                for connection in [c for c in waiting if c.group_deadline <= now]:
                    self.say("no group number from %s within %g s; connection closed"
                             % (connection.address, self.group_wait))
                    self._drop(connection, waiting, selector)
                if now >= deadline:
                    return False
                until = min([deadline] + [c.group_deadline for c in waiting])
                for key, _ in selector.select(max(0.0, until - now)):
                    if key.fileobj is listener:
                        self._accept(listener, waiting, selector)
                        continue
                    connection = key.data
                    message = connection.poll()
                    if message is None:
                        continue  # the group number is not complete yet
                    group = self.read_group(connection, message)
                    if group is None:
                        return None
                    connection.group = group
                    waiting.remove(connection)
                    selector.unregister(connection.sock)
                    self.connections[len(self.connections) + 1] = connection
                    if len(self.connections) == n:
                        break
        finally:
            selector.close()
            listener.setblocking(True)
        for connection in waiting:  # too late: every seat is taken
            self.say("%s sent no group number before the seats were taken; connection closed"
                     % connection.address)
            connection.close()
        # Seats in order of connection; the official server sends the map and the numbers
        # only once everybody is seated.
        seated = sorted(self.connections.values(), key=self.accepted.index)
        self.connections = {player: c for player, c in enumerate(seated, start=1)}
        for player, connection in self.connections.items():
            self.say("player %d: group %d from %s" % (player, connection.group,
                                                      connection.address))
            connection.send(MapText(self.map_bytes))
            connection.send(PlayerNumber(player))
        self.game.trace["groups"] = {str(p): c.group for p, c in self.connections.items()}
        self.game.trace["meta"]["clients"] = {str(p): c.address
                                              for p, c in self.connections.items()}
        return True

    def _accept(self, listener: socket.socket, waiting: List[Connection],
                selector: selectors.BaseSelector) -> None:
        """Accept every connection pending on `listener` and watch each for its group."""
        while True:
            try:
                sock, address = listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:  # e.g. out of file descriptors: try again later
                self.say("accepting a connection failed: %s" % error)
                return
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            connection = Connection(sock, "%s:%d" % address[:2])
            connection.group_deadline = time.monotonic() + self.group_wait
            self.accepted.append(connection)
            waiting.append(connection)
            selector.register(sock, selectors.EVENT_READ, connection)
            if len(waiting) > MAX_WAITING:
                oldest = waiting[0]
                self.say("more than %d connections without a group number; closing %s"
                         % (MAX_WAITING, oldest.address))
                self._drop(oldest, waiting, selector)

    def _drop(self, connection: Connection, waiting: List[Connection],
              selector: selectors.BaseSelector) -> None:
        """Close a connection that sent no group number; it plays no part in the game."""
        waiting.remove(connection)
        self.accepted.remove(connection)  # so that a flood of connections keeps no trace
        selector.unregister(connection.sock)
        connection.close()

    def read_group(self, connection: Connection,
                   message: Union[Message, Failure]) -> Optional[int]:
        """The group number in a new client's first `message`, or None (and a printed reason)
        when it is anything else, which aborts the game (RULES.md 8)."""
        if isinstance(message, Group) and message.group <= MAX_GROUP:
            return message.group
        if isinstance(message, Group):
            problem = "RULES.md 8: group number %d is above %d" % (message.group, MAX_GROUP)
        elif isinstance(message, Failure):
            problem = message.reason
        else:
            problem = ("RULES.md 8: the first message must be %s, got %s"
                       % (describe(GROUP), describe(message_type(message))))
        self.say("bad first message from %s: %s; aborting the game"
                 % (connection.address, problem))
        return None

    # -- the game

    def is_timed(self, player: int) -> bool:
        """Whether `player` plays against a time bank (a time limit, not a human)."""
        return self.time_limit > 0 and self.connections[player].group != HUMAN_GROUP

    def broadcast(self, messages: List[Message]) -> None:
        """Send `messages` to every client still connected; right after a disqualification
        (7) has gone out, the disqualified player's connection is closed (RULES.md 6)."""
        for message in messages:
            for connection in self.connections.values():
                connection.send(message)
            if isinstance(message, Disqualification):
                retired = self.connections.get(message.player)
                if retired is not None:
                    retired.finish_sending()

    def ask(self, player: int) -> None:
        """One turn: request a move from `player` and judge the answer (RULES.md 6 and 8)."""
        connection = self.connections[player]
        timed = self.time_limit > 0
        limited = self.is_timed(player)
        if timed:
            # The bank starts at S*1000 ms; every later request adds S*1000 ms (no cap).  A
            # human (group 99) gets the same field but is never charged nor timed out.
            self.banks[player] = self.banks.get(player, 0) + self.time_limit * 1000
        bank = self.banks.get(player, 0)
        time_field = min(bank, 0xFFFFFFFF) if timed else 0
        depth = self.depth
        if not connection.send(MoveRequest(time_field, depth)):
            self.broadcast(self.game.fail("RULES.md 6: the connection was closed",
                                          time_field, depth))
            return
        start = time.monotonic()
        deadline = start + ((bank + self.grace_ms) / 1000.0 if limited else self.wait)
        answer = connection.receive(deadline)
        elapsed = (time.monotonic() - start) * 1000.0
        used = int(elapsed)  # whole milliseconds, as the official server counts them
        if isinstance(answer, Failure):
            if not answer.timed_out:
                reason = answer.reason
            elif limited:
                reason = ("RULES.md 8: no answer before the time bank ran out (bank %d ms, "
                          "waited %d ms)" % (bank, used))
            else:
                reason = ("no answer within %g s (the referee's --wait limit; there is no "
                          "time limit for this player)" % self.wait)
            messages = self.game.fail(reason, time_field, depth, elapsed)
        elif not isinstance(answer, MoveAnswer):
            messages = self.game.fail(
                "RULES.md 6: wrong message type: expected %s, got %s"
                % (describe(MOVE), describe(message_type(answer))), time_field, depth, elapsed)
        elif limited and used > bank:
            move = Move(answer.x, answer.y, answer.special)
            messages = self.game.fail(
                "RULES.md 8: answer after the time bank ran out (%d ms used of a %d ms bank)"
                % (used, bank), time_field, depth, elapsed, move)
        else:
            move = Move(answer.x, answer.y, answer.special)
            messages = self.game.answer(move, time_field, depth, elapsed)
        if limited and used <= bank and isinstance(answer, MoveAnswer):
            # A well-formed move that came in time is charged, an illegal one too; anything
            # else leaves the bank as it was sent (the official server's books).
            self.banks[player] = bank - used
        self.broadcast(messages)

    def play_game(self) -> None:
        """Ask for moves until the game is over, after `start_pause` seconds (no bank is
        charged for them, as on the official server)."""
        self.broadcast(self.game.start())
        self.notify()
        if self.start_pause > 0 and not self.game.is_over:
            time.sleep(self.start_pause)
        while not self.game.is_over:
            self.ask(self.game.mover())
            self.notify()

    def notify(self) -> None:
        """Show the game to its observers."""
        for observer in self.observers:
            observer(self.game)

    def run(self) -> int:
        """Seat the clients, play the game, write trace and result; the exit code (255, as the
        official server's, when the game was aborted before it began)."""
        try:
            if self.game.is_over:
                self.game.start()
                self.write_outputs()
                return 0
            seated = self.seat_clients()
            if seated is None:
                self.say("game aborted: no game was played")
                return ABORTED
            if not seated:
                self.say("gave up: only %d of %d clients connected within %g s"
                         % (len(self.connections), self.game.state.players,
                            self.connect_timeout))
                return ABORTED
            self.play_game()
            self.write_outputs()
            return 0
        except KeyboardInterrupt:
            # Stopped mid-game (Ctrl-C, SIGTERM): keep the moves so far; there is no result.
            if self.trace_path:
                self.game.write_interrupted_trace(self.trace_path)
            raise
        finally:
            if self.listener is not None:
                self.listener.close()
            for connection in self.accepted:
                connection.finish_sending()
            deadline = time.monotonic() + CLOSE_LINGER
            for connection in self.accepted:
                connection.close(deadline)

    # -- results

    def write_outputs(self) -> None:
        """Write the trace (`--trace`) and the result file (`-r`)."""
        if self.trace_path:
            self.game.write_trace(self.trace_path)
        if self.result_path:
            with open(self.result_path, "w", encoding="utf-8", newline="\n") as handle:
                handle.write("".join(line + "\n" for line in self.result_lines()))

    def result_lines(self) -> List[str]:
        """The `-r` file's lines (RULES.md 8): the map path as given to `-m` (RULES.md's
        reading; the official binary we probed writes only the file name), then per player,
        tab-separated: group, stones (0 when
        disqualified), the bank left ("N msecs"; 0 before the first request) or "inf"
        without a time limit, and "ok" or "disq."."""
        state = self.game.state
        counts = scores(state)
        lines = [self.map_name]
        for player in range(1, state.players + 1):
            connection = self.connections.get(player)
            group = connection.group if connection is not None else 0
            out = player in state.disqualified
            bank = ("%d msecs" % self.banks.get(player, 0) if self.time_limit > 0
                    else "inf")
            lines.append("%d\t%d\t%s\t%s" % (group, 0 if out else counts[player], bank,
                                             "disq." if out else "ok"))
        return lines


def run_serve(args: argparse.Namespace) -> int:
    """`reversi-ref serve`: referee one networked game."""
    data, state = load_map(Path(args.map))
    referee = Referee(data, state, map_name=args.map, time_limit=args.time, depth=args.depth,
                      host=args.host, port=args.port, connect_timeout=args.z, wait=args.wait,
                      out=sys.stdout, quiet=args.quiet, trace_path=args.trace,
                      result_path=args.r, group_wait=args.group_wait,
                      start_pause=args.start_pause)
    referee.game.color = use_color(sys.stdout, args.color)
    watch = None
    if args.watch is not None:
        from .watch import watch_referee
        try:
            watch = watch_referee(referee, args.watch, sys.stdout)
        except OSError as error:
            print("reversi-ref serve: --watch %s: %s" % (args.watch, error), file=sys.stderr)
            return 1
    try:
        with sigterm_as_interrupt():
            return referee.run()
    finally:
        if watch is not None:
            watch.close()


def register(subparsers: Any) -> None:
    """Add the `serve` subcommand."""
    parser = subparsers.add_parser(
        "serve", help="referee a game over the network (drop-in for the official server)",
        description="Referee one game between network clients speaking the official "
                    "protocol (RULES.md 8).")
    parser.add_argument("-m", dest="map", required=True, metavar="MAP",
                        help="map file, or a bundled map's name (`reversi-ref maps`)")
    parser.add_argument("-t", dest="time", type=int_range(0), default=0, metavar="SECONDS",
                        help="time limit per move in seconds, feeding a time bank "
                             "(default 0: no limit)")
    parser.add_argument("-d", dest="depth", type=int_range(0, 255), default=1, metavar="DEPTH",
                        help="depth limit sent with each move request (default 1)")
    parser.add_argument("-p", dest="port", type=PORT, default=DEFAULT_PORT, metavar="PORT",
                        help="port; the next 8 are tried when it is busy; 0 picks a free one "
                             "(default %d)" % DEFAULT_PORT)
    parser.add_argument("-r", type=output_file, metavar="FILE",
                        help="write the result as the official server does: the map file's "
                             "name, then per player, tab-separated: group, stones, bank left "
                             "(N msecs) or inf, ok or disq.")
    parser.add_argument("-z", type=positive_float, default=600.0, metavar="SECONDS",
                        help="give up (exit code 255) when the clients have not connected "
                             "within this time (default 600)")
    parser.add_argument("--group-wait", type=positive_float, default=GROUP_WAIT,
                        metavar="SECONDS",
                        help="close a connection that has not sent its group number within "
                             "this time; the others are seated meanwhile (default %g)"
                             % GROUP_WAIT)
    parser.add_argument("--start-pause", type=non_negative_float, default=START_PAUSE,
                        metavar="SECONDS",
                        help="wait this long between sending the player numbers and the "
                             "first move request, as the official server does (default %g; "
                             "0 for quick test games)" % START_PAUSE)
    parser.add_argument("--trace", type=output_file, metavar="FILE",
                        help="write the JSON trace of the game")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on "
                        "(default 127.0.0.1)")
    parser.add_argument("--wait", type=positive_float, default=600.0, metavar="SECONDS",
                        help="without a time limit (or for a human, group 99), disqualify a "
                             "client silent for this long (default 600)")
    add_color_flags(parser)
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="do not print the boards")
    parser.add_argument("--watch", metavar="[HOST:]PORT", type=watch_address,
                        help="show the game live in the browser at http://HOST:PORT/ "
                             "(HOST default 127.0.0.1; PORT 0 picks a free one)")
    parser.set_defaults(func=run_serve)
