"""The rules of ReversiXT as a readable, executable specification.

The rules text is docs/rules.md, in sections numbered as the project's rules reference; a
docstring or an error message citing `RULES.md 3` means its section 3.  Modules follow the
sections: `walking` (2), `building` (3), `turns` (4), `bombing` (5), `disqualification` (6),
`scoring` (7), and `game`, which ties them into `play` (docs/rules.md#the-whole-game).  Nothing
here is tuned for speed; the fast engine in `reversi_ref.engine` is checked against this code.
"""

from __future__ import annotations

from .bombing import apply_bomb, blast_cells, bomb_target_error, bombing_moves
from .building import (apply_building_move, building_moves, building_target_error,
                       building_targets, capture_targets, captured_cells,
                       captures_in_direction, has_building_move, has_capture,
                       is_legal_building_target, special_error, specials_for)
from .disqualification import disqualify
from .game import check_move, initial_state, legal_moves, play
from .scoring import Standing, printed_scores, ranking, scores, seat_stones
from .turns import (candidates_after, has_bomb, has_legal_move, is_bombing_possible,
                    next_player, pass_turn, start_game)
from .walking import step, steps_into

__all__ = [
    "apply_bomb", "apply_building_move", "blast_cells", "bomb_target_error", "bombing_moves",
    "building_moves", "building_target_error", "building_targets", "capture_targets",
    "candidates_after", "captured_cells",
    "captures_in_direction", "check_move", "disqualify", "has_bomb", "has_building_move",
    "has_capture", "has_legal_move", "initial_state", "is_bombing_possible",
    "is_legal_building_target", "legal_moves", "next_player", "pass_turn", "play",
    "printed_scores", "ranking", "scores", "seat_stones", "special_error", "specials_for",
    "Standing", "start_game", "step", "steps_into",
]
