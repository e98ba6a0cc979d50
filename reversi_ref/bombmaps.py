"""Bombing-phase and late phase-1 positions as map files, to test and measure play there.

A playout takes a map through phase 1 with random and greedy moves (the fast engine) and
writes the position where the bombing phase begins as a map of its own: the board as it
stands, no override stones, and every player the same number of bombs.  With no override
stone in hand nobody has a building move on such a board, so a server (ours or the official
one) starts the game in the bombing phase (RULES.md 5), with player 1 to bomb first.  A game on
it takes seconds where the whole game takes minutes, so a change to the bombing search can be
measured over hundreds of positions.

The map header gives all players one bomb count: the fewest any player holds at the end of
phase 1, or when some hold none, the most any holds; a playout where nobody holds a bomb
writes nothing.  Playouts are deterministic in the map and the seed.

    reversi-ref bombing-maps OUT_DIR MAP... [--playouts K] [--min-players N] [--max-cells N]

`phase1-maps` writes instead the position where the playout has filled a given share of the
cells that were free at the start (`--fill PCT`), still in phase 1: the board, every player
the fewest override stones any holds then, and bombs counted as above (none when nobody holds
one).  Player 1 moves first on it.  A position where some player has no stone left is not
written: that player may not move again before phase 1 ends.  With `--swap-tiles` only
positions with a choice or inversion tile left are written, for the end of phase 1 where such
tiles hand whole stone sets around; with `--inversion-tiles` only those with an inversion tile.

    reversi-ref phase1-maps OUT_DIR MAP... --fill PCT [--swap-tiles | --inversion-tiles] ...

MAP is a file or a bundled map's name, as everywhere.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, List, Optional, Tuple

from .bundled import describe_os_error, load_map_argument
from .cli import int_range
from .engine import BUILD
from .engine.core import Engine
from .engine.tables import BONUS, CHOICE, EMPTY
from .errors import ReversiError
from .geometry import Map
from .mapfile import format_map, read_map
from .state import GameState

# A playout takes the move that captures most with this probability, else a random one; the
# greedy move is the best of at most GREEDY_SAMPLE legal moves.  Even seeds play so, odd
# seeds play at random: two kinds of boards, stones in blocks and stones scattered.
GREEDY_SHARE = 0.8
GREEDY_SAMPLE = 40
# A playout that has not reached the bombing phase after this many moves is given up.
MAX_MOVES = 20000


def _greedy_move(engine: Engine, moves: List[int], rng: random.Random) -> int:
    player = engine.to_move
    sample = moves if len(moves) <= GREEDY_SAMPLE else rng.sample(moves, GREEDY_SAMPLE)
    best, best_count = sample[0], -1
    for move in sample:
        engine.make(move)
        count = engine.counts[player]
        engine.unmake()
        if count > best_count:
            best, best_count = move, count
    return best


def _playout(engine: Engine, seed: int, done: Callable[[Engine], bool]) -> None:
    """Play phase 1 on `engine` from `seed` (mostly greedy moves for even seeds, random ones
    for odd seeds) until it ends, `done(engine)` holds or MAX_MOVES have been played."""
    rng = random.Random(seed)
    greedy = seed % 2 == 0
    played = 0
    while engine.phase == BUILD and played < MAX_MOVES and not done(engine):
        moves = engine.legal_moves()
        if greedy and rng.random() < GREEDY_SHARE:
            engine.make(_greedy_move(engine, moves, rng))
        else:
            engine.make(rng.choice(moves))
        played += 1


def play_phase1(game_map: Map, seed: int) -> Optional[Engine]:
    """An engine at the start of the bombing phase after a phase-1 playout from `seed`
    (greedy for even seeds, random for odd ones); None when it does not get there."""
    engine = Engine(game_map)
    _playout(engine, seed, lambda _: False)
    return None if engine.phase == BUILD else engine


def play_until_filled(game_map: Map, seed: int, fill: int) -> Optional[Engine]:
    """An engine in phase 1 once the playout from `seed` (as in `play_phase1`) has placed
    stones on `fill` per cent of the cells free at the start; None when phase 1 ends first."""
    engine = Engine(game_map)
    players = range(1, engine.players + 1)

    def stones(e: Engine) -> int:
        return sum(e.counts[p] for p in players)

    free = sum(1 for c in engine.board if c == EMPTY or CHOICE <= c <= BONUS)
    target = stones(engine) + (free * fill + 99) // 100
    _playout(engine, seed, lambda e: stones(e) >= target)
    return engine if engine.phase == BUILD and stones(engine) >= target else None


def _one_count(held: List[int]) -> int:
    """The count every player gets: the fewest held, or when some hold none, the most."""
    return min(held) if min(held) > 0 else max(held)


def _map_text(state: GameState, overrides: int, bombs: int) -> Tuple[str, int]:
    """The text of `state`'s board under its map's own header with every player `overrides`
    override stones and `bombs` bombs, and the phase a game on it starts in."""
    text = format_map(replace(state.map, overrides=overrides, bombs=bombs, cells=state.board))
    return text, Engine(read_map(text)).phase


def phase1_map_text(engine: Engine, tiles: str = "") -> Optional[str]:
    """The map text of the engine's phase-1 position with every player the fewest override
    stones any holds and one bomb count; None when a player was disqualified or has no stone
    on the board, nobody could move on it, or `tiles` names cells (such as "ci", the swap
    tiles) and none of them is left."""
    state = engine.to_state()
    active = state.active_players()
    if len(active) != state.players:
        return None
    # A player without a stone has no move until another player's swap tile hands it some,
    # often not before phase 1 ends: a game in its seat would measure only the others.
    if any(engine.counts[p] == 0 for p in active):
        return None
    if tiles and not any(c in tiles for c in state.board):
        return None
    text, phase = _map_text(state, min(state.overrides[p - 1] for p in active),
                            _one_count([state.bombs[p - 1] for p in active]))
    return text if phase == BUILD else None


def bombing_map_text(engine: Engine) -> Optional[str]:
    """The map text of the engine's position (the start of the bombing phase) with no
    override stones and one bomb count for all; None when a player was disqualified, nobody
    holds a bomb, or the board would still have a building move."""
    state = engine.to_state()
    active = state.active_players()
    if len(active) != state.players:
        return None
    bombs = _one_count([state.bombs[p - 1] for p in active])
    if bombs == 0:
        return None
    text, phase = _map_text(state, 0, bombs)
    return None if phase == BUILD else text


def bombing_maps(game_map: Map, playouts: int) -> List[Tuple[int, Optional[str]]]:
    """(seed, map text or None) for seeds 0 .. playouts-1 on `game_map`."""
    found: List[Tuple[int, Optional[str]]] = []
    for seed in range(playouts):
        engine = play_phase1(game_map, seed)
        found.append((seed, None if engine is None else bombing_map_text(engine)))
    return found


def phase1_maps(game_map: Map, playouts: int, fill: int, tiles: str = ""
                ) -> List[Tuple[int, Optional[str]]]:
    """(seed, map text or None) of the phase-1 positions at `fill` per cent for seeds
    0 .. playouts-1 on `game_map`, keeping only those with one of `tiles` left if given."""
    found: List[Tuple[int, Optional[str]]] = []
    for seed in range(playouts):
        engine = play_until_filled(game_map, seed, fill)
        found.append((seed, None if engine is None else phase1_map_text(engine, tiles)))
    return found


def run(args: argparse.Namespace) -> int:
    """The `bombing-maps` and `phase1-maps` subcommands: write OUT_DIR/NAME_sSEED.map for
    every playout that gives a position; print one line per map; exit 1 when a map could not
    be read."""
    command = "phase1-maps" if args.fill is not None else "bombing-maps"
    out = Path(args.out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print("reversi-ref %s: cannot make %s: %s"
              % (command, out, describe_os_error(error)), file=sys.stderr)
        return 1
    written = 0
    unread = 0
    for name in args.maps:
        try:
            source, game_map = load_map_argument(name)
        except ReversiError as error:
            # One bad map in a directory's worth should not stop the others.
            print("reversi-ref %s: left out, %s" % (command, error), file=sys.stderr)
            unread += 1
            continue
        stem = Path(source.label).stem
        if args.fill is not None:
            if game_map.players < args.min_players \
                    or game_map.width * game_map.height > args.max_cells:
                print("%s: left out (players or size)" % stem)
                continue
            results = phase1_maps(game_map, args.playouts, args.fill, args.tiles)
        elif game_map.players < args.min_players or game_map.bombs == 0 \
                or game_map.width * game_map.height > args.max_cells:
            print("%s: left out (players, bombs in the header or size)" % stem)
            continue
        else:
            results = bombing_maps(game_map, args.playouts)
        kept = 0
        for seed, text in results:
            if text is None:
                continue
            target = out / ("%s_s%d.map" % (stem, seed))
            try:
                target.write_text(text)
            except OSError as error:
                print("reversi-ref %s: cannot write %s: %s"
                      % (command, target, describe_os_error(error)), file=sys.stderr)
                return 1
            kept += 1
        written += kept
        print("%s: %d of %d playouts written" % (stem, kept, len(results)))
    print("%d maps in %s" % (written, out))
    return 1 if unread else 0


def _common_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("out_dir", metavar="OUT_DIR")
    parser.add_argument("maps", nargs="+", metavar="MAP")
    parser.add_argument("--playouts", type=int_range(1), default=2, metavar="K",
                        help="playouts per map, seeds 0..K-1 (default 2)")
    parser.add_argument("--min-players", type=int_range(2, 8), default=2, metavar="N",
                        help="leave out maps for fewer players")
    parser.add_argument("--max-cells", type=int_range(1), default=1000 * 1000, metavar="N",
                        help="leave out maps with more cells (width times height)")


def register(subparsers: Any) -> None:
    """Add the `bombing-maps` and `phase1-maps` subcommands."""
    parser = subparsers.add_parser(
        "bombing-maps", help="write bombing-phase positions of maps as maps of their own",
        description="Play phase 1 of each MAP with random and greedy moves and write the "
                    "position where the bombing phase begins as OUT_DIR/NAME_sSEED.map (no "
                    "override stones, one bomb count for all): a game on it starts with "
                    "the first bomb, on our server or the official one.")
    _common_arguments(parser)
    parser.set_defaults(func=run, fill=None, tiles="")
    parser = subparsers.add_parser(
        "phase1-maps", help="write late phase-1 positions of maps as maps of their own",
        description="Play phase 1 of each MAP with random and greedy moves until PCT per "
                    "cent of its free cells hold stones and write that position as "
                    "OUT_DIR/NAME_sSEED.map (every player the fewest override stones any "
                    "holds, one bomb count for all; player 1 moves first).")
    _common_arguments(parser)
    parser.add_argument("--fill", type=int_range(1, 99), required=True, metavar="PCT",
                        help="the share of the cells free at the start that holds stones")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--swap-tiles", action="store_const", dest="tiles", const="ci",
                      help="only positions with a choice or inversion tile left")
    only.add_argument("--inversion-tiles", action="store_const", dest="tiles", const="i",
                      help="only positions with an inversion tile left")
    parser.set_defaults(func=run, tiles="")


__all__ = ["bombing_map_text", "bombing_maps", "phase1_map_text", "phase1_maps", "play_phase1",
           "play_until_filled"]
