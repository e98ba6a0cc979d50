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

from reversi_ref.mapfuzz import agree, fuzz, generate_map_bytes, run_mapinfo, run_ours

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
