"""Tests of the search players (`search`, `brs`, `mcts`) on hand-made positions.

Every expected move is worked out by hand in the docstring, from RULES.md 3-5 and 7; the
positions are single rows split by holes, so that only east-west lines capture.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Tuple

from helpers import MATERIAL_ONLY, bombing, brute_force, build
from reversi_ref import Move, legal_moves, play
from reversi_ref.engine import Engine
from reversi_ref.players import get
from reversi_ref.players.greedy import GreedyPlayer
from reversi_ref.players.mcts import MctsPlayer
from reversi_ref.players.search import SearchPlayer
from reversi_ref.search.alphabeta import BRS, MAX_SWAP_CELLS, PARANOID, Searcher
from reversi_ref.search.analysis import MapAnalysis
from reversi_ref.search.config import DEFAULT_CONFIG, EvalConfig
from reversi_ref.search.evaluate import Evaluator

# Player 1 to move has two moves (RULES.md 3):
# - (0, 0) captures the 2 at (1, 0); then player 2 has no move (its only stones are in the
#   right segment, where (10, 0) walks onto its own stone), player 1 plays (10, 0) capturing
#   two more, and nobody can move: 9 to 0, player 1 wins (RULES.md 4, 7);
# - (10, 0) captures two (what greedy takes); then player 2 plays (5, 0), capturing
#   (2..4, 0) against its stone at (1, 0), and nobody can move: player 1 has 4, player 2 5.
TRAP = "0 2 1 1 1 0 - 1 2 2 0"

# Three players (RULES.md 3-4).  Segments, left to right:
#   x0..4   "0 2 1 1 0": player 2 threatens (4, 0), capturing two of player 1's stones;
#   x6..10  "0 3 1 1 0": player 3 threatens (10, 0), capturing two;
#   x12..17 "0 2 1 1 1 0": player 2 threatens (17, 0), capturing three;
#   x19..21 "3 2 0": player 3 can always play (21, 0), capturing one stone of player 2.
# Player 1 can only play the left end of a threat segment, capturing the 2 or 3 there and
# removing that threat.  Counts: player 1 has 7, player 2 3, player 3 2.  Material value
# V = 100 * (s1 - (s2 + s3) / 2).
# Paranoid to depth 3 (player 1, 2, 3 each move once):
#   (0, 0):  9/2/2 -> 2 takes three (6/6/2) -> 3 takes two (4/6/5): V = -150 (3's best);
#   (6, 0):  9/3/1 -> 2 takes three (6/7/1) -> 3 only the last segment (6/6/3): V = 150,
#            2 taking two instead gives 300, so 2 takes three: V = 150;
#   (12, 0): 9/2/2 -> 2 takes two (7/5/2) -> 3 takes two (5/5/5): V = 0.
#   Paranoid plays (6, 0).
# Best-reply to depth 2 (player 1, then the one most harmful reply of 2 or 3):
#   (0, 0):  replies 6/6/2 = 200, 7/2/5 = 350, 9/1/4 = 650: V = 200;
#   (6, 0):  replies 7/6/1 = 350, 6/7/1 = 200, 9/2/3 = 650: V = 200;
#   (12, 0): replies 7/5/2 = 350, 7/2/5 = 350, 9/1/4 = 650: V = 350.
#   Best-reply plays (12, 0).
THREATS = "0 2 1 1 0 - 0 3 1 1 0 - 0 2 1 1 1 0 - 3 2 0"


def test_greedy_falls_into_the_trap() -> None:
    """RULES.md 3: greedy takes the two stones at (10, 0), which the trap is built on."""
    assert GreedyPlayer().choose(build(TRAP), 0, 1) == Move(10, 0)


def test_trap_loses_after_the_greedy_move() -> None:
    """RULES.md 3, 4, 7: the hand-worked line after (10, 0) ends 4 to 5."""
    state = play(play(build(TRAP), Move(10, 0)), Move(5, 0))
    assert state.phase == "over"
    assert state.board.count("1") == 4 and state.board.count("2") == 5


def test_search_finds_the_forced_win() -> None:
    """RULES.md 3, 4, 7: paranoid search to depth 2 plays the winning (0, 0)."""
    player = SearchPlayer(PARANOID)
    assert player.choose(build(TRAP), 0, 2) == Move(0, 0)
    assert player.info.depth == 2


def test_search_says_when_it_stopped_on_a_proven_result() -> None:
    """RULES.md 4, 7: the line after (0, 0) ends the game won within two plies, so deepening
    stops there, well short of the depth allowed, and says the result is proven; on THREATS
    nothing is decided within three plies, so the search goes the whole depth unproven."""
    player = SearchPlayer(PARANOID)
    assert player.choose(build(TRAP), 0, 8) == Move(0, 0)
    assert player.info.proven and player.info.depth < 8
    player.choose(build(THREATS, players=3), 0, 3)
    assert not player.info.proven and player.info.depth == 3


def test_best_reply_search_finds_the_forced_win() -> None:
    """RULES.md 3, 4, 7: best-reply search to depth 2 plays the winning (0, 0)."""
    assert SearchPlayer(BRS).choose(build(TRAP), 0, 2) == Move(0, 0)


def test_mcts_finds_the_forced_win() -> None:
    """RULES.md 3, 4, 7: MCTS with 500 iterations prefers the winning (0, 0)."""
    assert MctsPlayer(random.Random(5)).choose(build(TRAP), 0, 5) == Move(0, 0)


def test_paranoid_assumes_every_opponent_strikes_in_turn() -> None:
    """RULES.md 3-4: paranoid to depth 3 plays (6, 0) (hand-worked values above)."""
    state = build(THREATS, players=3)
    assert SearchPlayer(PARANOID, config=MATERIAL_ONLY).choose(state, 0, 3) == Move(6, 0)


def test_best_reply_assumes_only_the_strongest_reply() -> None:
    """RULES.md 3-4: best-reply search to depth 2 plays (12, 0) (hand-worked values above)."""
    state = build(THREATS, players=3)
    assert SearchPlayer(BRS, config=MATERIAL_ONLY).choose(state, 0, 2) == Move(12, 0)


def test_bomb_goes_to_the_player_just_above() -> None:
    """RULES.md 5, 7: player 1 (5 stones) is second behind player 2 (6) and far ahead of
    player 3 (1); a strength-0 bomb on a stone of player 2 draws level for first place,
    anything else changes no place."""
    state = bombing("3 1 1 1 1 1 2 2 2 2 2 2", players=3, bombs_per_player=[1, 0, 0])
    move = SearchPlayer(PARANOID).choose(state, 0, 1)
    assert state.cell(move.x, move.y) == "2"


def test_bomb_spares_own_stones_when_leading() -> None:
    """RULES.md 5, 7: player 1 leads 4 to 3; bombing player 2 (strength 0) widens the lead,
    so the target holds a 2."""
    state = bombing("1 1 1 1 0 2 2 2", bombs_per_player=[1, 1])
    move = SearchPlayer(BRS).choose(state, 0, 1)
    assert state.cell(move.x, move.y) == "2"


# Two players, strength 1 (a bomb removes its target and the cells next to it, which become
# holes), player 1 holds two bombs and player 2 one; the order is 1, 2, 1 (RULES.md 5).
#   x:  0 1 2 3 4 5 6 7
#       1 0 0 0 1 2 2 0
# - (6, 0) wipes out player 2 at once (the best single bomb), but player 2 answers at (1, 0),
#   leaving player 1 only (4, 0) and the empty (3, 0): player 1's last bomb must fall there
#   and removes its own stone, 0 to 0;
# - (2, 0) blasts empty cells; whatever player 2 does, player 1's last bomb then removes player
#   2's remaining stones and keeps one of its own: 1 to 0 (and only (2, 0) wins).
LAST_BOMB = "1 0 0 0 1 2 2 0"


def test_bomb_search_sees_the_forced_last_bomb() -> None:
    """RULES.md 5, 7: one bomb deep the search takes (6, 0); three bombs deep (the whole
    phase) it takes (2, 0), the only winning target (worked above)."""
    state = bombing(LAST_BOMB, strength=1, bombs_per_player=[2, 1])
    assert SearchPlayer(PARANOID).choose(state, 0, 1) == Move(6, 0)
    assert SearchPlayer(PARANOID).choose(state, 0, 3) == Move(2, 0)


def test_bomb_search_matches_exhaustive_search() -> None:
    """RULES.md 5, 7: searching the whole bombing phase (beam wider than the board) with
    paranoid opponents, the target taken is one with the best outcome that trying every line
    with the readable rules finds, on 60 random one-row positions; one bomb deep misses it on
    some of them.  (With three players the default models the opponents as climbers instead:
    tests/test_endgame.py checks that search against climbers.)"""
    wide = replace(DEFAULT_CONFIG, bomb_candidates=99, bomb_climbers=False)
    one_deep_missed = 0
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        players = rng.choice([2, 3])
        cells = " ".join(rng.choice("0123"[:players + 1]) for _ in range(rng.randint(6, 9)))
        bombs = [max(1, rng.randint(0, 2))] + [rng.randint(0, 2) for _ in range(players - 1)]
        state = bombing(cells, players=players, strength=rng.randint(0, 1),
                        bombs_per_player=bombs)
        best = brute_force(state, 1, {})
        deep = SearchPlayer(PARANOID, config=wide).choose(state, 0, 10)
        assert brute_force(play(state, deep), 1, {}) == best, (seed, cells, bombs)
        one = SearchPlayer(PARANOID, config=wide).choose(state, 0, 1)
        one_deep_missed += brute_force(play(state, one), 1, {}) != best
        checked += 1
    assert checked == 60 and one_deep_missed > 0


# Player 1's only moves are the bonus tile (2, 0) with special 20 or 21 (capturing (1, 0));
# afterwards player 2 can still play (0, 2), so the game goes on in phase 1 (RULES.md 3-4).
BONUS = "1 2 b 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n0 1 2 - 0 0 0 0 0"


def test_bonus_choice_follows_the_bomb_value() -> None:
    """RULES.md 3: a bomb of strength 4 blasts up to 81 cells (here all 26 non-hole cells,
    40 points each in the default config) and is worth more than one override stone (350 to
    600 points), so the search takes special 20."""
    state = build(BONUS, bombs=0, strength=4)
    assert sorted(legal_moves(state)) == [Move(2, 0, 20), Move(2, 0, 21)]
    assert SearchPlayer(PARANOID).choose(state, 0, 1) == Move(2, 0, 20)


def test_bonus_choice_prefers_override_for_a_weak_bomb() -> None:
    """RULES.md 3: with strength 0 a bomb removes one cell (40 points) and an override stone
    is worth more, so the search takes special 21."""
    state = build(BONUS, bombs=0, strength=0)
    assert SearchPlayer(PARANOID).choose(state, 0, 1) == Move(2, 0, 21)


def test_choice_tile_swaps_with_the_leader() -> None:
    """RULES.md 3, 7: player 1 plays the choice tile (6, 0), capturing (5, 0): then player 1
    has 3 stones and player 2 has 4 and the board is full; naming player 2 swaps them and
    wins 4 to 3, naming itself loses 3 to 4."""
    state = build("2 2 2 2 1 2 c", bombs=0)
    assert SearchPlayer(PARANOID).choose(state, 0, 1) == Move(6, 0, 2)
    assert SearchPlayer(BRS).choose(state, 0, 1) == Move(6, 0, 2)


# Player 1 to move, material only (100 points per stone of lead, RULES.md 3, 7).  Segments:
#   x0..6   "c 1 0 2 2 1 2": player 1 can play (2, 0), capturing (3, 0) and (4, 0) against
#           (5, 0); the row is then "c 1 1 1 1 1 2", and player 2 can take the choice tile
#           (0, 0), capturing the five 1s against (6, 0);
#   x8..10  "1 2 0": player 1 can play (10, 0), capturing (9, 0);
#   x12..14 "2 1 0": player 2 can play (14, 0), capturing (13, 0).
# Counts 4 to 5.  After (2, 0): 7 to 3, static value 400, but player 2 can take the tile:
# 9 to 2 naming itself (-700; naming player 1 would give +700).  After (10, 0): 6 to 4,
# value 200, and player 2 has no choice or inversion move.  So depth 1 with swap quiescence:
# (2, 0) is worth -700, (10, 0) 200, play (10, 0), value 200; without it (2, 0) at 400.
SWAP_THREAT = "c 1 0 2 2 1 2 - 1 2 0 - 2 1 0"


def _depth_one(config: EvalConfig) -> Tuple[Move, int]:
    player = SearchPlayer(PARANOID, config=config)
    move = player.choose(build(SWAP_THREAT), 0, 1)
    return move, player.last_value


def test_swap_quiescence_sees_the_choice_tile_behind_the_horizon() -> None:
    """At a depth-1 leaf where the opponent can take a choice tile, the leaf is valued as
    the opponent's better of declining and taking it (hand-worked above)."""
    assert _depth_one(MATERIAL_ONLY) == (Move(10, 0), 200)


def test_without_swap_quiescence_the_leaf_is_static() -> None:
    """The same search with the switch off takes the static value of the leaf, so it walks
    into the swap; this is what the quiescence is for."""
    assert _depth_one(replace(MATERIAL_ONLY, swap_quiescence=False)) == (Move(2, 0), 400)


def test_deeper_search_agrees_with_the_quiescence() -> None:
    """RULES.md 3: two plies deep, without quiescence, the search finds the swap itself and
    also avoids (2, 0)."""
    player = SearchPlayer(PARANOID, config=replace(MATERIAL_ONLY, swap_quiescence=False))
    assert player.choose(build(SWAP_THREAT), 0, 2) == Move(10, 0)


def test_swap_quiescence_is_off_on_maps_full_of_tiles() -> None:
    """With more than MAX_SWAP_CELLS choice and inversion tiles the leaves are left static;
    with that many or fewer the searcher knows every tile cell."""
    for tiles in (MAX_SWAP_CELLS, MAX_SWAP_CELLS + 1):
        state = build("1 2 0 " + " ".join("ci"[i % 2] for i in range(tiles)))
        engine = Engine(state)
        evaluator = Evaluator(engine, MapAnalysis(state.map), DEFAULT_CONFIG)
        searcher = Searcher(engine, evaluator, DEFAULT_CONFIG)
        expected = list(range(3, 3 + tiles)) if tiles <= MAX_SWAP_CELLS else []
        assert searcher.swap_cells == expected


def test_search_players_are_registered() -> None:
    """The registry builds the three search players by name."""
    for name in ("search", "brs", "mcts"):
        assert get(name, 3).name == name


def test_search_is_deterministic_without_a_time_limit() -> None:
    """The same position and depth give the same move (and the same node count)."""
    state = build("0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 1 2 0 0\n0 0 2 1 0 0\n0 0 0 0 0 0\n"
                  "0 0 0 0 0 0")
    first = SearchPlayer(BRS)
    second = SearchPlayer(BRS)
    assert first.choose(state, 0, 3) == second.choose(state, 0, 3)
    assert first.info == second.info


def test_mcts_is_deterministic_given_the_seed() -> None:
    """The same seed and iteration count give the same move."""
    state = build("0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 1 2 0 0\n0 0 2 1 0 0\n0 0 0 0 0 0\n"
                  "0 0 0 0 0 0")
    moves = {MctsPlayer(random.Random(9)).choose(state, 0, 2) for _ in range(3)}
    assert len(moves) == 1


def test_search_plays_only_legal_moves_with_specials() -> None:
    """RULES.md 3: from random positions of a map with every special tile and override
    stones, each search player's move is legal."""
    cells = ("0 0 0 0 0 0\n0 c 0 0 b 0\n0 0 1 2 0 0\n0 0 2 1 i 0\n0 x 0 0 0 0\n0 0 0 0 0 0")
    rng = random.Random(11)
    for game in range(4):
        state = build(cells, overrides=2, bombs=1, strength=1)
        for _ in range(rng.randrange(12)):
            moves = legal_moves(state)
            if not moves or state.phase != "build":
                break
            state = play(state, moves[rng.randrange(len(moves))])
        if state.phase == "over":
            continue
        for name in ("search", "brs", "mcts"):
            move = get(name, game).choose(state, 0, 2)
            assert move in legal_moves(state)


def test_material_only_config_is_a_valid_config() -> None:
    """The test config above only changes weights."""
    assert isinstance(MATERIAL_ONLY, EvalConfig)
