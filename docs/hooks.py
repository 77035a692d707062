"""MkDocs hooks for the gridsolver site (mkdocs.yml: ``hooks``).

- Pages made from a file at the repository's root (README.md, CONTRIBUTING.md,
  CHANGELOG.md, BENCHMARKS.md): the page in ``docs/`` holds one line, ``<!-- from: NAME -->``,
  and the hook puts the file's text in its place, with its links rewritten for
  the site (``docs/x.md`` becomes ``x.md``, a root file becomes its page).
- Sections of another page: a line ``<!-- section: PAGE.md: HEADING -->`` is
  replaced by that page's section whose heading starts with HEADING, with its
  subsections, its headings moved to the level the line asks for
  (``<!-- section: contract.md: Exit codes -->`` keeps them as they are; add
  ``@2`` after the heading to make the section's own heading level 2).
  A missing page or heading stops the build.
- Docstrings written with Sphinx roles (``:class:`~a.b.C```) are shown as
  code (``C``), as Sphinx would.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: the files at the root that are pages of the site, and their pages
ROOT_PAGES = {"README.md": "index.md", "CONTRIBUTING.md": "contributing.md", "CHANGELOG.md": "changelog.md",
              "BENCHMARKS.md": "benchmarks.md"}

FROM = re.compile(r"^<!-- from: (\S+) -->\s*$", re.MULTILINE)
SECTION = re.compile(r"^<!-- section: (\S+?): (.+?)(?: @(\d))? -->\s*$", re.MULTILINE)
LINK = re.compile(r"(\]\()([^)\s#]+)([^)]*\))")
HEADING = re.compile(r"^(#{1,6}) (.*)$")
FENCE = re.compile(r"^(```|~~~)")
ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj):<code>(~?)([\w.]+)</code>")


class DocsError(Exception):
    """A page asks for a file or a section that does not exist."""


def _root_link(target: str, page: str) -> str:
    """A link written relative to the repository's root, as seen from ``page`` (relative to docs/)."""
    if "://" in target or target.startswith(("mailto:", "/")):
        return target
    if target in ROOT_PAGES:
        path = ROOT_PAGES[target]
    elif target.startswith("docs/"):
        path = target.removeprefix("docs/")
    else:
        return target  # left as written: the build reports it if it points nowhere
    depth = page.count("/")
    return "../" * depth + path


def _from_root(markdown: str, page: str) -> str:
    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in ROOT_PAGES:
            raise DocsError(f"{page}: <!-- from: {name} -->: not one of {', '.join(ROOT_PAGES)}")
        text = (ROOT / name).read_text(encoding="utf-8")
        return LINK.sub(lambda m: m.group(1) + _root_link(m.group(2), page) + m.group(3), text)

    return FROM.sub(replace, markdown)


def section(text: str, heading: str) -> tuple[int, list[str]]:
    """The lines of the section of ``text`` whose heading starts with ``heading``, and its level."""
    lines = text.splitlines()
    start, level, fenced = None, 0, False
    for number, line in enumerate(lines):
        if FENCE.match(line):
            fenced = not fenced
        found = None if fenced else HEADING.match(line)
        if found is None:
            continue
        if start is None:
            if found.group(2).strip().startswith(heading):
                start, level = number, len(found.group(1))
        elif len(found.group(1)) <= level:
            return level, lines[start:number]
    if start is None:
        raise KeyError(heading)
    return level, lines[start:]


def _sections(markdown: str, page: str) -> str:
    def replace(match: re.Match[str]) -> str:
        name, heading, wanted = match.group(1), match.group(2), match.group(3)
        path = DOCS / name
        if not path.is_file():
            raise DocsError(f"{page}: <!-- section: {name}: ... -->: no page docs/{name}")
        try:
            level, lines = section(path.read_text(encoding="utf-8"), heading)
        except KeyError:
            raise DocsError(f"{page}: docs/{name} has no section headed {heading!r}") from None
        shift = 0 if wanted is None else int(wanted) - level
        out, fenced = [], False
        for line in lines:
            if FENCE.match(line):
                fenced = not fenced
            found = None if fenced else HEADING.match(line)
            if found is not None and shift:
                line = "#" * max(1, min(6, len(found.group(1)) + shift)) + " " + found.group(2)
            out.append(line)
        return "\n".join(out) + "\n"

    return SECTION.sub(replace, markdown)


def on_page_markdown(markdown: str, page, config, files) -> str:  # noqa: ANN001 (mkdocs' objects)
    where = page.file.src_uri
    return _sections(_from_root(markdown, where), where)


def on_page_content(html: str, page, config, files) -> str:  # noqa: ANN001
    return ROLE.sub(lambda m: "<code>" + (m.group(2).rsplit(".", 1)[-1] if m.group(1) else m.group(2))
                    + "</code>", html)
