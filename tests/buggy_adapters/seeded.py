"""The reference adapter with one rule deliberately broken, to prove the suite catches it.

    python tests/buggy_adapters/seeded.py BUG

Each bug replaces one function of the readable rules before serving requests; `BUGS` names
them and says which rule they break.  Used by tests/test_conform_bugs.py.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from reversi_ref.geometry import DIRECTIONS  # noqa: E402
from reversi_ref.rules import bombing, building, game, turns  # noqa: E402
from reversi_ref.specs import oracle  # noqa: E402
from reversi_ref.state import GameState, Move  # noqa: E402
from reversi_ref.adapters.reference import main as reference_main  # noqa: E402

Position = Optional[tuple]  # type: ignore[type-arg]


def no_transition_captures() -> None:
    """RULES.md 2-3: capture lines ignore transitions (they end at the edge)."""
    def step(state: GameState, x: int, y: int, direction: int) -> Position:
        dx, dy = DIRECTIONS[direction]
        nx, ny = x + dx, y + dy
        if not state.map.is_on_board(nx, ny) or state.cell(nx, ny) == "-":
            return None
        return nx, ny, direction

    def steps_into(state: GameState, x: int, y: int, heading: int) -> List[Position]:
        dx, dy = DIRECTIONS[heading]
        px, py = x - dx, y - dy
        if not state.map.is_on_board(px, py) or state.cell(px, py) == "-":
            return []
        return [(px, py, heading)]
    setattr(building, "step", step)
    setattr(building, "steps_into", steps_into)  # legal moves walk capture lines backwards


def overrides_not_charged() -> None:
    """RULES.md 3: a move onto a stone or x does not cost an override stone."""
    original: Callable[[GameState, int, Move], GameState] = getattr(game,
                                                                    "apply_building_move")

    def apply_building_move(state: GameState, player: int, move: Move) -> GameState:
        return replace(original(state, player, move), overrides=state.overrides) \
            if state.cell(move.x, move.y) != "b" else original(state, player, move)
    setattr(game, "apply_building_move", apply_building_move)


def inversion_wrong_way() -> None:
    """RULES.md 3: inversion gives player k's stones to k - 1 instead of k + 1."""
    def apply_inversion(board: List[str], players: int) -> None:
        for index, cell in enumerate(board):
            if cell in "12345678":
                board[index] = str((int(cell) - 2) % players + 1)
    setattr(building, "apply_inversion", apply_inversion)


def blast_crosses_holes() -> None:
    """RULES.md 5: the blast steps into and across holes."""
    def step(state: GameState, x: int, y: int, direction: int) -> Position:
        exit_side = state.map.exits.get((x, y, direction))
        if exit_side is not None:
            return exit_side
        dx, dy = DIRECTIONS[direction]
        nx, ny = x + dx, y + dy
        if not state.map.is_on_board(nx, ny):
            return None
        return nx, ny, direction
    setattr(bombing, "step", step)


def skipped_players_asked() -> None:
    """RULES.md 4: the next player in cyclic order is asked even without a legal move."""
    original = turns.next_player

    def next_player(state: GameState, after: int) -> Optional[int]:
        if original(state, after) is None:
            return None
        for player in turns.candidates_after(state, after):
            if player not in state.disqualified:
                return player
        return None
    setattr(turns, "next_player", next_player)


def disqualified_stones_removed() -> None:
    """RULES.md 6: a disqualified player's stones are taken off the board."""
    original: Callable[[GameState, int], GameState] = getattr(oracle, "disqualify")

    def disqualify(state: GameState, player: int) -> GameState:
        after = original(state, player)
        board = tuple("0" if c == str(player) else c for c in after.board)
        return replace(after, board=board)
    setattr(oracle, "disqualify", disqualify)


def closes_through_target() -> None:
    """RULES.md 3: a line that comes back to the target closes there if the target holds
    the mover's stone."""
    def captures_in_direction(state: GameState, player: int, x: int, y: int,
                              direction: int) -> List[tuple]:  # type: ignore[type-arg]
        collected: List[tuple] = []  # type: ignore[type-arg]
        walk = getattr(building, "step")
        position = walk(state, x, y, direction)
        while position is not None:
            cx, cy, heading = position
            cell = state.cell(cx, cy)
            if (cx, cy) == (x, y) and cell != str(player):
                return []
            if cell == str(player):
                return collected
            if cell == "x" or (cell in "12345678" and cell != str(player)):
                collected.append((cx, cy))
            else:
                return []
            position = walk(state, cx, cy, heading)
        return []
    setattr(building, "captures_in_direction", captures_in_direction)
    original = getattr(building, "walk_capture_line_back")

    def walk_capture_line_back(state: GameState, player: int, stone: tuple,  # type: ignore[type-arg]
                               last: tuple) -> Iterator[tuple]:  # type: ignore[type-arg]
        # Legal moves walk lines back from the mover's stones: the same bug there is a line
        # that leads back to `stone` through collectable cells closing on `stone` itself.
        yield from original(state, player, stone, last)
        position, seen = last, {(last[0], last[1])}
        while True:
            sources = getattr(building, "steps_into")(state, position[0], position[1], position[2])
            if len(sources) != 1 or (sources[0][0], sources[0][1]) in seen:
                return
            position = sources[0]
            cell = (position[0], position[1])
            if cell == stone:
                yield stone
                return
            if not building.is_collectable(state.cell(cell[0], cell[1]), player):
                return
            seen.add(cell)
    setattr(building, "walk_capture_line_back", walk_capture_line_back)


def bonus_swapped() -> None:
    """RULES.md 3: special 20 gives an override stone and 21 a bomb (the wrong way round)."""
    original = building.apply_bonus

    def apply_bonus(state: GameState, player: int, special: int) -> GameState:
        return original(state, player, 41 - special)
    setattr(building, "apply_bonus", apply_bonus)


def count_saturates() -> None:
    """RULES.md 3: counts in hand stop at 255 instead of wrapping to 0 (255 + 1 = 255)."""
    def increment_count(count: int) -> int:
        return min(count + 1, 255)
    setattr(building, "increment_count", increment_count)


def expansion_needs_capture() -> None:
    """RULES.md 3: an expansion stone is legal only when a direction captures (the expansion
    rule says always, with an override stone)."""
    original = building.building_target_error

    def building_target_error(state: GameState, player: int, x: int, y: int) -> Optional[str]:
        reason = original(state, player, x, y)
        if reason is None and state.cell(x, y) == "x" and not building.has_capture(
                state, player, x, y):
            return "an expansion stone needs a capture"
        return reason
    setattr(building, "building_target_error", building_target_error)


BUGS: Dict[str, Callable[[], None]] = {
    "no-transition-captures": no_transition_captures,
    "overrides-not-charged": overrides_not_charged,
    "inversion-wrong-way": inversion_wrong_way,
    "blast-crosses-holes": blast_crosses_holes,
    "skipped-players-asked": skipped_players_asked,
    "disqualified-stones-removed": disqualified_stones_removed,
    "closes-through-target": closes_through_target,
    "bonus-swapped": bonus_swapped,
    "count-saturates": count_saturates,
    "expansion-needs-capture": expansion_needs_capture,
}


def main(argv: List[str]) -> int:
    """Install the named bug, then serve like the reference adapter."""
    if len(argv) != 1 or argv[0] not in BUGS:
        print("usage: seeded.py BUG, one of: %s" % ", ".join(BUGS), file=sys.stderr)
        return 2
    BUGS[argv[0]]()
    return reference_main([])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
