"""Pictures of positions and games: terminal text, SVG, and a self-contained HTML replay.

- `render_text(state, last_move, captured, legal, color)` -> the board as terminal text;
- `render_svg(state, last_move, captured, legal, blasted, coordinates)` -> an SVG document;
- `render_replay(record)` -> an HTML page stepping through a recorded game;
- `load_record(path)` -> a `Record` (every position of a trace, replayed through the rules).
"""

from __future__ import annotations

from ..errors import TraceError
from .html import render_replay
from .record import Frame, Record, load_record, record_from_moves, replay_trace
from .svg import PALETTE, render_svg
from .text import render_text, use_color

__all__ = [
    "Frame", "PALETTE", "Record", "TraceError", "load_record", "record_from_moves",
    "render_replay", "render_svg", "render_text", "replay_trace", "use_color",
]
