"""`reversi-ref arena-compare`: two arena result files, game by game.

Two versions of a client, each run through the same arena games (same maps, seats and
opponents, so the same game keys), are compared on the games both files finished: first
places (alone or shared) and points of ours, per player count, and the games whose result
differs, with a two-sided sign test on those.  The sign test asks only whether the
differing games lean one way more than chance would; it says nothing about the games that
came out the same, which is why both counts are printed.  Games in which an opponent timed
out or was disqualified are counted and flagged: on a loaded machine such a failure can hand
ours points that no change of ours earned.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

from .arena import SetupError
from .cli import UsageError
from .sprt import sign_test

Record = Dict[str, Any]


class Outcome(NamedTuple):
    """What one finished game gave ours."""

    first: bool      # first place, alone or shared
    points: float    # the arena's points: 1 for first alone, a share when tied
    failed: bool     # ours timed out or was disqualified
    others_failed: int = 0  # opponents that timed out or were disqualified: their points
                            # may have come to ours without a better move of ours


class Comparison(NamedTuple):
    """The games of two result files, paired by key."""

    pairs: List[Tuple[str, int, Outcome, Outcome]]   # key, players, before, after
    only_before: List[str]
    only_after: List[str]
    unfinished: List[str]                             # in both, not finished in one


def read_records(path: str) -> Dict[str, Record]:
    """The arena records of the JSON-lines file at `path`, by game key; SetupError naming
    the file and line for anything that is not one."""
    records: Dict[str, Record] = {}
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError as error:
        raise SetupError("%s: %s" % (path, error.strerror or error)) from None
    except UnicodeDecodeError:
        raise SetupError("%s: not a text file" % path) from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            if number == len(lines):
                continue  # a last line cut short by a run that was stopped
            raise SetupError("%s line %d: not JSON" % (path, number)) from None
        if not (isinstance(record, dict) and isinstance(record.get("key"), str)
                and isinstance(record.get("players"), int)):
            raise SetupError("%s line %d: not an arena game record (no key or players)"
                             % (path, number))
        records[record["key"]] = record
    return records


def outcome(record: Record) -> Optional[Outcome]:
    """What the game gave ours, or None when it did not end (the arena's table leaves such
    games out of the points too)."""
    if record.get("outcome") != "ok":
        return None
    seats = record.get("seats") or []
    mine = [s for s in seats if s.get("seat") == record.get("ours_seat")]
    if not mine:
        return None
    others = sum(seat_failed(s) for s in seats if s is not mine[0])
    return Outcome(mine[0].get("place") == 1, float(record.get("points", 0.0)),
                   seat_failed(mine[0]), others)


def seat_failed(seat: Record) -> bool:
    """Whether the player in `seat` timed out or was disqualified."""
    return bool(seat.get("disqualified")) or seat.get("status") not in (None, "ok")


def compare(before: Dict[str, Record], after: Dict[str, Record]) -> Comparison:
    """Pair the games of two runs by key."""
    pairs: List[Tuple[str, int, Outcome, Outcome]] = []
    unfinished: List[str] = []
    for key in sorted(set(before) & set(after)):
        a, b = outcome(before[key]), outcome(after[key])
        if a is None or b is None:
            unfinished.append(key)
        else:
            pairs.append((key, int(before[key]["players"]), a, b))
    return Comparison(pairs, sorted(set(before) - set(after)), sorted(set(after) - set(before)),
                      unfinished)


def group_of(players: int) -> str:
    """The table row of a game with `players` players."""
    return "%d" % players if players <= 4 else "5-8"


def change(a: Outcome, b: Outcome) -> int:
    """1 when the second run's points are higher, -1 when lower, 0 when the same."""
    if b.points > a.points + 1e-9:
        return 1
    return -1 if b.points < a.points - 1e-9 else 0


class Row:
    """The counts of one line of the table."""

    def __init__(self) -> None:
        self.games = self.first_a = self.first_b = self.higher = self.lower = 0
        self.points_a = self.points_b = 0.0

    def add(self, a: Outcome, b: Outcome) -> None:
        """Count one pair of games."""
        self.games += 1
        self.first_a += a.first
        self.first_b += b.first
        self.points_a += a.points
        self.points_b += b.points
        moved = change(a, b)
        self.higher += moved > 0
        self.lower += moved < 0


def table(comparison: Comparison, names: Tuple[str, str]) -> List[str]:
    """The per-player-count table, the sign tests and the games that differ."""
    a_name, b_name = names
    rows: Dict[str, Row] = {}
    for _, players, a, b in comparison.pairs:
        rows.setdefault(group_of(players), Row()).add(a, b)
        rows.setdefault("all", Row()).add(a, b)
    width = max(len(a_name), len(b_name), 6)
    lines = ["%-8s %5s  %*s %*s  %*s %*s  %s" % (
        "players", "games", width, "first", width, "first", width, "points", width, "points",
        "points differ"),
        "%-8s %5s  %*s %*s  %*s %*s  %s" % (
        "", "", width, a_name, width, b_name, width, a_name, width, b_name,
        "(%s higher / lower)" % b_name)]
    order = sorted((g for g in rows if g != "all"), key=lambda g: int(g.split("-")[0]))
    for group in order + (["all"] if rows else []):
        r = rows[group]
        lines.append("%-8s %5d  %*d %*d  %*.2f %*.2f  %d / %d" % (
            group, r.games, width, r.first_a, width, r.first_b, width, r.points_a, width,
            r.points_b, r.higher, r.lower))
    total = rows.get("all", Row())
    up_first = sum(b.first and not a.first for _, _, a, b in comparison.pairs)
    down_first = sum(a.first and not b.first for _, _, a, b in comparison.pairs)
    lines.append("first place in one only: %s %d, %s %d (sign test, two-sided p = %.3f)"
                 % (b_name, up_first, a_name, down_first, sign_test(up_first, down_first)))
    lines.append("points differ in %d of %d games: %s higher in %d, lower in %d "
                 "(sign test, two-sided p = %.3f)"
                 % (total.higher + total.lower, total.games, b_name, total.higher,
                    total.lower, sign_test(total.higher, total.lower)))
    failed_a = sum(a.failed for _, _, a, _ in comparison.pairs)
    failed_b = sum(b.failed for _, _, _, b in comparison.pairs)
    lines.append("ours timed out or disqualified: %s %d, %s %d" % (a_name, failed_a, b_name,
                                                                     failed_b))
    others_a = sum(a.others_failed > 0 for _, _, a, _ in comparison.pairs)
    others_b = sum(b.others_failed > 0 for _, _, _, b in comparison.pairs)
    lines.append("games with an opponent timed out or disqualified: %s %d, %s %d"
                 % (a_name, others_a, b_name, others_b))
    for label, keys in (("only in " + a_name, comparison.only_before),
                        ("only in " + b_name, comparison.only_after),
                        ("not finished in one of them", comparison.unfinished)):
        if keys:
            lines.append("%s (%d, left out): %s" % (label, len(keys), " ".join(keys)))
    if total.higher or total.lower:
        lines.append("games whose points differ (%s -> %s):" % (a_name, b_name))
        for key, _, a, b in comparison.pairs:
            moved = change(a, b)
            if moved:
                lines.append("  %s %s %.2f -> %.2f%s" % ("+" if moved > 0 else "-", key,
                                                        a.points, b.points, flag(a, b, names)))
    return lines


def flag(a: Outcome, b: Outcome, names: Tuple[str, str]) -> str:
    """A note on a differing game in which an opponent timed out or was disqualified (the
    points may be the opponent's failure, not a better move of ours); empty otherwise."""
    runs = [name for name, o in zip(names, (a, b)) if o.others_failed]
    return "  (opponent failed in %s)" % " and ".join(runs) if runs else ""


def run(args: argparse.Namespace) -> int:
    """`reversi-ref arena-compare`: print the comparison of two result files."""
    names = (args.before, args.after)
    if args.names is not None:
        given = [n.strip() for n in args.names.split(",")]
        if len(given) != 2 or not all(given):
            raise UsageError("argument --names: give two names, comma-separated, e.g. "
                             "old,new")
        names = (given[0], given[1])
    comparison = compare(read_records(args.before), read_records(args.after))
    if not comparison.pairs:
        raise UsageError("the two files have no finished game in common (same maps, seats "
                         "and opponents give the same game keys)")
    for line in table(comparison, names):
        print(line)
    return 0


def register(subparsers: Any) -> None:
    """Add the `arena-compare` subcommand."""
    parser = subparsers.add_parser(
        "arena-compare", help="compare two arena result files game by game",
        description="Pair the games of two `arena --out` files by game key (map, seat, "
                    "opponent, pass) and print, per player count, the first places and "
                    "points of ours in each, and the games whose points differ with a "
                    "two-sided sign test.")
    parser.add_argument("before", metavar="BEFORE", help="arena result file (JSON lines)")
    parser.add_argument("after", metavar="AFTER", help="arena result file of the other version")
    parser.add_argument("--names", metavar="A,B",
                        help="names for the two columns (default: the file names)")
    parser.set_defaults(func=run)


__all__ = ["compare", "outcome", "read_records", "table"]
