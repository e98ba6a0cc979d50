"""Tests of the Dask runner on a real cluster: a scheduler and two workers started as separate
processes on 127.0.0.1, as on lab machines.

Marked `cluster`; they run only when REVERSI_REF_CLUSTER=1 (tox -e cluster, and .ci/run
through tests/run.py, which makes a venv with `distributed` for them) and skip when
`distributed` cannot be imported.  The worker-killing test comes last: it kills a worker of
the shared cluster.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, NamedTuple

import pytest

from helpers import map_text
from reversi_ref.cli import main
from reversi_ref.cluster import DaskRunner, partial_path, schedule_digest
from reversi_ref.tournament import play_game, schedule

pytestmark = [
    pytest.mark.cluster,
    pytest.mark.skipif(os.environ.get("REVERSI_REF_CLUSTER") != "1",
                       reason="cluster tests run with REVERSI_REF_CLUSTER=1 (tox -e cluster)"),
]

ROOT = Path(__file__).resolve().parents[1]
FOUR = map_text("""0 0 0 0
                   0 2 1 0
                   0 1 2 0
                   0 0 0 0""")
VARIANTS = ["a=brs:{\"tt_bits\": 8}", "b=brs:{\"tt_bits\": 8, \"mobility\": [0, 0]}"]
STARTUP_SECONDS = 40.0


class Cluster(NamedTuple):
    address: str
    workers: Dict[str, "subprocess.Popen[bytes]"]


def dask_command(module: str) -> List[str]:
    """`dask scheduler` / `dask worker` under this Python (the venv's, not PATH's)."""
    return [sys.executable, "-m", "distributed.cli.%s" % module]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """A scheduler on an ephemeral port of 127.0.0.1 and workers wA and wB, one thread each,
    playing games in process (no pypy3 subprocess: steady timing)."""
    pytest.importorskip("distributed")
    folder = tmp_path_factory.mktemp("dask")
    address_file = folder / "scheduler.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT), REVERSI_REF_GAME_PYTHON="inprocess")
    quiet: Dict[str, Any] = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL,
                             "cwd": str(folder), "env": env}
    processes: List["subprocess.Popen[bytes]"] = [subprocess.Popen(
        dask_command("dask_scheduler") + ["--host", "127.0.0.1", "--port", "0",
                                          "--no-dashboard", "--scheduler-file",
                                          str(address_file)], **quiet)]
    workers: Dict[str, "subprocess.Popen[bytes]"] = {}
    try:
        address = wait_for_address(address_file)
        for name in ("wA", "wB"):
            workers[name] = subprocess.Popen(
                dask_command("dask_worker") + [address, "--name", name, "--nthreads", "1",
                                               "--no-nanny", "--no-dashboard", "--host",
                                               "127.0.0.1"], **quiet)
            processes.append(workers[name])
        wait_for_workers(address, 2)
        yield Cluster(address, workers)
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_for_address(path: Path) -> str:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        try:
            return str(json.loads(path.read_text())["address"])
        except (OSError, ValueError, KeyError):
            time.sleep(0.1)
    pytest.fail("the Dask scheduler wrote no address to %s" % path)


def wait_for_workers(address: str, count: int) -> None:
    distributed: Any = importlib.import_module("distributed")
    with distributed.Client(address, timeout=STARTUP_SECONDS) as client:
        client.wait_for_workers(count, timeout=STARTUP_SECONDS)


def comparable(record: Dict[str, Any]) -> Any:
    """A record without timings or where it was played."""
    return (record["game"], record["map"], record["seed"], record["moves"],
            [(s["player"], s["score"], s["rank"]) for s in record["seats"]])


def tournament(tmp_path: Path, extra: List[str], out: str, games: int = 6) -> int:
    (tmp_path / "four.map").write_text(FOUR)
    args = ["tournament", "--maps", str(tmp_path / "four.map"), "--players", "a,b",
            "--games", str(games), "--depth", "1", "--seed", "9", "--json", out, "--quiet"]
    for variant in VARIANTS:
        args += ["--variant", variant]
    return main(args + extra)


def test_cluster_plays_the_local_schedule(cluster: Cluster, tmp_path: Path) -> None:
    """The same games as the local runner: count, seating, seeds and results."""
    on_cluster, local = str(tmp_path / "cluster.json"), str(tmp_path / "local.json")
    assert tournament(tmp_path, ["--scheduler", cluster.address], on_cluster) == 0
    assert tournament(tmp_path, [], local) == 0
    remote = json.loads(Path(on_cluster).read_text())["games"]
    here = json.loads(Path(local).read_text())["games"]
    assert [comparable(r) for r in remote] == [comparable(r) for r in here]
    assert [[s["player"] for s in r["seats"]] for r in remote] == [["a", "b"], ["b", "a"]] * 3
    assert {r["worker"] for r in remote} <= {"wA", "wB"}
    assert not partial_path(on_cluster).exists()


def test_a_restarted_cluster_run_skips_the_games_it_has(cluster: Cluster,
                                                        tmp_path: Path) -> None:
    """A partial file holding game 1 (marked) is resumed: game 1 is not played again."""
    out = str(tmp_path / "resume.json")
    (tmp_path / "four.map").write_text(FOUR)
    variants = [("a", "brs", '{"tt_bits": 8}'), ("b", "brs", '{"tt_bits": 8, "mobility": [0, 0]}')]
    specs = schedule([("four.map", FOUR)], ["a", "b"], 4, 9, 0, 1, variants)
    kept = dict(play_game(specs[1]), seconds=-1.0)
    partial_path(out).write_text(
        json.dumps({"seed": 9, "schedule": schedule_digest(specs)}) + "\n"
        + json.dumps(kept) + "\n")
    assert tournament(tmp_path, ["--scheduler", cluster.address], out, games=4) == 0
    games = json.loads(Path(out).read_text())["games"]
    assert [g["game"] for g in games] == [0, 1, 2, 3]
    assert games[1]["seconds"] == -1.0 and "worker" not in games[1]
    assert all("worker" in g for g in games if g["game"] != 1)


def test_sprt_on_the_cluster(cluster: Cluster, tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    """--sprt with --scheduler plays its pairs on the workers (capped at 2 pairs here)."""
    out = str(tmp_path / "sprt.json")
    assert tournament(tmp_path, ["--scheduler", cluster.address, "--sprt", "0,10",
                                 "--max-pairs", "2"], out) == 0
    assert "games 4 (2 pairs)" in capsys.readouterr().out
    games = json.loads(Path(out).read_text())["games"]
    assert [g["game"] for g in games] == [0, 1, 2, 3]
    assert {g["worker"] for g in games} <= {"wA", "wB"}


def test_killing_a_worker_loses_no_game(cluster: Cluster) -> None:
    """Worker wA is killed (SIGKILL) while games are in flight: every game still comes back
    exactly once, the later ones from wB."""
    variants = [("a", "brs", '{"tt_bits": 8}'), ("b", "brs", '{"tt_bits": 8, "mobility": [0, 0]}')]
    eight = Path(ROOT / "maps" / "othello8x8.map").read_text()
    specs = schedule([("othello8x8.map", eight)], ["a", "b"], 16, 3, 0, 1, variants)
    runner = DaskRunner(cluster.address)
    records: List[Dict[str, Any]] = []
    killed_after = -1
    try:
        for record in runner.play_groups([spec] for spec in specs):
            records.append(record)
            if killed_after < 0 and record["worker"] == "wA":
                cluster.workers["wA"].send_signal(signal.SIGKILL)
                cluster.workers["wA"].wait()
                killed_after = len(records)
    finally:
        runner.close()
    assert killed_after > 0
    assert sorted(r["game"] for r in records) == list(range(16))
    assert all(r["worker"] == "wB" for r in records[killed_after + 1:])
    expected = {s.number: comparable(play_game(s)) for s in specs[:4]}
    assert all(comparable(r) == expected[r["game"]] for r in records if r["game"] in expected)
