
"""NRPA for SameGame: the policy kernels against a plain-Python statement, and the search's answers."""


import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver import samegame
from gridsolver.clickomania import rules
from gridsolver.clickomania.generate import random_board
from gridsolver.clickomania.kernels.groups import MAX_COLOURS_CODE, index_to_move, to_cells
from gridsolver.core.kernels.random import seed_numba_random
from gridsolver.samegame import rules as samegame_rules
from gridsolver.samegame.kernels.nrpa import adapt_policy, adapt_table, nrpa, nrpa_run, nrpa_state
from gridsolver.samegame.kernels.policy_playout import (
    Codes,
    Record,
    Start,
    _allowed_moves,
    _move_codes,
    most_frequent_colour,
    policy_playout,
    sequence_codes,
    table_playout,
    workspace,
)
from gridsolver.samegame.reference import adapt as reference_adapt
from gridsolver.samegame.reference import allowed_moves as reference_allowed

from ..clickomania.helpers import NO_LIMIT, boards, cell_index

CELL_CODES = Codes(np.empty(0, np.int64), 0)  # (colour, canonical cell) move codes


def scratch(n):
    return workspace(n)


def start_of(b):
    return Start(to_cells(b.grid), b.width, b.height)


def kernel_playout(board, policy, tabu, seed, penalty=False):
    n = board.width * board.height
    s = scratch(n)
    seq = np.empty(n, np.int32)
    seed_numba_random(seed)
    points, length = policy_playout(start_of(board), policy, tabu, penalty, seq, s, CELL_CODES)
    return int(points), [index_to_move(i, board.height) for i in seq[:length]]


@settings(max_examples=80, deadline=None)
@given(boards(max_side=6), st.integers(0, 3), st.integers(0, 10**6))
def test_policy_playout_obeys_the_tabu_rule_and_scores_like_the_replay(b, tabu, seed):
    n = b.width * b.height
    policy = np.random.default_rng(seed).normal(size=MAX_COLOURS_CODE * n)
    points, moves = kernel_playout(b, policy, tabu, seed, penalty=True)
    board = b
    for move in moves:
        assert move in reference_allowed(board, tabu)
        board = rules.apply(board, move)
    outcome = samegame_rules.replay(b, moves, penalty=True)
    assert outcome.game_over and outcome.score == points


@settings(max_examples=80, deadline=None)
@given(boards(max_side=6), st.integers(0, 3), st.integers(0, 10**6))
def test_adapt_policy_matches_the_reference(b, tabu, seed):
    n = b.width * b.height
    rng = np.random.default_rng(seed)
    policy = np.zeros(MAX_COLOURS_CODE * n)
    touched = rng.integers(0, policy.size, size=min(20, policy.size))
    policy[touched] = rng.normal(size=touched.size)
    _, moves = kernel_playout(b, policy, tabu, seed)
    expected = reference_adapt(b, {i: float(policy[i]) for i in range(policy.size) if policy[i] != 0}, moves,
                               tabu, 1.0)
    s = scratch(n)
    seq = np.array([cell_index(m, b.height) for m in moves] or [0], np.int32)
    adapted = policy.copy()
    adapt_policy(start_of(b), adapted, seq, len(moves), tabu, 1.0, s, CELL_CODES)
    dense = np.zeros_like(policy)
    for code, value in expected.items():
        dense[code] = value
    assert np.allclose(adapted, dense, atol=1e-9)


def table_adapt(b, policy, moves, tabu):
    """:func:`adapt_table` on the recorded codes of ``moves``, with the table exp(policy); returns
    (policy, table, flags) after it."""
    n = b.width * b.height
    s = scratch(n)
    seq = np.array([cell_index(m, b.height) for m in moves] or [0], np.int32)
    step_start, codes = np.zeros(n + 1, np.int64), np.empty(n * n // 8 + n, np.int64)
    chosen = np.empty(n, np.int64)
    sequence_codes(start_of(b), seq, len(moves), tabu, s, CELL_CODES,
                   Record(step_start, codes, chosen))
    policy = policy.copy()
    with np.errstate(over="ignore"):  # huge weights: inf in the table, which the kernel must not use
        table = np.exp(policy)
    flags = np.zeros(policy.size, np.bool_)
    adapt_table(policy, table, flags, Record(step_start, codes, chosen), len(moves), 1.0,
                np.empty(codes.size))
    return policy, table, flags


@settings(max_examples=60, deadline=None)
@given(boards(max_side=6), st.integers(0, 3), st.integers(0, 10**6))
def test_exp_table_playout_and_adaptation_match_the_reference(b, tabu, seed):
    # the table of exponentials changes no game and no update: same moves as the computed weights,
    # the reference's adaptation, and the table still exp(policy) afterwards
    n = b.width * b.height
    policy = np.random.default_rng(seed).normal(size=MAX_COLOURS_CODE * n)
    points, moves = kernel_playout(b, policy, tabu, seed, penalty=True)
    s = scratch(n)
    seq = np.empty(n, np.int32)
    seed_numba_random(seed)
    points2, length = table_playout(start_of(b), policy, np.exp(policy), tabu, True, seq, s, CELL_CODES)
    assert (points2, [index_to_move(i, b.height) for i in seq[:length]]) == (points, moves)
    expected = reference_adapt(b, {i: float(policy[i]) for i in range(policy.size)}, moves, tabu, 1.0)
    adapted, table, flags = table_adapt(b, policy, moves, tabu)
    assert np.allclose(adapted, [expected[i] for i in range(policy.size)], atol=1e-9)
    assert np.allclose(table, np.exp(adapted), rtol=1e-12) and not flags.any()


def test_exp_table_falls_back_outside_exps_range():
    # weights whose exponentials overflow: the playout and the update compute them shifted instead
    b = rules.from_text("1122\n1122\n3344")
    n = b.width * b.height
    first = rules.canonical(rules.group_at(b, (0, 2)))
    policy = np.full(MAX_COLOURS_CODE * n, 900.0)
    policy[int(b.grid[first]) * n + cell_index(first, b.height)] = 920.0
    s = scratch(n)
    seq = np.empty(n, np.int32)
    seed_numba_random(0)
    with np.errstate(over="ignore"):
        table = np.exp(policy)
    table_playout(start_of(b), policy, table, 9, False, seq, s, CELL_CODES)
    assert index_to_move(seq[0], b.height) == first
    _, moves = kernel_playout(b, policy, 9, 0)
    expected = policy.copy()
    seq = np.array([cell_index(m, b.height) for m in moves], np.int32)
    adapt_policy(start_of(b), expected, seq, len(moves), 9, 1.0, s, CELL_CODES)
    adapted, _, _ = table_adapt(b, policy, moves, 9)
    assert np.allclose(adapted, expected, atol=1e-9)


def test_policy_follows_a_strong_preference():
    # a policy that strongly favours one first move picks it nearly every time
    b = rules.from_text("1122\n1122\n3344")
    n = b.width * b.height
    first = (0, 2)  # the group of 2s (canonical cell: lowest cell of its leftmost column is row 1)
    first = rules.canonical(rules.group_at(b, first))
    policy = np.zeros(MAX_COLOURS_CODE * n)
    policy[int(b.grid[first]) * n + cell_index(first, b.height)] = 20.0
    picks = [kernel_playout(b, policy, 9, seed)[1][0] for seed in range(20)]
    assert picks == [first] * 20


def test_nrpa_points_match_the_replay_at_every_level():
    b = random_board(8, 8, 3, seed=5)
    path = np.zeros(64, np.int32)
    for level, penalty in ((1, True), (2, False), (3, True)):
        cells = to_cells(b.grid)
        points, length, playouts = nrpa(cells, 8, 8, level, 10, penalty, 3, NO_LIMIT, 3000, path)
        outcome = samegame_rules.replay(b, [index_to_move(i, 8) for i in path[:length]], penalty=penalty)
        assert outcome.score == points and outcome.game_over
        assert playouts == 3000  # restarted until the playout limit, which is exact


def reference_level_one(b, tabu, seed, playouts):
    """Level 1 of NRPA from the tested pieces: each policy playout followed by one adaptation towards
    the best game so far (ties: the later game). Returns the best points, the first game that scored
    them and the policy."""
    n = b.width * b.height
    s = scratch(n)
    start = start_of(b)
    policy = np.zeros(MAX_COLOURS_CODE * n)
    seq = np.empty(n, np.int32)
    best, best_seq = None, None
    seed_numba_random(seed)  # the playouts draw from numba's generator, as the kernel's do after its seeding
    for _ in range(playouts):
        points, length = policy_playout(start, policy, tabu, False, seq, s, CELL_CODES)
        if best is None or points >= best:
            if best is None or points > best:  # the game reported: the first to reach the best points
                first_best = seq[:length].copy()
            best, best_seq = int(points), seq[:length].copy()
        adapt_policy(start, policy, best_seq, len(best_seq), tabu, 1.0, s, CELL_CODES)
    return best, first_best, policy


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 19))
def test_level_one_plays_and_adapts_like_the_reference(seed, playouts):
    # inside the first level-1 search of 20 playouts (a finished one restarts from a fresh policy)
    b = random_board(6, 5, 3, seed=seed % 7)
    cells, path = to_cells(b.grid), np.zeros(30, np.int32)
    state = nrpa_state(30, 1)
    points, length, used = nrpa_run(cells, 6, 5, 1, 20, False, seed, NO_LIMIT, playouts, path, 1, state,
                                    False)
    best, best_seq, policy = reference_level_one(b, 1, seed, playouts)
    assert used == playouts and points == best and list(path[:length]) == list(best_seq)
    assert np.allclose(state[1][1], policy, atol=1e-9)  # the level-1 policy


def test_a_resumed_run_goes_on_where_it_stopped():
    # level 3 of 10 x 10 x 10 playouts: 255 playouts stop in the sixth playout of the sixth level-1
    # search of the third level-2 search; 40 more end in the ninth level-1 search of that level-2 search
    b = random_board(8, 8, 3, seed=5)
    cells, path = to_cells(b.grid), np.zeros(64, np.int32)
    state = nrpa_state(64, 3)
    first, _, used = nrpa_run(cells, 8, 8, 3, 10, False, 3, NO_LIMIT, 255, path, -1, state, False)
    assert used == 255 and list(state[5][1:]) == [5, 5, 2]
    points, length, used = nrpa_run(cells, 8, 8, 3, 10, False, 4, NO_LIMIT, 40, path, -1, state, True)
    assert used == 40 and list(state[5][1:]) == [5, 9, 2]  # a fresh run would be at [0, 4, 0]
    assert points >= first  # the best game the state holds still counts
    outcome = samegame_rules.replay(b, [index_to_move(i, 8) for i in path[:length]])
    assert outcome.score == points and outcome.game_over


def test_nrpa_adaptation_beats_a_flat_policy():
    # the same number of playouts with adaptation (level 2) against the best of independent playouts
    b = random_board(10, 10, 3, seed=8)
    path = np.zeros(100, np.int32)
    adapted, _, _ = nrpa(to_cells(b.grid), 10, 10, 2, 30, False, 1, NO_LIMIT, 900, path)
    flat = np.zeros(MAX_COLOURS_CODE * 100)
    tabu = most_frequent_colour(to_cells(b.grid), np.zeros(MAX_COLOURS_CODE, np.int64))
    best_flat = max(kernel_playout(b, flat, tabu, seed)[0] for seed in range(900))
    assert adapted > best_flat


def test_nrpa_is_the_default_samegame_method_and_is_verified():
    board = random_board(10, 10, 4, seed=6)
    result = samegame.solve(board, time=2, nodes=500, workers=1, seed=3)
    assert result.details["method"] == "nrpa" and result.verified
    assert result.stats.nodes <= 500
    assert samegame_rules.replay(board, result.solution).score == result.score


@settings(max_examples=60, deadline=None)
@given(boards(max_side=6), st.integers(0, 10**6))
def test_hashed_move_codes_match_the_reference(b, seed):
    n = b.width * b.height
    keys = np.random.default_rng(seed).integers(1, 2**62, size=n + MAX_COLOURS_CODE, dtype=np.int64)
    mask = (1 << 12) - 1
    s = scratch(n)
    cells = to_cells(b.grid)
    k = _allowed_moves(cells, b.width, b.height, -2, s)
    out = np.empty(n, np.int64)
    _move_codes(cells, n, k, s.moves, s.label, keys, mask, np.empty(n, np.int64), out)
    for m in range(k):
        move = index_to_move(s.moves[m], b.height)
        expected = int(keys[n + int(b.grid[move])])
        for cell in rules.group_at(b, move):
            expected ^= int(keys[cell_index(cell, b.height)])
        assert out[m] == expected & mask


def test_nrpa_with_hashed_codes_replays_to_its_points():
    b = random_board(9, 7, 4, seed=2)
    path = np.zeros(63, np.int32)
    points, length, playouts = nrpa(to_cells(b.grid), 9, 7, 2, 20, True, 5, NO_LIMIT, 1000, path, 14)
    outcome = samegame_rules.replay(b, [index_to_move(i, 7) for i in path[:length]], penalty=True)
    assert outcome.score == points and outcome.game_over and playouts == 1000


def test_huge_policy_weights_do_not_overflow():
    # weights far beyond exp's range still give a proper distribution (and a finite adapted policy)
    b = rules.from_text("1122\n1122\n3344")
    n = b.width * b.height
    first = rules.canonical(rules.group_at(b, (0, 2)))
    policy = np.full(MAX_COLOURS_CODE * n, 900.0)
    policy[int(b.grid[first]) * n + cell_index(first, b.height)] = 920.0
    assert [kernel_playout(b, policy, 9, seed)[1][0] for seed in range(10)] == [first] * 10
    s = scratch(n)
    _, moves = kernel_playout(b, policy, 9, 0)
    seq = np.array([cell_index(m, b.height) for m in moves], np.int32)
    adapt_policy(start_of(b), policy, seq, len(moves), 9, 1.0, s, CELL_CODES)
    assert np.isfinite(policy).all()
