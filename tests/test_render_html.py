"""The HTML replay: one self-contained page stepping through a recorded game, checked in a
headless browser when one is installed (RULES.md 3, 5, 7)."""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path
from typing import Any, Dict, List, Optional, Set, Tuple

import pytest

from render_helpers import (BOMB_MAP, OKABE_ITO, SMALL_MAP, first_moves, small_state,
                            trace_of, write_json)
from reversi_ref import parse_map, play
from reversi_ref.cli import main
from reversi_ref.render.html import render_replay
from reversi_ref.render.record import load_record
from reversi_ref.state import GameState, Move

CHROMIUM = next((shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")
                 if shutil.which(name)), None)
BROWSER_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def write_game(tmp_path: Path, moves_wanted: int = 8) -> Tuple[Path, List[Move], List[GameState]]:
    """A short game on the small map, played with the rules, written as a trace."""
    start = small_state()
    moves, states = first_moves(start, moves_wanted)
    path = tmp_path / "game.json"
    write_json(path, trace_of(SMALL_MAP, start, moves, states))
    return path, moves, states


def page_data(html: str) -> Dict[str, Any]:
    """The game data embedded in a replay page."""
    match = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', html,
                      re.S)
    assert match is not None
    data: Dict[str, Any] = json.loads(match.group(1))
    return data


def test_replay_page_holds_every_frame(tmp_path: Path) -> None:
    """One frame per position: the start and each move, with the board after it."""
    path, moves, states = write_game(tmp_path)
    html = render_replay(load_record(path))
    data = page_data(html)
    frames = data["frames"]
    assert len(frames) == len(moves) + 1
    assert frames[0]["b"] == "".join(small_state().board)
    for frame, state in zip(frames[1:], states):
        assert frame["b"] == "".join(state.board)
    assert "Move 1 of %d" % len(moves) in frames[1]["i"]


def test_replay_page_is_self_contained(tmp_path: Path) -> None:
    """No network: no external scripts, styles, images or links."""
    path, _, _ = write_game(tmp_path)
    html = render_replay(load_record(path))
    assert "<script src" not in html and "<link" not in html and "<img" not in html
    addresses = set(re.findall(r"https?://[^\s\"'<>]+", html))
    assert addresses <= {"http://www.w3.org/2000/svg"}


def test_replay_page_lists_bombs(tmp_path: Path) -> None:
    """RULES.md 5: a bomb move is described with the cells it destroyed and is marked."""
    state = parse_map(BOMB_MAP)
    path = tmp_path / "bomb.json"
    write_json(path, trace_of(BOMB_MAP, state, [Move(0, 0)], [play(state, Move(0, 0))]))
    data = page_data(render_replay(load_record(path)))
    assert "bomb destroys 4 cells" in data["frames"][1]["i"]
    assert "phase 2 (bombing)" in data["frames"][1]["i"]


def test_replay_last_frame_names_the_winner() -> None:
    """RULES.md 7: the last frame of a finished game names the winner, or the tie; the
    play button's script says "pause" while playing."""
    from reversi_ref.match import Game, run_match
    from reversi_ref.players import get
    from reversi_ref.render.record import replay_trace
    state = small_state()
    game = Game(state, SMALL_MAP)
    run_match(game, {1: get("greedy"), 2: get("random", 4), 3: get("greedy")})
    frames = page_data(render_replay(replay_trace(game.trace)))["frames"]
    final = {int(p): n for p, n in game.trace["final"]["scores"].items()
             if n != "disqualified"}
    best = max(final.values())
    first = [p for p, n in sorted(final.items()) if n == best]
    if len(first) == 1:
        line = "Winner: player %d with %d stone%s" % (first[0], best, "" if best == 1 else "s")
    else:
        line = "Tie: players %s and %d" % (", ".join(map(str, first[:-1])), first[-1])
    assert line in frames[-1]["i"]
    assert all('class="winner"' not in f["i"] for f in frames[:-1])
    assert 'textContent = "pause"' in render_replay(replay_trace(game.trace))


def test_replay_command_rejects_a_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`reversi-ref replay` needs a trace; a map is a one-line error."""
    source = tmp_path / "small.map"
    source.write_text(SMALL_MAP)
    assert main(["replay", str(source), "-o", str(tmp_path / "x.html")]) == 1
    assert "not a JSON trace" in capsys.readouterr().err


# --------------------------------------------------------------------------- in a browser


def browser(args: List[str], url: str, timeout: float = 60.0) -> str:
    """Run headless Chromium on `url` with `args`; its standard output."""
    assert CHROMIUM is not None
    with tempfile.TemporaryDirectory() as profile:
        result = subprocess.run(
            [CHROMIUM] + BROWSER_FLAGS + ["--user-data-dir=%s" % profile] + args + [url],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, check=False)
    return result.stdout.decode("utf-8", "replace")


def png_pixels(data: bytes) -> Tuple[int, int, List[bytes]]:
    """Width, height and the pixels (RGB or RGBA bytes) of an 8-bit non-interlaced PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    offset, chunks, header = 8, [], b""
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        offset += 12 + length
    width, height, depth, color_type, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and interlace == 0 and color_type in (2, 6)
    channels = 3 if color_type == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows: List[bytearray] = []
    previous = bytearray(stride)
    position = 0
    for _ in range(height):
        kind_byte = raw[position]
        line = bytearray(raw[position + 1:position + 1 + stride])
        position += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind_byte == 1:
                line[i] = (line[i] + left) & 255
            elif kind_byte == 2:
                line[i] = (line[i] + up) & 255
            elif kind_byte == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind_byte == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[i] = (line[i] + predictor) & 255
        rows.append(line)
        previous = line
    pixels = [bytes(row[i:i + 3]) for row in rows for i in range(0, stride, channels)]
    return width, height, pixels


def screenshot(page: Path, frame: int, out: Path) -> Optional[bytes]:
    """A screenshot of the replay page at `frame`, or None when the browser made none."""
    browser(["--window-size=600,450", "--screenshot=%s" % out],
            "%s#frame=%d" % (page.as_uri(), frame))
    return out.read_bytes() if out.exists() else None


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed")
def test_browser_steps_to_a_frame_given_in_the_url(tmp_path: Path) -> None:
    """The page's script shows the frame named by #frame=N: its description and the stones
    of the position after N moves, in the players' colours."""
    path, moves, states = write_game(tmp_path)
    page = tmp_path / "game.html"
    assert main(["replay", str(path), "-o", str(page)]) == 0
    n = 3
    dom = browser(["--dump-dom", "--virtual-time-budget=3000"], "%s#frame=%d" % (page.as_uri(), n))
    assert "Move %d of %d" % (n, len(moves)) in dom
    state = states[n - 1]
    # Each cell <g id="cI"> holds the stone of the position after move n.
    for index, cell in enumerate(state.board):
        match = re.search(r'<g class="cell" id="c%d"[^>]*>(.*?)</g>' % index, dom)
        assert match is not None
        if cell in "123":
            assert 'class="stone p%s"' % cell in match.group(1), (index, cell)
            assert OKABE_ITO[int(cell)] in match.group(1)
        else:
            assert "stone" not in match.group(1), (index, cell)
    last = moves[n - 1]
    assert 'class="mark last"' in dom
    assert "plays (%d, %d)" % (last.x, last.y) in dom


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed")
def test_browser_keys_and_slider_step_through_frames(tmp_path: Path) -> None:
    """Arrow keys, Home/End and the slider move between frames (events sent by a script
    appended to a copy of the page)."""
    path, moves, _ = write_game(tmp_path)
    page = tmp_path / "game.html"
    assert main(["replay", str(path), "-o", str(page)]) == 0
    steps = {
        "key('ArrowRight'); key('ArrowRight');": 2,
        "key('End'); key('ArrowLeft');": len(moves) - 1,
        "key('End'); key('Home'); key('ArrowDown');": min(10, len(moves)),
        "var s = document.getElementById('slider'); s.value = 4;"
        "s.dispatchEvent(new Event('input'));": 4,
    }
    record = "seen.push(document.getElementById('counter').textContent.split(' ')[0]);"
    probe = ("<script>function key(k) { document.dispatchEvent(new KeyboardEvent('keydown', "
             "{key: k})); }\nvar seen = [];\n%s\ndocument.title = 'at ' + seen.join(',');"
             "</script></body>" % "\n".join(a + record for a in steps))
    copy = tmp_path / "probe.html"
    copy.write_text(page.read_text(encoding="utf-8").replace("</body>", probe), encoding="utf-8")
    dom = browser(["--dump-dom", "--virtual-time-budget=3000"], copy.as_uri())
    want = ",".join(str(n) for n in steps.values())
    assert "<title>at %s</title>" % want in dom


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed")
def test_browser_screenshot_is_not_blank(tmp_path: Path) -> None:
    """Screenshots of two frames show a picture (many colours) and differ."""
    path, _, _ = write_game(tmp_path)
    page = tmp_path / "game.html"
    assert main(["replay", str(path), "-o", str(page)]) == 0
    first = screenshot(page, 0, tmp_path / "first.png")
    later = screenshot(page, 6, tmp_path / "later.png")
    assert first is not None and later is not None
    width, height, pixels = png_pixels(later)
    assert (width, height) == (600, 450)
    colours: Set[bytes] = set(pixels)
    assert len(colours) > 50
    # The players' colours are on the screen.
    for player in (1, 2):
        rgb = bytes.fromhex(OKABE_ITO[player][1:])
        assert rgb in colours, player
    assert png_pixels(first)[2] != pixels
