"""The reference adapter: reversi-ref answering golden-suite requests over the adapter protocol.

    python -m reversi_ref.adapters.reference          # the readable rules (reversi_ref.rules)
    python -m reversi_ref.adapters.reference --fast   # the fast engine (reversi_ref.engine)

With `--fast` legal moves, moves, disqualifications, perft and games are computed by the fast
engine, so running the suite through it checks the engine against the rules-generated suite;
map loading and the wording of rejection reasons still come from the readable code.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Dict, List, Optional

from ..errors import IllegalMoveError
from ..specs.codec import JSONObject, SpecError, move_from_json, move_to_json, state_to_json
from ..specs.oracle import MapCache, answer, ranking_to_json, request_state
from . import serve


class FastAnswerer:
    """Answers requests with the fast engine where the engine has the operation."""

    def __init__(self) -> None:
        self.cache = MapCache()

    def __call__(self, request: JSONObject) -> JSONObject:
        kind = request.get("kind")
        if kind not in ("legal_moves", "apply", "perft", "game"):
            return answer(request, self.cache)
        from ..engine import Engine
        try:
            state = request_state(request, self.cache)
        except SpecError as error:
            return {"error": str(error)}
        engine = Engine.from_state(state)
        if kind == "legal_moves":
            return {"moves": [move_to_json(engine.decode_move(m)) for m in engine.legal_moves()]}
        if kind == "perft":
            depth = request.get("depth")
            if not isinstance(depth, int) or depth < 0:
                return {"error": "perft needs a depth >= 0"}
            return {"nodes": engine.perft(depth)}
        if kind == "apply":
            step: Dict[str, Any] = {k: request[k] for k in ("move", "disqualify") if k in request}
            reason = self._step(engine, step)
            if reason is not None:
                return {"illegal": True, "reason": reason}
            return {"state": state_to_json(engine.to_state())}
        steps = request.get("steps")
        if not isinstance(steps, list):
            return {"error": "a game request needs a list of steps"}
        states: List[JSONObject] = []
        for number, step in enumerate(steps):
            reason = self._step(engine, step)
            if reason is not None:
                return {"error": "step %d is illegal: %s" % (number, reason)}
            states.append(state_to_json(engine.to_state()))
        return {"states": states, "ranking": ranking_to_json(engine.to_state())}

    @staticmethod
    def _step(engine: Any, step: Any) -> Optional[str]:
        """Play one step on the engine; the reason when the move is illegal, else None."""
        if not isinstance(step, dict):
            raise SpecError("a step must be an object")
        if "disqualify" in step:
            player = step["disqualify"]
            if not isinstance(player, int) or not 1 <= player <= engine.players:
                raise SpecError("disqualify must name a player")
            engine.disqualify(player)
            return None
        move = move_from_json(step.get("move"))
        if engine.is_over():
            return "the game is over"
        try:
            encoded = engine.encode_move(move)
        except IllegalMoveError as error:
            return str(error)
        if not engine.is_legal(encoded):
            return "not a legal move (fast engine)"
        engine.make(encoded)
        return None


def main(argv: Optional[List[str]] = None) -> int:
    """Serve requests on stdin/stdout until the input ends."""
    parser = argparse.ArgumentParser(prog="python -m reversi_ref.adapters.reference",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--fast", action="store_true",
                        help="answer with the fast engine instead of the readable rules")
    args = parser.parse_args(argv)
    if args.fast:
        return serve(FastAnswerer())
    cache = MapCache()
    return serve(lambda request: answer(request, cache))


if __name__ == "__main__":
    sys.exit(main())
