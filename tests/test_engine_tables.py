"""The fast engine's per-map tables against the readable rules (RULES.md 2).

The step table and the incoming-step lists are built by slice assignment and inverse look-ups
(fast on 1000x1000 maps); here they are compared, entry by entry, with `rules.walking.step`
walked one cell and direction at a time, on random maps with holes and transitions.
"""

from __future__ import annotations

from collections import Counter
from typing import Dict, List

from hypothesis import HealthCheck, given, settings

from reversi_ref import read_map
from reversi_ref.bigmap import big_map
from reversi_ref.engine import HOLE, Engine
from reversi_ref.engine.tables import MixedCellKeys
from reversi_ref.rules import initial_state, step, steps_into
from reversi_ref.rules.walking import Position
from strategies import maps

RELAXED = settings(deadline=None, max_examples=40,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@RELAXED
@given(text=maps(max_size=12, max_transitions=20))
def test_step_table_matches_the_rules(text: str) -> None:
    """RULES.md 2: every entry of the step table is the rules' step (or -1 for none)."""
    state = initial_state(read_map(text))
    engine = Engine(state.map)
    width = state.width
    for y in range(state.height):
        for x in range(width):
            for d in range(8):
                entry = engine.nxt[(y * width + x) * 8 + d]
                if state.cell(x, y) == "-":
                    assert entry == -1
                    continue
                landed = step(state, x, y, d)
                expected = (-1 if landed is None
                            else (landed[1] * width + landed[0]) * 8 + landed[2])
                assert entry == expected, (x, y, d)


@RELAXED
@given(text=maps(max_size=12, max_transitions=20))
def test_incoming_steps_and_adjacency_match_the_rules(text: str) -> None:
    """RULES.md 2: `incoming` lists, for each cell, the cells with a step onto it, and
    `adjacent` counts each cell's steps onto a stone or an expansion stone."""
    state = initial_state(read_map(text))
    engine = Engine(state.map)
    width = state.width
    expected_in: Dict[int, Counter[int]] = {c: Counter() for c in range(engine.cells)}
    expected_adjacent: List[int] = [0] * engine.cells
    for y in range(state.height):
        for x in range(width):
            if state.cell(x, y) == "-":
                continue
            for d in range(8):
                landed = step(state, x, y, d)
                if landed is not None:
                    expected_in[landed[1] * width + landed[0]][y * width + x] += 1
                    if state.cell(landed[0], landed[1]) in "12345678x":
                        expected_adjacent[y * width + x] += 1
    for c in range(engine.cells):
        got = Counter(engine.incoming[engine.incoming_start[c]:engine.incoming_start[c + 1]])
        assert got == expected_in[c], c
    assert engine.adjacent == expected_adjacent


@RELAXED
@given(text=maps(max_size=12, max_transitions=20))
def test_steps_into_undoes_a_step(text: str) -> None:
    """RULES.md 2: `steps_into` finds exactly the positions whose step lands on a position
    (on a map's own board, so at most one)."""
    state = initial_state(read_map(text))
    sources: Dict[Position, List[Position]] = {}
    for y in range(state.height):
        for x in range(state.width):
            if state.cell(x, y) == "-":
                continue
            for d in range(8):
                landed = step(state, x, y, d)
                if landed is not None:
                    sources.setdefault(landed, []).append((x, y, d))
    for y in range(state.height):
        for x in range(state.width):
            if state.cell(x, y) == "-":
                continue
            for heading in range(8):
                found = steps_into(state, x, y, heading)
                assert found == sources.get((x, y, heading), []), (x, y, heading)
                assert len(found) <= 1


def test_holes_cut_steps_both_ways() -> None:
    """RULES.md 2: no step leaves or enters a hole; a transition over a hole is followed."""
    text = "2\n0\n0 0\n3 3\n0 0 0\n0 - 0\n1 2 0\n1 0 4 <-> 1 2 0\n"
    engine = Engine(read_map(text))
    centre = 4
    assert engine.board[centre] == HOLE
    assert all(engine.nxt[centre * 8 + d] == -1 for d in range(8))
    assert all(k >> 3 != centre for k in engine.nxt if k >= 0)
    # South from (1, 0) jumps the hole to (1, 2), going on south... off the board's edge next.
    assert engine.nxt[1 * 8 + 4] == (2 * 3 + 1) * 8 + 4


def test_large_map_hash_is_kept_incrementally() -> None:
    """Maps over 65,536 cells compute cell keys on demand (0 for the map's own code): the
    incremental hash still equals the hash from scratch, of this engine and of a new engine
    loaded with the same position, and tells the positions of a short game apart."""
    engine = Engine(big_map("start", 300))
    keys = engine.zobrist.cell
    assert isinstance(keys, MixedCellKeys)
    drawn = [keys[c * 16 + code] for c in range(0, 90000, 97) for code in range(14)]
    own = [keys[c * 16 + engine.board[c]] for c in range(0, 90000, 97)]
    assert own == [0] * len(own)
    others = [k for k in drawn if k != 0]
    assert len(others) == len(drawn) - len(own)
    assert len(set(others)) == len(others)
    assert all(-(1 << 63) <= k < (1 << 63) for k in others)
    seen = [engine.hash]
    assert engine.hash == engine.compute_hash()
    for _ in range(6):
        engine.make(engine.legal_moves()[0])
        assert engine.hash == engine.compute_hash()
        assert Engine(engine.to_state()).hash == engine.hash
        seen.append(engine.hash)
    assert len(set(seen)) == len(seen)
    for expected in reversed(seen[:-1]):
        engine.unmake()
        assert engine.hash == expected
