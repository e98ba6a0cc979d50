"""Differential fuzzing: random games against any engine, compared with the rules at every step.

Modules: `maps` (random maps covering every feature of RULES.md), `play` (a game played through
the adapter protocol of specs/README.md, every answer judged like a golden case), `shrink`
(delta debugging of a failing game down to a small one that fails the same way) and `command`
(the `reversi-ref fuzz` subcommand: seeds, parallel workers, progress, reports).  docs/fuzz.md
explains the use and gives the measurements.
"""

from __future__ import annotations

from .command import register
from .maps import FEATURES, generate_map
from .play import (Failure, GameRun, ProcessAnswerer, Script, StepChooser, generated_game,
                   play_game, run_generated)
from .shrink import Shrinker

__all__ = ["FEATURES", "Failure", "GameRun", "ProcessAnswerer", "Script", "Shrinker",
           "StepChooser", "generate_map", "generated_game", "play_game", "register",
           "run_generated"]
