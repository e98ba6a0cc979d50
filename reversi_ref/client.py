"""`reversi-ref client`: play one whole game on a server speaking the official protocol.

The client sends its group number (message 1), reads the map (2) and its player number (3),
then follows the game from the server's messages: each announced move (6) is played on its own
copy of the state, each disqualification (7) applied, the end of phase 1 (8) checked, and the
end of the game (9) ends the run with the final ranking.  Our own disqualification ends it too:
the server sends nothing after it and closes the connection (RULES.md 6), so the client leaves
with the standings at that point (exit code 0).  A move request (4) is answered with
the move of a player from `reversi_ref.players`, given part of the time bank (see
`move_budget_ms`; a player that `manages_bank` gets the whole bank) or, without a time limit,
the depth limit.

While another player is to move in the building phase, the client lets its player *ponder*
(think on the others' time, `Player.ponder`) until the server's next message arrives; the
connection is polled without blocking, so the message is read within milliseconds.  Before
the game's first move request it ponders its own first move: the official server waits about
a second after sending the player numbers, and that second counts against nobody's bank.
`--no-ponder` turns this off (for example when several clients share few processor cores).

Under PyPy, the JIT's compiled code is released whenever it has grown past `--jit-limit` MB
after one of our moves, so that the memory of a long game stays level (JIT_CODE_LIMIT_MB).

When the client's own state disagrees with the server (an announced move our rules call
illegal, a request when we think someone else moves), it logs a warning and follows the server.
A dropped connection or a malformed message ends the run with a one-line error and exit code 1.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import random
import select
import socket
import sys
import time
from dataclasses import replace
from typing import Any, Callable, Dict, List, Optional, TextIO, Tuple

from . import players as player_registry
from .cli import int_range, non_negative_float, positive_float, usage_error
from .errors import IllegalMoveError, MapError, ProtocolError, ReversiError
from .mapfile import decode_map_bytes, read_map
from .players import Player
from .protocol import (Decoder, Disqualification, EndOfGame, EndOfPhase1, Group, MapText,
                       Message, MoveAnnouncement, MoveAnswer, MoveRequest, PlayerNumber,
                       describe, encode, message_type)
from .rules import disqualify, initial_state, legal_moves, play, ranking
from .rules.turns import pass_turn, start_bombing
from .state import BOMB, BUILD, OVER, GameState, Move
from .watch.hub import Hub
from .watch.server import Mover, watch_address

CONNECT_TIMEOUT = 10.0
# The part of the bank kept back for the network, the process being descheduled, PyPy's JIT
# warm-up and garbage collection.
SAFETY_MARGIN_MS = 300
# `Client.history` keeps the last HISTORY_LIMIT messages at least and never more than twice
# that many (issue 19: the client's memory must not grow with the length of the game).
HISTORY_LIMIT = 256
# PyPy's JIT keeps all the machine code it compiles, and a long game keeps compiling more (a
# bridge for every guard that fails often enough, for positions the game has long left
# behind), so the client's memory grew until the last move.  When that code passes this many
# MB after one of our moves, all of it is released and compiled afresh for the positions at
# hand, at a cost of a few percent of the nodes of the searches just after (docs/soak.md).
JIT_CODE_LIMIT_MB = 4.0
# Passing the limit again within this many of our moves after a release doubles the limit
# instead: the code the search needs on this map is larger than the limit, and releasing it
# at every move would compile it again at every move.
JIT_RELEASE_MIN_MOVES = 10


class ConnectionLost(ReversiError):
    """The server closed the connection or went silent before the end of the game."""


def move_budget_ms(bank_ms: int) -> int:
    """The time to think about one move when the request carries `bank_ms` (0 = no limit).

    Half the bank, and never closer than SAFETY_MARGIN_MS to its end: with a limit of S
    seconds this settles at about S seconds per move while keeping S seconds in reserve.
    """
    if bank_ms <= 0:
        return 0
    return max(1, min(bank_ms // 2, bank_ms - SAFETY_MARGIN_MS))


def parse_server(text: str) -> Tuple[str, int]:
    """HOST:PORT as (host, port); ValueError when it is not of that form."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError("--server must be HOST:PORT, got %r" % text)
    return host, int(port)


def server_address(text: str) -> Tuple[str, int]:
    """An argparse type: HOST:PORT with a port from 1 to 65535."""
    try:
        return parse_server(text)
    except ValueError:
        raise argparse.ArgumentTypeError("must be HOST:PORT with a port from 1 to 65535, "
                                         "got %r" % text) from None


class Client:
    """One game on a server: the connection, the tracked state and our player."""

    def __init__(self, player: Player, group: int = 1, out: Optional[TextIO] = None,
                 timeout: float = 3600.0, ponder: bool = True) -> None:
        self.player = player
        self.ponder = ponder
        self.pondered: Optional[GameState] = None
        self.ponder_depth = 0
        self.group = group
        self.out = out
        self.timeout = timeout
        self.sock: Optional[socket.socket] = None
        self.decoder = Decoder()
        self.queue: List[Message] = []
        self.state: Optional[GameState] = None
        self.me = 0
        self.last_mover = 0
        self.moves_played = 0
        # Move requests the game has answered so far, everybody's (announcements, and the
        # disqualifications that answer a request): our log numbers moves as the referee does.
        self.game_moves = 0
        self.warnings = 0
        # The latest messages, oldest first (see HISTORY_LIMIT and `remember`).
        self.history: List[Message] = []
        # Log this process's memory after every `memory_every`-th of our moves (0: never).
        self.memory_every = 0
        # Release PyPy's compiled code when it passes this many MB (see JIT_CODE_LIMIT_MB);
        # how often that happened, and at which of our moves the last time.
        self.jit_limit_mb = 0.0
        self.jit_releases = 0
        self.jit_released_at = 0
        # Our last answer and the time it took, and the observers (`--watch`), called after
        # each message is handled; an observer must return at once.
        self.last_answer: Optional[Move] = None
        self.last_answer_ms = 0.0
        self.observers: List[Callable[["Client", Message], None]] = []

    def log(self, line: str) -> None:
        """Print one line of the client's log."""
        if self.out is not None:
            print(line, file=self.out)
            self.out.flush()

    def warn(self, line: str) -> None:
        """Log a disagreement between our state and the server's messages."""
        self.warnings += 1
        self.log("warning: " + line)

    # -- the connection

    def connect(self, host: str, port: int) -> None:
        """Connect to the server and send our group number (ConnectionLost naming the
        address when it cannot be reached)."""
        try:
            self.sock = socket.create_connection((host, port), timeout=CONNECT_TIMEOUT)
        except socket.timeout:
            raise ConnectionLost("cannot connect to %s:%d: no answer within %g s"
                                 % (host, port, CONNECT_TIMEOUT)) from None
        except OSError as error:
            reason = error.strerror or str(error)
            raise ConnectionLost("cannot connect to %s:%d: %s"
                                 % (host, port, reason[:1].lower() + reason[1:])) from None
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.send(Group(self.group))

    def send(self, message: Message) -> None:
        """Send one message (ConnectionLost when that fails)."""
        if self.sock is None:
            raise ConnectionLost("not connected")
        try:
            self.sock.settimeout(CONNECT_TIMEOUT)
            self.sock.sendall(encode(message))
        except OSError as error:
            raise ConnectionLost("sending to the server failed: %s" % error) from None

    def receive(self) -> Message:
        """The next message from the server (ConnectionLost, ProtocolError)."""
        if self.sock is None:
            raise ConnectionLost("not connected")
        deadline = time.monotonic() + self.timeout
        while not self.queue:
            # Bad bytes that came with an earlier message are reported now.
            self.queue.extend(self.decoder.feed(b""))
            if self.queue:
                break
            self.ponder_while_waiting()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ConnectionLost("the server sent nothing for %g s" % self.timeout)
            try:
                self.sock.settimeout(remaining)
                data = self.sock.recv(65536)
            except socket.timeout:
                raise ConnectionLost("the server sent nothing for %g s" % self.timeout) from None
            except OSError as error:
                raise ConnectionLost("connection lost: %s" % error) from None
            if not data:
                try:
                    self.decoder.close()
                except ProtocolError as error:
                    raise ConnectionLost("the server closed the connection: %s"
                                         % error) from None
                raise ConnectionLost("the server closed the connection before the end of "
                                     "the game")
            self.queue.extend(self.decoder.feed(data))
        return self.queue.pop(0)

    def message_waiting(self) -> bool:
        """Whether the server's next bytes have arrived (polled, never blocks)."""
        if self.sock is None:
            return True
        try:
            return bool(select.select([self.sock], [], [], 0)[0])
        except (OSError, ValueError):
            return True  # let the blocking read report the broken connection

    def ponder_while_waiting(self) -> None:
        """Let the player think about the current position until the next message, when
        another player is to move in the building phase, or we are before the game's first
        move request (once per position)."""
        state = self.state
        if (not self.ponder or state is None or not self.me or state is self.pondered
                or state.phase != BUILD or state.to_move is None
                or self.me in state.disqualified):
            return
        # Our own move is thought about only in the official server's pause of about a
        # second between the player numbers and the first request (docs/rules.md, section
        # 8): the first move has the smallest bank, and under PyPy a cold JIT besides.
        if state.to_move == self.me and (self.game_moves or self.moves_played
                                         or self.message_waiting()):
            return
        self.pondered = state
        try:
            depth = self.player.ponder(state, self.me, self.message_waiting)
        except Exception as error:  # a broken player must not lose the game by a crash
            self.ponder = False
            self.warn("player %s failed while pondering (%s: %s); pondering switched off"
                      % (self.player.name, type(error).__name__, error))
            return
        self.ponder_depth = max(self.ponder_depth, depth)

    def close(self) -> None:
        """Close the connection."""
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    # -- the game

    def run(self, host: str, port: int) -> GameState:
        """Play a whole game on `host`:`port`; the final state (the state when we were
        disqualified, after which the server sends nothing more)."""
        self.connect(host, port)
        try:
            while True:
                message = self.receive()
                self.remember(message)
                if isinstance(message, EndOfGame):
                    final = self.on_end()
                    self.notify(message)
                    return final
                self.handle(message)
                self.notify(message)
                if isinstance(message, Disqualification) and message.player == self.me:
                    # RULES.md 6: nothing follows our own 7; the server closes the connection.
                    self.log("the server sends us nothing more; leaving the game")
                    return self.tracked(message)
        finally:
            self.close()

    def remember(self, message: Message) -> None:
        """Add `message` to `history`, dropping the oldest beyond HISTORY_LIMIT (in batches,
        so each message costs O(1) on average)."""
        history = self.history
        history.append(message)
        if len(history) > 2 * HISTORY_LIMIT:
            del history[:len(history) - HISTORY_LIMIT]

    def notify(self, message: Message) -> None:
        """Show the game to the observers after `message` was handled."""
        for observer in self.observers:
            observer(self, message)

    def tracked(self, message: Message) -> GameState:
        """Our state, or ProtocolError when `message` came before the map."""
        if self.state is None or not self.me:
            raise ProtocolError("message %s before the map and player number"
                                % describe(message_type(message)))
        return self.state

    def handle(self, message: Message) -> None:
        """Act on one message from the server (all but the end of the game)."""
        if isinstance(message, MapText):
            if self.state is not None:
                raise ProtocolError("a second map message")
            try:
                self.state = initial_state(read_map(decode_map_bytes(message.data)))
            except MapError as error:
                raise ProtocolError("the server's map is invalid: %s" % error) from None
            self.log("map: %d players, %dx%d" % (self.state.players, self.state.width,
                                                 self.state.height))
        elif isinstance(message, PlayerNumber):
            if self.state is None:
                raise ProtocolError("player number before the map")
            if message.player > self.state.players:
                raise ProtocolError("player number %d in a %d-player game"
                                    % (message.player, self.state.players))
            self.me = message.player
            self.log("we are player %d (%s, group %d)" % (self.me, self.player.name,
                                                          self.group))
            try:
                self.player.prepare(self.state)
            except Exception as error:  # a broken player must not lose the game by a crash
                self.warn("player %s failed to prepare (%s: %s)"
                          % (self.player.name, type(error).__name__, error))
        elif isinstance(message, MoveRequest):
            self.on_request(self.tracked(message), message)
        elif isinstance(message, MoveAnnouncement):
            self.on_announcement(self.tracked(message), message)
        elif isinstance(message, Disqualification):
            state = self.tracked(message)
            if message.player > state.players:
                raise ProtocolError("disqualification of player %d in a %d-player game"
                                    % (message.player, state.players))
            self.state = disqualify(state, message.player)
            self.game_moves += 1
            self.log("player %d disqualified%s" % (
                message.player, " (that is us)" if message.player == self.me else ""))
        elif isinstance(message, EndOfPhase1):
            self.on_phase_end(self.tracked(message))
        else:
            raise ProtocolError("unexpected message %s from the server"
                                % describe(message_type(message)))

    def on_request(self, state: GameState, request: MoveRequest) -> None:
        """Answer a move request with our player's move."""
        start = time.monotonic()
        if state.to_move != self.me or state.phase == OVER:
            self.warn("the server asks us (player %d) but we think %s; following the server"
                      % (self.me, "the game is over" if state.phase == OVER
                         else "player %s moves" % state.to_move))
            phase = state.phase
            if phase == OVER:
                phase = BOMB if state.bombs[self.me - 1] else BUILD
            state = replace(state, phase=phase, to_move=self.me)
            self.state = state
        budget = (request.time_ms if self.player.manages_bank
                  else move_budget_ms(request.time_ms))
        move = self.choose(state, budget, request.depth)
        self.send(MoveAnswer(move.x, move.y, move.special))
        used = (time.monotonic() - start) * 1000.0
        self.last_answer, self.last_answer_ms = move, used
        info = self.player.info
        self.moves_played += 1
        if not request.time_ms:
            bank = "no limit"
        elif self.player.manages_bank:
            bank = "bank %d ms" % request.time_ms
        else:
            bank = "budget %d ms of %d ms" % (budget, request.time_ms)
        special = " special %d" % move.special if move.special else ""
        pondered = ", pondered to depth %d" % self.ponder_depth if self.ponder_depth else ""
        self.ponder_depth = 0
        proven = " (result proven)" if info.proven else ""
        stretched = ", unsure: longer limits" if info.stretched else ""
        held_out = ", holds out against the loss" if info.held_out else ""
        self.log("move %d: (%d, %d)%s depth %d%s, %d nodes, %d ms (%s%s%s%s)"
                 % (self.game_moves + 1, move.x, move.y, special, info.depth, proven,
                    info.nodes, round(used), bank, pondered, stretched, held_out))
        if self.memory_every and self.moves_played % self.memory_every == 0:
            figures = memory_figures()
            if "jit" in figures:
                figures["jit_releases"] = float(self.jit_releases)
            self.log(format_memory(self.moves_played, figures, len(self.history)))
        self.release_jit()

    def release_jit(self) -> None:
        """Under PyPy, release the JIT's compiled code once it has passed `jit_limit_mb`
        (JIT_CODE_LIMIT_MB); double the limit when it passes it again too soon."""
        code_mb = jit_code_mb()
        if not self.jit_limit_mb or code_mb is None or code_mb <= self.jit_limit_mb:
            return
        if (self.jit_releases
                and self.moves_played - self.jit_released_at < JIT_RELEASE_MIN_MOVES):
            self.jit_limit_mb *= 2
            if self.memory_every:
                self.log("memory: the JIT's code limit raised to %g MB" % self.jit_limit_mb)
            return
        start = time.monotonic()
        if release_jit_code():
            self.jit_releases += 1
            self.jit_released_at = self.moves_played
            if self.memory_every:
                self.log("memory: released the JIT's compiled code (%.1f MB) in %d ms, %d "
                         "times so far" % (code_mb, round((time.monotonic() - start) * 1000.0),
                                           self.jit_releases))

    def choose(self, state: GameState, budget: int, depth: int) -> Move:
        """Our player's move; if it fails, the first legal move (or (0, 0)) with a warning."""
        try:
            choice = self.player.choose(state, budget, depth)
            return Move(choice.x, choice.y, choice.special)
        except Exception as error:  # a broken player must not lose the game by a crash
            moves = legal_moves(state)
            self.warn("player %s failed (%s: %s); playing %s"
                      % (self.player.name, type(error).__name__, error,
                         "the first legal move" if moves else "(0, 0)"))
            return moves[0] if moves else Move(0, 0, 0)

    def on_announcement(self, state: GameState, announced: MoveAnnouncement) -> None:
        """Play an announced move on our state."""
        move = Move(announced.x, announced.y, announced.special)
        if announced.player > state.players:
            raise ProtocolError("move announced for player %d in a %d-player game"
                                % (announced.player, state.players))
        if state.to_move != announced.player:
            self.warn("player %d moved but we expected %s; following the server"
                      % (announced.player, state.to_move))
            state = replace(state, to_move=announced.player,
                            phase=BUILD if state.phase == OVER else state.phase)
        self.last_mover = announced.player
        self.game_moves += 1
        try:
            self.state = play(state, move)
        except IllegalMoveError as error:
            self.warn("announced move (%d, %d) special %d of player %d is illegal for us (%s);"
                      " passing the turn" % (move.x, move.y, move.special, announced.player,
                                             error))
            self.state = pass_turn(state, after=announced.player)

    def on_phase_end(self, state: GameState) -> None:
        """Message 8: check that our state has left phase 1 too."""
        if state.phase == BUILD:
            self.warn("the server ended phase 1 but we think player %s can still move; "
                      "following the server" % state.to_move)
            self.state = start_bombing(state, after=self.last_mover or state.players)
        self.log("end of phase 1")

    def on_end(self) -> GameState:
        """Message 9: the final state."""
        if self.state is None:
            raise ProtocolError("end of game before the map")
        state = self.state
        if state.phase != OVER:
            self.warn("the server ended the game but we think player %s can still move"
                      % state.to_move)
            state = replace(state, phase=OVER, to_move=None)
            self.state = state
        return state


def pypy_gc_stats() -> Any:
    """PyPy's raw GC statistics (`gc.get_stats()._s`: sizes in bytes, times in ms); None
    elsewhere."""
    get_stats = getattr(gc, "get_stats", None)  # PyPy only
    return getattr(get_stats(), "_s", None) if get_stats is not None else None


def memory_figures() -> Dict[str, float]:
    """This process's memory in MB: `rss` and `peak_rss` (from /proc, 0 elsewhere); under
    PyPy also the GC heap in use (`heap`), its peak so far (`heap_peak`) and the JIT's
    machine code (`jit`), with the time spent in the GC so far (`gc_seconds`)."""
    figures = {"rss": 0.0, "peak_rss": 0.0}
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    figures["rss"] = int(line.split()[1]) / 1024.0
                elif line.startswith("VmHWM:"):
                    figures["peak_rss"] = int(line.split()[1]) / 1024.0
    except (OSError, ValueError, IndexError):
        pass
    raw = pypy_gc_stats()
    if raw is not None:
        mb = 1024.0 * 1024.0
        figures["heap"] = raw.total_gc_memory / mb
        figures["heap_peak"] = raw.peak_memory / mb
        figures["jit"] = raw.jit_backend_used / mb
        figures["gc_seconds"] = raw.total_gc_time / 1000.0
    return figures


def format_memory(own_moves: int, figures: Dict[str, float], history: int) -> str:
    """The client's memory log line (read back by `reversi_ref.soak`)."""
    parts = ["%s %.1f" % (name, figures[name]) for name in
             ("rss", "peak_rss", "heap", "heap_peak", "jit", "gc_seconds", "jit_releases")
             if name in figures]
    return "memory: own move %d, %s, history %d" % (own_moves, ", ".join(parts), history)


def jit_code_mb() -> Optional[float]:
    """The size of PyPy's compiled machine code in MB; None when not under PyPy."""
    raw = pypy_gc_stats()
    return None if raw is None else raw.jit_backend_used / (1024.0 * 1024.0)


def release_jit_code() -> bool:
    """Let PyPy free all its compiled code, at once; False when not under PyPy.  The code is
    compiled again as the search needs it."""
    try:
        pypyjit = importlib.import_module("pypyjit")
    except ImportError:
        return False
    pypyjit.releaseall()
    # The code is freed at the next major collection, except what is running then: left to
    # itself that collection comes mid-search (pondering) and keeps everything.  Here only the
    # client's own loop is running.
    gc.collect()
    return True


def run_client(args: argparse.Namespace) -> int:
    """`reversi-ref client`: play one game; 0 at its end, 1 on a lost connection or bad data."""
    out: TextIO = sys.stdout
    host, port = args.server
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    weights: Dict[str, object] = {}
    if args.weights is None:
        player = player_registry.get(args.player, seed)
    else:
        try:
            weights = player_registry.read_weights(args.weights, "argument --weights")
            player = player_registry.tuned(args.player, weights, seed)
        except ValueError as error:
            raise usage_error(error, "argument --weights") from None
    client = Client(player, args.group, out, args.timeout, ponder=not args.no_ponder)
    if weights:
        # The log is the record of a game: it must say which evaluation played it.
        client.log("weights changed from the defaults: %s" % json.dumps(weights, sort_keys=True))
    client.memory_every = args.memory_every
    client.jit_limit_mb = args.jit_limit
    return finish_client(client, host, port, out, watch_address=args.watch)


def finish_client(client: Client, host: str, port: int, out: TextIO,
                  watch_address: Optional[str] = None, interactive: bool = False,
                  mover: Optional[Mover] = None, open_browser: bool = False,
                  hub: Optional[Hub] = None,
                  command: str = "client") -> int:
    """Play the game of `client` on `host`:`port` and print the ranking; with
    `watch_address` show it live (`reversi_ref.watch`).  The exit code; errors are one line
    starting with "reversi-ref `command`"."""
    watch = None
    if watch_address is not None:
        from .watch import watch_client
        try:
            watch = watch_client(client, watch_address, out, interactive, mover, hub,
                                 open_browser)
        except OSError as error:
            print("reversi-ref %s: --watch %s: %s" % (command, watch_address, error),
                  file=sys.stderr)
            return 1
    try:
        state = client.run(host, port)
    except ProtocolError as error:
        print("reversi-ref %s: malformed message from the server: %s" % (command, error),
              file=sys.stderr)
        return 1
    except (ConnectionLost, OSError) as error:
        print("reversi-ref %s: %s" % (command, error), file=sys.stderr)
        return 1
    finally:
        if watch is not None:
            watch.close()
    if not client.history or client.history[-1] != EndOfGame():
        print("we were disqualified and left the game; standings when we left:", file=out)
    else:
        print("end of game; final ranking:", file=out)
    for standing in ranking(state):
        mark = "  <- us" if standing.player == client.me else ""
        print("%d. player %d: %d stones%s" % (standing.rank, standing.player, standing.score,
                                              mark), file=out)
    for player_number in sorted(state.disqualified):
        mark = "  <- us" if player_number == client.me else ""
        print("-  player %d: disqualified%s" % (player_number, mark), file=out)
    return 0


def register(subparsers: Any) -> None:
    """Add the `client` subcommand."""
    parser = subparsers.add_parser(
        "client", help="play a game on a server speaking the official protocol",
        description="Connect to a ReversiXT server (the official one or reversi-ref serve) "
                    "and play one whole game.")
    parser.add_argument("--server", type=server_address, default=("127.0.0.1", 7777),
                        metavar="HOST:PORT",
                        help="the server (default 127.0.0.1:7777)")
    parser.add_argument("--group", type=int_range(0, 255), default=1, metavar="N",
                        help="group number sent to the server (default 1; 99 = human)")
    parser.add_argument("--player", type=player_registry.player_name, default="search",
                        metavar="NAME",
                        help="player (known: %s; default search, the strongest)"
                             % ", ".join(player_registry.names()))
    parser.add_argument("--seed", type=int, default=None,
                        help="seed for a random player (default: a random seed)")
    parser.add_argument("--weights", default=None, metavar="JSON",
                        help="evaluation weights changed from the defaults, as a JSON object "
                             "(inline or @FILE), for %s; e.g. '{\"material\": [60, 100]}'"
                             % ", ".join(player_registry.TUNABLE))
    parser.add_argument("--timeout", type=positive_float, default=3600.0, metavar="SECONDS",
                        help="give up when the server sends nothing for this long "
                             "(default 3600)")
    parser.add_argument("--no-ponder", action="store_true",
                        help="do not think while the other players are to move (by default "
                             "the search players do, on the time the machine would idle)")
    parser.add_argument("--memory-every", type=int_range(0), default=0, metavar="MOVES",
                        help="log this process's memory (RSS; under PyPy also the GC heap "
                             "and the JIT's code) after every MOVES of our moves (default 0: "
                             "never; `bench soak` uses it)")
    parser.add_argument("--jit-limit", type=non_negative_float, default=JIT_CODE_LIMIT_MB,
                        metavar="MB",
                        help="under PyPy, release the JIT's compiled code when it passes this "
                             "size after one of our moves, so that a long game's memory stays "
                             "level (default %g; 0: never)" % JIT_CODE_LIMIT_MB)
    parser.add_argument("--watch", metavar="[HOST:]PORT", type=watch_address,
                        help="show the game as this client sees it, with its search's depth, "
                             "nodes, principal variation and evaluation, live in the browser "
                             "at http://HOST:PORT/ (PORT 0 picks a free one)")
    parser.set_defaults(func=run_client)
