"""The README runs as written: every Python example in it, with the output it says it prints,
and every command of its ``console`` blocks (and of the Getting started page's), with its output.

A ``console`` block holds commands (``$ ...``), each followed by what it prints on standard
output. The board files they read are the blocks titled with a file name
(```` ```text title="cross.txt" ````) on the same page; the commands run in a folder holding
them, with ``gridsolver`` being this checkout's. A line that depends on timing (a time, a
rate, the peak memory) is compared by its label alone (``search:``), a JSON line without its
timing keys, and a last line ``...`` stands for the rest of the output, not shown.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: the pages whose console blocks run here
PAGES = (README, ROOT / "docs" / "getting-started.md")
BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)
PRINTS = re.compile(r"^# prints: (.*)$", re.MULTILINE)
CONSOLE = re.compile(r"^```console\n(.*?)^```", re.DOTALL | re.MULTILINE)
TITLED = re.compile(r'^```\w* title="([^"]+)"\n(.*?)^```', re.DOTALL | re.MULTILINE)
#: what marks a line whose figures change from run to run
TIMING = re.compile(r"\d s\b|\bper s\b|\bcpu s\b|/s\b|peak memory")
#: the keys of a JSON result or event whose values change from run to run
TIMING_KEYS = ("stats", "t", "elapsed_s")
MORE = "..."


def examples() -> list[str]:
    return BLOCK.findall(README.read_text(encoding="utf-8"))


def console_blocks() -> list[tuple[Path, int, str]]:
    return [(page, number, block) for page in PAGES
            for number, block in enumerate(CONSOLE.findall(page.read_text(encoding="utf-8")), 1)]


def commands(block: str) -> list[tuple[str, list[str]]]:
    """The block's commands, each with the lines it prints."""
    steps: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            assert steps, f"output before any command: {line!r}"
            steps[-1][1].append(line)
    return steps


def _label(line: str) -> str:
    return line.split(":", 1)[0]


def _without_timing(data: dict) -> dict:
    return {key: value for key, value in data.items() if key not in TIMING_KEYS}


def same_line(expected: str, actual: str) -> bool:
    if expected.startswith("{"):
        try:
            return _without_timing(json.loads(expected)) == _without_timing(json.loads(actual))
        except json.JSONDecodeError:
            pass
    if TIMING.search(expected):
        return _label(expected) == _label(actual)
    return expected == actual


def test_the_readme_has_a_python_example_per_game():
    from gridsolver.games import GAMES

    text = "\n".join(examples())
    for game in GAMES:
        assert f"from gridsolver import {game}" in text, game


def test_the_readme_solves_a_board_of_every_game_on_the_command_line():
    from gridsolver.games import GAMES

    text = README.read_text(encoding="utf-8")
    run = [command for block in CONSOLE.findall(text) for command, _ in commands(block)]
    for game in GAMES:
        assert any(command.startswith(f"gridsolver {game} solve ") for command in run), game
    for name, _ in TITLED.findall(text):  # every board file shown is used
        assert any(name in command for command in run), name


def test_the_output_rules_tell_timing_from_the_rest():
    assert same_line("  search: 3,258 nodes in 0.003 s (1.21M nodes/s), peak memory 168 MB, replay verified",
                     "  search: 3,258 nodes in 0.009 s (362k nodes/s), peak memory 170 MB, 2.0 s compiling")
    assert same_line("  cpu s: 0.5695", "  cpu s: 0.61")
    assert not same_line("  solution: F LOOP{L}", "  solution: F LOOP{R}")
    assert not same_line("  tokens: 5", "  tokens: 6")
    assert same_line('{"status":"optimal","stats":{"elapsed_s":0.1}}', '{"status":"optimal","stats":{}}')
    assert not same_line('{"status":"optimal"}', '{"status":"best-found"}')


@pytest.mark.parametrize("code", examples(), ids=lambda code: code.split("\n")[0][:40])
def test_python_example_prints_what_the_readme_says(code, tmp_path):
    expected = PRINTS.findall(code)
    assert expected, "each example states what it prints ('# prints: ...')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == expected


@pytest.mark.parametrize("page, block", [pytest.param(page, block, id=f"{page.name}-{number}")
                                         for page, number, block in console_blocks()])
def test_console_example_prints_what_the_page_says(page, block, tmp_path):
    for name, text in TITLED.findall(page.read_text(encoding="utf-8")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "gridsolver"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m gridsolver "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    env = {key: value for key, value in os.environ.items() if key not in ("GRIDSOLVER_COLOUR", "FORCE_COLOR")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    for command, expected in commands(block):
        done = subprocess.run(command, shell=True, capture_output=True, text=True, cwd=tmp_path, env=env,
                              timeout=300)
        assert done.returncode == 0, f"{command}\n{done.stderr}"
        actual = done.stdout.splitlines()
        if expected and expected[-1] == MORE:
            expected = expected[:-1]
            actual = actual[:len(expected)]
        assert len(actual) == len(expected), \
            f"{command}: {len(actual)} lines, the page shows {len(expected)}:\n{done.stdout}"
        wrong = [(want, got) for want, got in zip(expected, actual, strict=True) if not same_line(want, got)]
        assert not wrong, f"{command}: lines differ (page, run):\n" + "\n".join(
            f"{want}\n{got}\n" for want, got in wrong)
