"""Judging an engine's answer to a suite case, and the readable diff of a failure.

`judge(case, answer)` compares one answer of the adapter protocol (specs/README.md) with the
case's expected answer and returns a `Verdict`: pass, fail (with a diff that names the case, its
rule and what differs, the board drawn with coordinates) or unsupported (the engine said it does
not implement this kind of query).  Malformed answers are failures, never exceptions.
"""

from __future__ import annotations

from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Set, Tuple

from .codec import JSON, JSONObject, SpecError, normalized_transitions

PASS = "pass"
FAIL = "fail"
UNSUPPORTED = "unsupported"

STATE_FIELDS = ("board", "to_move", "phase", "overrides", "bombs", "disqualified")
MAP_FIELDS = ("players", "overrides", "bombs", "strength", "height", "width")

# Markers after a cell in the drawn boards.  None is a cell character of the map format or a
# marker of `reversi-ref show` (`reversi_ref.render.text.MARKERS`), so each means one thing.
DIFFERS_MARK = "~"   # the engine's cell differs from the expected one
MISSING_MARK = "?"   # a legal move the engine left out
EXTRA_MARK = "!"     # a move the engine gave that is not legal

# Boards larger than this are drawn as a window around the cells of interest.
DRAW_LIMIT = 40
WINDOW_MARGIN = 4


class Verdict(NamedTuple):
    """The outcome of one case: `status` is pass, fail or unsupported; `detail` explains."""

    status: str
    summary: str = ""
    detail: str = ""


class Malformed(Exception):
    """An answer that does not have the shape the protocol requires."""


Cell = Tuple[int, int]


# =========================================================================== drawing


def _window(height: int, width: int, marks: Set[Cell]) -> Tuple[int, int, int, int]:
    """Rows y0..y1 and columns x0..x1 (exclusive ends) to draw."""
    if height <= DRAW_LIMIT and width <= DRAW_LIMIT:
        return 0, height, 0, width
    if marks:
        xs = [x for x, _ in marks]
        ys = [y for _, y in marks]
        x0, x1 = min(xs) - WINDOW_MARGIN, max(xs) + WINDOW_MARGIN + 1
        y0, y1 = min(ys) - WINDOW_MARGIN, max(ys) + WINDOW_MARGIN + 1
    else:
        x0, x1, y0, y1 = 0, DRAW_LIMIT, 0, DRAW_LIMIT
    x1 = min(width, max(x1, x0 + 1), x0 + DRAW_LIMIT)
    y1 = min(height, max(y1, y0 + 1), y0 + DRAW_LIMIT)
    return max(0, y0), y1, max(0, x0), x1


def draw_board(rows: Sequence[str], marks: Optional[Dict[Cell, str]] = None,
               window: Optional[Tuple[int, int, int, int]] = None) -> List[str]:
    """The board drawn with column numbers on top and row numbers on the left; `marks` puts a
    marker character after the marked cells (e.g. DIFFERS_MARK for a differing cell)."""
    height = len(rows)
    width = len(rows[0]) if rows else 0
    marks = marks or {}
    y0, y1, x0, x1 = window or _window(height, width, set(marks))
    if height == 0 or width == 0:
        return ["(empty board, %dx%d)" % (width, height)]
    label = max(len(str(y1 - 1)), 1)
    lines = []
    columns = list(range(x0, x1))
    if any(x >= 10 for x in columns):
        lines.append(" " * (label + 2) + "".join(
            ("%d" % (x // 10) if x >= 10 else " ") + " " for x in columns).rstrip())
    lines.append(" " * (label + 2) + "".join("%d " % (x % 10) for x in columns).rstrip())
    for y in range(y0, y1):
        cells = "".join(rows[y][x] + marks.get((x, y), " ") for x in columns)
        lines.append("%*d  %s" % (label, y, cells.rstrip()))
    if (y0, y1, x0, x1) != (0, height, 0, width):
        lines.append("(showing columns %d..%d, rows %d..%d of a %dx%d board)"
                     % (x0, x1 - 1, y0, y1 - 1, width, height))
    return lines


def side_by_side(left: List[str], right: List[str], titles: Tuple[str, str],
                 gap: int = 6) -> List[str]:
    """Two drawings next to each other, with titles."""
    width = max([len(line) for line in left] + [len(titles[0])])
    lines = ["%-*s%s%s" % (width, titles[0], " " * gap, titles[1])]
    for k in range(max(len(left), len(right))):
        a = left[k] if k < len(left) else ""
        b = right[k] if k < len(right) else ""
        lines.append(("%-*s%s%s" % (width, a, " " * gap, b)).rstrip())
    return lines


def describe_state(state: JSON) -> str:
    """One line: who moves, the phase and the counts of a JSON state."""
    if not isinstance(state, dict):
        return "(no state)"
    mover = state.get("to_move")
    return "%s, phase %s; overrides %s; bombs %s; disqualified %s" % (
        "player %s to move" % mover if mover is not None else "nobody to move",
        state.get("phase"), state.get("overrides"), state.get("bombs"),
        state.get("disqualified"))


def map_header(map_text: str) -> List[str]:
    """The transitions of a map text, one line each (for the drawing of a position)."""
    words = map_text.split()
    try:
        height, width = int(words[4]), int(words[5])
    except (IndexError, ValueError):
        return []
    rest = words[6 + height * width:]
    lines = []
    for k in range(0, len(rest) - 6, 7):
        lines.append(" ".join(rest[k:k + 7]))
    if not lines:
        return []
    shown = lines[:12]
    more = " (+%d more)" % (len(lines) - 12) if len(lines) > 12 else ""
    return ["transitions: " + "; ".join(shown) + more]


def draw_position(case: JSONObject, marks: Optional[Dict[Cell, str]] = None) -> List[str]:
    """The case's position drawn, with who moves and the counts."""
    state = case.get("state")
    lines = []
    if isinstance(state, dict) and isinstance(state.get("board"), list):
        lines.append("position: " + describe_state(state))
        lines.extend("  " + line for line in draw_board(state["board"], marks))
        lines.extend("  " + line for line in map_header(str(case.get("map", ""))))
    else:
        lines.append("map text:")
        text = str(case.get("map", ""))
        shown = text.splitlines()[:30]
        lines.extend("  | " + line for line in shown)
        if len(text.splitlines()) > 30:
            lines.append("  | ... (%d lines)" % len(text.splitlines()))
    return lines


def describe_query(case: JSONObject) -> str:
    """The query in words."""
    query = case["query"]
    kind = query["kind"]
    if kind in ("apply", "illegal"):
        if "move" in query:
            x, y, s = query["move"]
            return "%s: move (%d, %d) special %d" % (kind, x, y, s)
        return "%s: disqualify player %s" % (kind, query.get("disqualify"))
    if kind == "perft":
        return "perft to depth %s" % query.get("depth")
    if kind == "game":
        return "game of %d steps" % len(query.get("steps", []))
    return str(kind)


def rule_line(case: JSONObject) -> str:
    """`rule: ID (basis B): description` for a case."""
    return "rule: %s (basis %s): %s" % (case.get("rule") or "-", case.get("basis", "generated"),
                                        case["description"])


def show_case(case: JSONObject) -> str:
    """A readable page for one case: id, rule, position, query and expected answer."""
    lines = ["%s  [%s]" % (case["id"], case["query"]["kind"]), "  " + rule_line(case)]
    lines.extend("  " + line for line in draw_position(case))
    lines.append("  query: " + describe_query(case))
    expected = case["expected"]
    if "moves" in expected:
        lines.append("  expected moves: " + (_moves_text(expected["moves"]) or "none"))
    elif "state" in expected and "map" not in expected:
        lines.append("  expected after: " + describe_state(expected["state"]))
        lines.extend("    " + line for line in draw_board(expected["state"]["board"]))
    elif expected.get("illegal"):
        lines.append("  expected: rejected (%s)" % expected.get("reason"))
    elif "nodes" in expected:
        lines.append("  expected nodes: %d" % expected["nodes"])
    elif "states" in expected:
        lines.append("  expected ranking: %s" % _ranking_text(expected["ranking"]))
        if expected["states"]:
            lines.append("  final: " + describe_state(expected["states"][-1]))
            lines.extend("    " + line for line in draw_board(expected["states"][-1]["board"]))
    elif expected.get("rejected"):
        lines.append("  expected: rejected at line %s, column %s: %s"
                     % (expected["line"], expected["column"], expected["reason"]))
    elif "map" in expected:
        lines.append("  expected header: %s" % ", ".join(
            "%s %s" % (k, expected["map"][k]) for k in MAP_FIELDS))
        lines.append("  initial state: " + describe_state(expected["state"]))
    return "\n".join(lines)


# =========================================================================== answer shapes


def _is_int(value: JSON) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _move_list(value: JSON) -> List[Tuple[int, int, int]]:
    if not isinstance(value, list):
        raise Malformed('"moves" must be a list of [x, y, special]')
    moves = []
    for item in value:
        if not isinstance(item, list) or len(item) != 3 or not all(_is_int(v) for v in item):
            raise Malformed('"moves" must hold [x, y, special] integer triples, found %s'
                            % _short(item))
        moves.append((item[0], item[1], item[2]))
    return moves


def _check_state_shape(value: JSON, where: str) -> JSONObject:
    if not isinstance(value, dict):
        raise Malformed("%s must be a state object, found %s" % (where, _short(value)))
    board = value.get("board")
    if not isinstance(board, list) or not all(isinstance(r, str) for r in board):
        raise Malformed("%s.board must be a list of strings" % where)
    for key in ("overrides", "bombs", "disqualified"):
        field = value.get(key)
        if not isinstance(field, list) or not all(_is_int(v) for v in field):
            raise Malformed("%s.%s must be a list of integers" % (where, key))
    if value.get("to_move") is not None and not _is_int(value.get("to_move")):
        raise Malformed("%s.to_move must be an integer or null" % where)
    if not isinstance(value.get("phase"), str):
        raise Malformed("%s.phase must be a string" % where)
    return value


def _short(value: JSON, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _moves_text(moves: Sequence[Sequence[int]]) -> str:
    return " ".join("(%d,%d,%d)" % (m[0], m[1], m[2]) for m in moves)


def _ranking_text(ranking: JSON) -> str:
    if not isinstance(ranking, list):
        return repr(ranking)
    return ", ".join("#%s player %s (%s)" % tuple(r) if isinstance(r, list) and len(r) == 3
                     else repr(r) for r in ranking)


# =========================================================================== comparisons


def _state_diff(expected: JSONObject, actual: JSONObject) -> Tuple[List[str],
                                                                    Dict[Cell, str]]:
    """Lines naming each differing field, and the differing cells."""
    problems: List[str] = []
    cells: Dict[Cell, str] = {}
    want, got = expected["board"], actual["board"]
    if len(want) != len(got) or any(len(a) != len(b) for a, b in zip(want, got)):
        problems.append("board size: expected %dx%d, engine %dx%d" % (
            len(want[0]) if want else 0, len(want), len(got[0]) if got else 0, len(got)))
    else:
        listed = []
        for y, (a, b) in enumerate(zip(want, got)):
            for x, (ca, cb) in enumerate(zip(a, b)):
                if ca != cb:
                    cells[(x, y)] = DIFFERS_MARK
                    listed.append("(%d,%d) expected %s, engine %s" % (x, y, ca, cb))
        if listed:
            more = " (+%d more)" % (len(listed) - 12) if len(listed) > 12 else ""
            problems.append("cells differ: " + "; ".join(listed[:12]) + more)
    for key in STATE_FIELDS[1:]:
        a, b = expected.get(key), actual.get(key)
        if key == "disqualified" and isinstance(b, list):
            b = sorted(b)
        if a != b:
            problems.append("%s: expected %s, engine %s" % (key, _short(a), _short(b)))
    return problems, cells


def _state_failure(case: JSONObject, expected: JSONObject, actual: JSONObject,
                   before: Optional[JSONObject], title: str) -> Optional[Tuple[str, List[str]]]:
    problems, cells = _state_diff(expected, actual)
    if not problems:
        return None
    lines = []
    if before is not None:
        lines.append("position before: " + describe_state(before))
        lines.extend("  " + line for line in draw_board(before["board"], cells))
        lines.extend("  " + line for line in map_header(str(case.get("map", ""))))
    same_size = not problems[0].startswith("board size")
    if same_size:
        window = _window(len(expected["board"]),
                         len(expected["board"][0]) if expected["board"] else 0, set(cells))
        lines.append(title)
        lines.extend("  " + line for line in side_by_side(
            draw_board(expected["board"], cells, window),
            draw_board(actual["board"], cells, window), ("expected", "engine")))
        if cells:
            lines.append("  (%s cell that differs)" % DIFFERS_MARK)
    lines.extend(problems)
    return problems[0], lines


def _compare_legal(case: JSONObject, answer: JSONObject) -> Optional[Tuple[str, List[str]]]:
    if "moves" not in answer:
        raise Malformed('a legal_moves answer needs "moves"')
    got = _move_list(answer["moves"])
    want = [tuple(m) for m in case["expected"]["moves"]]
    if sorted(got) == sorted(want):
        return None
    got_set, want_set = set(got), set(want)
    missing = sorted((m for m in want_set - got_set), key=lambda m: (m[1], m[0], m[2]))
    extra = sorted((m for m in got_set - want_set), key=lambda m: (m[1], m[0], m[2]))
    duplicates = sorted({m for m in got if got.count(m) > 1})
    marks: Dict[Cell, str] = {}
    for m in missing:
        marks[(m[0], m[1])] = MISSING_MARK
    for m in extra:
        marks[(m[0], m[1])] = EXTRA_MARK
    lines = draw_position(case, marks)
    lines.append("  (%s legal move the engine left out, %s move the engine gave that is not "
                 "legal)" % (MISSING_MARK, EXTRA_MARK))
    parts = []
    if missing:
        lines.append("missing (legal by the rules): " + _moves_text(missing))
        parts.append("%d missing" % len(missing))
    if extra:
        lines.append("extra (not legal by the rules): " + _moves_text(extra))
        parts.append("%d extra" % len(extra))
    if duplicates:
        lines.append("listed more than once: " + _moves_text(duplicates))
        parts.append("duplicates")
    lines.append("expected %d moves, engine gave %d" % (len(want), len(got)))
    return "legal moves differ: " + ", ".join(parts), lines


def _compare_apply(case: JSONObject, answer: JSONObject) -> Optional[Tuple[str, List[str]]]:
    expected = case["expected"]
    query_text = describe_query(case)
    if expected.get("illegal"):
        if answer.get("illegal") is True:
            return None
        if "state" not in answer:
            raise Malformed('an apply answer needs "state" or "illegal": true')
        lines = draw_position(case) + [query_text,
                                       "the rules reject this move: %s" % expected.get("reason"),
                                       "the engine played it."]
        return "illegal move accepted (%s)" % expected.get("reason"), lines
    if answer.get("illegal") is True:
        lines = draw_position(case) + [query_text, "the engine rejected a legal step: %s"
                                       % _short(answer.get("reason", ""), 200)]
        return "legal step rejected", lines
    if "state" not in answer:
        raise Malformed('an apply answer needs "state" or "illegal": true')
    actual = _check_state_shape(answer["state"], "state")
    failure = _state_failure(case, expected["state"], actual, case["state"],
                             "after " + query_text + ":")
    return failure


def _compare_perft(case: JSONObject, answer: JSONObject) -> Optional[Tuple[str, List[str]]]:
    if not _is_int(answer.get("nodes")):
        raise Malformed('a perft answer needs "nodes", an integer')
    want, got = case["expected"]["nodes"], answer["nodes"]
    if want == got:
        return None
    lines = draw_position(case) + ["perft %d: expected %d, engine %d (%+d)"
                                   % (case["query"]["depth"], want, got, got - want)]
    return "perft %d: expected %d, engine %d" % (case["query"]["depth"], want, got), lines


def _step_text(step: JSON) -> str:
    if isinstance(step, dict) and "move" in step:
        x, y, s = step["move"]
        return "move (%d, %d) special %d" % (x, y, s)
    if isinstance(step, dict):
        return "disqualify player %s" % step.get("disqualify")
    return repr(step)


def _normal_ranking(value: JSON) -> List[Tuple[int, ...]]:
    if not isinstance(value, list) or not all(
            isinstance(r, list) and len(r) == 3 and all(_is_int(v) for v in r) for r in value):
        raise Malformed('"ranking" must be a list of [rank, player, score]')
    return sorted(tuple(r) for r in value)


def _compare_game(case: JSONObject, answer: JSONObject) -> Optional[Tuple[str, List[str]]]:
    if "states" not in answer or not isinstance(answer["states"], list):
        raise Malformed('a game answer needs "states", a list')
    expected = case["expected"]
    steps = case["query"]["steps"]
    want_states = expected["states"]
    got_states = answer["states"]
    before = case["state"]
    for number, want in enumerate(want_states):
        if number >= len(got_states):
            lines = draw_position(case) + ["the engine gave %d states for %d steps"
                                           % (len(got_states), len(want_states))]
            return "game cut short after %d of %d steps" % (len(got_states),
                                                            len(want_states)), lines
        got = _check_state_shape(got_states[number], "states[%d]" % number)
        failure = _state_failure(case, want, got, before, "after step %d, %s:"
                                 % (number, _step_text(steps[number])))
        if failure is not None:
            summary, lines = failure
            head = ["first difference after step %d of %d: %s"
                    % (number, len(steps), _step_text(steps[number]))]
            return "step %d: %s" % (number, summary), head + lines
        before = want
    if len(got_states) != len(want_states):
        return ("%d states for %d steps" % (len(got_states), len(want_states)),
                ["the engine gave %d states for %d steps" % (len(got_states), len(want_states))])
    if "ranking" not in answer:
        raise Malformed('a game answer needs "ranking"')
    if _normal_ranking(answer["ranking"]) != _normal_ranking(expected["ranking"]):
        lines = []
        if want_states:
            lines.append("final position: " + describe_state(want_states[-1]))
            lines.extend("  " + line for line in draw_board(want_states[-1]["board"]))
        lines.append("ranking: expected %s" % _ranking_text(expected["ranking"]))
        lines.append("         engine   %s" % _ranking_text(answer["ranking"]))
        return "ranking differs", lines
    return None


def _compare_map(case: JSONObject, answer: JSONObject) -> Optional[Tuple[str, List[str]]]:
    expected = case["expected"]
    if expected.get("rejected"):
        where = "line %s, column %s" % (expected["line"], expected["column"])
        if answer.get("rejected") is not True:
            if "map" not in answer:
                raise Malformed('a map answer needs "map" and "state", or "rejected": true')
            lines = draw_position(case) + ["the rules reject this map at %s: %s"
                                           % (where, expected["reason"]),
                                           "the engine loaded it."]
            return "invalid map accepted (%s)" % expected["reason"], lines
        for key in ("line", "column"):
            if key in answer and answer[key] is not None and answer[key] != expected[key]:
                lines = draw_position(case) + [
                    "expected the error at %s (%s)" % (where, expected["reason"]),
                    "the engine reported line %s, column %s: %s" % (
                        answer.get("line"), answer.get("column"),
                        _short(answer.get("reason", ""), 200))]
                return "map rejected at another place", lines
        problem = answer.get("problem")
        if problem is not None and "problem" in expected and problem != expected["problem"]:
            lines = draw_position(case) + [
                "expected the problem %s at %s (%s)" % (expected["problem"], where,
                                                        expected["reason"]),
                "the engine named the problem %s: %s" % (
                    _short(problem, 80), _short(answer.get("reason", ""), 200))]
            return "map rejected for another problem", lines
        return None
    if answer.get("rejected") is True:
        lines = draw_position(case) + ["the engine rejected a valid map: %s (line %s, column "
                                       "%s)" % (_short(answer.get("reason", ""), 200),
                                                answer.get("line"), answer.get("column"))]
        return "valid map rejected", lines
    game_map = answer.get("map")
    if not isinstance(game_map, dict):
        raise Malformed('a map answer needs "map" and "state", or "rejected": true')
    problems = []
    for key in MAP_FIELDS:
        if game_map.get(key) != expected["map"][key]:
            problems.append("%s: expected %s, engine %s" % (key, expected["map"][key],
                                                            _short(game_map.get(key))))
    try:
        got_links = normalized_transitions(game_map.get("transitions"))
    except SpecError as error:
        raise Malformed(str(error)) from None
    want_links = normalized_transitions(expected["map"]["transitions"])
    if got_links != want_links:
        problems.append("transitions: expected %s, engine %s" % (_short(want_links, 200),
                                                                _short(got_links, 200)))
    if problems:
        return problems[0], draw_position(case) + problems
    actual = _check_state_shape(answer.get("state"), "state")
    return _state_failure(case, expected["state"], actual, None, "initial position:")


COMPARE = {
    "legal_moves": _compare_legal,
    "apply": _compare_apply,
    "illegal": _compare_apply,
    "perft": _compare_perft,
    "game": _compare_game,
    "map_load": _compare_map,
    "map_reject": _compare_map,
}


def judge(case: JSONObject, answer: Any) -> Verdict:
    """Compare an engine's answer (already parsed from JSON) with the case."""
    header = ["%s  [%s]" % (case["id"], case["query"]["kind"]), "  " + rule_line(case)]
    if not isinstance(answer, dict):
        return _fail(header, "malformed answer", ["the answer must be a JSON object, found "
                                                 + _short(answer, 200)])
    if "unsupported" in answer:
        return Verdict(UNSUPPORTED, "unsupported: %s" % _short(answer["unsupported"], 200))
    if "id" in answer and answer["id"] != case["id"]:
        return _fail(header, "answer for another case",
                     ["the answer names case %s" % _short(answer["id"])])
    if "error" in answer:
        return _fail(header, "engine error", ["the engine answered an error: "
                                              + _short(answer["error"], 400)])
    try:
        failure = COMPARE[case["query"]["kind"]](case, answer)
    except Malformed as error:
        return _fail(header, "malformed answer", [str(error), "answer: " + _short(answer, 300)])
    if failure is None:
        return Verdict(PASS)
    summary, lines = failure
    return _fail(header, summary, lines)


def _fail(header: List[str], summary: str, lines: List[str]) -> Verdict:
    body = [header[0] + ": " + summary] + header[1:] + ["  " + line for line in lines]
    return Verdict(FAIL, summary, "\n".join(body))
