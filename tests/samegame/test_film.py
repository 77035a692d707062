"""`samegame show`: the frames of a solution count its points, (n-2)^2 a group and the end bonus."""

import json

import pytest

from gridsolver.clickomania import rules
from gridsolver.core.errors import InputError
from gridsolver.core.film import Film
from gridsolver.samegame import rules as samegame_rules
from gridsolver.samegame.game import GAME

from ..clickomania.helpers import run

BOARD = "0021112\n0101210\n1022212\n1011120\n2012021\n1222122"


def check_points(film: Film, board: rules.Board, moves: list[list[int]], penalty: bool) -> int:
    """Check each frame against the rules; return the final score counter."""
    score = 0
    for k, frame in enumerate(film.frames):
        assert frame.grid == "".join("." if v < 0 else str(v) for row in board.grid.tolist() for v in row)
        assert frame.counters["cells left"] == board.cells_left
        assert frame.counters["removable groups"] == len(rules.legal_moves(board))
        if k < film.steps:
            assert frame.counters["score"] == score and "bonus" not in frame.counters
        if k < len(moves):
            group = rules.group_at(board, tuple(moves[k]))
            assert sorted(i for i, _ in frame.highlight) == sorted(r * board.width + c for r, c in group)
            board = GAME.apply(board, tuple(moves[k]))
            score += (len(group) - 2) ** 2
            assert film.frames[k + 1].text.startswith(
                f"step {k + 1} of {len(moves)}: click ({moves[k][0]},{moves[k][1]}): group of {len(group)} "
                f"removed, +{(len(group) - 2) ** 2}, score {score:,}")
    last = film.frames[-1].counters
    if board.cells_left == 0:
        assert last["bonus"] == 1000
    elif penalty and not rules.legal_moves(board):
        assert last["bonus"] == -max(0, board.cells_left - 2) ** 2
    else:
        assert last["bonus"] == 0
    assert last["score"] == score + last["bonus"] == film.plots["score"][-1]
    return int(last["score"])


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    """A real `samegame solve --json` result file."""
    path = tmp_path_factory.mktemp("show") / "s.json"
    done = run("samegame", "solve", "-", "--json", "--time", "2", "--workers", "1", stdin=BOARD + "\n")
    assert done.returncode == 0, done.stderr
    path.write_text(done.stdout)
    return path


def test_the_score_counters_add_up_to_the_results_score(solved):
    record = json.loads(solved.read_text())
    board = rules.from_text(record["board"])
    film = GAME.film(board, record["solution"], GAME.check_options(board, record["options"]))
    assert check_points(film, board, record["solution"], penalty=False) == record["score"]
    assert film.title.startswith(f"SameGame 7x6, 3 colours: {len(record['solution'])} clicks, score ")


@pytest.mark.parametrize("penalty, bonus, ending", [
    (False, 0, "no group left, 4 cells left, final score 0"),
    (True, -4, "no group left, 4 cells left: penalty -4, final score -4"),
])
def test_the_last_frame_shows_the_penalty_when_asked(penalty, bonus, ending):
    board = rules.from_text("112\n231")
    film = GAME.film(board, [[0, 0]], GAME.check_options(board, {"penalty": penalty}))
    score = check_points(film, board, [[0, 0]], penalty)
    assert score == bonus == samegame_rules.replay(board, [(0, 0)], penalty).score
    assert film.frames[-1].text == f"step 1 of 1: click (0,0): group of 2 removed, +0, score 0; {ending}"


def test_a_cleared_board_gets_the_bonus_on_the_last_frame():
    board = rules.from_text("1111\n2222\n1111")
    moves = [[1, 0], [2, 3]]  # the middle row (+4), then the eight ones fallen together (+36)
    film = GAME.film(board, moves, GAME.check_options(board, {}))
    assert check_points(film, board, moves, penalty=False) == 1040
    assert film.frames[1].text == ("step 1 of 2: click (1,0): group of 4 removed, +4, score 4; "
                                   "next: click (2,3)")
    assert film.frames[2].text == ("step 2 of 2: click (2,3): group of 8 removed, +36, score 40; "
                                   "board cleared: bonus +1,000, final score 1,040")
    back = Film.from_json(json.loads(json.dumps(film.to_json())))
    assert back.frames == film.frames and back.plots == film.plots


def test_illegal_clicks_and_no_solution_are_refused():
    board = rules.from_text("1111\n2222\n1111")
    with pytest.raises(InputError, match=r"click 2 \(0,0\): the cell is empty"):
        GAME.film(board, [[1, 0], [0, 0]], GAME.check_options(board, {}))
    with pytest.raises(InputError, match="samegame show: give the clicks"):
        GAME.film(board, None, GAME.check_options(board, {}))


# -- the command line ---------------------------------------------------------------------------
def test_show_writes_the_page_svg_and_steps(solved, tmp_path):
    record = json.loads(solved.read_text())
    steps = len(record["solution"])
    page, picture = tmp_path / "replay.html", tmp_path / "end.svg"
    done = run("samegame", "show", str(solved), "-o", str(page), "--svg", str(picture))
    assert done.returncode == 0, done.stderr
    assert page.read_text().startswith("<!DOCTYPE html>") and "final score" in page.read_text()
    assert "<svg" in picture.read_text() and f"step {steps} of {steps}: " in picture.read_text()
    done = run("samegame", "show", str(solved), "--steps")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"step 0 of {steps}: start, 42 cells") and "\x1b[" not in done.stdout
    assert lines[1].startswith("clicks 0  cells left 42  removable groups ") and lines[1].endswith("score 0")
    assert f"final score {record['score']:,}" in done.stdout


def test_show_refuses_an_illegal_click_without_writing(tmp_path):
    board, page = tmp_path / "b.txt", tmp_path / "p.html"
    board.write_text("1111\n2222\n1111\n")
    done = run("samegame", "show", str(board), "1,0 0,0", "-o", str(page))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert "click 2 (0,0): the cell is empty" in done.stderr and "Traceback" not in done.stderr
    assert not page.exists()


def test_clickomania_show_refuses_a_samegame_result(solved, tmp_path):
    page = tmp_path / "p.html"
    done = run("clickomania", "show", str(solved), "-o", str(page))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert "is a samegame result, not clickomania" in done.stderr
    assert not page.exists()
