"""The playout's own kernels against the ones they stand in for: the removal that settles only
above the removed cells, the moves and codes read off the tracked groups in one pass, the codes a
playout records against replaying its game, and the start's groups kept from playout to playout."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver.clickomania.generate import random_board
from gridsolver.clickomania.kernels.groups import (
    EMPTY,
    MAX_COLOURS_CODE,
    remove_settle,
    to_cells,
)
from gridsolver.core.kernels.random import seed_numba_random
from gridsolver.samegame.kernels.policy_playout import (
    Codes,
    Record,
    Start,
    sequence_codes,
    table_playout,
    workspace,
)
from gridsolver.samegame.kernels.tracking import (
    dirty_zone,
    refresh_groups,
    remove_fall,
    start_tracking,
    tracked_codes,
    tracked_moves,
)

from ..clickomania.helpers import boards


@settings(max_examples=80, deadline=None)
@given(boards(max_side=12), st.randoms(use_true_random=False))
def test_remove_fall_settles_like_remove_settle(b, rnd):
    # any occupied cell, a single one too, until the board is empty: same cells, same returns, same
    # lowest changed height in every column of the group
    n = b.width * b.height
    cells = to_cells(b.grid)
    stack, low = np.empty(n, np.int32), np.empty(b.width, np.int32)
    while (cells != EMPTY).any():
        start = rnd.choice(np.flatnonzero(cells != EMPTY).tolist())
        expected_cells = cells.copy()
        expected_low = np.empty(b.width, np.int32)
        expected = remove_settle(expected_cells, b.width, b.height, start, stack, expected_low)
        got = remove_fall(cells, b.width, b.height, start, stack, low)
        assert got == expected
        assert np.array_equal(cells, expected_cells)
        _, first, last, _ = got
        assert np.array_equal(low[first:last + 1], expected_low[first:last + 1])


@settings(max_examples=60, deadline=None)
@given(boards(max_side=10), st.integers(0, 3), st.randoms(use_true_random=False))
def test_tracked_codes_are_the_tracked_moves_with_their_codes(b, tabu, rnd):
    n = b.width * b.height
    cells = to_cells(b.grid)
    tracker, zone = start_tracking(n, b.width, np.zeros(n, np.int32), np.empty(n, np.int32))
    tracked, count, stamp = tracker.tracked, 0, 0
    moves, sizes, codes = np.empty(n, np.int32), np.empty(n, np.int32), np.empty(n, np.int64)
    expected_moves, expected_sizes = np.empty(n, np.int32), np.empty(n, np.int32)
    while True:
        stamp += 1
        count = refresh_groups(cells, b.width, b.height, zone, tracker, stamp, count)
        k = tracked_codes(cells, tracked, count, tabu, n, moves, sizes, codes)
        expected = tracked_moves(cells, tracked, count, tabu, expected_moves, expected_sizes)
        assert k == expected
        assert np.array_equal(moves[:k], expected_moves[:k]) and np.array_equal(sizes[:k], expected_sizes[:k])
        assert codes[:k].tolist() == [int(cells[m]) * n + int(m) for m in moves[:k]]
        if k == 0:
            break
        move = moves[rnd.randrange(k)]
        _, first, last, emptied = remove_fall(cells, b.width, b.height, move, tracker.stack, tracker.low)
        zone = dirty_zone(b.width, b.height, first, last, emptied, tracker.low, tracker.dirty_low)


CELL_CODES = Codes(np.empty(0, np.int64), 0)  # (colour, canonical cell) move codes


def _playouts(b, policy, tabu, seed, start_groups):
    """The game of a playout without extras and of one that records its codes and keeps the start's
    groups in ``start_groups``; returns both games and the record."""
    n = b.width * b.height
    cells = to_cells(b.grid)
    size = n * n // 8 + n
    record = np.empty(n + 1, np.int64), np.empty(size, np.int64), np.empty(n, np.int64)
    games = []
    for extra in ((), (Record(*record), start_groups)):
        seq = np.empty(n, np.int32)
        seed_numba_random(seed)
        points, length = table_playout(Start(cells, b.width, b.height), policy, np.exp(policy), tabu, True,
                                       seq, workspace(n), CELL_CODES, *extra)
        games.append((int(points), seq[:length].copy()))
    return games, record


def _replayed(b, seq, tabu):
    """What sequence_codes records on replaying ``seq``: (step starts, codes, chosen codes)."""
    n = b.width * b.height
    size = n * n // 8 + n
    replay = np.empty(n + 1, np.int64), np.empty(size, np.int64), np.empty(n, np.int64)
    sequence_codes(Start(to_cells(b.grid), b.width, b.height), seq, len(seq), tabu, workspace(n), CELL_CODES,
                   Record(*replay))
    return replay


def _same_record(record, replay, length):
    total = replay[0][length]
    return (np.array_equal(record[0][:length + 1], replay[0][:length + 1])
            and np.array_equal(record[1][:total], replay[1][:total])
            and np.array_equal(record[2][:length], replay[2][:length]))


@settings(max_examples=40, deadline=None)
@given(boards(max_side=8), st.integers(0, 3), st.integers(0, 10**6))
def test_playout_records_the_codes_a_replay_records(b, tabu, seed):
    # recording and keeping the start's groups (found by this playout: the cache starts empty) change
    # no game, and the codes a playout files as it goes are those sequence_codes finds on replaying it
    n = b.width * b.height
    policy = np.random.default_rng(seed).normal(size=MAX_COLOURS_CODE * n)
    (plain, kept), record = _playouts(b, policy, tabu, seed, np.full(n + 1, -1, np.int64))
    assert plain[0] == kept[0] and np.array_equal(plain[1], kept[1])
    assert _same_record(record, _replayed(b, kept[1], tabu), len(kept[1]))


def test_full_size_playouts_keep_the_start_groups_and_record_their_codes():
    # 15 x 15, five colours: playouts after the first copy the start's groups kept by the first, and
    # still play the games of playouts that find them; every record matches the replay
    b = random_board(15, 15, 5, seed=3)
    n = b.width * b.height
    policy = np.random.default_rng(2).normal(scale=0.5, size=MAX_COLOURS_CODE * n)
    start_groups = np.full(n + 1, -1, np.int64)
    for seed in (1, 2, 3):
        (plain, kept), record = _playouts(b, policy, 0, seed, start_groups)
        assert plain[0] == kept[0] and np.array_equal(plain[1], kept[1]) and len(kept[1]) > 30
        assert start_groups[0] > 10
        replay = _replayed(b, kept[1], 0)
        assert replay[0][len(kept[1])] > 10 * len(kept[1])
        assert _same_record(record, replay, len(kept[1]))
