"""One self-contained HTML page that plays a :class:`~gridsolver.core.film.Film` step by step.

The page (``page.html`` beside this module) holds its CSS, its JavaScript and
the film's JSON inline: no network, no CDN, it opens from disk offline. The
script only draws what the film says; the rules stay in Python.
"""

from __future__ import annotations

import html
import json
from importlib import resources

from gridsolver.core.film import Film

#: The largest page ``show`` writes; past it, the game's film must sample its steps.
MAX_PAGE_BYTES = 5 * 1024 * 1024


def page_html(film: Film) -> str:
    """The page for ``film``: every frame, the controls, the legend, the plots."""
    template = resources.files("gridsolver.core").joinpath("page.html").read_text(encoding="utf-8")
    data = json.dumps(film.to_json(), separators=(",", ":"), ensure_ascii=False)
    # inside <script>, "</" or "<!--" could end the element early; "\u003c" is "<" to JSON
    data = data.replace("<", "\\u003c")
    return template.replace("__TITLE__", html.escape(film.title)).replace("__FILM__", data)
