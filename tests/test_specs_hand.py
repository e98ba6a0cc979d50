"""The hand-made cases of the golden suite: each hand-worked answer agrees with the readable
rules (RULES.md 1-7), and the JSON forms of the suite read back what they wrote."""

from __future__ import annotations

from typing import Dict, List

import pytest

from reversi_ref import parse_map
from reversi_ref.specs.casebook import (Case, check_hand, compact_rows, hand_after,
                                        hand_illegal, hand_moves, hand_rejects, map_text,
                                        parse_moves, parse_steps)
from reversi_ref.specs.codec import (SpecError, move_from_json, normalized_transitions,
                                     state_from_json, state_to_json)
from reversi_ref.specs.handmade import handmade_cases
from reversi_ref.specs.oracle import answer, request_of_case
from reversi_ref.specs.suite import expected_answer

HAND_CASES: List[Case] = handmade_cases()


@pytest.mark.parametrize("case", HAND_CASES, ids=[c.id for c in HAND_CASES])
def test_hand_worked_answer_agrees_with_rules(case: Case) -> None:
    """The answer worked out by hand equals the rules' answer (the section in the case)."""
    assert case.hand is not None
    assert check_hand(expected_answer(case), case.hand) == []


def test_every_area_has_hand_cases() -> None:
    """Every rule area has at least three named hand-made cases."""
    areas: Dict[str, int] = {}
    for case in HAND_CASES:
        areas[case.area] = areas.get(case.area, 0) + 1
    assert len(areas) == 15 and min(areas.values()) >= 3, areas


def test_rejects_wrong_hand_board() -> None:
    """RULES.md 3: a hand answer with a wrong board is reported, cell by cell."""
    case = next(c for c in HAND_CASES if c.id == "captures/line-flipped")
    expected = expected_answer(case)
    assert check_hand(expected, hand_after("1 1 2 1")) != []
    assert check_hand(expected, hand_after("1 1 1 1")) == []


def test_rejects_wrong_hand_moves_and_rejections() -> None:
    """RULES.md 3: wrong legal moves, a rejection of a legal move and a wrong error place are
    reported."""
    legal = next(c for c in HAND_CASES if c.id == "captures/line-closed-by-own-stone")
    assert check_hand(expected_answer(legal), hand_moves("0,0 1,0")) != []
    applied = next(c for c in HAND_CASES if c.id == "captures/line-flipped")
    assert check_hand(expected_answer(applied), hand_illegal("RULES.md 3")) != []
    rejected = next(c for c in HAND_CASES if c.id == "map-loading/reject-bad-cell-character")
    answer = expected_answer(rejected)
    assert check_hand(answer, hand_rejects(5, 4, "invalid square", "invalid-square")) != []
    assert check_hand(answer, hand_rejects(5, 3, "invalid square", "invalid-token")) != []
    assert check_hand(answer, hand_rejects(5, 3, "invalid square", "invalid-square")) == []


def test_expected_answer_refuses_an_answer_of_the_wrong_kind() -> None:
    """A case whose query kind does not match the rules' answer cannot enter the suite."""
    case = next(c for c in HAND_CASES if c.id == "captures/line-flipped")
    wrong = case._replace(query={"kind": "illegal", "move": [0, 0, 0]})
    with pytest.raises(SpecError):
        expected_answer(wrong)


def test_state_round_trip() -> None:
    """A state written as JSON reads back as the same GameState."""
    state = parse_map(map_text("0 2 1 x\nc i b -", players=3, overrides=2, bombs=1,
                               strength=2, transitions=["3 0 0 <-> 3 0 2"]))
    value = state_to_json(state)
    assert value["board"] == ["021x", "cib-"]
    assert state_from_json(state.map, value) == state


@pytest.mark.parametrize("change", [
    {"board": ["021"]}, {"board": ["021x", "cib"]}, {"board": ["021x", "cibZ"]},
    {"phase": "play"}, {"to_move": 4}, {"overrides": [1, 2]}, {"bombs": [1, 2, "3"]},
    {"disqualified": [0]}, {"overrides": [True, 1, 1]},
])
def test_rejects_malformed_state(change: dict) -> None:  # type: ignore[type-arg]
    """A malformed JSON state is a SpecError naming the field, never a crash."""
    state = parse_map(map_text("0 2 1 x\nc i b -", players=3))
    value = dict(state_to_json(state), **change)
    with pytest.raises(SpecError):
        state_from_json(state.map, value)


def test_rejects_malformed_move() -> None:
    """A move must be three integers."""
    assert tuple(move_from_json([1, 2, 3])) == (1, 2, 3)
    for bad in ([1, 2], [1, 2, "3"], "1,2,3", [1, 2, 3, 4], [1, 2, None]):
        with pytest.raises(SpecError):
            move_from_json(bad)


def test_transitions_compare_in_any_order() -> None:
    """RULES.md 1: a transition written the other way round or listed in another order is
    the same transition."""
    a = normalized_transitions([[3, 0, 2, 0, 0, 6], [1, 1, 0, 2, 2, 4]])
    b = normalized_transitions([[2, 2, 4, 1, 1, 0], [0, 0, 6, 3, 0, 2]])
    assert a == b
    assert a == [[0, 0, 6, 3, 0, 2], [1, 1, 0, 2, 2, 4]]


def test_transitions_compare_by_what_is_in_force() -> None:
    """RULES.md 1-2: a self-joined side may be listed or not (a U-turn walks like the edge),
    and a later transition on a side replaces the earlier one."""
    self_join = [0, 0, 6, 0, 0, 6]
    joined = [0, 0, 6, 1, 0, 2]
    assert normalized_transitions([self_join]) == normalized_transitions([]) == []
    assert normalized_transitions([self_join, self_join, joined]) == [joined]
    assert normalized_transitions([joined]) != normalized_transitions([self_join])


def test_step_and_move_notation() -> None:
    """The hand-case notation: `x,y[,special]` moves and `dq:p` steps."""
    assert parse_moves("2,0,21 0,1 1,0") == [[1, 0, 0], [2, 0, 21], [0, 1, 0]]
    assert parse_steps("0,0 dq:2 1,1,3") == [{"move": [0, 0, 0]}, {"disqualify": 2},
                                            {"move": [1, 1, 3]}]
    assert compact_rows(" 0 1 \n\n 2 - ") == ["01", "2-"]


def test_oracle_reports_bad_requests() -> None:
    """The reference oracle answers a malformed request with an error, not an exception."""
    case = next(c for c in HAND_CASES if c.id == "captures/line-flipped")
    request = request_of_case(case.to_json())
    assert "error" in answer(dict(request, kind="dance"))
    assert "error" in answer(dict(request, map="1\n"))
    assert "error" in answer({"kind": "apply", "map": case.map, "state": case.state})
    assert "error" in answer(dict(request, state={"board": []}))
    assert "error" in answer({"kind": "perft", "map": case.map, "state": case.state,
                              "depth": -1})
    assert "error" in answer({"kind": "game", "map": case.map, "state": case.state,
                              "steps": [{"move": [9, 9, 0]}]})
