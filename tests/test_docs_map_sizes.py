"""Map sizes quoted in the measurement pages against the map files.

docs/ names a map with its size, "`group2_chaos` (49x50", always width x height.  A size
written the other way round (a map header gives the height first) slips in easily and no
reader can spot it; this test reads every such size and compares it with the map in
`../shared/maps` (the pages measure the real maps, not ours), and is skipped, not failed,
when that folder is missing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from reversi_ref.errors import MapError
from reversi_ref.mapfile import read_map

ROOT = Path(__file__).resolve().parents[1]
SHARED_MAPS = ROOT.parent / "shared" / "maps"
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
# "`name` (WxH" with the name as docs write it: the file's stem, or the part after its last
# "__" (the shared maps carry their folder in the name).
_SIZE = re.compile(r"`([\w\-]+)` \((\d+)x(\d+)")


def _sizes(folder: Path) -> Dict[str, Tuple[int, int]]:
    """Width and height of each map in `folder` that loads, by stem and by short name."""
    sizes: Dict[str, Tuple[int, int]] = {}
    for path in sorted(folder.glob("*.map")):
        try:
            board = read_map(path.read_text(encoding="utf-8", errors="replace"))
        except MapError:
            continue
        for name in {path.stem, path.stem.split("__")[-1]}:
            sizes[name] = (board.width, board.height)
    return sizes


def _quoted(known: Dict[str, Tuple[int, int]]) -> List[Tuple[str, int, str, Tuple[int, int]]]:
    """(file, line, map, size) of each size the docs quote for a map in `known`."""
    found = []
    for path in DOCS:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in _SIZE.finditer(line):
                name = match.group(1)
                if name in known:
                    size = (int(match.group(2)), int(match.group(3)))
                    found.append((path.name, number, name, size))
    return found


def _wrong(known: Dict[str, Tuple[int, int]],
           quoted: List[Tuple[str, int, str, Tuple[int, int]]]) -> List[str]:
    """One line for each quoted size that is not the map's width x height."""
    return ["%s:%d: `%s` (%dx%d), the map is %dx%d" % (
        page, number, name, size[0], size[1], known[name][0], known[name][1])
        for page, number, name, size in quoted if size != known[name]]


@pytest.mark.skipif(not SHARED_MAPS.is_dir(), reason="../shared/maps is not there")
def test_sizes_of_the_shared_maps_are_width_by_height() -> None:
    """Every size quoted for a map of ../shared/maps is its width x height."""
    known = _sizes(SHARED_MAPS)
    quoted = _quoted(known)
    assert len(quoted) > 100  # the pages do quote them: the pattern still matches
    assert _wrong(known, quoted) == []


def test_a_size_written_the_other_way_round_is_caught() -> None:
    """The check itself: a height-first size is reported, with the map's true size."""
    match = _SIZE.search("| `tall` (6x10, 2) | 1 |")
    assert match is not None and match.groups() == ("tall", "6", "10")
    known = {"tall": (10, 6), "wide": (7, 7)}
    quoted = [("page.md", 3, "tall", (6, 10)), ("page.md", 4, "wide", (7, 7))]
    assert _wrong(known, quoted) == ["page.md:3: `tall` (6x10), the map is 10x6"]
