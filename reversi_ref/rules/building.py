"""RULES.md 3: the building phase: capture lines, legal moves and a move's effect.

Rules text: docs/rules.md#3-the-building-phase.
"""

from __future__ import annotations

from dataclasses import replace
from typing import List, Optional, Tuple

from ..errors import IllegalMoveError
from ..geometry import BONUS, CHOICE, EMPTY, EXPANSION, HOLE, INVERSION, PLAYER_STONES, Cell
from ..state import BONUS_BOMB, BONUS_OVERRIDE, NO_SPECIAL, GameState, Move
from .walking import step

# Tiles a move may be placed on without an override stone.
FREE_TILES = (EMPTY, CHOICE, INVERSION, BONUS)
BONUS_SPECIALS = (BONUS_BOMB, BONUS_OVERRIDE)


def stone_of(player: int) -> str:
    """The map-file character of `player`'s stone."""
    return str(player)


def owner(cell: str) -> Optional[int]:
    """The player whose stone `cell` holds, or None for any other tile."""
    return int(cell) if cell in PLAYER_STONES else None


def is_stone(cell: str) -> bool:
    """Whether `cell` holds a player's stone."""
    return cell in PLAYER_STONES


def is_collectable(cell: str, player: int) -> bool:
    """RULES.md 3: a capture line collects other players' stones (disqualified ones too) and `x`."""
    return cell == EXPANSION or (is_stone(cell) and cell != stone_of(player))


def increment_count(count: int) -> int:
    """RULES.md 3: counts in hand are 8-bit, so 255 + 1 = 0."""
    return (count + 1) % 256


# --------------------------------------------------------------------------- capture lines


def captures_in_direction(state: GameState, player: int, x: int, y: int,
                          direction: int) -> List[Cell]:
    """RULES.md 3: the cells `player` captures in `direction` by placing on (x, y); [] if none."""
    collected: List[Cell] = []
    mine = stone_of(player)
    position = step(state, x, y, direction)
    while position is not None:
        cx, cy, heading = position
        # A line never closes through the target, whatever the target holds.
        if cx == x and cy == y:
            return []
        cell = state.cell(cx, cy)
        # The line ends at the mover's first stone; it captures what it collected before it.
        if cell == mine:
            return collected
        # Other players' stones and expansion stones are collected (possibly twice in a loop).
        if is_collectable(cell, player):
            collected.append((cx, cy))
        else:
            # An empty, choice, inversion or bonus cell ends the line without a capture.
            return []
        position = step(state, cx, cy, heading)
    # The edge or a hole ends the line without a capture.
    return []


def captured_cells(state: GameState, player: int, x: int, y: int) -> List[Cell]:
    """RULES.md 3: every cell captured by placing on (x, y), over all eight directions."""
    cells: List[Cell] = []
    for direction in range(8):
        for cell in captures_in_direction(state, player, x, y, direction):
            if cell not in cells:
                cells.append(cell)
    return cells


def has_capture(state: GameState, player: int, x: int, y: int) -> bool:
    """RULES.md 3: whether at least one direction captures from (x, y)."""
    for direction in range(8):
        if captures_in_direction(state, player, x, y, direction):
            return True
    return False


# --------------------------------------------------------------------------- legal moves


def building_target_error(state: GameState, player: int, x: int, y: int) -> Optional[str]:
    """RULES.md 3: why `player` may not place on (x, y), or None when the target is legal."""
    cell = state.cell(x, y)
    # A hole is never a legal target.
    if cell == HOLE:
        return "RULES.md 3: a hole is never a legal target"
    has_override = state.overrides[player - 1] >= 1
    # The expansion rule: an `x` is always legal with an override stone in hand.
    if cell == EXPANSION:
        if not has_override:
            return "RULES.md 3: placing on an expansion stone needs an override stone"
        return None
    # Any stone, the mover's own included, needs an override stone and a capture.
    if is_stone(cell) and not has_override:
        return "RULES.md 3: placing on a stone needs an override stone"
    # Empty and special tiles, and stones with an override in hand, need a capture.
    if not has_capture(state, player, x, y):
        return "RULES.md 3: the move captures in no direction"
    return None


def is_legal_building_target(state: GameState, player: int, x: int, y: int) -> bool:
    """RULES.md 3: whether `player` may place a stone on (x, y)."""
    return building_target_error(state, player, x, y) is None


def specials_for(state: GameState, x: int, y: int) -> Tuple[int, ...]:
    """RULES.md 3: the special bytes a move on (x, y) may carry: a player on `c`, 20/21 on `b`."""
    cell = state.cell(x, y)
    if cell == CHOICE:
        return tuple(range(1, state.players + 1))
    if cell == BONUS:
        return BONUS_SPECIALS
    return (NO_SPECIAL,)


def building_moves(state: GameState, player: int) -> List[Move]:
    """RULES.md 3: every legal building-phase move of `player`, sorted by (y, x, special)."""
    moves: List[Move] = []
    for y in range(state.height):
        for x in range(state.width):
            if is_legal_building_target(state, player, x, y):
                moves.extend(Move(x, y, special) for special in specials_for(state, x, y))
    return moves


def has_building_move(state: GameState, player: int) -> bool:
    """RULES.md 3 and 4: whether `player` has at least one legal building move."""
    return any(is_legal_building_target(state, player, x, y)
               for y in range(state.height) for x in range(state.width))


def special_error(state: GameState, move: Move) -> Optional[str]:
    """RULES.md 3 (special byte validity): why `move`'s special byte is invalid, or None."""
    cell = state.cell(move.x, move.y)
    if cell == CHOICE:
        if not 1 <= move.special <= state.players:
            return "RULES.md 3: a choice move must name a player 1..%d" % state.players
    elif cell == BONUS:
        if move.special not in BONUS_SPECIALS:
            return "RULES.md 3: a bonus move must choose 20 (bomb) or 21 (override stone)"
    elif move.special != NO_SPECIAL:
        return "RULES.md 3: the special byte must be 0 except on a choice or bonus tile"
    return None


# --------------------------------------------------------------------------- a move's effect


def apply_choice(board: List[str], player: int, named: int) -> None:
    """RULES.md 3 (choice): the mover's and the named player's stones swap owners everywhere."""
    mine, theirs = stone_of(player), stone_of(named)
    for index, cell in enumerate(board):
        if cell == mine:
            board[index] = theirs
        elif cell == theirs:
            board[index] = mine


def apply_inversion(board: List[str], players: int) -> None:
    """RULES.md 3 (inversion): every stone of player k becomes player (k mod n) + 1."""
    for index, cell in enumerate(board):
        k = owner(cell)
        if k is not None:
            board[index] = stone_of(k % players + 1)


def apply_bonus(state: GameState, player: int, special: int) -> GameState:
    """RULES.md 3 (bonus): 20 gives one more bomb, 21 one more override stone (8-bit counts)."""
    i = player - 1
    if special == BONUS_BOMB:
        bombs = state.bombs[:i] + (increment_count(state.bombs[i]),) + state.bombs[i + 1:]
        return replace(state, bombs=bombs)
    overrides = (state.overrides[:i] + (increment_count(state.overrides[i]),)
                 + state.overrides[i + 1:])
    return replace(state, overrides=overrides)


def check_building_move(state: GameState, player: int, move: Move) -> None:
    """RULES.md 3: raise IllegalMoveError naming the rule when `move` is not legal for `player`."""
    reason = building_target_error(state, player, move.x, move.y)
    if reason is None:
        reason = special_error(state, move)
    if reason is not None:
        raise IllegalMoveError(reason, "player %d at (%d, %d) special %d"
                               % (player, move.x, move.y, move.special))


def apply_building_move(state: GameState, player: int, move: Move) -> GameState:
    """RULES.md 3 (effect): captures, the new stone, the override cost, then the tile's effect.

    The turn does not pass here; `play` does that.  The move must be legal.
    """
    target = state.cell(move.x, move.y)
    board = list(state.board)
    # Every capturing direction's collected cells become the mover's; the others stay.
    for cx, cy in captured_cells(state, player, move.x, move.y):
        board[state.map.index(cx, cy)] = stone_of(player)
    # The target becomes the mover's stone; a used special tile is gone.
    board[state.map.index(move.x, move.y)] = stone_of(player)
    overrides = state.overrides
    # A move onto any stone or an expansion stone costs exactly one override stone.
    if is_stone(target) or target == EXPANSION:
        i = player - 1
        overrides = overrides[:i] + (overrides[i] - 1,) + overrides[i + 1:]
    # Then the special effect of the tile.
    if target == CHOICE:
        apply_choice(board, player, move.special)
    elif target == INVERSION:
        apply_inversion(board, state.players)
    after = replace(state, board=tuple(board), overrides=overrides)
    if target == BONUS:
        after = apply_bonus(after, player, move.special)
    return after
