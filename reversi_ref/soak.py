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
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from .errors import ReversiError
from .match import load_map
from .referee import Referee
from .rules import ranking

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


def client_command(executable: str, port: int, player: str, ponder: bool,
                   memory_every: int = 0) -> List[str]:
    """The command line of one client subprocess (group 99, see the module docstring)."""
    command = [executable, "-m", "reversi_ref", "client", "--server", "127.0.0.1:%d" % port,
               "--player", player, "--seed", "1", "--timeout", "600", "--group", "99"]
    if memory_every:
        command += ["--memory-every", str(memory_every)]
    return command + ([] if ponder else ["--no-ponder"])


MEMORY_LINE = re.compile(r"^memory: own move (\d+), (.*), history (\d+)$")


def last_memory_line(path: Path) -> Dict[str, float]:
    """The figures of the last complete `memory:` line in our client's log (empty if none):
    the names `client.format_memory` writes, in MB (`gc_seconds` in seconds)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    for line in reversed(text.splitlines()[:-1] if not text.endswith("\n")
                         else text.splitlines()):
        found = MEMORY_LINE.match(line)
        if found:
            figures = {"own_moves": float(found.group(1)), "history": float(found.group(3))}
            for part in found.group(2).split(", "):
                name, _, value = part.partition(" ")
                figures[name] = float(value)
            return figures
    return {}


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
    log = tempfile.NamedTemporaryFile(prefix="reversi-ref-soak-", suffix=".log", delete=False)
    log_path = Path(log.name)
    ours = subprocess.Popen(client_command(executable, port, "search", ponder, memory_every=1),
                            env=env, stdout=log, stderr=subprocess.PIPE)
    log.close()
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
        peak = rss = 0
        while runner.is_alive():
            time.sleep(POLL_SECONDS)
            rss_now, peak_now = memory_kb(ours.pid)
            # The client may have left already (the end of the game): keep the last reading.
            rss = rss_now or rss
            peak = max(peak, peak_now)
            moves = referee.game.move_count
            if moves >= next_mark:
                checkpoints.append(checkpoint(referee, moves, start, rss, peak,
                                              last_memory_line(log_path)))
                if progress is not None:
                    progress(checkpoints[-1])
                next_mark = (moves // every + 1) * every
        rss_now, peak_now = memory_kb(ours.pid)
        rss = rss_now or rss
        _, errors = ours.communicate(timeout=60)
        if not checkpoints or checkpoints[-1]["moves"] != referee.game.move_count:
            checkpoints.append(checkpoint(referee, referee.game.move_count, start, rss,
                                          max(peak, peak_now), last_memory_line(log_path)))
    finally:
        for process in [ours] + others:
            if process.poll() is None:
                process.kill()
            process.wait()
        log_path.unlink()
    final = referee.game.state
    return {"executable": executable, "map": str(map_path), "time_limit": time_limit,
            "depth": depth,
            "opponent": opponent, "ponder": ponder, "every": every,
            "moves": referee.game.move_count, "our_exit": ours.returncode,
            "our_stderr": errors.decode("utf-8", "replace").strip()[-400:],
            "disqualified": sorted(final.disqualified),
            "reasons": {str(p): r for p, r in sorted(referee.game.reasons.items())},
            "phase": final.phase,
            "stones": {str(s.player): s.score for s in ranking(final)},
            "checkpoints": checkpoints}


def checkpoint(referee: Referee, moves: int, start: float, rss: int, peak: int,
               own: Dict[str, float]) -> Dict[str, Any]:
    """One row of the report; `own` is what our client last logged about its memory."""
    ours = sum(1 for entry in referee.game.trace["moves"] if entry.get("player") == 1)
    row: Dict[str, Any] = {"moves": moves, "our_moves": ours,
                           "seconds": round(time.monotonic() - start, 1),
                           "rss_mb": round(rss / 1024.0, 1), "peak_mb": round(peak / 1024.0, 1)}
    for name in ("heap", "heap_peak", "jit", "gc_seconds", "jit_releases", "history"):
        if name in own:
            row[name] = own[name]
    return row


HEADER = "%8s %10s %9s %10s %10s %8s %10s %7s %8s %9s" % (
    "moves", "our moves", "seconds", "RSS MB", "peak MB", "heap MB", "heap peak", "JIT MB",
    "GC s", "releases")


def format_row(row: Dict[str, Any]) -> str:
    """One checkpoint as a line of the table (the heap columns "-" when not known)."""
    extra = ["%8s" % ("%.1f" % row["heap"] if "heap" in row else "-"),
             "%10s" % ("%.1f" % row["heap_peak"] if "heap_peak" in row else "-"),
             "%7s" % ("%.1f" % row["jit"] if "jit" in row else "-"),
             "%8s" % ("%.1f" % row["gc_seconds"] if "gc_seconds" in row else "-"),
             "%9s" % ("%d" % row["jit_releases"] if "jit_releases" in row else "-")]
    return "%8d %10d %9.1f %10.1f %10.1f %s" % (row["moves"], row["our_moves"], row["seconds"],
                                               row["rss_mb"], row["peak_mb"], " ".join(extra))


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
    if report.get("stones"):
        lines.append("stones at the end (phase %s): %s" % (report.get("phase", "?"), ", ".join(
            "player %s %d" % (player, count) for player, count in report["stones"].items())))
    # An opponent's disqualification can end the game early; say so, or the table looks
    # like a whole game.
    for player in report["disqualified"]:
        if player != 1:
            lines.append("player %d (%s) was disqualified: %s"
                         % (player, report["opponent"], report["reasons"].get(str(player), "?")))
    return "\n".join(lines)


def soak_map(path: Optional[str]) -> Path:
    """The map to soak on: `path`, or maps/labyrinth50x50.map."""
    chosen = Path(path) if path else SOAK_MAP
    if not chosen.is_file():
        raise ReversiError("soak: no map file %s" % chosen)
    return chosen
