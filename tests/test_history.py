"""The code and the manual say what is, not when it was made: no issue or session numbers,
and no paths outside the repository, in ``src/``, the README, CONTRIBUTING.md, or the guide
and reference pages of the site (the dated research notes and the changelog are apart).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the text files of the package (numba's cache beside it is not source)
SOURCE_SUFFIXES = {".py", ".html", ".md", ".txt", ".json", ".toml", ".cfg"}
#: the pages of the manual held to this: the home page is the README
PAGES = ("README.md", "CONTRIBUTING.md", "docs/getting-started.md", "docs/index.md", "docs/reference")

HISTORY = re.compile(
    r"\b(?:issue|session)s? #?\d+"           # issue 15, Session 7, issues 3
    r"|(?<![\w.~-])/(?:work|home|root|Users|mnt|srv)/\S*"  # a path on some machine
    r"|(?<![\w/])\.\./shared\b",             # the workplace's files beside the repository
    re.IGNORECASE)


def _files() -> list[Path]:
    found = [path for path in sorted((ROOT / "src").rglob("*"))
             if path.is_file() and path.suffix in SOURCE_SUFFIXES and "__pycache__" not in path.parts]
    for page in PAGES:
        path = ROOT / page
        found += sorted(path.rglob("*.md")) if path.is_dir() else [path]
    return found


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
    for page in PAGES:
        assert (ROOT / page).exists(), page
