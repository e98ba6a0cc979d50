"""The fast engine against the readable rules (RULES.md 1-6), on random maps and random games.

What is checked, at every step of every game: the legal moves (same moves, same order), the
move count and has-any-move per player, the whole position after each move (board, override and
bomb counts, disqualifications, phase, player to move), the incremental hash against one
recomputed from scratch and against a fresh engine built from the rules' state, and that
unmake restores the position and hash exactly.  Moves are random legal moves, with random
disqualifications and random (mostly illegal) probes mixed in.  Maps come from
`strategies.maps()`: sizes up to 50x50, holes, every tile, transitions including self-joined
sides, 2-8 players, counts near 0 and near 255.

This is evidence over the games hypothesis draws, not a proof: the default run plays about 200
games of up to 40 plies (plus two games per map in maps/), `-m slow` about 640 more of up to
150 plies.
"""

from __future__ import annotations

import random
from pathlib import Path
from unittest import mock
from typing import List

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reversi_ref import disqualify, legal_moves, parse_map, play, read_map
from reversi_ref.engine import Engine, core
from reversi_ref.errors import IllegalMoveError
from reversi_ref.rules import building_moves, has_legal_move
from reversi_ref.state import OVER, GameState, Move
from strategies import maps

REPO_MAPS = sorted((Path(__file__).resolve().parents[1] / "maps").glob("*.map"))

# Examples take very different times (map size, game length), so no deadline.
RELAXED = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                         HealthCheck.data_too_large])


def check_same_position(engine: Engine, state: GameState, where: str) -> None:
    """The engine holds exactly `state`, and everything derived from it agrees."""
    assert engine.to_state() == state, where
    assert [engine.decode_move(m) for m in engine.legal_moves()] == legal_moves(state), where
    assert engine.count_moves() == len(legal_moves(state)), where
    for player in range(1, state.players + 1):
        assert engine.has_any_move(player) == has_legal_move(state, player), (where, player)
    assert engine.hash == engine.compute_hash(), where
    fresh = Engine.from_state(state)
    assert engine.hash == fresh.hash, where
    if state.phase == "build":
        # The adjacency counts, kept up to date by phase-1 moves (stale, and unused, in phase 2).
        assert engine.adjacent == fresh.adjacent, where
        if engine.front_on:
            # The free cells next to a stone, kept the same way (in any order).
            assert sorted(engine.front) == sorted(fresh.front), where
            assert all(engine.front_at[c] == i for i, c in enumerate(engine.front)), where
            assert sum(1 for i in engine.front_at if i >= 0) == len(engine.front), where
    assert engine.scores() == [state.board.count(str(p)) for p in range(1, state.players + 1)]


def probe_is_legal(engine: Engine, state: GameState, rng: random.Random) -> None:
    """`is_legal` agrees with `play` on a random target and special byte."""
    if state.width == 0 or state.height == 0:
        return
    special = rng.choice((0, 0, 0, 1, state.players, 9, 20, 21, 22))
    move = Move(rng.randrange(state.width), rng.randrange(state.height), special)
    try:
        play(state, move)
        legal = True
    except IllegalMoveError:
        legal = False
    if state.phase == "bomb":
        # The engine ignores the special byte of a bomb, as the rules do.
        assert engine.is_legal(engine.encode_move(Move(move.x, move.y))) == legal
    else:
        assert engine.is_legal(engine.encode_move(move)) == legal, (move, state.rows())


def play_random_game(text: str, seed: int, max_plies: int) -> None:
    """Play one random game on both implementations, comparing them at every step."""
    rng = random.Random(seed)
    state = parse_map(text)
    engine = Engine(read_map(text))
    start_hash = engine.hash
    history: List[GameState] = [state]
    hashes: List[int] = [engine.hash]
    check_same_position(engine, state, "initial position")
    for ply in range(max_plies):
        probe_is_legal(engine, state, rng)
        if rng.random() < 0.04:
            # A disqualification, of anybody, at any time (RULES.md 6).
            player = rng.randint(1, state.players)
            state = disqualify(state, player)
            engine.disqualify(player)
            where = "ply %d: disqualify %d" % (ply, player)
        elif state.phase == OVER:
            break
        else:
            move = rng.choice(engine.legal_moves())
            player = 0
            state = play(state, engine.decode_move(move))
            engine.make(move)
            where = "ply %d: %r" % (ply, engine.decode_move(move))
        check_same_position(engine, state, where)
        # unmake restores the position and hash exactly; then the same step is redone.
        after_hash = engine.hash
        engine.unmake()
        assert engine.to_state() == history[-1], where
        assert engine.hash == hashes[-1] == engine.compute_hash(), where
        if player:
            engine.disqualify(player)
        else:
            engine.make(move)
        assert engine.hash == after_hash, where
        history.append(state)
        hashes.append(engine.hash)
    # Taking back the whole game gives the initial position and hash.
    while engine.undo:
        engine.unmake()
    assert engine.to_state() == history[0]
    assert engine.hash == start_hash


def reference_perft(state: GameState, depth: int) -> int:
    """Perft (as Engine.perft defines it) computed with the readable rules."""
    if depth == 0 or state.phase == OVER:
        return 1
    return sum(reference_perft(play(state, move), depth - 1) for move in legal_moves(state))


@settings(RELAXED, max_examples=150)
@given(text=maps(max_size=9), seed=st.integers(0, 2 ** 32 - 1))
def test_engine_matches_rules_on_small_maps(text: str, seed: int) -> None:
    """RULES.md 2-6: random games on small random maps agree with the rules at every step."""
    play_random_game(text, seed, max_plies=40)


@settings(RELAXED, max_examples=60)
@given(text=maps(max_size=9), seed=st.integers(0, 2 ** 32 - 1))
def test_engine_with_front_matches_rules_on_small_maps(text: str, seed: int) -> None:
    """The same with the list of free cells next to a stone kept on every board (the engine
    keeps it only from FRONT_MIN_CELLS cells on)."""
    with mock.patch.object(core, "FRONT_MIN_CELLS", 0):
        play_random_game(text, seed, max_plies=40)


@settings(RELAXED, max_examples=12)
@given(text=maps(max_size=50, min_size=10, max_transitions=40),
       seed=st.integers(0, 2 ** 32 - 1))
def test_engine_matches_rules_on_large_maps(text: str, seed: int) -> None:
    """RULES.md 2-6: random games on maps up to 50x50 agree with the rules at every step."""
    play_random_game(text, seed, max_plies=6)


@settings(RELAXED, max_examples=60)
@given(text=maps(max_size=5, max_transitions=16))
def test_engine_perft_matches_rules(text: str) -> None:
    """RULES.md 3-5: the engine's perft equals perft computed with the rules, to depth 3."""
    state = parse_map(text)
    engine = Engine(read_map(text))
    for depth in range(4):
        want = reference_perft(state, depth)
        assert engine.perft(depth) == want
        assert engine.perft(depth, bulk=False) == want
    assert engine.to_state() == state and not engine.undo


@settings(RELAXED, max_examples=60)
@given(text=maps(max_size=9), seed=st.integers(0, 2 ** 32 - 1))
def test_load_state_equals_a_fresh_engine(text: str, seed: int) -> None:
    """RULES.md 1-6: an engine reloaded with any position of its map (earlier or later in the
    game, either phase, fewer holes than it started with) behaves as a fresh engine on it."""
    rng = random.Random(seed)
    game_map = read_map(text)
    engine = Engine(game_map)
    states = [engine.to_state()]
    for _ in range(30):
        if engine.is_over():
            break
        engine.make(rng.choice(engine.legal_moves()))
        states.append(engine.to_state())
    reused = Engine(states[-1])  # starts with the most holes, then goes back to fewer
    for state in reversed(states[::3] + [states[-1]]):
        reused.load_state(state)
        fresh = Engine.from_state(state)
        assert reused.to_state() == state and not reused.undo
        assert reused.hash == fresh.hash == reused.compute_hash()
        assert reused.legal_moves() == fresh.legal_moves()
        assert reused.perft(2) == fresh.perft(2)


@settings(RELAXED, max_examples=60)
@given(text=maps(max_size=9), seed=st.integers(0, 2 ** 32 - 1))
def test_moves_for_any_player_match_the_rules(text: str, seed: int) -> None:
    """RULES.md 3: legal_moves_for / count_moves_for / set_to_move give each player's phase-1
    moves as the rules do, with the hash consistent and unmake restoring the real mover;
    plain_mobility counts, for all players, the distinct targets of the moves that need no
    override stone (targets that are neither a stone nor an `x`)."""
    rng = random.Random(seed)
    state = parse_map(text)
    engine = Engine(read_map(text))
    for _ in range(12):
        if state.phase != "build":
            break
        mobility = [0] * (state.players + 1)
        engine.plain_mobility(mobility)
        for player in range(1, state.players + 1):
            want = building_moves(state, player)
            assert [engine.decode_move(m) for m in engine.legal_moves_for(player)] == want
            assert engine.count_moves_for(player) == len(want)
            plain = [m for m in want if state.cell(m.x, m.y) not in "12345678x"]
            assert mobility[player] == len({(m.x, m.y) for m in plain})
        move = rng.choice(engine.legal_moves())
        state = play(state, engine.decode_move(move))
        engine.make(move)
        if state.phase == "build":
            other = rng.randint(1, state.players)
            engine.set_to_move(other)
            assert engine.to_move == other and engine.hash == engine.compute_hash()
            assert engine.legal_moves() == engine.legal_moves_for(other)
            engine.unmake()
            engine.make(move)
            assert engine.to_state() == state and engine.hash == engine.compute_hash()


@pytest.mark.parametrize("path", REPO_MAPS, ids=[p.stem for p in REPO_MAPS])
def test_engine_matches_rules_on_repo_maps(path: Path) -> None:
    """RULES.md 2-6: random games on each map in maps/ agree with the rules at every step,
    and perft to depth 2 agrees too."""
    text = path.read_text()
    size = read_map(text)
    plies = 60 if size.width * size.height <= 400 else 8
    for seed in range(2):
        play_random_game(text, seed, max_plies=plies)
    assert Engine(size).perft(2) == reference_perft(parse_map(text), 2)


@pytest.mark.slow
@settings(RELAXED, max_examples=600)
@given(text=maps(max_size=14, max_transitions=30), seed=st.integers(0, 2 ** 32 - 1))
def test_engine_matches_rules_on_many_maps(text: str, seed: int) -> None:
    """RULES.md 2-6: the small-map comparison, with more and longer games."""
    play_random_game(text, seed, max_plies=150)


@pytest.mark.slow
@settings(RELAXED, max_examples=40)
@given(text=maps(max_size=50, min_size=20, max_transitions=60),
       seed=st.integers(0, 2 ** 32 - 1))
def test_engine_matches_rules_on_many_large_maps(text: str, seed: int) -> None:
    """RULES.md 2-6: the large-map comparison, with more and longer games."""
    play_random_game(text, seed, max_plies=30)
