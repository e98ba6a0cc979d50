"""Legal moves and the end of the building phase on large boards (issue 19, item 3; RULES.md
3 and 4): `has_building_move` and `building_targets` pick the cheaper side to walk from (the
mover's stones, the free tiles, or the line ends) and stop early where they can; these tests
check them against each cell tested on its own, and the `bench bigmap` positions against
outcomes worked out by hand.  No timing is asserted.
"""

from __future__ import annotations

import dataclasses
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reversi_ref import legal_moves, parse_map, play
from reversi_ref.bigmap import big_map
from reversi_ref.rules import (building_target_error, building_targets, captures_in_direction,
                               has_building_move, has_capture, initial_state)
from reversi_ref.state import BUILD, OVER, GameState
from helpers import make_state
from strategies import maps


def targets_one_by_one(state: GameState, player: int) -> list:  # type: ignore[type-arg]
    """Every legal target of `player`, each cell checked alone by walking its lines forwards."""
    return [(x, y) for y in range(state.height) for x in range(state.width)
            if building_target_error(state, player, x, y) is None]


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=maps(max_size=8, max_transitions=16), seed=st.integers(0, 2 ** 32 - 1),
       overrides=st.lists(st.sampled_from((0, 0, 1, 2)), min_size=8, max_size=8))
def test_targets_and_has_move_match_each_cell_alone(text: str, seed: int,
                                                    overrides: list) -> None:  # type: ignore[type-arg]
    """RULES.md 3 and 4: with and without override stones (each player's count drawn), the
    targets are those found cell by cell, and a player has a move exactly when there is one,
    along a random game."""
    rng = random.Random(seed)
    state = parse_map(text)
    state = dataclasses.replace(state, overrides=tuple(overrides[:state.players]))
    for _ in range(8):
        for player in range(1, state.players + 1):
            expected = targets_one_by_one(state, player)
            assert building_targets(state, player) == expected, player
            assert has_building_move(state, player) == bool(expected), player
        moves = legal_moves(state)
        if not moves:
            break
        state = play(state, rng.choice(moves))


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=maps(max_size=8, max_transitions=16), seed=st.integers(0, 2 ** 32 - 1))
def test_targets_with_the_holes_filled_in(text: str, seed: int) -> None:
    """RULES.md 2 and 3: on a board whose map holes hold stones or tiles (no game reaches one,
    but a step can then be undone in two ways, so the walks back branch), the targets with 0,
    1 or 2 override stones are still those found cell by cell."""
    rng = random.Random(seed)
    state = parse_map(text)
    tiles = [str(p) for p in range(1, state.players + 1)] + ["x", "0", "c", "i", "b"]
    board = tuple(rng.choice(tiles) if cell == "-" else cell for cell in state.board)
    for overrides in (0, 1, 2):
        filled = dataclasses.replace(state, board=board, overrides=(overrides,) * state.players)
        for player in range(1, state.players + 1):
            expected = targets_one_by_one(filled, player)
            assert building_targets(filled, player) == expected, (overrides, player)
            assert has_building_move(filled, player) == bool(expected), (overrides, player)


def test_few_free_tiles_among_many_stones() -> None:
    """RULES.md 3: without an override stone, a free tile is a target only with a capture; a
    board of stones with two empty cells (fewer than player 2's stones, so tested from the free
    tiles; more than player 1's, so walked back from its stone) finds the same as cell by
    cell."""
    rows = ["1 2 2 0 2 2 2 2",
            "2 2 2 2 2 2 2 2",
            "2 2 2 2 2 2 2 0"]
    state = parse_map("2\n0\n0 0\n3 8\n" + "\n".join(rows) + "\n")
    # (3, 0) captures (1, 0) and (2, 0) westwards; (7, 2) has no line ending at a 1.
    assert building_targets(state, 1) == [(3, 0)] == targets_one_by_one(state, 1)
    assert has_building_move(state, 1)
    assert not has_building_move(state, 2) and targets_one_by_one(state, 2) == []


def test_override_with_only_an_expansion_stone_to_take() -> None:
    """RULES.md 3: with an override stone, an expansion stone is a target without a capture."""
    state = parse_map("2\n1\n0 0\n1 4\n1 - x -\n")
    assert has_building_move(state, 2)
    assert building_targets(state, 2) == [(2, 0)] == targets_one_by_one(state, 2)
    without = dataclasses.replace(state, overrides=(0, 0))
    assert not has_building_move(without, 2)


SIZE = 120  # large enough for long lines, small enough for a default test


def test_torus_first_move_ends_the_game() -> None:
    """The `torus` bench case: player 1 takes row 0 round its loop with its only override
    stone; then player 2's lines over row 0 end at the edge or close through their target, and
    player 1 has no override stone left for a board without free tiles, so nobody can build
    and, without bombs, the game is over."""
    state = initial_state(big_map("torus", SIZE))
    first = legal_moves(state)[0]
    assert (first.x, first.y) == (1, 0)
    after = play(state, first)
    assert after.board[:SIZE] == ("1",) * SIZE
    assert after.board[SIZE:] == ("2",) * (SIZE * (SIZE - 1))
    assert after.phase == OVER and after.to_move is None
    assert not has_building_move(after, 1) and not has_building_move(after, 2)


def test_torus_with_an_override_stone_left() -> None:
    """As above with two override stones each: player 2 still has no move, player 1 (one
    override stone left) captures northwards from every cell of rows 2 and below, and from no
    other cell (row 1's lines end at row 0 at once or loop back to their target; row 0's run
    down to the edge)."""
    game_map = dataclasses.replace(big_map("torus", SIZE), overrides=2)
    state = initial_state(game_map)
    after = play(state, legal_moves(state)[0])
    assert after.phase == BUILD and after.to_move == 1
    assert not has_building_move(after, 2)
    targets = building_targets(after, 1)
    assert targets == [(x, y) for y in range(2, SIZE) for x in range(SIZE)]


def test_a_line_round_a_loop_away_from_its_target_captures_nothing() -> None:
    """RULES.md 3: the map's hole at (0, 0) filled in with a free tile.  Its east step enters
    the ring of player 2's stones on cells 1-3 (row 0 joined end to end, the join on the
    hole's side of cell 1), which leads neither back to the target nor to a stone of player
    1: the line captures nothing, and the walk ends (it went round forever before)."""
    state = make_state("""
        - 2 2 2
        1 0 0 0
    """, transitions=["3 0 2 <-> 1 0 6"], to_move=1, phase="build")
    filled = dataclasses.replace(state, board=("0",) + state.board[1:])
    assert captures_in_direction(filled, 1, 0, 0, 2) == []
    assert not has_capture(filled, 1, 0, 0)
    assert (0, 0) not in building_targets(filled, 1)
