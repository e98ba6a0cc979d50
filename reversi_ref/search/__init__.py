"""Search players' machinery over the fast engine (`reversi_ref.engine`).

- `analysis`: corner-like, edge-like and half-open cells of any map's geometry;
- `config`: the evaluation's weights (`EvalConfig`), tunable by the tournament;
- `evaluate`: the static evaluation, phase-aware, from one player's point of view;
- `alphabeta`: paranoid and best-reply alpha-beta with iterative deepening as a generator;
- `bombing`: the bombing phase's own search (paranoid beam search over the bombs left);
- `mcts`: Monte Carlo tree search with playouts cut off by the evaluation;
- `timing`: the per-move budget from the move request's time bank;
- `table`: the fixed-size transposition table; `position`: engines reused across moves;
- `context`: what a player keeps between moves.

The players themselves (`search`, `brs`, `mcts`) are in `reversi_ref.players`.
"""

from __future__ import annotations

from .alphabeta import BRS, MODES, PARANOID, Searcher
from .analysis import MapAnalysis
from .config import DEFAULT_CONFIG, EvalConfig
from .context import GameContext
from .evaluate import Evaluator
from .table import TranspositionTable
from .timing import Budget, plan_budget

__all__ = ["BRS", "Budget", "DEFAULT_CONFIG", "EvalConfig", "Evaluator", "GameContext",
           "MODES", "MapAnalysis", "PARANOID", "Searcher", "TranspositionTable", "plan_budget"]
