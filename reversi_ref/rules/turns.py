"""RULES.md 4: turn order, skipping, the start of the game and the end of phase 1.

Rules text: docs/rules.md#4-turn-order-and-the-end-of-the-building-phase.
"""

from __future__ import annotations

from dataclasses import replace
from typing import List, Optional

from ..geometry import HOLE
from ..state import BOMB, BUILD, OVER, GameState
from .building import has_building_move


def candidates_after(state: GameState, player: int) -> List[int]:
    """RULES.md 4: the players after `player` in cyclic order, `player` itself last."""
    n = state.players
    return [(player + k - 1) % n + 1 for k in range(1, n + 1)]


def has_legal_move(state: GameState, player: int) -> bool:
    """RULES.md 4: whether `player` is still in the game and has a move in the current phase."""
    if player in state.disqualified:
        return False
    if state.phase == BUILD:
        return has_building_move(state, player)
    if state.phase == BOMB:
        return has_bomb(state, player)
    return False


def has_bomb(state: GameState, player: int) -> bool:
    """RULES.md 5: whether `player` has at least one bomb in hand."""
    return state.bombs[player - 1] >= 1


def next_player(state: GameState, after: int) -> Optional[int]:
    """RULES.md 4 and 5: the first player after `after` (cyclically, `after` last) who can move
    in the current phase, or None when nobody can."""
    for player in candidates_after(state, after):
        if has_legal_move(state, player):
            return player
    return None


def has_non_hole_cell(state: GameState) -> bool:
    """RULES.md 5: whether any cell is left that is not a hole."""
    return any(cell != HOLE for cell in state.board)


def is_bombing_possible(state: GameState) -> bool:
    """RULES.md 4 and 5: whether someone still in the game has a bomb and a target is left."""
    return has_non_hole_cell(state) and any(
        has_bomb(state, p) for p in state.active_players())


def pass_turn(state: GameState, after: int) -> GameState:
    """RULES.md 4 and 5: after `after`'s turn, ask the next player who can move, change from
    phase 1 to phase 2 when nobody can build, and end the game when nobody can bomb."""
    if state.phase == BUILD:
        player = next_player(state, after)
        if player is not None:
            return replace(state, to_move=player)
        return start_bombing(state, after)
    if state.phase == BOMB and is_bombing_possible(state):
        return replace(state, to_move=next_player(state, after))
    return replace(state, phase=OVER, to_move=None)


def start_bombing(state: GameState, after: int) -> GameState:
    """RULES.md 4: phase 1 is over; phase 2 starts if anyone in the game has a bomb, with the
    order continuing after `after`, the player of the last phase-1 turn."""
    bombing = replace(state, phase=BOMB)
    if not is_bombing_possible(bombing):
        return replace(state, phase=OVER, to_move=None)
    return replace(bombing, to_move=next_player(bombing, after))


def start_game(state: GameState) -> GameState:
    """RULES.md 4: player 1 moves first, else the next player who can; if nobody can build the
    game starts in phase 2 with player 1 (or is over at once without bombs)."""
    return pass_turn(replace(state, phase=BUILD, to_move=None), after=state.players)
