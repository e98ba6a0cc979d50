"""Tests of `reversi-ref tournament`: the schedule, the scoring, Elo and two tiny games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import interrupted_after, map_text, sigterm_fails_the_test
from reversi_ref.cli import main
from reversi_ref.errors import IllegalMoveError
from reversi_ref import tournament
from reversi_ref.players import Player
from reversi_ref.players.search import SearchPlayer
from reversi_ref.rules import scores
from reversi_ref.state import GameState, Move
from reversi_ref.tournament import (GameSpec, elo_ratings, make_player, pair_result,
                                    parse_variant, play_game, replay_record, schedule,
                                    seat_points, seatings)

# Player 1 plays (2, 0), capturing (1, 0); then nobody can build and there are no bombs: the
# game ends 3 to 0 (RULES.md 3, 4, 7).
LANE = map_text("1 2 0")
ROOT = Path(__file__).resolve().parents[1]


def test_seatings_rotate_two_names_on_four_seats() -> None:
    """Two names on a 4-player map sit alternately, in both rotations."""
    assert seatings(["a", "b"], 4) == [("a", "b", "a", "b"), ("b", "a", "b", "a")]


def test_seatings_of_two_names_on_three_seats_are_balanced() -> None:
    """Two names on a 3-player map: each seating is followed by its swap, so each pair of
    seatings (the SPRT's game pair) puts each name in each seat once, and over all six each
    name sits in each seat three times."""
    plans = seatings(["a", "b"], 3)
    assert plans[:2] == [("a", "b", "a"), ("b", "a", "b")]
    assert len(set(plans)) == 6
    for first, second in zip(plans[::2], plans[1::2]):
        assert all({x, y} == {"a", "b"} for x, y in zip(first, second))
    for seat in range(3):
        assert [p[seat] for p in plans].count("a") == 3


def test_seatings_of_three_names_on_five_seats_are_balanced() -> None:
    """Three names on five seats: every name in every seat equally often, and each name as
    often as the others."""
    plans = seatings(["a", "b", "c"], 5)
    assert len(set(plans)) == len(plans) == 15
    for seat in range(5):
        assert sorted(p[seat] for p in plans) == ["a"] * 5 + ["b"] * 5 + ["c"] * 5


def test_seatings_pair_every_two_of_three_names() -> None:
    """Three names on a 2-player map: every pair, each in both seats."""
    assert sorted(seatings(["a", "b", "c"], 2)) == sorted([
        ("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"), ("b", "c"), ("c", "b")])


def test_schedule_cycles_the_seatings() -> None:
    """Three games on a 2-player map with two names alternate the seats."""
    specs = schedule([("lane", LANE)], ["a", "b"], 3, 1, 0, 1)
    assert [s.seats for s in specs] == [("a", "b"), ("b", "a"), ("a", "b")]
    assert len({s.seed for s in specs}) == 3


def test_pair_results_and_points() -> None:
    """RULES.md 6-7: more stones win, equal draw, a disqualified seat loses to everybody."""
    assert pair_result(3, False, 1, False) == 1.0
    assert pair_result(2, False, 2, False) == 0.5
    assert pair_result(9, True, 1, False) == 0.0
    assert seat_points([5, 5, 1], [False, False, False]) == [0.75, 0.75, 0.0]
    assert seat_points([5, 7], [False, True]) == [1.0, 0.0]


def test_elo_is_symmetric_for_equal_results() -> None:
    """Even results give equal ratings; a winner rates higher than the loser."""
    even = elo_ratings(["a", "b"], [("a", "b", 1.0), ("a", "b", 0.0)])
    assert even["a"][0] == pytest.approx(0.0, abs=1e-6)
    assert even["b"][0] == pytest.approx(0.0, abs=1e-6)
    lopsided = elo_ratings(["a", "b"], [("a", "b", 1.0)] * 10)
    assert lopsided["a"][0] > 100 > 0 > -100 > lopsided["b"][0]
    assert lopsided["a"][1] > 0


def test_play_game_records_the_result() -> None:
    """RULES.md 3, 4, 7: the lane game ends 3 to 0 for seat 1."""
    record = play_game(GameSpec(0, "lane", LANE, ("search", "greedy"), 1, 0, 1))
    seats = record["seats"]
    assert [s["score"] for s in seats] == [3, 0]
    assert [s["rank"] for s in seats] == [1, 2]
    assert [s["points"] for s in seats] == [1.0, 0.0]
    assert record["moves"] == 1


def test_play_game_records_its_turns() -> None:
    """The lane game's record keeps its start and its one turn, (2, 0) with no special."""
    record = play_game(GameSpec(0, "lane", LANE, ("search", "greedy"), 1, 0, 1))
    assert record["start"] == LANE
    assert record["played"] == "2,0,0"
    assert scores(replay_record(record)) == {1: 3, 2: 0}


def test_replay_record_names_a_bad_turn() -> None:
    """A malformed turn, an illegal one and one after the end are each named by number."""
    for played, words in [("2,0", "turn 1 ('2,0') is not x,y,special"),
                          ("2,0,0 x", "turn 2 ('x') comes after the end"),
                          ("0,0,0", "")]:
        with pytest.raises(IllegalMoveError) as caught:
            replay_record({"start": LANE, "played": played})
        assert words in str(caught.value)


class RaisesOnItsThirdMove(Player):
    """A player that plays greedily, then raises when asked for its third move."""

    def __init__(self) -> None:
        super().__init__()
        self.greedy = make_player("greedy", 1)
        self.asked = 0

    def choose(self, state: GameState, time_ms: int, depth: int) -> Move:
        self.asked += 1
        if self.asked == 3:
            raise RuntimeError("out of ideas")
        return self.greedy.choose(state, time_ms, depth)


def test_a_record_replays_to_its_scores_with_the_readable_rules(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Games on the fast engine, rebuilt from their records by the readable rules, end with the
    same stones and the same disqualified seat, the turn of the disqualification included."""
    real = make_player
    monkeypatch.setattr(tournament, "make_player", lambda name, seed, variants=(): (
        RaisesOnItsThirdMove() if name == "fails" else real(name, seed, variants)))
    text = (ROOT / "maps" / "sparks3p.map").read_text()
    for seats in [("search", "random", "greedy"), ("random", "fails", "search")]:
        record = play_game(GameSpec(0, "sparks3p", text, seats, 7, 0, 2))
        final = replay_record(record)
        turns = record["played"].split()
        assert len(turns) == record["moves"]
        assert [scores(final)[s["seat"]] for s in record["seats"]] == [
            s["score"] for s in record["seats"]]
        assert final.disqualified == {s["seat"] for s in record["seats"] if s["disqualified"]}
        if "fails" in seats:
            assert turns.count("-") == 1 and final.disqualified == {2}
            assert turns.index("-") == 7  # seat 2's third turn: turns 1, 4 and 7 (0-based)


class Answers(Player):
    """A player that always answers with one fixed value."""

    def __init__(self, answer: object) -> None:
        super().__init__()
        self.answer = answer

    def choose(self, state: GameState, time_ms: int, depth: int) -> Move:
        return self.answer  # type: ignore[return-value]


@pytest.mark.parametrize("answer, reason", [
    ("e4", "player returned 'e4', not a move"),
    ((2, 0, 0, 0), "player returned (2, 0, 0, 0), not a move"),
    ((True, 0), "player returned (True, 0), not a move"),
    ((1, 0), "illegal move (1, 0) special 0"),
    ((9, 0), "illegal move (9, 0) special 0"),
    ((2, 0, 40), "illegal move (2, 0) special 40"),
])
def test_a_player_without_a_legal_move_is_disqualified(
        answer: object, reason: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """RULES.md 8: an answer that is not a move, or not a legal one, disqualifies the seat
    with that reason; on the lane map seat 2 then wins with no stone against none."""
    monkeypatch.setattr(tournament, "make_player", lambda name, seed, variants=(): (
        Answers(answer)))
    record = play_game(GameSpec(0, "lane", LANE, ("bad", "bad"), 1, 0, 1))
    first = record["seats"][0]
    assert first["disqualified"] == reason
    assert first["points"] == 0.0 and record["seats"][1]["points"] == 1.0
    assert record["played"].split()[0] == "-"


def test_tournament_runs_two_tiny_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    """Two games in two processes with rotated seats: each name wins the game it starts;
    JSON is written."""
    path = tmp_path / "lane.map"
    path.write_text(LANE)
    out = tmp_path / "result.json"
    code = main(["tournament", "--maps", str(path), "--players", "brs,greedy", "--games", "2",
                 "--depth", "1", "--seed", "3", "--json", str(out), "--quiet",
                 "--jobs", "2"])
    assert code == 0
    text = capsys.readouterr().out
    assert "brs" in text and "greedy" in text
    data = json.loads(out.read_text())
    assert len(data["games"]) == 2
    assert data["table"]["brs"]["score_rate"] == 0.5
    assert data["table"]["greedy"]["firsts"] == 1


@pytest.mark.parametrize("by", ["ctrl-c", "sigterm"])
def test_interrupted_tournament_keeps_the_games_played(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        by: str) -> None:
    """Ctrl-C or SIGTERM during the third of four games: the table and the JSON hold the two
    finished games, both say the run was interrupted, and the exit status is 130."""
    monkeypatch.setattr("reversi_ref.tournament.play_game",
                        interrupted_after(2, play_game, by))
    path = tmp_path / "lane.map"
    path.write_text(LANE)
    out = tmp_path / "result.json"
    with sigterm_fails_the_test():
        assert main(["tournament", "--maps", str(path), "--players", "brs,greedy", "--games",
                     "4", "--depth", "1", "--seed", "3", "--json", str(out), "--quiet"]) == 130
    assert "interrupted: 2 of 4 games finished" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["interrupted"] is True and len(data["games"]) == 2
    assert data["table"]["brs"]["seats"] == 2 and data["table"]["greedy"]["seats"] == 2


def test_tournament_with_a_time_limit(tmp_path: Path) -> None:
    """RULES.md 8: with a bank the players answer in time (no timeouts on a tiny map)."""
    path = tmp_path / "lane.map"
    path.write_text(LANE)
    out = tmp_path / "result.json"
    assert main(["tournament", "--maps", str(path), "--players", "search,mcts", "--games",
                 "2", "--time-ms", "500", "--seed", "1", "--json", str(out),
                 "--quiet"]) == 0
    table = json.loads(out.read_text())["table"]
    assert table["search"]["timeouts"] == 0 and table["mcts"]["timeouts"] == 0


def test_variant_changes_the_weights(tmp_path: Path) -> None:
    """A --variant player plays under its own name with its own weights."""
    path = tmp_path / "lane.map"
    path.write_text(LANE)
    out = tmp_path / "result.json"
    assert main(["tournament", "--maps", str(path), "--players", "flat,greedy", "--games", "2",
                 "--variant", 'flat=brs:{"mobility": [0, 0]}', "--json", str(out),
                 "--quiet"]) == 0
    data = json.loads(out.read_text())
    assert data["variants"]["flat"] == {"base": "brs", "weights": {"mobility": [0, 0]}}
    assert data["table"]["flat"]["seats"] == 2
    player = make_player("flat", 1, [("flat", "brs", '{"mobility": [0, 0]}')])
    assert isinstance(player, SearchPlayer) and player.config.mobility == (0, 0)


@pytest.mark.parametrize("text", ["flat", "flat=brs", "search=brs:{}", "flat=greedy:{}",
                                  "flat=brs:[1]", "flat=brs:{oops", 'flat=brs:{"x": 1}',
                                  "flat=brs:@/no/such/file.json"])
def test_rejects_bad_variants(text: str) -> None:
    """Malformed --variant texts, taken names, unknown bases and bad weights are refused."""
    with pytest.raises(ValueError):
        parse_variant(text, ["search", "brs", "greedy"])


@pytest.mark.parametrize("args", [
    ["--players", "search"],
    ["--players", "search,nobody"],
    ["--players", "search,search"],
])
def test_rejects_bad_player_lists(args: list, tmp_path: Path,  # type: ignore[type-arg]
                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Fewer than two names, unknown names and repeated names are usage errors (exit 2)
    naming --players."""
    path = tmp_path / "lane.map"
    path.write_text(LANE)
    with pytest.raises(SystemExit) as exit_info:
        main(["tournament", "--maps", str(path)] + args)
    assert exit_info.value.code == 2
    assert "reversi-ref tournament: error: argument --players:" in capsys.readouterr().err


def test_rejects_a_missing_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A map file that does not exist ends in a one-line error, not a traceback."""
    assert main(["tournament", "--maps", str(tmp_path / "none.map"), "--players",
                 "search,greedy"]) == 1
    assert "none.map" in capsys.readouterr().err
