"""`bench search --versus OTHER`: two versions' fixed-depth search time in alternating child
processes, with each round's ratio and a sign test, and the searches compared."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any, Dict, List

import pytest

from reversi_ref import benchversus
from reversi_ref.benchversus import Version, ratio_summary, run_rounds, summarize
from reversi_ref.cli import main

ROOT = Path(benchversus.__file__).resolve().parents[1]
SMALL = ["bench", "search", "--map", "othello8x8", "--depth", "2", "--rounds", "2",
         "--repeat", "1"]


def report(seconds: Dict[str, List[float]], nodes: int = 10) -> Dict[str, Any]:
    """A hand-made `bench search` report: per map, one position per entry of seconds."""
    return {"maps": [{"map": name, "depth": 3, "positions": [
        {"ply": 6 + i, "fixed": {"seconds": s, "nodes": nodes, "move": 1, "value": 0}}
        for i, s in enumerate(times)]} for name, times in seconds.items()]}


def test_ratio_summary_by_hand() -> None:
    """Ratios 0.5, 1 and 2: median 1, one round faster, one slower, one tied (left out of
    the sign test, p = 1); six rounds all faster: p = 2 / 2**6."""
    row = ratio_summary([1.0, 2.0, 3.0], [2.0, 2.0, 1.5])
    assert row["ratios"] == [0.5, 1.0, 2.0] and row["median_ratio"] == 1.0
    assert (row["faster"], row["slower"], row["p"]) == (1, 1, 1.0)
    assert (row["this_median"], row["other_median"]) == (2.0, 2.0)
    row = ratio_summary([1.0] * 6, [1.25] * 6)
    assert row["median_ratio"] == 0.8 and row["faster"] == 6
    assert row["p"] == pytest.approx(2 / 64)


def test_rounds_alternate_which_version_runs_first() -> None:
    """this, other; other, this; this, other: a drift of the machine falls on both."""
    calls: List[Path] = []

    def child(root: Path, arguments: List[str]) -> Dict[str, Any]:
        calls.append(root)
        return report({"m": [1.0]})

    this, other = Version("a", Path("/a")), Version("b", Path("/b"))
    rounds = run_rounds(this, other, [["search"]], 3, child)
    assert [str(p) for p in calls] == ["/a", "/b", "/b", "/a", "/a", "/b"]
    assert [r["order"] for r in rounds] == [["this", "other"], ["other", "this"],
                                            ["this", "other"]]


def test_a_depth_per_map_runs_a_child_per_map() -> None:
    """`--depth 8,5` with two maps: each version runs two children a round, each with one
    map and its depth, and their maps make one report; one depth for all: one child."""
    calls: List[List[str]] = []

    def child(root: Path, arguments: List[str]) -> Dict[str, Any]:
        calls.append(arguments)
        name = arguments[arguments.index("--map") + 1]
        return report({name: [float(arguments[arguments.index("--depth") + 1])]})

    children = benchversus.child_arguments(["m1", "m2"], [8, 5], 3, None)
    rounds = run_rounds(Version("a", Path("/a")), Version("b", Path("/b")), children, 1, child)
    assert [(c[c.index("--map") + 1], c[c.index("--depth") + 1]) for c in calls] == [
        ("m1", "8"), ("m2", "5"), ("m1", "8"), ("m2", "5")]
    assert summarize(rounds)["total"]["this_seconds"] == [13.0]
    one = benchversus.child_arguments(["m1", "m2"], [4], 3, None)
    assert len(one) == 1 and one[0].count("--map") == 2 and "4" in one[0]


def test_summary_sums_positions_and_names_a_changed_search() -> None:
    """A map's time is the sum over its positions, the total the sum over maps; a
    difference in nodes between the versions is named, and so is one within a version."""
    rounds = [{"this": report({"m": [1.0, 2.0], "n": [1.0]}),
               "other": report({"m": [2.0, 2.0], "n": [1.0]})},
              {"this": report({"m": [1.0, 1.0], "n": [2.0]}),
               "other": report({"m": [4.0, 4.0], "n": [2.0]})}]
    summary = summarize(rounds)
    m, n = summary["maps"]
    assert m["this_seconds"] == [3.0, 2.0] and m["other_seconds"] == [4.0, 8.0]
    assert m["ratios"] == [0.75, 0.25] and m["faster"] == 2
    assert n["ratios"] == [1.0, 1.0] and (n["faster"], n["slower"]) == (0, 0)
    assert summary["total"]["this_seconds"] == [4.0, 4.0]
    assert summary["total"]["other_seconds"] == [5.0, 10.0]
    assert summary["search_differs"] is None
    rounds[0]["other"] = report({"m": [2.0, 2.0], "n": [1.0]}, nodes=11)
    assert "m ply 6" in summarize(rounds)["search_differs"]
    rounds[0]["other"] = report({"m": [2.0, 2.0], "n": [1.0]})
    rounds[1]["this"] = report({"m": [1.0, 1.0], "n": [2.0]}, nodes=9)
    assert "this differs between its own rounds" in summarize(rounds)["search_differs"]


def test_versus_a_checkout_runs_both_at_the_asked_depth(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Against this same checkout: two rounds, the same searches, and each child's nodes
    are those of an in-process `bench search` at the same depth (not at depth 3)."""
    out = tmp_path / "versus.json"
    assert main(SMALL + ["--versus", str(ROOT), "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "searches: the same nodes, moves and values" in text
    assert "othello8x8" in text and "all maps" in text
    versus = json.loads(out.read_text())
    assert [r["order"] for r in versus["rounds"]] == [["this", "other"], ["other", "this"]]
    nodes = {}
    for depth in ("2", "3"):
        single = tmp_path / ("single%s.json" % depth)
        assert main(["bench", "search", "--map", "othello8x8", "-t", "0", "--depth", depth,
                     "--json", str(single)]) == 0
        nodes[depth] = [p["fixed"]["nodes"] for p in
                        json.loads(single.read_text())["maps"][0]["positions"]]
    assert nodes["2"] != nodes["3"]
    for entry in versus["rounds"]:
        for side in ("this", "other"):
            got = [p["fixed"]["nodes"] for p in entry[side]["maps"][0]["positions"]]
            assert got == nodes["2"]
    assert versus["summary"]["search_differs"] is None


def test_versus_a_git_revision(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--versus HEAD` exports that revision's package and maps and runs them."""
    inside = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "HEAD"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if inside.returncode != 0:
        pytest.skip("not a git checkout")
    out = tmp_path / "versus.json"
    # One round is enough here (the rounds are the test above's); the later --rounds wins.
    assert main(SMALL + ["--rounds", "1", "--versus", "HEAD", "--json", str(out)]) == 0
    assert "against other (HEAD)" in capsys.readouterr().out
    assert len(json.loads(out.read_text())["rounds"]) == 1


def test_bench_search_takes_a_depth_per_map(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """`--depth 2,3` searches the first map to 2 and the second to 3, with the nodes of a
    run of each alone; a count of depths that fits neither one nor every map is an error."""
    def nodes(depth: str, maps: List[str]) -> List[List[int]]:
        out = tmp_path / "d.json"
        args = ["bench", "search", "-t", "0", "--depth", depth, "--json", str(out)]
        for name in maps:
            args += ["--map", name]
        assert main(args) == 0
        return [[p["fixed"]["nodes"] for p in row["positions"]]
                for row in json.loads(out.read_text())["maps"]]

    both = nodes("2,3", ["othello8x8", "mirror"])
    assert both == nodes("2", ["othello8x8"]) + nodes("3", ["mirror"])
    assert both != nodes("2", ["othello8x8", "mirror"])
    capsys.readouterr()
    assert main(["bench", "search", "-t", "0", "--depth", "2,3,4", "--map", "tiny3x3",
                 "--map", "othello8x8"]) == 1
    assert "--depth gives 3 depths for 2 maps" in capsys.readouterr().err


def test_bad_versus_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A directory without the package, an unknown revision and a broken other version are
    errors naming the cause (exit 1, no traceback)."""
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(SMALL + ["--versus", str(empty)]) == 1
    assert "holds no reversi_ref/ package" in capsys.readouterr().err
    assert main(SMALL + ["--versus", "HEAD", "--depth", "2,3"]) == 1
    assert "--depth gives 2 depths for 1 maps" in capsys.readouterr().err
    assert main(SMALL + ["--versus", ""]) == 1
    assert "not an empty name" in capsys.readouterr().err
    assert main(SMALL + ["--versus", "no-such-revision-xyz"]) == 1
    assert "neither a directory holding reversi_ref/ nor a git revision" in (
        capsys.readouterr().err)
    broken = tmp_path / "broken" / "reversi_ref"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("")
    (broken / "__main__.py").write_text("raise SystemExit('this build is broken')\n")
    assert main(SMALL + ["--versus", str(broken.parent)]) == 1
    err = capsys.readouterr().err
    assert "--versus:" in err and "this build is broken" in err and "Traceback" not in err


@pytest.mark.parametrize("extra, message", [
    (["--rounds", "2"], "argument --rounds: only with --versus"),
    (["--versus", ".", "--compare"], "does not go with --compare"),
    (["--versus", ".", "-t", "1"], "does not go with -t"),
    (["--versus", ".", "--rounds", "0"], "argument --rounds: must be an integer of at least 1"),
])
def test_versus_usage_errors(capsys: pytest.CaptureFixture[str], extra: List[str],
                             message: str) -> None:
    """Options that do not fit --versus are usage errors (exit 2)."""
    with pytest.raises(SystemExit) as stop:
        main(["bench", "search", "--map", "othello8x8", "-t", "0"] + extra
             if "-t" not in extra else ["bench", "search", "--map", "othello8x8"] + extra)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_versus_is_for_the_search_bench_only(capsys: pytest.CaptureFixture[str]) -> None:
    """`bench perft --versus` is refused, not ignored."""
    with pytest.raises(SystemExit) as stop:
        main(["bench", "perft", "--map", "tiny3x3", "--versus", "HEAD"])
    assert stop.value.code == 2
    assert "argument --versus: only with `bench search`" in capsys.readouterr().err
