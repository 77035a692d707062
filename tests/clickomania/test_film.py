"""`clickomania show`: every frame is the board the rules give, the next group outlined; the CLI views."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver.clickomania import generate, rules
from gridsolver.clickomania.game import GAME
from gridsolver.core.errors import InputError
from gridsolver.core.film import Film
from gridsolver.core.page import MAX_PAGE_BYTES, page_html

from .helpers import boards, run

DUEL = "200002\n210001\n110022\n001121\n111102"


def cells_of(board: rules.Board) -> str:
    """The board row by row, top row first, written here from the grid (not with format_board)."""
    return "".join("." if v < 0 else "0123456789abcdefghijklmnopqrstuvwxyz"[v]
                   for row in board.grid.tolist() for v in row)


def random_game(board: rules.Board, rnd: random.Random) -> list[tuple[int, int]]:
    """Random legal clicks until no group is left, each on a random cell of its group."""
    moves = []
    while legal := rules.legal_moves(board):
        group = rules.group_at(board, rnd.choice(legal))
        move = rnd.choice(group)
        moves.append(move)
        board = GAME.apply(board, move)
    return moves


def check_film(film: Film, board: rules.Board, moves: list[tuple[int, int]]) -> None:
    """Each frame against the board the game's apply gives, and the next click's group highlighted."""
    assert film.steps == len(moves) and (film.rows, film.cols) == (board.height, board.width)
    for k, frame in enumerate(film.frames):
        assert frame.grid == cells_of(board), f"frame {k}"
        assert frame.counters["cells left"] == sum(ch != "." for ch in frame.grid)
        assert frame.counters["removable groups"] == len(rules.legal_moves(board))
        assert frame.counters["clicks"] == k
        if k < len(moves):
            row, col = moves[k]
            group = rules.group_at(board, (row, col))
            assert sorted(frame.highlight) == sorted((r * board.width + c, "move") for r, c in group)
            assert f"next: click ({row},{col})" in frame.text
            board = GAME.apply(board, moves[k])
        else:
            assert frame.highlight == []
        assert set(frame.grid) <= set(film.palette)


@settings(max_examples=60, deadline=None)
@given(boards(), st.randoms(use_true_random=False))
def test_every_frame_is_the_board_the_rules_give(board, rnd):
    moves = random_game(board, rnd)
    check_film(GAME.film(board, [list(m) for m in moves], {}), board, moves)


def test_texts_name_the_clicks_as_solve_prints_them():
    board = rules.from_text(DUEL)
    film = GAME.film(board, "4,0 2,0 3,0 3,4 3,5 4,5 4,0", {})
    check_film(film, board, [(4, 0), (2, 0), (3, 0), (3, 4), (3, 5), (4, 5), (4, 0)])
    assert film.frames[0].text == "step 0 of 7: start, 30 cells, 6 removable groups; next: click (4,0)"
    assert film.frames[1].text == ("step 1 of 7: click (4,0): group of 6 removed, 24 cells left; "
                                   "next: click (2,0)")
    assert film.frames[7].text == "step 7 of 7: click (4,0): group of 12 removed, 0 cells left; board cleared"
    assert film.title == "Clickomania 6x5, 3 colours: 7 clicks, cleared"
    # three colours, three distinct colours and a lighter one for empty cells, each in the legend
    assert film.legend == {"0": "colour 0", "1": "colour 1", "2": "colour 2", ".": "empty"}
    assert len(set(film.palette.values())) == 4 and all(film.palette.values())
    assert film.plots["cells left"][0] == 30 and film.plots["cells left"][-1] == 0


def test_a_game_that_stops_with_groups_left_says_so():
    film = GAME.film(rules.from_text("1123\n2231"), [[0, 0]], {})
    assert film.frames[-1].text.endswith("6 cells left; 1 removable group still on the board")
    assert film.title == "Clickomania 4x2, 3 colours: 1 click, 6 cells left"
    film = GAME.film(rules.from_text("112\n231"), [[0, 0]], {})
    assert film.frames[-1].text.endswith("4 cells left; no group left")


def test_film_json_round_trip():
    board = rules.from_text(DUEL)
    film = GAME.film(board, [[4, 0], [2, 0], [3, 0]], {})
    back = Film.from_json(json.loads(json.dumps(film.to_json())))
    assert back.frames == film.frames
    assert (back.palette, back.legend, back.plots, back.title) == (film.palette, film.legend, film.plots,
                                                                  film.title)


@pytest.mark.parametrize("moves, message", [
    ([[4, 0], [0, 0]], "click 2 (0,0): the cell is empty"),
    ([[4, 0], [9, 1]], "click 2 (9,1): outside the 5x6 board"),
    ([[3, 5]], "click 1 (3,5): a single cell cannot be removed"),
    ([[4, 0], [1]], "move 2 [1]: expected [row, column]"),
])
def test_an_illegal_click_is_refused_by_number(moves, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        GAME.film(rules.from_text(DUEL), moves, {})


def test_no_solution_is_a_clear_error():
    with pytest.raises(InputError, match="give the clicks to replay"):
        GAME.film(rules.from_text(DUEL), None, {})


def test_a_64x64_game_fits_in_a_page():
    made = generate.clearable_board(64, 64, 20, seed=5)  # about 1,400 clicks of small groups
    film = GAME.film(made.board, [list(m) for m in made.solution], {})
    assert film.steps == len(made.solution) > 1000 and film.frames[-1].counters["cells left"] == 0
    size = len(page_html(film).encode("utf-8"))
    assert size < MAX_PAGE_BYTES // 4, size


# -- the command line ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    """A real `clickomania solve --json` result file."""
    path = tmp_path_factory.mktemp("show") / "s.json"
    done = run("clickomania", "solve", "-", "--json", "--time", "2", stdin=DUEL + "\n")
    assert done.returncode == 0, done.stderr
    path.write_text(done.stdout)
    return path


def test_show_writes_the_page_svg_and_steps(solved, tmp_path):
    record = json.loads(solved.read_text())
    page, picture = tmp_path / "replay.html", tmp_path / "end.svg"
    done = run("clickomania", "show", str(solved), "-o", str(page), "--svg", str(picture), "--frame", "2")
    assert done.returncode == 0, done.stderr
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and "step 0 of " in text
    assert "<svg" in picture.read_text() and "step 2 of " in picture.read_text()
    done = run("clickomania", "show", str(solved), "--steps")
    assert done.returncode == 0, done.stderr
    steps = len(record["solution"])
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"step 0 of {steps}: start, 30 cells") and "\x1b[" not in done.stdout
    first = record["solution"][0]
    assert lines[1].startswith("clicks 0  cells left 30  removable groups")
    assert f"step 1 of {steps}: click ({first[0]},{first[1]}): group of" in done.stdout
    assert f"step {steps} of {steps}: " in done.stdout and "board cleared" in done.stdout


def test_show_refuses_an_illegal_click_without_writing(tmp_path):
    board, page = tmp_path / "b.txt", tmp_path / "p.html"
    board.write_text(DUEL + "\n")
    done = run("clickomania", "show", str(board), "4,0 0,0", "-o", str(page))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert "click 2 (0,0): the cell is empty" in done.stderr and "Traceback" not in done.stderr
    assert not page.exists()


def test_samegame_show_refuses_a_clickomania_result(solved, tmp_path):
    page = tmp_path / "p.html"
    done = run("samegame", "show", str(solved), "-o", str(page))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert "is a clickomania result, not samegame" in done.stderr
    assert not page.exists()
