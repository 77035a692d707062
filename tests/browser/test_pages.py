"""Every game's `show` page in a real headless Chromium: each frame shows what the Python film says.

The film itself is checked against each game's rules in tests/GAME/test_film.py,
so page == film == rules, step by step.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from gridsolver.core.film import Film, Frame, counter_text
from gridsolver.games import GAMES, game

pytestmark = pytest.mark.browser

# (board, solve options, solve time) per game: small enough to step through every frame.
SAMPLES: dict[str, tuple[str, dict[str, Any], float]] = {
    "bunny": ("challenge/04", {}, 5.0),
    "pegs": ("english", {}, 5.0),
    "clickomania": ("duel-5x5", {}, 2.0),
    "samegame": ("standard-20", {}, 2.0),
    "ratrace": ("seed/1", {"player": "forward", "turns": 200}, 10.0),
}


def expected_state(film: Film, k: int) -> dict[str, Any]:
    frame: Frame = film.frames[k]
    return {
        "frame": k,
        "grid": frame.grid,
        "text": frame.text,
        "counters": {name: counter_text(v) for name, v in frame.counters.items()},
        "highlight": [[i, kind] for i, kind in frame.highlight],
        "marks": [[i, shape, float(v)] for i, shape, v in frame.marks],
        "token": frame.panel_index if 0 <= frame.panel_index < len(film.panel) else -1,
        "slider": k,
    }


def solved_page(name: str, tmp_path: Any) -> tuple[Film, str]:
    """Solve the sample, write `solve --json`, make the page with the CLI; return (Python film, page)."""
    g = game(name)
    source, options, seconds = SAMPLES[name]
    board = g.load(source)[0]
    result = g.solve(board, time=seconds, seed=1, workers=1, **options)
    results = tmp_path / "s.json"
    results.write_text(result.to_json() + "\n")
    page = tmp_path / f"{name}.html"
    done = subprocess.run([sys.executable, "-m", "gridsolver", name, "show", str(results), "-o", str(page)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    record = json.loads(results.read_text())
    film = g.film(board, record["solution"], g.check_options(board, record["options"]))
    return film, str(page)


def test_every_game_has_a_sample():
    assert set(SAMPLES) == set(GAMES)


# Cold, each game compiles its kernels in a subprocess (23-43 s): one game by default, all when slow.
FRAME_GAMES = [g if g == "clickomania" else pytest.param(g, marks=pytest.mark.slow) for g in GAMES]


@pytest.mark.parametrize("name", FRAME_GAMES)
def test_page_steps_through_every_frame_as_the_film_says(name, tmp_path, open_page):
    film, path = solved_page(name, tmp_path)
    page = open_page(path)
    assert page.state() == expected_state(film, 0)
    for k in range(1, film.steps + 1):
        page.page.keyboard.press("ArrowRight")
        assert page.state() == expected_state(film, k), f"frame {k}"
    page.page.keyboard.press("ArrowRight")  # past the end: stays on the last frame
    assert page.state()["frame"] == film.steps
    page.page.keyboard.press("Home")
    assert page.state() == expected_state(film, 0)
    page.page.keyboard.press("End")
    assert page.state() == expected_state(film, film.steps)
    page.page.keyboard.press("ArrowLeft")
    assert page.state()["frame"] == max(0, film.steps - 1)
    shot = page.page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)
    assert shot[:8] == b"\x89PNG\r\n\x1a\n" and len(shot) > 2000
    assert page.errors == []
    assert all(url.startswith("file://") for url in page.requests), page.requests  # nothing from a network


def test_controls_play_pause_slider_and_title(tmp_path, open_page):
    film, path = solved_page("pegs", tmp_path)
    page = open_page(path)
    assert page.page.title().startswith(film.title + " (")  # show adds the input label
    page.page.select_option("#speed", "100")
    page.page.click("#play")
    page.page.wait_for_selector("body[data-playing='false']", timeout=20_000)
    assert page.state() == expected_state(film, film.steps)  # played to the end, then stopped
    page.page.evaluate("""() => { const s = document.getElementById('slider');
                                  s.value = 7; s.dispatchEvent(new Event('input')); }""")
    assert page.state() == expected_state(film, 7)
    # At 100 steps/s the film can reach its end (and stop itself) between the two space
    # presses below, so the second would start it again; 1 step/s keeps it playing.
    # (Chosen here, before the clicks, because keys are ignored while the select has focus.)
    page.page.select_option("#speed", "1")
    page.page.click("#back")
    assert page.state()["frame"] == 6
    page.page.click("#forward")
    page.page.click("#forward")
    assert page.state()["frame"] == 8
    page.page.keyboard.press(" ")  # space plays from the current frame ...
    assert page.page.evaluate("document.body.dataset.playing") == "true"
    page.page.keyboard.press(" ")  # ... and pauses
    assert page.page.evaluate("document.body.dataset.playing") == "false"
    legend = page.page.inner_text("#legend")
    assert all(word in legend for word in film.legend.values())
    assert page.errors == []


def test_svg_picture_draws_the_same_cells_as_the_page(tmp_path, open_page):
    """`--svg` and the page are two drawings of one film: the same fills cell by cell."""
    film, path = solved_page("pegs", tmp_path)
    picture = tmp_path / "end.svg"
    command = ["pegs", "show", str(tmp_path / "s.json"), "--svg", str(picture), "--frame", "5"]
    done = subprocess.run([sys.executable, "-m", "gridsolver", *command], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    page = open_page(path)
    page.page.evaluate("""() => { const s = document.getElementById('slider');
                                  s.value = 5; s.dispatchEvent(new Event('input')); }""")
    on_page = page.page.evaluate(
        "() => Array.from(document.querySelectorAll('#grid > rect'))"
        ".filter(r => r.getAttribute('visibility') === 'visible').map(r => r.getAttribute('fill'))")
    svg_page = open_page(str(picture), player=False)
    in_svg = svg_page.page.evaluate("() => Array.from(document.querySelectorAll('svg > rect'))"
                                    ".filter(r => r.getAttribute('stroke') === '#ffffff')"
                                    ".map(r => r.getAttribute('fill'))")
    holes = sum(1 for ch in film.frames[5].grid if film.palette[ch])
    assert on_page == in_svg and len(in_svg) == holes
