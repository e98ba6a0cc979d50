"""Replay the official-server games in ../shared/traces through the public API (RULES.md 3-7).

Each trace records what the server decided at every move request: who was asked, the mover's
counts, the board after the move, the positions marked legal for the next player asked, and
the scores at the end of each phase (format: ../shared/traces/README.md).  A replay must agree
with all of it; the first disagreement is reported with its move index and a diff.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any, Dict, Iterable, List, Set, Tuple, Union

import pytest

from reversi_ref import IllegalMoveError, disqualify, legal_moves, parse_map, play, scores
from reversi_ref.state import GameState, Move

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
TRACES = sorted((SHARED / "traces").glob("*.json.gz")) if (SHARED / "traces").is_dir() else []

PHASES = {1: "build", 2: "bomb"}

# Comparing legal positions costs a full legal_moves() per move (about 20 ms on a 50x50 board
# with 8 players in CPython's readable rules); the default run spends at most about
# LEGAL_BUDGET phase-1 moves x cells on it per trace and checks the rest in the slow run.
LEGAL_BUDGET = 150000
EDGE_MOVES = 10
# Replaying a game costs about moves x cells (play() looks for the next player's moves), which
# grows with the trace file; the default run replays the files up to REPLAY_BUDGET bytes, the
# slow run the long games too.
REPLAY_BUDGET = 56000
# Disqualification reasons that are not a rule of the game (RULES.md 6: wrong message, closed
# connection, late answer): play cannot be expected to reject such a move.
NON_RULE_REASONS = ("time", "late", "protocol", "message", "length", "connection", "closed",
                    "type")


class Mismatch(AssertionError):
    """The replay disagrees with the server."""


def flat_rows(state: GameState) -> List[str]:
    """The board as the traces write it: one string per row, no spaces."""
    return [row.replace(" ", "") for row in state.rows()]


def board_diff(expected: List[str], actual: List[str]) -> str:
    """The rows that differ, with a caret under each differing cell."""
    if len(expected) != len(actual):
        return "board height: server %d rows, replay %d rows" % (len(expected), len(actual))
    lines = []
    for y, (want, got) in enumerate(zip(expected, actual)):
        if want != got:
            marks = "".join("^" if a != b else " " for a, b in zip(want.ljust(len(got)),
                                                                  got.ljust(len(want))))
            lines.append("row %2d server %s" % (y, want))
            lines.append("       replay %s" % got)
            lines.append("              %s" % marks.rstrip())
    return "\n".join(lines)


def positions_diff(expected: Iterable[Any], actual: Set[Tuple[int, int]]) -> str:
    """What the server marked legal that the replay does not, and the other way round."""
    want = {(int(x), int(y)) for x, y in expected}
    return "only server: %s; only replay: %s" % (sorted(want - actual), sorted(actual - want))


def legal_positions(state: GameState) -> Set[Tuple[int, int]]:
    """The (x, y) targets of the legal moves of the player to move."""
    return {(move.x, move.y) for move in legal_moves(state)}


def expected_scores(recorded: Dict[str, Union[int, str]]) -> Dict[int, Union[int, str]]:
    """A trace's scores keyed by player number."""
    return {int(player): value for player, value in recorded.items()}


def replay_scores(state: GameState) -> Dict[int, Union[int, str]]:
    """The replay's scores in the trace's form: "disqualified" for disqualified players."""
    counts = scores(state)
    return {p: ("disqualified" if p in state.disqualified else counts.get(p, 0))
            for p in range(1, state.players + 1)}


def is_rule_reason(reason: object) -> bool:
    """Whether a rejection reason names a rule of the game rather than a timeout or a protocol
    fault (those moves need not be illegal)."""
    text = str(reason or "").lower()
    return not any(word in text for word in NON_RULE_REASONS)


def load(path: Path) -> Dict[str, Any]:
    """One trace, decoded."""
    with gzip.open(str(path), "rt", encoding="utf-8") as handle:
        data: Dict[str, Any] = json.load(handle)
    return data


def apply_recorded_disqualifications(state: GameState, trace: Dict[str, Any],
                                     after_move: int) -> GameState:
    """Disqualifications the trace lists after `after_move` without a rejected move entry
    (e.g. a closed connection)."""
    for entry in trace.get("disqualifications") or []:
        if entry.get("after_move") == after_move:
            player = int(entry["player"])
            if player not in state.disqualified:
                state = disqualify(state, player)
    return state


def check_phase1_end(state: GameState, trace: Dict[str, Any], index: int) -> None:
    """At the end of phase 1 the replay has left phase 1 with the server's scores."""
    end = trace.get("phase1_end") or {}
    if "scores" not in end:
        return
    after = end.get("after_move")
    after = -1 if after is None else int(after)
    if after != index:
        return
    if state.phase == "build":
        raise Mismatch("after move %d: server ended phase 1, replay is still in it" % index)
    got = replay_scores(state)
    want = expected_scores(end["scores"])
    if got != want:
        raise Mismatch("after move %d: phase 1 scores: server %s, replay %s" % (index, want, got))


def phase1_moves(trace: Dict[str, Any]) -> int:
    """The number of phase-1 move requests in a trace."""
    return sum(1 for entry in trace["moves"] if int(entry["phase"]) == 1)


def default_stride(trace: Dict[str, Any]) -> int:
    """How often the default run compares legal positions: after every move for small games,
    after every k-th move (k as small as LEGAL_BUDGET allows) for long games on big maps."""
    board = trace["initial"]["board"]
    cost = phase1_moves(trace) * len(board) * (len(board[0]) if board else 0)
    return max(1, -(-cost // LEGAL_BUDGET))


def replay(trace: Dict[str, Any], legal_stride: int = 1) -> None:
    """Replay a whole trace, raising Mismatch at the first disagreement with the server.

    Boards, turn order, counts, phases and scores are compared after every move; the legal
    positions after every `legal_stride`-th move and always after the first and the last
    EDGE_MOVES moves of phase 1.
    """
    last_build = phase1_moves(trace) - 1
    state = parse_map(trace["map_text"])
    initial = trace["initial"]
    if flat_rows(state) != initial["board"]:
        raise Mismatch("initial board:\n" + board_diff(initial["board"], flat_rows(state)))
    state = apply_recorded_disqualifications(state, trace, -1)
    if state.phase == "build":
        got = legal_positions(state)
        if got != {tuple(p) for p in initial["valid"]}:
            raise Mismatch("initial legal positions of player %s: %s"
                           % (state.to_move, positions_diff(initial["valid"], got)))
    elif initial["valid"]:
        raise Mismatch("initial: server marks legal positions, replay is in phase %r"
                       % state.phase)
    check_phase1_end(state, trace, -1)

    for index, entry in enumerate(trace["moves"]):
        player = int(entry["player"])
        where = "move %d (player %d plays %d %d special %d)" % (
            index, player, entry["x"], entry["y"], entry["special"])
        if state.to_move != player:
            raise Mismatch("%s: server asks player %d, replay has %r to move (phase %r)"
                           % (where, player, state.to_move, state.phase))
        want_phase = PHASES.get(int(entry["phase"]))
        if state.phase != want_phase:
            raise Mismatch("%s: server is in phase %s, replay in %r"
                           % (where, entry["phase"], state.phase))
        status = entry["status"]
        got_counts = (state.overrides[player - 1], state.bombs[player - 1])
        if got_counts != (status["overrides"], status["bombs"]):
            raise Mismatch("%s: (overrides, bombs) server %s, replay %s"
                           % (where, (status["overrides"], status["bombs"]), got_counts))
        move = Move(int(entry["x"]), int(entry["y"]), int(entry["special"]))
        if entry.get("rejected"):
            if is_rule_reason(entry.get("reason")):
                try:
                    play(state, move)
                except IllegalMoveError:
                    pass
                else:
                    raise Mismatch("%s: server rejected it (%s), replay accepts it"
                                   % (where, entry.get("reason")))
            state = disqualify(state, player)
        else:
            try:
                state = play(state, move)
            except IllegalMoveError as error:
                raise Mismatch("%s: server accepted it, replay rejects it: %s"
                               % (where, error)) from error
        state = apply_recorded_disqualifications(state, trace, index)
        if flat_rows(state) != entry["board_after"]:
            raise Mismatch("%s: board after the move differs:\n%s"
                           % (where, board_diff(entry["board_after"], flat_rows(state))))
        if state.phase == "build":
            if (index % legal_stride == 0 or index < EDGE_MOVES
                    or index > last_build - EDGE_MOVES):
                got = legal_positions(state)
                if got != {tuple(p) for p in entry["valid_next"]}:
                    raise Mismatch("%s: legal positions of the next player (%s): %s"
                                   % (where, state.to_move,
                                      positions_diff(entry["valid_next"], got)))
        elif entry["valid_next"]:
            raise Mismatch("%s: server marks legal positions for a next phase-1 player, "
                           "replay is in phase %r" % (where, state.phase))
        check_phase1_end(state, trace, index)

    final = trace.get("final") or {}
    if state.phase != "over":
        raise Mismatch("after the last move: server ended the game, replay is in phase %r "
                       "with player %r to move" % (state.phase, state.to_move))
    if "scores" in final:
        got_final = replay_scores(state)
        want_final = expected_scores(final["scores"])
        if got_final != want_final:
            raise Mismatch("final scores: server %s, replay %s" % (want_final, got_final))


def trace_id(path: Path) -> str:
    """A short test id for a trace file."""
    return path.name[:-len(".json.gz")]


def check_replay(path: Path) -> None:
    """Replay one trace file, failing the test at the first disagreement."""
    trace = load(path)
    try:
        replay(trace, default_stride(trace))
    except Mismatch as mismatch:
        pytest.fail("%s: %s" % (path.name, mismatch), pytrace=False)


SHORT_GAMES = [p for p in TRACES if p.stat().st_size <= REPLAY_BUDGET]
LONG_GAMES = [p for p in TRACES if p not in SHORT_GAMES]


@pytest.mark.skipif(not TRACES, reason="../shared/traces is absent")
@pytest.mark.parametrize("path", SHORT_GAMES, ids=[trace_id(p) for p in SHORT_GAMES])
def test_replay_matches_official_server(path: Path) -> None:
    """RULES.md 3-7: boards, turn order, counts, phases and scores agree with the official
    server at every move of a recorded game, and so do the legal positions (after every move
    in small games, a sample of moves in long games on big maps)."""
    check_replay(path)


@pytest.mark.slow
@pytest.mark.skipif(not TRACES, reason="../shared/traces is absent")
@pytest.mark.parametrize("path", LONG_GAMES, ids=[trace_id(p) for p in LONG_GAMES])
def test_replay_long_game_matches_official_server(path: Path) -> None:
    """RULES.md 3-7: as above, for the long games on big maps that the default run leaves to
    the fast engine's replay (test_engine_traces)."""
    check_replay(path)


@pytest.mark.slow
@pytest.mark.skipif(not TRACES, reason="../shared/traces is absent")
@pytest.mark.parametrize("path", TRACES, ids=[trace_id(p) for p in TRACES])
def test_replay_legal_positions_after_every_move(path: Path) -> None:
    """RULES.md 3-4: the legal positions agree with the official server after every move, also
    in the long games the default run samples."""
    trace = load(path)
    if default_stride(trace) == 1:
        pytest.skip("the default run already checks every move of this trace")
    try:
        replay(trace, 1)
    except Mismatch as mismatch:
        pytest.fail("%s: %s" % (path.name, mismatch), pytrace=False)


def test_traces_present_or_skipped() -> None:
    """The replay above has traces to run when ../shared exists, and the default run keeps
    most of them."""
    if not SHARED.is_dir():
        pytest.skip("../shared is absent")
    assert TRACES, "../shared exists but ../shared/traces has no *.json.gz"
    assert len(SHORT_GAMES) * 3 >= len(TRACES) * 2, "the default run replays too few traces"
