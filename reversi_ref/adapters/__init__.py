"""Adapters: programs that answer the golden suite's requests over the adapter protocol.

`reference` is reversi-ref itself (`python -m reversi_ref.adapters.reference`); `skeleton` is a
small commented adapter that answers "unsupported" to everything, meant to be ported to another
language and filled in.  `serve` is the request loop both use.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable, Dict, Optional, TextIO

Handler = Callable[[Dict[str, Any]], Dict[str, Any]]


def serve(handler: Handler, stdin: Optional[TextIO] = None,
          stdout: Optional[TextIO] = None) -> int:
    """Answer requests line by line until the input ends: one JSON answer line per request.

    A line that is not a JSON object gets an `{"error": ...}` answer; so does a request the
    handler fails on (the error's type and text, never a traceback on stdout).
    """
    source = stdin if stdin is not None else sys.stdin
    sink = stdout if stdout is not None else sys.stdout
    for line in source:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError as error:
            answer: Dict[str, Any] = {"error": "request is not JSON: %s" % error}
        else:
            if not isinstance(request, dict):
                answer = {"error": "request is not a JSON object"}
            else:
                try:
                    answer = handler(request)
                except Exception as error:  # report, keep serving the next request
                    answer = {"error": "%s: %s" % (type(error).__name__, error)}
                if "id" in request and "id" not in answer:
                    answer = dict(answer, id=request["id"])
        sink.write(json.dumps(answer, separators=(",", ":")) + "\n")
        sink.flush()
    return 0
