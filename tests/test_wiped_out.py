"""Tests of the evaluation's wiped-out opponents with inversion tiles left.

An opponent with no stone that cannot place one itself counts ELIMINATED_OPPONENT for the
root whether or not a choice or inversion tile is left: a tile only hands stone sets from
player to player.  Before stop 70 a tile left counted as a way back, so taking the last one
turned the empty sets into wiped-out players, and the client gave its 452 stones to the next
player for that bonus (`comp2024_04_6p`, seat 5).

The position is a single row split by holes (only east-west lines capture); every count is
worked by hand from RULES.md 3 (captures; the inversion tile hands player k's stones to
player k mod 4 + 1) and checked against the readable rules.
"""

from __future__ import annotations

from dataclasses import replace

from helpers import MATERIAL_ONLY, build, searcher_for, stone_counts
from reversi_ref import Move, legal_moves, play
from reversi_ref.engine import Engine
from reversi_ref.players.search import SearchPlayer
from reversi_ref.search.analysis import MapAnalysis
from reversi_ref.search.evaluate import ELIMINATED_OPPONENT, Evaluator, is_decisive

# Swap quiescence off, so that depth 1 sees only player 1's own move.
PLAIN = replace(MATERIAL_ONLY, swap_quiescence=False)

# Four players, player 1 to move, player 3 without a stone; segments (x ranges):
#   x0..2    "1 2 i":   player 1 takes the inversion tile (2, 0), capturing (1, 0);
#   x4..6    "0 2 1":   player 1 can play (4, 0), capturing (5, 0);
#   x8..9    "4 4":     player 4's two stones;
#   x11..16  six 1s.
# Counts 8/2/0/2.
#   (2, 0): 10/1/0/2, then the stones go round: 2/10/1/0.  Player 4 is now the one without
#           a stone, and no tile is left.
#   (4, 0): 10/1/0/2.  Nobody else can take the tile (no line from it ends on their stone).
ROW = "1 2 i - 0 2 1 - 4 4 - 1 1 1 1 1 1"
TILE = Move(2, 0)
PLAIN_MOVE = Move(4, 0)
HELD = "1 2 i - 1 1 1 - 4 4 - 1 1 1 1 1 1"  # the row after (4, 0)


def _value(state_cells: str, root: int = 1) -> int:
    state = build(state_cells, players=4)
    engine = Engine(state)
    return Evaluator(engine, MapAnalysis(state.map), PLAIN).evaluate(root)


def test_the_row_is_what_the_comment_says() -> None:
    """The readable rules agree with the hand-worked counts above."""
    state = build(ROW, players=4)
    assert stone_counts(state, 4) == (8, 2, 0, 2)
    assert sorted(legal_moves(state)) == [TILE, PLAIN_MOVE]
    assert stone_counts(play(state, TILE), 4) == (2, 10, 1, 0)
    held = play(state, PLAIN_MOVE)
    assert held.board == build(HELD, players=4).board
    assert stone_counts(held, 4) == (10, 1, 0, 2)
    for player in (2, 4):  # player 3 has no stone, so no move at all
        assert TILE not in legal_moves(build(HELD, to_move=player, players=4))


def test_an_empty_opponent_counts_with_a_tile_left() -> None:
    """Player 3 without a stone adds ELIMINATED_OPPONENT with the tile still on the board,
    as player 4 does once the tile is gone: the same count of empty opponents is worth the
    same, whichever tile is left."""
    with_tile = _value("1 1 i - 2 2 - 0 - 4 4")
    stones_only = _value("1 1 i - 2 2 - 3 - 4 4")  # player 3 holds the one stone
    assert with_tile - stones_only > ELIMINATED_OPPONENT - 100_000
    assert not is_decisive(with_tile)


def test_the_root_does_not_give_its_stones_away_for_the_last_tile() -> None:
    """Depth 1 keeps its stones with the plain move (10 stones against 2); the tile would
    leave it 2 against 10 with the same one empty opponent."""
    state = build(ROW, players=4)
    assert SearchPlayer(config=PLAIN).choose(state, 0, 1) == PLAIN_MOVE
    searcher = searcher_for(state, PLAIN)
    engine = searcher.engine
    values = {}
    for move in (TILE, PLAIN_MOVE):
        engine.make(engine.encode_move(move))
        values[move] = searcher.evaluator.evaluate(1)
        engine.unmake()
    # Material only: 100 a stone against the average opponent (leader_share 0).
    assert values[PLAIN_MOVE] - values[TILE] > 0
    assert abs(values[PLAIN_MOVE] - values[TILE]) < ELIMINATED_OPPONENT // 2
