"""What situation a golden case shows, so that the suite holds each one once.

Two cases show the same situation when an engine takes the same path through the rule they
name: the same query kind and phase, the same kind of target (empty, own or other stone, tile,
hole, off the board), the same special-byte class, the same number of capturing directions and
captured cells (bucketed), the same use of transitions, the same turn outcome (next player,
skip, move again, phase change).  Positions and maps are left out on purpose: the off-board
check on one more map is the same situation.  Perft counts and whole games are the exception:
every position and depth is a situation of its own.

`situation_of(case)` reads only the case's JSON (map, state, query, expected) and the readable
rules, so it can be run on any copy of the suite.
"""

from __future__ import annotations

import hashlib
from typing import Optional, Sequence, Tuple

from ..errors import IllegalMoveError, MapError
from ..geometry import BONUS, CHOICE, EXPANSION, HOLE, INVERSION, PLAYER_STONES, Map
from ..mapfile import read_map
from ..perft import skipped_players
from ..rules import captures_in_direction, legal_moves
from ..rules.bombing import blast_cells
from ..rules.building import captured_cells
from ..state import BOMB, BUILD, OVER, GameState, Move
from .codec import JSONObject, state_from_json
from .generated import move_uses_transition, without_transitions


def _bucket(value: int, bounds: Sequence[int]) -> str:
    """`value` as the first bound it does not exceed ("8+" past the last)."""
    for bound in bounds:
        if value <= bound:
            return str(bound)
    return "%d+" % (bounds[-1] + 1)


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()[:12]


def target_class(state: GameState, x: int, y: int, player: Optional[int]) -> str:
    """The kind of cell (x, y) is for `player`: off, hole, empty, own, other, dq (a
    disqualified player's stone) or the tile letter."""
    if not state.map.is_on_board(x, y):
        return "off-x" if not 0 <= y < state.height else ("off-y" if 0 <= x < state.width
                                                          else "off-xy")
    cell = state.cell(x, y)
    if cell == HOLE:
        return "hole"
    if cell == "0":
        return "empty"
    if cell in PLAYER_STONES:
        if player is not None and cell == str(player):
            return "own"
        return "dq" if int(cell) in state.disqualified else "other"
    return cell


def special_class(state: GameState, x: int, y: int, special: int) -> str:
    """The special byte relative to the target: 0, self, player, dq, 20, 21, or the out-of-range
    kind."""
    if special == 0:
        return "0"
    if special in (20, 21):
        return str(special)
    if 1 <= special <= state.players:
        if special == state.to_move:
            return "self"
        return "dq" if special in state.disqualified else "player"
    if special > 255 or special < 0:
        return "wide"
    return "bad"


def _line_shape(state: GameState, player: int, move: Move) -> Tuple[int, int, bool]:
    """(capturing directions, captured cells, a cell collected twice) for the move of
    `player`."""
    lines = [captures_in_direction(state, player, move.x, move.y, d) for d in range(8)]
    lines = [line for line in lines if line]
    twice = any(len(set(line)) < len(line) for line in lines)
    return len(lines), len(captured_cells(state, player, move.x, move.y)), twice


def _turn_outcome(before: GameState, after: JSONObject, mover: Optional[int]) -> str:
    """How the turn passed: same (moves again), next, skip, or the new phase."""
    if after.get("phase") != before.phase:
        return "to-%s" % after.get("phase")
    following = after.get("to_move")
    if mover is None or not isinstance(following, int):
        return "none"
    if following == mover:
        return "same"
    skipped = skipped_players(before, state_from_json(before.map, after))
    return "next" if skipped == 0 else "skip"


def _position(case: JSONObject) -> GameState:
    game_map = read_map(str(case["map"]))
    return state_from_json(game_map, case["state"])


def _apply_situation(case: JSONObject) -> str:
    state = _position(case)
    query = case["query"]
    expected = case["expected"]
    after = expected.get("state") if isinstance(expected, dict) else None
    after = after if isinstance(after, dict) else {}
    mover = state.to_move
    if "disqualify" in query:
        player = int(query["disqualify"])
        left = len([p for p in state.active_players() if p != player])
        return "disqualify|%s|%s|left-%s|%s" % (
            state.phase, "mover" if player == mover else "other", _bucket(left, (0, 1, 2)),
            _turn_outcome(state, after, mover))
    move = Move(*query["move"])
    if state.phase == BOMB:
        blast = blast_cells(state, move.x, move.y)
        open_square = (2 * state.map.strength + 1) ** 2
        shape = ("full" if len(blast) == open_square else
                 "more" if len(blast) > open_square else "less")
        through = any((x, y, d) in state.map.exits for x, y in blast for d in range(8))
        return "bomb|strength-%s|%s|%s|%s|transitions-%d|%s" % (
            _bucket(state.map.strength, (0, 1, 2)), target_class(state, move.x, move.y, mover),
            special_class(state, move.x, move.y, move.special) != "0", shape, through,
            _turn_outcome(state, after, mover))
    player = mover or 1
    directions, captured, twice = _line_shape(state, player, move)
    through = move_uses_transition(state, move)
    involved_dq = any(
        state.cell(x, y) in PLAYER_STONES and int(state.cell(x, y)) in state.disqualified
        for x, y in captured_cells(state, player, move.x, move.y))
    return "move|n-%s|%s|%s|dirs-%s|cells-%s|through-%d|twice-%d|dq-%d|%s" % (
        _bucket(state.players, (2, 3, 4)), target_class(state, move.x, move.y, player),
        special_class(state, move.x, move.y, move.special), _bucket(directions, (1, 2, 3)),
        _bucket(captured, (0, 1, 3, 7)), through, twice, involved_dq,
        _turn_outcome(state, after, mover))


def _illegal_situation(case: JSONObject) -> str:
    state = _position(case)
    move = Move(*case["query"]["move"])
    player = state.to_move
    target = target_class(state, move.x, move.y, player)
    if state.phase == OVER:
        return "illegal|over"
    if state.phase != BUILD or target.startswith("off") or target == "hole":
        return "illegal|%s|%s|special-%s" % (state.phase, target, move.special != 0)
    overrides = state.overrides[(player or 1) - 1] > 0
    try:
        capture = any(captures_in_direction(state, player or 1, move.x, move.y, d)
                      for d in range(8))
    except IllegalMoveError:
        capture = False
    return "illegal|build|%s|%s|overrides-%d|capture-%d" % (
        target, special_class(state, move.x, move.y, move.special), overrides, capture)


def _legal_situation(case: JSONObject) -> str:
    state = _position(case)
    moves = case["expected"].get("moves", [])
    if state.phase != BUILD:
        holes = HOLE in state.board
        return "legal|%s|holes-%d|count-%s" % (state.phase, holes, _bucket(len(moves), (0, 1)))
    player = state.to_move or 1
    kinds = sorted({target_class(state, m[0], m[1], player) for m in moves})
    plain = [m for m in legal_moves(without_transitions(state))]
    through = len(plain) != len(moves)
    return "legal|build|n-%s|targets-%s|overrides-%d|through-%d|dq-%d|count-%s" % (
        _bucket(state.players, (2, 3, 4)), ",".join(kinds),
        state.overrides[player - 1] > 0, through,
        any(c in PLAYER_STONES and int(c) in state.disqualified for c in state.board),
        _bucket(len(moves), (0, 1, 4, 16)))


def _game_situation(case: JSONObject) -> str:
    steps = case["query"].get("steps", [])
    if case["area"] == "games":
        return "game|%s" % _digest(str(case["map"]), repr(case["state"]), repr(steps))
    state = _position(case)
    ranking = case["expected"].get("ranking", [])
    ranks = [entry[0] for entry in ranking]
    scores = [entry[2] for entry in ranking]
    dq_steps = sum(1 for s in steps if "disqualify" in s)
    return "ranking|n-%s|ranked-%s|ties-%d|zero-%d|dq-%d|steps-%s|from-%s" % (
        _bucket(state.players, (2, 3, 4)), _bucket(len(ranking), (1, 2, 3)),
        len(set(ranks)) < len(ranks), 0 in scores,
        bool(state.disqualified) or dq_steps > 0, _bucket(len(steps), (0, 1, 3)), state.phase)


def _header_form(text: str) -> str:
    """Whether the first six tokens are canonical decimal numbers."""
    tokens = text.split()[:6]
    canonical = all(t == str(int(t)) if t.lstrip("-").isdigit() else False for t in tokens)
    return "canonical" if canonical else "atoi"


def _separators(text: str) -> str:
    found = [name for name, char in (("tab", "\t"), ("cr", "\r"), ("ff", "\f"), ("vt", "\v"))
             if char in text]
    if "\n\n" in text:
        found.append("blank")
    return ",".join(found) or "plain"


def _map_situation(case: JSONObject) -> str:
    text = str(case["map"])
    expected = case["expected"]
    if expected.get("rejected"):
        problem = expected.get("problem", "")
        line = int(expected.get("line", 0))
        column = int(expected.get("column", 0))
        token = _token_at(text, line, column)
        return "reject|%s|token-%s|%s" % (problem, _token_form(token), _separators(text))
    try:
        game_map: Optional[Map] = read_map(text)
    except MapError:
        game_map = None
    transitions = len(game_map.transitions) if game_map else 0
    tiles = sorted({c for c in game_map.cells if c in (CHOICE, INVERSION, BONUS, EXPANSION,
                                                       HOLE)}) if game_map else []
    size = game_map.height * game_map.width if game_map else 0
    return "load|%s|%s|transitions-%s|tiles-%s|cells-%s|start-%s" % (
        _header_form(text), _separators(text), _bucket(transitions, (0, 1, 4)),
        "".join(tiles), _bucket(size, (0, 1, 100, 10000)),
        expected.get("state", {}).get("phase"))


def _token_at(text: str, line: int, column: int) -> str:
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return ""
    rest = lines[line - 1][column - 1:] if column >= 1 else ""
    return rest.split()[0] if rest.split() else ""


def _token_form(token: str) -> str:
    if not token:
        return "end"
    if token == "<->":
        return "arrow"
    if token.lstrip("+-").isdigit():
        return "number"
    if len(token) == 1:
        return "char"
    return "word"


def situation_of(case: JSONObject) -> str:
    """The situation a case shows (see the module docstring); equal strings are padding."""
    kind = case["query"]["kind"]
    if kind == "apply":
        return _apply_situation(case)
    if kind == "illegal":
        return _illegal_situation(case)
    if kind == "legal_moves":
        return _legal_situation(case)
    if kind == "perft":
        return "perft|%s|depth-%s" % (_digest(str(case["map"]), repr(case["state"])),
                                      case["query"]["depth"])
    if kind == "game":
        return _game_situation(case)
    return _map_situation(case)


def situation_key(case: JSONObject) -> Tuple[str, str]:
    """(rule id, situation): the suite holds one generated case per key."""
    return str(case["rule"]), situation_of(case)


__all__ = ["situation_key", "situation_of", "special_class", "target_class"]
