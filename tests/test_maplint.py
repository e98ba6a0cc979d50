"""`reversi-ref lint`: the server's verdict, then warnings for the strict reading (RULES.md 1)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Tuple

import pytest

from reversi_ref.cli import main
from reversi_ref.maplint import lint_notes, unreachable_regions
from reversi_ref.mapfile import read_map
from reversi_ref.rules import initial_state

# Loads on the server. Player 1 captures (1, 0) by playing (2, 0); player 2 has no capture
# anywhere. Row 1 is all holes, so (0, 2) and (1, 2) are cut off from the stones; (3, 2) is not,
# through its transition to (0, 0). The side (3, 2, 0) is joined to itself twice, and (3, 2, 4)
# to itself and then to (0, 0, 0).
LINTED = ("2.0\n+3\n1 2\n3 4\n1 2 0 -\n- - - -\n0 0 - 0\n"
          "3 2 0 <-> 3 2 0\n3 2 0 <-> 3 2 0\n3 2 4 <-> 3 2 4\n3 2 4 <-> 0 0 0\n")


def kinds(text: str) -> List[Tuple[int, int, str]]:
    """(line, column, kind) of every warning for a map text."""
    return [(note.line, note.column, note.kind) for note in lint_notes(text)]


def test_warns_with_line_and_column() -> None:
    """RULES.md 1: non-canonical numbers, self-joins repeated or replaced, cut-off cells and a
    player without a first move, each at its token."""
    assert kinds(LINTED) == [
        (1, 1, "non-canonical-number"),
        (1, 1, "no-first-move"),
        (2, 1, "non-canonical-number"),
        (7, 1, "unreachable-cells"),
        (9, 1, "repeated-self-join"),
        (10, 1, "replaced-self-join"),
    ]


@pytest.mark.parametrize("written", ["007", "2abc", "1.5", "300", "-1", "+3"])
def test_flags_non_canonical_override_count(written: str) -> None:
    """RULES.md 1: a count not written as the plain decimal value the server keeps."""
    text = "2\n%s\n0 0\n1 4\n0 1 2 0\n" % written
    assert kinds(text) == [(2, 1, "non-canonical-number")]


def test_canonical_map_has_no_warnings() -> None:
    """RULES.md 1: a plain map where both players can move gets no warning."""
    assert kinds("2\n0\n0 0\n1 4\n0 1 2 0\n") == []


def test_unreachable_regions_follow_transitions() -> None:
    """RULES.md 2: a transition over a wall of holes connects the far side; without it the two
    cells behind the wall are cut off."""
    walled = "2\n0\n0 0\n1 5\n1 2 - 0 0\n"
    assert unreachable_regions(initial_state(read_map(walled))) == [[3, 4]]
    bridged = walled + "1 0 2 <-> 3 0 6\n"
    assert unreachable_regions(initial_state(read_map(bridged))) == []


def test_expansion_stone_seeds_a_region_only_with_overrides() -> None:
    """RULES.md 3: an expansion stone may be taken without a capture when overrides are left."""
    text = "2\n%d\n0 0\n1 5\n1 2 - x 0\n"
    assert unreachable_regions(initial_state(read_map(text % 0))) == [[3, 4]]
    assert unreachable_regions(initial_state(read_map(text % 1))) == []


def test_cli_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`lint`: 0 with warnings, 1 with --strict or a rejected map, 2 for a usage error."""
    good = tmp_path / "good.map"
    good.write_text(LINTED)
    assert main(["lint", str(good)]) == 0
    assert "%s:9:1: warning: " % good in capsys.readouterr().out
    assert main(["lint", "--strict", str(good)]) == 1
    capsys.readouterr()
    bad = tmp_path / "bad.map"
    bad.write_text("2 0 0 0 1 2\n0 q\n")
    assert main(["lint", str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("%s:2:3: invalid square 'q' at (1,0)" % bad), out
    assert out.rstrip().endswith("[invalid-square]")
    with pytest.raises(SystemExit) as caught:
        main(["lint"])
    assert caught.value.code == 2
