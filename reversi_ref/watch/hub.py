"""The event hub between a running game and its spectators (server-sent events).

The game side calls `post` (a new frame of the game's history) and `set_prompt` (a human's
turn, or None when it is over); neither ever blocks: each spectator has a bounded queue, an
event is put into it without waiting, and a spectator whose queue is full (a slow or stalled
browser) is dropped.  Its browser reconnects by itself and, sending the id of the last event it
got (`Last-Event-ID`), receives what it missed from the history.

The history keeps every frame event (ids 0, 1, 2, ...: the frame numbers); the prompt is state,
not history: a new subscriber gets the current one after the backlog.  Events without an id
(prompt, over) leave the browser's last event id at the last frame.
"""

from __future__ import annotations

import json
import queue
import threading
from typing import Any, List, NamedTuple, Optional, Tuple

QUEUE_LIMIT = 512  # events a spectator may lag behind before it is dropped


class Event(NamedTuple):
    """One server-sent event: its id (-1: none), name and JSON data."""

    ident: int
    name: str
    data: str

    def encode(self) -> bytes:
        """The event in the text/event-stream format."""
        head = "id: %d\n" % self.ident if self.ident >= 0 else ""
        return ("%sevent: %s\ndata: %s\n\n" % (head, self.name, self.data)).encode("utf-8")


class Spectator:
    """One subscriber: its queue of events to send (None: the hub closed) and whether the
    hub dropped it."""

    def __init__(self, limit: int) -> None:
        self.queue: "queue.Queue[Optional[Event]]" = queue.Queue(maxsize=limit)
        self.dropped = False

    def offer(self, event: Optional[Event]) -> bool:
        """Queue `event` without waiting; False (and dropped) when the queue is full."""
        try:
            self.queue.put_nowait(event)
            return True
        except queue.Full:
            self.dropped = True
            return False


class Hub:
    """The game's history and its spectators."""

    def __init__(self, limit: int = QUEUE_LIMIT) -> None:
        self.limit = limit
        self.lock = threading.Lock()
        self.history: List[Event] = []
        self.prompt: Optional[Event] = None
        self.ending: Optional[Event] = None
        self.spectators: List[Spectator] = []
        self.dropped = 0
        self.closed = False

    def _fan_out(self, event: Optional[Event]) -> None:
        """Give `event` to every spectator; drop those that cannot take it (lock held)."""
        keep: List[Spectator] = []
        for spectator in self.spectators:
            if spectator.offer(event):
                keep.append(spectator)
            else:
                self.dropped += 1
        self.spectators = keep

    def post(self, data: Any) -> Event:
        """Add a frame to the history and send it to every spectator."""
        with self.lock:
            event = Event(len(self.history), "frame", json.dumps(data, separators=(",", ":")))
            self.history.append(event)
            self._fan_out(event)
            return event

    def set_prompt(self, data: Any) -> None:
        """Tell the spectators whose turn a human has (None: no human is asked now)."""
        with self.lock:
            self.prompt = Event(-1, "prompt", json.dumps(data, separators=(",", ":")))
            self._fan_out(self.prompt)

    def finish(self, data: Any) -> None:
        """The game is over: say so (with `data`) to every spectator, now and later."""
        with self.lock:
            self.ending = Event(-1, "over", json.dumps(data, separators=(",", ":")))
            self._fan_out(self.ending)

    def subscribe(self, after: int = -1) -> Tuple[Spectator, List[Event]]:
        """A new spectator, and the events it must be sent first: the frames after id
        `after` (-1: all), then the current prompt and the end, if any."""
        with self.lock:
            spectator = Spectator(self.limit)
            backlog = self.history[max(0, after + 1):]
            backlog += [e for e in (self.prompt, self.ending) if e is not None]
            if self.closed:
                spectator.offer(None)
            else:
                self.spectators.append(spectator)
            return spectator, backlog

    def unsubscribe(self, spectator: Spectator) -> None:
        """Forget `spectator` (its connection ended)."""
        with self.lock:
            if spectator in self.spectators:
                self.spectators.remove(spectator)

    def close(self) -> None:
        """No more events: every spectator's stream ends after what it has queued."""
        with self.lock:
            self.closed = True
            self._fan_out(None)
            self.spectators = []

    @property
    def frames(self) -> int:
        """How many frames the history holds."""
        return len(self.history)
