"""Playing many games: in local processes or on a Dask cluster, resumably.

A runner takes groups of games (`tournament.GameSpec`; one game, or the two games of a pair)
and yields each game's record as it finishes.  `tournament.LocalRunner` plays them in this
process or in a process pool; `DaskRunner` sends each group to a Dask cluster (`--scheduler
tcp://HOST:PORT`, or `local:N` for a `LocalCluster` of N worker processes) as one pure task
whose key is made of its first game's number and a digest of the specs: a worker that dies
takes no game with it (the scheduler runs its tasks again elsewhere), and a key finishes once,
so no game is counted twice.  `distributed` is imported only when a `DaskRunner` is made, so
the rest of reversi-ref needs the standard library alone.

On a worker, games are played in a long-lived `pypy3` subprocess (`reversi_ref.cluster_worker`)
when the worker runs CPython and `pypy3` is on its PATH (the engine is 8-14x faster there),
else in the worker's own interpreter.  REVERSI_REF_GAME_PYTHON overrides the choice: a path to
an interpreter, or `inprocess`.

Resuming (`tournament --json FILE`): each record is appended to FILE.partial (JSON lines, after
a header naming the seed and the schedule) as it arrives; a restarted run with the same
arguments reads it back and plays only the games it lacks; the finished run writes FILE and
removes FILE.partial.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import logging
import os
import platform
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any, Dict, Iterable, Iterator, List, Optional, Sequence, TextIO

from .errors import ReversiError
from .tournament import GameSpec, LocalRunner, play_game

# Games a runner keeps in flight per worker, so a worker never waits for the next task.
IN_FLIGHT_PER_WORKER = 2


class ClusterError(ReversiError):
    """The cluster cannot be reached or used; the message names the scheduler."""


# ---------------------------------------------------------------------------------------------
# Specs on the wire
# ---------------------------------------------------------------------------------------------


def spec_to_dict(spec: GameSpec) -> Dict[str, Any]:
    """A GameSpec as a JSON-ready dict."""
    return {"number": spec.number, "map_name": spec.map_name, "map_text": spec.map_text,
            "seats": list(spec.seats), "seed": spec.seed, "time_ms": spec.time_ms,
            "depth": spec.depth, "variants": [list(v) for v in spec.variants]}


def spec_from_dict(data: Dict[str, Any]) -> GameSpec:
    """The GameSpec of `spec_to_dict`."""
    return GameSpec(int(data["number"]), str(data["map_name"]), str(data["map_text"]),
                    tuple(str(s) for s in data["seats"]), int(data["seed"]),
                    int(data["time_ms"]), int(data["depth"]),
                    tuple((str(v[0]), str(v[1]), str(v[2])) for v in data["variants"]))


def spec_digest(specs: Sequence[GameSpec]) -> str:
    """A short digest of a group of specs, for task keys and resume checks."""
    text = json.dumps([spec_to_dict(s) for s in specs], sort_keys=True)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


# ---------------------------------------------------------------------------------------------
# Worker side: where the games are played
# ---------------------------------------------------------------------------------------------


class _GameServer:
    """A `python -m reversi_ref.cluster_worker` subprocess playing one spec per line."""

    def __init__(self, python: str) -> None:
        package_root = str(Path(__file__).resolve().parents[1])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [package_root] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
        self.python = python
        self.process = subprocess.Popen(
            [python, "-m", "reversi_ref.cluster_worker"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, env=env, universal_newlines=True, bufsize=1)

    def play(self, spec: GameSpec) -> Dict[str, Any]:
        """The record of one game played by the subprocess; RuntimeError if it died."""
        stdin, stdout = self.process.stdin, self.process.stdout
        if stdin is None or stdout is None:
            raise RuntimeError("game subprocess %s has no pipes" % self.python)
        stdin.write(json.dumps(spec_to_dict(spec)) + "\n")
        stdin.flush()
        line = stdout.readline()
        if not line:
            raise RuntimeError("game subprocess %s exited (code %s)"
                               % (self.python, self.process.poll()))
        answer: Dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise RuntimeError("game %d failed in %s: %s" % (spec.number, self.python,
                                                            answer["error"]))
        record: Dict[str, Any] = answer["record"]
        return record


_LOCAL = threading.local()


def game_python() -> Optional[str]:
    """The interpreter to play games in on this worker, or None for in-process."""
    choice = os.environ.get("REVERSI_REF_GAME_PYTHON", "")
    if choice == "inprocess":
        return None
    if choice:
        return choice
    if platform.python_implementation() == "PyPy":
        return None
    return shutil.which("pypy3")


def play_group(specs: Sequence[GameSpec]) -> List[Dict[str, Any]]:
    """Play a group of games on this worker (in its pypy3 subprocess when there is one); each
    record notes the interpreter that played it."""
    python = game_python()
    records: List[Dict[str, Any]] = []
    if python is None:
        for spec in specs:
            record = play_game(spec)
            record["python"] = platform.python_implementation()
            records.append(record)
        return records
    server: Optional[_GameServer] = getattr(_LOCAL, "server", None)
    if server is None or server.python != python or server.process.poll() is not None:
        try:
            server = _GameServer(python)
        except OSError:
            os.environ["REVERSI_REF_GAME_PYTHON"] = "inprocess"  # no such interpreter here
            return play_group(specs)
        _LOCAL.server = server
    for spec in specs:
        record = server.play(spec)
        record["python"] = os.path.basename(python)
        records.append(record)
    return records


# ---------------------------------------------------------------------------------------------
# Runners
# ---------------------------------------------------------------------------------------------


class DaskRunner:
    """Plays groups on a Dask cluster: `tcp://HOST:PORT` or `local:N` (a LocalCluster)."""

    def __init__(self, scheduler: str, connect_timeout: float = 20.0) -> None:
        try:
            # Imported by name: Dask is optional and untyped, so it is Any here.
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise ClusterError("--scheduler needs Dask: pip install 'reversi-ref[cluster]' "
                               "(or pip install distributed)") from None
        self.scheduler = scheduler
        self.cluster: Any = None
        try:
            if scheduler.startswith("local:"):
                count = int(scheduler[len("local:"):])
                if count < 1:
                    raise ValueError
                # silence_logs: the workers' warnings about tasks cancelled at the end of a
                # test would read as errors; real failures reach us through the futures.
                self.cluster = distributed.LocalCluster(
                    n_workers=count, threads_per_worker=1, processes=True,
                    host="127.0.0.1", dashboard_address=None, silence_logs=logging.CRITICAL)
                self.client = distributed.Client(self.cluster, timeout=connect_timeout)
            else:
                self.client = distributed.Client(scheduler, timeout=connect_timeout)
        except ValueError:
            self.close()
            raise ClusterError("--scheduler local:N needs a worker count N >= 1, got %r"
                               % scheduler) from None
        except (OSError, TimeoutError) as error:
            self.close()
            raise ClusterError("cannot reach the Dask scheduler %s: %s"
                               % (scheduler, error)) from None
        self.distributed = distributed

    @property
    def workers(self) -> int:
        """Worker threads the cluster has now (at least 1)."""
        info = self.client.scheduler_info()
        return max(1, sum(int(w.get("nthreads", 1)) for w in info.get("workers", {}).values()))

    def play_groups(self, groups: Iterable[Sequence[GameSpec]]) -> Iterator[Dict[str, Any]]:
        """Each game's record as it finishes; each group is one task keyed by its first game
        number and digest, with retries for errors (lost workers are rerun anyway)."""
        completed = self.distributed.as_completed()
        source = iter(groups)
        in_flight: Dict[str, Any] = {}
        exhausted = False
        try:
            while True:
                window = self.workers * IN_FLIGHT_PER_WORKER
                while not exhausted and len(in_flight) < window:
                    group: Optional[Sequence[GameSpec]] = next(source, None)
                    if group is None:
                        exhausted = True
                        break
                    specs = list(group)
                    key = "reversi-game-%06d-%s" % (specs[0].number, spec_digest(specs))
                    future = self.client.submit(_dask_task, specs, key=key, pure=True,
                                                retries=3)
                    in_flight[future.key] = future
                    completed.add(future)
                if not in_flight:
                    return
                future = next(completed)
                in_flight.pop(future.key, None)
                try:
                    records = future.result()
                except Exception as error:  # failed on every retry, or the cluster went away
                    raise ClusterError("task %s failed on the Dask cluster %s: %s: %s" % (
                        future.key, self.scheduler, type(error).__name__, error)) from None
                for record in records:
                    yield record
        finally:
            for future in in_flight.values():
                future.cancel()

    def close(self) -> None:
        """Disconnect (and stop a LocalCluster we started)."""
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None

    def describe(self) -> str:
        """How the games are played, for the report."""
        return "Dask %s (%d worker threads)" % (self.scheduler, self.workers)


def _dask_task(specs: List[GameSpec]) -> List[Dict[str, Any]]:
    """play_group on a Dask worker; each record names the worker that played it."""
    worker = importlib.import_module("distributed").get_worker()
    records = play_group(specs)
    name = str(worker.name)
    for record in records:
        record["worker"] = name
    return records


def make_runner(scheduler: Optional[str], jobs: int) -> Any:
    """A DaskRunner for `scheduler`, else a LocalRunner of `jobs` processes."""
    if scheduler:
        return DaskRunner(scheduler)
    return LocalRunner(jobs)


# ---------------------------------------------------------------------------------------------
# Resumable result files
# ---------------------------------------------------------------------------------------------


def partial_path(path: str) -> Path:
    """Where records of an unfinished run with result file `path` are kept."""
    return Path(path + ".partial")


def schedule_digest(specs: Sequence[GameSpec]) -> str:
    """A digest of a whole schedule: a partial file is reused only for the same one."""
    return spec_digest(specs)


def saved_seed(path: Optional[str]) -> Optional[int]:
    """The seed of an unfinished run's partial file, so a restart without --seed resumes it."""
    if not path or not partial_path(path).is_file():
        return None
    try:
        with partial_path(path).open(encoding="utf-8") as handle:
            header = json.loads(handle.readline())
        return int(header["seed"])
    except (ValueError, KeyError, TypeError, OSError):
        return None


def read_partial(path: str, digest: str) -> Dict[int, Dict[str, Any]]:
    """The records of an unfinished run with the same schedule, by game number ({} when there
    is none); ClusterError when the file belongs to another schedule."""
    partial = partial_path(path)
    if not partial.is_file():
        return {}
    records: Dict[int, Dict[str, Any]] = {}
    with partial.open(encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    try:
        header = json.loads(lines[0]) if lines else {}
    except ValueError:
        header = {}
    if header.get("schedule") != digest:
        raise ClusterError("%s holds games of another schedule (other players, maps, games or "
                           "seed); remove it or pass the same arguments" % partial)
    for line in lines[1:]:
        try:
            record = json.loads(line)
        except ValueError:
            continue  # the last line of a run killed while writing it
        records[int(record["game"])] = record
    return records


class SavedGames:
    """The records of a run with result file `result_path`, kept in its partial file: those
    an earlier run with the same `digest` left there (`read_partial`), and each new one
    appended as it is kept.  No file without a result path."""

    def __init__(self, result_path: Optional[str], seed: int, digest: str) -> None:
        self.records: Dict[int, Dict[str, Any]] = {}
        self.handle: Optional[IO[str]] = None
        self.path: Optional[Path] = None
        if not result_path:
            return
        self.path = partial_path(result_path)
        self.records = read_partial(result_path, digest)
        fresh = not self.records
        cut = not fresh and not self.path.read_bytes().endswith(b"\n")
        self.handle = self.path.open("w" if fresh else "a", encoding="utf-8")
        if fresh:
            self.handle.write(json.dumps({"seed": seed, "schedule": digest}) + "\n")
        elif cut:
            self.handle.write("\n")  # end a line cut off by a kill, so the next is whole
        self.handle.flush()

    def keep(self, record: Dict[str, Any]) -> Dict[str, Any]:
        """Add a newly played game's record, to the file too; the record."""
        self.records[int(record["game"])] = record
        if self.handle is not None:
            self.handle.write(json.dumps(record) + "\n")
            self.handle.flush()
        return record

    def close(self) -> None:
        """Close the file; it stays for a later run (`finish_partial` removes it)."""
        if self.handle is not None:
            self.handle.close()
            self.handle = None


def play_resumable(specs: Sequence[GameSpec], runner: Any, result_path: Optional[str],
                   seed: int, progress: Optional[TextIO] = None) -> List[Dict[str, Any]]:
    """Every game's record, in game order: those already in the partial file of
    `result_path`, then the others played on `runner`, each appended to the file as it
    arrives; each game counted once."""
    saved = SavedGames(result_path, seed, schedule_digest(specs))
    have = {n: r for n, r in saved.records.items() if 0 <= n < len(specs)}
    todo = [spec for spec in specs if spec.number not in have]
    started = time.monotonic()
    total = len(specs)
    resumed = len(have)

    def show() -> None:
        if progress is not None:
            done = len(have)
            filled = 30 * done // total if total else 30
            rate = (done - resumed) / max(time.monotonic() - started, 1e-9)
            progress.write("\rtournament [%s%s] %d/%d games, %.0f s, %.1f games/s" % (
                "#" * filled, "-" * (30 - filled), done, total, time.monotonic() - started,
                rate))
            progress.flush()

    show()
    try:
        for record in runner.play_groups([spec] for spec in todo):
            number = int(record["game"])
            if number in have:
                continue  # cannot happen with unique keys; never count a game twice
            have[number] = saved.keep(record)
            show()
    finally:
        saved.close()
        if progress is not None:
            progress.write("\n")
            progress.flush()
    return [have[n] for n in sorted(have)]


def play_on_cluster(args: Any, specs: Sequence[GameSpec], seed: int) -> List[Dict[str, Any]]:
    """`tournament --scheduler`: every game's record, played on the cluster, resumable."""
    runner = DaskRunner(args.scheduler)
    try:
        if not args.quiet:
            print("tournament: %d games on %s" % (len(specs), runner.describe()),
                  file=sys.stderr)
        return play_resumable(specs, runner, args.json, seed,
                              None if args.quiet else sys.stderr)
    finally:
        runner.close()


def finish_partial(result_path: Optional[str]) -> None:
    """Remove the partial file once the result file is written."""
    if result_path:
        try:
            partial_path(result_path).unlink()
        except OSError:
            pass


__all__ = ["ClusterError", "DaskRunner", "LocalRunner", "SavedGames", "finish_partial",
           "game_python", "make_runner", "play_group", "play_on_cluster", "play_resumable",
           "read_partial", "saved_seed", "spec_digest", "spec_from_dict", "spec_to_dict"]
