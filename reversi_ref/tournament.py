"""`reversi-ref tournament`: self-play between registered players, in parallel, with Elo.

Every game is played in one process over the fast engine (`reversi_ref.engine`), which keeps
the books exactly as the referee would (RULES.md 3-7): a player that raises, answers an illegal
move or overdraws its time bank is disqualified (RULES.md 6) and the game goes on.

Time (`--time-ms S`, default 1000): as on the official server (RULES.md 8), each seat's bank
starts at S and grows by S at every request after its first; the bank is passed whole to
players that plan their own time (`manages_bank`), the client's share of it to the others.
With `--depth D` and no `--time-ms` every player gets time 0 and the depth limit D, which makes
the games reproducible.

Seats: on a map with n seats, the games cycle through every choice of n different names from
`--players` (all of them when there are fewer than n, repeated in turn) in every rotation, so
each name sits in each seat equally often over a full cycle.

Tuning: `--variant NAME=BASE:JSON` adds a player NAME that is BASE (`search`, `brs` or
`mcts`) with some evaluation weights changed (`reversi_ref.search.config.EvalConfig`), so
weights can be compared in a tournament without editing code.

Records: each game's record keeps its start (`start`, the map text after the random opening) and
its turns (`played`: "x,y,special" for each move, "-" for a turn that ended in a
disqualification, space-separated), so `replay_record` can rebuild any game with the readable
rules.

Results: each seat scores, against every other seat, 1 for more stones, 1/2 for as many, 0 for
fewer (disqualified seats have fewer than anybody); a seat's score is the mean over its
opponents, a name's score rate the mean over its seats.  Elo comes from the same pairwise
results between seats of different names (a Bradley-Terry fit with one virtual draw against
every other name, so perfect records stay finite), with a 95% interval of +-1.96 standard
errors.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing
import multiprocessing.pool
import random
import signal
import sys
import time
from pathlib import Path
from typing import (Any, Dict, Iterable, Iterator, List, NamedTuple, Optional, Sequence, TextIO,
                    Tuple)

from . import players as player_registry
from .bundled import load_map_argument
from .cli import UsageError, int_range, output_file, sigterm_as_interrupt
from .client import move_budget_ms
from .engine import Engine
from .errors import IllegalMoveError
from .mapfile import read_map
from .match import (SPARSE_PROGRESS_SECONDS, add_time_control_flags, as_move, describe_time_control,
                    pypy_note, time_control)
from .rules import disqualify, initial_state, play
from .search.config import config_from_dict
from .state import GameState, Move

# The players a --variant can be based on.
VARIANT_BASES = player_registry.TUNABLE


class GameSpec(NamedTuple):
    """One game to play: where, who sits where, the seeds and the time control."""

    number: int
    map_name: str
    map_text: str
    seats: Tuple[str, ...]
    seed: int
    time_ms: int
    depth: int
    variants: Tuple[Tuple[str, str, str], ...] = ()


# ---------------------------------------------------------------------------------------------
# Schedule
# ---------------------------------------------------------------------------------------------


def seatings(names: Sequence[str], seats: int) -> List[Tuple[str, ...]]:
    """Every seating of `names` on `seats` seats the schedule cycles through: each choice of
    `seats` different names in each rotation, or, with fewer names than seats, the names
    repeated in turn, each such seating followed by the same with every name moved on to the
    next (two names on three seats: A B A, B A B, then B A A, A B B, ...).  So each block of
    `len(names)` seatings, an SPRT pair for two names, puts every name in every seat once.
    Rotations alone do not where the seats are not a multiple of the names (A B A, B A A: B
    never third, and A in two seats of each game)."""
    if not names or seats <= 0:
        return []
    count = len(names)
    if count <= seats:
        # The name index of each seat; with seats a multiple of the names, turning the seats
        # gives nothing the name shifts do not.
        base = [i % count for i in range(seats)]
        turns = 1 if seats % count == 0 else seats
        return [tuple(names[(base[(s + r) % seats] + j) % count] for s in range(seats))
                for r in range(turns) for j in range(count)]
    result: List[Tuple[str, ...]] = []
    for group in itertools.combinations(names, seats):
        for r in range(seats):
            result.append(tuple(group[(s + r) % seats] for s in range(seats)))
    return result


def schedule(maps: Sequence[Tuple[str, str]], names: Sequence[str], games: int, seed: int,
             time_ms: int, depth: int, variants: Sequence[Tuple[str, str, str]] = ()
             ) -> List[GameSpec]:
    """`games` games per map, cycling through the map's seatings."""
    specs: List[GameSpec] = []
    for map_name, text in maps:
        seat_count = read_map(text).players
        plans = seatings(names, seat_count)
        for g in range(games):
            specs.append(GameSpec(len(specs), map_name, text, plans[g % len(plans)],
                                  seed * 100003 + len(specs) * 101, time_ms, depth,
                                  tuple(variants)))
    return specs


# ---------------------------------------------------------------------------------------------
# One game
# ---------------------------------------------------------------------------------------------


def play_game(spec: GameSpec) -> Dict[str, Any]:
    """Play one game to the end; its record (JSON-ready)."""
    game_map = read_map(spec.map_text)
    engine = Engine(game_map)
    n = game_map.players
    seats = {p: make_player(spec.seats[p - 1], spec.seed + p, spec.variants)
             for p in range(1, n + 1)}
    initial = engine.to_state()
    for player in seats.values():
        player.prepare(initial)
    banks = {p: spec.time_ms for p in seats}
    asked = {p: 0 for p in seats}
    longest = {p: 0.0 for p in seats}
    depths: Dict[int, List[int]] = {p: [] for p in seats}
    nodes = {p: 0 for p in seats}
    thinking = {p: 0.0 for p in seats}
    reasons: Dict[int, str] = {}
    played: List[str] = []  # one entry a turn, so also the count of moves
    started = time.monotonic()
    while not engine.is_over():
        p = engine.to_move
        player = seats[p]
        if spec.time_ms > 0 and asked[p] > 0:
            banks[p] += spec.time_ms
        asked[p] += 1
        state = engine.to_state()
        if spec.time_ms > 0:
            given = banks[p] if player.manages_bank else move_budget_ms(banks[p])
        else:
            given = 0
        t0 = time.monotonic()
        try:
            choice: object = player.choose(state, given, spec.depth)
            error = ""
        except Exception as exc:  # any failure of a player is its disqualification
            choice = None
            error = "player raised %s: %s" % (type(exc).__name__, exc)
        used = (time.monotonic() - t0) * 1000.0
        longest[p] = max(longest[p], used)
        if spec.time_ms > 0:
            banks[p] -= int(math.ceil(used))
            if banks[p] < 0 and not error:
                error = "timeout: answered after %.0f ms with %d ms in the bank" % (
                    used, banks[p] + int(math.ceil(used)))
        move: Optional[Move] = None
        if not error:
            error, move = _apply(engine, choice)
        if move is None:
            reasons[p] = error
            engine.disqualify(p)
            played.append("-")
        else:
            played.append("%d,%d,%d" % move)
            depths[p].append(player.info.depth)
            nodes[p] += player.info.nodes
            thinking[p] += used
    return _record(spec, engine, reasons, longest, depths, nodes, thinking,
                   time.monotonic() - started, played)


def make_player(name: str, seed: int, variants: Sequence[Tuple[str, str, str]] = ()
                ) -> player_registry.Player:
    """A player by name: a variant (name, base player, JSON weights) or a registered one."""
    for variant, base, weights in variants:
        if variant == name:
            return player_registry.tuned(base, json.loads(weights), seed, name)
    return player_registry.get(name, seed)


def parse_variant(text: str, known: Sequence[str]) -> Tuple[str, str, str]:
    """NAME=BASE:JSON (JSON inline, or @FILE) as (name, base, JSON text); ValueError naming
    what is wrong."""
    name, sep, rest = text.partition("=")
    base, sep2, weights = rest.partition(":")
    if not sep or not sep2 or not name:
        raise ValueError("--variant must be NAME=BASE:JSON, got %r" % text)
    if name in known:
        raise ValueError("--variant name %r is already a player" % name)
    if base not in VARIANT_BASES:
        raise ValueError("--variant base must be one of %s, got %r"
                         % (", ".join(VARIANT_BASES), base))
    values = player_registry.read_weights(weights, "--variant %s" % name)
    config_from_dict(values)
    return name, base, json.dumps(values)


def _apply(engine: Engine, choice: object) -> Tuple[str, Optional[Move]]:
    """Play `choice` on the engine: ("", the move played), or (why it is not a legal move,
    None)."""
    move = as_move(choice)
    if move is None:
        return "player returned %r, not a move" % (choice,), None
    if not (0 <= move.x < engine.width and 0 <= move.y < engine.height
            and 0 <= move.special < 32):
        return "illegal move (%d, %d) special %d" % move, None
    encoded = engine.encode_move(move)
    if not engine.is_legal(encoded):
        return "illegal move (%d, %d) special %d" % move, None
    engine.make(encoded)
    return "", move


def seat_points(scores: Sequence[int], disqualified: Sequence[bool]) -> List[float]:
    """Each seat's points: the mean over the other seats of 1 (more stones), 1/2 (as many) or
    0 (fewer); a disqualified seat has fewer than anybody, two disqualified seats tie."""
    n = len(scores)
    points: List[float] = []
    for a in range(n):
        total = 0.0
        for b in range(n):
            if a != b:
                total += pair_result(scores[a], disqualified[a], scores[b], disqualified[b])
        points.append(total / (n - 1) if n > 1 else 1.0)
    return points


def pair_result(score_a: int, out_a: bool, score_b: int, out_b: bool) -> float:
    """1, 1/2 or 0: how seat a did against seat b."""
    if out_a or out_b:
        return 0.5 if out_a and out_b else (0.0 if out_a else 1.0)
    if score_a > score_b:
        return 1.0
    return 0.5 if score_a == score_b else 0.0


def _record(spec: GameSpec, engine: Engine, reasons: Dict[int, str],
            longest: Dict[int, float], depths: Dict[int, List[int]], nodes: Dict[int, int],
            thinking: Dict[int, float], seconds: float, played: Sequence[str]
            ) -> Dict[str, Any]:
    n = engine.players
    scores = engine.scores()
    out = [bool(engine.disqualified[p]) for p in range(1, n + 1)]
    points = seat_points(scores, out)
    seats = []
    for p in range(1, n + 1):
        alive_better = sum(1 for q in range(1, n + 1) if not out[q - 1]
                           and scores[q - 1] > scores[p - 1])
        seats.append({
            "seat": p,
            "player": spec.seats[p - 1],
            "score": scores[p - 1],
            "rank": None if out[p - 1] else alive_better + 1,
            "points": points[p - 1],
            "disqualified": reasons.get(p, "disqualified" if out[p - 1] else None),
            "longest_move_ms": round(longest[p], 1),
            "mean_depth": round(sum(depths[p]) / len(depths[p]), 2) if depths[p] else 0,
            "moves": len(depths[p]),
            "nodes": nodes[p],
            "thinking_ms": round(thinking[p], 1),
        })
    return {"game": spec.number, "map": spec.map_name, "seed": spec.seed,
            "time_ms": spec.time_ms, "depth": spec.depth, "moves": len(played),
            "seconds": round(seconds, 2), "seats": seats, "start": spec.map_text,
            "played": " ".join(played)}


def replay_record(record: Dict[str, Any]) -> GameState:
    """The final position of a game record, rebuilt from its `start` and `played` turns by the
    readable rules; IllegalMoveError if a turn is malformed or not legal there."""
    state = initial_state(read_map(record["start"]))
    for number, turn in enumerate(record["played"].split(), start=1):
        if state.to_move is None:
            raise IllegalMoveError("turn %d (%r) comes after the end of the game" % (number, turn))
        if turn == "-":
            state = disqualify(state, state.to_move)
            continue
        fields = turn.split(",")
        if len(fields) != 3 or not all(f.isdigit() for f in fields):
            raise IllegalMoveError("turn %d (%r) is not x,y,special" % (number, turn))
        state = play(state, Move(*(int(f) for f in fields)))
    return state


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------


def pairwise(records: Sequence[Dict[str, Any]]) -> List[Tuple[str, str, float]]:
    """(name a, name b, result of a) for every pair of seats of different names in a game."""
    pairs: List[Tuple[str, str, float]] = []
    for record in records:
        seats = record["seats"]
        for a, b in itertools.combinations(seats, 2):
            if a["player"] != b["player"]:
                pairs.append((a["player"], b["player"], pair_result(
                    a["score"], a["disqualified"] is not None,
                    b["score"], b["disqualified"] is not None)))
    return pairs


def elo_ratings(names: Sequence[str], pairs: Sequence[Tuple[str, str, float]]
                ) -> Dict[str, Tuple[float, float]]:
    """(Elo, half-width of the 95% interval) per name, mean rating 0.

    A Bradley-Terry fit (minorization-maximization) of the pairwise results, with one virtual
    draw between every two names; the interval is 1.96 standard errors from the Fisher
    information of each name's games.
    """
    index = {name: i for i, name in enumerate(names)}
    k = len(names)
    wins = [[0.0] * k for _ in range(k)]
    games = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j:
                wins[i][j] += 0.5
                games[i][j] += 1.0
    for a, b, result in pairs:
        i, j = index[a], index[b]
        wins[i][j] += result
        wins[j][i] += 1.0 - result
        games[i][j] += 1.0
        games[j][i] += 1.0
    strength = [1.0] * k
    for _ in range(2000):
        changed = 0.0
        for i in range(k):
            total_wins = sum(wins[i])
            denominator = sum(games[i][j] / (strength[i] + strength[j])
                              for j in range(k) if j != i)
            if denominator > 0 and total_wins > 0:
                new = total_wins / denominator
                changed = max(changed, abs(math.log(new / strength[i])))
                strength[i] = new
        mean_log = sum(math.log(s) for s in strength) / k
        strength = [s / math.exp(mean_log) for s in strength]
        if changed < 1e-10:
            break
    scale = 400.0 / math.log(10.0)
    ratings: Dict[str, Tuple[float, float]] = {}
    for name, i in index.items():
        information = 0.0
        for j in range(k):
            if j != i:
                p = strength[i] / (strength[i] + strength[j])
                information += games[i][j] * p * (1.0 - p)
        error = scale / math.sqrt(information) if information > 0 else float("inf")
        ratings[name] = (scale * math.log(strength[i]), 1.96 * error)
    return ratings


def summarize(names: Sequence[str], records: Sequence[Dict[str, Any]]) -> Dict[str, Any]:
    """Per name: games (seats), score rate, first places, timeouts, disqualifications, Elo."""
    ratings = elo_ratings(names, pairwise(records))
    table: Dict[str, Any] = {}
    for name in names:
        seats = [s for r in records for s in r["seats"] if s["player"] == name]
        timeouts = sum(1 for s in seats if s["disqualified"]
                       and s["disqualified"].startswith("timeout"))
        depth_values = [s["mean_depth"] for s in seats if s["mean_depth"]]
        thinking = sum(s["thinking_ms"] for s in seats)
        table[name] = {
            "seats": len(seats),
            "score_rate": sum(s["points"] for s in seats) / len(seats) if seats else 0.0,
            "firsts": sum(1 for s in seats if s["rank"] == 1),
            "timeouts": timeouts,
            "disqualified": sum(1 for s in seats if s["disqualified"]) - timeouts,
            "longest_move_ms": max((s["longest_move_ms"] for s in seats), default=0.0),
            "mean_depth": round(sum(depth_values) / len(depth_values), 2)
            if depth_values else 0,
            "nodes_per_second": round(1000.0 * sum(s["nodes"] for s in seats) / thinking)
            if thinking > 0 else 0,
            "elo": round(ratings[name][0], 1),
            "elo_95": round(ratings[name][1], 1),
        }
    return table


def format_table(table: Dict[str, Any]) -> List[str]:
    """The results as text lines, best score rate first."""
    lines = ["%-10s %6s %7s %7s %14s %6s %4s %8s %6s %8s" % (
        "player", "seats", "score", "firsts", "elo (95%)", "t/out", "dq", "max ms", "depth",
        "nodes/s")]
    for name, row in sorted(table.items(), key=lambda item: -item[1]["score_rate"]):
        lines.append("%-10s %6d %6.1f%% %7d %7.0f +-%-4.0f %6d %4d %8.0f %6s %8d" % (
            name, row["seats"], 100.0 * row["score_rate"], row["firsts"], row["elo"],
            min(row["elo_95"], 9999.0), row["timeouts"], row["disqualified"],
            row["longest_move_ms"], row["mean_depth"], row["nodes_per_second"]))
    return lines


# ---------------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------------


def ignore_interrupts() -> None:
    """In a worker process: leave Ctrl-C to the parent, which stops the workers and reports
    the games finished (otherwise every worker prints a traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The parent turns SIGTERM into Ctrl-C (`sigterm_as_interrupt`); a worker inherits that,
    # but the pool stops its workers with SIGTERM, which must end them quietly.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class LocalRunner:
    """Plays groups of games (one game, or the two of a pair) in this process (jobs 1) or in
    a pool of `jobs` processes: the local counterpart of `cluster.DaskRunner`."""

    def __init__(self, jobs: int = 1) -> None:
        self.workers = max(1, jobs)
        self.pool: Optional["multiprocessing.pool.Pool"] = None

    def play_groups(self, groups: Iterable[Sequence[GameSpec]]) -> Iterator[Dict[str, Any]]:
        """Each game's record as it finishes."""
        if self.workers == 1:
            for specs in groups:
                for spec in specs:
                    yield play_game(spec)
            return
        if self.pool is None:
            self.pool = multiprocessing.Pool(self.workers, initializer=ignore_interrupts)
        for records in self.pool.imap_unordered(play_all, groups):
            for record in records:
                yield record

    def close(self) -> None:
        """Stop the workers at once, dropping the games they are playing (a pool that waited
        for them would keep Ctrl-C waiting for minutes on a large map)."""
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None

    def describe(self) -> str:
        """How the games are played, for the report."""
        return "%d local process%s" % (self.workers, "" if self.workers == 1 else "es")


def play_all(specs: Sequence[GameSpec]) -> List[Dict[str, Any]]:
    """Play a group of games in this process: their records, in order."""
    return [play_game(spec) for spec in specs]


def run_games(specs: Sequence[GameSpec], jobs: int, progress: Optional[TextIO] = None
              ) -> Tuple[List[Dict[str, Any]], bool]:
    """Play all games, `jobs` at a time (1: in this process): the records in game order, and
    whether the user stopped the run (Ctrl-C or SIGTERM) before the last game, keeping those
    finished."""
    records: List[Dict[str, Any]] = []
    started = time.monotonic()
    # On a terminal the bar is redrawn in place; in a log, a line now and then and at the end.
    tty = progress is not None and hasattr(progress, "isatty") and progress.isatty()
    last = [started]

    def show() -> None:
        if progress is not None:
            done = len(records)
            total = len(specs)
            now = time.monotonic()
            if not tty and done < total and now - last[0] < SPARSE_PROGRESS_SECONDS:
                return
            last[0] = now
            filled = 30 * done // total if total else 30
            progress.write("%stournament [%s%s] %d/%d games, %.0f s%s" % (
                "\r" if tty else "", "#" * filled, "-" * (30 - filled), done, total,
                now - started, "" if tty else "\n"))
            progress.flush()

    show()
    interrupted = False
    runner = LocalRunner(jobs)
    try:
        for record in runner.play_groups([spec] for spec in specs):
            records.append(record)
            show()
    except KeyboardInterrupt:
        interrupted = True  # hours of games may be in `records`: report them
    finally:
        runner.close()
    if progress is not None and tty:
        progress.write("\n")
        progress.flush()
    records.sort(key=lambda r: int(r["game"]))
    return records, interrupted


def _load_maps(names: Sequence[str]) -> List[Tuple[str, str]]:
    """(file name, text) of each map argument: a file or a bundled map's name."""
    maps: List[Tuple[str, str]] = []
    for name in names:
        source, _ = load_map_argument(name)
        maps.append((Path(source.label).name, source.text))
    return maps


def run_tournament(args: argparse.Namespace) -> int:
    """`reversi-ref tournament`: play, print the table, write JSON when asked."""
    names = [n.strip() for n in args.players.split(",") if n.strip()]
    map_names = [m.strip() for m in args.maps.split(",") if m.strip()]
    variants: List[Tuple[str, str, str]] = []
    for text in args.variant or []:
        try:
            variants.append(parse_variant(text, player_registry.names()))
        except (ValueError, OSError) as error:
            raise UsageError("argument --variant: %s" % error) from None
    if len(set(names)) < 2:
        raise UsageError("argument --players: needs at least two different names, got %r"
                         % args.players)
    unknown = [n for n in names if n not in player_registry.names()
               and n not in [v[0] for v in variants]]
    if unknown:
        raise UsageError("argument --players: unknown player %s (known: %s)" % (
            ", ".join(repr(n) for n in unknown),
            ", ".join(player_registry.names() + [v[0] for v in variants])))
    if len(set(names)) != len(names):
        raise UsageError("argument --players: names a player twice: %r" % args.players)
    if not map_names:
        raise UsageError("argument --maps: names no map")
    problems = _distributed_problems(args, names)
    if problems:
        raise UsageError("; ".join(problems))
    maps = _load_maps(map_names)
    time_ms, depth = time_control(args.time_ms, args.depth)
    args.time_ms, args.depth = time_ms, depth  # what --sprt and the cluster runner play with
    biggest = max((read_map(text) for _, text in maps), key=lambda m: m.width * m.height)
    note = pypy_note(biggest.width, biggest.height, "tournament")
    if note is not None and not args.quiet:
        print(note, file=sys.stderr)
    seed = args.seed if args.seed is not None else _resumed_seed(args)
    if seed is None:
        seed = random.randrange(1 << 20)
    with sigterm_as_interrupt():
        if args.sprt:
            from .sprt import run_sprt_command
            return run_sprt_command(args, maps, names, variants, seed)
        specs = schedule(maps, names, args.games, seed, time_ms, depth, variants)
        interrupted = False
        if args.scheduler:
            from .cluster import play_on_cluster
            records = play_on_cluster(args, specs, seed)
        else:
            records, interrupted = run_games(specs, args.jobs,
                                             None if args.quiet else sys.stderr)
    table = summarize(names, records)
    if interrupted:
        print("interrupted: %d of %d games finished" % (len(records), len(specs)))
    print("%d games on %s; %s; seed %d" % (len(records), ", ".join(m for m, _ in maps),
                                           describe_time_control(time_ms, depth), seed))
    for line in format_table(table):
        print(line)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"players": names, "maps": [m for m, _ in maps], "seed": seed,
                       "variants": {v[0]: {"base": v[1], "weights": json.loads(v[2])}
                                    for v in variants},
                       "time_ms": time_ms, "depth": depth, "interrupted": interrupted,
                       "table": table, "games": records}, handle, indent=1)
            handle.write("\n")
        if args.scheduler:
            from .cluster import finish_partial
            finish_partial(args.json)
    return 130 if interrupted else 0


def _distributed_problems(args: argparse.Namespace, names: Sequence[str]) -> List[str]:
    """What is wrong with --sprt, --alpha, --beta, --max-pairs and --scheduler."""
    problems: List[str] = []
    if args.sprt:
        from .sprt import parse_sprt
        try:
            parse_sprt(args.sprt)
        except ValueError as error:
            problems.append(str(error))
        if len(names) != 2:
            problems.append("--sprt needs exactly two --players: the candidate, then the "
                            "baseline")
        if not (0.0 < args.alpha < 0.5 and 0.0 < args.beta < 0.5):
            problems.append("--alpha and --beta must be between 0 and 0.5")
        if args.max_pairs < 1 or args.opening_plies < 0:
            problems.append("--max-pairs must be at least 1, --opening-plies at least 0")
    if args.scheduler is not None and not (
            args.scheduler.startswith(("tcp://", "tls://", "local:"))):
        problems.append("--scheduler must be tcp://HOST:PORT or local:N, got %r"
                        % args.scheduler)
    return problems


def _resumed_seed(args: argparse.Namespace) -> Optional[int]:
    """The seed of an unfinished cluster run or SPRT to resume (its --json partial file), if
    any."""
    if not args.json or not (args.scheduler or args.sprt):
        return None
    from .cluster import saved_seed
    return saved_seed(args.json)


def register(subparsers: Any) -> None:
    """Add the `tournament` subcommand."""
    parser = subparsers.add_parser(
        "tournament", help="self-play between players with score rates and Elo",
        description="Play games between registered players on the given maps, in parallel, "
                    "and print score rates and Elo ratings.")
    parser.add_argument("--maps", required=True, metavar="M1,M2",
                        help="comma-separated map files or bundled maps' names "
                             "(`reversi-ref maps` lists them)")
    parser.add_argument("--players", required=True, metavar="A,B,...",
                        help="comma-separated player names (known: %s)"
                             % ", ".join(player_registry.names()))
    parser.add_argument("--games", type=int_range(1), default=10, metavar="N",
                        help="games per map (default 10)")
    parser.add_argument("--jobs", type=int_range(1), default=1, metavar="J",
                        help="games played at once, in separate processes (default 1)")
    add_time_control_flags(parser)
    parser.add_argument("--seed", type=int, default=None,
                        help="seed for the players (default: random, printed)")
    parser.add_argument("--variant", action="append", metavar="NAME=BASE:JSON",
                        help="an extra player NAME: BASE (search, brs or mcts) with the "
                             "evaluation weights of JSON changed (inline, or @FILE), e.g. "
                             "'wide=brs:{\"mobility\": [2000, 400]}'; may be repeated")
    parser.add_argument("--json", type=output_file, metavar="FILE",
                        help="write every game and the table as JSON; with --scheduler or "
                             "--sprt the games so far are kept in FILE.partial, and the same "
                             "command resumes a run that was stopped")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="play on a Dask cluster: tcp://HOST:8786, or local:N for N local "
                             "worker processes (needs reversi-ref[cluster])")
    parser.add_argument("--sprt", default=None, metavar="ELO0,ELO1",
                        help="SPRT of the first --players name against the second, in game "
                             "pairs, until H0 (ELO0) or H1 (ELO1, logistic Elo) is accepted")
    parser.add_argument("--alpha", type=float, default=0.05,
                        help="SPRT false-positive rate (default 0.05)")
    parser.add_argument("--beta", type=float, default=0.05,
                        help="SPRT false-negative rate (default 0.05)")
    parser.add_argument("--max-pairs", type=int, default=20000, metavar="N",
                        help="SPRT: stop undecided after N game pairs (default 20000)")
    parser.add_argument("--opening-plies", type=int, default=4, metavar="K",
                        help="SPRT: random plain moves before each pair (default 4)")
    parser.set_defaults(func=run_tournament)

