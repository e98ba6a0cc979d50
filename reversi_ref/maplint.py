"""`reversi-ref lint MAP`: load a map as the official server does, then warn about what a strict
reading flags (RULES.md 1).

Exit codes: 1 when the server would reject the map (the error is printed as
`file:line:column: reason [problem]`); otherwise 0, or 1 with `--strict` when there are
warnings; 2 for a usage error (argparse's convention).

Warnings, each with the line and column of the token concerned:
- `non-canonical-number`: a header number not written as plain decimal digits, or one the server
  takes modulo 256 or 2**32 (`1.5`, `+3`, `007`, `2abc`, `300` overrides);
- `repeated-self-join`: a side joined to itself again (no change); one warning per side, at
  its first repeat, counting the later ones;
- `replaced-self-join`: a side joined to itself and later joined elsewhere; the later transition
  applies;
- `unreachable-cells`: non-hole cells that no walk (RULES.md 2, any direction, through
  transitions) connects to a player's stone, nor to an expansion stone when a player has or can
  get override stones (at the start, or from a bonus tile that a stone's region holds); no move
  can ever capture or take them (a move captures along a walk from its target to one of the
  mover's stones, and only an expansion stone may be taken without one). One warning per
  connected region, at its first cell;
- `no-first-move`: a player who has no legal move in the start position;
- `bombs-clear-board`: every order of the players' bombs, on any targets, destroys every cell
  that is not a hole (RULES.md 5), so every player ends with 0 stones whatever is played
  (`reversi_ref.clearance`; a search with a budget, `--bomb-budget`: no warning when it runs
  out, which takes a few seconds at most, nor on boards of more than 10,000 cells).
"""

from __future__ import annotations

import argparse
from typing import Any, List, Set

from .bundled import find_map
from .cli import int_range
from .clearance import DEFAULT_BUDGET, bombs_clear_board
from .errors import MapError
from .geometry import BONUS, EXPANSION, HOLE, PLAYER_STONES
from .mapfile import MapNote, read_map_notes, tokenize
from .rules import initial_state
from .rules.building import has_building_move
from .rules.walking import step
from .state import GameState

HEADER_TOKENS = 6
BOMBS_TOKEN = 2


def _region(state: GameState, start: int, seen: Set[int]) -> List[int]:
    """The cells connected to `start` by single steps, added to `seen`."""
    m = state.map
    region = [start]
    seen.add(start)
    for index in region:
        for direction in range(8):
            landed = step(state, index % m.width, index // m.width, direction)
            if landed is not None:
                target = m.index(landed[0], landed[1])
                if target not in seen:
                    seen.add(target)
                    region.append(target)
    return region


def unreachable_regions(state: GameState) -> List[List[int]]:
    """The connected regions of non-hole cells holding no stone, each as row-major indices, in
    board order.  An expansion stone counts as a stone when a player has or can get an override
    stone: in hand at the start, or from a bonus tile that a stone's region holds (RULES.md 3)."""
    m = state.map
    seen: Set[int] = set()
    for index, cell in enumerate(m.cells):
        if cell in PLAYER_STONES[:m.players] and index not in seen:
            _region(state, index, seen)
    if m.overrides or any(m.cells[index] == BONUS for index in seen):
        for index, cell in enumerate(m.cells):
            if cell == EXPANSION and index not in seen:
                _region(state, index, seen)
    regions = []
    for index, cell in enumerate(m.cells):
        if cell != HOLE and index not in seen:
            regions.append(sorted(_region(state, index, seen)))
    return regions


def lint_notes(text: str, bomb_budget: int = DEFAULT_BUDGET) -> List[MapNote]:
    """Every warning for a map text (raises MapError when the server would reject it);
    `bomb_budget` limits the search behind `bombs-clear-board` (0: no limit)."""
    m, notes = read_map_notes(text)
    state = initial_state(m)
    regions = unreachable_regions(state)
    cleared = bombs_clear_board(m, bomb_budget)
    # The tokens of the regions' first cells (and of the bomb count when it is warned about),
    # found reading only as far as the last of them.
    wanted = {HEADER_TOKENS + region[0] for region in regions}
    if cleared:
        wanted.add(BOMBS_TOKEN)
    places = {number: token for number, token in zip(range(max(wanted, default=-1) + 1),
                                                       tokenize(text)) if number in wanted}
    for region in regions:
        token = places[HEADER_TOKENS + region[0]]
        first = region[0]
        notes.append(MapNote(token.line, token.column, "unreachable-cells",
                             "%d cell(s) from (%d,%d) on can never be captured or played: no "
                             "walk reaches them from a stone" % (len(region), first % m.width,
                                                                   first // m.width)))
    for player in range(1, m.players + 1):
        if not has_building_move(state, player):
            notes.append(MapNote(1, 1, "no-first-move",
                                 "player %d has no legal move in the start position" % player))
    if cleared:
        token = places[BOMBS_TOKEN]
        notes.append(MapNote(token.line, token.column, "bombs-clear-board",
                             "every order of the %d bombs (%d each, strength %d) destroys every "
                             "cell that is not a hole: every player ends with 0 stones, "
                             "whatever is played" % (m.players * m.bombs, m.bombs, m.strength)))
    notes.sort(key=lambda note: (note.line, note.column))
    return notes


def run(args: argparse.Namespace) -> int:
    """The `lint` subcommand."""
    source = find_map(args.map)
    path, text = source.label, source.text
    try:
        notes = lint_notes(text, args.bomb_budget)
    except MapError as error:
        located = error.with_source(path)
        print("%s [%s]" % (located, located.problem))
        return 1
    for note in notes:
        print("%s:%d:%d: warning: %s [%s]" % (path, note.line, note.column, note.message,
                                              note.kind))
    return 1 if notes and args.strict else 0


def register(subparsers: Any) -> None:
    """Add the `lint` subcommand."""
    parser = subparsers.add_parser(
        "lint", help="check a map file as the official server reads it, with warnings",
        description="Load MAP as the official server does: print its error and exit 1 when "
                    "the server would reject it; otherwise print warnings (non-canonical "
                    "numbers, self-joins repeated or replaced, unreachable cells, players "
                    "without a first move, bombs that clear the board whatever is played) and "
                    "exit 0.")
    parser.add_argument("map", metavar="MAP",
                        help="map file, or a bundled map's name (`reversi-ref maps`)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when there are warnings")
    parser.add_argument("--bomb-budget", type=int_range(0), default=DEFAULT_BUDGET,
                        metavar="N",
                        help="pieces of the board the bombs-clear-board search may examine, "
                             "with 3,000 cells of blasts each, before it gives up without a "
                             "warning (default %(default)s; 0: no limit, minutes on some maps)")
    parser.set_defaults(func=run)


__all__ = ["lint_notes", "unreachable_regions"]
