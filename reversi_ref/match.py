"""The referee's logic without sockets, and `reversi-ref play`: local matches in one process.

`Game` keeps the books of one game for any referee: it asks the rules whose turn it is, takes
each answer (or its absence), disqualifies with the rule broken, says which messages everybody
must be told (RULES.md 8: 6, 7, 8, 9, in the server's order), prints the boards and builds the
JSON trace.  `run_match` drives a `Game` with in-process players; the network referee in
`reversi_ref.referee` drives the same `Game` with clients over TCP.

The trace (`Game.trace`) mirrors the official-server traces of the golden suite
(`../shared/traces/README.md`) so that one replayer reads both; see `reversi_ref.referee` for
the field list.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, TextIO, Tuple

from . import players as player_registry
from .bundled import DEFAULT_MAP, load_map_argument
from .cli import int_range, output_file, sigterm_as_interrupt
from .client import move_budget_ms
from .errors import IllegalMoveError
from .geometry import Cell
from .protocol import (Disqualification, EndOfGame, EndOfPhase1, Message,
                       MoveAnnouncement)
from .render.text import render_text, use_color
from .rules import (blast_cells, captured_cells, disqualify, initial_state, legal_moves, play,
                    printed_scores, ranking)
from .state import BOMB, BUILD, OVER, GameState, Move

TRACE_FORMAT = "reversi-ref-trace-1"

# --------------------------------------------------------------------------- text output


def board_lines(state: GameState, marks: Optional[Set[Cell]] = None) -> List[str]:
    """The board as text with x coordinates above and y on the left; a `*` follows each cell
    in `marks` (the next player's legal positions)."""
    return render_text(state, legal=marks or ()).split("\n")


def compact_rows(state: GameState) -> List[str]:
    """The board as the traces write it: one string per row, one character per cell."""
    w = state.width
    return ["".join(state.board[y * w:(y + 1) * w]) for y in range(state.height)]


def valid_positions(state: GameState) -> List[Cell]:
    """RULES.md 8: the positions the server marks as legal for the player to move (phase 1
    only), in the server's order: by x, then y."""
    if state.phase != BUILD or state.to_move is None:
        return []
    return sorted({(m.x, m.y) for m in legal_moves(state)})


# --------------------------------------------------------------------------- the referee's books


def add_color_flags(parser: argparse.ArgumentParser) -> None:
    """--color / --no-color: force ANSI colours on or off (default: on for a terminal)."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--color", dest="color", action="store_const", const=True, default=None,
                       help="colour the boards (default: when writing to a terminal)")
    group.add_argument("--no-color", dest="color", action="store_const", const=False,
                       help="never colour the boards")


class Game:
    """The books of one game: whose turn it is, the answers, the disqualifications, the trace.

    Each of `start`, `answer` and `fail` returns the messages every client must be told, in
    order (announcement, disqualification, end of phase 1, end of game).
    """

    def __init__(self, state: GameState, map_text: str, groups: Optional[Dict[int, int]] = None,
                 out: Optional[TextIO] = None, quiet: bool = False,
                 meta: Optional[Dict[str, Any]] = None, color: bool = False) -> None:
        self.state = state
        self.out = out
        self.quiet = quiet
        self.color = color
        # When quiet, still print the last board before the final scores (`play`'s default).
        self.final_board = False
        # A progress line on the terminal, cleared before anything else is printed.
        self.progress: Optional[Progress] = None
        # What the last move did, for highlighting it on the printed board.
        self.last_move: Optional[Move] = None
        self.changed: List[Cell] = []
        self.blasted: List[Cell] = []
        self.reasons: Dict[int, str] = {}
        self.trace: Dict[str, Any] = {
            "format": TRACE_FORMAT,
            "map_text": map_text,
            "players": state.players,
            "groups": {str(p): g for p, g in sorted((groups or {}).items())},
            "initial": {"board": compact_rows(state), "valid": []},
            "moves": [],
            "disqualifications": [],
            "phase1_end": None,
            "final": None,
            "meta": dict(meta or {}),
        }

    # -- output

    def say(self, line: str = "", always: bool = False) -> None:
        """Print `line` unless quiet (or `always`)."""
        if self.out is not None and (always or not self.quiet):
            if self.progress is not None:
                self.progress.clear()
            print(line, file=self.out)
            self.out.flush()

    def show_board(self, marks: Sequence[Cell]) -> None:
        """Print the board with `marks` (unless quiet)."""
        if self.out is not None and not self.quiet:
            if self.progress is not None:
                self.progress.clear()
            print(render_text(self.state, self.last_move, self.changed, marks, self.color,
                              self.blasted), file=self.out)

    # -- queries

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.state.phase == OVER

    @property
    def to_move(self) -> Optional[int]:
        """The player asked next, or None when the game is over."""
        return self.state.to_move

    @property
    def move_count(self) -> int:
        """How many move requests have been recorded."""
        return len(self.trace["moves"])

    # -- transitions

    def start(self) -> List[Message]:
        """Begin the game: print the start, and say 8 (and 9) when nobody can build at all."""
        valid = valid_positions(self.state)
        self.trace["initial"]["valid"] = [list(c) for c in valid]
        self.say("%d players, %dx%d board; player %s starts"
                 % (self.state.players, self.state.width, self.state.height,
                    self.state.to_move if self.state.to_move is not None else "none"))
        self.show_board(valid)
        # RULES.md 4: nobody can build at the start: with bombs phase 2 starts at once (8 is
        # sent before any request); without bombs the game is over before it starts.
        if self.state.phase == BOMB:
            return self._phase_change(BUILD, None)
        if self.is_over:
            self.say("Map is final, no moves at all possible.", always=True)
            self._finish(None)
            return [EndOfGame()]
        return []

    def answer(self, move: Move, time_left_ms: int = 0, depth: int = 0,
               time_used_ms: Optional[float] = None) -> List[Message]:
        """The player to move answered `move`: play it, or disqualify it naming the rule."""
        player = self.mover()
        try:
            after = play(self.state, move)
        except IllegalMoveError as error:
            self.last_move, self.changed, self.blasted = None, [], []
            return self.fail(error.rule + (" (%s)" % error.detail if error.detail else ""),
                             time_left_ms, depth, time_used_ms, move)
        entry = self._entry(player, move, time_left_ms, depth, time_used_ms)
        before_phase = self.state.phase
        self._note_effect(player, move)
        self.state = after
        valid = valid_positions(after)
        entry["board_after"] = compact_rows(after)
        entry["valid_next"] = [list(c) for c in valid]
        self.trace["moves"].append(entry)
        used = "" if time_used_ms is None else " in %d ms" % round(time_used_ms)
        special = " special %d" % move.special if move.special else ""
        self.say("move %d: player %d plays (%d, %d)%s%s"
                 % (entry["move"] + 1, player, move.x, move.y, special, used))
        self.show_board(valid)
        # RULES.md 8: a bomb is announced with special 0, whatever byte came with it.
        announced = move.special if before_phase == BUILD else 0
        messages: List[Message] = [MoveAnnouncement(move.x, move.y, announced, player)]
        return messages + self._phase_change(before_phase, entry["move"])

    def _note_effect(self, player: int, move: Move) -> None:
        """Remember what `move` captures or blasts, before it is played, for the board print."""
        self.last_move = move
        if self.state.phase == BUILD:
            self.changed = captured_cells(self.state, player, move.x, move.y)
            self.blasted = []
        else:
            self.changed = []
            self.blasted = blast_cells(self.state, move.x, move.y)

    def fail(self, reason: str, time_left_ms: int = 0, depth: int = 0,
             time_used_ms: Optional[float] = None,
             move: Optional[Move] = None) -> List[Message]:
        """The player to move gave no valid answer (`reason`): it is disqualified (RULES.md 6)."""
        player = self.mover()
        entry = self._entry(player, move, time_left_ms, depth, time_used_ms)
        entry["rejected"] = True
        entry["reason"] = reason
        before_phase = self.state.phase
        self.state = disqualify(self.state, player)
        valid = valid_positions(self.state)
        entry["board_after"] = compact_rows(self.state)
        entry["valid_next"] = [list(c) for c in valid]
        self.trace["moves"].append(entry)
        self.trace["disqualifications"].append(
            {"player": player, "reason": reason, "after_move": entry["move"]})
        self.reasons[player] = reason
        self.say("move %d: player %d disqualified: %s" % (entry["move"] + 1, player, reason),
                 always=True)
        messages: List[Message] = [Disqualification(player)]
        if len(self.state.active_players()) == 1:
            # RULES.md 6: a sole remaining player ends the game: 7 then 9, no 8.
            self.say("sole remaining player is winner: player %d"
                     % self.state.active_players()[0], always=True)
            self._finish(entry["move"])
            return messages + [EndOfGame()]
        if not self.is_over:
            self.show_board(valid)
        return messages + self._phase_change(before_phase, entry["move"])

    # -- helpers

    def mover(self) -> int:
        """The player asked now (RuntimeError once the game is over)."""
        if self.state.to_move is None:
            raise RuntimeError("the game is over; nobody is asked")
        return self.state.to_move

    def _entry(self, player: int, move: Optional[Move], time_left_ms: int, depth: int,
               time_used_ms: Optional[float]) -> Dict[str, Any]:
        entry: Dict[str, Any] = {
            "move": self.move_count,
            "player": player,
            "phase": 1 if self.state.phase == BUILD else 2,
            "status": {"overrides": self.state.overrides[player - 1],
                       "bombs": self.state.bombs[player - 1]},
            "request": {"depth": depth, "time_left_ms": time_left_ms},
            "x": None if move is None else move.x,
            "y": None if move is None else move.y,
            "special": None if move is None else move.special,
        }
        if time_used_ms is not None:
            entry["time_used_ms"] = round(time_used_ms, 1)
        return entry

    def _phase_change(self, before: str, last_move: Optional[int]) -> List[Message]:
        """RULES.md 4: 8 when phase 1 has just ended (always), 9 when the game has ended."""
        messages: List[Message] = []
        if before == BUILD and self.state.phase != BUILD:
            table = printed_scores(self.state)
            self.trace["phase1_end"] = {"after_move": last_move, "scores": table}
            self.say("end of phase 1; %s" % format_scores(table), always=True)
            messages.append(EndOfPhase1())
            if self.state.phase == BOMB:
                self.say("phase 2: player %s bombs first" % self.state.to_move)
        if self.is_over:
            self._finish(last_move)
            messages.append(EndOfGame())
        return messages

    def _finish(self, last_move: Optional[int]) -> None:
        if self.final_board and self.quiet and self.out is not None:
            if self.progress is not None:
                self.progress.clear()
            print(render_text(self.state, self.last_move, self.changed, (), self.color,
                              self.blasted), file=self.out)
        table = printed_scores(self.state)
        standings = ranking(self.state)
        self.trace["final"] = {
            "after_move": last_move,
            "scores": table,
            "ranking": [{"rank": s.rank, "player": s.player, "score": s.score}
                        for s in standings],
        }
        self.say("end of game; %s" % format_scores(table), always=True)
        self.say("final ranking:", always=True)
        for line in ranking_lines(self.state):
            self.say(line, always=True)

    def write_trace(self, path: str) -> None:
        """Write the JSON trace to `path`."""
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(self.trace, handle, indent=1)
            handle.write("\n")

    def write_interrupted_trace(self, path: str) -> None:
        """Write the trace of a game stopped before its end (Ctrl-C, SIGTERM): the moves so
        far, `interrupted` true and, unless the game had ended, `final` null."""
        self.trace["interrupted"] = True
        self.write_trace(path)


def format_scores(table: Dict[str, Any]) -> str:
    """Scores as one line: "player 1: 12, player 2: disqualified"."""
    return ", ".join("player %s: %s" % item for item in table.items())


def ranking_lines(state: GameState) -> List[str]:
    """RULES.md 7: the final ranking, one line per player still in the game."""
    lines = ["%d. player %d: %d stones" % (s.rank, s.player, s.score) for s in ranking(state)]
    for player in sorted(state.disqualified):
        lines.append("-  player %d: disqualified" % player)
    return lines


# --------------------------------------------------------------------------- local matches

# `play`'s time per move when neither --time-ms nor --depth is given: the search players are
# strong at about a second a move, and a game on the default map stays under two minutes.
DEFAULT_TIME_MS = 1000
# Above this many cells CPython is slow enough that PyPy is worth a note.
BIG_MAP_CELLS = 400
# How often a progress line is written when standard error is not a terminal (seconds).
SPARSE_PROGRESS_SECONDS = 15.0


class Progress:
    """A one-line progress report on standard error: rewritten in place on a terminal (at most
    ten times a second), else a line now and then, so that logs stay short."""

    def __init__(self, stream: TextIO, started: float) -> None:
        self.stream = stream
        self.tty = hasattr(stream, "isatty") and stream.isatty()
        self.started = started
        self.last = started
        self.shown = False

    def update(self, game: Game, now: float) -> None:
        """Report the state of `game` (if it is time to)."""
        interval = 0.1 if self.tty else SPARSE_PROGRESS_SECONDS
        if now - self.last < interval:
            return
        self.last = now
        state = game.state
        text = "move %d, %s, player %s to move, %.0f s" % (
            game.move_count, "building" if state.phase == BUILD else "bombing",
            state.to_move, now - self.started)
        if self.tty:
            self.stream.write("\r\x1b[K" + text)
            self.shown = True
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def clear(self) -> None:
        """Remove the line from the terminal before other output."""
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def as_move(value: object) -> Optional[Move]:
    """`value` as a Move if it is one (or a tuple of 2 or 3 ints), else None."""
    if isinstance(value, tuple) and len(value) in (2, 3) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        return Move(*value)
    return None


def run_match(game: Game, seats: Dict[int, player_registry.Player], depth: int = 1,
              time_ms: int = 0, *,
              observer: Optional[Callable[[Game], None]] = None) -> Game:
    """Play `game` to the end with in-process players; a player that raises, returns an
    illegal move or (with `time_ms`) overdraws its time bank is disqualified and the game goes
    on.  Time as on the server (RULES.md 8): a seat's bank starts at `time_ms` and grows by
    `time_ms` at every later request; 0 means no limit (the players search `depth` deep).
    `observer` (the live page) is called with the game after its start and after every move."""
    for seat in seats.values():
        seat.prepare(game.state)
    banks = {p: 0 for p in seats}
    clock = time.monotonic
    game.start()
    while not game.is_over:
        if observer is not None:
            observer(game)
        player = game.mover()
        seat = seats[player]
        banks[player] += time_ms
        bank = banks[player]
        given = 0 if not time_ms else (bank if seat.manages_bank else move_budget_ms(bank))
        started = clock()
        try:
            choice: object = seat.choose(game.state, given, depth)
        except Exception as error:  # any failure of a player is its disqualification
            game.fail("player raised %s: %s" % (type(error).__name__, error), bank, depth,
                      (clock() - started) * 1000.0)
            continue
        elapsed = (clock() - started) * 1000.0
        used = int(elapsed)  # whole milliseconds, as the server counts them
        move = as_move(choice)
        if move is None:
            game.fail("player returned %r, not a move" % (choice,), bank, depth, elapsed)
        elif time_ms and used > bank and not seat.timeless:
            game.fail("RULES.md 8: answer after the time bank ran out (%d ms used of a %d ms "
                      "bank)" % (used, bank), bank, depth, elapsed, move)
        else:
            banks[player] = bank - used
            game.answer(move, bank, depth, elapsed)
        if game.progress is not None:
            game.progress.update(game, clock())
    if game.progress is not None:
        game.progress.clear()
    if observer is not None:
        observer(game)
    return game


def load_map(path: Path) -> Tuple[bytes, GameState]:
    """The bytes of the map at `path` (a file, or a bundled map's name) and its initial
    state; MapError names the file, ReversiError says why it cannot be read."""
    source, game_map = load_map_argument(str(path))
    return source.data, initial_state(game_map)


def seat_players(names: Sequence[str], count: int, seed: int) -> Dict[int, player_registry.Player]:
    """Players for seats 1..count, cycling `names`; seat p gets seed `seed * 100 + p`."""
    return {p: player_registry.get(names[(p - 1) % len(names)], seed * 100 + p)
            for p in range(1, count + 1)}


def pypy_note(width: int, height: int, command: str) -> Optional[str]:
    """A suggestion to use PyPy when this is CPython and the map is big, else None."""
    if platform.python_implementation() != "CPython" or width * height <= BIG_MAP_CELLS:
        return None
    return ("note: a %dx%d map is slow under CPython; PyPy runs reversi-ref several times "
            "faster: pypy3 -m reversi_ref %s ..." % (width, height, command))


def add_time_control_flags(parser: argparse.ArgumentParser) -> None:
    """--time-ms and --depth, read by `time_control` (play and tournament)."""
    parser.add_argument("--time-ms", type=int_range(0), default=None, metavar="T",
                        help="time per move in ms, banked as on the server: a player that "
                             "overdraws its bank is disqualified (default %d; 0: no limit)"
                             % DEFAULT_TIME_MS)
    parser.add_argument("--depth", type=int_range(1), default=None, metavar="D",
                        help="search D plies deep instead; without --time-ms this turns the "
                             "time limit off, so games repeat exactly")


def time_control(time_ms: Optional[int], depth: Optional[int]) -> Tuple[int, int]:
    """(time per move in ms, depth) from --time-ms and --depth: --depth alone means no time
    limit; neither means DEFAULT_TIME_MS per move."""
    if time_ms is None:
        time_ms = 0 if depth is not None else DEFAULT_TIME_MS
    return time_ms, depth if depth is not None else 1


def describe_time_control(time_ms: int, depth: int) -> str:
    """The time control in words, for the first line of the output."""
    if time_ms:
        return "%d ms per move (banked as on the server)" % time_ms
    return "depth %d, no time limit" % depth


def run_play(args: argparse.Namespace) -> int:
    """`reversi-ref play`: a whole local game between built-in players."""
    out: TextIO = sys.stdout
    source, game_map = load_map_argument(args.map)
    state = initial_state(game_map)
    seats = seat_players(args.players, state.players, args.seed)
    time_ms, depth = time_control(args.time_ms, args.depth)
    game = Game(state, source.text, {p: 0 for p in seats}, out, not args.boards,
                meta={"map": source.label, "seed": args.seed, "depth": depth,
                      "time_ms": time_ms, "players": {str(p): seats[p].name for p in seats}},
                color=use_color(out, args.color))
    game.final_board = not args.quiet
    note = pypy_note(state.width, state.height, "play")
    if note is not None and not args.quiet:
        print(note, file=sys.stderr)
    game.say("map %s; %s; %s; seed %d" % (source.label, ", ".join(
        "player %d: %s" % (p, seats[p].name) for p in sorted(seats)),
        describe_time_control(time_ms, depth), args.seed), always=not args.quiet)
    if not args.quiet and not args.boards:
        game.progress = Progress(sys.stderr, time.monotonic())
    from .human import watch_seats  # the live page, when a seat is human
    watch = watch_seats(seats, state, out)
    try:
        with sigterm_as_interrupt():
            run_match(game, seats, depth, time_ms,
                      observer=watch.observer if watch is not None else None)
    except KeyboardInterrupt:
        if args.trace:  # the moves played so far are worth keeping
            game.write_interrupted_trace(args.trace)
        raise
    finally:
        if watch is not None:
            watch.close()
    if args.trace:
        game.write_trace(args.trace)
    return 0


def register(subparsers: Any) -> None:
    """Add the `play` subcommand."""
    parser = subparsers.add_parser(
        "play", help="play a local game between built-in players",
        description="Play a whole game in this process between built-in players and print "
                    "the final board and ranking (every move and board with --boards).  The "
                    "search players get %d ms per move, banked as on the server; change it "
                    "with --time-ms, or search a fixed depth with --depth (no time limit, "
                    "reproducible)." % DEFAULT_TIME_MS)
    parser.add_argument("map", nargs="?", default=DEFAULT_MAP, metavar="MAP",
                        help="map file, or a bundled map's name (`reversi-ref maps` lists "
                             "them; default: %s)" % DEFAULT_MAP)
    parser.add_argument("--players", type=player_registry.player_names,
                        default=["greedy", "random"], metavar="A,B,...",
                        help="comma-separated player names, cycled over the map's seats "
                             "(known: %s; default: greedy,random)"
                             % ", ".join(player_registry.names()))
    parser.add_argument("--seed", type=int, default=1,
                        help="seed for the random players (default 1)")
    add_time_control_flags(parser)
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--boards", action="store_true",
                       help="print every move and board (default: a progress line on "
                            "standard error, then the final board and ranking)")
    shown.add_argument("--quiet", action="store_true",
                       help="print only disqualifications, scores and the final ranking")
    parser.add_argument("--trace", type=output_file, metavar="FILE",
                        help="write the JSON trace of the game")
    add_color_flags(parser)
    parser.set_defaults(func=run_play)
