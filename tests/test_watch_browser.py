"""The live page in real headless Chromium, driven through chromedriver's WebDriver HTTP API
(standard library only): a spectator watches a networked game from its first move to the
ranking, and a person plays a whole game by clicking (RULES.md 3-8).  What is asserted is read
from the rendered page: the stones drawn, the score table and the winner line.

Skipped when chromium or chromedriver is not installed (and the default ones under PyPy: the
page does not depend on the interpreter).  The 50 x 50 screenshots and the
drawing-time measurement of docs/watch.md are `slow`.
"""

from __future__ import annotations

import base64
import json
import os
import platform
import random
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest

from reversi_ref import parse_map
from reversi_ref.cli import main
from reversi_ref.client import Client
from reversi_ref.human import Desk, HumanPlayer
from reversi_ref.match import Game, run_match
from reversi_ref.players import Player, get
from reversi_ref.referee import Referee
from reversi_ref.watch import Hub, watch_client, watch_referee
from helpers import OTHELLO6_WITH_BOMBS

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = next((shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")
                 if shutil.which(name)), None)
CHROMEDRIVER = shutil.which("chromedriver")
BROWSER_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                 "--disable-dev-shm-usage"]
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the W3C WebDriver element key

pytestmark = pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                                reason="chromium or chromedriver not installed")
# The page's behaviour does not depend on the interpreter serving it: the default browser
# tests run under CPython only, which keeps PyPy's default run short.
CPYTHON_ONLY = pytest.mark.skipif(platform.python_implementation() == "PyPy",
                                  reason="the default browser tests run under CPython")

SMALL = OTHELLO6_WITH_BOMBS

# 4 x 4 Othello start, one bomb of strength 0 each: a person's game of a few clicks.
TINY = """2
0
1 0
4 4
0 0 0 0
0 1 2 0
0 2 1 0
0 0 0 0
"""


class WebDriver:
    """A headless Chromium session through chromedriver's HTTP API."""

    def __init__(self, profile: str, width: int = 1200, height: int = 900) -> None:
        assert CHROMEDRIVER is not None and CHROMIUM is not None
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.process = subprocess.Popen([CHROMEDRIVER, "--port=%d" % port],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = "http://127.0.0.1:%d" % port
        self.session = ""
        for _ in range(200):
            try:
                if self.call("GET", "/status").get("ready"):
                    break
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.05)
        options = {"binary": CHROMIUM, "args": BROWSER_FLAGS + [
            "--user-data-dir=%s" % profile, "--window-size=%d,%d" % (width, height)]}
        answer = self.call("POST", "/session", {"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": options}}})
        self.session = "/session/" + answer["sessionId"]

    def call(self, method: str, path: str, body: Optional[Dict[str, Any]] = None) -> Any:
        """One WebDriver command; its `value`."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self.base + path, data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return json.loads(answer.read().decode("utf-8"))["value"]
        except urllib.error.HTTPError as error:
            detail = error.read()[:500].decode("utf-8", "replace")
            raise AssertionError("WebDriver %s %s: %s" % (method, path, detail)) from None

    def open(self, url: str) -> None:
        """Load `url`."""
        self.call("POST", self.session + "/url", {"url": url})

    def run(self, script: str, *args: Any) -> Any:
        """The value of `script` (a function body) run in the page."""
        return self.call("POST", self.session + "/execute/sync",
                         {"script": script, "args": list(args)})

    def click(self, selector: str) -> None:
        """Click the element matching the CSS `selector`, as a user would."""
        found = self.call("POST", self.session + "/element",
                          {"using": "css selector", "value": selector})
        self.call("POST", "%s/element/%s/click" % (self.session, found[ELEMENT]), {})

    def wait(self, script: str, timeout: float = 30.0) -> Any:
        """Poll `script` until it returns something true; that value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.run(script)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError("timed out waiting for: %s (page: %s)" % (
                    script, self.run('return document.body.innerText;')[:1500]))
            time.sleep(0.03)

    def screenshot(self) -> bytes:
        """A PNG of the window."""
        return base64.b64decode(self.call("GET", self.session + "/screenshot"))

    def quit(self) -> None:
        """End the session and chromedriver."""
        try:
            self.call("DELETE", self.session)
        finally:
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture(scope="module")
def driver() -> Iterator[WebDriver]:
    """One browser for the module's tests."""
    with tempfile.TemporaryDirectory() as profile:
        session = WebDriver(profile)
        try:
            yield session
        finally:
            session.quit()


# What the page shows, read from its DOM.
READ_PAGE = """
var out = {stones: {}, table: {}, winner: null, status: "", counter: "", out: []};
document.querySelectorAll("#board .cells .stone").forEach(function (s) {
  var p = s.getAttribute("class").split(" p")[1];
  out.stones[p] = (out.stones[p] || 0) + 1;
});
document.querySelectorAll("#info tr[data-player]").forEach(function (r) {
  out.table[r.getAttribute("data-player")] = +r.querySelector("td.stones").textContent;
  if (r.className.indexOf("out") >= 0) { out.out.push(r.getAttribute("data-player")); }
});
var w = document.querySelector("#info .winner");
out.winner = w ? w.textContent : null;
var st = document.getElementById("status");
out.status = st ? st.textContent : "";
out.counter = document.getElementById("counter").textContent;
out.info = document.getElementById("info").textContent;
return out;
"""


def expected_winner_line(stones: Dict[str, int]) -> str:
    """The winner line for these stone counts, worked out here (RULES.md 7)."""
    best = max(stones.values())
    first = sorted(int(p) for p, n in stones.items() if n == best)
    if len(first) == 1:
        return "Winner: player %d with %d stones" % (first[0], best)
    return "Tie: players %s and %d with %d stones each" % (
        ", ".join(str(p) for p in first[:-1]), first[-1], best)


def start_game(referee: Referee, clients: List[Client]) -> List[threading.Thread]:
    """Run `referee` and `clients` on their own threads."""
    port = referee.port or referee.listen()
    threads = [threading.Thread(target=referee.run, daemon=True)]
    threads += [threading.Thread(target=c.run, args=("127.0.0.1", port), daemon=True)
                for c in clients]
    for thread in threads:
        thread.start()
    return threads


@CPYTHON_ONLY
def test_watch_a_game_from_first_move_to_ranking(driver: WebDriver) -> None:
    """`serve --watch`: the page, opened before the clients connect, reconnects after its
    stream is cut and follows every move to the end; the stones drawn, the score table and
    the winner line agree with the referee's final scores, and stepping back shows the start
    and the first move."""
    referee = Referee(SMALL.encode(), parse_map(SMALL), time_limit=10, port=0, quiet=True)
    referee.listen()
    watch = watch_referee(referee, "127.0.0.1:0")
    try:
        driver.open(watch.url)
        driver.wait('return document.getElementById("status").textContent === '
                    '"live: connected";')
        initial = driver.run(READ_PAGE)
        # A network hiccup: the server ends the page's event stream; the page reconnects
        # by itself (EventSource, Last-Event-ID) and goes on from where it was.
        hub = watch.hub
        for spectator in list(hub.spectators):
            spectator.offer(None)
        driver.wait('return document.getElementById("status").className === "lost";', 10)
        driver.wait('return document.getElementById("status").textContent === '
                    '"live: connected";', 10)
        assert len(hub.spectators) == 1
        threads = start_game(referee, [Client(get("greedy")), Client(get("random", 7))])
        driver.wait('return document.getElementById("status").textContent'
                    '.indexOf("game over") === 0;')
        for thread in threads:
            thread.join(30)
        final = referee.game.trace["final"]["scores"]
        page = driver.wait("var r = (function () {%s})(); return r.winner && r;" % READ_PAGE)
        moves = len(referee.game.trace["moves"])
        assert page["counter"] == "%d / %d" % (moves, moves)
        assert page["table"] == {p: n for p, n in final.items()}
        assert {p: page["stones"].get(p, 0) for p in final} == page["table"]
        assert page["winner"] == expected_winner_line(page["table"])
        assert page["status"] == "game over: " + page["winner"]
        assert "bank" in page["info"] and " ms" in page["info"]
        # Back to the start, then one move forward.
        driver.click("#first")
        start = driver.run(READ_PAGE)
        assert start["counter"] == "0 / %d" % moves and start["info"].startswith("Start")
        assert start["stones"] == initial["stones"]
        first = referee.game.trace["moves"][0]
        driver.click("#next")
        assert driver.run(READ_PAGE)["info"].startswith("Move 1,")
        index = first["y"] * referee.game.state.width + first["x"]
        assert driver.run('return document.querySelectorAll("#board .marks .last").length;') == 1
        assert driver.run('return document.querySelector("#c%d .stone").getAttribute("class");'
                          % index) == "stone p%d" % first["player"]
    finally:
        watch.close()


LEGAL_CELLS = """
var D = JSON.parse(document.getElementById("board-data").textContent), cells = [];
document.querySelectorAll("#board .marks .legal").forEach(function (m) {
  var t = /translate\\(([-0-9.]+) ([-0-9.]+)\\)/.exec(m.parentNode.getAttribute("transform"));
  var x = Math.round((+t[1] - D.origin) / D.cell), y = Math.round((+t[2] - D.origin) / D.cell);
  cells.push(y * D.width + x);
});
return cells;
"""


@CPYTHON_ONLY
def test_play_a_human_game_by_clicking(driver: WebDriver) -> None:
    """`reversi-ref human` against greedy: an illegal click is refused with its rule, a step
    back during the game returns to live on the next click, and the game is played to the
    end by clicks alone; the ranking on the page matches the referee's."""
    referee = Referee(TINY.encode(), parse_map(TINY), port=0, quiet=True)
    hub = Hub()
    desk = Desk(hub)
    human = Client(HumanPlayer(desk), group=99, ponder=False)
    watch = watch_client(human, "127.0.0.1:0", interactive=True, mover=desk.submit, hub=hub)
    try:
        threads = start_game(referee, [human, Client(get("greedy"))])
        driver.open(watch.url)
        driver.wait('return !!document.getElementById("board-data");')
        turns = 0
        while True:
            # Asked, and the newest frame (with its legal marks) is on the screen.
            state = driver.wait(
                'var a = document.getElementById("ask").textContent, '
                's = document.getElementById("status").textContent, '
                'c = document.getElementById("counter").textContent, '
                't = +(c.split(" / ")[1] || "-1 ").split(" ")[0], '
                'shown = +c.split(" / ")[0] === t && t + 1 === window.watchStats.frames;'
                'return (s.indexOf("game over") === 0 || (a.indexOf("Your move") === 0 '
                '&& shown)) && [a, s, c];')
            if state[1].startswith("game over"):
                break
            turns += 1
            legal = driver.run(LEGAL_CELLS)
            if turns == 1:
                # An empty corner captures nothing: refused, naming the rule.
                driver.click("#c0")
                note = driver.wait('var t = document.getElementById("note").textContent;'
                                   'return t.indexOf("refused") === 0 && t;')
                assert note.startswith("refused: RULES.md 3:")
            if turns == 2:
                driver.click("#prev")
                assert "(live)" not in driver.run(READ_PAGE)["counter"]
                driver.click("#c%d" % legal[0])
                assert driver.run('return document.getElementById("note").textContent;') == \
                    "back to the live position"
                assert "(live)" in driver.run(READ_PAGE)["counter"]
            if legal:
                target = "#c%d" % legal[0]
            else:  # the bombing phase: bomb a stone of the opponent
                target = "#" + driver.run(
                    'var s = document.querySelector("#board .cells .stone.p1") || '
                    'document.querySelector("#board .cells .stone");'
                    'return s.parentNode.id;')
            frames = int(state[2].split(" / ")[1].split(" ")[0])
            driver.click(target)
            if driver.run('return document.querySelectorAll("#choices button").length;'):
                driver.click("#choices button")
            # The move is in when a new frame has come (the next prompt may come at once).
            driver.wait('return +document.getElementById("counter").textContent'
                        '.split(" / ")[1].split(" ")[0] > %d;' % frames)
        for thread in threads:
            thread.join(30)
        page = driver.wait("var r = (function () {%s})(); return r.winner && r;" % READ_PAGE)
        assert turns >= 3 and page["out"] == []
        final = referee.game.trace["final"]["scores"]
        assert page["table"] == final
        assert {p: page["stones"].get(p, 0) for p in final} == page["table"]
        assert page["winner"] == expected_winner_line(page["table"])
        assert referee.game.trace["groups"][str(human.me)] == 99
        assert not referee.game.state.disqualified
    finally:
        desk.close()
        watch.close()


@pytest.mark.slow
def test_replay_button_reads_pause_and_the_end_names_the_winner(driver: WebDriver,
                                                               tmp_path: Path) -> None:
    """The replay page: "pause" while playing, "play" again at the end, whose frame names the
    winner of the recorded game."""
    game = Game(parse_map(SMALL), SMALL)
    run_match(game, {1: get("greedy"), 2: get("random", 2)})
    game.write_trace(str(tmp_path / "game.json"))
    page = tmp_path / "game.html"
    assert main(["replay", str(tmp_path / "game.json"), "-o", str(page)]) == 0
    driver.open(page.as_uri() + "#frame=-2")
    driver.click("#play")
    assert driver.run('return document.getElementById("play").textContent;') == "pause"
    driver.wait('return document.getElementById("play").textContent === "play";', 10)
    shown = driver.run(READ_PAGE)
    assert shown["winner"] == expected_winner_line(shown["table"])


# --------------------------------------------------------------------------- 50 x 50 (slow)


def arena_map(seed: int = 24) -> str:
    """An 8-player 50 x 50 map authored here: four 2 x 2 starts (players 1-2, 3-4, 5-6, 7-8)
    in four quarters split by hole walls with doors, special tiles strewn from `seed`, the
    left and right edges and the top and bottom joined by transitions every 7 rows/columns;
    3 override stones, 2 bombs of strength 2 each."""
    size = 50
    rng = random.Random(seed)
    grid = [["0"] * size for _ in range(size)]
    for k in range(size):
        for wall in (24, 25):
            if k % 10 not in (4, 5):  # doors every 10 cells
                grid[wall][k] = "-"
                grid[k][wall] = "-"
    starts = {(12, 12): (1, 2), (36, 12): (3, 4), (12, 36): (5, 6), (36, 36): (7, 8)}
    for (x, y), (a, b) in starts.items():
        grid[y][x], grid[y][x + 1], grid[y + 1][x], grid[y + 1][x + 1] = (
            str(a), str(b), str(b), str(a))
    for tile, count in (("c", 12), ("i", 12), ("b", 24), ("x", 30)):
        placed = 0
        while placed < count:
            x, y = rng.randrange(size), rng.randrange(size)
            near = any(abs(x - sx) < 4 and abs(y - sy) < 4 for sx, sy in starts)
            if grid[y][x] == "0" and not near:
                grid[y][x] = tile
                placed += 1
    lines = ["8", "3", "2 2", "%d %d" % (size, size)]
    lines += [" ".join(row) for row in grid]
    for k in range(3, size, 7):
        if grid[k][0] != "-" and grid[k][size - 1] != "-":
            lines.append("0 %d 6 <-> %d %d 2" % (k, size - 1, k))
        if grid[0][k] != "-" and grid[size - 1][k] != "-":
            lines.append("%d 0 0 <-> %d %d 4" % (k, k, size - 1))
    return "\n".join(lines) + "\n"


def save_shot(driver: WebDriver, name: str) -> int:
    """Take a screenshot; write it to $REVERSI_WATCH_SHOTS/name when that is set.  Its size."""
    png = driver.screenshot()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    folder = os.environ.get("REVERSI_WATCH_SHOTS")
    if folder:
        (Path(folder) / name).write_bytes(png)
    return len(png)


STEP_TIMES = """
var t0 = performance.now(), n = arguments[0];
for (var k = 0; k < n; k++) {
  document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowLeft"}));
}
var back = (performance.now() - t0) / n, live = window.watchStats.times.slice();
t0 = performance.now();
document.dispatchEvent(new KeyboardEvent("keydown", {key: "Home"}));
var home = performance.now() - t0;
t0 = performance.now();
document.dispatchEvent(new KeyboardEvent("keydown", {key: "End"}));
var end = performance.now() - t0;
return {back: back, home: home, end: end, stats: window.watchStats, live: live};
"""


@pytest.mark.slow
def test_watch_screenshots_and_drawing_time() -> None:
    """docs/watch.md: an 8-player 50 x 50 game watched live from its start (drawing time per
    frame, stepping time, RULES.md 7 winner line) and a 2-player game seen by our client
    (search report); screenshots go to $REVERSI_WATCH_SHOTS when set."""
    from reversi_ref.players.search import SearchPlayer
    from reversi_ref.watch import GameWatcher, Watch
    text = arena_map()
    state = parse_map(text)
    with tempfile.TemporaryDirectory() as profile:
        driver = WebDriver(profile, 960, 700)
        try:
            watch = Watch("127.0.0.1:0", "reversi-ref: 8 players on a 50 x 50 map")
            feed = watch.start(state)
            driver.open(watch.url)
            driver.wait('return document.getElementById("status").textContent === '
                        '"live: connected";')
            game = Game(state, text)
            seats: Dict[int, Player] = {p: SearchPlayer() for p in range(1, 9)}
            started = time.monotonic()
            run_match(game, seats, 1, observer=GameWatcher(feed))
            played = time.monotonic() - started
            driver.wait('return document.getElementById("status").textContent'
                        '.indexOf("game over") === 0;', 600)
            moves = len(game.trace["moves"])
            page = driver.wait("var r = (function () {%s})(); return r.winner && r;"
                               % READ_PAGE)
            assert page["counter"] == "%d / %d" % (moves, moves)
            assert page["winner"] == expected_winner_line(
                {p: n for p, n in page["table"].items() if str(p) not in page["out"]})
            timing = driver.run(STEP_TIMES, 200)
            # The picture: move 800, all eight players on the board (a full board at the
            # end makes a PNG above 200 KB).
            driver.run('document.dispatchEvent(new KeyboardEvent("keydown", {key: "Home"}));'
                       'for (var k = 0; k < 80; k++) { document.dispatchEvent('
                       'new KeyboardEvent("keydown", {key: "ArrowDown"})); }')
            assert driver.run(READ_PAGE)["counter"].startswith("800 / ")
            big = save_shot(driver, "watch-8p-50x50.png")
            stats = timing["stats"]
            live = sorted(timing["live"])
            print("\n50x50, 8 players: %d moves in %.1f s; frames received %d, drawn live %d, "
                  "drawing median %.2f ms, 90th percentile %.2f ms, max %.1f ms; one step "
                  "back %.2f ms; Home %.1f ms; End %.1f ms; screenshot %d bytes"
                  % (moves, played, stats["received"], len(live), live[len(live) // 2],
                     live[len(live) * 9 // 10], live[-1], timing["back"], timing["home"],
                     timing["end"], big))
            watch.close()
            # Two players on the default map, as our client sees it.
            path = ROOT / "maps" / "default.map"
            data = path.read_bytes()
            referee = Referee(data, parse_map(data.decode()), port=0, depth=3, quiet=True)
            ours = Client(SearchPlayer(), ponder=False)
            watch = watch_client(ours, "127.0.0.1:0")
            for thread in start_game(referee, [ours, Client(get("greedy"))]):
                thread.join(120)
            driver.open(watch.url)
            driver.wait('return document.getElementById("status").textContent'
                        '.indexOf("game over") === 0;')
            driver.run('location.hash = ""; document.dispatchEvent(new KeyboardEvent('
                       '"keydown", {key: "Home"}));')
            for _ in range(24):
                driver.run('document.dispatchEvent(new KeyboardEvent("keydown", '
                           '{key: "ArrowRight"}));')
            if "search:" not in driver.run(READ_PAGE)["info"]:
                driver.run('document.dispatchEvent(new KeyboardEvent("keydown", '
                           '{key: "ArrowRight"}));')
            assert "principal variation" in driver.run(READ_PAGE)["info"]
            small = save_shot(driver, "watch-2p-client.png")
            print("2 players, client view: screenshot %d bytes" % small)
            watch.close()
        finally:
            driver.quit()
