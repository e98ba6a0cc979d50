"""`reversi-ref arena-games`: one Markdown table row per game of an arena result file.

The rows docs/strength.md gives for its official-server games: the map with its size and
player count, our seat, our place and every seat's stones, our stones at the end of phase 1
with their place and the best other seat's, the mean phase-1 depth of ours and of the
opponents, our lowest bank after the first move, and the game's length in minutes.  Figures
come from the arena record (`arena --out`), the seat logs it names and the map file; a figure
whose source is gone (logs deleted, map moved) is printed as `-`.
"""

from __future__ import annotations

import argparse
import os
import re
from typing import Any, Dict, List, Optional, Sequence

from .arena import SetupError
from .arenacompare import Record, read_records
from .errors import ReversiError
from .mapfile import read_map_file

PLACES = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
HEADER = ("| map (width x height, players) | our seat | result, scores in seat order "
          "| end of phase 1, ours (place; the best other) | depth, ours / the opponents' "
          "| our lowest bank after the first move (s) | minutes |")
RULE = "|---" * HEADER.count(" | ") + "|---|"
# Our client's move line: "move 24: (23, 10) depth 5, ... (bank 1984 ms, ...".
BANK = re.compile(r"^move \d+: .*\(bank (\d+) ms")


def place_words(place: int, shared_with: Sequence[int]) -> str:
    """`second`, or `second (shared with player 1)` when others hold the same place."""
    word = PLACES[place - 1] if 0 < place <= len(PLACES) else "place %d" % place
    if not shared_with:
        return word
    return "%s (shared with player%s %s)" % (
        word, "s" if len(shared_with) > 1 else "",
        ", ".join(str(seat) for seat in shared_with))


def result_text(record: Record) -> str:
    """Our place (bold when first) and every seat's final stones, or why there are none."""
    if record.get("outcome") != "ok":
        return "not finished: %s" % (record.get("error") or record.get("outcome"))
    seats = record["seats"]
    ours = seats[record["ours_seat"] - 1]
    scores = "-".join("disq." if seat.get("disqualified") else str(seat.get("stones"))
                      for seat in seats)
    if ours.get("place") is None:
        return "disqualified, %s" % scores
    shared = [seat["seat"] for seat in seats
              if seat["seat"] != ours["seat"] and seat.get("place") == ours["place"]]
    words = place_words(ours["place"], shared)
    return "%s, %s" % ("**%s**" % words if ours["place"] == 1 else words, scores)


def phase1_text(record: Record) -> str:
    """Our stones at the end of phase 1, `231 (third; 548)`, or `-` without a replay."""
    stones: List[Optional[int]] = [seat.get("phase1_stones") for seat in record["seats"]]
    seat = record["ours_seat"]
    mine = stones[seat - 1]
    if mine is None:
        return "-"
    others = [value for index, value in enumerate(stones, 1)
              if index != seat and value is not None]
    place = 1 + sum(1 for value in others if value > mine)
    best = " (shared)" if mine in others else ""
    return "%d (%s%s; %s)" % (mine, PLACES[place - 1], best, max(others) if others else "-")


def depth_text(record: Record) -> str:
    """`4.3 / 3.5-4.5`: our mean phase-1 depth, then the opponents' lowest and highest."""
    seat = record["ours_seat"]
    ours = record["seats"][seat - 1].get("phase1_depth")
    theirs = [s["phase1_depth"] for s in record["seats"]
              if s["seat"] != seat and s.get("phase1_depth") is not None]
    mine = "-" if ours is None else "%.1f" % ours
    if not theirs:
        return mine + " / -"
    low, high = min(theirs), max(theirs)
    span = "%.1f" % low if round(low, 1) == round(high, 1) else "%.1f-%.1f" % (low, high)
    return "%s / %s" % (mine, span)


def lowest_bank(log_text: str) -> Optional[float]:
    """The lowest bank in seconds our client reported after its first move, None if fewer
    than two moves logged one (the first move has only the first second, the same in every
    game, so it tells nothing)."""
    banks = [int(match.group(1)) for match in map(BANK.match, log_text.splitlines()) if match]
    return min(banks[1:]) / 1000.0 if len(banks) > 1 else None


def bank_text(record: Record) -> str:
    """Our lowest bank after the first move, from our seat's log, or `-`."""
    seat = record["seats"][record["ours_seat"] - 1]
    path = os.path.join(str(record.get("logs", "")), "seat%d-%s.log" % (seat["seat"],
                                                                       seat["name"]))
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            bank = lowest_bank(handle.read())
    except OSError:
        return "-"
    return "-" if bank is None else "%.1f" % bank


def map_text(record: Record) -> str:
    """`` `comp2024_04_8p` (46x46, 8) ``: the short name, with the size if the file is there."""
    name = str(record["map"]).split("__")[-1]
    try:
        geometry = read_map_file(str(record.get("map_file")))
    except (OSError, ReversiError, ValueError):
        return "`%s` (%d players)" % (name, record["players"])
    return "`%s` (%dx%d, %d)" % (name, geometry.width, geometry.height, record["players"])


def row(record: Record) -> str:
    """The table row of one game."""
    return "| %s | %d | %s | %s | %s | %s | %.1f |" % (
        map_text(record), record["ours_seat"], result_text(record), phase1_text(record),
        depth_text(record), bank_text(record), record.get("seconds", 0.0) / 60.0)


def rows(records: Dict[str, Record]) -> List[str]:
    """The header, its rule and one row per game, in the file's order; SetupError naming
    the game for a field of the wrong kind deeper in (a seat's stones as text, say)."""
    lines = [HEADER, RULE]
    for key, record in records.items():
        try:
            lines.append(row(record))
        except (KeyError, IndexError, TypeError, ValueError) as error:
            raise SetupError("game %s: a malformed field (%s: %s)"
                             % (key, type(error).__name__, error)) from None
    return lines


def record_problem(record: Record) -> Optional[str]:
    """What keeps `record` from making a row (a field the table needs is missing or of the
    wrong kind), or None."""
    seats = record.get("seats")
    if not isinstance(record.get("map"), str):
        return "no map name"
    if not (isinstance(seats, list) and seats
            and all(isinstance(seat, dict) and isinstance(seat.get("seat"), int)
                    and isinstance(seat.get("name"), str) for seat in seats)):
        return "no seats with number and name"
    ours = record.get("ours_seat")
    if not (isinstance(ours, int) and 1 <= ours <= len(seats)):
        return "our seat %r is not one of its %d seats" % (ours, len(seats))
    if not isinstance(record.get("seconds", 0.0), (int, float)):
        return "its seconds are not a number"
    return None


def run(args: argparse.Namespace) -> int:
    """`reversi-ref arena-games`: print the table."""
    records: Dict[str, Record] = {}
    for path in args.files:
        for key, record in read_records(path).items():
            problem = record_problem(record)
            if problem is not None:
                raise SetupError("%s: game %s: %s" % (path, key, problem))
            records[key] = record
    for line in rows(records):
        print(line)
    return 0


def register(subparsers: Any) -> None:
    """Add the `arena-games` subcommand."""
    parser = subparsers.add_parser(
        "arena-games", help="one Markdown table row per game of arena result files",
        description="Print a Markdown table with one row per game of `arena --out` files: "
                    "map and size, our seat, our place and the final stones, our stones at "
                    "the end of phase 1, the mean phase-1 depths, our lowest bank after the "
                    "first move and the minutes the game took.")
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="arena result file (JSON lines)")
    parser.set_defaults(func=run)


__all__ = ["lowest_bank", "place_words", "row", "rows"]
