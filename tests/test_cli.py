"""Tests of the command line as a newcomer meets it: bundled maps by name, `maps`, `--version`,
the time control of `play`, and one convention for errors (usage errors exit 2 naming the
argument, runtime errors exit 1 with one line naming the file, address or port) and for move
numbers (from 1 in every command).

Expected values come from the map files themselves (read here independently), from
maps/README.md, or are worked out by hand.
"""

from __future__ import annotations

import io
import json
import os
import re
import socket
import time
from pathlib import Path
from typing import List

import pytest

import reversi_ref
from reversi_ref import referee
from reversi_ref.bundled import bundled_map_bytes, bundled_names, find_map, map_features
from reversi_ref.cli import main
from reversi_ref.errors import ReversiError
from reversi_ref.match import (DEFAULT_TIME_MS, Game, Progress, pypy_note, run_match,
                               time_control)
from reversi_ref.players import Player
from reversi_ref.state import GameState, Move
from reversi_ref import parse_map

REPO = Path(__file__).resolve().parents[1]
MAPS = REPO / "maps"


def usage_error(capsys: pytest.CaptureFixture[str], args: List[str]) -> str:
    """Run `args`, expect argparse's exit 2, return standard error."""
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2
    return capsys.readouterr().err


# --------------------------------------------------------------------------- bundled maps


def test_bundled_names_are_the_files_in_maps() -> None:
    """Every maps/*.map is bundled under its stem, and nothing else is."""
    assert bundled_names() == sorted(p.stem for p in MAPS.glob("*.map"))


@pytest.mark.parametrize("name", ["othello8x8", "othello8x8.map"])
def test_bundled_map_by_name_with_or_without_suffix(name: str, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A bare name finds the bundled map, from any directory."""
    monkeypatch.chdir(tmp_path)
    source = find_map(name)
    assert source.data == (MAPS / "othello8x8.map").read_bytes()
    assert source.label == "othello8x8.map"


def test_an_existing_file_wins_over_a_bundled_name(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """`default.map` in the current directory is that file, not the bundled one."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "default.map").write_bytes(b"2 0 0 0 1 2\n1 2\n")
    assert find_map("default.map").data == b"2 0 0 0 1 2\n1 2\n"
    assert find_map("default").data == (MAPS / "default.map").read_bytes()


@pytest.mark.parametrize("argument,message", [
    ("castle", "no map file or bundled map named castle (bundled: carnival4p, default,"),
    ("no/such/dir/castle.map", "cannot read no/such/dir/castle.map: no such file"),
    (".", "cannot read .: not a file"),
])
def test_unknown_map_arguments_say_what_is_wrong(argument: str, message: str) -> None:
    """A map argument that is neither a file nor a bundled name: one line saying which."""
    with pytest.raises(ReversiError) as error:
        find_map(argument)
    assert str(error.value).startswith(message)
    assert "\n" not in str(error.value)


def test_maps_lists_every_bundled_map(capsys: pytest.CaptureFixture[str]) -> None:
    """`reversi-ref maps`: one row per map with players and size (maps/README.md)."""
    assert main(["maps"]) == 0
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()}
    assert set(bundled_names()) <= set(rows)
    # maps/README.md: othello8x8 is 2 players on 8x8 with no specials; labyrinth50x50 is
    # 4 players on 50x50; ring5p has 5 rows of 19 cells (width x height: 19x5).
    assert rows["othello8x8"][1:3] == ["2", "8x8"] and rows["othello8x8"][-1] == "-"
    assert rows["labyrinth50x50"][1:3] == ["4", "50x50"]
    assert rows["ring5p"][1:3] == ["5", "19x5"]


def test_map_features_of_tiny3x3() -> None:
    """maps/tiny3x3.map, read by hand: cells `0 2 c / 1 x 2 / b 1 0` and two transitions."""
    text = (MAPS / "tiny3x3.map").read_text()
    assert text.count("<->") == 2
    assert map_features(parse_map(text).map) == ["transitions 2", "choice 1", "bonus 1",
                                                 "expansion 1"]


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    """`--version` prints the package version."""
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out == "reversi-ref %s\n" % reversi_ref.__version__
    assert re.fullmatch(r"reversi-ref \d+\.\d+\.\d+\n", out)


def test_every_map_command_takes_a_bundled_name(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """play, perft, lint, show, render, tournament, bench and serve all find `othello8x8`
    or `tiny3x3` from a directory without maps/."""
    monkeypatch.chdir(tmp_path)
    assert main(["play", "othello8x8", "--players", "greedy", "--depth", "1", "--quiet"]) == 0
    assert "final ranking:" in capsys.readouterr().out
    # The standard Othello opening: 1, 4, 12, 56 positions (published perft counts).
    assert main(["perft", "othello8x8", "3"]) == 0
    assert capsys.readouterr().out.strip() == "perft 3 56"
    assert main(["lint", "othello8x8.map"]) == 0
    assert main(["show", "tiny3x3", "--no-color"]) == 0
    assert "0  0 2*c" in capsys.readouterr().out
    assert main(["render", "tiny3x3", "-o", "-"]) == 0
    assert capsys.readouterr().out.startswith("<svg")
    assert main(["tournament", "--maps", "othello8x8,tiny3x3", "--players", "greedy,random",
                 "--games", "1", "--depth", "1", "--quiet"]) == 0
    assert "2 games on othello8x8.map, tiny3x3.map" in capsys.readouterr().out
    assert main(["bench", "--map", "tiny3x3", "--depth", "1", "--runs", "1",
                 "--min-time", "0.01"]) == 0
    assert "tiny3x3" in capsys.readouterr().out
    # serve loads the map, listens and gives up when nobody connects (exit 255).
    assert main(["serve", "-m", "tiny3x3", "-p", "0", "-z", "0.05", "-q"]) == 255
    assert "waiting for 2 clients" in capsys.readouterr().out


# --------------------------------------------------------------------------- play's defaults


def test_time_control_defaults_to_a_second_per_move() -> None:
    """--time-ms and --depth: neither means DEFAULT_TIME_MS; --depth alone, no time limit."""
    assert DEFAULT_TIME_MS == 1000
    assert time_control(None, None) == (1000, 1)
    assert time_control(None, 3) == (0, 3)
    assert time_control(250, None) == (250, 1)
    assert time_control(250, 3) == (250, 3)


class Recording(Player):
    """Plays the first legal move after sleeping `sleep_s`; records the time it was given."""

    def __init__(self, manages_bank: bool, sleep_s: float = 0.0) -> None:
        super().__init__()
        self.manages_bank = manages_bank
        self.sleep_s = sleep_s
        self.given: List[int] = []

    def choose(self, state: GameState, time_ms: int, depth: int) -> Move:
        from reversi_ref import legal_moves
        self.given.append(time_ms)
        time.sleep(self.sleep_s)
        return legal_moves(state)[0]


# Two players on a 1x4 lane "1 2 0 0": player 1 closes (2, 0); then nobody can build.
LANE4 = "2\n0\n0 0\n1 4\n1 2 0 0\n"


def test_players_get_the_bank_or_their_share_of_it() -> None:
    """RULES.md 8: with a time limit the first request carries the bank of one move; a player
    that plans its own time gets it whole, the others the client's share (half of it)."""
    planner, plain = Recording(True), Recording(False)
    run_match(Game(parse_map(LANE4), LANE4), {1: planner, 2: plain}, time_ms=1000)
    assert planner.given == [1000]
    assert plain.given == []  # player 2 is never asked: the lane is closed at once
    game = run_match(Game(parse_map(LANE4), LANE4), {1: plain, 2: planner}, time_ms=1000)
    assert plain.given == [500] and game.is_over


def test_overdrawn_bank_disqualifies() -> None:
    """RULES.md 8: an answer after the bank ran out (10 ms bank, 200 ms taken) disqualifies."""
    slow = Recording(False, sleep_s=0.2)
    game = run_match(Game(parse_map(LANE4), LANE4), {1: slow, 2: Recording(False)},
                     time_ms=10)
    assert "RULES.md 8: answer after the time bank ran out" in game.reasons[1]


def test_pypy_is_suggested_for_big_maps_under_cpython_only() -> None:
    """A 50x50 map under CPython gets the note, a 12x12 one never; PyPy never."""
    import platform
    assert pypy_note(12, 12, "play") is None
    note = pypy_note(50, 50, "play")
    if platform.python_implementation() == "CPython":
        assert note is not None and "pypy3 -m reversi_ref play" in note
    else:
        assert note is None


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_rewrites_one_line_on_a_terminal() -> None:
    """On a terminal the progress line is rewritten in place and cleared before output."""
    stream = FakeTerminal()
    progress = Progress(stream, started=100.0)
    game = Game(parse_map(LANE4), LANE4)
    progress.update(game, 100.05)  # too soon: nothing
    assert stream.getvalue() == ""
    progress.update(game, 100.5)
    assert stream.getvalue() == "\r\x1b[Kmove 0, building, player 1 to move, 0 s"
    progress.clear()
    assert stream.getvalue().endswith("\r\x1b[K")


def test_progress_is_sparse_in_a_log() -> None:
    """Not on a terminal: whole lines, at most one per SPARSE_PROGRESS_SECONDS."""
    stream = io.StringIO()
    progress = Progress(stream, started=0.0)
    game = Game(parse_map(LANE4), LANE4)
    for now in (1.0, 5.0, 14.0):
        progress.update(game, now)
    assert stream.getvalue() == ""
    progress.update(game, 16.0)
    progress.update(game, 20.0)
    assert stream.getvalue() == "move 0, building, player 1 to move, 16 s\n"


# --------------------------------------------------------------------------- usage errors


@pytest.mark.parametrize("args,message", [
    (["serve", "-m", "tiny3x3", "-t", "-5"],
     "argument -t: must be an integer of at least 0, got '-5'"),
    (["serve", "-m", "tiny3x3", "-p", "70000"],
     "argument -p: must be an integer from 0 to 65535, got '70000'"),
    (["serve", "-m", "tiny3x3", "-d", "256"], "argument -d: must be an integer from 0 to 255"),
    (["serve", "-m", "tiny3x3", "-z", "0"], "argument -z: must be a number above 0"),
    (["play", "--players", "foo"], "argument --players: unknown player 'foo' (known: "),
    (["play", "--time-ms", "-1"], "argument --time-ms: must be an integer of at least 0"),
    (["conform", "--list", "--area", "nosucharea"],
     "argument --area: unknown area 'nosucharea'; areas are: map-loading,"),
    (["conform", "--list", "--kind", "castling"], "argument --kind: unknown kind 'castling'"),
    (["tournament", "--maps", "tiny3x3", "--players", "greedy,random", "--games", "0"],
     "argument --games: must be an integer of at least 1, got '0'"),
    (["tournament", "--maps", "tiny3x3", "--players", "greedy"],
     "argument --players: needs at least two different names"),
    (["client", "--server", "localhost"], "argument --server: must be HOST:PORT"),
    (["perft", "tiny3x3", "-2"], "argument DEPTH: must be an integer of at least 0"),
    (["bench", "--runs", "0"], "argument --runs: must be an integer of at least 1"),
])
def test_usage_errors_exit_2_naming_the_argument(capsys: pytest.CaptureFixture[str],
                                                 args: List[str], message: str) -> None:
    """A bad value is argparse's usage error: exit 2, `prog: error: argument X: ...`."""
    err = usage_error(capsys, args)
    assert "reversi-ref %s: error: %s" % (args[0], message) in err
    assert "Traceback" not in err


@pytest.mark.parametrize("args", [
    ["play", "tiny3x3", "--trace", "{missing}/t.json"],
    ["serve", "-m", "tiny3x3", "--trace", "{missing}/t.json"],
    ["serve", "-m", "tiny3x3", "-r", "{missing}/result.txt"],
    ["render", "tiny3x3", "-o", "{missing}/t.svg"],
    ["replay", "trace.json", "-o", "{missing}/t.html"],
    ["tournament", "--maps", "tiny3x3", "--players", "greedy,random", "--json",
     "{missing}/t.json"],
    ["conform", "--engine", "true", "--junit", "{missing}/j.xml"],
    ["bench", "--json", "{missing}/b.json"],
])
def test_output_paths_are_checked_before_any_work(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path, args: List[str]) -> None:
    """An output file in a missing directory is refused before the game (or run) starts."""
    missing = str(tmp_path / "nowhere")
    args = [a.replace("{missing}", missing) for a in args]
    err = usage_error(capsys, args)
    assert "cannot write %s/" % missing in err and "directory %s does not exist" % missing in err
    assert capsys.readouterr().out == ""


def test_standard_output_only_where_it_makes_sense(capsys: pytest.CaptureFixture[str]) -> None:
    """`-o -` writes the SVG to standard output; `--trace -` is refused, not a file named -."""
    assert main(["render", "tiny3x3", "-o", "-"]) == 0
    assert capsys.readouterr().out.startswith("<svg")
    err = usage_error(capsys, ["play", "tiny3x3", "--trace", "-"])
    assert "argument --trace: give a file name" in err


def test_an_output_path_that_is_a_directory_is_refused(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    """`--trace DIR`: a usage error, not a game lost at the end."""
    err = usage_error(capsys, ["play", "tiny3x3", "--trace", str(tmp_path)])
    assert "argument --trace: cannot write" in err and "it is a directory" in err


# --------------------------------------------------------------------------- runtime errors


def test_missing_map_is_one_line_naming_it(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    """Exit 1, one line naming the file."""
    path = tmp_path / "nothing.map"
    assert main(["serve", "-m", str(path)]) == 1
    assert capsys.readouterr().err == ("reversi-ref serve: cannot read %s: no such file\n"
                                       % path)


def test_busy_port_names_address_and_port(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """`serve -p PORT` with PORT taken (and no next ports tried): one line naming it, exit 1."""
    monkeypatch.setattr(referee, "PORT_TRIES", 1)
    taken = socket.socket()
    try:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["serve", "-m", "tiny3x3", "-p", str(port), "-z", "0.05", "-q"]) == 1
    finally:
        taken.close()
    err = capsys.readouterr().err
    assert err == "reversi-ref serve: cannot listen on 127.0.0.1:%d: address already in use\n" \
        % port


def test_gen_specs_check_fails_at_once_without_a_suite(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    """`gen-specs --check` against a directory without a suite: exit 1 before generating."""
    started = time.monotonic()
    assert main(["gen-specs", "--check", "--output", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("reversi-ref gen-specs: no suite to check at %s" % tmp_path)
    assert time.monotonic() - started < 30  # generating would take over a minute


def test_conform_without_a_suite_says_where_to_run_it(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    """No specs/ (an installed package): one line saying where the suite is."""
    assert main(["conform", "--list", "--specs", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "no golden suite at %s" % tmp_path in err and "clone" in err
    assert len(err.splitlines()) == 1


# --------------------------------------------------------------------------- move numbers


def test_play_and_show_number_moves_alike(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    """Move 1 in `play --boards` is the move `show --move 1` shows (and serve logs alike):
    on the lane "1 2 0 0" greedy player 1 plays (2, 0) first."""
    path = tmp_path / "lane.map"
    path.write_text(LANE4)
    trace = tmp_path / "t.json"
    assert main(["play", str(path), "--players", "greedy", "--depth", "1", "--boards",
                 "--no-color", "--trace", str(trace)]) == 0
    out = capsys.readouterr().out
    assert "move 1: player 1 plays (2, 0)" in out
    assert json.loads(trace.read_text())["moves"][0]["x"] == 2
    assert main(["show", str(trace), "--move", "1", "--no-color"]) == 0
    assert "move 1 of " in capsys.readouterr().out


def test_bundled_maps_do_not_leak_outside_the_package() -> None:
    """bundled_map_bytes refuses paths: only names of files in the maps directory."""
    assert bundled_map_bytes("../pyproject.toml") is None
    assert bundled_map_bytes("") is None
    assert bundled_map_bytes(os.path.join("..", "maps", "default")) is None
