"""The maps that ship with reversi-ref, how a command's map argument is found, and `maps`.

The repository's top-level `maps/` directory is installed as the package data `reversi_ref/maps`
(pyproject.toml), read with `importlib.resources`; a clone run without installing reads it where
it lies.  So a clone and an installed copy know the same maps by the same names.

A map argument (`play MAP`, `serve -m MAP`, `tournament --maps`, `show`, `render`, `perft`,
`lint`, `bench --map`) is an existing file, else the name of a bundled map with or without
`.map` (`default`, `othello8x8.map`).  `reversi-ref maps` lists the bundled maps.
"""

from __future__ import annotations

import argparse
import importlib.resources
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, NamedTuple, Optional, Tuple

from .errors import MapError, ReversiError
from .geometry import BONUS, CHOICE, EXPANSION, HOLE, INVERSION, Map
from .mapfile import decode_map_bytes, read_map

if TYPE_CHECKING:  # annotations only: the class moved to importlib.resources.abc in 3.11
    from importlib.abc import Traversable

SUFFIX = ".map"
DEFAULT_MAP = "default"


class MapSource(NamedTuple):
    """A map found from a command-line argument: how to name it, its bytes, and the file it
    came from (None for a bundled map inside an installed package)."""

    label: str
    data: bytes
    path: Optional[Path]

    @property
    def text(self) -> str:
        """The map text (bytes the server would read as one character each kept as is)."""
        return decode_map_bytes(self.data)


def maps_dir() -> "Traversable":
    """The directory of the bundled maps: package data when installed, else the checkout's
    top-level `maps/`."""
    installed = importlib.resources.files("reversi_ref").joinpath("maps")
    if installed.is_dir():
        return installed
    return Path(__file__).resolve().parent.parent / "maps"


def bundled_names() -> List[str]:
    """The names of the bundled maps (file names without `.map`), sorted."""
    directory = maps_dir()
    if not directory.is_dir():
        return []
    return sorted(entry.name[:-len(SUFFIX)] for entry in directory.iterdir()
                  if entry.name.endswith(SUFFIX) and entry.is_file())


def bundled_map_bytes(name: str) -> Optional[bytes]:
    """The bytes of the bundled map `name` (with or without `.map`), or None."""
    stem = name[:-len(SUFFIX)] if name.endswith(SUFFIX) else name
    if not stem or stem not in bundled_names():
        return None
    return maps_dir().joinpath(stem + SUFFIX).read_bytes()


def _is_bare_name(argument: str) -> bool:
    """Whether `argument` could name a bundled map (no directory part)."""
    return bool(argument) and os.sep not in argument and "/" not in argument


def find_map(argument: str) -> MapSource:
    """The map a command-line argument names: an existing file, else a bundled map; a
    ReversiError saying which file could not be read, or which names are bundled."""
    path = Path(argument)
    if path.is_file():
        try:
            return MapSource(argument, path.read_bytes(), path)
        except OSError as error:
            raise ReversiError("cannot read %s: %s" % (argument, describe_os_error(error))) \
                from None
    data = bundled_map_bytes(argument) if _is_bare_name(argument) else None
    if data is not None:
        stem = argument[:-len(SUFFIX)] if argument.endswith(SUFFIX) else argument
        return MapSource(stem + SUFFIX, data, None)
    if path.exists():
        raise ReversiError("cannot read %s: not a file" % argument)
    if _is_bare_name(argument):
        raise ReversiError("no map file or bundled map named %s (bundled: %s; "
                           "`reversi-ref maps` lists them)"
                           % (argument, ", ".join(bundled_names()) or "none"))
    raise ReversiError("cannot read %s: no such file" % argument)


def load_map_argument(argument: str) -> Tuple[MapSource, Map]:
    """The map a command-line argument names, parsed; MapError names the file."""
    source = find_map(argument)
    try:
        return source, read_map(source.text)
    except MapError as error:
        raise error.with_source(source.label) from None


def describe_os_error(error: OSError) -> str:
    """An OSError as a short lower-case phrase ("no such file or directory")."""
    text = error.strerror or str(error)
    return text[:1].lower() + text[1:]


# --------------------------------------------------------------------------- `reversi-ref maps`


def map_features(game_map: Map) -> List[str]:
    """What a map has beyond plain cells: transitions, special tiles and holes, with counts."""
    features: List[str] = []
    if game_map.transitions:
        features.append("transitions %d" % len(game_map.transitions))
    for tile, name in ((CHOICE, "choice"), (INVERSION, "inversion"), (BONUS, "bonus"),
                       (EXPANSION, "expansion"), (HOLE, "holes")):
        count = game_map.cells.count(tile)
        if count:
            features.append("%s %d" % (name, count))
    return features


def map_rows() -> List[Tuple[str, Map]]:
    """Every bundled map by name, parsed."""
    rows = []
    for name in bundled_names():
        data = bundled_map_bytes(name)
        if data is not None:
            rows.append((name, read_map(decode_map_bytes(data))))
    return rows


def run_maps(args: argparse.Namespace) -> int:
    """`reversi-ref maps`: list the bundled maps."""
    rows = map_rows()
    print("%-16s %7s %7s %9s %5s  %s" % ("map", "players", "size", "overrides", "bombs",
                                          "features"))
    for name, game_map in rows:
        print("%-16s %7d %7s %9d %5s  %s" % (
            name, game_map.players, "%dx%d" % (game_map.width, game_map.height),
            game_map.overrides, "%d/%d" % (game_map.bombs, game_map.strength),
            ", ".join(map_features(game_map)) or "-"))
    print("%d maps; give one by name (`reversi-ref play othello8x8`); size is width x height, "
          "bombs count/strength" % len(rows))
    return 0


def register(subparsers: Any) -> None:
    """Add the `maps` subcommand."""
    parser = subparsers.add_parser(
        "maps", help="list the bundled maps (usable by name wherever a map is asked for)",
        description="List the maps that ship with reversi-ref: players, size, override "
                    "stones, bombs and features (transitions, choice, inversion, bonus and "
                    "expansion tiles, holes).  Every command that takes a map accepts these "
                    "names, with or without .map.")
    parser.set_defaults(func=run_maps)


__all__ = ["DEFAULT_MAP", "MapSource", "bundled_map_bytes", "bundled_names", "find_map",
           "load_map_argument", "map_features", "maps_dir"]
