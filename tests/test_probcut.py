"""ProbCut (`EvalConfig.probcut_margin`): a null-window node returns the mover's bound when a
search `probcut_reduction` plies shallower beats it by the margin."""

from __future__ import annotations

from dataclasses import replace
from typing import List

import pytest

from helpers import random_positions, searcher_for
from reversi_ref import legal_moves
from reversi_ref.search.config import DEFAULT_CONFIG
from reversi_ref.search.evaluate import INFINITY
from reversi_ref.state import GameState

MARGIN = 600
# Without the transposition table a node's work is the same whatever was searched before.
NO_TABLE = replace(DEFAULT_CONFIG, use_tt=False)


def _positions(name: str, seed: int) -> List[GameState]:
    """Phase-1 positions of a random game on a bundled map, every third from ply 6."""
    return random_positions(name, count=None, seed=seed)[6::3]


@pytest.mark.parametrize("side", ["mover", "opponent"])
def test_a_probe_beyond_the_margin_returns_the_bound_after_the_shallow_search_only(
        side: str) -> None:
    """Hand-derived from the shallow value v: with the mover's bound `MARGIN` + 500 points
    short of v, the probe's window lies on v's side, so the node returns that bound, and
    its nodes are one (itself) plus those of the shallow search (depth - 2, on the window
    moved by the margin), counted by a search without ProbCut."""
    state = _positions("othello8x8.map", 4)[3]
    assert state.to_move is not None
    root = state.to_move if side == "mover" else 3 - state.to_move
    depth = 5
    shallow = depth - 2
    on = replace(NO_TABLE, probcut_margin=MARGIN)

    plain = searcher_for(state, NO_TABLE, root)
    v = plain.paranoid(shallow, -INFINITY, INFINITY, 1)
    if side == "mover":  # a max node: its bound is beta
        alpha = v - MARGIN - 500
        bound = alpha + 1 + MARGIN
        probe_window = (bound - 1, bound)
        expected = alpha + 1
    else:  # a min node (the root's opponent moves): its bound is alpha
        alpha = v + MARGIN + 500
        bound = alpha - MARGIN
        probe_window = (bound, bound + 1)
        expected = alpha
    probe = searcher_for(state, NO_TABLE, root)  # fresh killers and history, as the node's own
    probe.paranoid(shallow, probe_window[0], probe_window[1], 1)

    cut = searcher_for(state, on, root)
    assert cut.paranoid(depth, alpha, alpha + 1, 1) == expected
    assert cut.nodes == 1 + probe.nodes


def test_a_margin_no_value_reaches_changes_no_value() -> None:
    """With a margin beyond any value, every probe fails: the full-window value of each
    position is the one the search without ProbCut finds, after more nodes (the probes)."""
    for state in _positions("othello8x8.map", 4)[:8]:
        plain = searcher_for(state, NO_TABLE)
        exact = plain.paranoid(5, -INFINITY, INFINITY, 1)
        cut = searcher_for(state, replace(NO_TABLE, probcut_margin=10 ** 9))
        assert cut.paranoid(5, -INFINITY, INFINITY, 1) == exact
        assert cut.nodes > plain.nodes


@pytest.mark.parametrize("name", ["othello8x8.map", "mirror.map"])
def test_probcut_searches_fewer_nodes_and_plays_legal_moves(name: str) -> None:
    """To a fixed depth, ProbCut at a margin of six stones visits fewer nodes over these
    positions than the search without it, and every move it picks is legal (RULES.md 3)."""
    nodes = {0: 0, MARGIN: 0}
    for state in _positions(name, 11)[::4]:
        for margin in nodes:
            searcher = searcher_for(state, replace(DEFAULT_CONFIG, probcut_margin=margin))
            best = -1
            for _, best, _, _ in searcher.iterate(6):
                pass
            nodes[margin] += searcher.nodes
            assert searcher.engine.decode_move(best) in legal_moves(state)
    assert nodes[MARGIN] < nodes[0]


def test_probcut_is_off_with_three_players() -> None:
    """ProbCut is for two players: on a three-player map the switch changes neither the
    nodes nor the value."""
    for state in _positions("sparks3p.map", 2)[:6]:
        off = searcher_for(state, DEFAULT_CONFIG)
        on = searcher_for(state, replace(DEFAULT_CONFIG, probcut_margin=MARGIN))
        assert list(off.iterate(4)) == list(on.iterate(4))
