"""Stable rule ids: every golden case names the one rule it shows.

A rule id is `<RULES.md section>.<slug>` (for example `3.override-needs-capture`), or
`perft.<slug>` / `game.<slug>` for the two whole-tree areas.  Ids never change meaning; a rule
that is split or renamed gets a new id and the old one is listed as removed in
specs/CHANGELOG.md.  Each id names the function of reversi-ref that implements the rule, so a
reader goes from a failing case to the rules text and to the code in one step.
"""

from __future__ import annotations

import importlib
from typing import Dict, NamedTuple, Tuple

from .codec import SpecError


class Rule(NamedTuple):
    """One rule id: its RULES.md section, what it says, and the function implementing it."""

    id: str
    section: str
    summary: str
    implementation: str  # dotted path: module, then attribute


def _rule(rule_id: str, summary: str, implementation: str) -> Rule:
    section = rule_id.split(".")[0]
    return Rule(rule_id, section, summary, "reversi_ref." + implementation)


RULES: Tuple[Rule, ...] = (
    # RULES.md 1: map files.
    _rule("1.layout", "a map is whitespace-separated tokens: header, cells, transitions; "
          "layout does not matter", "mapfile.read_map"),
    _rule("1.separators", "which characters separate tokens, and the CR, FF and VT quirks",
          "mapfile.tokenize"),
    _rule("1.header-number", "header numbers are read like C's atoi; counts modulo 256",
          "mapfile.read_long"),
    _rule("1.player-count", "the player count must be 2..8", "mapfile.read_map"),
    _rule("1.header-truncated", "the text ends inside the header", "mapfile.read_map"),
    _rule("1.dimensions", "height and width are 0..1000", "mapfile.read_map"),
    _rule("1.cell", "a cell is one of 0-8 - c i b x, with no stone above n",
          "mapfile.read_map"),
    _rule("1.board-truncated", "fewer cells than height x width", "mapfile.read_map"),
    _rule("1.transition-truncated", "leftover tokens that do not make a whole transition",
          "mapfile.read_map"),
    _rule("1.transition-delimiter", "the fourth token of a transition is <->",
          "mapfile.read_map"),
    _rule("1.transition-end", "each transition end is on the board with a direction 0..7",
          "mapfile.read_map"),
    _rule("1.transition-side", "each end is not a hole and its side faces the edge or a hole",
          "mapfile.read_map"),
    _rule("1.transition-reuse", "no side in two transitions, but for the self-joined-side "
          "exception, read in order", "mapfile.read_map"),
    # RULES.md 2: walking.
    _rule("2.transition-step", "a step through a transition lands on the far end and turns",
          "rules.walking.step"),
    _rule("2.u-turn", "a side joined to itself turns the walk back", "rules.walking.step"),
    _rule("2.walk-ends", "a walk ends at the edge or a hole", "rules.walking.step"),
    # RULES.md 3: the building phase.
    _rule("3.capture-line", "a line of collectable cells closed by the mover's stone "
          "captures", "rules.building.captures_in_direction"),
    _rule("3.line-stops", "a line stops at an empty or special cell, a hole, the edge or "
          "the target", "rules.building.captures_in_direction"),
    _rule("3.collectable", "other players' stones (disqualified ones too) and x are "
          "collected", "rules.building.is_collectable"),
    _rule("3.legal-targets", "a free or special cell is legal when a direction captures",
          "rules.building.building_moves"),
    _rule("3.no-capture", "a move that captures in no direction is illegal",
          "rules.building.building_target_error"),
    _rule("3.hole-never-legal", "a hole is never a legal target",
          "rules.building.building_target_error"),
    _rule("3.override-targets", "with an override stone, stones that capture are legal "
          "targets", "rules.building.building_moves"),
    _rule("3.override-needs-stone", "placing on a stone needs an override stone in hand",
          "rules.building.building_target_error"),
    _rule("3.override-needs-capture", "a move onto a stone must still capture",
          "rules.building.building_target_error"),
    _rule("3.expansion-always-legal", "with an override stone an x is always legal",
          "rules.building.building_target_error"),
    _rule("3.expansion-needs-override", "placing on an x needs an override stone",
          "rules.building.building_target_error"),
    _rule("3.move-effect", "captured cells and the target become the mover's",
          "rules.building.apply_building_move"),
    _rule("3.override-cost", "a move onto a stone or an x costs one override stone",
          "rules.building.apply_building_move"),
    _rule("3.choice-swap", "a choice move swaps the mover's and the named player's stones",
          "rules.building.apply_choice"),
    _rule("3.inversion-rotate", "an inversion move gives every stone of k to (k mod n) + 1",
          "rules.building.apply_inversion"),
    _rule("3.bonus-gain", "a bonus move adds a bomb (20) or an override stone (21)",
          "rules.building.apply_bonus"),
    _rule("3.count-wraps", "counts in hand are 8-bit: 255 + 1 = 0",
          "rules.building.increment_count"),
    _rule("3.special-variants", "a choice target is one move per player, a bonus target two",
          "rules.building.specials_for"),
    _rule("3.special-choice", "the special byte on a choice tile names a player 1..n",
          "rules.building.special_error"),
    _rule("3.special-bonus", "the special byte on a bonus tile is 20 or 21",
          "rules.building.special_error"),
    _rule("3.special-zero", "the special byte is 0 everywhere else",
          "rules.building.special_error"),
    # RULES.md 4: turn order.
    _rule("4.first-mover", "player 1 starts, else the next player who can move",
          "rules.turns.start_game"),
    _rule("4.next-player", "the next player is the first after the mover who can move",
          "rules.turns.next_player"),
    _rule("4.skip", "players who cannot move are skipped; a player may move again",
          "rules.turns.next_player"),
    _rule("4.end-of-phase-1", "when nobody can move, bombing starts or the game ends",
          "rules.turns.start_bombing"),
    _rule("4.game-over", "no move is legal once the game is over", "rules.game.check_move"),
    # RULES.md 5: the bombing phase.
    _rule("5.bomb-targets", "every non-hole cell is a bomb target",
          "rules.bombing.bombing_moves"),
    _rule("5.bomb-on-hole", "a bomb may not target a hole", "rules.bombing.bomb_target_error"),
    _rule("5.blast", "a bomb destroys every cell within strength steps, walking as in 2",
          "rules.bombing.blast_cells"),
    _rule("5.bomb-turn-order", "bombing continues the cyclic order; players without bombs "
          "are skipped", "rules.turns.next_player"),
    _rule("5.end-of-game", "the game ends when nobody has a bomb or no cell is left",
          "rules.turns.is_bombing_possible"),
    # RULES.md 6: disqualification.
    _rule("6.off-board", "a move off the board is invalid", "rules.game.check_move"),
    _rule("6.never-asked", "a disqualified player is never asked again",
          "rules.disqualification.disqualify"),
    _rule("6.stones-stay", "a disqualified player's stones stay as ordinary stones",
          "rules.disqualification.disqualify"),
    _rule("6.sole-survivor", "when one player is left the game ends at once",
          "rules.disqualification.disqualify"),
    # RULES.md 7: scores.
    _rule("7.ranking", "players still in the game by stones, ties sharing a rank",
          "rules.scoring.ranking"),
    # RULES.md 8: what fits on the wire.
    _rule("8.special-range", "a special byte is 0..255", "rules.game.check_move"),
    # The whole-tree areas.
    _rule("perft.count", "leaf counts: one ply per legal move, skips and phase changes take "
          "none", "perft.reference_perft"),
    _rule("game.whole", "a whole game, step by step, with its ranking", "rules.game.play"),
)

RULE_BY_ID: Dict[str, Rule] = {rule.id: rule for rule in RULES}


def rule(rule_id: str) -> Rule:
    """The rule with this id; SpecError for an unknown one."""
    found = RULE_BY_ID.get(rule_id)
    if found is None:
        raise SpecError("unknown rule id %r" % rule_id)
    return found


def implementation_of(rule_id: str) -> object:
    """The function implementing a rule (imported; raises SpecError if it is gone)."""
    path = rule(rule_id).implementation
    module_name, _, attribute = path.rpartition(".")
    try:
        return getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError):
        raise SpecError("rule %s names %s, which does not exist" % (rule_id, path)) from None


def rule_table_markdown() -> str:
    """The rule ids as the Markdown table of specs/README.md ("Rule ids")."""
    lines = ["| rule id | RULES.md | implemented by | what |", "|---|---|---|---|"]
    for entry in RULES:
        lines.append("| `%s` | %s | `%s` | %s |" % (
            entry.id, entry.section if entry.section.isdigit() else "-",
            entry.implementation[len("reversi_ref."):], entry.summary))
    return "\n".join(lines) + "\n"


__all__ = ["RULES", "RULE_BY_ID", "Rule", "implementation_of", "rule", "rule_table_markdown"]
