"""Shared test helpers: random settled boards (hypothesis), kernel cell indices, running the CLI."""

import json
import subprocess
import sys

import numpy as np
from hypothesis import strategies as st

from gridsolver.clickomania import rules

NO_LIMIT = 1 << 62


@st.composite
def boards(draw, max_side=7):
    width = draw(st.integers(1, max_side))
    height = draw(st.integers(1, max_side))
    colours = draw(st.integers(1, 4))
    cells = draw(st.lists(st.integers(-1, colours - 1), min_size=width * height,
                          max_size=width * height))
    grid = np.array(cells, dtype=np.int8).reshape(height, width)
    return rules.Board(rules.settle(grid))


def cell_index(move, height):
    """The kernel cell of a (row, column) move."""
    row, col = move
    return col * height + (height - 1 - row)


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gridsolver", *args], capture_output=True, text=True,
                          input=stdin, timeout=300)


def results(done: subprocess.CompletedProcess) -> list[dict]:
    """The JSON lines of a solve; its exit code must follow the table (1 when any board is not solved)."""
    assert done.returncode in (0, 1), done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    solved = all(line["status"] in ("optimal", "best-found") for line in lines)
    assert done.returncode == (0 if solved else 1), done.stderr
    return lines
