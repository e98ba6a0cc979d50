"""A move without a time limit still ends: the hard deadline NO_LIMIT_SECONDS after its start
(stop 73: a depth-3 search at the end of phase 1, with override stones in hand, ran past a
referee's 600 s)."""

from __future__ import annotations

from helpers import build
from reversi_ref.engine import Engine
from reversi_ref.search.config import DEFAULT_CONFIG
from reversi_ref.search.context import NO_LIMIT_SECONDS, GameContext
from reversi_ref.search.timing import NO_DEADLINE


def test_no_time_limit_has_no_soft_deadline_and_a_hard_cap() -> None:
    """Bank 0: no soft deadline (the search goes its full depth), a hard one at the cap."""
    context = GameContext(DEFAULT_CONFIG)
    engine = Engine(build("0 1 2 0", players=2))
    deadlines = context.deadlines(1000.0, 0, engine, 1)
    assert deadlines.soft == NO_DEADLINE and deadlines.soft_unsure == NO_DEADLINE
    assert deadlines.hard == deadlines.hard_unsure == 1000.0 + NO_LIMIT_SECONDS
    assert 60.0 <= NO_LIMIT_SECONDS < 600.0  # well inside `serve --wait`'s default


def test_a_bank_keeps_its_planned_deadlines() -> None:
    """With a bank, both deadlines come from the plan and lie within the bank."""
    context = GameContext(DEFAULT_CONFIG)
    engine = Engine(build("0 1 2 0", players=2))
    deadlines = context.deadlines(1000.0, 1000, engine, 1)
    assert 1000.0 < deadlines.soft <= deadlines.hard <= 1001.0
