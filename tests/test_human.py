"""A person playing through the live page, without a browser: the desk that checks each click
with the rules (RULES.md 3-5) and refuses an illegal one naming the rule, the options a
choice or bonus tile offers, and a whole local game played by posting moves over HTTP."""

from __future__ import annotations

import json
import threading
import urllib.request
from typing import Any, Dict, List, Tuple

import pytest

from reversi_ref import legal_moves, parse_map
from reversi_ref.human import Desk, HumanPlayer, prompt_data, watch_seats
from reversi_ref.match import Game, run_match
from reversi_ref.players import get
from reversi_ref.watch import Hub
from helpers import OTHELLO6_WITH_BOMBS

# Player 1 to move: (1, 0) is a choice tile next to a 2 that a 1 closes, (3, 0) a bonus tile.
TILES = """2
0
0 0
3 5
1 c 2 b 1
0 2 0 2 0
0 1 0 1 0
"""

SMALL = OTHELLO6_WITH_BOMBS


def test_refuses_an_illegal_click_naming_the_rule() -> None:
    """RULES.md 3: a cell that captures nothing is refused with the rule, and the person is
    asked again; a legal click is taken and returned to the game."""
    state = parse_map(SMALL)
    hub = Hub()
    desk = Desk(hub)
    got: List[Any] = []
    thread = threading.Thread(target=lambda: got.append(desk.ask(state)))
    thread.start()
    while desk.state is None:
        thread.join(0.01)
    ok, why = desk.submit({"x": 0, "y": 0, "special": 0})
    assert not ok and why.startswith("RULES.md 3:")
    ok, why = desk.submit({"x": 4, "y": 2})
    assert ok and why == ""
    thread.join(10)
    assert got == [(4, 2, 0)]
    ok, why = desk.submit({"x": 4, "y": 2})
    assert not ok and why == "it is not your turn"


@pytest.mark.parametrize("data", [{"x": "1", "y": 2}, {"x": 1}, {"x": True, "y": 0},
                                  {"x": -1, "y": 0}, {"x": 0, "y": 0, "special": 256}])
def test_refuses_a_click_that_is_not_a_move(data: Dict[str, Any]) -> None:
    """RULES.md 8: x and y are uint16 and special a uint8; anything else is not a move."""
    desk = Desk(Hub())
    desk.state = parse_map(SMALL)
    ok, why = desk.submit(data)
    assert not ok and ("integers" in why or "0..65535" in why)


def test_prompt_offers_choice_and_bonus_options() -> None:
    """RULES.md 3: a choice tile offers one move per player to swap with, a bonus tile a bomb
    (20) or an override stone (21)."""
    state = parse_map(TILES)
    prompt = prompt_data(state)
    assert prompt["player"] == 1 and prompt["phase"] == "build"
    on: Dict[Tuple[int, int], List[int]] = {}
    for x, y, special in prompt["moves"]:
        on.setdefault((x, y), []).append(special)
    assert on[(1, 0)] == [1, 2]
    assert on[(3, 0)] == [20, 21]


def test_a_choice_click_without_its_player_is_refused() -> None:
    """RULES.md 3: on a choice tile the special byte must name a player."""
    desk = Desk(Hub())
    desk.state = parse_map(TILES)
    ok, why = desk.submit({"x": 1, "y": 0, "special": 0})
    assert not ok and "RULES.md 3" in why


def test_human_without_its_page_says_so() -> None:
    """A human seat outside `human` or `play` cannot move, and says why."""
    with pytest.raises(RuntimeError, match="needs its page"):
        HumanPlayer().choose(parse_map(SMALL), 0, 1)


def post(url: str, data: Dict[str, Any]) -> Dict[str, Any]:
    """POST `data` as JSON to `url`; the decoded answer."""
    request = urllib.request.Request(url, json.dumps(data).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        result: Dict[str, Any] = json.loads(answer.read().decode("utf-8"))
        return result


def test_play_human_against_greedy_over_http() -> None:
    """`play --players human,greedy`: the person's moves arrive as HTTP posts; an illegal
    one is refused with its rule and the game goes on to its end with nobody disqualified."""
    state = parse_map(SMALL)
    seats = {1: get("human"), 2: get("greedy")}
    watch = watch_seats(seats, state, None)
    assert watch is not None
    game = Game(state, SMALL)
    thread = threading.Thread(target=run_match, args=(game, seats, 1),
                              kwargs={"observer": watch.observer}, daemon=True)
    thread.start()
    refused = 0
    try:
        while thread.is_alive():
            asked = watch.desk.state
            if asked is None:
                thread.join(0.01)
                continue
            if not refused:
                answer = post(watch.watch.url + "move", {"x": 0, "y": 0, "special": 0})
                assert answer["ok"] is False and "RULES.md 3" in answer["error"]
                refused += 1
            move = legal_moves(asked)[0]
            assert post(watch.watch.url + "move", {"x": move.x, "y": move.y,
                                                   "special": move.special}) == {"ok": True}
        assert game.is_over and not game.state.disqualified
        assert game.trace["final"] is not None
    finally:
        watch.close()
