"""The readable rules answering adapter requests: the expected answers of the golden suite.

`answer(request)` takes one request of the adapter protocol (specs/README.md, "Adapter
protocol") and returns the answer the rules give.  The suite generator stores these answers as
each case's `expected`; the reference adapter sends them back over the protocol.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from ..errors import IllegalMoveError, MapError
from ..geometry import Map
from ..mapfile import read_map
from ..perft import reference_perft
from ..rules import disqualify, initial_state, legal_moves, play, ranking
from ..state import GameState
from .codec import (JSON, JSONObject, SpecError, map_to_json, move_from_json, move_to_json,
                    state_from_json, state_to_json)

# Request kinds of the protocol, and the case kinds sent as each.
WIRE_KINDS = ("legal_moves", "apply", "perft", "game", "map")
CASE_KINDS = ("legal_moves", "apply", "illegal", "perft", "game", "map_load", "map_reject")
WIRE_KIND_OF_CASE = {
    "legal_moves": "legal_moves", "apply": "apply", "illegal": "apply", "perft": "perft",
    "game": "game", "map_load": "map", "map_reject": "map",
}


class MapCache:
    """Parsed maps by text, so a run over many cases on one map parses it once."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.maps: Dict[str, Map] = {}

    def get(self, text: str) -> Map:
        """The parsed map (raises MapError)."""
        found = self.maps.get(text)
        if found is None:
            found = read_map(text)
            if len(self.maps) >= self.size:
                self.maps.pop(next(iter(self.maps)))
            self.maps[text] = found
        return found


_CACHE = MapCache()


def ranking_to_json(state: GameState) -> List[List[int]]:
    """`[[rank, player, score], ...]`, best first (RULES.md 7)."""
    return [[s.rank, s.player, s.score] for s in ranking(state)]


def apply_step(state: GameState, step: JSON) -> GameState:
    """The state after one step `{"move": [x, y, s]}` or `{"disqualify": p}`.

    Raises IllegalMoveError for an illegal move and SpecError for a malformed step.
    """
    if not isinstance(step, dict) or len(step) != 1:
        raise SpecError('a step must be {"move": [x, y, special]} or {"disqualify": player}')
    if "move" in step:
        return play(state, move_from_json(step["move"]))
    player = step.get("disqualify")
    if not isinstance(player, int) or isinstance(player, bool) or not (
            1 <= player <= state.players):
        raise SpecError("disqualify must name a player 1..%d" % state.players)
    return disqualify(state, player)


def request_state(request: JSONObject, cache: Optional[MapCache] = None) -> GameState:
    """The position a request describes: its `state` on its `map` (initial state if null)."""
    text = request.get("map")
    if not isinstance(text, str):
        raise SpecError("request has no map text")
    game_map = (cache or _CACHE).get(text)
    value = request.get("state")
    if value is None:
        return initial_state(game_map)
    return state_from_json(game_map, value)


def _step_of(request: JSONObject) -> JSONObject:
    if "move" in request:
        return {"move": request["move"]}
    if "disqualify" in request:
        return {"disqualify": request["disqualify"]}
    raise SpecError('an apply request needs "move" or "disqualify"')


def answer(request: JSONObject, cache: Optional[MapCache] = None) -> JSONObject:
    """The rules' answer to one request (an `{"error": ...}` answer for a malformed one)."""
    try:
        return _answer(request, cache)
    except SpecError as error:
        return {"error": str(error)}
    except MapError as error:
        return {"error": "bad map: %s" % error}


def _answer(request: JSONObject, cache: Optional[MapCache]) -> JSONObject:
    kind = request.get("kind")
    if kind == "map":
        text = request.get("map")
        if not isinstance(text, str):
            raise SpecError("request has no map text")
        return map_answer(text)
    state = request_state(request, cache)
    if kind == "legal_moves":
        return {"moves": [move_to_json(m) for m in legal_moves(state)]}
    if kind == "apply":
        try:
            after = apply_step(state, _step_of(request))
        except IllegalMoveError as error:
            return {"illegal": True, "reason": error.rule}
        return {"state": state_to_json(after)}
    if kind == "perft":
        depth = request.get("depth")
        if not isinstance(depth, int) or depth < 0:
            raise SpecError("perft needs a depth >= 0")
        return {"nodes": reference_perft(state, depth)}
    if kind == "game":
        steps = request.get("steps")
        if not isinstance(steps, list):
            raise SpecError("a game request needs a list of steps")
        states: List[JSONObject] = []
        for number, step in enumerate(steps):
            try:
                state = apply_step(state, step)
            except IllegalMoveError as error:
                return {"error": "step %d is illegal: %s" % (number, error)}
            states.append(state_to_json(state))
        return {"states": states, "ranking": ranking_to_json(state)}
    raise SpecError("unknown request kind %r" % (kind,))


def map_answer(text: str) -> JSONObject:
    """The answer to a `map` request: the map and its initial state, or the rejection with
    the problem named and where the server's reading fails."""
    try:
        game_map = read_map(text)
    except MapError as error:
        answer: JSONObject = {"rejected": True, "reason": error.reason, "line": error.line,
                              "column": error.column}
        problem = getattr(error, "problem", None)
        if problem:
            answer["problem"] = problem
        return answer
    return {"map": map_to_json(game_map), "state": state_to_json(initial_state(game_map))}


def request_of_case(case: JSONObject) -> JSONObject:
    """The request the conformance runner sends for a suite case (specs/README.md)."""
    query = case["query"]
    request: Dict[str, Any] = {"id": case["id"], "kind": WIRE_KIND_OF_CASE[query["kind"]],
                               "map": case["map"], "state": case["state"]}
    for key, value in query.items():
        if key != "kind":
            request[key] = value
    return request
