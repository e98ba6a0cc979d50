"""The bombing phase (RULES.md 5): where to drop a bomb to gain places.

Every target is tried (make, evaluate, unmake) and valued by `Evaluator.bombing_value`: the
root's stones against the players just above and just below it in the ranking, plus a bonus
per place.  A bomb that removes stones of the player just ahead (to catch up) or just behind
(to stay ahead) scores; a bomb on a player who is out of reach, or on the root's own stones,
does not.

Targets whose blast removes nothing that counts (only empty cells and holes' neighbours) all
get the same value; the first of them in move order is kept, so the choice is deterministic.
"""

from __future__ import annotations

import time
from typing import Callable, NamedTuple

from ..engine import BOMB
from ..engine.core import Engine
from .evaluate import INFINITY, Evaluator

Clock = Callable[[], float]
# The clock is read once every this many targets (a blast can cover the whole board, so a
# target can cost as much as a small search node).
CHECK_EVERY = 4
NO_DEADLINE = float("inf")


class BombChoice(NamedTuple):
    """The chosen target (an engine move), its value and the number of targets tried."""

    move: int
    value: int
    nodes: int
    complete: bool


def choose_bomb(engine: Engine, evaluator: Evaluator, root: int, deadline: float = NO_DEADLINE,
                clock: Clock = time.monotonic) -> BombChoice:
    """The best bomb target for `root`, who must be the player to move in the bombing phase;
    stops at `deadline` (clock seconds) with the best target found so far."""
    if engine.phase != BOMB or engine.to_move != root:
        raise ValueError("choose_bomb: player %d is not the one to bomb" % root)
    moves = engine.legal_moves()
    best_move = moves[0]
    best_value = -INFINITY
    tried = 0
    complete = True
    for m in moves:
        if tried % CHECK_EVERY == CHECK_EVERY - 1 and clock() >= deadline:
            complete = False
            break
        engine.make(m)
        value = evaluator.evaluate(root)
        engine.unmake()
        tried += 1
        if value > best_value:
            best_value = value
            best_move = m
    return BombChoice(best_move, best_value, tried, complete)
