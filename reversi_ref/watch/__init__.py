"""Watch a game live in the browser, and let a person play in it (issue 24).

- `serve --watch [HOST:]PORT`: the referee's game (`watch_referee`);
- `client --watch [HOST:]PORT`: the game as our client sees it, with its search's report on
  each of its moves (`watch_client`);
- `reversi-ref human` and `play --players human,...`: the same page takes a person's clicks
  (`reversi_ref.human`).

Everything is the standard library: `http.server` in a thread, server-sent events, and a page
whose board is drawn by the replay's code (`reversi_ref.render.html`).  The parts: `hub` (the
history and the spectators' bounded queues), `feed` (game steps to frames, on a worker thread,
and the observers), `server` (HTTP) and `page` (HTML and JavaScript).
"""

from __future__ import annotations

import os
import sys
import webbrowser
from typing import TYPE_CHECKING, Callable, Dict, Optional, TextIO

from ..protocol import MoveRequest
from ..state import GameState
from .feed import ClientWatcher, GameWatcher, LiveFeed, SearchReport, principal_variation
from .hub import Event, Hub
from .page import render_live_page
from .server import Mover, WatchServer, parse_address

if TYPE_CHECKING:
    from ..client import Client
    from ..referee import Referee

HUMAN_GROUP = 99


class Watch:
    """A running live page: its HTTP server and, once the map is known, the game's feed."""

    def __init__(self, address: str, title: str, interactive: bool = False,
                 mover: Optional[Mover] = None, hub: Optional[Hub] = None) -> None:
        host, port = parse_address(address)
        self.title = title
        self.interactive = interactive
        self.server = WatchServer(host, port, title, hub, mover)
        self.hub = self.server.hub
        self.feed: Optional[LiveFeed] = None

    @property
    def url(self) -> str:
        """The page's address."""
        return self.server.url

    def start(self, state: GameState, banks: Optional[Callable[[], Dict[int, str]]] = None,
              threaded: bool = True) -> LiveFeed:
        """The game starts at `state`: serve its page and feed its frames."""
        self.feed = LiveFeed(self.hub, state, banks, threaded)
        self.server.html = render_live_page(state, self.title, self.interactive)
        return self.feed

    def close(self, linger: float = 2.0) -> None:
        """Post what is still queued, end the event streams (giving them up to `linger`
        seconds to send it) and stop serving."""
        if self.feed is not None:
            self.feed.flush()
            self.feed.stop()
        self.server.close(linger)


def announce(watch: Watch, out: Optional[TextIO], open_browser: bool = False) -> None:
    """Print the page's address; open it in a browser when asked and a display exists."""
    if out is not None:
        print("watch the game at %s" % watch.url, file=out)
        out.flush()
    if open_browser and has_display():
        try:
            webbrowser.open(watch.url)
        except Exception:  # no browser is no reason to stop the game
            pass


def has_display() -> bool:
    """Whether a browser window could be shown (a desktop session, macOS or Windows)."""
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
                or sys.platform in ("darwin", "win32"))


def watch_referee(referee: "Referee", address: str, out: Optional[TextIO] = None) -> Watch:
    """The live page of `referee`'s game on `address` ([HOST:]PORT): every move, with each
    player's time bank ("no limit" without `-t` and for a human, group 99)."""
    watch = Watch(address, "reversi-ref serve: %s" % referee.map_name)

    def banks() -> Dict[int, str]:
        shown: Dict[int, str] = {}
        for player in range(1, referee.game.state.players + 1):
            connection = referee.connections.get(player)
            human = connection is not None and connection.group == HUMAN_GROUP
            if referee.time_limit <= 0 or human:
                shown[player] = "no limit"
            else:
                shown[player] = "%d ms" % referee.banks.get(player, referee.time_limit * 1000)
        return shown

    referee.observers.append(GameWatcher(watch.start(referee.game.state, banks)))
    announce(watch, out)
    return watch


def watch_client(client: "Client", address: str, out: Optional[TextIO] = None,
                 interactive: bool = False, mover: Optional[Mover] = None,
                 hub: Optional[Hub] = None, open_browser: bool = False) -> Watch:
    """The live page of the game `client` plays, as it sees it, on `address` ([HOST:]PORT);
    the page starts once the server has sent the map and our player number."""
    watch = Watch(address, "reversi-ref %s (group %d)" % (client.player.name, client.group),
                  interactive, mover, hub)

    def banks() -> Dict[int, str]:
        # Only our own bank is known: the time field of our last move request (RULES.md 8).
        for message in reversed(client.history):
            if isinstance(message, MoveRequest):
                return {client.me: "%d ms" % message.time_ms if message.time_ms
                        else "no limit"}
        return {}

    def start(state: GameState) -> LiveFeed:
        watch.title = "reversi-ref: player %d (%s, group %d)" % (
            client.me, client.player.name, client.group)
        return watch.start(state, banks)

    client.observers.append(ClientWatcher(start))
    announce(watch, out, open_browser)
    return watch


__all__ = ["ClientWatcher", "Event", "GameWatcher", "Hub", "LiveFeed", "SearchReport",
           "Watch", "WatchServer", "announce", "parse_address", "principal_variation",
           "render_live_page", "watch_client", "watch_referee"]
