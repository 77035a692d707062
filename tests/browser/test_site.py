"""The built documentation site in a real headless Chromium: a smoke check.

The site is built with ``mkdocs build --strict`` (the docs extra), served from a local HTTP
server, and its home page and one game guide are opened in Debian's chromium: no console
error, the navigation lists every game's guide, and a screenshot of each page is saved in the
test's folder: its path is printed (``pytest -rA`` or a failure's output shows it) and recorded
as the test's ``screenshot`` property in a JUnit XML report (``--junitxml``).
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.test_docs import build_site

pytestmark = pytest.mark.browser

#: the guides' titles as the navigation shows them
GUIDES = ("Hopping Bunny", "Peg solitaire", "Clickomania", "SameGame", "The Genetic Rat Race")


@pytest.fixture(scope="module")
def served_site(tmp_path_factory) -> Iterator[str]:
    root = build_site(tmp_path_factory.mktemp("site"))
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the stdlib's name)
        pass


def _visit(browser: Any, url: str, shot: Path) -> tuple[list[str], list[str], list[str], str]:
    """Open ``url``: its console errors, the navigation's entries, failed requests and title."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    failed: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("requestfailed", lambda request: failed.append(request.url))
    response = page.goto(url, wait_until="networkidle")
    assert response is not None and response.ok, url
    entries = page.eval_on_selector_all(".md-nav--primary .md-nav__link",
                                        "links => links.map(a => a.textContent.trim())")
    title = page.title()
    page.screenshot(path=str(shot), full_page=False)
    context.close()
    return errors, entries, failed, title


@pytest.mark.parametrize("path, title", [("", "gridsolver"), ("samegame/", "SameGame")])
def test_a_page_of_the_site_opens_without_errors_and_lists_every_game(browser, served_site, path, title,
                                                                       tmp_path, record_property):
    shot = tmp_path / f"site-{path.strip('/') or 'home'}.png"
    errors, links, failed, page_title = _visit(browser, served_site + path, shot)
    print(f"screenshot: {shot}")
    record_property("screenshot", str(shot))  # in the JUnit XML report, beside the test
    assert page_title.startswith(title), page_title
    assert not errors, errors
    assert not failed, failed
    for guide in GUIDES:
        assert guide in links, (guide, links)
    for section in ("Guides", "How it works", "Reference", "Benchmarks", "Research notes"):
        assert section in links, (section, links)
    assert shot.stat().st_size > 10_000
