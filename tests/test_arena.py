"""`reversi-ref arena`: seat rotations verified from what the server tells each seat, points,
resume, timeouts and bad input, with our own `serve` and `client` (never the official
binaries).

Each game starts real processes (a server and one client per seat), so the games here are few
and on small bundled maps: both seats of `tiny3x3`, the three seats of `sparks3p`.
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest

from reversi_ref.arena import (Played, Relay, fill, game_events, pair_summary,
                               parse_template, phase1_depths, places, points, read_result,
                               rules_summary, summary, PLAYER_KEYS, SERVER_KEYS, SERVER_REQUIRED)
from reversi_ref import load_record, scores
from reversi_ref.cli import UsageError, main

ROOT = Path(__file__).resolve().parents[1]


def external_python() -> str:
    """The interpreter for the servers and clients the harness starts: under PyPy a CPython 3.9+
    from PATH when there is one, since PyPy takes several times longer to start and import (the
    harness itself still runs under the interpreter of the test run)."""
    if platform.python_implementation() == "PyPy":
        for name in ("python3", "python"):
            found = shutil.which(name)
            if found is None:
                continue
            check = subprocess.run(
                [found, "-c", "import platform, sys; sys.exit(not (sys.version_info >= (3, 9) "
                 "and platform.python_implementation() == 'CPython'))"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if check.returncode == 0:
                return found
    return sys.executable


PY = external_python()
# `python -m reversi_ref serve ...` and `... client ...`, importing only the module of the
# subcommand (`-m reversi_ref` loads every subcommand's module; each game starts 3-4 of these).
LAUNCH = ("%s -c \"import argparse, importlib, sys; parser = argparse.ArgumentParser(); "
          "importlib.import_module(sys.argv[1]).register(parser.add_subparsers()); "
          "args = parser.parse_args(sys.argv[2:]); sys.exit(args.func(args))\"" % PY)
# A short start pause (the official server's is about a second) keeps the games quick.
SERVER = ("%s reversi_ref.referee serve -m {map} -p {port} -r {result} -q -d 1 "
          "--start-pause 0.1" % LAUNCH)
OURS = "us=%s reversi_ref.client client --server {host}:{port} --player greedy" % LAUNCH
THEIRS = ("rnd=%s reversi_ref.client client --server 127.0.0.1:{port} --player random "
          "--seed 5" % LAUNCH)


@pytest.fixture(autouse=True)
def importable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Servers run in a temporary directory: let `-m reversi_ref` find this checkout."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.chdir(ROOT)


def arena(out: Path, *extra: str) -> int:
    """Run `reversi-ref arena` in this process."""
    return main(["arena", "--server", SERVER, "--player", OURS, "--player", THEIRS,
                 "--ours", "us", "--against", "rnd", "--out", str(out)] + list(extra))


def records(out: Path) -> List[Dict[str, Any]]:
    """The JSON lines of an output file (a line cut short as {})."""
    found: List[Dict[str, Any]] = []
    for line in out.read_text(encoding="utf-8").splitlines():
        try:
            found.append(json.loads(line))
        except ValueError:
            found.append({})
    return found


def client_view(record: Dict[str, Any]) -> Dict[str, Any]:
    """What our own client printed at the end: its player number and everyone's stones."""
    seat = record["ours_seat"]
    text = (Path(record["logs"]) / ("seat%d-us.log" % seat)).read_text(encoding="utf-8")
    stones: Dict[int, int] = {}
    me = 0
    for match in re.finditer(r"^\d+\. player (\d+): (\d+) stones( +<- us)?$", text, re.M):
        stones[int(match.group(1))] = int(match.group(2))
        if match.group(3):
            me = int(match.group(1))
    return {"me": me, "stones": stones}


def check_game(record: Dict[str, Any], players: int) -> None:
    """The seats as scheduled and as the server numbered them, stones and points as our
    client saw them."""
    assert record["outcome"] == "ok", record["error"]
    seats = record["seats"]
    assert [s["seat"] for s in seats] == list(range(1, players + 1))
    # The server's message 3 to each seat, read by the relay.
    assert [s["player_number"] for s in seats] == list(range(1, players + 1))
    assert [s["name"] for s in seats] == ["us" if k == record["ours_seat"] else "rnd"
                                          for k in range(1, players + 1)]
    # The relay's record of the game agrees with what our client logged.
    moves = (Path(record["logs"]) / "moves.txt").read_text(encoding="utf-8").splitlines()
    assert moves[-1] == "end" and record["server_sent_end"]
    assert "end" in (Path(record["logs"]) / "server.log").read_text(encoding="utf-8").lower()
    assert record["moves"] == sum(1 for line in moves if line.startswith("move "))
    view = client_view(record)
    assert view["me"] == record["ours_seat"]  # our client's own view of its number
    assert view["stones"] == {s["seat"]: s["stones"] for s in seats}
    best = max(view["stones"].values())
    firsts = [p for p, n in view["stones"].items() if n == best]
    expected = 1.0 / len(firsts) if record["ours_seat"] in firsts else 0.0
    assert record["points"] == pytest.approx(expected)
    assert sum(s["points"] for s in seats) == pytest.approx(1.0)
    assert record["result"] == ("win" if expected == 1.0 else
                                "draw" if expected else "loss")
    assert seats[record["ours_seat"] - 1]["phase1_depth"] == 1.0  # greedy logs depth 1
    # The announced moves replay through the rules to the result file's stones.
    assert record["rules"] == "agree"
    trace = load_record(Path(record["logs"]) / "trace.json")
    last = trace.frame(-1).state
    assert last.to_move is None
    assert [scores(last)[p] for p in range(1, players + 1)] == [s["stones"] for s in seats]


def test_two_player_seats_alternate_and_resume_plays_only_the_missing_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    assert arena(out, "--maps", "tiny3x3") == 0
    games = records(out)
    assert [g["key"] for g in games] == ["1/rnd/tiny3x3/1", "1/rnd/tiny3x3/2"]
    for game in games:
        check_game(game, 2)
    table = capsys.readouterr().out
    total = sum(g["points"] for g in games)
    assert re.search(r"^total +2 +%.1f " % total, table, re.M)
    # Without --resume the file is not overwritten.
    with pytest.raises(SystemExit):
        arena(out, "--maps", "tiny3x3")
    assert "give --resume" in capsys.readouterr().err
    # Cut the second game's line short (as a kill mid-write would): --resume plays that game
    # again, and only it.
    line = json.dumps(games[1])
    out.write_text(json.dumps(games[0]) + "\n" + line[:len(line) // 2], encoding="utf-8")
    assert arena(out, "--maps", "tiny3x3", "--resume") == 0
    again = records(out)[:1] + records(out)[2:]  # the torn line is the second
    assert [g["key"] for g in again] == ["1/rnd/tiny3x3/1", "1/rnd/tiny3x3/2"]
    assert again[0] == games[0]
    check_game(again[1], 2)
    # Nothing left to play: the file stays as it is.
    before = out.read_text(encoding="utf-8")
    assert arena(out, "--maps", "tiny3x3", "--resume") == 0
    assert out.read_text(encoding="utf-8") == before


def test_resume_with_no_file_yet_starts_the_series(tmp_path: Path) -> None:
    """--resume before any game was written (a command kept in a script) plays them all."""
    out = tmp_path / "new.jsonl"
    assert arena(out, "--maps", "tiny3x3", "--resume") == 0
    assert [g["key"] for g in records(out)] == ["1/rnd/tiny3x3/1", "1/rnd/tiny3x3/2"]


def test_three_player_map_puts_ours_in_every_seat(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    # The referee's own traces, to check the harness's replay of each game against.
    server = SERVER + " --trace %s" % (tmp_path / "referee-{port}.json")
    assert main(["arena", "--server", server, "--player", OURS, "--player", THEIRS,
                 "--ours", "us", "--against", "rnd", "--out", str(out),
                 "--maps", "sparks3p"]) == 0
    games = records(out)
    assert [g["ours_seat"] for g in games] == [1, 2, 3]
    referee = [json.loads(path.read_text(encoding="utf-8"))
               for path in tmp_path.glob("referee-*.json")]
    assert len(referee) == 3
    for game in games:
        check_game(game, 3)
        ours = json.loads((Path(game["logs"]) / "trace.json").read_text(encoding="utf-8"))
        moves = [(m["player"], m["x"], m["y"]) for m in ours["moves"]]
        same = [t for t in referee
                if [(m["player"], m["x"], m["y"]) for m in t["moves"]] == moves]
        assert len(same) == 1  # each game differs: ours sits in another seat
        scores = same[0]["phase1_end"]["scores"]
        assert [s["phase1_stones"] for s in game["seats"]] == [scores[str(p)] for p in (1, 2, 3)]
    assert "rules: the server's moves replayed through reversi-ref's rules in 3 games: all agree" \
        in capsys.readouterr().out


def sleeper(tmp_path: Path, connect: bool) -> str:
    """A process that notes its pid in `tmp_path`, takes its seat (a client) or listens on
    {port} (a server that never ends the game), then sleeps."""
    code = ("import os, socket, sys, time; "
            "open(os.path.join(sys.argv[2], 'pid%d' % os.getpid()), 'w').close(); ")
    if connect:
        code += ("s = socket.create_connection(('127.0.0.1', int(sys.argv[1]))); "
                 "s.sendall(bytes([1, 0, 0, 0, 1, 7])); ")
    else:
        code += "s = socket.socket(); s.bind(('127.0.0.1', int(sys.argv[1]))); s.listen(8); "
    return "%s -c \"%stime.sleep(60)\" {port} %s" % (PY, code, tmp_path) + (
        "" if connect else " {map} {result}")


def test_a_game_past_the_timeout_is_stopped_with_all_its_processes(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    code = main(["arena", "--server", sleeper(tmp_path, False),
                 "--player", "a=" + sleeper(tmp_path, True),
                 "--player", "b=" + sleeper(tmp_path, True), "--ours", "a", "--against", "b",
                 "--maps", "tiny3x3", "--game-timeout", "2", "--out", str(out)])
    assert code == 0
    games = records(out)
    assert [g["outcome"] for g in games] == ["timeout", "timeout"]
    assert all(g["seconds"] < 15 for g in games)
    pids = [int(path.name[3:]) for path in tmp_path.glob("pid*")]
    assert len(pids) == 6  # a server and two clients per game, all gone
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


# What the first server of a game does instead of opening its port: the official server opens
# the next one (here after the arena's 2 s wait for a server); `reversi-ref serve` exits,
# saying the address is in use.
FIRST_SERVERS = {
    "opens the next port": ("s = socket.socket(); s.bind(('127.0.0.1', int(port) + 1)); "
                            "s.listen(8); time.sleep(60)"),
    "exits": ("print('OSError: [Errno %d] %s' % (errno.EADDRINUSE, "
              "os.strerror(errno.EADDRINUSE))); sys.exit(1)"),
}


@pytest.mark.parametrize("first", sorted(FIRST_SERVERS))
def test_a_game_whose_port_was_taken_is_played_again_on_a_new_one(
        first: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's first server does not serve on the port it was given (its port was taken
    after the arena chose it); the game is started again on a new port and recorded as
    played, not as an error nor as the end of the series."""
    monkeypatch.setattr("reversi_ref.arena.SERVER_START", 2.0)
    marker = tmp_path / "first-server"
    code = ("import errno, os, socket, sys, time; port, game_map, result, marker = sys.argv[1:]; "
            "serve = [sys.executable, '-m', 'reversi_ref', 'serve', '-m', game_map, '-p', port, "
            "'-r', result, '-q', '-d', '1', '--start-pause', '0.1']; "
            "os.path.exists(marker) and os.execv(sys.executable, serve); "
            "open(marker, 'w').close(); " + FIRST_SERVERS[first])
    server = "%s -c \"%s\" {port} {map} {result} %s" % (PY, code, marker)
    out = tmp_path / "games.jsonl"
    assert main(["arena", "--server", server, "--player", OURS, "--player", THEIRS,
                 "--ours", "us", "--against", "rnd", "--maps", "tiny3x3",
                 "--only", "*/tiny3x3/1", "--out", str(out)]) == 0
    assert marker.exists()
    games = records(out)
    assert len(games) == 1
    check_game(games[0], 2)


def test_a_server_that_refuses_the_map_ends_the_series_with_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    refuse = ("%s -c \"print('cannot load the map'); raise SystemExit(3)\" {map} {port} {result}"
              % PY)
    code = main(["arena", "--server", refuse, "--player", "a=" + sleeper(tmp_path, True),
                 "--player", "b=" + sleeper(tmp_path, True), "--ours", "a", "--against", "b",
                 "--maps", "tiny3x3", "--out", str(tmp_path / "o.jsonl")])
    assert code == 1
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1
    assert "exited (code 3)" in error[0] and "tiny3x3" in error[0]
    assert error[0].endswith("cannot load the map")


@pytest.mark.parametrize("extra, code, words", [
    (["--server", "no-such-program-xyz {map} {port} {result}"], 1, "command not found"),
    (["--server", SERVER.replace("{result}", "{resutl}")], 2, "unknown placeholder {resutl}"),
    (["--server", SERVER.replace(" -r {result}", "")], 2, "must contain {result}"),
    (["--server", "serve 'unbalanced {map} {port} {result}"], 2, "cannot split"),
    (["--ours", "nobody"], 2, "no --player named nobody"),
    (["--maps", "no/such/file.map"], 1, "no/such/file.map"),
])
def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               extra: List[str], code: int, words: str) -> None:
    argv = ["arena", "--server", SERVER, "--player", OURS, "--player", THEIRS,
            "--ours", "us", "--against", "rnd", "--maps", "tiny3x3",
            "--out", str(tmp_path / "o.jsonl")]
    for index in range(0, len(extra), 2):
        position = argv.index(extra[index])
        argv[position + 1] = extra[index + 1]
    with pytest.raises(SystemExit) if code == 2 else _no_raise():
        assert main(argv) == code
    if code == 2:
        assert capsys.readouterr().err.strip().splitlines()[-1].count(words) == 1
    else:
        error = capsys.readouterr().err.strip().splitlines()
        assert len(error) == 1 and words in error[0]


class _no_raise:
    """A context manager that expects nothing (the counterpart of pytest.raises)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *args: Any) -> None:
        return None


def test_templates_replace_only_known_placeholders() -> None:
    words = parse_template("client --weights '{\"mobility\": [800, 300]}' -s {host}:{port}",
                           "--player x", PLAYER_KEYS, ("port",))
    assert fill(words, {"host": "127.0.0.1", "port": "5"}) == [
        "client", "--weights", "{\"mobility\": [800, 300]}", "-s", "127.0.0.1:5"]
    with pytest.raises(UsageError, match="must contain {map}"):
        parse_template("server -p {port} -r {result}", "--server", SERVER_KEYS,
                       SERVER_REQUIRED)


def test_places_and_points_share_ties_and_skip_the_disqualified() -> None:
    rows = [{"stones": 5, "disqualified": False}, {"stones": 9, "disqualified": True},
            {"stones": 5, "disqualified": False}, {"stones": 2, "disqualified": False}]
    placed = places(rows)
    assert placed == [1, None, 1, 3]
    assert [points(p, placed) for p in placed] == [0.5, 0.0, 0.5, 0.0]


def test_the_game_record_comes_from_the_seat_that_heard_most() -> None:
    """The server stops writing to a disqualified client (RULES.md 6): seat 1 out early must
    not cut the game's record short."""
    relays = [Relay(1), Relay(2)]
    try:
        relays[0].events = ["move 1 1 0 1", "disq 1"]
        relays[1].events = ["move 1 1 0 1", "disq 1", "move 2 2 0 2", "end"]
        played = Played("ok", "", relays, [0, 0])
        assert game_events(played) == relays[1].events
    finally:
        for relay in relays:
            relay.close()


def test_summary_lists_the_games_the_rules_disagree_with() -> None:
    records = [{"key": "1/t/m/1", "rules": "agree", "logs": "L1"},
               {"key": "1/t/m/2", "rules": "disagree: event 3 (end): by the rules the game "
                                            "goes on (player 1 to move)", "logs": "L2"},
               {"key": "1/t/m/3"},  # played before the check existed
               {"key": "1/t/m/4", "rules": "not checked: OSError: disk full", "logs": "L4"}]
    assert rules_summary(records) == [
        "", "rules: the server's moves replayed through reversi-ref's rules in 3 games: "
            "1 differ, 1 not checked",
        "  1/t/m/2: disagree: event 3 (end): by the rules the game goes on (player 1 to move) "
        "(trace: %s)" % os.path.join("L2", "trace.json"),
        "  1/t/m/4: not checked: OSError: disk full (trace: %s)" % os.path.join("L4",
                                                                               "trace.json")]
    assert rules_summary(records[:1])[1].endswith("in 1 game: all agree")
    assert rules_summary(records[2:3]) == []


def test_a_failing_rules_check_still_records_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any) -> None:
        raise OSError("disk full")
    monkeypatch.setattr("reversi_ref.arena.replay_events", broken)
    out = tmp_path / "games.jsonl"
    assert arena(out, "--maps", "tiny3x3", "--only", "*/1") == 0
    game = records(out)[0]
    assert game["outcome"] == "ok" and game["rules"] == "not checked: OSError: disk full"


def test_reads_the_official_result_file(tmp_path: Path) -> None:
    # The layout of a result file written by the official server (values made up).
    path = tmp_path / "result.txt"
    path.write_text("fightclub__original.map\n4\t31\t10234 msecs\tok\n"
                    "1\t0\t0 msecs\tdisq.\n", encoding="utf-8")
    assert read_result(str(path), 2) == [
        {"group": 4, "stones": 31, "bank_ms": 10234, "status": "ok", "disqualified": False},
        {"group": 1, "stones": 0, "bank_ms": 0, "status": "disq.", "disqualified": True}]


def test_reads_phase1_depths_from_both_logs() -> None:
    """Each phase-1 move's depth from our log and ai_trivial's; a move that finished no
    iteration (our forced move at depth 0, ai_trivial's move 3) is left out, and so is our
    move whose search stopped on a proven result (move 7)."""
    ours = ("we are player 1 (search, group 1)\n"
            "move 1: (3, 5) depth 7, 100 nodes, 900 ms (bank 1000 ms)\n"
            "move 3: (2, 2) depth 9, 100 nodes, 900 ms (bank 1000 ms, pondered to depth 5)\n"
            "move 5: (2, 3) depth 0, 0 nodes, 2 ms (bank 1000 ms)\n"
            "move 7: (4, 3) depth 2 (result proven), 45 nodes, 2 ms (bank 1000 ms)\n"
            "move 9: (5, 3) depth 8, 100 nodes, 900 ms (bank 1000 ms)\n"
            "end of phase 1\n"
            "move 61: (3, 3) depth 2, 10 nodes, 90 ms (bank 1000 ms)\n")
    assert phase1_depths(ours) == [7, 9, 8]
    trivial = ("[;45m= = = CALCULATING MOVE  1 = = =[m\n"
               "= = STATISTICS DEPTH  3 = =\n= = STATISTICS DEPTH  4 = =\n"
               "[;45m= = = CALCULATING MOVE  3 = = =[m\n"
               "[;45m= = = CALCULATING MOVE  5 = = =[m\n"
               "= = STATISTICS DEPTH  6 = =\n"
               "[01:35:31] terminal state reached, start of bomb phase.\n"
               "[;45m= = = CALCULATING MOVE  61 = = =[m\n= = STATISTICS DEPTH  1 = =\n")
    assert phase1_depths(trivial) == [4, 6]
    assert phase1_depths("anything else\n") == []


def echo_port() -> int:
    """A loopback server that sends back whatever it receives, on each connection."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)

    def echo(conn: socket.socket) -> None:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        while True:
            data = conn.recv(65536)
            if not data:
                return
            conn.sendall(data)

    def serve() -> None:
        while True:
            conn, _ = listener.accept()
            threading.Thread(target=echo, args=(conn,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    port: int = listener.getsockname()[1]
    return port


def round_trip_us(sock: socket.socket, count: int = 3000) -> float:
    """The median time in microseconds to send a 6-byte message and read it back."""
    times = []
    for _ in range(count):
        start = time.perf_counter()
        sock.sendall(b"\x05\x00\x00\x00\x01\x07")
        got = 0
        while got < 6:
            got += len(sock.recv(64))
        times.append((time.perf_counter() - start) * 1e6)
    return statistics.median(times)


@pytest.mark.slow
def test_relay_latency() -> None:
    """Prints the median round trip through a Relay and without it (docs/strength.md)."""
    port = echo_port()
    direct = socket.create_connection(("127.0.0.1", port))
    relay = Relay(1)
    client = socket.create_connection(("127.0.0.1", relay.port))
    for sock in (direct, client):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    client.sendall(bytes([1, 0, 0, 0, 1, 7]))
    holder = subprocess.Popen([PY, "-c", "import time; time.sleep(30)"])
    try:
        first = relay.accept_client(holder, time.monotonic() + 10, "probe")
        relay.connect_server(port, holder, time.monotonic() + 10, first)
        assert client.recv(6) == bytes([1, 0, 0, 0, 1, 7])  # the group message, echoed
        direct_us, relayed_us = round_trip_us(direct), round_trip_us(client)
    finally:
        holder.kill()
        holder.wait()
        relay.close()
    print("\nmedian round trip of a 6-byte message on 127.0.0.1: direct %.0f us, through "
          "the relay %.0f us" % (direct_us, relayed_us))
    assert relayed_us > 0


def test_clients_that_never_connect_end_the_series_after_three_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    quits = "%s -c pass {port}" % PY
    code = main(["arena", "--server", sleeper(tmp_path, False), "--player", "a=" + quits,
                 "--player", "b=" + quits, "--ours", "a", "--against", "b",
                 "--maps", "tiny3x3", "sparks3p", "--out", str(out)])
    assert code == 1
    games = records(out)
    assert [g["outcome"] for g in games] == ["error"] * 3
    assert "(seat 1) did not connect: it exited with code 0" in games[0]["error"]
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith(
        "reversi-ref arena: 3 games in a row could not be played")


def test_list_shows_every_seat_rotation_of_every_pass(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert arena(tmp_path / "o.jsonl", "--maps", "tiny3x3", "sparks3p", "--passes", "2",
                 "--list") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "10 games"
    assert lines[:5] == ["1/rnd/tiny3x3/1\tus,rnd", "1/rnd/tiny3x3/2\trnd,us",
                         "1/rnd/sparks3p/1\tus,rnd,rnd", "1/rnd/sparks3p/2\trnd,us,rnd",
                         "1/rnd/sparks3p/3\trnd,rnd,us"]
    assert lines[5:9] == [line.replace("1/", "2/", 1) for line in lines[:4]]
    assert not (tmp_path / "o.jsonl").exists()


@pytest.mark.skipif(os.name != "posix", reason="signals to a child process are POSIX")
@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_or_sigterm_stops_every_process(tmp_path: Path, number: int) -> None:
    """Ctrl-C, or a plain `kill` of the arena alone, stops the server and both clients."""
    argv = [PY, "-m", "reversi_ref", "arena", "--server", sleeper(tmp_path, False),
            "--player", "a=" + sleeper(tmp_path, True), "--player", "b=" + sleeper(tmp_path, True),
            "--ours", "a", "--against", "b", "--maps", "tiny3x3",
            "--out", str(tmp_path / "o.jsonl")]
    arena_process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     text=True)
    deadline = time.monotonic() + 60
    while len(list(tmp_path.glob("pid*"))) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.2)  # the last client's connection reaches the relay
    arena_process.send_signal(number)
    _, err = arena_process.communicate(timeout=60)
    assert arena_process.returncode == 130
    assert err.strip() == "reversi-ref arena: interrupted"
    pids = [int(path.name[3:]) for path in tmp_path.glob("pid*")]
    assert len(pids) == 3
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_only_plays_the_games_whose_key_matches(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert arena(tmp_path / "o.jsonl", "--maps", "tiny3x3", "sparks3p", "--passes", "2",
                 "--only", "*/sparks3p/3", "1/*/tiny3x3/2", "--list") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["1/rnd/tiny3x3/2\trnd,us", "1/rnd/sparks3p/3\trnd,rnd,us",
                     "2/rnd/sparks3p/3\trnd,rnd,us", "3 games"]


def test_only_with_a_pattern_that_matches_nothing_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        arena(tmp_path / "o.jsonl", "--maps", "tiny3x3", "--only", "*/sparks3p/*")
    assert stop.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "reversi-ref arena: error: argument --only: '*/sparks3p/*' matches no game (--list "
        "shows their keys, e.g. 1/rnd/tiny3x3/1)")
    assert not (tmp_path / "o.jsonl").exists()


def made_record(game_map: str, players: int, result: str, points: float) -> Dict[str, Any]:
    """A finished game's record as run_series writes it, ours in seat 1."""
    seats = [{"seat": k, "disqualified": False, "bank_ms": 5000, "phase1_depth": 4.0}
             for k in range(1, players + 1)]
    return {"outcome": "ok", "opponent": "t", "map": game_map, "players": players,
            "ours_seat": 1, "round": 1, "result": result, "points": points, "seats": seats}


def test_summary_gives_the_share_of_first_places_with_three_or_more_players() -> None:
    games = [made_record("a3", 3, "win", 1.0), made_record("a3", 3, "draw", 1.0 / 3),
             made_record("b3", 3, "loss", 0.0), made_record("c4", 4, "win", 1.0),
             made_record("d2", 2, "loss", 0.0), made_record("d2", 2, "loss", 0.0)]
    lines = summary(games, "us", None)
    # 3 of 4 (a draw is a shared first place; the two-player losses do not count); the Wilson
    # interval of 3 in 4 is 30.1% to 95.4% (as published tables give it).
    assert "3-8 players: first place (alone or shared) in 3 of 4 games, 75.0% [30.1%, 95.4%] " \
           "(Wilson 95%)" in lines
    assert not any(line.startswith("3-8 players") for line in summary(games[4:], "us", None))


def test_pair_summary_counts_two_player_pairs_by_hand() -> None:
    """Pairs of one round and map: 1+1, 1+0, 1/2+0 points (pentanomial 0 1 1 0 1); a lone game,
    a four-player game and an error are left out. With half a pair at each of 0, 1/4, 1/2,
    3/4, 1 (weights 0.5, 1.5, 1.5, 0.5, 1.5 per game score): mean 3 / 5.5 = 0.545, +32 logistic
    Elo; variance 0.1116, so the interval is 0.545 -+ 1.96 sqrt(0.1116 / 3), -279 to +433."""
    def record(round_: int, map_: str, points: float, players: int = 2,
               outcome: str = "ok") -> Dict[str, Any]:
        return {"round": round_, "map": map_, "points": points, "players": players,
                "outcome": outcome}
    records = [record(1, "a", 1.0), record(1, "a", 1.0), record(1, "b", 1.0),
               record(1, "b", 0.0), record(2, "a", 0.5), record(2, "a", 0.0),
               record(2, "b", 1.0), record(1, "c", 1.0, players=4), record(1, "c", 1.0, players=4),
               record(3, "a", 1.0, outcome="error"), record(3, "a", 1.0)]
    lines = pair_summary(records, None)
    assert lines == ["two-player pairs 3, pentanomial 0 1 1 0 1: Elo +32 [-279, +433] (95%)"]
    with_test = pair_summary(records, (0.0, 50.0))
    assert with_test[0] == lines[0] and with_test[1].startswith("SPRT elo0=0 elo1=50")
    assert with_test[2].startswith("LLR ") and "no decision" in with_test[2]
    assert pair_summary([record(1, "a", 1.0)], None) == []
