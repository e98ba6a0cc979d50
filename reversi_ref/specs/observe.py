"""Games observed on the official server: a recorder and a checker.

The recorder starts a locally supplied `server_nogl` on 127.0.0.1, connects one raw-socket
client per seat and plays seeded random moves (mostly legal ones found with our rules, now and
then an invalid one that gets its sender disqualified).  It keeps what the server decided: the
moves it announced (message 6), the disqualifications (message 7), who it asked next (message
4), the end of phase 1 (message 8), and, from its standard output, the board after each step,
the cells it marked as legal, the counts in hand it printed and the scores.  Each game becomes
one JSON object (format in `specs/observed/README.md`).

The checker replays a recorded game through the readable rules and lists every disagreement.

    python3 -m reversi_ref.specs.observe --server PATH/server_nogl --out FILE \
        [--seed N] [--games N] [--check] [--keep DIR] MAP...
    python3 -m reversi_ref.specs.observe --stats --out FILE

A MAP is a map file, or `gen:SEED` for `random_map_text(random.Random(SEED))`.  `--check`
replays each game as it is recorded, `--keep` saves the server's output, `--stats` says what a
recorded file covers.  Nothing here is
needed by the tests except `check_game`, which only reads recorded JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import select
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..errors import IllegalMoveError, MapError, ProtocolError
from ..geometry import BONUS, CHOICE, HOLE
from ..mapfile import read_map
from ..protocol import (Decoder, Disqualification, EndOfGame, EndOfPhase1, Group, MapText,
                        Message, MoveAnnouncement, MoveRequest, PlayerNumber, encode)
from ..rules import disqualify, initial_state, legal_moves, play, printed_scores
from ..state import BOMB, BUILD, OVER, GameState, Move

JSONObject = Dict[str, Any]

# Ports this recorder may use (the official server tries the next 8 when one is busy).
PORT_LOW = 19000
PORT_HIGH = 19999
HOST = "127.0.0.1"

# Seconds: clients must connect within CONNECT_WAIT (the server's -z); a whole game within
# GAME_DEADLINE; the server must exit within EXIT_WAIT once the game is over.
CONNECT_WAIT = 10
GAME_DEADLINE = 60.0
EXIT_WAIT = 5.0

# Format version of a recorded game.
FORMAT = 1


# =========================================================================== choosing moves


def bad_building_answer(state: GameState, rng: random.Random) -> Tuple[Move, str]:
    """An invalid phase-1 answer for the player to move, and which kind it is."""
    player = state.to_move
    width, height = state.width, state.height
    kind = rng.choice(["off-board", "illegal target", "bad special", "bad special"])
    legal = legal_moves(state)
    if kind == "bad special" and legal:
        # Mostly on a choice or bonus tile, whose special bytes have their own rules.
        tiles = [move for move in legal if state.cell(move.x, move.y) in (CHOICE, BONUS)]
        target = rng.choice(tiles if tiles and rng.random() < 0.7 else legal)
        cell = state.cell(target.x, target.y)
        if cell == CHOICE:
            wrong = [0, 20] + list(range(state.players + 1, 9))
        elif cell == BONUS:
            wrong = [0, 1, 19, 22]
        else:
            wrong = [1, 2, 20, 21, 255]
        return Move(target.x, target.y, rng.choice(wrong)), kind
    if kind == "illegal target" and player is not None:
        targets = {(move.x, move.y) for move in legal}
        others = [(x, y) for y in range(height) for x in range(width) if (x, y) not in targets]
        if others:
            x, y = rng.choice(others)
            return Move(x, y, 0), kind
    if rng.random() < 0.5:
        return Move(width + rng.randrange(3), rng.randrange(height), 0), "off-board"
    return Move(rng.randrange(width), rng.choice([height, 65535]), 0), "off-board"


def bad_bomb_answer(state: GameState, rng: random.Random) -> Tuple[Move, str]:
    """An invalid phase-2 answer: a hole when there is one, else a cell off the board."""
    holes = [(x, y) for y in range(state.height) for x in range(state.width)
             if state.cell(x, y) == HOLE]
    if holes and rng.random() < 0.7:
        x, y = rng.choice(holes)
        return Move(x, y, 0), "hole"
    return Move(state.width + rng.randrange(2), rng.randrange(state.height), 0), "off-board"


def good_answer(state: GameState, rng: random.Random) -> Move:
    """A legal move: on a special tile half of the time when there is one, rarely an override
    move when another is possible; a bomb now and then carries a non-zero special byte."""
    moves = legal_moves(state)
    if state.phase == BOMB:
        move = rng.choice(moves)
        if rng.random() < 0.15:
            return Move(move.x, move.y, rng.choice([1, 20, 21]))
        return move
    special = [move for move in moves if state.cell(move.x, move.y) in "cib"]
    if special and rng.random() < 0.5:
        return rng.choice(special)
    # Override moves now and then only, so that maps with many override stones still end.
    free = [move for move in moves if state.cell(move.x, move.y) in "0cib"]
    if free and rng.random() < 0.85:
        return rng.choice(free)
    return rng.choice(moves)


def choose_answer(state: Optional[GameState], rng: random.Random,
                  bad_rate: float) -> Tuple[Move, Optional[str]]:
    """The answer to a move request on `state` (None if we lost track): a legal move, or with
    probability `bad_rate` an invalid one, named by its kind."""
    if state is None or state.to_move is None or not legal_moves(state):
        return Move(65535, 65535, 0), "untracked"
    if rng.random() < bad_rate:
        if state.phase == BOMB:
            return bad_bomb_answer(state, rng)
        return bad_building_answer(state, rng)
    return good_answer(state, rng), None


# =========================================================================== one client


class Seat:
    """One raw-socket client: its connection, the messages it got, the state it tracks."""

    def __init__(self, sock: socket.socket, game_map_text: str) -> None:
        self.sock = sock
        self.decoder = Decoder()
        self.player = 0
        self.map_text = game_map_text
        self.state: Optional[GameState] = None
        # Broadcasts seen (6, 7, 8, 9 as ("move", x, y, special, player), ("disq", player), ...).
        self.broadcasts: List[Tuple[Any, ...]] = []
        # (number of broadcasts seen, time bank) at each move request this seat got.
        self.requests: List[Tuple[int, int]] = []
        # What this seat answered: (number of broadcasts seen, move, kind of bad answer).
        self.answers: List[Tuple[int, Move, Optional[str]]] = []
        self.closed = False

    def track(self, update: str, *args: int) -> None:
        """Apply a broadcast to the tracked state; lose track (None) if our rules refuse it."""
        if self.state is None:
            return
        try:
            if update == "move":
                self.state = play(self.state, Move(args[0], args[1], args[2]))
            elif update == "disq":
                self.state = disqualify(self.state, args[0])
        except (IllegalMoveError, ValueError):
            self.state = None

    def handle(self, message: Message, rng: random.Random, bad_rate: float) -> None:
        """React to one message from the server."""
        if isinstance(message, MapText):
            try:
                self.state = initial_state(read_map(message.text))
            except MapError:
                self.state = None
        elif isinstance(message, PlayerNumber):
            self.player = message.player
        elif isinstance(message, MoveRequest):
            self.requests.append((len(self.broadcasts), message.time_ms))
            state = self.state
            if state is not None and state.to_move != self.player:
                state = None  # our rules would ask someone else: answer blindly
            move, bad = choose_answer(state, rng, bad_rate)
            self.answers.append((len(self.broadcasts), move, bad))
            payload = struct.pack(">HHB", move.x, move.y, move.special)
            self.sock.sendall(struct.pack(">BI", 5, len(payload)) + payload)
        elif isinstance(message, MoveAnnouncement):
            self.broadcasts.append(("move", message.x, message.y, message.special,
                                    message.player))
            self.track("move", message.x, message.y, message.special)
        elif isinstance(message, Disqualification):
            self.broadcasts.append(("disq", message.player))
            self.track("disq", message.player)
        elif isinstance(message, EndOfPhase1):
            self.broadcasts.append(("end1",))
        elif isinstance(message, EndOfGame):
            self.broadcasts.append(("end",))
            self.closed = True


# =========================================================================== the server


def free_port(rng: random.Random) -> int:
    """A port in PORT_LOW..PORT_HIGH that nothing listens on now (9 in a row, as the server
    may move up to 8 further)."""
    for _ in range(200):
        base = rng.randrange(PORT_LOW, PORT_HIGH - 8)
        if all(_is_port_free(base + k) for k in range(9)):
            return base
    raise OSError("no free port in %d..%d" % (PORT_LOW, PORT_HIGH))


def _is_port_free(port: int) -> bool:
    """Whether `port` can be bound on HOST now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((HOST, port))
        except OSError:
            return False
    return True


def server_version(server: str) -> str:
    """The version string `server -v` prints ("SS2009-svn-r"), or "" if it prints none."""
    try:
        done = subprocess.run([server, "-v"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=EXIT_WAIT, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    found = re.search(r"version\s+(\S+)", done.stdout.decode("ascii", "replace"))
    return found.group(1) if found else ""


def connect(port: int, deadline: float) -> Optional[socket.socket]:
    """A connection to the server on `port`, retried until `deadline`; None if it never came."""
    while time.monotonic() < deadline:
        try:
            return socket.create_connection((HOST, port), timeout=1.0)
        except OSError:
            time.sleep(0.05)
    return None


def quick_ack(sock: socket.socket) -> None:
    """Acknowledge at once (Linux): the server's small writes are not held back by Nagle's
    algorithm waiting for our delayed acknowledgement."""
    option = getattr(socket, "TCP_QUICKACK", None)
    if option is not None:
        sock.setsockopt(socket.IPPROTO_TCP, option, 1)


def stop(process: "subprocess.Popen[bytes]") -> None:
    """End the server: wait a little for it to exit by itself, then kill it."""
    try:
        process.wait(timeout=EXIT_WAIT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=EXIT_WAIT)


# =========================================================================== server output


ROW = re.compile(r"^\s*(\d+) \| ?(.*)$")
STATUS = re.compile(r"Player (\d+) has (\d+) overrides and (\d+) bombs\.")
REQUEST = re.compile(r"Sending move request to player (\d+)")
ANSWER = re.compile(r"Answer from player (\d+) for move (\d+) was \(x,y,c\) = "
                    r"\((\d+),(\d+),(\d+)\)")
DISQUALIFIED = re.compile(r"^Player (\d+) disqualified \((.*)\)\.?$")
VALID = re.compile(r"^valid positions: (\d+)")
SCORE = re.compile(r"^Player (\d+): (.*)$")
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # colour codes (-C leaves them on warnings)
STAMP = re.compile(r"^\[\d\d:\d\d:\d\d\] ")
HEADER = re.compile(r"^[\d ]*$")  # column numbers above a board, or a blank line


def parse_board(lines: List[str]) -> Tuple[List[str], List[List[int]]]:
    """Rows of cell characters and the cells marked legal (`'` after a cell) of a printed
    board, given its row lines."""
    rows: List[str] = []
    marked: List[List[int]] = []
    for y, line in enumerate(lines):
        found = ROW.match(line)
        body = found.group(2) if found else ""
        rows.append(body[0::2].rstrip())
        for x, mark in enumerate(body[1::2]):
            if mark == "'":
                marked.append([x, y])
    return rows, marked


def parse_output(text: str) -> List[JSONObject]:
    """The server's standard output as a list of events, in order.

    Kinds: `start`, `board` (rows, marked), `status` (player, overrides, bombs), `request`
    (player), `answer` (player, x, y, special), `invalid` (player, why), `end1` (scores),
    `scores` (scores, after: "Terminal" at the end of phase 1 or "Final"), `line` (any other
    line, time stamp removed).
    """
    events: List[JSONObject] = []
    lines = text.splitlines()
    index = 0
    scores_for: Optional[JSONObject] = None
    ending = ""  # "Terminal" (end of phase 1) or "Final", the last such line printed
    while index < len(lines):
        line = STAMP.sub("", ANSI.sub("", lines[index]))
        index += 1
        if ROW.match(line):
            block = [line]
            while index < len(lines) and ROW.match(lines[index]):
                block.append(lines[index])
                index += 1
            rows, marked = parse_board(block)
            events.append({"kind": "board", "rows": rows, "marked": marked})
            continue
        if HEADER.match(line) or line.strip().startswith("/-"):
            continue
        if VALID.match(line):
            continue
        found = STATUS.search(line)
        if found:
            events.append({"kind": "status", "player": int(found.group(1)),
                           "overrides": int(found.group(2)), "bombs": int(found.group(3))})
            continue
        found = REQUEST.search(line)
        if found:
            events.append({"kind": "request", "player": int(found.group(1))})
            continue
        found = ANSWER.search(line)
        if found:
            p, _, x, y, c = (int(g) for g in found.groups())
            events.append({"kind": "answer", "player": p, "x": x, "y": y, "special": c})
            continue
        found = DISQUALIFIED.match(line)
        if found:
            events.append({"kind": "invalid", "player": int(found.group(1)),
                           "why": found.group(2)})
            continue
        if line.startswith("Scores"):
            scores_for = {}
            events.append({"kind": "scores", "scores": scores_for, "after": ending})
            continue
        found = SCORE.match(line)
        if found and scores_for is not None:
            value = found.group(2)
            points = re.match(r"(\d+)", value)
            scores_for[found.group(1)] = int(points.group(1)) if points else value
            continue
        scores_for = None
        if line.startswith(("Terminal state", "Final state")):
            ending = line.split()[0]
        if line.startswith("Game started"):
            events.append({"kind": "start"})
            continue
        events.append({"kind": "line", "text": line.strip()})
    return events


# =========================================================================== one game


def game_seed(label: str, seed: int) -> int:
    """The seed of a game's random choices: `seed` mixed with the map's label, so that games
    on different maps with the same --seed differ (no use of hash(), which varies per run)."""
    value = seed
    for char in label:
        value = (value * 131 + ord(char)) % 1000000007
    return value


def record_game(server: str, map_text: str, seed: int, label: str,
                version: str = "", keep: Optional[Path] = None,
                bad_rate: Optional[float] = None) -> JSONObject:
    """Play one game on the official server and return its record (see the module docstring);
    with `keep`, the server's output is also saved in that file.  The chance of an invalid
    answer is `bad_rate`, or drawn from the seed when None.

    Raises OSError when the server cannot be started or reached.
    """
    rng = random.Random(game_seed(label, seed))
    drawn = rng.choice([0.0, 0.0, 0.0, 0.02, 0.05, 0.1, 0.25])
    bad_rate = drawn if bad_rate is None else bad_rate
    game_map = read_map(map_text)
    with tempfile.TemporaryDirectory(prefix="observe-") as folder:
        map_path = os.path.join(folder, "game.map")
        out_path = os.path.join(folder, "server.out")
        with open(map_path, "w", encoding="ascii", newline="") as handle:
            handle.write(map_text)
        port = free_port(rng)
        with open(out_path, "wb") as out:
            process = subprocess.Popen(
                [server, "-m", map_path, "-C", "-p", str(port), "-z", str(CONNECT_WAIT)],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                cwd=folder)  # it writes a log_game_*.txt file into its working directory
        seats: List[Seat] = []
        try:
            seats = play_seats(process, port, game_map.players, map_text, rng, bad_rate)
        finally:
            for seat in seats:
                seat.sock.close()
            if process.poll() is None:
                stop(process)
        with open(out_path, "rb") as out:
            output = out.read().decode("ascii", "replace")
    if keep is not None:
        keep.write_text(output, encoding="ascii", errors="replace")
    return build_record(map_text, seed, label, version, bad_rate, seats, output)


def play_seats(process: "subprocess.Popen[bytes]", port: int, players: int, map_text: str,
               rng: random.Random, bad_rate: float) -> List[Seat]:
    """Connect the clients and play until the game ends, the server exits or time runs out."""
    deadline = time.monotonic() + GAME_DEADLINE
    seats: List[Seat] = []
    time.sleep(0.05)
    for _ in range(players):
        if process.poll() is not None:
            return seats
        sock = connect(port, min(deadline, time.monotonic() + CONNECT_WAIT))
        if sock is None:
            return seats
        sock.setblocking(True)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(encode(Group(0)))
        seats.append(Seat(sock, map_text))
    while time.monotonic() < deadline:
        open_seats = [seat for seat in seats if not seat.closed]
        if not open_seats:
            break
        ready, _, _ = select.select([seat.sock for seat in open_seats], [], [], 0.5)
        if not ready and process.poll() is not None:
            break
        for seat in open_seats:
            if seat.sock not in ready:
                continue
            try:
                data = seat.sock.recv(65536)
                quick_ack(seat.sock)
            except OSError:
                data = b""
            if not data:
                seat.closed = True
                continue
            try:
                for message in seat.decoder.feed(data):
                    seat.handle(message, rng, bad_rate)
            except (ProtocolError, OSError):
                seat.closed = True
    return seats


def longest_broadcasts(seats: Sequence[Seat]) -> List[Tuple[Any, ...]]:
    """The server's broadcasts as the seat that saw most of them got them."""
    best: List[Tuple[Any, ...]] = []
    for seat in seats:
        if len(seat.broadcasts) > len(best):
            best = seat.broadcasts
    return best


def build_record(map_text: str, seed: int, label: str, version: str, bad_rate: float,
                 seats: Sequence[Seat], output: str) -> JSONObject:
    """The JSON record of one game from what the seats got and what the server printed."""
    events = parse_output(output)
    broadcasts = longest_broadcasts(seats)
    notes: List[str] = []
    for seat in seats:
        if seat.broadcasts != broadcasts[:len(seat.broadcasts)]:
            notes.append("seat %d saw other broadcasts" % seat.player)
    # Who was asked after how many broadcasts, from the move requests.
    asked: Dict[int, int] = {}
    sent: Dict[int, Tuple[Move, Optional[str]]] = {}
    for seat in seats:
        for count, _ in seat.requests:
            if count in asked:
                notes.append("two requests after broadcast %d" % count)
            asked[count] = seat.player
        for count, move, bad in seat.answers:
            sent[count] = (move, bad)
    # Printed boards: those before the first answer, then those after each answer or rejection.
    start_boards: List[JSONObject] = []
    printed: List[Tuple[JSONObject, List[JSONObject]]] = []
    for event in events:
        if event["kind"] in ("answer", "invalid"):
            printed.append((event, []))
        elif event["kind"] == "board":
            (printed[-1][1] if printed else start_boards).append(event)
    statuses = [event for event in events if event["kind"] == "status"]
    requests = [event["player"] for event in events if event["kind"] == "request"]
    lines = [event["text"] for event in events if event["kind"] == "line"]
    record: JSONObject = {
        "format": FORMAT, "label": label, "seed": seed, "server": version,
        "bad_rate": bad_rate, "map": map_text, "players": read_map(map_text).players,
    }
    started = any(event["kind"] == "start" for event in events)
    record["started"] = started
    if started and start_boards:
        record["start"] = {"board": start_boards[-1]["rows"],
                           "marked": start_boards[-1]["marked"]}
    record["ask"] = _next_ask(asked, 0, broadcasts)
    steps: List[JSONObject] = []
    end1_before = False
    step_count = 0
    request_index = 0
    status_index = 0
    if record["ask"] is not None:
        request_index, status_index = 1, 1
        record["status"] = _status(statuses, 0)
    for number, item in enumerate(broadcasts):
        after = number + 1
        if item[0] == "end1":
            if steps:
                steps[-1]["end1"] = True
            else:
                end1_before = True
            continue
        if item[0] == "end":
            continue
        step: JSONObject = {}
        if item[0] == "move":
            step["p"] = item[4]
            step["move"] = [item[1], item[2], item[3]]
            answer = sent.get(number)
            if answer is not None and list(answer[0]) != step["move"]:
                step["sent"] = list(answer[0])
        else:
            step["p"] = item[1]
            step["disq"] = True
            answer = sent.get(number)
            if answer is not None:
                step["sent"] = list(answer[0])
                if answer[1]:
                    step["bad"] = answer[1]
        if step_count < len(printed):
            said, boards = printed[step_count]
            if said["player"] != step["p"] or (said["kind"] == "invalid") != ("disq" in step):
                notes.append("step %d: printed %s of player %d" % (step_count, said["kind"],
                                                                  said["player"]))
            if "why" in said:
                step["why"] = said["why"]
            if boards:
                step["board"] = boards[0]["rows"]
                step["marked"] = boards[0]["marked"]
            # After a disqualification the board is printed again, marked for the next player.
            if len(boards) >= 2:
                step["marked_next"] = boards[1]["marked"]
                if boards[1]["rows"] != boards[0]["rows"]:
                    step["board_next"] = boards[1]["rows"]
            if len(boards) > 2:
                notes.append("step %d: %d boards printed" % (step_count, len(boards)))
        # The request that follows this step (from the wire), with its printed status.
        following = _next_ask(asked, after, broadcasts)
        step["ask"] = following
        if following is not None:
            if request_index < len(requests) and requests[request_index] != following:
                notes.append("step %d: printed request to %d, wire request to %d"
                             % (step_count, requests[request_index], following))
            request_index += 1
            step["status"] = _status(statuses, status_index)
            status_index += 1
        steps.append(step)
        step_count += 1
    record["end1_at_start"] = end1_before
    record["steps"] = steps
    for event in events:
        if event["kind"] == "scores":
            record["end1_scores" if event["after"] == "Terminal" else "final_scores"] = \
                event["scores"]
    record["ended"] = any(item[0] == "end" for item in broadcasts)
    record["lines"] = sorted(set(line for line in lines if not line.startswith(
        ("set baseport", "Starting Server", "Loading board", "Opening port", "This is a",
         "Waiting client", "Waiting for group", "Sending data", "bye bye"))))
    if notes:
        record["notes"] = notes
    return record


def _status(statuses: List[JSONObject], index: int) -> Optional[List[int]]:
    """[overrides, bombs] of the `index`-th printed status line, None when missing."""
    if index >= len(statuses):
        return None
    return [statuses[index]["overrides"], statuses[index]["bombs"]]


def _next_ask(asked: Dict[int, int], after: int, broadcasts: List[Tuple[Any, ...]]
              ) -> Optional[int]:
    """The player asked after broadcast number `after` (an end-of-phase-1 broadcast right
    after it moves the request one further)."""
    if after in asked:
        return asked[after]
    if after < len(broadcasts) and broadcasts[after][0] == "end1":
        return asked.get(after + 1)
    return None


# =========================================================================== the checker


def marked_cells(state: GameState, player: Optional[int]) -> List[List[int]]:
    """The cells the server marks as legal for `player` in phase 1 (sorted by y, x)."""
    if player is None or state.phase != BUILD:
        return []
    asking = GameState(state.map, state.board, state.overrides, state.bombs,
                       state.disqualified, state.phase, player)
    seen: List[List[int]] = []
    for move in legal_moves(asking):
        if [move.x, move.y] not in seen:
            seen.append([move.x, move.y])
    return seen


def _sorted_cells(cells: List[List[int]]) -> List[List[int]]:
    return sorted(cells, key=lambda cell: (cell[1], cell[0]))


def check_game(record: JSONObject) -> List[str]:
    """Replay a recorded game through the readable rules; every disagreement, as text
    ("step 7: board differs ..."); [] when the rules agree with the server throughout."""
    problems = ["record: %s" % note for note in record.get("notes", [])]
    state = initial_state(read_map(record["map"]))
    if not record["started"]:
        if state.phase != OVER:
            problems.append("start: the server did not start the game, our rules ask %s"
                            % state.to_move)
        return problems
    start = record.get("start")
    if start is not None and start["board"] != _rows(state):
        problems.append("start: board %s, ours %s" % (start["board"], _rows(state)))
    if record["end1_at_start"] != (state.phase == BOMB):
        problems.append("start: end of phase 1 at start %s, ours phase %s"
                        % (record["end1_at_start"], state.phase))
    if record["ask"] != state.to_move:
        problems.append("start: server asks %s, ours %s" % (record["ask"], state.to_move))
    if start is not None and state.phase == BUILD:
        _compare_marks(problems, "start", start["marked"], state, state.to_move)
    _compare_status(problems, "start", record.get("status"), state)
    for number, step in enumerate(record["steps"]):
        where = "step %d" % number
        if step["p"] != state.to_move:
            problems.append("%s: player %d moved, ours asks %s" % (where, step["p"], state.to_move))
        was_building = state.phase == BUILD
        if step.get("disq"):
            attempt = step.get("sent")
            if attempt is not None and state.to_move == step["p"]:
                try:
                    play(state, Move(*attempt))
                    problems.append("%s: server rejected %s, our rules accept it"
                                    % (where, attempt))
                except IllegalMoveError:
                    pass
            marks_for = state.to_move
            state = disqualify(state, step["p"])
        else:
            try:
                state = play(state, Move(*step["move"]))
            except IllegalMoveError as error:
                problems.append("%s: server played %s, our rules reject it (%s)"
                                % (where, step["move"], error))
                return problems
            marks_for = state.to_move
        if "board" in step and step["board"] != _rows(state):
            problems.append("%s: board %s, ours %s" % (where, step["board"], _rows(state)))
        if step["ask"] != state.to_move:
            problems.append("%s: server asks %s next, ours %s" % (where, step["ask"],
                                                                   state.to_move))
        # Message 8 ends phase 1, except when a disqualification leaves a sole survivor.
        sole_survivor = bool(step.get("disq")) and len(state.active_players()) <= 1
        ended_building = was_building and state.phase != BUILD and not sole_survivor
        if bool(step.get("end1")) != ended_building:
            problems.append("%s: server end of phase 1 %s, ours %s"
                            % (where, bool(step.get("end1")), ended_building))
        if "marked" in step and state.phase == BUILD:
            _compare_marks(problems, where, step["marked"], state, marks_for)
        if "marked_next" in step and state.phase == BUILD:
            _compare_marks(problems, where + " (printed again)", step["marked_next"], state,
                           state.to_move)
        if "board_next" in step:
            problems.append("%s: the board printed again differs: %s" % (where,
                                                                        step["board_next"]))
        _compare_status(problems, where, step.get("status"), state)
        if ended_building and "end1_scores" in record:
            if record["end1_scores"] != printed_scores(state):
                problems.append("%s: phase-1 scores %s, ours %s"
                                % (where, record["end1_scores"], printed_scores(state)))
    if record["ended"] and state.phase != OVER:
        problems.append("end: the server ended the game, ours is in phase %s" % state.phase)
    if not record["ended"]:
        problems.append("end: the recording stopped before the end of the game")
    if "final_scores" in record and record["final_scores"] != printed_scores(state):
        problems.append("end: final scores %s, ours %s"
                        % (record["final_scores"], printed_scores(state)))
    return problems


def _rows(state: GameState) -> List[str]:
    """The board as rows of cell characters, as a record keeps them."""
    w = state.width
    return ["".join(state.board[y * w:(y + 1) * w]) for y in range(state.height)]


def _compare_marks(problems: List[str], where: str, marked: List[List[int]], state: GameState,
                   player: Optional[int]) -> None:
    """Add a problem unless the printed marks are `player`'s legal cells."""
    ours = marked_cells(state, player)
    if _sorted_cells(marked) != _sorted_cells(ours):
        problems.append("%s: marked %s, our legal cells for %s: %s"
                        % (where, marked, player, ours))


def _compare_status(problems: List[str], where: str, status: Optional[List[int]],
                    state: GameState) -> None:
    """Add a problem unless the printed counts in hand are those of the player asked."""
    if status is None or state.to_move is None:
        return
    p = state.to_move
    ours = [state.overrides[p - 1], state.bombs[p - 1]]
    if status != ours:
        problems.append("%s: player %d holds %s (overrides, bombs), ours %s"
                        % (where, p, status, ours))


def summarize(records: Sequence[JSONObject]) -> Dict[str, int]:
    """What the recorded games cover, counted by replaying them through our rules."""
    from .generated import move_uses_transition
    counts: Dict[str, int] = {}

    def count(key: str, amount: int = 1) -> None:
        counts[key] = counts.get(key, 0) + amount

    for record in records:
        count("games")
        state = initial_state(read_map(record["map"]))
        count("players %d" % state.players)
        if not record["started"]:
            count("games the server would not start")
            continue
        if record["end1_at_start"]:
            count("games starting in phase 2")
        if record["ask"] not in (None, 1):
            count("games where player 1 is skipped at the start")
        for step in record["steps"]:
            count("steps")
            before = state
            player = step["p"]
            if step.get("disq"):
                count("disqualifications")
                count("disqualifications: %s" % step.get("bad", "?"))
                if before.phase == BOMB:
                    count("disqualifications in phase 2")
                state = disqualify(state, player)
                if state.phase == OVER and before.phase != OVER:
                    count("sole survivors")
            else:
                move = Move(*step["move"])
                try:
                    state = play(state, move)
                except IllegalMoveError:
                    count("moves our rules reject")
                    break
                if before.phase == BOMB:
                    count("bombs")
                    if step.get("sent", [0, 0, 0])[2]:
                        count("bombs sent with a non-zero special byte")
                else:
                    count("building moves")
                    target = before.cell(move.x, move.y)
                    if target == CHOICE:
                        count("choice, naming %s" % ("self" if move.special == player else
                                                     "a disqualified player"
                                                     if move.special in before.disqualified
                                                     else "another player"))
                    elif target == "i":
                        count("inversion")
                    elif target == BONUS:
                        count("bonus %d" % move.special)
                    elif target == "x":
                        count("override on an expansion stone")
                    elif target != "0":
                        count("override on a stone")
                    if move_uses_transition(before, move):
                        count("captures through a transition")
            if before.phase == BUILD and state.phase == BOMB:
                count("ends of phase 1 into bombing")
            elif before.phase == BUILD and state.phase == OVER and not step.get("disq"):
                count("ends of phase 1 without bombing")
            if before.phase == BOMB and state.phase == OVER:
                count("games bombed to the end")
            following = step.get("ask")
            if following is not None and state.phase != OVER:
                if following == player:
                    count("turns where the same player is asked again")
                else:
                    order = [(player + k - 1) % state.players + 1
                             for k in range(1, state.players + 1)]
                    between = order[:order.index(following)]
                    if any(p not in state.disqualified for p in between):
                        count("turns that skip a player who cannot move")
    return counts


def read_records(path: Path) -> List[JSONObject]:
    """The games of a JSON-lines file."""
    with open(path, encoding="ascii") as handle:
        return [json.loads(line) for line in handle if line.strip()]


# =========================================================================== command line


def map_texts(names: Sequence[str]) -> List[Tuple[str, str]]:
    """(label, text) of each MAP argument: a file, or `gen:SEED`."""
    from .generated import random_map_text
    found: List[Tuple[str, str]] = []
    for name in names:
        if name.startswith("gen:"):
            seed = int(name[4:])
            found.append((name, random_map_text(random.Random(seed))))
        else:
            found.append((Path(name).name, Path(name).read_text(encoding="ascii")))
    return found


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Record games on the official server into a JSON-lines file."""
    parser = argparse.ArgumentParser(prog="python3 -m reversi_ref.specs.observe",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--server", help="path of a local server_nogl")
    parser.add_argument("--out", required=True, help="JSON-lines file to write")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--games", type=int, default=1, help="games per map (seeds seed..)")
    parser.add_argument("--check", action="store_true", help="replay each game and report")
    parser.add_argument("maps", nargs="*", metavar="MAP", help="map file or gen:SEED")
    parser.add_argument("--keep", metavar="DIR",
                        help="also save the server's output of each game in DIR")
    parser.add_argument("--bad-rate", type=float, metavar="P",
                        help="chance of an invalid answer (default: drawn per game)")
    parser.add_argument("--append", action="store_true", help="add to --out, do not replace it")
    parser.add_argument("--stats", action="store_true",
                        help="only print what the games in --out cover")
    args = parser.parse_args(argv)
    if args.stats:
        for key, value in sorted(summarize(read_records(Path(args.out))).items()):
            print("%6d  %s" % (value, key))
        return 0
    if not args.server or not args.maps:
        parser.error("recording needs --server and at least one MAP")
    version = server_version(args.server)
    written = 0
    disagreements = 0
    with open(args.out, "a" if args.append else "w", encoding="ascii", newline="\n") as out:
        for label, text in map_texts(args.maps):
            for seed in range(args.seed, args.seed + args.games):
                keep = None
                if args.keep:
                    keep = Path(args.keep) / ("%s-%d.out" % (label.replace(":", "-"), seed))
                record = record_game(args.server, text, seed, label, version, keep,
                                     args.bad_rate)
                out.write(json.dumps(record, separators=(",", ":"), sort_keys=True) + "\n")
                out.flush()
                written += 1
                problems = check_game(record) if args.check else []
                disagreements += len(problems)
                print("%s seed %d: %d steps%s" % (label, seed, len(record["steps"]),
                                                   "".join("\n  " + p for p in problems)))
    print("%d games written to %s" % (written, args.out))
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
