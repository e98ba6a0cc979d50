"""Game records: read a trace, replay it through the rules, and give every position with the
move that led to it and what that move did.

Both trace formats are read: the one our referee writes (`reversi_ref.referee`, format
"reversi-ref-trace-1") and the official-server traces of the golden suite
(`../shared/traces/README.md`), plain JSON or gzip-compressed.  Only the fields they share are
used: `map_text`, `moves[{player, x, y, special, rejected, board_after, valid_next}]`,
`initial.valid`, `disqualifications[{player, after_move}]` and `final.scores`.

The positions are recomputed with the public rules API (`parse_map`, `play`, `disqualify`),
never taken from the file; a recorded board that disagrees with the replay is an error, so a
picture never shows a position the rules would not reach.

Frames are numbered like the positions of the game: frame 0 is the start, frame k the position
after the k-th recorded move (trace entry `"move": k - 1`).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

from .. import parse_map
from ..errors import IllegalMoveError, MapError, TraceError
from ..geometry import Cell
from ..rules import blast_cells, captured_cells, disqualify, legal_moves, play
from ..state import BOMB, BUILD, GameState, Move

GZIP_MAGIC = b"\x1f\x8b"


class Frame(NamedTuple):
    """One position of a recorded game and the move that led to it.

    `state` is the position after the move (the start for frame 0).  `player`, `move`,
    `phase` ("build" or "bomb") and `before` describe the move; `captured` are the cells its
    capture lines took (RULES.md 3), `blasted` the cells its bomb destroyed (RULES.md 5);
    `disqualified` the players disqualified by this step (RULES.md 6) and `reason` why.
    `legal` are the positions legal for the player to move next (building phase only).
    """

    number: int
    state: GameState
    before: Optional[GameState]
    player: Optional[int]
    move: Optional[Move]
    phase: Optional[str]
    captured: Tuple[Cell, ...]
    blasted: Tuple[Cell, ...]
    rejected: bool
    reason: Optional[str]
    disqualified: Tuple[int, ...]
    legal: Tuple[Cell, ...]


class Record(NamedTuple):
    """A whole recorded game: its map text, its format name and every frame (0 = the start)."""

    map_text: str
    format: str
    frames: Tuple[Frame, ...]
    source: str

    @property
    def players(self) -> int:
        """The number of players n the map declares."""
        return self.frames[0].state.players

    def frame(self, number: int) -> Frame:
        """Frame `number` (0 = the start; negative numbers count from the end, -1 = the last);
        TraceError when there is no such frame."""
        count = len(self.frames)
        if not -count <= number < count:
            raise TraceError("%s: no move %d: the game has %d moves (0..%d)"
                             % (self.source, number, count - 1, count - 1))
        return self.frames[number]


# --------------------------------------------------------------------------- positions


def legal_positions(state: GameState) -> Tuple[Cell, ...]:
    """The cells the player to move may play on in the building phase, sorted by (y, x);
    () in the bombing phase (every non-hole cell would be) and when the game is over."""
    if state.phase != BUILD or state.to_move is None:
        return ()
    seen: List[Cell] = []
    for move in legal_moves(state):
        if not seen or seen[-1] != (move.x, move.y):
            seen.append((move.x, move.y))
    return tuple(seen)


def move_effects(state: GameState, move: Move) -> Tuple[Tuple[Cell, ...], Tuple[Cell, ...]]:
    """The cells `move` captures (RULES.md 3) and the cells it blasts (RULES.md 5), computed
    on the position before it; () for the part that does not apply."""
    player = state.to_move
    if player is None or not state.map.is_on_board(move.x, move.y):
        return (), ()
    if state.phase == BUILD:
        return tuple(captured_cells(state, player, move.x, move.y)), ()
    if state.phase == BOMB:
        return (), tuple(blast_cells(state, move.x, move.y))
    return (), ()


def initial_frame(state: GameState, legal: Optional[Sequence[Cell]] = None) -> Frame:
    """Frame 0 of a game starting at `state` (legal positions computed unless given)."""
    marks = legal_positions(state) if legal is None else tuple(legal)
    return Frame(0, state, None, None, None, None, (), (), False, None, (), marks)


def next_frame(previous: Frame, move: Move, legal: Optional[Sequence[Cell]] = None) -> Frame:
    """The frame after the player to move in `previous` plays `move` (IllegalMoveError when the
    rules do not allow it)."""
    before = previous.state
    captured, blasted = move_effects(before, move)
    after = play(before, move)
    marks = legal_positions(after) if legal is None else tuple(legal)
    return Frame(previous.number + 1, after, before, before.to_move, Move(*move),
                 before.phase, captured, blasted, False, None, (), marks)


# --------------------------------------------------------------------------- reading traces


def read_trace_text(path: Union[str, Path]) -> str:
    """The JSON text of the trace at `path`, gzip-compressed or plain."""
    data = Path(path).read_bytes()
    if data[:2] == GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as error:
            raise TraceError("%s: not a readable gzip file (%s)" % (path, error)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise TraceError("%s: not UTF-8 text (%s)" % (path, error)) from None


def is_trace_text(text: str) -> bool:
    """Whether `text` looks like a JSON trace rather than a map file (a map starts with a
    number, a trace with `{`)."""
    return text.lstrip().startswith("{")


def load_record(path: Union[str, Path]) -> Record:
    """Read the trace at `path` (either format, gz or plain) and replay it."""
    text = read_trace_text(path)
    try:
        data = json.loads(text)
    except ValueError as error:
        raise TraceError("%s: not valid JSON (%s)" % (path, error)) from None
    return replay_trace(data, str(path))


def _field(data: Dict[str, Any], key: str, kind: Any, where: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise TraceError("%s: field %r is missing or not %s" % (
            where, key, getattr(kind, "__name__", "of the right type")))
    return value


def _cells(value: Any, where: str) -> Optional[Tuple[Cell, ...]]:
    """A recorded list of [x, y] positions, sorted by (y, x); None when absent."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise TraceError("%s: positions are not a list" % where)
    cells: List[Cell] = []
    for item in value:
        if (not isinstance(item, list) or len(item) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)):
            raise TraceError("%s: %r is not a position [x, y]" % (where, item))
        cells.append((item[0], item[1]))
    return tuple(sorted(cells, key=lambda c: (c[1], c[0])))


def _flat_rows(state: GameState) -> List[str]:
    w = state.width
    return ["".join(state.board[y * w:(y + 1) * w]) for y in range(state.height)]


def _late_disqualifications(data: Dict[str, Any], after_move: int) -> List[Tuple[int, str]]:
    """Disqualifications listed after move entry `after_move` (-1: before any move)."""
    found: List[Tuple[int, str]] = []
    for entry in data.get("disqualifications") or []:
        if isinstance(entry, dict) and entry.get("after_move") == after_move:
            player = entry.get("player")
            if isinstance(player, int) and not isinstance(player, bool):
                found.append((player, str(entry.get("reason") or "disqualified")))
    return found


def _apply_disqualifications(frame: Frame, found: List[Tuple[int, str]]) -> Frame:
    """`frame` with the players in `found` disqualified (those not already out)."""
    state = frame.state
    names: List[int] = list(frame.disqualified)
    reasons: List[str] = [frame.reason] if frame.reason else []
    for player, reason in found:
        if 1 <= player <= state.players and player not in state.disqualified:
            state = disqualify(state, player)
            names.append(player)
            reasons.append(reason)
    if state is frame.state:
        return frame
    return frame._replace(state=state, disqualified=tuple(names),
                          reason="; ".join(reasons) or None,
                          legal=legal_positions(state))


def replay_trace(data: Any, source: str = "trace") -> Record:
    """Replay a decoded trace (either format) into a Record; TraceError names the first
    problem (a missing field, an illegal move, a board that disagrees with the rules)."""
    if not isinstance(data, dict):
        raise TraceError("%s: a trace is a JSON object" % source)
    map_text = _field(data, "map_text", str, source)
    try:
        state = parse_map(map_text)
    except MapError as error:
        raise TraceError("%s: map_text: %s" % (source, error)) from None
    moves = _field(data, "moves", list, source)
    initial = data.get("initial")
    if not isinstance(initial, dict):
        initial = {}
    frame = initial_frame(state, _cells(initial.get("valid"), source + ": initial"))
    if state.phase != BUILD:
        frame = frame._replace(legal=())
    frame = _apply_disqualifications(frame, _late_disqualifications(data, -1))
    frames: List[Frame] = [frame]
    for index, entry in enumerate(moves):
        where = "%s: move entry %d" % (source, index)
        if not isinstance(entry, dict):
            raise TraceError("%s: not a JSON object" % where)
        frame = _replay_entry(frames[-1], entry, where)
        frame = _apply_disqualifications(frame, _late_disqualifications(data, index))
        board = entry.get("board_after")
        if isinstance(board, list) and board != _flat_rows(frame.state):
            raise TraceError("%s: the recorded board differs from the rules' replay" % where)
        frames.append(frame)
    trace_format = data.get("format")
    return Record(map_text, str(trace_format) if trace_format else "unknown",
                  tuple(frames), source)


def _replay_entry(previous: Frame, entry: Dict[str, Any], where: str) -> Frame:
    """The frame after one move entry: the move played, or the mover disqualified."""
    state = previous.state
    player = entry.get("player")
    if state.to_move is None:
        raise TraceError("%s: the game is already over by the rules" % where)
    if player != state.to_move:
        raise TraceError("%s: the trace has player %r move, the rules ask player %d"
                         % (where, player, state.to_move))
    legal = _cells(entry.get("valid_next"), where)
    values = [entry.get(key) for key in ("x", "y", "special")]
    move: Optional[Move] = None
    numbers = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    if len(numbers) == 3:
        move = Move(numbers[0], numbers[1], numbers[2])
    if entry.get("rejected"):
        after = disqualify(state, state.to_move)
        reason = str(entry.get("reason") or "rejected")
        marks = legal_positions(after) if legal is None else legal
        if after.phase != BUILD:
            marks = ()
        return Frame(previous.number + 1, after, state, state.to_move, move, state.phase,
                     (), (), True, reason, (state.to_move,), marks)
    if move is None:
        raise TraceError("%s: x, y and special must be integers" % where)
    try:
        frame = next_frame(previous, move, legal)
    except IllegalMoveError as error:
        raise TraceError("%s: the rules reject the recorded move: %s" % (where, error)) from None
    if frame.state.phase != BUILD:
        frame = frame._replace(legal=())
    return frame


def record_from_moves(state: GameState, moves: Sequence[Move], source: str = "game") -> Record:
    """A Record of the game that starts at `state` and plays `moves` (for tests and tools that
    hold a game in memory)."""
    frames: List[Frame] = [initial_frame(state)]
    for move in moves:
        frames.append(next_frame(frames[-1], move))
    return Record("", "moves", tuple(frames), source)


def record_of_state(state: GameState, source: str = "map") -> Record:
    """A one-frame Record showing `state` (a map before any move)."""
    return Record("", "map", (initial_frame(state),), source)
