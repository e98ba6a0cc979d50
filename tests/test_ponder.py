"""Tests of pondering: a search player thinking on the other players' time (`Player.ponder`).

The interruption is counted in polls, not seconds, so every run searches the same nodes.  The
client's side (when it ponders and how fast it stops) is in `tests/test_client.py`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, List

import pytest

from helpers import bombing, build
from reversi_ref import initial_state, legal_moves, play, read_map_file
from reversi_ref.players.search import PollingClock, SearchPlayer
from reversi_ref.search.alphabeta import BRS, PARANOID
from reversi_ref.state import GameState

MAPS = Path(__file__).resolve().parent.parent / "maps"


def after_polls(count: int) -> Callable[[], bool]:
    """An `interrupted` that says yes from its `count`-th call on, counting its calls."""
    calls: List[int] = []

    def interrupted() -> bool:
        calls.append(1)
        return len(calls) >= count
    return interrupted


def midgame() -> GameState:
    """Othello 8x8 after six moves (always the first legal move), player 1 to move."""
    state = initial_state(read_map_file(MAPS / "othello8x8.map"))
    for _ in range(6):
        state = play(state, legal_moves(state)[0])
    assert state.to_move == 1
    return state


def test_polling_clock_stands_still_until_interrupted() -> None:
    """It reads 0.0 (before the deadline) until `interrupted()` says yes, asks it only every
    `every` reads, and stays past the deadline after that."""
    asked: List[int] = []

    def interrupted() -> bool:
        asked.append(1)
        return len(asked) == 3

    clock = PollingClock(interrupted, every=4)
    readings = [clock() for _ in range(16)]
    assert readings[:11] == [0.0] * 11
    assert readings[11:] == [PollingClock.PAST] * 5
    assert len(asked) == 3
    assert PollingClock.PAST > PollingClock.DEADLINE > 0.0


@pytest.mark.parametrize("mode", [PARANOID, BRS])
def test_ponder_deepens_and_leaves_the_position_as_it_was(mode: str) -> None:
    """Pondering for player 2 while player 1 is to move completes some depths, stops at the
    interruption, and the engine is back on the position it was given."""
    state = midgame()
    player = SearchPlayer(mode)
    player.prepare(state)
    depth = player.ponder(state, 2, after_polls(100))
    assert depth >= 2
    searcher = player.searcher
    assert searcher is not None and searcher.stopped
    assert searcher.nodes > 90 * 16 * 4
    engine = searcher.engine
    board, key = list(engine.board), engine.hash
    fresh = player.context.load(state).engine
    assert fresh.board == board and fresh.hash == key and engine.to_move == 1


def test_ponder_does_nothing_in_the_bombing_phase() -> None:
    """The bombing phase is not pondered, whoever is to move."""
    player = SearchPlayer()
    never: Callable[[], bool] = after_polls(10 ** 9)
    assert player.ponder(bombing("1 2 0 0 1", to_move=2), 1, never) == 0
    assert player.ponder(bombing("1 2 0 0 1", to_move=1), 1, never) == 0


def test_ponder_does_nothing_for_a_player_without_stones_or_moves() -> None:
    """RULES.md 4: player 2 has no stone and no override stone, so no move; pondering for it
    returns at once, without asking whether to stop.  Pondering for player 3, who has a
    stone, still searches."""
    state = build("1 3 0 0\n0 0 0 0\n0 0 0 1", players=3)
    asked: List[int] = []

    def never() -> bool:
        asked.append(1)
        return False
    assert SearchPlayer().ponder(state, 2, never) == 0
    assert asked == []
    assert SearchPlayer().ponder(state, 3, after_polls(50)) >= 1


@pytest.mark.parametrize("mode", [PARANOID, BRS])
def test_pondering_the_own_move_saves_work_on_it(mode: str) -> None:
    """Pondering with the player itself to move (the client does so before the first move
    request) searches its own move: afterwards the fixed-depth search of that same position
    visits fewer nodes than from cold, after a short and a longer pondering, and answers a
    legal move; the engine is back on the position it was given."""
    state = midgame()
    cold = SearchPlayer(mode)
    cold.prepare(state)
    cold.choose(state, 0, 4)
    assert cold.info.depth == 4
    for polls in (10, 40):
        warm = SearchPlayer(mode)
        warm.prepare(state)
        assert warm.ponder(state, 1, after_polls(polls)) >= 4
        searcher = warm.searcher
        assert searcher is not None and searcher.stopped and searcher.engine.to_move == 1
        board, key = list(searcher.engine.board), searcher.engine.hash
        fresh = warm.context.load(state).engine
        assert fresh.board == board and fresh.hash == key
        move = warm.choose(state, 0, 4)
        assert move in legal_moves(state) and warm.info.depth == 4
        assert warm.info.nodes < cold.info.nodes


@pytest.mark.parametrize("mode", [PARANOID, BRS])
def test_pondering_saves_work_on_the_next_move(mode: str) -> None:
    """After pondering for player 2 while player 1 thinks, player 2's fixed-depth search of
    the position after player 1's move visits fewer nodes than the same search from cold,
    summed over four lengths of pondering, and still answers a legal move.  (One length
    alone can save nothing: an iteration interrupted half-way leaves deeper bounds in the
    table where the shallower exact values were.)"""
    state = midgame()
    reply = play(state, legal_moves(state)[0])
    assert reply.to_move == 2
    cold = SearchPlayer(mode)
    cold.prepare(state)
    cold_move = cold.choose(reply, 0, 4)
    assert cold.info.depth == 4 and cold_move in legal_moves(reply)
    warm_nodes = 0
    for polls in (100, 400, 800, 1600):
        warm = SearchPlayer(mode)
        warm.prepare(state)
        assert warm.ponder(state, 2, after_polls(polls)) >= 4
        warm_move = warm.choose(reply, 0, 4)
        assert warm_move in legal_moves(reply) and warm.info.depth == 4
        warm_nodes += warm.info.nodes
    assert warm_nodes < 4 * cold.info.nodes


def test_a_ponder_clears_the_set_up_charge_of_the_first_move() -> None:
    """The first move is charged the time `prepare` took, in case its request was waiting
    meanwhile; once the player has pondered, the request came later, and the first move's
    deadlines start when it is asked (here a set-up of 0.4 s, on a clock standing still)."""
    state = midgame()

    def clock() -> float:
        return 100.0

    deadlines = []
    for ponders in (False, True):
        player = SearchPlayer(clock=clock)
        player.prepare(state)
        player.context.prepare_seconds = 0.4
        if ponders:
            assert player.ponder(state, 1, after_polls(5)) >= 1
        deadlines.append(player.context.begin_move(state, 1000).deadlines)
    charged, free = deadlines
    assert free.hard == pytest.approx(charged.hard + 0.4)
    assert free.soft == pytest.approx(charged.soft + 0.4)
    assert 100.0 < free.soft < free.hard < 101.0
