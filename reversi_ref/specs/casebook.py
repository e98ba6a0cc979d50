"""Building suite cases: the case record, query and hand-worked-answer helpers, area names.

A case is a JSON object (specs/README.md, "Format"):
`{"id", "area", "description", "map", "state", "query", "expected"}`.  Hand-made cases also
carry a hand-worked answer (`hand`), written by a person and never computed; the generator
checks that the readable rules give an answer that agrees with it (`check_hand`) and refuses to
write the suite when they disagree.
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Sequence

from .codec import JSON, JSONObject, SpecError

# Rule areas, in the order of RULES.md, then the two whole-tree areas.
AREAS = (
    "map-loading",       # RULES.md 1
    "transitions",       # RULES.md 2
    "captures",          # RULES.md 3: capture lines and legal targets
    "overrides",         # RULES.md 3: moves onto stones
    "expansion",         # RULES.md 3: moves onto x
    "choice",            # RULES.md 3: c
    "inversion",         # RULES.md 3: i
    "bonus",             # RULES.md 3: b
    "turn-order",        # RULES.md 4: who moves next, skips
    "phase-change",      # RULES.md 4: end of phase 1, start, end of the game
    "bombing",           # RULES.md 5
    "disqualification",  # RULES.md 6
    "ranking",           # RULES.md 7
    "perft",             # leaf counts (specs/README.md, "Perft")
    "games",             # whole games
)


# Where a case's expected answer comes from (specs/README.md, "Provenance").
SERVER = "server"        # observed on the official server
HAND = "hand"            # worked out by hand from RULES.md
GENERATED = "generated"  # produced by the readable rules, cross-checked as specs/README.md says
STRICT = "strict"        # a reading the server cannot be asked about; not in the default run
BASES = (SERVER, HAND, GENERATED, STRICT)
# A case written by `reversi-ref fuzz` (a shrunk failure); never part of the suite itself.
FUZZ = "fuzz"
ACCEPTED_BASES = BASES + (FUZZ,)


class Case(NamedTuple):
    """One golden case; `hand` is the hand-worked answer (None for generated cases), `rule`
    its rule id (ruleids.py) and `basis` where its answer comes from."""

    id: str
    area: str
    description: str
    map: str
    state: Optional[JSONObject]
    query: JSONObject
    expected: Optional[JSONObject] = None
    hand: Optional[JSONObject] = None
    rule: str = ""
    basis: str = GENERATED

    def to_json(self) -> JSONObject:
        """The case as written to the suite (the hand answer is not written)."""
        return {"id": self.id, "area": self.area, "rule": self.rule, "basis": self.basis,
                "description": self.description, "map": self.map, "state": self.state,
                "query": self.query, "expected": self.expected}


# --------------------------------------------------------------------------- map text


def rows_of(text: str) -> List[str]:
    """The non-blank lines of `text`, each with its cells separated by single spaces."""
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def compact_rows(text: str) -> List[str]:
    """The rows of `text` with no spaces: one character per cell (the JSON board form)."""
    return ["".join(line.split()) for line in text.splitlines() if line.strip()]


def map_text(cells: str, players: int = 2, overrides: int = 0, bombs: int = 0,
             strength: int = 0, transitions: Iterable[str] = ()) -> str:
    """A map file in the canonical layout: header from the arguments, size from `cells`."""
    rows = rows_of(cells)
    width = len(rows[0].split()) if rows else 0
    lines = [str(players), str(overrides), "%d %d" % (bombs, strength),
             "%d %d" % (len(rows), width)]
    lines.extend(rows)
    lines.extend(transitions)
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- queries


LEGAL: JSONObject = {"kind": "legal_moves"}


def apply_move(x: int, y: int, special: int = 0) -> JSONObject:
    """An `apply` query playing the move (x, y, special)."""
    return {"kind": "apply", "move": [x, y, special]}


def apply_disqualify(player: int) -> JSONObject:
    """An `apply` query disqualifying `player`."""
    return {"kind": "apply", "disqualify": player}


def illegal_move(x: int, y: int, special: int = 0) -> JSONObject:
    """An `illegal` query: the move (x, y, special) must be rejected."""
    return {"kind": "illegal", "move": [x, y, special]}


def perft_query(depth: int) -> JSONObject:
    """A `perft` query to `depth` plies."""
    return {"kind": "perft", "depth": depth}


def parse_steps(text: str) -> List[JSONObject]:
    """Steps written as `x,y` or `x,y,special` for moves and `dq:p` for disqualifications."""
    steps: List[JSONObject] = []
    for word in text.split():
        if word.startswith("dq:"):
            steps.append({"disqualify": int(word[3:])})
        else:
            numbers = [int(v) for v in word.split(",")]
            if len(numbers) == 2:
                numbers.append(0)
            steps.append({"move": numbers})
    return steps


def game_query(steps: str) -> JSONObject:
    """A `game` query playing the steps of `parse_steps(steps)` in order."""
    return {"kind": "game", "steps": parse_steps(steps)}


# --------------------------------------------------------------------------- hand answers


def parse_moves(text: str) -> List[List[int]]:
    """Moves written as `x,y` or `x,y,special`, sorted by (y, x, special)."""
    moves: List[List[int]] = []
    for word in text.split():
        numbers = [int(v) for v in word.split(",")]
        if len(numbers) == 2:
            numbers.append(0)
        moves.append(numbers)
    return sorted(moves, key=lambda m: (m[1], m[0], m[2]))


def hand_moves(text: str) -> JSONObject:
    """Hand answer of a `legal_moves` case: exactly these moves."""
    return {"moves": parse_moves(text)}


def hand_state(board: Optional[str] = None, **fields: Any) -> JSONObject:
    """A hand-worked (partial) state: only the fields given are checked."""
    state: Dict[str, Any] = dict(fields)
    if board is not None:
        state["board"] = compact_rows(board)
    return state


def hand_after(board: Optional[str] = None, **fields: Any) -> JSONObject:
    """Hand answer of an `apply` case: the (partial) state after the step."""
    return {"state": hand_state(board, **fields)}


def hand_illegal(reason_part: str) -> JSONObject:
    """Hand answer of an `illegal` case: rejected, with `reason_part` in the rule named."""
    return {"illegal": True, "reason_part": reason_part}


def hand_nodes(nodes: int) -> JSONObject:
    """Hand answer of a `perft` case."""
    return {"nodes": nodes}


def parse_ranking(text: str) -> List[List[int]]:
    """A ranking written `rank:player:score ...`."""
    return [[int(v) for v in word.split(":")] for word in text.split()]


def hand_game(ranking: str, states: Sequence[JSONObject] = ()) -> JSONObject:
    """Hand answer of a `game` case: the final ranking and (partial) states after each step."""
    answer: Dict[str, Any] = {"ranking": parse_ranking(ranking)}
    if states:
        answer["states"] = list(states)
    return answer


def hand_loads(header: Sequence[int], board: Optional[str] = None,
               transitions: Optional[Sequence[Sequence[int]]] = None, **fields: Any) -> JSONObject:
    """Hand answer of a `map_load` case: header (players, overrides, bombs, strength, height,
    width), optionally the transitions, and a (partial) initial state."""
    names = ("players", "overrides", "bombs", "strength", "height", "width")
    game_map: Dict[str, Any] = dict(zip(names, header))
    if transitions is not None:
        game_map["transitions"] = [list(t) for t in transitions]
    return {"map": game_map, "state": hand_state(board, **fields)}


def hand_rejects(line: int, column: int, reason_part: str, problem: str) -> JSONObject:
    """Hand answer of a `map_reject` case: the place of the error, part of its reason and the
    server's problem."""
    return {"rejected": True, "line": line, "column": column, "reason_part": reason_part,
            "problem": problem}


# --------------------------------------------------------------------------- checking


def _check_state(expected: JSON, hand: JSONObject, where: str) -> List[str]:
    problems: List[str] = []
    if not isinstance(expected, dict):
        return ["%s: expected a state, the rules gave %r" % (where, expected)]
    for key, value in hand.items():
        if expected.get(key) != value:
            problems.append("%s.%s: hand %r, rules %r" % (where, key, value, expected.get(key)))
    return problems


def check_hand(expected: JSONObject, hand: JSONObject) -> List[str]:
    """The disagreements between the rules' answer and a hand-worked answer ([] if none)."""
    problems: List[str] = []
    if "moves" in hand and expected.get("moves") != hand["moves"]:
        problems.append("moves: hand %r, rules %r" % (hand["moves"], expected.get("moves")))
    if "state" in hand:
        problems += _check_state(expected.get("state"), hand["state"], "state")
    if "illegal" in hand:
        reason = expected.get("reason", "")
        if expected.get("illegal") is not True or hand["reason_part"] not in str(reason):
            problems.append("illegal: hand expects a rejection naming %r, rules gave %r"
                            % (hand["reason_part"], expected))
    if "nodes" in hand and expected.get("nodes") != hand["nodes"]:
        problems.append("nodes: hand %r, rules %r" % (hand["nodes"], expected.get("nodes")))
    if "ranking" in hand and expected.get("ranking") != hand["ranking"]:
        problems.append("ranking: hand %r, rules %r" % (hand["ranking"], expected.get("ranking")))
    if "states" in hand:
        states = expected.get("states")
        if not isinstance(states, list) or len(states) != len(hand["states"]):
            problems.append("states: hand has %d, rules gave %r" % (len(hand["states"]), states))
        else:
            for number, (got, want) in enumerate(zip(states, hand["states"])):
                problems += _check_state(got, want, "states[%d]" % number)
    if "map" in hand:
        problems += _check_state(expected.get("map"), hand["map"], "map")
    if "rejected" in hand:
        if expected.get("rejected") is not True:
            problems.append("rejected: hand expects a rejection, rules gave %r" % expected)
        else:
            for key in ("line", "column", "problem"):
                if expected.get(key) != hand[key]:
                    problems.append("%s: hand %r, rules %r" % (key, hand[key], expected.get(key)))
            if hand["reason_part"] not in str(expected.get("reason")):
                problems.append("reason: hand expects %r in %r"
                                % (hand["reason_part"], expected.get("reason")))
    return problems


def require(condition: bool, message: str) -> None:
    """Raise SpecError with `message` unless `condition` holds."""
    if not condition:
        raise SpecError(message)
