"""Our map loader against the official `mapinfo` (RULES.md 1), when it is at hand.

Set REVERSI_REF_OFFICIAL to a directory holding the official `mapinfo`; without it these tests
skip. The binaries are not part of reversi-ref and are never fetched by it.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import List

import pytest

from reversi_ref.mapfuzz import (Verdict, agree, fuzz, generate_map_bytes, run_mapinfo, run_ours,
                                 server_problem)

SHARED_MAPS = Path(__file__).resolve().parents[1].parent / "shared" / "maps"


def official_mapinfo() -> str:
    """The path of the official mapinfo, or skip the test."""
    directory = os.environ.get("REVERSI_REF_OFFICIAL")
    if not directory:
        pytest.skip("REVERSI_REF_OFFICIAL is not set")
    path = Path(directory) / "mapinfo"
    if not (path.is_file() and os.access(str(path), os.X_OK)):
        pytest.skip("no executable mapinfo in REVERSI_REF_OFFICIAL")
    return str(path)


def test_fuzzed_maps_get_the_servers_verdict() -> None:
    """RULES.md 1: 300 fuzzed maps (seed 18): the same verdict, problem and place."""
    mapinfo = official_mapinfo()
    cases = fuzz(mapinfo, 300, 18, jobs=4)
    bad = [(case.number, case.data[:200], case.server, case.ours)
           for case in cases if not agree(case.server, case.ours)]
    assert bad == []
    # The batch exercises both sides of the line.
    assert 30 < sum(1 for case in cases if case.server.loads) < 270


def test_shared_maps_get_the_servers_verdict() -> None:
    """RULES.md 1: each competition map is loaded or rejected as the server does."""
    mapinfo = official_mapinfo()
    if not SHARED_MAPS.is_dir():
        pytest.skip("../shared/maps is not present")
    disagreements: List[str] = []
    for path in sorted(SHARED_MAPS.glob("*.map")):
        data = path.read_bytes()
        server, ours = run_mapinfo(mapinfo, data), run_ours(data)
        if not agree(server, ours):
            disagreements.append("%s: server %s, ours %s" % (path.name, server, ours))
    assert disagreements == []


def test_generator_is_deterministic() -> None:
    """The fuzzer's maps depend on the seed only (no binaries needed)."""
    def batch(seed: int) -> List[bytes]:
        rng = random.Random(seed)
        return [generate_map_bytes(rng) for _ in range(20)]
    assert batch(5) == batch(5)
    assert batch(5) != batch(6)


@pytest.mark.parametrize("message, problem", [
    ("invalid number of players", "invalid-player-count"),
    ("board truncated before bomb power!", "header-truncated"),
    ("dimensions too large (max 1000x1000)", "dimensions-too-large"),
    ("board truncated at (x,y) = (1,1)", "board-truncated"),
    ("invalid square '9' at (1,1)", "invalid-square"),
    ("invalid token '00' at (0,1)", "invalid-token"),
    ("transition 1 is truncated (0 (null) (null) (null) (null) (null) (null))",
     "transition-truncated"),
    ('invalid delimiter "<=>" in transition 0 (0 0 2 <=> 9 0 9)', "invalid-delimiter"),
    ("invalid first coordinate (9,9,9) in transition 0 (9 9 9 <-> 0 0 2)",
     "invalid-first-coordinate"),
    ("invalid second coordinate (9,9,9) in transition 0 (0 0 2 <-> 9 9 9)",
     "invalid-second-coordinate"),
    ("transition 0 is invalid (leading to/coming from invalid field) (1 1 0 <-> 0 0 0)",
     "transition-invalid-field"),
    ("OK.", ""),
])
def test_names_the_servers_messages(message: str, problem: str) -> None:
    """The fuzzer maps each of mapinfo's messages (copied from its runs) to our problem ids."""
    assert server_problem(message) == problem


def test_judges_our_loader_and_agreement() -> None:
    """The fuzzer's view of our loader: the problem and the place of a rejection."""
    ours = run_ours(b"2 0 0 0 2 2\n0 1\n2 q\n")
    assert ours == Verdict(False, "invalid-square", "1,1")
    assert agree(Verdict(False, "invalid-square", "1,1"), ours)
    assert not agree(Verdict(False, "invalid-token", "1,1"), ours)
    assert not agree(Verdict(False, "invalid-square", "0,1"), ours)
    assert agree(Verdict(False, "crash"), ours)
    assert not agree(Verdict(True, header=(2, 0, 0, 0)), ours)
    assert run_ours(b"258 300 -1 0 1 1 0") == Verdict(True, header=(2, 44, 255, 0))
