"""`EvalConfig.brs_players`: the `search` player searches by best-reply search on maps with at
least that many players, and paranoid below.  Checked against the `brs` and `search` players
themselves on positions where the two searches disagree (so the check can tell them apart)."""

from __future__ import annotations

from dataclasses import replace
from typing import Tuple

import pytest

from helpers import bench_position
from reversi_ref.players.search import SearchPlayer
from reversi_ref.search.alphabeta import BRS, PARANOID
from reversi_ref.search.config import DEFAULT_CONFIG, EvalConfig
from reversi_ref.state import GameState, Move

FROM_FIVE = replace(DEFAULT_CONFIG, brs_players=5)


def choice(mode: str, config: EvalConfig, state: GameState) -> Tuple[Move, int, str]:
    """(move, value, mode searched) of a fresh player at depth 2, no clock."""
    player = SearchPlayer(mode, config=config)
    player.prepare(state)
    move = player.choose(state, 0, 2)
    assert player.searcher is not None
    return move, player.last_value, player.searcher.mode


def test_mode_by_player_count() -> None:
    switched = SearchPlayer(PARANOID, config=FROM_FIVE)
    assert [switched.mode_for(n) for n in (2, 4, 5, 8)] == [PARANOID, PARANOID, BRS, BRS]
    assert SearchPlayer(PARANOID).mode_for(8) == PARANOID          # 0: never
    assert SearchPlayer(BRS, config=FROM_FIVE).mode_for(2) == BRS  # brs stays brs


@pytest.mark.parametrize("name, ply", [("ring5p", 6), ("hexagon6p", 20)])
def test_many_players_search_as_brs(name: str, ply: int) -> None:
    state = bench_position(name, ply)
    paranoid = choice(PARANOID, DEFAULT_CONFIG, state)
    brs = choice(BRS, DEFAULT_CONFIG, state)
    assert paranoid[:2] != brs[:2]  # the position tells the two searches apart
    assert choice(PARANOID, FROM_FIVE, state) == brs


def test_fewer_players_stay_paranoid() -> None:
    state = bench_position("carnival4p", 20)
    paranoid = choice(PARANOID, DEFAULT_CONFIG, state)
    assert paranoid[:2] != choice(BRS, DEFAULT_CONFIG, state)[:2]
    assert choice(PARANOID, FROM_FIVE, state) == paranoid
