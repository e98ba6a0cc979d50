"""`reversi-ref bench soak`: the search client's memory over one whole game.

A referee runs in this process (`reversi_ref.referee.Referee`, port 0 on 127.0.0.1); our
`client` (the `search` player, pondering as by default) and simple opponents (`greedy`, no
pondering) run as subprocesses, ours under the interpreter chosen.  While the game runs, the
client's resident set size is read from /proc (Linux only: `VmRSS` now and `VmHWM`, the peak
so far) and reported at every `--every` moves of the game (all players' moves, as the referee
counts them), and once more at the end.

Every client connects as group 99, a human for the referee (RULES.md 8): its move requests
carry the time bank as for anyone, and the search plans its moves on it, but a late answer is
not disqualified, so a loaded machine cannot end the game early.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from .errors import ReversiError
from .match import load_map
from .referee import Referee

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
SOAK_MAP = PACKAGE_ROOT / "maps" / "labyrinth50x50.map"
POLL_SECONDS = 0.2

Result = Dict[str, Any]


def memory_kb(pid: int) -> Tuple[int, int]:
    """(current RSS, peak RSS) of process `pid` in KiB, from /proc/PID/status; (0, 0) when the
    process is gone."""
    rss = peak = 0
    try:
        with open("/proc/%d/status" % pid, encoding="ascii", errors="replace") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
                elif line.startswith("VmHWM:"):
                    peak = int(line.split()[1])
    except OSError:
        pass
    return rss, peak


def client_command(executable: str, port: int, player: str, ponder: bool) -> List[str]:
    """The command line of one client subprocess (group 99, see the module docstring)."""
    command = [executable, "-m", "reversi_ref", "client", "--server", "127.0.0.1:%d" % port,
               "--player", player, "--seed", "1", "--timeout", "600", "--group", "99"]
    return command + ([] if ponder else ["--no-ponder"])


def child_env() -> Dict[str, str]:
    """The environment of the subprocesses: this checkout first on the import path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(PACKAGE_ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return env


def wait_seated(referee: Referee, count: int, limit: float = 60.0) -> None:
    """Wait until `count` clients have connected (so ours gets seat 1)."""
    deadline = time.monotonic() + limit
    while len(referee.connections) < count:
        if time.monotonic() > deadline:
            raise ReversiError("soak: client %d did not connect within %g s" % (count, limit))
        time.sleep(0.05)


def run_soak(map_path: Path, executable: str, time_limit: int, every: int,
             opponent: str = "greedy", ponder: bool = True, depth: int = 1,
             progress: Optional[Callable[[Dict[str, Any]], None]] = None) -> Result:
    """Play one game with our search client as player 1; RSS checkpoints every `every` moves
    (each also passed to `progress` as it is taken)."""
    if not Path("/proc/self/status").is_file():
        raise ReversiError("soak: needs /proc (Linux) to read the client's memory")
    data, state = load_map(map_path)
    referee = Referee(data, state, map_name=str(map_path), time_limit=time_limit, port=0,
                      depth=depth,
                      connect_timeout=120.0, wait=600.0, quiet=True)
    port = referee.listen()
    runner = threading.Thread(target=referee.run, daemon=True)
    runner.start()
    env = child_env()
    devnull = subprocess.DEVNULL
    ours = subprocess.Popen(client_command(executable, port, "search", ponder), env=env,
                            stdout=devnull, stderr=subprocess.PIPE)
    others: List["subprocess.Popen[bytes]"] = []
    try:
        wait_seated(referee, 1)
        for seat in range(2, state.players + 1):
            others.append(subprocess.Popen(client_command(sys.executable, port, opponent, False),
                                           env=env, stdout=devnull, stderr=devnull))
            wait_seated(referee, seat)
        start = time.monotonic()
        checkpoints: List[Dict[str, Any]] = []
        next_mark = every
        peak = 0
        while runner.is_alive():
            time.sleep(POLL_SECONDS)
            rss, peak_now = memory_kb(ours.pid)
            peak = max(peak, peak_now)
            moves = referee.game.move_count
            if moves >= next_mark:
                checkpoints.append(checkpoint(referee, moves, start, rss, peak))
                if progress is not None:
                    progress(checkpoints[-1])
                next_mark = (moves // every + 1) * every
        rss, peak_now = memory_kb(ours.pid)
        checkpoints.append(checkpoint(referee, referee.game.move_count, start, rss,
                                      max(peak, peak_now)))
        _, errors = ours.communicate(timeout=60)
    finally:
        for process in [ours] + others:
            if process.poll() is None:
                process.kill()
            process.wait()
    final = referee.game.state
    return {"executable": executable, "map": str(map_path), "time_limit": time_limit,
            "depth": depth,
            "opponent": opponent, "ponder": ponder, "every": every,
            "moves": referee.game.move_count, "our_exit": ours.returncode,
            "our_stderr": errors.decode("utf-8", "replace").strip()[-400:],
            "disqualified": sorted(final.disqualified),
            "reasons": {str(p): r for p, r in sorted(referee.game.reasons.items())},
            "checkpoints": checkpoints}


def checkpoint(referee: Referee, moves: int, start: float, rss: int, peak: int) -> Dict[str, Any]:
    """One row of the report."""
    ours = sum(1 for entry in referee.game.trace["moves"] if entry.get("player") == 1)
    return {"moves": moves, "our_moves": ours, "seconds": round(time.monotonic() - start, 1),
            "rss_mb": round(rss / 1024.0, 1), "peak_mb": round(peak / 1024.0, 1)}


HEADER = "%8s %10s %9s %10s %10s" % ("moves", "our moves", "seconds", "RSS MB", "peak MB")


def format_row(row: Dict[str, Any]) -> str:
    """One checkpoint as a line of the table."""
    return "%8d %10d %9.1f %10.1f %10.1f" % (row["moves"], row["our_moves"], row["seconds"],
                                            row["rss_mb"], row["peak_mb"])


def format_soak(report: Result) -> str:
    """The checkpoints as a text table."""
    lines = ["soak: %s on %s, -t %d -d %d, our client = search (ponder %s) as player 1, "
             "others = %s"
             % (report["executable"], Path(report["map"]).name, report["time_limit"],
                report["depth"],
                "on" if report["ponder"] else "off", report["opponent"]),
             HEADER]
    for row in report["checkpoints"]:
        lines.append(format_row(row))
    status = "exit %s" % report["our_exit"]
    if 1 in report["disqualified"]:
        status += ", our client was DISQUALIFIED (%s)" % report["reasons"].get("1", "?")
    if report["our_stderr"]:
        status += ", stderr: %s" % report["our_stderr"]
    lines.append("game over after %d moves; our client: %s" % (report["moves"], status))
    return "\n".join(lines)


def soak_map(path: Optional[str]) -> Path:
    """The map to soak on: `path`, or maps/labyrinth50x50.map."""
    chosen = Path(path) if path else SOAK_MAP
    if not chosen.is_file():
        raise ReversiError("soak: no map file %s" % chosen)
    return chosen
