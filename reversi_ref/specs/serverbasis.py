"""The official loader's verdicts on the suite's maps, and the `server` basis they give.

`gen-specs --observe-mapinfo PATH` runs the official `mapinfo` (a binary the user supplies; it
is never part of this project) on the text of every map-loading case and writes what it said to
`specs/observed/mapinfo.jsonl`: one line per distinct text, keyed by the SHA-256 of its UTF-8
bytes, with whether it loaded, the server's problem and place when it did not, and the header
values it printed when it did.  The file is data we observed, so the suite can be rebuilt and
checked without the binary:

- a `map_reject` case whose text the server rejected with the same problem at the same place
  gets the basis `server`;
- any map case on which our loader and the recorded verdict disagree stops `gen-specs` (the
  server is the judge: the loader must be fixed, not the case);
- `map_load` cases keep their basis: the server confirmed the header values, not the whole
  initial position, and `specs/README.md` says so.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Dict, Iterable, List, Sequence

from ..mapfuzz import Verdict, agree, run_mapinfo, run_ours
from .casebook import SERVER, Case
from .codec import JSONObject, SpecError, dumps

OBSERVATIONS = Path("observed") / "mapinfo.jsonl"
MAP_KINDS = ("map_load", "map_reject")


def text_key(text: str) -> str:
    """The key of a map text in the observations: SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def verdict_to_json(key: str, verdict: Verdict) -> JSONObject:
    """One observation line."""
    return {"sha256": key, "loads": verdict.loads, "problem": verdict.problem,
            "place": verdict.place, "header": list(verdict.header)}


def verdict_from_json(value: JSONObject) -> Verdict:
    """The verdict of one observation line."""
    return Verdict(bool(value["loads"]), str(value["problem"]), str(value["place"]),
                   tuple(int(v) for v in value["header"]))


def load_observations(specs_dir: Path) -> Dict[str, Verdict]:
    """The recorded verdicts by text key ({} when the file is absent)."""
    return dict(_load_observations(specs_dir / OBSERVATIONS))


@functools.lru_cache(maxsize=4)
def _load_observations(path: Path) -> Dict[str, Verdict]:
    if not path.exists():
        return {}
    found: Dict[str, Verdict] = {}
    for number, line in enumerate(path.read_text(encoding="ascii").splitlines(), 1):
        try:
            value = json.loads(line)
            found[str(value["sha256"])] = verdict_from_json(value)
        except (ValueError, KeyError, TypeError) as error:
            raise SpecError("%s:%d: not an observation: %s" % (path, number, error)) from None
    return found


def observe(mapinfo: str, texts: Iterable[str]) -> Dict[str, Verdict]:
    """Ask the official loader about each distinct text."""
    verdicts: Dict[str, Verdict] = {}
    for text in texts:
        key = text_key(text)
        if key not in verdicts:
            verdicts[key] = run_mapinfo(mapinfo, text.encode("utf-8"))
    return verdicts


def write_observations(specs_dir: Path, verdicts: Dict[str, Verdict]) -> Path:
    """Write the verdicts, sorted by key, as specs/observed/mapinfo.jsonl."""
    path = specs_dir / OBSERVATIONS
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [dumps(verdict_to_json(key, verdicts[key])) + "\n" for key in sorted(verdicts)]
    path.write_text("".join(lines), encoding="ascii")
    _load_observations.cache_clear()
    return path


def forget_observations(specs_dir: Path) -> None:
    """Remove the recorded verdicts (before they are made again)."""
    (specs_dir / OBSERVATIONS).unlink(missing_ok=True)
    _load_observations.cache_clear()


def map_texts(cases: Sequence[Case]) -> List[str]:
    """The map texts of the map-loading cases."""
    return [case.map for case in cases if case.query["kind"] in MAP_KINDS]


def with_server_basis(cases: Sequence[Case], verdicts: Dict[str, Verdict]) -> List[Case]:
    """The cases, rejected maps confirmed by the recorded verdicts marked `server`; raises
    SpecError where our loader and a recorded verdict disagree."""
    result: List[Case] = []
    for case in cases:
        recorded = verdicts.get(text_key(case.map)) if case.query["kind"] in MAP_KINDS \
            else None
        if recorded is None:
            result.append(case)
            continue
        ours = run_ours(case.map.encode("utf-8"))
        if not agree(recorded, ours):
            raise SpecError("case %s: the official loader says %s, ours %s"
                            % (case.id, _said(recorded), _said(ours)))
        if not recorded.loads and recorded.problem == ours.problem:
            case = case._replace(basis=SERVER)
        result.append(case)
    return result


def _said(verdict: Verdict) -> str:
    if verdict.loads:
        return "loads (header %s)" % (list(verdict.header),)
    return "rejects: %s at %s" % (verdict.problem, verdict.place or "-")


__all__ = ["OBSERVATIONS", "forget_observations", "load_observations", "map_texts", "observe", "text_key",
           "with_server_basis", "write_observations"]
