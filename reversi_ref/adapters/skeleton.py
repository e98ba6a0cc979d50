"""A skeleton adapter for the reversi-ref golden suite: port it to your engine's language.

Run it as `python reversi_ref/adapters/skeleton.py` (it needs nothing but the standard
library).  As it is, it answers every request with "unsupported", so

    reversi-ref conform --engine "python reversi_ref/adapters/skeleton.py"

passes with every case reported as unsupported.  Fill in one handler at a time; each one you
implement turns its cases from "unsupported" into passed or failed.  The protocol is in
specs/README.md ("Adapter protocol"); the comments below are a summary.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Dict

# One request per line on stdin, one answer per line on stdout (flush after each!).  Write
# logs to stderr only: anything else on stdout is read as an answer.
#
# Every request has:
#   "id"     the case id (echoing it back in the answer is optional)
#   "kind"   "legal_moves", "apply", "perft", "game" or "map"
#   "map"    the map file text (parse it as RULES.md section 1 says)
#   "state"  the position, or null for "map" requests:
#              {"board": ["0021", ...],   rows top to bottom, one character per cell
#               "to_move": 1,             player to move, null when the game is over
#               "phase": "build",         "build", "bomb" or "over"
#               "overrides": [2, 0],      per player 1..n
#               "bombs": [1, 1],          per player 1..n
#               "disqualified": [3]}      players out of the game
#            The board replaces the map's cells; transitions, player count and bomb strength
#            come from the map text.
#
# Any request may be answered {"unsupported": "why"} (counted as not checked) or
# {"error": "what went wrong"} (counted as a failure).


def legal_moves(request: Dict[str, Any]) -> Dict[str, Any]:
    """Answer {"moves": [[x, y, special], ...]}: every legal move of the player to move.

    A choice tile gives one move per player 1..n (special = the player), a bonus tile two
    moves (20 = bomb, 21 = override stone); everything else has special 0.  In the bombing
    phase every non-hole cell is a move.  Order does not matter; duplicates are failures.
    """
    return {"unsupported": "legal_moves not implemented yet"}


def apply(request: Dict[str, Any]) -> Dict[str, Any]:
    """Play request["move"] = [x, y, special] for the player to move, or disqualify player
    request["disqualify"].  Answer {"state": <the state after, including the next player to
    move and the phase>} or, when the move is not legal, {"illegal": true, "reason": "..."}.
    """
    return {"unsupported": "apply not implemented yet"}


def perft(request: Dict[str, Any]) -> Dict[str, Any]:
    """Answer {"nodes": N}: the number of leaves request["depth"] plies below the position
    (one ply per legal move; skipped players and the phase change take no ply; a finished
    game is one leaf)."""
    return {"unsupported": "perft not implemented yet"}


def game(request: Dict[str, Any]) -> Dict[str, Any]:
    """Play request["steps"] in order, each {"move": [x, y, special]} or {"disqualify": p}.
    Answer {"states": [<state after each step>], "ranking": [[rank, player, score], ...]}
    with the ranking of the final position (players still in the game, best first, equal
    scores sharing a rank)."""
    return {"unsupported": "game not implemented yet"}


def load_map(request: Dict[str, Any]) -> Dict[str, Any]:
    """Parse request["map"].  Answer
    {"map": {"players", "overrides", "bombs", "strength", "height", "width",
             "transitions": [[x1, y1, d1, x2, y2, d2], ...]},
     "state": <the initial state>}
    or, when the official server would reject it, {"rejected": true, "reason": "...",
    "problem": P, "line": L, "column": C}: P the server's problem id (specs/README.md), line
    and column (1-based) of the token where its reading fails; all three may be left out."""
    return {"unsupported": "map loading not implemented yet"}


HANDLERS = {
    "legal_moves": legal_moves,
    "apply": apply,
    "perft": perft,
    "game": game,
    "map": load_map,
}


def main() -> int:
    """Read requests until stdin ends; answer each one on its own line."""
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            handler = HANDLERS.get(request.get("kind"))
            if handler is None:
                answer: Dict[str, Any] = {"error": "unknown kind %r" % request.get("kind")}
            else:
                answer = handler(request)
        except Exception as error:  # never die on one bad request
            answer = {"error": "%s: %s" % (type(error).__name__, error)}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
