"""`reversi-ref bench`: how fast the engine is under the interpreter that runs it.

For each map (by default the Othello start, a 50x50 map and an 8-player map with transitions
and special tiles, from the repository's maps/):
- perft leaf nodes per second: the median of several timed runs of `Engine.perft(depth)` with
  bulk counting at the last ply, after warm-up runs (the PyPy JIT compiles during those).
  Without `--depth`, the depth is the first one whose perft takes at least `--min-time`;
- move generation: `legal_moves()` calls (and moves produced) per second, and make/unmake
  pairs per second, over positions sampled from seeded random games.
Perft is timed by wall clock and by this process's CPU time (which other processes on a busy
machine disturb less); the move-generation figures use CPU time.

`--compare` runs the same benchmark under CPython and PyPy in subprocesses, at the same
depths, and prints both and their ratio.  `--json FILE` also writes the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import benchversus, bigmap, searchbench, soak
from .searchbench import format_rate
from .bundled import bundled_map_bytes, load_map_argument
from .cli import UsageError, int_range, output_file, positive_float, usage_error
from .engine import Engine
from .errors import ReversiError
from .players import read_weights
from .search.config import DEFAULT_CONFIG, config_from_dict
from .geometry import Map
from .mapfile import read_map

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_MAPS = ("othello8x8.map", "labyrinth50x50.map", "octagon8p.map")
# Used when the repository's maps/ is not there (an installed package).
OTHELLO_TEXT = "2\n0\n0 0\n8 8\n" + "\n".join(
    " ".join("2" if (x, y) in ((3, 3), (4, 4)) else "1" if (x, y) in ((4, 3), (3, 4)) else "0"
             for x in range(8)) for y in range(8)) + "\n"
SAMPLE_GAMES = 4
SAMPLE_PLIES = 12
SAMPLE_SEED = 2009

Result = Dict[str, Any]


# --------------------------------------------------------------------------- what is measured


def interpreter_name() -> str:
    """The interpreter running this, e.g. "PyPy 3.9.16" or "CPython 3.11.7"."""
    return "%s %s" % (platform.python_implementation(), platform.python_version())


def load_maps(paths: Sequence[str]) -> List[Tuple[str, Map]]:
    """The maps to measure: the given files or bundled maps' names, or the default ones."""
    if paths:
        return [(Path(source.label).stem, game_map)
                for source, game_map in map(load_map_argument, paths)]
    found = [(Path(name).stem, load_map_argument(name)[1]) for name in DEFAULT_MAPS
             if bundled_map_bytes(name) is not None]
    return found or [("othello8x8", read_map(OTHELLO_TEXT))]


def timed_perft(engine: Engine, depth: int) -> Tuple[int, float, float]:
    """(leaves, wall seconds, CPU seconds) of one perft run."""
    wall = time.perf_counter()
    cpu = time.process_time()
    leaves = engine.perft(depth)
    return leaves, time.perf_counter() - wall, time.process_time() - cpu


def choose_depth(engine: Engine, min_time: float, max_depth: int = 40) -> int:
    """The first depth whose perft takes at least `min_time` seconds, or a shallower one taking
    at least a fifth of it when the next depth would take over ten times `min_time` (these runs
    also warm the JIT up); stops early when the game tree ends."""
    previous = -1
    for depth in range(1, max_depth + 1):
        leaves, wall, _ = timed_perft(engine, depth)
        if wall >= min_time or leaves == previous:
            return depth
        growth = leaves / previous if previous > 0 else 0.0
        if wall >= min_time / 5 and wall * growth >= 10 * min_time:
            return depth
        previous = leaves
    return max_depth


def sample_engines(game_map: Map) -> List[Engine]:
    """Engines on positions from seeded random games (start and the first plies)."""
    rng = random.Random(SAMPLE_SEED)
    engines: List[Engine] = []
    for _ in range(SAMPLE_GAMES):
        engine = Engine(game_map)
        for _ in range(SAMPLE_PLIES):
            if engine.is_over():
                break
            engines.append(Engine.from_state(engine.to_state()))
            engine.make(rng.choice(engine.legal_moves()))
    return [e for e in engines if not e.is_over()]


def move_rates(engines: List[Engine], min_time: float) -> Tuple[float, float, float]:
    """(legal_moves calls/s, moves generated/s, make+unmake pairs/s) over `engines`, in CPU
    time (other processes on the machine then matter less)."""
    if not engines:
        return 0.0, 0.0, 0.0
    moves = [e.legal_moves() for e in engines]
    per_round = sum(len(m) for m in moves)
    rates: List[Tuple[float, float, float]] = []
    for _ in range(3):  # the first round is the warm-up
        rounds = 0
        start = time.process_time()
        while True:
            for e in engines:
                e.legal_moves()
            rounds += 1
            gen_time = time.process_time() - start
            if gen_time >= min_time / 4:
                break
        pairs = 0
        start = time.process_time()
        while True:
            for e, options in zip(engines, moves):
                for m in options:
                    e.make(m)
                    e.unmake()
            pairs += per_round
            make_time = time.process_time() - start
            if make_time >= min_time / 4:
                break
        rates.append((rounds * len(engines) / gen_time, rounds * per_round / gen_time,
                      pairs / make_time))
    return rates[-1]


def bench_map(name: str, game_map: Map, depth: Optional[int], runs: int,
              min_time: float) -> Result:
    """All the figures for one map."""
    engine = Engine(game_map)
    if depth is None:
        depth = choose_depth(engine, min_time)
    else:
        # Warm up: a shallower perft, then one at the depth measured.
        engine.perft(max(1, depth - 1))
        timed_perft(engine, depth)
    walls: List[float] = []
    cpus: List[float] = []
    leaves = 0
    for _ in range(runs):
        leaves, wall, cpu = timed_perft(engine, depth)
        walls.append(wall)
        cpus.append(cpu)
    calls, generated, pairs = move_rates(sample_engines(game_map), min_time)
    wall_median = statistics.median(walls)
    cpu_median = statistics.median(cpus)
    return {
        "map": name, "players": game_map.players,
        "width": game_map.width, "height": game_map.height,
        "depth": depth, "leaves": leaves, "runs": runs,
        "seconds": walls, "cpu_seconds": cpus,
        "leaves_per_second": leaves / wall_median if wall_median > 0 else 0.0,
        "cpu_leaves_per_second": leaves / cpu_median if cpu_median > 0 else 0.0,
        "movegen_calls_per_second": calls,
        "moves_generated_per_second": generated,
        "make_unmake_per_second": pairs,
    }


def run_bench(paths: Sequence[str], depths: Sequence[int], runs: int,
              min_time: float) -> Result:
    """The figures for every map, with the interpreter's name."""
    maps = load_maps(paths)
    if depths and len(depths) not in (1, len(maps)):
        raise ReversiError("--depth needs one value or one per map (%d maps)" % len(maps))
    results = []
    for index, (name, game_map) in enumerate(maps):
        depth = (depths[0] if len(depths) == 1 else depths[index]) if depths else None
        results.append(bench_map(name, game_map, depth, runs, min_time))
    return {"interpreter": interpreter_name(), "executable": sys.executable,
            "bulk_counting": True, "maps": results}


# --------------------------------------------------------------------------- tables


def format_table(report: Result) -> str:
    """The figures of one interpreter as a text table."""
    rows = report["maps"]
    base = rows[0]["cpu_leaves_per_second"] if rows else 0.0
    lines = ["reversi-ref bench under %s (%s); perft counts the last ply in bulk"
             % (report["interpreter"], report["executable"]),
             "%-20s %2s %7s %5s %12s %12s %12s %8s %11s %11s %12s" % (
                 "map", "n", "size", "depth", "leaves", "leaves/s", "cpu leaves/s",
                 "per leaf", "movegen/s", "moves/s", "make+unmake/s")]
    for row in rows:
        cpu_rate = row["cpu_leaves_per_second"]
        relative = base / cpu_rate if cpu_rate > 0 else 0.0
        lines.append("%-20s %2d %7s %5d %12s %12s %12s %7.2fx %11s %11s %12s" % (
            row["map"][:20], row["players"], "%dx%d" % (row["width"], row["height"]),
            row["depth"], "{:,}".format(row["leaves"]), format_rate(row["leaves_per_second"]),
            format_rate(cpu_rate), relative, format_rate(row["movegen_calls_per_second"]),
            format_rate(row["moves_generated_per_second"]),
            format_rate(row["make_unmake_per_second"])))
    lines.append("leaves/s: wall clock; the other rates: CPU time of this process.  per leaf: "
                 "CPU time per leaf relative to the first map.  movegen/s: legal_moves() "
                 "calls.  make+unmake/s: pairs (the next player is found when the next moves "
                 "are generated)")
    return "\n".join(lines)


def format_comparison(cpython: Result, pypy: Result) -> str:
    """CPython and PyPy side by side, with PyPy's speed-up."""
    lines = ["CPython: %s (%s)" % (cpython["interpreter"], cpython["executable"]),
             "PyPy:    %s (%s)" % (pypy["interpreter"], pypy["executable"]),
             "%-20s %5s %12s %12s %7s %12s %12s %7s %12s %12s %7s" % (
                 "map", "depth", "CPy leaves/s", "PyPy leaves/s", "ratio",
                 "CPy movegen", "PyPy movegen", "ratio", "CPy make", "PyPy make", "ratio")]
    for slow, fast in zip(cpython["maps"], pypy["maps"]):
        cells = [slow["map"][:20], str(fast["depth"])]
        for key in ("cpu_leaves_per_second", "movegen_calls_per_second",
                    "make_unmake_per_second"):
            ratio = fast[key] / slow[key] if slow[key] > 0 else 0.0
            cells.extend([format_rate(slow[key]), format_rate(fast[key]), "%.1fx" % ratio])
        lines.append("%-20s %5s %12s %12s %7s %12s %12s %7s %12s %12s %7s" % tuple(cells))
    lines.append("leaves/s from CPU time; both interpreters ran the same perft depths")
    return "\n".join(lines)


# --------------------------------------------------------------------------- --compare


def find_interpreters() -> Tuple[str, str]:
    """(CPython executable, PyPy executable); raises ReversiError when one is missing."""
    running_pypy = platform.python_implementation() == "PyPy"
    cpython = shutil.which("python3") if running_pypy else sys.executable
    pypy = sys.executable if running_pypy else shutil.which("pypy3")
    if not cpython:
        raise ReversiError("--compare: no CPython found (python3 is not on PATH)")
    if not pypy:
        raise ReversiError("--compare: no PyPy found (pypy3 is not on PATH)")
    return cpython, pypy


def run_child(executable: str, args: List[str], root: Path = PACKAGE_ROOT,
              option: str = "--compare", cwd: Optional[Path] = None) -> Result:
    """Run the benchmark of the `reversi_ref` under `root` with `executable` in the directory
    `cwd` (default this one) and return its JSON report (`option`: the option that asked for
    it, named in errors)."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "bench.json"
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(root)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
        command = [executable, "-m", "reversi_ref", "bench", "--json", str(out)] + args
        print("running: %s" % " ".join(command), file=sys.stderr)
        done = subprocess.run(command, env=env, stdout=subprocess.PIPE,
                              cwd=None if cwd is None else str(cwd),
                              stderr=subprocess.PIPE, universal_newlines=True)
        if done.returncode != 0 or not out.is_file():
            raise ReversiError("%s: %s failed (exit %d): %s"
                               % (option, executable, done.returncode,
                                  done.stderr.strip()[-400:]))
        report: Result = json.loads(out.read_text())
        return report


def compare(args: argparse.Namespace) -> Result:
    """Run CPython then PyPy (at CPython's depths); print both tables and the comparison."""
    cpython, pypy = find_interpreters()
    common: List[str] = ["--runs", str(args.runs), "--min-time", str(args.min_time)]
    for path in args.map or []:
        common += ["--map", path]
    depth_args = ["--depth", args.depth] if args.depth else []
    slow = run_child(cpython, common + depth_args)
    depths = ",".join(str(row["depth"]) for row in slow["maps"])
    fast = run_child(pypy, common + ["--depth", depths])
    print(format_table(slow))
    print()
    print(format_table(fast))
    print()
    print(format_comparison(slow, fast))
    return {"cpython": slow, "pypy": fast}


# --------------------------------------------------------------------------- big maps


def run_bigmap_case(args: argparse.Namespace) -> int:
    """`bench bigmap`: rules and engine on 1000x1000 positions; CPython against PyPy with
    --compare."""
    if args.runs < 1 or not 1 <= args.size <= 1000:
        raise ReversiError("bigmap: --runs must be at least 1 and --size 1..1000")
    cases = args.bigmap_cases or list(bigmap.CASES)
    if args.compare:
        cpython, pypy = find_interpreters()
        child_args = ["bigmap", "--runs", str(args.runs), "--size", str(args.size)]
        for case in cases:
            child_args += ["--case", case]
        slow = run_child(cpython, child_args)
        fast = run_child(pypy, child_args)
        print(bigmap.format_bigmap(slow["bigmap"], slow["interpreter"]))
        print()
        print(bigmap.format_bigmap(fast["bigmap"], fast["interpreter"]))
        print()
        print(bigmap.format_bigmap_comparison(slow["bigmap"], fast["bigmap"]))
        report: Result = {"cpython": slow, "pypy": fast}
    else:
        results = bigmap.run_bigmap(cases, args.runs, args.size)
        print(bigmap.format_bigmap(results, interpreter_name()))
        report = {"interpreter": interpreter_name(), "executable": sys.executable,
                  "bigmap": results}
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0


# --------------------------------------------------------------------------- soak


def run_soak_case(args: argparse.Namespace) -> int:
    """`bench soak`: one game, the client's RSS every --every moves; both interpreters with
    --compare."""
    if args.time_limit < 0 or args.every < 1 or not 1 <= args.soak_depth <= 255:
        raise ReversiError("soak: -t must be at least 0, --every at least 1 and -d 1..255")
    if args.map and len(args.map) > 1:
        raise ReversiError("soak: one --map at most")
    path = soak.soak_map(args.map[0] if args.map else None)
    executables = list(find_interpreters()) if args.compare else [sys.executable]
    reports = []
    for executable in executables:
        print("soak under %s (rows as they come, the whole table at the end)" % executable)
        print(soak.HEADER, flush=True)
        report = soak.run_soak(path, executable, args.time_limit, args.every,
                               depth=args.soak_depth,
                               progress=lambda row: print(soak.format_row(row), flush=True))
        print(soak.format_soak(report))
        print()
        reports.append(report)
    if args.json:
        Path(args.json).write_text(json.dumps(reports, indent=2) + "\n")
    return 0


# --------------------------------------------------------------------------- command line


def parse_depths(text: Optional[str]) -> List[int]:
    """`--depth 9` or `--depth 9,4,6` (one per map)."""
    if not text:
        return []
    try:
        depths = [int(part) for part in text.split(",")]
    except ValueError:
        raise ReversiError("--depth must be a number or numbers separated by commas, not %r"
                           % text) from None
    if any(d < 1 for d in depths):
        raise ReversiError("--depth must be at least 1")
    return depths


# --------------------------------------------------------------------------- search


def run_search_case(args: argparse.Namespace) -> int:
    """`bench search`: the alpha-beta search on fixed positions, at -t seconds of CPU time and
    at a fixed depth; CPython against PyPy with --compare."""
    seconds = 1.0 if args.time_limit is None else float(args.time_limit)
    depths = parse_depths(args.depth)
    config = DEFAULT_CONFIG
    weights: Dict[str, object] = {}
    if args.weights is not None:
        try:
            weights = read_weights(args.weights, "argument --weights")
            config = config_from_dict(weights)
        except ValueError as error:
            raise usage_error(error, "argument --weights") from None
    if args.versus is not None:
        return run_versus(args, depths)
    if args.rounds is not None:
        raise UsageError("argument --rounds: only with --versus")
    if args.compare:
        cpython, pypy = find_interpreters()
        child_args = ["search", "-t", "%g" % seconds] + (
            ["--depth", args.depth] if depths else []) + (
            ["--weights", args.weights] if args.weights is not None else []) + (
            ["--repeat", str(args.repeat or 1)])
        for path in args.map or []:
            child_args += ["--map", path]
        slow = run_child(cpython, child_args)
        fast = run_child(pypy, child_args)
        print(searchbench.format_search(slow, slow["interpreter"], args.verbose))
        print()
        print(searchbench.format_search(fast, fast["interpreter"], args.verbose))
        print()
        print(searchbench.format_search_comparison(slow, fast))
        report: Result = {"cpython": slow, "pypy": fast}
    else:
        report = searchbench.run_search_bench(args.map or [], seconds, depths, config,
                                              args.repeat or 1)
        if weights:
            report["weights"] = weights
        report["interpreter"] = interpreter_name()
        report["executable"] = sys.executable
        print(searchbench.format_search(report, report["interpreter"], args.verbose))
    if args.against:
        differs = check_against(args.against, report)
        if differs:
            print("differs from %s: %s" % (args.against, differs))
            return 1
        print("same moves and values at the fixed depths as %s" % args.against)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0


def run_versus(args: argparse.Namespace, depths: List[int]) -> int:
    """`bench search --versus OTHER`: this checkout's fixed-depth search time against
    another checkout's or git revision's, in alternating child processes."""
    for given, name in ((args.compare, "--compare"), (args.against, "--against"),
                        (args.time_limit not in (None, 0), "-t")):
        if given:
            raise UsageError("argument --versus: times the fixed-depth search only, so it "
                             "does not go with %s" % name)
    report = benchversus.versus(
        args.versus, args.map or [], depths, args.repeat or benchversus.REPEAT, args.weights,
        args.rounds if args.rounds is not None else benchversus.ROUNDS, interpreter_name(),
        lambda root, arguments: run_child(sys.executable, arguments, root, "--versus",
                                          cwd=root))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0


def check_against(path: str, report: Result) -> Optional[str]:
    """The first fixed-depth difference between `report` and the JSON report in `path`."""
    try:
        earlier = json.loads(Path(path).read_text())
    except (OSError, ValueError) as error:
        raise ReversiError("--against %s: cannot read it (%s)" % (path, error)) from None
    pairs = [(earlier.get(key, earlier), report.get(key, report)) for key in ("cpython", "pypy")
             ] if "cpython" in report else [(earlier.get("pypy", earlier), report)]
    for before, after in pairs:
        if "maps" not in before:
            raise ReversiError("--against %s: not a bench search report" % path)
        differs = searchbench.same_results(before, after)
        if differs:
            return differs
    return None


def run(args: argparse.Namespace) -> int:
    """The `bench` subcommand."""
    if args.case == "search":
        return run_search_case(args)
    if args.versus is not None or args.rounds is not None:
        raise UsageError("argument --versus: only with `bench search`")
    if args.time_limit is None:
        args.time_limit = 2
    if args.case == "soak":
        return run_soak_case(args)
    if args.case == "bigmap":
        return run_bigmap_case(args)
    if args.runs < 1:
        raise ReversiError("--runs must be at least 1")
    if args.min_time <= 0:
        raise ReversiError("--min-time must be positive")
    if args.compare:
        report = compare(args)
    else:
        report = run_bench(args.map or [], parse_depths(args.depth), args.runs, args.min_time)
        print(format_table(report))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0


def register(subparsers: Any) -> None:
    """Add the `bench` subcommand."""
    parser = subparsers.add_parser(
        "bench", help="engine speed: perft leaves/s, move generation, make/unmake",
        description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("case", nargs="?", choices=("perft", "bigmap", "soak", "search"),
                        default="perft",
                        help="perft (default): the engine on small maps; bigmap: rules and "
                             "engine on 1000x1000 maps; soak: the search client's memory over "
                             "one whole game; search: the alpha-beta search on fixed positions "
                             "of bundled and real maps")
    parser.add_argument("--map", action="append", metavar="MAP",
                        help="a map file or bundled map's name to measure (repeat for "
                             "several; default: othello8x8, labyrinth50x50 and octagon8p)")
    parser.add_argument("--depth", metavar="N[,N...]",
                        help="perft depth for every map, or one per map (default: the first "
                             "depth taking at least --min-time); search: the fixed depth, "
                             "for every map or one per map (default %d, %s, and less on a "
                             "map whose positions have so many moves that depth %d would not "
                             "end: group2_chaos 2)" % (
                                 searchbench.FIXED_DEPTH, ", ".join(
                                     "%s %d" % item
                                     for item in searchbench.FIXED_DEPTHS.items()),
                                 searchbench.FIXED_DEPTH))
    parser.add_argument("--runs", type=int_range(1), default=5,
                        help="timed perft runs per map; the median counts (default 5)")
    parser.add_argument("--min-time", type=positive_float, default=1.0, metavar="SECONDS",
                        help="time per perft run that picks the depth, and the time spent on "
                             "each move-generation figure (default 1.0)")
    parser.add_argument("--compare", action="store_true",
                        help="run under CPython and PyPy in subprocesses and compare")
    parser.add_argument("--json", type=output_file, metavar="FILE",
                        help="also write the figures as JSON")
    parser.add_argument("-t", dest="time_limit", type=int_range(0), default=None,
                        metavar="SECONDS",
                        help="soak: the referee's time limit per move, 0 for none (default 2); "
                             "search: CPU seconds per position, 0 for none (default 1)")
    parser.add_argument("--verbose", action="store_true",
                        help="search: one line per position (with best move and value)")
    parser.add_argument("--against", metavar="FILE",
                        help="search: check the best moves and values at --depth against an "
                             "earlier --json report (exit 1 on a difference)")
    parser.add_argument("--weights", default=None, metavar="JSON",
                        help="search: the searched player's weights changed from the defaults, "
                             "as for `client --weights` (inline JSON or @FILE); e.g. "
                             "'{\"mobility\": [0, 0]}' to see what a term costs")
    parser.add_argument("--repeat", type=int_range(1), default=None, metavar="N",
                        help="search: run each fixed-depth search N times in a row and take "
                             "the median CPU time (default 1, with --versus %d; 3 or more "
                             "leave out the JIT's first compilation)" % benchversus.REPEAT)
    parser.add_argument("--versus", metavar="OTHER",
                        help="search: time the fixed-depth search of this checkout against "
                             "another one (a directory holding reversi_ref/, or a git "
                             "revision of this repository), in child processes under this "
                             "interpreter, alternating which runs first; prints each map's "
                             "ratio per round and a sign test")
    parser.add_argument("--rounds", type=int_range(1), default=None, metavar="N",
                        help="search --versus: rounds, each running both versions once "
                             "(default %d)" % benchversus.ROUNDS)
    parser.add_argument("-d", dest="soak_depth", type=int_range(1, 255), default=1,
                        metavar="DEPTH",
                        help="soak: the depth sent with each move request, which the client "
                             "searches when -t is 0 (default 1)")
    parser.add_argument("--case", dest="bigmap_cases", action="append", metavar="NAME",
                        choices=bigmap.CASES,
                        help="bigmap: a case to run (repeat for several; default all: %s)"
                             % ", ".join(bigmap.CASES))
    parser.add_argument("--size", type=int_range(3, 1000), default=bigmap.SIZE, metavar="N",
                        help="bigmap: board side (default %d)" % bigmap.SIZE)
    parser.add_argument("--every", type=int_range(1), default=50, metavar="MOVES",
                        help="soak: report the client's memory every this many moves of the "
                             "game (default 50)")
    parser.set_defaults(func=run)
