"""Declared limits of peg solitaire boards and options: refused in one clear line, accepted at the limit."""

import math
import time

import pytest

from gridsolver.cli import main
from gridsolver.core.errors import BoardError, InputError
from gridsolver.pegs.cli import MAX_TABLE_PROBLEMS
from gridsolver.pegs.game import GAME
from gridsolver.pegs.generate import random_board
from gridsolver.pegs.geometry import PositionClasses
from gridsolver.pegs.rules import MAX_SIDE, named, parse_cell, parse_jump

LIMIT = f"pegs boards are at most {MAX_SIDE}x{MAX_SIDE}"


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(["pegs", *args])
    out, err = capsys.readouterr()
    return int(done.value.code), out, err


@pytest.mark.parametrize("rows, columns, message", [
    (MAX_SIDE + 1, 5, f"big.txt: {MAX_SIDE + 1} rows, more than the {MAX_SIDE} supported ({LIMIT})"),
    (5, MAX_SIDE + 1, f"big.txt, row 0 (line 1): {MAX_SIDE + 1} columns, more than the {MAX_SIDE} supported "
                      f"({LIMIT})"),
    (300, 300, f"big.txt: 300 rows, more than the {MAX_SIDE} supported ({LIMIT})"),
])
def test_boards_past_the_limit_name_the_size_and_the_limit(rows, columns, message):
    text = "\n".join(["." + "o" * (columns - 1)] * rows)
    with pytest.raises(BoardError) as caught:
        GAME.read(text, "big.txt")
    assert str(caught.value) == message


def test_a_ten_megabyte_row_is_refused_at_once_naming_the_row():
    started = time.monotonic()
    with pytest.raises(BoardError) as caught:
        GAME.read("o.o\n" + "1" * (10 * 2**20), "wide.txt")
    assert time.monotonic() - started < 10  # a generous cap: the comesolo scan alone reads every cell
    assert str(caught.value).startswith("wide.txt, row 1 (line 2): 10,485,760 columns, more than the 30")


@pytest.mark.parametrize("text", [
    "\n".join(["1" * MAX_SIDE] * (MAX_SIDE - 1) + ["0" * MAX_SIDE]),
    "jumps: orthogonal\n" + "\n".join(["o" * MAX_SIDE] * (MAX_SIDE - 1) + ["." * MAX_SIDE]),
])
def test_boards_at_the_limit_are_read_and_written_back(text):
    board = GAME.read(text)
    assert (board.rows, board.cols, board.hole_count) == (MAX_SIDE, MAX_SIDE, MAX_SIDE * MAX_SIDE)
    assert GAME.equal(GAME.read(GAME.format(board)), board)


def test_named_squares_stop_at_the_limit_and_huge_numbers_are_refused():
    assert GAME.named(f"{MAX_SIDE}x{MAX_SIDE}").hole_count == MAX_SIDE * MAX_SIDE
    with pytest.raises(InputError, match=f"up to {MAX_SIDE}x{MAX_SIDE}"):
        named(f"{MAX_SIDE + 1}x{MAX_SIDE}")
    assert named("9" * 5000 + "x2") is None  # not a board name: the caller then says "no such file"


def test_random_boards_obey_the_same_limit():
    assert random_board(MAX_SIDE, MAX_SIDE, 0.5, seed=1).hole_count == MAX_SIDE * MAX_SIDE
    with pytest.raises(InputError, match=f"random board 31x2: .*{LIMIT}"):
        random_board(MAX_SIDE + 1, 2, 0.5, seed=1)


@pytest.mark.parametrize("density", [0.0, 1.0, -0.5, 2.0, math.nan, math.inf, True, "0.5"])
def test_densities_outside_zero_to_one_are_refused(density):
    with pytest.raises(InputError, match=r"--density .*expected a number above 0 and below 1"):
        random_board(5, 5, density, seed=1)


@pytest.mark.parametrize("size, message", [
    ("31", "random board 31x31: random boards go from 1x3 up to 30x30"),
    ("0x5", "random board 0x5"),
    ("1x2", "random board 1x2"),
    ("9" * 5000, "size '99999"),
    ("²", "size '²': expected N or NxM"),
    ("5x5x5", "expected N or NxM"),
])
def test_the_random_command_checks_its_size(capsys, size, message):
    code, out, err = run_cli(capsys, "random", size)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err


@pytest.mark.parametrize("density", ["nan", "inf", "0", "1"])
def test_the_random_command_checks_its_density(capsys, density):
    code, _, err = run_cli(capsys, "random", "5", "--density", density)
    assert code == 2 and err.count("\n") == 1 and "--density" in err


def test_the_table_refuses_boards_of_too_many_problems_before_solving(capsys):
    code, out, err = run_cli(capsys, "table", "30x30")
    assert code == 2 and out == ""
    assert err == ("gridsolver: error: 30x30: 101,475 single-vacancy problems (900 holes); table takes at "
                   f"most {MAX_TABLE_PROBLEMS:,} (10x10 has 1,275)\n")


@pytest.mark.parametrize("args, message", [
    (["--time", "-1"], "--time -1.0: expected a finite number above 0"),
    (["--time", "nan"], "--time nan"),
    (["--nodes", "0"], "--nodes 0"),
    (["--seed", "-1"], "'--seed': -1 is not in the range"),
    (["--workers", "0"], "--workers 0"),
])
def test_the_table_checks_its_options_before_any_problem(capsys, args, message):
    code, out, err = run_cli(capsys, "table", "english", *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err


def test_the_command_line_refuses_a_big_board_in_one_line(tmp_path, capsys):
    path = tmp_path / "big.txt"
    path.write_text("\n".join(["1" * 300] * 300))
    code, out, err = run_cli(capsys, "solve", str(path))
    assert code == 2 and out == ""
    assert err == f"gridsolver: error: {path}: 300 rows, more than the 30 supported ({LIMIT})\n"


@pytest.mark.parametrize("text", ["1" * 5000 + ",2", "²,3", "3;3"])
def test_cells_with_huge_or_foreign_numbers_are_input_errors(text):
    with pytest.raises(InputError) as caught:
        parse_cell(text)
    assert len(str(caught.value)) < 200


def test_jumps_with_huge_numbers_are_input_errors():
    with pytest.raises(InputError, match="expected"):
        parse_jump("(" + "1" * 5000 + ",1)->(3,3)")
    with pytest.raises(InputError, match="unexpected"):
        GAME.parse_solution("(3,1)->(3,3) (" + "1" * 5000 + ",1)->(3,3)")


def test_position_classes_of_a_board_without_jumps_need_no_recursion():
    # every third cell of each row and column missing: 600 holes, no three in a line, no jump at all
    rows = ["".join("-" if (r + c) % 3 == 0 else "o" for c in range(MAX_SIDE)) for r in range(MAX_SIDE)]
    rows[1] = "." + rows[1][1:]
    board = GAME.read("jumps: orthogonal\n" + "\n".join(rows))
    classes = PositionClasses(board)
    assert classes.rank == 0 and board.hole_count == 600
    assert classes.reduce(board.holes) == board.holes
    assert not classes.same_class(board.pegs, board.holes)
