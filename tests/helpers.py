"""Helpers shared by the hand-worked rule tests: small inline maps and expected boards as text.

Positions are written the way a map file writes them, one row per line, cells separated by
spaces.  A test builds its map with `map_text`, sets up the position with `make_state` and
compares `state.rows()` with `board(...)` of the board it worked out by hand.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import random
import signal
import threading
import time
from pathlib import Path
from typing import (Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple,
                    TypeVar)

import pytest

from reversi_ref import legal_moves, parse_map, play
from reversi_ref.bundled import load_map_argument
from reversi_ref.engine import Engine
from reversi_ref.search.alphabeta import Searcher
from reversi_ref.search.analysis import MapAnalysis
from reversi_ref.search.config import DEFAULT_CONFIG, EvalConfig
from reversi_ref.search.evaluate import Evaluator
from reversi_ref.searchbench import bench_positions
from reversi_ref.state import OVER, GameState, Move

T = TypeVar("T")

# Material only: 100 points per stone against the average opponent (no leader weighting), for
# search tests whose values are worked by hand; every opponent in the tree (no `stranger_gap`).
MATERIAL_ONLY = dataclasses.replace(
    DEFAULT_CONFIG, material=(100, 100), leader_share=0, corner=(0, 0), edge=(0, 0),
    half_open=(0, 0), corner_neighbour=(0, 0), mobility=(0, 0), override=(0, 0),
    bomb_per_cell=0, frontier=(0, 0), stranger_gap=0, mobility_share=0)


# The maps bundled with reversi-ref.
BUNDLED_MAPS = Path(__file__).resolve().parents[1] / "maps"


def stone_counts(state: GameState, players: int = 3) -> Tuple[int, ...]:
    """How many stones players 1..`players` have on the board."""
    return tuple(sum(1 for c in state.board if c == str(p)) for p in range(1, players + 1))


def searcher_for(state: GameState, config: EvalConfig, root: Optional[int] = None) -> Searcher:
    """A paranoid searcher on `state`, reset for `root` (default: the player to move)."""
    engine = Engine(state)
    searcher = Searcher(engine, Evaluator(engine, MapAnalysis(state.map), config), config)
    searcher.reset(engine.to_move if root is None else root)
    return searcher


def random_positions(name: str, count: Optional[int], seed: int) -> List[GameState]:
    """The first `count` phase-1 positions of a random game on a bundled map (all of them
    when `count` is None)."""
    rng = random.Random(seed)
    state = parse_map((BUNDLED_MAPS / name).read_text())
    found: List[GameState] = []
    while state.phase == "build" and (count is None or len(found) < count):
        found.append(state)
        state = play(state, rng.choice(legal_moves(state)))
    return found


def board(text: str) -> List[str]:
    """The rows of a board written as text, in the form `GameState.rows()` returns them.

    Blank lines and the indentation of a triple-quoted string do not matter; cells may be
    separated by any amount of whitespace.
    """
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def map_text(cells: str, players: int = 2, overrides: int = 0, bombs: int = 0,
             strength: int = 0, transitions: Iterable[str] = ()) -> str:
    """A whole map file: header from the arguments, size from the rows of `cells`.

    Each transition is written as in a map file, e.g. `"0 0 6 <-> 4 0 2"`.
    """
    rows = board(cells)
    width = len(rows[0].split()) if rows else 0
    lines = [str(players), str(overrides), "%d %d" % (bombs, strength),
             "%d %d" % (len(rows), width)]
    lines.extend(rows)
    lines.extend(transitions)
    return "\n".join(lines) + "\n"


def make_state(cells: str, players: int = 2, overrides: int = 0, bombs: int = 0,
               strength: int = 0, transitions: Iterable[str] = (),
               to_move: Optional[int] = None, phase: Optional[str] = None,
               overrides_per_player: Optional[Sequence[int]] = None,
               bombs_per_player: Optional[Sequence[int]] = None,
               disqualified: Iterable[int] = ()) -> GameState:
    """Parse an inline map and then set up the position the test needs.

    Without `to_move` and `phase` the state is exactly what `parse_map` returns.  Counts per
    player (`overrides_per_player`, `bombs_per_player`, index 0 = player 1) replace the map's.
    """
    transitions = list(transitions)
    text = map_text(cells, players, overrides, bombs, strength, transitions)
    # parse_map already looks for a player who can move; only transitions can make a walk
    # loop, so on maps with transitions guard it against endless walks.
    state = finishes(lambda: parse_map(text)) if transitions else parse_map(text)
    changes: Dict[str, Any] = {}
    if to_move is not None:
        changes["to_move"] = to_move
    if phase is not None:
        changes["phase"] = phase
    if overrides_per_player is not None:
        changes["overrides"] = tuple(overrides_per_player)
    if bombs_per_player is not None:
        changes["bombs"] = tuple(bombs_per_player)
    dq = frozenset(disqualified)
    if dq:
        changes["disqualified"] = dq
    return dataclasses.replace(state, **changes)


def with_board(state: GameState, cells: str) -> GameState:
    """The same state with its board replaced by `cells` (rows of the same size)."""
    rows = board(cells)
    flat = tuple(c for row in rows for c in row.split())
    if len(rows) != state.height or len(flat) != state.height * state.width:
        raise ValueError("board text does not match the map's size")
    return dataclasses.replace(state, board=flat)


def build(cells: str, to_move: int = 1, players: int = 2, overrides: int = 0,
          bombs: int = 0, strength: int = 0, transitions: Iterable[str] = (),
          overrides_per_player: Optional[Sequence[int]] = None,
          bombs_per_player: Optional[Sequence[int]] = None,
          disqualified: Iterable[int] = ()) -> GameState:
    """A phase-1 position with `to_move` to move, whatever parse_map decided."""
    return make_state(cells, players=players, overrides=overrides, bombs=bombs,
                      strength=strength, transitions=transitions, to_move=to_move,
                      phase="build", overrides_per_player=overrides_per_player,
                      bombs_per_player=bombs_per_player, disqualified=disqualified)


def bombing(cells: str, to_move: int = 1, players: int = 2, bombs: int = 1,
            strength: int = 0, transitions: Iterable[str] = (),
            bombs_per_player: Optional[Sequence[int]] = None,
            disqualified: Iterable[int] = ()) -> GameState:
    """A phase-2 position with `to_move` to move, whatever parse_map decided."""
    return make_state(cells, players=players, bombs=bombs, strength=strength,
                      transitions=transitions, to_move=to_move, phase="bomb",
                      bombs_per_player=bombs_per_player, disqualified=disqualified)


def targets(moves: Iterable[Move]) -> List[Tuple[int, int]]:
    """The sorted distinct (x, y) targets of a list of moves."""
    return sorted({(move.x, move.y) for move in moves})


def finishes(func: Callable[[], T], seconds: float = 5.0) -> T:
    """func(), failing the test if it has not returned within `seconds`.

    Used where a walk could loop forever (RULES.md 2 says none does): such a bug then fails
    its test instead of hanging the whole run.
    """
    results: List[T] = []
    errors: List[BaseException] = []

    def run() -> None:
        try:
            results.append(func())
        except BaseException as error:  # re-raised in the test's thread below
            errors.append(error)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise AssertionError("did not finish within %g s: a walk that never ends?" % seconds)
    if errors:
        raise errors[0]
    return results[0]


# A 6 x 6 Othello start with one bomb of strength 0 each: a short game with both phases.
OTHELLO6_WITH_BOMBS = """2
0
1 0
6 6
0 0 0 0 0 0
0 0 0 0 0 0
0 0 1 2 0 0
0 0 2 1 0 0
0 0 0 0 0 0
0 0 0 0 0 0
"""


class RefereeThread:
    """A `Referee` on a free port of 127.0.0.1, running one game on `text` in a thread.

    `bound` limits how long `finish` waits for the end of the game; the referee's own waits
    (`connect_timeout`, `wait`) default to it.
    """

    def __init__(self, text: str, bound: float, **options: Any) -> None:
        from reversi_ref.referee import Referee
        options.setdefault("connect_timeout", bound)
        options.setdefault("wait", bound)
        self.bound = bound
        self.out = io.StringIO()
        self.referee = Referee(text.encode(), parse_map(text), port=0, out=self.out,
                               quiet=True, **options)
        self.port = self.referee.listen()
        self.code: List[int] = []
        self.thread = threading.Thread(target=lambda: self.code.append(self.referee.run()),
                                       daemon=True)
        self.thread.start()

    def finish(self) -> Dict[str, Any]:
        """Wait (bounded) for the end of the game; its trace."""
        self.thread.join(self.bound)
        assert not self.thread.is_alive(), "referee still running:\n" + self.out.getvalue()
        assert self.code == [0], self.out.getvalue()
        trace: Dict[str, Any] = self.referee.game.trace
        return trace


def bench_position(name: str, ply: int) -> GameState:
    """The position after `ply` plies of the bench's game on the map `name` (a bundled name or
    a path); skips the test when the path is missing or the game left phase 1 before."""
    if name.startswith("/") and not Path(name).is_file():
        pytest.skip("real maps not present")
    _, game_map = load_map_argument(name)
    positions = [state for at, state in bench_positions(game_map, (ply,)) if at == ply]
    if not positions:
        pytest.skip("the game left phase 1 before ply %d" % ply)
    return positions[0]


def interrupted_after(games: int, play: Callable[[Any], Dict[str, Any]], by: str = "ctrl-c"
                      ) -> Callable[[Any], Dict[str, Any]]:
    """A stand-in for `tournament.play_game` that plays `games` games with `play`, then
    stops the run: by raising KeyboardInterrupt as Ctrl-C would (`by` "ctrl-c"), or by
    sending this process SIGTERM, as a plain `kill` would ("sigterm")."""
    played = [0]

    def play_then_interrupt(spec: Any) -> Dict[str, Any]:
        if played[0] == games:
            if by == "ctrl-c":
                raise KeyboardInterrupt
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(10)  # the handler raises within the sleep
            raise AssertionError("SIGTERM did not stop the run")
        played[0] += 1
        return play(spec)

    return play_then_interrupt


@contextlib.contextmanager
def sigterm_fails_the_test() -> Iterator[None]:
    """Within the block, a SIGTERM that the code under test does not handle fails the test
    (instead of killing pytest)."""
    def fail(signum: int, frame: Any) -> None:
        raise AssertionError("SIGTERM reached the test: the command did not handle it")

    previous = signal.signal(signal.SIGTERM, fail)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


# Bombing-phase brute force with the readable rules (tests/test_endgame.py, test_search.py).

Outcome = Tuple[int, int]  # (players beaten - players ahead, lead over the best other)


def outcome(state: GameState, root: int) -> Outcome:
    """The finished game's outcome for `root`, counted on the board."""
    stones = [sum(1 for c in state.board if c == str(p)) for p in range(state.players + 1)]
    mine = stones[root]
    others = [stones[p] for p in range(1, state.players + 1) if p != root]
    return (sum(1 for s in others if s < mine) - sum(1 for s in others if s > mine),
            mine - max(others))


def brute_force(state: GameState, root: int, memo: Dict[Tuple[object, ...], Outcome],
                opponent: Optional[Callable[[GameState], Move]] = None) -> Outcome:
    """Best outcome for `root` (places, then margin) over every line to the end: paranoid,
    or with each opponent playing `opponent(state)` when given."""
    if state.phase == OVER:
        return outcome(state, root)
    key = (tuple(state.board), state.to_move, state.phase, tuple(state.bombs))
    if key not in memo:
        if opponent is not None and state.to_move != root:
            memo[key] = brute_force(play(state, opponent(state)), root, memo, opponent)
        else:
            values = [brute_force(play(state, m), root, memo, opponent)
                      for m in legal_moves(state)]
            memo[key] = max(values) if state.to_move == root else min(values)
    return memo[key]
