"""docs/acceptance-maps.txt, issue 23's list of maps: its counts, and no map the bombs decide."""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Tuple

import pytest

from reversi_ref.clearance import bombs_clear_board
from reversi_ref.mapfile import read_map

ROOT = Path(__file__).resolve().parents[1]
SHARED_MAPS = ROOT.parent / "shared" / "maps"


def sections() -> List[Tuple[int, int, int, List[str]]]:
    """(players, maps, games, file names) per section of the list, as its headings say."""
    found: List[Tuple[int, int, int, List[str]]] = []
    for line in (ROOT / "docs" / "acceptance-maps.txt").read_text().splitlines():
        heading = re.match(r"# (\d) players \((\d+) maps?, (\d+) games\)", line)
        if heading:
            found.append((int(heading.group(1)), int(heading.group(2)), int(heading.group(3)),
                          []))
        elif line.endswith(".map"):
            found[-1][3].append(line)
    return found


def test_headings_count_the_maps_and_games() -> None:
    """Each section's heading counts its maps and their seat rotations; the header the total."""
    total = 0
    for players, maps, games, names in sections():
        assert len(names) == maps
        assert games == maps * players
        total += games
    header = (ROOT / "docs" / "acceptance-maps.txt").read_text()
    assert "once: %d games." % total in header


def test_maps_have_their_sections_players_and_no_bombs_that_decide() -> None:
    """Every listed map loads, has its section's number of players, and has no order of bombs
    that clears the board whatever is played (RULES.md 5; `reversi_ref.clearance`)."""
    if not SHARED_MAPS.is_dir():
        pytest.skip("../shared/maps is not present")
    for players, _, _, names in sections():
        for name in names:
            game_map = read_map((SHARED_MAPS / name).read_text())
            assert game_map.players == players, name
            assert bombs_clear_board(game_map) is not True, name
