"""`bombing-maps` and `phase1-maps`: phase-1 playouts written as maps whose game starts at the
first bomb, or late in phase 1."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional, Tuple

import pytest

from reversi_ref import bombmaps, initial_state, legal_moves
from reversi_ref.bombmaps import (bombing_map_text, phase1_map_text, play_phase1,
                                  play_until_filled)
from reversi_ref.cli import main
from reversi_ref.engine.core import Engine
from reversi_ref.geometry import Map
from reversi_ref.mapfile import read_map, read_map_file
from reversi_ref.state import BOMB, BUILD

MAPS = Path(__file__).resolve().parent.parent / "maps"


@pytest.mark.parametrize("name", ["sparks3p", "carnival4p", "hexagon6p"])
@pytest.mark.parametrize("seed", [0, 1])
def test_playout_map_starts_in_the_bombing_phase(name: str, seed: int) -> None:
    """RULES.md 3, 5: the written board is the playout's, with no override stone in hand; the
    readable rules then find no building move for anyone and start with player 1's bomb."""
    game_map = read_map_file(MAPS / (name + ".map"))
    engine = play_phase1(game_map, seed)
    assert engine is not None
    text = bombing_map_text(engine)
    assert text is not None
    written = read_map(text)
    header = text.split("\n")[:3]
    assert header[0] == str(game_map.players) and header[1] == "0"
    assert header[2].split()[1] == str(game_map.strength)
    assert written.cells == engine.to_state().board
    state = initial_state(written)
    assert state.phase == BOMB and state.to_move == 1
    assert legal_moves(state)
    assert text == bombing_map_text(play_phase1(game_map, seed))  # type: ignore[arg-type]


def test_map_without_bombs_writes_nothing() -> None:
    """A playout where nobody ends phase 1 with a bomb has no bombing phase to write."""
    engine = play_phase1(read_map_file(MAPS / "sparks3p.map"), 0)
    assert engine is not None
    for p in range(1, engine.players + 1):
        engine.bombs[p] = 0
    assert bombing_map_text(engine) is None


def test_command_writes_the_good_maps_and_names_the_bad_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A map that cannot be read is named on stderr and left out; the others are written and
    the exit code says something was left out."""
    bad = tmp_path / "bad.map"
    bad.write_text("3\n1\n1 1\n2 2\n1 2\n")
    out = tmp_path / "out"
    code = main(["bombing-maps", str(out), "sparks3p", str(bad), str(tmp_path / "none.map"),
                 "--playouts", "1"])
    assert code == 1
    err = capsys.readouterr().err
    assert "bad.map" in err and "none.map" in err and "Traceback" not in err
    assert [p.name for p in out.iterdir()] == ["sparks3p_s0.map"]
    assert (out / "sparks3p_s0.map").read_text() == bombing_map_text(
        play_phase1(read_map_file(MAPS / "sparks3p.map"), 0))  # type: ignore[arg-type]


def test_output_directory_that_is_a_file_is_an_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """OUT_DIR naming a file: one line saying so, exit 1, no traceback."""
    taken = tmp_path / "taken"
    taken.write_text("")
    assert main(["bombing-maps", str(taken), "sparks3p"]) == 1
    err = capsys.readouterr().err
    assert "cannot make" in err and "taken" in err and "Traceback" not in err


@pytest.mark.parametrize("name", ["sparks3p", "carnival4p"])
@pytest.mark.parametrize("seed", [2, 5])  # a greedy and a random playout, every player left
def test_phase1_map_is_the_playout_board_at_the_fill(name: str, seed: int) -> None:
    """`phase1-maps`: the playout stops once it has placed stones on at least `fill` per cent
    of the cells free at the start (counted here on the readable rules' boards), and the
    written map holds that board, every player the fewest override stones any holds, with a
    building move to play (RULES.md 3)."""
    game_map = read_map_file(MAPS / (name + ".map"))
    engine = play_until_filled(game_map, seed, 60)
    assert engine is not None
    text = phase1_map_text(engine)
    assert text is not None
    start = initial_state(game_map)
    state = engine.to_state()
    free = sum(1 for c in start.board if c in ("0", "c", "i", "b"))
    stones = [sum(1 for c in board if c.isdigit() and c != "0")
              for board in (start.board, state.board)]
    assert free * 60 <= (stones[1] - stones[0]) * 100 < free * 60 + 100 * game_map.players
    assert text.split("\n")[1] == str(min(state.overrides))
    written = read_map(text)
    assert written.cells == state.board
    position = initial_state(written)
    assert position.phase == BUILD and legal_moves(position)
    assert text == phase1_map_text(play_until_filled(game_map, seed, 60))  # type: ignore[arg-type]


# Three players on a 4x4 board; player 3's only stone is the one in the corner.
WITH_EVERY_PLAYER = """3
0
0 0
4 4
0 0 0 0
0 1 2 0
0 2 1 0
0 0 0 3
"""


def test_a_player_without_stones_writes_nothing() -> None:
    """A position where some player has no stone on the board is left out: in that seat the
    game would be decided by the others alone.  The same board with the stone is written."""
    engine = Engine(read_map(WITH_EVERY_PLAYER))
    assert phase1_map_text(engine) is not None
    engine = Engine(read_map(WITH_EVERY_PLAYER.replace("0 0 0 3", "0 0 0 0")))
    assert phase1_map_text(engine) is None


def test_swap_tiles_keeps_only_positions_with_a_tile_left() -> None:
    """With the swap tiles named, a board without choice or inversion tiles writes nothing."""
    engine = play_until_filled(read_map_file(MAPS / "othello8x8.map"), 0, 50)
    assert engine is not None
    assert phase1_map_text(engine) is not None
    assert phase1_map_text(engine, tiles="ci") is None
    tiled = play_until_filled(read_map_file(MAPS / "carnival4p.map"), 0, 10)
    assert tiled is not None and phase1_map_text(tiled, tiles="ci") is not None


# Three players, one choice tile and no inversion tile left.
CHOICE_ONLY = """3
0
0 0
4 4
0 1 2 0
0 2 1 0
3 c 0 0
0 0 0 0
"""


def test_inversion_tiles_need_an_inversion_tile() -> None:
    """Naming the inversion tile alone leaves out a position whose only tile is a choice
    tile, which the swap tiles keep; with an inversion tile instead it is written."""
    choice = Engine(read_map(CHOICE_ONLY))
    assert phase1_map_text(choice, tiles="ci") is not None
    assert phase1_map_text(choice, tiles="i") is None
    inversion = Engine(read_map(CHOICE_ONLY.replace("3 c", "3 i")))
    assert phase1_map_text(inversion, tiles="i") is not None


def test_tile_flags_choose_the_tiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """`--swap-tiles` asks for choice or inversion tiles, `--inversion-tiles` for inversion
    tiles, neither for none; both at once is a usage error."""
    asked: List[str] = []

    def record(game_map: Map, playouts: int, fill: int, tiles: str = ""
               ) -> List[Tuple[int, Optional[str]]]:
        asked.append(tiles)
        return []

    monkeypatch.setattr(bombmaps, "phase1_maps", record)
    command = ["phase1-maps", str(tmp_path), "sparks3p", "--fill", "60"]
    for flags in ([], ["--swap-tiles"], ["--inversion-tiles"]):
        assert main(command + flags) == 0
    assert asked == ["", "ci", "i"]
    with pytest.raises(SystemExit) as stop:
        main(command + ["--swap-tiles", "--inversion-tiles"])
    assert stop.value.code == 2
    assert "not allowed with" in capsys.readouterr().err


def test_phase1_command_and_its_bad_fill(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The command writes NAME_sSEED.map as `phase1_map_text` gives it; a fill outside 1..99
    is a usage error with one line, no traceback."""
    out = tmp_path / "out"
    assert main(["phase1-maps", str(out), "sparks3p", "--fill", "60", "--playouts", "1"]) == 0
    assert (out / "sparks3p_s0.map").read_text() == phase1_map_text(
        play_until_filled(read_map_file(MAPS / "sparks3p.map"), 0, 60))  # type: ignore[arg-type]
    with pytest.raises(SystemExit) as stop:
        main(["phase1-maps", str(out), "sparks3p", "--fill", "100"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--fill" in err and "Traceback" not in err
