"""The bundled maps: each one is valid, and together they cover what the map format offers."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Dict, List, Set, Tuple

import pytest

from reversi_ref import Move, legal_moves, parse_map, play
from reversi_ref.geometry import Map, Transition
from reversi_ref.mapfile import format_map, read_map, read_map_file, tokenize

ROOT = Path(__file__).resolve().parents[1]
MAPS_DIR = ROOT / "maps"
SHARED_MAPS = ROOT.parent / "shared" / "maps"
PATHS = sorted(MAPS_DIR.glob("*.map"))

# Directions 0..7 clockwise from north, written out here independently of the package.
STEPS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))

Side = Tuple[int, int, int]


def load_all() -> Dict[str, Map]:
    """Every bundled map by file name."""
    return {path.name: read_map_file(path) for path in PATHS}


def is_hole(m: Map, x: int, y: int) -> bool:
    """Whether (x, y) is on the board and a hole."""
    return 0 <= x < m.width and 0 <= y < m.height and m.cells[y * m.width + x] == "-"


def is_off_board_or_hole(m: Map, x: int, y: int) -> bool:
    """Whether a walk stepping onto (x, y) ends there (RULES.md 2)."""
    return not (0 <= x < m.width and 0 <= y < m.height) or is_hole(m, x, y)


def is_self_joined(t: Transition) -> bool:
    """Whether the transition joins a side to itself (a U-turn)."""
    return (t.x1, t.y1, t.d1) == (t.x2, t.y2, t.d2)


def is_over_a_hole(m: Map, t: Transition) -> bool:
    """Whether one end's side faces a hole on the board (not the edge)."""
    return any(is_hole(m, x + STEPS[d][0], y + STEPS[d][1]) for x, y, d in t.sides)


def loops_back_through_a_chain(m: Map) -> bool:
    """Whether some walk passes at least two different transitions (no U-turns) and comes back
    to the cell it started from (RULES.md 2, followed step by step here)."""
    jumps: Dict[Side, Tuple[Transition, Side]] = {}
    for t in m.transitions:
        (x1, y1, d1), (x2, y2, d2) = t.sides
        jumps[(x1, y1, d1)] = (t, (x2, y2, (d2 + 4) % 8))
        jumps[(x2, y2, d2)] = (t, (x1, y1, (d1 + 4) % 8))
    for t in m.transitions:
        for start in t.sides:
            x, y, d = start
            used: Set[Transition] = set()
            seen: Set[Side] = set()
            while (x, y, d) not in seen:
                seen.add((x, y, d))
                if (x, y, d) in jumps:
                    jump, (x, y, d) = jumps[(x, y, d)]
                    used.add(jump)
                else:
                    x, y = x + STEPS[d][0], y + STEPS[d][1]
                    if is_off_board_or_hole(m, x, y):
                        break
                if (x, y) == start[:2]:
                    if len(used) >= 2 and not any(is_self_joined(u) for u in used):
                        return True
                    break
    return False


def region_count(m: Map) -> int:
    """The number of groups of non-hole cells connected through plain neighbours."""
    seen: Set[Tuple[int, int]] = set()
    regions = 0
    for y in range(m.height):
        for x in range(m.width):
            if is_hole(m, x, y) or (x, y) in seen:
                continue
            regions += 1
            stack = [(x, y)]
            seen.add((x, y))
            while stack:
                cx, cy = stack.pop()
                for dx, dy in STEPS:
                    nx, ny = cx + dx, cy + dy
                    if not is_off_board_or_hole(m, nx, ny) and (nx, ny) not in seen:
                        seen.add((nx, ny))
                        stack.append((nx, ny))
    return regions


def header_wraps(text: str, m: Map) -> bool:
    """Whether the override count, bomb count or strength is written outside 0..255."""
    written = [int(token.text) for token in list(tokenize(text))[1:4]]
    return written != [m.overrides, m.bombs, m.strength]


# --- each map ---------------------------------------------------------------------------------

def test_there_are_at_least_14_maps() -> None:
    """RULES.md 1: the bundled set is large enough to cover the format."""
    assert len(PATHS) >= 14


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_bundled_map_reads_and_round_trips(path: Path) -> None:
    """RULES.md 1: every bundled map is valid and survives format_map unchanged."""
    m = read_map_file(path)
    assert read_map(format_map(m)) == m
    assert parse_map(path.read_text()).map == m


def test_every_map_is_described_in_the_readme() -> None:
    """maps/README.md has one line per map and names no map that is missing."""
    readme = (MAPS_DIR / "README.md").read_text()
    described = set(re.findall(r"^\| `([^`]+\.map)` \|", readme, flags=re.MULTILINE))
    assert described == {path.name for path in PATHS}


def test_no_bundled_map_is_a_shared_map() -> None:
    """Our maps are our own: none equals a map of ../shared/maps."""
    if not SHARED_MAPS.is_dir():
        pytest.skip("../shared/maps is not present")
    ours = set(load_all().values())
    for path in sorted(SHARED_MAPS.glob("*.map")):
        try:
            theirs = read_map_file(path)
        except ValueError:
            continue
        assert theirs not in ours, path.name


# --- what the maps cover together -------------------------------------------------------------

def test_maps_use_every_tile_type() -> None:
    """RULES.md 1: 0, stones 1..8, -, c, i, b, x all appear somewhere."""
    used: Set[str] = set()
    for m in load_all().values():
        used.update(m.cells)
    assert used == set("012345678-cibx")


def test_maps_have_every_player_count() -> None:
    """RULES.md 1: n runs from 2 to 8; each count has a map."""
    assert {m.players for m in load_all().values()} == set(range(2, 9))


def test_maps_have_every_kind_of_transition() -> None:
    """RULES.md 1-2: a side joined to itself, a transition over a hole, a chain looping back."""
    maps = load_all().values()
    transitions = [(m, t) for m in maps for t in m.transitions]
    assert any(is_self_joined(t) for _, t in transitions)
    assert any(is_over_a_hole(m, t) for m, t in transitions)
    assert any(loops_back_through_a_chain(m) for m in maps if m.height * m.width <= 400)


def test_maps_have_holes_splitting_regions() -> None:
    """RULES.md 2: holes may cut a board into parts that only transitions join."""
    assert any(region_count(m) >= 2 for m in load_all().values())


def test_maps_have_tiny_and_50x50_boards() -> None:
    """RULES.md 1: board sizes from 1x1..3x3 up to 50x50."""
    sizes = [(m.height, m.width) for m in load_all().values()]
    assert any(1 <= h <= 3 and 1 <= w <= 3 for h, w in sizes)
    assert (50, 50) in sizes


def test_maps_have_bomb_edge_cases() -> None:
    """RULES.md 1 and 5: a map without bombs, and bombs of strength 0."""
    maps = list(load_all().values())
    assert any(m.bombs == 0 for m in maps)
    assert any(m.bombs > 0 and m.strength == 0 for m in maps)


def test_maps_have_counts_that_wrap() -> None:
    """RULES.md 1: counts are taken modulo 256; some map writes one outside 0..255."""
    assert any(header_wraps(path.read_text(), read_map_file(path)) for path in PATHS)


# --- the two maps the README relies on --------------------------------------------------------

def test_othello_map_is_the_standard_start() -> None:
    """RULES.md 3: the Othello start; player 1 has exactly the 4 classic moves."""
    text = (MAPS_DIR / "othello8x8.map").read_text()
    m = read_map(text)
    assert (m.players, m.overrides, m.bombs, m.strength, m.height, m.width) == (2, 0, 0, 0, 8, 8)
    assert m.transitions == ()
    stones = {(i % 8, i // 8): c for i, c in enumerate(m.cells) if c != "0"}
    assert stones == {(3, 3): "2", (4, 4): "2", (3, 4): "1", (4, 3): "1"}
    state = parse_map(text)
    assert state.to_move == 1
    assert legal_moves(state) == [Move(3, 2), Move(2, 3), Move(5, 4), Move(4, 5)]


def test_default_map_has_what_the_demo_needs() -> None:
    """RULES.md 1: the default map has 2 players, holes, specials, 2 overrides, 1 bomb of
    strength 1 and transitions, and player 1 can move at once."""
    text = (MAPS_DIR / "default.map").read_text()
    m = read_map(text)
    assert (m.players, m.overrides, m.bombs, m.strength) == (2, 2, 1, 1)
    assert 10 <= m.height <= 14 and 10 <= m.width <= 14
    assert {"-", "c", "i", "b", "x"} <= set(m.cells)
    assert len(m.transitions) >= 2
    state = parse_map(text)
    assert state.to_move == 1 and legal_moves(state)


@pytest.mark.slow
@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_random_game_ends_on_bundled_map(path: Path) -> None:
    """RULES.md 4-5: a game of random legal moves on each bundled map reaches its end."""
    state = parse_map(path.read_text())
    rng = random.Random(path.name)
    moves: List[Move] = []
    while state.phase != "over":
        move = rng.choice(legal_moves(state))
        moves.append(move)
        state = play(state, move)
    assert state.to_move is None and len(moves) < 20000
