"""Playing one fuzzed game against an engine and comparing every answer with the rules.

A game is a `Script`: a map text and a list of steps (`{"move": [x, y, s]}` or
`{"disqualify": p}`).  The readable rules (`reversi_ref.rules`) decide every position, as a
referee would: a legal move is played, an illegal one is rejected and its mover disqualified,
and a disqualification is applied.  At each step the engine is asked, through the adapter
protocol of specs/README.md, for the legal moves and for the result of the step; at the start
for the map and the initial position, at the end for the ranking.  Each question is a golden
case (basis `fuzz`) judged by `specs.judge`, so a failure is a case ready to be written out.

A failure has a signature `(query kind, rule id, difference)`: the rule id says which rule of
RULES.md the failing step exercises (from the step and from what differs), the difference what
kind of answer was wrong (`legal moves: missing`, `state: to_move`, `illegal move accepted`...).
The shrinker keeps a failure only while its signature stays the same.
"""

from __future__ import annotations

import json
import random
from typing import (AbstractSet, Any, Callable, Dict, List, NamedTuple, Optional, Sequence,
                    Tuple)

from ..conform import EngineFailure, EngineProcess
from ..errors import IllegalMoveError
from ..geometry import BONUS, CHOICE, EXPANSION, HOLE, INVERSION, PLAYER_STONES
from ..mapfile import read_map
from ..perft import skipped_players
from ..rules import disqualify, initial_state, legal_moves, play
from ..specs.casebook import FUZZ
from ..specs.codec import JSONObject, dumps, move_to_json, state_to_json
from ..specs.generated import illegal_rule, move_uses_transition, without_transitions
from ..specs.judge import FAIL, UNSUPPORTED, Verdict, judge
from ..specs.oracle import map_answer, ranking_to_json, request_of_case
from ..state import BOMB, OVER, GameState, Move

Signature = Tuple[str, str, str]
Answerer = Callable[[JSONObject], Any]

# Verdict summaries that are not a wrong answer but no usable answer at all.
NO_ANSWER_KINDS = ("no answer", "malformed answer", "engine error", "answer for another case")


class AnswerFailure(Exception):
    """The engine gave no usable answer (`summary` as the judge names it, `detail` why)."""

    def __init__(self, summary: str, detail: str) -> None:
        super().__init__(detail)
        self.summary = summary
        self.detail = detail


class Script(NamedTuple):
    """A fuzzed game: the map text and the steps, as the referee would play them."""

    map_text: str
    steps: Tuple[JSONObject, ...]


class Failure(NamedTuple):
    """The first failing answer of a game: after `moves` steps from the map's start."""

    moves: int
    signature: Signature
    case: JSONObject
    verdict: Verdict


class GameRun(NamedTuple):
    """What playing a script gave: the steps played, the answers judged, the failure."""

    script: Script
    checks: int
    failure: Optional[Failure]
    unsupported: int = 0


# =========================================================================== engines


class ProcessAnswerer:
    """An engine process behind the adapter protocol (conform's EngineProcess)."""

    def __init__(self, command: str, timeout: float = 10.0) -> None:
        self.engine = EngineProcess(command)
        self.timeout = timeout

    def __call__(self, request: JSONObject) -> Any:
        try:
            line = self.engine.ask(dumps(request), self.timeout)
        except EngineFailure as error:
            raise AnswerFailure("no answer", str(error)) from None
        try:
            answer = json.loads(line)
        except ValueError:
            self.engine.kill()
            raise AnswerFailure("malformed answer", "the answer is not JSON: %r"
                                % line[:300]) from None
        if isinstance(answer, dict) and "id" in answer and answer["id"] != request.get("id"):
            self.engine.kill()
        return answer

    def close(self) -> None:
        """End the engine process."""
        self.engine.close()


# =========================================================================== rule ids


def _target(state: GameState, move: Sequence[int]) -> str:
    x, y = move[0], move[1]
    if state.map.is_on_board(x, y):
        return state.cell(x, y)
    return ""


def _legal_rule(state: GameState, moves: Sequence[Sequence[int]]) -> str:
    """The rule a legal-move list (or a rejected legal move) differing in `moves` shows."""
    if state.phase == BOMB:
        return "5.bomb-targets"
    if state.map.transitions and state.to_move is not None:
        plain = {tuple(move_to_json(m)) for m in legal_moves(without_transitions(state))}
        real = {tuple(move_to_json(m)) for m in legal_moves(state)}
        if any((tuple(m) in plain) != (tuple(m) in real) for m in moves):
            return "2.transition-step"
    targets = {_target(state, m) for m in moves}
    if EXPANSION in targets:
        return "3.expansion-always-legal"
    if targets & set(PLAYER_STONES):
        return "3.override-targets"
    # A special byte wrong on a target that is legal with another one.
    legal_cells = {(m[0], m[1]) for m in legal_moves_json(state)}
    if targets and targets <= {CHOICE, BONUS, INVERSION} and all(
            (m[0], m[1]) in legal_cells for m in moves):
        return "3.special-variants"
    return "3.legal-targets"


def legal_moves_json(state: GameState) -> List[List[int]]:
    """The rules' legal moves as JSON triples."""
    return [move_to_json(m) for m in legal_moves(state)]


def _state_fields(expected: JSONObject, actual: Any) -> List[str]:
    """The fields of a JSON state that differ (`board` covers a size difference too)."""
    if not isinstance(actual, dict):
        return ["state"]
    fields = []
    for key in ("board", "to_move", "phase", "overrides", "bombs", "disqualified"):
        got = actual.get(key)
        if key == "disqualified" and isinstance(got, list):
            got = sorted(got)
        if expected.get(key) != got:
            fields.append(key)
    return fields


def _board_without_transitions(before: GameState, move: Move) -> Optional[List[str]]:
    """The board the move leaves when the map's transitions are ignored (None if the move is
    not legal then)."""
    try:
        return list(state_to_json(play(without_transitions(before), move))["board"])
    except IllegalMoveError:
        return None


def _apply_rule(before: GameState, step: JSONObject, after: GameState,
                fields: Sequence[str], answer: Any = None) -> str:
    """The rule an `apply` step shows, judged by which fields the engine got wrong (and, for a
    wrong board after a move through a transition, whether the engine ignored it)."""
    if "disqualify" in step:
        if "board" in fields:
            return "6.stones-stay"
        return "6.sole-survivor" if len(after.active_players()) <= 1 else "6.never-asked"
    move = step["move"]
    target = _target(before, move)
    if before.phase == BOMB:
        if "board" in fields or "bombs" in fields:
            return "5.blast"
        if "phase" in fields:
            return "5.end-of-game"
        return "5.bomb-turn-order"
    if "board" in fields:
        through = move_uses_transition(before, Move(*move))
        engine_board = answer.get("state", {}).get("board") if isinstance(answer, dict) \
            and isinstance(answer.get("state"), dict) else None
        if through and engine_board is not None and \
                engine_board == _board_without_transitions(before, Move(*move)):
            return "2.transition-step"
        if target == CHOICE:
            return "3.choice-swap"
        if target == INVERSION:
            return "3.inversion-rotate"
        return "2.transition-step" if through else "3.move-effect"
    if "overrides" in fields or "bombs" in fields:
        if target == BONUS:
            player = (before.to_move or 1) - 1
            count = before.bombs if move[2] == 20 else before.overrides
            return "3.count-wraps" if count[player] == 255 else "3.bonus-gain"
        return "3.override-cost"
    if "phase" in fields:
        return "4.end-of-phase-1"
    if "to_move" in fields:
        return "4.skip" if skipped_players(before, after) else "4.next-player"
    return "6.never-asked"


def _difference(case: JSONObject, answer: Any, verdict: Verdict) -> str:
    """What kind of answer was wrong, in words without numbers (for the signature)."""
    if verdict.summary in NO_ANSWER_KINDS:
        return verdict.summary
    kind = case["query"]["kind"]
    expected = case["expected"]
    if kind == "legal_moves":
        got = [tuple(m) for m in answer["moves"]]
        want = {tuple(m) for m in expected["moves"]}
        parts = []
        if want - set(got):
            parts.append("missing")
        if set(got) - want:
            parts.append("extra")
        if len(set(got)) != len(got):
            parts.append("duplicates")
        return "legal moves: " + "+".join(parts)
    if kind in ("apply", "illegal"):
        if expected.get("illegal"):
            return "illegal move accepted"
        if answer.get("illegal") is True:
            return "legal step rejected"
        return "state: " + ",".join(_state_fields(expected["state"], answer.get("state")))
    if kind == "game":
        return "ranking"
    if kind in ("map_load", "map_reject"):
        if answer.get("rejected") is True:
            return "valid map rejected"
        return "map: " + verdict.summary.split(":")[0]
    return verdict.summary


# =========================================================================== choosing steps


class StepChooser:
    """Picks the next step of a fuzzed game: mostly legal moves (rare kinds of target as often
    as common ones), some illegal moves of every kind, some disqualifications."""

    def __init__(self, rng: random.Random, features: AbstractSet[str] = frozenset(),
                 max_steps: int = 80) -> None:
        self.rng = rng
        self.features = features
        self.max_steps = max_steps
        self.disqualify_rate = 0.06 if "disqualify" in features else 0.02
        self.illegal_rate = 0.2 if "illegal" in features else 0.06

    def __call__(self, state: GameState, legal: List[Move], number: int) -> Optional[JSONObject]:
        rng = self.rng
        if number >= self.max_steps:
            return None
        if state.phase == OVER:
            # Sometimes one move after the end (RULES.md 4-5: no move is legal then).
            if number > 0 and rng.random() < 0.2:
                return {"move": [rng.randrange(max(1, state.width)),
                                 rng.randrange(max(1, state.height)), 0]}
            return None
        roll = rng.random()
        active = state.active_players()
        if roll < self.disqualify_rate and len(active) >= 2:
            player = state.to_move if state.to_move is not None and rng.random() < 0.6 \
                else rng.choice(active)
            return {"disqualify": player}
        if roll < self.disqualify_rate + self.illegal_rate or not legal:
            move = self._illegal(state, legal)
            if move is not None:
                return {"move": move}
        if not legal:
            return None
        return {"move": move_to_json(self._legal(state, legal))}

    def _legal(self, state: GameState, legal: List[Move]) -> Move:
        """A legal move: first a kind of target at random, then a move onto one of that kind."""
        rng = self.rng
        if state.phase == BOMB:
            return legal[rng.randrange(len(legal))]
        if "transitions" in self.features and state.map.transitions and rng.random() < 0.5:
            sample = [legal[rng.randrange(len(legal))] for _ in range(6)]
            through = [m for m in sample if move_uses_transition(state, m)]
            if through:
                return through[0]
        groups: Dict[str, List[Move]] = {}
        for move in legal:
            cell = state.cell(move.x, move.y)
            groups.setdefault("stone" if cell in PLAYER_STONES else cell, []).append(move)
        kinds = sorted(groups)
        chosen = groups[kinds[rng.randrange(len(kinds))]]
        return chosen[rng.randrange(len(chosen))]

    def _illegal(self, state: GameState, legal: List[Move]) -> Optional[List[int]]:
        """A move the rules reject, of a randomly chosen kind (None if none was found)."""
        rng = self.rng
        w, h = state.width, state.height
        targets = {(m.x, m.y) for m in legal}
        for _ in range(6):
            kind = rng.randrange(6)
            if kind == 0 or w == 0 or h == 0:
                move = rng.choice([[w, rng.randrange(max(1, h)), 0],
                                   [rng.randrange(max(1, w)), h, 0], [65535, 0, 0]])
            else:
                x, y = rng.randrange(w), rng.randrange(h)
                cell = state.cell(x, y)
                if kind == 1 and (x, y) in targets:
                    # A legal target with a wrong special byte.
                    wrong = {CHOICE: [0, state.players + 1], BONUS: [0, 22, 1]}.get(
                        cell, [1, 20])
                    move = [x, y, rng.choice(wrong)]
                elif kind == 2:
                    holes = [i for i, c in enumerate(state.board) if c == HOLE]
                    if not holes:
                        continue
                    index = holes[rng.randrange(len(holes))]
                    move = [index % w, index // w, 0]
                else:
                    special = 0
                    if cell == CHOICE:
                        special = rng.randint(1, state.players)
                    elif cell == BONUS:
                        special = rng.choice([20, 21])
                    move = [x, y, special]
            try:
                play(state, Move(*move))
            except IllegalMoveError:
                return move
        return None


# =========================================================================== playing


class _Game:
    """The state of one run: the engine, the checks done, the first failure."""

    def __init__(self, script_map: str, ask: Answerer, target: Optional[Signature],
                 name: str) -> None:
        self.map_text = script_map
        self.ask = ask
        self.target = target
        self.name = name
        self.checks = 0
        self.unsupported = 0
        self.failure: Optional[Failure] = None

    def check(self, moves: int, state: Optional[GameState], query: JSONObject,
              expected: JSONObject, rule: Callable[[Any], str]) -> bool:
        """Ask the engine one question and judge it; True when the run should stop."""
        self.checks += 1
        case: JSONObject = {
            "id": "%s/%d-%s" % (self.name, self.checks, query["kind"].replace("_", "-")),
            "area": "", "rule": "", "basis": FUZZ, "description": "", "map": self.map_text,
            "state": state_to_json(state) if state is not None else None,
            "query": query, "expected": expected}
        try:
            answer = self.ask(request_of_case(case))
        except AnswerFailure as error:
            answer = None
            verdict = Verdict(FAIL, error.summary, "%s  [%s]: %s\n  %s" % (
                case["id"], query["kind"], error.summary, error.detail))
        else:
            verdict = judge(case, answer)
        if verdict.status == UNSUPPORTED:
            self.unsupported += 1
        if verdict.status != FAIL:
            return False
        difference = _difference(case, answer, verdict)
        signature = (query["kind"], rule(answer if difference not in NO_ANSWER_KINDS else None),
                     difference)
        case["rule"] = signature[1]
        failure = Failure(moves, signature, case, verdict)
        if self.target is None or signature == self.target:
            self.failure = failure
            return True
        return False


def game_name(seed: int, game: int) -> str:
    """The name of game `game` of a run with `seed`, used in case ids."""
    return "fuzz-s%d-g%d" % (seed, game)


def play_game(script: Script, ask: Answerer, chooser: Optional[StepChooser] = None,
              target: Optional[Signature] = None, name: str = "fuzz") -> GameRun:
    """Play `script` (then steps from `chooser`, if given) against the engine `ask`, judging
    every answer; stop at the first failure (with `target`: the first with that signature)."""
    game = _Game(script.map_text, ask, target, name)
    played: List[JSONObject] = []

    def done() -> GameRun:
        return GameRun(Script(script.map_text, tuple(played)), game.checks, game.failure,
                       game.unsupported)

    game_map = read_map(script.map_text)
    state = initial_state(game_map)
    if game.check(0, None, {"kind": "map_load"}, map_answer(script.map_text),
                  lambda answer: "1.layout" if answer is None or "map" not in answer
                  or _state_fields(state_to_json(state), answer.get("state")) in (
                      [], ["board"]) else "4.first-mover"):
        return done()
    number = 0
    while True:
        legal = legal_moves(state)
        if number < len(script.steps):
            step: Optional[JSONObject] = script.steps[number]
        elif chooser is not None:
            step = chooser(state, legal, number)
        else:
            step = None
        if step is None:
            break
        before = state
        if state.phase != OVER and game.check(
                number, state, {"kind": "legal_moves"},
                {"moves": [move_to_json(m) for m in legal]},
                lambda answer: _legal_rule(before, _moves_differing(before, answer))):
            return done()
        state = _play_step(game, number, state, step)
        played.append(step)
        number += 1
        if game.failure is not None:
            return done()
    final = state
    # The legal moves of the last position too (a shrunk game may end right before them).
    if final.phase != OVER and game.check(
            number, final, {"kind": "legal_moves"},
            {"moves": [move_to_json(m) for m in legal_moves(final)]},
            lambda answer: _legal_rule(final, _moves_differing(final, answer))):
        return done()
    game.check(number, final, {"kind": "game", "steps": []},
               {"states": [], "ranking": ranking_to_json(final)}, lambda answer: "7.ranking")
    return done()


def _moves_differing(state: GameState, answer: Any) -> List[List[int]]:
    want = legal_moves_json(state)
    if not isinstance(answer, dict) or not isinstance(answer.get("moves"), list):
        return want
    got = [m for m in answer["moves"] if isinstance(m, list) and len(m) == 3]
    return [m for m in want if m not in got] + [m for m in got if m not in want]


def _play_step(game: _Game, number: int, state: GameState, step: JSONObject) -> GameState:
    """Check one step with the engine and return the rules' position after it."""
    if "disqualify" in step:
        player = step["disqualify"]
        if state.phase == OVER or not isinstance(player, int) or not (
                1 <= player <= state.players) or player in state.disqualified:
            return state
        after = disqualify(state, player)
        game.check(number + 1, state, {"kind": "apply", "disqualify": player},
                   {"state": state_to_json(after)},
                   lambda answer: _apply_rule(state, step, after, _answer_fields(after, answer)))
        return after
    move = Move(*step["move"])
    try:
        after = play(state, move)
    except IllegalMoveError as error:
        reason = error.rule
        if game.check(number + 1, state, {"kind": "illegal", "move": list(move)},
                      {"illegal": True, "reason": reason},
                      lambda answer: illegal_rule(state, move, reason)):
            return state
        mover = state.to_move
        if mover is None:
            return state
        # The referee disqualifies the mover of an illegal move (RULES.md 6).
        after = disqualify(state, mover)
        game.check(number + 1, state, {"kind": "apply", "disqualify": mover},
                   {"state": state_to_json(after)},
                   lambda answer: _apply_rule(state, {"disqualify": mover}, after,
                                              _answer_fields(after, answer)))
        return after
    game.check(number + 1, state, {"kind": "apply", "move": list(move)},
               {"state": state_to_json(after)},
               lambda answer: _legal_rule(state, [list(move)])
               if isinstance(answer, dict) and answer.get("illegal") is True
               else _apply_rule(state, step, after, _answer_fields(after, answer), answer))
    return after


def referee_step(state: GameState, step: JSONObject) -> GameState:
    """The rules' position after one step, as `play_game` plays it: an illegal move
    disqualifies its mover; a disqualification after the end or of a player already out is
    left out."""
    if "disqualify" in step:
        player = step["disqualify"]
        if state.phase == OVER or not isinstance(player, int) or not (
                1 <= player <= state.players) or player in state.disqualified:
            return state
        return disqualify(state, player)
    try:
        return play(state, Move(*step["move"]))
    except IllegalMoveError:
        if state.to_move is None:
            return state
        return disqualify(state, state.to_move)


def _answer_fields(after: GameState, answer: Any) -> List[str]:
    if not isinstance(answer, dict):
        return ["board"]
    return _state_fields(state_to_json(after), answer.get("state"))


# =========================================================================== generation


def game_seed(seed: int, game: int) -> int:
    """The seed of game `game` of a run with `seed` (plain integer arithmetic, the same on
    every interpreter; no hash())."""
    return (seed % 2 ** 32) * 1000003 + game


def max_steps_for(cells: int) -> int:
    """How many steps a game on a board of `cells` cells may have (big boards cost more)."""
    if cells <= 100:
        return 80
    if cells <= 400:
        return 40
    return 15


def generated_game(seed: int, game: int, features: AbstractSet[str] = frozenset()
                   ) -> Tuple[Script, StepChooser]:
    """The map of game `game` of a run with `seed`, and the chooser of its steps."""
    from ..mapfile import format_map
    from .maps import generate_map

    rng = random.Random(game_seed(seed, game))
    game_map = generate_map(rng, features)
    chooser = StepChooser(rng, features, max_steps_for(game_map.height * game_map.width))
    return Script(format_map(game_map), ()), chooser


def run_generated(seed: int, game: int, ask: Answerer,
                  features: AbstractSet[str] = frozenset()) -> GameRun:
    """Generate and play game `game` of a run with `seed` against `ask`."""
    script, chooser = generated_game(seed, game, features)
    return play_game(script, ask, chooser, name=game_name(seed, game))


__all__ = ["AnswerFailure", "Answerer", "Failure", "GameRun", "ProcessAnswerer", "Script",
           "Signature", "StepChooser", "game_name", "game_seed", "generated_game", "play_game",
           "run_generated"]
