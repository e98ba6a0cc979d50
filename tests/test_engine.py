"""Hand-worked tests of the fast engine: one position per rule, expected boards worked out by
hand from RULES.md (the differential tests in test_engine_diff.py cover the rest)."""

from __future__ import annotations

from typing import List

import pytest

from helpers import board, bombing, build
from reversi_ref.engine import BOMB, BUILD, HOLE, OVER, Engine
from reversi_ref.errors import IllegalMoveError
from reversi_ref.state import GameState, Move


def after(state: GameState, *moves: Move) -> Engine:
    """An engine on `state` after playing `moves` (each must be legal)."""
    engine = Engine.from_state(state)
    for move in moves:
        encoded = engine.encode_move(move)
        assert engine.is_legal(encoded), move
        assert encoded in engine.legal_moves(), move
        engine.make(encoded)
    return engine


def moves_of(engine: Engine) -> List[Move]:
    """The engine's legal moves as Move values."""
    return [engine.decode_move(m) for m in engine.legal_moves()]


def test_capture_follows_a_transition() -> None:
    """RULES.md 2 and 3: a line continues through a transition and captures behind it."""
    # West from (1, 0): the 2 on (0, 0), then through the west side of (0, 0) onto (3, 0),
    # still heading west, which holds a 1.
    state = build("2 0 0 1", transitions=["0 0 6 <-> 3 0 2"])
    engine = after(state, Move(1, 0))
    assert engine.to_state().rows() == board("1 1 0 1")
    assert engine.scores() == [3, 0]


def test_cell_collected_twice_is_flipped_once() -> None:
    """RULES.md 3: a transition loop may collect a cell twice; the line still captures, and
    the stone changes owner once."""
    # East from (0, 0): (1, 0), (2, 0), then through (2, 0)'s east side onto (1, 0) heading
    # south (the far side faces north), collecting (1, 0) again, then the 1 on (1, 1).
    state = build("""
        0 2 2
        - 1 -
    """, transitions=["2 0 2 <-> 1 0 0"])
    engine = after(state, Move(0, 0))
    assert engine.to_state().rows() == board("""
        1 1 1
        - 1 -
    """)
    assert engine.scores() == [4, 0]
    assert engine.hash == engine.compute_hash()


def test_u_turn_never_captures() -> None:
    """RULES.md 2: a side joined to itself turns the walk back along its path, so the line
    meets the target again and does not capture."""
    state = build("0 2 - 1", transitions=["1 0 2 <-> 1 0 2"])
    assert moves_of(Engine.from_state(state)) == []


def test_line_never_closes_through_the_targets_own_stone() -> None:
    """RULES.md 3: reaching the target again stops the line, even when the target holds the
    mover's stone (an override move onto its own stone)."""
    state = build("1 2", transitions=["1 0 2 <-> 0 0 6"], overrides=1)
    engine = Engine.from_state(state)
    assert moves_of(engine) == []
    assert not engine.has_any_move(1)


def test_override_costs_one_stone() -> None:
    """RULES.md 3: a move onto a stone captures like any move and costs one override stone."""
    engine = after(build("1 2 2 1", overrides=3), Move(1, 0))
    assert engine.to_state().rows() == board("1 1 1 1")
    assert engine.overrides[1] == 2


def test_expansion_stone_needs_only_an_override() -> None:
    """RULES.md 3: with an override stone, an x is always a legal target; without, never."""
    assert moves_of(Engine.from_state(build("x 0 1", overrides=1))) == [Move(0, 0)]
    assert moves_of(Engine.from_state(build("x 0 1", overrides=0))) == []


def test_choice_swaps_with_the_named_player() -> None:
    """RULES.md 3 (choice): after the capture, the mover's and the named player's stones swap
    owners everywhere, the new stone included; every player is offered."""
    state = build("""
        c 2 1
        3 0 0
    """, players=3)
    engine = Engine.from_state(state)
    assert moves_of(engine) == [Move(0, 0, 1), Move(0, 0, 2), Move(0, 0, 3)]
    engine = after(state, Move(0, 0, 3))
    assert engine.to_state().rows() == board("""
        3 3 3
        1 0 0
    """)
    assert engine.scores() == [1, 0, 3]


def test_choice_naming_yourself_swaps_nothing() -> None:
    """RULES.md 3 (choice): naming yourself is legal and swaps nothing."""
    engine = after(build("c 2 1\n3 0 0", players=3), Move(0, 0, 1))
    assert engine.to_state().rows() == board("1 1 1\n3 0 0")


def test_inversion_rotates_every_player() -> None:
    """RULES.md 3 (inversion): every stone of player k becomes player (k mod n) + 1."""
    engine = after(build("i 2 1\n3 0 0", players=3), Move(0, 0))
    assert engine.to_state().rows() == board("2 2 2\n1 0 0")
    assert engine.scores() == [1, 3, 0]


def test_bonus_counts_wrap_at_256() -> None:
    """RULES.md 3 (bonus): 20 adds a bomb, 21 an override stone; 255 + 1 = 0."""
    state = build("b 2 1", overrides=255, bombs=255)
    assert moves_of(Engine.from_state(state)) == [Move(0, 0, 20), Move(0, 0, 21)]
    bomb_bonus = after(state, Move(0, 0, 20))
    assert (bomb_bonus.bombs[1], bomb_bonus.overrides[1]) == (0, 255)
    override_bonus = after(state, Move(0, 0, 21))
    assert (override_bonus.bombs[1], override_bonus.overrides[1]) == (255, 0)


def test_blast_follows_transitions_and_stops_at_holes() -> None:
    """RULES.md 5: the blast walks 8 neighbours and transitions, `strength` steps deep, and
    never enters a hole."""
    # From (1, 0), strength 2: step 1 reaches (0, 0) (the hole (2, 0) shields (3, 0)); step 2
    # goes from (0, 0) through its west side onto (4, 0).
    state = bombing("0 0 - 0 0", strength=2, transitions=["0 0 6 <-> 4 0 2"], bombs=2)
    engine = after(state, Move(1, 0))
    assert engine.to_state().rows() == board("- - - 0 -")
    assert engine.bombs[1] == 1
    assert engine.counts[HOLE] == 4
    assert engine.to_move == 2 and engine.phase == BOMB


def test_last_build_move_starts_the_bombing_phase() -> None:
    """RULES.md 4: when nobody can build after a turn, phase 2 starts with the next player
    after the mover who has a bomb; unmake goes back to phase 1."""
    engine = after(build("0 2 1 0", bombs=1), Move(0, 0))
    assert engine.to_state().rows() == board("1 1 1 0")
    assert (engine.phase, engine.to_move) == (BOMB, 2)
    engine.unmake()
    assert (engine.phase, engine.to_move) == (BUILD, 1)
    assert engine.to_state().rows() == board("0 2 1 0")


def test_game_ends_without_bombs() -> None:
    """RULES.md 4: when nobody can build and nobody has a bomb, the game is over."""
    engine = after(build("0 2 1 0"), Move(0, 0))
    assert engine.is_over() and engine.to_move == 0 and engine.legal_moves() == []
    assert engine.perft(3) == 1


def test_disqualification_passes_the_turn_and_unmakes() -> None:
    """RULES.md 6: the disqualified mover is never asked again; the next player is; when one
    player is left the game ends.  unmake takes a disqualification back."""
    state = build("0 2 1 3 0", players=3)
    engine = Engine.from_state(state)
    start_hash = engine.hash
    assert engine.players_in_game() == [1, 2, 3]
    engine.disqualify(1)
    assert engine.disqualified[1] == 1 and engine.to_move == 2
    assert engine.players_in_game() == [2, 3]
    assert engine.hash == engine.compute_hash() != start_hash
    engine.disqualify(3)
    assert engine.is_over() and engine.players_in_game() == [2]
    engine.unmake()
    engine.unmake()
    assert engine.to_state() == state and engine.hash == start_hash
    assert engine.players_in_game() == [1, 2, 3]


def test_move_ints_sort_like_the_rules() -> None:
    """STYLE.md 4: moves are ints that sort by (y, x, special) and convert both ways."""
    engine = Engine.from_state(build("0 0 0\n0 0 0", players=3))
    moves = [Move(2, 0, 0), Move(0, 1, 3), Move(0, 1, 1), Move(1, 1, 21)]
    encoded = [engine.encode_move(m) for m in moves]
    assert sorted(encoded) == [encoded[0], encoded[2], encoded[1], encoded[3]]
    assert [engine.decode_move(m) for m in encoded] == moves
    with pytest.raises(IllegalMoveError):
        engine.encode_move(Move(3, 0))


def test_make_after_the_game_is_rejected() -> None:
    """RULES.md 6: no move is possible once the game is over."""
    engine = after(build("0 2 1 0"), Move(0, 0))
    with pytest.raises(IllegalMoveError):
        engine.make(0)
    assert engine.phase == OVER


def test_load_state_with_fewer_holes_rebuilds_the_step_table() -> None:
    """RULES.md 2: an engine started on a bombed board walks correctly after loading an
    earlier position of the map, where the bombed cell is not a hole yet."""
    engine = after(bombing("0 2 1 0", bombs=1), Move(1, 0))
    assert engine.to_state().rows() == board("0 - 1 0")
    reused = Engine.from_state(engine.to_state())
    reused.load_state(build("0 2 1 0", bombs=1))
    assert moves_of(reused) == [Move(0, 0)]
    reused.make(reused.legal_moves()[0])
    assert reused.to_state().rows() == board("1 1 1 0")


def test_set_to_move_lets_another_player_move() -> None:
    """RULES.md 3: set_to_move makes any player the mover (for search); unmake restores the
    mover of the move it takes back."""
    engine = Engine.from_state(build("0 2 1 0"))
    assert moves_of(engine) == [Move(0, 0)]
    assert [engine.decode_move(m) for m in engine.legal_moves_for(2)] == [Move(3, 0)]
    engine.set_to_move(2)
    assert engine.to_move == 2 and engine.hash == engine.compute_hash()
    engine.make(engine.encode_move(Move(3, 0)))
    assert engine.to_state().rows() == board("0 2 2 2")
    engine.unmake()
    assert engine.to_move == 2
