"""RULES.md 6: disqualification.

Rules text: docs/rules.md#6-disqualification.
"""

from __future__ import annotations

from dataclasses import replace

from ..state import OVER, GameState
from .turns import pass_turn


def disqualify(state: GameState, player: int) -> GameState:
    """RULES.md 6: `player` is never asked again; its stones stay as ordinary stones.

    When the disqualified player was the one asked, the turn passes as after any turn; when
    only one player is left, the game ends at once.
    """
    if not 1 <= player <= state.players:
        raise ValueError("no player %d in a %d-player game" % (player, state.players))
    after = replace(state, disqualified=state.disqualified | {player})
    if state.phase == OVER:
        return after
    # A sole remaining player ends the game at once.
    if len(after.active_players()) <= 1:
        return replace(after, phase=OVER, to_move=None)
    if state.to_move == player:
        return pass_turn(after, after=player)
    return after
