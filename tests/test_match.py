"""Tests of the in-process referee (`Game`, `run_match`), the built-in players and `play`.

Positions are small inline maps; the expected messages, boards and moves are worked out by hand
from RULES.md.
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any, Dict, List

import pytest

from helpers import build, map_text
from reversi_ref import Move, legal_moves, parse_map
from reversi_ref.cli import main
from reversi_ref.match import (Game, board_lines, run_match, seat_players, valid_positions)
from reversi_ref.players import GreedyPlayer, Player, RandomPlayer, get, names
from reversi_ref.protocol import (Disqualification, EndOfGame, EndOfPhase1, MoveAnnouncement)
from reversi_ref.state import GameState

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"

# A 1x3 lane: player 1 closes it with (2, 0); then nobody can build.
LANE = "1 2 0"
# Three players; player 1 may play (4, 1) capturing 3 and 2, not (0, 0).
THREE = map_text("0 0 0 0 0\n0 1 2 3 0\n0 3 1 2 0\n0 0 0 0 0", players=3)


class Raising(Player):
    """A player that always fails."""

    name = "raising"

    def choose(self, state: GameState, time_ms: int, depth: int) -> Move:
        raise RuntimeError("out of ideas")


class Fixed(Player):
    """A player that always answers the same thing."""

    name = "fixed"

    def __init__(self, answer: Any) -> None:
        super().__init__()
        self.answer = answer

    def choose(self, state: GameState, time_ms: int, depth: int) -> Move:
        result: Move = self.answer
        return result


# --------------------------------------------------------------------------- text output


def test_board_lines_show_coordinates_and_marks() -> None:
    """RULES.md 8: the board is printed with the next player's legal positions marked."""
    state = parse_map(map_text("0 1 2\n- 2 1"))
    assert board_lines(state, {(0, 0), (2, 1)}) == [
        "   0 1 2",
        "0  0*1 2",
        "1  - 2 1*",
    ]


def test_board_lines_label_columns_past_nine() -> None:
    """Wide boards get a tens row above the units row."""
    state = parse_map(map_text("1 2 " + "0 " * 10))
    lines = board_lines(state)
    assert lines[0] == "   " + " " * 20 + "1 1"
    assert lines[1] == "   0 1 2 3 4 5 6 7 8 9 0 1"


def test_valid_positions_are_ordered_by_x_then_y() -> None:
    """RULES.md 8: the server lists legal positions column by column (as the traces show)."""
    state = build("""
        1 2 0
        2 0 0
        0 0 0
    """)
    assert [(m.x, m.y) for m in legal_moves(state)] == [(2, 0), (0, 2)]
    assert valid_positions(state) == [(0, 2), (2, 0)]


# --------------------------------------------------------------------------- messages of a game


def test_move_is_announced_then_phase_end_then_game_end() -> None:
    """RULES.md 4 and 8: a move ending phase 1 without bombs: 6, then 8 (always), then 9."""
    game = Game(parse_map(map_text(LANE)), map_text(LANE))
    assert game.start() == []
    assert game.answer(Move(2, 0)) == [MoveAnnouncement(2, 0, 0, 1), EndOfPhase1(),
                                       EndOfGame()]
    assert game.is_over
    assert game.trace["phase1_end"] == {"after_move": 0, "scores": {"1": 3, "2": 0}}
    assert game.trace["final"]["ranking"] == [{"rank": 1, "player": 1, "score": 3},
                                              {"rank": 2, "player": 2, "score": 0}]


def test_bombing_phase_follows_phase_one_with_bombs() -> None:
    """RULES.md 4 and 5: with bombs, 8 starts phase 2; player 2 bombs next; 9 at the end."""
    text = map_text(LANE, bombs=1)
    game = Game(parse_map(text), text)
    assert game.answer(Move(2, 0)) == [MoveAnnouncement(2, 0, 0, 1), EndOfPhase1()]
    assert (game.state.phase, game.to_move) == ("bomb", 2)
    assert game.answer(Move(0, 0)) == [MoveAnnouncement(0, 0, 0, 2)]
    assert game.answer(Move(1, 0)) == [MoveAnnouncement(1, 0, 0, 1), EndOfGame()]
    assert game.trace["moves"][-1]["board_after"] == ["--1"]
    assert game.trace["final"]["scores"] == {"1": 1, "2": 0}


def test_bomb_is_announced_with_special_0() -> None:
    """RULES.md 5 and 8: a non-zero special byte on a bomb is tolerated; the announcement
    says special 0 (the byte sent stays in the trace)."""
    text = map_text(LANE, bombs=1)
    game = Game(parse_map(text), text)
    game.answer(Move(2, 0))
    assert game.answer(Move(0, 0, 7)) == [MoveAnnouncement(0, 0, 0, 2)]
    assert game.answer(Move(1, 0, 255)) == [MoveAnnouncement(1, 0, 0, 1), EndOfGame()]
    assert game.trace["moves"][-1]["special"] == 255
    assert game.trace["moves"][-1]["board_after"] == ["--1"]


def test_game_starting_in_phase_two_says_8_first() -> None:
    """RULES.md 4: nobody can build at the start but there are bombs: 8 before any request."""
    text = map_text("1 2", bombs=1)
    game = Game(parse_map(text), text)
    assert game.start() == [EndOfPhase1()]
    assert (game.state.phase, game.to_move) == ("bomb", 1)


def test_game_over_at_the_start_says_so() -> None:
    """RULES.md 4: no moves and no bombs: the game is over before it starts."""
    text = map_text("1 2")
    lines: List[str] = []

    class Out:
        def write(self, s: str) -> int:
            lines.append(s)
            return len(s)

        def flush(self) -> None:
            pass

    game = Game(parse_map(text), text, out=Out())  # type: ignore[arg-type]
    assert game.start() == [EndOfGame()]
    assert "Map is final, no moves at all possible." in "".join(lines)


def test_sole_remaining_player_ends_the_game_without_8() -> None:
    """RULES.md 6: the last player left wins: 7 then 9 directly, no phase-1 end."""
    game = Game(parse_map(map_text(LANE, bombs=1)), map_text(LANE))
    assert game.fail("went away") == [Disqualification(1), EndOfGame()]
    assert game.trace["phase1_end"] is None
    assert game.trace["final"]["scores"] == {"1": "disqualified", "2": 1}
    assert game.trace["disqualifications"] == [
        {"player": 1, "reason": "went away", "after_move": 0}]


def test_illegal_move_disqualifies_naming_the_rule() -> None:
    """RULES.md 3 and 6: a move capturing nothing is rejected with its rule; play goes on."""
    game = Game(parse_map(THREE), THREE)
    assert game.answer(Move(0, 0)) == [Disqualification(1)]
    entry = game.trace["moves"][0]
    assert entry["rejected"] is True
    assert "RULES.md 3: the move captures in no direction" in entry["reason"]
    assert (entry["x"], entry["y"], entry["special"]) == (0, 0, 0)
    assert entry["board_after"] == ["00000", "01230", "03120", "00000"]
    assert game.to_move == 2


def test_bad_special_byte_disqualifies_naming_the_rule() -> None:
    """RULES.md 3 (special byte validity): special 7 on an empty cell is invalid."""
    game = Game(parse_map(THREE), THREE)
    assert game.answer(Move(4, 1, 7)) == [Disqualification(1)]
    assert "special byte must be 0" in game.trace["moves"][0]["reason"]


def test_off_board_move_disqualifies() -> None:
    """RULES.md 6: off-board coordinates are an invalid move."""
    text = map_text(LANE, players=3)
    game = Game(parse_map(text), text)
    game.answer(Move(9, 9))
    assert "off the board" in game.trace["moves"][0]["reason"]


# --------------------------------------------------------------------------- players


def test_greedy_takes_the_move_with_most_stones() -> None:
    """Greedy: (3, 0) leaves player 1 four stones, (0, 2) three."""
    state = build("""
        1 2 2 0
        2 0 0 0
        0 0 0 0
    """)
    assert GreedyPlayer().choose(state, 0, 1) == Move(3, 0)


def test_greedy_breaks_ties_by_move_order() -> None:
    """Greedy: (2, 0) and (0, 2) both give 3 stones; the first in (y, x) order wins."""
    state = build("""
        1 2 0
        2 0 0
        0 0 0
    """)
    assert GreedyPlayer().choose(state, 0, 1) == Move(2, 0)


def test_greedy_bomb_spares_its_own_stones() -> None:
    """Greedy in phase 2: bombing (2, 0) (strength 0) costs player 1 nothing."""
    state = parse_map(map_text("1 1 2", bombs=1))
    assert state.phase == "bomb"
    assert GreedyPlayer().choose(state, 0, 1) == Move(2, 0)


def test_random_player_is_reproducible_and_legal() -> None:
    """The random player depends only on its seed and plays legal moves."""
    state = parse_map(map_text("0 0 0 0\n0 1 2 0\n0 2 1 0\n0 0 0 0"))
    one, two, other = (RandomPlayer(random.Random(5)), RandomPlayer(random.Random(5)),
                       RandomPlayer(random.Random(6)))
    first = [one.choose(state, 0, 1) for _ in range(20)]
    assert first == [two.choose(state, 0, 1) for _ in range(20)]
    assert first != [other.choose(state, 0, 1) for _ in range(20)]
    assert set(first) == set(legal_moves(state))


def test_registry_names_and_rejects_unknown_players() -> None:
    """`players.get` builds named players and names the choices for an unknown one."""
    assert {"greedy", "random"} <= set(names())
    assert get("greedy").name == "greedy"
    with pytest.raises(ValueError, match="unknown player 'nobody'.*greedy"):
        get("nobody")


def test_seats_cycle_the_player_names() -> None:
    """`play`: the number of players is the map's n, cycling the given names."""
    seats = seat_players(["greedy", "random"], 3, seed=1)
    assert [seats[p].name for p in (1, 2, 3)] == ["greedy", "random", "greedy"]


# --------------------------------------------------------------------------- run_match


def test_raising_player_is_disqualified_and_the_game_goes_on() -> None:
    """RULES.md 6: a failing player is disqualified; the others finish the game."""
    game = run_match(Game(parse_map(THREE), THREE),
                     {1: Raising(), 2: GreedyPlayer(), 3: GreedyPlayer()})
    assert game.is_over
    assert game.trace["disqualifications"][0]["player"] == 1
    assert "player raised RuntimeError: out of ideas" in game.reasons[1]
    assert len(game.trace["moves"]) > 1


@pytest.mark.parametrize("answer,reason", [
    (Move(0, 0), "RULES.md 3: the move captures in no direction"),
    ("e4", "not a move"),
    (None, "not a move"),
])
def test_player_answering_badly_is_disqualified(answer: Any, reason: str) -> None:
    """RULES.md 6: an illegal or malformed answer disqualifies; the game goes on."""
    game = run_match(Game(parse_map(THREE), THREE),
                     {1: Fixed(answer), 2: GreedyPlayer(), 3: GreedyPlayer()})
    assert reason in game.reasons[1]
    assert game.is_over and game.trace["final"] is not None


@pytest.mark.parametrize("name", ["default.map", "octagon8p.map", "sparks3p.map",
                                  "tiny3x3.map", "lonely1x1.map"])
def test_whole_games_on_bundled_maps(name: str) -> None:
    """A whole local game on each map ends with a ranking of everybody not disqualified."""
    path = REPO / "maps" / name
    if not path.is_file():
        pytest.skip("maps/%s not present" % name)
    text = path.read_text()
    state = parse_map(text)
    game = run_match(Game(state, text), seat_players(["random", "greedy"], state.players, 3))
    assert game.is_over
    assert not game.trace["disqualifications"]
    assert len(game.trace["final"]["ranking"]) == state.players


# --------------------------------------------------------------------------- the command


def test_play_command_prints_boards_and_ranking(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    """`reversi-ref play MAP --boards` prints every move and board, numbered from 1, and the
    final ranking; `--trace`."""
    path = tmp_path / "lane.map"
    path.write_text(map_text(LANE, bombs=1))
    trace = tmp_path / "trace.json"
    assert main(["play", str(path), "--players", "greedy", "--trace", str(trace),
                 "--boards"]) == 0
    out = capsys.readouterr().out
    assert "0  1 2 0*" in out
    assert "move 1: player 1 plays (2, 0)" in out
    assert "move 3: player 1 plays (1, 0)" in out
    assert "move 0" not in out
    assert "end of phase 1" in out
    assert out.rstrip().endswith("1. player 1: 1 stones\n2. player 2: 0 stones")
    assert json.loads(trace.read_text())["final"]["scores"] == {"1": 1, "2": 0}


def test_play_prints_only_the_final_board_by_default(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    """Without --boards, `play` prints no move lines and one board: the last, after the two
    bombs (RULES.md 5) have left one stone of player 1 at (2, 0)."""
    path = tmp_path / "lane.map"
    path.write_text(map_text(LANE, bombs=1))
    assert main(["play", str(path), "--players", "greedy"]) == 0
    out = capsys.readouterr().out
    assert "move 1:" not in out and "0*" not in out
    assert out.count("0 1 2") == 1
    assert "0  - -<1" in out
    assert "1 ms per move" not in out and "1000 ms per move" in out
    assert out.rstrip().endswith("1. player 1: 1 stones\n2. player 2: 0 stones")


def test_play_command_uses_the_default_map(capsys: pytest.CaptureFixture[str]) -> None:
    """`reversi-ref play` without MAP plays on maps/default.map."""
    if not (REPO / "maps" / "default.map").is_file():
        pytest.skip("maps/default.map not present")
    assert main(["play", "--quiet"]) == 0
    assert "final ranking:" in capsys.readouterr().out


def test_rejects_malformed_map_in_play(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    """RULES.md 1: a malformed map prints file, line, column and reason; exit 1."""
    path = tmp_path / "bad.map"
    path.write_text("2\n0\n0 0\n1 3\n1 2 q\n")
    assert main(["play", str(path)]) == 1
    err = capsys.readouterr().err
    assert str(path) + ":5:5:" in err
    assert "Traceback" not in err


def test_rejects_missing_map_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A missing map file is a one-line error, exit 1."""
    assert main(["play", str(tmp_path / "nothing.map")]) == 1
    assert "nothing.map" in capsys.readouterr().err


def test_rejects_unknown_player_name(capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
    """`--players` with an unknown name is a usage error (exit 2) naming the choices."""
    path = tmp_path / "lane.map"
    path.write_text(map_text(LANE))
    with pytest.raises(SystemExit) as exit_info:
        main(["play", str(path), "--players", "greedy,wizard"])
    assert exit_info.value.code == 2
    assert "argument --players: unknown player 'wizard'" in capsys.readouterr().err


# --------------------------------------------------------------------------- official traces


def small_traces() -> List[Path]:
    """The shared official-server traces small enough for the default run."""
    folder = SHARED / "traces"
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.json.gz") if p.stat().st_size < 6000)


def test_trace_fields_match_official_traces() -> None:
    """RULES.md 8: replayed through `Game`, small official games give the same boards,
    marked positions (in the server's order), phase-1 end and final scores."""
    paths = small_traces()
    if not paths:
        pytest.skip("../shared/traces is absent")
    for path in paths:
        official: Dict[str, Any] = json.loads(gzip.decompress(path.read_bytes()))
        game = Game(parse_map(official["map_text"]), official["map_text"])
        game.start()
        assert game.trace["initial"]["valid"] == official["initial"]["valid"], path.name
        for move in official["moves"]:
            assert game.to_move == move["player"], path.name
            if move.get("rejected"):
                game.fail(move["reason"])
            else:
                game.answer(Move(move["x"], move["y"], move["special"]))
            ours = game.trace["moves"][-1]
            assert ours["board_after"] == move["board_after"], (path.name, move["move"])
            assert ours["valid_next"] == move["valid_next"], (path.name, move["move"])
            assert ours["status"] == move["status"], (path.name, move["move"])
        assert game.trace["final"]["scores"] == official["final"]["scores"], path.name
        if official["phase1_end"] is not None:
            assert game.trace["phase1_end"]["scores"] == official["phase1_end"]["scores"]
            assert (game.trace["phase1_end"]["after_move"]
                    == official["phase1_end"]["after_move"]), path.name
