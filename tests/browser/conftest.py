"""A real headless Chromium (Debian's ``chromium`` package) driven by Playwright.

No browser is ever downloaded: Playwright launches the system chromium at
``CHROMIUM`` (or $GRIDSOLVER_CHROMIUM). Where it or the playwright package is
missing the browser tests skip with a message saying how to get them, unless
$GRIDSOLVER_REQUIRE_BROWSER is set (CI sets it): then they fail.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = os.environ.get("GRIDSOLVER_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# The machine has no network: without these, chromium keeps trying to reach Google's hosts.
FLAGS = ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    if not os.path.exists(CHROMIUM):
        return f"no chromium at {CHROMIUM} (apt-get install chromium, or set GRIDSOLVER_CHROMIUM)"
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    missing = _missing()
    if missing:
        if os.environ.get("GRIDSOLVER_REQUIRE_BROWSER"):
            pytest.fail(f"browser tests required but {missing}")
        pytest.skip(f"browser tests skipped: {missing}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield chromium
        chromium.close()


class Page:
    """One opened page, with what it logged and what it asked the network for."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        self.requests: list[str] = []
        page.on("console", lambda msg: self.errors.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on("request", lambda request: self.requests.append(request.url))

    def state(self) -> dict[str, Any]:
        """What the page shows now, read from the DOM."""
        return self.page.evaluate("""() => ({
            frame: Number(document.body.dataset.frame),
            grid: Array.from(document.querySelectorAll('#grid > rect')).map(r => r.dataset.cell).join(''),
            text: document.getElementById('step-text').textContent,
            counters: Object.fromEntries(Array.from(document.querySelectorAll('#counters [data-counter]'))
                .map(s => [s.dataset.counter, s.querySelector('b').textContent])),
            highlight: Array.from(document.querySelectorAll('#overlay .highlight'))
                .map(h => [Number(h.dataset.index), h.dataset.kind]),
            marks: Array.from(document.querySelectorAll('#overlay .mark'))
                .map(m => [Number(m.dataset.index), m.dataset.shape, Number(m.dataset.value)]),
            token: Array.from(document.querySelectorAll('#panel .token'))
                .findIndex(t => t.classList.contains('active')),
            slider: Number(document.getElementById('slider').value),
        })""")


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    pages: list[Page] = []

    def open_(path: str, player: bool = True) -> Page:
        """Open a file; a `show` page (``player``) is waited for until its script has drawn frame 0."""
        page = Page(context.new_page())
        page.page.goto(f"file://{os.path.abspath(path)}")
        if player:
            page.page.wait_for_selector("body[data-ready='true']")
        pages.append(page)
        return page

    yield open_
    context.close()
