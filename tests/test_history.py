"""The code and the manual say what is, not when it was made: no issue or session numbers,
and no paths outside the repository, in ``src/``, the README, CONTRIBUTING.md, or any page of
the site's guide, how-it-works and reference: every page in ``docs/`` but the dated research
notes (``docs/research/``) and the changelog.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: the text files of the package (numba's cache beside it is not source)
SOURCE_SUFFIXES = {".py", ".html", ".md", ".txt", ".json", ".toml", ".cfg"}
#: the files held to this beside ``src/``: the home page is the README
PAGES = ("README.md", "CONTRIBUTING.md")
#: the pages of the site left out: dated on purpose
DATED = ("docs/research", "docs/changelog.md")

HISTORY = re.compile(
    r"\b(?:issue|session)s? #?\d+"           # issue 15, Session 7, issues 3
    r"|(?<![\w.~-])/(?:work|home|root|Users|mnt|srv)/\S*"  # a path on some machine
    r"|(?<![\w/])\.\./shared\b",             # the workplace's files beside the repository
    re.IGNORECASE)


def _files() -> list[Path]:
    found = [path for path in sorted((ROOT / "src").rglob("*"))
             if path.is_file() and path.suffix in SOURCE_SUFFIXES and "__pycache__" not in path.parts]
    found += [ROOT / page for page in PAGES]
    return found + manual_pages()


def manual_pages() -> list[Path]:
    """Every page of the site's manual: the Markdown files in docs/, but the dated ones."""
    dated = [ROOT / path for path in DATED]
    return [path for path in sorted((ROOT / "docs").rglob("*.md"))
            if not any(path == skip or skip in path.parents for skip in dated)]


def findings(text: str) -> list[str]:
    return [match.group(0) for match in HISTORY.finditer(text)]


def test_the_pattern_finds_history_and_leaves_the_rest():
    assert findings("see issue 15 and Session 7; issues 3") == ["issue 15", "Session 7", "issues 3"]
    assert findings("Rules: ../shared/specs/bunny.md, or /work/shared/specs") == [
        "../shared", "/work/shared/specs"]
    assert findings("/home/me/x.py") == ["/home/me/x.py"]
    assert findings("a session of its own; an issue with the board; /proc/self/status; "
                    "docs/contract.md; ../exit-codes.md; /sys/fs/cgroup") == []


def test_no_history_in_the_code_and_the_manual():
    found = []
    for path in _files():
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        found += [f"{path.relative_to(ROOT)}, line {number}: {hit}"
                  for number, line in enumerate(lines, 1) for hit in findings(line)]
    assert not found, "say what is, not when or where it was made:\n" + "\n".join(found)


def test_the_pages_checked_are_there():
    assert len(_files()) > 100
    for page in PAGES + DATED:
        assert (ROOT / page).exists(), page
    checked = {path.relative_to(ROOT / "docs").as_posix() for path in manual_pages()}
    for page in ("index.md", "getting-started.md", "watching.md", "gallery.md", "limits.md", "contract.md",
                 "bunny.md", "pegs.md", "clickomania.md", "samegame.md", "ratrace.md", "ratrace-champion.md",
                 "engines/bunny.md", "engines/pegs.md", "engines/clickomania.md", "engines/samegame.md",
                 "engines/ratrace.md", "benchmarks.md", "reference/python.md", "reference/cli/bunny.md"):
        assert page in checked, page
    assert not any(page.startswith("research/") or page == "changelog.md" for page in checked)


def test_the_site_s_pages_are_all_checked_but_the_dated_ones():
    """A page added to the site's nav is held to this unless it lives under docs/research/."""
    yaml = pytest.importorskip("yaml")

    def pages(items):
        for item in items:
            if isinstance(item, str):
                yield item
            elif isinstance(item, dict):
                for value in item.values():
                    yield from pages(value) if isinstance(value, list) else [value]

    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = yaml.safe_load(text[text.index("\nnav:") + 1:])["nav"]
    checked = {path.relative_to(ROOT / "docs").as_posix() for path in manual_pages()}
    for page in pages(nav):
        assert page in checked or page.startswith("research/") or page == "changelog.md", page
