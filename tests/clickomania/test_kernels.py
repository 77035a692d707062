"""The numba kernels against the plain-Python rules (hypothesis), and the searches' answers."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver.clickomania import kernels as K
from gridsolver.clickomania import rules
from gridsolver.clickomania.generate import clearable_board, random_board

NO_LIMIT = 1 << 62


@st.composite
def boards(draw, max_side=7):
    width = draw(st.integers(1, max_side))
    height = draw(st.integers(1, max_side))
    colours = draw(st.integers(1, 4))
    cells = draw(st.lists(st.integers(-1, colours - 1), min_size=width * height,
                          max_size=width * height))
    grid = np.array(cells, dtype=np.int8).reshape(height, width)
    return rules.Board(rules.settle(grid))


def kernel_groups(b):
    n = b.width * b.height
    cells = K.to_cells(b.grid)
    label, sizes, reps, stack = (np.empty(n, np.int32) for _ in range(4))
    count = K.find_groups(cells, b.width, b.height, label, sizes, reps, stack)
    return [(K.index_to_move(reps[g], b.height), int(sizes[g])) for g in range(count)]


@settings(max_examples=150, deadline=None)
@given(boards())
def test_groups_match_the_reference(b):
    expected = [(rules.canonical(g), len(g)) for g in rules.groups(b)]
    assert kernel_groups(b) == expected


@settings(max_examples=150, deadline=None)
@given(boards(), st.randoms(use_true_random=False))
def test_removal_and_settling_match_the_reference(b, rnd):
    cells = K.to_cells(b.grid)
    stack = np.empty(b.width * b.height, np.int32)
    while True:
        moves = rules.legal_moves(b)
        if not moves:
            break
        move = rnd.choice(moves)
        expected_removed = len(rules.group_at(b, move))
        row, col = move
        index = col * b.height + (b.height - 1 - row)
        removed = K.remove_at(cells, b.width, b.height, index, stack)
        b = rules.apply(b, move)
        assert removed == expected_removed
        assert np.array_equal(K.to_grid(cells, b.width, b.height), b.grid)


@settings(max_examples=150, deadline=None)
@given(boards(max_side=12), st.randoms(use_true_random=False))
def test_tracked_groups_follow_a_game_like_the_reference(b, rnd):
    # the groups kept up to date through each move's dirty zone are the groups found afresh
    n = b.width * b.height
    cells = K.to_cells(b.grid)
    seen, redo, stack = np.zeros(n, np.int32), np.empty(n, np.int32), np.empty(n, np.int32)
    tracked, found = np.empty(n, np.int64), np.empty(n, np.int64)
    low, dirty_low = np.empty(b.width, np.int32), np.zeros(b.width, np.int32)
    zone, count, stamp = (0, b.width - 1), 0, 0
    moves, sizes = np.empty(n, np.int32), np.empty(n, np.int32)
    while True:
        stamp += 1
        count = K.refresh_groups(cells, b.width, b.height, zone[0], zone[1], dirty_low, seen, stamp, tracked,
                                 count, found, redo, stack)
        k = K.tracked_moves(cells, tracked, count, -2, moves, sizes)
        expected = [(rules.canonical(g), len(g)) for g in rules.groups(b) if len(g) >= 2]
        assert [(K.index_to_move(moves[m], b.height), int(sizes[m])) for m in range(k)] == expected
        if not expected:
            break
        canonical_cell, _ = rnd.choice(expected)
        row, col = rnd.choice(rules.group_at(b, canonical_cell))  # any cell of the group, not only its first
        index = col * b.height + (b.height - 1 - row)
        _, first, last, emptied = K.remove_settle(cells, b.width, b.height, index, stack, low)
        zone = K.dirty_zone(b.width, b.height, first, last, emptied, low, dirty_low)
        b = rules.apply(b, (row, col))


def brute_force_fewest(b, memo=None):
    """Plain-Python exhaustive search for the fewest cells left (tiny boards only)."""
    memo = {} if memo is None else memo
    if b in memo:
        return memo[b]
    moves = rules.legal_moves(b)
    best = b.cells_left if not moves else min(brute_force_fewest(rules.apply(b, m), memo) for m in moves)
    memo[b] = best
    return best


@settings(max_examples=60, deadline=None)
@given(boards(max_side=4))
def test_exact_search_finds_the_true_minimum(b):
    n = b.width * b.height
    zob = K.zobrist_table(n)
    table = np.zeros(1 << 12, np.int64)
    path = np.zeros(n, np.int32)
    best, length, _, finished = K.exact_search(K.to_cells(b.grid), b.width, b.height, zob, table,
                                               n + 1, NO_LIMIT, NO_LIMIT, path)
    assert finished == 1
    assert best == brute_force_fewest(b)
    replayed = rules.replay(b, [K.index_to_move(i, b.height) for i in path[:length]])
    assert replayed.cells_left == best and replayed.game_over


def test_exact_search_proves_impossible_boards():
    b = rules.from_text("112\n221")  # the lone top-right 2 can never join another 2
    n = b.width * b.height
    best, _, _, finished = K.exact_search(K.to_cells(b.grid), b.width, b.height, K.zobrist_table(n),
                                          np.zeros(1024, np.int64), n + 1, NO_LIMIT, NO_LIMIT,
                                          np.zeros(n, np.int32))
    assert finished == 1 and best == brute_force_fewest(b) and best > 0


def test_beam_search_sequences_replay_to_its_value():
    b = random_board(12, 8, 4, seed=3)
    n = b.width * b.height
    path = np.zeros(n, np.int32)
    value, length, _, _ = K.beam_search(K.to_cells(b.grid), b.width, b.height, K.zobrist_table(n), 8,
                                        K.CLEAR, False, NO_LIMIT, NO_LIMIT, path)
    assert rules.replay(b, [K.index_to_move(i, b.height) for i in path[:length]]).cells_left == value
    value, length, _, _ = K.beam_search(K.to_cells(b.grid), b.width, b.height, K.zobrist_table(n), 8,
                                        K.SCORE, False, NO_LIMIT, NO_LIMIT, path)
    assert rules.replay(b, [K.index_to_move(i, b.height) for i in path[:length]]).score == -value


def test_nmcs_points_match_the_replay():
    b = random_board(8, 8, 3, seed=5)
    path = np.zeros(64, np.int32)
    for level in (0, 1):
        points, length, _ = K.nmcs(K.to_cells(b.grid), 8, 8, level, True, 11, NO_LIMIT, path)
        outcome = rules.replay(b, [K.index_to_move(i, 8) for i in path[:length]], penalty=True)
        assert outcome.score == points and outcome.game_over


def test_kernel_layout_round_trip():
    b = clearable_board(6, 4, 3, seed=2).board
    assert np.array_equal(K.to_grid(K.to_cells(b.grid), 6, 4), b.grid)
