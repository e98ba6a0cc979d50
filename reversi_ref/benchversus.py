"""`reversi-ref bench search --versus OTHER`: this checkout's search speed against another's.

One run of each version cannot show a 10% change on a machine whose speed drifts: two runs of
the same code have differed by a third here (docs/speed.md).  So both versions run in
rounds, each version in a child process of its own under the same interpreter, and the order
alternates (this, other; other, this; ...) so that a slow spell of the machine falls on both.
Each child is `bench search -t 0` of that version: every bench position searched to the fixed
depth from empty tables, `--repeat` times, its CPU time the median.  With a depth per map, each
map has a child of its own, so that a version older than per-map depths can be compared too.

For each map the figure is the CPU time to the depth summed over its positions; a round's
ratio is this checkout's time over the other's, in the same round.  The summary gives the
median ratio, the rounds in which this checkout was faster, and a two-sided sign test on them.
The searches themselves are compared too: a pure speed change leaves the nodes, moves and
values at the fixed depth exactly as they were.

OTHER is a directory holding a `reversi_ref` package (another checkout or worktree), or a git
revision of this checkout's repository, which is exported to a scratch directory first.
"""

from __future__ import annotations

import io
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence

from . import searchbench
from .errors import ReversiError
from .sprt import sign_test

Result = Dict[str, Any]
ROUNDS = 6
# Each fixed-depth search runs this many times in a child by default, its median counting.
REPEAT = 3
# A child run: (the version's root directory, the bench search arguments) -> its JSON report.
RunChild = Callable[[Path, List[str]], Result]


class Version(NamedTuple):
    """One side of the comparison: a label and the directory that holds its `reversi_ref`."""

    label: str
    root: Path


def is_package_root(path: Path) -> bool:
    """Whether `path` holds a `reversi_ref` package."""
    return (path / "reversi_ref" / "__init__.py").is_file()


def export_revision(repository: Path, revision: str, into: Path) -> None:
    """Write `revision`'s `reversi_ref` package and bundled maps from the git repository at
    `repository` into the directory `into`; ReversiError when it is not a revision there."""
    def git(*args: str) -> "subprocess.CompletedProcess[bytes]":
        try:
            return subprocess.run(["git", "-C", str(repository)] + list(args),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except OSError as error:
            raise ReversiError("--versus %s: git cannot be run (%s)" % (revision, error)) from None

    found = git("rev-parse", "--verify", "--quiet", revision + "^{commit}")
    if found.returncode != 0:
        raise ReversiError("--versus %s: neither a directory holding reversi_ref/ nor a git "
                           "revision of %s" % (revision, repository))
    # maps/ too: the bundled maps are read from beside the package.
    archive = git("archive", "--format=tar", found.stdout.decode().strip(), "reversi_ref",
                  "maps")
    if archive.returncode != 0:
        raise ReversiError("--versus %s: git archive failed: %s"
                           % (revision, archive.stderr.decode(errors="replace").strip()))
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.12+ (and later 3.9-3.11 patches)
            tar.extractall(str(into), filter="data")
        else:
            tar.extractall(str(into))


def absolute(argument: str) -> str:
    """A map file's path made absolute (the children run in their own directories); a
    bundled map's name as it is."""
    path = Path(argument)
    return str(path.resolve()) if path.is_file() else argument


def child_arguments(maps: Sequence[str], depths: Sequence[int], repeat: int,
                    weights: Optional[str]) -> List[List[str]]:
    """The `bench search` arguments both versions run with: one child for all maps, or with
    a depth per map one child per map (a version older than per-map depths takes one)."""
    common = ["search", "-t", "0", "--repeat", str(repeat)]
    if weights is not None:
        common += ["--weights", "@" + absolute(weights[1:]) if weights.startswith("@")
                   else weights]
    if len(depths) > 1:
        return [common + ["--depth", str(depth), "--map", absolute(name)]
                for name, depth in zip(maps, depths)]
    arguments = list(common)
    if depths:
        arguments += ["--depth", str(depths[0])]
    for name in maps:
        arguments += ["--map", absolute(name)]
    return [arguments]


def round_order(index: int) -> List[str]:
    """Which version runs first in round `index` (0-based): this one in even rounds."""
    return ["this", "other"] if index % 2 == 0 else ["other", "this"]


def run_rounds(this: Version, other: Version, children: List[List[str]], rounds: int,
               run_child: RunChild, progress: Callable[[str], None] = lambda _: None
               ) -> List[Result]:
    """`rounds` rounds of both versions' children (the argument lists of `children`, their
    maps joined into one report), alternating which version goes first."""
    versions = {"this": this, "other": other}
    results: List[Result] = []
    for index in range(rounds):
        entry: Result = {"order": round_order(index)}
        for side in entry["order"]:
            progress("round %d of %d: %s (%s)" % (index + 1, rounds, side, versions[side].label))
            reports = [run_child(versions[side].root, arguments) for arguments in children]
            entry[side] = {"maps": [row for report in reports for row in report["maps"]]}
        results.append(entry)
    return results


def map_seconds(report: Result) -> Dict[str, float]:
    """Each map's CPU seconds to the fixed depth, summed over its positions."""
    return {row["map"]: sum(position["fixed"]["seconds"] for position in row["positions"])
            for row in report["maps"] if row["positions"]}


def map_nodes(report: Result) -> Dict[str, int]:
    """Each map's nodes to the fixed depth, summed over its positions."""
    return {row["map"]: sum(position["fixed"]["nodes"] for position in row["positions"])
            for row in report["maps"] if row["positions"]}


def ratio_summary(this_seconds: Sequence[float], other_seconds: Sequence[float]) -> Result:
    """Paired rounds of two versions' times: the medians, each round's ratio this/other, the
    median ratio, the rounds this version was faster and slower, and the sign test on them."""
    ratios = [a / b if b > 0 else float("inf") for a, b in zip(this_seconds, other_seconds)]
    faster = sum(1 for a, b in zip(this_seconds, other_seconds) if a < b)
    slower = sum(1 for a, b in zip(this_seconds, other_seconds) if a > b)
    return {"this_seconds": list(this_seconds), "other_seconds": list(other_seconds),
            "this_median": statistics.median(this_seconds),
            "other_median": statistics.median(other_seconds),
            "ratios": ratios, "median_ratio": statistics.median(ratios),
            "faster": faster, "slower": slower, "p": sign_test(faster, slower)}


def summarize(rounds: List[Result]) -> Result:
    """Per map and over all maps: times, ratios and sign tests; and whether the searches
    were the same (nodes, moves and values at the fixed depth)."""
    first = rounds[0]
    mine = [map_seconds(entry["this"]) for entry in rounds]
    theirs = [map_seconds(entry["other"]) for entry in rounds]
    this_nodes = map_nodes(first["this"])
    other_nodes = map_nodes(first["other"])
    maps: List[Result] = []
    for table in first["this"]["maps"]:
        name = table["map"]
        if not table["positions"]:
            continue
        row = ratio_summary([times.get(name, 0.0) for times in mine],
                            [times.get(name, 0.0) for times in theirs])
        row.update(map=name, depth=table["depth"], this_nodes=this_nodes[name],
                   other_nodes=other_nodes.get(name, 0))
        maps.append(row)
    totals = ratio_summary([sum(times.values()) for times in mine],
                           [sum(times.values()) for times in theirs])
    differs = searchbench.same_results(first["other"], first["this"])
    for entry in rounds[1:]:
        for side in ("this", "other"):
            if differs is None:
                unsteady = searchbench.same_results(first[side], entry[side])
                if unsteady is not None:
                    differs = "%s differs between its own rounds: %s" % (side, unsteady)
    return {"maps": maps, "total": totals, "search_differs": differs}


def format_versus(this: Version, other: Version, interpreter: str, summary: Result,
                  rounds: int) -> str:
    """The comparison as a text table."""
    lines = ["bench search --versus under %s: this (%s) against other (%s), %d rounds "
             "alternating which runs first; CPU seconds to the fixed depth d, summed over a "
             "map's positions" % (interpreter, this.label, other.label, rounds),
             "%-36s %2s %15s %8s %8s %7s  %-28s %s" % (
                 "map", "d", "nodes", "this s", "other s", "ratio", "ratio per round",
                 "this faster")]

    def line(name: str, depth: str, nodes: str, row: Result) -> str:
        per_round = " ".join("%.2f" % ratio for ratio in row["ratios"])
        return "%-36s %2s %15s %8.3f %8.3f %7.3f  %-28s %d of %d (p %.2f)" % (
            name[:36], depth, nodes, row["this_median"], row["other_median"],
            row["median_ratio"], per_round, row["faster"], len(row["ratios"]), row["p"])

    for row in summary["maps"]:
        nodes = ("{:,}".format(row["this_nodes"]) if row["this_nodes"] == row["other_nodes"]
                 else "%s/%s" % ("{:,}".format(row["this_nodes"]),
                                 "{:,}".format(row["other_nodes"])))
        lines.append(line(row["map"], str(row["depth"]), nodes, row))
    lines.append(line("all maps", "", "", summary["total"]))
    lines.append("ratio: this checkout's median time over the other's (below 1: this one is "
                 "faster); per round: the same ratio within each round; p: two-sided sign "
                 "test on the rounds")
    if summary["search_differs"] is None:
        lines.append("searches: the same nodes, moves and values at the fixed depth in both")
    else:
        lines.append("searches differ (not a pure speed change; the other's figures "
                     "first): %s" % summary["search_differs"])
    return "\n".join(lines)


def resolve_other(text: str, repository: Path, scratch: Path) -> Version:
    """The version named by `--versus`: a directory holding reversi_ref/, or a git revision
    of `repository` exported under `scratch`."""
    if not text.strip():
        raise ReversiError("--versus: give a directory or a git revision, not an empty name")
    path = Path(text)
    if path.is_dir():
        if not is_package_root(path):
            raise ReversiError("--versus %s: that directory holds no reversi_ref/ package"
                               % text)
        return Version(text, path.resolve())
    export_revision(repository, text, scratch)
    if not is_package_root(scratch):
        raise ReversiError("--versus %s: that revision has no reversi_ref/ package" % text)
    return Version(text, scratch)


def versus(other_text: str, maps: Sequence[str], depths: Sequence[int], repeat: int,
           weights: Optional[str], rounds: int, interpreter: str, run_child: RunChild,
           this_root: Path = searchbench.PACKAGE_ROOT) -> Result:
    """Run the comparison, print its table and return the whole report."""
    maps = list(maps) or searchbench.default_map_arguments()
    searchbench.check_depth_count(depths, len(maps))
    with tempfile.TemporaryDirectory() as scratch:
        other = resolve_other(other_text, this_root, Path(scratch))
        this = Version(str(this_root), this_root)
        arguments = child_arguments(maps, depths, repeat, weights)
        results = run_rounds(this, other, arguments, rounds, run_child,
                             lambda text: print(text, file=sys.stderr))
    summary = summarize(results)
    print(format_versus(this, other, interpreter, summary, rounds))
    return {"versus": other.label, "this": str(this.root), "interpreter": interpreter,
            "arguments": arguments, "rounds": results, "summary": summary}
