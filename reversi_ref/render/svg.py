"""Boards as SVG, built as plain strings (no dependencies), in the spirit of python-chess's
`chess.svg`: one function takes a position and the things to highlight and returns the picture.

What is drawn, bottom to top:
- cells: a light square per cell that is not a hole (holes are left out, so the board's shape
  shows); special tiles with their own symbols: choice `c` a diamond with a "c", inversion `i`
  a half-filled circle, bonus `b` a star, expansion `x` a grey disc with a cross;
- stones: a disc in the player's colour (Okabe-Ito, a colour-blind-safe palette) with the player
  number on it;
- transitions (RULES.md 2): one curve per transition between the two sides it joins, each end
  starting inside its cell and leaving through the side; a side joined to itself is a small
  loop.  Sides that face off the board are joined around the board (in lanes, so that many
  transitions stay apart); sides facing a hole inside the board by a Bezier curve;
- marks: legal positions (a dot on an empty cell, corner triangles on anything else), the last
  move (a heavy frame), the cells its capture lines took (a dashed frame), the cells its bomb
  blasted (a red cross);
- coordinates along the top and the left, and an optional caption below.

Element classes (a stable interface, used by the tests and the HTML replay): `board`, `cell`,
`tile` (c, i, b, x), `stone pN` (fill = PALETTE[N]), `transition` (one `<g>` per transition,
id `transition-K` in map order), `mark legal|last|captured|blasted`, `coord`, `caption`.
"""

from __future__ import annotations

import math
from html import escape
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from ..geometry import DIRECTION_NAMES, DIRECTIONS, HOLE, Cell, Map, Transition
from ..state import BUILD, GameState, Move
from .text import summary_parts

CELL = 40.0  # user units per cell

# Okabe & Ito's colour-blind-safe palette, one colour per player 1..8, and the colour of the
# player number written on the stone (the one with more contrast).
PALETTE: Dict[int, str] = {
    1: "#0072B2", 2: "#E69F00", 3: "#009E73", 4: "#CC79A7",
    5: "#56B4E9", 6: "#D55E00", 7: "#F0E442", 8: "#000000",
}
NUMBER_COLORS: Dict[int, str] = {
    1: "#ffffff", 2: "#000000", 3: "#ffffff", 4: "#000000",
    5: "#000000", 6: "#ffffff", 7: "#000000", 8: "#ffffff",
}
CELL_FILL = "#efebe0"
CELL_STROKE = "#b3ab98"
INK = "#333333"
EXPANSION_FILL = "#8f8f8f"
# Transitions cycle through these (dark, so they stand out from the board).
TRANSITION_COLORS = ("#5b3a8c", "#1c6e8c", "#2e7d32", "#8d4a1c", "#8c1c4f", "#4a4a4a")
BLAST_COLOR = "#b00000"

MAX_LANES = 8

# The longest side, in pixels, of the pictures Jupyter shows (`notebook_svg`); smaller boards
# keep their natural size (CELL per cell).
NOTEBOOK_SIZE = 480.0


def _num(value: float) -> str:
    """A coordinate as short text: at most two decimals, no trailing zeros."""
    text = "%.2f" % value
    text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


# --------------------------------------------------------------------------- tiles and marks
# Every tile and mark is drawn in the local coordinates of one cell, (0, 0) to (CELL, CELL), so
# the same text serves the static picture (inside a translated <g>) and the HTML replay, which
# swaps a cell's content when it changes.


def _stone(player: int) -> str:
    c = CELL / 2
    return ('<circle class="stone p%d" cx="%s" cy="%s" r="%s" fill="%s" stroke="%s" '
            'stroke-width="1.2"/><text class="number" x="%s" y="%s" fill="%s" '
            'font-size="%s" font-weight="bold" text-anchor="middle" dy="0.35em">%d</text>'
            % (player, _num(c), _num(c), _num(CELL * 0.4), PALETTE[player], INK,
               _num(c), _num(c), NUMBER_COLORS[player], _num(CELL * 0.45), player))


def _diamond() -> str:
    c, r = CELL / 2, CELL * 0.36
    points = "%s,%s %s,%s %s,%s %s,%s" % (
        _num(c), _num(c - r), _num(c + r), _num(c), _num(c), _num(c + r), _num(c - r), _num(c))
    return ('<g class="tile choice"><polygon points="%s" fill="#e4daf0" stroke="#5b3a8c" '
            'stroke-width="1.5"/><text x="%s" y="%s" fill="#5b3a8c" font-size="%s" '
            'font-weight="bold" text-anchor="middle" dy="0.33em">c</text></g>'
            % (points, _num(c), _num(c), _num(CELL * 0.4)))


def _inversion() -> str:
    c, r = CELL / 2, CELL * 0.32
    return ('<g class="tile inversion"><circle cx="%s" cy="%s" r="%s" fill="#ffffff" '
            'stroke="%s" stroke-width="1.5"/><path d="M%s %s A%s %s 0 0 0 %s %s Z" '
            'fill="%s"/></g>'
            % (_num(c), _num(c), _num(r), INK, _num(c), _num(c - r), _num(r), _num(r),
               _num(c), _num(c + r), INK))


def _star() -> str:
    c = CELL / 2
    outer, inner = CELL * 0.38, CELL * 0.16
    points: List[str] = []
    for k in range(10):
        radius = outer if k % 2 == 0 else inner
        angle = math.pi * k / 5 - math.pi / 2
        points.append("%s,%s" % (_num(c + radius * math.cos(angle)),
                                 _num(c + 2 + radius * math.sin(angle))))
    return ('<g class="tile bonus"><polygon points="%s" fill="#f5d76e" stroke="#7a5c00" '
            'stroke-width="1.3"/></g>' % " ".join(points))


def _expansion() -> str:
    c, r, k = CELL / 2, CELL * 0.4, CELL * 0.2
    return ('<g class="tile expansion"><circle cx="%s" cy="%s" r="%s" fill="%s" stroke="%s" '
            'stroke-width="1.2"/><path d="M%s %sL%s %sM%s %sL%s %s" stroke="#ffffff" '
            'stroke-width="3" stroke-linecap="round"/></g>'
            % (_num(c), _num(c), _num(r), EXPANSION_FILL, INK, _num(c - k), _num(c - k),
               _num(c + k), _num(c + k), _num(c + k), _num(c - k), _num(c - k), _num(c + k)))


def tile_svg(cell: str) -> str:
    """The drawing of one cell character in a cell's local coordinates ("" for a hole)."""
    if cell == HOLE:
        return ""
    square = ('<rect class="square" width="%s" height="%s" fill="%s" stroke="%s" '
              'stroke-width="1"/>' % (_num(CELL), _num(CELL), CELL_FILL, CELL_STROKE))
    if cell in "12345678":
        return square + _stone(int(cell))
    symbol = {"c": _diamond, "i": _inversion, "b": _star, "x": _expansion}.get(cell)
    return square + (symbol() if symbol is not None else "")


MARK_KINDS = ("legal", "legal-stone", "last", "captured", "blasted")


def mark_svg(kind: str) -> str:
    """The drawing of one mark (one of MARK_KINDS) in a cell's local coordinates."""
    s = CELL
    if kind == "legal":
        return ('<circle class="mark legal" cx="%s" cy="%s" r="%s" fill="#000000" '
                'fill-opacity="0.4"/>' % (_num(s / 2), _num(s / 2), _num(s * 0.13)))
    if kind == "legal-stone":
        k = s * 0.28
        corners = ("M0 0H%sL0 %sZ" % (_num(k), _num(k)),
                   "M%s 0H%sV%sZ" % (_num(s - k), _num(s), _num(k)),
                   "M0 %sV%sH%sZ" % (_num(s - k), _num(s), _num(k)),
                   "M%s %sV%sH%sZ" % (_num(s), _num(s - k), _num(s), _num(s - k)))
        return ('<path class="mark legal" d="%s" fill="#000000" fill-opacity="0.45"/>'
                % "".join(corners))
    if kind == "last":
        return ('<rect class="mark last" x="2" y="2" width="%s" height="%s" fill="none" '
                'stroke="#111111" stroke-width="4"/>' % (_num(s - 4), _num(s - 4)))
    if kind == "captured":
        return ('<rect class="mark captured" x="3" y="3" width="%s" height="%s" fill="none" '
                'stroke="#111111" stroke-width="2" stroke-dasharray="5 3"/>'
                % (_num(s - 6), _num(s - 6)))
    if kind == "blasted":
        k = s * 0.25
        return ('<g class="mark blasted"><rect x="3" y="3" width="%s" height="%s" fill="none" '
                'stroke="%s" stroke-width="1.5" stroke-dasharray="3 3"/><path d="M%s %sL%s %s'
                'M%s %sL%s %s" stroke="%s" stroke-width="2.5" stroke-linecap="round"/></g>'
                % (_num(s - 6), _num(s - 6), BLAST_COLOR, _num(k), _num(k), _num(s - k),
                   _num(s - k), _num(s - k), _num(k), _num(k), _num(s - k), BLAST_COLOR))
    raise ValueError("unknown mark kind %r" % kind)


def marks_for(state: GameState, last_move: Optional[Move], captured: Iterable[Cell],
              legal: Iterable[Cell], blasted: Iterable[Cell]) -> List[Tuple[str, Cell]]:
    """The marks to draw, (kind, cell), in drawing order: legal, blasted, captured, last."""
    marks: List[Tuple[str, Cell]] = []
    for x, y in legal:
        if state.map.is_on_board(x, y):
            marks.append(("legal" if state.cell(x, y) == "0" else "legal-stone", (x, y)))
    marks.extend(("blasted", cell) for cell in blasted)
    marks.extend(("captured", cell) for cell in captured)
    if last_move is not None and state.map.is_on_board(last_move[0], last_move[1]):
        marks.append(("last", (last_move[0], last_move[1])))
    return marks


# --------------------------------------------------------------------------- layout


class Layout:
    """Where things go: the board's origin, the margins, the transition lanes."""

    def __init__(self, state: GameState, coordinates: bool = True,
                 caption_lines: int = 0) -> None:
        self.width = state.width
        self.height = state.height
        self.cells = state.map.cells
        self.label = CELL * 0.55 if coordinates else 0.0
        boundary = [t for t in state.map.transitions if self.is_outside(t)]
        self.lanes = max(1, min(len(boundary), MAX_LANES))
        self.ring_base = self.label + CELL * 0.45
        self.lane_step = CELL * 0.2
        if boundary:
            self.margin = self.ring_base + (self.lanes - 1) * self.lane_step + CELL * 0.3
        else:
            self.margin = max(self.label + CELL * 0.2, CELL * 0.3)
        self.origin = self.margin
        self.caption_height = caption_lines * CELL * 0.5 + (CELL * 0.2 if caption_lines else 0)
        self.total_width = 2 * self.margin + self.width * CELL
        self.total_height = 2 * self.margin + self.height * CELL + self.caption_height

    def faces_out(self, x: int, y: int, direction: int) -> bool:
        """Whether side (x, y, direction) faces off the board: only holes (of the map as it
        starts) lie between it and the edge."""
        dx, dy = DIRECTIONS[direction]
        x, y = x + dx, y + dy
        while 0 <= x < self.width and 0 <= y < self.height:
            if self.cells[y * self.width + x] != HOLE:
                return False
            x, y = x + dx, y + dy
        return True

    def is_outside(self, t: Transition) -> bool:
        """Whether both sides of `t` face off the board (it is drawn round the board)."""
        return (t.sides[0] != t.sides[1] and self.faces_out(t.x1, t.y1, t.d1)
                and self.faces_out(t.x2, t.y2, t.d2))

    def corner(self, x: int, y: int) -> Tuple[float, float]:
        """The top left corner of cell (x, y)."""
        return self.origin + x * CELL, self.origin + y * CELL

    def center(self, x: int, y: int) -> Tuple[float, float]:
        """The centre of cell (x, y)."""
        return self.origin + (x + 0.5) * CELL, self.origin + (y + 0.5) * CELL

    def ring(self, lane: int) -> Tuple[float, float, float, float]:
        """The rectangle (left, top, right, bottom) a lane of outside transitions runs on."""
        r = self.ring_base + lane * self.lane_step
        return (self.origin - r, self.origin - r, self.origin + self.width * CELL + r,
                self.origin + self.height * CELL + r)


Point = Tuple[float, float]


def _unit(direction: int) -> Point:
    dx, dy = DIRECTIONS[direction]
    length = math.hypot(dx, dy)
    return dx / length, dy / length


def _side_start(layout: Layout, x: int, y: int, direction: int) -> Point:
    """Where a transition's curve starts: inside the cell, towards its side."""
    cx, cy = layout.center(x, y)
    dx, dy = DIRECTIONS[direction]
    # Near the side, mostly clear of a stone (radius 0.4) drawn in the cell.
    reach = CELL * (0.36 if dx and dy else 0.44)
    return cx + dx * reach, cy + dy * reach


def _side_edge(layout: Layout, x: int, y: int, direction: int) -> Point:
    """The middle of the side (a corner for the diagonal directions)."""
    cx, cy = layout.center(x, y)
    dx, dy = DIRECTIONS[direction]
    return cx + dx * CELL * 0.5, cy + dy * CELL * 0.5


def _exit_point(start: Point, direction: int, ring: Tuple[float, float, float, float]) -> Point:
    """Where the ray from `start` in `direction` meets the ring rectangle."""
    left, top, right, bottom = ring
    dx, dy = DIRECTIONS[direction]
    limits: List[float] = []
    if dx:
        limits.append(((right if dx > 0 else left) - start[0]) / dx)
    if dy:
        limits.append(((bottom if dy > 0 else top) - start[1]) / dy)
    t = min(limits)
    return start[0] + dx * t, start[1] + dy * t


def _perimeter_position(point: Point, ring: Tuple[float, float, float, float]) -> float:
    """Arc length along the ring, clockwise from its top left corner, of a point on it."""
    left, top, right, bottom = ring
    w, h = right - left, bottom - top
    x, y = point
    eps = 1e-6
    if abs(y - top) < eps:
        return x - left
    if abs(x - right) < eps:
        return w + (y - top)
    if abs(y - bottom) < eps:
        return w + h + (right - x)
    return 2 * w + h + (bottom - y)


def _ring_route(a: Point, b: Point, ring: Tuple[float, float, float, float]) -> List[Point]:
    """The corners of the ring passed going the shorter way round from `a` to `b`."""
    left, top, right, bottom = ring
    w, h = right - left, bottom - top
    perimeter = 2 * (w + h)
    corners = [(0.0, (left, top)), (w, (right, top)), (w + h, (right, bottom)),
               (2 * w + h, (left, bottom))]
    sa, sb = _perimeter_position(a, ring), _perimeter_position(b, ring)
    clockwise = (sb - sa) % perimeter
    if clockwise <= perimeter - clockwise:
        passed = [((s - sa) % perimeter, p) for s, p in corners
                  if 0 < (s - sa) % perimeter < clockwise]
    else:
        passed = [((sa - s) % perimeter, p) for s, p in corners
                  if 0 < (sa - s) % perimeter < perimeter - clockwise]
    return [p for _, p in sorted(passed)]


def _rounded_path(points: Sequence[Point], radius: float) -> str:
    """A path through `points` with every inner corner rounded (quadratic curves)."""
    parts = ["M%s %s" % (_num(points[0][0]), _num(points[0][1]))]
    for i in range(1, len(points) - 1):
        prev, here, nxt = points[i - 1], points[i], points[i + 1]
        into = math.hypot(here[0] - prev[0], here[1] - prev[1])
        out = math.hypot(nxt[0] - here[0], nxt[1] - here[1])
        if into < 1e-9 or out < 1e-9:
            continue
        r = min(radius, into / 2, out / 2)
        a = (here[0] - (here[0] - prev[0]) * r / into, here[1] - (here[1] - prev[1]) * r / into)
        b = (here[0] + (nxt[0] - here[0]) * r / out, here[1] + (nxt[1] - here[1]) * r / out)
        parts.append("L%s %sQ%s %s %s %s" % (_num(a[0]), _num(a[1]), _num(here[0]),
                                              _num(here[1]), _num(b[0]), _num(b[1])))
    parts.append("L%s %s" % (_num(points[-1][0]), _num(points[-1][1])))
    return "".join(parts)


def transition_path(layout: Layout, transition: Transition, lane: int) -> str:
    """The SVG path data of the curve drawn for `transition` (RULES.md 2)."""
    (x1, y1, d1), (x2, y2, d2) = transition.sides
    start, end = _side_start(layout, x1, y1, d1), _side_start(layout, x2, y2, d2)
    if (x1, y1, d1) == (x2, y2, d2):
        # A side joined to itself: a small loop out through the side and back.
        edge = _side_edge(layout, x1, y1, d1)
        ux, uy = _unit(d1)
        px, py = -uy, ux
        reach, spread = CELL * 0.55, CELL * 0.4
        c1 = (edge[0] + ux * reach + px * spread, edge[1] + uy * reach + py * spread)
        c2 = (edge[0] + ux * reach - px * spread, edge[1] + uy * reach - py * spread)
        return "M%s %sC%s %s %s %s %s %s" % (
            _num(start[0]), _num(start[1]), _num(c1[0]), _num(c1[1]), _num(c2[0]),
            _num(c2[1]), _num(start[0]), _num(start[1]))
    if layout.is_outside(transition):
        # Both sides face off the board: out to a lane of the ring, round, and back in.
        ring = layout.ring(lane)
        a, b = _exit_point(start, d1, ring), _exit_point(end, d2, ring)
        points = [start, a] + _ring_route(a, b, ring) + [b, end]
        return _rounded_path(points, CELL * 0.6)
    # A side facing a hole inside the board: a Bezier curve leaving each side outwards.
    distance = math.hypot(end[0] - start[0], end[1] - start[1])
    reach = min(max(distance * 0.4, CELL * 0.8), CELL * 4)
    u1, u2 = _unit(d1), _unit(d2)
    c1 = (start[0] + u1[0] * reach, start[1] + u1[1] * reach)
    c2 = (end[0] + u2[0] * reach, end[1] + u2[1] * reach)
    return "M%s %sC%s %s %s %s %s %s" % (
        _num(start[0]), _num(start[1]), _num(c1[0]), _num(c1[1]), _num(c2[0]), _num(c2[1]),
        _num(end[0]), _num(end[1]))


def _route_length(layout: Layout, t: Transition) -> float:
    """How far round the board an outside transition runs (on the innermost lane)."""
    ring = layout.ring(0)
    a = _exit_point(_side_start(layout, t.x1, t.y1, t.d1), t.d1, ring)
    b = _exit_point(_side_start(layout, t.x2, t.y2, t.d2), t.d2, ring)
    left, top, right, bottom = ring
    perimeter = 2 * ((right - left) + (bottom - top))
    along = (_perimeter_position(b, ring) - _perimeter_position(a, ring)) % perimeter
    return min(along, perimeter - along)


def assign_lanes(layout: Layout, transitions: Sequence[Transition]) -> Dict[int, int]:
    """The lane of each outside transition (by index): the shorter its way round the board,
    the closer its lane, so that nested transitions do not cross."""
    outside = [i for i, t in enumerate(transitions) if layout.is_outside(t)]
    outside.sort(key=lambda i: (_route_length(layout, transitions[i]), i))
    count = len(outside)
    return {index: rank * layout.lanes // count for rank, index in enumerate(outside)}


def transitions_svg(state: GameState, layout: Layout) -> List[str]:
    """One `<g class="transition">` per transition of the map, in map order."""
    parts: List[str] = []
    lanes = assign_lanes(layout, state.map.transitions)
    for index, t in enumerate(state.map.transitions):
        color = TRANSITION_COLORS[index % len(TRANSITION_COLORS)]
        lane = lanes.get(index, 0)
        start = _side_start(layout, t.x1, t.y1, t.d1)
        end = _side_start(layout, t.x2, t.y2, t.d2)
        title = "(%d, %d) %s <-> (%d, %d) %s" % (
            t.x1, t.y1, DIRECTION_NAMES[t.d1], t.x2, t.y2, DIRECTION_NAMES[t.d2])
        parts.append(
            '<g class="transition" id="transition-%d" data-sides="%d %d %d %d %d %d">'
            '<title>%s</title><path d="%s" fill="none" stroke="%s" stroke-width="2" '
            'stroke-opacity="0.8" stroke-linecap="round"/>'
            '<circle cx="%s" cy="%s" r="3" fill="%s"/><circle cx="%s" cy="%s" r="3" fill="%s"/>'
            '</g>'
            % (index, t.x1, t.y1, t.d1, t.x2, t.y2, t.d2, escape(title),
               transition_path(layout, t, lane), color, _num(start[0]), _num(start[1]), color,
               _num(end[0]), _num(end[1]), color))
    return parts


def coordinates_svg(layout: Layout) -> List[str]:
    """Column numbers above the board and row numbers on its left."""
    parts: List[str] = []
    size = CELL * 0.32
    for x in range(layout.width):
        cx, _ = layout.center(x, 0)
        parts.append('<text class="coord" x="%s" y="%s" font-size="%s" text-anchor="middle">'
                     '%d</text>' % (_num(cx), _num(layout.origin - layout.label * 0.35),
                                    _num(size), x))
    for y in range(layout.height):
        _, cy = layout.center(0, y)
        parts.append('<text class="coord" x="%s" y="%s" font-size="%s" text-anchor="end" '
                     'dy="0.35em">%d</text>' % (_num(layout.origin - layout.label * 0.2),
                                                _num(cy), _num(size), y))
    return parts


# --------------------------------------------------------------------------- the picture


def render_svg(state: GameState, last_move: Optional[Move] = None,
               captured: Iterable[Cell] = (), legal: Iterable[Cell] = (),
               blasted: Iterable[Cell] = (), coordinates: bool = True,
               caption: Sequence[str] = (), cell_ids: bool = False,
               size: Optional[float] = None) -> str:
    """The board of `state` as an SVG document: cells, special tiles, stones, transitions,
    and marks on the `legal` cells, the last move, its `captured` and `blasted` cells.

    `caption` lines are written below the board.  With `cell_ids` every cell, holes included,
    gets a `<g id="cI">` (I = y * width + x) whose content can be swapped (the HTML replay).
    `size` is the length in pixels of the picture's longer side (default: 40 per cell).
    """
    caption = list(caption)
    layout = Layout(state, coordinates, len(caption))
    scale = 1.0
    if size is not None:
        scale = size / max(layout.total_width, layout.total_height)
    parts: List[str] = [
        '<svg xmlns="http://www.w3.org/2000/svg" class="board" width="%s" height="%s" '
        'viewBox="0 0 %s %s" font-family="DejaVu Sans, Verdana, Arial, sans-serif">'
        % (_num(layout.total_width * scale), _num(layout.total_height * scale),
           _num(layout.total_width), _num(layout.total_height)),
        '<rect class="background" width="100%" height="100%" fill="#ffffff"/>',
        '<g class="cells">',
    ]
    for y in range(state.height):
        for x in range(state.width):
            cell = state.cell(x, y)
            if cell == HOLE and not cell_ids:
                continue
            left, top = layout.corner(x, y)
            ident = ' id="c%d"' % (y * state.width + x) if cell_ids else ""
            parts.append('<g class="cell"%s transform="translate(%s %s)">%s</g>'
                         % (ident, _num(left), _num(top), tile_svg(cell)))
    parts.append('</g>')
    parts.append('<g class="transitions">')
    parts.extend(transitions_svg(state, layout))
    parts.append('</g>')
    parts.append('<g class="marks">')
    for kind, (x, y) in marks_for(state, last_move, captured, legal, blasted):
        left, top = layout.corner(x, y)
        parts.append('<g transform="translate(%s %s)">%s</g>'
                     % (_num(left), _num(top), mark_svg(kind)))
    parts.append('</g>')
    if coordinates:
        parts.append('<g class="coords" fill="#555555" stroke="#ffffff" stroke-width="3" '
                     'stroke-linejoin="round" paint-order="stroke">')
        parts.extend(coordinates_svg(layout))
        parts.append('</g>')
    for number, line in enumerate(caption):
        parts.append('<text class="caption" x="%s" y="%s" font-size="%s" fill="%s">%s</text>'
                     % (_num(layout.margin),
                        _num(layout.total_height - layout.caption_height
                             + (number + 0.8) * CELL * 0.5),
                        _num(CELL * 0.34), INK, escape(line)))
    parts.append('</svg>')
    return "\n".join(parts) + "\n"


def _notebook_size(state: GameState) -> Optional[float]:
    """NOTEBOOK_SIZE when the natural picture is larger, else None (the natural size)."""
    layout = Layout(state, True, 1)
    longer = max(layout.total_width, layout.total_height)
    return NOTEBOOK_SIZE if longer > NOTEBOOK_SIZE else None


def notebook_svg(state: GameState) -> str:
    """The picture `GameState._repr_svg_` gives Jupyter: the board, no marks, and under it
    the phase, who moves and the counts in hand; at most NOTEBOOK_SIZE pixels on its longer
    side."""
    return render_svg(state, caption=summary_parts(state), size=_notebook_size(state))


def map_caption(board: Map) -> List[str]:
    """Two lines: players and size; override stones, bombs and bomb strength (RULES.md 1)."""
    return ["%d players, %d x %d" % (board.players, board.width, board.height),
            "overrides %d, bombs %d, strength %d" % (board.overrides, board.bombs,
                                                     board.strength)]


def notebook_map_svg(board: Map) -> str:
    """The picture `Map._repr_svg_` gives Jupyter: the cells as the map file sets them, the
    transitions, and `map_caption`, at most NOTEBOOK_SIZE pixels on its longer side."""
    # The cells as they are, without asking the rules who could move first (that search is
    # what a picture of a large map would otherwise spend its time on).
    state = GameState(board, board.cells, (board.overrides,) * board.players,
                      (board.bombs,) * board.players, frozenset(), BUILD, None)
    return render_svg(state, caption=map_caption(board), size=_notebook_size(state))
