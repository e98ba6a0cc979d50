"""Shrinking a failing fuzzed game to a small reproduction that fails the same way.

A delta-debugging loop of our own (hypothesis' shrinker works on its own byte buffers and
would replay every candidate through a subprocess it cannot see; ours edits the game itself):
each pass proposes smaller versions of the `Script` and keeps one when playing it against the
engine still gives a failure with the same signature (query kind, rule id, difference).  The
passes, repeated until none helps or the time is up:

- cut the steps after the failure;
- start the game from a later position (the board then is the new map, so moves disappear);
- leave out steps (halves, quarters, ... single steps);
- remove blocks of rows and of columns (steps and transitions move with the cells);
- leave out transitions; remove the last player; empty cells (tiles, holes, stones);
- lower the override, bomb and strength counts.

Every candidate is a valid map (checked by `read_map`), and the rules decide every position,
so a shrunk game is as real as the first one.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Callable, Iterator, List, Optional, Sequence, Tuple

from ..errors import MapError
from ..geometry import Map, Transition, open_sides
from ..mapfile import format_map, read_map
from ..rules import initial_state
from ..state import BUILD, GameState
from ..specs.codec import JSONObject
from .play import Answerer, GameRun, Script, Signature, play_game, referee_step

DEFAULT_SHRINK_SECONDS = 120.0


def board_cells(script: Script) -> int:
    """The number of cells of the script's map."""
    game_map = read_map(script.map_text)
    return game_map.height * game_map.width


def _size(run: GameRun) -> Tuple[int, int, int, int]:
    """What shrinking lowers, most important first: cells, moves, then the rest of the map."""
    game_map = read_map(run.script.map_text)
    moves = run.failure.moves if run.failure is not None else len(run.script.steps)
    busy = sum(1 for c in game_map.cells if c != "0")
    return (game_map.height * game_map.width, moves,
            len(game_map.transitions) + game_map.players + busy,
            game_map.overrides + game_map.bombs + game_map.strength)


class Shrinker:
    """Shrinks one failing game against one engine, within a time budget."""

    def __init__(self, ask: Answerer, target: Signature,
                 seconds: float = DEFAULT_SHRINK_SECONDS, name: str = "fuzz",
                 log: Optional[Callable[[str], None]] = None) -> None:
        self.ask = ask
        self.target = target
        self.deadline = time.monotonic() + seconds
        self.name = name
        self.log = log
        self.evaluations = 0
        self.best: Optional[GameRun] = None

    def out_of_time(self) -> bool:
        """Whether the time budget is used up."""
        return time.monotonic() > self.deadline

    def attempt(self, script: Script) -> bool:
        """Play `script`; keep it when it still fails the same way and is smaller."""
        if self.out_of_time() or self.best is None:
            return False
        self.evaluations += 1
        run = play_game(script, self.ask, target=self.target, name=self.name)
        if run.failure is None:
            return False
        run = _cut(run)
        if _size(run) >= _size(self.best):
            return False
        self.best = run
        return True

    def shrink(self, run: GameRun) -> GameRun:
        """The smallest failing game found, starting from the failing `run`."""
        self.best = _cut(run)
        passes: Sequence[Callable[[Script], Iterator[Script]]] = (
            rebased, fewer_steps, fewer_rows, fewer_columns, fewer_transitions,
            fewer_players, emptier_cells, lower_counts)
        progress = True
        while progress and not self.out_of_time():
            progress = False
            for candidates in passes:
                # Restart a pass's candidates after each success: they depend on the script.
                improved = True
                while improved and not self.out_of_time():
                    improved = False
                    for candidate in candidates(self.best.script):
                        if self.attempt(candidate):
                            improved = progress = True
                            if self.log is not None:
                                cells, moves, _, _ = _size(self.best)
                                self.log("shrunk to %d cells, %d moves (%s)"
                                         % (cells, moves, candidates.__name__))
                            break
        return self.best


def _cut(run: GameRun) -> GameRun:
    """The run with the steps after its failure left out."""
    if run.failure is None:
        return run
    steps = run.script.steps[:run.failure.moves]
    return run._replace(script=Script(run.script.map_text, steps))


# =========================================================================== candidates


def _with_map(game_map: Map, steps: Sequence[JSONObject]) -> Optional[Script]:
    """A script on `game_map`, or None when the map is not valid (checked by the loader)."""
    text = format_map(game_map)
    try:
        read_map(text)
    except MapError:
        return None
    return Script(text, tuple(steps))


def _positions(script: Script) -> List[GameState]:
    """The rules' position before each step, and after the last."""
    state = initial_state(read_map(script.map_text))
    states = [state]
    for step in script.steps:
        state = referee_step(state, step)
        states.append(state)
    return states


def rebased(script: Script) -> Iterator[Script]:
    """The game started from a later position: its board becomes the map's cells and the
    mover's counts the map's counts; the steps before it are gone."""
    states = _positions(script)
    count = len(script.steps)
    tried = set()
    back = 0
    while back <= count:
        k = count - back
        back = back * 2 if back else 1
        state = states[k]
        if k == 0 or k in tried or state.phase != BUILD or state.to_move is None:
            continue
        tried.add(k)
        mover = state.to_move - 1
        game_map = replace(state.map, cells=state.board, overrides=state.overrides[mover],
                           bombs=state.bombs[mover],
                           transitions=_live(state.map, state.board))
        candidate = _with_map(game_map, script.steps[k:])
        if candidate is not None:
            yield candidate


def _live(game_map: Map, cells: Sequence[str]) -> Tuple[Transition, ...]:
    """The transitions of `game_map` still valid on `cells`: both sides on cells that are not
    holes and facing the edge or a hole (emptying a hole may close a side)."""
    sides = set(open_sides(game_map.height, game_map.width, cells))
    return tuple(t for t in game_map.transitions if t.sides[0] in sides and t.sides[1] in sides)


def _chunks(count: int) -> Iterator[Tuple[int, int]]:
    """Index ranges [start, end) of halves, quarters, ... down to single items."""
    size = count // 2 if count > 1 else 1
    while size >= 1:
        for start in range(0, count, size):
            yield start, min(count, start + size)
        if size == 1:
            break
        size //= 2


def fewer_steps(script: Script) -> Iterator[Script]:
    """The script with a block of steps left out."""
    steps = script.steps
    for start, end in _chunks(len(steps)):
        yield Script(script.map_text, steps[:start] + steps[end:])


def _remap_steps(steps: Sequence[JSONObject], axis: int, start: int, end: int
                 ) -> List[JSONObject]:
    """Steps after rows (axis 1) or columns (axis 0) start..end-1 are removed: moves onto them
    are left out, moves beyond them shift."""
    result: List[JSONObject] = []
    removed = end - start
    for step in steps:
        if "move" not in step:
            result.append(step)
            continue
        move = list(step["move"])
        if start <= move[axis] < end:
            continue
        if move[axis] >= end and move[axis] < 65535:
            move[axis] -= removed
        result.append({"move": move})
    return result


def _remove_band(script: Script, axis: int, start: int, end: int) -> Optional[Script]:
    """The script with rows (axis 1) or columns (axis 0) start..end-1 removed."""
    game_map = read_map(script.map_text)
    h, w = game_map.height, game_map.width
    keep_x = [x for x in range(w) if axis == 1 or not start <= x < end]
    keep_y = [y for y in range(h) if axis == 0 or not start <= y < end]
    if not keep_x or not keep_y:
        return None
    cells = tuple(game_map.cells[y * w + x] for y in keep_y for x in keep_x)
    new_x = {x: i for i, x in enumerate(keep_x)}
    new_y = {y: i for i, y in enumerate(keep_y)}
    sides = set(open_sides(len(keep_y), len(keep_x), cells))
    links = []
    for t in game_map.transitions:
        if t.x1 not in new_x or t.x2 not in new_x or t.y1 not in new_y or t.y2 not in new_y:
            continue
        moved = Transition(new_x[t.x1], new_y[t.y1], t.d1, new_x[t.x2], new_y[t.y2], t.d2)
        a, b = moved.sides
        if a in sides and b in sides:
            links.append(moved)
    smaller = Map(game_map.players, game_map.overrides, game_map.bombs, game_map.strength,
                  len(keep_y), len(keep_x), cells, tuple(links))
    return _with_map(smaller, _remap_steps(script.steps, axis, start, end))


def fewer_rows(script: Script) -> Iterator[Script]:
    """The script with a block of rows removed."""
    for start, end in _chunks(read_map(script.map_text).height):
        candidate = _remove_band(script, 1, start, end)
        if candidate is not None:
            yield candidate


def fewer_columns(script: Script) -> Iterator[Script]:
    """The script with a block of columns removed."""
    for start, end in _chunks(read_map(script.map_text).width):
        candidate = _remove_band(script, 0, start, end)
        if candidate is not None:
            yield candidate


def fewer_transitions(script: Script) -> Iterator[Script]:
    """The script with a block of transitions left out."""
    game_map = read_map(script.map_text)
    links = game_map.transitions
    for start, end in _chunks(len(links)):
        candidate = _with_map(replace(game_map, transitions=links[:start] + links[end:]),
                              script.steps)
        if candidate is not None:
            yield candidate


def fewer_players(script: Script) -> Iterator[Script]:
    """The script without its last player: its stones emptied (or given to player 1), its
    disqualifications left out, choices naming it name player 1."""
    game_map = read_map(script.map_text)
    n = game_map.players
    if n <= 2:
        return
    last = str(n)
    steps: List[JSONObject] = []
    for step in script.steps:
        if step.get("disqualify") == n:
            continue
        if "move" in step and step["move"][2] == n:
            x, y, _ = step["move"]
            step = {"move": [x, y, 1]}
        steps.append(step)
    for replacement in ("0", "1"):
        cells = tuple(replacement if c == last else c for c in game_map.cells)
        candidate = _with_map(replace(game_map, players=n - 1, cells=cells), steps)
        if candidate is not None:
            yield candidate


def emptier_cells(script: Script) -> Iterator[Script]:
    """The script with a block of non-empty cells emptied: tiles and holes first, then stones."""
    game_map = read_map(script.map_text)
    for kinds in ("cibx-", "12345678"):
        busy = [i for i, c in enumerate(game_map.cells) if c in kinds]
        for start, end in _chunks(len(busy)):
            chosen = set(busy[start:end])
            cells = tuple("0" if i in chosen else c for i, c in enumerate(game_map.cells))
            candidate = _with_map(replace(game_map, cells=cells,
                                          transitions=_live(game_map, cells)), script.steps)
            if candidate is not None:
                yield candidate


def lower_counts(script: Script) -> Iterator[Script]:
    """The script with a lower override count, bomb count or bomb strength."""
    game_map = read_map(script.map_text)
    for field in ("strength", "bombs", "overrides"):
        value = getattr(game_map, field)
        for lower in sorted({0, 1, value // 2, value - 1}):
            if 0 <= lower < value:
                yield Script(format_map(replace(game_map, **{field: lower})), script.steps)


__all__ = ["DEFAULT_SHRINK_SECONDS", "Shrinker", "board_cells", "emptier_cells", "fewer_columns",
           "fewer_players", "fewer_rows", "fewer_steps", "fewer_transitions", "lower_counts",
           "rebased"]
