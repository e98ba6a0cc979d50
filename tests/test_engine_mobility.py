"""The engine's incremental plain mobility against counts made from scratch.

`Engine.plain_mobility` keeps, between calls, which players capture along each line from
each free cell, and walks again only the lines through cells that make/unmake changed.  Here
random sequences of makes, unmakes, disqualifications and changes of mover run on random and
real maps, and after each step the kept count must equal the count of a fresh engine built
from the same position (nothing kept) and, on small maps, the count the readable rules give
(the distinct targets of each player's moves that need no override stone).  The same pass
counts each player's frontier (`Engine.mobility_and_frontier`, the two-player evaluation's
count); on small maps that is checked against the free cells the readable rules' walk finds
next to each player's stones.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import List, Set, Tuple
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reversi_ref import read_map
from reversi_ref.engine import BUILD, Engine, core
from reversi_ref.rules import building_moves
from reversi_ref.rules import walking
from helpers import make_state
from strategies import maps

RELAXED = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                         HealthCheck.data_too_large])

SHARED_MAPS = Path(__file__).resolve().parents[2] / "shared" / "maps"
REAL_MAPS = ["fightclub__comp2020_02_4p", "fightclub__2013_comp_5_2p",
             "matchpoint__frequentlyPlayed__comp2023_01_8p", "compMaps__comp2024_04_2p"]


def fresh_mobility(engine: Engine) -> List[int]:
    """plain_mobility of a new engine on the same position: nothing kept from before."""
    out = [0] * 9
    Engine.from_state(engine.to_state()).mobility_from_scratch(out)
    return out[:engine.players + 1]


def rules_mobility(engine: Engine) -> List[int]:
    """Per player, the distinct targets of its moves that need no override stone, by the
    readable rules (RULES.md 3)."""
    state = engine.to_state()
    out = [0]
    for player in range(1, engine.players + 1):
        moves = building_moves(state, player)
        out.append(len({(m.x, m.y) for m in moves if state.cell(m.x, m.y) not in "12345678x"}))
    return out


def rules_frontier(engine: Engine) -> List[int]:
    """Per player, the free cells (empty or a choice, inversion or bonus tile) one step from
    one of its stones, by the readable rules' walk (RULES.md 2, transitions included)."""
    state = engine.to_state()
    near: List[Set[Tuple[int, int]]] = [set() for _ in range(engine.players + 1)]
    for y in range(state.map.height):
        for x in range(state.map.width):
            if state.cell(x, y) not in "0cib":
                continue
            for direction in range(8):
                landed = walking.step(state, x, y, direction)
                if landed is not None:
                    cell = state.cell(landed[0], landed[1])
                    if cell in "12345678"[:engine.players]:
                        near[int(cell)].add((x, y))
    return [len(cells) for cells in near]


def check_one_pass(engine: Engine, kept: List[int], by_rules: bool) -> None:
    """mobility_and_frontier: the kept mobility, the frontier `Engine.frontier` counts alone
    and, on small maps, the frontier the readable rules give."""
    mobility = [0] * 9
    frontier = [0] * 9
    engine.mobility_and_frontier(mobility, frontier)
    assert mobility[:engine.players + 1] == kept
    alone = [0] * 9
    engine.frontier(alone)
    assert alone == frontier
    if by_rules:
        assert frontier[1:engine.players + 1] == rules_frontier(engine)[1:]


# Three players.  The free cell (3, 1) is reached by player 3's stone only to the north-west,
# the last of its eight lines; by then the lines east (2 1) and west (1 2 3) have shown that
# all three players capture there.
LAST_NEIGHBOUR = """
    - - 3 - - - -
    3 2 1 0 2 1 -
"""


def test_one_pass_counts_a_neighbour_met_after_every_capture() -> None:
    """Worked by hand: one free cell, a move there for each of the three players, and each
    player's stone next to it."""
    engine = Engine(make_state(LAST_NEIGHBOUR, players=3))
    mobility = [0] * 9
    frontier = [0] * 9
    engine.mobility_and_frontier(mobility, frontier)
    assert mobility[1:4] == [1, 1, 1] == rules_mobility(engine)[1:]
    assert frontier[1:4] == [1, 1, 1] == rules_frontier(engine)[1:]


def random_walk(engine: Engine, seed: int, steps: int, by_rules: bool) -> None:
    """Random makes and unmakes (some disqualifications and changes of mover), asking for
    plain_mobility at random moments and checking it against counts from scratch."""
    rng = random.Random(seed)
    out = [0] * 9
    for step in range(steps):
        roll = rng.random()
        if engine.undo and (roll < 0.35 or engine.phase != BUILD):
            engine.unmake()
        elif roll < 0.38:
            engine.disqualify(rng.randint(1, engine.players))
        else:
            moves = engine.legal_moves()
            if moves:
                engine.make(rng.choice(moves))
            if roll > 0.9 and engine.phase == BUILD:
                engine.set_to_move(rng.randint(1, engine.players))
        if engine.phase == BUILD and rng.random() < 0.6:
            engine.plain_mobility(out)
            kept = out[:engine.players + 1]
            assert kept == fresh_mobility(engine), step
            if by_rules:
                assert kept == rules_mobility(engine), step
            check_one_pass(engine, kept, by_rules)


@settings(RELAXED, max_examples=60)
@given(text=maps(max_size=9), seed=st.integers(0, 2 ** 32 - 1),
       front=st.booleans())
def test_kept_mobility_equals_counts_from_scratch(text: str, seed: int, front: bool) -> None:
    """On small random maps (2-8 players, transitions, every tile), with and without the
    list of free cells next to a stone, and for two players too."""
    with mock.patch.object(core, "MOBILITY_MIN_PLAYERS", 2), \
            mock.patch.object(core, "FRONT_MIN_CELLS", 0 if front else 10 ** 9):
        random_walk(Engine(read_map(text)), seed, 60, by_rules=True)


@settings(RELAXED, max_examples=6)
@given(text=maps(max_size=30, min_size=16, min_players=3, max_transitions=40),
       seed=st.integers(0, 2 ** 32 - 1))
def test_kept_mobility_on_larger_maps(text: str, seed: int) -> None:
    """On random maps up to 30x30 with three players or more (the engine's own setting)."""
    random_walk(Engine(read_map(text)), seed, 40, by_rules=False)


@pytest.mark.parametrize("name", REAL_MAPS)
def test_kept_mobility_on_real_maps(name: str) -> None:
    """On real competition maps (skipped without ../shared/maps), two players included."""
    path = SHARED_MAPS / (name + ".map")
    if not path.is_file():
        pytest.skip("%s is not there" % path)
    with mock.patch.object(core, "MOBILITY_MIN_PLAYERS", 2):
        engine = Engine(read_map(path.read_text()))
        random_walk(engine, 7, 30 if engine.cells > 2000 else 100, by_rules=False)
