"""Sequential probability ratio test (SPRT) on game pairs, as Fishtest runs it.

A candidate A plays a baseline B in pairs of games: same map, same opening, A in the first
seating of the pair and B in it in the second (`tournament.seatings`), so luck of the seat and of
the opening cancels within a pair.  With two seats a pair scores 0, 1/2, 1, 3/2 or 2 points for
A (the pentanomial model).  With more seats a game's points are A's mean result against B's
seats, so a pair can score any multiple of a small fraction (1/16 with four seats each of
eight); the test takes these points as they are, and the pentanomial counts in the report round
them to the nearest half point.  After each pair the log-likelihood ratio of H1 (A is ELO1
stronger) against H0 (A is ELO0 stronger) is updated, and the test stops when it leaves (lower,
upper) = (ln(beta / (1 - alpha)), ln((1 - beta) / alpha)): below accepts H0, above accepts H1.

Elo here is logistic Elo (expected score 1 / (1 + 10^(-elo / 400)), the scale of the
tournament table), not Fishtest's newer normalized Elo.  The LLR is the generalized SPRT's
normal approximation (Van den Bergh), which holds for any bounded score: with mean pair score
mu and per-pair variance var (both per game, out of 1) over N pairs,
LLR = N (s1 - s0) (2 mu - s0 - s1) / (2 var), s0 and s1 the expected scores under H0 and H1.
Half a pair is added at each of the five pentanomial scores (a prior of 2.5 pairs with mean
1/2), so a lucky first pair or two cannot end the test on a zero variance.  Rounding a
many-seat pair's points to half points would pull them towards a draw: the test would need
more pairs and, at ELO1, accept H0 more often than beta (docs/cluster.md).

Pure standard library: the pair schedule and the statistics; `cluster.Runner` plays the games.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import sys
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, TextIO, Tuple

from .cluster import SavedGames, finish_partial, make_runner, schedule_digest
from .engine import Engine
from .engine.tables import BUILD
from .mapfile import format_map, read_map
from .tournament import GameSpec, pair_result, seatings

# Pseudo-count added to each pentanomial outcome (see the module docstring).
PRIOR = 0.5
# Pair scores per game, out of 1: 0, 1/4, 1/2, 3/4, 1.
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


# ---------------------------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------------------------


def expected_score(elo: float) -> float:
    """The expected score (0..1) of a player `elo` logistic Elo stronger than its opponent."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def elo_of_score(score: float) -> float:
    """The logistic Elo difference that gives `score` (clamped to +-2000 at 0 and 1)."""
    if score <= 0.0:
        return -2000.0
    if score >= 1.0:
        return 2000.0
    return max(-2000.0, min(2000.0, -400.0 * math.log10(1.0 / score - 1.0)))


def bounds(alpha: float, beta: float) -> Tuple[float, float]:
    """(lower, upper) LLR bounds: below accepts H0 (error rate beta), above H1 (alpha)."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def weighted_moments(scores: Sequence[float], weights: Sequence[float]
                     ) -> Tuple[float, float, float]:
    """(pairs, mean score per game, variance of a pair's mean) of pair scores (per game, out of
    1) each seen `weights` times, with the prior added."""
    samples = list(zip(scores, weights)) + [(score, PRIOR) for score in PAIR_SCORES]
    total = sum(w for _, w in samples)
    mean = sum(w * s for s, w in samples) / total
    variance = sum(w * (s - mean) ** 2 for s, w in samples) / total
    return float(sum(weights)), mean, variance


def mean_and_variance(counts: Sequence[float]) -> Tuple[float, float, float]:
    """(pairs, mean score per game, variance of a pair's mean) of pentanomial counts with the
    prior added."""
    return weighted_moments(PAIR_SCORES, counts)


def moments_llr(moments: Tuple[float, float, float], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0) from (pairs, mean,
    variance)."""
    pairs, mean, variance = moments
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return pairs * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)


def moments_elo(moments: Tuple[float, float, float]) -> Tuple[float, float, float]:
    """(Elo, low, high): the logistic Elo of the mean score and its 95% interval."""
    pairs, mean, variance = moments
    spread = 1.96 * math.sqrt(variance / max(pairs, 1.0))
    return elo_of_score(mean), elo_of_score(mean - spread), elo_of_score(mean + spread)


def llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0) for pentanomial counts
    (pairs scoring 0, 1/2, 1, 3/2, 2 points)."""
    return moments_llr(mean_and_variance(counts), elo0, elo1)


def elo_interval(counts: Sequence[float]) -> Tuple[float, float, float]:
    """(Elo, low, high): the logistic Elo of pentanomial counts' mean score and its 95%
    interval."""
    return moments_elo(mean_and_variance(counts))


def points_moments(pair_points: Sequence[float]) -> Tuple[float, float, float]:
    """(pairs, mean score per game, variance of a pair's mean) of pairs' points (0..2 each),
    taken as they are, with the prior added."""
    return weighted_moments([p / 2.0 for p in pair_points], [1.0] * len(pair_points))


def points_llr(pair_points: Sequence[float], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 against H0 for pairs' points (0..2 each)."""
    return moments_llr(points_moments(pair_points), elo0, elo1)


def points_elo(pair_points: Sequence[float]) -> Tuple[float, float, float]:
    """(Elo, low, high) of pairs' points (0..2 each)."""
    return moments_elo(points_moments(pair_points))


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> Tuple[float, float]:
    """The Wilson score interval of a rate (95% at z = 1.96): unlike the normal
    approximation it stays inside [0, 1] and is not empty at 0 or all of `trials`."""
    if trials <= 0:
        return 0.0, 1.0
    rate = successes / trials
    share = z * z / trials
    centre = (rate + share / 2.0) / (1.0 + share)
    half = z * math.sqrt(rate * (1.0 - rate) / trials + share / (4.0 * trials)) / (1.0 + share)
    return max(0.0, centre - half), min(1.0, centre + half)


def sign_test(higher: int, lower: int) -> float:
    """Two-sided exact sign test: the probability, with each differing pair equally likely
    to go either way, of a split at least as uneven as `higher` against `lower`."""
    n = higher + lower
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(higher, lower) + 1))
    return min(1.0, 2.0 * tail / 2.0 ** n)


class Verdict(NamedTuple):
    """Where a test stands: "H0", "H1" or "" (go on), the LLR and the counts."""

    result: str
    llr: float
    counts: Tuple[int, ...]


class Sprt:
    """One running test: feed pair scores (0..2 points) with `add`, read `verdict`.

    The LLR and Elo use the points as given; `counts` rounds them to half points for the
    pentanomial line of the report."""

    def __init__(self, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05
                 ) -> None:
        if not elo0 < elo1:
            raise ValueError("--sprt needs ELO0 < ELO1, got %g,%g" % (elo0, elo1))
        if not (0.0 < alpha < 0.5 and 0.0 < beta < 0.5):
            raise ValueError("--alpha and --beta must be between 0 and 0.5")
        self.elo0, self.elo1, self.alpha, self.beta = elo0, elo1, alpha, beta
        self.lower, self.upper = bounds(alpha, beta)
        self.points: List[float] = []
        # Set when the user stopped the test (Ctrl-C): the pairs so far are still reported.
        self.interrupted = False

    def add(self, points: float) -> Verdict:
        """Count one pair (A's points out of 2) and return the verdict after it."""
        self.points.append(float(points))
        return self.verdict()

    @property
    def counts(self) -> List[int]:
        """The pentanomial counts: pairs scoring 0, 1/2, 1, 3/2 and 2 points, each pair's
        points rounded to the nearest half point."""
        counts = [0, 0, 0, 0, 0]
        for points in self.points:
            counts[max(0, min(4, int(round(points * 2.0))))] += 1
        return counts

    def graded(self) -> bool:
        """Whether some pair's points fall between half points (a game of more than two
        seats), so the pentanomial counts are rounded."""
        return any(abs(p * 2.0 - round(p * 2.0)) > 1e-9 for p in self.points)

    def verdict(self) -> Verdict:
        """H1 above the upper bound, H0 below the lower one, else ""."""
        value = points_llr(self.points, self.elo0, self.elo1)
        result = "H1" if value >= self.upper else ("H0" if value <= self.lower else "")
        return Verdict(result, value, tuple(self.counts))

    def report(self) -> List[str]:
        """The result as text lines (Fishtest's layout)."""
        verdict = self.verdict()
        elo, low, high = points_elo(self.points)
        pairs = len(self.points)
        lines = [
            "SPRT elo0=%g elo1=%g alpha=%g beta=%g (logistic Elo, pentanomial)"
            % (self.elo0, self.elo1, self.alpha, self.beta),
            "LLR %.2f (%.2f, %.2f) %s" % (
                verdict.llr, self.lower, self.upper,
                {"H1": "H1 accepted", "H0": "H0 accepted"}.get(
                    verdict.result, "no decision (interrupted)" if self.interrupted
                    else "no decision")),
            "games %d (%d pairs), pentanomial %s%s" % (
                2 * pairs, pairs, " ".join(str(c) for c in verdict.counts),
                " (pairs' points rounded to half points; LLR and Elo from the points as they "
                "are, mean %.3f a game)" % (sum(self.points) / (2.0 * pairs))
                if self.graded() else ""),
            "Elo %.1f [%.1f, %.1f] (95%%)" % (elo, low, high),
        ]
        return lines

    def as_dict(self) -> Dict[str, Any]:
        """The result for a JSON file."""
        verdict = self.verdict()
        elo, low, high = points_elo(self.points)
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                "result": verdict.result, "interrupted": self.interrupted,
                "llr": round(verdict.llr, 4),
                "bounds": [round(self.lower, 4), round(self.upper, 4)],
                "pentanomial": list(verdict.counts), "pair_points": list(self.points),
                "pairs": len(self.points),
                "games": 2 * len(self.points), "elo": round(elo, 2),
                "elo_95": [round(low, 2), round(high, 2)]}


def parse_sprt(text: str) -> Tuple[float, float]:
    """ELO0,ELO1 as two floats; ValueError saying what is wrong."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        elo0, elo1 = float(parts[0]), float(parts[1])
    except ValueError:
        raise ValueError("--sprt must be ELO0,ELO1 (two numbers), got %r" % text) from None
    if not elo0 < elo1:
        raise ValueError("--sprt needs ELO0 < ELO1, got %r" % text)
    return elo0, elo1


# ---------------------------------------------------------------------------------------------
# Game pairs
# ---------------------------------------------------------------------------------------------


def opening(map_text: str, plies: int, rng: random.Random, tries: int = 20) -> str:
    """The map text after `plies` random plain moves (no override, no special cell), with the
    first player to move again; the map itself when no such opening is found."""
    game_map = read_map(map_text)
    n = game_map.players
    if plies <= 0:
        return map_text
    plies = max(n, plies - plies % n)  # a whole round, so player 1 is to move
    for _ in range(tries):
        engine = Engine(game_map)
        for _ply in range(plies):
            if engine.phase != BUILD:
                break
            state = engine.to_state()
            plain = [m for m in engine.legal_moves()
                     if engine.decode_move(m).special == 0
                     and state.cell(*engine.decode_move(m)[:2]) == "0"]
            if not plain:
                break
            engine.make(plain[rng.randrange(len(plain))])
        else:
            state = engine.to_state()
            if state.to_move == 1 and engine.phase == BUILD and not state.disqualified:
                return format_map(state)
    return map_text


def pair_specs(maps: Sequence[Tuple[str, str]], names: Sequence[str], pair: int, seed: int,
               time_ms: int, depth: int, variants: Sequence[Tuple[str, str, str]] = (),
               plies: int = 4) -> List[GameSpec]:
    """Game pair number `pair`: the same map and opening, the two first seatings of `names`."""
    map_name, text = maps[pair % len(maps)]
    rng = random.Random(seed * 1000003 + pair)  # an int: string seeds are slow under PyPy
    start = opening(text, plies, rng)
    plans = seatings(names, read_map(text).players)
    game_seed = seed * 100003 + pair * 101
    return [GameSpec(2 * pair + g, map_name, start, plans[g % len(plans)], game_seed, time_ms,
                     depth, tuple(variants)) for g in range(2)]


def game_points(record: Dict[str, Any], name: str) -> float:
    """`name`'s score in one game (0..1): the mean of its results against the other name's
    seats."""
    seats = record["seats"]
    results = [pair_result(a["score"], a["disqualified"] is not None,
                           b["score"], b["disqualified"] is not None)
               for a in seats if a["player"] == name for b in seats if b["player"] != name]
    return sum(results) / len(results) if results else 0.5


def points_by_map(records: Sequence[Dict[str, Any]], name: str
                  ) -> List[Tuple[str, int, float]]:
    """(map, pairs, `name`'s mean score a game) for each map of whole pairs in `records`, in
    the order the maps first appear: where a candidate gains and where it loses."""
    games: Dict[str, List[float]] = {}
    for record in records:
        games.setdefault(str(record["map"]), []).append(game_points(record, name))
    return [(m, len(points) // 2, sum(points) / len(points)) for m, points in games.items()]


def pairs_in_order(records: Iterator[Dict[str, Any]]) -> Iterator[Tuple[int, List[Dict[str, Any]]]]:
    """(pair number, its two records) for records arriving in any order, in pair order, so a
    test's stopping point does not depend on which games finish first."""
    waiting: Dict[int, List[Dict[str, Any]]] = {}
    following = 0
    for record in records:
        waiting.setdefault(int(record["game"]) // 2, []).append(record)
        while len(waiting.get(following, [])) == 2:
            both = sorted(waiting.pop(following), key=lambda r: int(r["game"]))
            yield following, both
            following += 1


def sprt_digest(maps: Sequence[Tuple[str, str]], names: Sequence[str], seed: int,
                time_ms: int, depth: int, variants: Sequence[Tuple[str, str, str]],
                plies: int) -> str:
    """The digest of a test's games for its partial file: that of its first pair on each map
    (`cluster.schedule_digest`), as every later pair is made from the same arguments.  The
    bounds and the cap change no game, so a test resumed with others still matches."""
    return schedule_digest([spec for pair in range(len(maps))
                            for spec in pair_specs(maps, names, pair, seed, time_ms, depth,
                                                   variants, plies)])


def run_sprt(test: Sprt, runner: Any, maps: Sequence[Tuple[str, str]], names: Sequence[str],
             seed: int, time_ms: int, depth: int, variants: Sequence[Tuple[str, str, str]],
             max_pairs: int, plies: int, progress: Optional[TextIO] = None,
             saved: Optional[SavedGames] = None) -> List[Dict[str, Any]]:
    """Play pairs of `names[0]` against `names[1]` on `runner` until the test decides,
    `max_pairs` were played or the user interrupts (`test.interrupted`); the records of the
    counted games.  Games already in `saved` are counted, not played again, and each new
    one is added to it."""
    have = {n: r for n, r in (saved.records if saved is not None else {}).items()
            if 0 <= n < 2 * max_pairs}

    def specs() -> Iterator[List[GameSpec]]:
        for pair in range(max_pairs):
            group = [spec for spec in pair_specs(maps, names, pair, seed, time_ms, depth,
                                                 variants, plies)
                     if spec.number not in have]
            if group:
                yield group

    played = runner.play_groups(specs())
    fresh = (saved.keep(r) for r in played) if saved is not None else played
    records: List[Dict[str, Any]] = []
    try:
        stream = itertools.chain((have[n] for n in sorted(have)), fresh)
        for pair, both in pairs_in_order(stream):
            records.extend(both)
            verdict = test.add(sum(game_points(r, names[0]) for r in both))
            if progress is not None:
                progress.write("\rsprt: %d pairs, LLR %.2f (%.2f, %.2f)   " % (
                    pair + 1, verdict.llr, test.lower, test.upper))
                progress.flush()
            if verdict.result:
                break
    except KeyboardInterrupt:
        # An SPRT runs for hours and is often stopped by hand: keep what it measured.
        test.interrupted = True
    finally:
        close = getattr(played, "close", None)
        if close is not None:
            close()
        if progress is not None:
            progress.write("\n")
            progress.flush()
    return records


def run_sprt_command(args: Any, maps: Sequence[Tuple[str, str]], names: Sequence[str],
                     variants: Sequence[Tuple[str, str, str]], seed: int) -> int:
    """`tournament --sprt`: run the test locally or on --scheduler, print and save it."""
    elo0, elo1 = parse_sprt(args.sprt)
    test = Sprt(elo0, elo1, args.alpha, args.beta)
    digest = sprt_digest(maps, names, seed, args.time_ms, args.depth, variants,
                         args.opening_plies)
    saved = SavedGames(args.json, seed, digest)
    if saved.records:
        print("sprt: resuming with %d games from %s" % (len(saved.records), saved.path),
              file=sys.stderr)
    runner = make_runner(args.scheduler, args.jobs)
    try:
        records = run_sprt(test, runner, maps, names, seed, args.time_ms, args.depth,
                           variants, args.max_pairs, args.opening_plies,
                           None if args.quiet else sys.stderr, saved)
        where = runner.describe()
    finally:
        runner.close()
        saved.close()
        if test.verdict().result:
            finish_partial(args.json)  # decided: nothing left to resume
    if saved.path is not None and saved.path.exists():
        print("sprt: no decision yet; the same command (a larger --max-pairs, if the cap was "
              "reached) goes on from the %d games in %s" % (len(saved.records), saved.path),
              file=sys.stderr)
    control = ("%d ms per move (bank)" % args.time_ms if args.time_ms
               else "depth %d, no time limit" % args.depth)
    print("%s against %s on %s; %s; seed %d; %s" % (
        names[0], names[1], ", ".join(m for m, _ in maps), control, seed, where))
    for line in test.report():
        print(line)
    by_map = points_by_map(records, names[0])
    if len(by_map) > 1:
        width = max(len(m) for m, _, _ in by_map)
        for map_name, pairs, score in by_map:
            print("  %-*s %4d pairs, %s scores %.3f a game" % (width, map_name, pairs,
                                                               names[0], score))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"players": list(names), "maps": [m for m, _ in maps], "seed": seed,
                       "variants": {v[0]: {"base": v[1], "weights": json.loads(v[2])}
                                    for v in variants},
                       "time_ms": args.time_ms, "depth": args.depth,
                       "opening_plies": args.opening_plies, "sprt": test.as_dict(),
                       "by_map": [{"map": m, "pairs": n, "score": round(v, 4)}
                                  for m, n, v in by_map],
                       "games": records}, handle, indent=1)
            handle.write("\n")
    return 130 if test.interrupted else 0


__all__ = ["PRIOR", "Sprt", "Verdict", "bounds", "elo_interval", "elo_of_score",
           "expected_score", "game_points", "llr", "opening", "pair_specs", "pairs_in_order",
           "parse_sprt", "points_by_map", "points_elo", "points_llr", "run_sprt",
           "run_sprt_command", "sprt_digest"]
