"""The game as a whole: the initial state, the legal moves and `play`, which ties RULES.md 3-6
together into one transition function.

Rules text: docs/rules.md#the-whole-game.
"""

from __future__ import annotations

from typing import List

from ..errors import IllegalMoveError
from ..geometry import Map
from ..state import BOMB, BUILD, GameState, Move
from .bombing import apply_bomb, bombing_moves, check_bomb
from .building import apply_building_move, building_moves, check_building_move
from .turns import pass_turn, start_game


def initial_state(game_map: Map) -> GameState:
    """RULES.md 1 and 4: the position before the first move on `game_map`."""
    n = game_map.players
    state = GameState(
        map=game_map,
        board=game_map.cells,
        overrides=(game_map.overrides,) * n,
        bombs=(game_map.bombs,) * n,
        disqualified=frozenset(),
        phase=BUILD,
        to_move=None,
    )
    return start_game(state)


def legal_moves(state: GameState) -> List[Move]:
    """RULES.md 3 and 5: the legal moves of the player to move, sorted by (y, x, special)."""
    if state.to_move is None:
        return []
    if state.phase == BUILD:
        return building_moves(state, state.to_move)
    if state.phase == BOMB:
        return bombing_moves(state)
    return []


def check_move(state: GameState, move: Move) -> int:
    """RULES.md 3, 5 and 6: raise IllegalMoveError unless `move` is legal; return the mover."""
    player = state.to_move
    # Nobody moves once the game is over.
    if player is None:
        raise IllegalMoveError("RULES.md 4-5: the game is over", "no player is to move")
    # The target must lie on the board.
    if not state.map.is_on_board(move.x, move.y):
        raise IllegalMoveError("RULES.md 6: the target is off the board",
                               "(%d, %d) on a %dx%d board"
                               % (move.x, move.y, state.width, state.height))
    # The special byte is one byte on the wire.
    if not 0 <= move.special <= 255:
        raise IllegalMoveError("RULES.md 8: the special byte must be 0..255",
                               "special %d" % move.special)
    if state.phase == BUILD:
        check_building_move(state, player, move)
    else:
        check_bomb(state, player, move)
    return player


def play(state: GameState, move: Move) -> GameState:
    """RULES.md 3-5: the state after the player to move plays `move`; `state` is not changed.

    Raises IllegalMoveError, naming the rule broken, when the move is not legal.
    """
    move = Move(*move)
    player = check_move(state, move)
    if state.phase == BUILD:
        after = apply_building_move(state, player, move)
    else:
        after = apply_bomb(state, player, move)
    return pass_turn(after, after=player)
