"""RULES.md 3: the building phase: capture lines, legal moves and a move's effect.

Rules text: docs/rules.md#3-the-building-phase.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Dict, Iterator, List, Optional, Set, Tuple

from ..errors import IllegalMoveError
from ..geometry import BONUS, CHOICE, EMPTY, EXPANSION, HOLE, INVERSION, PLAYER_STONES, Cell
from ..state import BONUS_BOMB, BONUS_OVERRIDE, NO_SPECIAL, GameState, Move
from .walking import Position, step, steps_into

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
    # A walk has only 8 positions per cell to visit; one taking more steps is going round a
    # loop that meets neither the target nor a stone of the mover.  No game reaches such a
    # loop (a step can be undone in only one way, so a walk that repeats a position has come
    # back through the target first), but a board with stones on the map's holes can.
    steps_left = 8 * len(state.board)
    position = step(state, x, y, direction)
    while position is not None and steps_left > 0:
        steps_left -= 1
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
    # The edge or a hole ends the line without a capture (and so does a loop, see above).
    return []


def captured_cells(state: GameState, player: int, x: int, y: int) -> List[Cell]:
    """RULES.md 3: every cell captured by placing on (x, y), over all eight directions."""
    # A dict keeps the first-seen order and finds repeats at once (a loop collects a cell twice).
    cells: Dict[Cell, None] = {}
    for direction in range(8):
        for cell in captures_in_direction(state, player, x, y, direction):
            cells[cell] = None
    return list(cells)


def has_capture(state: GameState, player: int, x: int, y: int) -> bool:
    """RULES.md 3: whether at least one direction captures from (x, y)."""
    for direction in range(8):
        if captures_in_direction(state, player, x, y, direction):
            return True
    return False


def capture_targets(state: GameState, player: int) -> Set[Cell]:
    """RULES.md 3: every cell from which at least one direction captures for `player`.

    The same lines as `captures_in_direction`, walked the other way: each capture line ends at
    one of the mover's stones, so walking back from where the lines end, over collectable
    cells, meets every target of a capturing line.  Each position of the board is walked at
    most once per line end, so the whole board costs about one pass over it, where testing
    each cell forwards can walk a long line once per cell.
    """
    return set(iter_capture_targets(state, player))


def iter_capture_targets(state: GameState, player: int) -> Iterator[Cell]:
    """RULES.md 3: the cells of `capture_targets`, line end by line end (a cell may come more
    than once); a caller that needs only the first walks no further line."""
    for stone, last in capture_line_ends(state, player):
        yield from walk_capture_line_back(state, player, stone, last)


def cell_of_index(state: GameState, index: int) -> Cell:
    """The cell (x, y) at row-major `index` of the board."""
    return index % state.width, index // state.width


def capture_line_ends(state: GameState, player: int) -> List[Tuple[Cell, Position]]:
    """RULES.md 3: where a capture line of `player` can end: each stone of the mover with a
    position on a collectable cell whose step lands on that stone (the last collected cell).

    Found from whichever is fewer, the mover's stones or the collectable cells.
    """
    mine = stone_of(player)
    # Row-major indexes (y * width + x) of the mover's stones and of the collectable cells.
    stones = [i for i, cell in enumerate(state.board) if cell == mine]
    collectable = [i for i, cell in enumerate(state.board) if is_collectable(cell, player)]
    ends: List[Tuple[Cell, Position]] = []
    if len(stones) <= len(collectable):
        for x, y in (cell_of_index(state, i) for i in stones):
            for heading in range(8):
                # The positions from which a step arrives on this stone going in `heading`.
                for last in steps_into(state, x, y, heading):
                    if is_collectable(state.cell(last[0], last[1]), player):
                        ends.append(((x, y), last))
    else:
        for x, y in (cell_of_index(state, i) for i in collectable):
            for direction in range(8):
                position = step(state, x, y, direction)
                if position is not None and state.cell(position[0], position[1]) == mine:
                    ends.append(((position[0], position[1]), (x, y, direction)))
    return ends


def walk_capture_line_back(state: GameState, player: int, stone: Cell,
                           last: Position) -> List[Cell]:
    """RULES.md 3: every cell whose line, walked forwards, collects at least one cell and ends
    at `stone` with `last`, a collectable cell, the position just before it.

    Going back from `stone`: a collectable cell is collected by every line that starts further
    back, and is itself a target when it collected something behind it (unless its own line
    meets it again, which stops that line); the first cell that is not collectable, and not a
    hole, is the last target of the line (unless it is `stone` itself: a line never closes
    through its target).
    """
    targets: List[Cell] = []
    # Each pending walk: a position and the cells its line collects up to `stone` (as row-major
    # indexes, which PyPy keeps in a set unboxed).  A walk only branches on boards where a hole
    # of the map has been filled in (see `steps_into`).
    pending: List[Tuple[Position, Set[int]]] = [(last, {state.map.index(last[0], last[1])})]
    while pending:
        position, collected = pending.pop()
        sources = steps_into(state, position[0], position[1], position[2])
        for number, source in enumerate(sources):
            x, y = source[0], source[1]
            line_cells = collected if number == len(sources) - 1 else set(collected)
            if is_collectable(state.cell(x, y), player):
                # Its line collects `line_cells`; it is no target if that line meets it again.
                index = state.map.index(x, y)
                if index not in line_cells:
                    targets.append((x, y))
                line_cells.add(index)
                pending.append((source, line_cells))
            elif (x, y) != stone:
                # An empty or special tile or any player's stone ends the walk back: the
                # line from here captures.
                targets.append((x, y))
    return targets


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


def building_targets(state: GameState, player: int) -> List[Cell]:
    """RULES.md 3: every cell where `player` may place a stone, sorted by (y, x).

    By RULES.md 3 (legal moves) these are, with an override stone in hand, every cell from
    which a line captures (`capture_targets`; whatever the cell holds, and it is never a
    hole) and every expansion stone (the expansion rule); without one, the free tiles from
    which a line captures (`free_tile_targets`).  So no cell is tested again on its own
    (`building_target_error` does that for one cell); the targets found are marked on a
    board-sized list and read off in row-major order, which is the (y, x) order.
    """
    has_override = state.overrides[player - 1] >= 1
    # 1 for each cell found, row-major like the board (ints rather than bools: PyPy keeps a
    # list of ints unboxed, and a million stores into a list of objects cost it 0.5 s).
    is_target = [0] * len(state.board)
    if has_override:
        # The walks of `iter_capture_targets`, without passing each cell through a generator.
        for stone, last in capture_line_ends(state, player):
            for x, y in walk_capture_line_back(state, player, stone, last):
                is_target[state.map.index(x, y)] = 1
        for x, y in expansion_stones(state):
            is_target[state.map.index(x, y)] = 1
    else:
        for x, y in free_tile_targets(state, player):
            is_target[state.map.index(x, y)] = 1
    return [cell_of_index(state, i) for i, flag in enumerate(is_target) if flag]


def expansion_stones(state: GameState) -> Iterator[Cell]:
    """The cells holding an expansion stone `x`."""
    return (cell_of_index(state, i) for i, cell in enumerate(state.board) if cell == EXPANSION)


def free_tile_targets(state: GameState, player: int) -> Iterator[Cell]:
    """RULES.md 3: the free tiles (empty, choice, inversion, bonus) from which at least one
    direction captures for `player` (a cell may come more than once).

    Found from whichever is fewer, the free tiles or the mover's stones.  Lines that start on
    free tiles never share a step (a line crosses only collectable cells, and the walk back
    from any step is unique, so it would meet the other line's free tile first), so testing
    each free tile forwards walks each step of the board at most once.
    """
    mine = stone_of(player)
    if sum(1 for cell in state.board if cell in FREE_TILES) <= sum(
            1 for cell in state.board if cell == mine):
        free = (cell_of_index(state, i) for i, cell in enumerate(state.board)
                if cell in FREE_TILES)
        return (cell for cell in free if has_capture(state, player, cell[0], cell[1]))
    return (cell for cell in iter_capture_targets(state, player)
            if state.cell(cell[0], cell[1]) in FREE_TILES)


def building_moves(state: GameState, player: int) -> List[Move]:
    """RULES.md 3: every legal building-phase move of `player`, sorted by (y, x, special)."""
    return [Move(x, y, special) for x, y in building_targets(state, player)
            for special in specials_for(state, x, y)]


def has_building_move(state: GameState, player: int) -> bool:
    """RULES.md 3 and 4: whether `player` has at least one legal building move.

    The same targets as `building_targets`, but it stops at the first one found.
    """
    if state.overrides[player - 1] >= 1:
        # With an override stone an expansion stone is always a target, and so is every other
        # cell from which a line captures (a hole never is one).
        return EXPANSION in state.board or any(True for _ in iter_capture_targets(state, player))
    # Without one, only a free tile with a capture.
    return any(True for _ in free_tile_targets(state, player))


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
