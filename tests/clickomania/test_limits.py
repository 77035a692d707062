"""Declared limits of Clickomania / SameGame boards and generators: refused in one line, accepted at them."""

import time

import numpy as np
import pytest

from gridsolver.cli import main
from gridsolver.clickomania import rules
from gridsolver.clickomania.game import GAME, parse_moves
from gridsolver.clickomania.generate import clearable_board, parse_spec, random_board
from gridsolver.clickomania.rules import MAX_COLOURS, MAX_SIDE
from gridsolver.core.errors import BoardError, InputError
from gridsolver.samegame.game import GAME as SAMEGAME

GAMES = [GAME, SAMEGAME]
LIMIT = f"clickomania and samegame boards are at most {MAX_SIDE}x{MAX_SIDE}"


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    out, err = capsys.readouterr()
    return int(done.value.code), out, err


def full(rows: int, columns: int) -> str:
    return "\n".join("".join(rules.ALPHABET[(r + c) % 5] for c in range(columns)) for r in range(rows))


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
@pytest.mark.parametrize("rows, columns, message", [
    (MAX_SIDE + 1, 3, f"big.txt: {MAX_SIDE + 1} rows, more than the {MAX_SIDE} supported ({LIMIT})"),
    (3, MAX_SIDE + 1, f"big.txt, row 0 (line 1): {MAX_SIDE + 1} columns, more than the {MAX_SIDE} supported "
                      f"({LIMIT})"),
    (300, 300, f"big.txt: 300 rows, more than the {MAX_SIDE} supported ({LIMIT})"),
])
def test_boards_past_the_limit_name_the_size_and_the_limit(game, rows, columns, message):
    with pytest.raises(BoardError) as caught:
        game.read(full(rows, columns), "big.txt")
    assert str(caught.value) == message


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_ten_megabyte_row_is_refused_at_once_naming_the_row(game):
    started = time.monotonic()
    with pytest.raises(BoardError) as caught:
        game.read("12\n" + "1" * (10 * 2**20), "wide.txt")
    assert time.monotonic() - started < 10  # a generous cap: only the row's length is looked at
    assert str(caught.value).startswith("wide.txt, row 1 (line 2): 10,485,760 columns, more than the 64")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_board_at_the_limit_is_read_and_written_back(game):
    text = "\n".join("".join(rules.ALPHABET[(3 * r + c) % MAX_COLOURS] for c in range(MAX_SIDE))
                     for r in range(MAX_SIDE))
    board = game.read(text)
    assert (board.height, board.width, len(board.colour_counts())) == (MAX_SIDE, MAX_SIDE, MAX_COLOURS)
    assert game.equal(game.read(game.format(board)), board)


@pytest.mark.parametrize("spec, message", [
    ("65x5x3", "board size 65x5: width and height must be 1 to 64"),
    ("5x0x3", "board size 5x0"),
    ("5x5x21", "21 colours: must be 1 to 20"),
    ("5x5x0", "0 colours"),
    ("9" * 5000 + "x5x3", "board spec '99999"),
    ("²x5x3", "board spec '²x5x3': expected WIDTHxHEIGHTxCOLOURS"),
    ("5x5", "expected WIDTHxHEIGHTxCOLOURS, e.g. 20x10x4 (at most 64x64x20)"),
])
def test_board_specs_past_the_limits_are_refused(spec, message):
    with pytest.raises(InputError) as caught:
        parse_spec(spec)
    assert message in str(caught.value) and len(str(caught.value)) < 200


def test_generators_obey_the_same_limits():
    assert parse_spec(f"{MAX_SIDE}x{MAX_SIDE}x{MAX_COLOURS}") == (MAX_SIDE, MAX_SIDE, MAX_COLOURS)
    made = random_board(MAX_SIDE, MAX_SIDE, MAX_COLOURS, seed=3)
    assert GAME.equal(GAME.read(GAME.format(made)), made)
    with pytest.raises(InputError, match=LIMIT):
        random_board(MAX_SIDE + 1, 2, 3, seed=0)
    with pytest.raises(InputError, match=LIMIT):
        clearable_board(2, MAX_SIDE + 1, 3, seed=0)


def test_a_clearable_board_at_the_limit_is_cleared_by_its_certificate():
    built = clearable_board(MAX_SIDE, MAX_SIDE, 4, seed=1)
    assert built.board.cells_left == MAX_SIDE * MAX_SIDE
    assert GAME.check(built.board, [list(m) for m in built.solution]).score == 0


@pytest.mark.parametrize("args, message", [
    (["clickomania", "solve", "--random", "65x5x3"],
     f"--random: board size 65x5: width and height must be 1 to 64 ({LIMIT})"),
    (["clickomania", "generate", "--clearable", "5x5x21"], "--clearable: 21 colours: must be 1 to 20"),
    (["clickomania", "solve", "--clearable", "1x99999999999x3"], "--clearable: board spec '1x99999999999x3'"),
])
def test_the_command_line_refuses_specs_in_one_line(capsys, args, message):
    code, out, err = run_cli(capsys, *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err


@pytest.mark.parametrize("game", ["clickomania", "samegame"])
def test_the_command_line_refuses_a_big_board_in_one_line(tmp_path, capsys, game):
    path = tmp_path / "big.txt"
    path.write_text(full(300, 300))
    code, out, err = run_cli(capsys, game, "solve", str(path), "--time", "5")
    assert code == 2 and out == ""
    assert err == f"gridsolver: error: {path}: 300 rows, more than the 64 supported ({LIMIT})\n"


def test_the_generate_command_makes_boards_at_the_limit(capsys):
    spec = f"{MAX_SIDE}x{MAX_SIDE}x{MAX_COLOURS}"
    code, out, _ = run_cli(capsys, "clickomania", "generate", "--random", spec)
    assert code == 0
    board = GAME.read(out)
    assert board.grid.shape == (MAX_SIDE, MAX_SIDE) and np.all(board.grid >= 0)


def test_moves_with_huge_numbers_are_named_cut_short():
    with pytest.raises(InputError) as caught:
        parse_moves("1,2 " + "x" * 10_000 + ",3")
    assert len(str(caught.value)) < 200
    assert GAME.parse_solution("99999999999999999999999,0") == [[99999999999999999999999, 0]]
    with pytest.raises(InputError, match="outside the 2x2 board"):
        GAME.check(rules.from_text("11\n22"), [[99999999999999999999999, 0]])
