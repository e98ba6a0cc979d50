"""A whole game as one self-contained HTML page: the board as inline SVG, and a few lines of
plain JavaScript to step through the moves (no network access, no external files).

The board is drawn once (`render_svg` with an id on every cell); each frame is stored as
data: the board as one string of map characters, the marks (legal positions, the last move,
its captures or blast) and a ready-made HTML description (mover, move, override, choice,
inversion, bonus or bomb, the phase, and per player the stones, override stones and bombs).
Stepping swaps the content of the cells that changed, so a game of a thousand moves on a
50 x 50 board stays a few megabytes where a full SVG per move would take hundreds.

Controls: arrow keys (left/right one move, up/down ten), Home/End, PageUp/PageDown, the
slider, buttons, and space to play.  The URL fragment `#frame=N` (0 = the start, negative
from the end) selects a frame on load and follows the current one.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any, Dict, List

from ..rules import scores
from ..state import BOMB, BUILD
from .record import Frame, Record
from .svg import CELL, MARK_KINDS, PALETTE, Layout, marks_for, mark_svg, render_svg, tile_svg
from .text import describe_move

PHASE_LABELS = {BUILD: "phase 1 (building)", BOMB: "phase 2 (bombing)", "over": "game over"}

STYLE = """
body { font-family: DejaVu Sans, Verdana, Arial, sans-serif; margin: 12px; color: #222; }
h1 { font-size: 18px; margin: 0 0 8px 0; }
#controls { display: flex; align-items: center; gap: 8px; margin-bottom: 8px; }
#controls button { font-size: 15px; min-width: 36px; }
#slider { flex: 1; max-width: 640px; }
#main { display: flex; gap: 16px; align-items: flex-start; }
#board { flex: 1 1 0; min-width: 0; }
#board svg { width: 100%; height: auto; max-height: 88vh; }
#info { flex: 0 0 340px; font-size: 14px; overflow-wrap: anywhere; }
#info .move { font-weight: bold; margin-bottom: 6px; }
#info table { border-collapse: collapse; margin-top: 8px; }
#info td, #info th { padding: 2px 6px; text-align: right; }
#info th { font-weight: normal; color: #666; }
#info tr.mover td { font-weight: bold; }
#info tr.out td { color: #999; text-decoration: line-through; }
.swatch { display: inline-block; width: 14px; height: 14px; border-radius: 7px;
          border: 1px solid #333; vertical-align: middle; margin-right: 4px; }
#help { color: #666; font-size: 12px; margin-top: 12px; }
"""

SCRIPT = """
(function () {
  var D = JSON.parse(document.getElementById("game-data").textContent);
  var F = D.frames, W = D.width, cur = -1, board = F[0].b, timer = null;
  var slider = document.getElementById("slider"), info = document.getElementById("info");
  var marks = document.querySelector("#board .marks");
  function show(n) {
    n = Math.max(0, Math.min(F.length - 1, Math.round(n) || 0));
    var f = F[n], i, out = [];
    for (i = 0; i < f.b.length; i++) {
      if (f.b.charAt(i) !== board.charAt(i)) {
        document.getElementById("c" + i).innerHTML = D.tiles[f.b.charAt(i)];
      }
    }
    board = f.b;
    for (i = 0; i < f.m.length; i++) {
      var k = f.m[i][1], x = D.origin + (k % W) * D.cell, y = D.origin + Math.floor(k / W) * D.cell;
      out.push('<g transform="translate(' + x + " " + y + ')">' + D.marks[f.m[i][0]] + "</g>");
    }
    marks.innerHTML = out.join("");
    info.innerHTML = f.i;
    slider.value = n;
    document.getElementById("counter").textContent = n + " / " + (F.length - 1);
    cur = n;
    try { history.replaceState(null, "", "#frame=" + n); } catch (e) { }
  }
  function fromHash() {
    var m = /frame=(-?[0-9]+)/.exec(location.hash);
    if (!m) { return 0; }
    var n = parseInt(m[1], 10);
    return n < 0 ? F.length + n : n;
  }
  function play() {
    if (timer) { clearInterval(timer); timer = null; return; }
    if (cur >= F.length - 1) { show(0); }
    timer = setInterval(function () {
      if (cur >= F.length - 1) { clearInterval(timer); timer = null; } else { show(cur + 1); }
    }, 350);
  }
  var steps = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -10, ArrowDown: 10,
               PageUp: -10, PageDown: 10};
  document.addEventListener("keydown", function (e) {
    if (steps[e.key]) { show(cur + steps[e.key]); }
    else if (e.key === "Home") { show(0); }
    else if (e.key === "End") { show(F.length - 1); }
    else if (e.key === " ") { play(); }
    else { return; }
    e.preventDefault();
  });
  slider.addEventListener("input", function () { show(+slider.value); });
  window.addEventListener("hashchange", function () { show(fromHash()); });
  document.getElementById("first").onclick = function () { show(0); };
  document.getElementById("prev").onclick = function () { show(cur - 1); };
  document.getElementById("play").onclick = play;
  document.getElementById("next").onclick = function () { show(cur + 1); };
  document.getElementById("last").onclick = function () { show(F.length - 1); };
  show(fromHash());
})();
"""


def _swatch(player: int) -> str:
    return '<span class="swatch" style="background:%s"></span>' % PALETTE[player]


def frame_info(frame: Frame, total: int) -> str:
    """The HTML description of one frame: the move, the phase, and a table of the players."""
    state = frame.state
    if frame.number == 0:
        head = "Start"
    else:
        head = "Move %d of %d, %s" % (frame.number, total, PHASE_LABELS.get(frame.phase or "",
                                                                           ""))
    lines = ['<div class="move">%s</div>' % escape(head),
             '<div class="what">%s</div>' % escape(describe_move(frame))]
    now = PHASE_LABELS.get(state.phase, state.phase)
    if state.to_move is not None:
        now += "; player %d to move" % state.to_move
    lines.append('<div class="phase">Now: %s</div>' % escape(now))
    counts = scores(state)
    rows = ['<tr><th>player</th><th>stones</th><th>overrides</th><th>bombs</th></tr>']
    for player in range(1, state.players + 1):
        classes = []
        if player == state.to_move:
            classes.append("mover")
        if player in state.disqualified:
            classes.append("out")
        rows.append('<tr class="%s"><td>%s%d</td><td>%d</td><td>%d</td><td>%d</td></tr>'
                    % (" ".join(classes), _swatch(player), player, counts[player],
                       state.overrides[player - 1], state.bombs[player - 1]))
    lines.append("<table>%s</table>" % "".join(rows))
    if state.disqualified:
        lines.append('<div class="out">disqualified: %s</div>'
                     % ", ".join("player %d" % p for p in sorted(state.disqualified)))
    return "".join(lines)


def frame_data(frame: Frame, total: int) -> Dict[str, Any]:
    """One frame as the page's JavaScript reads it: board string, marks, description."""
    state = frame.state
    marks = marks_for(state, frame.move if not frame.rejected else None, frame.captured,
                      frame.legal, frame.blasted)
    return {
        "b": "".join(state.board),
        "m": [[MARK_KINDS.index(kind), y * state.width + x] for kind, (x, y) in marks],
        "i": frame_info(frame, total),
    }


def render_replay(record: Record, title: str = "") -> str:
    """The HTML page replaying `record`, self-contained."""
    first = record.frames[0].state
    total = len(record.frames) - 1
    layout = Layout(first)
    board = render_svg(first, cell_ids=True)
    data = {
        "width": first.width,
        "cell": CELL,
        "origin": layout.origin,
        "tiles": {ch: tile_svg(ch) for ch in "012345678-cibx"},
        "marks": [mark_svg(kind) for kind in MARK_KINDS],
        "frames": [frame_data(frame, total) for frame in record.frames],
    }
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    title = title or "reversi-ref replay: %s" % record.source
    legend = " ".join("%s%d" % (_swatch(p), p) for p in range(1, first.players + 1))
    parts: List[str] = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>%s</title>" % escape(title),
        "<style>%s</style></head><body>" % STYLE,
        "<h1>%s</h1>" % escape(title),
        '<div id="controls"><button id="first" title="first (Home)">|&#x25C0;</button>'
        '<button id="prev" title="back (left arrow)">&#x25C0;</button>'
        '<button id="play" title="play/pause (space)">play</button>'
        '<button id="next" title="forward (right arrow)">&#x25B6;</button>'
        '<button id="last" title="last (End)">&#x25B6;|</button>'
        '<input id="slider" type="range" min="0" max="%d" value="0" step="1">'
        '<span id="counter">0 / %d</span></div>' % (total, total),
        '<div id="main"><div id="board">%s</div>' % board,
        '<div id="info"></div></div>',
        '<div id="help">players: %s. Marks: dot or corner triangles = legal for the player to '
        'move; heavy frame = last move; dashed frame = captured by it; red cross = destroyed '
        'by its bomb. Transitions are the coloured curves (hover for their sides). Keys: '
        '&#x2190; &#x2192; one move, &#x2191; &#x2193; ten, Home/End, space plays.</div>'
        % legend,
        '<script type="application/json" id="game-data">%s</script>' % payload,
        "<script>%s</script>" % SCRIPT,
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"
