#!/usr/bin/env python3
"""Run the test suite under this Python and under PyPy, installing pytest where it is missing.

    python3 tests/run.py [--interpreter PATH]... [--serial] [pytest arguments]...

By default the suite runs under the interpreter running this script and under `pypy3` when it
is on PATH.  With a core for each, the interpreters run at the same time: the first one's
output shows as it comes, each other one's when it has finished (`--serial` runs them one after
the other, all output live).  An interpreter that cannot import pytest and hypothesis gets them
installed: first into a venv in `.venv-test/<implementation>-<version>`, else with `pip
install --target` into `.venv-test/<implementation>-<version>-site`; when neither works the
script says what to install.  Every other argument goes to pytest unchanged (`-m slow`, `-k
walking`, `-x`, ...).
With REVERSI_REF_CLUSTER=1 in the environment (.ci/run sets it) and no arguments, the cluster
tests (`-m cluster`: a Dask scheduler and workers on 127.0.0.1) run afterwards too, in a
CPython venv `.venv-test/cluster-<implementation>-<version>` with `distributed` installed.

Prints pytest's closing summary line per interpreter and exits non-zero if any run failed.
Pytest's exit code 5 (no tests collected) counts as a failure for the default suite (a suite
that collects nothing is broken) but not when arguments were given (the selection was empty).
A run that dies of SIGSEGV or SIGBUS (an interpreter crash, not a test failure) runs again, at
most twice, and the summary says so.
Needs only the standard library, so it runs on a fresh machine.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parents[1]
VENVS = ROOT / ".venv-test"
REQUIREMENTS = ["pytest", "hypothesis"]
CHECK_IMPORTS = "import pytest, hypothesis"

PYTEST_NO_TESTS_COLLECTED = 5
# With this variable set to 1 (.ci/run sets it) the cluster tests (`-m cluster`, a Dask
# scheduler and workers on 127.0.0.1) also run, in a CPython venv with `distributed`; the
# default runs never see it, so they skip those tests.
CLUSTER_SWITCH = "REVERSI_REF_CLUSTER"
CLUSTER_REQUIREMENTS = ["distributed"]
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# Debian's pypy3 (PyPy 7.3.11) now and then dies of SIGSEGV while pytest compiles the
# assertion-rewritten test modules: a bug in its garbage collector's array copy (pypy/pypy#3959,
# fixed in PyPy 7.3.16), not in the tests, and it struck CI twice. Such a run is run again; the
# modules rewritten before the crash are cached by then, so they are not compiled again.
CRASH_SIGNALS = {-int(signal.SIGSEGV): "SIGSEGV", -int(signal.SIGBUS): "SIGBUS"}
CRASH_RETRIES = 2
_SUMMARY = re.compile(r"^=*\s*(?P<text>.*\b(?:passed|failed|errors?|skipped|deselected|xfailed|"
                      r"xpassed|no tests ran)\b.*\bin [0-9.]+s\b.*?)\s*=*$")


class Interpreter(NamedTuple):
    """An interpreter to test under, as `implementation version (path)`."""

    path: str
    implementation: str  # "CPython", "PyPy"
    version: str         # "3.11.7"

    @property
    def label(self) -> str:
        """How the report names it."""
        return "%s %s (%s)" % (self.implementation, self.version, self.path)

    @property
    def slug(self) -> str:
        """Directory name for its test environment, e.g. pypy-3.9."""
        return "%s-%s" % (self.implementation.lower(), ".".join(self.version.split(".")[:2]))


class Outcome(NamedTuple):
    """How one interpreter's run went."""

    interpreter: str
    ok: bool
    summary: str


class Suite(NamedTuple):
    """One interpreter ready to run pytest, and where its pytest comes from."""

    interpreter: Interpreter
    python: str
    extra_path: Optional[Path]
    origin: str

    def arguments(self, pytest_args: List[str]) -> List[str]:
        """pytest's arguments, with a cache of its own (runs side by side share no files)."""
        if any("cache_dir=" in arg for arg in pytest_args):
            return pytest_args
        return ["-o", "cache_dir=.pytest_cache/" + self.interpreter.slug] + pytest_args

    def run(self, pytest_args: List[str],
            output: Optional[Callable[[bytes], None]] = None) -> Tuple[int, str]:
        """Run pytest under this interpreter: (exit code, summary line); output as `run_pytest`.

        A run the interpreter crashed in (CRASH_SIGNALS) is run again, up to CRASH_RETRIES
        times; the summary then names the crashes."""
        show = output or echo
        crashes: List[str] = []
        while True:
            code, summary = run_pytest(self.python, self.extra_path,
                                       self.arguments(pytest_args), output=show)
            if code not in CRASH_SIGNALS or len(crashes) == CRASH_RETRIES:
                break
            crashes.append(CRASH_SIGNALS[code])
            show(("\ntests/run.py: %s died of %s, an interpreter crash (pypy/pypy#3959 under "
                  "PyPy before 7.3.16), not a test failure; running it again (%d of %d)\n"
                  % (self.interpreter.label, crashes[-1], len(crashes), CRASH_RETRIES)).encode())
        if crashes:
            summary += " (run %d times: the interpreter crashed with %s before)" % (
                len(crashes) + 1, ", ".join(crashes))
        return code, summary

    def header(self) -> str:
        """The line that introduces this run's output."""
        return "\n==== tests/run.py: %s, pytest from %s ====" % (self.interpreter.label,
                                                                 self.origin)


class SetupError(Exception):
    """No way found to run pytest under an interpreter; the message says what to install."""


# --- running commands ---------------------------------------------------------------------------

def run_quietly(command: Sequence[str], env: Optional[Dict[str, str]] = None) -> Tuple[bool, str]:
    """Run a command, returning (succeeded, its output)."""
    try:
        done = subprocess.run(list(command), cwd=str(ROOT), env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, universal_newlines=True)
    except OSError as error:
        return False, str(error)
    return done.returncode == 0, done.stdout


def environment(extra_path: Optional[Path] = None) -> Dict[str, str]:
    """The environment for a test run: the repository (and `extra_path`) on PYTHONPATH."""
    env = dict(os.environ)
    env.pop(CLUSTER_SWITCH, None)  # only run_cluster_tests turns the cluster tests on
    paths = [str(ROOT)] + ([str(extra_path)] if extra_path else [])
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def describe(path: str) -> Interpreter:
    """Ask an interpreter for its implementation and version."""
    ok, output = run_quietly([path, "-c", "import platform; print(platform.python_implementation()"
                                          " + ' ' + platform.python_version())"])
    words = output.split()
    if not ok or len(words) != 2:
        raise SetupError("cannot run %s: %s" % (path, output.strip() or "no output"))
    return Interpreter(path, words[0], words[1])


# --- getting pytest and hypothesis --------------------------------------------------------------

def venv_python(venv: Path) -> Path:
    """The interpreter inside a venv."""
    if os.name == "nt":
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


def can_import(python: str, extra_path: Optional[Path] = None) -> bool:
    """Whether `python` can import pytest and hypothesis."""
    return run_quietly([python, "-c", CHECK_IMPORTS], environment(extra_path))[0]


def pip_install(python: str, extra: Sequence[str] = ()) -> Tuple[bool, str]:
    """pip-install the requirements with `python -m pip`."""
    message = "tests/run.py: installing %s with %s -m pip %s" % (
        " ".join(REQUIREMENTS), python, " ".join(extra))
    print(message.rstrip(), flush=True)
    return run_quietly([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
                       + list(extra) + REQUIREMENTS)


def try_venv(interpreter: Interpreter, notes: List[str]) -> Optional[str]:
    """A venv python with the requirements, made or repaired as needed; None if impossible."""
    venv = VENVS / interpreter.slug
    python = venv_python(venv)
    if python.exists() and can_import(str(python)):
        return str(python)
    if python.exists() and not run_quietly([str(python), "-m", "pip", "--version"])[0]:
        shutil.rmtree(str(venv))  # a venv without pip, left by an earlier failed attempt
    if not python.exists():
        print("tests/run.py: creating %s" % venv.relative_to(ROOT), flush=True)
        ok, output = run_quietly([interpreter.path, "-m", "venv", str(venv)])
        if not ok:
            notes.append("`%s -m venv` failed: %s" % (interpreter.path, last_line(output)))
            shutil.rmtree(str(venv), ignore_errors=True)
            return None
    ok, output = pip_install(str(python))
    if ok and can_import(str(python)):
        return str(python)
    notes.append("pip install in %s failed: %s" % (venv.relative_to(ROOT), last_line(output)))
    return None


def try_target(interpreter: Interpreter, notes: List[str]) -> Optional[Path]:
    """A `pip install --target` directory with the requirements; None if impossible."""
    target = VENVS / (interpreter.slug + "-site")
    if target.is_dir() and can_import(interpreter.path, target):
        return target
    ok, output = pip_install(interpreter.path, ["--target", str(target), "--upgrade"])
    if ok and can_import(interpreter.path, target):
        return target
    notes.append("`%s -m pip install --target` failed: %s" % (interpreter.path, last_line(output)))
    return None


def install_advice(interpreter: Interpreter) -> str:
    """What a user should install to let this script work for `interpreter`."""
    if interpreter.implementation == "PyPy":
        return ("install PyPy's venv module (Debian/Ubuntu: apt-get install pypy3-venv), or "
                "install pytest and hypothesis for %s yourself" % interpreter.path)
    return ("install the venv module (Debian/Ubuntu: apt-get install python3-venv), or pytest "
            "and hypothesis themselves (apt-get install python3-pytest python3-hypothesis, or "
            "%s -m pip install pytest hypothesis)" % interpreter.path)


def provision(interpreter: Interpreter) -> Tuple[str, Optional[Path], str]:
    """(python to run pytest with, extra PYTHONPATH entry, where pytest comes from)."""
    if can_import(interpreter.path):
        return interpreter.path, None, "its own site-packages"
    notes: List[str] = []
    python = try_venv(interpreter, notes)
    if python:
        return python, None, str(Path(python).parent.parent.relative_to(ROOT))
    target = try_target(interpreter, notes)
    if target:
        return interpreter.path, target, str(target.relative_to(ROOT))
    raise SetupError("cannot get pytest and hypothesis for %s:\n  %s\n  To fix: %s"
                     % (interpreter.label, "\n  ".join(notes), install_advice(interpreter)))


def last_line(output: str) -> str:
    """The last non-empty line of a command's output, for a one-line report."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    return lines[-1] if lines else "no output"


# --- running pytest -----------------------------------------------------------------------------

def summary_line(output: str) -> str:
    """pytest's closing summary line ("3 passed, 1 skipped in 0.52s"), or a stand-in."""
    for line in reversed(_ANSI.sub("", output).splitlines()):
        match = _SUMMARY.match(line.strip())
        if match:
            return match.group("text")
    return "(no pytest summary line)"


# Every pytest started, so that an interrupt stops the ones running beside the first as well.
_RUNNING: List["subprocess.Popen[bytes]"] = []
_RUNNING_LOCK = threading.Lock()


def stop_all_pytest() -> None:
    """Terminate every pytest this script started that is still running."""
    with _RUNNING_LOCK:
        for process in _RUNNING:
            if process.poll() is None:
                process.terminate()
        for process in _RUNNING:
            process.wait()


def echo(chunk: bytes) -> None:
    """Show a piece of pytest's output at once."""
    sys.stdout.buffer.write(chunk)
    sys.stdout.buffer.flush()


def run_pytest(python: str, extra_path: Optional[Path], pytest_args: List[str],
               extra_env: Optional[Dict[str, str]] = None,
               output: Callable[[bytes], None] = echo) -> Tuple[int, str]:
    """Run pytest, passing its output to `output` as it comes; return (exit code, summary)."""
    command = [python, "-m", "pytest"] + pytest_args
    env = environment(extra_path)
    env.update(extra_env or {})
    process = subprocess.Popen(command, cwd=str(ROOT), env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    with _RUNNING_LOCK:
        _RUNNING.append(process)
    if process.stdout is None:  # cannot happen with stdout=PIPE; narrows the type
        raise RuntimeError("no pipe from pytest")
    pipe = process.stdout.fileno()
    tail = b""
    try:
        while True:
            chunk = os.read(pipe, 65536)  # whatever is there, so progress shows live
            if not chunk:
                break
            output(chunk)
            tail = (tail + chunk)[-65536:]
        process.stdout.close()
        code = process.wait()
    except KeyboardInterrupt:
        stop_all_pytest()
        raise
    return code, summary_line(tail.decode("utf-8", errors="replace"))


def is_selection(arg: str) -> bool:
    """Whether a pytest argument narrows which tests run (a path, node id, -m, -k, ...)."""
    return not arg.startswith("-") or arg.startswith(
        ("-m", "-k", "--deselect", "--ignore", "--lf", "--last-failed"))


def judge(code: int, selected: bool) -> Tuple[bool, str]:
    """Whether a pytest exit code is a pass, and a word for it."""
    if code == 0:
        return True, "ok"
    if code == PYTEST_NO_TESTS_COLLECTED:
        if selected:
            return True, "ok (no tests selected)"
        return False, "FAILED (no tests collected)"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "signal %d" % -code
        return False, "FAILED (pytest died of %s)" % name
    return False, "FAILED (pytest exit code %d)" % code


def run_in_turn(suites: List[Suite], pytest_args: List[str]) -> List[Tuple[Suite, int, str]]:
    """Each suite after the other, its output live: (suite, exit code, summary) for each."""
    results: List[Tuple[Suite, int, str]] = []
    for suite in suites:
        print(suite.header(), flush=True)
        results.append((suite,) + suite.run(pytest_args))
    return results


def run_side_by_side(suites: List[Suite],
                     pytest_args: List[str]) -> List[Tuple[Suite, int, str]]:
    """All suites at once (the tests are single-threaded; a core each halves the wall time).

    The first suite's output shows as it comes; each other's is kept and shown, whole, when the
    first has finished and it has too, so no two runs' lines are interleaved."""
    kept: List[List[bytes]] = [[] for _ in suites]
    finished: List[Optional[Tuple[int, str]]] = [None for _ in suites]

    def run_kept(index: int) -> None:
        try:
            finished[index] = suites[index].run(pytest_args, output=kept[index].append)
        except Exception as error:  # reported as that suite's failure, not lost in a thread
            kept[index].append(("tests/run.py: %s\n" % error).encode())
            finished[index] = (1, "(pytest could not be run: %s)" % error)

    threads = [threading.Thread(target=run_kept, args=(index,), daemon=True)
               for index in range(1, len(suites))]
    for thread in threads:
        thread.start()
    print(suites[0].header(), flush=True)
    print("(%s running beside it; %s shown when %s finished)" % (
        ", ".join(suite.interpreter.implementation for suite in suites[1:]),
        "its output is" if len(suites) == 2 else "their output is",
        "it has" if len(suites) == 2 else "each has"), flush=True)
    results = [(suites[0],) + suites[0].run(pytest_args)]
    for index, thread in enumerate(threads, start=1):
        while thread.is_alive():
            thread.join(0.5)  # a timeout keeps Ctrl-C working while waiting
        print(suites[index].header(), flush=True)
        echo(b"".join(kept[index]))
        code, summary = finished[index] or (1, "(no result)")
        results.append((suites[index], code, summary))
    return results


# --- the cluster tests ---------------------------------------------------------------------------

def cluster_python() -> str:
    """A CPython venv with pytest, hypothesis and distributed (made or completed as needed);
    SetupError saying what failed."""
    interpreter = describe(sys.executable)
    venv = VENVS / ("cluster-" + interpreter.slug)
    python = venv_python(venv)
    check = CHECK_IMPORTS + ", distributed"
    if python.exists() and run_quietly([str(python), "-c", check], environment())[0]:
        return str(python)
    if not python.exists():
        print("tests/run.py: creating %s" % venv.relative_to(ROOT), flush=True)
        ok, output = run_quietly([sys.executable, "-m", "venv", str(venv)])
        if not ok:
            shutil.rmtree(str(venv), ignore_errors=True)
            raise SetupError("`%s -m venv` failed: %s" % (sys.executable, last_line(output)))
    print("tests/run.py: installing %s in %s" % (
        " ".join(REQUIREMENTS + CLUSTER_REQUIREMENTS), venv.relative_to(ROOT)), flush=True)
    ok, output = run_quietly([str(python), "-m", "pip", "install", "--quiet",
                              "--disable-pip-version-check"] + REQUIREMENTS
                             + CLUSTER_REQUIREMENTS)
    if not ok or not run_quietly([str(python), "-c", check], environment())[0]:
        raise SetupError("cannot install distributed in %s: %s (to fix: pip install "
                         "'reversi-ref[cluster]' pytest hypothesis there, or unset %s)"
                         % (venv.relative_to(ROOT), last_line(output), CLUSTER_SWITCH))
    return str(python)


def run_cluster_tests() -> Outcome:
    """The `-m cluster` tests under CPython with distributed, with the switch on."""
    label = "cluster tests (CPython + distributed)"
    try:
        python = cluster_python()
    except SetupError as error:
        print("tests/run.py: %s" % error, flush=True)
        return Outcome(label, False, "NOT RUN (setup failed, see above)")
    print("\n==== tests/run.py: %s, %s ====" % (label, python), flush=True)
    files = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "tests").glob("test_cluster*.py"))
    code, summary = run_pytest(python, None, ["-m", "cluster"] + files, {CLUSTER_SWITCH: "1"})
    ok, verdict = judge(code, False)
    return Outcome(label, ok, "%s: %s" % (verdict, summary))


# --- choosing interpreters ----------------------------------------------------------------------

def default_interpreters() -> Tuple[List[str], List[str]]:
    """(interpreters to use, notes): this Python, then pypy3 if on PATH and different."""
    paths = [sys.executable]
    notes: List[str] = []
    pypy = shutil.which("pypy3")
    if pypy is None:
        notes.append("pypy3: not on PATH, not run (Debian/Ubuntu: apt-get install pypy3 "
                     "pypy3-venv)")
    elif os.path.realpath(pypy) != os.path.realpath(sys.executable):
        paths.append(pypy)
    return paths, notes


def parse_arguments(argv: List[str]) -> Tuple[List[str], bool, List[str]]:
    """(interpreter paths or [], whether to run them one at a time, the arguments for pytest)."""
    parser = argparse.ArgumentParser(
        prog="tests/run.py", allow_abbrev=False,
        description="Run the tests under this Python and pypy3; other arguments go to pytest.")
    parser.add_argument("--interpreter", action="append", default=[], metavar="PATH",
                        help="run under this interpreter only (repeatable)")
    parser.add_argument("--serial", action="store_true",
                        help="run the interpreters one after the other, not side by side")
    ours, pytest_args = parser.parse_known_args(argv)
    interpreters: List[str] = ours.interpreter
    return interpreters, bool(ours.serial), pytest_args


def main(argv: Optional[List[str]] = None) -> int:
    """Run the suite under each interpreter; 0 when every run passed."""
    chosen, serial, pytest_args = parse_arguments(sys.argv[1:] if argv is None else argv)
    paths, notes = (chosen, []) if chosen else default_interpreters()
    if sys.stdout.isatty() and not any(arg.startswith("--color") for arg in pytest_args):
        pytest_args = ["--color=yes"] + pytest_args
    selected = any(is_selection(arg) for arg in pytest_args)
    outcomes: List[Outcome] = []
    suites: List[Suite] = []
    for path in paths:
        try:
            interpreter = describe(path)
            suites.append(Suite(interpreter, *provision(interpreter)))
        except SetupError as error:
            print("tests/run.py: %s" % error, flush=True)
            outcomes.append(Outcome(path, False, "NOT RUN (setup failed, see above)"))
    # Side by side only with a core for each: the timed tests (clients against a clock) should
    # not share a core.
    side_by_side = not serial and 1 < len(suites) <= (os.cpu_count() or 1)
    results = run_side_by_side(suites, pytest_args) if side_by_side else run_in_turn(
        suites, pytest_args)
    for suite, code, summary in results:
        ok, verdict = judge(code, selected)
        outcomes.append(Outcome(suite.interpreter.label, ok, "%s: %s" % (verdict, summary)))
    if os.environ.get(CLUSTER_SWITCH) == "1" and not chosen and not selected:
        outcomes.append(run_cluster_tests())
    print("\n==== tests/run.py summary ====")
    for outcome in outcomes:
        print("%s  %s" % (outcome.interpreter, outcome.summary))
    for note in notes:
        print(note)
    failed = [outcome for outcome in outcomes if not outcome.ok]
    print("all %d interpreter runs passed" % len(outcomes) if not failed
          else "%d of %d interpreter runs FAILED" % (len(failed), len(outcomes)))
    return 1 if failed or not outcomes else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("\ntests/run.py: interrupted", file=sys.stderr)
        sys.exit(130)
