"""The documentation site builds with ``mkdocs build --strict``: no broken link, reference or page.

Needs the docs extra (``pip install -e '.[docs]'``); without it the test skips and says so,
unless ``GRIDSOLVER_REQUIRE_DOCS=1`` (as in CI) makes that a failure.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    _need_mkdocs()
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(ROOT / "src"))
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                           str(ROOT / "mkdocs.yml"), "--site-dir", str(out)],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def _page(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


def test_the_site_builds_strict_with_its_pages(site):
    for path in ("", "getting-started", "contract", "contributing", "changelog", "reference/python",
                 "reference/json", "reference/events", "reference/exit-codes", "reference/cli"):
        assert (site / path / "index.html").is_file(), path


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
