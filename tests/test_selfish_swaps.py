"""Tests of `EvalConfig.selfish_swaps`: with three or more players, paranoid opponents take a
choice or inversion tile only where they gain stones by it, and a threatened root may then
spend an override stone it would otherwise keep.

Positions are single rows split by holes (only east-west lines capture); every value is
worked by hand from RULES.md 3 (captures, the inversion tile) and checked move by move
against the readable rules.
"""

from __future__ import annotations

from dataclasses import replace
from typing import List, Tuple

import pytest

from helpers import MATERIAL_ONLY, build, searcher_for, stone_counts
from reversi_ref import Move, legal_moves, play
from reversi_ref.players.search import SearchPlayer
from reversi_ref.search.alphabeta import (MAX_SWAP_CELLS, MOVE_MASK, PARANOID, PLAYER_SHIFT,
                                         Searcher)
from reversi_ref.search.config import EvalConfig

SELFISH = replace(MATERIAL_ONLY, selfish_swaps=True)

# Three players, player 1 to move; segments (x ranges):
#   x0..3   "i 1 3 0":   player 3 can take the inversion tile (0, 0), capturing (1, 0)
#                        against (2, 0); player 1 can play (3, 0), capturing (2, 0);
#   x5..8   "1 2 2 0":   player 1 can play (8, 0), capturing two;
#   x10..11 "2 2", x13..16 "3 3 3 3", x18..23 six 1s: stones nobody can move from;
#   x25..27 "0 1 3":     player 3 can play (25, 0), capturing (26, 0).
# Player 2 never has a move.  Counts 9/4/6; value V = 100 * (s1 - (s2 + s3) / 2).
#   (8, 0):  12/2/6, V = 800; then player 3 either inverts (places and captures: 11/2/8,
#            then every player's stones go to the next: 8/11/2, V = 150; player 3 drops
#            from 6 to 2 stones) or plays (25, 0) (11/2/8, V = 600).
#   (3, 0):  11/4/5, V = 650, player 3 has no tile; it plays (25, 0): 10/4/7, V = 450.
# Depth 1 (the leaf after player 1's move; swap quiescence looks at player 3's tile):
#   paranoid: (8, 0) min(800, 150) = 150 against 650: plays (3, 0), 650;
#   selfish:  player 3 loses stones by the tile, so it declines: 800 against 650: (8, 0).
# Depth 2 (player 3 moves in the tree):
#   paranoid: (8, 0) min(150, 600) = 150 against 450: (3, 0), 450;
#   selfish:  (8, 0) 600 (its only gaining move) against 450: (8, 0), 600.
ROW = "i 1 3 0 - 1 2 2 0 - 2 2 - 3 3 3 3 - 1 1 1 1 1 1 - 0 1 3"


def test_the_row_is_what_the_comment_says() -> None:
    """The readable rules agree with the hand-worked counts above."""
    state = build(ROW, players=3)
    assert stone_counts(state) == (9, 4, 6)
    assert sorted(legal_moves(state)) == [Move(3, 0), Move(8, 0)]
    wide = play(state, Move(8, 0))
    assert (stone_counts(wide), wide.to_move) == ((12, 2, 6), 3)
    assert sorted(legal_moves(wide)) == [Move(0, 0), Move(25, 0)]
    assert stone_counts(play(wide, Move(0, 0))) == (8, 11, 2)
    assert stone_counts(play(wide, Move(25, 0))) == (11, 2, 8)
    block = play(state, Move(3, 0))
    assert (stone_counts(block), block.to_move) == ((11, 4, 5), 3)
    assert legal_moves(block) == [Move(25, 0)]
    assert stone_counts(play(block, Move(25, 0))) == (10, 4, 7)


@pytest.mark.parametrize("config, depth, expected", [
    (MATERIAL_ONLY, 1, (Move(3, 0), 650)),
    (SELFISH, 1, (Move(8, 0), 800)),
    (MATERIAL_ONLY, 2, (Move(3, 0), 450)),
    (SELFISH, 2, (Move(8, 0), 600)),
])
def test_an_opponent_inverts_only_for_a_gain(config: EvalConfig, depth: int,
                                             expected: Tuple[Move, int]) -> None:
    """Paranoid player 3 inverts at a loss to itself to take player 1's lead; with
    `selfish_swaps` it does not, in swap quiescence (depth 1) and in the tree (depth 2)."""
    player = SearchPlayer(PARANOID, config=config)
    assert (player.choose(build(ROW, players=3), 0, depth), player.last_value) == expected


def _targets(searcher: Searcher, packed: List[int]) -> List[Move]:
    return sorted(searcher.engine.decode_move(pm & MOVE_MASK) for pm in packed)


def test_a_forced_selfless_swap_is_still_searched() -> None:
    """Player 3 after (8, 0) without (25, 0) to play: the tile is its only move, so the
    filter keeps it (a player with a legal move must move, RULES.md 4)."""
    state = build("i 1 3 0 - 1 1 1 - 2 2 - 3 3 3 3", players=3, to_move=3)
    assert legal_moves(state) == [Move(0, 0)]
    searcher = searcher_for(state, SELFISH)
    assert searcher.swap_gain(searcher.engine.encode_move(Move(0, 0))) < 0
    packed = [(3 << PLAYER_SHIFT) | m for m in searcher.engine.legal_moves()]
    assert _targets(searcher, searcher.without_selfless_swaps(packed)) == [Move(0, 0)]


def test_only_the_selfless_swaps_are_dropped() -> None:
    """After (8, 0) of ROW: player 3's inversion loses it 4 stones (6 to 2) and goes; its
    plain move stays."""
    state = play(build(ROW, players=3), Move(8, 0))
    searcher = searcher_for(state, SELFISH)
    engine = searcher.engine
    assert searcher.swap_gain(engine.encode_move(Move(0, 0))) == -4
    packed = [(3 << PLAYER_SHIFT) | m for m in engine.legal_moves()]
    assert _targets(searcher, searcher.without_selfless_swaps(packed)) == [Move(25, 0)]


def test_two_players_are_never_selfish() -> None:
    """With two players every swap that hurts the root helps the opponent: nothing to drop."""
    state = build("i 1 2 0 - 1 2 0", players=2)
    assert not searcher_for(state, SELFISH).selfish
    assert searcher_for(build(ROW, players=3), SELFISH).selfish
    assert not searcher_for(build(ROW, players=3), MATERIAL_ONLY).selfish


# Player 1 to move with one override stone, three players; segments:
#   x0..3   "i 1 2 3":  player 1's override move (3, 0) captures (2, 0) against (1, 0);
#                       player 3 can take the inversion tile (0, 0), capturing (1, 0) and
#                       (2, 0) against (3, 0) (then 1/7/4), after which every player's
#                       stones go to the next: 4/1/7, player 3 up from 1 stone to 7;
#   x5..7   "1 2 0":    player 1's plain move (7, 0);
#   x9..14  six 2s:     player 2's stones, no moves.
# With nine 3s more (x16..24), the inversion takes player 3 from 10 stones to 7: no gain.
THREAT = "i 1 2 3 - 1 2 0 - 2 2 2 2 2 2"
NO_GAIN = THREAT + " - 3 3 3 3 3 3 3 3 3"


def _root_targets(row: str, config: EvalConfig) -> List[Move]:
    state = build(row, players=3, overrides_per_player=(1, 0, 0))
    assert sorted(legal_moves(state)) == [Move(3, 0), Move(7, 0)]
    searcher = searcher_for(state, config)
    searcher.keep_overrides = True
    return _targets(searcher, searcher.root_moves())


def test_a_swap_threat_lets_the_root_spend_an_override_stone() -> None:
    """Keeping override stones (`keep_overrides`) leaves only the plain move; under
    `selfish_swaps`, with player 3 able to invert at a gain, the override move comes back."""
    assert _root_targets(THREAT, MATERIAL_ONLY) == [Move(7, 0)]
    assert _root_targets(THREAT, SELFISH) == [Move(3, 0), Move(7, 0)]


def test_a_selfless_swap_is_no_threat() -> None:
    """Where the inversion would cost player 3 stones, the override stone stays kept."""
    state = replace(build(NO_GAIN, players=3), to_move=3)
    assert [stone_counts(play(state, m)) for m in legal_moves(state)] == [(13, 1, 7)]
    assert stone_counts(state) == (2, 8, 10)
    assert _root_targets(NO_GAIN, SELFISH) == [Move(7, 0)]


def test_not_selfish_where_swap_quiescence_is_off() -> None:
    """On maps with more than MAX_SWAP_CELLS tiles (or with swap quiescence off) the switch
    does nothing, as the quiescence does nothing there."""
    many = ROW + " - " + " ".join("ci"[i % 2] for i in range(MAX_SWAP_CELLS))
    assert not searcher_for(build(many, players=3), SELFISH).selfish
    off = replace(SELFISH, swap_quiescence=False)
    assert not searcher_for(build(ROW, players=3), off).selfish
