"""An arena game replayed through the readable rules, and written as a JSON trace.

The relay of `reversi-ref arena` notes what the server announces to the clients (`Relay.events`,
one line each, as in the game's `moves.txt`): `move X Y SPECIAL PLAYER` (message 6), `disq
PLAYER` (7), `end of phase 1` (8) and `end` (9).  That is enough to replay the whole game
through `reversi_ref.rules`, so every game the harness plays on the official server is also
a check of the rules against it:

- each announced mover must be the player the rules ask next, and its move legal by the rules;
- at the server's end of phase 1 the rules must have left the building phase, and at its end
  of the game the rules must have ended it too, with the stones of the server's result file.

The first disagreement is reported by its event number and what differed; the replay stops
there.  A game cut short (a timeout, a harness error) is checked as far as it went.

The trace (`trace.json` beside `moves.txt`) has the fields of the referee's traces that a
replay needs, so `reversi-ref show`, `render` and `replay` read it: `format`
("reversi-ref-arena-1"), `map_text`, `players`, `moves` [{move, player, phase, x, y,
special}] (phase-2 moves carry the special byte 0, as announced), `disqualifications`
[{player, reason, after_move}] (`after_move`: the index of the move entry it followed, -1
before any), `phase1_end` and `final` ({after_move, scores}, the stones by the rules' replay,
"disqualified" for a disqualified player; null when the server did not announce that point),
and `rules` ({agree, problem}).
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, NamedTuple, Optional, Sequence

from . import parse_map
from .errors import IllegalMoveError, MapError
from .rules import disqualify, play, printed_scores, seat_stones
from .state import BUILD, GameState, Move

TRACE_FORMAT = "reversi-ref-arena-1"


class Replay(NamedTuple):
    """What the replay of a game's events found.

    `problem` is "" when the rules agree with every event; `phase1_stones` and
    `final_stones` are the stones on the board per player (index 0 = player 1; a disqualified
    player's stones stay, RULES.md 6) when the server ended phase 1 and the game (None when it
    did not announce that point or the replay stopped before); `trace` is the JSON trace."""

    problem: str
    phase1_stones: Optional[List[int]]
    final_stones: Optional[List[int]]
    trace: Dict[str, Any]


class _Disagreement(Exception):
    """The rules and the server's announcements differ (the message says where and how)."""


def _numbers(where: str, words: Sequence[str], count: int) -> List[int]:
    if len(words) != count or not all(w.isdigit() for w in words):
        raise _Disagreement("%s: not an announcement the relay writes" % where)
    return [int(w) for w in words]


class _Replayer:
    """The rules' game, one announced event at a time."""

    def __init__(self, map_text: str) -> None:
        self.state = parse_map(map_text)
        self.moves: List[Dict[str, Any]] = []
        self.disqualifications: List[Dict[str, Any]] = []
        self.phase1_end: Optional[Dict[str, Any]] = None
        self.final: Optional[Dict[str, Any]] = None
        self.phase1_stones: Optional[List[int]] = None
        self.final_stones: Optional[List[int]] = None

    def event(self, number: int, event: str, result: Optional[Sequence[int]]) -> None:
        """Apply event `number` (1-based, for messages); _Disagreement where the rules differ."""
        where = "event %d (%s)" % (number, event)
        if self.final is not None:
            raise _Disagreement("%s: the server had already ended the game" % where)
        words = event.split()
        if words[:1] == ["move"]:
            self.move(where, *_numbers(where, words[1:], 4))
        elif words[:1] == ["disq"]:
            self.disqualify(where, _numbers(where, words[1:], 1)[0])
        elif event == "end of phase 1":
            if self.state.phase == BUILD:
                raise _Disagreement("%s: the rules are still in the building phase (player %d "
                                    "to move)" % (where, self.state.to_move or 0))
            self.phase1_stones = seat_stones(self.state)
            self.phase1_end = {"after_move": self.last_move(),
                               "scores": printed_scores(self.state)}
        elif event == "end":
            self.end(where, result)
        else:
            raise _Disagreement("%s: not an announcement the relay writes" % where)

    def last_move(self) -> Optional[int]:
        return len(self.moves) - 1 if self.moves else None

    def move(self, where: str, x: int, y: int, special: int, player: int) -> None:
        state = self.state
        if player != state.to_move:
            raise _Disagreement("%s: the server had player %d move, the rules ask %s"
                                % (where, player, "nobody (the game is over)"
                                   if state.to_move is None else "player %d" % state.to_move))
        try:
            self.state = play(state, Move(x, y, special))
        except IllegalMoveError as error:
            raise _Disagreement("%s: the rules reject the move: %s" % (where, error)) from None
        self.moves.append({"move": len(self.moves), "player": player,
                           "phase": 1 if state.phase == BUILD else 2,
                           "x": x, "y": y, "special": special})

    def disqualify(self, where: str, player: int) -> None:
        if not 1 <= player <= self.state.players:
            raise _Disagreement("%s: the map has players 1..%d" % (where, self.state.players))
        if player in self.state.disqualified:
            raise _Disagreement("%s: player %d was already disqualified" % (where, player))
        self.state = disqualify(self.state, player)
        self.disqualifications.append({"player": player, "reason": "announced by the server",
                                       "after_move": len(self.moves) - 1})

    def end(self, where: str, result: Optional[Sequence[int]]) -> None:
        state = self.state
        if state.to_move is not None:
            raise _Disagreement("%s: by the rules the game goes on (player %d to move)"
                                % (where, state.to_move))
        stones = seat_stones(state)
        if result is not None:
            for player in range(1, state.players + 1):
                counted = 0 if player in state.disqualified else stones[player - 1]
                if result[player - 1] != counted:
                    raise _Disagreement(
                        "%s: the server's result gives player %d %d stones, the rules %d"
                        % (where, player, result[player - 1], counted))
        self.final_stones = stones
        self.final = {"after_move": self.last_move(), "scores": printed_scores(state)}


def replay_events(map_text: str, events: Sequence[str],
                  result: Optional[Sequence[int]] = None) -> Replay:
    """Replay a game's announced `events` on the map `map_text` through the readable rules;
    `result` is the stones of the server's result file by player (0 for a disqualified one),
    compared at the end when given."""
    try:
        replayer = _Replayer(map_text)
    except MapError as error:
        return Replay("the map does not load: %s" % error, None, None,
                      {"format": TRACE_FORMAT, "map_text": map_text})
    problem = ""
    for number, event in enumerate(events, 1):
        try:
            replayer.event(number, event, result)
        except _Disagreement as error:
            problem = str(error)
            break
    trace: Dict[str, Any] = {
        "format": TRACE_FORMAT, "map_text": map_text, "players": replayer.state.players,
        "moves": replayer.moves, "disqualifications": replayer.disqualifications,
        "phase1_end": replayer.phase1_end, "final": replayer.final,
        "rules": {"agree": not problem, "problem": problem}}
    return Replay(problem, replayer.phase1_stones, replayer.final_stones, trace)


def write_trace(replay: Replay, path: str) -> None:
    """Write the replay's trace as JSON to `path`."""
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(replay.trace, handle, separators=(",", ":"))
        handle.write("\n")
