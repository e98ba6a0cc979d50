"""The conformance runner (`reversi-ref conform`, specs/README.md "Adapter protocol"): the
reference adapter passes, the skeleton is green with everything unsupported, and engines that
hang, exit, or answer garbage are reported as failures without crashing the runner."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any, Dict, List

import pytest

from reversi_ref.cli import main
from reversi_ref.conform import Result, run_suite, select_cases, summary_table, write_junit
from reversi_ref.specs import chunk_of, load_suite
from reversi_ref.specs.judge import FAIL, PASS, UNSUPPORTED, draw_board, judge, show_case

ROOT = Path(__file__).resolve().parents[1]
SPECS = ROOT / "specs"
PYTHON = sys.executable
REFERENCE = "%s -m reversi_ref.adapters.reference" % PYTHON
SKELETON = "%s %s" % (PYTHON, ROOT / "reversi_ref" / "adapters" / "skeleton.py")
MISBEHAVING = "%s %s" % (PYTHON, ROOT / "tests" / "buggy_adapters" / "misbehaving.py")


@pytest.fixture(scope="module")
def suite() -> List[Dict[str, Any]]:
    """Every case of the checked-in suite."""
    return load_suite(SPECS)


@pytest.fixture(scope="module")
def sample(suite: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """All hand-made cases and every 25th generated case (every area, every kind)."""
    generated = [c for c in suite if chunk_of(c["id"]) != "hand"]
    return [c for c in suite if chunk_of(c["id"]) == "hand"] + generated[::25]


def by_id(suite: List[Dict[str, Any]], *ids: str) -> List[Dict[str, Any]]:
    """The cases with these ids, in that order."""
    index = {c["id"]: c for c in suite}
    return [index[i] for i in ids]


def statuses(results: List[Result]) -> List[str]:
    """The status of each result."""
    return [r.verdict.status for r in results]


def test_reference_adapter_passes_sample(sample: List[Dict[str, Any]], tmp_path: Path) -> None:
    """The reference adapter (the readable rules) passes every sampled case of every area."""
    out = tmp_path / "out.txt"
    with open(out, "w") as stream:
        results = run_suite(REFERENCE, sample, timeout=60, out=stream)
    failed = [r.case["id"] for r in results if r.verdict.status != PASS]
    assert failed == [], out.read_text()
    assert len(results) == len(sample)


@pytest.mark.slow
def test_reference_adapter_passes_whole_suite(suite: List[Dict[str, Any]]) -> None:
    """The reference adapter passes all cases."""
    results = run_suite(REFERENCE, suite, timeout=120, max_diffs=5)
    assert [r.case["id"] for r in results if r.verdict.status != PASS] == []


@pytest.mark.slow
def test_fast_engine_adapter_passes_whole_suite(suite: List[Dict[str, Any]]) -> None:
    """The fast engine, answering through the protocol, passes all cases."""
    results = run_suite(REFERENCE + " --fast", suite, timeout=120, max_diffs=5)
    assert [r.case["id"] for r in results if r.verdict.status != PASS] == []


def test_fast_engine_adapter_passes_sample(sample: List[Dict[str, Any]]) -> None:
    """The fast engine passes the sample through the protocol (a second implementation)."""
    results = run_suite(REFERENCE + " --fast", sample, timeout=60, max_diffs=5)
    assert [r.case["id"] for r in results if r.verdict.status != PASS] == []


def test_skeleton_is_green_with_everything_unsupported(capsys: pytest.CaptureFixture[str]) -> None:
    """The porting skeleton answers "unsupported" to every kind: exit 0 with a note, and
    exit 1 with --require-all."""
    args = ["conform", "--engine", SKELETON, "--case", "captures/*", "--case", "map-loading/*",
            "--case", "perft/othello-*", "--case", "games/*"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "unsupported" in out and "not checked" in out
    assert "FAIL" not in out
    assert main(args + ["--require-all"]) == 1


def test_cli_exit_code_and_junit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A failing engine gives a non-zero exit code, the summary per area and JUnit XML."""
    junit = tmp_path / "junit.xml"
    code = main(["conform", "--engine", MISBEHAVING + " error", "--area", "bonus",
                 "--case", "bonus/special-*", "--junit", str(junit)])
    assert code == 1
    out = capsys.readouterr().out
    assert "bonus" in out and "total" in out
    root = ElementTree.parse(str(junit)).getroot()
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["bonus"]
    assert suites[0].get("failures") == "4"
    failure = suites[0].find("testcase/failure")
    assert failure is not None and "something broke" in (failure.text or "")


def test_cli_reference_passes_with_filters(capsys: pytest.CaptureFixture[str]) -> None:
    """--area, --kind and --case select cases; the reference adapter passes them (exit 0)."""
    code = main(["conform", "--engine", REFERENCE, "--area", "choice,inversion",
                 "--kind", "apply", "--case", "*/m00*"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "choice" in out and "inversion" in out and "bonus" not in out


def test_rejects_unknown_area(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown area name is a usage error (exit 2) naming the argument, not a traceback."""
    with pytest.raises(SystemExit) as exit_info:
        main(["conform", "--engine", REFERENCE, "--area", "castling"])
    assert exit_info.value.code == 2
    assert "argument --area: unknown area 'castling'" in capsys.readouterr().err


def test_hung_engine_is_killed_and_restarted(suite: List[Dict[str, Any]]) -> None:
    """An engine that does not answer is killed after the timeout; the next case is sent to
    a fresh engine and passes."""
    cases = by_id(suite, "captures/line-flipped", "perft/depth-zero", "captures/stops-at-edge",
                  "perft/choice-variants", "bonus/two-moves")
    results = run_suite(MISBEHAVING + " hang-on-perft", cases, timeout=1.5)
    assert statuses(results) == [PASS, FAIL, PASS, FAIL, PASS]
    assert "no answer within 1.5 s" in results[1].verdict.detail


def test_exiting_engine_is_reported_and_restarted(suite: List[Dict[str, Any]]) -> None:
    """An engine that exits is a failure naming its exit code; the next case restarts it."""
    cases = by_id(suite, "games/two-moves", "captures/line-flipped")
    results = run_suite(MISBEHAVING + " exit-on-game", cases, timeout=10)
    assert statuses(results) == [FAIL, PASS]
    assert "exit code 3" in results[0].verdict.detail


@pytest.mark.parametrize("mode, phrase", [
    ("garbage", "not JSON"),
    ("not-an-object", "must be a JSON object"),
    ("wrong-types", "malformed answer"),
    ("wrong-id", "somebody/else"),
    ("error", "something broke"),
])
def test_malformed_answers_are_failures(mode: str, phrase: str,
                                        suite: List[Dict[str, Any]]) -> None:
    """Answers that are not JSON objects of the right shape are failures, never crashes."""
    cases = by_id(suite, "captures/line-closed-by-own-stone", "captures/line-flipped",
                  "perft/depth-zero", "games/two-moves", "map-loading/header-on-one-line")
    results = run_suite(MISBEHAVING + " " + mode, cases, timeout=10)
    assert statuses(results) == [FAIL] * len(cases)
    assert phrase in results[0].verdict.detail


def test_engine_writing_logs_on_stdout_is_reported(suite: List[Dict[str, Any]]) -> None:
    """A log line on stdout is read as the answer: a malformed-answer failure, and the engine
    is restarted so later answers stay in step."""
    cases = by_id(suite, "captures/line-flipped", "captures/line-flipped")
    results = run_suite(MISBEHAVING + " chatty", cases, timeout=10)
    assert statuses(results) == [FAIL, FAIL]
    assert "not JSON" in results[0].verdict.detail


def test_engine_that_cannot_start_is_given_up(suite: List[Dict[str, Any]],
                                              tmp_path: Path) -> None:
    """An engine that exits at once is tried a few times, then the run stops with a message
    showing its stderr."""
    out = tmp_path / "out.txt"
    with open(out, "w") as stream:
        results = run_suite(MISBEHAVING + " crash-at-start", suite[:50], timeout=10, out=stream)
    text = out.read_text()
    assert len(results) == 3
    assert "giving up" in text and "missing library" in text
    assert "(stopped after 3 of 50 selected cases)" in summary_table(results, 50)


def test_fail_fast_stops_at_first_failure(suite: List[Dict[str, Any]]) -> None:
    """--fail-fast stops after the first failing case."""
    cases = by_id(suite, "captures/line-flipped", "perft/depth-zero", "captures/stops-at-edge")
    results = run_suite(MISBEHAVING + " error", cases, timeout=10, fail_fast=True)
    assert len(results) == 1


def test_select_cases_filters(suite: List[Dict[str, Any]]) -> None:
    """Filters combine: area, id glob and query kind."""
    chosen = select_cases(suite, areas=["bonus"], patterns=["bonus/special-*"])
    assert [c["id"] for c in chosen] == ["bonus/special-0", "bonus/special-1",
                                         "bonus/special-19", "bonus/special-22"]
    assert all(c["query"]["kind"] == "perft"
               for c in select_cases(suite, kinds=["perft"]))
    assert select_cases(suite, patterns=["captures/line-flipped"])[0]["id"] == \
        "captures/line-flipped"


def test_select_cases_by_basis_and_rule(suite: List[Dict[str, Any]]) -> None:
    """Strict cases are left out unless asked for; --basis, --exclude-basis and --rule
    globs combine with the other filters."""
    strict = [c["id"] for c in suite if c["basis"] == "strict"]
    assert strict
    default = {c["id"] for c in select_cases(suite)}
    assert default and not default & set(strict)
    assert {c["id"] for c in select_cases(suite, bases=["strict"])} == set(strict)
    hand = select_cases(suite, bases=["hand"])
    assert hand and all(c["basis"] == "hand" for c in hand)
    no_generated = select_cases(suite, exclude_bases=["generated"])
    assert no_generated and all(c["basis"] in ("hand", "server") for c in no_generated)
    blasts = select_cases(suite, rules=["5.blast"])
    assert blasts and all(c["rule"] == "5.blast" for c in blasts)
    section3 = select_cases(suite, rules=["3.*"], bases=["hand"])
    assert section3 and all(c["rule"].startswith("3.") and c["basis"] == "hand"
                            for c in section3)
    assert "bombing/strength-1" in {c["id"] for c in blasts}


def test_cli_rejects_an_unknown_basis(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown basis is a usage error naming the valid ones."""
    with pytest.raises(SystemExit) as exit_info:
        main(["conform", "--list", "--basis", "rumour"])
    assert exit_info.value.code == 2
    assert "server, hand, generated, strict" in capsys.readouterr().err


def test_junit_counts_unsupported_as_skipped(suite: List[Dict[str, Any]],
                                             tmp_path: Path) -> None:
    """Unsupported cases are JUnit skipped, failures are failures."""
    cases = by_id(suite, "captures/line-flipped", "perft/depth-zero")
    results = run_suite(SKELETON, cases, timeout=10)
    assert statuses(results) == [UNSUPPORTED, UNSUPPORTED]
    path = tmp_path / "j.xml"
    write_junit(results, path, SKELETON)
    root = ElementTree.parse(str(path)).getroot()
    assert sum(int(s.get("skipped", "0")) for s in root.findall("testsuite")) == 2


def test_judge_legal_moves_diff_marks_missing_and_extra(suite: List[Dict[str, Any]]) -> None:
    """RULES.md 3: a wrong legal-move list names the missing and extra moves and marks them
    on the drawn board."""
    case = by_id(suite, "overrides/listed-with-free-moves")[0]
    verdict = judge(case, {"moves": [[0, 0, 0], [2, 0, 0], [2, 0, 0]]})
    assert verdict.status == FAIL
    assert "missing (legal by the rules): (0,1,0)" in verdict.detail
    assert "extra (not legal by the rules): (2,0,0)" in verdict.detail
    assert "listed more than once" in verdict.detail
    assert "0 2 1!" in verdict.detail and "2?2 1" in verdict.detail
    assert case["description"] in verdict.detail
    assert judge(case, {"moves": [[0, 1, 0], [0, 0, 0]]}).status == PASS


def test_judge_apply_diff_names_cells_and_counts(suite: List[Dict[str, Any]]) -> None:
    """RULES.md 3: a wrong state after a move lists the differing cells and counts."""
    case = by_id(suite, "overrides/onto-opponent-stone-applied")[0]
    wrong = dict(case["expected"]["state"], board=["121"], overrides=[1, 0])
    verdict = judge(case, {"state": wrong})
    assert verdict.status == FAIL
    assert "(1,0) expected 1, engine 2" in verdict.detail
    # `~` marks the differing cell on both boards (`*` means "legal" in `show`).
    assert "0  1 1~1      0  1 2~1" in verdict.detail
    assert "(~ cell that differs)" in verdict.detail
    assert "overrides: expected [0, 0], engine [1, 0]" in verdict.detail
    assert judge(case, {"state": case["expected"]["state"]}).status == PASS
    assert judge(case, {"illegal": True, "reason": "no"}).summary == "legal step rejected"


def test_judge_illegal_and_map_cases(suite: List[Dict[str, Any]]) -> None:
    """RULES.md 1 and 3: accepting an illegal move or an invalid map fails; rejecting passes;
    a reported error place must match."""
    illegal = by_id(suite, "captures/hole-never-a-target")[0]
    assert judge(illegal, {"illegal": True}).status == PASS
    assert judge(illegal, {"state": illegal["state"]}).status == FAIL
    rejected = by_id(suite, "map-loading/reject-bad-cell-character")[0]
    assert judge(rejected, {"rejected": True}).status == PASS
    assert judge(rejected, {"rejected": True, "line": 5, "column": 3}).status == PASS
    assert judge(rejected, {"rejected": True, "line": 5, "column": 1}).status == FAIL
    loaded = by_id(suite, "map-loading/two-sides-of-one-cell")[0]
    reversed_links = dict(loaded["expected"]["map"], transitions=[[1, 0, 0, 0, 0, 0],
                                                                  [1, 0, 2, 0, 0, 6]])
    assert judge(loaded, {"map": reversed_links,
                          "state": loaded["expected"]["state"]}).status == PASS
    assert judge(loaded, {"rejected": True, "reason": "x"}).status == FAIL


def test_judge_game_reports_first_differing_step(suite: List[Dict[str, Any]]) -> None:
    """RULES.md 3-7: a game diff names the first step whose state differs, and the ranking."""
    case = by_id(suite, "games/build-then-bomb")[0]
    states = [dict(s) for s in case["expected"]["states"]]
    states[1] = dict(states[1], bombs=[1, 1])
    verdict = judge(case, {"states": states, "ranking": case["expected"]["ranking"]})
    assert "after step 1 of 3: move (2, 0) special 0" in verdict.detail
    verdict = judge(case, {"states": case["expected"]["states"], "ranking": [[1, 2, 1]]})
    assert verdict.summary == "ranking differs"


def test_draw_board_has_coordinates() -> None:
    """Boards are drawn with column numbers on top and row numbers on the left."""
    assert draw_board(["01", "2-"], {(1, 1): "*"}) == ["   0 1", "0  0 1", "1  2 -*"]
    wide = draw_board(["0" * 12])
    assert wide[0].strip().startswith("1") and wide[1].strip().startswith("0 1 2")
    big = draw_board(["0" * 100] * 100, {(90, 90): "*"})
    assert "showing columns" in big[-1]


def test_show_case_reads_as_specification(suite: List[Dict[str, Any]],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """`conform --show` prints the rule, the position, the query and the expected answer."""
    text = show_case(by_id(suite, "choice/swap-with-named-player")[0])
    assert "RULES.md 3" in text and "move (0, 0) special 2" in text and "2 2 2" in text
    assert main(["conform", "--show", "--case", "bombing/strength-1"]) == 0
    assert "strength 1 removes the 3x3 square" in capsys.readouterr().out
    assert main(["conform", "--list", "--area", "ranking"]) == 0
    assert "ranking/ties-share-a-rank" in capsys.readouterr().out


@pytest.mark.skipif(sys.platform != "linux", reason="reads the process table from /proc")
def test_sigterm_stops_the_run_and_its_engine(tmp_path: Path) -> None:
    """A plain `kill` of `conform` while the engine hangs: exit 130 with one line, and the
    engine is gone too."""
    marker = str(tmp_path / "marker")  # an extra argument that names this test's engine
    process = subprocess.Popen(
        [PYTHON, "-m", "reversi_ref", "conform", "--engine",
         "%s hang-on-perft %s" % (MISBEHAVING, marker), "--case", "perft/depth-zero",
         "--timeout", "60"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True)
    deadline = time.monotonic() + 60
    while not engines_with(marker, process.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert engines_with(marker, process.pid), "the engine never started"
    time.sleep(0.5)  # the request reaches the engine
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err.strip() == "reversi-ref conform: interrupted"
    assert engines_with(marker, process.pid) == []


def engines_with(marker: str, runner: int) -> List[int]:
    """The process ids other than `runner` whose command line holds `marker`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if (entry.name.isdigit() and int(entry.name) != runner
                    and marker in (entry / "cmdline").read_text()):
                found.append(int(entry.name))
        except OSError:
            pass  # gone meanwhile
    return found
