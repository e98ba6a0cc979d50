"""The tunable weights of the evaluation and the search, as one small frozen dataclass.

Every weight is in points, where 100 points are worth one stone of lead.  Weights that change
over the game come as an `(early, late)` pair and are mixed by the game's progress (the share of
playable cells already taken).  The tournament can try variants with `dataclasses.replace`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Dict, Tuple

Ramp = Tuple[int, int]  # (weight at the start of the game, weight when the board is full)


@dataclass(frozen=True)
class EvalConfig:
    """Weights of the evaluation (points; 100 = one stone) and a few search switches."""

    # Stones: the root player's stones against its opponents (RULES.md 7 ranks by stones).
    # Stones count from the start: on small maps a player low on stones is wiped out within
    # a few moves (against ai_trivial at equal depth, 15 early lost 7 of 18 two-player
    # games, 60 early lost none).
    material: Ramp = (60, 100)
    # How much the best opponent counts against the average opponent (0..100 per cent).
    leader_share: int = 60
    # Stones on cells of the map's geometry: corner-like cells (no line runs through them),
    # edge-like cells (only one line does) and half-open cells (two lines).
    corner: Ramp = (800, 250)
    edge: Ramp = (120, 40)
    half_open: Ramp = (25, 10)
    # A stone next to an empty corner-like cell (it opens the corner to the opponents).
    corner_neighbour: Ramp = (-250, -40)
    # Mobility: (own - opponents' average) / (own + that + 2), scaled by this weight, where
    # a player's mobility is the cells it could play without an override stone.
    mobility: Ramp = (1500, 300)
    # Counts in hand: one override stone, one bomb (per cell its blast removes).  An override
    # stone kept to the end of phase 1 is a last move nobody can answer (once the board is
    # full only override stones move, and each takes a whole line back): the 2024 champion
    # kept its stones and turned 175-157 into 111-221 with five of them, so late in the
    # game one is worth about 15 stones, not 6 (self-play at depth 3: +54 Elo, docs/strength.md).
    override: Ramp = (350, 1500)
    bomb_per_cell: int = 40
    # Override stones kept for the end: while the board is less full than this (progress,
    # 1024 = full) the root player places no override stone on a stone as long as it has
    # another move (0 = off, 1024 = not before the board is full; expansion tiles may still
    # be taken), on maps where override stones are scarce (`alphabeta.overrides_are_scarce`).
    # Stones won in the middle of the game change hands again; an override stone kept is a
    # last move nobody can answer: the 2024 champion plays so, and keeping them turned both
    # our losses to it on `2013_comp_5_2p` into wins (docs/strength.md).
    keep_overrides: int = 1024
    # Added per bomb in hand in the building phase, on top of its blast: bombs decide the
    # bombing phase, so one in hand is worth more as phase 1 ends (0, 0 = off).
    bomb_late: Ramp = (0, 0)
    # With three or more players: a player without a plain move (shut in; the others can
    # keep it there) costs this much, an opponent shut in gains it over their count.
    shut_in: Ramp = (0, 0)
    # With three or more players: the free cells left (holes and stones not counted) are
    # taken to go to the players in proportion to their mobility, and the root's expected
    # share against its opponents' average is worth this much per cell (0 = off).  On big
    # maps with few contacts a player whose stones no line reaches is stuck where it stands
    # while the others share the rest of the board: on `comp2022_04_3p` seat 1 (stop 72) we
    # led with 43 stones at ply 56, had no move from then to ply 583, and ended phase 1
    # third with 116 against 464.  The mobility balance (at most `mobility` points) sees a
    # few stones in that; the free cells the others will share are hundreds.
    # On with three players only (`share_max_players`): self-play SPRT on five three-player
    # maps accepted it at 8 (docs/strength.md, stop 77); with four players it lost (stop 75).
    mobility_share: int = 8
    share_max_players: int = 3
    # With three or more players: access, the free cells next to a player's stones, as
    # (own - opponents' average) / (own + that + 2) times this weight.
    access: Ramp = (0, 0)
    # With three or more players: the share (per cent) of the corner weight a corner-like
    # stone keeps while an opponent holds an override stone.  Such a stone is not stable then
    # (an override retakes it), and with two opponents holding overrides a corner changes
    # hands again and again: on `comp2022_04_3p` every corner-like cell holds a start stone,
    # and spending override stones on them early left us shut in (100 = as for two players).
    corner_overridable: int = 100
    # Two players: the frontier, the free cells next to a player's stones (`access` above),
    # as (opponent's - own) / (own + opponent's + 2) times this weight.  Free cells next to
    # the opponent's stones are where our next moves can come from, those next to ours are
    # where its moves can (potential mobility, a classic Othello feature).  Self-play SPRT
    # on six two-player maps accepted it at depth 3 (+44 Elo) and at 200 ms a move (+77 Elo),
    # although it costs 13-26% of the nodes per second (docs/strength.md).
    frontier: Ramp = (1000, 200)
    # Two players: the player to move is worth this much when the free cells of the regions
    # still contested (holes cut a map into regions; one with stones of both players) are
    # odd in number, so that it would take the last of them with no passes.
    parity: Ramp = (0, 0)
    # Stones that can never be captured although not on a corner-like cell: a run of one
    # player's stones along an edge-like line (transitions followed) from a corner it holds.
    stable: Ramp = (0, 0)
    # With three or more players, on maps that holes cut into regions: the free cells of a
    # region where two or more players have stones, shared among them in proportion to
    # their stones there, this much per cell.
    # A region with one player left is over for everybody: on `communities` (nine walled
    # rooms) one of each player's two rooms ended with 6-13 stones when one side lost its
    # last stone there, and the other was filled (docs/strength.md, stop 54).
    region_share: Ramp = (0, 0)
    # Time: the per cent of the bank's surplus (beyond a few moves' fair shares) that one
    # move may add to its limits (`timing.plan_budget`; 0 = off, the plan as it was).
    spend_surplus: int = 0
    # Time: the moves to come leave out the free cells that no move can ever fill
    # (`analysis.unreachable_free_cells`).  Off: its self-play SPRT on the two maps with such
    # cells accepted H0, -7 Elo [-28, +14] (docs/strength.md, stop 67).
    skip_cut_off: bool = False
    # Time: when the last iteration (at `timing.UNSURE_MIN_DEPTH` or deeper) chose another
    # move than the one before, both limits of the move grow by this per cent, within the
    # cap of a share of the bank (`timing.stretched`; 0 = off).  The bank carries over, and
    # a move the search is still changing its mind about is where more depth can pay.  Off:
    # at 100 its self-play SPRT was undecided after 223 pairs, +14 Elo [-18, +46]
    # (docs/strength.md, stop 68).
    stretch_unsure: int = 0
    # Time: the player's last bomb, its last move of the game, may spend LAST_MOVE_SHARE of
    # the bank, with no iteration held back (`timing.last_move_budget`), where the plain plan
    # gives it at most half and stops new iterations at a quarter.  The bank is worth nothing
    # once the player has no bomb left.
    spend_last: bool = False
    # With three or more players, in the building phase: when an iteration proves a loss
    # (every root move ends in the bottom places if the opponents all play against the root),
    # play the move of the deepest iteration that had not proven it, if it reaches the same
    # place at the full depth.  Paranoid search proves such losses against a coalition that
    # real opponents, each playing for itself, do not form; that move holds out longest
    # against it, where the deepest iteration's choice among equal losses is arbitrary.  On
    # `comp2024_04_6p` (stop 69) seat 4 took the map's last inversion tile itself, ending
    # phase 1 with no stone, because a deeper iteration saw some opponent able to take it.
    hold_out: bool = True
    # Search switches.
    use_tt: bool = True
    use_killers: bool = True
    use_history: bool = True
    use_pvs: bool = True
    # Search a leaf's choice and inversion moves (paranoid; see `alphabeta`).
    swap_quiescence: bool = True
    aspiration: int = 0           # half-width of the aspiration window in points, 0 = off
    # Late move reductions (paranoid): at a remaining depth of at least LMR_MIN_DEPTH, the
    # moves after the first `lmr` in the search order are searched one ply shallower with a
    # null window first, and again at full depth only when that beats the bound (0 = off).
    lmr: int = 0
    # ProbCut (Buro), paranoid with two players: at a null-window node with at least
    # `probcut_reduction` + 2 plies to go, a search `probcut_reduction` plies shallower
    # is asked whether the mover's side of the window is beaten by `probcut_margin` points;
    # if so, the node returns that bound without its full search (0 = off).  At 400 it
    # searched 0.5-0.8 plies deeper at 200 ms a move and lost a self-play SPRT on seven
    # small two-player maps (-21 Elo, H0 accepted, stop 61, docs/strength.md): off.
    probcut_margin: int = 0
    probcut_reduction: int = 2
    tt_bits: int = 18             # the transposition table has 2**tt_bits entries
    # Bombing phase: how many targets (best by the one-bomb evaluation) the deeper search
    # looks at for each bomber.
    bomb_candidates: int = 8
    # Bombing phase with three or more players: each opponent is taken to bomb where it
    # removes the most stones of the other players net of its own (one reply, the worst for
    # the root among equals) instead of paranoid; the paranoid exact solve is kept only when
    # it proves first place.  Stop 40 counted `ai_trivial` bombing so in 326 of 402 bombs;
    # stop 54 found it so in 59 of 774 (docs/strength.md).
    bomb_destroyers: bool = False
    # Bombing phase with three or more players: each opponent is taken to bomb so that the
    # fewest others have at least as many stones as it afterwards (its place one bomb ahead,
    # ties against it), the first such target in move order; wins over `bomb_destroyers`.
    # `ai_trivial` bombed so in 732 of 774 bombs observed (docs/strength.md, stop 54).  On
    # by default since stop 55: on the bombing positions of `communities` games it took
    # first place in 18 seats of 88 where paranoid took 11 (points better in 11, worse in 2).
    bomb_climbers: bool = True
    # With `bomb_climbers`: a modelled bomber counts only the first `climber_places` places;
    # when no target brings it that high, every target is alike to it and it takes the first
    # in move order (0 = every place counts).  `ai_trivial` bombed so with 5 in 1,603 of
    # 1,641 bombs on bombing positions, where counting every place named 1,550: it changes
    # only games of seven or eight players, where a bomber below fifth place takes the first
    # target.  No gain shown against `ai_trivial` (docs/strength.md, stop 57): stays off.
    climber_places: int = 0
    # Bombing phase, timed: when an iteration has reached every bomb left before the soft
    # deadline, the time left goes to the root's other targets (best by the one-bomb value
    # first), each searched to the end, instead of being saved.  On by default since stop 56:
    # on three new bombing benches (826 paired games) the points were better in 27 games and
    # worse in 11 (sign test p = 0.014), first place 12 against 3 (docs/strength.md).
    bomb_widen: bool = True
    # Paranoid search with three or more players, on maps where swap quiescence is on: an
    # opponent takes a choice or inversion tile only where it gains stones by it, and while
    # one could, the root may spend an override stone it keeps (`keep_overrides`).  An
    # inversion by anybody hands the root's stones to the next player, so a paranoid opponent
    # would take one at any cost to itself, and every line near a tile looks lost: on
    # `comp2024_04_8p` (stop 39) all root moves scored about -30,000 whether or not the next
    # player could invert, because the player after it could, at a loss of its own.
    selfish_swaps: bool = False
    # Three or more players, while an inversion tile is on the board: each player's board
    # value (its stones and where they stand, not the override stones and bombs in hand,
    # which an inversion leaves with their owner) moves towards its predecessor's by this
    # many per mille.  An inversion hands every player's stones to the next one, and late in
    # phase 1 somebody takes a tile that is left almost surely: stop 49 lost all four seats
    # of `2022_comp_4_4pV2` to one tile, while paranoid search valued every root move alike
    # (each line lets some opponent take it).  0 = off.
    inversion_blend: Ramp = (0, 0)
    # With `inversion_blend` on: blend towards the stones of the player as many seats back
    # as there are inversion tiles left, not one (tiles in a region without stones, which
    # nobody can take, left out).  If every tile is taken before phase 1 ends, those are the
    # stones each player ends it with, and taking a tile in the tree then changes no value.
    # In stop 61's seat-1 game on `comp2024_04_8p` (eight players, four tiles, all taken
    # late) we led phase 1 for 600 plies with stones that went to the player four seats on,
    # who won.  Self-play on four eight-player maps with tiles: no decision after 28 pairs
    # (stop 62, docs/strength.md), so it stays off.
    inversion_shift: bool = False
    # The `search` player (paranoid) searches by best-reply search (`brs`) instead on maps
    # with at least this many players (0 = never).  With many players a paranoid tree of a
    # few plies holds only opponents' moves after the root's first; best-reply search
    # alternates the root's moves with one reply of the strongest opponent.
    brs_players: int = 0
    # Paranoid search with three or more players, on maps that holes cut into regions: an
    # opponent with no stone in any region where the root has one cannot touch the root's
    # stones in phase 1 (a capture ends at a stone of the mover's own), unless it holds an
    # override stone for an expansion stone there or a choice or inversion tile is left, so
    # its turns are passed over in the tree and the plies go to the players that can.  On
    # `communities` (eight players, two per walled room) the player who shares a room with
    # the root may move seven plies after it, beyond a paranoid tree of 5-6; passing the
    # others over took us 1-2 plies deeper there, but the rooms were still lost in the
    # opening (first in 1 of 5 seats, docs/strength.md, stop 55).
    skip_strangers: bool = False
    # Paranoid search with three or more players: an opponent whose stones all lie at least
    # this many free cells from the root's block of stones (0 = never) passes in the tree as
    # a stranger does, unless it holds an override stone while an expansion stone is on the
    # board or a choice or inversion tile is left.  A capture needs unbroken stones, and a
    # move fills one cell, so it cannot touch the root's stones within that many plies.  On
    # `comp2020_01_8p` players 1-4 and 5-8 start in two clusters far apart, and the tree of
    # player 4 (depth 4-5) held only its own move and those of players 5-8: it was shut out
    # by players 1-3 in its first eight moves (stop 58).  At 4 it passed a self-play SPRT on
    # the five real maps where it applies from the first move (+104 Elo, 95% 33-185, stop
    # 59, docs/strength.md), so it is on.
    stranger_gap: int = 4
    # With `stranger_gap` on, a choice or inversion tile holds the strangers back only while
    # one lies within that many free cells of some stone (false: while any is left).  Taking
    # one hands stone sets round, whoever takes it, but nobody can take a tile that far off
    # within the gap.  On `comp2024_04_8p` (inversion tiles walled in at the centre) and
    # `comp2020_02_8p` (choice tiles five cells from the blocks) the players start in blocks
    # as on `comp2020_01_8p`, and the tiles kept the switch off through the opening.  In
    # self-play on the five real maps where it changes the first move's tree, it scored 55%
    # over 30 pairs, no decision (+32 Elo, 95% -9-74, stop 60, docs/strength.md): off.
    far_swaps: bool = False
    # Solve the bombing phase exactly on places when affordable, and value phase-1 leaves in
    # the bombing phase by it (`reversi_ref.search.endgame`); false = the beam and the
    # evaluation only.
    exact_endgame: bool = True


DEFAULT_CONFIG = EvalConfig()


def config_from_dict(values: Dict[str, object]) -> EvalConfig:
    """A config from DEFAULT_CONFIG with the named fields replaced; ValueError naming an
    unknown field or a value of the wrong shape."""
    known = {f.name: f for f in fields(EvalConfig)}
    changes: Dict[str, object] = {}
    for name, value in values.items():
        if name not in known:
            raise ValueError("unknown evaluation weight %r (known: %s)"
                             % (name, ", ".join(sorted(known))))
        default = getattr(DEFAULT_CONFIG, name)
        if isinstance(default, tuple):
            if not (isinstance(value, (list, tuple)) and len(value) == 2
                    and all(isinstance(v, int) for v in value)):
                raise ValueError("%s needs two integers (early, late), got %r" % (name, value))
            changes[name] = (int(value[0]), int(value[1]))
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise ValueError("%s needs true or false, got %r" % (name, value))
            changes[name] = value
        else:
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError("%s needs an integer, got %r" % (name, value))
            changes[name] = value
    return replace(DEFAULT_CONFIG, **changes)  # type: ignore[arg-type]
