"""Hypothesis properties of the rules (RULES.md 1-7) on random maps and random games.

The random maps come from `strategies.maps()` (valid map texts); random games pick among the
legal moves with a `random.Random` seeded by hypothesis, so every failure replays.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from typing import Any, List, Optional, Tuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import map_text
from reversi_ref import (IllegalMoveError, disqualify, format_map, legal_moves, parse_map,
                         play, read_map)
from reversi_ref.state import GameState, Move

strategies: Any = pytest.importorskip("strategies")

STONES = "12345678"
FAST = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def random_game(text: str, seed: int, max_turns: int = 40,
                disqualify_rate: float = 0.03) -> List[Tuple[GameState, Optional[Move]]]:
    """Play random legal moves (now and then a disqualification) from the initial state.

    Returns the states in order, each with the move played from it (None for a
    disqualification or the last state).
    """
    rng = random.Random(seed)
    state = parse_map(text)
    path: List[Tuple[GameState, Optional[Move]]] = []
    for _ in range(max_turns):
        if state.phase == "over" or state.to_move is None:
            break
        moves = legal_moves(state)
        if rng.random() < disqualify_rate or not moves:
            path.append((state, None))
            state = disqualify(state, state.to_move)
            continue
        move = rng.choice(moves)
        path.append((state, move))
        state = play(state, move)
    path.append((state, None))
    return path


def games(max_size: int = 7) -> st.SearchStrategy[Tuple[str, int]]:
    """A random map text and a seed for the random game played on it."""
    return st.tuples(strategies.maps(max_size=max_size), st.integers(0, 2 ** 32 - 1))


def snapshot(state: GameState) -> Tuple[object, ...]:
    """Everything a GameState holds, deep-copied, including the map's transition table."""
    return copy.deepcopy((state, dict(state.map.exits), state.board, state.overrides,
                          state.bombs, state.disqualified, state.phase, state.to_move))


def non_holes(state: GameState) -> int:
    """The number of cells that are not holes."""
    return sum(1 for cell in state.board if cell != "-")


# --- RULES.md 1: the map round trip -----------------------------------------------------------


@FAST
@given(strategies.maps(max_size=10, messy=True, wrap_counts=True))
def test_map_round_trip(text: str) -> None:
    """RULES.md 1: read_map(format_map(m)) == m for every valid map."""
    game_map = read_map(text)
    assert read_map(format_map(game_map)) == game_map
    assert read_map(format_map(parse_map(text))) == game_map


# --- RULES.md 3: inversion and choice ---------------------------------------------------------


@st.composite
def regions(draw: st.DrawFn) -> Tuple[int, List[List[str]]]:
    """A number of players n and a random block of cells (stones of 1..n, free, special, x,
    holes), at least 3 cells wide."""
    players = draw(st.integers(2, 8))
    width = draw(st.integers(3, 6))
    height = draw(st.integers(1, 4))
    alphabet = STONES[:players] + "0-cibx"
    rows = [[draw(st.sampled_from(alphabet)) for _ in range(width)] for _ in range(height)]
    return players, rows


def owner_after(original: int, rotations: int, players: int) -> int:
    """Who owns an original player's stone after `rotations` inversions."""
    return (original - 1 + rotations) % players + 1


@FAST
@given(regions())
def test_n_inversions_are_the_identity(region: Tuple[int, List[List[str]]]) -> None:
    """RULES.md 3: an inversion maps k to (k mod n) + 1, so n inversions give every stone its
    first owner back.

    Below a random block, gadget j (one row, a hole row above it) is `i A B`, with A and B
    chosen so that at inversion j the stone B belongs to player 1, the mover, and A to
    player 2: the move on i captures A and inverts.
    """
    players, rows = region
    width = len(rows[0])
    lines = [" ".join(row) for row in rows]
    for j in range(players):
        lines.append(" ".join("-" * width))
        lines.append(" ".join([
            "i", str(owner_after(2, -j, players)), str(owner_after(1, -j, players))]
            + ["-"] * (width - 3)))
    state = parse_map(map_text("\n".join(lines), players=players))
    before = state.rows()[:len(rows)]
    for j in range(players):
        y = len(rows) + 2 * j + 1
        state = dataclasses.replace(state, phase="build", to_move=1)
        state = play(state, Move(0, y, 0))
        rotated = [" ".join(str(owner_after(int(c), j + 1, players)) if c in STONES else c
                            for c in row) for row in rows]
        assert state.rows()[:len(rows)] == rotated
    assert state.rows()[:len(rows)] == before


def swap(board: Tuple[str, ...], a: int, b: int) -> Tuple[str, ...]:
    """The board with the stones of players a and b exchanged."""
    table = {str(a): str(b), str(b): str(a)}
    return tuple(table.get(cell, cell) for cell in board)


@FAST
@given(regions(), st.data())
def test_choosing_yourself_changes_nothing_but_the_move(
        region: Tuple[int, List[List[str]]], data: st.DataObject) -> None:
    """RULES.md 3: naming yourself on a choice tile swaps nothing: only the target and the
    captured cells change, and naming another player q gives the same board with the mover's
    and q's stones exchanged."""
    players, rows = region
    width = len(rows[0])
    mover = data.draw(st.integers(1, players))
    other = mover % players + 1
    # The choice tile at (0, 0) captures `other`'s stone eastwards; the block hangs below it,
    # touching it, so further lines from (0, 0) into the block may capture too.
    lines = [" ".join(["c", str(other), str(mover)] + ["-"] * (width - 3))]
    lines += [" ".join(row) for row in rows]
    state = parse_map(map_text("\n".join(lines), players=players, overrides=1))
    state = dataclasses.replace(state, phase="build", to_move=mover)
    choices = [m for m in legal_moves(state) if (m.x, m.y) == (0, 0)]
    assert choices == [Move(0, 0, p) for p in range(1, players + 1)]
    itself = play(state, Move(0, 0, mover))
    changed = [i for i, (a, b) in enumerate(zip(state.board, itself.board)) if a != b]
    assert 0 in changed and 1 in changed
    assert all(itself.board[i] == str(mover) for i in changed)
    assert (itself.overrides, itself.bombs) == (state.overrides, state.bombs)
    for named in range(1, players + 1):
        after = play(state, Move(0, 0, named))
        assert swap(after.board, mover, named) == itself.board
        assert (after.overrides, after.bombs) == (state.overrides, state.bombs)


# --- Random games: invariants of play and legal_moves -----------------------------------------


@FAST
@given(games())
def test_play_never_mutates_its_input(game: Tuple[str, int]) -> None:
    """RULES.md 3-6: play and disqualify return new states and leave their input alone."""
    text, seed = game
    for state, move in random_game(text, seed):
        before = snapshot(state)
        if move is not None:
            play(state, move)
        elif state.to_move is not None:
            disqualify(state, state.to_move)
        assert snapshot(state) == before


@FAST
@given(games())
def test_every_legal_move_is_accepted(game: Tuple[str, int]) -> None:
    """RULES.md 3 and 5: every move legal_moves returns is accepted by play."""
    text, seed = game
    for state, _ in random_game(text, seed, max_turns=15):
        for move in legal_moves(state):
            play(state, move)


def is_tolerated(state: GameState, move: Move, legal: List[Move]) -> bool:
    """Whether play must accept `move`: it is listed, or it is a bomb on a listed target with a
    non-zero special byte (RULES.md 5 tolerates that)."""
    if move in legal:
        return True
    return state.phase == "bomb" and Move(move.x, move.y, 0) in legal


@FAST
@given(games(), st.data())
def test_other_moves_are_rejected_with_a_reason(game: Tuple[str, int],
                                                data: st.DataObject) -> None:
    """RULES.md 3, 5 and 6: a move that legal_moves does not list is rejected with an
    IllegalMoveError naming the rule (a special byte on a bomb is tolerated)."""
    text, seed = game
    for state, _ in random_game(text, seed, max_turns=20):
        if state.phase == "over":
            continue
        legal = legal_moves(state)
        for _ in range(5):
            move = Move(data.draw(st.integers(-2, state.width + 1)),
                        data.draw(st.integers(-2, state.height + 1)),
                        data.draw(st.sampled_from((0, 0, 0, 1, 2, 3, 8, 9, 20, 21, 22, 255))))
            if is_tolerated(state, move, legal):
                play(state, move)
                continue
            with pytest.raises(IllegalMoveError) as info:
                play(state, move)
            assert info.value.rule


@FAST
@given(games(max_size=6))
def test_bomb_never_creates_stones(game: Tuple[str, int]) -> None:
    """RULES.md 5: a bomb only turns cells into holes: it never creates or moves a stone, and
    it costs the bomber one bomb."""
    text, seed = game
    for state, move in random_game(text, seed, max_turns=80, disqualify_rate=0.0):
        if move is None or state.phase != "bomb" or state.to_move is None:
            continue
        after = play(state, move)
        for before_cell, after_cell in zip(state.board, after.board):
            assert after_cell == before_cell or after_cell == "-"
        assert after.cell(move.x, move.y) == "-"
        p = state.to_move - 1
        assert after.bombs[p] == state.bombs[p] - 1
        assert after.overrides == state.overrides


@FAST
@given(games())
def test_phase_one_never_changes_the_number_of_non_hole_cells(game: Tuple[str, int]) -> None:
    """RULES.md 3: building moves never make or fill holes."""
    text, seed = game
    path = random_game(text, seed)
    for (state, move), (after, _) in zip(path, path[1:]):
        if state.phase == "build":
            assert non_holes(after) == non_holes(state)


@FAST
@given(games())
def test_turn_invariants(game: Tuple[str, int]) -> None:
    """RULES.md 4-6: the player to move is in the game and has a legal move; the game is over
    exactly when nobody is to move; a disqualification leaves the board alone."""
    text, seed = game
    path = random_game(text, seed, disqualify_rate=0.1)
    for (state, move), (after, _) in zip(path, path[1:]):
        if move is None:
            assert after.board == state.board
            assert state.to_move in after.disqualified
    for state, _ in path:
        assert (state.phase == "over") == (state.to_move is None)
        assert state.phase in ("build", "bomb", "over")
        if state.to_move is not None:
            assert state.to_move not in state.disqualified
            assert legal_moves(state)
        else:
            assert legal_moves(state) == []

