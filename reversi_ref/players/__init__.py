"""Built-in players and the registry that names them.

`get(name, seed)` builds a player by name; `register(name, factory)` adds one (a search player
registers itself the same way).  Every factory takes the seed, so a game between seeded
players can be replayed exactly.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Callable, Dict, List

from .base import Player, SearchInfo
from .greedy import GreedyPlayer
from .random_player import RandomPlayer

PlayerFactory = Callable[[int], Player]

_REGISTRY: Dict[str, PlayerFactory] = {}


def register(name: str, factory: PlayerFactory) -> None:
    """Make `get(name, seed)` call `factory(seed)`."""
    _REGISTRY[name] = factory


def names() -> List[str]:
    """The names `get` accepts, sorted."""
    return sorted(_REGISTRY)


def player_name(text: str) -> str:
    """An argparse type: the name of a registered player."""
    if "," in text:
        raise argparse.ArgumentTypeError("one player name, got %r" % text)
    return player_names(text)[0]


def player_names(text: str) -> List[str]:
    """An argparse type: comma-separated names of registered players."""
    chosen = [name.strip() for name in text.split(",") if name.strip()]
    if not chosen:
        raise argparse.ArgumentTypeError("names no player, got %r" % text)
    unknown = [name for name in chosen if name not in _REGISTRY]
    if unknown:
        raise argparse.ArgumentTypeError("unknown player %s (known: %s)" % (
            ", ".join(repr(name) for name in unknown), ", ".join(names())))
    return chosen


def get(name: str, seed: int = 0) -> Player:
    """A new player of kind `name`, seeded with `seed` (ValueError naming the known ones)."""
    factory = _REGISTRY.get(name)
    if factory is None:
        raise ValueError("unknown player %r (known: %s)" % (name, ", ".join(names())))
    return factory(seed)


register("greedy", lambda seed: GreedyPlayer())
register("random", lambda seed: RandomPlayer(random.Random(seed)))


# The players whose evaluation weights can be changed (`tuned`).
TUNABLE = ("search", "brs", "mcts")


def read_weights(text: str, label: str) -> Dict[str, object]:
    """Evaluation weights written as a JSON object, inline or as @FILE; ValueError starting
    with `label` (the option they came from) saying what is wrong."""
    if text.startswith("@"):
        try:
            text = Path(text[1:]).read_text(encoding="utf-8")
        except OSError as error:
            raise ValueError("%s: cannot read %s: %s" % (label, text[1:], error.strerror)) from None
    try:
        values = json.loads(text)
    except ValueError as error:
        raise ValueError("%s is not JSON: %s" % (label, error)) from None
    if not isinstance(values, dict):
        raise ValueError("%s must be a JSON object of weight names, got %r" % (label, values))
    return values


def tuned(base: str, weights: Dict[str, object], seed: int, name: str = "") -> Player:
    """A `base` player (one of TUNABLE) whose evaluation weights differ from the defaults
    by `weights` (EvalConfig field names); ValueError naming a bad base or weight."""
    from ..search.alphabeta import BRS, PARANOID
    from ..search.config import config_from_dict
    from .mcts import MctsPlayer
    from .search import SearchPlayer
    if base not in TUNABLE:
        raise ValueError("only %s take evaluation weights, not %r" % (", ".join(TUNABLE), base))
    config = config_from_dict(weights)
    player: Player
    if base == "mcts":
        player = MctsPlayer(random.Random(seed), config)
    else:
        player = SearchPlayer(BRS if base == "brs" else PARANOID, random.Random(seed), config)
    if name:
        player.name = name
    return player


def _register_search_players() -> None:
    # The search players live beside the built-in ones but import the search machinery.
    from .mcts import mcts_player
    from .search import brs_player, search_player
    register("search", search_player)
    register("brs", brs_player)
    register("mcts", mcts_player)


def _human_player(seed: int) -> Player:
    # A person at the live page (`reversi_ref.human`; `play` gives it the page).
    from ..human import human_player
    return human_player(seed)


register("human", _human_player)


_register_search_players()

__all__ = ["GreedyPlayer", "Player", "PlayerFactory", "RandomPlayer", "SearchInfo", "get",
           "names", "player_name", "player_names", "read_weights", "register", "tuned", "TUNABLE"]
