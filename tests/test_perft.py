"""Perft (specs/README.md "Perft"; RULES.md 3-5): the published Othello counts, hand-counted
small trees, the two implementations against each other, and the perft tables in specs/perft."""

from __future__ import annotations

import platform
from pathlib import Path
from typing import List, Tuple

import pytest

from reversi_ref import parse_map, play
from reversi_ref.cli import main
from reversi_ref.errors import ReversiError
from reversi_ref.mapfile import read_map_file
from reversi_ref.perft import (PerftEntry, PerftTable, engine_divide, engine_perft,
                               parse_perft_file, reference_divide, reference_perft,
                               resolve_map_path, skipped_players)
from reversi_ref.rules import initial_state
from reversi_ref.specs.casebook import map_text
from reversi_ref.state import GameState, Move

ROOT = Path(__file__).resolve().parents[1]
OTHELLO = ROOT / "maps" / "othello8x8.map"
TABLES = sorted((ROOT / "specs" / "perft").glob("*.perft"))

# Published Othello perft counts, depths 1-9 (a pass counts as a ply in those tables).
PUBLISHED = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]

# Three separate lines for player 1; player 2 can never move, so it is skipped every time.
THREE_LINES = "0 2 1 - 0 2 1 - 0 2 1"


def othello() -> GameState:
    """The Othello start position."""
    return initial_state(read_map_file(OTHELLO))


@pytest.mark.parametrize("depth", range(1, 6))
def test_reference_matches_published_othello_counts(depth: int) -> None:
    """The readable rules reproduce the published Othello counts (no passes before depth 9)."""
    assert reference_perft(othello(), depth) == PUBLISHED[depth - 1]


@pytest.mark.parametrize("depth", range(1, 8))
def test_engine_matches_published_othello_counts(depth: int) -> None:
    """The fast engine reproduces the published Othello counts."""
    assert engine_perft(othello(), depth) == PUBLISHED[depth - 1]


@pytest.mark.slow
def test_engine_matches_published_othello_counts_deep() -> None:
    """Depths 8 and 9: with the Othello pass convention the engine gives the published
    counts; the ReversiXT count at depth 9 is 32 higher (24 positions at depth 8 where the
    side to move must pass: 56 moves of the other player instead of 24 passes)."""
    state = othello()
    assert engine_perft(state, 8) == PUBLISHED[7]
    assert engine_perft(state, 9, count_passes=True) == PUBLISHED[8]
    assert engine_perft(state, 9) == PUBLISHED[8] + 32


def test_skipped_player_takes_no_ply() -> None:
    """A skipped player takes no ply: 3 moves, then 2 each after player 2 is skipped."""
    state = parse_map(map_text(THREE_LINES))
    assert [reference_perft(state, d) for d in range(5)] == [1, 3, 6, 6, 6]
    assert [engine_perft(state, d) for d in range(5)] == [1, 3, 6, 6, 6]


def test_pass_convention_counts_a_ply_per_skip() -> None:
    """With the Othello convention every skip is a ply: move, pass, move, pass, move."""
    state = parse_map(map_text(THREE_LINES))
    assert [reference_perft(state, d, True) for d in range(7)] == [1, 3, 3, 6, 6, 6, 6]
    assert [engine_perft(state, d, True) for d in range(7)] == [1, 3, 3, 6, 6, 6, 6]


def test_skipped_players_counts_players_passed_over() -> None:
    """RULES.md 4: the players passed over between the mover and the next player asked."""
    state = parse_map(map_text(THREE_LINES))
    after = play(state, Move(0, 0))
    assert after.to_move == 1
    assert skipped_players(state, after) == 1
    three = parse_map(map_text("0 2 1 - 0 3 1", players=3))
    assert skipped_players(three, play(three, Move(0, 0))) == 2


def test_divide_sums_to_perft() -> None:
    """The per-move counts of divide add up to perft, the same in both implementations."""
    state = othello()
    rows = reference_divide(state, 3)
    assert sum(n for _, n in rows) == 56
    assert rows == engine_divide(state, 3)
    assert [m for m, _ in rows] == [Move(3, 2), Move(2, 3), Move(5, 4), Move(4, 5)]


def test_cli_perft_prints_count_and_divide(capsys: pytest.CaptureFixture[str]) -> None:
    """`reversi-ref perft MAP DEPTH [--divide] [--reference]` prints the count."""
    assert main(["perft", str(OTHELLO), "4"]) == 0
    assert capsys.readouterr().out.strip() == "perft 4 244"
    assert main(["perft", str(OTHELLO), "3", "--divide", "--reference"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0] == "3 2 0: 14" and lines[-2] == "moves: 4" and lines[-1] == "perft 3 56"
    for args in ([str(OTHELLO), "-1"], [str(OTHELLO)], []):
        with pytest.raises(SystemExit) as exit_info:  # usage errors, in argparse's way
            main(["perft"] + args)
        assert exit_info.value.code == 2


def test_tables_are_well_formed() -> None:
    """Every table names an existing map and lists depths 1, 2, 3, ... with a source note."""
    assert TABLES, "specs/perft has no tables"
    maps = {p.name for p in (ROOT / "maps").glob("*.map")}
    covered = set()
    for path in TABLES:
        for table in parse_perft_file(path.read_text(encoding="utf-8"), str(path)):
            assert resolve_map_path(table.map, path).exists(), table.map
            covered.add(Path(table.map).name)
            assert [e.depth for e in table.entries] == list(range(1, len(table.entries) + 1))
            assert all("engine" in e.note for e in table.entries), table.id
    assert covered == maps, "maps without a perft table: %s" % sorted(maps - covered)


Item = Tuple[PerftTable, PerftEntry, Path]


def table_entries(limit: int) -> List[Item]:
    """(table, entry, path) for every count up to `limit` nodes."""
    found: List[Item] = []
    for path in TABLES:
        for table in parse_perft_file(path.read_text(encoding="utf-8"), str(path)):
            found.extend((table, e, path) for e in table.entries if e.nodes <= limit)
    return found


def item_id(item: Item) -> str:
    """A test id: table id and depth."""
    return "%s-%d" % (item[0].id, item[1].depth)


@pytest.mark.parametrize("item", table_entries(20000), ids=item_id)
def test_table_counts_engine(item: Item) -> None:
    """Small counts of every perft table, recomputed with the fast engine."""
    table, entry, path = item
    state = initial_state(read_map_file(resolve_map_path(table.map, path)))
    assert engine_perft(state, entry.depth, table.count_passes) == entry.nodes


@pytest.mark.parametrize("item", table_entries(1500), ids=item_id)
def test_table_counts_reference(item: Item) -> None:
    """Small counts of every perft table, recomputed with the readable rules."""
    table, entry, path = item
    state = initial_state(read_map_file(resolve_map_path(table.map, path)))
    if "reference" not in entry.note:
        pytest.skip("not confirmed by the readable rules in the table")
    assert reference_perft(state, entry.depth, table.count_passes) == entry.nodes


@pytest.mark.slow
def test_cli_check_replays_tables(capsys: pytest.CaptureFixture[str]) -> None:
    """`reversi-ref perft --check` replays every table up to 5,000,000 nodes on PyPy
    (500,000 on CPython, where the engine is several times slower)."""
    limit = 5000000 if platform.python_implementation() == "PyPy" else 500000
    args = ["perft", "--check"] + [str(p) for p in TABLES] + ["--max-nodes", str(limit)]
    assert main(args) == 0


def test_cli_check_reports_a_wrong_count(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """A wrong count in a table is reported and the exit code is 1."""
    table = tmp_path / "wrong.perft"
    table.write_text("id othello\nmap %s\nperft 1 4\nperft 2 13  # wrong on purpose\n"
                     % OTHELLO)
    assert main(["perft", "--check", str(table)]) == 1
    out = capsys.readouterr().out
    assert "expected 13, got 12  MISMATCH" in out and "1 mismatched" in out


@pytest.mark.parametrize("text", [
    "perft 1 4\n", "id a\nperft 1 4\n", "id a\nmap m\nperft one 4\n", "id a\nmap m\nfoo\n",
])
def test_rejects_malformed_table(text: str) -> None:
    """A table that does not follow the id / map / perft layout is a clear error."""
    with pytest.raises(ReversiError):
        parse_perft_file(text, "t.perft")
