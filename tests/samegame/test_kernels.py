"""SameGame's kernels against the plain-Python rules: the groups kept up to date through a game, and
the answers of nested Monte-Carlo search, of the score beam and of the tabu beam (against its
plain-Python reference)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver.clickomania import rules
from gridsolver.clickomania.generate import random_board
from gridsolver.clickomania.kernels.groups import (
    MAX_COLOURS_CODE,
    index_to_move,
    remove_settle,
    to_cells,
    zobrist_table,
)
from gridsolver.samegame import reference
from gridsolver.samegame import rules as samegame_rules
from gridsolver.samegame.kernels.beam import TABU_WEIGHTS, beam_search, tabu_beam, tabu_plan, tabu_value
from gridsolver.samegame.kernels.nmcs import nmcs
from gridsolver.samegame.kernels.tracking import dirty_zone, refresh_groups, start_tracking, tracked_moves

from ..clickomania.helpers import NO_LIMIT, boards


@settings(max_examples=150, deadline=None)
@given(boards(max_side=12), st.randoms(use_true_random=False))
def test_tracked_groups_follow_a_game_like_the_reference(b, rnd):
    # the groups kept up to date through each move's dirty zone are the groups found afresh
    n = b.width * b.height
    cells = to_cells(b.grid)
    tracker, zone = start_tracking(n, b.width, np.zeros(n, np.int32), np.empty(n, np.int32))
    count, stamp = 0, 0
    moves, sizes = np.empty(n, np.int32), np.empty(n, np.int32)
    while True:
        stamp += 1
        count = refresh_groups(cells, b.width, b.height, zone, tracker, stamp, count)
        k = tracked_moves(cells, tracker.tracked, count, -2, moves, sizes)
        expected = [(rules.canonical(g), len(g)) for g in rules.groups(b) if len(g) >= 2]
        assert [(index_to_move(moves[m], b.height), int(sizes[m])) for m in range(k)] == expected
        if not expected:
            break
        canonical_cell, _ = rnd.choice(expected)
        row, col = rnd.choice(rules.group_at(b, canonical_cell))  # any cell of the group, not only its first
        index = col * b.height + (b.height - 1 - row)
        _, first, last, emptied = remove_settle(cells, b.width, b.height, index, tracker.stack, tracker.low)
        zone = dirty_zone(b.width, b.height, first, last, emptied, tracker.low, tracker.dirty_low)
        b = rules.apply(b, (row, col))


def test_nmcs_points_match_the_replay():
    b = random_board(8, 8, 3, seed=5)
    path = np.zeros(64, np.int32)
    for level in (0, 1):
        points, length, _ = nmcs(to_cells(b.grid), 8, 8, level, True, 11, NO_LIMIT, path)
        outcome = samegame_rules.replay(b, [index_to_move(i, 8) for i in path[:length]], penalty=True)
        assert outcome.score == points and outcome.game_over


def test_beam_search_sequences_replay_to_its_value():
    b = random_board(12, 8, 4, seed=3)
    n = b.width * b.height
    path = np.zeros(n, np.int32)
    value, length, _, _ = beam_search(to_cells(b.grid), b.width, b.height, zobrist_table(n), 8,
                                      False, NO_LIMIT, NO_LIMIT, path)
    assert samegame_rules.replay(b, [index_to_move(i, b.height) for i in path[:length]]).score == -value


@settings(max_examples=60, deadline=None)
@given(boards(max_side=7), st.sampled_from([1, 2, 5, 16]), st.booleans(),
       st.sampled_from([TABU_WEIGHTS, (8, 2, 8000, 4000, 300, 600, 4, 4), (0, 0, 0, 0, 0, 0, 0, 0)]),
       st.sampled_from([0, 4]))
def test_tabu_beam_scores_like_the_reference(b, beam_width, penalty, weights, endgame_groups):
    # the kernel and the plain-Python beam keep the same positions, so find the same best score
    n = b.width * b.height
    counts = b.colour_counts()
    tabu = max(counts, key=lambda c: counts[c]) if counts else 0
    path = np.zeros(max(n, 1), np.int32)
    table = np.zeros(1 << 16, np.int64), np.zeros(1 << 16, np.int64), np.zeros(1 << 16, np.int32)
    plan = tabu_plan(beam_width, penalty, tabu, weights, 0, 0, endgame_groups, NO_LIMIT)
    value, length, _, _ = tabu_beam(to_cells(b.grid), b.width, b.height, zobrist_table(n), plan, table, path,
                                    NO_LIMIT, NO_LIMIT)
    expected = reference.tabu_beam(b, beam_width, penalty, tabu, weights, endgame_groups)
    if expected is None:
        assert length == -1
        return
    assert -value == expected[0]
    moves = [index_to_move(i, b.height) for i in path[:length]]
    assert samegame_rules.replay(b, moves, penalty=penalty).score == expected[0]


def test_tabu_value_matches_the_reference():
    b = random_board(9, 8, 4, seed=7)
    n = b.width * b.height
    cells = to_cells(b.grid)
    scratch = np.empty(n, np.int32), np.empty(n, np.int32), np.empty(n, np.int32), np.empty(n, np.int32)
    weights = (8, 2, 8000, 4000, 300, 600, 4, 4)
    value, over = tabu_value(cells, b.width, b.height, 17, 1, np.array(weights, np.int64),
                             np.zeros(MAX_COLOURS_CODE, np.int64), np.full(MAX_COLOURS_CODE, 9, np.int64),
                             *scratch)
    assert not over and value == reference.tabu_value(b, 17, 1, weights)
