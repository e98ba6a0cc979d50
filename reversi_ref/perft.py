"""Perft: counting the leaves of the game tree, and the `reversi-ref perft` subcommand.

Definition (specs/README.md, "Perft"): `perft(position, 0) = 1`; a position where the game is
over is one leaf at any remaining depth; otherwise `perft(position, d)` is the sum over the legal
moves of the player to move (each special variant of a target is its own move) of
`perft(position after the move, d - 1)`.  One move is one ply; players skipped because they
cannot move take no ply, and the change from phase 1 to phase 2 takes no ply.

`count_passes=True` is the Othello convention used by published Othello perft tables: every
player skipped inside a phase takes one ply (a pass).  It exists only to compare with those
tables; ReversiXT has no pass move (RULES.md 4: skipped players are not told anything).

Two implementations: `reference_perft` walks the readable rules (`reversi_ref.rules`) through
the public API; `engine_perft` uses the fast engine (`reversi_ref.engine`).  `perft MAP DEPTH`
uses the engine, `--reference` the rules.  `perft --check FILE...` replays perft tables
(`specs/perft/*.perft`, in python-chess's `id` / `map` / `perft D N` layout).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, List, NamedTuple, Optional, Tuple

from .bundled import load_map_argument
from .cli import UsageError, int_range
from .errors import MapError, ReversiError
from .geometry import Map
from .mapfile import read_map_file
from .rules import initial_state, legal_moves, play
from .state import OVER, GameState, Move


# --------------------------------------------------------------------------- reference perft


def skipped_players(before: GameState, after: GameState) -> int:
    """How many players still in the game were passed over between the mover of `before` and
    the player to move in `after`, when both are in the same phase (else 0)."""
    mover, following = before.to_move, after.to_move
    if (mover is None or following is None or after.phase != before.phase
            or after.phase == OVER):
        return 0
    n = before.players
    count = 0
    player = mover % n + 1
    while player != following:
        if player not in after.disqualified:
            count += 1
        player = player % n + 1
    return count


def reference_perft(state: GameState, depth: int, count_passes: bool = False) -> int:
    """The perft count of `state` to `depth` plies, walking the readable rules."""
    if depth <= 0 or state.phase == OVER:
        return 1
    total = 0
    for move in legal_moves(state):
        after = play(state, move)
        remaining = depth - 1
        if count_passes:
            remaining -= skipped_players(state, after)
        total += reference_perft(after, remaining, count_passes)
    return total


def reference_divide(state: GameState, depth: int,
                     count_passes: bool = False) -> List[Tuple[Move, int]]:
    """Each legal move of `state` with the perft count below it (`depth - 1` more plies)."""
    result: List[Tuple[Move, int]] = []
    if depth <= 0 or state.phase == OVER:
        return result
    for move in legal_moves(state):
        after = play(state, move)
        remaining = depth - 1
        if count_passes:
            remaining -= skipped_players(state, after)
        result.append((move, reference_perft(after, remaining, count_passes)))
    return result


# --------------------------------------------------------------------------- engine perft


def _engine_skipped(engine: Any, mover: int, phase: int) -> int:
    """`skipped_players` on the fast engine, right after `make`."""
    following = engine.to_move
    if engine.phase != phase or engine.is_over() or following == 0:
        return 0
    n = engine.players
    count = 0
    player = mover % n + 1
    while player != following:
        if not engine.disqualified[player]:
            count += 1
        player = player % n + 1
    return count


def _engine_perft_passes(engine: Any, depth: int) -> int:
    if depth <= 0 or engine.is_over():
        return 1
    mover, phase = engine.to_move, engine.phase
    total = 0
    for move in engine.legal_moves():
        engine.make(move)
        remaining = depth - 1 - _engine_skipped(engine, mover, phase)
        total += _engine_perft_passes(engine, remaining)
        engine.unmake()
    return total


def engine_perft(state: GameState, depth: int, count_passes: bool = False,
                 bulk: bool = True) -> int:
    """The perft count of `state` to `depth` plies, on the fast engine."""
    from .engine import Engine
    engine = Engine.from_state(state)
    if count_passes:
        return _engine_perft_passes(engine, depth)
    return int(engine.perft(depth, bulk))


def engine_divide(state: GameState, depth: int, count_passes: bool = False,
                  bulk: bool = True) -> List[Tuple[Move, int]]:
    """Each legal move of `state` with the perft count below it, on the fast engine."""
    from .engine import Engine
    engine = Engine.from_state(state)
    result: List[Tuple[Move, int]] = []
    if depth <= 0 or engine.is_over():
        return result
    mover, phase = engine.to_move, engine.phase
    for move in engine.legal_moves():
        engine.make(move)
        if count_passes:
            count = _engine_perft_passes(
                engine, depth - 1 - _engine_skipped(engine, mover, phase))
        else:
            count = int(engine.perft(depth - 1, bulk))
        engine.unmake()
        result.append((engine.decode_move(move), count))
    return result


def is_engine_available() -> bool:
    """Whether the fast engine package can be imported."""
    try:
        from .engine import Engine  # noqa: F401
    except ImportError:
        return False
    return True


# --------------------------------------------------------------------------- perft tables


class PerftEntry(NamedTuple):
    """One `perft D N` line of a table, with the note after `#` on that line."""

    depth: int
    nodes: int
    note: str


class PerftTable(NamedTuple):
    """One `id` block of a `.perft` file: a map path and its counts."""

    id: str
    map: str
    entries: Tuple[PerftEntry, ...]
    count_passes: bool
    line: int


def parse_perft_file(text: str, source: str = "<perft>") -> List[PerftTable]:
    """The tables of a `.perft` file.

    Lines: `id NAME` starts a table; `map PATH` (relative to the repository root);
    `passes` switches the table to the Othello pass convention; `perft DEPTH NODES [# note]`.
    `#` starts a comment; blank lines are ignored.
    """
    tables: List[PerftTable] = []
    current: Optional[List[Any]] = None

    def finish() -> None:
        if current is not None:
            if not current[1]:
                raise ReversiError("%s:%d: table %r has no map line"
                                   % (source, current[4], current[0]))
            tables.append(PerftTable(current[0], current[1], tuple(current[2]), current[3],
                                     current[4]))

    for number, raw in enumerate(text.splitlines(), start=1):
        content, _, note = raw.partition("#")
        words = content.split()
        if not words:
            continue
        keyword = words[0]
        if keyword == "id" and len(words) == 2:
            finish()
            current = [words[1], "", [], False, number]
        elif current is None:
            raise ReversiError("%s:%d: expected 'id NAME' first" % (source, number))
        elif keyword == "map" and len(words) == 2:
            current[1] = words[1]
        elif keyword == "passes" and len(words) == 1:
            current[3] = True
        elif keyword == "perft" and len(words) == 3 and all(w.isdigit() for w in words[1:]):
            current[2].append(PerftEntry(int(words[1]), int(words[2]), note.strip()))
        else:
            raise ReversiError("%s:%d: cannot read %r" % (source, number, raw.strip()))
    finish()
    return tables


def repository_root() -> Path:
    """The directory holding `maps/` and `specs/` in a source checkout."""
    return Path(__file__).resolve().parents[1]


def resolve_map_path(path: str, table_file: Optional[Path] = None) -> Path:
    """A table's map path: as given if it exists, else relative to the repository root, else
    relative to the directory two levels above the table file (`specs/perft/` -> root)."""
    candidates = [Path(path), repository_root() / path]
    if table_file is not None:
        candidates.append(table_file.resolve().parents[2] / path)
    for candidate in candidates:
        if candidate.exists():
            return candidate
    return candidates[1]


def read_table_map(path: str, table_file: Optional[Path] = None) -> Map:
    """A table's map: the file `resolve_map_path` finds, else (an installed package has no
    maps/ directory) the bundled map of that file name (`maps/default.map` -> `default`)."""
    found = resolve_map_path(path, table_file)
    if not found.exists() and Path(path).parent.name == "maps":
        _, game_map = load_map_argument(Path(path).name)
        return game_map
    return read_map_file(found)


# --------------------------------------------------------------------------- making tables


def table_block(map_path: Path, name: str, shown_path: str, seconds: float = 60.0,
                reference_nodes: int = 200000, max_depth: int = 12,
                published: Optional[List[int]] = None, passes: bool = False) -> List[str]:
    """The lines of one perft table: counts from the fast engine at each depth until the next
    depth would take longer than about `seconds`, each confirmed by the readable rules while
    the count is at most `reference_nodes` and compared with `published` counts if given.

    Raises ReversiError when the engine, the rules and a published count disagree.
    """
    state = initial_state(read_map_file(map_path))
    lines = ["id %s" % name, "map %s" % shown_path]
    if passes:
        lines.append("passes")
    previous = 1
    same = 0
    for depth in range(1, max_depth + 1):
        started = time.perf_counter()
        nodes = engine_perft(state, depth, passes)
        elapsed = time.perf_counter() - started
        sources = ["engine %.1fs" % elapsed]
        if nodes <= reference_nodes:
            if reference_perft(state, depth, passes) != nodes:
                raise ReversiError("%s perft %d: engine and readable rules disagree"
                                   % (name, depth))
            sources.append("reference")
        if published is not None and depth <= len(published):
            if published[depth - 1] != nodes:
                raise ReversiError("%s perft %d: %d, published %d"
                                   % (name, depth, nodes, published[depth - 1]))
            sources.append("published")
        lines.append("perft %d %d  # %s" % (depth, nodes, ", ".join(sources)))
        same = same + 1 if nodes == previous else 0
        growth = max(nodes / max(previous, 1), 1.0)
        previous = nodes
        if same >= 2 or elapsed * growth > seconds:
            break
    return lines


# --------------------------------------------------------------------------- command line


def _count(state: GameState, depth: int, reference: bool, passes: bool, bulk: bool) -> int:
    if reference:
        return reference_perft(state, depth, passes)
    return engine_perft(state, depth, passes, bulk)


def _run_single(args: argparse.Namespace) -> int:
    depth = args.depth
    if depth is None:
        raise UsageError("the following arguments are required: DEPTH")
    _, game_map = load_map_argument(args.map)
    state = initial_state(game_map)
    reference = args.reference
    if not reference and not is_engine_available():
        print("note: the fast engine is not available; using the readable rules",
              file=sys.stderr)
        reference = True
    started = time.perf_counter()
    if args.divide:
        if reference:
            rows = reference_divide(state, depth, args.passes)
        else:
            rows = engine_divide(state, depth, args.passes, not args.no_bulk)
        for move, count in rows:
            print("%d %d %d: %d" % (move.x, move.y, move.special, count))
        total = sum(count for _, count in rows) if rows else 1
        print("moves: %d" % len(rows))
    else:
        total = _count(state, depth, reference, args.passes, not args.no_bulk)
    elapsed = time.perf_counter() - started
    print("perft %d %d" % (depth, total))
    if args.time:
        print("time: %.3f s (%s)" % (elapsed, "readable rules" if reference else "fast engine"),
              file=sys.stderr)
    return 0


def _run_check(args: argparse.Namespace) -> int:
    failures = 0
    checked = 0
    reference = args.reference or not is_engine_available()
    for name in args.check:
        path = Path(name)
        for table in parse_perft_file(path.read_text(encoding="utf-8"), str(path)):
            try:
                state = initial_state(read_table_map(table.map, path))
            except (MapError, OSError) as error:
                print("%s: %s" % (table.id, error))
                failures += 1
                continue
            for entry in table.entries:
                if args.max_depth is not None and entry.depth > args.max_depth:
                    continue
                if args.max_nodes is not None and entry.nodes > args.max_nodes:
                    continue
                got = _count(state, entry.depth, reference, table.count_passes, True)
                checked += 1
                verdict = "ok" if got == entry.nodes else "MISMATCH"
                if got != entry.nodes:
                    failures += 1
                print("%-24s perft %d: expected %d, got %d  %s"
                      % (table.id, entry.depth, entry.nodes, got, verdict))
    print("%d counts checked with the %s, %d mismatched"
          % (checked, "readable rules" if reference else "fast engine", failures))
    return 1 if failures else 0


def run(args: argparse.Namespace) -> int:
    """The `perft` subcommand."""
    if args.check:
        return _run_check(args)
    if args.map is None:
        raise UsageError("give MAP DEPTH, or --check FILE")
    return _run_single(args)


def register(subparsers: Any) -> None:
    """Add the `perft` subcommand."""
    parser = subparsers.add_parser(
        "perft", help="count the leaves of the game tree (move-generator check)",
        description="Count the leaves of the game tree of MAP's start position DEPTH plies "
                    "deep (see specs/README.md for the exact definition), or check perft "
                    "tables with --check.")
    parser.add_argument("map", nargs="?", metavar="MAP",
                        help="map file, or a bundled map's name (`reversi-ref maps`)")
    parser.add_argument("depth", nargs="?", type=int_range(0), metavar="DEPTH", help="plies")
    parser.add_argument("--divide", action="store_true",
                        help="print the count below each legal move first")
    parser.add_argument("--reference", action="store_true",
                        help="walk the readable rules instead of the fast engine")
    parser.add_argument("--passes", action="store_true",
                        help="Othello convention: a skipped player's pass takes one ply")
    parser.add_argument("--no-bulk", action="store_true",
                        help="play the last ply's moves instead of counting them")
    parser.add_argument("--time", action="store_true", help="print the time taken")
    parser.add_argument("--check", nargs="+", metavar="FILE",
                        help="replay the counts of these .perft tables")
    parser.add_argument("--max-depth", type=int_range(0),
                        help="with --check: skip deeper counts")
    parser.add_argument("--max-nodes", type=int_range(0),
                        help="with --check: skip larger counts")
    parser.set_defaults(func=run)
