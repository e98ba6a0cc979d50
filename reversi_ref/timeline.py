"""`reversi-ref timeline`: the turning points of a recorded game, as text.

A long game on a big map is hard to read move by move.  `timeline TRACE` replays a trace (the
referee's `--trace`, an arena game's `trace.json`, the official server's) through the readable
rules and prints only what moved the stone counts a lot or ended something:

- every player's stones at regular intervals of the building phase (`--every N` moves);
- each choice, inversion and bonus tile taken, with every player's stones before and after
  (choice and inversion tiles hand whole stone sets round, RULES.md 3);
- each player left without a stone, and each one back with stones;
- each disqualification and its reason (RULES.md 6);
- the end of phase 1 with the places (RULES.md 7), whose stones each player's bombs took
  (RULES.md 5), and the final places.

Move numbers are those of `show --move N`: move N is the position after N moves.
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any, Dict, List, NamedTuple, Optional, Sequence

from .cli import int_range
from .render.cli import load_input
from .render.record import Frame, Record
from .rules import ranking, seat_stones
from .state import BONUS_BOMB, BUILD, GameState

# Rows of the stone table when --every is not given.
TABLE_ROWS = 10
TILE_NAMES = {"c": "choice", "i": "inversion", "b": "bonus"}


class Event(NamedTuple):
    """Something that happened at move `move` (the position after that many moves)."""

    move: int
    text: str


def describe_stones(counts: Sequence[int]) -> str:
    """Stone counts in seat order, as "188-182-138"."""
    return "-".join(str(c) for c in counts)


def describe_places(state: GameState) -> str:
    """The places of the players still in the game, best first: "1. player 5 (322), ..."."""
    return ", ".join("%d. player %d (%d)" % (s.rank, s.player, s.score) for s in ranking(state))


def phase1_end(record: Record) -> Optional[int]:
    """The first move after which the building phase is over, None when the record never
    leaves it (or starts after it)."""
    for frame in record.frames[1:]:
        if (frame.before is not None and frame.before.phase == BUILD
                and frame.state.phase != BUILD):
            return frame.number
    return None


def tile_event(frame: Frame) -> Optional[Event]:
    """The choice, inversion or bonus tile the frame's move took, with the stones around it;
    None for any other move."""
    before, move = frame.before, frame.move
    if before is None or move is None or frame.phase != BUILD or frame.rejected:
        return None
    tile = before.cell(move.x, move.y)
    if tile not in TILE_NAMES:
        return None
    what = "player %d takes the %s tile (%d, %d)" % (frame.player or 0, TILE_NAMES[tile],
                                                      move.x, move.y)
    if tile == "c":
        what += ", swapping stones with player %d" % move.special
    elif tile == "b":
        what += " for %s" % ("a bomb" if move.special == BONUS_BOMB else "an override stone")
    return Event(frame.number, "%s: stones %s -> %s" % (
        what, describe_stones(seat_stones(before)), describe_stones(seat_stones(frame.state))))


def stone_events(frame: Frame) -> List[Event]:
    """The players the frame's move left without a stone, or gave stones back to."""
    if frame.before is None:
        return []
    events: List[Event] = []
    old, new = seat_stones(frame.before), seat_stones(frame.state)
    for player in frame.state.active_players():
        if old[player - 1] > 0 and new[player - 1] == 0:
            events.append(Event(frame.number, "player %d has no stone left" % player))
        elif old[player - 1] == 0 and new[player - 1] > 0:
            events.append(Event(frame.number, "player %d has stones again (%d)"
                                % (player, new[player - 1])))
    return events


def disqualification_events(frame: Frame) -> List[Event]:
    """The players disqualified at this frame, with the reason when the record has one."""
    reason = " (%s)" % frame.reason if frame.reason else ""
    return [Event(frame.number, "player %d is disqualified%s" % (player, reason))
            for player in frame.disqualified]


def events(record: Record) -> List[Event]:
    """Every turning point of the record, in move order (phase 1's end and the bombs are
    summarised apart, by `format_timeline`)."""
    found: List[Event] = disqualification_events(record.frames[0])
    for frame in record.frames[1:]:
        tile = tile_event(frame)
        if tile is not None:
            found.append(tile)
        found.extend(stone_events(frame))
        found.extend(disqualification_events(frame))
    return found


def bomb_victims(record: Record) -> Dict[int, Dict[int, int]]:
    """For each player who dropped a bomb, whose stones its blasts took and how many
    (its own included), from the cells each blast destroyed (RULES.md 5)."""
    victims: Dict[int, Counter[int]] = {}
    for frame in record.frames[1:]:
        if frame.phase == BUILD or frame.before is None or frame.player is None:
            continue
        taken = victims.setdefault(frame.player, Counter())
        for x, y in frame.blasted:
            owner = frame.before.cell(x, y)
            if owner.isdigit() and owner != "0":
                taken[int(owner)] += 1
    return {bomber: dict(taken) for bomber, taken in victims.items()}


def stone_table(record: Record, every: int) -> List[str]:
    """Every player's stones after every `every` moves of the building phase, and at its end."""
    end = phase1_end(record)
    last = end if end is not None else len(record.frames) - 1
    if record.frames[0].state.phase != BUILD:
        return []
    n = record.players
    lines = ["%6s  %s" % ("move", " ".join("%5s" % ("p%d" % p) for p in range(1, n + 1)))]
    numbers = list(range(0, last, every)) + [last]
    for number in numbers:
        counts = seat_stones(record.frames[number].state)
        lines.append("%6d  %s" % (number, " ".join("%5d" % c for c in counts)))
    return lines


def default_every(record: Record) -> int:
    """The interval that gives the stone table about TABLE_ROWS rows."""
    end = phase1_end(record)
    length = end if end is not None else len(record.frames) - 1
    return max(1, -(-length // TABLE_ROWS))


def format_timeline(record: Record, every: Optional[int] = None) -> List[str]:
    """The whole report: stone table, turning points, end of phase 1, bombs, final places."""
    n = record.players
    total = len(record.frames) - 1
    lines = ["%s: %d players, %d moves" % (record.source, n, total)]
    table = stone_table(record, every or default_every(record))
    if table:
        lines += ["", "stones in the building phase:"] + table
    found = events(record)
    lines += ["", "turning points:"]
    lines += ["%6d  %s" % (e.move, e.text) for e in found] or ["  none"]
    end = phase1_end(record)
    lines.append("")
    if end is not None:
        lines.append("end of phase 1 after move %d: %s" % (
            end, describe_places(record.frames[end].state)))
    elif record.frames[0].state.phase == BUILD:
        lines.append("the record stops in the building phase")
    victims = bomb_victims(record)
    if victims:
        lines.append("bombs, whose stones each bomber's blasts took:")
        for bomber in sorted(victims):
            taken = victims[bomber]
            lines.append("  player %d: %s" % (bomber, ", ".join(
                "player %d %d" % (p, taken[p]) for p in sorted(taken)) or "no stone"))
    final = record.frames[-1].state
    lines.append("%s: %s" % ("final places" if final.to_move is None else "places at the end "
                             "of the record", describe_places(final)))
    return lines


def run_timeline(args: argparse.Namespace) -> int:
    """The `timeline` subcommand."""
    record = load_input(args.game)
    for line in format_timeline(record, args.every):
        print(line)
    return 0


def register(subparsers: Any) -> None:
    """Add the `timeline` subcommand."""
    parser = subparsers.add_parser(
        "timeline", help="the turning points of a recorded game: stones over time, tiles, "
                         "wipe-outs, bombs",
        description="Replay a recorded game through the rules and print every player's "
                    "stones at intervals of the building phase, each choice, inversion and "
                    "bonus tile taken (stones before and after), each player left without a "
                    "stone or back with stones, each disqualification, the places at the end "
                    "of phase 1, whose stones each player's bombs took, and the final places.")
    parser.add_argument("game", metavar="TRACE",
                        help="a JSON trace (the referee's --trace, an arena trace.json, the "
                             "official server's; gzip or plain)")
    parser.add_argument("--every", type=int_range(1), default=None, metavar="N",
                        help="a row of the stone table every N moves (default: about %d rows)"
                             % TABLE_ROWS)
    parser.set_defaults(func=run_timeline)
