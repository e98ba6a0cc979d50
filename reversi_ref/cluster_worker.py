"""`python -m reversi_ref.cluster_worker`: play games for a Dask worker, one per line.

Reads one game spec per line (JSON, `cluster.spec_to_dict`) on stdin and answers each with one
line, `{"record": ...}` or `{"error": "..."}`.  A Dask worker running CPython starts this under
`pypy3` once and keeps it, so its games run on the JIT (`reversi_ref.cluster.play_group`).
"""

from __future__ import annotations

import json
import sys
from typing import Any, Dict, Optional, TextIO

from .cluster import spec_from_dict
from .tournament import play_game


def serve(source: TextIO, sink: TextIO) -> None:
    """Answer every spec line of `source` on `sink` until it ends."""
    for line in source:
        if not line.strip():
            continue
        answer: Dict[str, Any]
        try:
            answer = {"record": play_game(spec_from_dict(json.loads(line)))}
        except Exception as error:  # reported to the worker, which retries elsewhere
            answer = {"error": "%s: %s" % (type(error).__name__, error)}
        try:
            sink.write(json.dumps(answer) + "\n")
            sink.flush()
        except BrokenPipeError:  # the worker went away (cluster closed): nobody to answer
            return


def main(argv: Optional[list] = None) -> int:  # type: ignore[type-arg]
    """Serve stdin to stdout."""
    serve(sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
