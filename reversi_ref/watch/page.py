"""The live page: the replay's board drawing (`render.html`), fed by server-sent events.

It keeps every frame it receives, so the spectator can step back (arrow keys, slider,
buttons, as in the replay) while the game goes on and jump back to live (End, or the last
button); while it shows the newest frame it follows the game.  EventSource reconnects by
itself, sending the id of the last frame it got, and the server sends what it missed.

With `interactive` (a human plays through this page) a click on the board, when the human is
to move, posts the move to the server, which answers with the rule that refuses it or takes
it.  A cell with several moves (a choice tile: with whom to swap; a bonus tile: bomb or override
stone) first offers them as buttons.

`window.watchStats` counts the frames received and drawn and the time spent drawing each
(milliseconds, `performance.now`), for measuring that a big board stays responsive.
"""

from __future__ import annotations

from html import escape
from typing import List

from ..render.html import BOARD_SCRIPT, STYLE, board_assets, json_script, legend_html
from ..render.svg import render_svg
from ..state import GameState

LIVE_STYLE = """
#status { color: #555; margin: 0 0 6px 0; font-size: 14px; }
#status.lost { color: #a00; }
body.past #counter { color: #a60; }
#prompt { min-height: 22px; margin-bottom: 6px; font-size: 15px; }
#prompt.turn #ask { background: #fff3b0; padding: 2px 6px; font-weight: bold; }
#prompt button { margin-left: 6px; font-size: 14px; }
#note { color: #a00; margin-left: 8px; }
#info .search { margin-top: 8px; color: #333; font-family: monospace; font-size: 12px; }
body.interactive #board svg { cursor: pointer; }
#board .marks { pointer-events: none; }
#board svg { max-height: calc(100vh - 140px); }
"""

LIVE_SCRIPT = """
(function () {
  var D = JSON.parse(document.getElementById("board-data").textContent);
  var F = [], cur = -1, follow = true, timer = null, prompt = null, over = false;
  var redraw = null, es = null;
  var slider = document.getElementById("slider"), info = document.getElementById("info");
  var button = document.getElementById("play"), counter = document.getElementById("counter");
  var statusLine = document.getElementById("status"), note = document.getElementById("note");
  var ask = document.getElementById("ask"), choices = document.getElementById("choices");
  var box = document.getElementById("prompt"), svg = document.querySelector("#board svg");
  var stats = window.watchStats = {received: 0, frames: 0, drawn: 0, drawMs: 0, maxDrawMs: 0,
                                   times: []};
  D.start = D.board;
  var draw = reversiBoard(D);
  function isLive() { return cur === F.length - 1; }
  function label() {
    counter.textContent = cur + " / " + (F.length - 1) + (isLive() && !over ? " (live)" : "");
    document.body.classList.toggle("past", !isLive());
    slider.max = Math.max(0, F.length - 1);
    slider.value = cur;
  }
  function show(n) {
    if (!F.length) { return; }
    var t0 = performance.now();
    n = Math.max(0, Math.min(F.length - 1, Math.round(n) || 0));
    draw(F[n]);
    info.innerHTML = F[n].i;
    cur = n;
    follow = isLive();
    label();
    var ms = performance.now() - t0;
    stats.drawn += 1; stats.drawMs += ms; stats.maxDrawMs = Math.max(stats.maxDrawMs, ms);
    stats.times.push(Math.round(ms * 100) / 100);
  }
  function later() {
    // Frames can come by the hundred per second: draw at most every 40 ms.
    if (redraw !== null) { return; }
    redraw = setTimeout(function () {
      redraw = null;
      if (follow) { show(F.length - 1); } else { label(); }
    }, 40);
  }
  function setStatus(text, lost) {
    statusLine.textContent = text;
    statusLine.className = lost ? "lost" : "";
  }
  function stop() { clearInterval(timer); timer = null; button.textContent = "play"; }
  function play() {
    if (timer) { stop(); return; }
    if (isLive()) { show(0); }
    button.textContent = "pause";
    timer = setInterval(function () { if (isLive()) { stop(); } else { show(cur + 1); } }, 350);
  }
  function connect() {
    es = new EventSource("events?after=" + (F.length - 1));
    es.addEventListener("frame", function (e) {
      var d = JSON.parse(e.data);
      stats.received += 1;
      if (d.n === F.length) { F.push(d); stats.frames = F.length; later(); }
    });
    es.addEventListener("prompt", function (e) { setPrompt(JSON.parse(e.data)); });
    es.addEventListener("over", function (e) {
      over = true;
      setStatus("game over: " + JSON.parse(e.data).winner);
      setPrompt(null);
      es.close();
      later();
    });
    es.onopen = function () { if (!over) { setStatus("live: connected"); } };
    es.onerror = function () {
      if (over) { es.close(); return; }
      setStatus("connection lost; reconnecting...", true);
      if (es.readyState === 2) { setTimeout(connect, 1000); }
    };
  }
  var SPECIALS = {20: "bonus: +1 bomb", 21: "bonus: +1 override stone"};
  function setPrompt(p) {
    if (p && p.error) { note.textContent = p.error; return; }
    prompt = p && p.player ? p : null;
    choices.innerHTML = "";
    box.className = prompt ? "turn" : "";
    if (prompt) {
      ask.textContent = "Your move, player " + prompt.player + ": click a cell" +
        (prompt.phase === "bomb" ? " to drop a bomb" : "");
    } else {
      ask.textContent = D.interactive && !over ? "Waiting for the other players..." : "";
    }
  }
  function send(m) {
    var asked = prompt;
    note.textContent = "";
    var r = new XMLHttpRequest();
    r.open("POST", "move");
    r.setRequestHeader("Content-Type", "application/json");
    r.onload = function () {
      var a = {};
      try { a = JSON.parse(r.responseText); } catch (e) { a = {error: r.responseText}; }
      // The next prompt may have come before this answer: only clear the one answered.
      if (a.ok) { if (prompt === asked) { setPrompt(null); } }
      else { note.textContent = "refused: " + a.error; }
    };
    r.onerror = function () { note.textContent = "the move could not be sent"; };
    r.send(JSON.stringify({x: m[0], y: m[1], special: m[2]}));
  }
  function offer(list) {
    choices.innerHTML = "";
    list.forEach(function (m) {
      var b = document.createElement("button");
      b.id = "choice-" + m[2];
      b.textContent = SPECIALS[m[2]] || ("swap stones with player " + m[2]);
      b.onclick = function () { choices.innerHTML = ""; send(m); };
      choices.appendChild(b);
    });
  }
  svg.addEventListener("click", function (e) {
    if (!D.interactive) { return; }
    if (!prompt) { note.textContent = over ? "the game is over" : "not your turn"; return; }
    if (!isLive()) { show(F.length - 1); note.textContent = "back to the live position"; return; }
    var p = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
    var x = Math.floor((p.x - D.origin) / D.cell), y = Math.floor((p.y - D.origin) / D.cell);
    if (x < 0 || y < 0 || x >= D.width || y >= D.height) { return; }
    var list = prompt.moves.filter(function (m) { return m[0] === x && m[1] === y; });
    if (list.length > 1) { note.textContent = ""; offer(list); } else {
      send(list.length ? list[0] : [x, y, 0]);
    }
  });
  stepKeys(show, function () { return cur; }, function () { return F.length - 1; }, play,
           slider);
  document.getElementById("first").onclick = function () { show(0); };
  document.getElementById("prev").onclick = function () { show(cur - 1); };
  button.onclick = play;
  document.getElementById("next").onclick = function () { show(cur + 1); };
  document.getElementById("last").onclick = function () { show(F.length - 1); };
  if (D.interactive) { document.body.classList.add("interactive"); setPrompt(null); }
  connect();
})();
"""


def render_live_page(state: GameState, title: str, interactive: bool = False) -> str:
    """The live page of a game starting at `state` (events from `events`, moves posted to
    `move`, both relative to the page's address)."""
    data = board_assets(state)
    data.update(board="".join(state.board), height=state.height, interactive=interactive)
    parts: List[str] = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>%s</title>" % escape(title),
        "<style>%s%s</style></head><body>" % (STYLE, LIVE_STYLE),
        "<h1>%s</h1>" % escape(title),
        '<div id="status">connecting...</div>',
        '<div id="controls"><button id="first" title="first (Home)">|&#x25C0;</button>'
        '<button id="prev" title="back (left arrow)">&#x25C0;</button>'
        '<button id="play" title="play/pause (space)">play</button>'
        '<button id="next" title="forward (right arrow)">&#x25B6;</button>'
        '<button id="last" title="live (End)">&#x25B6;| live</button>'
        '<input id="slider" type="range" min="0" max="0" value="0" step="1">'
        '<span id="counter"></span></div>',
        '<div id="prompt"><span id="ask"></span><span id="choices"></span>'
        '<span id="note"></span></div>',
        '<div id="main"><div id="board">%s</div>' % render_svg(state, cell_ids=True),
        '<div id="info"></div></div>',
        '<div id="help">%s Keys: &#x2190; &#x2192; one move, &#x2191; &#x2193; ten, Home, '
        'End = live, space plays.</div>' % legend_html(state.players),
        json_script(data, "board-data"),
        "<script>%s%s</script>" % (BOARD_SCRIPT, LIVE_SCRIPT),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def waiting_page(title: str, what: str) -> str:
    """A page that reloads itself every second until the game's map is known."""
    return ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            '<meta http-equiv="refresh" content="1"><title>%s</title></head><body>'
            '<h1>%s</h1><p id="status">%s</p></body></html>\n'
            % (escape(title), escape(title), escape(what)))
