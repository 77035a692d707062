"""The bitboard upkeep against the cell one it stands in for: the same tracked groups (with their
colours), the same dirty zones, the same boards after every move, and playouts that play the same
games and record the same codes."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver.clickomania import rules
from gridsolver.clickomania.generate import random_board
from gridsolver.clickomania.kernels.groups import (
    EMPTY,
    MAX_COLOURS_CODE,
    index_to_move,
    to_cells,
)
from gridsolver.core.kernels.random import seed_numba_random
from gridsolver.samegame import rules as samegame_rules
from gridsolver.samegame.kernels.bitboard import (
    COLOUR_SHIFT,
    WORDS,
    bits_codes,
    bits_tracker,
    board_masks,
    cell_of,
    fits_bitboard,
    play_bits,
    refresh_bits,
)
from gridsolver.samegame.kernels.nrpa import nrpa
from gridsolver.samegame.kernels.policy_playout import (
    BitsStart,
    Codes,
    Record,
    Start,
    bits_playout,
    bits_workspace,
    table_playout,
    workspace,
)
from gridsolver.samegame.kernels.tracking import play_tracked, refresh_groups, start_tracking, tracked_codes

from ..clickomania.helpers import NO_LIMIT, boards


def _colours(cells):
    return int(cells.max()) + 1 if (cells != EMPTY).any() else 1


def _follow_both(b, rnd, tabu=0):
    """Play random moves to the end with both upkeeps side by side, checking them at every step;
    returns the number of moves played."""
    width, height, n = b.width, b.height, b.width * b.height
    cells = to_cells(b.grid)
    colours = _colours(cells)
    expected_masks = np.zeros((colours + 1, WORDS), np.int64)
    on_bits = bits_tracker(n, width, colours)
    board_masks(cells, width, height, colours, on_bits.masks)
    tracker, zone = start_tracking(n, width, np.zeros(n, np.int32), np.empty(n, np.int32))
    tracked, bits_tracked, bits_zone = tracker.tracked, on_bits.tracked, zone
    count = bits_count = stamp = moves_played = 0
    moves, sizes, codes = np.empty(n, np.int32), np.empty(n, np.int32), np.empty(n, np.int64)
    bits_codes_, records = np.empty(n, np.int64), np.empty(n, np.int64)
    while True:
        stamp += 1
        count = refresh_groups(cells, width, height, zone, tracker, stamp, count)
        bits_count = refresh_bits(on_bits, colours, height, bits_zone, bits_count)
        assert bits_count == count
        # the same records once each bit index is a cell and the colour is left out
        reps = tracked[:count] >> 40
        bits = bits_tracked[:count] >> 40
        assert np.array_equal((bits >> 4) * height + (bits & 15), reps)
        fields = (np.int64(1) << COLOUR_SHIFT) - 1
        assert np.array_equal(bits_tracked[:count] & fields, tracked[:count] & fields)
        assert np.array_equal((bits_tracked[:count] >> COLOUR_SHIFT) & 0xFF, cells[reps])
        k = tracked_codes(cells, tracked, count, tabu, n, moves, sizes, codes)
        assert bits_codes(bits_tracked, bits_count, tabu, n, height, bits_codes_, records) == k
        assert [cell_of(r, height) for r in records[:k]] == moves[:k].tolist()
        assert ((records[:k] >> 24) & 0xFF).tolist() == sizes[:k].tolist()
        assert np.array_equal(bits_codes_[:k], codes[:k])
        if k == 0:
            return moves_played
        pick = rnd.randrange(k)
        zone = play_tracked(cells, width, height, moves[pick], tracker)
        bits_zone = play_bits(on_bits, colours, width, height, records[pick])
        moves_played += 1
        assert bits_zone == zone
        assert np.array_equal(on_bits.dirty_low[zone[0]:zone[1] + 1], tracker.dirty_low[zone[0]:zone[1] + 1])
        board_masks(cells, width, height, colours, expected_masks)
        assert np.array_equal(on_bits.masks, expected_masks)  # cells fell and columns closed up alike


@settings(max_examples=120, deadline=None)
@given(boards(max_side=12), st.integers(0, 3), st.randoms(use_true_random=False))
def test_bitboards_keep_the_groups_the_cells_keep(b, tabu, rnd):
    _follow_both(b, rnd, tabu)


@settings(max_examples=100, deadline=None)
@given(boards(max_side=12), st.randoms(use_true_random=False))
def test_bitboard_groups_follow_a_game_like_the_plain_python_rules(b, rnd):
    # each group (canonical cell, size, colour) as the rules find it afresh, move after move
    width, height, n = b.width, b.height, b.width * b.height
    cells = to_cells(b.grid)
    colours = _colours(cells)
    bits = bits_tracker(n, width, colours)
    board_masks(cells, width, height, colours, bits.masks)
    tracked, zone, count = bits.tracked, (0, width - 1), 0
    while True:
        count = refresh_bits(bits, colours, height, zone, count)
        got = [(index_to_move(cell_of(r, height), height), int((r >> 24) & 0xFF),
                int((r >> COLOUR_SHIFT) & 0xFF)) for r in tracked[:count]]
        expected = [(rules.canonical(g), len(g), int(b.grid[rules.canonical(g)])) for g in rules.groups(b)
                    if len(g) >= 2]
        assert got == expected
        if not expected:
            break
        pick = rnd.randrange(count)
        zone = play_bits(bits, colours, width, height, tracked[pick])
        b = rules.apply(b, expected[pick][0])


@pytest.mark.parametrize("width,height,colours", [(16, 15, 5), (15, 15, 5), (16, 15, 2), (13, 15, 3)])
def test_bitboards_on_the_largest_boards_they_take(width, height, colours):
    # the last lane of every word, the top cell of every lane, and columns closing up across words
    for seed in range(6):
        played = _follow_both(random_board(width, height, colours, seed=seed), random.Random(seed))
        assert played > 3


def test_sizes_that_fit():
    assert fits_bitboard(16, 15) and fits_bitboard(1, 1)
    assert not fits_bitboard(17, 15) and not fits_bitboard(16, 16)


def _both_playouts(b, policy, tabu, seed, start_groups):
    """The game and record of a cell playout and of a bitboard one, same random draws."""
    width, height, n = b.width, b.height, b.width * b.height
    cells = to_cells(b.grid)
    colours = _colours(cells)
    size = n * n // 8 + n
    results = []
    for bits in (False, True):
        record = np.empty(n + 1, np.int64), np.empty(size, np.int64), np.empty(n, np.int64)
        seq = np.empty(n, np.int32)
        seed_numba_random(seed)
        if bits:
            start_masks = np.zeros((colours + 1, WORDS), np.int64)
            board_masks(cells, width, height, colours, start_masks)
            start = BitsStart(start_masks, colours, np.int64((cells != EMPTY).sum()), width, height)
            work = bits_workspace(n, width, colours)._replace(start_groups=start_groups)
            points, length = bits_playout(start, policy, np.exp(policy), tabu, True, seq, Record(*record),
                                          work)
        else:
            points, length = table_playout(Start(cells, width, height), policy, np.exp(policy), tabu, True,
                                           seq, workspace(n), Codes(np.empty(0, np.int64), 0),
                                           Record(*record), np.full(n + 1, -1, np.int64))
        total = record[0][length]
        results.append((int(points), seq[:length].tolist(), record[0][:length + 1].tolist(),
                        record[1][:total].tolist(), record[2][:length].tolist()))
    return results


@settings(max_examples=40, deadline=None)
@given(boards(max_side=9), st.integers(0, 3), st.integers(0, 10**6))
def test_bitboard_playouts_play_the_cell_playouts_games(b, tabu, seed):
    n = b.width * b.height
    policy = np.random.default_rng(seed).normal(size=MAX_COLOURS_CODE * n)
    cell_game, bits_game = _both_playouts(b, policy, tabu, seed, np.full(n + 1, -1, np.int64))
    assert bits_game == cell_game


def test_full_size_bitboard_playouts_keep_the_start_groups():
    # 15 x 15, five colours: the first playout files the start's groups, later ones copy them and
    # still play what a cell playout plays
    b = random_board(15, 15, 5, seed=3)
    n = b.width * b.height
    policy = np.random.default_rng(2).normal(scale=0.5, size=MAX_COLOURS_CODE * n)
    start_groups = np.full(n + 1, -1, np.int64)
    for seed in (1, 2, 3):
        cell_game, bits_game = _both_playouts(b, policy, 0, seed, start_groups)
        assert bits_game == cell_game and len(bits_game[1]) > 30
        assert start_groups[0] > 10


@pytest.mark.parametrize("width,height", [(16, 15), (17, 15), (16, 16), (30, 30)])
def test_nrpa_on_both_sides_of_the_bitboard_limit(width, height):
    # the largest bitboard size and boards just past it (which must not touch the masks at all)
    b = random_board(width, height, 4, seed=1)
    path = np.zeros(width * height, np.int32)
    points, length, playouts = nrpa(to_cells(b.grid), width, height, 2, 10, False, 3, NO_LIMIT, 150, path)
    outcome = samegame_rules.replay(b, [index_to_move(i, height) for i in path[:length]])
    assert playouts == 150 and outcome.score == points and outcome.game_over
