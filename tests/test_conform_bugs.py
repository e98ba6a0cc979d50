"""Seeded rule bugs are caught by the golden suite with a diff that points at the rule.

Each adapter in tests/buggy_adapters/seeded.py is the reference adapter with one rule of
RULES.md broken.  The runner must fail the named hand-made case of that rule, and the diff must
name the case, quote its rule and show what differs.  The default run sends each bug the
hand-made cases of the areas it touches; the slow run sends it the whole suite.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Dict, List, Sequence

import pytest

from reversi_ref.conform import run_suite
from reversi_ref.specs import chunk_of, load_suite
from reversi_ref.specs.judge import FAIL, PASS

ROOT = Path(__file__).resolve().parents[1]
SEEDED = "%s %s" % (sys.executable, ROOT / "tests" / "buggy_adapters" / "seeded.py")

# bug -> (areas whose hand-made cases are sent, a case that must fail, text its diff must show)
BUGS = {
    "no-transition-captures": (["transitions"], "transitions/capture-over-a-hole",
                               "missing (legal by the rules): (0,0,0)"),
    "overrides-not-charged": (["overrides", "expansion"], "overrides/onto-opponent-stone-applied",
                              "overrides: expected [0, 0], engine [1, 0]"),
    "inversion-wrong-way": (["inversion"], "inversion/three-players",
                            "(0,0) expected 2, engine 3"),
    "blast-crosses-holes": (["bombing"], "bombing/wall-of-holes-shields",
                            "(3,0) expected 1, engine -"),
    "skipped-players-asked": (["turn-order"], "turn-order/skip-player-without-moves",
                              "to_move: expected 3, engine 2"),
    "disqualified-stones-removed": (["disqualification"], "disqualification/stones-stay",
                                    "(1,0) expected 2, engine 0"),
    "closes-through-target": (["transitions"], "transitions/loop-back-to-own-target",
                              "illegal move accepted"),
    "bonus-swapped": (["bonus"], "bonus/bomb", "bombs: expected [1, 0], engine [0, 0]"),
}


@pytest.fixture(scope="module")
def suite() -> List[Dict[str, Any]]:
    """Every case of the checked-in suite."""
    return load_suite(ROOT / "specs")


def hand_cases(suite: List[Dict[str, Any]], areas: Sequence[str]) -> List[Dict[str, Any]]:
    """The hand-made cases of these areas."""
    return [c for c in suite if c["area"] in areas and chunk_of(c["id"]) == "hand"]


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_seeded_bug_is_caught_with_a_diff(bug: str, suite: List[Dict[str, Any]]) -> None:
    """The broken rule fails its named case; the diff names the case and rule and shows the
    difference."""
    areas, case_id, phrase = BUGS[bug]
    cases = hand_cases(suite, areas)
    results = run_suite("%s %s" % (SEEDED, bug), cases, timeout=30)
    failed = {r.case["id"]: r.verdict for r in results if r.verdict.status == FAIL}
    assert case_id in failed, sorted(failed)
    detail = failed[case_id].detail
    case = next(c for c in cases if c["id"] == case_id)
    assert detail.startswith(case_id)
    assert "rule: %s (basis %s): %s" % (case["rule"], case["basis"], case["description"]) \
        in detail
    assert phrase in detail, detail
    assert " 0 1" in detail  # the board is drawn with its column numbers


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_seeded_bug_adapter_is_otherwise_sound(bug: str, suite: List[Dict[str, Any]]) -> None:
    """Each seeded adapter still passes cases its bug cannot touch (rejected maps), so the
    failures above come from the bug, not from a broken adapter."""
    cases = [c for c in hand_cases(suite, ["map-loading"])
             if c["query"]["kind"] == "map_reject"][:12]
    results = run_suite("%s %s" % (SEEDED, bug), cases, timeout=30)
    assert [r.verdict.status for r in results] == [PASS] * len(cases)


@pytest.mark.slow
@pytest.mark.parametrize("bug", sorted(BUGS))
def test_seeded_bug_fails_generated_cases_too(bug: str, suite: List[Dict[str, Any]]) -> None:
    """Over the whole suite each bug also fails generated cases of its area."""
    areas, _, _ = BUGS[bug]
    results = run_suite("%s %s" % (SEEDED, bug), [c for c in suite if c["area"] in areas],
                        timeout=60, max_diffs=0)
    failed = [r.case["id"] for r in results if r.verdict.status == FAIL]
    assert any(chunk_of(case_id) != "hand" for case_id in failed)
