"""From a running game to frames: what the referee, a client or a local match tells the live
page, turned into the frames the replay draws (`reversi_ref.render.html.frame_data`).

`LiveFeed` takes the game's steps (a move, a disqualification, the end) from the game's thread
and returns at once; a worker thread replays them with the rules (`render.record.next_frame`:
captures, blasts, legal positions) and posts each frame to the hub.  So the referee, or our
client's search, only pays for putting a tuple into a queue.

Observers feed it:
- `GameWatcher(feed)` is called with a `match.Game` after every step of the referee (`serve`)
  or of a local match (`play`): it reads the new trace entries;
- `ClientWatcher(feed)` is called with our `client.Client` and each message it handled: it
  follows the announcements (6), disqualifications (7) and the end (9), and adds our search's
  report (depth, nodes, principal variation, evaluation) to our own moves.
"""

from __future__ import annotations

import queue
import threading
from html import escape
from typing import (TYPE_CHECKING, Any, Callable, Dict, List, Mapping, NamedTuple, Optional,
                    Sequence, Tuple)

from ..engine import BUILD as ENGINE_BUILD
from ..engine import Engine
from ..errors import IllegalMoveError
from ..geometry import Cell
from ..render.html import frame_data, winner_line
from ..render.record import Frame, initial_frame, legal_positions, next_frame
from ..rules import disqualify
from ..state import BUILD, OVER, GameState, Move

if TYPE_CHECKING:  # imported for annotations only: the referee and client import this module
    from ..client import Client
    from ..match import Game
    from ..protocol import Message
    from .hub import Hub

Banks = Callable[[], Dict[int, str]]
PV_LENGTH = 12  # moves of the principal variation shown


class SearchReport(NamedTuple):
    """What our search said about its move: depth, nodes, evaluation (the root player's
    view, in the evaluation's units), principal variation and the time it took."""

    depth: int
    nodes: int
    value: Optional[int]
    pv: Tuple[Move, ...]
    used_ms: int

    def html(self) -> str:
        """The report as a line of the page."""
        value = "" if self.value is None else ", evaluation %+d" % self.value
        pv = " ".join("(%d, %d%s)" % (m.x, m.y, " s%d" % m.special if m.special else "")
                      for m in self.pv)
        return ('<div class="search">search: depth %d, %d nodes%s, %d ms<br>'
                'principal variation: %s</div>' % (self.depth, self.nodes, value,
                                                   self.used_ms, escape(pv or "-")))


class LiveFeed:
    """The frames of one running game, built on a worker thread and posted to `hub`.

    `banks` (when given) returns each player's time bank as text for the frame being built.
    With `threaded=False` every step is built at once (tests).
    """

    def __init__(self, hub: "Hub", state: GameState, banks: Optional[Banks] = None,
                 threaded: bool = True, legal: Optional[Sequence[Cell]] = None) -> None:
        self.hub = hub
        self.banks = banks
        self.engine: Optional[Engine] = None
        self.frame = initial_frame(state, self._legal(state, legal))
        self.reasons: Dict[int, str] = {}
        self.inbox: "queue.SimpleQueue[Optional[Tuple[Any, ...]]]" = queue.SimpleQueue()
        self.worker: Optional[threading.Thread] = None
        self.over = False
        self._post(self.frame, None)
        if threaded:
            self.worker = threading.Thread(target=self._work, name="watch-feed", daemon=True)
            self.worker.start()

    # -- called from the game's thread (never blocks)

    def moved(self, player: int, move: Move, after: Optional[GameState] = None,
              legal: Optional[Sequence[Cell]] = None,
              search: Optional[SearchReport] = None) -> None:
        """`player` played `move` (`after`: the game's own state after it, if known)."""
        self._put(("move", player, move, after, legal, search, self._banks()))

    def disqualified(self, player: int, reason: str, after: Optional[GameState] = None,
                     answer: Optional[Move] = None,
                     legal: Optional[Sequence[Cell]] = None) -> None:
        """`player` was disqualified for `reason` (`answer`: the bad move it sent)."""
        self._put(("out", player, reason, after, answer, legal, self._banks()))

    def finished(self) -> None:
        """The game is over: tell the spectators once the frames before are out."""
        self._put(("over",))

    def flush(self, timeout: float = 10.0) -> None:
        """Wait until every step so far is posted (tests, and before shutting down)."""
        if self.worker is None:
            return
        done = threading.Event()
        self.inbox.put(("call", done.set))
        done.wait(timeout)

    def stop(self) -> None:
        """End the worker thread after the steps queued so far."""
        if self.worker is not None:
            self.inbox.put(None)
            self.worker.join(10.0)
            self.worker = None

    def _banks(self) -> Optional[Dict[int, str]]:
        return dict(self.banks()) if self.banks is not None else None

    def _put(self, step: Tuple[Any, ...]) -> None:
        if self.worker is None:
            self._apply(step)
        else:
            self.inbox.put(step)

    # -- the worker

    def _work(self) -> None:
        while True:
            step = self.inbox.get()
            if step is None:
                return
            try:
                self._apply(step)
            except Exception as error:  # a spectator's view must never stop the game
                self.hub.set_prompt({"error": "watch: %s: %s" % (type(error).__name__, error)})

    def _apply(self, step: Tuple[Any, ...]) -> None:
        kind = step[0]
        if kind == "move":
            _, player, move, after, legal, search, banks = step
            self.frame = self._next(player, move, after, legal)
            self._post(self.frame, banks, search)
        elif kind == "out":
            _, player, reason, after, answer, legal, banks = step
            self.frame = self._out(player, reason, after, answer, legal)
            self._post(self.frame, banks)
        elif kind == "over":
            self.over = True
            state = self.frame.state
            self.hub.finish({"frames": self.hub.frames,
                             "winner": winner_line(state) if state.phase == OVER else
                             "the game ended early"})
        elif kind == "call":
            step[1]()

    def _next(self, player: int, move: Move, after: Optional[GameState],
              legal: Optional[Sequence[Cell]]) -> Frame:
        """The frame after `move`, replayed by the rules; when the rules disagree with the
        game's state (a client follows the server), the game's state without effects."""
        previous = self.frame
        if previous.state.to_move == player:
            try:
                frame = next_frame(previous, move, () if legal is None else legal)
                if after is None or after.board == frame.state.board:
                    return frame._replace(legal=self._legal(frame.state, legal))
            except IllegalMoveError:
                pass
        state = after if after is not None else previous.state
        return Frame(previous.number + 1, state, previous.state, player, move,
                     previous.state.phase, (), (), False, None, (), self._legal(state, legal))

    def _legal(self, state: GameState, known: Optional[Sequence[Cell]]) -> Tuple[Cell, ...]:
        """The positions legal for the player to move in `state` (building phase), sorted by
        (y, x): `known` when the game gave them, else from the fast engine, which is cheap
        enough on a 50 x 50 board to leave the game's own thread its time."""
        if state.phase != BUILD or state.to_move is None:
            return ()
        if known is not None:
            return tuple(sorted(known, key=lambda c: (c[1], c[0])))
        try:
            if self.engine is None:
                self.engine = Engine(state)
            else:
                self.engine.load_state(state)
        except ValueError:
            return legal_positions(state)
        decode = self.engine.decode_move
        cells = {(m.x, m.y) for m in map(decode, self.engine.legal_moves())}
        return tuple(sorted(cells, key=lambda c: (c[1], c[0])))

    def _out(self, player: int, reason: str, after: Optional[GameState],
             answer: Optional[Move], legal: Optional[Sequence[Cell]]) -> Frame:
        """The frame after `player` is disqualified."""
        previous = self.frame
        before = previous.state
        state = after if after is not None else disqualify(before, player)
        self.reasons[player] = reason
        rejected = before.to_move == player
        return Frame(previous.number + 1, state, before, player, answer, before.phase, (), (),
                     rejected, reason, (player,), self._legal(state, legal))

    def _post(self, frame: Frame, banks: Optional[Mapping[int, str]],
              search: Optional[SearchReport] = None) -> None:
        data = frame_data(frame, None, self.reasons, banks)
        if search is not None:
            data["i"] += search.html()
            data["s"] = {"depth": search.depth, "nodes": search.nodes, "value": search.value,
                         "pv": [list(m) for m in search.pv]}
        data["n"] = frame.number
        self.hub.post(data)


# --------------------------------------------------------------------------- observers


def _cells(value: Any) -> Optional[List[Cell]]:
    if not isinstance(value, list):
        return None
    return [(int(c[0]), int(c[1])) for c in value]


class GameWatcher:
    """Observer of a `match.Game` (the referee's books): call it after every step."""

    def __init__(self, feed: LiveFeed) -> None:
        self.feed = feed
        self.seen = 0
        self.ended = False

    def __call__(self, game: "Game") -> None:
        entries = game.trace["moves"][self.seen:]
        self.seen += len(entries)
        for number, entry in enumerate(entries):
            after = game.state if number == len(entries) - 1 else None
            legal = _cells(entry.get("valid_next"))
            player = int(entry["player"])
            move = (None if entry.get("x") is None
                    else Move(int(entry["x"]), int(entry["y"]), int(entry["special"])))
            if entry.get("rejected"):
                self.feed.disqualified(player, str(entry.get("reason") or "disqualified"),
                                       after, move, legal)
            elif move is not None:
                self.feed.moved(player, move, after, legal)
        if game.is_over and not self.ended:
            self.ended = True
            self.feed.finished()


def principal_variation(player: Any, first: Move, limit: int = PV_LENGTH) -> Tuple[Move, ...]:
    """The moves our search expects from `first` on, read from its transposition table
    (a `SearchPlayer` right after its move; `(first,)` for other players)."""
    searcher = getattr(player, "searcher", None)
    if searcher is None:
        return (first,)
    from ..search.alphabeta import MOVE_MASK
    from ..search.table import NO_MOVE
    engine, table = searcher.engine, searcher.table
    line = [first]
    made = 0
    try:
        start = engine.encode_move(first)
        if engine.phase != ENGINE_BUILD or not engine.is_legal(start):
            return (first,)
        engine.make(start)
        made = 1
        while len(line) < limit and engine.phase == ENGINE_BUILD:
            index = table.probe(engine.hash)
            if index < 0 or table.moves[index] == NO_MOVE:
                break
            move = table.moves[index] & MOVE_MASK
            if not engine.is_legal(move):
                break
            line.append(engine.decode_move(move))
            engine.make(move)
            made += 1
    except (IllegalMoveError, ValueError, IndexError):
        pass  # a stale entry: the line ends there
    finally:
        for _ in range(made):
            engine.unmake()
    return tuple(line)


class ClientWatcher:
    """Observer of our `client.Client`: call it with each message the client handled."""

    def __init__(self, start: Callable[[GameState], LiveFeed]) -> None:
        self.start = start
        self.feed: Optional[LiveFeed] = None
        self.state: Optional[GameState] = None
        self.report: Optional[SearchReport] = None
        self.asked_at = 0.0

    def __call__(self, client: "Client", message: "Message") -> None:
        from ..protocol import (Disqualification, EndOfGame, MoveAnnouncement, MoveRequest,
                                PlayerNumber)
        state = client.state
        if state is None:
            return
        if self.feed is None:
            if not isinstance(message, PlayerNumber):
                return
            self.feed = self.start(state)
            self.state = state
            return
        feed = self.feed
        if isinstance(message, MoveRequest):
            self.report = self._report(client)
        elif isinstance(message, MoveAnnouncement):
            move = Move(message.x, message.y, message.special)
            report = self.report if message.player == client.me else None
            if report is not None:
                self.report = None
            feed.moved(message.player, move, state, None, report)
        elif isinstance(message, Disqualification):
            reason = "disqualified by the server (message 7)"
            if message.player == client.me:
                reason += "; that is us"
            feed.disqualified(message.player, reason, state)
        elif isinstance(message, EndOfGame):
            feed.finished()
        self.state = state

    def _report(self, client: "Client") -> Optional[SearchReport]:
        """Our search's report on the move just sent (None before any)."""
        move = client.last_answer
        if move is None:
            return None
        info = client.player.info
        value = getattr(client.player, "last_value", None)
        pv = principal_variation(client.player, move)
        return SearchReport(info.depth, info.nodes, value if isinstance(value, int) else None,
                            pv, int(client.last_answer_ms))
