"""docs/rules.md against the code: rule ids, section citations and relative links.

docs/rules.md restates the rules (RULES.md 1-8) for readers of a clone.  These tests fail when
it drifts from the code: a rule id of the golden suite missing from the page (or a stale one on
it), a rule's "implemented by" link that disagrees with `reversi_ref.specs.ruleids`, an example
case that is not in the linked case file, a `RULES.md N` citation in `reversi_ref/rules/` naming
a section the page lacks, or a relative link in the user docs to a file, heading or function
that does not exist.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import functools
import re
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Set, Tuple

import pytest

from reversi_ref.specs.ruleids import RULES

ROOT = Path(__file__).resolve().parents[1]
RULES_DOC = ROOT / "docs" / "rules.md"
RULES_PACKAGE = ROOT / "reversi_ref" / "rules"
# The user docs whose relative links must resolve (files another owner adds are checked when
# they are listed here).
LINKED_DOCS = ("README.md", "docs/rules.md", "docs/strength.md", "docs/speed.md",
               "docs/soak.md", "specs/README.md", "CHANGELOG.md")

_FENCE = re.compile(r"^```.*?^```[ \t]*$", re.M | re.S)
_LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)
_RULE_ROW = re.compile(r"^\| `([^`]+)` \| ([^|]+) \| (\[[^|]+\]\([^|]+\)) \| ([^|]*) \|$", re.M)
_RULE_ID = re.compile(r"`((?:\d+|perft|game)\.[a-z][a-z0-9-]*)`")
_IDENTIFIER_TEXT = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)`\Z")
_CITATION = re.compile(r"RULES\.md((?:\s*(?:,|-|and)?\s*\d+\b)+)(?:\s*\(([^)]*)\))?")
_DOC_ANCHOR = re.compile(r"docs/rules\.md#([a-z0-9-]+)")


class Row(NamedTuple):
    """One row of a rule-id table in docs/rules.md."""

    rule_id: str
    implementation_link: str
    cases: str


def _text(relative: str) -> str:
    return (ROOT / relative).read_text(encoding="utf-8")


def _without_code_blocks(markdown: str) -> str:
    return _FENCE.sub("", markdown)


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to dashes."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text stays
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


@functools.lru_cache(maxsize=None)
def anchors(markdown: str) -> Set[str]:
    """Every heading anchor of a Markdown text, duplicates numbered as GitHub does."""
    seen: Dict[str, int] = {}
    found: Set[str] = set()
    for match in _HEADING.finditer(_without_code_blocks(markdown)):
        slug = github_slug(match.group(2))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else "%s-%d" % (slug, count))
    return found


def sections(markdown: str) -> Dict[str, List[str]]:
    """The numbered sections of docs/rules.md (`## N. Title`): number -> the titles of the
    section and of its subsections, lower case."""
    result: Dict[str, List[str]] = {}
    current = None
    for match in _HEADING.finditer(_without_code_blocks(markdown)):
        level, title = len(match.group(1)), match.group(2)
        numbered = re.match(r"(\d+)\.\s", title)
        if level == 2:
            current = numbered.group(1) if numbered else None
            if current is not None:
                result[current] = [title.lower()]
        elif level > 2 and current is not None:
            result[current].append(title.lower())
    return result


def rule_rows() -> List[Row]:
    """The rows of the rule-id tables of docs/rules.md."""
    return [Row(m.group(1), m.group(3), m.group(4)) for m in _RULE_ROW.finditer(_text(
        "docs/rules.md"))]


@functools.lru_cache(maxsize=None)
def defined_names(path: Path) -> Dict[str, Set[str]]:
    """Top-level names of a module, each with the names defined in its body (for a class)."""
    names: Dict[str, Set[str]] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            members: Set[str] = set()
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        members.add(item.name)
                    elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                        members.add(item.target.id)
                    elif isinstance(item, ast.Assign):
                        members.update(t.id for t in item.targets if isinstance(t, ast.Name))
            names[node.name] = members
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    names[target.id] = set()
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = set()
    return names


def link_problems(relative: str, markdown: Optional[str] = None) -> List[str]:
    """What is wrong with the relative links of one Markdown file of the repository (or of
    `markdown`, read as if it were that file)."""
    source = ROOT / relative
    problems: List[str] = []
    if markdown is None:
        markdown = _text(relative)
    for text, target in _LINK.findall(_without_code_blocks(markdown)):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        where = "%s: [%s](%s)" % (relative, text, target)
        path_part, _, anchor = target.partition("#")
        if not path_part:  # a heading of this page
            if anchor not in anchors(markdown):
                problems.append("%s: no heading with anchor #%s" % (where, anchor))
            continue
        resolved = (source.parent / path_part).resolve()
        if ROOT not in resolved.parents and resolved != ROOT:
            problems.append("%s leaves the repository (a clone would not have it)" % where)
            continue
        if not resolved.exists():
            problems.append("%s: no such file" % where)
            continue
        if anchor and resolved.suffix == ".md":
            if anchor not in anchors(resolved.read_text(encoding="utf-8")):
                problems.append("%s: no heading with anchor #%s" % (where, anchor))
        name = _IDENTIFIER_TEXT.match(text)
        if name and resolved.suffix == ".py" and not name.group(1).endswith(".py"):
            top, _, member = name.group(1).partition(".")
            defined = defined_names(resolved)
            if top not in defined or (member and member not in defined[top]):
                problems.append("%s: %s is not defined in %s"
                                % (where, name.group(1), resolved.relative_to(ROOT)))
    return problems


def citations() -> List[Tuple[str, str, str]]:
    """Every `RULES.md N` citation in a string of reversi_ref/rules: (where, section, detail)."""
    found: List[Tuple[str, str, str]] = []
    for path in sorted(RULES_PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                where = "%s:%d" % (path.relative_to(ROOT), node.lineno)
                for match in _CITATION.finditer(node.value):
                    numbers = [int(n) for n in re.findall(r"\d+", match.group(1))]
                    if "-" in match.group(1) and len(numbers) == 2:
                        numbers = list(range(numbers[0], numbers[1] + 1))
                    for number in numbers:
                        found.append((where, str(number), (match.group(2) or "").lower()))
    return found


# --------------------------------------------------------------------------- rule ids


def test_every_rule_id_has_one_row() -> None:
    """Every rule id of the golden suite has exactly one row in docs/rules.md, and every row
    names a rule id of the suite."""
    documented = [row.rule_id for row in rule_rows()]
    known = [rule.id for rule in RULES]
    assert sorted(set(known) - set(documented)) == [], "rule ids missing from docs/rules.md"
    assert sorted(set(documented) - set(known)) == [], "docs/rules.md names unknown rule ids"
    assert len(documented) == len(set(documented)), "a rule id has two rows"


def test_rule_ids_in_the_text_exist() -> None:
    """A rule id mentioned anywhere on the page (outside code blocks) is a rule id of the suite."""
    known = {rule.id for rule in RULES}
    mentioned = set(_RULE_ID.findall(_without_code_blocks(_text("docs/rules.md"))))
    assert mentioned, "the rule-id pattern found nothing: the test is broken"
    assert sorted(mentioned - known) == []


def test_rows_sit_in_their_sections() -> None:
    """A numbered rule id's row stands in the section of that number."""
    current = None
    placed: Dict[str, str] = {}
    for line in _without_code_blocks(_text("docs/rules.md")).splitlines():
        heading = re.match(r"## (?:(\d+)\.\s)?", line)
        if heading:
            current = heading.group(1)
        row = _RULE_ROW.match(line)
        if row:
            placed[row.group(1)] = current or "-"
    wrong = {rule.id: placed.get(rule.id) for rule in RULES
             if rule.section.isdigit() and placed.get(rule.id) != rule.section}
    assert wrong == {}


def test_implemented_by_matches_ruleids() -> None:
    """The "implemented by" link of each row is the function `ruleids` names for that rule."""
    expected = {rule.id: rule.implementation for rule in RULES}
    wrong = {}
    for row in rule_rows():
        match = re.fullmatch(r"\[`(\w+)`\]\(\.\./([\w/]+)\.py\)", row.implementation_link)
        dotted = (match.group(2).replace("/", ".") + "." + match.group(1)) if match else None
        if dotted != expected.get(row.rule_id):
            wrong[row.rule_id] = (row.implementation_link, expected.get(row.rule_id))
    assert wrong == {}


def _cases_by_file() -> Dict[str, Dict[str, str]]:
    """Case file (relative to the repository) -> {case id: rule id}."""
    result: Dict[str, Dict[str, str]] = {}
    for path in sorted((ROOT / "specs" / "cases").glob("*.jsonl")):
        with path.open(encoding="utf-8") as lines:
            result[path.relative_to(ROOT).as_posix()] = {
                case["id"]: case["rule"] for case in map(json.loads, lines)}
    return result


def test_example_cases_show_their_rule() -> None:
    """Each row links at least one golden case, and each linked case is in the linked file
    and shows the row's rule."""
    cases = _cases_by_file()
    problems = []
    for row in rule_rows():
        links = _LINK.findall(row.cases)
        if not links:
            problems.append("%s: no example case" % row.rule_id)
        for text, target in links:
            case_id = text.strip("`")
            linked = (RULES_DOC.parent / target).resolve().relative_to(ROOT).as_posix()
            file_cases = cases.get(linked, {})
            if file_cases.get(case_id) != row.rule_id:
                problems.append("%s: %s in %s shows %s" % (row.rule_id, case_id, target,
                                                          file_cases.get(case_id)))
    assert problems == []


# --------------------------------------------------------------------------- citations


def test_rules_package_citations_name_existing_sections() -> None:
    """Every `RULES.md N` in a docstring or message of reversi_ref/rules names a section of
    docs/rules.md, and a named part (`RULES.md 3 (choice)`) is one of its headings."""
    known = sections(_text("docs/rules.md"))
    found = citations()
    assert len(found) > 20, "too few citations found: the pattern is broken"
    problems = []
    for where, section, detail in found:
        if section not in known:
            problems.append("%s cites section %s" % (where, section))
        elif detail and not any(detail in title for title in known[section]):
            problems.append("%s cites %s (%s), which has no such heading" % (where, section,
                                                                              detail))
    assert problems == []


def test_rules_package_anchors_exist() -> None:
    """Every `docs/rules.md#anchor` written in reversi_ref/rules is a heading of the page, and
    every module there points to the page."""
    known = anchors(_text("docs/rules.md"))
    problems = []
    for path in sorted(RULES_PACKAGE.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        docstring = ast.get_docstring(ast.parse(text)) or ""
        if "docs/rules.md" not in docstring:
            problems.append("%s: the module docstring does not point to docs/rules.md" % path.name)
        for anchor in _DOC_ANCHOR.findall(text):
            if anchor not in known:
                problems.append("%s: no heading #%s in docs/rules.md" % (path.name, anchor))
    assert problems == []


def test_sections_follow_the_rules_modules() -> None:
    """docs/rules.md has sections 1-8, and links every module of reversi_ref/rules."""
    text = _text("docs/rules.md")
    assert sorted(sections(text), key=int) == [str(n) for n in range(1, 9)]
    modules = {p.name for p in RULES_PACKAGE.glob("*.py")} - {"__init__.py"}
    linked = {Path(target).name for _, target in _LINK.findall(text)
              if target.startswith("../reversi_ref/rules/")}
    assert sorted(modules - linked) == []


# --------------------------------------------------------------------------- links


@pytest.mark.parametrize("relative", LINKED_DOCS)
def test_relative_links_resolve(relative: str) -> None:
    """Relative links point to files of the repository, headings that exist and functions
    defined in the linked module."""
    if not (ROOT / relative).exists():
        pytest.skip("%s is not there yet" % relative)
    assert link_problems(relative) == []


def test_link_checker_catches_bad_links() -> None:
    """The checker itself rejects a missing file, a missing anchor, a missing function and a
    link out of the repository (on a page written for the purpose, read as if in docs/)."""
    page = ("# Probe\n\n[a](../reversi_ref/rules/walking.py) [`step`](../reversi_ref/"
            "rules/walking.py) [`nothing_here`](../reversi_ref/rules/walking.py)\n"
            "[b](rules.md#no-such-heading) [c](rules.md#1-map-files) [d](missing.md)\n"
            "[e](../../shared/RULES.md) [`Referee.ask`](../reversi_ref/referee.py)\n"
            "[`Referee.nope`](../reversi_ref/referee.py) [f](#probe)\n")
    problems = link_problems("docs/probe.md", page)
    assert [p.split(": ", 1)[1].split("(")[0] for p in problems] == [
        "[`nothing_here`]", "[b]", "[d]", "[e]", "[`Referee.nope`]"]


def test_slugs_as_github_makes_them() -> None:
    """Anchors follow GitHub's rule (checked against anchors GitHub shows for such headings)."""
    assert github_slug("4. Turn order and the end of the building phase") == \
        "4-turn-order-and-the-end-of-the-building-phase"
    assert github_slug("A move's effect") == "a-moves-effect"
    assert github_slug("`conform` options") == "conform-options"
    assert anchors("# A\n## A\n```\n# not a heading\n```\n") == {"a", "a-1"}


# --------------------------------------------------------------------------- README examples


def test_readme_python_examples_run() -> None:
    """Every Python example of the README runs, and the rule example prints the rule it names."""
    blocks = re.findall(r"^```python\n(.*?)^```", _text("README.md"), re.M | re.S)
    assert len(blocks) >= 2
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, "README.md", "exec"), {})
        for expected in re.findall(r"print\(error\.rule\)\s*# (.+)", block):
            assert expected.strip() in out.getvalue()


def test_readme_shows_what_print_state_prints() -> None:
    """The board the README says `print(state)` shows is what it prints (once `GameState` has
    its own text form)."""
    from reversi_ref import GameState, parse_map

    if "__str__" not in vars(GameState):
        pytest.skip("GameState has no text form of its own here")
    readme = _text("README.md")
    shown = re.search(r"The first `print` shows:\n\n```\n(.*?)```", readme, re.S)
    source = re.search(r'rr\.parse_map\("([^"]*)"\)', readme)
    assert shown is not None and source is not None
    text = source.group(1).encode().decode("unicode_escape")
    assert str(parse_map(text)).rstrip("\n") == shown.group(1).rstrip("\n")


# --------------------------------------------------------------------------- worked examples


def _board_shown(rows: List[str]) -> bool:
    """Whether docs/rules.md shows these rows as a board, each after its row number."""
    text = _text("docs/rules.md")
    return all(("%d  %s" % (y, row)) in text for y, row in enumerate(rows))


EXAMPLES = [
    # (what, map text, moves, board before, board after, how the page shows the result: as a
    # board, or as this text), worked by hand.
    ("RULES.md 2: a transition jumps the hole", "2\n0\n0 0\n1 4\n0 2 - 1\n1 0 2 <-> 3 0 6\n",
     [(0, 0, 0)], ["0 2 - 1"], ["1 1 - 1"], "the row becomes `1 1 - 1`"),
    ("RULES.md 3: two lines captured, the third not", "2\n1\n0 0\n3 5\n0 2 2 2 1\n2 2 0 1 0\n"
     "1 0 0 0 0\n", [(0, 0, 0)], ["0 2 2 2 1", "2 2 0 1 0", "1 0 0 0 0"],
     ["1 1 1 1 1", "1 2 0 1 0", "1 0 0 0 0"], None),
    ("RULES.md 3 (choice): capture, then swap", "2\n0\n0 0\n2 3\nc 2 1\n2 0 0\n", [(0, 0, 2)],
     ["c 2 1", "2 0 0"], ["2 2 2", "1 0 0"], None),
    ("RULES.md 4: player 1 moves twice", "3\n0\n0 0\n1 6\n0 2 1 0 3 1\n", [(0, 0, 0)],
     ["0 2 1 0 3 1"], ["1 1 1 0 3 1"], "the row is `1 1 1 0 3 1`"),
    ("RULES.md 5: a wall of holes shields", "2\n0\n1 2\n3 5\n0 0 - 0 0\n0 1 - 2 0\n0 0 - 0 0\n",
     [(1, 1, 0)], ["0 0 - 0 0", "0 1 - 2 0", "0 0 - 0 0"],
     ["- - - 0 0", "- - - 2 0", "- - - 0 0"], None),
]


@pytest.mark.parametrize("what,text,moves,before,after,after_text", EXAMPLES,
                         ids=[e[0] for e in EXAMPLES])
def test_worked_examples(what: str, text: str, moves: List[Tuple[int, int, int]],
                         before: List[str], after: List[str], after_text: Optional[str]) -> None:
    """The worked examples of docs/rules.md: the page shows the boards, and the rules agree
    with the hand-worked result (player 1 moves)."""
    from reversi_ref import Move, parse_map, play

    state = parse_map(text)
    assert state.rows() == before
    for x, y, special in moves:
        assert state.to_move == 1
        state = play(state, Move(x, y, special))
    assert state.rows() == after
    assert _board_shown(before)
    if after_text is None:
        assert _board_shown(after)
    else:
        assert after_text in " ".join(_text("docs/rules.md").split())


def test_worked_turn_example_moves_player_one_again() -> None:
    """RULES.md 4, the example: after player 1's first move, players 2 and 3 cannot move, so
    player 1 is asked again and plays (3, 0)."""
    from reversi_ref import Move, legal_moves, parse_map, play

    state = play(parse_map("3\n0\n0 0\n1 6\n0 2 1 0 3 1\n"), Move(0, 0))
    assert state.to_move == 1 and legal_moves(state) == [Move(3, 0)]
    assert play(state, Move(3, 0)).rows() == ["1 1 1 1 1 1"]
