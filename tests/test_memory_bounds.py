"""The client's memory over a whole game stays bounded (issue 19): size checks, no timing.

Every structure the client and the search player keep from move to move has a fixed size or
an explicit cap: `Client.history` (HISTORY_LIMIT), the transposition table (2**tt_bits
entries), the evaluation cache (2**EVAL_CACHE_BITS), the bombing solver's tables (2**TABLE_BITS
and 2**COUNTS_BITS), the killer and history tables and the engine's undo stack (empty between
moves).  The tests play long games and check the sizes;
the last one counts every container reachable from the client and its player (and the items
in them), which must not grow from the middle of a game to its end.  The full-game RSS curve
is `python -m reversi_ref bench soak` (docs/soak.md) and the slow `test_search_memory.py`.
"""

from __future__ import annotations

import gc
import io
import socket
import sys
import threading
import types
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

import pytest

from helpers import map_text
from reversi_ref import client as client_module
from reversi_ref import soak
from reversi_ref.cli import build_parser
from reversi_ref.client import (HISTORY_LIMIT, JIT_CODE_LIMIT_MB, JIT_RELEASE_MIN_MOVES, Client,
                                finish_client, format_memory, jit_code_mb, release_jit_code)
from reversi_ref.match import load_map
from reversi_ref.players import Player
from reversi_ref.players.search import SearchPlayer
from reversi_ref.protocol import (EndOfGame, EndOfPhase1, MapText, Message, MoveAnnouncement,
                                  MoveAnswer, MoveRequest, PlayerNumber, encode)
from reversi_ref.rules import legal_moves
from reversi_ref.search.alphabeta import MAX_PLY
from reversi_ref.search.config import DEFAULT_CONFIG
from reversi_ref.search.endgame import COUNTS_BITS, TABLE_BITS, solver_for
from reversi_ref.search.evaluate import EVAL_CACHE_BITS
from reversi_ref.state import BUILD, OVER, GameState, Move

MAPS = Path(__file__).resolve().parent.parent / "maps"
SQUARE = map_text("""
    0 0 0 0
    0 1 2 0
    0 2 1 0
    0 0 0 0
""").encode()
# More messages than the history may hold, several times over.
LONG_GAME = 6 * HISTORY_LIMIT


class FirstMove(Player):
    """Plays the first legal move."""

    def choose(self, state: GameState, time_ms: int, depth: int) -> Move:
        return legal_moves(state)[0]


class PairedClient(Client):
    """A client whose connection is one end of a socket pair (no network)."""

    def __init__(self, player: Player, end: socket.socket, out: io.StringIO) -> None:
        super().__init__(player, out=out, timeout=10.0, ponder=False)
        self.end = end

    def connect(self, host: str, port: int) -> None:
        self.sock = self.end


def test_history_keeps_the_latest_messages_only() -> None:
    """A game of LONG_GAME move requests: the history never holds more than twice
    HISTORY_LIMIT messages, ends with the latest ones in order, and the end of the game is
    still recognised; the memory log line reports the history's size."""
    ours, theirs = socket.socketpair()
    ours.settimeout(10.0)
    script: List[Message] = [MapText(SQUARE), PlayerNumber(1)]
    script += [MoveRequest(1000 + i, 0) for i in range(LONG_GAME)]
    script.append(EndOfGame())
    theirs.settimeout(10.0)

    def server() -> None:
        # Send the script, and read (and drop) the client's answers until it closes.
        theirs.sendall(b"".join(encode(m) for m in script))
        while theirs.recv(65536):
            pass
    thread = threading.Thread(target=server, daemon=True)
    thread.start()
    out = io.StringIO()
    client = PairedClient(FirstMove(), ours, out)
    client.memory_every = HISTORY_LIMIT
    sizes: List[int] = []
    client.observers.append(lambda c, _: sizes.append(len(c.history)))
    try:
        assert finish_client(client, "127.0.0.1", 1, out) == 0
    finally:
        thread.join(10.0)
        theirs.close()
    assert len(sizes) == len(script)
    assert max(sizes) <= 2 * HISTORY_LIMIT
    assert len(client.history) >= HISTORY_LIMIT
    assert client.history == script[-len(client.history):]
    assert "end of game; final ranking:" in out.getvalue()
    logged = [line for line in out.getvalue().splitlines() if line.startswith("memory:")]
    assert len(logged) == LONG_GAME // HISTORY_LIMIT
    assert all(int(line.rsplit(" ", 1)[1]) <= 2 * HISTORY_LIMIT for line in logged)


def test_soak_reads_the_clients_memory_lines(tmp_path: Path) -> None:
    """`bench soak` takes the last complete memory line of the client's log, and skips a
    line still being written."""
    log = tmp_path / "client.log"
    first = format_memory(3, {"rss": 40.0, "peak_rss": 41.5, "heap": 20.25}, 9)
    second = format_memory(4, {"rss": 42.0, "peak_rss": 43.0, "heap": 22.0, "jit": 1.5}, 10)
    log.write_text("move 5: (1, 2)\n%s\nmove 7: (2, 2)\n%s\n%s" % (first, second, second[:20]))
    figures = soak.last_memory_line(log)
    assert figures == {"own_moves": 4.0, "history": 10.0, "rss": 42.0, "peak_rss": 43.0,
                       "heap": 22.0, "jit": 1.5}
    log.write_text("no memory lines\n")
    assert soak.last_memory_line(log) == {}
    assert soak.last_memory_line(tmp_path / "missing.log") == {}


def test_soak_summary_names_every_disqualified_player() -> None:
    """A game cut short by an opponent's disqualification says so under the table."""
    report: Dict[str, Any] = {"executable": "pypy3", "map": "maps/labyrinth50x50.map", "time_limit": 1,
              "depth": 1, "opponent": "greedy", "ponder": True, "every": 50, "moves": 152,
              "our_exit": 0, "our_stderr": "", "disqualified": [3],
              "reasons": {"3": "no answer within the time limit"}, "checkpoints": []}
    text = soak.format_soak(report)
    assert text.splitlines()[-2] == "game over after 152 moves; our client: exit 0"
    assert text.splitlines()[-1] == (
        "player 3 (greedy) was disqualified: no answer within the time limit")
    report["disqualified"] = [1, 3]
    report["reasons"] = {"1": "an illegal move", "3": "no answer within the time limit"}
    lines = soak.format_soak(report).splitlines()
    assert lines[-2].endswith("our client was DISQUALIFIED (an illegal move)")
    assert lines[-1].startswith("player 3 (greedy)")




def test_client_raises_its_jit_limit_when_releases_come_too_often(monkeypatch: Any) -> None:
    """A release within JIT_RELEASE_MIN_MOVES of our moves after the last one doubles the
    limit instead, so a map whose search needs more code is not compiled at every move."""
    released: List[str] = []
    fake = types.ModuleType("pypyjit")
    setattr(fake, "releaseall", lambda: released.append("released"))
    monkeypatch.setitem(sys.modules, "pypyjit", fake)
    code = [0.0]
    monkeypatch.setattr(client_module, "jit_code_mb", lambda: code[0])
    out = io.StringIO()
    client = Client(FirstMove(), out=out)
    client.memory_every = 1
    client.jit_limit_mb = 4.0
    steps = [(10, 3.0, 0, 4.0), (30, 5.0, 1, 4.0),
             (30 + JIT_RELEASE_MIN_MOVES - 1, 4.5, 1, 8.0), (45, 7.0, 1, 8.0),
             (60, 9.0, 2, 8.0)]
    for moves, size, releases, limit in steps:
        client.moves_played, code[0] = moves, size
        client.release_jit()
        assert (len(released), client.jit_releases, client.jit_limit_mb) == (
            releases, releases, limit), (moves, size)
    assert "the JIT's code limit raised to 8 MB" in out.getvalue()
    client.jit_limit_mb = 0.0
    client.moves_played, code[0] = 200, 100.0
    client.release_jit()
    assert client.jit_releases == 2

@pytest.mark.skipif(sys.implementation.name != "pypy", reason="PyPy's JIT only")
def test_release_frees_the_jits_code_under_pypy() -> None:
    """After a search, releasing the JIT's code frees most of it at once."""
    _, state = load_map(MAPS / "octagon8p.map")
    SearchPlayer().choose(state, 0, 4)
    before = jit_code_mb()
    assert before is not None and before > 0.05
    assert release_jit_code()
    after = jit_code_mb()
    assert after is not None and after < before / 2, (before, after)

def test_soak_table_shows_the_jits_releases() -> None:
    """The client's count of JIT code releases travels from its memory line to the table."""
    line = format_memory(7, {"rss": 50.0, "peak_rss": 51.0, "jit": 3.5, "jit_releases": 2.0},
                         12)
    assert line.endswith("jit 3.5, jit_releases 2.0, history 12")
    row = {"moves": 50, "our_moves": 7, "seconds": 9.5, "rss_mb": 50.0, "peak_mb": 51.0,
           "jit": 3.5, "jit_releases": 2.0}
    assert soak.format_row(row).split()[-2:] == ["-", "2"]
    assert len(soak.format_row(row)) == len(soak.HEADER)
    del row["jit_releases"]
    assert soak.format_row(row).split()[-1] == "-"


def test_jit_release_and_its_option(monkeypatch: Any) -> None:
    """`release_jit_code` calls PyPy's `releaseall`, and does nothing where there is no
    `pypyjit`; `--jit-limit` takes a size in MB, 0 to turn the releases off."""
    calls: List[str] = []
    fake = types.ModuleType("pypyjit")
    setattr(fake, "releaseall", lambda: calls.append("released"))
    monkeypatch.setitem(sys.modules, "pypyjit", fake)
    assert release_jit_code() is True
    assert calls == ["released"]
    monkeypatch.setitem(sys.modules, "pypyjit", None)  # an import of it now fails
    assert release_jit_code() is False
    assert calls == ["released"]
    assert (jit_code_mb() is None) == (sys.implementation.name != "pypy")
    assert build_parser().parse_args(["client"]).jit_limit == JIT_CODE_LIMIT_MB
    assert build_parser().parse_args(["client", "--jit-limit", "0"]).jit_limit == 0.0
    with pytest.raises(SystemExit):
        build_parser().parse_args(["client", "--jit-limit", "-1"])


# Leaves: their number does not matter, only the containers that hold them.
LEAVES = (int, float, str, bytes, bool, type(None), complex)
SKIPPED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
           types.MethodType, types.CodeType, types.FrameType)


def footprint(root: object, *skip: object) -> Tuple[int, int]:
    """(containers, items in them) reachable from `root` but not through any of `skip`:
    lists, tuples, dicts, sets and instances, not following modules, classes or functions
    (shared with everything)."""
    seen: Set[int] = {id(obj) for obj in skip}
    stack: List[Any] = [root]
    containers = items = 0
    while stack:
        obj = stack.pop()
        if isinstance(obj, LEAVES) or isinstance(obj, SKIPPED) or id(obj) in seen:
            continue
        seen.add(id(obj))
        containers += 1
        if isinstance(obj, (list, tuple, dict, set, frozenset)):
            items += len(obj)
        stack.extend(gc.get_referents(obj))
    return containers, items


class ScriptedClient(Client):
    """A client fed messages by the test; its last answer is kept, not sent."""

    def __init__(self, player: Player) -> None:
        super().__init__(player, ponder=True)
        self.answer: Optional[Message] = None
        self.polls = 0

    def send(self, message: Message) -> None:
        self.answer = message

    def message_waiting(self) -> bool:
        # Pondering stops at its first poll (the same few nodes on every run).
        self.polls += 1
        return True

    def feed(self, message: Message) -> None:
        """Handle `message` as `run` does."""
        self.remember(message)
        if isinstance(message, EndOfGame):
            self.on_end()
        else:
            self.handle(message)
        self.notify(message)


def play_game(client: ScriptedClient, check: Callable[[int], None]) -> GameState:
    """A whole game on maps/default.map (12x12, overrides, bombs): our search player is
    player 1, player 2 plays its first legal move; pondering between the moves;
    `check(own_moves)` after each of our moves."""
    client.feed(MapText((MAPS / "default.map").read_bytes()))
    client.feed(PlayerNumber(1))
    state: Optional[GameState] = client.state
    while state is not None and state.phase != OVER:
        mover = state.to_move
        assert mover is not None
        if mover == 1:
            client.feed(MoveRequest(0, 2))
            answer = client.answer
            assert isinstance(answer, MoveAnswer)
            x, y, special = answer.x, answer.y, answer.special
            check(client.moves_played)
        else:
            client.ponder_while_waiting()
            move = legal_moves(state)[0]
            x, y, special = move.x, move.y, move.special
        was_build = state.phase == BUILD
        client.feed(MoveAnnouncement(x, y, special, mover))
        state = client.state
        if was_build and state is not None and state.phase != BUILD and state.phase != OVER:
            client.feed(EndOfPhase1())
            state = client.state
    client.feed(EndOfGame())
    assert client.state is not None
    return client.state


def test_search_client_keeps_a_fixed_footprint_over_a_whole_game() -> None:
    """Every table of the search keeps its size, the engine's undo stack is empty between
    moves, under PyPy the tables stay lists of machine ints (no boxed entries), and nothing
    reachable from the client grows from the middle of the game to its end."""
    config = replace(DEFAULT_CONFIG, tt_bits=10)
    player = SearchPlayer(config=config)
    client = ScriptedClient(player)
    footprints: List[Tuple[int, int, int]] = []
    # PyPy's name for how a list stores its items (None under CPython).
    strategy: Optional[Callable[[List[int]], str]] = getattr(
        sys.modules.get("__pypy__"), "strategy", None)

    def check(own_moves: int) -> None:
        searcher = player.searcher
        evaluator = player.context.evaluator
        assert searcher is not None and evaluator is not None
        table = searcher.table
        lists = [table.keys, table.values, table.info, table.moves]
        assert [len(values) for values in lists] == [1 << 10] * 4
        assert 0 <= table.used <= 1 << 10
        cache = [evaluator._cache_keys, evaluator._cache_values]
        assert [len(values) for values in cache] == [1 << EVAL_CACHE_BITS] * 2
        assert len(searcher.killers) == 2 * MAX_PLY + 2
        assert len(searcher.history) == 9 * evaluator.engine.cells
        assert evaluator.engine.undo == []
        # The bombing-phase solver's tables: fixed-size lists too.
        solver = solver_for(evaluator)
        solver_lists = [solver.keys, solver.data, solver.counts_keys, solver.counts_values]
        assert [len(values) for values in solver_lists] == [
            1 << TABLE_BITS, 1 << TABLE_BITS, (1 << COUNTS_BITS) * solver.counts_stride,
            1 << COUNTS_BITS]
        if strategy is not None:
            assert {strategy(values) for values in lists + cache + solver_lists} == {
                "IntegerListStrategy"}
        if own_moves % 10 == 0:
            footprints.append((own_moves,) + footprint(client, client.history))

    final = play_game(client, check)
    assert final.phase == OVER
    assert client.warnings == 0
    assert len(footprints) >= 3, footprints
    middle, end = footprints[len(footprints) // 2], footprints[-1]
    # A few containers come and go with the position (a partial result, a move); anything
    # kept per move would add at least one container and one item for each of the moves
    # between the two counts.
    slack = (end[0] - middle[0]) // 2
    assert end[1] <= middle[1] + slack and end[2] <= middle[2] + slack, footprints
