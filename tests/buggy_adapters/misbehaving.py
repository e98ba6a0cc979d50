"""Adapters that break the protocol, for tests/test_conform_runner.py.

    python tests/buggy_adapters/misbehaving.py MODE

Modes: `hang-on-perft` (never answers perft requests), `exit-on-game` (exits when asked for a
game), `garbage` (answers lines that are not JSON), `not-an-object` (answers a JSON list),
`wrong-types` (answers with the right keys holding the wrong types), `wrong-id` (echoes another
id), `chatty` (prints a log line on stdout before each answer), `crash-at-start` (exits at
once), `error` (answers {"error": ...}), otherwise the reference adapter.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any, Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from reversi_ref.specs.oracle import MapCache, answer  # noqa: E402


def respond(mode: str, request: Dict[str, Any], cache: MapCache) -> str:
    """The line to write for one request in `mode` (may hang or exit instead)."""
    kind = request.get("kind")
    if mode == "hang-on-perft" and kind == "perft":
        time.sleep(3600)
    if mode == "exit-on-game" and kind == "game":
        sys.exit(3)
    if mode == "garbage":
        return "this is not json"
    if mode == "not-an-object":
        return "[1, 2, 3]"
    if mode == "error":
        return json.dumps({"error": "something broke"})
    if mode == "wrong-id":
        return json.dumps(dict(answer(request, cache), id="somebody/else"))
    if mode == "wrong-types":
        return json.dumps({"moves": "none", "state": [], "nodes": "12", "states": {},
                           "map": 3})
    if mode == "chatty":
        sys.stdout.write("log: thinking about %s\n" % request.get("id"))
    return json.dumps(answer(request, cache))


def main(argv: List[str]) -> int:
    """Serve requests in the given mode."""
    mode = argv[0] if argv else ""
    if mode == "crash-at-start":
        print("cannot start: missing library", file=sys.stderr)
        return 4
    cache = MapCache()
    for line in sys.stdin:
        sys.stdout.write(respond(mode, json.loads(line), cache) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
