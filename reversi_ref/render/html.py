"""A whole game as one self-contained HTML page: the board as inline SVG, and a few lines of
plain JavaScript to step through the moves (no network access, no external files).

The board is drawn once (`render_svg` with an id on every cell); each frame is stored as
data: the board as one string of map characters, the marks (legal positions, the last move,
its captures or blast) and a ready-made HTML description (mover, move, override, choice,
inversion, bonus or bomb, the phase, and per player the stones, override stones and bombs).
Stepping swaps the content of the cells that changed, so a game of a thousand moves on a
50 x 50 board stays a few megabytes where a full SVG per move would take hundreds.

Controls: arrow keys (left/right one move, up/down ten), Home/End, PageUp/PageDown, the
slider, buttons, and space to play (the button then reads "pause").  The URL fragment
`#frame=N` (0 = the start, negative from the end) selects a frame on load and follows the
current one.  The last frame names the winner (or the players tied for first place).

The live page of `reversi_ref.watch` draws with the same parts: `STYLE`, `BOARD_SCRIPT` (the
JavaScript that swaps changed cells and redraws the marks), `board_assets` and `frame_data`.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any, Dict, List, Mapping, Optional

from ..rules import ranking, scores
from ..state import BOMB, BUILD, OVER, GameState
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
#info .winner { font-weight: bold; font-size: 16px; margin: 6px 0; }
#info .reason { color: #a00; }
#help { color: #666; font-size: 12px; margin-top: 12px; }
"""

# Shared by the replay and the live page: `reversiBoard(D)` returns `draw(frame)`, which swaps
# the content of the cells whose character changed since the last frame drawn and redraws the
# marks.  D holds the board's assets (`board_assets`) and `start`, the board drawn in the SVG.
BOARD_SCRIPT = """
function reversiBoard(D) {
  var board = D.start, marks = document.querySelector("#board .marks"), W = D.width;
  return function draw(f) {
    var i, out = [];
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
  };
}
// Arrow keys, Page Up/Down, Home, End and space step through the frames; so does the slider.
function stepKeys(show, at, last, play, slider) {
  var steps = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -10, ArrowDown: 10,
               PageUp: -10, PageDown: 10};
  document.addEventListener("keydown", function (e) {
    if (steps[e.key]) { show(at() + steps[e.key]); }
    else if (e.key === "Home") { show(0); }
    else if (e.key === "End") { show(last()); }
    else if (e.key === " ") { play(); }
    else { return; }
    e.preventDefault();
  });
  slider.addEventListener("input", function () { show(+slider.value); });
}
"""

SCRIPT = """
(function () {
  var D = JSON.parse(document.getElementById("game-data").textContent);
  var F = D.frames, cur = -1, timer = null, draw;
  var slider = document.getElementById("slider"), info = document.getElementById("info");
  var button = document.getElementById("play");
  D.start = F[0].b;
  draw = reversiBoard(D);
  function show(n) {
    n = Math.max(0, Math.min(F.length - 1, Math.round(n) || 0));
    draw(F[n]);
    info.innerHTML = F[n].i;
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
  function stop() { clearInterval(timer); timer = null; button.textContent = "play"; }
  function play() {
    if (timer) { stop(); return; }
    if (cur >= F.length - 1) { show(0); }
    button.textContent = "pause";
    timer = setInterval(function () {
      if (cur >= F.length - 1) { stop(); } else { show(cur + 1); }
    }, 350);
  }
  stepKeys(show, function () { return cur; }, function () { return F.length - 1; }, play,
           slider);
  window.addEventListener("hashchange", function () { show(fromHash()); });
  document.getElementById("first").onclick = function () { show(0); };
  document.getElementById("prev").onclick = function () { show(cur - 1); };
  document.getElementById("play").onclick = play;
  document.getElementById("next").onclick = function () { show(cur + 1); };
  document.getElementById("last").onclick = function () { show(F.length - 1); };
  show(fromHash());
})();
"""


def swatch(player: int) -> str:
    """A small disc in `player`'s colour (HTML)."""
    return '<span class="swatch" style="background:%s"></span>' % PALETTE[player]


def winner_line(state: GameState) -> str:
    """RULES.md 7: who won the finished game `state`, or who tied for first place."""
    standings = ranking(state)
    if not standings:
        return "Game over: no player is left"
    first = [s.player for s in standings if s.rank == 1]
    score = standings[0].score
    if len(first) == 1:
        return "Winner: player %d with %d stone%s" % (first[0], score, "" if score == 1 else "s")
    names = ", ".join("%d" % p for p in first[:-1]) + " and %d" % first[-1]
    return "Tie: players %s with %d stone%s each" % (names, score, "" if score == 1 else "s")


def frame_info(frame: Frame, total: Optional[int],
               reasons: Optional[Mapping[int, str]] = None,
               banks: Optional[Mapping[int, str]] = None) -> str:
    """The HTML description of one frame: the move, the phase, a table of the players (stones,
    override stones, bombs and, when given, time `banks`), the disqualified with their
    `reasons`, and the winner once the game is over.  `total` is the number of moves (None
    while the game goes on)."""
    state = frame.state
    phase = PHASE_LABELS.get(frame.phase or "", "")
    if frame.number == 0:
        head = "Start"
    elif total is None:
        head = "Move %d, %s" % (frame.number, phase)
    else:
        head = "Move %d of %d, %s" % (frame.number, total, phase)
    lines = ['<div class="move">%s</div>' % escape(head),
             '<div class="what">%s</div>' % escape(describe_move(frame))]
    if state.phase == OVER:
        lines.append('<div class="winner">%s</div>' % escape(winner_line(state)))
    now = PHASE_LABELS.get(state.phase, state.phase)
    if state.to_move is not None:
        now += "; player %d to move" % state.to_move
    lines.append('<div class="phase">Now: %s</div>' % escape(now))
    counts = scores(state)
    bank_head = "<th>bank</th>" if banks is not None else ""
    rows = ['<tr><th>player</th><th>stones</th><th>overrides</th><th>bombs</th>%s</tr>'
            % bank_head]
    for player in range(1, state.players + 1):
        classes = []
        if player == state.to_move:
            classes.append("mover")
        if player in state.disqualified:
            classes.append("out")
        bank = ("<td>%s</td>" % escape(banks.get(player, "")) if banks is not None else "")
        rows.append('<tr class="%s" data-player="%d"><td>%s%d</td><td class="stones">%d</td>'
                    '<td>%d</td><td>%d</td>%s</tr>'
                    % (" ".join(classes), player, swatch(player), player, counts[player],
                       state.overrides[player - 1], state.bombs[player - 1], bank))
    lines.append("<table>%s</table>" % "".join(rows))
    for player in sorted(state.disqualified):
        reason = (reasons or {}).get(player, "")
        lines.append('<div class="out">player %d disqualified%s</div>'
                     % (player, ': <span class="reason">%s</span>' % escape(reason)
                        if reason else ""))
    return "".join(lines)


def frame_data(frame: Frame, total: Optional[int],
               reasons: Optional[Mapping[int, str]] = None,
               banks: Optional[Mapping[int, str]] = None) -> Dict[str, Any]:
    """One frame as the pages' JavaScript reads it: board string, marks, description."""
    state = frame.state
    marks = marks_for(state, frame.move if not frame.rejected else None, frame.captured,
                      frame.legal, frame.blasted)
    return {
        "b": "".join(state.board),
        "m": [[MARK_KINDS.index(kind), y * state.width + x] for kind, (x, y) in marks],
        "i": frame_info(frame, total, reasons, banks),
    }


def board_assets(state: GameState) -> Dict[str, Any]:
    """What `BOARD_SCRIPT` needs to draw on the board of `state`: its width, the cell size,
    the board's origin in the SVG, and the drawing of every tile and mark."""
    return {
        "width": state.width,
        "cell": CELL,
        "origin": Layout(state).origin,
        "tiles": {ch: tile_svg(ch) for ch in "012345678-cibx"},
        "marks": [mark_svg(kind) for kind in MARK_KINDS],
    }


def json_script(data: Any, ident: str) -> str:
    """`data` as a JSON `<script>` block with id `ident`, safe inside HTML."""
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return '<script type="application/json" id="%s">%s</script>' % (ident, payload)


def legend_html(players: int) -> str:
    """The players' colours and what the marks mean (the help line under the board)."""
    legend = " ".join("%s%d" % (swatch(p), p) for p in range(1, players + 1))
    return ('players: %s. Marks: dot or corner triangles = legal for the player to '
            'move; heavy frame = last move; dashed frame = captured by it; red cross = '
            'destroyed by its bomb. Transitions are the coloured curves (hover for their '
            'sides).' % legend)


def reasons_so_far(frames: Any) -> List[Dict[int, str]]:
    """For each frame, the reason of every disqualification up to it (player -> reason)."""
    known: Dict[int, str] = {}
    out: List[Dict[int, str]] = []
    for frame in frames:
        for player in frame.disqualified:
            known[player] = frame.reason or "disqualified"
        out.append(dict(known))
    return out


def render_replay(record: Record, title: str = "") -> str:
    """The HTML page replaying `record`, self-contained."""
    first = record.frames[0].state
    total = len(record.frames) - 1
    data = board_assets(first)
    data["frames"] = [frame_data(frame, total, reasons)
                      for frame, reasons in zip(record.frames, reasons_so_far(record.frames))]
    title = title or "reversi-ref replay: %s" % record.source
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
        '<div id="main"><div id="board">%s</div>' % render_svg(first, cell_ids=True),
        '<div id="info"></div></div>',
        '<div id="help">%s Keys: &#x2190; &#x2192; one move, &#x2191; &#x2193; ten, '
        'Home/End, space plays.</div>' % legend_html(first.players),
        json_script(data, "game-data"),
        "<script>%s%s</script>" % (BOARD_SCRIPT, SCRIPT),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"
