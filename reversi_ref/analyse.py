"""`reversi-ref analyse`: what the search player thinks of one position of a recorded game.

`analyse GAME --move N` loads the position after N moves of a trace (the referee's `--trace`,
an arena game's `trace.json`, the official server's) or the start of a map, and searches it
as the `client` would, with the same evaluation and search, but for as long as it is told
(`-t SECONDS`, wall clock) or to a fixed depth (`--depth D`), and printing every iteration:

    depth 7: (6, 7) value +1559, 14,012 nodes, 0.65 s

A value is from the point of view of the player to move, in the evaluation's units (at the
end of the game 100 per stone of margin); a decisive value is a proven result ("proven: first
place", "proven: not first alone").  When the game goes on after move N, the move it played is then
searched alone to the same depth from empty tables (unless it is the search's own choice), so
the two values can be compared:

    played (6, 7): value +1559 at depth 7, the search's own choice

This is how a lost game is taken apart: step back through its moves and find the first one
whose played value falls short of the best.  `--to M` does that for every position from
`--move` to M (`--player P`: only P's moves), one line each.  In the bombing phase the search
is the client's bomb search: it prints its target and value once, and the target the game
bombed, unvalued.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Optional

from .cli import UsageError, int_range, non_negative_float, output_file, usage_error
from .engine import BOMB
from .errors import ReversiError
from .players import read_weights
from .players.search import MAX_DEPTH, SearchPlayer
from .render.cli import frame_heading, load_input
from .render.record import Record
from .search.alphabeta import PLAYER_SHIFT, Searcher
from .search.bombing import BOMB_DEPTH, choose_bomb
from .search.config import DEFAULT_CONFIG, EvalConfig, config_from_dict
from .search.evaluate import RANK_STEP, WIN_BONUS, is_decisive
from .search.timing import Clock
from .state import GameState, Move


class Iteration(NamedTuple):
    """One completed depth: the best move, its value for the player to move, the nodes and
    the seconds since the search began."""

    depth: int
    move: Move
    value: int
    nodes: int
    seconds: float


class Analysis(NamedTuple):
    """The search of one position and, when known, of the move the game played there."""

    player: int
    phase: str
    iterations: List[Iteration]
    played: Optional[Move]
    played_value: Optional[Iteration]
    # The move the client plays instead of the last iteration's, to hold out against the
    # loss that iteration proved (`EvalConfig.hold_out`), or None.
    held: Optional[Move] = None
    # The opponents still in the game: what a proven value's places are out of.
    opponents: int = 1


def describe_value(value: int, opponents: int) -> str:
    """A search value as text: the number, and the proven result when it is decisive, with
    `opponents` still in the game (a value counts RANK_STEP per place, and WIN_BONUS only for
    first place alone; see `endgame.search_value`)."""
    if not is_decisive(value):
        return "%+d" % value
    # The tiebreak a solved value carries stays within RANK_STEP / 4 either way.
    first = value >= opponents * RANK_STEP + WIN_BONUS - RANK_STEP // 2
    return "%+d (proven: %s)" % (value, "first place" if first else "not first alone")


def describe_move(move: Move) -> str:
    """(x, y), with the special byte when there is one."""
    if move.special:
        return "(%d, %d) special %d" % (move.x, move.y, move.special)
    return "(%d, %d)" % (move.x, move.y)


def deadline_after(start: float, seconds: float) -> float:
    """The clock time `seconds` after `start`; no deadline for 0 seconds."""
    return start + seconds if seconds > 0 else float("inf")


def search_building_move(searcher: Searcher, seconds: float, max_depth: int,
                         clock: Clock) -> List[Iteration]:
    """Iterative deepening at the root until `seconds` pass (0: no limit), `max_depth` is
    complete or a result is proven."""
    engine = searcher.engine
    start = clock()
    searcher.deadline = deadline_after(start, seconds)
    found: List[Iteration] = []
    for depth, best, value, nodes in searcher.iterate(max_depth):
        found.append(Iteration(depth, engine.decode_move(best), value, nodes, clock() - start))
        if is_decisive(value):
            break
    return found


def search_played_move(state: GameState, move: Move, depth: int, seconds: float,
                       config: EvalConfig, clock: Clock) -> Optional[Iteration]:
    """The value of `move` alone, searched to `depth` (or as deep as `seconds` allow) from
    empty tables, so that, like the search's own value at that depth, it holds nothing from a
    deeper iteration (whose values swing by thousands between odd and even depths)."""
    searcher = SearchPlayer(config=config, clock=clock).searcher_for(state)
    packed = (searcher.root << PLAYER_SHIFT) | searcher.engine.encode_move(move)
    start = clock()
    searcher.deadline = deadline_after(start, seconds)
    best: Optional[Iteration] = None
    previous = 0
    for d in range(1, depth + 1):
        value, _ = searcher.search_root(d, [packed], previous)
        if searcher.stopped:
            break
        previous = value
        best = Iteration(d, move, value, searcher.nodes, clock() - start)
    return best


def analyse_state(state: GameState, played: Optional[Move], seconds: float, max_depth: int,
                  config: EvalConfig = DEFAULT_CONFIG,
                  clock: Clock = time.monotonic) -> Analysis:
    """Search `state` for the player to move (`seconds` of wall clock, 0 for no limit, up
    to `max_depth`), then the `played` move alone to the depth reached (unless it is the
    search's own choice there)."""
    player = state.to_move
    if player is None:
        raise ReversiError("the game is over in this position: nobody is to move")
    search_player = SearchPlayer(config=config, clock=clock)
    evaluator = search_player.context.load(state)
    engine = evaluator.engine
    opponents = len(engine.players_in_game()) - 1
    if engine.phase == BOMB:
        start = clock()
        deadline = deadline_after(start, seconds)
        choice = choose_bomb(engine, evaluator, player, deadline, clock,
                             min(max_depth, BOMB_DEPTH) if seconds > 0 else max_depth, deadline)
        bomb = Iteration(choice.depth, engine.decode_move(choice.move), choice.value,
                         choice.nodes, clock() - start)
        return Analysis(player, "bombing", [bomb], played, None, opponents=opponents)
    searcher = search_player.searcher_for(state)
    iterations = search_building_move(searcher, seconds, max_depth, clock)
    held = None
    if len(iterations) >= 2 and is_decisive(iterations[-1].value):
        last, unproven = iterations[-1], iterations[-2].move
        if search_player.holds_out(searcher, engine.encode_move(unproven),
                                   engine.encode_move(last.move), last.depth, last.value):
            held = unproven
    played_value = None
    if played is not None and iterations:
        last = iterations[-1]
        if played == last.move:
            played_value = last
        else:
            played_value = search_played_move(state, played, last.depth, seconds, config,
                                              clock)
    return Analysis(player, "building", iterations, played, played_value, held, opponents)


def played_verdict(analysis: Analysis) -> str:
    """How the played move compares with the search's choice at the same depth."""
    best = analysis.iterations[-1] if analysis.iterations else None
    mine = analysis.played_value
    if analysis.played is None:
        return ""
    text = "played %s" % describe_move(analysis.played)
    if mine is None or best is None:
        return text + ": not searched (no iteration finished in time)"
    text += ": value %s at depth %d" % (describe_value(mine.value, analysis.opponents),
                                        mine.depth)
    if mine.depth != best.depth:
        return text + " (the search's choice was valued at depth %d: not comparable)" % (
            best.depth)
    if analysis.played == best.move:
        return text + ", the search's own choice"
    if mine.value >= best.value:
        return text + ", as good as the search's %s" % describe_move(best.move)
    return text + ", %d below the search's %s" % (best.value - mine.value,
                                                    describe_move(best.move))


def format_analysis(analysis: Analysis) -> List[str]:
    """The lines `analyse` prints for one position."""
    lines = ["player %d to move, %s phase" % (analysis.player, analysis.phase)]
    if analysis.phase == "bombing":
        bomb = analysis.iterations[0]
        lines.append("bomb %s: value %s, %s targets tried, %d bombs deep, %.2f s" % (
            describe_move(bomb.move), describe_value(bomb.value, analysis.opponents),
            "{:,}".format(bomb.nodes),
            bomb.depth, bomb.seconds))
        if analysis.played is not None:
            lines.append("played %s" % describe_move(analysis.played))
        return lines
    if not analysis.iterations:
        lines.append("no iteration finished in time: give more seconds (-t)")
    for it in analysis.iterations:
        lines.append("depth %d: %s value %s, %s nodes, %.2f s" % (
            it.depth, describe_move(it.move), describe_value(it.value, analysis.opponents),
            "{:,}".format(it.nodes), it.seconds))
    if analysis.held is not None:
        lines.append("the client plays %s instead: it reaches the same place and holds out "
                     "longer against the proven loss (hold_out)" % describe_move(analysis.held))
    verdict = played_verdict(analysis)
    if verdict:
        lines.append(verdict)
    return lines


def analysis_json(analysis: Analysis, source: str, number: int) -> Dict[str, Any]:
    """The analysis as a JSON object (moves as {x, y, special})."""
    def move(m: Optional[Move]) -> Optional[Dict[str, int]]:
        return None if m is None else {"x": m.x, "y": m.y, "special": m.special}

    def iteration(it: Optional[Iteration]) -> Optional[Dict[str, Any]]:
        if it is None:
            return None
        return {"depth": it.depth, "move": move(it.move), "value": it.value,
                "proven": is_decisive(it.value), "nodes": it.nodes,
                "seconds": round(it.seconds, 4)}

    return {"game": source, "after_moves": number, "player": analysis.player,
            "phase": analysis.phase,
            "iterations": [iteration(it) for it in analysis.iterations],
            "played": move(analysis.played), "played_value": iteration(analysis.played_value),
            "held_out": move(analysis.held)}


def sweep_line(number: int, analysis: Analysis) -> str:
    """One line of a sweep: the position, the player, and the played move against the best."""
    where = "after move %d, player %d" % (number, analysis.player)
    if analysis.phase == "bombing":
        bomb = analysis.iterations[0]
        return "%s, bombing: the search bombs %s (value %s), played %s" % (
            where, describe_move(bomb.move), describe_value(bomb.value, analysis.opponents),
            describe_move(analysis.played) if analysis.played else "nothing")
    return "%s: %s" % (where, played_verdict(analysis))


def played_after(record: Record, number: int) -> Optional[Move]:
    """The move the game played after move `number` (None at the end, or when the next step
    is a disqualification or a rejected answer)."""
    if number + 1 >= len(record.frames):
        return None
    following = record.frames[number + 1]
    return None if following.rejected else following.move


def positions_to_analyse(record: Record, first: int, last: Optional[int],
                         player: Optional[int]) -> List[int]:
    """The frame numbers to search: `first` alone, or `first`..`last` where the game goes on
    with a move (of `player`, when given)."""
    start = record.frame(first).number
    if last is None:
        return [start]
    end = record.frame(last).number
    return [number for number in range(start, end + 1)
            if played_after(record, number) is not None
            and (player is None or record.frames[number + 1].player == player)]


def run_analyse(args: argparse.Namespace) -> int:
    """`reversi-ref analyse`: search one position of a recorded game and print each depth,
    or (with --to) each move of a stretch of the game against the search's choice."""
    if args.time_limit == 0 and args.depth is None:
        raise UsageError("argument -t: 0 (no time limit) needs --depth")
    if args.player is not None and args.to is None:
        raise UsageError("argument --player: only with --to")
    config = DEFAULT_CONFIG
    if args.weights is not None:
        try:
            config = config_from_dict(read_weights(args.weights, "argument --weights"))
        except ValueError as error:
            raise usage_error(error, "argument --weights") from None
    record = load_input(args.game)
    if args.player is not None and args.player > record.players:
        raise UsageError("argument --player: the game has players 1..%d" % record.players)
    numbers = positions_to_analyse(record, args.move, args.to, args.player)
    seconds = 0.0 if args.depth is not None and args.time_limit is None else (
        args.time_limit if args.time_limit is not None else 10.0)
    max_depth = args.depth if args.depth is not None else MAX_DEPTH
    reports = []
    for number in numbers:
        frame = record.frames[number]
        try:
            analysis = analyse_state(frame.state, played_after(record, number), seconds,
                                     max_depth, config)
        except ReversiError as error:
            raise ReversiError("%s, after move %d: %s" % (args.game, number, error)) from None
        if args.to is None:
            print("%s: %s" % (args.game, frame_heading(record, frame)))
            print("\n".join(format_analysis(analysis)))
        else:
            print(sweep_line(number, analysis), flush=True)
        reports.append(analysis_json(analysis, args.game, number))
    if args.to is not None and not numbers:
        print("%s: no move to analyse after moves %d to %d%s" % (
            args.game, record.frame(args.move).number, record.frame(args.to).number,
            "" if args.player is None else " by player %d" % args.player))
    if args.json:
        data: Any = reports[0] if args.to is None else reports
        Path(args.json).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return 0


def register(subparsers: Any) -> None:
    """Add the `analyse` subcommand."""
    parser = subparsers.add_parser(
        "analyse", help="search one position of a recorded game, printing every depth",
        description="Search the position after N moves of a recorded game (or a map's start) "
                    "as the client does, printing the best move and value at every depth, "
                    "then the value of the move the game played there at the same depth.")
    parser.add_argument("game", metavar="TRACE|MAP",
                        help="a JSON trace (the referee's --trace, an arena trace.json, the "
                             "official server's; gzip or plain), a map file or a bundled "
                             "map's name")
    parser.add_argument("--move", type=int, default=0, metavar="N",
                        help="the position after N moves (0 = the start, negative counts "
                             "from the end; default 0)")
    parser.add_argument("--to", type=int, default=None, metavar="M",
                        help="search every position from --move to M (negative counts from "
                             "the end), one line each: the move played against the search's "
                             "choice")
    parser.add_argument("--player", type=int_range(1, 8), default=None, metavar="P",
                        help="with --to: only the moves of player P")
    parser.add_argument("-t", dest="time_limit", type=non_negative_float, default=None,
                        metavar="SECONDS",
                        help="wall-clock seconds for the search, and again for the played "
                             "move (default 10; 0: no limit, with --depth)")
    parser.add_argument("--depth", type=int_range(1, MAX_DEPTH), default=None, metavar="D",
                        help="stop after depth D (alone: no time limit, so the moves and "
                             "values repeat exactly)")
    parser.add_argument("--weights", default=None, metavar="JSON",
                        help="evaluation weights and switches, as for `client --weights` "
                             "(inline JSON or @FILE)")
    parser.add_argument("--json", type=output_file, default=None, metavar="FILE",
                        help="also write the analysis as JSON (with --to: a list, one entry "
                             "per position)")
    parser.set_defaults(func=run_analyse)
