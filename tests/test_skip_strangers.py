"""Tests of `EvalConfig.skip_strangers` and `EvalConfig.stranger_gap`: with three or more
players, an opponent that cannot touch the root's stones passes in the paranoid tree, so the
plies go to the players who can.  By region: no override stone in hand, no stone in a region
of the root's (holes cut the map).  By distance: every stone of it at least `stranger_gap`
free cells from the root's block.

The position is one row split by holes (only east-west lines capture); every count is worked
by hand from RULES.md 3-4 and checked against the readable rules.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Tuple

import pytest

from helpers import MATERIAL_ONLY, build, searcher_for, stone_counts
from reversi_ref import Move, legal_moves, play
from reversi_ref.players.search import SearchPlayer
from reversi_ref.search.alphabeta import PARANOID
from reversi_ref.search.config import DEFAULT_CONFIG, EvalConfig
from reversi_ref.search.evaluate import is_decisive
from reversi_ref.state import GameState

SKIP = replace(MATERIAL_ONLY, skip_strangers=True)

# Three players, player 1 to move, no override stones; regions (x ranges):
#   A  x0..5    "0 1 1 1 3 0": player 1 can play (5, 0), capturing (4, 0) (the safe move);
#                              player 3 can play (0, 0), capturing three 1s, while (4, 0) is
#                              still a 3;
#   C  x7..10   "1 3 3 0":     player 1 can play (10, 0), capturing two (the greedy move);
#   B  x12..14  "2 3 0":       player 2 can play (14, 0), capturing (13, 0).
# Player 2 has stones only in B, where player 1 has none: the one stranger.
# Counts 4/1/4; value V = 100 * (s1 - (s2 + s3) / 2).
#   greedy (10, 0): 7/1/2, V = 550; player 2 plays (14, 0): 7/3/1, V = 500; then player 3
#                   plays (0, 0): 4/3/5, V = 0.  Player 3 straight after: 4/1/6, V = 50.
#   safe (5, 0):    6/1/3, V = 400; player 2 plays (14, 0): 6/3/2, V = 350; player 3 has no
#                   move, so player 1 plays (10, 0): 9/3/0, and nobody has a move left (a
#                   win).  With player 2 passed over: player 1 plays (10, 0) at once, 9/1/1,
#                   V = 800.
ROW = "0 1 1 1 3 0 - 1 3 3 0 - 2 3 0"


def test_the_row_is_what_the_comment_says() -> None:
    """The readable rules agree with the hand-worked counts above."""
    state = build(ROW, players=3)
    assert stone_counts(state) == (4, 1, 4)
    assert sorted(legal_moves(state)) == [Move(5, 0), Move(10, 0)]
    greedy = play(state, Move(10, 0))
    assert (stone_counts(greedy), greedy.to_move) == ((7, 1, 2), 2)
    assert legal_moves(greedy) == [Move(14, 0)]
    after_two = play(greedy, Move(14, 0))
    assert (stone_counts(after_two), after_two.to_move) == ((7, 3, 1), 3)
    assert legal_moves(after_two) == [Move(0, 0)]
    assert stone_counts(play(after_two, Move(0, 0))) == (4, 3, 5)
    assert stone_counts(play(replace(greedy, to_move=3), Move(0, 0))) == (4, 1, 6)
    safe = play(state, Move(5, 0))
    assert (stone_counts(safe), safe.to_move) == ((6, 1, 3), 2)
    after_two = play(safe, Move(14, 0))
    assert (stone_counts(after_two), after_two.to_move) == ((6, 3, 2), 1)
    assert stone_counts(play(after_two, Move(10, 0))) == (9, 3, 0)
    assert stone_counts(play(replace(safe, to_move=1), Move(10, 0))) == (9, 1, 1)


@pytest.mark.parametrize("config, depth, expected", [
    (MATERIAL_ONLY, 1, (Move(10, 0), 550)),
    (SKIP, 1, (Move(10, 0), 550)),
    (MATERIAL_ONLY, 2, (Move(10, 0), 500)),
    (SKIP, 2, (Move(5, 0), 800)),
])
def test_the_stranger_passes_and_the_threat_comes_into_view(
        config: EvalConfig, depth: int, expected: Tuple[Move, int]) -> None:
    """At depth 2 the plain tree sees only player 2's move and plays greedy; with player 2
    passed over it sees player 3's capture, as the plain tree does at depth 3."""
    player = SearchPlayer(PARANOID, config=config)
    assert (player.choose(build(ROW, players=3), 0, depth), player.last_value) == expected


def test_the_plain_tree_sees_the_threat_one_ply_later() -> None:
    """At depth 3 the plain tree plays safe too: after (5, 0), (14, 0) and (10, 0) (9/3/0)
    nobody has a move left, phase 1 ends with no bombs, and player 1 is first: a proven
    win, above every estimate."""
    player = SearchPlayer(PARANOID, config=MATERIAL_ONLY)
    assert player.choose(build(ROW, players=3), 0, 3) == Move(5, 0)
    assert is_decisive(player.last_value) and player.last_value > 0


def _strangers(state: GameState, config: EvalConfig = SKIP) -> Tuple[int, ...]:
    searcher = searcher_for(state, config)
    found = tuple(p for p in range(1, 9) if searcher.strangers[p])
    assert searcher.any_strangers == bool(found)
    return found


def test_only_the_player_out_of_reach_is_a_stranger() -> None:
    """Player 2 (stones only in B) is one; player 3 shares A and C with the root."""
    assert _strangers(build(ROW, players=3)) == (2,)


# Region A of ROW with an expansion stone: an override stone in hand is a way in.
DOOR = "x " + ROW


@pytest.mark.parametrize("state", [
    build(ROW, players=3, overrides_per_player=(0, 1, 0)),  # no way in for it all the same
    build(DOOR, players=3),  # a door, but no override stone to go through it
    build(ROW + " x", players=3, overrides_per_player=(0, 1, 0)),  # the door is its own
])
def test_an_override_stone_alone_does_not_reach_the_root(state: GameState) -> None:
    """An override stone captures only towards a stone of the mover's own (RULES.md 3), so
    it lets a player in only through an expansion stone in a region of the root's."""
    assert _strangers(state) == (2,)


@pytest.mark.parametrize("state", [
    build(DOOR, players=3, overrides_per_player=(0, 1, 0)),  # it could come in through x
    build(ROW + " - 0 i", players=3),  # an inversion tile moves every player's stones
    build(ROW + " - 0 c", players=3),  # so does a choice tile
    build(ROW, players=3, disqualified=(2,)),  # it no longer moves at all
    build("0 1 1 1 3 0 2 3 0", players=3),  # one region: it can reach the root's stones
    build("0 1 1 1 2 0 - 2 2 0", players=2),  # two players: the one opponent always counts
])
def test_no_stranger_when_the_opponent_can_reach_the_root(state: GameState) -> None:
    """Override stones in hand, swap tiles on the board, one region or two players: none."""
    assert _strangers(state) == ()


def test_off_by_default() -> None:
    """Without the switch nobody is passed over."""
    assert not DEFAULT_CONFIG.skip_strangers
    assert _strangers(build(ROW, players=3), MATERIAL_ONLY) == ()


def test_the_search_leaves_the_engine_as_it_found_it() -> None:
    """Passing a stranger over sets and restores the player to move, hash included."""
    searcher = searcher_for(build(ROW, players=3), SKIP)
    engine = searcher.engine
    before = (engine.hash, engine.to_move, list(engine.board))
    results = list(searcher.iterate(4))
    assert results and (engine.hash, engine.to_move, list(engine.board)) == before
    safe = searcher.engine.decode_move(results[-1][1])
    assert safe == Move(5, 0)


def test_pondering_on_a_stranger_s_turn_gives_it_back() -> None:
    """Pondering where the stranger itself is to move (no move of ours to take back after):
    the engine still has it to move afterwards, hash included."""
    searcher = searcher_for(replace(build(ROW, players=3), to_move=2), SKIP, root=1)
    engine = searcher.engine
    assert searcher.strangers[2]
    before = (engine.hash, engine.to_move)
    assert [depth for depth, _, _ in searcher.ponder(3)] == [1, 2, 3]
    assert (engine.hash, engine.to_move) == before


# ------------------------------------------------------------------------- by distance

GAP = replace(MATERIAL_ONLY, stranger_gap=6)

# One region.  Player 1's block is x1..4 ("1 1 1 3", player 3 has a stone in it); the six free
# cells x5..10 lie between it and player 2's stones at x11..12 ("2 3").
FAR = "0 1 1 1 3 0 0 0 0 0 0 2 3 0"


@pytest.mark.parametrize("gap, expected", [(6, (2,)), (7, ()), (1, (2,))])
def test_an_opponent_gap_free_cells_away_is_a_stranger(gap: int,
                                                      expected: Tuple[int, ...]) -> None:
    """Six free cells: a stranger for a gap of 6 or less, not for 7; player 3, with a stone
    in the root's block, never."""
    assert _strangers(build(FAR, players=3), replace(MATERIAL_ONLY, stranger_gap=gap)) == expected


def test_the_gap_is_counted_across_a_transition() -> None:
    """A transition from the row's west end to its east end puts player 2 two free cells
    (x0 and x13) from the root's block the other way round (RULES.md 2)."""
    state = build(FAR, players=3, transitions=["0 0 6 <-> 13 0 2"])
    assert _strangers(state, GAP) == ()


def test_stones_between_cost_nothing() -> None:
    """The stones of a third player between the blocks are not free cells: x5..7 hold 3s, so
    three free cells (x8..10) are left between the root's block and player 2."""
    state = build("0 1 1 1 3 3 3 3 0 0 0 2 3 0", players=3)
    assert _strangers(state, replace(MATERIAL_ONLY, stranger_gap=3)) == (2,)
    assert _strangers(state, replace(MATERIAL_ONLY, stranger_gap=4)) == ()


@pytest.mark.parametrize("state", [
    build(FAR + " x", players=3, overrides_per_player=(0, 1, 0)),  # override + expansion
    build(FAR + " 0 c", players=3),  # a choice tile moves every player's stones
    build(FAR + " 0 i", players=3),  # so does an inversion tile
    build(FAR, players=3, disqualified=(2,)),  # it no longer moves at all
    build("0 0 0 0 0 0 0 0 0 0 0 2 3 0", players=3),  # the root has no stone
    build("0 1 1 1 2 0 0 0 0 0 0 2 2 0", players=2),  # two players
])
def test_no_stranger_by_distance(state: GameState) -> None:
    """An override stone for an expansion stone anywhere, swap tiles, a player out of the
    game, a root without stones or two players: nobody is passed over."""
    assert _strangers(state, GAP) == ()


# FAR with a swap tile east of it: x13..17 are free, so the tile at x18 is six free cells
# (itself included) from the nearest stone, player 3's at x12; at x17 it is five.
TILE_AT_SIX = FAR + " 0 0 0 0 {}"
TILE_AT_FIVE = FAR + " 0 0 0 {}"


FAR_SWAPS = replace(GAP, far_swaps=True)


@pytest.mark.parametrize("tile", ["c", "i"])
def test_a_swap_tile_out_of_reach_holds_nobody_back(tile: str) -> None:
    """Nobody can take a tile six free cells off within six plies, so with a gap of 6 and
    `far_swaps` player 2 passes as on FAR alone; one cell nearer, or with `far_swaps` off
    (the default), nobody passes."""
    assert not DEFAULT_CONFIG.far_swaps
    assert _strangers(build(TILE_AT_SIX.format(tile), players=3), FAR_SWAPS) == (2,)
    assert _strangers(build(TILE_AT_FIVE.format(tile), players=3), FAR_SWAPS) == ()
    assert _strangers(build(TILE_AT_SIX.format(tile), players=3), GAP) == ()


def test_a_walled_in_tile_is_out_of_reach_until_a_transition_opens_it() -> None:
    """FAR shifted one cell east behind a choice tile and a hole (x0, x1): the tile is out of
    everyone's reach.  A transition from its west side to the east side of x14 (free, next to
    player 3's stone at x13) brings it two free cells (x14 and the tile) from a stone
    (RULES.md 2)."""
    walled = "c - " + FAR[2:]
    assert _strangers(build(walled, players=3), FAR_SWAPS) == (2,)
    opened = build(walled, players=3, transitions=["0 0 6 <-> 14 0 2"])
    assert _strangers(opened, FAR_SWAPS) == ()


def test_an_override_stone_without_an_expansion_stone_is_no_way_in() -> None:
    """An override stone captures only along unbroken stones to one of the mover's own."""
    assert _strangers(build(FAR, players=3, overrides_per_player=(0, 1, 0)), GAP) == (2,)


def test_stranger_gap_on_by_default() -> None:
    """Four free cells (stop 59's SPRT); FAR has six, so player 2 passes by default."""
    assert DEFAULT_CONFIG.stranger_gap == 4
    assert _strangers(build(FAR, players=3), DEFAULT_CONFIG) == (2,)
    assert _strangers(build(FAR, players=3), MATERIAL_ONLY) == ()  # stranger_gap 0


@pytest.mark.parametrize("config, depth, expected", [
    (replace(MATERIAL_ONLY, stranger_gap=3), 2, (Move(5, 0), 800)),
    (replace(MATERIAL_ONLY, stranger_gap=3), 1, (Move(10, 0), 550)),
])
def test_the_gap_passes_the_stranger_of_the_row_too(
        config: EvalConfig, depth: int, expected: Tuple[Move, int]) -> None:
    """ROW's holes leave player 2 out of every region of the root's, so no number of free
    cells joins it: the tree is the one `skip_strangers` searches (hand-worked above)."""
    player = SearchPlayer(PARANOID, config=config)
    assert (player.choose(build(ROW, players=3), 0, depth), player.last_value) == expected
