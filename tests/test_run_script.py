"""tests/run.py, the README's test command: interpreters side by side, and one after the other."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

import pytest

RUN = Path(__file__).resolve().parent / "run.py"

# A test that notes when it ran; two runs of it overlap in time only if they ran side by side.
TIMED_TEST = '''
import os, time
from pathlib import Path

def test_takes_a_while():
    start = time.time()
    time.sleep(1.5)
    Path(os.environ["RUN_TIMES"], str(os.getpid())).write_text("%r %r" % (start, time.time()))
'''


def run_twice(tmp_path: Path, *options: str) -> Tuple[str, List[Tuple[float, float]]]:
    """Run tests/run.py with this interpreter given twice; (its output, each run's interval)."""
    (tmp_path / "test_timed.py").write_text(TIMED_TEST)
    times = tmp_path / "times"
    times.mkdir()
    # The inner pytest runs need no plugins; hypothesis's alone costs seconds per start under
    # PyPy, and this test starts four.
    env = dict(os.environ, RUN_TIMES=str(times), PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    done = subprocess.run(
        [sys.executable, str(RUN), "--interpreter", sys.executable, "--interpreter",
         sys.executable] + list(options) + [str(tmp_path / "test_timed.py")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
        timeout=120)
    assert done.returncode == 0, done.stdout
    intervals = []
    for path in times.iterdir():
        start, end = path.read_text().split()
        intervals.append((float(start), float(end)))
    assert len(intervals) == 2, done.stdout
    return done.stdout, sorted(intervals)


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="side by side needs a core for each run")
def test_two_interpreters_run_at_the_same_time_and_their_output_is_not_mixed(
        tmp_path: Path) -> None:
    output, ((first_start, first_end), (second_start, second_end)) = run_twice(tmp_path)
    assert second_start < first_end, "the runs did not overlap: %s" % output
    lines = output.splitlines()
    headers = [i for i, line in enumerate(lines) if line.startswith("==== tests/run.py: ")]
    closing = lines.index("==== tests/run.py summary ====")
    summaries = [i for i, line in enumerate(lines[:closing]) if "1 passed" in line]
    # Each run's header, then its own summary line, before the next header: no interleaving.
    assert len(headers) == 2 and len(summaries) == 2, output
    assert headers[0] < summaries[0] < headers[1] < summaries[1] < closing, output
    assert "running beside it" in output
    assert "all 2 interpreter runs passed" in output


def test_serial_runs_one_interpreter_after_the_other(tmp_path: Path) -> None:
    output, ((first_start, first_end), (second_start, second_end)) = run_twice(
        tmp_path, "--serial")
    assert first_end <= second_start, "the runs overlapped: %s" % output
    assert "running beside it" not in output
    assert "all 2 interpreter runs passed" in output


# A test that crashes the interpreter the way PyPy 7.3.11 sometimes does (SIGSEGV), on its
# first CRASHES runs, and passes after that; each run leaves a mark in RUN_MARKS.
CRASHING_TEST = '''
import os, signal
from pathlib import Path

def test_crashes_the_interpreter_at_first():
    marks = Path(os.environ["RUN_MARKS"])
    runs = len(list(marks.iterdir()))
    (marks / str(runs)).write_text("")
    if runs < int(os.environ["CRASHES"]):
        os.kill(os.getpid(), signal.SIGSEGV)
'''


def run_crashing(tmp_path: Path, crashes: int) -> Tuple[subprocess.CompletedProcess[str], int]:
    """tests/run.py on a test that crashes its first `crashes` runs: (the result, runs made)."""
    (tmp_path / "test_crashing.py").write_text(CRASHING_TEST)
    marks = tmp_path / "marks"
    marks.mkdir()
    env = dict(os.environ, RUN_MARKS=str(marks), CRASHES=str(crashes),
               PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    done = subprocess.run(
        [sys.executable, str(RUN), "--interpreter", sys.executable,
         str(tmp_path / "test_crashing.py")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
        timeout=120)
    return done, len(list(marks.iterdir()))


@pytest.mark.skipif(not hasattr(os, "kill") or sys.platform == "win32",
                    reason="needs POSIX signals")
def test_a_run_the_interpreter_crashed_in_runs_again_and_the_summary_says_so(
        tmp_path: Path) -> None:
    done, runs = run_crashing(tmp_path, 1)
    assert done.returncode == 0, done.stdout
    assert runs == 2, done.stdout
    assert "died of SIGSEGV" in done.stdout
    assert "1 passed" in done.stdout and "(run 2 times: the interpreter crashed with SIGSEGV" \
        in done.stdout.split("==== tests/run.py summary ====")[1]


@pytest.mark.skipif(not hasattr(os, "kill") or sys.platform == "win32",
                    reason="needs POSIX signals")
def test_a_run_that_keeps_crashing_fails_after_two_more_tries(tmp_path: Path) -> None:
    done, runs = run_crashing(tmp_path, 10)
    assert done.returncode == 1, done.stdout
    assert runs == 3, done.stdout
    summary = done.stdout.split("==== tests/run.py summary ====")[1]
    assert "FAILED (pytest died of SIGSEGV)" in summary, summary
