"""Tests of `reversi_ref.cluster` that need no Dask: specs on the wire, the game subprocess,
the local runner and resumable result files."""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Sequence

import pytest

from helpers import map_text
from reversi_ref.cluster import (ClusterError, LocalRunner, _GameServer, partial_path,
                                 play_group, play_resumable, read_partial, schedule_digest,
                                 spec_from_dict, spec_to_dict)
from reversi_ref.tournament import GameSpec, play_game, schedule

# A 4x4 Othello start; small transposition tables keep each game to a few milliseconds.
FOUR = map_text("""0 0 0 0
                   0 2 1 0
                   0 1 2 0
                   0 0 0 0""")
VARIANTS = [("a", "brs", '{"tt_bits": 8}'), ("b", "brs", '{"tt_bits": 8, "mobility": [0, 0]}')]


def specs(games: int = 4) -> List[GameSpec]:
    return schedule([("four", FOUR)], ["a", "b"], games, 5, 0, 1, VARIANTS)


def comparable(record: Dict[str, Any]) -> Any:
    """A record without its timings (which differ from run to run)."""
    return (record["game"], record["moves"],
            [(s["player"], s["score"], s["rank"]) for s in record["seats"]])


def test_spec_survives_json() -> None:
    """A spec sent to a worker as JSON comes back equal, tuples and all."""
    for spec in specs():
        assert spec_from_dict(json.loads(json.dumps(spec_to_dict(spec)))) == spec


def test_game_subprocess_plays_the_same_game() -> None:
    """The worker's game subprocess (here under this Python) plays a game exactly as
    `play_game` does in process, and several games in a row."""
    server = _GameServer(sys.executable)
    try:
        for spec in specs(2):
            assert comparable(server.play(spec)) == comparable(play_game(spec))
    finally:
        server.process.kill()
        server.process.wait()


def test_game_subprocess_reports_a_dead_interpreter() -> None:
    """A subprocess that dies is reported as an error the scheduler can retry, not a hang."""
    server = _GameServer(sys.executable)
    server.process.kill()
    server.process.wait()
    with pytest.raises((RuntimeError, OSError)):
        server.play(specs(1)[0])


class Interrupted(Exception):
    pass


class DyingRunner:
    """Plays in process, then stops as a killed run would after `games` records."""

    workers = 1

    def __init__(self, games: int) -> None:
        self.games = games
        self.played: List[int] = []

    def play_groups(self, groups: Iterable[Sequence[GameSpec]]) -> Iterator[Dict[str, Any]]:
        for group in groups:
            for spec in group:
                if len(self.played) == self.games:
                    raise Interrupted()
                self.played.append(spec.number)
                yield play_game(spec)


def test_a_restarted_run_plays_only_the_missing_games(tmp_path: Path) -> None:
    """Records reach the partial file as they come; a restart plays only the games it lacks,
    and the result has each game once, equal to an uninterrupted run."""
    out = str(tmp_path / "result.json")
    schedule_ = specs(5)
    first = DyingRunner(2)
    with pytest.raises(Interrupted):
        play_resumable(schedule_, first, out, 5)
    assert sorted(read_partial(out, schedule_digest(schedule_))) == [0, 1]
    second = DyingRunner(100)
    records = play_resumable(schedule_, second, out, 5)
    assert second.played == [2, 3, 4]
    assert [comparable(r) for r in records] == [comparable(play_game(s)) for s in schedule_]


def test_rejects_a_partial_file_of_another_schedule(tmp_path: Path) -> None:
    """A partial file left by other arguments is refused, not mixed in."""
    out = str(tmp_path / "result.json")
    partial_path(out).write_text(json.dumps({"seed": 1, "schedule": "other"}) + "\n")
    with pytest.raises(ClusterError, match="another schedule"):
        play_resumable(specs(2), DyingRunner(10), out, 5)


def test_local_runner_plays_every_game_once() -> None:
    """Two processes, groups of two: every game comes back once, as played in process."""
    runner = LocalRunner(2)
    try:
        schedule_ = specs(4)
        records = list(runner.play_groups([schedule_[0:2], schedule_[2:4]]))
    finally:
        runner.close()
    assert sorted(comparable(r) for r in records) == [comparable(play_game(s))
                                                       for s in schedule_]


def play_slowly_after_the_first(spec: GameSpec) -> Dict[str, Any]:
    """A stand-in for play_game: game 0 at once, every other game in ten minutes."""
    if spec.number != 0:
        time.sleep(600)
    return play_game(spec)


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork",
                    reason="the stand-in reaches the workers only when they are forked")
def test_local_runner_closes_without_waiting_for_the_games_in_play(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Closing the pool (Ctrl-C, or an SPRT that has decided) stops the games being played
    instead of waiting for them to end."""
    monkeypatch.setattr("reversi_ref.tournament.play_game", play_slowly_after_the_first)
    runner = LocalRunner(2)
    try:
        stream = runner.play_groups([spec] for spec in specs(3))
        assert next(stream)["game"] == 0
    finally:
        started = time.monotonic()
        runner.close()
    assert time.monotonic() - started < 60  # not the 600 s of the games in play


def test_core_imports_without_dask() -> None:
    """`import reversi_ref` and the cluster module's stdlib part load no Dask."""
    code = ("import sys, reversi_ref, reversi_ref.cli, reversi_ref.cluster, reversi_ref.sprt; "
            "import reversi_ref.tune; "
            "sys.exit(1 if any(m.split('.')[0] in ('dask', 'distributed') "
            "for m in sys.modules) else 0)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_scheduler_without_dask_is_a_clear_error(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Without `distributed`, --scheduler ends in one line saying what to install."""
    from reversi_ref.cli import main
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails
    assert main(["tournament", "--maps", "maps/othello8x8.map", "--players", "search,greedy",
                 "--games", "1", "--scheduler", "local:1"]) == 1
    assert "reversi-ref[cluster]" in capsys.readouterr().err


def test_rejects_a_bad_scheduler_address(capsys: pytest.CaptureFixture[str]) -> None:
    """--scheduler must look like tcp://HOST:PORT or local:N (usage error)."""
    from reversi_ref.cli import main
    with pytest.raises(SystemExit) as stopped:  # argparse's usage error
        main(["tournament", "--maps", "maps/othello8x8.map", "--players", "search,greedy",
              "--scheduler", "somewhere"])
    assert stopped.value.code == 2
    assert "--scheduler" in capsys.readouterr().err


def test_games_go_to_pypy3_when_the_worker_has_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A CPython worker with pypy3 on PATH plays in a pypy3 subprocess, with the same result;
    REVERSI_REF_GAME_PYTHON=inprocess keeps the games in process."""
    import platform
    import shutil
    from reversi_ref import cluster
    spec = specs(1)[0]
    monkeypatch.setenv("REVERSI_REF_GAME_PYTHON", "inprocess")
    assert play_group([spec])[0]["python"] == platform.python_implementation()
    if platform.python_implementation() == "PyPy" or not shutil.which("pypy3"):
        pytest.skip("needs CPython with pypy3 on PATH")
    monkeypatch.delenv("REVERSI_REF_GAME_PYTHON")
    try:
        record = play_group([spec])[0]
    finally:
        server = getattr(cluster._LOCAL, "server", None)
        if server is not None:
            server.process.kill()
            server.process.wait()
            cluster._LOCAL.server = None
    assert record["python"] == "pypy3"
    assert comparable(record) == comparable(play_game(spec))
