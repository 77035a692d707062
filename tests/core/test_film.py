"""Films as data: the changed-run encoding, JSON round trips, frame choice, pictures and terminal frames."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver.core.errors import InputError
from gridsolver.core.film import Film, Frame, apply_delta, grid_delta, svg, terminal_frames

grids = st.integers(1, 60).flatmap(lambda n: st.lists(st.text("ab. ", min_size=n, max_size=n), min_size=1,
                                                       max_size=8))


@settings(max_examples=200, deadline=None)
@given(grids)
def test_runs_rebuild_every_grid(sequence):
    before = ""
    for grid in sequence:
        runs = grid_delta(before, grid)
        assert apply_delta(before, runs) == grid
        if before and len(before) == len(grid):  # runs cover only what changed (plus short gaps)
            assert sum(len(chars) for _, chars in runs) <= len(grid)
            if before == grid:
                assert runs == []
        before = grid


def small_film(steps=3):
    frames = [Frame("ab." * 2, "start", {"score": 0}),
              *[Frame("a" * k + "." * (6 - k), f"step {k}", {"score": k * 1000, "share": 0.25},
                      [(k - 1, "move")], [(k, "bunny", 90.0)], k % 2) for k in range(1, steps + 1)]]
    return Film("test", "a test film", 2, 3, {"a": "#ff0000", "b": "#00ff00", ".": ""},
                {"a": "red", "b": "green"}, frames, panel=["F", "L"], plots={"score": [0.0] * (steps + 1)})


def test_json_round_trip_keeps_every_frame():
    film = small_film()
    back = Film.from_json(film.to_json())
    assert [f.grid for f in back.frames] == [f.grid for f in film.frames]
    assert back.frames == film.frames and back.plots == film.plots and back.panel == film.panel


def test_a_film_refuses_grids_of_the_wrong_size_or_unknown_cells():
    with pytest.raises(ValueError, match="frame 0: grid of 5 cells, expected 6"):
        Film("t", "t", 2, 3, {"a": "#000"}, {}, [Frame("aaaaa", "x")])
    with pytest.raises(ValueError, match=r"frame 0: cell characters \['z'\] have no colour"):
        Film("t", "t", 2, 3, {"a": "#000"}, {}, [Frame("aaaaaz", "x")])
    with pytest.raises(ValueError, match="plot 'p': 1 values for 2 frames"):
        Film("t", "t", 1, 1, {"a": "#000"}, {}, [Frame("a", "x"), Frame("a", "y")], plots={"p": [1]})


def test_frame_names_and_their_range():
    film = small_film(3)
    assert (film.frame("start"), film.frame("end"), film.frame("2")) == (0, 3, 2)
    with pytest.raises(InputError, match="this replay has steps 0-3"):
        film.frame("4")
    with pytest.raises(InputError, match="expected start, end or a step number"):
        film.frame("middle")


def test_svg_draws_board_cells_highlights_and_marks():
    picture = svg(small_film(), 2)
    assert picture.startswith("<svg") and picture.rstrip().endswith("</svg>")
    assert picture.count('fill="#ff0000"') == 2  # "aa...." : two red cells, the dots are off the board
    assert 'stroke="#111111"' in picture  # the move outline
    assert "rotate(90)" in picture  # the bunny faces south


def test_terminal_frames_plain_and_coloured():
    plain = list(terminal_frames(small_film(), colour=False))
    assert len(plain) == 4 and plain[0].startswith("start")
    assert "score 2,000" in plain[2] and ">L<" in plain[1]
    coloured = list(terminal_frames(small_film(), colour=True))
    assert "[reverse]L[/]" in coloured[1] and "[bold #ff0000]a[/]" in coloured[2]  # active token, plain cell
    assert "[reverse #ff0000]a[/]" in coloured[2] and "@" in coloured[2]  # the highlighted cell, the bunny
