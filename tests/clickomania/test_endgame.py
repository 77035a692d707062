"""The exact SameGame endgame kernel against a plain-Python memoised search."""

from functools import cache

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver.clickomania import kernels as K
from gridsolver.clickomania import rules

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
