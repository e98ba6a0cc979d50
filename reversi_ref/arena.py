"""`reversi-ref arena`: series of games between external programs on an external server.

Each game runs the server command (the official `server_nogl` or `reversi-ref serve`) in a
fresh temporary directory, then one client per seat.  The server seats clients in the order
they connect, so a slow starter (PyPy, a JVM) would always take the later seat; the harness
makes the order exact with a relay: for seat k it listens on a local port of its own, starts
the client for seat k pointed at that port, and only once that client has connected and sent
its group number (message 1) does it open the server connection for seat k.  From then on it
copies bytes both ways (one thread per direction) and reads the server's side: the player
number the server gives (message 3) proves the seat, disqualifications (7) and the end of the
game (9) are noted.

Results come from the server's result file (`-r`: the map name, then per player: group,
stones, bank left, ok or disq.).  Points, for the player called ours: 1 for a first place
alone, 1/t for a first place shared by t players, 0 otherwise (and 0 when disqualified);
disqualified players have no place.  One JSON line per game goes to `--out` as soon as the
game ends; `--resume` skips the games already there (but plays again those the harness could
not play).  docs/strength.md shows the commands of the passes against the official programs.
"""

from __future__ import annotations

import argparse
import errno
import fnmatch
import glob
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any, Dict, IO, List, NamedTuple, Optional, Sequence, Set, Tuple

from .arenatrace import replay_events, write_trace
from .bundled import bundled_map_bytes, load_map_argument
from .cli import UsageError, int_range, output_file, positive_float, sigterm_as_interrupt
from .errors import ReversiError
from .mapfile import decode_map_bytes
from .protocol import (CLIENT_TYPES, Decoder, Disqualification, EndOfGame, EndOfPhase1,
                       Group, MoveAnnouncement, PlayerNumber)
from .sprt import elo_interval, parse_sprt, Sprt, wilson_interval

HOST = "127.0.0.1"
# Placeholders each template may use, and must use.
SERVER_KEYS = ("map", "port", "result")
SERVER_REQUIRED = ("map", "port", "result")
PLAYER_KEYS = ("port", "host", "seat", "name")
PLAYER_REQUIRED = ("port",)
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
# How long the server may take to open its port, and a client's process to exit after the
# end of the game, before it is stopped.
SERVER_START = 30.0
CLIENT_EXIT = 10.0
# So many games in a row that the harness could not play (a client that exits at once, a
# server that never opens its port) end the series: the setup is wrong, not one game.
ERRORS_IN_A_ROW = 3
# The end of the server's output kept in each game's server.log, in bytes.
SERVER_LOG_TAIL = 64 * 1024
# How long a killed process group gets between SIGTERM and SIGKILL.
KILL_GRACE = 2.0
# A game whose server did not open its port is started again on a new one this many times in
# all before it is recorded as an error.
PORT_ATTEMPTS = 3
# What a server that exits when its port is taken (`reversi-ref serve` does) prints last: the
# system's text for the error, as Python words it on this machine.
ADDRESS_IN_USE = os.strerror(errno.EADDRINUSE)


class GameError(ReversiError):
    """A game that could not be played to its end (a client that never connected, a server
    that stopped early); recorded, and the series goes on."""


class SetupError(ReversiError):
    """A problem that ends the whole series: a map the server refuses, a missing program."""


class PortTaken(GameError):
    """The server did not open the port it was given: between `free_port` and the server's
    start something else (another arena's relay, say) took it, and the official server then
    opens the next free port instead (`reversi-ref serve` exits, saying the address is in
    use).  The game is played again on a new port."""


# --------------------------------------------------------------------------- templates


def parse_template(text: str, what: str, keys: Sequence[str], required: Sequence[str]
                   ) -> List[str]:
    """A command template split into words; UsageError naming `what` when it cannot be split,
    names an unknown placeholder or lacks a required one."""
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise UsageError("%s: cannot split %r: %s" % (what, text, error)) from None
    if not words:
        raise UsageError("%s: empty command" % what)
    found = set()
    for word in words:
        for name in PLACEHOLDER.findall(word):
            if name not in keys:
                raise UsageError("%s: unknown placeholder {%s} (known: %s)"
                                 % (what, name, ", ".join("{%s}" % k for k in keys)))
            found.add(name)
    missing = [name for name in required if name not in found]
    if missing:
        raise UsageError("%s: the command must contain %s" % (
            what, " and ".join("{%s}" % name for name in missing)))
    return words


def fill(words: Sequence[str], values: Dict[str, str]) -> List[str]:
    """The template's words with each known placeholder replaced by its value."""
    return [PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), word)
            for word in words]


def check_program(words: Sequence[str], what: str) -> None:
    """SetupError naming `what` when the template's program cannot be found or run."""
    program = words[0]
    if os.sep in program or "/" in program:
        if not os.path.isfile(program):
            raise SetupError("%s: %s: no such file" % (what, program))
        if not os.access(program, os.X_OK):
            raise SetupError("%s: %s: not executable" % (what, program))
    elif shutil.which(program) is None:
        raise SetupError("%s: %s: command not found" % (what, program))


def player_option(text: str) -> Tuple[str, str]:
    """An argparse type: NAME=COMMAND."""
    name, sep, command = text.partition("=")
    if not sep or not re.match(r"^[A-Za-z0-9_.-]+$", name) or not command.strip():
        raise argparse.ArgumentTypeError("must be NAME=COMMAND (NAME of letters, digits, "
                                         "'_', '.', '-'), got %r" % text)
    return name, command


# --------------------------------------------------------------------------- the schedule


class MapEntry(NamedTuple):
    """A map of the series: as given, its short name, file (None: bundled), players."""

    argument: str
    name: str
    path: Optional[str]
    data: bytes
    players: int


class Game(NamedTuple):
    """One game of the series; `key` identifies it in the output file."""

    key: str
    round: int
    opponent: str
    map: MapEntry
    seats: Tuple[str, ...]
    ours_seat: int


def expand_maps(items: Sequence[str], map_dir: Optional[str]) -> List[str]:
    """The map arguments: each a path, a glob, a bundled map's name or @FILE (one a line, #
    comments); relative entries are taken under `map_dir` when it is given."""
    result: List[str] = []
    for item in items:
        if item.startswith("@"):
            try:
                with open(item[1:], encoding="utf-8") as handle:
                    lines = handle.read().splitlines()
            except OSError as error:
                raise SetupError("--maps %s: %s" % (item, error.strerror or error)) from None
            entries = [line.split("#", 1)[0].strip() for line in lines]
            result.extend(expand_maps([entry for entry in entries if entry], map_dir))
            continue
        path = item if map_dir is None or os.path.isabs(item) else os.path.join(map_dir, item)
        if any(char in item for char in "*?["):
            matches = sorted(glob.glob(path))
            if not matches:
                raise SetupError("--maps %s: no file matches" % path)
            result.extend(matches)
        elif os.path.exists(path) or map_dir is None or bundled_map_bytes(item) is None:
            result.append(path)
        else:
            result.append(item)  # a bundled map's name
    return result


def load_maps(arguments: Sequence[str]) -> List[MapEntry]:
    """The maps, read and checked with our map reader (which loads what the server loads)."""
    entries: List[MapEntry] = []
    seen: Set[str] = set()
    for argument in arguments:
        source, game_map = load_map_argument(argument)
        name = Path(source.label).name
        name = name[:-4] if name.endswith(".map") else name
        if name in seen:
            raise SetupError("--maps: two maps named %s" % name)
        seen.add(name)
        path = str(source.path.resolve()) if source.path is not None else None
        entries.append(MapEntry(argument, name, path, source.data, game_map.players))
    return entries


def schedule(maps: Sequence[MapEntry], ours: str, opponents: Sequence[str], rounds: int
             ) -> List[Game]:
    """Every game of the series: per round, opponent and map, ours in each seat in turn,
    the opponent in all other seats."""
    games: List[Game] = []
    for round_number in range(1, rounds + 1):
        for opponent in opponents:
            for entry in maps:
                for seat in range(1, entry.players + 1):
                    seats = tuple(ours if k == seat else opponent
                                  for k in range(1, entry.players + 1))
                    key = "%d/%s/%s/%d" % (round_number, opponent, entry.name, seat)
                    games.append(Game(key, round_number, opponent, entry, seats, seat))
    return games


def select_games(games: Sequence[Game], patterns: Sequence[str]) -> List[Game]:
    """The games whose key matches one of the shell-style `patterns` (`--list` shows the
    keys); UsageError naming a pattern that matches none, since a typo would otherwise play
    nothing and look like a finished series."""
    for pattern in patterns:
        if not any(fnmatch.fnmatchcase(game.key, pattern) for game in games):
            raise UsageError("argument --only: %r matches no game (--list shows their keys, "
                             "e.g. %s)" % (pattern, games[0].key if games else "none"))
    return [game for game in games
            if any(fnmatch.fnmatchcase(game.key, pattern) for pattern in patterns)]


# --------------------------------------------------------------------------- processes


class Processes:
    """Every child process group the harness started, to stop them all at once (Ctrl-C)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.live: Set["subprocess.Popen[bytes]"] = set()
        self.stopping = False  # after stop_all, games still running start nothing new

    def start(self, words: Sequence[str], cwd: str, log: IO[bytes]) -> "subprocess.Popen[bytes]":
        """Start `words` in its own process group, output to `log`; SetupError when it
        cannot be started."""
        with self.lock:  # so that stop_all cannot miss a process started meanwhile
            if self.stopping:
                raise GameError("stopped before %s started" % words[0])
            try:
                process = subprocess.Popen(list(words), cwd=cwd, stdin=subprocess.DEVNULL,
                                           stdout=log, stderr=subprocess.STDOUT,
                                           start_new_session=(os.name == "posix"))
            except OSError as error:
                raise SetupError("cannot start %s: %s" % (words[0], error.strerror or error)) \
                    from None
            self.live.add(process)
        return process

    def stop(self, process: "subprocess.Popen[bytes]") -> None:
        """Stop `process` and everything it started (SIGTERM, then SIGKILL)."""
        if process.poll() is None:
            signal_group(process, signal.SIGTERM)
            try:
                process.wait(KILL_GRACE)
            except subprocess.TimeoutExpired:
                pass
        # The group may outlive its leader (a shell's children).
        signal_group(process, getattr(signal, "SIGKILL", signal.SIGTERM))
        try:
            process.wait(KILL_GRACE)
        except subprocess.TimeoutExpired:
            pass
        with self.lock:
            self.live.discard(process)

    def stop_all(self) -> None:
        """Stop every process still known, and start no more."""
        with self.lock:
            self.stopping = True
            processes = list(self.live)
        for process in processes:
            self.stop(process)


def signal_group(process: "subprocess.Popen[bytes]", number: int) -> None:
    """Send `number` to the process group of `process` (to the process alone off POSIX)."""
    try:
        if os.name == "posix":
            os.killpg(process.pid, number)
        elif process.poll() is None:
            process.kill()
    except (ProcessLookupError, PermissionError, OSError):
        pass


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


# --------------------------------------------------------------------------- the relay


class Relay:
    """One seat: a local port for its client, and the bytes copied to and from the server."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind((HOST, 0))
        self.listener.listen(1)
        self.port: int = self.listener.getsockname()[1]
        self.client: Optional[socket.socket] = None
        self.server: Optional[socket.socket] = None
        self.threads: List[threading.Thread] = []
        self.group: Optional[int] = None
        self.player: Optional[int] = None  # as message 3 gives it
        self.disqualified: List[int] = []
        self.phase_end = False
        self.end = False
        self.decode_error = ""
        # What the server announced, one line each ("move X Y SPECIAL PLAYER", "disq P",
        # "end of phase 1", "end"): the game's record, seat 1's is written to moves.txt.
        self.events: List[str] = []

    def accept_client(self, process: "subprocess.Popen[bytes]", deadline: float,
                      name: str) -> bytes:
        """Wait for the client's connection and its group number; the bytes it sent.
        GameError when the client exits or the deadline passes first."""
        self.listener.settimeout(0.05)
        while self.client is None:
            try:
                self.client, _ = self.listener.accept()
            except socket.timeout:
                check_alive(process, deadline, "%s (seat %d) did not connect" % (name,
                                                                                  self.seat))
        self.client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.client.settimeout(0.05)
        decoder = Decoder(accept=CLIENT_TYPES, sender="the client")
        received = b""
        while True:
            try:
                data = self.client.recv(4096)
            except socket.timeout:
                check_alive(process, deadline, "%s (seat %d) sent no group number"
                            % (name, self.seat))
                continue
            if not data:
                raise GameError("%s (seat %d) closed its connection before sending its group "
                                "number" % (name, self.seat))
            received += data
            try:
                messages = decoder.feed(data)
            except ReversiError as error:
                raise GameError("%s (seat %d): %s" % (name, self.seat, error)) from None
            if messages:
                first = messages[0]
                if isinstance(first, Group):
                    self.group = first.group
                self.client.settimeout(None)
                return received

    def connect_server(self, port: int, server: "subprocess.Popen[bytes]", deadline: float,
                       first_bytes: bytes) -> None:
        """Take the seat on the server (retrying while it opens its port), then copy bytes
        both ways in two threads."""
        start_deadline = min(deadline, time.monotonic() + SERVER_START)
        while True:
            try:
                self.server = socket.create_connection((HOST, port), timeout=1.0)
                break
            except OSError:
                if server.poll() is not None:
                    raise SetupError("the server exited (code %s) before seating player %d"
                                     % (server.returncode, self.seat)) from None
                if time.monotonic() > start_deadline:
                    raise PortTaken("the server did not open port %d" % port) from None
                time.sleep(0.02)
        self.server.settimeout(None)
        self.server.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.server.sendall(first_bytes)
        assert self.client is not None
        decoder = Decoder()
        self.threads = [
            threading.Thread(target=self.pump, args=(self.client, self.server, None),
                             daemon=True),
            threading.Thread(target=self.pump, args=(self.server, self.client, decoder),
                             daemon=True)]
        for thread in self.threads:
            thread.start()

    def pump(self, source: socket.socket, target: socket.socket,
             decoder: Optional[Decoder]) -> None:
        """Copy `source` to `target` until either side closes; read the server's messages
        after passing them on, so reading costs the client no time."""
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                target.sendall(data)
                if decoder is not None and not self.decode_error:
                    self.observe(decoder, data)
        except OSError:
            pass
        for sock in (target, source):
            try:
                sock.shutdown(socket.SHUT_WR if sock is target else socket.SHUT_RD)
            except OSError:
                pass

    def observe(self, decoder: Decoder, data: bytes) -> None:
        """Note what the server told this seat."""
        try:
            messages = decoder.feed(data)
        except ReversiError as error:
            self.decode_error = str(error)
            return
        for message in messages:
            if isinstance(message, PlayerNumber):
                self.player = message.player
            elif isinstance(message, MoveAnnouncement):
                self.events.append("move %d %d %d %d" % (message.x, message.y, message.special,
                                                         message.player))
            elif isinstance(message, Disqualification):
                self.disqualified.append(message.player)
                self.events.append("disq %d" % message.player)
            elif isinstance(message, EndOfPhase1):
                self.phase_end = True
                self.events.append("end of phase 1")
            elif isinstance(message, EndOfGame):
                self.end = True
                self.events.append("end")

    def close(self) -> None:
        """Close every socket and let the copying threads end."""
        for sock in (self.listener, self.client, self.server):
            if sock is not None:
                try:
                    sock.close()
                except OSError:
                    pass
        for thread in self.threads:
            thread.join(1.0)


def check_alive(process: "subprocess.Popen[bytes]", deadline: float, what: str) -> None:
    """GameError saying `what` when the process has exited or the deadline has passed."""
    if process.poll() is not None:
        raise GameError("%s: it exited with code %s" % (what, process.returncode))
    if time.monotonic() > deadline:
        raise GameError("%s in time" % what)


# --------------------------------------------------------------------------- results


RESULT_LINE = re.compile(r"^\s*(\d+)\t(-?\d+)\t(?:(\d+) msecs|inf)\t(.*)$")


def read_result(path: str, players: int) -> List[Dict[str, Any]]:
    """The server's result file: per player, group, stones, bank_ms (None: no limit) and
    whether disqualified; GameError when it is missing or malformed."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = [line for line in handle.read().splitlines() if line.strip()]
    except OSError:
        raise GameError("the server wrote no result file") from None
    rows: List[Dict[str, Any]] = []
    for line in lines[1:]:
        match = RESULT_LINE.match(line)
        if match is None:
            raise GameError("result file line %r is not group, stones, bank, status" % line)
        group, stones, bank, status = match.groups()
        rows.append({"group": int(group), "stones": int(stones),
                     "bank_ms": int(bank) if bank is not None else None,
                     "status": status.strip(),
                     "disqualified": not status.strip().startswith("ok")})
    if len(rows) != players:
        raise GameError("the result file has %d players, the map %d" % (len(rows), players))
    return rows


def places(rows: Sequence[Dict[str, Any]]) -> List[Optional[int]]:
    """Each player's place (1 = best; equal stones share a place, 1, 2, 2, 4), None for the
    disqualified."""
    stones = [row["stones"] for row in rows if not row["disqualified"]]
    return [None if row["disqualified"] else 1 + sum(1 for s in stones if s > row["stones"])
            for row in rows]


def points(place: Optional[int], placed: Sequence[Optional[int]]) -> float:
    """The points of a player at `place`: 1 shared among all first places, else 0."""
    if place != 1:
        return 0.0
    return 1.0 / sum(1 for p in placed if p == 1)


# Our client's move log ("move 12: (3, 4) depth 7, ...") and ai_trivial's ("STATISTICS DEPTH
# 9" per finished iteration of a move).
OUR_MOVE = re.compile(r"^move \d+: \(\d+, \d+\).* depth (\d+)( \(result proven\))?,")
OUR_PHASE_END = "end of phase 1"
TRIVIAL_MOVE = "CALCULATING MOVE"
TRIVIAL_DEPTH = re.compile(r"STATISTICS DEPTH\s+(\d+)")
TRIVIAL_PHASE_END = "start of bomb phase"


def phase1_depths(text: str) -> List[int]:
    """The search depth of each phase-1 move that finished at least one iteration, in a
    client's output, for the logs we know (reversi-ref client, ai_trivial without -q); []
    for others.  Our moves whose search stopped on a proven result are left out too."""
    # A move with no finished iteration (our client's forced moves log depth 0, as does a
    # search stopped before depth 1) says nothing about how deep the search goes, and
    # neither does one stopped at a shallow depth because the game's result was proven
    # there (ai_trivial never stops early, so it logs such moves at its deepest).
    depths: List[int] = []
    current: Optional[int] = None
    for line in text.splitlines():
        if OUR_PHASE_END in line or TRIVIAL_PHASE_END in line:
            break
        match = OUR_MOVE.match(line)
        if match:
            depth = int(match.group(1))
            if depth and not match.group(2):
                depths.append(depth)
            continue
        if TRIVIAL_MOVE in line:
            if current:
                depths.append(current)
            current = 0
            continue
        match = TRIVIAL_DEPTH.search(line)
        if match and current is not None:
            current = max(current, int(match.group(1)))
    if current:
        depths.append(current)
    return depths


# --------------------------------------------------------------------------- one game


class Settings(NamedTuple):
    """What every game of a series shares."""

    server: List[str]
    players: Dict[str, List[str]]
    ours: str
    log_dir: str
    game_timeout: float
    connect_timeout: float
    keep_dirs: bool


class Played(NamedTuple):
    """What happened to a game's processes: outcome ("ok", "timeout", "error"), the error,
    the relays of the seats that were taken, the clients' exit codes."""

    outcome: str
    error: str
    relays: List[Relay]
    exit_codes: List[Optional[int]]
    port_taken: bool = False


def play_game(game: Game, settings: Settings, processes: Processes) -> Dict[str, Any]:
    """Play one game; its record (SetupError when the series cannot go on)."""
    started = time.monotonic()
    workdir = tempfile.mkdtemp(prefix="reversi-arena-")
    log_dir = os.path.join(settings.log_dir, game.key.replace("/", "_"))
    os.makedirs(log_dir, exist_ok=True)
    try:
        result_path = os.path.join(workdir, "result.txt")
        map_path = game.map.path
        if map_path is None:  # a bundled map: the server reads a file
            map_path = os.path.join(workdir, game.map.name + ".map")
            with open(map_path, "wb") as handle:
                handle.write(game.map.data)
        for _ in range(PORT_ATTEMPTS):
            played = run_processes(game, settings, processes, workdir, log_dir,
                                   {"map": map_path, "result": result_path})
            if not played.port_taken:
                break
        rows: List[Dict[str, Any]] = []
        outcome, error = played.outcome, played.error
        if outcome == "ok":
            try:
                rows = read_result(result_path, game.map.players)
            except GameError as problem:
                outcome, error = "error", str(problem)
    finally:
        if not settings.keep_dirs:
            shutil.rmtree(workdir, ignore_errors=True)
    record: Dict[str, Any] = {
        "key": game.key, "round": game.round, "opponent": game.opponent,
        "map": game.map.name, "map_file": game.map.path or game.map.argument,
        "players": game.map.players, "ours": settings.ours, "ours_seat": game.ours_seat,
        "outcome": outcome, "error": error,
        "seconds": round(time.monotonic() - started, 1), "logs": log_dir,
        "seats": seat_records(game, played, rows, log_dir)}
    if played.relays:
        record["moves"] = sum(1 for line in game_events(played) if line.startswith("move "))
        record["server_sent_end"] = any(relay.end for relay in played.relays)
        check_with_rules(game, played, rows, log_dir, record)
    wrong = [seat["seat"] for seat in record["seats"]
             if seat["player_number"] is not None and seat["player_number"] != seat["seat"]]
    if wrong and outcome == "ok":
        record["outcome"] = "error"
        record["error"] = "the server gave seat(s) %s other player numbers" % wrong
    if record["outcome"] == "ok":
        ours = record["seats"][game.ours_seat - 1]
        record["points"] = ours["points"]
        record["result"] = ("win" if ours["points"] == 1.0 else
                            "draw" if ours["points"] > 0 else "loss")
    return record


def run_processes(game: Game, settings: Settings, processes: Processes, workdir: str,
                  log_dir: str, values: Dict[str, str]) -> Played:
    """Start the server, then seat by seat a client and its relay; wait for the end."""
    deadline = time.monotonic() + settings.game_timeout
    port = free_port()
    relays: List[Relay] = []
    started: List["subprocess.Popen[bytes]"] = []
    clients: List["subprocess.Popen[bytes]"] = []
    logs: List[IO[bytes]] = []
    outcome, error = "ok", ""
    codes: List[Optional[int]] = []
    port_taken = False

    def log_file(path: str) -> IO[bytes]:
        handle = open(path, "wb")
        logs.append(handle)
        return handle

    # The server prints every board (megabytes on a 50x50 map): only its end is kept.
    server_output = os.path.join(workdir, "server-output.txt")
    try:
        server = processes.start(fill(settings.server, dict(values, port=str(port))),
                                 workdir, log_file(server_output))
        started.append(server)
        for seat, name in enumerate(game.seats, 1):
            relay = Relay(seat)
            relays.append(relay)
            words = fill(settings.players[name], {"port": str(relay.port), "host": HOST,
                                                  "seat": str(seat), "name": name})
            client = processes.start(words, os.getcwd(), log_file(
                os.path.join(log_dir, "seat%d-%s.log" % (seat, name))))
            started.append(client)
            clients.append(client)
            first = relay.accept_client(
                client, min(deadline, time.monotonic() + settings.connect_timeout), name)
            relay.connect_server(port, server, deadline, first)
        while server.poll() is None:
            if time.monotonic() > deadline:
                outcome = "timeout"
                error = "the game ran past --game-timeout %gs" % settings.game_timeout
                break
            time.sleep(0.05)
        # After the server's end the clients leave on their own; after a timeout, not.
        grace = time.monotonic() + (CLIENT_EXIT if outcome == "ok" else 0.0)
        for client in clients:
            try:
                client.wait(max(0.0, grace - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            codes.append(client.poll())
    except GameError as problem:
        outcome, error = "error", str(problem)
        port_taken = isinstance(problem, PortTaken)
    except SetupError as problem:
        for handle in logs:
            handle.flush()
        said = read_text(server_output).strip().splitlines()
        if not (said and ADDRESS_IN_USE in said[-1]):
            raise SetupError("%s (map %s)%s" % (problem, game.map.path or game.map.argument,
                                                ": " + said[-1].strip() if said else "")) from None
        # The server exited because its port was taken: the same race as PortTaken's.
        outcome, error = "error", "the server could not open port %d: %s" % (
            port, said[-1].strip())
        port_taken = True
    finally:
        for process in started:
            processes.stop(process)
        for relay in relays:
            relay.close()
        for handle in logs:
            handle.close()
        copy_tail(server_output, os.path.join(log_dir, "server.log"), SERVER_LOG_TAIL)
    played = Played(outcome, error, relays, codes, port_taken)
    if relays:
        with open(os.path.join(log_dir, "moves.txt"), "w", encoding="utf-8") as moves:
            moves.write("".join(line + "\n" for line in game_events(played)))
    return played


def game_events(played: Played) -> List[str]:
    """The game's announcements as the relays noted them: the longest seat's list, since the
    server stops writing to a disqualified client (RULES.md 6) and every seat hears the same."""
    return max((relay.events for relay in played.relays), key=len, default=[])


def check_with_rules(game: Game, played: Played, rows: Sequence[Dict[str, Any]],
                     log_dir: str, record: Dict[str, Any]) -> None:
    """Replay the announced moves through the readable rules (`arenatrace`): the verdict
    and the stones at the end of phase 1 go into `record`, the trace to `trace.json`."""
    result = [int(row["stones"]) for row in rows] if rows else None
    try:
        replay = replay_events(decode_map_bytes(game.map.data), game_events(played), result)
        write_trace(replay, os.path.join(log_dir, "trace.json"))
    except Exception as error:  # the game's result must still be written (an hour's game)
        record["rules"] = "not checked: %s: %s" % (type(error).__name__, error)
        return
    record["rules"] = "agree" if not replay.problem else "disagree: " + replay.problem
    if replay.phase1_stones is not None:
        for seat in record["seats"]:
            seat["phase1_stones"] = replay.phase1_stones[seat["seat"] - 1]


def seat_records(game: Game, played: Played, rows: Sequence[Dict[str, Any]], log_dir: str
                 ) -> List[Dict[str, Any]]:
    """Per seat: the player, the number the server gave it, the result file's row, place,
    points, exit code and mean phase-1 depth from its log."""
    placed = places(rows) if rows else []
    seats: List[Dict[str, Any]] = []
    for index, name in enumerate(game.seats):
        relay = played.relays[index] if index < len(played.relays) else None
        seat: Dict[str, Any] = {
            "seat": index + 1, "name": name,
            "player_number": relay.player if relay is not None else None,
            "disqualified_by_message": any(index + 1 in r.disqualified for r in played.relays),
            "exit_code": (played.exit_codes[index] if index < len(played.exit_codes)
                          else None)}
        if rows:
            seat.update(rows[index])
            seat["place"] = placed[index]
            seat["points"] = points(placed[index], placed)
        depths = phase1_depths(read_text(os.path.join(log_dir, "seat%d-%s.log"
                                                      % (index + 1, name))))
        seat["phase1_moves_with_depth"] = len(depths)
        seat["phase1_depth"] = round(sum(depths) / len(depths), 2) if depths else None
        seats.append(seat)
    return seats


def copy_tail(source: str, target: str, size: int) -> None:
    """Copy the last `size` bytes of `source` (if it exists) to `target`."""
    try:
        with open(source, "rb") as handle:
            handle.seek(max(0, os.path.getsize(source) - size))
            data = handle.read()
    except OSError:
        return
    with open(target, "wb") as out:
        out.write(data)


def read_text(path: str) -> str:
    """A log file's text ('' when missing)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return ""


# --------------------------------------------------------------------------- the series


def read_done(path: str) -> Dict[str, Dict[str, Any]]:
    """The records already in `path`, by key (a torn last line is ignored)."""
    done: Dict[str, Dict[str, Any]] = {}
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                if isinstance(record, dict) and "key" in record:
                    done[str(record["key"])] = record
    except FileNotFoundError:
        pass
    except OSError as error:
        raise SetupError("--out %s: %s" % (path, error.strerror or error)) from None
    return done


def run_series(games: Sequence[Game], settings: Settings, out_path: str, resume: bool,
               jobs: int, progress: IO[str]) -> List[Dict[str, Any]]:
    """Play the games not yet in `out_path`, appending one line per game as it ends; all
    records of the series, in schedule order."""
    done = read_done(out_path) if resume else {}
    # A game the harness could not play ("error") is played again; a timeout is a result.
    todo = [game for game in games
            if game.key not in done or done[game.key].get("outcome") == "error"]
    processes = Processes()
    records = dict(done)
    counter = [len(games) - len(todo)]
    torn = (resume and os.path.isfile(out_path) and os.path.getsize(out_path) > 0
            and not ends_with_newline(out_path))
    with open(out_path, "a" if resume else "w", encoding="utf-8") as out:
        if torn:
            out.write("\n")  # after a line cut short, so that the next record is whole
        try:
            if jobs <= 1:
                for game in todo:
                    finish(play_game(game, settings, processes), out, records, progress,
                           counter, len(games))
            else:
                with ThreadPoolExecutor(jobs) as pool:
                    pending: Set["Future[Dict[str, Any]]"] = {
                        pool.submit(play_game, game, settings, processes) for game in todo}
                    try:
                        while pending:
                            finished, pending = wait(pending, timeout=0.5,
                                                     return_when=FIRST_COMPLETED)
                            for future in finished:
                                finish(future.result(), out, records, progress, counter,
                                       len(games))
                    except BaseException:
                        for future in pending:
                            future.cancel()
                        processes.stop_all()
                        raise
        finally:
            processes.stop_all()
    return [records[game.key] for game in games if game.key in records]


def ends_with_newline(path: str) -> bool:
    """Whether the file at `path` ends with a newline."""
    with open(path, "rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) == b"\n"


def finish(record: Dict[str, Any], out: IO[str], records: Dict[str, Dict[str, Any]],
           progress: IO[str], counter: List[int], total: int) -> None:
    """Write a finished game's line at once and print one progress line."""
    out.write(json.dumps(record, sort_keys=True) + "\n")
    out.flush()
    records[record["key"]] = record
    counter[0] += 1
    number = counter[0]
    failed_before = counter[1] if len(counter) > 1 else 0
    counter[1:] = [failed_before + 1 if record["outcome"] == "error" else 0]
    if record["outcome"] == "ok":
        stones = "-".join(str(seat.get("stones")) for seat in record["seats"])
        order = ",".join(seat["name"] for seat in record["seats"])
        text = "%s %s (%s) %g point%s" % (record.get("result"), stones, order,
                                          record["points"], "" if record["points"] == 1 else "s")
    else:
        text = "%s: %s" % (record["outcome"], record["error"])
    if str(record.get("rules", "agree")) != "agree":
        text += "; the rules %s" % record["rules"]
    print("[%d/%d] %s: %s (%.0f s)" % (number, total, record["key"], text,
                                        record["seconds"]), file=progress)
    progress.flush()
    if counter[1] >= ERRORS_IN_A_ROW:
        raise SetupError("%d games in a row could not be played, the last: %s (logs in %s)"
                         % (counter[1], record["error"], record["logs"]))


# --------------------------------------------------------------------------- the summary


class Tally:
    """Points and results of one row of the table."""

    def __init__(self) -> None:
        self.games = 0
        self.points = 0.0
        self.wins = self.draws = self.losses = 0
        self.disq_ours = self.disq_theirs = self.failed = 0
        self.depth_ours: List[float] = []
        self.depth_theirs: List[float] = []
        self.bank_ours: List[int] = []

    def add(self, record: Dict[str, Any]) -> None:
        """Count one game."""
        if record.get("outcome") != "ok":
            self.failed += 1
            return
        self.games += 1
        self.points += record["points"]
        result = record["result"]
        self.wins += result == "win"
        self.draws += result == "draw"
        self.losses += result == "loss"
        for seat in record["seats"]:
            is_ours = seat["seat"] == record["ours_seat"]
            if seat.get("disqualified"):
                if is_ours:
                    self.disq_ours += 1
                else:
                    self.disq_theirs += 1
            if is_ours and seat.get("bank_ms") is not None:
                self.bank_ours.append(seat["bank_ms"])
            if seat.get("phase1_depth") is not None:
                (self.depth_ours if is_ours else self.depth_theirs).append(
                    seat["phase1_depth"])

    def row(self, label: str) -> str:
        """One line of the table."""
        rate = "%5.1f%%" % (100.0 * self.points / self.games) if self.games else "    - "
        return "%-34s %5d %7.1f %s %4d %4d %4d %5s %5s %6s %6s %6s %4s" % (
            label, self.games, self.points, rate, self.wins, self.draws, self.losses,
            self.disq_ours, self.disq_theirs, mean_text(self.depth_ours),
            mean_text(self.depth_theirs),
            min(self.bank_ours) if self.bank_ours else "-", self.failed or "")


def mean_text(values: Sequence[float]) -> str:
    """The mean as text with one decimal, or '-'."""
    return "%.1f" % (sum(values) / len(values)) if values else "-"


HEADER = "%-34s %5s %7s %6s %4s %4s %4s %5s %5s %6s %6s %6s %4s" % (
    "map seat/players", "games", "points", "rate", "win", "draw", "loss", "disqU",
    "disqT", "depthU", "depthT", "bankU", "fail")


def summary(records: Sequence[Dict[str, Any]], ours: str,
            sprt: Optional[Tuple[float, float]]) -> List[str]:
    """The table per opponent, map and seat, with totals; Elo (and an SPRT) for the
    two-player games paired by round and map."""
    lines: List[str] = []
    for opponent in sorted({str(r["opponent"]) for r in records}):
        mine = [r for r in records if r["opponent"] == opponent]
        lines.append("")
        lines.append("%s (U) against %s (T), per map and seat of U" % (ours, opponent))
        lines.append("(points: first place 1, shared when tied; win: first alone; draw: first "
                     "shared; depth: mean phase-1 depth;")
        lines.append(" bankU: U's lowest bank left at the end, ms; fail: timeouts and errors, "
                     "not counted in points)")
        lines.append(HEADER)
        total = Tally()
        for name in sorted({str(r["map"]) for r in mine}):
            for seat in sorted({int(r["ours_seat"]) for r in mine if r["map"] == name}):
                tally = Tally()
                for record in mine:
                    if record["map"] == name and record["ours_seat"] == seat:
                        tally.add(record)
                players = next(r["players"] for r in mine if r["map"] == name)
                lines.append(tally.row("%s %d/%d" % (name, seat, players)))
        two, more = Tally(), Tally()
        for record in mine:
            total.add(record)
            (two if record["players"] == 2 else more).add(record)
        if two.games + two.failed and more.games + more.failed:
            lines.append(two.row("total, 2 players"))
            lines.append(more.row("total, 3-8 players"))
        lines.append(total.row("total"))
        lines.extend(first_place_summary(more))
        lines.extend(pair_summary(mine, sprt))
    lines.extend(rules_summary(records))
    return lines


def rules_summary(records: Sequence[Dict[str, Any]]) -> List[str]:
    """How many games' announced moves the readable rules replayed without a difference,
    and each game where they differed (`arenatrace`)."""
    checked = [r for r in records if "rules" in r]
    if not checked:
        return []
    others = [r for r in checked if r["rules"] != "agree"]
    differ = sum(1 for r in others if str(r["rules"]).startswith("disagree"))
    verdict = "all agree"
    if others:
        verdict = "%d differ" % differ
        if len(others) > differ:
            verdict += ", %d not checked" % (len(others) - differ)
    lines = ["", "rules: the server's moves replayed through reversi-ref's rules in %d game%s: "
             "%s" % (len(checked), "" if len(checked) == 1 else "s", verdict)]
    for record in others:
        lines.append("  %s: %s (trace: %s)" % (record["key"], record["rules"],
                                               os.path.join(record["logs"], "trace.json")))
    return lines


def first_place_summary(more: Tally) -> List[str]:
    """The share of the games with three or more players that ours ended first in, alone or
    shared, with its Wilson interval (the issue-23 bar is a share of first places)."""
    if not more.games:
        return []
    firsts = more.wins + more.draws
    low, high = wilson_interval(firsts, more.games)
    return ["3-8 players: first place (alone or shared) in %d of %d games, %.1f%% "
            "[%.1f%%, %.1f%%] (Wilson 95%%)" % (firsts, more.games, 100.0 * firsts / more.games,
                                              100.0 * low, 100.0 * high)]


def pair_summary(records: Sequence[Dict[str, Any]], sprt: Optional[Tuple[float, float]]
                 ) -> List[str]:
    """Logistic Elo of ours over the two-player games, paired (same round and map, both
    seats), with the SPRT verdict when asked for."""
    pairs: Dict[Tuple[int, str], List[float]] = {}
    for record in records:
        if record.get("outcome") == "ok" and record["players"] == 2:
            pairs.setdefault((record["round"], record["map"]), []).append(record["points"])
    test = Sprt(*sprt) if sprt is not None else Sprt(0.0, 1.0)  # bounds unused without sprt
    for scores in pairs.values():
        if len(scores) == 2:
            test.add(sum(scores))
    counts = test.counts
    if not sum(counts):
        return []
    elo, low, high = (round(value) + 0 for value in elo_interval(counts))  # no "-0"
    lines = ["two-player pairs %d, pentanomial %s: Elo %+.0f [%+.0f, %+.0f] (95%%)"
             % (sum(counts), " ".join(str(c) for c in counts), elo, low, high)]
    if sprt is not None:
        lines.extend(test.report()[:2])
    return lines


# --------------------------------------------------------------------------- the command


def run_arena(args: argparse.Namespace) -> int:
    """`reversi-ref arena`: play the series, write the records, print the table."""
    server = parse_template(args.server, "argument --server", SERVER_KEYS, SERVER_REQUIRED)
    players: Dict[str, List[str]] = {}
    for name, command in args.player:
        if name in players:
            raise UsageError("argument --player: %s is given twice" % name)
        players[name] = parse_template(command, "argument --player %s" % name, PLAYER_KEYS,
                                       PLAYER_REQUIRED)
    if args.ours not in players:
        raise UsageError("argument --ours: no --player named %s (given: %s)"
                         % (args.ours, ", ".join(players) or "none"))
    opponents = [name for name in args.against.split(",") if name]
    for name in opponents:
        if name not in players:
            raise UsageError("argument --against: no --player named %s (given: %s)"
                             % (name, ", ".join(players)))
        if name == args.ours:
            raise UsageError("argument --against: %s is also --ours" % name)
    if not opponents:
        raise UsageError("argument --against: name at least one --player")
    sprt = None
    if args.sprt is not None:
        try:
            sprt = parse_sprt(args.sprt)
            Sprt(*sprt)
        except ValueError as error:
            raise UsageError("argument --sprt: %s" % error) from None
    check_program(server, "--server")
    # A shell started in the background hands its children SIGINT ignored; an arena run stops
    # its games on Ctrl-C whatever it inherited (cli.main turns the interrupt into exit 130).
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)
    for name in [args.ours] + opponents:
        check_program(players[name], "--player %s" % name)
    maps = load_maps(expand_maps(args.maps, args.map_dir))
    games = schedule(maps, args.ours, opponents, args.passes)
    if args.only:
        games = select_games(games, args.only)
    if args.list:
        for game in games:
            print("%s\t%s" % (game.key, ",".join(game.seats)))
        print("%d games" % len(games))
        return 0
    if args.jobs > 1:
        print("reversi-ref arena: warning: %d games at a time share the processor cores, "
              "which distorts timed games" % args.jobs, file=sys.stderr)
    if not args.resume and os.path.isfile(args.out) and os.path.getsize(args.out) > 0:
        raise UsageError("argument --out: %s already holds games; give --resume to go on with "
                         "them, or another file" % args.out)
    log_dir = args.logs or args.out + ".logs"
    try:
        os.makedirs(log_dir, exist_ok=True)
    except OSError as error:
        raise SetupError("--logs %s: %s" % (log_dir, error.strerror or error)) from None
    settings = Settings(server, players, args.ours, os.path.abspath(log_dir),
                        args.game_timeout, args.connect_timeout, args.keep_dirs)
    with sigterm_as_interrupt():
        records = run_series(games, settings, args.out, args.resume, args.jobs, sys.stderr)
    for line in summary(records, args.ours, sprt):
        print(line)
    return 0


def register(subparsers: Any) -> None:
    """Add the `arena` subcommand."""
    parser = subparsers.add_parser(
        "arena", help="play series of games between external programs on a server",
        description="Play every seat rotation of each map between programs started from "
                    "command templates, on a server started from one (the official "
                    "server_nogl or reversi-ref serve), one game at a time; each client "
                    "holds its seat before the next one starts.")
    parser.add_argument("--server", required=True, metavar="COMMAND",
                        help="server command with {map}, {port} and {result}, run in a fresh "
                             "temporary directory per game, e.g. "
                             "'server_nogl -m {map} -p {port} -t 1 -C -r {result}'")
    parser.add_argument("--player", action="append", type=player_option, default=[],
                        required=True, metavar="NAME=COMMAND",
                        help="a client command with {port} (and optionally {host}, {seat}, "
                             "{name}), run in the current directory; repeat for each player")
    parser.add_argument("--ours", required=True, metavar="NAME",
                        help="the --player whose points are counted")
    parser.add_argument("--against", required=True, metavar="NAME[,NAME...]",
                        help="opponents; each plays its own series, in every seat but ours")
    parser.add_argument("--maps", nargs="+", required=True, metavar="MAP",
                        help="map files, globs, bundled map names, or @FILE listing them "
                             "(one a line, # comments)")
    parser.add_argument("--map-dir", metavar="DIR",
                        help="directory of relative map entries (default: current directory)")
    parser.add_argument("--passes", type=int_range(1), default=1, metavar="K",
                        help="play every game K times (default 1)")
    parser.add_argument("--out", type=output_file, required=True, metavar="FILE",
                        help="JSON lines, one per game, written as each game ends")
    parser.add_argument("--resume", action="store_true",
                        help="keep --out and skip the games already in it")
    parser.add_argument("--logs", metavar="DIR",
                        help="per-game logs of server and clients (default: FILE.logs)")
    parser.add_argument("--jobs", type=int_range(1, 64), default=1, metavar="N",
                        help="games at a time (default 1; more distorts timed games)")
    parser.add_argument("--game-timeout", type=positive_float, default=10800.0,
                        metavar="SECONDS",
                        help="stop a game (all its processes) after this long (default 10800)")
    parser.add_argument("--connect-timeout", type=positive_float, default=60.0,
                        metavar="SECONDS",
                        help="time for a client to connect and send its group number "
                             "(default 60)")
    parser.add_argument("--keep-dirs", action="store_true",
                        help="keep each game's temporary server directory")
    parser.add_argument("--only", nargs="+", metavar="PATTERN",
                        help="play only the games whose key (round/opponent/map/our seat, as "
                             "--list prints it) matches one of these shell-style patterns, "
                             "e.g. '*/fightclub__map/3'")
    parser.add_argument("--list", action="store_true",
                        help="print the games (key, players by seat) without playing them")
    parser.add_argument("--sprt", metavar="ELO0,ELO1",
                        help="also test the two-player pairs against these Elo bounds")
    parser.set_defaults(func=run_arena)
