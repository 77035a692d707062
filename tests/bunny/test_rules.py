import random

import pytest

from gridsolver.bunny.rules import Loop, board_from_text, finite_form, format_board, simulate, token_count
from gridsolver.core.errors import BoardError

from .helpers import naive_run, random_connected_board, random_program


def test_board_reading_and_round_trip():
    text = "S##\n# #\n#O#"
    board = board_from_text(text)
    assert board.size == 8
    assert board.squares[board.start] == (0, 0)
    assert board.index(2, 1) in board.premarked
    assert format_board(board) == text
    assert board_from_text(format_board(board)) == board


def test_dots_and_ragged_rows_are_no_square():
    board = board_from_text("S.#\n  #\n#")
    assert sorted(board.squares) == [(0, 0), (0, 2), (1, 2), (2, 0)]
    assert board.unreachable() == [(0, 2), (1, 2), (2, 0)]


@pytest.mark.parametrize("text, row, column, words", [
    ("S#\n#x", 1, 1, "unexpected character 'x'"),
    ("##\n##", None, None, "no start square"),
    ("S#\n#S", 1, 1, "a second start"),
])
def test_bad_boards_name_row_and_column(text, row, column, words):
    with pytest.raises(BoardError) as caught:
        board_from_text(text, "b.txt")
    assert caught.value.row == row and caught.value.column == column
    assert words in str(caught.value)


def test_token_count_and_finite_form():
    program = (Loop(None, ("F", Loop(7, ("F", "L")))), "R")
    assert token_count(program) == 6
    assert finite_form(program, 3) == (Loop(3, ("F", Loop(7, ("F", "L")))), "R")


def test_simulator_stops_as_soon_as_every_square_is_marked():
    board = board_from_text("S##")
    run = simulate(board, ("F", "F", "L", "L", "F"))
    assert run.solved and run.steps == 2 and run.order == [1, 2]


def test_blocked_hop_stays_and_keeps_direction():
    board = board_from_text("S#\n #")
    run = simulate(board, ("L", "F", "R", "F", "R", "F"))
    assert run.solved and run.steps == 6


def test_unbounded_loop_that_cannot_finish_is_reported_endless_not_hung():
    board = board_from_text("S##\n  #")
    run = simulate(board, (Loop(None, ("F", "L", "L")),))
    assert not run.solved and run.endless and run.unmarked == [2, 3]


def test_huge_counts_are_skipped_in_whole_cycles_with_exact_steps():
    board = board_from_text("S#\n #")
    run = simulate(board, (Loop(10**12, ("F", "L", "L")),))
    assert not run.solved and run.steps == 3 * 10**12


def test_simulator_matches_a_naive_interpreter_on_random_programs():
    rng = random.Random(7)
    for _ in range(400):
        board = random_connected_board(rng, rng.randint(1, 4), rng.randint(1, 5))
        program = random_program(rng, rng.randint(1, 9), max_count=6)
        run = simulate(board, program)
        solved, steps, order = naive_run(board, program)
        assert (run.solved, run.steps, run.order) == (solved, steps, order), program


def test_moves_one_token_at_a_time_reach_what_the_simulator_reaches():
    from gridsolver.bunny.game import GAME
    from gridsolver.bunny.notation import parse_program
    from gridsolver.bunny.rules import flatten
    from gridsolver.core.errors import InputError
    from gridsolver.core.game import replay_moves

    board = GAME.named("challenge/04")
    assert GAME.format(board) == GAME.named_text("challenge/04")
    program = parse_program("LOOP(17){F LOOP(7){F L}}")
    moves = flatten(program)
    steps = simulate(board, program).steps
    final = replay_moves(GAME, board, moves[:steps])
    assert not final.targets() and GAME.moves(final) == []
    assert GAME.moves(replay_moves(GAME, board, moves[: steps - 1])) == ["F", "L", "R"]
    with pytest.raises(InputError, match="already marked"):
        GAME.apply(final, "F")
    with pytest.raises(InputError, match="unknown move 'X'"):
        GAME.apply(board, "X")


@pytest.mark.parametrize("direction", ["south", "west", "north"])
def test_a_turned_bunny_round_trips_and_is_solved_as_the_turned_board(direction):
    from gridsolver.bunny.game import GAME
    from gridsolver.bunny.rules import facing_east

    text = f"facing: {direction}\n S#\n ##\n##O"
    board = GAME.read(text)
    assert GAME.read(GAME.format(board)) == board and GAME.format(board) == text
    turned = facing_east(board)
    assert turned.direction == 0 and turned.size == board.size and len(turned.premarked) == 2
    result = GAME.solve(board, time=10)
    assert result.verified and result.status == "optimal"
    # the same program solves the turned board facing east, and with the same token count
    assert GAME.solve(turned, time=10).score == result.score
    assert simulate(turned, parse_program_(result.solution)).solved


def parse_program_(text):
    from gridsolver.bunny.notation import parse_program

    return parse_program(text)
