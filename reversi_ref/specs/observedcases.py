"""Cases cut from games observed on the official server (specs/observed/server-games.jsonl).

Each recorded game (observe.py) is one chunk, `s001`, `s002`, ... in file order.  Its steps
are the moves the server announced and the players it disqualified; before a case is cut, the
game is replayed with `observe.check_game`, which compares our readable rules with every board
the server printed, every player it asked, the end of phase 1 and the scores, and the chunk is
refused if they differ anywhere.  So the expected answers, although written by our rules, are
what the server did, and the cases carry the basis `server`:

- an `apply` case for every step (the rule area by the step's features, as for random games);
- an `illegal` case for every answer the server rejected (the move the client sent);
- the last steps with the ranking of the final scores, and the whole game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Dict, List, Optional

from ..errors import IllegalMoveError
from ..mapfile import read_map
from ..rules import disqualify, initial_state, legal_moves, play
from ..state import BOMB, OVER, GameState, Move
from .casebook import SERVER, Case
from .codec import JSONObject, SpecError, move_to_json, state_to_json
from .generated import (DESCRIPTIONS, ChunkBuilder, Ply, apply_features, apply_rule,
                        illegal_rule)
from .observe import check_game, read_records
from .oracle import ranking_to_json

GAMES = Path("observed") / "server-games.jsonl"


def observed_records(specs_dir: Path) -> Dict[str, JSONObject]:
    """The recorded games that the server played to the end, by chunk name s001..."""
    path = specs_dir / GAMES
    if not path.exists():
        return {}
    records = [r for r in read_records(path) if r.get("started") and r.get("ended")]
    return {"s%03d" % number: record for number, record in enumerate(records, 1)}


def replay(record: JSONObject) -> List[Ply]:
    """The steps of a recorded game as plies of our rules (the game must check clean)."""
    problems = check_game(record)
    if problems:
        raise SpecError("the observed game %s (seed %s) disagrees with the rules: %s"
                        % (record.get("label"), record.get("seed"), "; ".join(problems[:3])))
    state = initial_state(read_map(str(record["map"])))
    plies: List[Ply] = []
    for step in record["steps"]:
        legal = tuple(legal_moves(state))
        if step.get("disq"):
            after = disqualify(state, int(step["p"]))
            taken: JSONObject = {"disqualify": int(step["p"])}
        else:
            after = play(state, Move(*step["move"]))
            taken = {"move": list(step["move"])}
        plies.append(Ply(len(plies), state, taken, after, legal))
        state = after
    return plies


def _rejected_move(state: GameState, step: JSONObject) -> Optional[Move]:
    """The answer the server rejected at this step, when one was sent by the mover."""
    sent = step.get("sent")
    if not step.get("disq") or sent is None or state.to_move != step["p"]:
        return None
    return Move(*sent)


def observed_chunk(name: str, record: JSONObject) -> List[Case]:
    """The cases of one observed game."""
    where = " (observed on the official server: %s, seed %s, step %%d)" % (
        record.get("label"), record.get("seed"))
    builder = ChunkBuilder(name, str(record["map"]))
    plies = replay(record)
    for ply, step in zip(plies, record["steps"]):
        rejected = _rejected_move(ply.before, step)
        if rejected is not None:
            try:
                play(ply.before, rejected)
            except IllegalMoveError as error:
                area = "bombing" if ply.before.phase == BOMB else "disqualification"
                builder.add(area, illegal_rule(ply.before, rejected, error.rule), "illegal",
                            error.rule + where % ply.number, ply.before,
                            {"kind": "illegal", "move": move_to_json(rejected)},
                            {"illegal": True, "reason": error.rule})
        area = apply_features(ply)[0]
        query: JSONObject = {"kind": "apply"}
        query.update(ply.step)
        builder.add(area, apply_rule(area, ply), "apply",
                    DESCRIPTIONS[("apply", area)] + where % ply.number, ply.before, query,
                    {"state": state_to_json(ply.after)})
    if plies and plies[-1].after.phase == OVER:
        tail = plies[-min(3, len(plies)):]
        builder.add("ranking", "7.ranking", "game",
                    "RULES.md 7: the ranking after the last steps" + where % tail[0].number,
                    tail[0].before, {"kind": "game", "steps": [p.step for p in tail]},
                    {"states": [state_to_json(p.after) for p in tail],
                     "ranking": ranking_to_json(tail[-1].after)})
        start = plies[0].before
        builder.add("games", "game.whole", "game",
                    "RULES.md 3-7: a whole game observed on the official server: %s, seed %s"
                    % (record.get("label"), record.get("seed")), start,
                    {"kind": "game", "steps": [p.step for p in plies]},
                    {"states": [state_to_json(p.after) for p in plies],
                     "ranking": ranking_to_json(plies[-1].after)})
    return [case._replace(basis=SERVER) for case in builder.cases]


__all__ = ["GAMES", "observed_chunk", "observed_records", "replay"]
