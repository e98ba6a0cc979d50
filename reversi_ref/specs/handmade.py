"""Hand-made named cases: every rule and edge case of RULES.md, each worked out by hand.

Each case below is a small position written out as text, a query, and the answer a person
worked out on paper (`hand_*`).  The generator computes the expected answer with the readable
rules and refuses to write the suite unless it agrees with the hand answer, so these cases are
an independent check of the rules as well as the suite's named examples.

Positions are written like map files: one row per line, cells separated by spaces, (0, 0) top
left, x the column.  Unless a case says `initial=True`, the position has player 1 (or `to_move`)
to move in phase 1 whatever the start rules would say.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, List, Optional, Sequence, Set

from ..mapfile import read_map
from ..rules import initial_state
from ..state import BUILD, OVER
from .casebook import (HAND, LEGAL, STRICT, Case, apply_disqualify, apply_move, game_query,
                       hand_after, hand_game, hand_illegal, hand_loads, hand_moves, hand_nodes,
                       hand_rejects, hand_state, illegal_move, map_text, perft_query, rows_of)
from .codec import JSONObject, SpecError, state_to_json

OTHELLO = """
0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0
0 0 0 2 1 0 0 0
0 0 0 1 2 0 0 0
0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0
"""


class Book:
    """Collects hand-made cases; each name is unique within its area."""

    def __init__(self) -> None:
        self.cases: List[Case] = []
        self._ids: Set[str] = set()

    def _add(self, case: Case) -> None:
        if case.id in self._ids:
            raise SpecError("duplicate hand-made case id %s" % case.id)
        self._ids.add(case.id)
        self.cases.append(case)

    def position(self, area: str, name: str, rule: str, description: str, cells: str,
                 query: JSONObject, hand: JSONObject, players: int = 2, overrides: int = 0,
                 bombs: int = 0, strength: int = 0, transitions: Iterable[str] = (),
                 to_move: Optional[int] = 1, phase: str = BUILD,
                 ov: Optional[Sequence[int]] = None, bo: Optional[Sequence[int]] = None,
                 dq: Iterable[int] = (), initial: bool = False,
                 board: Optional[str] = None, basis: str = HAND) -> None:
        """A case on the position `cells` (see the module docstring); `board` replaces the
        board of the state (the map keeps `cells`), e.g. for cells bombed into holes; `basis`
        is STRICT for a reading the server cannot be asked about."""
        text = map_text(cells, players, overrides, bombs, strength, list(transitions))
        state = initial_state(read_map(text))
        if not initial:
            state = replace(
                state, phase=phase, to_move=None if phase == OVER else to_move,
                overrides=tuple(ov) if ov is not None else (overrides,) * players,
                bombs=tuple(bo) if bo is not None else (bombs,) * players,
                disqualified=frozenset(dq))
        if board is not None:
            state = replace(state, board=tuple(c for row in rows_of(board) for c in row.split()))
        self._add(Case("%s/%s" % (area, name), area, description, text, state_to_json(state),
                       query, hand=hand, rule=rule, basis=basis))

    def map_case(self, area: str, name: str, rule: str, description: str, text: str,
                 hand: JSONObject) -> None:
        """A map-loading case: `map_reject` when the hand answer is a rejection."""
        kind = "map_reject" if hand.get("rejected") else "map_load"
        self._add(Case("%s/%s" % (area, name), area, description, text, None, {"kind": kind},
                       hand=hand, rule=rule, basis=HAND))


# =========================================================================== RULES.md 1


def map_loading(book: Book) -> None:
    """RULES.md 1: how maps are read."""
    add = book.map_case
    area = "map-loading"
    add(area, "canonical-layout", "1.layout",
        "RULES.md 1: header lines, rows of cells, then transitions",
        "2\n1\n2 1\n2 3\n1 2 0\n- c x\n2 0 2 <-> 1 1 4\n",
        hand_loads((2, 1, 2, 1, 2, 3), board="1 2 0 \n - c x", transitions=[[2, 0, 2, 1, 1, 4]],
                   to_move=1, phase="build", overrides=[1, 1], bombs=[2, 2]))
    add(area, "header-on-one-line", "1.layout",
        "RULES.md 1: the header numbers may share one line",
        "2 0 0 0 1 3\n0 1 2\n",
        hand_loads((2, 0, 0, 0, 1, 3), board="0 1 2", to_move=2, phase="build"))
    add(area, "whitespace-does-not-matter", "1.separators",
        "RULES.md 1: blank lines, tabs, CRLF line ends and trailing spaces do not matter",
        "2\r\n\r\n0\t\r\n0   0  \r\n1\t3\r\n\r\n0 2 1 \r\n",
        hand_loads((2, 0, 0, 0, 1, 3), board="0 2 1", to_move=1))
    add(area, "cells-on-one-line", "1.layout",
        "RULES.md 1: cells are tokens; rows need not be lines",
        "2\n0\n0 0\n2 2\n1 2 2 1\n",
        hand_loads((2, 0, 0, 0, 2, 2), board="1 2\n2 1", to_move=None, phase="over"))
    add(area, "every-cell-kind", "1.cell", "RULES.md 1: the cell characters 0 1-8 - c i b x",
        "8 0 0 0 2 7\n0 1 2 3 4 5 6\n7 8 - c i b x\n",
        hand_loads((8, 0, 0, 0, 2, 7), board="0123456\n78-cibx"))
    add(area, "stone-equal-to-n", "1.cell", "RULES.md 1: a stone numbered n is allowed",
        "3 0 0 0 1 3\n1 2 3\n", hand_loads((3, 0, 0, 0, 1, 3), board="1 2 3"))
    add(area, "overrides-modulo-256", "1.header-number",
        "RULES.md 1: counts are 8-bit: 300 overrides means 44",
        "2\n300\n0 0\n1 2\n1 2\n", hand_loads((2, 44, 0, 0, 1, 2), overrides=[44, 44]))
    add(area, "minus-one-is-255", "1.header-number", "RULES.md 1: counts are 8-bit: -1 means 255",
        "2\n-1\n-1 -1\n1 2\n1 2\n",
        hand_loads((2, 255, 255, 255, 1, 2), overrides=[255, 255], bombs=[255, 255]))
    add(area, "bombs-and-strength-modulo-256", "1.header-number",
        "RULES.md 1: bombs 258 means 2, strength 256 means 0",
        "2\n0\n258 256\n1 2\n1 2\n", hand_loads((2, 0, 2, 0, 1, 2), bombs=[2, 2]))
    add(area, "zero-by-zero", "1.dimensions",
        "RULES.md 1: a 0x0 map loads as a game that is over at once",
        "2\n0\n0 0\n0 0\n", hand_loads((2, 0, 0, 0, 0, 0), board="", to_move=None,
                                        phase="over"))
    wide = "2\n0\n0 0\n300 2\n" + "1 2\n" * 300
    add(area, "300-by-2", "1.dimensions", "RULES.md 1: a 300x2 map loads", wide,
        hand_loads((2, 0, 0, 0, 300, 2), to_move=None, phase="over"))
    big_rows = ["0 " * 255 + "0"] * 256
    big_rows[0] = "1 2 " + "0 " * 253 + "0"
    big = "2\n0\n0 0\n256 256\n" + "\n".join(big_rows) + "\n"
    add(area, "256-by-256", "1.dimensions", "RULES.md 1: a 256x256 map loads", big,
        hand_loads((2, 0, 0, 0, 256, 256), to_move=1, phase="build"))
    add(area, "self-joined-side-loads", "1.transition-reuse",
        "RULES.md 1: a side may be joined to itself",
        "2 0 0 0 1 2\n1 2\n0 0 6 <-> 0 0 6\n",
        hand_loads((2, 0, 0, 0, 1, 2), transitions=[[0, 0, 6, 0, 0, 6]]))
    add(area, "two-sides-of-one-cell", "1.transition-reuse",
        "RULES.md 1: two different sides of one cell may both "
        "have transitions", "2 0 0 0 1 2\n1 2\n0 0 6 <-> 1 0 2\n0 0 0 <-> 1 0 0\n",
        hand_loads((2, 0, 0, 0, 1, 2), transitions=[[0, 0, 6, 1, 0, 2], [0, 0, 0, 1, 0, 0]]))
    add(area, "transition-facing-a-hole", "1.transition-side",
        "RULES.md 1: a transition side may face a hole",
        "2 0 0 0 1 3\n1 - 2\n0 0 2 <-> 2 0 6\n",
        hand_loads((2, 0, 0, 0, 1, 3), transitions=[[0, 0, 2, 2, 0, 6]]))
    add(area, "two-sides-joined-on-one-cell", "1.transition-side",
        "RULES.md 1: one transition may join two sides "
        "of the same cell", "2 0 0 0 1 2\n1 2\n1 0 2 <-> 1 0 0\n",
        hand_loads((2, 0, 0, 0, 1, 2), transitions=[[1, 0, 2, 1, 0, 0]]))

    # What the server reads where a strict reading would refuse (RULES.md 1).
    add(area, "header-read-like-atoi", "1.header-number",
        "RULES.md 1: header numbers are read like C's atoi: 2.0 is 2, 1.5 is 1, 3abc is 3, "
        "+1 is 1, 2x is 2", "2.0\n1.5\n3abc +1\n1 2x\n1 2\n",
        hand_loads((2, 1, 3, 1, 1, 2), board="1 2", overrides=[1, 1], bombs=[3, 3]))
    add(area, "words-and-hex-read-as-zero", "1.header-number",
        "RULES.md 1: a header token without leading digits is 0, and 0x5 is 0",
        "2\nmany\n0x5 0\n1 2\n1 2\n",
        hand_loads((2, 0, 0, 0, 1, 2), overrides=[0, 0], bombs=[0, 0]))
    add(area, "player-count-low-byte", "1.header-number",
        "RULES.md 1: the player count is kept modulo 256 like the counts: 258 players are 2",
        "258\n0\n0 0\n1 2\n1 2\n", hand_loads((2, 0, 0, 0, 1, 2)))
    add(area, "form-feed-in-header", "1.separators",
        "RULES.md 1: a form feed before a header number is skipped like a space",
        "2\n\f0\n0 0\n1 2\n1 2\n", hand_loads((2, 0, 0, 0, 1, 2), board="1 2"))
    add(area, "one-by-1000", "1.dimensions", "RULES.md 1: 1000 cells in a row load",
        "2\n0\n0 0\n1 1000\n1 2" + " 0" * 998 + "\n",
        hand_loads((2, 0, 0, 0, 1, 1000), to_move=1, phase="build"))
    add(area, "self-joined-side-twice-loads", "1.transition-reuse",
        "RULES.md 1: a side joined to itself may be joined to itself again (no change)",
        "2\n0\n0 0\n1 2\n1 2\n0 0 6 <-> 0 0 6\n0 0 6 <-> 0 0 6\n",
        hand_loads((2, 0, 0, 0, 1, 2), transitions=[[0, 0, 6, 0, 0, 6]]))
    add(area, "self-join-then-joined-elsewhere", "1.transition-reuse",
        "RULES.md 1: a side joined to itself may then be joined to another side, which applies",
        "2\n0\n0 0\n1 2\n1 2\n0 0 6 <-> 0 0 6\n0 0 6 <-> 1 0 2\n",
        hand_loads((2, 0, 0, 0, 1, 2), transitions=[[0, 0, 6, 1, 0, 2]]))

    # Rejected maps: the server's problem, and the line and column (1-based) of the token at
    # which its reading fails, or just past the last token when the text ends too early.
    add(area, "reject-bad-cell-character", "1.cell",
        "RULES.md 1: a cell must be one of 0-8 - c i b x",
        "2\n0\n0 0\n1 2\n1 y\n", hand_rejects(5, 3, "invalid square 'y'", "invalid-square"))
    add(area, "reject-two-character-cell", "1.cell", "RULES.md 1: a cell token is one character",
        "2\n0\n0 0\n1 2\n1 22\n", hand_rejects(5, 3, "invalid token '22'", "invalid-token"))
    add(area, "reject-form-feed-in-board", "1.separators",
        "RULES.md 1: a form feed does not separate cells: 0<FF>1 is one invalid token",
        "2\n0\n0 0\n1 2\n0\f1 2\n", hand_rejects(5, 1, "invalid token", "invalid-token"))
    # RULES.md 1 says a form feed in the board is "dropped"; the server prints the token
    # without it, but the token still has two bytes: an engine that strips form feeds or
    # vertical tabs before splitting would load these maps, which the server rejects.
    add(area, "reject-form-feed-before-a-cell", "1.separators",
        "RULES.md 1: a form feed before a cell is part of its token: <FF>1 is one invalid token",
        "2\n0\n0 0\n1 2\n\f1 2\n", hand_rejects(5, 1, "invalid token", "invalid-token"))
    add(area, "reject-vertical-tab-after-a-cell", "1.separators",
        "RULES.md 1: a vertical tab after a cell is part of its token: 1<VT> is one invalid "
        "token", "2\n0\n0 0\n1 2\n1\v 2\n",
        hand_rejects(5, 1, "invalid token", "invalid-token"))
    add(area, "reject-bare-cr-line-breaks", "1.separators",
        "RULES.md 1: a CR does not end the player count, so a file broken by bare CRs shifts "
        "its header", "2\r0\r0 0\r1 2\r1 2\r",
        hand_rejects(1, 16, "board truncated", "board-truncated"))
    add(area, "reject-comment", "1.transition-truncated", "RULES.md 1: comments are not allowed",
        "2\n0\n0 0\n1 2\n1 2 # a comment\n",
        hand_rejects(5, 16, "transition 0 is truncated", "transition-truncated"))
    add(area, "reject-comment-line-first", "1.player-count",
        "RULES.md 1: comments are not allowed ('#' as the player count reads as 0)",
        "# my map\n2\n0\n0 0\n1 2\n1 2\n",
        hand_rejects(1, 1, "invalid number of players", "invalid-player-count"))
    add(area, "reject-stone-above-n", "1.cell",
        "RULES.md 1: a stone number greater than n is an error",
        "2\n0\n0 0\n1 3\n1 2 3\n", hand_rejects(5, 5, "invalid square '3'", "invalid-square"))
    for players in (1, 9, 0):
        add(area, {1: "reject-one-player", 9: "reject-nine-players",
                   0: "reject-zero-players"}[players],
            "1.player-count", "RULES.md 1: n must be 2..8 (%d is an error)" % players,
            "%d\n0\n0 0\n1 1\n1\n" % players,
            hand_rejects(1, 1, "invalid number of players", "invalid-player-count"))
    add(area, "reject-board-truncated", "1.board-truncated",
        "RULES.md 1: too few cells is an error",
        "2\n0\n0 0\n2 2\n1 2\n2\n",
        hand_rejects(6, 2, "board truncated at (x,y) = (1,1)", "board-truncated"))
    add(area, "reject-leftover-tokens", "1.transition-truncated",
        "RULES.md 1: leftover tokens that do not form a whole transition are an error",
        "2\n0\n0 0\n1 2\n1 2\n0 0 6\n",
        hand_rejects(6, 6, "transition 0 is truncated", "transition-truncated"))
    add(area, "reject-extra-cell", "1.transition-truncated",
        "RULES.md 1: one cell too many is a leftover token",
        "2\n0\n0 0\n1 2\n1 2 0\n",
        hand_rejects(5, 6, "transition 0 is truncated", "transition-truncated"))
    add(area, "reject-missing-arrow", "1.transition-delimiter",
        "RULES.md 1: a transition is x1 y1 d1 <-> x2 y2 d2",
        "2\n0\n0 0\n1 2\n1 2\n0 0 6 <> 1 0 2\n",
        hand_rejects(6, 7, 'invalid delimiter "<>"', "invalid-delimiter"))
    add(area, "reject-arrow-out-of-place", "1.transition-delimiter",
        "RULES.md 1: '<->' is the fourth token of a transition",
        "2\n0\n0 0\n1 2\n1 2\n0 0 <-> 6 1 0 2\n",
        hand_rejects(6, 9, 'invalid delimiter "6"', "invalid-delimiter"))
    add(area, "reject-transition-off-board", "1.transition-end",
        "RULES.md 1: each transition end must be on the board",
        "2\n0\n0 0\n1 2\n1 2\n0 0 6 <-> 2 0 2\n",
        hand_rejects(6, 11, "invalid second coordinate (2,0,2)", "invalid-second-coordinate"))
    add(area, "reject-direction-8", "1.transition-end",
        "RULES.md 1: a transition direction must be 0..7",
        "2\n0\n0 0\n1 2\n1 2\n0 0 8 <-> 1 0 2\n",
        hand_rejects(6, 1, "invalid first coordinate (0,0,8)", "invalid-first-coordinate"))
    add(area, "reject-transition-on-hole", "1.transition-side",
        "RULES.md 1: a transition end must not be a hole",
        "2\n0\n0 0\n1 3\n1 2 -\n2 0 2 <-> 0 0 6\n",
        hand_rejects(6, 1, "transition 0 is invalid", "transition-invalid-field"))
    add(area, "reject-side-facing-a-cell", "1.transition-side",
        "RULES.md 1: a transition side must face off the board or onto a hole",
        "2\n0\n0 0\n1 2\n1 2\n0 0 2 <-> 1 0 2\n",
        hand_rejects(6, 1, "transition 0 is invalid", "transition-invalid-field"))
    add(area, "reject-side-used-twice", "1.transition-reuse",
        "RULES.md 1: no side may be used by two transitions",
        "2\n0\n0 0\n1 2\n1 2\n0 0 6 <-> 1 0 2\n0 0 6 <-> 1 0 0\n",
        hand_rejects(7, 1, "transition 1 is invalid", "transition-invalid-field"))
    add(area, "reject-same-transition-twice", "1.transition-reuse",
        "RULES.md 1: an identical transition listed twice is an error",
        "2\n0\n0 0\n1 2\n1 2\n0 0 6 <-> 1 0 2\n0 0 6 <-> 1 0 2\n",
        hand_rejects(7, 1, "transition 1 is invalid", "transition-invalid-field"))
    add(area, "reject-reversed-transition-twice", "1.transition-reuse",
        "RULES.md 1: a transition listed again with its ends swapped uses its sides twice",
        "2\n0\n0 0\n1 2\n1 2\n0 0 6 <-> 1 0 2\n1 0 2 <-> 0 0 6\n",
        hand_rejects(7, 1, "transition 1 is invalid", "transition-invalid-field"))
    add(area, "reject-joined-then-self-joined", "1.transition-reuse",
        "RULES.md 1: a side joined to another side may not then be joined to itself",
        "2\n0\n0 0\n1 2\n1 2\n0 0 6 <-> 1 0 2\n0 0 6 <-> 0 0 6\n",
        hand_rejects(7, 1, "transition 1 is invalid", "transition-invalid-field"))
    add(area, "reject-negative-height", "1.dimensions",
        "RULES.md 1: a negative height is too large for the server",
        "2\n0\n0 0\n-1 2\n",
        hand_rejects(4, 1, "dimensions too large", "dimensions-too-large"))
    add(area, "reject-1-by-1001", "1.dimensions",
        "RULES.md 1: at most 1000 cells a side", "2\n0\n0 0\n1 1001\n",
        hand_rejects(4, 3, "dimensions too large", "dimensions-too-large"))
    add(area, "reject-non-numeric-width", "1.header-number",
        "RULES.md 1: a width 'two' reads as 0, so the cells are read as a transition, which is "
        "cut short", "2\n0\n0 0\n1 two\n1 2\n",
        hand_rejects(5, 4, "transition 0 is truncated", "transition-truncated"))
    add(area, "reject-header-cut-short", "1.header-truncated",
        "RULES.md 1: the header has six numbers", "2\n0\n0 0\n",
        hand_rejects(3, 4, "board truncated before height", "header-truncated"))
    add(area, "reject-empty-text", "1.header-truncated", "RULES.md 1: an empty file is not a map",
        "", hand_rejects(1, 1, "board truncated before number of players", "header-truncated"))


# =========================================================================== RULES.md 2


def transitions(book: Book) -> None:
    """RULES.md 2: walking through transitions."""
    add = book.position
    area = "transitions"
    add(area, "capture-over-a-hole", "2.transition-step",
        "RULES.md 2: a transition on a side facing a hole is "
        "followed, so a line jumps the hole", "0 2 - 1", LEGAL, hand_moves("0,0"),
        transitions=["1 0 2 <-> 3 0 6"])
    add(area, "capture-over-a-hole-applied", "2.transition-step",
        "RULES.md 2-3: the stones collected before the "
        "jump are captured", "0 2 - 1", apply_move(0, 0), hand_after("1 1 - 1"),
        transitions=["1 0 2 <-> 3 0 6"])
    add(area, "wrap-around-the-edge", "2.transition-step",
        "RULES.md 2: a transition joining the west and east "
        "edges wraps the row around", "2 0 0 1", LEGAL, hand_moves("1,0"),
        transitions=["0 0 6 <-> 3 0 2"])
    add(area, "wrap-around-the-edge-applied", "2.transition-step",
        "RULES.md 2: a line that wraps captures what it "
        "collected", "2 0 0 1", apply_move(1, 0), hand_after("1 1 0 1"),
        transitions=["0 0 6 <-> 3 0 2"])
    add(area, "direction-after-transition", "2.transition-step",
        "RULES.md 2: the walk continues in direction "
        "(d' + 4) mod 8 of the far end: east along row 0 comes back west along row 2",
        """
        0 2 2
        0 0 0
        1 2 2
        """, LEGAL, hand_moves("0,0"), transitions=["2 0 2 <-> 2 2 2"])
    add(area, "direction-after-transition-applied", "2.transition-step",
        "RULES.md 2: all cells collected on both "
        "sides of the transition are captured",
        """
        0 2 2
        0 0 0
        1 2 2
        """, apply_move(0, 0), hand_after("""
        1 1 1
        0 0 0
        1 1 1
        """), transitions=["2 0 2 <-> 2 2 2"])
    add(area, "transition-used-the-other-way", "2.transition-step",
        "RULES.md 2: a transition works from both ends",
        """
        1 2 2
        0 0 0
        0 2 2
        """, LEGAL, hand_moves("0,2"), transitions=["2 0 2 <-> 2 2 2"])
    add(area, "turn-on-one-cell", "2.transition-step",
        "RULES.md 2: a transition joining the east and north sides "
        "of one cell turns a line walking east to walk south",
        """
        0 2 2
        0 0 2
        0 0 1
        """, LEGAL, hand_moves("0,0"), transitions=["2 0 2 <-> 2 0 0"])
    add(area, "turn-on-one-cell-applied", "2.transition-step",
        "RULES.md 2-3: a cell passed twice is captured once",
        """
        0 2 2
        0 0 2
        0 0 1
        """, apply_move(0, 0), hand_after("""
        1 1 1
        0 0 1
        0 0 1
        """), transitions=["2 0 2 <-> 2 0 0"])
    add(area, "diagonal-transition", "2.transition-step",
        "RULES.md 2: diagonal sides can be joined (north-west "
        "corner to south-east corner)",
        """
        2 0 0
        0 0 0
        0 0 1
        """, apply_move(1, 1), hand_after("""
        1 0 0
        0 1 0
        0 0 1
        """), transitions=["0 0 7 <-> 2 2 3"])
    add(area, "u-turn-never-captures", "2.u-turn",
        "RULES.md 2: a side joined to itself is a U-turn; the "
        "line retraces to the target and never captures, though a stone of the mover lies "
        "beyond", """
        2 0 1
        0 2 1
        """, LEGAL, hand_moves("0,1"), transitions=["0 0 6 <-> 0 0 6"])
    add(area, "u-turn-target-illegal", "2.u-turn",
        "RULES.md 2: a line through a U-turn comes back to the "
        "target and stops there", """
        2 0 1
        0 2 1
        """, illegal_move(1, 0), hand_illegal("captures in no direction"),
        transitions=["0 0 6 <-> 0 0 6"])
    add(area, "loop-collects-a-cell-twice", "3.capture-line",
        "RULES.md 3: a cell may be collected twice in one "
        "line (a transition loop); the line still captures", """
        0 2 2
        - 1 -
        """, LEGAL, hand_moves("0,0"), transitions=["2 0 2 <-> 1 0 0"])
    add(area, "loop-collects-a-cell-twice-applied", "3.move-effect",
        "RULES.md 3: the cells of a looping line "
        "are captured", """
        0 2 2
        - 1 -
        """, apply_move(0, 0), hand_after("""
        1 1 1
        - 1 -
        """), transitions=["2 0 2 <-> 1 0 0"])
    add(area, "loop-back-to-own-target", "3.line-stops",
        "RULES.md 3: a line never closes through the target, "
        "even when the target is the mover's own stone (override move)",
        "1 2 2", illegal_move(0, 0), hand_illegal("captures in no direction"), ov=[1, 0],
        transitions=["2 0 2 <-> 0 0 6"])
    add(area, "loop-back-to-own-target-legal-moves", "2.transition-step",
        "RULES.md 3: on a wrapped row the other "
        "targets still capture through the wrap", "1 2 2", LEGAL, hand_moves("1,0 2,0"),
        ov=[1, 0], transitions=["2 0 2 <-> 0 0 6"])
    add(area, "no-transition-edge-ends-line", "2.walk-ends",
        "RULES.md 2: without a transition the board edge "
        "ends the walk", "2 0 0 1", LEGAL, hand_moves(""))


# =========================================================================== RULES.md 3


def captures(book: Book) -> None:
    """RULES.md 3: capture lines and legal targets."""
    add = book.position
    area = "captures"
    add(area, "line-closed-by-own-stone", "3.capture-line",
        "RULES.md 3: a line of another player's stones "
        "closed by the mover's stone captures", "0 2 1", LEGAL, hand_moves("0,0"))
    add(area, "line-flipped", "3.move-effect",
        "RULES.md 3: the collected cells become the mover's",
        "0 2 2 1", apply_move(0, 0), hand_after("1 1 1 1"))
    add(area, "all-eight-directions", "3.move-effect",
        "RULES.md 3: every capturing direction captures",
        """
        1 0 1 0 1
        0 2 2 2 0
        1 2 0 2 1
        0 2 2 2 0
        1 0 1 0 1
        """, apply_move(2, 2), hand_after("""
        1 0 1 0 1
        0 1 1 1 0
        1 1 1 1 1
        0 1 1 1 0
        1 0 1 0 1
        """))
    add(area, "other-directions-untouched", "3.move-effect",
        "RULES.md 3: directions that do not capture are "
        "left as they are", """
        0 2 1
        2 0 0
        2 0 0
        """, apply_move(0, 0), hand_after("""
        1 1 1
        2 0 0
        2 0 0
        """))
    add(area, "first-own-stone-ends-line", "3.capture-line",
        "RULES.md 3: the walk ends at the mover's first "
        "stone", "0 2 1 2 1", apply_move(0, 0), hand_after("1 1 1 2 1"))
    add(area, "stops-at-empty", "3.line-stops",
        "RULES.md 3: an empty cell ends a line without a capture",
        """
        0 2 0 1
        0 2 1 0
        """, LEGAL, hand_moves("0,1"))
    for tile, name in (("c", "choice"), ("i", "inversion"), ("b", "bonus")):
        add(area, "stops-at-%s" % name, "3.line-stops",
            "RULES.md 3: a %s tile in a line ends it without a "
            "capture" % name, """
            0 2 %s 1
            0 2 1 0
            """ % tile, LEGAL, hand_moves("0,1"))
    add(area, "stops-at-hole", "3.line-stops",
        "RULES.md 3: a hole ends a line without a capture", """
        0 2 - 1
        0 2 1 0
        """, LEGAL, hand_moves("0,1"))
    add(area, "stops-at-edge", "3.line-stops",
        "RULES.md 3: the board edge ends a line without a capture", """
        0 2 2
        0 2 1
        """, LEGAL, hand_moves("0,1"))
    add(area, "adjacent-own-stone", "3.capture-line",
        "RULES.md 3: a line needs at least one collected cell "
        "before the mover's stone", """
        0 1 2
        0 2 1
        """, LEGAL, hand_moves("0,1"))
    add(area, "collects-expansion-stones", "3.collectable",
        "RULES.md 3: a line collects expansion stones and "
        "they become the mover's", "0 x 2 1", apply_move(0, 0), hand_after("1 1 1 1"))
    add(area, "expansion-only-line", "3.collectable",
        "RULES.md 3: a line of expansion stones alone captures",
        "0 x x 1", LEGAL, hand_moves("0,0"))
    add(area, "several-opponents-in-a-line", "3.collectable",
        "RULES.md 3: one line collects the stones of "
        "several other players", "0 2 3 1", apply_move(0, 0), hand_after("1 1 1 1"),
        players=3)
    add(area, "hole-never-a-target", "3.hole-never-legal",
        "RULES.md 3: a hole is never a legal target",
        "- 2 1", illegal_move(0, 0), hand_illegal("a hole is never a legal target"))
    add(area, "no-capture-illegal", "3.no-capture",
        "RULES.md 3: a move on an empty cell must capture in some "
        "direction", "0 0 2 1", illegal_move(0, 0), hand_illegal("captures in no direction"))
    add(area, "special-byte-on-empty", "3.special-zero",
        "RULES.md 3: the special byte must be 0 on an empty "
        "cell", "0 2 1", illegal_move(0, 0, 1), hand_illegal("special byte must be 0"))
    add(area, "othello-start", "3.legal-targets",
        "RULES.md 3: the Othello start has four legal moves",
        OTHELLO, LEGAL, hand_moves("3,2 2,3 5,4 4,5"))
    add(area, "othello-start-player-2", "3.legal-targets",
        "RULES.md 3: player 2's moves at the Othello start",
        OTHELLO, LEGAL, hand_moves("4,2 5,3 2,4 3,5"), to_move=2)
    add(area, "three-players-own-lines", "3.capture-line",
        "RULES.md 3: player 2 captures only lines closed by a "
        "stone of player 2", "0 1 2 0 3 1", LEGAL, hand_moves("0,0"), players=3, to_move=2)


def overrides(book: Book) -> None:
    """RULES.md 3: moves onto stones with override stones."""
    add = book.position
    area = "overrides"
    add(area, "onto-opponent-stone", "3.override-targets",
        "RULES.md 3: with an override stone, a move onto another "
        "player's stone is legal when it captures", "2 2 1", LEGAL, hand_moves("0,0"),
        ov=[1, 0])
    add(area, "onto-opponent-stone-applied", "3.override-cost",
        "RULES.md 3: a move onto a stone costs one "
        "override stone", "2 2 1", apply_move(0, 0), hand_after("1 1 1", overrides=[0, 0]),
        ov=[1, 0])
    add(area, "onto-own-stone", "3.override-targets",
        "RULES.md 3: with an override stone, a move onto the mover's "
        "own stone is legal when it captures", "1 2 1", LEGAL, hand_moves("0,0 2,0"),
        ov=[1, 0])
    add(area, "onto-own-stone-applied", "3.override-cost",
        "RULES.md 3: an override move onto an own stone "
        "captures and costs one", "1 2 1", apply_move(0, 0),
        hand_after("1 1 1", overrides=[0, 0]), ov=[1, 0])
    add(area, "no-override-stone", "3.override-needs-stone",
        "RULES.md 3: without override stones a stone is not a legal "
        "target", "2 2 1", illegal_move(0, 0), hand_illegal("needs an override stone"))
    add(area, "override-needs-capture", "3.override-needs-capture",
        "RULES.md 3: an override move must still capture",
        "2 1 0 0", illegal_move(0, 0), hand_illegal("captures in no direction"), ov=[3, 0])
    add(area, "charged-once", "3.override-cost",
        "RULES.md 3: an override move capturing in two directions costs "
        "exactly one override stone", "1 2 2 2 1", apply_move(2, 0),
        hand_after("1 1 1 1 1", overrides=[1, 0]), ov=[2, 0])
    add(area, "listed-with-free-moves", "3.override-targets",
        "RULES.md 3: override moves are listed with the "
        "others", """
        0 2 1
        2 2 1
        """, LEGAL, hand_moves("0,0 0,1"), ov=[1, 0])
    add(area, "none-without-overrides", "3.override-targets",
        "RULES.md 3: no override moves with 0 override stones",
        """
        0 2 1
        2 2 1
        """, LEGAL, hand_moves("0,0"), ov=[0, 5])
    add(area, "free-move-costs-nothing", "3.override-cost",
        "RULES.md 3: a move onto an empty cell costs no "
        "override stone", "0 2 1", apply_move(0, 0), hand_after("1 1 1", overrides=[2, 2]),
        overrides=2)
    add(area, "count-of-the-mover-only", "3.override-cost",
        "RULES.md 3: only the mover's override count is "
        "charged", "2 2 1", apply_move(0, 0), hand_after("1 1 1", overrides=[4, 7]),
        ov=[5, 7])
    add(area, "special-byte-on-stone", "3.special-zero",
        "RULES.md 3: the special byte must be 0 on an override "
        "move", "2 2 1", illegal_move(0, 0, 1), hand_illegal("special byte must be 0"),
        ov=[1, 0])
    add(area, "onto-stone-of-third-player", "3.override-targets",
        "RULES.md 3: an override move may target any "
        "player's stone", "3 2 1", apply_move(0, 0), hand_after("1 1 1", overrides=[0, 0, 0]),
        players=3, ov=[1, 0, 0])


def expansion(book: Book) -> None:
    """RULES.md 3: the expansion rule."""
    add = book.position
    area = "expansion"
    grid = """
        x 0 1
        0 0 2
        """
    add(area, "always-legal-with-override", "3.expansion-always-legal",
        "RULES.md 3: with an override stone a move onto an "
        "x is always legal, capture or not", grid, LEGAL, hand_moves("0,0"), ov=[1, 0])
    add(area, "applied-without-capture", "3.expansion-always-legal",
        "RULES.md 3: the x becomes the mover's stone and "
        "costs one override stone", grid, apply_move(0, 0),
        hand_after("1 0 1\n0 0 2", overrides=[0, 0]), ov=[1, 0])
    add(area, "needs-override", "3.expansion-needs-override",
        "RULES.md 3: without an override stone an x is not a legal "
        "target", grid, illegal_move(0, 0), hand_illegal("needs an override stone"))
    add(area, "not-listed-without-override", "3.expansion-needs-override",
        "RULES.md 3: x targets are not listed without "
        "override stones", grid, LEGAL, hand_moves(""), ov=[0, 1])
    add(area, "captures-when-it-can", "3.move-effect",
        "RULES.md 3: a move onto an x still captures its lines",
        "x 2 1", apply_move(0, 0), hand_after("1 1 1", overrides=[0, 0]), ov=[1, 0])
    add(area, "line-of-x-to-edge", "3.line-stops",
        "RULES.md 3: a line of x that reaches the edge does not "
        "capture", "0 x x", LEGAL, hand_moves(""), ov=[0, 0])
    add(area, "special-byte-on-x", "3.special-zero",
        "RULES.md 3: the special byte must be 0 on an x",
        "x 2 1", illegal_move(0, 0, 20), hand_illegal("special byte must be 0"), ov=[1, 0])


def choice(book: Book) -> None:
    """RULES.md 3: choice tiles."""
    add = book.position
    area = "choice"
    board2 = """
        c 2 1
        2 0 0
        """
    add(area, "one-move-per-player", "3.special-variants",
        "RULES.md 3: a choice target gives one move per player "
        "1..n", "c 2 1", LEGAL, hand_moves("0,0,1 0,0,2 0,0,3"), players=3)
    add(area, "swap-with-named-player", "3.choice-swap",
        "RULES.md 3: the mover's and the named player's "
        "stones swap owners, the new stone included", board2, apply_move(0, 0, 2),
        hand_after("2 2 2\n1 0 0"))
    add(area, "name-yourself", "3.choice-swap",
        "RULES.md 3: naming yourself is legal and swaps nothing",
        board2, apply_move(0, 0, 1), hand_after("1 1 1\n2 0 0"))
    add(area, "three-players-two-swap", "3.choice-swap",
        "RULES.md 3: only the mover and the named player "
        "swap", """
        c 2 1
        3 3 0
        """, apply_move(0, 0, 3), hand_after("3 3 3\n1 1 0"), players=3)
    add(area, "tile-used-up", "3.choice-swap",
        "RULES.md 3: a used choice tile is gone (the cell holds a stone)",
        "c 2 1 c", apply_move(0, 0, 1), hand_after("1 1 1 c"))
    add(area, "special-zero", "3.special-choice",
        "RULES.md 3: a choice move must name a player (0 is invalid)",
        "c 2 1", illegal_move(0, 0, 0), hand_illegal("must name a player"))
    add(area, "special-above-n", "3.special-choice",
        "RULES.md 3: a choice move must name a player 1..n",
        "c 2 1", illegal_move(0, 0, 3), hand_illegal("must name a player"))
    add(area, "special-bonus-value", "3.special-choice", "RULES.md 3: 20 is not a player", "c 2 1",
        illegal_move(0, 0, 20), hand_illegal("must name a player"))
    add(area, "needs-capture", "3.no-capture",
        "RULES.md 3: a choice tile is a legal target only when the move "
        "captures", "c 0 1", illegal_move(0, 0, 1), hand_illegal("captures in no direction"))
    add(area, "swap-counts-stay", "3.choice-swap",
        "RULES.md 3: a swap changes stones only, not override or "
        "bomb counts", board2, apply_move(0, 0, 2),
        hand_after("2 2 2\n1 0 0", overrides=[1, 3], bombs=[0, 2]), ov=[1, 3], bo=[0, 2])


def inversion(book: Book) -> None:
    """RULES.md 3: inversion tiles."""
    add = book.position
    area = "inversion"
    add(area, "two-players", "3.inversion-rotate",
        "RULES.md 3: inversion gives every stone of player k to player "
        "(k mod n) + 1: with two players the colours swap", """
        i 2 1
        2 0 0
        """, apply_move(0, 0), hand_after("2 2 2\n1 0 0"))
    add(area, "three-players", "3.inversion-rotate",
        "RULES.md 3: inversion rotates 1->2, 2->3, 3->1", """
        i 2 1
        3 0 2
        """, apply_move(0, 0), hand_after("2 2 2\n1 0 3"), players=3)
    add(area, "four-players", "3.inversion-rotate",
        "RULES.md 3: inversion rotates 1->2, 2->3, 3->4, 4->1", """
        i 2 1
        3 4 0
        """, apply_move(0, 0), hand_after("2 2 2\n4 1 0"), players=4)
    add(area, "single-move", "3.special-variants",
        "RULES.md 3: an inversion target is one move with special 0",
        """
        i 2 1
        2 0 0
        """, LEGAL, hand_moves("0,0"))
    add(area, "special-must-be-zero", "3.special-zero",
        "RULES.md 3: the special byte must be 0 on an inversion "
        "tile", "i 2 1", illegal_move(0, 0, 1), hand_illegal("special byte must be 0"))
    add(area, "needs-capture", "3.no-capture",
        "RULES.md 3: an inversion tile is a legal target only when the "
        "move captures", "i 0 1", illegal_move(0, 0), hand_illegal("captures in no direction"))
    add(area, "other-tiles-unchanged", "3.inversion-rotate",
        "RULES.md 3: inversion changes stones only", """
        i 2 1
        x c b
        """, apply_move(0, 0), hand_after("2 2 2\nx c b"))


def bonus(book: Book) -> None:
    """RULES.md 3: bonus tiles."""
    add = book.position
    area = "bonus"
    add(area, "two-moves", "3.special-variants",
        "RULES.md 3: a bonus target gives two moves, special 20 and 21",
        "b 2 1", LEGAL, hand_moves("0,0,20 0,0,21"))
    add(area, "bomb", "3.bonus-gain", "RULES.md 3: special 20 gives the mover one more bomb",
        "b 2 1 0", apply_move(0, 0, 20), hand_after("1 1 1 0", bombs=[1, 0], overrides=[0, 0]))
    add(area, "override", "3.bonus-gain",
        "RULES.md 3: special 21 gives the mover one more override stone",
        "b 2 1 0", apply_move(0, 0, 21), hand_after("1 1 1 0", bombs=[0, 0], overrides=[1, 0]))
    add(area, "bomb-count-wraps", "3.count-wraps",
        "RULES.md 3: counts stay 8-bit: 255 bombs + 1 = 0",
        "b 2 1 0", apply_move(0, 0, 20), hand_after("1 1 1 0", bombs=[0, 255]),
        bo=[255, 255])
    add(area, "override-count-wraps", "3.count-wraps",
        "RULES.md 3: counts stay 8-bit: 255 overrides + 1 = 0",
        "b 2 1 0", apply_move(0, 0, 21), hand_after("1 1 1 0", overrides=[0, 255]),
        ov=[255, 255])
    for special in (0, 1, 19, 22):
        add(area, "special-%d" % special, "3.special-bonus",
            "RULES.md 3: a bonus move must choose 20 or 21 "
            "(%d is invalid)" % special, "b 2 1", illegal_move(0, 0, special),
            hand_illegal("must choose 20"))
    add(area, "needs-capture", "3.no-capture",
        "RULES.md 3: a bonus tile is a legal target only when the move "
        "captures", "b 0 1", illegal_move(0, 0, 20), hand_illegal("captures in no direction"))


# =========================================================================== RULES.md 4


def turn_order(book: Book) -> None:
    """RULES.md 4: who is asked next."""
    add = book.position
    area = "turn-order"
    book.map_case(area, "player-one-first", "4.first-mover", "RULES.md 4: player 1 moves first",
                  map_text("""
                  0 0 0 0
                  0 1 2 0
                  0 2 1 0
                  0 0 0 0
                  """), hand_loads((2, 0, 0, 0, 4, 4), to_move=1, phase="build"))
    book.map_case(area, "player-one-cannot-start", "4.first-mover",
        "RULES.md 4: if player 1 has no legal move "
                  "at the start, the next player who can move starts",
                  map_text("0 1 2 2"), hand_loads((2, 0, 0, 0, 1, 4), to_move=2))
    book.map_case(area, "third-player-starts", "4.first-mover",
        "RULES.md 4: players 1 and 2 cannot move, so "
                  "player 3 starts", map_text("0 2 3 - 0 1 3", players=3),
                  hand_loads((3, 0, 0, 0, 1, 7), to_move=3))
    add(area, "next-in-order", "4.next-player",
        "RULES.md 4: after player 1, player 2 is asked when it can move",
        """
        0 2 1
        - - -
        0 1 2
        """, apply_move(0, 0), hand_after(to_move=2))
    add(area, "skip-player-without-moves", "4.skip",
        "RULES.md 4: a player without a legal move is "
        "skipped", """
        0 2 1 - -
        - - - - -
        0 1 3 - -
        """, apply_move(0, 0), hand_after("1 1 1 - -\n- - - - -\n0 1 3 - -", to_move=3),
        players=3)
    add(area, "move-again", "4.skip", "RULES.md 4: a player moves again when nobody else can", """
        0 2 1
        - - -
        0 2 1
        """, apply_move(0, 0), hand_after(to_move=1, phase="build"))
    add(area, "wrap-to-player-one", "4.next-player",
        "RULES.md 4: the order is cyclic: after player 3 comes "
        "player 1", """
        0 3 2
        - - -
        0 2 1
        """, apply_move(0, 0), hand_after(to_move=1), players=3, to_move=2)
    add(area, "skip-disqualified", "6.never-asked",
        "RULES.md 4 and 6: a disqualified player is never asked, "
        "even with a legal move", """
        0 2 1
        - - -
        0 1 3
        - - -
        0 1 2
        """, apply_move(0, 0), hand_after(to_move=3), players=3, dq=[2])
    add(area, "override-moves-count", "4.next-player",
        "RULES.md 4: override moves count as legal moves for "
        "being asked", """
        0 2 1
        - - -
        1 1 2
        """, apply_move(0, 0), hand_after(to_move=2), ov=[0, 1])
    add(area, "not-asked-without-override", "4.skip",
        "RULES.md 4: without override stones the same "
        "player has no move and is skipped", """
        0 2 1
        - - -
        1 1 2
        0 2 1
        """, apply_move(0, 0), hand_after(to_move=1), ov=[0, 0])
    add(area, "after-disqualification", "4.next-player",
        "RULES.md 4 and 6: after the mover is disqualified the "
        "next player who can move is asked", "0 1 2", apply_disqualify(1),
        hand_after("0 1 2", to_move=2, disqualified=[1]), players=3)
    add(area, "after-disqualification-skips", "4.skip",
        "RULES.md 4: after a disqualification players "
        "without moves are skipped as after any turn", """
        0 1 3 - 0 2 3
        """, apply_disqualify(1), hand_after(to_move=3, disqualified=[1]), players=3)


def phase_change(book: Book) -> None:
    """RULES.md 4: the end of phase 1, the start and the end of the game."""
    add = book.position
    area = "phase-change"
    add(area, "bombing-starts", "4.end-of-phase-1",
        "RULES.md 4: when nobody can move, phase 2 starts if anyone has "
        "a bomb", "0 2 1", apply_move(0, 0), hand_after("1 1 1", phase="bomb", to_move=2),
        bombs=1)
    add(area, "no-bombs-game-over", "4.end-of-phase-1",
        "RULES.md 4: when nobody can move and nobody has a bomb the "
        "game is over", "0 2 1", apply_move(0, 0),
        hand_after("1 1 1", phase="over", to_move=None))
    add(area, "bombing-order-continues", "5.bomb-turn-order",
        "RULES.md 5: phase 2 continues the order after the "
        "player of the last phase-1 turn", "0 1 2", apply_move(0, 0),
        hand_after("2 2 2", phase="bomb", to_move=3), players=3, bombs=1, to_move=2)
    add(area, "bombing-order-skips-no-bomb", "5.bomb-turn-order",
        "RULES.md 5: players without a bomb are skipped "
        "when phase 2 starts", "0 2 1", apply_move(0, 0),
        hand_after(phase="bomb", to_move=3), players=3, bo=[1, 0, 1])
    add(area, "after-rejected-last-turn", "5.bomb-turn-order",
        "RULES.md 5: phase 2 continues the order after the "
        "player of the last phase-1 turn, also when that turn ended in a disqualification",
        "1 2 3", apply_disqualify(2), hand_after(phase="bomb", to_move=3, disqualified=[2]),
        players=3, bombs=1, to_move=2)
    add(area, "bomb-of-a-disqualified-player", "4.end-of-phase-1",
        "RULES.md 4: only players still in the game "
        "count for starting phase 2", "0 2 1", apply_move(0, 0),
        hand_after(phase="over", to_move=None), players=3, bo=[0, 0, 1], dq=[3])
    book.map_case(area, "start-in-bombing-phase", "4.first-mover",
        "RULES.md 4: if nobody can move at the start "
                  "and there are bombs, the game starts in phase 2 with player 1",
                  map_text("1 2", bombs=1), hand_loads((2, 0, 1, 0, 1, 2), phase="bomb",
                                                       to_move=1))
    book.map_case(area, "over-before-it-starts", "4.first-mover",
        "RULES.md 4: if nobody can move at the start "
                  "and there are no bombs, the game is over before it starts",
                  map_text("1 2"), hand_loads((2, 0, 0, 0, 1, 2), phase="over", to_move=None))
    book.map_case(area, "override-moves-at-start", "4.first-mover",
        "RULES.md 4: override moves count at the "
                  "start: with an override stone the game starts in phase 1",
                  map_text("1 2 1", overrides=1),
                  hand_loads((2, 1, 0, 0, 1, 3), phase="build", to_move=1))
    add(area, "phase-ends-without-override-moves", "4.end-of-phase-1",
        "RULES.md 4: with no free target and no "
        "override stone left, phase 1 ends", "0 2 1 1", apply_move(0, 0),
        hand_after("1 1 1 1", phase="bomb", to_move=2), bombs=1, ov=[0, 0])
    add(area, "override-moves-keep-phase-1", "4.end-of-phase-1",
        "RULES.md 4: phase 1 goes on while someone has an "
        "override move: player 1 moves again onto its own stone", "0 2 1 2 1",
        apply_move(0, 0), hand_after("1 1 1 2 1", phase="build", to_move=1), ov=[1, 0])
    add(area, "moves-after-the-end", "4.game-over",
        "RULES.md 4: nobody moves once the game is over",
        "1 2 0", illegal_move(2, 0), hand_illegal("the game is over"), phase="over")
    add(area, "no-legal-moves-when-over", "4.game-over",
        "RULES.md 4: a finished game has no legal moves",
        "0 2 1", LEGAL, hand_moves(""), phase="over")


# =========================================================================== RULES.md 5


def bombing(book: Book) -> None:
    """RULES.md 5: the bombing phase."""
    add = book.position
    area = "bombing"
    add(area, "every-non-hole-target", "5.bomb-targets",
        "RULES.md 5: any cell that is not a hole is a bomb "
        "target, with special 0", """
        1 - x
        c 0 2
        """, LEGAL, hand_moves("0,0 2,0 0,1 1,1 2,1"), phase="bomb", bombs=1)
    open5 = """
        0 0 0 0 0
        0 0 0 0 0
        0 0 1 0 0
        0 0 0 0 0
        0 0 0 0 2
        """
    add(area, "strength-0", "5.blast", "RULES.md 5: strength 0 destroys the target only", open5,
        apply_move(2, 2), hand_after("""
        0 0 0 0 0
        0 0 0 0 0
        0 0 - 0 0
        0 0 0 0 0
        0 0 0 0 2
        """, bombs=[0, 1]), phase="bomb", bombs=1, strength=0)
    add(area, "strength-1", "5.blast",
        "RULES.md 5: strength 1 removes the 3x3 square on an open board",
        open5, apply_move(2, 2), hand_after("""
        0 0 0 0 0
        0 - - - 0
        0 - - - 0
        0 - - - 0
        0 0 0 0 2
        """), phase="bomb", bombs=1, strength=1)
    add(area, "strength-2", "5.blast", "RULES.md 5: strength 2 removes the 5x5 square", """
        0 0 0 0 0 0
        0 0 0 0 0 0
        0 0 1 0 0 0
        0 0 0 0 0 0
        0 0 0 0 0 0
        0 0 0 0 0 2
        """, apply_move(2, 2), hand_after("""
        - - - - - 0
        - - - - - 0
        - - - - - 0
        - - - - - 0
        - - - - - 0
        0 0 0 0 0 2
        """), phase="bomb", bombs=1, strength=2)
    add(area, "clipped-at-edge", "5.blast", "RULES.md 5: the blast stops at the board edge", """
        1 0 0
        0 0 0
        0 0 2
        """, apply_move(0, 0), hand_after("""
        - - 0
        - - 0
        0 0 2
        """), phase="bomb", bombs=1, strength=1)
    add(area, "wall-of-holes-shields", "5.blast",
        "RULES.md 5: a step never enters a hole, so a wall of "
        "holes shields what is behind it", """
        0 0 - 1
        0 0 - 0
        0 0 - 2
        """, apply_move(0, 1), hand_after("""
        - - - 1
        - - - 0
        - - - 2
        """), phase="bomb", bombs=1, strength=3)
    add(area, "blast-through-transition", "5.blast",
        "RULES.md 5: the blast steps through transitions",
        "0 0 - 0 0", apply_move(1, 0), hand_after("- - - - 0"), phase="bomb", bombs=1,
        strength=1, transitions=["1 0 2 <-> 3 0 6"])
    add(area, "transition-to-a-hole", "5.blast",
        "RULES.md 5: a step never enters a hole, also when a "
        "transition's far end has become one", """
        0 0 - 0 0
        1 - - - 2
        """, apply_move(1, 0), hand_after("- - - - 0\n- - - - 2"), phase="bomb", bombs=1,
        strength=2, transitions=["1 0 2 <-> 3 0 6"], board="""
        0 0 - - 0
        1 - - - 2
        """)
    add(area, "board-before-the-bomb", "5.blast",
        "RULES.md 5: the blast walks the board as it is before "
        "the bomb: cells it destroys do not stop it", "0 0 0 0 0 1 2", apply_move(0, 0),
        hand_after("- - - 0 0 1 2"), phase="bomb", bombs=1, strength=2)
    add(area, "blast-through-u-turn", "5.blast",
        "RULES.md 5: a self-joined side leads back to the same "
        "cell", "0 0 0 1 2", apply_move(0, 0), hand_after("- - 0 1 2"), phase="bomb", bombs=1,
        strength=1, transitions=["0 0 6 <-> 0 0 6"])
    add(area, "hole-target", "5.bomb-on-hole",
        "RULES.md 5: a hole is not a bomb target", "0 - 1 2",
        illegal_move(1, 0), hand_illegal("hole"), phase="bomb", bombs=1)
    add(area, "off-board-target", "6.off-board",
        "RULES.md 5 and 6: an off-board target is an invalid move",
        "0 0 1 2", illegal_move(4, 0), hand_illegal("off the board"), phase="bomb", bombs=1)
    add(area, "special-byte-tolerated", "5.bomb-targets",
        "RULES.md 5: a non-zero special byte on a bomb is "
        "tolerated", "0 0 1 2", apply_move(0, 0, 7), hand_after("- 0 1 2", bombs=[0, 1]),
        phase="bomb", bombs=1)
    add(area, "bomb-costs-one", "5.blast",
        "RULES.md 5: each bomb costs 1", "0 0 1 2", apply_move(1, 0),
        hand_after("0 - 1 2", bombs=[1, 1], to_move=2), phase="bomb", bo=[2, 1])
    add(area, "bomb-own-stone", "5.bomb-targets",
        "RULES.md 5: a bomb may target the bomber's own stone",
        "0 0 1 2", apply_move(2, 0), hand_after("0 0 - 2"), phase="bomb", bombs=1)
    add(area, "skip-players-without-bombs", "5.bomb-turn-order",
        "RULES.md 5: players without a bomb are skipped",
        "0 0 1 2 3", apply_move(0, 0), hand_after(to_move=3), phase="bomb", players=3,
        bo=[1, 0, 1])
    add(area, "player-without-stones-bombs", "5.bomb-turn-order",
        "RULES.md 5: a player with no stones still bombs",
        "1 0 0", apply_move(1, 0), hand_after(to_move=2), phase="bomb", bombs=1)
    add(area, "several-bombs-in-a-row", "5.bomb-turn-order",
        "RULES.md 5: a player may bomb several times in a row "
        "when nobody else has a bomb", "0 0 1 2", apply_move(0, 0),
        hand_after(to_move=1, bombs=[1, 0]), phase="bomb", bo=[2, 0])
    add(area, "skip-disqualified-bomber", "5.bomb-turn-order",
        "RULES.md 5: disqualified players are skipped",
        "0 0 1 2 3", apply_move(0, 0), hand_after(to_move=3), phase="bomb", players=3,
        bombs=1, dq=[2])
    add(area, "ends-without-bombs", "5.end-of-game",
        "RULES.md 5: the game ends when no player still in the "
        "game has a bomb", "0 0 1 2", apply_move(0, 0),
        hand_after("- 0 1 2", phase="over", to_move=None), phase="bomb", bo=[1, 0])
    add(area, "ends-without-cells", "5.end-of-game",
        "RULES.md 5: the game ends when no non-hole cell is left",
        "0 0", apply_move(0, 0), hand_after("- -", phase="over", to_move=None),
        phase="bomb", bombs=5, strength=1)
    add(area, "bombs-of-disqualified-do-not-count", "5.end-of-game",
        "RULES.md 5: bombs of disqualified players "
        "do not keep the game going", "0 0 1 2 3", apply_move(0, 0),
        hand_after(phase="over", to_move=None), phase="bomb", players=3, bo=[1, 0, 4], dq=[3])


# =========================================================================== RULES.md 6


def disqualification(book: Book) -> None:
    """RULES.md 6: disqualification."""
    add = book.position
    area = "disqualification"
    add(area, "stones-stay", "6.stones-stay",
        "RULES.md 6: a disqualified player's stones stay on the board",
        "0 2 1 3", apply_disqualify(2), hand_after("0 2 1 3", disqualified=[2], to_move=1),
        players=3)
    add(area, "sole-remaining-player", "6.sole-survivor",
        "RULES.md 6: when only one player is left the game ends "
        "at once (no phase 2 even with bombs)", "0 2 1", apply_disqualify(2),
        hand_after("0 2 1", phase="over", to_move=None, disqualified=[2]), bombs=3)
    add(area, "sole-remaining-after-mover", "6.sole-survivor",
        "RULES.md 6: disqualifying the mover of a "
        "two-player game ends it", "0 2 1", apply_disqualify(1),
        hand_after(phase="over", to_move=None, disqualified=[1]))
    add(area, "stones-capturable", "6.stones-stay",
        "RULES.md 3 and 6: a disqualified player's stones are "
        "captured like any other", "0 2 1", apply_move(0, 0), hand_after("1 1 1"), players=3,
        dq=[2])
    add(area, "capturable-listed", "6.stones-stay",
        "RULES.md 3 and 6: lines of a disqualified player's stones "
        "give legal moves", "0 2 1", LEGAL, hand_moves("0,0"), players=3, dq=[2])
    add(area, "choice-target", "6.stones-stay",
        "RULES.md 3 and 6: a disqualified player remains a legal choice "
        "target", "c 2 1", LEGAL, hand_moves("0,0,1 0,0,2 0,0,3"), players=3, dq=[3])
    add(area, "swapped-by-choice", "6.stones-stay",
        "RULES.md 3 and 6: naming a disqualified player swaps",
        """
        c 2 1
        3 3 0
        """, apply_move(0, 0, 3), hand_after("3 3 3\n1 1 0"), players=3, dq=[3])
    add(area, "rotated-by-inversion", "6.stones-stay",
        "RULES.md 3 and 6: inversion rotates a disqualified "
        "player's stones too", """
        i 2 1
        3 0 2
        """, apply_move(0, 0), hand_after("2 2 2\n1 0 3"), players=3, dq=[3])
    add(area, "disqualify-mover-in-phase-2", "6.never-asked",
        "RULES.md 6: in phase 2 the next bomber is asked "
        "after a disqualification", "0 1 2 3", apply_disqualify(1),
        hand_after(to_move=2, phase="bomb", disqualified=[1]), players=3, phase="bomb",
        bombs=1)
    add(area, "sole-remaining-in-phase-2", "6.sole-survivor",
        "RULES.md 6: the game ends when one player is left, "
        "in phase 2 as well", "0 1 2", apply_disqualify(2),
        hand_after(phase="over", to_move=None), phase="bomb", bombs=2)
    add(area, "disqualified-stones-not-own", "6.stones-stay",
        "RULES.md 6: a disqualified player's stones are "
        "other-player stones to everybody, the former owner's moves included", "0 2 1 2",
        LEGAL, hand_moves("0,0"), players=3, dq=[2])
    add(area, "off-board-move", "6.off-board",
        "RULES.md 6: off-board coordinates are an invalid move",
        "0 2 1", illegal_move(3, 0), hand_illegal("off the board"))
    add(area, "row-off-the-board", "6.off-board",
        "RULES.md 6: off-board coordinates are an invalid move (a "
        "row below the board)", "0 2 1", illegal_move(0, 1), hand_illegal("off the board"))
    # Moves the wire cannot carry (coordinates are uint16, the special byte uint8): the server
    # never sees them, so these are our strict reading, left out of the default run.
    add(area, "negative-coordinate", "6.off-board",
        "RULES.md 6 (strict reading; the wire carries no negative coordinate): a negative "
        "coordinate is off the board", "0 2 1", illegal_move(-1, 0),
        hand_illegal("off the board"), basis=STRICT)
    add(area, "special-above-255", "8.special-range",
        "RULES.md 8 (strict reading; the wire carries one byte): a special value above 255 is "
        "invalid", "0 2 1", illegal_move(0, 0, 256), hand_illegal("0..255"), basis=STRICT)


# =========================================================================== RULES.md 7


def ranking(book: Book) -> None:
    """RULES.md 7: scores and ranking."""
    add = book.position
    area = "ranking"
    add(area, "by-score", "7.ranking",
        "RULES.md 7: players are ranked by stones on the board, best first",
        "1 1 2", game_query(""), hand_game("1:1:2 2:2:1"), phase="over")
    add(area, "ties-share-a-rank", "7.ranking",
        "RULES.md 7: equal scores share a rank (1, 2, 2, 4)",
        "1 1 1 2 2 3 3 4", game_query(""), hand_game("1:1:3 2:2:2 2:3:2 4:4:1"), players=4,
        phase="over")
    add(area, "all-tied", "7.ranking", "RULES.md 7: everybody tied shares rank 1", "1 2 - 3 4",
        game_query(""), hand_game("1:1:1 1:2:1 1:3:1 1:4:1"), players=4, phase="over")
    add(area, "disqualified-not-ranked", "7.ranking",
        "RULES.md 7: disqualified players get no rank",
        "1 1 1 2 3 3", game_query(""), hand_game("1:3:2 2:2:1"), players=3, dq=[1],
        phase="over")
    add(area, "zero-score-ranked", "7.ranking",
        "RULES.md 7: a player with no stones is still ranked",
        "1 1", game_query(""), hand_game("1:1:2 2:2:0"), phase="over")
    add(area, "tiles-not-scored", "7.ranking",
        "RULES.md 7: only stones count, not x or special tiles",
        "1 x c i b 2 2", game_query(""), hand_game("1:2:2 2:1:1"), phase="over")
    add(area, "after-the-last-move", "7.ranking", "RULES.md 7: the ranking at the end of a game",
        "0 2 1", game_query("0,0"), hand_game("1:1:3 2:2:0", [
            hand_state("1 1 1", phase="over", to_move=None)]))
    add(area, "sole-survivor", "6.sole-survivor",
        "RULES.md 6-7: a sole remaining player is ranked alone",
        "0 2 2 1", game_query("dq:2"), hand_game("1:1:1"), players=2)


# =========================================================================== perft and games


def perft(book: Book) -> None:
    """Perft as defined in specs/README.md."""
    add = book.position
    area = "perft"
    for depth, nodes in ((1, 4), (2, 12), (3, 56), (4, 244)):
        add(area, "othello-depth-%d" % depth, "perft.count",
            "perft: the Othello start, published count at "
            "depth %d" % depth, OTHELLO, perft_query(depth), hand_nodes(nodes), initial=True)
    add(area, "depth-zero", "perft.count", "perft: depth 0 counts the position itself", "0 2 1",
        perft_query(0), hand_nodes(1))
    add(area, "finished-game-is-a-leaf", "perft.count",
        "perft: a finished game is one leaf at any depth",
        "0 2 1", perft_query(3), hand_nodes(1), phase="over")
    add(area, "choice-variants", "perft.count",
        "perft: each choice variant is its own move", "c 2 1",
        perft_query(1), hand_nodes(3), players=3)
    add(area, "bonus-variants", "perft.count",
        "perft: the two bonus variants are separate moves", "b 2 1",
        perft_query(1), hand_nodes(2))
    skip = """
        0 2 1
        - - -
        0 2 1
        """
    add(area, "skip-takes-no-ply", "perft.count", "perft: a skipped player takes no ply", skip,
        perft_query(2), hand_nodes(2))
    add(area, "game-ends-early", "perft.count",
        "perft: lines that end before the depth count once", skip,
        perft_query(5), hand_nodes(2))
    add(area, "phase-change-takes-no-ply", "perft.count",
        "perft: the change to phase 2 takes no ply",
        "0 2 1", perft_query(2), hand_nodes(3), bombs=1)
    add(area, "lonely-cell", "perft.count",
        "perft: a one-cell map starts in phase 2; one bomb ends it",
        "0", perft_query(3), hand_nodes(1), bombs=1, initial=True)


def games(book: Book) -> None:
    """Short whole games worked out by hand."""
    add = book.position
    area = "games"
    add(area, "two-moves", "game.whole",
        "RULES.md 3-4, 7: player 1 moves twice because player 2 cannot",
        """
        0 2 1
        - - -
        0 2 1
        """, game_query("0,0 0,2"), hand_game("1:1:6 2:2:0", [
            hand_state("1 1 1\n- - -\n0 2 1", to_move=1, phase="build"),
            hand_state("1 1 1\n- - -\n1 1 1", to_move=None, phase="over")]), initial=True)
    add(area, "build-then-bomb", "game.whole",
        "RULES.md 3-5, 7: one capture, then both players bomb",
        "0 2 1", game_query("0,0 2,0 0,0"), hand_game("1:1:1 2:2:0", [
            hand_state("1 1 1", to_move=2, phase="bomb", bombs=[1, 1]),
            hand_state("1 1 -", to_move=1, phase="bomb", bombs=[1, 0]),
            hand_state("- 1 -", to_move=None, phase="over", bombs=[0, 0])]),
        bombs=1, initial=True)
    add(area, "ends-by-disqualification", "game.whole",
        "RULES.md 6-7: a game ends when the last opponent is "
        "disqualified", """
        0 2 1
        - - -
        0 1 2
        """, game_query("0,0 dq:2"), hand_game("1:1:4", [
            hand_state("1 1 1\n- - -\n0 1 2", to_move=2),
            hand_state(phase="over", to_move=None, disqualified=[2])]), initial=True)


SECTIONS = (map_loading, transitions, captures, overrides, expansion, choice, inversion, bonus,
            turn_order, phase_change, bombing, disqualification, ranking, perft, games)


def handmade_cases() -> List[Case]:
    """Every hand-made case, without expected answers (the generator adds them)."""
    book = Book()
    for section in SECTIONS:
        section(book)
    return book.cases


def names_in(cases: Sequence[Case], area: str) -> List[str]:
    """The ids of the cases of `area`."""
    return [case.id for case in cases if case.area == area]
