"""`solve --show` for Clickomania and SameGame: the start board, each cell numbered by its click."""

import os
import random
import re
import subprocess
import sys

import numpy as np
from hypothesis import given, settings

from gridsolver.clickomania import rules
from gridsolver.clickomania.picture import picture, removal_order
from gridsolver.core.result import Result

from .helpers import boards
from .test_film import random_game

BOARD = "1221\n1331"  # the 3s, then the 2s, then the 1s, which only meet when the 2s and 3s are gone
#: A column where each click is forced: the a's, then the b's that fall together, then the c's.
COLUMN = "c\nb\na\na\nb\nc"
COLUMN_PICTURE = ("  start board    removed by click\n"
                  "  c              3\n"
                  "  b              2\n"
                  "  a              1\n"
                  "  a              1\n"
                  "  b              2\n"
                  "  c              3")
ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def solve_show(game: str, board: str, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gridsolver", game, "solve", "-", "--show", *args],
                          input=board + "\n", capture_output=True, text=True, timeout=300,
                          env={**os.environ, **env})


def shown(board: str, moves, colour=False, game="clickomania") -> str:
    return picture(rules.from_text(board), Result(game, "test", "best-found", solution=moves), colour)


def test_a_three_click_board_is_numbered_in_the_order_its_groups_go():
    assert removal_order(rules.from_text(BOARD), [(1, 1), (1, 1), (1, 0)]).tolist() == [[3, 2, 2, 3],
                                                                                          [3, 1, 1, 3]]
    assert shown(BOARD, [[1, 1], [1, 1], [1, 0]]) == ("  start board    removed by click\n"
                                                      "  1 2 2 1        3 2 2 3\n"
                                                      "  1 3 3 1        3 1 1 3")


def test_cells_no_click_removes_are_marked_and_counted():
    # 11 then 22; the 2 and the 1 of the last column stay
    assert shown("112\n221", [[0, 0], [1, 0]]) == ("  start board    removed by click\n"
                                                   "  1 1 2          1 1 -\n"
                                                   "  2 2 1          2 2 -\n"
                                                   "  - stays on the board (2 cells)")


def test_numbers_take_the_width_of_the_last_click_and_stack_when_side_by_side_is_too_wide():
    row = "11223344556677889900"  # ten clicks on (0,0), each removing the pair on the left
    assert shown(row, [[0, 0]] * 10) == (
        "  start board\n"
        "  1 1 2 2 3 3 4 4 5 5 6 6 7 7 8 8 9 9 0 0\n"
        "\n"
        "  removed by click\n"
        "   1  1  2  2  3  3  4  4  5  5  6  6  7  7  8  8  9  9 10 10")


def test_a_board_too_wide_to_number_shows_its_start_and_the_clicks():
    row = "".join(c * 2 for c in "0123456789abcdefghij") + "0" * 24  # 64 columns, 21 clicks
    lines = shown(row, [[0, 0]] * 21, game="samegame").splitlines()
    assert lines == ["  start board (21 clicks, too many to number in 80 columns:",
                     "  gridsolver samegame show replays them click by click)",
                     "  " + row]  # 64 cells side by side: spaced, they would not fit


def test_no_click_and_no_solution():
    assert shown("12\n21", []) == "  start board (no click)\n  1 2\n  2 1"
    assert shown("12\n21", None) == ""


def test_a_solution_that_does_not_replay_says_why():
    text = shown(BOARD, [[1, 1], [0, 1]])  # empty once the 3s are gone and the 2s fell
    assert text == ("  start board: none, the solution does not replay "
                    "(click 2: move (0, 1): the cell is empty)")


def test_colour_paints_each_cell_and_strips_to_the_plain_picture():
    plain = shown(BOARD, [[1, 1], [1, 1], [1, 0]])
    painted = shown(BOARD, [[1, 1], [1, 1], [1, 0]], colour=True)
    assert "\x1b[" not in plain and painted.count("\x1b[") >= 16  # the 8 cells of each grid
    assert ESCAPE.sub("", painted) == plain


@settings(max_examples=60, deadline=None)
@given(boards())
def test_the_cells_numbered_k_are_the_group_click_k_removes(board):
    moves = random_game(board, random.Random(board.cells_left))
    order = removal_order(board, moves)
    assert ((order == -1) == (board.grid == rules.EMPTY)).all()
    position = board
    for k, move in enumerate(moves, start=1):
        group = rules.group_at(position, move)
        numbered = board.grid[order == k]
        assert len(numbered) == len(group) and set(numbered.tolist()) == {position.grid[move]}
        position = rules.apply(position, move)
    left = board.grid[order == 0]  # what stays: the colours of the last position
    assert sorted(left.tolist()) == sorted(position.grid[position.grid != rules.EMPTY].tolist())
    assert np.count_nonzero(order > len(moves)) == 0


def test_solve_show_prints_the_numbered_start_board_plain_in_a_pipe():
    done = solve_show("clickomania", COLUMN)
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith(COLUMN_PICTURE + "\n") and "\x1b[" not in done.stdout
    coloured = solve_show("clickomania", COLUMN, GRIDSOLVER_COLOUR="on")
    assert coloured.returncode == 0, coloured.stderr
    assert "\x1b[" in coloured.stdout and ESCAPE.sub("", coloured.stdout).endswith(COLUMN_PICTURE + "\n")
