"""`reversi-ref human`: a person plays on any server by clicking in the live page.

The person joins as group 99, which RULES.md 8 reserves for a human: the server still sends a
time value with each move request but never disqualifies group 99 for time.  The client is the
usual one (`reversi_ref.client`) with a `HumanPlayer`, whose `choose` shows the position on the
page (`reversi_ref.watch`) and waits for a click.  The click is checked with the rules before it
is sent: an illegal one is refused on the page with the rule that forbids it
(`IllegalMoveError`), and the person tries again.  A cell where several moves are legal (a
choice tile: with whom to swap stones; a bonus tile: a bomb or an override stone) offers them as
buttons.

`reversi-ref play --players human,search` seats a person in a local match the same way
(`watch_seats`).
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
from typing import Any, Callable, Dict, List, Optional, TextIO, Tuple

from .errors import IllegalMoveError
from .players.base import Player
from .rules import legal_moves, play
from .state import BUILD, GameState, Move
from .watch.hub import Hub
from .watch.server import watch_address

HUMAN_GROUP = 99  # RULES.md 8


class Desk:
    """Where a human's turn waits for a click: the position asked and the move clicked.

    `ask` (the game's thread) shows the prompt and blocks until `submit` (the page's HTTP
    thread) hands over a legal move.
    """

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.lock = threading.Lock()
        self.state: Optional[GameState] = None
        self.answers: "queue.Queue[Optional[Move]]" = queue.Queue()

    def ask(self, state: GameState) -> Move:
        """The move the person clicks for `state.to_move` (RuntimeError when closed first)."""
        with self.lock:
            self.state = state
        self.hub.set_prompt(prompt_data(state))
        move = self.answers.get()
        if move is None:
            raise RuntimeError("the page was closed before the move was made")
        return move

    def submit(self, data: Dict[str, Any]) -> Tuple[bool, str]:
        """A clicked move, posted as {x, y, special}: (True, "") when taken, else (False,
        why): not the person's turn, not a move, or the rule that forbids it."""
        values = [data.get(key, 0 if key == "special" else None)
                  for key in ("x", "y", "special")]
        numbers = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
        if len(numbers) != 3:
            return False, "a move is three integers x, y, special"
        x, y, special = numbers
        if not (0 <= x <= 0xFFFF and 0 <= y <= 0xFFFF and 0 <= special <= 0xFF):
            return False, "x and y must be 0..65535, special 0..255 (RULES.md 8)"
        move = Move(x, y, special)
        with self.lock:
            state = self.state
            if state is None:
                return False, "it is not your turn"
            try:
                play(state, move)
            except IllegalMoveError as error:
                return False, str(error)
            self.state = None
        self.hub.set_prompt(None)
        self.answers.put(move)
        return True, ""

    def close(self) -> None:
        """Stop waiting: a pending `ask` raises."""
        self.answers.put(None)


def prompt_data(state: GameState) -> Dict[str, Any]:
    """What the page needs to take the move of `state.to_move`: the player, the phase and,
    in the building phase, every legal move (x, y, special)."""
    moves: List[List[int]] = []
    if state.phase == BUILD:
        moves = [[m.x, m.y, m.special] for m in legal_moves(state)]
    return {"player": state.to_move, "phase": "build" if state.phase == BUILD else "bomb",
            "moves": moves}


class HumanPlayer(Player):
    """A person at the live page: each move is a click (see `Desk`)."""

    name = "human"
    manages_bank = True  # a person plans their own time
    timeless = True  # and, as group 99 on the server, has no time limit (RULES.md 8)

    def __init__(self, desk: Optional[Desk] = None) -> None:
        super().__init__()
        self.desk = desk

    def choose(self, state: GameState, time_ms: int, depth: int) -> Move:
        """The move the person clicks."""
        if self.desk is None:
            raise RuntimeError("a human player needs its page: use `reversi-ref human` or "
                               "`reversi-ref play --players human,...`")
        return self.desk.ask(state)


def human_player(seed: int) -> Player:
    """The registry's `human` (seated by `play`, which gives it its page)."""
    return HumanPlayer()


class SeatWatch:
    """The live page of a local match with human seats: `observer` for `run_match`."""

    def __init__(self, watch: Any, desk: Desk, observer: Callable[[Any], None]) -> None:
        self.watch = watch
        self.desk = desk
        self.observer = observer

    def close(self) -> None:
        """Stop the page (a pending click is no longer awaited)."""
        self.desk.close()
        self.watch.close()


def watch_seats(seats: Dict[int, Player], state: GameState, out: Optional[TextIO],
                address: str = "127.0.0.1:0") -> Optional[SeatWatch]:
    """For a local match: when a seat is human, open the live page that takes its clicks
    (printing its address, opening a browser when there is a display); None otherwise."""
    humans = [seat for seat in seats.values() if isinstance(seat, HumanPlayer)]
    if not humans:
        return None
    from .watch import GameWatcher, Watch, announce
    hub = Hub()
    desk = Desk(hub)
    watch = Watch(address, "reversi-ref play: %s" % ", ".join(
        "%d %s" % (p, seats[p].name) for p in sorted(seats)), True, desk.submit, hub)
    for seat in humans:
        seat.desk = desk
    observer = GameWatcher(watch.start(state))
    announce(watch, out, open_browser=True)
    return SeatWatch(watch, desk, observer)


def run_human(args: argparse.Namespace) -> int:
    """`reversi-ref human`: play one game on a server by clicking in the browser."""
    from .client import Client, finish_client, parse_server
    out: TextIO = sys.stdout
    try:
        host, port = parse_server(args.server)
    except ValueError as error:
        print("reversi-ref human: %s" % error, file=sys.stderr)
        return 1
    if not 0 <= args.group <= 255:
        print("reversi-ref human: --group must be 0..255", file=sys.stderr)
        return 1
    hub = Hub()
    desk = Desk(hub)
    player = HumanPlayer(desk)
    client = Client(player, args.group, out, args.timeout, ponder=False)
    try:
        return finish_client(client, host, port, out, args.watch, True, desk.submit,
                             open_browser=not args.no_browser, hub=hub, command="human")
    finally:
        desk.close()


def register(subparsers: Any) -> None:
    """Add the `human` subcommand."""
    parser = subparsers.add_parser(
        "human", help="play a game yourself on a server, by clicking in the browser",
        description="Join a server speaking the official protocol as a person (group 99: "
                    "no time limit) and play by clicking in a live page.")
    parser.add_argument("--server", default="127.0.0.1:7777", metavar="HOST:PORT",
                        help="the server (default 127.0.0.1:7777)")
    parser.add_argument("--watch", default="127.0.0.1:0", metavar="[HOST:]PORT",
                        type=watch_address,
                        help="where the page is served (default 127.0.0.1:0: a free port; "
                             "the address is printed)")
    parser.add_argument("--group", type=int, default=HUMAN_GROUP, metavar="N",
                        help="group number sent to the server (default 99, a human, whose "
                             "time the server does not limit)")
    parser.add_argument("--timeout", type=float, default=3600.0, metavar="SECONDS",
                        help="give up when the server sends nothing for this long "
                             "(default 3600)")
    parser.add_argument("--no-browser", action="store_true",
                        help="only print the page's address, do not open a browser")
    parser.set_defaults(func=run_human)
