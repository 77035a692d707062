"""The README runs as written: every Python example in it, with the output it says it prints."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)
PRINTS = re.compile(r"^# prints: (.*)$", re.MULTILINE)


def examples() -> list[str]:
    return BLOCK.findall(README.read_text(encoding="utf-8"))


def test_the_readme_has_a_python_example_per_game():
    from gridsolver.games import GAMES

    text = "\n".join(examples())
    for game in GAMES:
        assert f"from gridsolver import {game}" in text, game


@pytest.mark.parametrize("code", examples(), ids=lambda code: code.split("\n")[0][:40])
def test_python_example_prints_what_the_readme_says(code, tmp_path):
    expected = PRINTS.findall(code)
    assert expected, "each example states what it prints ('# prints: ...')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == expected
