"""Free cells no move can ever fill: the time plan's count (`search.analysis`) against the
linter's regions (`maplint`, through the readable rules), and what the time plan makes of them."""

from __future__ import annotations

from pathlib import Path
from typing import Dict

import pytest
from hypothesis import given, settings

from helpers import build
from reversi_ref import BUILD, play
from reversi_ref.engine import Engine
from reversi_ref.geometry import BONUS, CHOICE, EMPTY, INVERSION, Map
from reversi_ref.maplint import unreachable_regions
from reversi_ref.mapfile import read_map
from reversi_ref.players.greedy import GreedyPlayer
from reversi_ref.rules import initial_state
from reversi_ref.search.analysis import unreachable_free_cells
from reversi_ref.search.config import config_from_dict
from reversi_ref.search.context import GameContext
from reversi_ref.search.timing import expected_own_moves, plan_budget
from strategies import maps

SHARED_MAPS = Path(__file__).resolve().parents[1].parent / "shared" / "maps"
FREE = (EMPTY, CHOICE, INVERSION, BONUS)


def linted_free_cells(game_map: Map) -> int:
    """The free cells in the linter's unreachable regions."""
    regions = unreachable_regions(initial_state(game_map))
    return sum(1 for region in regions for index in region if game_map.cells[index] in FREE)


@pytest.mark.parametrize("text, expected", [
    ("2\n0\n0 0\n1 5\n1 2 - 0 0\n", 2),                       # behind a hole
    ("2\n0\n0 0\n1 5\n1 2 - 0 0\n1 0 2 <-> 3 0 6\n", 0),      # a transition over it
    ("2\n0\n0 0\n1 6\n1 2 - x 0 c\n", 2),                     # x without an override stone
    ("2\n1\n0 0\n1 6\n1 2 - x 0 c\n", 0),                     # x with one in hand
    ("2\n0\n0 0\n1 7\n1 2 b - x 0 i\n", 0),                   # x after a bonus tile's stone
    ("2\n0\n0 0\n1 7\n1 2 0 - x b i\n", 2),                   # that bonus is cut off too
])
def test_hand_worked_cut_off_cells(text: str, expected: int) -> None:
    """RULES.md 2-3: cells that no walk links to a stone (or to an expansion stone, when an
    override stone is or can come in hand), counted alike by both implementations."""
    game_map = read_map(text)
    assert unreachable_free_cells(game_map) == expected
    assert linted_free_cells(game_map) == expected


@settings(max_examples=60, deadline=None)
@given(maps(max_size=9, max_transitions=6))
def test_time_plan_and_linter_agree_on_random_maps(text: str) -> None:
    """The search's count (steps through the map's transition table) equals the linter's
    (steps through the readable rules) on random maps with holes and transitions."""
    game_map = read_map(text)
    assert unreachable_free_cells(game_map) == linted_free_cells(game_map)


def test_time_plan_and_linter_agree_on_the_competition_maps() -> None:
    """The same on every competition map the server loads (three have cut-off cells)."""
    if not SHARED_MAPS.is_dir():
        pytest.skip("../shared/maps is not present")
    cut_off = 0
    for path in sorted(SHARED_MAPS.glob("*.map")):
        try:
            game_map = read_map(path.read_text(encoding="latin-1"))
        except Exception:  # maps the server rejects are another test's business
            continue
        count = unreachable_free_cells(game_map)
        assert count == linted_free_cells(game_map), path.name
        cut_off += count > 0
    assert cut_off >= 1


# Players 1 and 2 share a 4x4 room (greedy play fills it); the 4x3 room beyond the wall of
# holes has no stone.
ROOMS = """
    0 0 0 0 - 0 0 0
    0 1 2 0 - 0 0 0
    0 2 1 0 - 0 0 0
    0 0 0 0 - 0 0 0
"""


def test_cut_off_cells_are_not_moves_to_come() -> None:
    """RULES.md 4: without the cut-off room the estimate of the moves to come stays within
    two of the moves really asked (greedy players to the end of phase 1); with it, it does not."""
    state = build(ROOMS)
    cut_off = unreachable_free_cells(state.map)
    assert cut_off == 12
    engine = Engine(state)
    estimate = expected_own_moves(engine, 1, cut_off)
    greedy = GreedyPlayer()
    asked = 0
    while state.phase == BUILD:
        asked += state.to_move == 1
        state = play(state, greedy.choose(state, 0, 1))
    assert asked <= estimate <= asked + 2
    assert expected_own_moves(engine, 1) > asked + 2


def test_the_player_plans_without_the_cut_off_room() -> None:
    """With `skip_cut_off` the search player's deadline is the plan for the moves to come
    without the cut-off room: the same as planning by hand with the room left out, later than
    with it counted, which the default (off) does."""
    state = build(ROOMS)
    engine = Engine(state)
    planned = plan_budget(8000, expected_own_moves(engine, 1, 12), 1000.0)
    counted = plan_budget(8000, expected_own_moves(engine, 1), 1000.0)
    assert planned.hard_ms > counted.hard_ms
    for switch, plan in ((True, planned), (None, counted)):
        weights: Dict[str, object] = {} if switch is None else {"skip_cut_off": switch}
        context = GameContext(config_from_dict(weights), clock=lambda: 0.0)
        context.prepare(state.map)
        context.start_move(1000)  # the first request sets the per-move limit
        request = context.begin_move(state, 8000)
        assert request.deadlines.hard == pytest.approx(plan.hard_ms / 1000.0)
