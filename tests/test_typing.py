"""The public API type-checks under ``mypy --strict`` (configured in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gridsolver.games import GAMES

SRC = Path(__file__).resolve().parents[1] / "src" / "gridsolver"
CORE_PUBLIC = ["__init__.py", "games.py", "core/errors.py", "core/result.py", "core/game.py",
               "core/boards.py", "core/budget.py", "core/table.py"]


def public_modules() -> list[str]:
    files = [SRC / name for name in CORE_PUBLIC]
    for game in GAMES:
        files += [SRC / game / "__init__.py", SRC / game / "game.py"]
    return [str(f) for f in files]


@pytest.mark.slow  # mypy takes 10 s; CI runs it with the slow tests
def test_public_api_passes_mypy_strict():
    done = subprocess.run([sys.executable, "-m", "mypy", *public_modules()], capture_output=True, text=True,
                          cwd=SRC.parents[1], timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
