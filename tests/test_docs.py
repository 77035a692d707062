"""The documentation site builds with ``mkdocs build --strict``: no broken link, reference or page.

Needs the docs extra (``pip install -e '.[docs]'``); without it the test skips and says so,
unless ``GRIDSOLVER_REQUIRE_DOCS=1`` (as in CI) makes that a failure.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_readme import CONSOLE, MORE, TITLED, commands, same_line

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("bunny", "pegs", "clickomania", "samegame", "ratrace")


def _need_mkdocs() -> None:
    try:
        import mkdocs  # noqa: F401
        import mkdocs_click  # noqa: F401
        import mkdocstrings  # noqa: F401
    except ImportError as exc:
        if os.environ.get("GRIDSOLVER_REQUIRE_DOCS") == "1":
            raise
        pytest.skip(f"the docs extra is not installed (pip install -e '.[docs]'): {exc}")


def build_site(out: Path) -> Path:
    """Build the site into ``out`` with ``mkdocs build --strict`` (the docs extra is needed)."""
    _need_mkdocs()
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(ROOT / "src"))
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                           str(ROOT / "mkdocs.yml"), "--site-dir", str(out)],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return build_site(tmp_path_factory.mktemp("site"))


def _page(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


def test_the_site_builds_strict_with_its_pages(site):
    for path in ("", "getting-started", "contract", "contributing", "changelog", "reference/python",
                 "reference/json", "reference/events", "reference/exit-codes", "reference/cli", "benchmarks",
                 "research", "ratrace-champion", *GAMES, *(f"engines/{game}" for game in GAMES),
                 *(f"research/{game}" for game in GAMES)):
        assert (site / path / "index.html").is_file(), path


def test_the_benchmarks_page_is_benchmarks_md(site):
    page = _page(site, "benchmarks")
    assert '<h1 id="benchmarks">Benchmarks' in page
    for section in ("bunny", "pegs", "clickomania", "samegame", "ratrace_heldout"):
        assert f'id="{section}"' in page, section


def test_the_navigation_keeps_the_manual_and_the_research_notes_apart(site):
    home = _page(site, "")
    nav = home[home.index('class="md-nav md-nav--primary"'):]
    for label in ("Guides", "How it works", "Benchmarks", "Research notes", "Reference"):
        assert label in nav, label
    for game in ("Hopping Bunny", "Peg solitaire", "Clickomania", "SameGame", "The Genetic Rat Race"):
        assert nav.count(game) >= 2, game  # a guide, and a page of research notes


def test_the_home_page_is_the_readme(site):
    home = _page(site, "")
    assert '<span class="filename">cross.txt</span>' in home  # a board file, titled with its name
    assert "cross.txt: optimal, tokens 5" in home
    assert 'href="bunny/"' in home  # the README's docs/bunny.md, as a page of the site


def test_the_command_line_reference_lists_every_command_of_every_game(site):
    from gridsolver.games import cli_group

    for game in GAMES:
        page = _page(site, f"reference/cli/{game}")
        for command in cli_group(game).commands:
            assert f"gridsolver {game} {command}" in page, (game, command)
    assert "gridsolver warmup" in _page(site, "reference/cli")


def test_the_python_reference_shows_each_games_solve_with_its_options(site):
    page = _page(site, "reference/python")
    for game in GAMES:
        assert f'id="gridsolver.{game}.solve"' in page, game
    for option in ("finish", "objective", "penalty", "player", "turns"):
        assert f"<code>{option}</code>" in page, option
    assert "GAME.api_solve()" not in page
    assert ":class:" not in page and ":meth:" not in page


def test_the_reference_pages_hold_the_contracts_sections(site):
    assert "130" in _page(site, "reference/exit-codes")
    assert "score_name" in _page(site, "reference/json")
    for event in ("start", "improved", "bound", "end"):
        assert f"<code>{event}</code>" in _page(site, "reference/events"), event


# ---------------------------------------------------------------------------------------------
# The guides' examples run as written: every command of their ``console`` blocks, in a folder
# holding the board files the page shows (blocks titled with a file name), with the output the
# page says it prints. The rules are the README's (tests/test_readme.py): a line that depends on
# timing is compared by its label, a JSON line without its timing keys, a last line ``...``
# stands for the rest; here, in addition, decimal figures (seconds in a table's column) are
# compared by their place alone. Every command must exit 0; a command whose exit code is part of
# the example (an impossible board exits 1) is written ``CMD; echo "exit $?"``, so the code is a
# line of its output and is compared like the rest. ``sh`` blocks are not run: they hold command
# synopses and runs too long for a test (a whole standard set, a Dask cluster). Every ``python``
# block of these pages (and of the architecture and API reference pages) states what it prints
# (``# prints: ...``) and runs. No mkdocs needed: these run in the default test run.

#: the pages of the manual whose console blocks run here (the README and Getting started run in
#: tests/test_readme.py)
GUIDES = tuple(ROOT / "docs" / f"{name}.md" for name in GAMES) + (ROOT / "docs" / "ratrace-champion.md",)
DECIMAL = re.compile(r"\d+\.\d+")


def guide_blocks() -> list[tuple[Path, int, str]]:
    return [(page, number, block) for page in GUIDES if page.is_file()
            for number, block in enumerate(CONSOLE.findall(page.read_text(encoding="utf-8")), 1)]


def same_guide_line(expected: str, actual: str) -> bool:
    if same_line(expected, actual):
        return True
    mask = lambda line: " ".join(DECIMAL.sub("#", line).split())  # noqa: E731
    return mask(expected) == mask(actual)


def test_the_guide_lines_match_as_the_readme_s_do_with_seconds_masked():
    assert same_guide_line("07-full-12x12   144  7 optimal   0.104  LOOP{F}",
                           "07-full-12x12   144  7 optimal   0.2  LOOP{F}")
    assert not same_guide_line("07   144  7 optimal   0.104  LOOP{F}",
                               "07   144  8 optimal   0.104  LOOP{F}")
    assert not same_guide_line("ring.txt: optimal, tokens 4", "ring.txt: best-found, tokens 4")


def test_every_guide_runs_examples_of_its_game():
    for game in GAMES:
        page = ROOT / "docs" / f"{game}.md"
        run = [command for block in CONSOLE.findall(page.read_text(encoding="utf-8"))
               for command, _ in commands(block)]
        assert any(command.startswith(f"gridsolver {game} solve ") for command in run), game
        assert any(f"gridsolver {game} show " in command for command in run), game


@pytest.mark.parametrize("page, block", [pytest.param(page, block, id=f"{page.stem}-{number}")
                                         for page, number, block in guide_blocks()])
def test_guide_example_prints_what_the_page_says(page, block, tmp_path):
    for name, text in TITLED.findall(page.read_text(encoding="utf-8")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "gridsolver"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m gridsolver "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    env = {key: value for key, value in os.environ.items() if key not in ("GRIDSOLVER_COLOUR", "FORCE_COLOR")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
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
        wrong = [(want, got) for want, got in zip(expected, actual, strict=True)
                 if not same_guide_line(want, got)]
        assert not wrong, f"{command}: lines differ (page, run):\n" + "\n".join(
            f"{want}\n{got}\n" for want, got in wrong)


PYTHON = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)
PRINTS = re.compile(r"^# prints: (.*)$", re.MULTILINE)


#: the pages whose Python examples run here: the guides, the architecture and the API reference
PYTHON_PAGES = GUIDES + (ROOT / "docs" / "contract.md", ROOT / "docs" / "reference" / "python.md")


def guide_python() -> list[tuple[Path, int, str]]:
    return [(page, number, code) for page in PYTHON_PAGES if page.is_file()
            for number, code in enumerate(PYTHON.findall(page.read_text(encoding="utf-8")), 1)
            if PRINTS.search(code)]


def test_every_python_example_of_the_manual_says_what_it_prints():
    for page in PYTHON_PAGES:
        for code in PYTHON.findall(page.read_text(encoding="utf-8")):
            assert PRINTS.search(code), f"{page.name}: a Python example without '# prints: ...'"


@pytest.mark.parametrize("page, code", [pytest.param(page, code, id=f"{page.stem}-py{number}")
                                        for page, number, code in guide_python()])
def test_guide_python_example_prints_what_the_page_says(page, code, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == PRINTS.findall(code)
