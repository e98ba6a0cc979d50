"""RULES.md 3: the capture lines walked back from the mover's stones (`capture_targets`, which
`legal_moves` uses) against the same lines walked forwards from each cell (`has_capture`, which
`play` uses to check a move), on random maps and random games."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reversi_ref import legal_moves, parse_map, play
from reversi_ref.rules import capture_targets, has_capture
from strategies import maps


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=maps(max_size=8, max_transitions=16), seed=st.integers(0, 2 ** 32 - 1))
def test_capture_targets_match_the_forward_lines(text: str, seed: int) -> None:
    """RULES.md 3: `capture_targets` is exactly the set of non-hole cells from which
    `has_capture` finds a capturing line, for every player, along a random game (with override
    stones in hand, so that stones are targets too)."""
    rng = random.Random(seed)
    state = parse_map(text)
    state = dataclasses.replace(state, overrides=(3,) * state.players)
    for _ in range(10):
        for player in range(1, state.players + 1):
            expected = {(x, y) for y in range(state.height) for x in range(state.width)
                        if state.cell(x, y) != "-" and has_capture(state, player, x, y)}
            assert capture_targets(state, player) == expected, player
        moves = legal_moves(state)
        if not moves:
            break
        state = play(state, rng.choice(moves))
