"""The `fuzz` subcommand: random games against an engine, failures shrunk and written out.

    reversi-ref fuzz --engine "COMMAND" [--seed N] [--games N | --time S] [--jobs J]
                     [--features F,...] [--out DIR] [--game K] [--keep-going]

Game K of a run with seed S is drawn from `random.Random` seeded with S and K only, so
`--seed S --game K` replays exactly that game, on CPython and PyPy alike.  Games run in
`--jobs` worker processes, each with its own engine process.  The first failing game (or, with
`--keep-going`, the first of each kind of failure) is shrunk, printed as a board diff with the
command that reproduces it, and written to `--out` as a golden case that `conform --cases`
runs.
"""

from __future__ import annotations

import argparse
import multiprocessing
import queue
import shlex
import sys
import time
from pathlib import Path
from typing import Any, AbstractSet, Dict, List, Optional, TextIO, Tuple

from ..errors import ReversiError
from ..specs.codec import JSONObject, dumps
from ..specs.judge import FAIL, judge
from .maps import FEATURES
from .play import GameRun, ProcessAnswerer, Signature, game_name, run_generated
from .shrink import DEFAULT_SHRINK_SECONDS, Shrinker, board_cells

DEFAULT_GAMES = 200
DEFAULT_TIMEOUT = 10.0
PROGRESS_SECONDS = 5.0

# The rule area of a golden case, by the start of its rule id (first match wins).
AREA_OF_RULE = (
    ("1.", "map-loading"), ("2.", "transitions"), ("3.override", "overrides"),
    ("3.expansion", "expansion"), ("3.choice", "choice"), ("3.inversion", "inversion"),
    ("3.bonus", "bonus"), ("3.count-wraps", "bonus"), ("3.", "captures"),
    ("4.end-of-phase-1", "phase-change"), ("4.game-over", "phase-change"), ("4.", "turn-order"),
    ("5.end-of-game", "phase-change"), ("5.", "bombing"), ("6.", "disqualification"),
    ("7.", "ranking"),
)


def area_of(rule: str) -> str:
    """The suite's rule area for a rule id."""
    for prefix, area in AREA_OF_RULE:
        if rule.startswith(prefix):
            return area
    return "games"


class Tally:
    """Counts for the progress line: games, steps, answers judged, failures per rule id."""

    def __init__(self) -> None:
        self.games = 0
        self.steps = 0
        self.checks = 0
        self.unsupported = 0
        self.failures: Dict[str, int] = {}
        self.started = time.monotonic()

    def add(self, steps: int, checks: int, failure: Optional[Signature],
            unsupported: int = 0) -> None:
        """Count one finished game."""
        self.games += 1
        self.unsupported += unsupported
        self.steps += steps
        self.checks += checks
        if failure is not None:
            self.failures[failure[1]] = self.failures.get(failure[1], 0) + 1

    def line(self) -> str:
        """`games G, steps S, answers A, failures: RULE N ... [T s]`."""
        failed = ", ".join("%s %d" % item for item in sorted(self.failures.items())) or "none"
        skipped = ", unsupported %d" % self.unsupported if self.unsupported else ""
        return "games %d, steps %d, answers %d%s, failures: %s  [%.0f s]" % (
            self.games, self.steps, self.checks, skipped, failed,
            time.monotonic() - self.started)


# =========================================================================== running games

# What a worker sends back per game: number, steps, answers, unsupported, the failing run,
# and an error text when the game could not be played at all (a fault of the fuzzer).
GameResult = Tuple[int, int, int, int, Optional[GameRun], str]


def _worker(command: str, timeout: float, seed: int, features: List[str],
            tasks: "multiprocessing.Queue[Optional[int]]",
            results: "multiprocessing.Queue[GameResult]") -> None:
    """A worker process: play the games it is sent with its own engine until told to stop."""
    ask = ProcessAnswerer(command, timeout)
    try:
        while True:
            game = tasks.get()
            if game is None:
                break
            try:
                run = run_generated(seed, game, ask, frozenset(features))
            except Exception as error:  # reported by the main process, which stops
                results.put((game, 0, 0, 0, None, "%s: %s" % (type(error).__name__, error)))
                continue
            results.put((game, len(run.script.steps), run.checks, run.unsupported,
                         run if run.failure is not None else None, ""))
    except KeyboardInterrupt:
        pass
    finally:
        ask.close()


class Runner:
    """Plays games 0, 1, 2, ... until enough games, the time limit or a failure."""

    def __init__(self, args: argparse.Namespace, features: AbstractSet[str],
                 out: TextIO) -> None:
        self.args = args
        self.features = features
        self.out = out
        self.tally = Tally()
        self.failed: Dict[Signature, Tuple[int, GameRun]] = {}
        # When each kind of failure was first seen: seconds into the run, games finished.
        self.found: Dict[Signature, Tuple[float, int]] = {}
        self.last_progress = time.monotonic()
        self.last_line = ""

    def more(self, next_game: int) -> bool:
        """Whether another game should start."""
        if self.failed and not self.args.keep_going:
            return False
        if self.args.time is not None:
            return time.monotonic() - self.tally.started < float(self.args.time)
        return next_game < int(self.args.games)

    def record(self, game: int, steps: int, checks: int, unsupported: int,
               run: Optional[GameRun]) -> None:
        """Count a finished game; keep the first failing game of each signature."""
        failure = run.failure if run is not None else None
        self.tally.add(steps, checks, failure.signature if failure is not None else None,
                       unsupported)
        if run is not None and failure is not None:
            known = self.failed.get(failure.signature)
            if known is None or game < known[0]:
                self.failed[failure.signature] = (game, run)
            self.found.setdefault(failure.signature, (time.monotonic() - self.tally.started,
                                                      self.tally.games))
        now = time.monotonic()
        if now - self.last_progress >= PROGRESS_SECONDS:
            self.last_progress = now
            self.progress()

    def progress(self) -> None:
        """Print the progress line (unless it would repeat the last one)."""
        line = self.tally.line()
        if line.split("  [")[0] == self.last_line.split("  [")[0]:
            return
        self.last_line = line
        self.out.write(line + "\n")
        self.out.flush()

    def run_serial(self, first: int) -> None:
        """Play the games in this process."""
        ask = ProcessAnswerer(self.args.engine, self.args.timeout)
        try:
            game = first
            while self.more(game):
                run = run_generated(self.args.seed, game, ask, self.features)
                self.record(game, len(run.script.steps), run.checks, run.unsupported,
                            run if run.failure is not None else None)
                game += 1
        finally:
            ask.close()

    def run_parallel(self, first: int, jobs: int) -> None:
        """Play the games in `jobs` worker processes; on stopping, let the games under way
        finish so that the lowest failing game is the one reported."""
        tasks: "multiprocessing.Queue[Optional[int]]" = multiprocessing.Queue()
        results: "multiprocessing.Queue[GameResult]" = \
            multiprocessing.Queue()
        workers = [multiprocessing.Process(
            target=_worker, args=(self.args.engine, self.args.timeout, self.args.seed,
                                  sorted(self.features), tasks, results), daemon=True)
            for _ in range(jobs)]
        for worker in workers:
            worker.start()
        game, busy = first, 0
        try:
            while busy < 2 * jobs and self.more(game):
                tasks.put(game)
                game, busy = game + 1, busy + 1
            while busy:
                try:
                    done, steps, checks, unsupported, run, error = results.get(timeout=1.0)
                except queue.Empty:
                    if not any(worker.is_alive() for worker in workers):
                        raise ReversiError("every fuzz worker process has died") from None
                    continue
                if error:
                    raise ReversiError("game %d could not be played: %s" % (done, error))
                busy -= 1
                self.record(done, steps, checks, unsupported, run)
                if self.more(game):
                    tasks.put(game)
                    game, busy = game + 1, busy + 1
        finally:
            for _ in workers:
                tasks.put(None)
            for worker in workers:
                worker.join(timeout=10)
                if worker.is_alive():
                    worker.terminate()


# =========================================================================== reporting


def reproduce_command(args: argparse.Namespace, game: int) -> str:
    """The command line that plays game `game` of this run alone."""
    words = ["reversi-ref", "fuzz", "--engine", args.engine, "--seed", str(args.seed),
             "--game", str(game)]
    if args.features:
        words += ["--features", args.features]
    return " ".join(shlex.quote(w) for w in words)


def steps_text(steps: Any) -> str:
    """Steps written as `x,y,s` and `dq:p`, as the suite's hand-made cases write them."""
    words = []
    for step in steps:
        if "move" in step:
            words.append("%d,%d,%d" % tuple(step["move"]))
        else:
            words.append("dq:%d" % step["disqualify"])
    return " ".join(words) or "none"


def golden_case(run: GameRun, seed: int, game: int) -> JSONObject:
    """The failure of a shrunk run as a golden case (basis `fuzz`) in the suite's format."""
    assert run.failure is not None
    failure = run.failure
    kind, rule, difference = failure.signature
    case = dict(failure.case)
    area = area_of(rule)
    name = game_name(seed, game)
    case["id"] = "%s/%s/%s-01" % (area, name, kind.replace("_", "-"))
    case["area"] = area
    case["rule"] = rule
    # The failing question comes after `moves` steps, the last of them the failing step
    # itself when the question is about a step.
    steps = run.script.steps[:failure.moves]
    last = ""
    if kind in ("apply", "illegal") and steps:
        last = "; the step checked: %s" % steps_text(steps[-1:])
        steps = steps[:-1]
    start = "the map's start" if not steps else "the map's start and %d step%s: %s" % (
        len(steps), "" if len(steps) == 1 else "s", steps_text(steps))
    case["description"] = (
        "fuzz: seed %d game %d, shrunk: %s; the position is %s%s (an illegal move "
        "disqualifies its mover)" % (seed, game, difference, start, last))
    ordered: JSONObject = {key: case[key] for key in (
        "id", "area", "rule", "basis", "description", "map", "state", "query", "expected")}
    return ordered


def write_case(case: JSONObject, directory: Path, seed: int, game: int) -> Path:
    """Write the case as a one-line JSONL file in `directory`; return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / ("%s.jsonl" % game_name(seed, game))
    path.write_text(dumps(case) + "\n", encoding="utf-8")
    return path


def report(args: argparse.Namespace, game: int, found: GameRun, shrunk: GameRun,
           seconds: float, evaluations: int, out: TextIO, when: str = "") -> None:
    """Print one failure: what failed, the sizes, the reproducing commands and the diff."""
    assert found.failure is not None and shrunk.failure is not None
    kind, rule, difference = found.failure.signature
    case = golden_case(shrunk, args.seed, game)
    path = write_case(case, Path(args.out), args.seed, game)
    verdict = judge(case, _answer_again(args, case))
    out.write("\nFAIL game %d (seed %d): %s, rule %s: %s\n" % (game, args.seed, kind, rule,
                                                              difference))
    out.write("  found%s: %d cells, %d moves; shrunk in %.1f s (%d replays) to %d cells, "
              "%d moves\n" % (when, board_cells(found.script), found.failure.moves, seconds,
                              evaluations, board_cells(shrunk.script), shrunk.failure.moves))
    out.write("  reproduce this game alone: %s\n" % reproduce_command(args, game))
    out.write("  golden case written to %s; check it with:\n    reversi-ref conform --engine "
              "%s --cases %s\n" % (path, shlex.quote(args.engine), shlex.quote(str(path))))
    if verdict.status == FAIL:
        out.write("\n".join("  " + line for line in verdict.detail.splitlines()) + "\n")
    else:
        out.write("  (the engine passed the written case on its own: %s)\n" % verdict.summary)
        out.write("\n".join("  " + line for line in shrunk.failure.verdict.detail.splitlines())
                  + "\n")
    out.flush()


def _answer_again(args: argparse.Namespace, case: JSONObject) -> Any:
    """The engine's answer to the written case, asked once more on a fresh engine."""
    from ..specs.oracle import request_of_case
    from .play import AnswerFailure

    ask = ProcessAnswerer(args.engine, args.timeout)
    try:
        return ask(request_of_case(case))
    except AnswerFailure as error:
        return {"error": error.detail}
    finally:
        ask.close()


def shrink_and_report(args: argparse.Namespace, game: int, run: GameRun, out: TextIO,
                      when: str = "") -> None:
    """Shrink a failing game against a fresh engine and report it."""
    assert run.failure is not None
    started = time.monotonic()
    ask = ProcessAnswerer(args.engine, args.timeout)
    try:
        if args.no_shrink:
            shrunk, evaluations = run, 0
        else:
            out.write("shrinking game %d (%s) ...\n" % (game, " / ".join(run.failure.signature)))
            out.flush()
            shrinker = Shrinker(ask, run.failure.signature, args.shrink_time,
                                game_name(args.seed, game))
            shrunk = shrinker.shrink(run)
            evaluations = shrinker.evaluations
    finally:
        ask.close()
    report(args, game, run, shrunk, time.monotonic() - started, evaluations, out, when)


# =========================================================================== command line


def parse_features(text: Optional[str]) -> List[str]:
    """The feature names of `--features` (raises ValueError naming an unknown one)."""
    names = [f.strip() for f in (text or "").split(",") if f.strip()]
    unknown = [f for f in names if f not in FEATURES]
    if unknown:
        raise ValueError("unknown feature %s; features are: %s"
                         % (", ".join(unknown), ", ".join(FEATURES)))
    return names


def run(args: argparse.Namespace) -> int:
    """The `fuzz` subcommand."""
    out = sys.stdout
    if args.seed is None:
        args.seed = int(time.time()) % 1000000
    features = frozenset(args.features_list)
    runner = Runner(args, features, out)
    out.write("fuzzing %s: seed %d%s, %s, %d job%s\n" % (
        args.engine, args.seed, ", features " + args.features if args.features else "",
        "game %d only" % args.game if args.game is not None else
        ("%g s" % args.time if args.time is not None else "%d games" % args.games),
        args.jobs, "" if args.jobs == 1 else "s"))
    out.flush()
    problem = _first_answer_problem(args)
    if problem:
        print("reversi-ref fuzz: the engine gave no answer to a first request (check the "
              "command): %s" % problem, file=sys.stderr)
        return 1
    if args.game is not None:
        ask = ProcessAnswerer(args.engine, args.timeout)
        try:
            single = run_generated(args.seed, args.game, ask, features)
        finally:
            ask.close()
        runner.record(args.game, len(single.script.steps), single.checks, single.unsupported,
                      single if single.failure is not None else None)
    elif args.jobs > 1:
        runner.run_parallel(0, args.jobs)
    else:
        runner.run_serial(0)
    runner.progress()
    found_after = runner.tally.line()
    for signature in sorted(runner.failed, key=lambda s: runner.failed[s][0]):
        game, failing = runner.failed[signature]
        seconds, games = runner.found[signature]
        shrink_and_report(args, game, failing, out,
                          " after %.1f s and %d games" % (seconds, games))
    if runner.failed:
        out.write("\n%d kind%s of failure (%s)\n" % (
            len(runner.failed), "" if len(runner.failed) == 1 else "s", found_after))
        return 1
    if runner.tally.unsupported:
        out.write("no failures, but %d answers were \"unsupported\" and not checked\n"
                  % runner.tally.unsupported)
        return 0
    out.write("no failures\n")
    return 0


# A first request sent before any game, so a command that does not start an adapter is
# reported at once rather than shrunk as a failure (a 1x1 map, player 1's stone only).
PROBE_MAP = "2\n0\n0 0\n1 1\n1\n"


def _first_answer_problem(args: argparse.Namespace) -> str:
    """Why the engine gives no usable answer to a first `map` request ("" when it answers)."""
    from .play import AnswerFailure

    ask = ProcessAnswerer(args.engine, args.timeout)
    try:
        ask({"id": "fuzz/probe", "kind": "map", "map": PROBE_MAP, "state": None})
    except AnswerFailure as error:
        return error.detail
    finally:
        ask.close()
    return ""


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def register(subparsers: Any) -> None:
    """Add the `fuzz` subcommand."""
    parser = subparsers.add_parser(
        "fuzz", help="differential fuzzing of an engine against the rules, failures shrunk",
        description="Play random games on random maps against an engine through the adapter "
                    "protocol of specs/README.md, compare every answer with the rules, shrink "
                    "a failing game to a small golden case and write it to --out.")
    parser.add_argument("--engine", required=True, metavar="COMMAND",
                        help="shell command that starts the engine's adapter")
    parser.add_argument("--seed", type=int, metavar="N",
                        help="seed of the run (default: from the clock, printed)")
    amount = parser.add_mutually_exclusive_group()
    amount.add_argument("--games", type=_positive, default=DEFAULT_GAMES, metavar="N",
                        help="play N games (default %d)" % DEFAULT_GAMES)
    amount.add_argument("--time", type=float, metavar="S",
                        help="play games for S seconds instead")
    amount.add_argument("--game", type=int, metavar="K",
                        help="play game K of the seed alone (as a failure report names it)")
    parser.add_argument("--jobs", type=_positive, default=1, metavar="J",
                        help="games in parallel, each worker with its own engine (default 1)")
    parser.add_argument("--features", metavar="F,...",
                        help="bias the maps and games towards: " + ", ".join(FEATURES))
    parser.add_argument("--out", default="fuzz-failures", metavar="DIR",
                        help="directory for the shrunk golden cases (default fuzz-failures)")
    parser.add_argument("--keep-going", action="store_true",
                        help="go on after a failure; report the first game of each kind")
    parser.add_argument("--no-shrink", action="store_true",
                        help="report failing games as found")
    parser.add_argument("--shrink-time", type=float, default=DEFAULT_SHRINK_SECONDS,
                        metavar="S", help="seconds to spend shrinking each failure (default "
                                          "%g)" % DEFAULT_SHRINK_SECONDS)
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="S",
                        help="seconds per answer before the engine is killed (default %g)"
                             % DEFAULT_TIMEOUT)
    parser.set_defaults(func=_checked_run)
    parser.set_defaults(parser=parser)


def _checked_run(args: argparse.Namespace) -> int:
    try:
        args.features_list = parse_features(args.features)
    except ValueError as error:
        args.parser.error("argument --features: %s" % error)
    if args.time is not None and args.time <= 0:
        args.parser.error("argument --time: must be positive")
    return run(args)


__all__ = ["area_of", "golden_case", "register", "reproduce_command", "run"]
