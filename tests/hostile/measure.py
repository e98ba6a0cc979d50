#!/usr/bin/env python3
"""Time and peak memory of reversi-ref on hostile input, each run in a fresh process.

    python3 tests/hostile/measure.py parse EXPR            read_map(EXPR) (EXPR: Python text)
    python3 tests/hostile/measure.py parse-file MAP        read_map of a map file's text
    python3 tests/hostile/measure.py lint-file MAP         `reversi-ref lint MAP`
    python3 tests/hostile/measure.py client-map EXPR       `reversi-ref client` sent EXPR's bytes
                                                           as its map by a fake server
    python3 tests/hostile/measure.py seating K             `reversi-ref serve -z 20` with K silent
                                                           connections before 3 real clients
Options: --python PATH (the interpreter measured; default this one), --root DIR (the checkout
whose reversi_ref is imported; default this one).  Prints one JSON line: the interpreter, the
seconds (wall clock and CPU), the peak RSS (VmHWM of the process, MB; see peak.py), the exit code and the first and last
lines of its output.

The tests in this package use `run_bounded` and `serve_map` from here, so that a test and the
figure in docs/hostile.md come from the same code.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence

ROOT = Path(__file__).resolve().parents[2]
HEADER = struct.Struct(">BI")
# The young generation of a measured PyPy process (PyPy's own default when it cannot read the
# cache size); see `run_bounded`.
PYPY_NURSERY = "4M"


class Run(NamedTuple):
    """How a bounded run ended."""

    code: int            # exit code; -9 when it was killed at the timeout
    seconds: float       # wall-clock time
    cpu_seconds: float   # user and system time of the process (less sensitive to load)
    peak_mb: float       # peak RSS of the process, MB (VmHWM through peak.py)
    output: str          # stdout and stderr together
    timed_out: bool


def run_bounded(command: Sequence[str], timeout: float, memory_mb: int = 0,
                root: Path = ROOT) -> Run:
    """Run `command` with reversi_ref from `root`, killed after `timeout` s and (when
    `memory_mb`) limited to that much address space; its exit code, time and peak RSS."""
    def limit() -> None:
        if memory_mb:
            size = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (size, size))
    env = dict(os.environ, PYTHONPATH=str(root))
    # PyPy sizes its young generation from the "cache size" of /proc/cpuinfo, which some
    # virtual machines give as the whole last-level cache (300 MB on one of ours: a 100 MB
    # peak before reading a byte of input).  A fixed size measures our code, not the machine.
    env.setdefault("PYPY_GC_NURSERY", PYPY_NURSERY)
    command = list(command)
    peak_file = None
    if len(command) >= 3 and command[1] in ("-c", "-m") and Path("/proc/self/status").exists():
        # A Python command runs through peak.py, which reports its own peak (see there).
        handle, peak_file = tempfile.mkstemp(prefix="reversi-peak-")
        os.close(handle)
        env["REVERSI_PEAK_FILE"] = peak_file
        command.insert(1, str(Path(__file__).with_name("peak.py")))
    try:
        return _run_watched(command, env, timeout, limit, root, peak_file)
    finally:
        if peak_file is not None:
            os.unlink(peak_file)  # also when Popen itself failed


def _run_watched(command: List[str], env: Dict[str, str], timeout: float,
                 limit: Callable[[], None], root: Path, peak_file: Optional[str]) -> Run:
    """Start `command` and wait for it, killing it after `timeout` s; its peak from
    `peak_file` when peak.py wrote one, else from wait4."""
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               env=env, cwd=str(root), preexec_fn=limit)
    killed: List[bool] = []

    def watchdog() -> None:
        if process.poll() is None:
            killed.append(True)
            process.kill()
    timer = threading.Timer(timeout, watchdog)
    timer.start()
    chunks: List[bytes] = []
    reader = threading.Thread(target=lambda: chunks.append(
        process.stdout.read() if process.stdout is not None else b""), daemon=True)
    reader.start()
    try:
        _, status, usage = os.wait4(process.pid, 0)
    finally:
        timer.cancel()
    process.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.monotonic() - start
    reader.join(timeout)
    output = b"".join(chunks).decode("utf-8", errors="replace")
    peak_mb = usage.ru_maxrss / 1024.0  # also counts the parent's memory at the fork
    if peak_file is not None:
        with open(peak_file, encoding="ascii") as written:
            reported = written.read().strip()
        if reported:
            peak_mb = int(reported) / 1024.0
    return Run(process.returncode, seconds, usage.ru_utime + usage.ru_stime,
               peak_mb, output, bool(killed))


class MapServer:
    """A fake server for one client: reads its group number, sends `payload` as a map
    message (header claiming `length`, default the payload's), then waits for the close."""

    def __init__(self, payload: bytes, length: Optional[int] = None, timeout: float = 60.0) -> None:
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(1)
        self.listener.settimeout(timeout)
        self.port: int = self.listener.getsockname()[1]
        self.payload = payload
        self.length = len(payload) if length is None else length
        self.timeout = timeout
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return
        try:
            conn.settimeout(self.timeout)
            conn.recv(6)
            conn.sendall(HEADER.pack(2, self.length))
            view = memoryview(self.payload)
            for start in range(0, len(view), 1 << 20):
                conn.sendall(view[start:start + (1 << 20)])
            while conn.recv(65536):
                pass
        except OSError:
            pass
        finally:
            conn.close()
            self.listener.close()


def serve_map(payload: bytes, python: str, timeout: float, memory_mb: int = 0,
              root: Path = ROOT, length: Optional[int] = None) -> Run:
    """`reversi-ref client` (under `python`) against a MapServer sending `payload`."""
    server = MapServer(payload, length, timeout)
    command = [python, "-m", "reversi_ref", "client", "--server",
               "127.0.0.1:%d" % server.port, "--player", "random", "--seed", "1",
               "--no-ponder", "--timeout", str(timeout)]
    run = run_bounded(command, timeout, memory_mb, root)
    server.thread.join(timeout)
    return run


TRIO = "3\n0\n0 0\n3 3\n1 2 0\n2 3 0\n3 1 0\n"  # player k can only play (2, k - 1)


def seating(python: str, silent: int, z: float, root: Path = ROOT) -> Dict[str, object]:
    """`reversi-ref serve` with `silent` connections that never send a group number, made
    first, then three clients that do and play: when each got its map, or how it ended."""
    directory = Path(os.environ.get("TMPDIR", "/tmp"))
    map_path = directory / ("hostile-trio-%d.map" % os.getpid())
    map_path.write_text(TRIO)
    server = subprocess.Popen(
        [python, "-m", "reversi_ref", "serve", "-m", str(map_path), "-p", "0", "-q", "-z",
         str(z)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
        env=dict(os.environ, PYTHONPATH=str(root)), cwd=str(root))
    try:
        line = server.stdout.readline() if server.stdout is not None else ""
        port = int(line.rsplit(":", 1)[1])
        start = time.monotonic()
        quiet = [socket.create_connection(("127.0.0.1", port)) for _ in range(silent)]
        ends: Dict[str, object] = {}

        def play(seat: int) -> None:
            sock = socket.create_connection(("127.0.0.1", port), timeout=z + 30)
            sock.sendall(HEADER.pack(1, 1) + bytes([seat]))
            data, me = b"", 0
            try:
                while True:
                    chunk = sock.recv(65536)
                    if not chunk:
                        ends.setdefault("client %d" % seat, "closed after %.2f s, no game"
                                        % (time.monotonic() - start))
                        return
                    data += chunk
                    while len(data) >= 5 and len(data) >= 5 + HEADER.unpack_from(data)[1]:
                        kind, length = HEADER.unpack_from(data)
                        payload, data = data[5:5 + length], data[5 + length:]
                        if kind == 2:
                            ends["client %d" % seat] = "map after %.2f s" % (
                                time.monotonic() - start)
                        elif kind == 3:
                            me = payload[0]
                        elif kind == 4:
                            sock.sendall(HEADER.pack(5, 5) + struct.pack(">HHB", 2, me - 1, 0))
                        elif kind == 9:
                            ends["game over"] = "after %.2f s" % (time.monotonic() - start)
                            return
            except OSError as error:
                ends.setdefault("client %d" % seat, "%s after %.2f s, no game"
                                % (error, time.monotonic() - start))
            finally:
                sock.close()
        threads = [threading.Thread(target=play, args=(seat,)) for seat in (1, 2, 3)]
        for thread in threads:
            thread.start()
            time.sleep(0.05)
        for thread in threads:
            thread.join(z + 60)
        for sock in quiet:
            sock.close()
        ends["exit"] = server.wait(60)
        return ends
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        map_path.unlink()


def report(run: Run, python: str) -> Dict[str, object]:
    """The JSON line printed for one measurement."""
    lines = [line for line in run.output.splitlines() if line.strip()]
    implementation = subprocess.run(
        [python, "-c", "import platform; print(platform.python_implementation())"],
        stdout=subprocess.PIPE, universal_newlines=True).stdout.strip()
    return {"python": implementation, "seconds": round(run.seconds, 2),
            "cpu_seconds": round(run.cpu_seconds, 2),
            "peak_rss_mb": round(run.peak_mb, 1), "exit": run.code,
            "timed_out": run.timed_out, "first_line": lines[0][:160] if lines else "",
            "last_line": lines[-1][:160] if lines else ""}


PARSE = ("import sys, time\nfrom reversi_ref import read_map\nfrom reversi_ref.errors import "
         "MapError\ntext = %s\nstart = time.monotonic()\ntry:\n    read_map(text)\n    "
         "print('loads')\nexcept MapError as error:\n    print('rejected:', error)\n"
         "print('read_map took %%.3f s' %% (time.monotonic() - start))\n")


def main(argv: Optional[List[str]] = None) -> int:
    """Measure one case; print its JSON line."""
    parser = argparse.ArgumentParser(prog="tests/hostile/measure.py", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("case", choices=["parse", "parse-file", "lint-file", "client-map",
                                         "seating"])
    parser.add_argument("what", help="a Python expression giving the text (bytes for "
                                     "client-map), or a map file for parse-file")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--timeout", type=float, default=600.0)
    args = parser.parse_args(argv)
    if args.case == "seating":
        print(json.dumps(seating(args.python, int(args.what), 20.0, args.root)))
        return 0
    if args.case == "lint-file":
        run = run_bounded([args.python, "-m", "reversi_ref", "lint", str(Path(args.what).resolve())],
                          args.timeout, root=args.root)
        print(json.dumps(report(run, args.python)))
        return 0
    if args.case == "client-map":
        payload = eval(args.what)  # a measurement script's own argument, e.g. b"9 " * 8388608
        run = serve_map(payload, args.python, args.timeout, root=args.root)
    else:
        text = ("open(%r, encoding='utf-8', errors='surrogateescape').read()" % args.what
                if args.case == "parse-file" else args.what)
        run = run_bounded([args.python, "-c", PARSE % text], args.timeout, root=args.root)
    print(json.dumps(report(run, args.python)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
