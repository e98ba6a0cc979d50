"""`reversi-ref bench search`: how fast the alpha-beta search runs on fixed positions.

The positions are taken at fixed plies (`PLIES`) of one deterministic game per map, in which
every player takes the move that leaves it the most stones (ties: the lowest move).  The maps
are bundled ones and, when `../shared/maps` is there, real competition maps (`REAL_MAPS`).

Each position is searched twice by the default player's paranoid search, from a fresh
transposition table and evaluation cache, single-threaded, without pondering:
- at a fixed depth (`--depth`, default `FIXED_DEPTH`, less where the positions have so many
  moves that it would not finish: see `default_depth`): nodes, CPU time to that depth, and the
  best move and value, which a pure speed change must leave exactly as they were;
- for a fixed CPU time (`-t`, default 1 s): nodes per second and the depth completed.
Time is this process's CPU time (`time.process_time`), which other processes on a busy machine
disturb less than the wall clock.  Before measuring, every position is searched once for half a
second (or at a shallow depth with `-t 0`), so that the PyPy JIT has compiled the search.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .bundled import load_map_argument
from .engine import BUILD, Engine
from .errors import ReversiError
from .geometry import Map
from .search.alphabeta import Searcher
from .search.analysis import MapAnalysis
from .search.config import DEFAULT_CONFIG, EvalConfig
from .search.evaluate import Evaluator
from .state import GameState

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
BUNDLED_MAPS = ("othello8x8", "labyrinth50x50", "octagon8p")
REAL_MAPS = ("fightclub__original", "fightclub__2013_comp_5_2p", "fightclub__2013_comp_9_2",
             "compMaps__comp2024_04_2p", "fightclub__comp2020_02_4p",
             "matchpoint__frequentlyPlayed__comp2023_01_8p")
# Plies of the deterministic game at which positions are taken.
PLIES = (6, 20, 40)
FIXED_DEPTH = 4
# Maps searched less deep by default (CPython would take minutes per position at 4).
FIXED_DEPTHS = {"labyrinth50x50": 3}
# Without --depth, a map is searched to the deepest depth up to FIXED_DEPTH at which the most
# legal moves of its positions, raised to the depth, stay within this bound: on a map where
# every player holds 255 override stones (2,400 moves), depth 4 had not ended after 5 minutes,
# depth 2 takes seconds.  Every map of the default set keeps depth 4 (the most, 62 moves,
# gives 1.5e7).
LEAF_BOUND = 2 * 10 ** 7
# The searcher reads its clock every few nodes; the bench's CPU clock (a system call of a
# few microseconds here) is read at one of this many reads, the last value reused between.
CLOCK_EVERY = 8
WARM_DEPTH = 2
WARM_SECONDS = 0.5
MAX_DEPTH = 64

Result = Dict[str, Any]


def shared_maps_dir() -> Path:
    """Where the real maps are (they are not part of reversi-ref)."""
    return PACKAGE_ROOT.parent / "shared" / "maps"


def default_map_arguments() -> List[str]:
    """The bundled maps, then the real maps that are present."""
    found = list(BUNDLED_MAPS)
    real = shared_maps_dir()
    for name in REAL_MAPS:
        path = real / (name + ".map")
        if path.is_file():
            found.append(str(path))
    return found


def greedy_move(engine: Engine) -> int:
    """The move leaving the player to move the most stones (the lowest such move)."""
    p = engine.to_move
    best = -1
    best_count = -1
    for m in engine.legal_moves():
        engine.make(m)
        count = engine.counts[p]
        engine.unmake()
        if count > best_count:
            best = m
            best_count = count
    return best


def bench_positions(game_map: Map, plies: Sequence[int] = PLIES) -> List[Tuple[int, GameState]]:
    """(ply, state) at each of `plies` of the map's greedy game still in the building phase."""
    engine = Engine(game_map)
    found: List[Tuple[int, GameState]] = []
    last = max(plies)
    for ply in range(last + 1):
        if engine.phase != BUILD:
            break
        if ply in plies:
            found.append((ply, engine.to_state()))
        engine.make(greedy_move(engine))
    return found


class CpuClock:
    """This process's CPU time, read from the system at every CLOCK_EVERY-th call (as cheap
    to poll as the client's wall clock)."""

    def __init__(self) -> None:
        self.calls = 0
        self.now = time.process_time()

    def __call__(self) -> float:
        self.calls += 1
        if self.calls % CLOCK_EVERY == 0:
            self.now = time.process_time()
        return self.now


class Bench:
    """One map's engine, analysis and a fresh searcher per search."""

    def __init__(self, game_map: Map, config: EvalConfig = DEFAULT_CONFIG) -> None:
        self.engine = Engine(game_map)
        self.analysis = MapAnalysis(game_map)
        self.config = config

    def searcher(self, state: GameState, deadline: float) -> Searcher:
        """A searcher with empty tables on `state`, stopping at CPU time `deadline`."""
        self.engine.load_state(state)
        evaluator = Evaluator(self.engine, self.analysis, self.config)
        searcher = Searcher(self.engine, evaluator, self.config, clock=CpuClock())
        searcher.reset(self.engine.to_move)
        searcher.deadline = deadline
        return searcher

    def fixed_depth(self, state: GameState, depth: int) -> Result:
        """Search `state` to `depth`: nodes, CPU seconds, best move and value."""
        searcher = self.searcher(state, float("inf"))
        start = time.process_time()
        reached, best, value = 0, -1, 0
        for reached, best, value, _ in searcher.iterate(depth):
            pass
        seconds = time.process_time() - start
        return {"depth": reached, "nodes": searcher.nodes, "seconds": seconds,
                "move": best, "value": value}

    def fixed_time(self, state: GameState, seconds: float) -> Result:
        """Search `state` for `seconds` of CPU time: nodes, nodes/s and the depth completed."""
        start = time.process_time()
        searcher = self.searcher(state, start + seconds)
        reached = 0
        for reached, _, _, _ in searcher.iterate(MAX_DEPTH):
            pass
        spent = time.process_time() - start
        return {"depth": reached, "nodes": searcher.nodes, "seconds": spent,
                "nodes_per_second": searcher.nodes / spent if spent > 0 else 0.0}


def default_depth(name: str, engine: Engine, positions: Sequence[Tuple[int, GameState]]) -> int:
    """The fixed depth a map is searched to when `--depth` is not given (`engine`: one of
    the map's, whose position this changes)."""
    if name in FIXED_DEPTHS:
        return FIXED_DEPTHS[name]
    widest = 1
    for _, state in positions:
        engine.load_state(state)
        widest = max(widest, len(engine.legal_moves()))
    depth = FIXED_DEPTH
    while depth > 1 and widest ** depth > LEAF_BOUND:
        depth -= 1
    return depth


def bench_map(name: str, game_map: Map, seconds: float, depth: Optional[int],
              config: EvalConfig = DEFAULT_CONFIG, repeat: int = 1) -> Result:
    """The figures of every position of one map, and their medians (`depth`: None for the
    map's default, see `default_depth`; `config`: the search's weights and switches; `repeat`:
    each fixed-depth search is run that many times in a row and its CPU time is the median,
    which leaves out the JIT's first compilation)."""
    bench = Bench(game_map, config)
    positions = bench_positions(game_map)
    if depth is None:
        depth = default_depth(name, bench.engine, positions)
    for _, state in positions:  # warm-up: the PyPy JIT compiles during the first seconds
        if seconds > 0:
            bench.fixed_time(state, min(seconds, WARM_SECONDS))
        else:
            bench.fixed_depth(state, min(depth, WARM_DEPTH))
    rows: List[Result] = []
    for ply, state in positions:
        runs = [bench.fixed_depth(state, depth) for _ in range(max(1, repeat))]
        fixed = dict(runs[0])
        fixed["seconds"] = statistics.median(run["seconds"] for run in runs)
        if any(run["nodes"] != fixed["nodes"] or run["value"] != fixed["value"]
               for run in runs):
            raise ReversiError("bench search: the fixed-depth search of ply %d of %s gave "
                               "different nodes or values in its runs" % (ply, name))
        timed = bench.fixed_time(state, seconds) if seconds > 0 else None
        rows.append({"ply": ply, "fixed": fixed, "timed": timed})
    result: Result = {"map": name, "players": game_map.players, "depth": depth,
                      "size": "%dx%d" % (game_map.width, game_map.height), "positions": rows}
    if rows:
        result["median_depth_seconds"] = statistics.median(r["fixed"]["seconds"] for r in rows)
        result["fixed_nodes"] = sum(r["fixed"]["nodes"] for r in rows)
        fixed_time = sum(r["fixed"]["seconds"] for r in rows)
        result["fixed_nodes_per_second"] = (result["fixed_nodes"] / fixed_time
                                            if fixed_time > 0 else 0.0)
        if seconds > 0:
            result["median_nodes_per_second"] = statistics.median(
                r["timed"]["nodes_per_second"] for r in rows)
            result["median_depth"] = statistics.median(r["timed"]["depth"] for r in rows)
    return result


def check_depth_count(depths: Sequence[int], maps: int) -> None:
    """ReversiError unless `depths` is empty, one depth for all maps, or one per map."""
    if len(depths) > 1 and len(depths) != maps:
        raise ReversiError("search: --depth gives %d depths for %d maps (give one, or one "
                           "per map)" % (len(depths), maps))


def run_search_bench(paths: Sequence[str], seconds: float, depths: Sequence[int] = (),
                     config: EvalConfig = DEFAULT_CONFIG, repeat: int = 1) -> Result:
    """The figures for every map (the given ones, or the default ones); `depths`: none for
    each map's default fixed depth, one for all maps, or one per map; `config` the search's
    weights and switches; `repeat` the runs of each fixed-depth search (see `bench_map`)."""
    arguments = list(paths) or default_map_arguments()
    check_depth_count(depths, len(arguments))
    maps = []
    for index, argument in enumerate(arguments):
        source, game_map = load_map_argument(argument)
        name = Path(source.label).stem
        fixed = depths[index] if len(depths) > 1 else depths[0] if depths else None
        maps.append(bench_map(name, game_map, seconds, fixed, config, repeat))
    return {"seconds": seconds, "depth": depths[0] if len(depths) == 1 else list(depths) or None,
            "maps": maps, "medians": overall_medians(maps), "repeat": repeat}


def overall_medians(maps: List[Result]) -> Result:
    """The medians over the maps of their medians."""
    with_rows = [m for m in maps if m["positions"]]
    result: Result = {}
    if not with_rows:
        return result
    result["fixed_nodes_per_second"] = statistics.median(
        m["fixed_nodes_per_second"] for m in with_rows)
    result["median_depth_seconds"] = statistics.median(
        m["median_depth_seconds"] for m in with_rows)
    if "median_nodes_per_second" in with_rows[0]:
        result["median_nodes_per_second"] = statistics.median(
            m["median_nodes_per_second"] for m in with_rows)
        result["median_depth"] = statistics.median(m["median_depth"] for m in with_rows)
    return result


# --------------------------------------------------------------------------- tables


def format_rate(value: float) -> str:
    """A rate as a whole number with thousands separators."""
    return "{:,.0f}".format(value)


def format_search(report: Result, interpreter: str, verbose: bool = False) -> str:
    """One interpreter's figures as a text table (with one line per position if verbose)."""
    seconds = report["seconds"]
    weights = report.get("weights")
    lines = ["bench search under %s: %g s CPU per position, and to a fixed depth d%s"
             % (interpreter, seconds,
                "; weights changed: %s" % json.dumps(weights, sort_keys=True) if weights else ""),
             "%-44s %2s %7s %4s %12s %6s %2s %11s %12s %10s" % (
                 "map", "n", "size", "pos", "nodes/s @t", "depth", "d", "nodes @d",
                 "nodes/s @d", "s to d")]
    for row in report["maps"]:
        if not row["positions"]:
            lines.append("%-44s (no building-phase position)" % row["map"][:44])
            continue
        lines.append("%-44s %2d %7s %4d %12s %6s %2d %11s %12s %10.3f" % (
            row["map"][:44], row["players"], row["size"], len(row["positions"]),
            format_rate(row.get("median_nodes_per_second", 0.0)),
            "%g" % row.get("median_depth", 0), row["depth"], "{:,}".format(row["fixed_nodes"]),
            format_rate(row["fixed_nodes_per_second"]), row["median_depth_seconds"]))
        if verbose:
            for pos in row["positions"]:
                fixed = pos["fixed"]
                timed = pos["timed"] or {"nodes_per_second": 0.0, "depth": 0}
                lines.append("  ply %-3d %12s %6d %11s %12s %10.3f  move %d value %d" % (
                    pos["ply"], format_rate(timed["nodes_per_second"]), timed["depth"],
                    "{:,}".format(fixed["nodes"]),
                    format_rate(fixed["nodes"] / fixed["seconds"]
                                if fixed["seconds"] > 0 else 0.0),
                    fixed["seconds"], fixed["move"], fixed["value"]))
    medians = report["medians"]
    if medians:
        lines.append("%-44s %2s %7s %4s %12s %6s %2s %11s %12s %10.3f" % (
            "median over maps", "", "", "",
            format_rate(medians.get("median_nodes_per_second", 0.0)),
            "%g" % medians.get("median_depth", 0), "", "",
            format_rate(medians["fixed_nodes_per_second"]),
            medians["median_depth_seconds"]))
    lines.append("@t: medians over the positions of a map of a search for -t seconds of CPU "
                 "time (depth: the last one completed); @d: the search to depth d, nodes "
                 "summed over the positions, nodes/s = those nodes over their CPU time, "
                 "s to d: the median CPU seconds to reach the depth")
    return "\n".join(lines)


def format_search_comparison(cpython: Result, pypy: Result) -> str:
    """CPython and PyPy side by side: nodes/s at -t and at the fixed depth, with the ratio."""
    lines = ["%-44s %11s %11s %6s %5s %5s %11s %11s %6s" % (
        "map", "CPy n/s @t", "PyPy n/s @t", "ratio", "CPy d", "PyPy d",
        "CPy n/s @d", "PyPy n/s @d", "ratio")]
    rows = list(zip(cpython["maps"], pypy["maps"]))
    rows.append(({"map": "median over maps", **cpython["medians"]},
                 {"map": "median over maps", **pypy["medians"]}))
    for slow, fast in rows:
        if "fixed_nodes_per_second" not in slow or "fixed_nodes_per_second" not in fast:
            continue
        cells: List[Any] = [slow["map"][:44]]
        a = slow.get("median_nodes_per_second", 0.0)
        b = fast.get("median_nodes_per_second", 0.0)
        cells += [format_rate(a), format_rate(b), "%.1fx" % (b / a if a > 0 else 0.0),
                  "%g" % slow.get("median_depth", 0), "%g" % fast.get("median_depth", 0)]
        a = slow["fixed_nodes_per_second"]
        b = fast["fixed_nodes_per_second"]
        cells += [format_rate(a), format_rate(b), "%.1fx" % (b / a if a > 0 else 0.0)]
        lines.append("%-44s %11s %11s %6s %5s %5s %11s %11s %6s" % tuple(cells))
    lines.append("nodes/s from CPU time; d: median depth completed in -t seconds")
    return "\n".join(lines)


def same_results(before: Result, after: Result) -> Optional[str]:
    """None when both reports searched the same number of nodes and found the same best move
    and value at the fixed depth for every position; otherwise the first difference."""
    for old, new in zip(before["maps"], after["maps"]):
        if (old["map"], old.get("depth")) != (new["map"], new.get("depth")):
            return "map %s depth %s, then map %s depth %s" % (
                old["map"], old.get("depth"), new["map"], new.get("depth"))
        for a, b in zip(old["positions"], new["positions"]):
            x, y = a["fixed"], b["fixed"]
            if (x["move"], x["value"], x["nodes"]) != (y["move"], y["value"], y["nodes"]):
                return "%s ply %d: move %d value %d nodes %d, then move %d value %d nodes %d" % (
                    old["map"], a["ply"], x["move"], x["value"], x["nodes"],
                    y["move"], y["value"], y["nodes"])
    return None
