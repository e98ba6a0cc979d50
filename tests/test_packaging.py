"""Installed = cloned: the package a user installs finds the same maps and runs the same commands
as a clone.

The slow test builds a wheel the way `pip install .` does (offline: `--no-build-isolation`),
installs it into a fresh venv in a temporary directory and runs `play`, `tournament`, `perft` and
`maps` on bundled names from a directory that has no maps/.  It needs an interpreter with
setuptools >= 61 and the `wheel` package (or setuptools >= 70.1); it skips without one.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional

import pytest

import reversi_ref

ROOT = Path(__file__).resolve().parents[1]
# The files a wheel is built from (what `pip install .` reads).
SOURCES = ("pyproject.toml", "README.md", "reversi_ref", "maps")
CAN_BUILD_WHEELS = """
import importlib.util, sys
import setuptools
version = tuple(int(part) for part in setuptools.__version__.split(".")[:2])
has_wheel = importlib.util.find_spec("wheel") is not None
sys.exit(0 if version >= (61, 0) and (has_wheel or version >= (70, 1)) else 1)
"""


def listed_packages() -> List[str]:
    """The `packages = [...]` list of pyproject.toml."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(r"^packages = \[(.*?)\]", text, re.S | re.M)
    assert found, "pyproject.toml lists no packages"
    return re.findall(r'"([^"]+)"', found.group(1))


def test_listed_packages_are_the_tree() -> None:
    """Every directory of reversi_ref/ with an __init__.py is listed (a new subpackage left out
    would be missing from the wheel), plus the maps shipped as `reversi_ref.maps`."""
    found = {".".join(path.parent.relative_to(ROOT).parts)
             for path in (ROOT / "reversi_ref").rglob("__init__.py")}
    assert sorted(listed_packages()) == sorted(found | {"reversi_ref.maps"})


def test_maps_ship_as_package_data() -> None:
    """pyproject.toml maps the top-level maps/ into the package and ships its *.map files."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"reversi_ref.maps" = "maps"' in text
    assert '"reversi_ref.maps" = ["*.map", "README.md"]' in text
    assert (ROOT / "maps" / "default.map").is_file()


def wheel_builder() -> Optional[str]:
    """An interpreter that can build a wheel offline: this one, else python3 on PATH."""
    candidates = [sys.executable, shutil.which("python3"), "/usr/bin/python3"]
    for candidate in candidates:
        if candidate and Path(candidate).exists():
            probe = subprocess.run([candidate, "-c", CAN_BUILD_WHEELS],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if probe.returncode == 0:
                return candidate
    return None


def run(command: List[str], cwd: Path, env: Dict[str, str]) -> "subprocess.CompletedProcess[str]":
    """Run `command`, failing the test with its output when it fails."""
    done = subprocess.run(command, cwd=str(cwd), env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=600)
    assert done.returncode == 0, "%s\n%s\n%s" % (" ".join(command), done.stdout, done.stderr)
    return done


@pytest.mark.slow
def test_installed_wheel_runs_on_bundled_maps(tmp_path: Path) -> None:
    """Build the wheel, install it into a fresh venv, run the commands from elsewhere."""
    builder = wheel_builder()
    if builder is None:
        pytest.skip("no interpreter with setuptools >= 61 and wheel to build a wheel offline")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    source = tmp_path / "src"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(ROOT / name, source / name)
    run([builder, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "-w", str(tmp_path / "dist"), str(source)], tmp_path, env)
    wheels = list((tmp_path / "dist").glob("reversi_ref-*.whl"))
    assert len(wheels) == 1

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp_path, env)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / ("python.exe" if os.name == "nt" else "python")
    run([builder, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
         str(wheels[0])], tmp_path, env)

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = run([str(python), "-c", "import reversi_ref; print(reversi_ref.__file__)"],
                elsewhere, env).stdout
    assert str(venv) in where, where
    command = [str(bin_dir / "reversi-ref")]
    assert run(command + ["--version"], elsewhere, env).stdout.strip() == \
        "reversi-ref %s" % reversi_ref.__version__
    listing = run(command + ["maps"], elsewhere, env).stdout
    assert all(name.stem in listing for name in (ROOT / "maps").glob("*.map"))
    played = run(command + ["play", "othello8x8.map", "--depth", "1", "--quiet"],
                 elsewhere, env).stdout
    assert "final ranking:" in played
    assert "final ranking:" in run(command + ["play", "--depth", "1", "--quiet"],
                                   elsewhere, env).stdout  # the default map
    tournament = run(command + ["tournament", "--maps", "othello8x8,tiny3x3", "--players",
                                "greedy,random", "--games", "1", "--depth", "1", "--quiet"],
                     elsewhere, env).stdout
    assert "2 games on othello8x8.map, tiny3x3.map" in tournament
    # The standard Othello opening: 1, 4, 12, 56, 244 positions (published perft counts).
    assert run(command + ["perft", "othello8x8", "4"], elsewhere, env).stdout.strip() == \
        "perft 4 244"
    # No suite in an installed package: gen-specs says so at once.
    failed = subprocess.run(command + ["gen-specs", "--check"], cwd=str(elsewhere), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            timeout=120)
    assert failed.returncode == 1 and "needs a clone" in failed.stderr
    assert not (elsewhere / "maps").exists()
