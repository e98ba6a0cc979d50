"""Perft of the fast engine on Othello, against the published Othello perft counts.

The published counts (Aart Bik, "Perft for Reversi", aartbik.blogspot.com, February 2009: 4,
12, 56, 244, 1396, 8200, 55092, 390216, 3005288) count a forced pass as a ply; passes first
occur at depth 9.  Our perft (Engine.perft) lets skipped players take no ply (RULES.md 4);
no pass occurs within 8 plies of the Othello start, so depths 1-8 must match exactly, and
depth 9 is checked with a pass-counting walk over the engine.
"""

from __future__ import annotations

import pytest

from helpers import map_text
from reversi_ref import read_map
from reversi_ref.engine import Engine

OTHELLO_CELLS = """
    0 0 0 0 0 0 0 0
    0 0 0 0 0 0 0 0
    0 0 0 0 0 0 0 0
    0 0 0 2 1 0 0 0
    0 0 0 1 2 0 0 0
    0 0 0 0 0 0 0 0
    0 0 0 0 0 0 0 0
    0 0 0 0 0 0 0 0
"""
PUBLISHED = {1: 4, 2: 12, 3: 56, 4: 244, 5: 1396, 6: 8200, 7: 55092, 8: 390216, 9: 3005288}


def othello() -> Engine:
    """The Othello start position: two players, no overrides, no bombs, player 1 first."""
    return Engine(read_map(map_text(OTHELLO_CELLS)))


def perft_with_passes(engine: Engine, depth: int) -> int:
    """Othello-style perft: a forced pass is a ply, a finished game has no leaves below it."""
    if depth == 0:
        return 1
    if engine.is_over():
        return 0
    mover = engine.to_move
    total = 0
    for move in engine.legal_moves():
        engine.make(move)
        if depth == 1:
            total += 1
        elif not engine.is_over():
            # The engine skipped the opponent, who had to pass: that pass is one ply.
            passed = engine.to_move == mover
            total += perft_with_passes(engine, depth - 2) if passed else perft_with_passes(
                engine, depth - 1)
        engine.unmake()
    return total


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5, 6])
def test_othello_perft_matches_published_counts(depth: int) -> None:
    """RULES.md 3-4: perft from the Othello start equals the published counts."""
    engine = othello()
    assert engine.perft(depth) == PUBLISHED[depth]
    assert engine.perft(depth, bulk=False) == PUBLISHED[depth]
    assert not engine.undo and engine.hash == engine.compute_hash()


@pytest.mark.slow
@pytest.mark.parametrize("depth", [7, 8])
def test_othello_perft_matches_published_counts_deeper(depth: int) -> None:
    """RULES.md 3-4: perft from the Othello start equals the published counts at depth 7-8."""
    assert othello().perft(depth) == PUBLISHED[depth]


@pytest.mark.slow
def test_othello_perft_counting_passes_matches_published_depth_9() -> None:
    """RULES.md 4: at depth 9 the first forced passes appear; counting each as a ply, as the
    published count does, gives the published 3005288."""
    assert perft_with_passes(othello(), 9) == PUBLISHED[9]
