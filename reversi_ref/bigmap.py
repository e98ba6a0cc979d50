"""`reversi-ref bench bigmap`: the rules and the engine on maximum-size (1000x1000) maps.

Each case is a position built in code (no map file is read, so the map reader's speed is not
part of it), timed by CPU time of this process and by wall clock, median of `runs` runs:
- rules: `initial_state` (which finds the first player to move), `legal_moves`, and `play` of
  the first legal move (which finds the next player, so it generates their moves too);
- engine: `Engine(map)` (the per-map tables), `legal_moves()`, and `make` of the first move
  followed by `legal_moves()` (the next player's moves).

The cases (every phase, with and without override stones in hand):
- `start`: an empty board with the four Othello stones in the middle, no override stones;
- `override`: every cell player 2's stone but player 1's one stone at (0, 0), one override
  stone each (the worst case of issue 19: every cell is an override target to test);
- `torus`: as `override`, with every row's east side joined to its west side, so that the
  rows without player 1's stone are loops of collectable cells;
- `bombing`: every cell player 1's stone, a bomb each of strength 1: nobody can build, so the
  game starts in the bombing phase with a million targets;
- `torus2`: as `torus`, with two override stones each; besides the steps above it times
  `legal_moves` of the state after the first move (`rules next legal_moves`), where player 1
  still holds an override stone and may take any of player 2's stones below row 1 (998,000
  moves, the largest list of building moves of these cases).
"""

from __future__ import annotations

import statistics
import time
from typing import Any, Callable, Dict, List, Tuple

from .engine import Engine
from .geometry import Map, Transition
from .rules import initial_state, legal_moves, play

SIZE = 1000
CASES = ("start", "override", "torus", "bombing", "torus2")
# The cases that also time the next player's `legal_moves` after the first move.
NEXT_MOVES_CASES = ("torus2",)

Result = Dict[str, Any]


def big_map(case: str, size: int = SIZE) -> Map:
    """The `case` position's map, `size` x `size` (see the module docstring)."""
    cells: List[str]
    transitions: Tuple[Transition, ...] = ()
    overrides = bombs = strength = 0
    if case == "start":
        cells = ["0"] * (size * size)
        middle = size // 2
        for dx, dy, stone in ((-1, -1, "2"), (0, 0, "2"), (0, -1, "1"), (-1, 0, "1")):
            cells[(middle + dy) * size + middle + dx] = stone
    elif case in ("override", "torus", "torus2"):
        cells = ["2"] * (size * size)
        cells[0] = "1"
        overrides = 2 if case == "torus2" else 1
        if case in ("torus", "torus2"):
            transitions = tuple(Transition(size - 1, y, 2, 0, y, 6) for y in range(size))
    elif case == "bombing":
        cells = ["1"] * (size * size)
        bombs, strength = 1, 1
    else:
        raise ValueError("no big-map case %r (known: %s)" % (case, ", ".join(CASES)))
    return Map(players=2, overrides=overrides, bombs=bombs, strength=strength, height=size,
               width=size, cells=tuple(cells), transitions=transitions)


def timed(action: Callable[[], Any]) -> Tuple[Any, float, float]:
    """(result, CPU seconds, wall seconds) of one call."""
    wall = time.perf_counter()
    cpu = time.process_time()
    result = action()
    return result, time.process_time() - cpu, time.perf_counter() - wall


def measure_rules(game_map: Map, next_moves: bool = False) -> Dict[str, Tuple[float, float]]:
    """CPU and wall seconds of initial_state, legal_moves and play on `game_map`; with
    `next_moves`, also legal_moves of the state after that play."""
    state, *start = timed(lambda: initial_state(game_map))
    moves, *listing = timed(lambda: legal_moves(state))
    after, *playing = timed(lambda: play(state, moves[0]))
    figures = {"rules initial_state": (start[0], start[1]),
               "rules legal_moves": (listing[0], listing[1]),
               "rules play": (playing[0], playing[1])}
    if next_moves:
        _, *following = timed(lambda: legal_moves(after))
        figures["rules next legal_moves"] = (following[0], following[1])
    return figures


def measure_engine(game_map: Map) -> Dict[str, Tuple[float, float]]:
    """CPU and wall seconds of Engine(), legal_moves() and make + the next legal_moves()."""
    engine, *build = timed(lambda: Engine(game_map))
    moves, *listing = timed(engine.legal_moves)

    def make_and_list() -> int:
        engine.make(moves[0])
        return len(engine.legal_moves())

    _, *after = timed(make_and_list)
    return {"engine Engine()": (build[0], build[1]),
            "engine legal_moves": (listing[0], listing[1]),
            "engine make+legal_moves": (after[0], after[1])}


def run_bigmap(cases: List[str], runs: int, size: int = SIZE) -> List[Result]:
    """The medians of `runs` runs of every step, per case."""
    results: List[Result] = []
    for case in cases:
        game_map = big_map(case, size)
        samples: Dict[str, List[Tuple[float, float]]] = {}
        for _ in range(runs):
            rules = measure_rules(game_map, case in NEXT_MOVES_CASES)
            for step, figures in list(rules.items()) + list(measure_engine(game_map).items()):
                samples.setdefault(step, []).append(figures)
        results.append({"case": case, "size": size, "runs": runs, "steps": {
            step: {"cpu": statistics.median(f[0] for f in figures),
                   "wall": statistics.median(f[1] for f in figures)}
            for step, figures in samples.items()}})
    return results


def format_bigmap(results: List[Result], interpreter: str) -> str:
    """One interpreter's figures as a table."""
    lines = ["big maps under %s: median seconds (CPU / wall)" % interpreter,
             "%-10s %-26s %9s %9s" % ("case", "step", "CPU s", "wall s")]
    for result in results:
        for step, figures in result["steps"].items():
            lines.append("%-10s %-26s %9.3f %9.3f" % (result["case"], step, figures["cpu"],
                                                      figures["wall"]))
    return "\n".join(lines)


def format_bigmap_comparison(cpython: List[Result], pypy: List[Result]) -> str:
    """CPython and PyPy side by side (CPU seconds) with the ratio."""
    lines = ["big maps, median CPU seconds",
             "%-10s %-26s %9s %9s %8s" % ("case", "step", "CPython", "PyPy", "ratio")]
    for slow, fast in zip(cpython, pypy):
        for step, figures in slow["steps"].items():
            other = fast["steps"][step]["cpu"]
            ratio = figures["cpu"] / other if other > 0 else 0.0
            lines.append("%-10s %-26s %9.3f %9.3f %7.1fx" % (slow["case"], step,
                                                             figures["cpu"], other, ratio))
    return "\n".join(lines)
