"""Tests of `reversi-ref tune` (SPSA): the gains, the update on a known function, the log, the
resume and the weights file."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import List

import pytest

from helpers import map_text
from reversi_ref import players as player_registry
from reversi_ref.cli import main
from reversi_ref.players.search import SearchPlayer
from reversi_ref.tune import Gains, components, perturbation, start_values, step, weights_of

FOUR = map_text("""0 0 0 0
                   0 2 1 0
                   0 1 2 0
                   0 0 0 0""")


def test_ramp_fields_are_two_parameters() -> None:
    """A ramp field is (early, late); a plain weight is one value; both round-trip."""
    parts = components(["mobility", "leader_share"])
    assert parts == [("mobility", 0), ("mobility", 1), ("leader_share", -1)]
    theta = start_values(parts, {"mobility": [10, 20]})
    assert theta == [10.0, 20.0, 60.0]
    assert weights_of(parts, [10.4, 19.6, 61.5]) == {"mobility": [10, 20], "leader_share": 62}


def test_gains_follow_spalls_recipe() -> None:
    """a_k = a / (A + k + 1)^0.602, c_k = c / (k + 1)^0.101, A = iterations / 10, and the first
    step at a full win is learn * c."""
    gains = Gains([100.0], 200, 0.25)
    a0, c0 = gains.at(0)
    a9, c9 = gains.at(9)
    assert gains.stability == 20.0
    assert c0 == [100.0] and c9[0] == pytest.approx(100.0 / 10 ** 0.101)
    assert a9[0] / a0[0] == pytest.approx((21.0 / 30.0) ** 0.602)
    assert step([0.0], [1], a0, c0, 1.0) == [pytest.approx(25.0)]
    assert step([0.0], [-1], a0, c0, 1.0) == [pytest.approx(-25.0)]


def test_perturbations_are_signs_repeatable_per_iteration() -> None:
    """Signs are +-1, the same for the same (seed, k), and both signs occur."""
    signs = perturbation(3, 7, 50)
    assert set(signs) == {-1, 1} and signs == perturbation(3, 7, 50)
    assert signs != perturbation(3, 8, 50)


def test_spsa_climbs_a_noisy_hill() -> None:
    """On a simulated match whose expected result is the score difference of a concave
    function with its top at (300, -200), SPSA from (0, 0) ends near the top."""
    rng = random.Random(4)
    top = [300.0, -200.0]

    def score(theta: List[float]) -> float:
        return -sum((t - o) ** 2 for t, o in zip(theta, top)) / 400000.0

    iterations = 600
    gains = Gains([100.0, 100.0], iterations, 0.5)
    theta = [0.0, 0.0]
    for k in range(iterations):
        a_k, c_k = gains.at(k)
        delta = perturbation(1, k, 2)
        plus = [t + c * d for t, c, d in zip(theta, c_k, delta)]
        minus = [t - c * d for t, c, d in zip(theta, c_k, delta)]
        result = score(plus) - score(minus) + rng.gauss(0.0, 0.05)
        theta = step(theta, delta, a_k, c_k, result)
    assert abs(theta[0] - 300) < 60 and abs(theta[1] + 200) < 60


def tune(tmp_path: Path, games: int) -> int:
    (tmp_path / "four.map").write_text(FOUR)
    return main(["tune", "--params", "mobility,corner", "--games", str(games), "--pairs", "2",
                 "--maps", str(tmp_path / "four.map"), "--fixed", '{"tt_bits": 8}',
                 "--log", str(tmp_path / "log.jsonl"), "--out", str(tmp_path / "w.json"),
                 "--quiet"])


def test_tune_logs_resumes_and_writes_weights(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Two iterations of 2 pairs: a header and one line per iteration; a run cut after one
    iteration carries on from the log to the same end; the weights file works as
    `--weights @FILE` and in `tournament --variant`."""
    assert tune(tmp_path, 8) == 0
    log = (tmp_path / "log.jsonl").read_text().splitlines()
    header, entries = json.loads(log[0]), [json.loads(line) for line in log[1:]]
    assert header["iterations"] == 2 and [e["k"] for e in entries] == [0, 1]
    assert all(e["games"] == 4 for e in entries)
    assert entries[1]["theta"] == entries[0]["theta_next"]
    weights = json.loads((tmp_path / "w.json").read_text())
    assert sorted(weights) == ["corner", "mobility"]
    (tmp_path / "log.jsonl").write_text("\n".join(log[:2]) + "\n")
    assert tune(tmp_path, 8) == 0
    assert (tmp_path / "log.jsonl").read_text().splitlines() == log
    assert json.loads((tmp_path / "w.json").read_text()) == weights
    player = player_registry.tuned(
        "search", player_registry.read_weights("@%s" % (tmp_path / "w.json"), "--weights"), 1)
    assert isinstance(player, SearchPlayer)
    assert player.config.mobility == tuple(weights["mobility"])
    capsys.readouterr()
    assert main(["tournament", "--maps", str(tmp_path / "four.map"), "--players", "t,brs",
                 "--games", "2", "--depth", "1", "--quiet", "--variant",
                 "t=brs:@%s" % (tmp_path / "w.json")]) == 0


def test_rejects_a_log_of_other_settings(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """A log written for another number of games is not resumed into this run."""
    assert tune(tmp_path, 4) == 0
    assert tune(tmp_path, 8) == 1
    assert "other settings (iterations)" in capsys.readouterr().err


@pytest.mark.parametrize("args", [
    ["--params", "tt_bits", "--games", "10"],
    ["--params", "nonsense", "--games", "10"],
    ["--params", "mobility", "--games", "1"],
    ["--params", "mobility", "--games", "10", "--base", "greedy"],
    ["--params", "mobility", "--games", "10", "--fixed", '{"x": 1}'],
])
def test_rejects_bad_tune_arguments(args: List[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Search switches, unknown fields, too few games, untunable players: usage errors."""
    assert main(["tune"] + args) == 2
    assert "reversi-ref tune:" in capsys.readouterr().err
