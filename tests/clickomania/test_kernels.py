"""The Clickomania kernels against the plain-Python rules (hypothesis), and the searches' answers."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver.clickomania import rules
from gridsolver.clickomania.generate import clearable_board, random_board
from gridsolver.clickomania.kernels.beam import (
    Suffixes,
    child_change,
    clear_beam,
    clear_plan,
    column_suffixes,
)
from gridsolver.clickomania.kernels.exact import exact_search
from gridsolver.clickomania.kernels.groups import (
    find_groups,
    index_to_move,
    move_to_index,
    remove_at,
    to_cells,
    to_grid,
    zobrist_table,
)
from gridsolver.clickomania.reference import board_features as reference_features
from gridsolver.clickomania.reference import fewest_cells_left as brute_force_fewest

from .helpers import NO_LIMIT, boards, cell_index


def kernel_groups(b):
    n = b.width * b.height
    cells = to_cells(b.grid)
    label, sizes, reps, stack = (np.empty(n, np.int32) for _ in range(4))
    count = find_groups(cells, b.width, b.height, label, sizes, reps, stack)
    return [(index_to_move(reps[g], b.height), int(sizes[g])) for g in range(count)]


@settings(max_examples=150, deadline=None)
@given(boards())
def test_groups_match_the_reference(b):
    expected = [(rules.canonical(g), len(g)) for g in rules.groups(b)]
    assert kernel_groups(b) == expected


@settings(max_examples=150, deadline=None)
@given(boards(), st.randoms(use_true_random=False))
def test_removal_and_settling_match_the_reference(b, rnd):
    cells = to_cells(b.grid)
    stack = np.empty(b.width * b.height, np.int32)
    while True:
        moves = rules.legal_moves(b)
        if not moves:
            break
        move = rnd.choice(moves)
        expected_removed = len(rules.group_at(b, move))
        row, col = move
        index = col * b.height + (b.height - 1 - row)
        removed = remove_at(cells, b.width, b.height, index, stack)
        b = rules.apply(b, move)
        assert removed == expected_removed
        assert np.array_equal(to_grid(cells, b.width, b.height), b.grid)


@settings(max_examples=60, deadline=None)
@given(boards(max_side=4))
def test_exact_search_finds_the_true_minimum(b):
    n = b.width * b.height
    zob = zobrist_table(n)
    table = np.zeros(1 << 12, np.int64)
    path = np.zeros(n, np.int32)
    best, length, _, finished = exact_search(to_cells(b.grid), b.width, b.height, zob, table,
                                             n + 1, NO_LIMIT, NO_LIMIT, path)
    assert finished == 1
    assert best == brute_force_fewest(b)
    replayed = rules.replay(b, [index_to_move(i, b.height) for i in path[:length]])
    assert replayed.cells_left == best and replayed.game_over


def test_exact_search_proves_impossible_boards():
    b = rules.from_text("112\n221")  # the lone top-right 2 can never join another 2
    n = b.width * b.height
    best, _, _, finished = exact_search(to_cells(b.grid), b.width, b.height, zobrist_table(n),
                                        np.zeros(1024, np.int64), n + 1, NO_LIMIT, NO_LIMIT,
                                        np.zeros(n, np.int32))
    assert finished == 1 and best == brute_force_fewest(b) and best > 0


def test_beam_sequences_replay_to_its_value():
    b = random_board(12, 8, 4, seed=3)
    n = b.width * b.height
    path = np.zeros(n, np.int32)
    value, length, _, _ = clear_beam(to_cells(b.grid), b.width, b.height, zobrist_table(n),
                                     clear_plan(8, 0, 0, 2, 1, 0), path, NO_LIMIT, NO_LIMIT)
    assert rules.replay(b, [index_to_move(i, b.height) for i in path[:length]]).cells_left == value


def test_kernel_layout_round_trip():
    b = clearable_board(6, 4, 3, seed=2).board
    assert np.array_equal(to_grid(to_cells(b.grid), 6, 4), b.grid)


def raw_hash(cells, zob):
    """The xor of the Zobrist keys of the occupied cells (position_hash, except that it maps 0 to 1)."""
    key = 0
    for i, v in enumerate(cells):
        if v != rules.EMPTY:
            key ^= int(zob[i, v])
    return key


@settings(max_examples=100, deadline=None)
@given(boards(), st.randoms(use_true_random=False))
def test_child_change_matches_the_features_of_the_played_board(b, rnd):
    """The clearing beam's change per move, from the changed cells only, equals the plain-Python count on
    the boards before and after, and the hash change gives the child's Zobrist hash."""
    n = b.width * b.height
    zob = zobrist_table(n)
    low = np.empty(max(n, b.width), np.int32)
    suffixes = Suffixes(*[np.empty(n, np.int32) for _ in range(3)], np.empty(n, np.int64))
    while rules.legal_moves(b):
        cells = to_cells(b.grid)
        column_suffixes(cells, b.width, b.height, zob, suffixes)
        before = reference_features(b)
        scratch = cells.copy()
        for move in rules.legal_moves(b):
            removed, d_single, d_link, d_key = child_change(cells, scratch, b.width, b.height,
                                                            cell_index(move, b.height), zob, low, suffixes)
            assert np.array_equal(scratch, cells)  # the move was undone
            after_board = rules.apply(b, move)
            after = reference_features(after_board)
            assert removed == b.cells_left - after_board.cells_left
            assert d_single == after[0] - before[0]
            assert d_link == (after[1] - after[2]) - (before[1] - before[2])
            assert raw_hash(cells, zob) ^ d_key == raw_hash(to_cells(after_board.grid), zob)
        b = rules.apply(b, rnd.choice(rules.legal_moves(b)))


def test_groups_are_cells_minus_links_plus_squares_without_holes():
    # the identity the clearing ranking relies on (Euler's formula), on boards whose groups enclose no hole
    for seed in range(5):
        b = random_board(9, 7, 4, seed=seed)
        singles, links, squares = reference_features(b)
        assert len(rules.groups(b)) == b.cells_left - links + squares
        assert singles == sum(len(g) == 1 for g in rules.groups(b))


def test_clear_beam_sequences_replay_to_its_value_with_any_tie_breaks():
    b = random_board(14, 9, 4, seed=5)
    n = b.width * b.height
    path = np.zeros(n, np.int32)
    values = set()
    for width, tie_seed in ((1, 0), (2, 3), (4, 7)):
        value, length, _, done = clear_beam(to_cells(b.grid), b.width, b.height, zobrist_table(n),
                                            clear_plan(width, 30, 2000, 2, 1, tie_seed), path, NO_LIMIT,
                                            NO_LIMIT)
        assert done == 1 and length >= 0
        replayed = rules.replay(b, [index_to_move(i, b.height) for i in path[:length]])
        assert replayed.cells_left == value and replayed.game_over
        values.add(int(value))
    assert min(values) < 126


@given(st.integers(1, 64), st.integers(1, 64), st.data())
def test_move_to_index_inverts_index_to_move(width, height, data):
    row, col = data.draw(st.integers(0, height - 1)), data.draw(st.integers(0, width - 1))
    index = move_to_index(row, col, height)
    assert index == cell_index((row, col), height) and index_to_move(index, height) == (row, col)
