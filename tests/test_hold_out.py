"""Tests of `EvalConfig.hold_out`: with three or more players, when an iteration proves a
loss, the player plays the move of the deepest iteration that had not proven it, if that
move reaches the same place.

The position is a single row split by holes (only east-west lines capture); every count is
worked by hand from RULES.md 3 (captures, the inversion tile hands each player's stones to
the next) and checked move by move against the readable rules.
"""

from __future__ import annotations

from dataclasses import replace

from helpers import MATERIAL_ONLY, build, searcher_for, stone_counts
from reversi_ref import Move, legal_moves, play
from reversi_ref.analyse import analyse_state, analysis_json, format_analysis
from reversi_ref.players.search import SearchPlayer
from reversi_ref.search.evaluate import RANK_STEP

# Swap quiescence off, so that depth 1 sees only player 1's own move.
PLAIN = replace(MATERIAL_ONLY, swap_quiescence=False)

# Three players, player 1 to move, player 3 without a stone (as players 7 and 8 start on
# `comp2024_04_6p`); segments (x ranges):
#   x0..4   "1 2 i 1 2":  both player 1 (capturing (1, 0)) and player 2 (capturing (3, 0))
#                         can take the inversion tile (2, 0);
#   x6..8   "0 2 1":      player 1 can play (6, 0), capturing (7, 0);
#   x10..15 six 2s:       stones nobody can move from.
# Counts 3/9/0.  After a tile is taken, player 1 holds player 3's stones: none, and with no
# tile left it can never move again (eliminated: -RANK_STEP per player with stones, less 100
# per stone of the best of them).
#   (2, 0): 5/8/0, then the stones go round: 0/5/8; player 2 plays (6, 0) (its only move),
#           capturing (7, 0): 0/7/7.  Depth 1: -2 RANK_STEP - 800; depth 2: -2 RANK_STEP - 700.
#   (6, 0): 5/8/0, not proven at depth 1; player 2 takes the tile, capturing (3, 0): 4/10/0,
#           then 0/4/10.  Depth 2: -2 RANK_STEP - 1000.
# So depth 1 chooses (6, 0) and depth 2 proves a loss either way, ranking the tile first.
ROW = "1 2 i 1 2 - 0 2 1 - 2 2 2 2 2 2"
TILE = Move(2, 0)
HOLD = Move(6, 0)


def test_the_row_is_what_the_comment_says() -> None:
    """The readable rules agree with the hand-worked counts above."""
    state = build(ROW, players=3)
    assert stone_counts(state) == (3, 9, 0)
    assert sorted(legal_moves(state)) == [TILE, HOLD]
    taken = play(state, TILE)
    assert (stone_counts(taken), taken.to_move) == ((0, 5, 8), 2)
    assert legal_moves(taken) == [HOLD]
    assert stone_counts(play(taken, HOLD)) == (0, 7, 7)
    held = play(state, HOLD)
    assert (stone_counts(held), held.to_move) == ((5, 8, 0), 2)
    assert legal_moves(held) == [TILE]
    assert stone_counts(play(held, TILE)) == (0, 4, 10)


def test_a_proven_loss_keeps_the_move_that_holds_out() -> None:
    """Depth 2 proves the loss and ranks the tile first; with `hold_out` the player keeps
    depth 1's choice, which loses only after an opponent's move."""
    state = build(ROW, players=3)
    assert SearchPlayer(config=replace(PLAIN, hold_out=False)).choose(state, 0, 2) == TILE
    player = SearchPlayer(config=PLAIN)
    assert player.choose(state, 0, 2) == HOLD
    assert (player.info.depth, player.info.proven, player.info.held_out) == (2, True, True)
    assert player.last_value == -2 * RANK_STEP - 700
    # Depth 1 proves nothing, so there is nothing to hold out against.
    player = SearchPlayer(config=PLAIN)
    assert player.choose(state, 0, 1) == HOLD
    assert (player.info.proven, player.info.held_out) == (False, False)


def test_the_move_held_must_reach_the_same_place() -> None:
    """`holds_place` accepts a move whose proven value lies within half a place of the best
    move's, and refuses one a place or more below it."""
    searcher = searcher_for(build(ROW, players=3), PLAIN)
    engine = searcher.engine
    held = engine.encode_move(HOLD)
    best = -2 * RANK_STEP - 700  # the tile's value at depth 2, worked above
    assert searcher.holds_place(held, 2, best)
    assert not searcher.holds_place(held, 2, best + RANK_STEP)
    # The value of (6, 0) itself, -2 RANK_STEP - 1000, is the edge of what it reaches.
    assert searcher.holds_place(held, 2, -2 * RANK_STEP - 1000 + RANK_STEP // 2 - 1)
    assert not searcher.holds_place(held, 2, -2 * RANK_STEP - 1000 + RANK_STEP // 2)


def test_analyse_names_the_move_the_client_plays_instead() -> None:
    """`analyse` shows the last iteration's choice and, below it, the move held instead."""
    state = build(ROW, players=3)
    analysis = analyse_state(state, None, 0.0, 2, PLAIN)
    assert [it.move for it in analysis.iterations] == [HOLD, TILE]
    assert analysis.held == HOLD
    assert any(line.startswith("the client plays (6, 0) instead")
               for line in format_analysis(analysis))
    assert analysis_json(analysis, "row", 0)["held_out"] == {"x": 6, "y": 0, "special": 0}
    off = analyse_state(state, None, 0.0, 2, replace(PLAIN, hold_out=False))
    assert off.held is None
