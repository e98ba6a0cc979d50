"""`reversi-ref analyse`: one position of a recorded game searched depth by depth, and the
move the game played there valued at the same depth.

The independent check is an Othello ending small enough for an exhaustive minimax with the
readable rules: the search must prove the same result, choose a move that wins, and value a
losing played move as a proven miss."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from reversi_ref import parse_map
from reversi_ref.analyse import analyse_state, describe_value, played_verdict
from reversi_ref.arenatrace import replay_events, write_trace
from reversi_ref.bundled import bundled_map_bytes
from reversi_ref.cli import main
from reversi_ref.render.record import load_record
from reversi_ref.rules import legal_moves, play, scores
from reversi_ref.search.evaluate import RANK_STEP, WIN_BONUS, is_decisive
from reversi_ref.state import GameState, Move


def bundled_text(name: str) -> str:
    """A bundled map's text."""
    data = bundled_map_bytes(name)
    assert data is not None
    return data.decode("ascii")


OTHELLO = bundled_text("othello8x8.map")


def outcome(state: GameState, memo: Dict[object, int]) -> int:
    """+1 when player 1 wins with best play from `state`, 0 a draw, -1 a loss (readable
    rules, every line to the end)."""
    key = (state.board, state.to_move, state.phase)
    if key not in memo:
        if state.to_move is None:
            counts = scores(state)
            memo[key] = (counts[1] > counts[2]) - (counts[1] < counts[2])
        else:
            values = [outcome(play(state, m), memo) for m in legal_moves(state)]
            memo[key] = max(values) if state.to_move == 1 else min(values)
    return memo[key]


def ending_with_a_choice() -> Tuple[List[Move], List[Move], List[Move]]:
    """A random Othello game stopped with 7 free cells, where the player to move has both
    winning and losing moves: (moves so far, winning moves, losing moves)."""
    rng = random.Random(5)
    while True:
        state = parse_map(OTHELLO)
        moves: List[Move] = []
        while state.to_move is not None and sum(c == "0" for c in state.board) > 7:
            move = rng.choice(legal_moves(state))
            moves.append(move)
            state = play(state, move)
        if state.to_move is None:
            continue
        memo: Dict[object, int] = {}
        sign = 1 if state.to_move == 1 else -1
        wins = [m for m in legal_moves(state) if sign * outcome(play(state, m), memo) == 1]
        losses = [m for m in legal_moves(state) if sign * outcome(play(state, m), memo) == -1]
        if wins and losses:
            return moves, wins, losses


def write_game(path: Path, moves: List[Move]) -> None:
    """`moves` on othello8x8 written as an arena trace."""
    state = parse_map(OTHELLO)
    events = []
    for move in moves:
        events.append("move %d %d %d %d" % (move.x, move.y, move.special, state.to_move or 0))
        state = play(state, move)
    replay = replay_events(OTHELLO, events)
    assert replay.problem == ""
    write_trace(replay, str(path))


def test_a_proven_ending_agrees_with_an_exhaustive_minimax(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With 7 free cells the search proves first place, picks one of the moves the minimax
    finds winning, and values the losing move the game played as a proven miss below it."""
    moves, wins, losses = ending_with_a_choice()
    game = tmp_path / "game.json"
    write_game(game, moves + [losses[0]])
    out = tmp_path / "analysis.json"
    assert main(["analyse", str(game), "--move", str(len(moves)), "--depth", "20",
                 "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    report = json.loads(out.read_text())
    last = report["iterations"][-1]
    assert last["proven"] and Move(**last["move"]) in wins
    assert report["played"] == {"x": losses[0].x, "y": losses[0].y, "special": 0}
    played = report["played_value"]
    assert played["proven"] and played["depth"] == last["depth"]
    assert played["value"] < 0 < last["value"]
    assert "(proven: first place)" in printed and "(proven: not first alone)" in printed
    assert "below the search's" in printed
    assert [it["depth"] for it in report["iterations"]] == list(
        range(1, len(report["iterations"]) + 1))


def test_other_winning_moves_are_proven_wins_too() -> None:
    """Each winning move the minimax finds, played, is valued as a proven first place at the
    search's depth (searched alone from empty tables unless it is the search's own choice,
    which is then named as such); each losing one as a proven miss."""
    moves, wins, losses = ending_with_a_choice()
    state = parse_map(OTHELLO)
    for move in moves:
        state = play(state, move)
    for move in wins + losses:
        analysis = analyse_state(state, move, 0.0, 20)
        valued = analysis.played_value
        assert valued is not None and valued.depth == analysis.iterations[-1].depth
        assert is_decisive(valued.value)
        assert (valued.value >= WIN_BONUS // 2) == (move in wins)
        own = move == analysis.iterations[-1].move
        assert ("the search's own choice" in played_verdict(analysis)) == own


def test_a_bombing_position_reports_the_bomb(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """In the bombing phase the bomb search's target is printed, and it is a legal one."""
    trace = tmp_path / "tiny.json"
    assert main(["play", "tiny3x3", "--players", "random,random", "--seed", "3",
                 "--quiet", "--trace", str(trace)]) == 0
    record = load_record(trace)
    bombing = [f.number for f in record.frames
               if f.state.phase == "bomb" and f.state.to_move is not None]
    assert bombing, "the game should reach the bombing phase"
    capsys.readouterr()
    assert main(["analyse", str(trace), "--move", str(bombing[0]), "-t", "2"]) == 0
    out = capsys.readouterr().out
    assert "bombing phase" in out and "bomb (" in out
    state = record.frames[bombing[0]].state
    line = next(text for text in out.splitlines() if text.startswith("bomb ("))
    x, y = (int(v) for v in line[len("bomb ("):line.index(")")].split(", "))
    assert Move(x, y, 0) in legal_moves(state)


def test_bad_requests_are_one_line_errors(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A finished position, a move past the end and `-t 0` without a depth are errors that
    name the problem (exit 1, or 2 for a usage error), without a traceback."""
    game = tmp_path / "game.json"
    state = parse_map(OTHELLO)
    moves = []
    rng = random.Random(1)
    while state.to_move is not None:
        move = rng.choice(legal_moves(state))
        moves.append(move)
        state = play(state, move)
    write_game(game, moves)
    assert main(["analyse", str(game), "--move", "-1"]) == 1
    assert "the game is over in this position" in capsys.readouterr().err
    assert main(["analyse", str(game), "--move", str(len(moves) + 5)]) == 1
    assert "no move %d" % (len(moves) + 5) in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["analyse", str(game), "-t", "0"])
    assert stop.value.code == 2
    assert "needs --depth" in capsys.readouterr().err
    assert main(["analyse", "othello8x8", "--depth", "2"]) == 0
    assert "player 1 to move, building phase" in capsys.readouterr().out


def test_a_sweep_values_each_move_of_one_player(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """`--to` searches every position of the stretch where the chosen player moved next, one
    line each; the losing last move is the one below the search's choice."""
    moves, _, losses = ending_with_a_choice()
    game = tmp_path / "game.json"
    write_game(game, moves + [losses[0]])
    state = parse_map(OTHELLO)
    movers = []
    for move in moves:
        movers.append(state.to_move)
        state = play(state, move)
    loser = state.to_move
    assert loser is not None
    movers.append(loser)
    first = len(moves) - 4
    expected = [n for n in range(first, len(moves) + 1) if movers[n] == loser]
    out = tmp_path / "sweep.json"
    assert main(["analyse", str(game), "--move", str(first), "--to", "-1", "--player",
                 str(loser), "--depth", "20", "--json", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(out.read_text())[i]["after_moves"] for i in range(len(expected))] == \
        expected
    assert len(lines) == len(expected)
    assert all(line.startswith("after move %d, player %d: played" % (n, loser))
               for n, line in zip(expected, lines))
    assert "below the search's" in lines[-1]
    with pytest.raises(SystemExit) as stop:
        main(["analyse", str(game), "--player", "1"])
    assert stop.value.code == 2
    assert "only with --to" in capsys.readouterr().err


def test_a_proven_place_is_named_out_of_the_players_in_the_game() -> None:
    """A proven value counts RANK_STEP per opponent beaten less per opponent ahead, and
    WIN_BONUS for first place alone.  With seven opponents, second place sharing with one
    (5 beaten, 1 ahead: 4 places; the value `analyse` printed for player 5's bomb at move
    1,795 of stop 71's `comp2024_04_8p` game, which ended so) is not first, though it is
    above WIN_BONUS / 2, where the label drew the line before stop 71."""
    second_of_eight = 4 * RANK_STEP - 29_700
    assert second_of_eight == 3_999_970_300
    assert describe_value(second_of_eight, 7).endswith("(proven: not first alone)")
    first_of_eight = 7 * RANK_STEP + WIN_BONUS + 500
    assert describe_value(first_of_eight, 7).endswith("(proven: first place)")
    shared_first_of_eight = 6 * RANK_STEP  # 6 beaten, 1 level
    assert describe_value(shared_first_of_eight, 7).endswith("(proven: not first alone)")
    assert describe_value(RANK_STEP + WIN_BONUS + 100, 1).endswith("(proven: first place)")
    assert describe_value(-RANK_STEP - 100, 1).endswith("(proven: not first alone)")
    assert describe_value(12_345, 7) == "+12345"
