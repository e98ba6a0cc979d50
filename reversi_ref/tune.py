"""`reversi-ref tune`: tune evaluation weights by self-play with SPSA.

Simultaneous perturbation stochastic approximation (Spall), as Fishtest tunes Stockfish: each
iteration k draws a random sign +-1 per parameter (delta), plays game pairs (`sprt.pair_specs`:
same map and opening, seats swapped) between theta + c_k delta and theta - c_k delta, and moves
theta by a_k r / (2 c_k delta), where r is the plus side's score minus the minus side's, per
game (-1..1).  Gains follow Spall's recipe: a_k = a / (A + k + 1)^0.602 and
c_k = c / (k + 1)^0.101, with A a tenth of the iterations, c a share (`--c-ratio`) of each
starting value (at least MIN_C points), and a set so that the first step at r = 1 is
`--learn` times c.

Parameters are `EvalConfig` fields (`reversi_ref.search.config`); a ramp field (early, late)
is two parameters.  The iterations are `--games` / (2 `--pairs`).  Every iteration goes to the
JSON-lines `--log` (after a header line with the settings), so a run restarted with the same
arguments carries on from its last iteration.  The weights come out in `--out` as a JSON object
of the tuned fields, which `client --weights @FILE` and `tournament --variant NAME=BASE:@FILE`
read.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import players as player_registry
from .errors import MapError
from .search.config import DEFAULT_CONFIG, config_from_dict
from .sprt import game_points, pair_specs
from .tournament import GameSpec, _load_maps

# Fields that are weights of the evaluation (the rest of EvalConfig switches the search).
TUNABLE_FIELDS = ("material", "leader_share", "corner", "edge", "half_open",
                  "corner_neighbour", "mobility", "override", "bomb_per_cell")
# Smallest perturbation, in points (100 = one stone).
MIN_C = 10.0
ALPHA_EXPONENT = 0.602
GAMMA_EXPONENT = 0.101


def components(fields: Sequence[str]) -> List[Tuple[str, int]]:
    """(field, index) of every scalar parameter of `fields`; index -1 for a plain int."""
    result: List[Tuple[str, int]] = []
    for name in fields:
        value = getattr(DEFAULT_CONFIG, name)
        if isinstance(value, tuple):
            result.extend((name, i) for i in range(len(value)))
        else:
            result.append((name, -1))
    return result


def start_values(parts: Sequence[Tuple[str, int]], weights: Dict[str, Any]) -> List[float]:
    """The starting theta: `weights` where given, else the defaults."""
    values: List[float] = []
    for name, index in parts:
        value = weights.get(name, getattr(DEFAULT_CONFIG, name))
        values.append(float(value[index] if index >= 0 else value))
    return values


def weights_of(parts: Sequence[Tuple[str, int]], theta: Sequence[float]) -> Dict[str, Any]:
    """theta as EvalConfig weights (rounded to integers), ramps as [early, late]."""
    weights: Dict[str, Any] = {}
    for (name, index), value in zip(parts, theta):
        if index >= 0:
            ramp = weights.setdefault(name, list(getattr(DEFAULT_CONFIG, name)))
            ramp[index] = int(round(value))
        else:
            weights[name] = int(round(value))
    return weights


class Gains(object):
    """The SPSA gain sequences for `iterations` iterations from c (per parameter)."""

    def __init__(self, c: Sequence[float], iterations: int, learn: float) -> None:
        self.c = list(c)
        self.stability = max(1.0, 0.1 * iterations)  # Spall's A
        # a such that the first step at r = 1 is learn * c: a_0 / (2 c_0) = learn * c.
        self.a = [2.0 * learn * ci * ci * (self.stability + 1.0) ** ALPHA_EXPONENT
                  for ci in c]

    def at(self, k: int) -> Tuple[List[float], List[float]]:
        """(a_k, c_k) per parameter."""
        a_k = [a / (self.stability + k + 1.0) ** ALPHA_EXPONENT for a in self.a]
        c_k = [c / (k + 1.0) ** GAMMA_EXPONENT for c in self.c]
        return a_k, c_k


def perturbation(seed: int, k: int, size: int) -> List[int]:
    """Iteration k's Bernoulli signs (+1 or -1 per parameter), the same on every restart."""
    rng = random.Random(seed * 1000003 + k)  # an int: string seeds are slow under PyPy
    return [1 if rng.random() < 0.5 else -1 for _ in range(size)]


def step(theta: Sequence[float], delta: Sequence[int], a_k: Sequence[float],
         c_k: Sequence[float], result: float) -> List[float]:
    """The SPSA update: theta + a_k r / (2 c_k delta) (gradient ascent on the score)."""
    return [t + a * result / (2.0 * c * d) for t, d, a, c in zip(theta, delta, a_k, c_k)]


def iteration_specs(maps: Sequence[Tuple[str, str]], base: str, plus: Dict[str, Any],
                    minus: Dict[str, Any], k: int, pairs: int, seed: int, depth: int,
                    plies: int) -> List[List[GameSpec]]:
    """Iteration k's game pairs between `plus` and `minus`, numbered after earlier ones."""
    variants = [("plus", base, json.dumps(plus)), ("minus", base, json.dumps(minus))]
    return [pair_specs(maps, ["plus", "minus"], k * pairs + j, seed, 0, depth, variants, plies)
            for j in range(pairs)]


# ---------------------------------------------------------------------------------------------
# The run, its log and resuming it
# ---------------------------------------------------------------------------------------------


def read_log(path: Path, header: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The iterations already in the log at `path` ([] when there is none); ValueError when it
    was written with other settings."""
    if not path.is_file():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines:
        return []
    try:
        first = json.loads(lines[0])
    except ValueError:
        raise ValueError("%s is not a tuning log (its first line is not JSON)" % path) from None
    if first != header:
        changed = sorted(k for k in set(first) | set(header) if first.get(k) != header.get(k))
        raise ValueError("%s was written with other settings (%s); use another --log or the "
                         "same arguments" % (path, ", ".join(changed)))
    entries: List[Dict[str, Any]] = []
    for line in lines[1:]:
        try:
            entries.append(json.loads(line))
        except ValueError:
            break  # the last line of a run killed while writing it
    return entries


def tune(args: argparse.Namespace, maps: Sequence[Tuple[str, str]], runner: Any,
         out: Optional[Any] = None) -> Dict[str, Any]:
    """Run (or resume) the tuning; the tuned weights."""
    fields = [f.strip() for f in args.params.split(",") if f.strip()]
    parts = components(fields)
    start = player_registry.read_weights(args.start, "--start") if args.start else {}
    fixed = player_registry.read_weights(args.fixed, "--fixed") if args.fixed else {}
    theta0 = start_values(parts, start)
    iterations = max(1, args.games // (2 * args.pairs))
    c = [max(MIN_C, args.c_ratio * abs(t)) for t in theta0]
    gains = Gains(c, iterations, args.learn)
    header = {"spsa": 1, "params": fields, "theta0": theta0, "c": c, "iterations": iterations,
              "pairs": args.pairs, "learn": args.learn, "seed": args.seed, "base": args.base,
              "depth": args.depth, "opening_plies": args.opening_plies, "fixed": fixed,
              "maps": [name for name, _ in maps]}
    log_path = Path(args.log)
    done = read_log(log_path, header)
    theta = list(done[-1]["theta_next"]) if done else list(theta0)
    if not done:
        log_path.write_text(json.dumps(header) + "\n", encoding="utf-8")
    started = time.monotonic()
    games_before = sum(int(e["games"]) for e in done)
    games = games_before
    with log_path.open("a", encoding="utf-8") as log:
        for k in range(len(done), iterations):
            a_k, c_k = gains.at(k)
            delta = perturbation(args.seed, k, len(parts))
            plus = dict(fixed, **weights_of(parts, [t + c * d for t, c, d in
                                                    zip(theta, c_k, delta)]))
            minus = dict(fixed, **weights_of(parts, [t - c * d for t, c, d in
                                                     zip(theta, c_k, delta)]))
            records = list(runner.play_groups(iteration_specs(
                maps, args.base, plus, minus, k, args.pairs, args.seed, args.depth,
                args.opening_plies)))
            points = sum(game_points(r, "plus") for r in records)
            result = (2.0 * points - len(records)) / len(records)  # plus minus minus, per game
            new_theta = step(theta, delta, a_k, c_k, result)
            games += len(records)
            log.write(json.dumps({"k": k, "theta": theta, "delta": delta, "plus": plus,
                                  "minus": minus, "games": len(records),
                                  "points_plus": points, "result": result,
                                  "theta_next": new_theta}) + "\n")
            log.flush()
            theta = new_theta
            write_weights(args.out, weights_of(parts, theta))
            if out is not None:
                elapsed = time.monotonic() - started
                out.write("\rtune: iteration %d/%d, %d games, %.1f games/s   " % (
                    k + 1, iterations, games, (games - games_before) / max(elapsed, 1e-9)))
                out.flush()
    if out is not None:
        out.write("\n")
    weights = weights_of(parts, theta)
    write_weights(args.out, weights)
    return weights


def write_weights(path: str, weights: Dict[str, Any]) -> None:
    """Write the weights file (atomically, so a reader never sees half of it)."""
    target = Path(path)
    scratch = target.with_name(target.name + ".tmp")
    scratch.write_text(json.dumps(weights, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    scratch.replace(target)


def run_tune(args: argparse.Namespace) -> int:
    """`reversi-ref tune`: check the arguments, tune, print the weights."""
    from .cluster import make_runner
    fields = [f.strip() for f in args.params.split(",") if f.strip()]
    problems: List[str] = []
    bad = [f for f in fields if f not in TUNABLE_FIELDS]
    if not fields or bad:
        problems.append("--params takes evaluation weights (%s), got %r"
                        % (", ".join(TUNABLE_FIELDS), args.params))
    if args.base not in player_registry.TUNABLE:
        problems.append("--base must be one of %s" % ", ".join(player_registry.TUNABLE))
    if args.games < 2 * args.pairs or args.pairs < 1 or args.depth < 1 or args.jobs < 1:
        problems.append("--pairs, --depth and --jobs must be at least 1 and --games at least "
                        "2 * --pairs")
    if not (0.0 < args.c_ratio <= 1.0 and args.learn > 0.0):
        problems.append("--c-ratio must be in (0, 1] and --learn positive")
    for option, text in (("--start", args.start), ("--fixed", args.fixed)):
        if text:
            try:
                config_from_dict(player_registry.read_weights(text, option))
            except ValueError as error:
                problems.append(str(error))
    if problems:
        print("reversi-ref tune: %s" % "; ".join(problems), file=sys.stderr)
        return 2
    try:
        maps = _load_maps([m.strip() for m in args.maps.split(",") if m.strip()])
    except (OSError, MapError) as error:
        print("reversi-ref tune: %s" % error, file=sys.stderr)
        return 1
    runner = make_runner(args.scheduler, args.jobs)
    try:
        weights = tune(args, maps, runner, None if args.quiet else sys.stderr)
    except ValueError as error:
        print("reversi-ref tune: %s" % error, file=sys.stderr)
        return 1
    finally:
        runner.close()
    print("tuned weights (%s): %s" % (args.out, json.dumps(weights, sort_keys=True)))
    return 0


def register(subparsers: Any) -> None:
    """Add the `tune` subcommand."""
    parser = subparsers.add_parser(
        "tune", help="tune evaluation weights by self-play (SPSA)",
        description="Tune EvalConfig weights by SPSA self-play in game pairs, locally or on a "
                    "Dask cluster; resumable from its JSON-lines log.")
    parser.add_argument("--params", required=True, metavar="FIELD,FIELD",
                        help="weights to tune (%s); a ramp field is two parameters"
                             % ", ".join(TUNABLE_FIELDS))
    parser.add_argument("--games", type=int, required=True, metavar="N",
                        help="games in all; iterations = N / (2 * --pairs)")
    parser.add_argument("--maps", default="othello8x8.map", metavar="M1,M2",
                        help="maps, in turn (default othello8x8.map; bare names are looked up "
                             "in maps/)")
    parser.add_argument("--pairs", type=int, default=8, metavar="P",
                        help="game pairs per iteration (default 8)")
    parser.add_argument("--base", default="brs", help="player whose weights are tuned "
                                                      "(default brs)")
    parser.add_argument("--depth", type=int, default=1, metavar="D",
                        help="search depth of both sides (default 1)")
    parser.add_argument("--opening-plies", type=int, default=4, metavar="K",
                        help="random plain moves before each pair (default 4)")
    parser.add_argument("--c-ratio", type=float, default=0.2, metavar="R",
                        help="perturbation c as a share of each starting value (default 0.2, "
                             "at least %g points)" % MIN_C)
    parser.add_argument("--learn", type=float, default=0.2, metavar="L",
                        help="first step at a full win, as a share of c (default 0.2)")
    parser.add_argument("--start", default=None, metavar="JSON",
                        help="starting weights (inline or @FILE; default: the defaults)")
    parser.add_argument("--fixed", default=None, metavar="JSON",
                        help="weights both sides use while tuning but not tuned or written, "
                             "e.g. '{\"tt_bits\": 10}' for speed")
    parser.add_argument("--seed", type=int, default=1, help="seed of the signs and openings "
                                                            "(default 1)")
    parser.add_argument("--log", default="tune.jsonl", metavar="FILE",
                        help="JSON-lines log, resumed when it exists (default tune.jsonl)")
    parser.add_argument("--out", default="tuned.json", metavar="FILE",
                        help="the weights file written (default tuned.json)")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="Dask scheduler tcp://HOST:8786 or local:N (reversi-ref[cluster])")
    parser.add_argument("--jobs", type=int, default=1, metavar="J",
                        help="local processes without --scheduler (default 1)")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    parser.set_defaults(func=run_tune)
