"""Generated cases: random games on maps we author, cut into cases by rule area.

Each chunk of the suite is one map: either a small map drawn by `random_map_text` from a fixed
seed, or one of the bundled maps in `maps/`.  On each map the chunk plays random games with the
readable rules (a few random disqualifications mixed in), then picks positions that show each
rule area: `legal_moves`, `apply` and `illegal` cases, perft counts, the end of the game with its
ranking, and (for small maps) the whole game.  Generated maps also give `map_load` cases (in
varied layouts) and `map_reject` cases (the map broken in one place).

Everything depends only on the chunk's seed, so `generate_chunk(name)` always returns the same
cases; randomness comes from `random.Random(seed)` and only `random()`, `randrange()` and
`choice()` on lists are used, which give the same numbers on every CPython 3.9+ and PyPy.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Set, Tuple

from ..errors import IllegalMoveError
from ..geometry import (BONUS, CHOICE, DIRECTIONS, EXPANSION, HOLE, INVERSION, PLAYER_STONES, Map,
                        Transition, open_sides)
from ..mapfile import format_map, read_map
from ..perft import reference_perft, skipped_players
from ..rules import (captures_in_direction, disqualify, initial_state, legal_moves, play,
                     step)
from ..state import BOMB, BUILD, OVER, GameState, Move
from .casebook import GENERATED, Case
from .codec import JSONObject, SpecError, map_to_json, move_to_json, state_to_json
from .oracle import map_answer, ranking_to_json

# How many generated maps the suite holds (chunk names m001..).
GENERATED_MAPS = 100

# Per chunk: at most this many cases of each (kind, area).
CAPS: Dict[str, int] = {"apply": 3, "legal_moves": 2, "illegal": 1}

# Whole games are kept only on maps with at most this many cells (size of the suite).
WHOLE_GAME_CELLS = 100

# Random games stop after this many plies (the bundled 50x50 map is cut short).
MAX_PLIES = 400
MAX_PLIES_LARGE = 60
LARGE_CELLS = 1000


# =========================================================================== authored maps


def _seed(name: str, salt: int) -> int:
    """A fixed integer seed for a chunk name (no use of hash(), which varies per run)."""
    value = 17
    for char in name:
        value = (value * 131 + ord(char)) % 1000000007
    return value * 1000 + salt


def random_map_text(rng: random.Random) -> str:
    """A small random map in canonical layout: 2-8 players, holes, every special tile,
    little Othello blocks of stones, random transitions (some self-joined), small counts."""
    players = rng.choice([2, 2, 2, 2, 3, 3, 3, 4, 4, 5, 6, 7, 8])
    shape = rng.random()
    if shape < 0.06:
        height, width = 1, rng.randrange(3, 12)
    elif shape < 0.12:
        height, width = rng.randrange(3, 12), 1
    else:
        height, width = rng.randrange(3, 10), rng.randrange(3, 10)
    width = max(width, 2) if height == 1 else width
    height = max(height, 2) if width == 1 else height
    cells = ["0"] * (height * width)
    hole_rate = rng.choice([0.0, 0.0, 0.05, 0.1, 0.2])
    rates = [rng.choice([0.0, 0.02, 0.05, 0.1]) for _ in "cibx"]
    for index in range(len(cells)):
        roll = rng.random()
        if roll < hole_rate:
            cells[index] = HOLE
            continue
        roll -= hole_rate
        for tile, rate in zip("cibx", rates):
            if roll < rate:
                cells[index] = tile
                break
            roll -= rate
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        _place_block(rng, cells, height, width, players)
    overrides = rng.choice([0, 0, 1, 1, 2, 3, 5, 255])
    bombs = rng.choice([0, 0, 1, 1, 2, 3])
    strength = rng.choice([0, 1, 1, 2, 3])
    game_map = Map(players, overrides, bombs, strength, height, width, tuple(cells))
    links = _random_transitions(rng, game_map)
    return format_map(Map(players, overrides, bombs, strength, height, width, tuple(cells),
                          tuple(Transition(*link) for link in links)))


def _place_block(rng: random.Random, cells: List[str], height: int, width: int,
                 players: int) -> None:
    """Two rows of stones 1..n, the second shifted by one (an Othello start for n = 2)."""
    rows = min(2, height)
    cols = min(players, width)
    top = rng.randrange(0, height - rows + 1)
    left = rng.randrange(0, width - cols + 1)
    shift = rng.randrange(players)
    for r in range(rows):
        for c in range(cols):
            player = (c + r + shift) % players + 1
            cells[(top + r) * width + left + c] = str(player)


def _random_transitions(rng: random.Random, game_map: Map) -> List[Tuple[int, ...]]:
    sides = open_sides(game_map.height, game_map.width, game_map.cells)
    count = rng.choice([0, 0, 1, 2, 3, 4, 6, 8, 12])
    links: List[Tuple[int, ...]] = []
    for _ in range(count):
        if not sides:
            break
        first = sides.pop(rng.randrange(len(sides)))
        if rng.random() < 0.1 or not sides:
            links.append(first + first)
            continue
        second = sides.pop(rng.randrange(len(sides)))
        links.append(first + second)
    return links


# =========================================================================== random games


class Ply(NamedTuple):
    """One step of a random game: the position before, the step, the position after."""

    number: int
    before: GameState
    step: JSONObject
    after: GameState
    legal: Tuple[Move, ...]


def play_random_game(state: GameState, rng: random.Random, max_plies: int,
                     disqualify_rate: float = 0.01) -> List[Ply]:
    """Random legal moves until the game ends (or `max_plies`), with rare disqualifications."""
    plies: List[Ply] = []
    while state.phase != OVER and len(plies) < max_plies:
        legal = tuple(legal_moves(state))
        active = state.active_players()
        if rng.random() < disqualify_rate and len(active) >= 2:
            if rng.random() < 0.7 and state.to_move is not None:
                player = state.to_move
            else:
                player = rng.choice(active)
            after = disqualify(state, player)
            plies.append(Ply(len(plies), state, {"disqualify": player}, after, legal))
        else:
            move = rng.choice(list(legal))
            after = play(state, move)
            plies.append(Ply(len(plies), state, {"move": move_to_json(move)}, after, legal))
        state = after
    return plies


# =========================================================================== features


def line_uses_transition(state: GameState, player: int, x: int, y: int, direction: int) -> bool:
    """Whether the capture line of `player` from (x, y) in `direction` steps through a
    transition before it closes (RULES.md 2-3)."""
    if not captures_in_direction(state, player, x, y, direction):
        return False
    exits = state.map.exits
    cx, cy, heading = x, y, direction
    mine = str(player)
    while True:
        if (cx, cy, heading) in exits:
            return True
        position = step(state, cx, cy, heading)
        if position is None:
            return False
        cx, cy, heading = position
        if state.cell(cx, cy) == mine:
            return False


def move_uses_transition(state: GameState, move: Move) -> bool:
    """Whether any capture line of the move steps through a transition."""
    player = state.to_move
    if player is None:
        return False
    return any(line_uses_transition(state, player, move.x, move.y, d) for d in range(8))


def _captures_disqualified(state: GameState, move: Move, after: GameState) -> bool:
    """Whether the move turns a disqualified player's stone, or names one on a choice tile."""
    if not state.disqualified:
        return False
    if state.cell(move.x, move.y) == CHOICE and move.special in state.disqualified:
        return True
    for before_cell, after_cell in zip(state.board, after.board):
        if before_cell != after_cell and before_cell in PLAYER_STONES and int(
                before_cell) in state.disqualified:
            return True
    return False


def apply_features(ply: Ply) -> List[str]:
    """The rule areas one step of a random game shows (most specific first)."""
    before, after = ply.before, ply.after
    features: List[str] = []
    if "disqualify" in ply.step:
        return ["disqualification"]
    move = Move(*ply.step["move"])
    if before.phase == BOMB:
        features.append("bombing")
        if after.phase == OVER:
            features.append("phase-change")
        return features
    target = before.cell(move.x, move.y)
    if after.phase != before.phase:
        features.append("phase-change")
    if skipped_players(before, after):
        features.append("turn-order")
    tile_area = {CHOICE: "choice", INVERSION: "inversion", BONUS: "bonus",
                 EXPANSION: "expansion"}.get(target)
    if tile_area is not None:
        features.append(tile_area)
    elif target in PLAYER_STONES:
        features.append("overrides")
    if _captures_disqualified(before, move, after):
        features.append("disqualification")
    if move_uses_transition(before, move):
        features.append("transitions")
    if not features or (target == "0" and "transitions" not in features):
        features.append("captures")
    return features


def without_transitions(state: GameState) -> GameState:
    """The position with the map's transitions taken away."""
    return replace(state, map=replace(state.map, transitions=()))


def legal_features(state: GameState, legal: Sequence[Move]) -> List[str]:
    """The rule areas a `legal_moves` case on this position shows."""
    if state.phase == BOMB:
        return ["bombing"]
    targets = {state.cell(m.x, m.y) for m in legal}
    features: List[str] = []
    if EXPANSION in targets:
        features.append("expansion")
    if targets & set(PLAYER_STONES):
        features.append("overrides")
    if CHOICE in targets:
        features.append("choice")
    if BONUS in targets:
        features.append("bonus")
    if INVERSION in targets:
        features.append("inversion")
    if state.map.transitions and legal_moves(without_transitions(state)) != list(legal):
        features.append("transitions")
    if state.disqualified and any(
            c in PLAYER_STONES and int(c) in state.disqualified for c in state.board):
        features.append("disqualification")
    features.append("captures")
    return features


# =========================================================================== illegal moves


def _illegal_candidates(state: GameState) -> List[Tuple[str, Move]]:
    """(area, move) pairs that should be rejected in `state`, one per kind of mistake."""
    found: List[Tuple[str, Move]] = []
    w, h = state.width, state.height
    found.append(("disqualification" if state.phase == BUILD else "bombing",
                  Move(w, h - 1 if h else 0)))
    if state.phase == OVER:
        return [("phase-change", Move(0, 0))]
    holes = [(x, y) for y in range(h) for x in range(w) if state.cell(x, y) == HOLE]
    if holes:
        x, y = holes[len(holes) // 2]
        found.append(("bombing" if state.phase == BOMB else "captures", Move(x, y)))
    if state.phase == BOMB:
        return found
    player = state.to_move or 1
    legal_targets = {(m.x, m.y) for m in legal_moves(state)}
    has_override = state.overrides[player - 1] >= 1
    for y in range(h):
        for x in range(w):
            cell = state.cell(x, y)
            legal = (x, y) in legal_targets
            if cell == CHOICE:
                found.append(("choice", Move(x, y, 0 if legal else 1)))
                if legal:
                    found.append(("choice", Move(x, y, state.players + 1)))
            elif cell == BONUS:
                found.append(("bonus", Move(x, y, 22 if legal else 20)))
            elif cell == INVERSION:
                found.append(("inversion", Move(x, y, 1 if legal else 0)))
            elif cell == EXPANSION and not has_override:
                found.append(("expansion", Move(x, y)))
            elif cell in PLAYER_STONES and not legal:
                found.append(("overrides", Move(x, y)))
            elif cell == "0" and not legal:
                found.append(("captures", Move(x, y)))
            elif cell == "0" and legal:
                found.append(("captures", Move(x, y, 21)))
    return found


# =========================================================================== chunk assembly


DESCRIPTIONS = {
    ("apply", "captures"): "RULES.md 3: the move captures every line closed by the mover's "
                           "stone",
    ("apply", "transitions"): "RULES.md 2-3: a capture line of the move passes through a "
                              "transition",
    ("apply", "overrides"): "RULES.md 3: a move onto a stone captures and costs one override "
                            "stone",
    ("apply", "expansion"): "RULES.md 3: a move onto an expansion stone costs one override "
                            "stone",
    ("apply", "choice"): "RULES.md 3: a choice move swaps the mover's stones with the named "
                         "player's",
    ("apply", "inversion"): "RULES.md 3: an inversion move gives every stone of k to "
                            "(k mod n) + 1",
    ("apply", "bonus"): "RULES.md 3: a bonus move adds a bomb (20) or an override stone (21)",
    ("apply", "turn-order"): "RULES.md 4: players who cannot move are skipped",
    ("apply", "phase-change"): "RULES.md 4-5: nobody can move after this step: the phase "
                               "changes or the game ends",
    ("apply", "bombing"): "RULES.md 5: the bomb destroys every cell within strength steps, "
                          "holes and transitions as walked",
    ("apply", "disqualification"): "RULES.md 6: a disqualified player's stones stay and are "
                                   "treated as other players' stones",
    ("legal_moves", "captures"): "RULES.md 3: the legal moves are the targets with a capturing "
                                 "line",
    ("legal_moves", "transitions"): "RULES.md 2-3: some legal moves capture only through "
                                    "transitions",
    ("legal_moves", "overrides"): "RULES.md 3: with override stones, stones that capture are "
                                  "legal targets",
    ("legal_moves", "expansion"): "RULES.md 3: with override stones every expansion stone is a "
                                  "legal target",
    ("legal_moves", "choice"): "RULES.md 3: a choice target is one move per player",
    ("legal_moves", "bonus"): "RULES.md 3: a bonus target is two moves, 20 and 21",
    ("legal_moves", "inversion"): "RULES.md 3: an inversion target is one move with special 0",
    ("legal_moves", "bombing"): "RULES.md 5: every non-hole cell is a bomb target",
    ("legal_moves", "disqualification"): "RULES.md 6: a disqualified player's stones are "
                                         "captured like any other",
}


# The rule id each generated case shows, by its kind and area.
APPLY_RULES = {
    "captures": "3.move-effect", "transitions": "2.transition-step",
    "overrides": "3.override-cost", "expansion": "3.override-cost",
    "choice": "3.choice-swap", "inversion": "3.inversion-rotate", "bonus": "3.bonus-gain",
    "turn-order": "4.skip", "bombing": "5.blast", "disqualification": "6.stones-stay",
}
LEGAL_RULES = {
    "captures": "3.legal-targets", "transitions": "2.transition-step",
    "overrides": "3.override-targets", "expansion": "3.expansion-always-legal",
    "choice": "3.special-variants", "bonus": "3.special-variants",
    "inversion": "3.special-variants", "bombing": "5.bomb-targets",
    "disqualification": "6.stones-stay",
}
# The rules' reasons (IllegalMoveError.rule) and the rule ids they name; the first match wins.
ILLEGAL_RULES = (
    ("a bomb may not target a hole", "5.bomb-on-hole"),
    ("the game is over", "4.game-over"),
    ("off the board", "6.off-board"),
    ("must be 0..255", "8.special-range"),
    ("a hole is never a legal target", "3.hole-never-legal"),
    ("expansion stone needs an override stone", "3.expansion-needs-override"),
    ("placing on a stone needs an override stone", "3.override-needs-stone"),
    ("captures in no direction", "3.no-capture"),
    ("a choice move must name a player", "3.special-choice"),
    ("a bonus move must choose", "3.special-bonus"),
    ("the special byte must be 0 except", "3.special-zero"),
)
# The loader's problem ids (MapError.problem) and the rule ids they show; the server's
# "leading to/coming from invalid field" covers two rules, so the broken part decides there.
PROBLEM_RULES: Dict[str, str] = {
    "invalid-player-count": "1.player-count", "header-truncated": "1.header-truncated",
    "dimensions-too-large": "1.dimensions", "board-truncated": "1.board-truncated",
    "invalid-square": "1.cell", "invalid-token": "1.cell",
    "transition-truncated": "1.transition-truncated",
    "invalid-delimiter": "1.transition-delimiter",
    "invalid-first-coordinate": "1.transition-end",
    "invalid-second-coordinate": "1.transition-end",
}


def apply_rule(area: str, ply: Ply) -> str:
    """The rule id an `apply` case of this area shows."""
    if "disqualify" in ply.step:
        return "6.sole-survivor" if len(ply.after.active_players()) == 1 else "6.never-asked"
    if area == "phase-change":
        return "5.end-of-game" if ply.before.phase == BOMB else "4.end-of-phase-1"
    return APPLY_RULES[area]


def illegal_rule(state: GameState, move: Move, reason: str) -> str:
    """The rule id an `illegal` case shows, from the reason the rules give."""
    for part, rule in ILLEGAL_RULES:
        if part in reason:
            if rule == "3.no-capture" and state.cell(move.x, move.y) in PLAYER_STONES:
                return "3.override-needs-capture"
            return rule
    raise SpecError("no rule id for the reason %r" % reason)


class ChunkBuilder:
    """Collects the cases of one chunk, numbering ids per (area, kind)."""

    def __init__(self, name: str, map_text: str) -> None:
        self.name = name
        self.map_text = map_text
        self.cases: List[Case] = []
        self.numbers: Dict[Tuple[str, str], int] = {}

    def add(self, area: str, rule: str, kind: str, description: str,
            state: Optional[GameState], query: JSONObject, expected: JSONObject,
            map_text: Optional[str] = None) -> None:
        """Add one case showing rule id `rule`; its id is `area/chunk/kind-NN`."""
        key = (area, kind)
        number = self.numbers.get(key, 0) + 1
        self.numbers[key] = number
        case_id = "%s/%s/%s-%02d" % (area, self.name, kind.replace("_", "-"), number)
        self.cases.append(Case(case_id, area, description,
                               map_text if map_text is not None else self.map_text,
                               state_to_json(state) if state is not None else None,
                               query, expected, rule=rule, basis=GENERATED))


def _spread(items: Sequence[int], count: int) -> List[int]:
    """`count` items spread evenly over `items` (all of them when there are fewer)."""
    if len(items) <= count:
        return list(items)
    return [items[(2 * k + 1) * len(items) // (2 * count)] for k in range(count)]


def _where(name: str, ply: int) -> str:
    return " (random game on %s, ply %d)" % (name, ply)


def _game_cases(builder: ChunkBuilder, plies: List[Ply], game: int) -> None:
    """apply, legal_moves and illegal cases from one random game."""
    name = builder.name
    used: Set[Tuple[str, int]] = set()
    # apply: by area, rarest areas first, spread along the game.
    by_area: Dict[str, List[int]] = {}
    for ply in plies:
        for area in apply_features(ply):
            by_area.setdefault(area, []).append(ply.number)
    for area in sorted(by_area, key=lambda a: (len(by_area[a]), a)):
        free = [n for n in by_area[area] if ("apply", n) not in used]
        for number in _spread(free, CAPS["apply"]):
            used.add(("apply", number))
            ply = plies[number]
            query: JSONObject = {"kind": "apply"}
            query.update(ply.step)
            detail = ""
            if "disqualify" in ply.step:
                detail = ": player %d is disqualified" % ply.step["disqualify"]
            builder.add(area, apply_rule(area, ply), "apply", DESCRIPTIONS[("apply", area)]
                        + detail + _where(name, number), ply.before, query,
                        {"state": state_to_json(ply.after)})
    # legal_moves: by area.
    by_area = {}
    for ply in plies:
        if ply.number % 3 != game % 3 and ply.number != 0:
            continue
        for area in legal_features(ply.before, ply.legal):
            by_area.setdefault(area, []).append(ply.number)
    for area in sorted(by_area, key=lambda a: (len(by_area[a]), a)):
        free = [n for n in by_area[area] if ("legal", n) not in used]
        for number in _spread(free, CAPS["legal_moves"]):
            used.add(("legal", number))
            ply = plies[number]
            builder.add(area, LEGAL_RULES[area], "legal_moves",
                        DESCRIPTIONS[("legal_moves", area)] + _where(name, number),
                        ply.before, {"kind": "legal_moves"},
                        {"moves": [move_to_json(m) for m in ply.legal]})
    # illegal: one per area, from positions spread along the game.
    chosen: Dict[str, Tuple[int, Move]] = {}
    for number in _spread(list(range(len(plies))), 12):
        for area, move in _illegal_candidates(plies[number].before):
            if area not in chosen:
                chosen[area] = (number, move)
    final = plies[-1].after if plies else None
    if final is not None and final.phase == OVER:
        chosen.setdefault("phase-change", (len(plies), Move(0, 0)))
    for area in sorted(chosen):
        number, move = chosen[area]
        state = plies[number].before if number < len(plies) else final
        if state is None:
            continue
        try:
            play(state, move)
        except IllegalMoveError as error:
            builder.add(area, illegal_rule(state, move, error.rule), "illegal",
                        "%s%s" % (error.rule, _where(name, number)), state,
                        {"kind": "illegal", "move": move_to_json(move)},
                        {"illegal": True, "reason": error.rule})


def _perft_cases(builder: ChunkBuilder, plies: List[Ply], start: GameState,
                 max_depth: int = 4, budget: int = 600) -> None:
    """perft from the start and from two positions of the game, as deep as `budget` allows."""
    positions = [(0, start)]
    for number in _spread(list(range(1, len(plies))), 1):
        positions.append((number, plies[number].before))
    for number, state in positions:
        if state.phase == OVER:
            continue
        previous = 1
        depth = 0
        while depth < max_depth and previous <= budget:
            depth += 1
            nodes = reference_perft(state, depth)
            builder.add("perft", "perft.count", "perft",
                        "perft: depth %d%s" % (depth, _where(builder.name, number)),
                        state, {"kind": "perft", "depth": depth}, {"nodes": nodes})
            if nodes == previous and depth > 1:
                break
            previous = nodes


def _end_cases(builder: ChunkBuilder, plies: List[Ply], start: GameState,
               whole_game: bool) -> None:
    """The last steps of the game with the final ranking; the whole game on small maps."""
    if not plies or plies[-1].after.phase != OVER:
        return
    tail = plies[-min(3, len(plies)):]
    builder.add("ranking", "7.ranking", "game",
                "RULES.md 7: the ranking after the last steps of a game"
                + _where(builder.name, tail[0].number), tail[0].before,
                {"kind": "game", "steps": [p.step for p in tail]},
                {"states": [state_to_json(p.after) for p in tail],
                 "ranking": ranking_to_json(tail[-1].after)})
    if whole_game:
        builder.add("games", "game.whole", "game",
                    "RULES.md 3-7: a whole random game on %s" % builder.name,
                    start, {"kind": "game", "steps": [p.step for p in plies]},
                    {"states": [state_to_json(p.after) for p in plies],
                     "ranking": ranking_to_json(plies[-1].after)})


# --------------------------------------------------------------------------- map layouts


def _tokens_by_line(text: str) -> List[List[str]]:
    return [line.split() for line in text.splitlines()]


def layout_variant(text: str, variant: int) -> Tuple[str, str]:
    """The same map written in another layout the server accepts, and a name for it."""
    lines = _tokens_by_line(text)
    if variant == 0:
        return text, "canonical layout"
    if variant == 1:
        return " ".join(t for line in lines for t in line) + "\n", "all tokens on one line"
    if variant == 2:
        return "\r\n".join("\t".join(line) + "  " for line in lines) + "\r\n", \
            "CRLF line ends, tabs and trailing spaces"
    if variant == 3:
        return "\n\n".join(" ".join(line) for line in lines) + "\n\n\n", "blank lines"
    header = [t for line in lines[:4] for t in line]
    rest = [" ".join(line) for line in lines[4:]]
    return " ".join(header) + "\n" + "\n".join(rest) + "\n", "header on one line"


def _mutations(rng: random.Random, text: str, game_map: Map) -> List[Tuple[str, str]]:
    """Broken copies of a canonical map text: (what was broken, text)."""
    lines = _tokens_by_line(text)
    n = game_map.players
    height, width = game_map.height, game_map.width
    out: List[Tuple[str, str]] = []

    def join(rows: List[List[str]]) -> str:
        return "\n".join(" ".join(r) for r in rows) + "\n"

    def copy() -> List[List[str]]:
        return [list(r) for r in lines]

    cell_rows = list(range(4, 4 + height))
    if cell_rows and width:
        rows = copy()
        y = rng.randrange(height)
        x = rng.randrange(width)
        rows[4 + y][x] = rng.choice(["y", "9", "00", "+", "X", "C", "#", "1.", "o"])
        out.append(("a cell token that is not a cell", join(rows)))
        if n < 8:
            rows = copy()
            rows[4 + y][x] = str(rng.randrange(n + 1, 9))
            out.append(("a stone above the player count", join(rows)))
        rows = copy()
        cut = rng.randrange(1, min(4, width) + 1)
        last = rows[4 + height - 1]
        rows[4 + height - 1] = last[:len(last) - cut]
        out.append(("a board cut short", join(rows[:4 + height])))
    rows = copy()
    rows[0] = [rng.choice(["0", "1", "9", "10", "-2", "two", "2.0"])]
    out.append(("a bad player count", join(rows)))
    rows = copy()
    which = rng.randrange(3)
    if which == 0:
        rows[1] = [rng.choice(["x", "1.5", "", "0x1"]) or "many"]
    elif which == 1:
        rows[3] = ["-%d" % height if height else "-1", str(width)]
    else:
        rows[3] = [str(height), rng.choice(["w", "3.0", "-%d" % (width or 1)])]
    out.append(("a bad header number", join(rows)))
    rows = copy()
    extra = ["0", "0", "6", "<->", "1", "0", "2"][:rng.randrange(1, 7)]
    rows.append(extra)
    out.append(("leftover tokens after the transitions", join(rows)))
    transitions = [list(r) for r in lines[4 + height:] if r]
    base = lines[:4 + height]
    if transitions:
        t = rng.randrange(len(transitions))
        broken = [list(r) for r in transitions]
        kind = rng.randrange(6)
        if kind == 0:
            broken[t][0] = str(width + rng.randrange(3))
            label = "a transition end off the board"
        elif kind == 1:
            broken[t][2] = rng.choice(["8", "-1", "9"])
            label = "a transition direction outside 0..7"
        elif kind == 2:
            broken[t][3] = rng.choice(["<>", "->", "<-", "<=>"])
            label = "a transition without '<->'"
        elif kind == 3:
            broken.append(list(broken[t]))
            label = "a transition listed twice"
        elif kind == 4:
            broken.append(broken[t][:3] + ["<->"] + broken[t][:3])
            label = "a side used by two transitions"
        else:
            holes = [(x, y) for y in range(height) for x in range(width)
                     if game_map.cells[game_map.index(x, y)] == HOLE]
            if holes:
                x, y = holes[rng.randrange(len(holes))]
                broken[t][0], broken[t][1] = str(x), str(y)
                label = "a transition end on a hole"
            else:
                broken[t][2] = "8"
                label = "a transition direction outside 0..7"
        out.append((label, join(base + broken)))
    inner = [(x, y, d) for y in range(height) for x in range(width) for d in range(8)
             if game_map.cells[game_map.index(x, y)] != HOLE
             and game_map.is_on_board(x + DIRECTIONS[d][0], y + DIRECTIONS[d][1])
             and game_map.cells[game_map.index(x + DIRECTIONS[d][0],
                                               y + DIRECTIONS[d][1])] != HOLE]
    if inner:
        x, y, d = inner[rng.randrange(len(inner))]
        out.append(("a transition side facing a cell",
                    join(lines + [[str(x), str(y), str(d), "<->", str(x), str(y), str(d)]])))
    return out


# The rule each kind of broken map shows (when the map is rejected, the problem the loader
# names decides instead: PROBLEM_RULES).
MUTATION_RULES = {
    "a cell token that is not a cell": "1.cell",
    "a stone above the player count": "1.cell",
    "a board cut short": "1.board-truncated",
    "a bad player count": "1.player-count",
    "a bad header number": "1.header-number",
    "leftover tokens after the transitions": "1.transition-truncated",
    "a transition end off the board": "1.transition-end",
    "a transition direction outside 0..7": "1.transition-end",
    "a transition without '<->'": "1.transition-delimiter",
    "a transition listed twice": "1.transition-reuse",
    "a side used by two transitions": "1.transition-reuse",
    "a transition end on a hole": "1.transition-side",
    "a transition side facing a cell": "1.transition-side",
}


def map_rule(label: str, result: JSONObject) -> str:
    """The rule id a broken map shows: by the problem named when it is rejected, else by what
    was changed (a header token the server still reads is `1.header-number`)."""
    if result.get("rejected"):
        problem = result.get("problem")
        if isinstance(problem, str) and problem in PROBLEM_RULES:
            return PROBLEM_RULES[problem]
        return MUTATION_RULES[label]
    if label in ("a bad player count", "a bad header number"):
        return "1.header-number"
    return MUTATION_RULES[label]


def _map_cases(builder: ChunkBuilder, rng: random.Random, text: str, game_map: Map,
               variant: int) -> None:
    shown, layout = layout_variant(text, variant)
    builder.add("map-loading", "1.separators" if "\t" in shown else "1.layout", "map_load",
                "RULES.md 1: map %s loads (%s)" % (builder.name, layout), None,
                {"kind": "map_load"}, map_answer(shown), map_text=shown)
    for label, broken in _mutations(rng, text, game_map):
        result = map_answer(broken)
        rule = map_rule(label, result)
        if result.get("rejected"):
            builder.add("map-loading", rule, "map_reject", "RULES.md 1: %s is rejected: %s"
                        % (label, result["reason"]), None, {"kind": "map_reject"}, result,
                        map_text=broken)
        else:
            builder.add("map-loading", rule, "map_load", "RULES.md 1: %s still loads, with "
                        "the values the server reads" % label, None, {"kind": "map_load"},
                        result, map_text=broken)


# --------------------------------------------------------------------------- chunks


def generated_chunk_names() -> List[str]:
    """The names of the generated-map chunks, m001 ..."""
    return ["m%03d" % k for k in range(1, GENERATED_MAPS + 1)]


def bundled_maps(root: Path) -> Dict[str, str]:
    """The bundled maps (`maps/*.map` under `root`) by file stem, sorted."""
    directory = root / "maps"
    if not directory.is_dir():
        return {}
    return {p.stem: p.read_text(encoding="utf-8")
            for p in sorted(directory.glob("*.map"))}


def generate_chunk(name: str, text: Optional[str] = None) -> List[Case]:
    """The cases of one chunk: generated map `name` (m001...), or the bundled map `name` with
    its map text `text`."""
    rng = random.Random(_seed(name, 1))
    generated = text is None
    if text is None:
        text = random_map_text(rng)
    game_map = read_map(text)
    builder = ChunkBuilder(name, text)
    start = initial_state(game_map)
    cells = game_map.width * game_map.height
    max_plies = MAX_PLIES_LARGE if cells > LARGE_CELLS else MAX_PLIES
    games = 1 if cells > LARGE_CELLS else 2
    if generated:
        _map_cases(builder, rng, text, game_map, _seed(name, 2) % 5)
    else:
        builder.add("map-loading", "1.layout", "map_load",
                    "RULES.md 1: the bundled map %s loads" % name,
                    None, {"kind": "map_load"},
                    {"map": map_to_json(game_map), "state": state_to_json(start)})
    for game in range(games):
        plies = play_random_game(start, random.Random(_seed(name, 10 + game)), max_plies)
        _game_cases(builder, plies, game)
        if game == 0:
            _perft_cases(builder, plies, start, budget=60 if cells > LARGE_CELLS else 250)
        _end_cases(builder, plies, start, whole_game=cells <= WHOLE_GAME_CELLS and game == 0)
    return builder.cases


ChunkFunction = Callable[[], List[Case]]
