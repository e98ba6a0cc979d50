"""The measuring harness itself: a measured command's peak is its own, and no file is left."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Set

import pytest

from .measure import run_bounded


def _peak_files() -> Set[Path]:
    return set(Path(tempfile.gettempdir()).glob("reversi-peak-*"))


def test_peak_file_removed_when_the_command_cannot_start() -> None:
    """A command that Popen cannot start raises, and takes its temporary peak file with it."""
    before = _peak_files()
    with pytest.raises(OSError):
        run_bounded([sys.executable + "-no-such-interpreter", "-c", "pass"], 10)
    assert _peak_files() - before == set()


def test_peak_file_removed_after_a_run() -> None:
    """A measured Python command reports its output and exit code; its peak file is gone."""
    before = _peak_files()
    run = run_bounded([sys.executable, "-c", "print(6 * 7); raise SystemExit(3)"], 60)
    assert (run.code, run.output.strip(), run.timed_out) == (3, "42", False)
    assert 0 < run.peak_mb
    assert _peak_files() - before == set()
