"""The live page's HTTP server: the standard library's ThreadingHTTPServer in a thread.

- `GET /` the page (or a page that reloads itself until the game's map is known);
- `GET /events` the server-sent events of the hub: the frames after `Last-Event-ID` (the
  browser's reconnect) or `?after=N`, then every new one as it comes;
- `POST /move` (only with a `mover`): a human's move as JSON `{"x", "y", "special"}`;
  the answer is `{"ok": true}` or `{"ok": false, "error": the rule that refuses it}`.

Each spectator is served by its own thread, which alone waits on its browser; a write that
blocks longer than WRITE_TIMEOUT ends that connection.  Nothing is fetched from elsewhere.
"""

from __future__ import annotations

import argparse
import json
import queue
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, Optional, Tuple
from urllib.parse import parse_qs, urlsplit

from .hub import Event, Hub

WRITE_TIMEOUT = 10.0    # seconds a write to a browser may block before we give it up
KEEPALIVE = 15.0        # seconds between comments on an idle event stream
MAX_BODY = 4096         # bytes of a posted move

# A human's move: the posted JSON object -> (accepted, why not).
Mover = Callable[[Dict[str, Any]], Tuple[bool, str]]


def parse_address(text: str, default_host: str = "127.0.0.1") -> Tuple[str, int]:
    """`[HOST:]PORT` as (host, port); ValueError saying what is wrong (port 0: any free)."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host = default_host
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not port.isdigit() or not 0 <= int(port) < 65536 or (sep and not host):
        raise ValueError("expected [HOST:]PORT with PORT 0..65535, got %r" % text)
    return host, int(port)


def watch_address(text: str) -> str:
    """argparse type of the --watch options: `[HOST:]PORT`, checked (a usage error naming
    what is wrong otherwise)."""
    try:
        parse_address(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


class _Handler(BaseHTTPRequestHandler):
    server: "_Server"
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Keep the terminal for the game."""

    def _send(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        """The page or the event stream."""
        url = urlsplit(self.path)
        if url.path in ("/", "/index.html"):
            self._send(200, "text/html; charset=utf-8", self.server.watch.page().encode("utf-8"))
        elif url.path == "/events":
            self._stream(url.query)
        else:
            self._send(404, "text/plain; charset=utf-8", b"not found\n")

    def do_POST(self) -> None:
        """A human's move."""
        mover = self.server.watch.mover
        if urlsplit(self.path).path != "/move" or mover is None:
            self._send(404, "text/plain; charset=utf-8", b"not found\n")
            return
        length = int(self.headers.get("Content-Length") or 0)
        if not 0 < length <= MAX_BODY:
            self._answer(False, "a move is a small JSON object")
            return
        try:
            data = json.loads(self.rfile.read(length).decode("utf-8"))
        except ValueError:
            self._answer(False, "a move is a JSON object {x, y, special}")
            return
        if not isinstance(data, dict):
            self._answer(False, "a move is a JSON object {x, y, special}")
            return
        self._answer(*mover(data))

    def _answer(self, ok: bool, error: str) -> None:
        body = json.dumps({"ok": True} if ok else {"ok": False, "error": error})
        self._send(200, "application/json", body.encode("utf-8"))

    def _after(self, query: str) -> int:
        """The id of the last event the browser has (-1: none)."""
        text = self.headers.get("Last-Event-ID") or (parse_qs(query).get("after") or [""])[0]
        try:
            return max(-1, int(text))
        except ValueError:
            return -1

    def _stream(self, query: str) -> None:
        watch = self.server.watch
        hub = watch.hub
        spectator, backlog = hub.subscribe(self._after(query))
        with watch.lock:
            watch.streams += 1
        try:
            self.connection.settimeout(WRITE_TIMEOUT)
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            self.wfile.write(b"retry: 1000\n\n")
            for event in backlog:
                self.wfile.write(event.encode())
            self.wfile.flush()
            while not spectator.dropped:
                try:
                    item: Optional[Event] = spectator.queue.get(timeout=KEEPALIVE)
                except queue.Empty:
                    self.wfile.write(b": still here\n\n")
                    self.wfile.flush()
                    continue
                if item is None:
                    break
                self.wfile.write(item.encode())
                self.wfile.flush()
        except OSError:
            pass  # the browser went away or stalled; it reconnects if it still can
        finally:
            hub.unsubscribe(spectator)
            with watch.lock:
                watch.streams -= 1


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    watch: "WatchServer"


class WatchServer:
    """The live page of one game on `host`:`port` (0: any free port), serving in a thread.

    `html` is the page (None until the map is known: a page that waits is served); `hub`
    the events; `mover` takes a human's posted moves.
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0, title: str = "reversi-ref",
                 hub: Optional[Hub] = None, mover: Optional[Mover] = None) -> None:
        self.title = title
        self.html: Optional[str] = None
        self.hub = hub if hub is not None else Hub()
        self.mover = mover
        self.streams = 0
        self.lock = threading.Lock()
        self.waiting = "waiting for the game to start..."
        self.httpd = _Server((host, port), _Handler)
        self.httpd.watch = self
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="watch-http",
                                       kwargs={"poll_interval": 0.2}, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        """The page's address."""
        host, port = self.httpd.server_address[:2]
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else str(host)
        if ":" in shown:
            shown = "[%s]" % shown
        return "http://%s:%d/" % (shown, port)

    def page(self) -> str:
        """The HTML served at `/`."""
        if self.html is None:
            from .page import waiting_page
            return waiting_page(self.title, self.waiting)
        return self.html

    def close(self, linger: float = 2.0) -> None:
        """End every event stream (giving them up to `linger` seconds to send what they
        have queued) and stop serving."""
        self.hub.close()
        deadline = time.monotonic() + linger
        while self.streams and time.monotonic() < deadline:
            time.sleep(0.02)
        self.httpd.shutdown()
        self.httpd.server_close()
