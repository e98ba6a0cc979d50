"""The checked-in golden suite (specs/): shape, size, coverage, and that the code regenerates
it byte for byte (specs/README.md; every section of RULES.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Dict, List, Set, Tuple

import pytest

from reversi_ref.mapfile import read_map
from reversi_ref.specs import AREAS, SpecError, build_chunk, chunk_of, load_suite
from reversi_ref.specs.casebook import BASES, Case
from reversi_ref.specs.oracle import CASE_KINDS
from reversi_ref.specs.ruleids import RULE_BY_ID, RULES, implementation_of, rule_table_markdown
from reversi_ref.specs.situations import situation_key
from reversi_ref.specs.suite import (FORMAT_VERSION, SUITE_VERSION, case_line, compare_suite,
                                     drop_padding, generate_suite, suite_changes, suite_files,
                                     write_suite)

ROOT = Path(__file__).resolve().parents[1]
SPECS = ROOT / "specs"

# Cheap chunks regenerated in the default run (the slow run regenerates everything).
SAMPLE_CHUNKS = ["tiny3x3", "lonely1x1", "othello8x8", "m003", "m004", "m011"]

# The edge cases RULES.md mentions, each present as a named hand-made case.
NAMED_EDGE_CASES = [
    # RULES.md 1
    "map-loading/header-on-one-line", "map-loading/whitespace-does-not-matter",
    "map-loading/reject-bad-cell-character", "map-loading/reject-two-character-cell",
    "map-loading/reject-stone-above-n", "map-loading/reject-one-player",
    "map-loading/reject-nine-players", "map-loading/reject-board-truncated",
    "map-loading/reject-comment", "map-loading/reject-leftover-tokens",
    "map-loading/reject-transition-off-board", "map-loading/reject-transition-on-hole",
    "map-loading/reject-direction-8", "map-loading/reject-side-facing-a-cell",
    "map-loading/reject-side-used-twice", "map-loading/reject-same-transition-twice",
    "map-loading/self-joined-side-loads", "map-loading/two-sides-of-one-cell",
    "map-loading/overrides-modulo-256", "map-loading/minus-one-is-255",
    "map-loading/256-by-256", "map-loading/300-by-2", "map-loading/zero-by-zero",
    "map-loading/reject-negative-height", "map-loading/reject-non-numeric-width",
    "map-loading/self-joined-side-twice-loads", "map-loading/self-join-then-joined-elsewhere",
    "map-loading/reject-joined-then-self-joined", "map-loading/header-read-like-atoi",
    "map-loading/words-and-hex-read-as-zero", "map-loading/reject-bare-cr-line-breaks",
    "map-loading/reject-form-feed-in-board", "map-loading/form-feed-in-header",
    "map-loading/one-by-1000", "map-loading/reject-1-by-1001",
    # RULES.md 2
    "transitions/capture-over-a-hole", "transitions/direction-after-transition",
    "transitions/u-turn-never-captures", "transitions/loop-collects-a-cell-twice",
    "transitions/loop-back-to-own-target",
    # RULES.md 3
    "captures/stops-at-empty", "captures/stops-at-choice", "captures/stops-at-inversion",
    "captures/stops-at-bonus", "captures/stops-at-hole", "captures/stops-at-edge",
    "captures/collects-expansion-stones", "captures/hole-never-a-target",
    "captures/other-directions-untouched", "overrides/onto-own-stone",
    "overrides/onto-opponent-stone", "overrides/charged-once",
    "expansion/always-legal-with-override",
    "expansion/needs-override", "choice/swap-with-named-player", "choice/name-yourself",
    "disqualification/swapped-by-choice", "inversion/three-players",
    "disqualification/rotated-by-inversion", "bonus/bomb", "bonus/override",
    "bonus/bomb-count-wraps", "bonus/override-count-wraps", "choice/special-zero",
    "choice/special-above-n", "bonus/special-0", "bonus/special-22",
    "inversion/special-must-be-zero",
    # RULES.md 4
    "turn-order/player-one-first", "turn-order/skip-player-without-moves",
    "turn-order/move-again", "turn-order/after-disqualification",
    "turn-order/player-one-cannot-start", "phase-change/bombing-starts",
    "phase-change/no-bombs-game-over", "phase-change/start-in-bombing-phase",
    "phase-change/over-before-it-starts",
    # RULES.md 5
    "phase-change/bombing-order-continues", "bombing/skip-players-without-bombs",
    "bombing/player-without-stones-bombs", "bombing/several-bombs-in-a-row",
    "bombing/every-non-hole-target", "bombing/hole-target", "bombing/off-board-target",
    "bombing/special-byte-tolerated", "bombing/strength-0", "bombing/strength-1",
    "bombing/wall-of-holes-shields", "bombing/transition-to-a-hole",
    "bombing/board-before-the-bomb", "bombing/bomb-costs-one", "bombing/ends-without-bombs",
    "bombing/ends-without-cells",
    # RULES.md 6
    "disqualification/stones-stay", "disqualification/stones-capturable",
    "disqualification/choice-target", "disqualification/sole-remaining-player",
    "turn-order/skip-disqualified", "disqualification/off-board-move",
    # RULES.md 7
    "ranking/ties-share-a-rank", "ranking/disqualified-not-ranked",
    # perft
    "perft/skip-takes-no-ply", "perft/phase-change-takes-no-ply",
    "perft/finished-game-is-a-leaf", "perft/choice-variants",
]


@pytest.fixture(scope="module")
def suite() -> List[Dict[str, Any]]:
    """Every case of the checked-in suite."""
    return load_suite(SPECS)


@pytest.fixture(scope="module")
def lines_by_id() -> Dict[str, str]:
    """The checked-in line of every case, by id."""
    lines: Dict[str, str] = {}
    for path in sorted((SPECS / "cases").glob("*.jsonl")):
        for line in path.read_text(encoding="ascii").splitlines():
            lines[json.loads(line)["id"]] = line
    return lines


def check_chunk_matches(name: str, lines_by_id: Dict[str, str], whole: bool = False) -> None:
    """Every checked-in case of the chunk is one of the chunk's candidates regenerated now,
    line for line (all of them when `whole`: hand-made cases are never dropped as padding)."""
    cases = build_chunk(name)
    assert cases, name
    regenerated = {case.id: case_line(case) for case in cases}
    on_disk = {i for i in lines_by_id if chunk_of(i) == name}
    assert on_disk, "chunk %s has no case in the suite" % name
    assert on_disk <= set(regenerated), "chunk %s: ids differ; run reversi-ref gen-specs" % name
    if whole:
        assert on_disk == set(regenerated), "chunk %s: ids differ" % name
    for case_id in on_disk:
        assert lines_by_id[case_id] == regenerated[case_id], \
            "%s differs; run reversi-ref gen-specs" % case_id


def test_hand_chunk_matches_checked_in_suite(lines_by_id: Dict[str, str]) -> None:
    """The hand-made cases regenerate exactly as checked in (rules and suite cannot drift)."""
    check_chunk_matches("hand", lines_by_id, whole=True)


@pytest.mark.parametrize("name", SAMPLE_CHUNKS)
def test_sample_chunk_matches_checked_in_suite(name: str, lines_by_id: Dict[str, str]) -> None:
    """A sample of generated chunks regenerate exactly as checked in."""
    check_chunk_matches(name, lines_by_id)


@pytest.mark.slow
def test_gen_specs_reproduces_suite_byte_for_byte(tmp_path: Path) -> None:
    """`reversi-ref gen-specs` output equals the checked-in specs/ byte for byte."""
    cases = generate_suite()
    files = suite_files(cases)
    assert compare_suite(files, SPECS) == []
    write_suite(cases, tmp_path)
    for relative in files:
        assert (tmp_path / relative).read_bytes() == (SPECS / relative).read_bytes()


def test_compare_suite_reports_a_changed_line(tmp_path: Path) -> None:
    """The byte-for-byte check can fail: a changed line is reported with its case id."""
    cases = build_chunk("tiny3x3")
    files = suite_files(cases)
    write_suite(cases, tmp_path)
    assert compare_suite(files, tmp_path) == []
    path = tmp_path / "cases" / "perft.jsonl"
    path.write_text(path.read_text(encoding="ascii").replace('"nodes":', '"nodes":1', 1),
                    encoding="ascii")
    problems = compare_suite(files, tmp_path)
    assert len(problems) == 1 and "perft/tiny3x3/perft-01" in problems[0]


def test_suite_covers_many_situations(suite: List[Dict[str, Any]]) -> None:
    """The suite shows at least 2,000 distinct (rule, situation) pairs, at least 40 cases in
    every rule area, and every rule id of the table in at least one case."""
    keys = {situation_key(case) for case in suite}
    assert len(keys) >= 2000
    counts = {area: 0 for area in AREAS}
    for case in suite:
        counts[case["area"]] += 1
    assert all(count >= 40 for count in counts.values()), counts
    assert {rule.id for rule in RULES} == {case["rule"] for case in suite}


def test_no_generated_case_is_padding(suite: List[Dict[str, Any]]) -> None:
    """No generated case repeats the rule and situation of an earlier case (specs/README.md,
    "Provenance")."""
    seen: Set[Tuple[str, str]] = set()
    for case in suite:
        key = situation_key(case)
        if case["basis"] == "generated":
            assert key not in seen, case["id"]
        seen.add(key)


def test_padding_is_dropped() -> None:
    """drop_padding keeps every named (hand-made) case, whatever its basis, and for a
    situation they do not show, the first server-observed case, else the first generated
    one."""
    cases = [c for c in build_chunk("tiny3x3") if c.id.startswith("disqualification/")
             and c.query["kind"] == "illegal"]
    assert cases
    first = cases[0]
    twin = first._replace(id=first.id + "-twin")
    server = first._replace(id=first.id + "-server", basis="server")
    hand = first._replace(id="disqualification/named-twin", basis="hand")
    confirmed = first._replace(id="disqualification/named-confirmed", basis="server")
    assert [c.id for c in drop_padding([first, twin])] == [first.id]
    assert [c.id for c in drop_padding([first, twin, server])] == [server.id]
    assert [c.id for c in drop_padding([first, server, hand, confirmed])] == \
        [hand.id, confirmed.id]


def test_every_case_has_provenance(suite: List[Dict[str, Any]]) -> None:
    """Every case names a rule id of the table and a basis; hand-made ids are hand or
    server, generated ids generated or server (specs/README.md, "Provenance")."""
    for case in suite:
        assert case["rule"] in RULE_BY_ID, case["id"]
        assert case["basis"] in BASES, case["id"]
        if chunk_of(case["id"]) == "hand":
            assert case["basis"] in ("hand", "server", "strict"), case["id"]
        else:
            assert case["basis"] in ("generated", "server"), case["id"]


def test_readme_lists_every_rule_id() -> None:
    """specs/README.md carries the rule-id table exactly as the code defines it."""
    assert rule_table_markdown() in (SPECS / "README.md").read_text(encoding="utf-8")


def test_rule_table_names_real_functions() -> None:
    """Each rule id names a function that exists, in the module its section belongs to."""
    for rule in RULES:
        assert callable(implementation_of(rule.id)), rule.id
        if rule.section.isdigit() and rule.section != "1":
            assert rule.implementation.startswith("reversi_ref.rules."), rule.id
    with pytest.raises(SpecError):
        implementation_of("3.no-such-rule")


def test_suite_covers_every_query_kind(suite: List[Dict[str, Any]]) -> None:
    """Every query kind appears, and the rule areas of RULES.md 3 have apply, illegal and
    legal_moves cases."""
    kinds = {case["query"]["kind"] for case in suite}
    assert kinds == set(CASE_KINDS)
    for area in ("transitions", "captures", "overrides", "expansion", "choice", "inversion",
                 "bonus", "bombing", "disqualification"):
        area_kinds = {c["query"]["kind"] for c in suite if c["area"] == area}
        assert {"apply", "illegal", "legal_moves"} <= area_kinds, area


def test_every_named_edge_case_is_present(suite: List[Dict[str, Any]]) -> None:
    """Each edge case RULES.md mentions is a named case of the suite."""
    ids = {case["id"] for case in suite}
    missing = [name for name in NAMED_EDGE_CASES if name not in ids]
    assert missing == []


def test_cases_are_well_formed(suite: List[Dict[str, Any]]) -> None:
    """Unique ids under their area, one-line descriptions naming the rule, boards that fit
    the map, expected answers of the query's kind."""
    seen: Set[str] = set()
    answer_key = {"legal_moves": "moves", "apply": "state", "illegal": "illegal",
                  "perft": "nodes", "game": "states", "map_load": "map",
                  "map_reject": "rejected"}
    for case in suite:
        case_id = case["id"]
        assert case_id not in seen
        seen.add(case_id)
        assert case_id.startswith(case["area"] + "/")
        assert "\n" not in case["description"]
        assert case["description"].startswith(("RULES.md", "perft"))
        kind = case["query"]["kind"]
        assert answer_key[kind] in case["expected"], case_id
        if kind.startswith("map_"):
            assert case["state"] is None
            continue
        game_map = read_map(case["map"])
        board = case["state"]["board"]
        assert len(board) == game_map.height, case_id
        assert all(len(row) == game_map.width for row in board), case_id
        assert len(case["state"]["overrides"]) == game_map.players


def test_index_matches_the_files(suite: List[Dict[str, Any]]) -> None:
    """index.json lists every area with its file and the number of cases in it, and every
    rule id with its cases and distinct situations."""
    index = json.loads((SPECS / "index.json").read_text(encoding="ascii"))
    assert [entry["area"] for entry in index["areas"]] == list(AREAS)
    assert index["total"] == len(suite)
    assert index["format"] == FORMAT_VERSION and index["suite"] == SUITE_VERSION
    assert [row["rule"] for row in index["rules"]] == [rule.id for rule in RULES]
    for row in index["rules"]:
        mine = [case for case in suite if case["rule"] == row["rule"]]
        assert row["cases"] == len(mine)
        assert row["situations"] == len({situation_key(case) for case in mine})
        assert sum(row["basis"].values()) == len(mine)
    assert sum(index["basis"].values()) == len(suite)
    for entry in index["areas"]:
        lines = (SPECS / entry["file"]).read_text(encoding="ascii").splitlines()
        assert len(lines) == entry["cases"]
        assert sum(entry["kinds"].values()) == entry["cases"]


def test_suite_size_is_reasonable() -> None:
    """The whole specs/ directory stays under 20 MB."""
    total = sum(p.stat().st_size for p in SPECS.rglob("*") if p.is_file())
    assert total < 20 * 1024 * 1024


def test_files_are_ascii_json_lines() -> None:
    """Every line of every case file is compact ASCII JSON ending in a newline."""
    for path in sorted((SPECS / "cases").glob("*.jsonl")):
        data = path.read_bytes()
        assert data.endswith(b"\n") and b"\r" not in data
        data.decode("ascii")


def test_case_ids_name_their_chunk() -> None:
    """Generated ids are area/chunk/kind-NN; hand-made ids are area/name."""
    assert chunk_of("captures/m001/apply-02") == "m001"
    assert chunk_of("captures/line-flipped") == "hand"
    case = Case("a/b", "captures", "d", "m", None, {"kind": "map_load"}, {"map": {}})
    assert json.loads(case_line(case))["id"] == "a/b"


def test_suite_changes_lists_added_changed_and_removed() -> None:
    """Only the judged fields make a case changed; ids only in one suite are added or
    removed."""
    old = [{"id": "a", "map": "m", "state": None, "query": {"kind": "map_load"},
            "expected": {"x": 1}, "description": "old words"},
           {"id": "b", "map": "m", "state": None, "query": {"kind": "map_load"},
            "expected": {"x": 1}}]
    new = [dict(old[0], description="new words", rule="1.layout"),
           {"id": "c", "map": "m", "state": None, "query": {"kind": "map_load"},
            "expected": {"x": 2}}]
    assert suite_changes(old, new) == {"added": ["c"], "changed": [], "removed": ["b"]}
    new[0]["expected"] = {"x": 2}
    assert suite_changes(old, new)["changed"] == ["a"]


def test_changelog_describes_this_version() -> None:
    """specs/CHANGELOG.md starts with the suite version index.json carries."""
    text = (SPECS / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## Suite version (\d+)", text, re.M)
    assert versions and int(versions[0]) == SUITE_VERSION
    assert sorted(map(int, versions), reverse=True) == [int(v) for v in versions]
