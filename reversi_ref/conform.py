"""`reversi-ref conform`: run an external engine over the golden suite.

The engine is a process speaking the adapter protocol of specs/README.md: it reads one JSON
request per line on stdin and writes one JSON answer per line on stdout.  The runner sends each
selected case, judges the answer (`reversi_ref.specs.judge`), prints a readable diff for each
failure and a summary per rule area, writes JUnit XML on request and exits non-zero when any
case failed.  A malformed or unknown answer is a failure; an engine that does not answer within
the per-case timeout is killed and started again for the next case, as is one that exits or
writes something that is not a JSON object.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ElementTree
from collections import deque
from pathlib import Path
from typing import IO, Any, Deque, Dict, Iterable, List, NamedTuple, Optional, Sequence, TextIO

from .cli import int_range, name_list, output_file, positive_float, sigterm_as_interrupt
from .specs.casebook import ACCEPTED_BASES, AREAS, GENERATED, STRICT
from .specs.codec import JSONObject, SpecError, dumps
from .specs.judge import FAIL, PASS, UNSUPPORTED, Verdict, judge, rule_line, show_case
from .specs.oracle import CASE_KINDS, request_of_case
from .specs.suite import default_specs_dir, load_suite

DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_DIFFS = 25
# The engine is given up on when it fails this many times in a row without answering once.
STARTUP_FAILURES = 3
STDERR_LINES = 20


class EngineFailure(Exception):
    """The engine did not answer: it timed out, exited, or its pipe broke."""


class EngineProcess:
    """An engine process: send a line, wait for a line, kill and restart when needed."""

    def __init__(self, command: str, cwd: Optional[str] = None) -> None:
        self.command = command
        self.cwd = cwd
        self.process: Optional[subprocess.Popen[str]] = None
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self.stderr_tail: Deque[str] = deque(maxlen=STDERR_LINES)
        self.starts = 0

    def _start(self) -> subprocess.Popen[str]:
        self.lines = queue.Queue()
        self.stderr_tail = deque(maxlen=STDERR_LINES)
        options: Dict[str, Any] = {}
        if os.name == "posix":
            options["start_new_session"] = True
        process = subprocess.Popen(
            self.command, shell=True, cwd=self.cwd, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
            errors="replace", bufsize=1, **options)
        self.starts += 1
        if process.stdout is None or process.stderr is None:
            raise EngineFailure("could not open the engine's pipes")
        threading.Thread(target=self._read_lines, args=(process.stdout, self.lines),
                         daemon=True).start()
        threading.Thread(target=self._read_stderr, args=(process.stderr, self.stderr_tail),
                         daemon=True).start()
        self.process = process
        return process

    @staticmethod
    def _read_lines(stream: IO[str], lines: "queue.Queue[Optional[str]]") -> None:
        try:
            for line in stream:
                lines.put(line)
        except (OSError, ValueError):
            pass  # the engine was killed and its pipe closed under us
        lines.put(None)

    @staticmethod
    def _read_stderr(stream: IO[str], tail: Deque[str]) -> None:
        try:
            for line in stream:
                tail.append(line.rstrip("\n"))
        except (OSError, ValueError):
            pass  # as above: a closed pipe ends the tail

    def ask(self, request: str, timeout: float) -> str:
        """Send one request line and return the answer line (raises EngineFailure)."""
        process = self.process if self.process is not None else self._start()
        try:
            if process.stdin is None:
                raise BrokenPipeError
            process.stdin.write(request + "\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            self.kill()
            raise EngineFailure("the engine closed its input (exit code %s)%s"
                                % (process.poll(), self.stderr_note())) from None
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.kill()
            raise EngineFailure("no answer within %g s; the engine was killed and will be "
                                "restarted" % timeout) from None
        if line is None:
            code = self._wait_exit()
            self.kill()
            raise EngineFailure("the engine exited (exit code %s) without answering%s"
                                % (code, self.stderr_note()))
        return line

    def _wait_exit(self) -> Optional[int]:
        if self.process is None:
            return None
        try:
            return self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return None

    def stderr_note(self) -> str:
        """The last lines the engine wrote to stderr, for failure reports."""
        time.sleep(0.05)
        if not self.stderr_tail:
            return ""
        return "; its last stderr lines:\n" + "\n".join("    " + s for s in self.stderr_tail)

    def kill(self) -> None:
        """Kill the engine (and its process group) now; the next ask starts a new one."""
        process, self.process = self.process, None
        if process is None:
            return
        try:
            if os.name == "posix":
                os.killpg(process.pid, signal.SIGKILL)
            else:
                process.kill()
        except (ProcessLookupError, PermissionError, OSError):
            pass
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (process.stdin, process.stdout, process.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def close(self) -> None:
        """End the engine: close its input, give it a moment to exit, then kill it."""
        process = self.process
        if process is None:
            return
        try:
            if process.stdin is not None:
                process.stdin.close()
            process.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self.kill()


class Result(NamedTuple):
    """One case's outcome."""

    case: JSONObject
    verdict: Verdict
    seconds: float


# --------------------------------------------------------------------------- selection


def _matches(value: str, patterns: Sequence[str]) -> bool:
    return any(value == p or fnmatch.fnmatchcase(value, p) for p in patterns)


def select_cases(cases: Sequence[JSONObject], areas: Sequence[str] = (),
                 patterns: Sequence[str] = (), kinds: Sequence[str] = (),
                 bases: Sequence[str] = (), exclude_bases: Sequence[str] = (),
                 rules: Sequence[str] = ()) -> List[JSONObject]:
    """The cases matching all given filters: area names, id patterns (exact ids or shell
    globs such as `captures/*` or `*/m001/*`), query kinds, bases to keep or leave out, and
    rule-id globs such as `3.*`.  Without `bases`, `strict` cases are left out."""
    excluded = set(exclude_bases) if bases else set(exclude_bases) | {STRICT}
    selected = []
    for case in cases:
        basis = case.get("basis", GENERATED)
        if areas and case["area"] not in areas:
            continue
        if kinds and case["query"]["kind"] not in kinds:
            continue
        if bases and basis not in bases:
            continue
        if basis in excluded:
            continue
        if rules and not _matches(str(case.get("rule", "")), rules):
            continue
        if patterns and not _matches(case["id"], patterns):
            continue
        selected.append(case)
    return selected


def load_case_files(paths: Sequence[str]) -> List[JSONObject]:
    """The cases of JSONL files in the suite's format (one case per line), such as the golden
    cases `reversi-ref fuzz` writes; a directory stands for its *.jsonl files."""
    cases: List[JSONObject] = []
    for name in paths:
        path = Path(name)
        files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
        for file in files:
            try:
                text = file.read_text(encoding="utf-8")
            except OSError as error:
                raise SpecError("cannot read %s: %s" % (file, error.strerror)) from None
            for number, line in enumerate(text.splitlines(), 1):
                if not line.strip():
                    continue
                try:
                    case = json.loads(line)
                except ValueError as error:
                    raise SpecError("%s:%d: not JSON: %s" % (file, number, error)) from None
                if not isinstance(case, dict) or not {"id", "area", "query", "expected",
                                                      "map", "state"} <= set(case):
                    raise SpecError("%s:%d: not a case of the suite's format" % (file, number))
                case.setdefault("rule", "")
                case.setdefault("basis", GENERATED)
                case.setdefault("description", "")
                cases.append(case)
    return cases


def _split(values: Optional[Iterable[str]]) -> List[str]:
    result: List[str] = []
    for value in values or ():
        result.extend(v for v in value.split(",") if v)
    return result


# --------------------------------------------------------------------------- running


def run_case(engine: EngineProcess, case: JSONObject, timeout: float) -> Verdict:
    """Send one case and judge the answer."""
    def header(summary: str) -> str:
        return "%s  [%s]: %s\n  %s\n" % (case["id"], case["query"]["kind"], summary,
                                         rule_line(case))

    try:
        line = engine.ask(dumps(request_of_case(case)), timeout)
    except EngineFailure as error:
        return Verdict(FAIL, "no answer", header("no answer") + "  " + str(error))
    try:
        answer = json.loads(line)
    except ValueError:
        engine.kill()
        return Verdict(FAIL, "malformed answer", header("malformed answer")
                       + "  the answer is not JSON: %r" % line[:300])
    verdict = judge(case, answer)
    if verdict.summary == "malformed answer" or verdict.summary == "answer for another case":
        engine.kill()
    return verdict


def run_suite(engine_command: str, cases: Sequence[JSONObject], timeout: float = DEFAULT_TIMEOUT,
              fail_fast: bool = False, out: Optional[TextIO] = None,
              max_diffs: int = DEFAULT_MAX_DIFFS, cwd: Optional[str] = None) -> List[Result]:
    """Run the engine over `cases`, printing each failure's diff (the first `max_diffs` in
    full) to `out`; return every result."""
    stream = out if out is not None else sys.stdout
    engine = EngineProcess(engine_command, cwd)
    results: List[Result] = []
    failures = 0
    silent_failures = 0
    answered = False
    try:
        for case in cases:
            started = time.perf_counter()
            verdict = run_case(engine, case, timeout)
            seconds = time.perf_counter() - started
            results.append(Result(case, verdict, seconds))
            if verdict.summary != "no answer":
                answered = True
                silent_failures = 0
            else:
                silent_failures += 1
            if verdict.status == FAIL:
                failures += 1
                if failures <= max_diffs:
                    stream.write("FAIL " + verdict.detail + "\n\n")
                else:
                    stream.write("FAIL %s: %s\n" % (case["id"], verdict.summary))
                stream.flush()
                if fail_fast:
                    break
            if not answered and silent_failures >= STARTUP_FAILURES:
                stream.write("the engine failed %d times in a row without ever answering; "
                             "giving up (check the command: %s)\n" % (silent_failures,
                                                                     engine_command))
                break
    finally:
        engine.close()
    return results


# --------------------------------------------------------------------------- reports


def summary_table(results: Sequence[Result], total_selected: int) -> List[str]:
    """Per-area counts of passed, failed and unsupported cases, and the totals."""
    rows: Dict[str, List[int]] = {}
    for result in results:
        counts = rows.setdefault(result.case["area"], [0, 0, 0])
        index = {PASS: 0, FAIL: 1, UNSUPPORTED: 2}[result.verdict.status]
        counts[index] += 1
    ordered = [a for a in AREAS if a in rows] + sorted(a for a in rows if a not in AREAS)
    lines = ["%-18s %7s %7s %12s" % ("area", "passed", "failed", "unsupported")]
    totals = [0, 0, 0]
    for area in ordered:
        counts = rows[area]
        totals = [t + c for t, c in zip(totals, counts)]
        lines.append("%-18s %7d %7d %12d" % (area, counts[0], counts[1], counts[2]))
    lines.append("%-18s %7d %7d %12d" % ("total", totals[0], totals[1], totals[2]))
    if len(results) < total_selected:
        lines.append("(stopped after %d of %d selected cases)" % (len(results), total_selected))
    return lines


def write_junit(results: Sequence[Result], path: Path, engine_command: str) -> None:
    """Write the results as JUnit XML: one testsuite per area, one testcase per case."""
    root = ElementTree.Element("testsuites", name="reversi-ref conform")
    by_area: Dict[str, List[Result]] = {}
    for result in results:
        by_area.setdefault(result.case["area"], []).append(result)
    for area, area_results in by_area.items():
        failures = sum(1 for r in area_results if r.verdict.status == FAIL)
        skipped = sum(1 for r in area_results if r.verdict.status == UNSUPPORTED)
        suite = ElementTree.SubElement(
            root, "testsuite", name=area, tests=str(len(area_results)), failures=str(failures),
            skipped=str(skipped), errors="0",
            time="%.3f" % sum(r.seconds for r in area_results))
        properties = ElementTree.SubElement(suite, "properties")
        ElementTree.SubElement(properties, "property", name="engine", value=engine_command)
        for result in area_results:
            testcase = ElementTree.SubElement(
                suite, "testcase", classname="reversi-ref.%s" % area, name=result.case["id"],
                time="%.3f" % result.seconds)
            if result.verdict.status == FAIL:
                failure = ElementTree.SubElement(testcase, "failure",
                                                 message=result.verdict.summary,
                                                 type="ConformanceFailure")
                failure.text = result.verdict.detail
            elif result.verdict.status == UNSUPPORTED:
                ElementTree.SubElement(testcase, "skipped", message=result.verdict.summary)
    path.parent.mkdir(parents=True, exist_ok=True)
    ElementTree.ElementTree(root).write(str(path), encoding="utf-8", xml_declaration=True)


# --------------------------------------------------------------------------- command line


def _selected(args: argparse.Namespace) -> List[JSONObject]:
    directory = Path(args.specs) if args.specs else default_specs_dir()
    if not args.cases and not (directory / "index.json").is_file():
        # An installed package has no suite: it is the specs/ directory of a clone.
        raise SpecError("no golden suite at %s (index.json missing): run conform from the "
                        "root of a reversi-ref clone, whose specs/ holds the suite, or give "
                        "--specs DIR" % directory)
    areas = _split(args.area)
    bases, exclude_bases = _split(args.basis), _split(args.exclude_basis)
    cases = load_case_files(args.cases) if args.cases else load_suite(directory, areas or None)
    return select_cases(cases, areas, _split(args.case), _split(args.kind), bases,
                        exclude_bases, _split(args.rule))


def run(args: argparse.Namespace) -> int:
    """The `conform` subcommand."""
    cases = _selected(args)
    if args.list:
        for case in cases:
            print("%-44s %-28s %-9s %s" % (case["id"], case.get("rule") or "-",
                                            case.get("basis", GENERATED), case["description"]))
        print("%d cases" % len(cases))
        return 0
    if args.show:
        for case in cases:
            print(show_case(case))
            print()
        return 0
    if not args.engine:
        print("reversi-ref conform: give --engine \"COMMAND\" (or --list / --show)",
              file=sys.stderr)
        return 2
    if not cases:
        print("reversi-ref conform: no case matches the filters", file=sys.stderr)
        return 2
    started = time.perf_counter()
    print("running %d cases against: %s" % (len(cases), args.engine))
    # SIGTERM ends the run through the normal cleanup, which kills the engine's process group.
    with sigterm_as_interrupt():
        results = run_suite(args.engine, cases, args.timeout, args.fail_fast,
                            max_diffs=args.max_diffs)
    elapsed = time.perf_counter() - started
    print()
    for line in summary_table(results, len(cases)):
        print(line)
    failed = sum(1 for r in results if r.verdict.status == FAIL)
    unsupported = sum(1 for r in results if r.verdict.status == UNSUPPORTED)
    print("%.1f s" % elapsed)
    if args.junit:
        write_junit(results, Path(args.junit), args.engine)
        print("JUnit XML written to %s" % args.junit)
    if unsupported and not failed:
        print("note: %d cases were not checked (the engine answered \"unsupported\")%s"
              % (unsupported, "; --require-all makes that a failure" if not args.require_all
                 else ""))
    if failed or len(results) < len(cases):
        return 1
    if args.require_all and unsupported:
        return 1
    return 0


def register(subparsers: Any) -> None:
    """Add the `conform` subcommand."""
    parser = subparsers.add_parser(
        "conform", help="run an external engine over the golden suite",
        description="Run an engine over the golden suite through the adapter protocol of "
                    "specs/README.md (JSON lines on stdin/stdout) and report where it "
                    "disagrees with the rules.")
    parser.add_argument("--engine", metavar="COMMAND",
                        help="shell command that starts the engine's adapter")
    parser.add_argument("--specs", metavar="DIR", help="suite directory (default: specs/)")
    parser.add_argument("--cases", action="append", metavar="FILE",
                        help="run the cases of this JSONL file (or directory of them) instead "
                             "of the suite, e.g. the golden cases `fuzz` writes (repeatable)")
    parser.add_argument("--area", action="append", metavar="AREA", type=name_list(AREAS, "area"),
                        help="only these rule areas (repeat or separate with commas)")
    parser.add_argument("--case", action="append", metavar="ID",
                        help="only these case ids or globs, e.g. 'captures/*' (repeatable)")
    parser.add_argument("--kind", action="append", metavar="KIND",
                        type=name_list(CASE_KINDS, "kind"),
                        help="only these query kinds: legal_moves, apply, illegal, perft, "
                             "game, map_load, map_reject")
    parser.add_argument("--basis", action="append", metavar="BASIS",
                        type=name_list(ACCEPTED_BASES, "basis", "bases"),
                        help="only cases with these bases: server, hand, generated, strict, "
                             "fuzz "
                             "(default: all but strict)")
    parser.add_argument("--exclude-basis", action="append", metavar="BASIS",
                        type=name_list(ACCEPTED_BASES, "basis", "bases"),
                        help="leave out cases with these bases (repeatable)")
    parser.add_argument("--rule", action="append", metavar="GLOB",
                        help="only these rule ids or globs, e.g. '3.*' or '5.blast' "
                             "(specs/README.md lists them)")
    parser.add_argument("--fail-fast", action="store_true", help="stop at the first failure")
    parser.add_argument("--junit", type=output_file, metavar="FILE",
                        help="write JUnit XML results to FILE")
    parser.add_argument("--timeout", type=positive_float, default=DEFAULT_TIMEOUT, metavar="S",
                        help="seconds per case before the engine is killed (default %g)"
                             % DEFAULT_TIMEOUT)
    parser.add_argument("--max-diffs", type=int_range(0), default=DEFAULT_MAX_DIFFS, metavar="N",
                        help="print full diffs for the first N failures, then ids only "
                             "(default %d)" % DEFAULT_MAX_DIFFS)
    parser.add_argument("--require-all", action="store_true",
                        help="count \"unsupported\" answers as failures for the exit code")
    parser.add_argument("--list", action="store_true",
                        help="list the selected cases (id and rule) and exit")
    parser.add_argument("--show", action="store_true",
                        help="print the selected cases readably (position, query, expected)")
    parser.set_defaults(func=run)
