"""The live page's machinery without a browser: the event hub (history, reconnects, dropping a
slow spectator), the frames fed from a game, and the HTTP server's event stream
(RULES.md 6-8: what the referee and a client see)."""

from __future__ import annotations

import json
import socket
import threading
import urllib.request
from typing import Any, Dict, List, Optional, Tuple

import pytest

from reversi_ref import legal_moves, parse_map, play
from reversi_ref.client import Client
from reversi_ref.match import Game, run_match
from reversi_ref.players import get
from reversi_ref.players.search import SearchPlayer
from reversi_ref.referee import Referee
from reversi_ref.rules import scores
from reversi_ref.state import BUILD, Move
from reversi_ref.watch import (GameWatcher, Hub, LiveFeed, Watch, parse_address,
                               watch_client, watch_referee)
from helpers import OTHELLO6_WITH_BOMBS


SMALL = OTHELLO6_WITH_BOMBS


def read_events(url: str, until: str = "over", timeout: float = 60.0,
                headers: Optional[Dict[str, str]] = None) -> List[Tuple[str, Any]]:
    """The (name, data) of the server-sent events at `url` up to the first `until` event."""
    request = urllib.request.Request(url, headers=headers or {})
    events: List[Tuple[str, Any]] = []
    with urllib.request.urlopen(request, timeout=timeout) as stream:
        name = ""
        for raw in stream:
            line = raw.decode("utf-8").rstrip("\n")
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                events.append((name, json.loads(line[6:])))
                if name == until:
                    break
    return events


# --------------------------------------------------------------------------- the hub


def test_hub_resends_the_history_after_the_last_event_id() -> None:
    """A reconnecting browser gets the frames after the id it names, then the prompt."""
    hub = Hub()
    for n in range(5):
        hub.post({"n": n})
    hub.set_prompt({"player": 1})
    _, backlog = hub.subscribe(after=2)
    assert [e.ident for e in backlog] == [3, 4, -1]
    assert [e.name for e in backlog] == ["frame", "frame", "prompt"]
    assert b"id: 3\nevent: frame\ndata: {\"n\":3}\n\n" == backlog[0].encode()
    _, everything = hub.subscribe()
    assert [json.loads(e.data).get("n") for e in everything] == [0, 1, 2, 3, 4, None]


def test_hub_drops_a_spectator_that_does_not_keep_up() -> None:
    """A full queue drops its spectator at once; the game's post never waits, and the others
    still get every event."""
    hub = Hub(limit=3)
    slow, _ = hub.subscribe()
    fast, _ = hub.subscribe()
    received: List[int] = []
    for n in range(10):
        hub.post({"n": n})
        while not fast.queue.empty():
            event = fast.queue.get_nowait()
            assert event is not None
            received.append(json.loads(event.data)["n"])
    assert slow.dropped and not fast.dropped
    assert hub.dropped == 1
    assert received == list(range(10))
    assert hub.spectators == [fast]


def test_hub_close_ends_every_stream() -> None:
    """After close, queues end with None and a late subscriber gets the backlog and the end."""
    hub = Hub()
    spectator, _ = hub.subscribe()
    hub.post({"n": 0})
    hub.finish({"winner": "x"})
    hub.close()
    items = [spectator.queue.get_nowait() for _ in range(3)]
    assert items[2] is None and items[1] is not None and items[1].name == "over"
    late, backlog = hub.subscribe()
    assert [e.name for e in backlog] == ["frame", "over"]
    assert late.queue.get_nowait() is None


@pytest.mark.parametrize("text, expected", [("8080", ("127.0.0.1", 8080)),
                                            ("0.0.0.0:0", ("0.0.0.0", 0)),
                                            ("[::1]:9000", ("::1", 9000))])
def test_parse_address(text: str, expected: Tuple[str, int]) -> None:
    """--watch takes [HOST:]PORT."""
    assert parse_address(text) == expected


@pytest.mark.parametrize("text", ["", "x", ":80", "host:99999", "80a"])
def test_rejects_a_bad_address(text: str) -> None:
    """Anything else is a ValueError naming the expected form."""
    with pytest.raises(ValueError, match=r"\[HOST:\]PORT"):
        parse_address(text)


# --------------------------------------------------------------------------- frames


def test_feed_builds_one_frame_per_move_of_a_local_match() -> None:
    """RULES.md 3-5: every move of a match becomes a frame whose board is the referee's
    board after it (from the trace), and the end names the winner by the final scores."""
    state = parse_map(SMALL)
    hub = Hub()
    feed = LiveFeed(hub, state, threaded=False)
    game = Game(state, SMALL)
    run_match(game, {1: get("greedy"), 2: get("random", 3)}, 1, observer=GameWatcher(feed))
    frames = [json.loads(e.data) for e in hub.history]
    moves = game.trace["moves"]
    assert len(frames) == len(moves) + 1
    for frame, entry in zip(frames[1:], moves):
        assert frame["b"] == "".join(entry["board_after"])
    assert any("phase 2 (bombing)" in f["i"] for f in frames)
    counts = scores(game.state)
    best = max(counts.values())
    winners = [p for p, c in counts.items() if c == best]
    assert hub.ending is not None
    winner = json.loads(hub.ending.data)["winner"]
    if len(winners) == 1:
        assert winner == "Winner: player %d with %d stones" % (winners[0], best)
    else:
        assert winner.startswith("Tie: players")
    assert '<div class="winner">' in frames[-1]["i"]


def test_feed_shows_a_disqualification_with_its_reason() -> None:
    """RULES.md 6: the disqualified player's row is struck and the reason is shown."""
    state = parse_map(SMALL)
    hub = Hub()
    feed = LiveFeed(hub, state, threaded=False)
    game = Game(state, SMALL)
    watcher = GameWatcher(feed)
    game.start()
    game.answer(Move(0, 0, 0))  # captures nothing: illegal, player 1 is out
    watcher(game)
    last = json.loads(hub.history[-1].data)
    assert 'class="out"' in last["i"]
    assert "player 1 disqualified" in last["i"] and "RULES.md 3" in last["i"]
    assert hub.ending is not None  # a sole remaining player ends the game


def test_feed_marks_the_legal_positions_as_the_rules_do() -> None:
    """RULES.md 3: without the referee's list (a client's view), every frame marks the cells
    where the player to move may play, as the rules' legal moves say."""
    state = parse_map(SMALL)
    hub = Hub()
    feed = LiveFeed(hub, state, threaded=False)
    game = Game(state, SMALL)
    run_match(game, {1: get("random", 5), 2: get("greedy")})
    after = state
    for entry in game.trace["moves"]:
        move = Move(entry["x"], entry["y"], entry["special"])
        after = play(after, move)
        feed.moved(entry["player"], move, after)
        frame = json.loads(hub.history[-1].data)
        marked = {cell for kind, cell in frame["m"] if kind in (0, 1)}
        wanted = {m.y * after.width + m.x for m in legal_moves(after)} if after.phase == BUILD \
            else set()
        assert marked == wanted
        assert frame["b"] == "".join(after.board)


def test_feed_on_its_thread_posts_everything_before_the_end() -> None:
    """The threaded feed posts the frames in order, then the end."""
    state = parse_map(SMALL)
    hub = Hub()
    feed = LiveFeed(hub, state)
    game = Game(state, SMALL)
    run_match(game, {1: get("greedy"), 2: get("greedy")}, 1, observer=GameWatcher(feed))
    feed.flush()
    feed.stop()
    assert [e.ident for e in hub.history] == list(range(len(game.trace["moves"]) + 1))
    assert hub.ending is not None


# --------------------------------------------------------------------------- over HTTP


def _play_on_referee(referee: Referee, clients: List[Client]) -> List[threading.Thread]:
    port = referee.listen()
    threads = [threading.Thread(target=referee.run, daemon=True)]
    for client in clients:
        threads.append(threading.Thread(target=client.run, args=("127.0.0.1", port),
                                        daemon=True))
    for thread in threads:
        thread.start()
    return threads


def test_serve_watch_streams_the_whole_game() -> None:
    """`serve --watch`: the event stream carries the start, every move request's outcome with
    the time banks, and the end; a reconnect with Last-Event-ID resumes after it."""
    data = SMALL.encode()
    referee = Referee(data, parse_map(SMALL), time_limit=5, port=0, quiet=True)
    watch = watch_referee(referee, "127.0.0.1:0")
    try:
        threads = _play_on_referee(referee, [Client(get("greedy")), Client(get("random", 1))])
        events = read_events(watch.url + "events")
        for thread in threads:
            thread.join(30)
        frames = [d for name, d in events if name == "frame"]
        assert [f["n"] for f in frames] == list(range(len(referee.game.trace["moves"]) + 1))
        assert frames[-1]["b"] == "".join(referee.game.trace["moves"][-1]["board_after"])
        assert "<th>bank</th>" in frames[1]["i"] and " ms</td>" in frames[1]["i"]
        assert events[-1][0] == "over"
        resumed = read_events(watch.url + "events", headers={"Last-Event-ID": "3"})
        assert [d["n"] for n, d in resumed if n == "frame"] == [f["n"] for f in frames[4:]]
        after = read_events(watch.url + "events?after=%d" % (len(frames) - 2))
        assert [n for n, _ in after] == ["frame", "over"]
        page = urllib.request.urlopen(watch.url, timeout=10).read().decode("utf-8")
        assert 'id="board-data"' in page and "reversiBoard" in page
        assert "<script src" not in page and "<link" not in page
    finally:
        watch.close()


def test_client_watch_reports_the_search() -> None:
    """`client --watch`: each of our moves carries depth, nodes, the principal variation
    (starting with the move played) and the evaluation."""
    referee = Referee(SMALL.encode(), parse_map(SMALL), port=0, depth=2, quiet=True)
    ours = Client(SearchPlayer(), ponder=False)
    watch = watch_client(ours, "127.0.0.1:0")
    try:
        threads = _play_on_referee(referee, [ours, Client(get("greedy"))])
        for thread in threads:
            thread.join(60)
        assert watch.feed is not None
        watch.feed.flush()
        frames = [json.loads(e.data) for e in watch.hub.history]
        searched = [f for f in frames if "s" in f]
        own = [e for e in referee.game.trace["moves"] if e["player"] == ours.me
               and e["phase"] == 1]
        assert len(searched) >= len(own) > 0
        for frame in searched:
            assert frame["s"]["depth"] >= 1 and frame["s"]["nodes"] >= 1
            assert "principal variation" in frame["i"]
        first = next(e for e in referee.game.trace["moves"] if e["player"] == ours.me)
        assert searched[0]["s"]["pv"][0] == [first["x"], first["y"], first["special"]]
    finally:
        watch.close()


def test_a_stalled_browser_never_holds_up_the_game() -> None:
    """A spectator that connects and never reads is dropped when its queue is full, while
    every post returns (RULES.md 8: the referee must keep its clocks)."""
    hub = Hub(limit=4)
    watch = Watch("127.0.0.1:0", "test", hub=hub)
    watch.server.html = "page"
    host, port = watch.server.httpd.server_address[:2]
    stalled = socket.create_connection((str(host), port))
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    try:
        stalled.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        subscribed = threading.Event()
        for _ in range(500):
            if hub.spectators or subscribed.wait(0.01):
                break
        assert len(hub.spectators) == 1
        big = "x" * 200000
        for n in range(200):
            hub.post({"n": n, "pad": big})
            if hub.dropped:
                break
        assert hub.dropped == 1
        assert hub.spectators == []
    finally:
        stalled.close()
        watch.close(linger=0)
