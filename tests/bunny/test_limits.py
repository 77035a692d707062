"""Declared limits of bunny boards and programs: refused with one clear message, accepted up to the limit."""

import random
import time

import pytest

from gridsolver.bunny import film as bunny_film
from gridsolver.bunny.game import GAME
from gridsolver.bunny.generate import random_board
from gridsolver.bunny.notation import MAX_COUNT, MAX_NESTING, MAX_TOKENS, format_program, parse_program
from gridsolver.bunny.rules import MAX_CELLS, MAX_SQUARES, Loop, Simulator, simulate, token_count
from gridsolver.cli import main
from gridsolver.core.errors import BoardError, InputError

from .helpers import random_connected_board, random_program


def full_board(rows: int, columns: int) -> str:
    return "\n".join(("S" if r == 0 else "#") + "#" * (columns - 1) for r in range(rows))


def nested(depth: int, inner: str = "F") -> str:
    return "LOOP(2){" * depth + inner + "}" * depth


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(["bunny", *args])
    out, err = capsys.readouterr()
    return int(done.value.code), out, err


# -- boards ------------------------------------------------------------------------------------------
def test_a_board_of_too_many_squares_names_its_size_and_the_limit():
    with pytest.raises(BoardError) as caught:
        GAME.read(full_board(300, 300), "big.txt")
    assert str(caught.value) == ("big.txt: board is 300x300 (90,000 squares); bunny boards have at most "
                                 "4,000 squares")


def test_one_square_past_the_limit_is_refused_and_the_limit_itself_accepted():
    at_limit = full_board(40, MAX_SQUARES // 40)
    assert GAME.read(at_limit).size == MAX_SQUARES
    with pytest.raises(BoardError, match="4,001 squares"):
        GAME.read(at_limit + "\n#")


def test_a_ten_megabyte_row_is_refused_at_once_naming_the_row():
    row = "S" + "#" * (10 * 2**20)
    started = time.monotonic()
    with pytest.raises(BoardError) as caught:
        GAME.read("#\n" + row, "wide.txt")
    assert time.monotonic() - started < 10  # a generous cap: reading it cell by cell takes minutes
    assert str(caught.value).startswith("wide.txt, row 1 (line 2): a row of 10,485,761 characters")
    assert f"at most {MAX_CELLS:,} cells" in str(caught.value)


def test_a_sparse_board_spanning_too_many_cells_is_refused():
    gap = " " * (MAX_CELLS // 2)
    with pytest.raises(BoardError, match=r"board is 2x8001 \(16,002 cells, gaps included\)"):
        GAME.read("S\n" + gap + "#")
    with pytest.raises(BoardError, match="board has 16,001 rows"):
        GAME.read("S\n" + "\n".join(["."] * MAX_CELLS))


def test_a_sparse_board_spanning_exactly_the_limit_is_read():
    columns = MAX_CELLS // 100  # 100 rows of 160 cells, every fourth a square: 4,000 squares
    rows = ["S   " + "#   " * (columns // 4 - 2) + "#  ."] + ["#   " * (columns // 4 - 1) + "#  ."] * 99
    board = GAME.read("\n".join(rows))
    assert board.rows * board.columns == MAX_CELLS and board.size == MAX_SQUARES
    assert GAME.equal(GAME.read(GAME.format(board)), board)


def test_random_boards_obey_the_same_limit():
    with pytest.raises(InputError, match="got 4001 .*bunny boards have at most 4,000 squares"):
        random_board(seed=0, squares=MAX_SQUARES + 1)
    with pytest.raises(InputError, match="got 1"):
        random_board(seed=0, squares=1)


@pytest.mark.parametrize("squares", [2, 3, 4, 5, 7, 10, 401, 685, 1000, 2500, MAX_SQUARES])
def test_random_boards_of_every_size_in_the_stated_range_are_made(squares):
    made = random_board(seed=0, squares=squares)
    assert made.board.size == squares and made.board.rows * made.board.columns <= MAX_CELLS
    assert simulate(made.board, made.program).solved


def test_the_command_line_refuses_a_big_board_in_one_line(tmp_path, capsys):
    path = tmp_path / "big.txt"
    path.write_text(full_board(300, 300))
    code, out, err = run_cli(capsys, "solve", str(path), "--time", "5")
    assert code == 2 and out == ""
    assert err == (f"gridsolver: error: {path}: board is 300x300 (90,000 squares); bunny boards have at "
                   "most 4,000 squares\n")


def test_the_command_line_refuses_random_squares_past_the_limit(capsys):
    code, _, err = run_cli(capsys, "random", "--squares", "4001")
    assert code == 2 and err.count("\n") == 1 and "--squares must be between 2 and 4000, got 4001" in err


# -- programs ----------------------------------------------------------------------------------------
def test_loops_nested_past_the_limit_are_refused_without_recursion():
    with pytest.raises(InputError) as caught:
        parse_program(nested(500))
    assert str(caught.value) == ("program: the LOOP at character 801 is nested 101 deep; loops nest at most "
                                 f"{MAX_NESTING} deep")


def test_loops_nested_to_the_limit_run_print_and_film():
    text = nested(MAX_NESTING, "F R")
    program = parse_program(text)
    assert format_program(program) == text and token_count(program) == MAX_NESTING + 2
    board = GAME.named("01")
    replayed = GAME.check(board, text)
    assert replayed.steps > 0
    assert GAME.film(board, text, {}).frames


def test_a_program_of_too_many_tokens_is_refused():
    assert len(parse_program("F " * MAX_TOKENS)) == MAX_TOKENS
    with pytest.raises(InputError, match=f"more than {MAX_TOKENS:,} tokens"):
        parse_program("F " * MAX_TOKENS + "L")


def test_loop_counts_past_the_limit_are_refused_even_with_thousands_of_digits():
    assert parse_program(f"LOOP({MAX_COUNT}){{F}}") == (Loop(MAX_COUNT, ("F",)),)
    assert parse_program("LOOP(0007){F}") == (Loop(7, ("F",)),)
    with pytest.raises(InputError, match="loop count 1000000000000000001 at character 1 is more than 10"):
        parse_program(f"LOOP({MAX_COUNT + 1}){{F}}")
    with pytest.raises(InputError, match=r"\(5,000 digits\)"):
        parse_program("LOOP(" + "9" * 5000 + "){F}")


def test_a_huge_count_runs_in_whole_cycles():
    board = GAME.named("01")
    assert GAME.check(board, f"LOOP({MAX_COUNT}){{R}}").steps == MAX_COUNT


def test_a_long_unknown_token_is_shown_cut_short():
    with pytest.raises(InputError) as caught:
        parse_program("F " + "x" * 100_000)
    assert len(str(caught.value)) < 200 and "(100,002 characters)" in str(caught.value)


def test_the_command_line_refuses_deep_nesting_in_one_line(capsys):
    code, out, err = run_cli(capsys, "run", "challenge/01", nested(500))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("gridsolver: error: program: the LOOP at character 801 is nested 101 deep")
    code, _, err = run_cli(capsys, "check", "challenge/01", nested(500))
    assert code == 2 and "nested 101 deep" in err and "Traceback" not in err


def test_a_solution_that_is_not_text_is_named_with_single_braces():
    with pytest.raises(InputError) as caught:
        GAME.check(GAME.named("01"), 5)
    assert str(caught.value) == "solution 5: expected a program such as 'LOOP{F L}'"


def test_loops_nested_with_small_counts_run_at_once():
    # 3^100 iterations of the innermost loop: only repeating runs of a loop from a known state
    # (taken from the earlier run, as the rules would repeat it) make this finish
    program = nested(MAX_NESTING, "F R").replace("LOOP(2)", "LOOP(3)")
    replayed = GAME.check(GAME.named("07"), program)
    assert replayed.steps == 2 * 3**MAX_NESTING and not replayed.complete


def test_remembered_loop_runs_change_nothing_the_rules_say():
    rng = random.Random(5)
    for _ in range(300):
        board = random_connected_board(rng, rng.randint(1, 5), rng.randint(1, 5))
        program = random_program(rng, rng.randint(1, 12), max_count=rng.randint(1, 6),
                                 unbounded=rng.random() < 0.3)
        fast, plain = Simulator(board).run(program), Simulator(board, remember=False).run(program)
        assert (fast.solved, fast.steps, fast.order, fast.unmarked, fast.endless) == (
            plain.solved, plain.steps, plain.order, plain.unmarked, plain.endless)


def test_show_refuses_a_program_that_executes_too_many_tokens_one_by_one(monkeypatch):
    monkeypatch.setattr(bunny_film, "MAX_EXECUTED", 1000)
    board = GAME.named("07")
    assert GAME.film(board, "LOOP(3){LOOP(3){F R}}", {}).frames
    with pytest.raises(InputError, match="show: the program executes more than 1,000 tokens one by one"):
        GAME.film(board, nested(10, "F R").replace("LOOP(2)", "LOOP(3)"), {})


@pytest.mark.parametrize("args, message", [
    (["--workers", "0"], "--workers 0: expected a whole number of at least 1"),
    (["--time", "-1", "--workers", "2"], "--time -1.0: expected a finite number above 0"),
    (["--memory", "nan"], "--memory nan: expected a finite number above 0"),
])
def test_bench_checks_its_options_before_any_board(capsys, args, message):
    code, out, err = run_cli(capsys, "bench", *args)
    assert code == 2 and out == "" and err == f"gridsolver: error: {message}\n"
