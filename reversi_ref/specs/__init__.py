"""The golden suite: language-neutral cases that show every rule of RULES.md by example.

Modules: `codec` (the JSON forms of states, moves and maps), `casebook` (the case record and
helpers for hand-worked answers), `handmade` (named cases worked out by hand, one or more per
rule), `generated` (cases cut from random games on maps we author and on the bundled maps),
`oracle` (the readable rules answering adapter requests) and `suite` (assembling, writing,
loading and checking the suite; the `gen-specs` subcommand).  The format and the adapter
protocol are documented in specs/README.md.
"""

from __future__ import annotations

from .casebook import AREAS, Case
from .codec import SpecError, state_from_json, state_to_json
from .oracle import answer, request_of_case
from .suite import (FORMAT_VERSION, build_chunk, chunk_names, chunk_of, default_specs_dir,
                    generate_suite, load_suite, register, suite_files, write_suite)

__all__ = [
    "AREAS", "Case", "FORMAT_VERSION", "SpecError", "answer", "build_chunk", "chunk_names",
    "chunk_of", "default_specs_dir", "generate_suite", "load_suite", "register",
    "request_of_case", "state_from_json", "state_to_json", "suite_files", "write_suite",
]
