"""Tests of the value a phase-1 search gives a line that ends phase 1 (`phase_end_value`).

During phase 1 the evaluation counts ELIMINATED_OPPONENT for each opponent without stones
(`Evaluator.evaluate`); the bombing phase's own value (`bombing_value`) does not, since inside
that phase an opponent's last stone is worth only the place it gains.  Before stop 71 a
phase-1 search valued a line that ended phase 1 (and whose bombing phase it could not solve)
by `bombing_value` alone, so with an empty opponent it preferred any line that kept phase 1
going, and a root without stones at the end of phase 1 did not count as lost.

The position (player 1 to move, three players, player 3 without a stone; `-` is a hole):

    y0:  -  1  -  -  2
    y1:  B  2  1  -  -
    y2:  -  A  2  1  -

worked by hand from RULES.md 3 (captures along the eight directions):
- A = (1, 2) captures (1, 1) northwards and (2, 2) eastwards: player 1 goes from 3 stones to 6,
  player 2 keeps only the lone (4, 0).  Nobody can move after it: B's only line ran over
  (1, 1), now player 1's, and player 2's last stone has no line.  Phase 1 ends.
- B = (0, 1) captures (1, 1) eastwards: 5 against 2, and A still captures (2, 2), so phase 1
  goes on.
So A is the better move by two stones, and it ends phase 1.
"""

from __future__ import annotations

from dataclasses import replace

from helpers import MATERIAL_ONLY, bombing, build, searcher_for, stone_counts
from reversi_ref import Move, legal_moves, play
from reversi_ref.engine import Engine
from reversi_ref.players.search import SearchPlayer
from reversi_ref.search.analysis import MapAnalysis
from reversi_ref.search.evaluate import ELIMINATED_OPPONENT, Evaluator, is_decisive

CELLS = """
    - 1 - - 2
    0 2 1 - -
    - 0 2 1 -
"""
ENDS_PHASE = Move(1, 2)
KEEPS_PHASE = Move(0, 1)

# The bombing phase is not solved at the leaves: switched off here ...
UNSOLVED = replace(MATERIAL_ONLY, exact_endgame=False)
# ... and out of the solver's reach there (`endgame.LEAF_BUDGET`): strength-1 bombs on
# 8 cells with 3 bombs in hand is 8**3 = 512 > 400 positions.
STATE = build(CELLS, players=3, bombs=1, strength=1)


def test_the_position_is_what_the_comment_says() -> None:
    """The readable rules agree with the hand-worked moves and counts above."""
    assert stone_counts(STATE, 3) == (3, 3, 0)
    assert sorted(legal_moves(STATE)) == sorted([ENDS_PHASE, KEEPS_PHASE])
    ended = play(STATE, ENDS_PHASE)
    assert stone_counts(ended, 3) == (6, 1, 0)
    assert ended.phase == "bomb"
    kept = play(STATE, KEEPS_PHASE)
    assert stone_counts(kept, 3) == (5, 2, 0)
    assert kept.phase == "build"
    assert legal_moves(kept) == [ENDS_PHASE]


def test_ending_phase_1_with_more_stones_is_chosen_unsolved() -> None:
    """With the bombing phase unsolved, depth 1 takes the two extra stones although the move
    ends phase 1 (before stop 71 it kept phase 1 going for the empty player's bonus)."""
    assert SearchPlayer(config=UNSOLVED).choose(STATE, 0, 1) == ENDS_PHASE


def test_ending_phase_1_with_more_stones_is_chosen_out_of_reach() -> None:
    """The same with the exact solve on, when the bombing phase is too large for it."""
    assert SearchPlayer(config=MATERIAL_ONLY).choose(STATE, 0, 1) == ENDS_PHASE


def test_the_leaf_values_differ_by_the_stones_only() -> None:
    """Both leaves count player 3 as wiped out; what is left between them is worth stones
    (100 each, MATERIAL_ONLY) and places, far below ELIMINATED_OPPONENT."""
    searcher = searcher_for(STATE, UNSOLVED)
    engine = searcher.engine
    values = {}
    for move in (ENDS_PHASE, KEEPS_PHASE):
        engine.make(engine.encode_move(move))
        values[move] = searcher.leaf(-ELIMINATED_OPPONENT * 8, ELIMINATED_OPPONENT * 8)
        engine.unmake()
    assert values[KEEPS_PHASE] > ELIMINATED_OPPONENT
    assert 0 < values[ENDS_PHASE] - values[KEEPS_PHASE] < ELIMINATED_OPPONENT // 2


def _evaluator(cells: str) -> Evaluator:
    state = bombing(cells, players=3, bombs=1, strength=1)
    engine = Engine(state)
    return Evaluator(engine, MapAnalysis(state.map), MATERIAL_ONLY)


def test_an_empty_opponent_is_counted_at_the_end_of_phase_1_only() -> None:
    """`phase_end_value` adds ELIMINATED_OPPONENT per empty opponent to `bombing_value`;
    with every opponent holding a stone they are the same."""
    empty = _evaluator("1 1 - 2 - 0")
    assert empty.phase_end_value(1) == empty.bombing_value(1) + ELIMINATED_OPPONENT
    assert empty.evaluate(1) == empty.bombing_value(1)
    full = _evaluator("1 1 - 2 - 3")
    assert full.phase_end_value(1) == full.bombing_value(1)


def test_a_root_without_stones_has_lost() -> None:
    """A root with no stone when phase 1 ends can only share last place: a decisive loss,
    as `evaluate` values it during phase 1."""
    evaluator = _evaluator("0 - 2 2 - 3")
    value = evaluator.phase_end_value(1)
    assert value < 0 and is_decisive(value)
    assert not is_decisive(evaluator.bombing_value(1))
