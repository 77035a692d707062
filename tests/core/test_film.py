"""Films as data: the changed-run encoding, JSON round trips, frame choice, pictures and terminal frames."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver.core.errors import InputError
from gridsolver.core.film import (
    Film,
    Frame,
    apply_delta,
    grid_delta,
    parse_frame_range,
    svg,
    terminal_frames,
    terminal_legend,
)

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
    marked = Film.from_json({**film.to_json(), "mark_legend": {"dot": "rats"}})
    assert marked.mark_legend == {"dot": "rats"} and back.mark_legend == {}


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


@pytest.mark.parametrize(("text", "frames"), [("1:2", (1, 2)), (":2", (0, 2)), ("2:", (2, 3)), (":", (0, 3)),
                                              ("3", (3, 3)), (" 0:9 ", (0, 3)), ("0:0", (0, 0))])
def test_a_frame_range_takes_either_end_and_stops_at_the_last_frame(text, frames):
    assert small_film(3).frame_range(text) == frames


@pytest.mark.parametrize(("text", "message"), [
    ("4:", "--frames '4:': this replay has frames 0-3"),
    ("7", "--frames '7': this replay has frames 0-3"),
    ("3:1", "--frames '3:1': from 3 to 1 is empty"),
    ("-1:", "--frames '-1:': expected FROM:TO"),
    ("a:b", "--frames 'a:b': expected FROM:TO"),
    ("1:2:3", "--frames '1:2:3': expected FROM:TO"),
    ("", "--frames '': expected FROM:TO"),
    ("9" * 5000 + ":", "--frames '999"),  # never int() of 5,000 digits, nor a message of them
])
def test_a_bad_frame_range_names_the_value(text, message):
    with pytest.raises(InputError) as caught:
        small_film(3).frame_range(text)
    assert str(caught.value).startswith(message) and len(str(caught.value)) < 200


def test_the_syntax_of_a_range_is_checked_without_a_film():
    assert parse_frame_range("5:") == (5, None) and parse_frame_range("2") == (2, 2)
    with pytest.raises(InputError, match="from 9 to 2 is empty"):
        parse_frame_range("9:2")


def test_terminal_frames_of_a_range_are_those_frames_only():
    texts = list(terminal_frames(small_film(5), colour=False, first=2, last=3))
    assert [text.splitlines()[0] for text in texts] == ["step 2", "step 3"]
    assert texts[0].endswith("\n") and not texts[-1].endswith("\n")  # a blank line between, none after


def test_wide_films_print_their_cells_side_by_side_to_stay_in_80_columns():
    def row_of(cols):
        film = Film("t", "t", 1, cols, {"a": "#ff0000"}, {}, [Frame("a" * cols, "x")])
        return next(terminal_frames(film, colour=False)).splitlines()[-1]

    assert row_of(40) == " ".join("a" * 40) and row_of(53) == "a" * 53


def test_the_legend_names_each_cell_and_mark_as_the_frames_draw_them():
    film = Film("t", "t", 1, 3, {"S": "#a6d96a", ".": "#ffffff", " ": ""}, {"S": "start", ".": "empty"},
                [Frame("S. ", "x", marks=[(1, "dot", 3.0)])], mark_legend={"dot": "rats on the cell"})
    assert terminal_legend(film, colour=False) == "legend:\n  S  start\n  .  empty\n  *  rats on the cell\n"
    assert "[bold #a6d96a]S[/]" in terminal_legend(film, colour=True)
    assert next(terminal_frames(film, colour=False)).splitlines()[-1] == "S *"
