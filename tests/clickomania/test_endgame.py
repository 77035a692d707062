"""The exact SameGame endgame kernel against a plain-Python memoised search; the ending polish and
the choice of tabu colour built on it."""

from functools import cache

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver.clickomania import kernels as K
from gridsolver.clickomania import rules
from gridsolver.clickomania.generate import random_board
from gridsolver.clickomania.search import plan_tabu, polish_ending, solve_samegame
from gridsolver.core.budget import Budget

from .test_kernels import boards

NO_LIMIT = 1 << 62


def reference_value(board: rules.Board, penalty: bool) -> int:
    """Most points still to come, from the rules' definition (tiny boards only)."""

    @cache
    def value(grid_bytes: bytes) -> int:
        b = rules.Board(np.frombuffer(grid_bytes, np.int8).reshape(board.grid.shape).copy())
        moves = rules.legal_moves(b)
        if not moves:
            left = int((b.grid != rules.EMPTY).sum())
            return 1000 if left == 0 else (-rules.end_penalty(left) if penalty else 0)
        return max(rules.move_score(len(rules.group_at(b, m))) + value(rules.apply(b, m).grid.tobytes())
                   for m in moves)

    return value(board.grid.astype(np.int8).tobytes())


def tables(bits: int = 12):
    size = 1 << bits
    return np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size, np.int32)


def kernel_value(b: rules.Board, penalty: bool, tbl=None):
    cells = K.to_cells(b.grid)
    zob = K.zobrist_table(b.width * b.height)
    keys, values, moves = tbl or tables()
    value, nodes, complete = K.endgame_value(cells, b.width, b.height, zob, keys, values, moves, penalty,
                                             NO_LIMIT, NO_LIMIT)
    return value, complete, cells, zob, (keys, values, moves)


@settings(max_examples=120, deadline=None)
@given(boards(max_side=5), st.booleans())
def test_endgame_value_matches_the_reference_and_its_line_scores_it(b, penalty):
    value, complete, cells, zob, tbl = kernel_value(b, penalty)
    assert complete == 1
    assert value == reference_value(b, penalty)
    out = np.zeros(b.width * b.height, np.int32)
    length = K.endgame_line(cells, b.width, b.height, zob, *tbl, out)
    assert length >= 0
    moves = [K.index_to_move(i, b.height) for i in out[:length]]
    replayed = rules.replay(b, moves, penalty=penalty)
    assert replayed.game_over and replayed.score == value


def test_a_table_is_reused_and_a_small_node_limit_reports_incomplete():
    grid = np.array([[1, 1, 2, 2], [2, 2, 1, 1], [1, 2, 1, 2], [2, 1, 2, 1]], np.int8)
    b = rules.Board(rules.settle(grid))
    cells = K.to_cells(b.grid)
    zob = K.zobrist_table(b.width * b.height)
    keys, values, moves = tables()
    value, nodes, complete = K.endgame_value(cells, 4, 4, zob, keys, values, moves, False, 2, NO_LIMIT)
    assert (value, complete) == (K.NO_VALUE, 0)
    value, nodes, complete = K.endgame_value(cells, 4, 4, zob, keys, values, moves, False, NO_LIMIT, NO_LIMIT)
    assert complete == 1 and nodes > 1 and value == reference_value(b, False)
    again, nodes, complete = K.endgame_value(cells, 4, 4, zob, keys, values, moves, False, 2, NO_LIMIT)
    assert (again, nodes, complete) == (value, 0, 1)  # answered from the table, no search


def first_move_game(b: rules.Board) -> list[int]:
    """A poor but complete game: always the first legal move (kernel cell indices)."""
    seq = []
    while moves := rules.legal_moves(b):
        row, col = moves[0]
        seq.append(col * b.height + (b.height - 1 - row))
        b = rules.apply(b, moves[0])
    return seq


@settings(max_examples=60, deadline=None)
@given(boards(max_side=5), st.booleans())
def test_polishing_a_whole_game_reaches_the_exact_optimum(b, penalty):
    seq = np.array(first_move_game(b), np.int32)
    points, polished, nodes = polish_ending(K.to_cells(b.grid), b.width, b.height, seq, penalty, NO_LIMIT,
                                            NO_LIMIT, None)
    assert points == reference_value(b, penalty)  # on a tiny board the walk back reaches the start
    replayed = rules.replay(b, [K.index_to_move(i, b.height) for i in polished], penalty=penalty)
    assert replayed.game_over and replayed.score == points


def test_polishing_keeps_the_game_when_out_of_nodes():
    b = random_board(10, 10, 3, seed=2)
    seq = np.array(first_move_game(b), np.int32)
    before = rules.replay(b, [K.index_to_move(i, b.height) for i in seq]).score
    points, polished, nodes = polish_ending(K.to_cells(b.grid), 10, 10, seq, False, NO_LIMIT, 1, None)
    assert nodes <= 1 and points == before and list(polished) == list(seq)


def test_tabu_plan_keeps_the_most_frequent_colour_first_and_rates_the_rest():
    b = rules.from_text("0001\n0011\n2211\n3221")  # counts: 0:5, 1:6, 2:4, 3:1
    asked = []

    def screen(colours):
        asked.append(list(colours))
        return {0: 100, 2: 300, 3: 200, 1: 0}

    assert plan_tabu(b, 1, screen) == [1] and asked == []  # one worker, one most frequent colour
    assert plan_tabu(b, 3, screen) == [1, 2, 3] and asked == [[0, 2, 3]]


def test_a_dominant_colour_is_every_workers_tabu_colour_without_rating():
    b = rules.from_text("00001\n00011\n00211")  # counts: 0:9, 1:5, 2:1

    def screen(colours):
        raise AssertionError("no rating needed")

    assert plan_tabu(b, 3, screen) == [0, 0, 0]


def test_tabu_plan_breaks_a_tie_for_most_frequent_by_rating():
    b = rules.from_text("0011\n0011\n2233")  # counts 4, 4, 2, 2

    def screen(colours):
        return {c: r for c, r in {0: 10, 1: 50, 2: 70, 3: 20}.items() if c in colours}

    assert plan_tabu(b, 1, screen) == [1]  # only the tied colours are rated
    assert plan_tabu(b, 2, screen) == [1, 2]
    assert plan_tabu(b, 5, screen) == [1, 2, 3, 0, 1]


def test_solve_samegame_runs_the_planned_colours_and_verifies():
    b = random_board(8, 8, 3, seed=4)
    result = solve_samegame(b, Budget(time_s=3), workers=2, seed=1)
    counts = np.bincount(K.to_cells(b.grid)[K.to_cells(b.grid) >= 0])
    tabus = [int(c) for c in result.details["tabu_colours"]]
    assert tabus[0] == int(np.argmax(counts)) and tabus[1] != tabus[0]
    assert result.verified and rules.replay(b, result.solution).score == result.score
