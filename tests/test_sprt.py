"""Tests of the SPRT (`reversi_ref.sprt`): the statistics by hand, error rates by simulation,
and the game-pair schedule."""

from __future__ import annotations

import json
import math
import random
import re
from pathlib import Path
from statistics import NormalDist
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import pytest

from helpers import BUNDLED_MAPS, interrupted_after, map_text, sigterm_fails_the_test
from reversi_ref.cli import main
from reversi_ref.cluster import SavedGames, finish_partial, partial_path
from reversi_ref.mapfile import read_map
from reversi_ref.tournament import play_game
from reversi_ref.sprt import (PRIOR, Sprt, bounds, elo_interval, elo_of_score,
                              expected_score, game_points, llr, opening, pair_specs,
                              pairs_in_order, parse_sprt, points_by_map, points_elo,
                              wilson_interval)

DRAW_RATE = 0.3


def test_logistic_elo_scale() -> None:
    """400 Elo is 10:1 odds; the two conversions invert each other."""
    assert expected_score(0) == 0.5
    assert expected_score(400) == pytest.approx(10 / 11)
    assert elo_of_score(10 / 11) == pytest.approx(400)
    assert elo_of_score(expected_score(-123.0)) == pytest.approx(-123.0)


def test_bounds_are_walds() -> None:
    """alpha = beta = 0.05 gives the familiar (-2.94, 2.94)."""
    lower, upper = bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95))
    assert upper == pytest.approx(2.944, abs=1e-3)


def test_llr_by_hand() -> None:
    """The normal approximation worked by hand for 10 pairs: 2x0, 3x1/2, 2x1, 2x3/2, 1x2."""
    counts = [2, 3, 2, 2, 1]
    weights = [c + PRIOR for c in counts]  # 2.5, 3.5, 2.5, 2.5, 1.5: total 12.5
    assert sum(weights) == pytest.approx(12.5)
    mean = (3.5 * 0.25 + 2.5 * 0.5 + 2.5 * 0.75 + 1.5 * 1.0) / 12.5  # 0.44
    variance = (2.5 * 0.44 ** 2 + 3.5 * 0.19 ** 2 + 2.5 * 0.06 ** 2 + 2.5 * 0.31 ** 2
                + 1.5 * 0.56 ** 2) / 12.5
    s0, s1 = 0.5, 1 / (1 + 10 ** (-20 / 400))
    assert mean == pytest.approx(0.44)
    assert llr(counts, 0, 20) == pytest.approx(10 * (s1 - s0) * (0.88 - s0 - s1)
                                               / (2 * variance))
    elo, low, high = elo_interval(counts)
    assert low < elo < high and elo == pytest.approx(-400 * math.log10(1 / 0.44 - 1))


def simulated_pair(rng: random.Random, elo: float) -> float:
    """A's points in a pair of two independent games at a true difference of `elo` logistic
    Elo, with 30% draws."""
    score = expected_score(elo)
    win = score - DRAW_RATE / 2
    points = 0.0
    for _ in range(2):
        u = rng.random()
        points += 1.0 if u < win else (0.5 if u < win + DRAW_RATE else 0.0)
    return points


def simulated_many_seat_pair(rng: random.Random, elo: float) -> float:
    """A's points in a pair of eight-seat games, four seats each. Each seat draws a normal
    value, A's shifted so that one of its seats beats one of B's at the expected score of
    `elo`; a game's points are A's share of the 16 comparisons (so they go together, as the
    places of one game do)."""
    shift = math.sqrt(2.0) * NormalDist().inv_cdf(expected_score(elo))
    points = 0.0
    for _ in range(2):
        ours = [rng.gauss(shift, 1.0) for _ in range(4)]
        theirs = [rng.gauss(0.0, 1.0) for _ in range(4)]
        points += sum(1 for a in ours for b in theirs if a > b) / 16.0
    return points


def simulated_run(rng: random.Random, elo: float, elo0: float, elo1: float,
                  pair: Callable[[random.Random, float], float] = simulated_pair
                  ) -> Tuple[str, int]:
    """(verdict, pairs) of one SPRT against the simulation."""
    test = Sprt(elo0, elo1, 0.05, 0.05)
    for played in range(1, 100000):
        verdict = test.add(pair(rng, elo))
        if verdict.result:
            return verdict.result, played
    return "", played


def error_rate(elo: float, wrong: str, runs: int, seed: int,
               pair: Callable[[random.Random, float], float] = simulated_pair
               ) -> Tuple[float, List[int]]:
    rng = random.Random(seed)
    results = [simulated_run(rng, elo, 0.0, 30.0, pair) for _ in range(runs)]
    assert all(verdict for verdict, _ in results)
    return sum(1 for verdict, _ in results if verdict == wrong) / runs, [p for _, p in results]


# 200 runs at an error rate of 0.05: the count of errors has a standard deviation of about
# 3.1 (1.5%); three of them above 0.05 is the tolerance.
RUNS = 200
TOLERANCE = 3 * math.sqrt(0.05 * 0.95 / RUNS)


def test_sprt_accepts_h0_when_elo_is_elo0() -> None:
    """At the true Elo ELO0 the test accepts H1 at most about alpha = 5% of the time."""
    rate, pairs = error_rate(0.0, "H1", RUNS, 1)
    assert rate <= 0.05 + TOLERANCE
    assert sorted(pairs)[RUNS // 2] > 20  # it looked at the data, not at a first lucky pair


def test_sprt_accepts_h1_when_elo_is_elo1() -> None:
    """At the true Elo ELO1 the test accepts H0 at most about beta = 5% of the time."""
    rate, _ = error_rate(30.0, "H0", RUNS, 2)
    assert rate <= 0.05 + TOLERANCE


def test_sprt_is_undecided_between() -> None:
    """Halfway between ELO0 and ELO1 either answer comes often (the test is not one-sided)."""
    rate, _ = error_rate(15.0, "H0", 60, 3)
    assert 0.2 < rate < 0.8


def test_many_seat_points_keep_the_error_rates() -> None:
    """With eight-seat games' points taken as they are, the test still errs at most about 5%
    of the time at ELO0 and at ELO1."""
    rate, pairs = error_rate(0.0, "H1", RUNS, 4, simulated_many_seat_pair)
    assert rate <= 0.05 + TOLERANCE
    assert sorted(pairs)[RUNS // 2] > 10
    rate, _ = error_rate(30.0, "H0", RUNS, 5, simulated_many_seat_pair)
    assert rate <= 0.05 + TOLERANCE


def test_many_seat_points_are_taken_as_they_are() -> None:
    """Three eight-seat pairs of 1.25, 1.25 and 1.125 points, worked by hand: per game 0.625,
    0.625 and 0.5625, with half a pair at each of 0, 1/4, 1/2, 3/4 and 1 (weight 5.5 in all).
    Rounded to half points they would be three draws."""
    test = Sprt(0.0, 50.0)
    for points in (1.25, 1.25, 1.125):
        test.add(points)
    mean = (0.625 + 0.625 + 0.5625 + 0.5 * (0 + 0.25 + 0.5 + 0.75 + 1)) / 5.5
    assert mean == pytest.approx(3.0625 / 5.5)
    variance = (2 * (0.625 - mean) ** 2 + (0.5625 - mean) ** 2
                + 0.5 * sum((s - mean) ** 2 for s in (0, 0.25, 0.5, 0.75, 1))) / 5.5
    s0, s1 = 0.5, 1 / (1 + 10 ** (-50 / 400))
    expected = 3 * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    assert test.verdict().llr == pytest.approx(expected)
    assert test.counts == [0, 0, 3, 0, 0]  # the report's pentanomial line, rounded
    assert llr(test.counts, 0.0, 50.0) < 0 < expected  # rounding would turn the sign
    elo, low, high = points_elo(test.points)
    assert elo == pytest.approx(-400 * math.log10(1 / mean - 1))
    report = "\n".join(test.report())
    assert "rounded to half points" in report and "mean 0.604 a game" in report
    assert test.as_dict()["pair_points"] == [1.25, 1.25, 1.125]


def test_two_seat_points_give_the_pentanomial_llr() -> None:
    """Pairs of two-seat games (whole half points) give the LLR and Elo of their pentanomial
    counts, and the report does not speak of rounding."""
    rng = random.Random(6)
    test = Sprt(0.0, 30.0)
    for _ in range(40):
        test.add(simulated_pair(rng, 20.0))
    assert test.verdict().llr == pytest.approx(llr(test.counts, 0.0, 30.0))
    assert points_elo(test.points) == pytest.approx(elo_interval(test.counts))
    assert "rounded" not in "\n".join(test.report())


def test_rejects_bad_sprt_options() -> None:
    """--sprt needs ELO0 < ELO1; the error rates must be in (0, 0.5)."""
    for text in ["5", "a,b", "10,5", "1,2,3"]:
        with pytest.raises(ValueError):
            parse_sprt(text)
    with pytest.raises(ValueError):
        Sprt(0, 5, alpha=0.7)


# Player 1 plays (2, 0), capturing (1, 0): 3 to 0 (RULES.md 3, 4, 7).
LANE = map_text("1 2 0")


def test_pairs_swap_seats_on_the_same_opening() -> None:
    """A pair is two games on the same start position with the seats swapped."""
    specs = pair_specs([("o", (BUNDLED_MAPS / "othello8x8.map").read_text())], ["a", "b"], 3, 7, 0, 1)
    assert [s.number for s in specs] == [6, 7]
    assert specs[0].seats == ("a", "b") and specs[1].seats == ("b", "a")
    assert specs[0].map_text == specs[1].map_text and specs[0].seed == specs[1].seed


@pytest.mark.parametrize("name", ["sparks3p", "ring5p", "carnival4p"])
def test_pairs_swap_every_seat_with_any_number_of_seats(name: str) -> None:
    """On three, five and four seats alike, the second game of a pair gives every seat of the
    first game's candidate to the baseline and the other way round (before stop 76 a
    three-seat pair was a b a, then b a a)."""
    text = (BUNDLED_MAPS / f"{name}.map").read_text()
    first, second = (s.seats for s in pair_specs([(name, text)], ["a", "b"], 0, 7, 0, 1))
    assert len(first) == read_map(text).players
    assert first[0] == "a" and all({x, y} == {"a", "b"} for x, y in zip(first, second))


def test_opening_plays_plain_moves_back_to_player_one() -> None:
    """Four random plies on the 8x8 map leave 8 stones (4 + 1 placed per ply, RULES.md 3)
    with player 1 to move; a map without enough moves is kept as it is."""
    text = (BUNDLED_MAPS / "othello8x8.map").read_text()
    opened = read_map(opening(text, 4, random.Random(5)))
    stones = [c for c in opened.cells if c in "12"]
    assert len(stones) == 8 and opened.cells != read_map(text).cells
    assert opening(LANE, 2, random.Random(1)) == LANE


def test_points_and_pair_order() -> None:
    """A game's points for a name, and pairs given back in order whatever the arrival."""
    record = {"game": 1, "seats": [
        {"player": "a", "score": 3, "disqualified": None},
        {"player": "b", "score": 0, "disqualified": None}]}
    assert game_points(record, "a") == 1.0 and game_points(record, "b") == 0.0
    arrivals = [{"game": g} for g in [3, 1, 0, 2, 5]]
    assert [(p, [r["game"] for r in both]) for p, both in pairs_in_order(iter(arrivals))] == [
        (0, [0, 1]), (1, [2, 3])]


@pytest.mark.slow
def test_sprt_command_decides_on_a_lopsided_pairing(capsys: pytest.CaptureFixture[str]) -> None:
    """search against random on the 8x8 map: search wins nearly every pair, so H1 is
    accepted long before the cap."""
    assert main(["tournament", "--maps", "maps/othello8x8.map", "--players", "search,random",
                 "--sprt", "0,200", "--depth", "1", "--seed", "1", "--quiet",
                 "--max-pairs", "200"]) == 0
    assert "H1 accepted" in capsys.readouterr().out


FOUR = map_text("""0 0 0 0
                   0 2 1 0
                   0 1 2 0
                   0 0 0 0""")


def four_command(tmp_path: Path, max_pairs: int, out: Path, seed: Optional[int] = 1,
                 maps: Sequence[str] = ("four.map",)) -> List[str]:
    """`tournament --sprt` of two BRS variants at depth 1 on FOUR (written to each of `maps`
    in tmp_path), with --seed unless `seed` is None."""
    for name in maps:
        (tmp_path / name).write_text(FOUR)
    return (["tournament", "--maps", ",".join(str(tmp_path / name) for name in maps),
             "--players", "a,b", "--variant", 'a=brs:{"tt_bits": 8}', "--variant",
             'b=brs:{"tt_bits": 8, "mobility": [0, 0]}', "--sprt", "0,10", "--depth", "1",
             "--quiet", "--max-pairs", str(max_pairs), "--json", str(out)]
            + ([] if seed is None else ["--seed", str(seed)]))


def sprt_on_four(tmp_path: Path, max_pairs: int, out: Path) -> int:
    """`four_command` with seed 1: the exit status."""
    return main(four_command(tmp_path, max_pairs, out))


def counting_games() -> Tuple[List[int], Callable[[Any], Dict[str, Any]]]:
    """A stand-in for `tournament.play_game` that plays each game and notes its number, and
    the list it notes them in."""
    played: List[int] = []

    def counted(spec: Any) -> Dict[str, Any]:
        played.append(spec.number)
        return play_game(spec)

    return played, counted


def test_sprt_command_stops_at_the_cap(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    """Two pairs on a 4x4 map cannot decide: the report says so and counts 4 games, and the
    JSON holds the games in pairs with swapped seats."""
    out = tmp_path / "sprt.json"
    assert sprt_on_four(tmp_path, 2, out) == 0
    text = capsys.readouterr().out
    assert "no decision" in text and "games 4 (2 pairs)" in text
    data = json.loads(out.read_text())
    assert data["sprt"]["pairs"] == 2 and sum(data["sprt"]["pentanomial"]) == 2
    assert [[s["player"] for s in g["seats"]] for g in data["games"]] == [["a", "b"],
                                                                        ["b", "a"]] * 2


@pytest.mark.parametrize("by", ["ctrl-c", "sigterm"])
def test_sprt_command_keeps_the_pairs_played_when_interrupted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        by: str) -> None:
    """Ctrl-C or SIGTERM during the fifth game: the report and the JSON still hold the two
    whole pairs played before it, say the test was interrupted, and the exit status is 130."""
    monkeypatch.setattr("reversi_ref.tournament.play_game",
                        interrupted_after(4, play_game, by))
    out = tmp_path / "sprt.json"
    with sigterm_fails_the_test():
        assert sprt_on_four(tmp_path, 50, out) == 130
    text = capsys.readouterr().out
    assert "no decision (interrupted)" in text and "games 4 (2 pairs)" in text
    data = json.loads(out.read_text())
    assert data["sprt"]["interrupted"] is True and data["sprt"]["pairs"] == 2
    assert len(data["games"]) == 4


def sprt_games(out: Path) -> List[Tuple[int, List[str], List[int], List[str]]]:
    """Each game of a --json file: number, seating, scores and moves."""
    return [(g["game"], [s["player"] for s in g["seats"]], [s["score"] for s in g["seats"]],
             g["played"]) for g in json.loads(out.read_text())["games"]]


def test_a_test_stopped_at_the_cap_goes_on_from_its_partial_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
        ) -> None:
    """Stopped undecided at 2 pairs, the test keeps its 4 games in FILE.partial; run again with
    a cap of 3 pairs it plays only the 2 games of the third pair, and ends with the games and
    the pair points of a test run to 3 pairs at once."""
    whole = tmp_path / "whole.json"
    assert sprt_on_four(tmp_path, 3, whole) == 0
    out = tmp_path / "sprt.json"
    assert sprt_on_four(tmp_path, 2, out) == 0
    partial = partial_path(str(out))
    assert len(partial.read_text().splitlines()) == 1 + 4  # the header and 4 games
    capsys.readouterr()
    played, counted = counting_games()
    monkeypatch.setattr("reversi_ref.tournament.play_game", counted)
    assert sprt_on_four(tmp_path, 3, out) == 0
    assert played == [4, 5]
    assert "resuming with 4 games" in capsys.readouterr().err
    assert sprt_games(out) == sprt_games(whole)
    assert (json.loads(out.read_text())["sprt"]["pair_points"]
            == json.loads(whole.read_text())["sprt"]["pair_points"])


def test_an_interrupted_test_resumes_without_its_seed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
        ) -> None:
    """Ctrl-C in the fifth game of a run without --seed: the partial file keeps the four games
    and the seed, and the same command (still without --seed) plays on from game 4 to the cap,
    the games those of one uninterrupted run with that seed."""
    out = tmp_path / "sprt.json"
    monkeypatch.setattr("reversi_ref.tournament.play_game", interrupted_after(4, play_game))
    assert main(four_command(tmp_path, 3, out, seed=None)) == 130
    seed = json.loads(out.read_text())["seed"]
    header = json.loads(partial_path(str(out)).read_text().splitlines()[0])
    assert header["seed"] == seed
    played, counted = counting_games()
    monkeypatch.setattr("reversi_ref.tournament.play_game", counted)
    assert main(four_command(tmp_path, 3, out, seed=None)) == 0
    assert played == [4, 5] and json.loads(out.read_text())["seed"] == seed
    monkeypatch.setattr("reversi_ref.tournament.play_game", play_game)
    whole = tmp_path / "whole.json"
    assert main(four_command(tmp_path, 3, whole, seed=seed)) == 0
    assert sprt_games(out) == sprt_games(whole)


def test_a_partial_file_of_another_test_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Games left by a test with another seed are not mixed in: a clear error, exit 1, and
    the file is left as it was."""
    out = tmp_path / "sprt.json"
    assert sprt_on_four(tmp_path, 1, out) == 0
    before = partial_path(str(out)).read_text()
    capsys.readouterr()
    assert main(four_command(tmp_path, 2, out, seed=2)) == 1
    err = capsys.readouterr().err
    assert "sprt.json.partial" in err and "another schedule" in err and "Traceback" not in err
    assert partial_path(str(out)).read_text() == before


def test_saved_games_survive_a_cut_off_record(tmp_path: Path) -> None:
    """The partial file is read back as it was written; a record cut off by a kill is
    dropped and the next one written whole; `finish_partial` removes the file."""
    out = str(tmp_path / "t.json")
    saved = SavedGames(out, 5, "sprt-x")
    saved.keep({"game": 1, "seats": []})
    saved.keep({"game": 0, "seats": []})
    saved.close()
    with partial_path(out).open("a") as handle:
        handle.write('{"game": 2, "se')  # a record cut off by a kill
    again = SavedGames(out, 5, "sprt-x")
    assert sorted(again.records) == [0, 1]
    again.keep({"game": 3, "seats": []})
    again.close()
    again = SavedGames(out, 5, "sprt-x")
    assert sorted(again.records) == [0, 1, 3]
    again.close()
    finish_partial(out)
    assert not partial_path(out).exists()
    assert SavedGames(None, 5, "sprt-x").path is None


def test_points_by_map() -> None:
    """Per map, the whole pairs and the candidate's mean score a game, worked by hand: on
    "x" a win and a loss (1/2); on "y" a draw, then with three seats a win over one baseline
    seat and a loss to the other (1/2 each game, so 1/2); on "z" two wins (1)."""
    def seat(player: str, score: int) -> Dict[str, Any]:
        return {"player": player, "score": score, "disqualified": None}

    records = [
        {"game": 0, "map": "x", "seats": [seat("a", 5), seat("b", 1)]},
        {"game": 1, "map": "x", "seats": [seat("b", 5), seat("a", 1)]},
        {"game": 2, "map": "y", "seats": [seat("a", 3), seat("b", 3)]},
        {"game": 3, "map": "y", "seats": [seat("b", 1), seat("a", 2), seat("b", 4)]},
        {"game": 4, "map": "z", "seats": [seat("a", 9), seat("b", 0)]},
        {"game": 5, "map": "z", "seats": [seat("b", 0), seat("a", 9)]},
    ]
    assert points_by_map(records, "a") == [("x", 1, 0.5), ("y", 1, 0.5), ("z", 1, 1.0)]
    assert points_by_map(records, "b") == [("x", 1, 0.5), ("y", 1, 0.5), ("z", 1, 0.0)]


def test_the_report_gives_each_maps_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                          ) -> None:
    """With two maps the report ends with a line per map, and the JSON's by_map agrees with
    the games it holds."""
    out = tmp_path / "sprt.json"
    assert main(four_command(tmp_path, 4, out, maps=("four.map", "other.map"))) == 0
    text = capsys.readouterr().out
    assert re.search(r"four\.map +2 pairs, a scores \d\.\d{3} a game", text)
    assert re.search(r"other\.map +2 pairs, a scores \d\.\d{3} a game", text)
    data = json.loads(out.read_text())
    for row in data["by_map"]:
        games = [g for g in data["games"] if g["map"] == row["map"]]
        assert row["pairs"] * 2 == len(games) == 4
        assert row["score"] == round(sum(game_points(g, "a") for g in games) / 4, 4)


def test_sprt_command_needs_two_players(capsys: pytest.CaptureFixture[str]) -> None:
    """--sprt with three players is a usage error."""
    with pytest.raises(SystemExit) as stopped:  # argparse's usage error
        main(["tournament", "--maps", "maps/othello8x8.map", "--players",
              "greedy,random,search", "--sprt", "0,5"])
    assert stopped.value.code == 2
    assert "--sprt" in capsys.readouterr().err


def test_wilson_interval_matches_published_values() -> None:
    # The usual textbook examples of the Wilson score interval at 95%: 5 of 10 gives
    # 0.2366-0.7634, 0 of 10 gives 0-0.2775, all 10 of 10 gives 0.7225-1.
    for successes, low, high in ((5, 0.2366, 0.7634), (0, 0.0, 0.2775), (10, 0.7225, 1.0)):
        found = wilson_interval(successes, 10)
        assert found == pytest.approx((low, high), abs=5e-5)
    assert wilson_interval(0, 0) == (0.0, 1.0)
