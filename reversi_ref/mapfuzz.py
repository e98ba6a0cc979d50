"""A map-loader fuzzer: our `read_map` against the official `mapinfo` (RULES.md 1).

`generate_map_bytes(rng)` makes a map file's bytes: a random valid map, then a few mutations
(header tokens as `atoi` reads them, separators, truncation, leftover tokens, bad cells, and
transitions valid and not). `compare` runs one text through `mapinfo -m FILE` and through our
loader and says whether the two agree on the verdict (loads or not), on the problem named, on
where it is (the cell or the transition number) and, for a map both load, on the header values.
The official binaries are not part of reversi-ref: the caller names them.

    reversi-ref mapfuzz --mapinfo PATH [--count N] [--seed S] [--jobs J] [--show K]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Sequence, Tuple

from .errors import MapError
from .geometry import open_sides
from .mapfile import decode_map_bytes, read_map, read_map_notes

# The server's messages, by the problem id our MapError carries.
SERVER_PROBLEMS: Tuple[Tuple[str, str], ...] = (
    ("invalid number of players", "invalid-player-count"),
    ("board truncated before", "header-truncated"),
    ("dimensions too large", "dimensions-too-large"),
    ("board truncated at", "board-truncated"),
    ("invalid square", "invalid-square"),
    ("invalid token", "invalid-token"),
    ("invalid delimiter", "invalid-delimiter"),
    ("invalid first coordinate", "invalid-first-coordinate"),
    ("invalid second coordinate", "invalid-second-coordinate"),
)
_TRANSITION_PROBLEM = re.compile(r"transition -?\d+ is (truncated|invalid)")
_PLACE = re.compile(r"at \(x,y\) = \((-?\d+),(-?\d+)\)|at \((-?\d+),(-?\d+)\)|transition (\d+)")
_STATUS = re.compile(r"number of players:\s*(-?\d+).*?initial overrides:\s*(-?\d+).*?"
                     r"initial bombs:\s*(-?\d+) \(power (-?\d+)\)", re.S)
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
CRASH = "crash"  # the server died (a signal) before printing a verdict

HEADER_VARIANTS = (
    "1.5", "+3", "-3", "007", "0x1", "many", "2abc", "2.0", "+", "-", "+-2", "00", "-0",
    "99999999999", "4294967297", "4294967296", "-4294967295", "258", "-254", "256", "-1",
    "9" * 25, "-" + "9" * 25, "\f3", "\v2", "\f", "1000", "1001", "\xef\xbc\x93", "1e3",
    "0" * 30 + "2", "18446744073709551618", "9223372036854775807", "-9223372036854775808",
)
CELL_VARIANTS = ("q", "9", "00", "B", "X", "o", "1c", "--", "*", "\xe4", "\xc3\xa4", "<->",
                 "8", "3", "5", "0\f1", "\v", "0\v", "\x7f", "\xff")
ARROW_VARIANTS = ("<-", "->", "<=>", "<->x", "<>", "<-->", "\f<->", "<->\v", "x")
SEPARATORS = (" ", "  ", "\t", "\n", "\r\n", "\r", "\f", "\v", " \r ", "\n\n")


class Verdict(NamedTuple):
    """What a loader made of a text: loaded or not, the problem, where, the header values."""

    loads: bool
    problem: str = ""
    place: str = ""
    header: Tuple[int, ...] = ()


class Case(NamedTuple):
    """One fuzzed text and both verdicts."""

    number: int
    data: bytes
    server: Verdict
    ours: Verdict


# --- generating -----------------------------------------------------------------------------

def _base_tokens(rng: random.Random) -> Tuple[List[str], int, int, int]:
    """A valid map as tokens: header, cells, transitions; and players, height, width."""
    players = rng.randint(2, 8)
    height = rng.choice([0, 1, 1, 2, 3, 4, 5, 6, 8, 10, 15, rng.randint(1, 40)])
    width = rng.choice([0, 1, 2, 2, 3, 4, 5, 6, 8, 10, 15, rng.randint(1, 40)])
    if rng.random() < 0.05:
        height, width = rng.choice([(0, 0), (1, 1000), (1000, 1), (2, 300)])
    hole_rate = rng.choice([0.0, 0.1, 0.3, 0.6])
    plain = "0" * 12 + "cibx" + "".join(str(p) for p in range(1, players + 1)) * 2
    cells = ["-" if rng.random() < hole_rate else rng.choice(plain)
             for _ in range(height * width)]
    tokens = [str(players), str(rng.randint(0, 20)), str(rng.randint(0, 5)),
              str(rng.randint(0, 4)), str(height), str(width)] + cells
    sides = open_sides(height, width, cells)
    rng.shuffle(sides)
    for _ in range(rng.choice([0, 0, 1, 2, 3, 5])):
        if len(sides) < 2:
            break
        a = sides.pop()
        b = a if rng.random() < 0.15 else sides.pop()
        tokens += [str(v) for v in a] + ["<->"] + [str(v) for v in b]
    return tokens, players, height, width


def _transition_tokens(rng: random.Random, height: int, width: int,
                       existing: List[List[str]]) -> List[str]:
    """One transition written in one of many ways, valid or not."""
    def end() -> List[str]:
        x = rng.choice([0, width - 1, rng.randint(-2, width + 2), rng.randint(0, max(width, 1))])
        y = rng.choice([0, height - 1, rng.randint(-2, height + 2)])
        d = rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 7, 8, -1, 9])
        return [str(x), str(y), str(d)]
    kind = rng.random()
    if existing and kind < 0.3:
        old = rng.choice(existing)
        choice = rng.random()
        if choice < 0.3:
            return list(old)                                    # listed twice
        if choice < 0.5:
            return old[4:7] + ["<->"] + old[0:3]                # reversed
        if choice < 0.75:
            return old[0:3] + ["<->"] + old[0:3]                # a side joined to itself
        return old[4:7] + ["<->"] + end()                       # a chain from a used side
    a, b = end(), end()
    if kind < 0.45:
        b = a
    words = a + ["<->"] + b
    if rng.random() < 0.1:
        words[3] = rng.choice(ARROW_VARIANTS)
    if rng.random() < 0.05:
        del words[rng.randrange(7)]
    if rng.random() < 0.05:
        words.insert(rng.randrange(7), "<->")
    if rng.random() < 0.05:
        words[rng.randrange(len(words))] = rng.choice(HEADER_VARIANTS)
    return words


def _side_reuse_tokens(rng: random.Random, tokens: List[str], height: int,
                       width: int) -> List[str]:
    """Transitions over a few free sides of the board, so that sides come again: self-joins
    before and after other joins, repeats, reversals and chains."""
    cells = tokens[6:6 + height * width]
    if len(cells) != height * width:
        return []
    pool = open_sides(height, width, cells)
    rng.shuffle(pool)
    pool = pool[:rng.randint(1, 4)]
    if not pool:
        return []
    words: List[str] = []
    for _ in range(rng.randint(2, 6)):
        a = rng.choice(pool)
        b = a if rng.random() < 0.4 else rng.choice(pool)
        words += [str(v) for v in a] + ["<->"] + [str(v) for v in b]
    return words


def _existing_transitions(tokens: List[str], height: int, width: int) -> List[List[str]]:
    start = 6 + height * width
    rest = tokens[start:]
    return [rest[i:i + 7] for i in range(0, len(rest) - 6, 7)]


def _join(rng: random.Random, tokens: List[str], messy: bool) -> str:
    """Tokens joined into lines: a header line each, a row per line, a transition per line."""
    if not messy:
        return " ".join(tokens) + "\n"
    parts: List[str] = []
    for i, token in enumerate(tokens):
        parts.append(token)
        if i + 1 < len(tokens):
            parts.append(rng.choice(SEPARATORS))
    return "".join(parts) + rng.choice(["\n", "", "\r\n", " ", "\n\n"])


def _mutate_text(rng: random.Random, text: str) -> str:
    """A character-level change: separators, NUL, non-ASCII, truncation."""
    choice = rng.random()
    if not text:
        return text
    position = rng.randrange(len(text) + 1)
    if choice < 0.15:
        return text.replace("\n", "\r")
    if choice < 0.25:
        return text.replace("\n", "\r\n")
    if choice < 0.4:
        return text[:position]
    if choice < 0.5:
        return text[:position] + "\0" + text[position:]
    if choice < 0.6:
        return text[:position] + rng.choice(["\f", "\v", "\r", "\t", "\xa0"]) + text[position:]
    if choice < 0.7:
        return text[:position] + rng.choice(["\xc3\xa4", "\xe4", "\xff", "\x01"]) + text[position:]
    if choice < 0.8:
        return text.rstrip("\n")
    if choice < 0.9:
        spaces = [i for i, c in enumerate(text) if c in " \n"]
        if spaces:
            i = rng.choice(spaces)
            return text[:i] + rng.choice(["\f", "\v", "\r", "\t", "\0"]) + text[i + 1:]
        return text
    return "\n" + text.replace(" ", "  ")


def _corpus_tokens(rng: random.Random, corpus: Sequence[bytes]
                   ) -> Tuple[List[str], int, int, int]:
    """The tokens of one of the given real maps (assumed well formed), and its size."""
    tokens = rng.choice(corpus).decode("latin-1").split()
    try:
        height, width = int(tokens[4]), int(tokens[5])
    except (IndexError, ValueError):
        height = width = 0
    return tokens, 0, height, width


def generate_map_bytes(rng: random.Random, corpus: Sequence[bytes] = ()) -> bytes:
    """The bytes of one fuzzed map file, drawn from `rng`; some start from a `corpus` map."""
    if corpus and rng.random() < 0.25:
        tokens, players, height, width = _corpus_tokens(rng, corpus)
    else:
        tokens, players, height, width = _base_tokens(rng)
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        kind = rng.random()
        if kind < 0.25 and tokens:
            tokens[rng.randrange(min(6, len(tokens)))] = rng.choice(HEADER_VARIANTS)
        elif kind < 0.4 and len(tokens) > 6 + height * width > 6:
            tokens[6 + rng.randrange(height * width)] = rng.choice(CELL_VARIANTS)
        elif kind < 0.55:
            tokens += _side_reuse_tokens(rng, tokens, height, width)
        elif kind < 0.75:
            existing = _existing_transitions(tokens, height, width)
            for _ in range(rng.randint(1, 3)):
                tokens += _transition_tokens(rng, height, width, existing)
        elif kind < 0.85:
            tokens += [rng.choice(["0", "1", "<->", "x", "-1"])
                       for _ in range(rng.randint(1, 6))]
        elif tokens:
            del tokens[rng.randrange(len(tokens)):]
    text = _join(rng, tokens, rng.random() < 0.4)
    for _ in range(rng.choice([0, 0, 0, 0, 0, 1, 2])):
        text = _mutate_text(rng, text)
    return text.encode("latin-1")


# --- judging --------------------------------------------------------------------------------

def _place(message: str) -> str:
    match = _PLACE.search(message)
    return "" if match is None else ",".join(g for g in match.groups() if g is not None)


def server_problem(message: str) -> str:
    """The problem id of one of the server's loader messages ("" when it is not one)."""
    for phrase, problem in SERVER_PROBLEMS:
        if message.startswith(phrase):
            return problem
    match = _TRANSITION_PROBLEM.match(message)
    if match:
        return "transition-truncated" if match.group(1) == "truncated" else \
            "transition-invalid-field"
    return ""


def run_mapinfo(mapinfo: str, data: bytes, timeout: float = 20.0) -> Verdict:
    """What the official `mapinfo -m` makes of a map file's bytes."""
    handle, path = tempfile.mkstemp(suffix=".map")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        # Unbuffered, so that what it printed before a crash is seen.
        command = [mapinfo, "-m", path]
        if shutil.which("stdbuf"):
            command = ["stdbuf", "-o0"] + command
        crashed = False
        try:
            done = subprocess.run(command, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, timeout=timeout)
            output = done.stdout.decode("latin-1")
            crashed = done.returncode < 0
        except subprocess.TimeoutExpired as expired:
            output = (expired.stdout or b"").decode("latin-1")
    finally:
        os.unlink(path)
    output = _ANSI.sub("", output).replace("\0", "")
    for line in output.split("\n"):
        message = line.split("... ", 1)[1] if line.startswith("Loading board from file") \
            and "... " in line else line
        if message.startswith("OK."):
            status = _STATUS.search(output)
            # mapinfo prints the counts as read; the game keeps them modulo 256.
            header = tuple(int(g) % 256 for g in status.groups()) if status else ()
            return Verdict(True, header=header)
        if server_problem(message):
            return Verdict(False, server_problem(message), _place(message))
        if line.startswith("Loading board from file") and message.strip():
            return Verdict(False, "unknown: " + message[:60])
    return Verdict(False, CRASH if crashed else "no answer")


def run_ours(data: bytes) -> Verdict:
    """What our loader makes of a map file's bytes."""
    try:
        m = read_map(decode_map_bytes(data))
    except MapError as error:
        return Verdict(False, error.problem, _place(error.reason))
    return Verdict(True, header=(m.players, m.overrides, m.bombs, m.strength))


def agree(server: Verdict, ours: Verdict) -> bool:
    """Whether two verdicts agree (header values only when the server printed them; a server
    that crashed before naming a problem did not load the map, and any problem of ours will
    do)."""
    if server.loads != ours.loads:
        return False
    if server.problem == CRASH:
        return True
    if not server.loads:
        return (server.problem, server.place) == (ours.problem, ours.place)
    return not server.header or server.header == ours.header


def fuzz(mapinfo: str, count: int, seed: int, jobs: int = 4,
         corpus: Sequence[bytes] = ()) -> List[Case]:
    """Generate `count` maps from `seed` (and `corpus`) and judge each with both loaders."""
    rng = random.Random(seed)
    texts = [generate_map_bytes(rng, corpus) for _ in range(count)]

    def judge(index: int) -> Case:
        data = texts[index]
        return Case(index, data, run_mapinfo(mapinfo, data), run_ours(data))

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        cases = list(pool.map(judge, range(count)))
    return cases


# --- command line ---------------------------------------------------------------------------

def run(args: argparse.Namespace) -> int:
    """The `mapfuzz` subcommand: print the disagreement rate and the disagreeing cases."""
    if not os.access(args.mapinfo, os.X_OK):
        print("reversi-ref mapfuzz: %s is not an executable mapinfo" % args.mapinfo,
              file=sys.stderr)
        return 2
    corpus = [path.read_bytes() for path in sorted(Path(args.maps).glob("*.map"))] \
        if args.maps else []
    cases = fuzz(args.mapinfo, args.count, args.seed, args.jobs, corpus)
    bad = [case for case in cases if not agree(case.server, case.ours)]
    loads = sum(1 for case in cases if case.server.loads)
    problems: Dict[str, int] = {}
    for case in cases:
        key = "loads" if case.server.loads else case.server.problem
        problems[key] = problems.get(key, 0) + 1
        if case.ours.loads:
            for note in read_map_notes(decode_map_bytes(case.data))[1]:
                kind = "loads with " + note.kind
                problems[kind] = problems.get(kind, 0) + 1
    print("%d maps (seed %d): the server loads %d, rejects %d; %d disagreements (%.2f%%)"
          % (len(cases), args.seed, loads, len(cases) - loads, len(bad),
             100.0 * len(bad) / max(1, len(cases))))
    print("server verdicts: " + ", ".join("%s %d" % item for item in sorted(problems.items())))
    for case in bad[:args.show]:
        print("--- case %d: server %s, ours %s" % (case.number, case.server, case.ours))
        print(ascii(case.data[:400]))
    return 1 if bad else 0


def register(subparsers: Any) -> None:
    """Add the `mapfuzz` subcommand."""
    parser = subparsers.add_parser(
        "mapfuzz", help="compare our map loader with the official mapinfo on fuzzed maps",
        description="Generate fuzzed map files from SEED and compare our loader's verdict, "
                    "problem and place with the official `mapinfo -m` (run locally).")
    parser.add_argument("--mapinfo", required=True, metavar="PATH",
                        help="the official mapinfo binary")
    parser.add_argument("--count", type=int, default=1000, metavar="N")
    parser.add_argument("--seed", type=int, default=1, metavar="S")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, metavar="J")
    parser.add_argument("--maps", metavar="DIR",
                        help="also mutate the *.map files of DIR (read at run time)")
    parser.add_argument("--show", type=int, default=10, metavar="K",
                        help="print at most K disagreeing cases")
    parser.set_defaults(func=run)


__all__ = ["Case", "Verdict", "agree", "fuzz", "generate_map_bytes", "run_mapinfo", "run_ours",
           "server_problem"]
