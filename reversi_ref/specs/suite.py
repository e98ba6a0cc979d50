"""Assembling, writing, reading and checking the golden suite; the `gen-specs` subcommand.

Layout of the suite directory (specs/README.md, "Format"):

    specs/index.json          format version, areas with their file and case count, total
    specs/cases/<area>.jsonl  one case per line, hand-made cases first, then each chunk

The text is deterministic: the same code and maps give the same bytes, on every supported
Python.  `reversi-ref gen-specs` writes it; `reversi-ref gen-specs --check` compares.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from .casebook import AREAS, BASES, GENERATED, SERVER, Case, check_hand
from .codec import JSONObject, SpecError, dumps
from .generated import bundled_maps, generate_chunk, generated_chunk_names
from .handmade import handmade_cases
from .observedcases import observed_chunk, observed_records
from .oracle import answer, request_of_case
from .ruleids import RULE_BY_ID, RULES
from .serverbasis import (forget_observations, load_observations, map_texts, observe,
                          with_server_basis, write_observations)
from .situations import situation_key

# The layout of the files (README "Cases"); 2 added `rule` and `basis` to every case.
FORMAT_VERSION = 2
READABLE_FORMATS = (1, 2)
# The content: bumped whenever a case is added, changed or removed (specs/CHANGELOG.md).
SUITE_VERSION = 3
HAND_CHUNK = "hand"


def repository_root() -> Path:
    """The source checkout holding `maps/` and `specs/`."""
    return Path(__file__).resolve().parents[2]


def default_specs_dir() -> Path:
    """`specs/` of the source checkout, else `./specs`."""
    candidate = repository_root() / "specs"
    if (candidate / "index.json").exists():
        return candidate
    return Path("specs")


# --------------------------------------------------------------------------- generation


def expected_answer(case: Case) -> JSONObject:
    """The readable rules' answer to a case, checked against the kind of the case."""
    result = answer(request_of_case(case.to_json()))
    kind = case.query["kind"]
    wanted = {"legal_moves": "moves", "apply": "state", "illegal": "illegal",
              "perft": "nodes", "game": "states", "map_load": "map",
              "map_reject": "rejected"}[kind]
    if wanted not in result:
        raise SpecError("case %s: the rules answer %r, not a %s answer"
                        % (case.id, result, kind))
    return result


def hand_chunk() -> List[Case]:
    """The hand-made cases with the rules' answers; raises SpecError on any disagreement
    between the rules and the hand-worked answer."""
    cases: List[Case] = []
    for case in handmade_cases():
        expected = expected_answer(case)
        if case.hand is None:
            raise SpecError("hand-made case %s has no hand-worked answer" % case.id)
        problems = check_hand(expected, case.hand)
        if problems:
            raise SpecError("hand-made case %s disagrees with the rules: %s"
                            % (case.id, "; ".join(problems)))
        cases.append(case._replace(expected=expected))
    return cases


def chunk_names(root: Optional[Path] = None) -> List[str]:
    """Every chunk of the suite in order: hand-made, games observed on the official server,
    bundled maps, generated maps."""
    root = root or repository_root()
    return [HAND_CHUNK] + list(observed_records(root / "specs")) + \
        sorted(bundled_maps(root)) + generated_chunk_names()


def build_chunk(name: str, root: Optional[Path] = None) -> List[Case]:
    """The cases of one chunk, rejected maps that the official loader's recorded verdicts
    confirm marked `server` (serverbasis.py)."""
    root = root or repository_root()
    maps = bundled_maps(root)
    observed = observed_records(root / "specs")
    if name == HAND_CHUNK:
        cases = hand_chunk()
    elif name in maps:
        cases = generate_chunk(name, maps[name])
    elif name in generated_chunk_names():
        cases = generate_chunk(name)
    elif name in observed:
        cases = observed_chunk(name, observed[name])
    else:
        raise SpecError("no chunk named %r" % name)
    return with_server_basis(cases, load_observations(root / "specs"))


def chunk_of(case_id: str) -> str:
    """The chunk a case id belongs to: generated ids are `area/chunk/kind-NN`, hand-made ids
    `area/name`."""
    parts = case_id.split("/")
    return parts[1] if len(parts) == 3 else HAND_CHUNK


def check_provenance(case: Case) -> None:
    """Raise SpecError unless the case names a known rule id and basis."""
    if case.rule not in RULE_BY_ID:
        raise SpecError("case %s has unknown rule id %r" % (case.id, case.rule))
    if case.basis not in BASES:
        raise SpecError("case %s has unknown basis %r" % (case.id, case.basis))


def drop_padding(cases: Sequence[Case]) -> List[Case]:
    """The cases without padding, in their order: every hand-made named case, then for each
    (rule, situation) not shown yet the first server-observed case, else the first generated
    one (situations.py)."""
    keys = [situation_key(case.to_json()) for case in cases]
    named = [chunk_of(case.id) == HAND_CHUNK for case in cases]
    seen: Set[Tuple[str, str]] = {key for key, is_named in zip(keys, named) if is_named}
    keep = {number for number, is_named in enumerate(named) if is_named}
    for basis in (SERVER, GENERATED):
        for number, (case, key) in enumerate(zip(cases, keys)):
            if not named[number] and case.basis == basis and key not in seen:
                seen.add(key)
                keep.add(number)
    return [case for number, case in enumerate(cases) if number in keep]


def candidate_cases(root: Optional[Path] = None, progress: bool = False) -> List[Case]:
    """The cases of every chunk, before padding is dropped."""
    cases: List[Case] = []
    for name in chunk_names(root):
        started = time.perf_counter()
        chunk = build_chunk(name, root)
        for case in chunk:
            check_provenance(case)
        cases.extend(chunk)
        if progress:
            print("  %-20s %5d candidates  %.1f s" % (name, len(chunk),
                                                       time.perf_counter() - started),
                  file=sys.stderr)
    ids = [case.id for case in cases]
    if len(set(ids)) != len(ids):
        raise SpecError("duplicate case ids in the suite")
    return cases


def generate_suite(root: Optional[Path] = None, progress: bool = False) -> List[Case]:
    """Every case of the suite, in suite order: the candidates of every chunk, padding
    dropped."""
    return drop_padding(candidate_cases(root, progress))


# --------------------------------------------------------------------------- files


def case_line(case: Case) -> str:
    """The suite line of a case."""
    return dumps(case.to_json())


def suite_files(cases: Sequence[Case]) -> Dict[str, str]:
    """The suite as {relative path: text}: one JSON-lines file per area and index.json."""
    lines: Dict[str, List[str]] = {area: [] for area in AREAS}
    for case in cases:
        if case.area not in lines:
            raise SpecError("case %s has unknown area %r" % (case.id, case.area))
        lines[case.area].append(case_line(case))
    files: Dict[str, str] = {}
    index: Dict[str, Any] = {"format": FORMAT_VERSION, "suite": SUITE_VERSION, "areas": [],
                             "rules": rule_table(cases), "basis": basis_counts(cases),
                             "total": len(cases)}
    for area in AREAS:
        path = "cases/%s.jsonl" % area
        files[path] = "".join(line + "\n" for line in lines[area])
        kinds: Dict[str, int] = {}
        for case in cases:
            if case.area == area:
                kinds[case.query["kind"]] = kinds.get(case.query["kind"], 0) + 1
        index["areas"].append({"area": area, "file": path, "cases": len(lines[area]),
                               "kinds": dict(sorted(kinds.items()))})
    files["index.json"] = json.dumps(index, indent=1, ensure_ascii=True) + "\n"
    return files


def basis_counts(cases: Iterable[Case]) -> Dict[str, int]:
    """How many cases have each basis."""
    counts = {basis: 0 for basis in BASES}
    for case in cases:
        counts[case.basis] += 1
    return counts


def rule_table(cases: Sequence[Case]) -> List[Dict[str, Any]]:
    """For each rule id: its section and implementation, its cases by basis, and how many
    distinct situations they show."""
    rows = []
    for rule in RULES:
        mine = [case for case in cases if case.rule == rule.id]
        situations = {situation_key(case.to_json()) for case in mine}
        rows.append({"rule": rule.id, "section": rule.section,
                     "implementation": rule.implementation, "cases": len(mine),
                     "situations": len(situations),
                     "basis": {k: v for k, v in basis_counts(mine).items() if v}})
    return rows


def write_suite(cases: Sequence[Case], directory: Path) -> Dict[str, str]:
    """Write the suite files under `directory`; return them."""
    files = suite_files(cases)
    for relative, text in files.items():
        path = directory / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", encoding="ascii", newline="\n") as handle:
            handle.write(text)
    return files


def compare_suite(files: Dict[str, str], directory: Path) -> List[str]:
    """The files under `directory` that differ from `files` (with the first differing line)."""
    problems: List[str] = []
    for relative, text in sorted(files.items()):
        path = directory / relative
        if not path.exists():
            problems.append("%s: missing" % relative)
            continue
        current = path.read_text(encoding="ascii")
        if current != text:
            old, new = current.splitlines(), text.splitlines()
            for number, (a, b) in enumerate(zip(old, new), start=1):
                if a != b:
                    problems.append("%s: line %d differs (%s)" % (relative, number,
                                                                   _case_id_of(b)))
                    break
            else:
                problems.append("%s: %d lines on disk, %d generated"
                                % (relative, len(old), len(new)))
    return problems


def _case_id_of(line: str) -> str:
    try:
        return str(json.loads(line).get("id"))
    except ValueError:
        return line[:40]


def load_suite(directory: Path, areas: Optional[Iterable[str]] = None) -> List[JSONObject]:
    """The cases of the suite under `directory` (all areas, or those named), in suite order.

    Raises SpecError when the index or a line is not valid JSON of the expected shape.
    """
    index_path = directory / "index.json"
    try:
        index = json.loads(index_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SpecError("no golden suite at %s (index.json missing)" % directory) from None
    except ValueError as error:
        raise SpecError("%s: not JSON: %s" % (index_path, error)) from None
    if not isinstance(index, dict) or index.get("format") not in READABLE_FORMATS:
        raise SpecError("%s: unsupported format %r" % (index_path, index.get("format")
                                                       if isinstance(index, dict) else index))
    wanted = set(areas) if areas is not None else None
    cases: List[JSONObject] = []
    for entry in index["areas"]:
        if wanted is not None and entry["area"] not in wanted:
            continue
        path = directory / entry["file"]
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                case = json.loads(line)
            except ValueError as error:
                raise SpecError("%s:%d: not JSON: %s" % (path, number, error)) from None
            if not isinstance(case, dict) or not {"id", "area", "query", "expected",
                                                  "map"} <= set(case):
                raise SpecError("%s:%d: not a case" % (path, number))
            # Format 1 had no provenance: every answer came from the readable rules.
            case.setdefault("rule", "")
            case.setdefault("basis", GENERATED)
            cases.append(case)
    return cases


def area_names(directory: Path) -> List[str]:
    """The areas listed in the suite's index."""
    index = json.loads((directory / "index.json").read_text(encoding="utf-8"))
    return [str(entry["area"]) for entry in index["areas"]]


def counts_by_area(cases: Iterable[JSONObject]) -> List[Tuple[str, int]]:
    """(area, number of cases) in area order."""
    counts: Dict[str, int] = {}
    for case in cases:
        counts[case["area"]] = counts.get(case["area"], 0) + 1
    return [(area, counts[area]) for area in AREAS if area in counts]


# --------------------------------------------------------------------------- versions

# What an engine is judged on; a change to any of these fields changes the case.
JUDGED_FIELDS = ("map", "state", "query", "expected")


def suite_changes(old: Sequence[JSONObject], new: Sequence[JSONObject]) -> Dict[str, List[str]]:
    """Case ids added, changed (a judged field differs) and removed between two suites."""
    before = {case["id"]: case for case in old}
    after = {case["id"]: case for case in new}
    changed = [i for i in after if i in before
               and any(before[i].get(f) != after[i].get(f) for f in JUDGED_FIELDS)]
    return {"added": [i for i in after if i not in before], "changed": changed,
            "removed": [i for i in before if i not in after]}


def changes_markdown(changes: Dict[str, List[str]]) -> List[str]:
    """The changes as Markdown lists, ids grouped by area, for specs/CHANGELOG.md."""
    lines: List[str] = []
    for kind in ("changed", "removed", "added"):
        ids = changes[kind]
        lines.append("%s (%d):" % (kind.capitalize(), len(ids)))
        lines.append("")
        by_area: Dict[str, List[str]] = {}
        for case_id in ids:
            by_area.setdefault(case_id.split("/")[0], []).append(case_id)
        for area in AREAS:
            if area in by_area:
                lines.append("- %s: %s" % (area, ", ".join("`%s`" % i
                                                          for i in by_area[area])))
        lines.append("")
    return lines


# --------------------------------------------------------------------------- command line


def run_gen_specs(args: argparse.Namespace) -> int:
    """The `gen-specs` subcommand."""
    directory = Path(args.output) if args.output else repository_root() / "specs"
    # Fail before the long generation: the suite is built from a clone's maps/ and
    # specs/observed/, which an installed package does not have.
    root = repository_root()
    if not (root / "maps").is_dir() or not (root / "specs" / "observed").is_dir():
        raise SpecError("gen-specs needs a clone of reversi-ref (no maps/ and specs/observed/ "
                        "under %s): run it from the repository root with "
                        "`python3 -m reversi_ref gen-specs`" % root)
    if args.check and not (directory / "index.json").is_file():
        raise SpecError("no suite to check at %s (index.json missing)" % directory)
    started = time.perf_counter()
    if args.observe_mapinfo:
        forget_observations(directory)
        texts = map_texts(candidate_cases(progress=args.verbose))
        path = write_observations(directory, observe(args.observe_mapinfo, texts))
        print("%d map texts judged by %s; verdicts written to %s"
              % (len(texts), args.observe_mapinfo, path))
    cases = generate_suite(progress=args.verbose)
    files = suite_files(cases)
    elapsed = time.perf_counter() - started
    if args.changes_from:
        changes = suite_changes(load_suite(Path(args.changes_from)),
                                [case.to_json() for case in cases])
        print("\n".join(changes_markdown(changes)))
        return 0
    if args.check:
        problems = compare_suite(files, directory)
        for problem in problems:
            print(problem)
        print("%d cases generated in %.1f s; %s" % (
            len(cases), elapsed, "suite differs" if problems else "suite is up to date"))
        return 1 if problems else 0
    write_suite(cases, directory)
    print("%d cases written to %s in %.1f s" % (len(cases), directory, elapsed))
    for area, count in counts_by_area(case.to_json() for case in cases):
        print("  %-18s %5d" % (area, count))
    return 0


def register(subparsers: Any) -> None:
    """Add the `gen-specs` subcommand."""
    parser = subparsers.add_parser(
        "gen-specs", help="regenerate the golden suite in specs/ from the readable rules",
        description="Regenerate the golden suite (specs/cases/*.jsonl and specs/index.json) "
                    "from the readable rules, the hand-worked cases and the bundled maps.  "
                    "The output is byte-for-byte deterministic.")
    parser.add_argument("--output", metavar="DIR",
                        help="write here instead of the checkout's specs/")
    parser.add_argument("--check", action="store_true",
                        help="compare with the files on disk instead of writing")
    parser.add_argument("--verbose", action="store_true", help="report each chunk")
    parser.add_argument("--observe-mapinfo", metavar="PATH",
                        help="first run the official mapinfo binary at PATH on every map text "
                             "and record its verdicts in specs/observed/mapinfo.jsonl")
    parser.add_argument("--changes-from", metavar="DIR",
                        help="print the case ids added, changed and removed since the suite "
                             "in DIR (for specs/CHANGELOG.md) instead of writing")
    parser.set_defaults(func=run_gen_specs)
