"""A game stopped by Ctrl-C or SIGTERM keeps its trace: `serve --trace` and `play --trace`
write the moves played so far, marked `interrupted`, with no result, and exit with 130."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import IO, List

import pytest

from reversi_ref.render.record import load_record

REPO = Path(__file__).resolve().parents[1]
COMMAND = [sys.executable, "-m", "reversi_ref"]
ENV = dict(os.environ, PYTHONPATH=str(REPO))
TIMEOUT = 60.0

pytestmark = pytest.mark.skipif(os.name != "posix", reason="signals to a child are POSIX")


def read_until_move(stream: IO[str], number: int) -> List[str]:
    """The lines of `stream` up to the one announcing move `number`."""
    lines = []
    for line in stream:
        lines.append(line)
        if re.match(r"move %d: player \d+ plays" % number, line):
            return lines
    raise AssertionError("the game never reached move %d:\n%s" % (number, "".join(lines)))


def check_interrupted_trace(path: Path, at_least: int) -> None:
    """The trace is marked interrupted, has no result, holds at least `at_least` moves, and
    replays through the rules to the boards it records."""
    data = json.loads(path.read_text())
    assert data["interrupted"] is True and data["final"] is None
    assert len(data["moves"]) >= at_least
    record = load_record(path)  # raises when a recorded board differs from the replay
    assert len(record.frames) == len(data["moves"]) + 1


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_stopped_referee_writes_the_trace_so_far(tmp_path: Path, number: int) -> None:
    trace = tmp_path / "trace.json"
    serve = subprocess.Popen(COMMAND + ["serve", "-m", str(REPO / "maps" / "othello8x8.map"),
                                        "-p", "0", "-z", "20", "--trace", str(trace)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=ENV)
    clients: List["subprocess.Popen[bytes]"] = []
    try:
        assert serve.stdout is not None
        address = serve.stdout.readline().split()[-1]
        clients = [subprocess.Popen(COMMAND + ["client", "--server", address, "--player",
                                               "search", "--no-ponder", "--timeout", "20"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    env=ENV)
                   for _ in range(2)]
        read_until_move(serve.stdout, 3)
        serve.send_signal(number)
        _, err = serve.communicate(timeout=TIMEOUT)
        assert serve.returncode == 130, err
        assert err.strip() == "reversi-ref serve: interrupted"
    finally:
        serve.kill()
        serve.wait(TIMEOUT)
        for client in clients:
            client.kill()
            client.wait(TIMEOUT)
    check_interrupted_trace(trace, 3)


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_stopped_local_game_writes_the_trace_so_far(tmp_path: Path, number: int) -> None:
    trace = tmp_path / "trace.json"
    play = subprocess.Popen(COMMAND + ["play", "othello8x8", "--players", "search,search",
                                       "--time-ms", "500", "--boards", "--trace", str(trace)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        assert play.stdout is not None
        read_until_move(play.stdout, 3)
        play.send_signal(number)
        _, err = play.communicate(timeout=TIMEOUT)
        assert play.returncode == 130, err
        assert err.strip().endswith("reversi-ref play: interrupted")
    finally:
        play.kill()
        play.wait(TIMEOUT)
    check_interrupted_trace(trace, 3)
