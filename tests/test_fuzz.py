"""`reversi-ref fuzz`: generation, differential games, shrinking, golden-case output.

The maps must cover RULES.md's features (checked here by the test's own reading of the maps),
a seed must give the same games on any interpreter and hash seed, the reference must pass,
a broken engine must be found, and a shrunk failure must still fail the same way and be a
golden case that `conform` runs.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Set

import pytest

from reversi_ref.cli import main
from reversi_ref.conform import load_case_files, run_suite
from reversi_ref.fuzz import Shrinker, generate_map, generated_game, play_game, run_generated
from reversi_ref.fuzz.play import Script
from reversi_ref.fuzz.shrink import fewer_rows
from reversi_ref.geometry import DIRECTIONS
from reversi_ref.mapfile import format_map, read_map
from reversi_ref.rules import initial_state
from reversi_ref.specs.codec import JSONObject, SpecError
from reversi_ref.specs.judge import FAIL
from reversi_ref.specs.oracle import MapCache, answer
from reversi_ref.state import OVER

ROOT = Path(__file__).resolve().parents[1]
# Adapter processes start often here; under PyPy, CPython starts them faster (no cold JIT).
ADAPTER_PYTHON = (shutil.which("python3") if "PyPy" in sys.version else None) or sys.executable
SEEDED = "%s %s" % (ADAPTER_PYTHON, ROOT / "tests" / "buggy_adapters" / "seeded.py")
REFERENCE = "%s -m reversi_ref.adapters.reference" % ADAPTER_PYTHON


def reference() -> Any:
    """The readable rules answering in this process."""
    cache = MapCache()
    return lambda request: answer(request, cache)


def uncharged_overrides() -> Any:
    """An in-process engine with a bug: a move onto a stone or x costs no override stone."""
    ask = reference()

    def buggy(request: JSONObject) -> Any:
        result = ask(request)
        state = request.get("state")
        move = request.get("move")
        if request.get("kind") == "apply" and "state" in result and state and move:
            row = state["board"][move[1]]
            if row[move[0]] in "12345678x":
                result["state"]["overrides"] = list(state["overrides"])
        return result
    return buggy


# --------------------------------------------------------------------------- generation


def test_maps_cover_the_features_of_the_rules() -> None:
    """RULES.md 1-5: over 200 maps of one seed, every size class, player count, tile, kind of
    transition and count extreme appears, and some games cannot start normally."""
    seen: Set[str] = set()
    for game in range(200):
        game_map = generate_map(random.Random(game))
        assert read_map(format_map(game_map)) == game_map
        h, w = game_map.height, game_map.width
        seen.add("players-%d" % game_map.players)
        seen.update("cell-" + c for c in set(game_map.cells))
        if (h, w) == (1, 1):
            seen.add("1x1")
        if max(h, w) >= 40:
            seen.add("large")
        for name, value in (("overrides", game_map.overrides), ("bombs", game_map.bombs),
                            ("strength", game_map.strength)):
            if value in (0, 255):
                seen.add("%s-%d" % (name, value))
        rows = [game_map.cells[y * w:(y + 1) * w] for y in range(h)]
        if h > 2 and any(all(c == "-" for c in row) for row in rows[1:-1]):
            seen.add("wall-of-holes")
        used = {side for t in game_map.transitions for side in t.sides}
        for t in game_map.transitions:
            a, b = t.sides
            # Walking out through a lands on b's cell heading away from b's side; a chain
            # when another transition waits on that side.
            if a != b and (b[0], b[1], (b[2] + 4) % 8) in used:
                seen.add("chain")
            if a == b:
                seen.add("self-joined")
            elif a[1] == b[1] and {a[2], b[2]} == {2, 6} and {a[0], b[0]} == {0, w - 1}:
                seen.add("wrap")
            else:
                # The far end lies beyond holes, straight on from the near end.
                dx, dy = DIRECTIONS[a[2]]
                x, y = a[0] + dx, a[1] + dy
                hops = 0
                while 0 <= x < w and 0 <= y < h and game_map.cells[y * w + x] == "-":
                    x, y, hops = x + dx, y + dy, hops + 1
                if hops and (x, y) == (b[0], b[1]):
                    seen.add("jump")
        start = initial_state(game_map)
        if start.phase == OVER:
            seen.add("over-at-start")
        elif start.to_move != 1:
            seen.add("player-1-cannot-move")
    wanted = {"players-%d" % n for n in range(2, 9)} | {
        "cell-" + c for c in "012-cibx"} | {
        "1x1", "large", "overrides-0", "overrides-255", "bombs-0", "bombs-255", "strength-0",
        "self-joined", "wrap", "jump", "chain", "wall-of-holes", "over-at-start",
        "player-1-cannot-move"}
    assert wanted <= seen, sorted(wanted - seen)


GENERATE = ("import json\nfrom reversi_ref.fuzz import generated_game, play_game\n"
            "from reversi_ref.specs.oracle import answer\n"
            "def short(g):\n"
            "    script, chooser = generated_game(7, g); chooser.max_steps = 12\n"
            "    run = play_game(script, answer, chooser)\n"
            "    return [run.script.map_text, list(run.script.steps)]\n"
            "print(json.dumps([short(g) for g in range(4)]))")


def _generated_elsewhere(interpreter: str, hash_seed: str) -> Any:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(ROOT))
    done = subprocess.run([interpreter, "-c", GENERATE], stdout=subprocess.PIPE, env=env,
                          cwd=str(ROOT), check=True, timeout=120)
    return json.loads(done.stdout)


def test_same_seed_gives_the_same_games_anywhere() -> None:
    """A seed and a game number give the same map and steps in this process and in another
    process with another string-hash seed, run by the other interpreter (PyPy from CPython,
    CPython from PyPy) when it is installed."""
    here = []
    for game in range(4):
        script, chooser = generated_game(7, game)
        chooser.max_steps = 12
        run = play_game(script, reference(), chooser)
        here.append([run.script.map_text, list(run.script.steps)])
    assert len({text for text, _ in here}) == 4
    assert any(steps for _, steps in here)
    # This process hashes strings with a random seed; the other one with a fixed seed.
    other = shutil.which("python3" if "PyPy" in sys.version else "pypy3")
    assert _generated_elsewhere(other or sys.executable, "12345") == here


def test_features_bias_the_maps() -> None:
    """--features transitions,choice gives more transitions and choice tiles."""
    def totals(features: Any) -> List[int]:
        maps = [generated_game(3, g, features)[0].map_text for g in range(60)]
        parsed = [read_map(text) for text in maps]
        return [sum(len(m.transitions) for m in parsed),
                sum(m.cells.count("c") for m in parsed)]
    plain, biased = totals(frozenset()), totals(frozenset({"transitions", "choice"}))
    assert biased[0] > plain[0] and biased[1] > plain[1]


# --------------------------------------------------------------------------- differential


def test_reference_passes_fuzzed_games() -> None:
    """The readable rules agree with themselves on 4 fuzzed games (nothing to report)."""
    for game in range(4):
        run = run_generated(11, game, reference())
        assert run.failure is None, run.failure.verdict.detail if run.failure else ""
        assert run.checks >= 2


def test_in_process_bug_is_found_and_shrunk() -> None:
    """RULES.md 3 (override cost): a failing game shrinks to a smaller one that still fails
    with the same rule id and kind of difference, and that the rules themselves pass."""
    buggy = uncharged_overrides()
    found = None
    for game in range(200):
        found = run_generated(5, game, buggy)
        if found.failure is not None:
            break
    assert found is not None and found.failure is not None
    assert found.failure.signature == ("apply", "3.override-cost", "state: overrides")
    shrunk = Shrinker(buggy, found.failure.signature, seconds=60).shrink(found)
    assert shrunk.failure is not None
    assert shrunk.failure.signature == found.failure.signature
    before, after = read_map(found.script.map_text), read_map(shrunk.script.map_text)
    assert after.height * after.width <= before.height * before.width
    assert shrunk.failure.moves <= found.failure.moves
    assert after.height * after.width <= 100 and shrunk.failure.moves <= 10
    # Replayed on its own it fails the same way; the rules pass it.
    again = play_game(shrunk.script, buggy)
    assert again.failure is not None and again.failure.signature == found.failure.signature
    assert play_game(shrunk.script, reference()).failure is None
    # The failing answer really is wrong: the move was onto a stone or x, and the bug kept
    # the mover's override count where the rules charge one.
    case = shrunk.failure.case
    x, y, _ = case["query"]["move"]
    assert case["state"]["board"][y][x] in "12345678x"
    mover = case["state"]["to_move"]
    assert case["expected"]["state"]["overrides"][mover - 1] == \
        case["state"]["overrides"][mover - 1] - 1


def test_seeded_bug_is_found_shrunk_and_written(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The command finds a seeded bug with a fixed seed, prints the command reproducing the
    game alone and a board diff, and writes a golden case that conform fails with the bug and
    passes with the reference."""
    engine = "%s overrides-not-charged" % SEEDED
    code = main(["fuzz", "--engine", engine, "--seed", "1", "--games", "40",
                 "--out", str(tmp_path), "--shrink-time", "30"])
    printed = capsys.readouterr().out
    assert code == 1
    assert "rule 3.override-cost" in printed
    assert "--seed 1 --game " in printed
    assert "expected" in printed and "engine" in printed and " 0 1" in printed
    files = sorted(tmp_path.glob("*.jsonl"))
    assert len(files) == 1
    cases = load_case_files([str(files[0])])
    assert [c["basis"] for c in cases] == ["fuzz"]
    assert cases[0]["rule"] == "3.override-cost"
    assert [r.verdict.status for r in run_suite(engine, cases, timeout=30)] == [FAIL]
    # --game K replays that game alone, with the same failure.
    game = int(printed.split("--seed 1 --game ")[1].split()[0])
    code = main(["fuzz", "--engine", engine, "--seed", "1", "--game", str(game),
                 "--out", str(tmp_path / "again"), "--no-shrink"])
    assert code == 1
    assert "FAIL game %d (seed 1): apply, rule 3.override-cost" % game in capsys.readouterr().out


def test_conform_runs_case_files_and_the_fuzz_basis(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """conform --cases takes a file of cases (basis fuzz allowed), and rejects a bad file."""
    case = {"id": "captures/fuzz-s1-g0/legal-moves-01", "area": "captures",
            "rule": "3.legal-targets", "basis": "fuzz", "description": "fuzz: a case",
            "map": "2\n0\n0 0\n1 3\n0 1 2\n", "state": None,
            "query": {"kind": "legal_moves"}, "expected": {"moves": [[0, 0, 0]]}}
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps(case) + "\n", encoding="utf-8")
    assert main(["conform", "--cases", str(good), "--basis", "fuzz", "--list"]) == 0
    assert "captures/fuzz-s1-g0/legal-moves-01" in capsys.readouterr().out
    # Worked by hand: player 1 cannot capture anywhere, so player 2 starts (RULES.md 4) and
    # captures the 1 by placing on (0, 0).
    assert main(["conform", "--cases", str(tmp_path), "--engine", REFERENCE]) == 0
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\n', encoding="utf-8")
    with pytest.raises(SpecError):
        load_case_files([str(bad)])


def test_rejects_unknown_features(capsys: pytest.CaptureFixture[str]) -> None:
    """A feature name that does not exist is a usage error naming the argument."""
    with pytest.raises(SystemExit) as stop:
        main(["fuzz", "--engine", "true", "--features", "transitions,teleports"])
    assert stop.value.code == 2
    assert "--features" in capsys.readouterr().err


# --------------------------------------------------------------------------- self-use


@pytest.mark.slow
@pytest.mark.parametrize("features", ["", "transitions,choice", "bombs,holes,wrap",
                                      "players,illegal,disqualify", "large"])
def test_fast_engine_agrees_with_the_rules_on_fuzzed_games(features: str) -> None:
    """The fast engine (reference --fast, in process) against the readable rules: 200 fuzzed
    games per feature mix, every answer compared."""
    from reversi_ref.adapters.reference import FastAnswerer

    fast = FastAnswerer()
    chosen = frozenset(f for f in features.split(",") if f)
    failures: Dict[int, str] = {}
    for game in range(200):
        run = run_generated(2024, game, fast, chosen)
        if run.failure is not None:
            failures[game] = run.failure.verdict.detail
    assert not failures, failures


def test_shrinking_a_row_moves_steps_and_transitions_with_the_cells() -> None:
    """Removing a row shifts the moves and transitions below it, and drops those on it."""
    text = "2\n0\n0 0\n3 3\n0 0 0\n0 1 2\n0 0 0\n0 2 4 <-> 2 2 4\n"
    steps = ({"move": [1, 2, 0]}, {"disqualify": 2}, {"move": [0, 0, 0]})
    candidates = list(fewer_rows(Script(text, steps)))
    assert len(candidates) == 3  # row 0, row 1 and row 2 removed in turn
    without_top, without_middle, without_bottom = candidates
    # Row 0 gone: everything moves up one row, the move onto row 0 is left out.
    assert read_map(without_top.map_text).transitions[0] == (0, 1, 4, 2, 1, 4)
    assert without_top.steps == ({"move": [1, 1, 0]}, {"disqualify": 2})
    assert [r.split() for r in without_top.map_text.splitlines()[4:6]] == [
        ["0", "1", "2"], ["0", "0", "0"]]
    # Row 1 gone: the stones go with it; the transition on row 2 moves up.
    assert read_map(without_middle.map_text).transitions[0] == (0, 1, 4, 2, 1, 4)
    # Row 2 gone: the transition and the move on it are left out.
    assert read_map(without_bottom.map_text).transitions == ()
    assert without_bottom.steps == ({"disqualify": 2}, {"move": [0, 0, 0]})
