"""The numba kernels against the plain-Python reference."""

import random
from collections import namedtuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver.bunny import reference as ref
from gridsolver.bunny.kernels import library as K
from gridsolver.bunny.kernels import orbit
from gridsolver.bunny.rules import Loop, board_from_text, token_count
from gridsolver.bunny.search import Library
from gridsolver.core.kernels.stops import EXHAUSTED, LIBRARY_FULL

from .helpers import all_programs, random_connected_board, random_program

NO_LIMITS = np.array([1 << 62, 1 << 62], np.int64)


def _board(seed):
    rng = random.Random(seed)
    return random_connected_board(rng, rng.randint(1, 4), rng.randint(2, 4))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_compose_matches_reference(seed):
    rng = random.Random(seed)
    board = _board(seed)
    a = ref.behaviour(board, random_program(rng, rng.randint(1, 5)))
    b = ref.behaviour(board, random_program(rng, rng.randint(1, 5)))
    fa, va = ref.to_arrays(board, a)
    fb, vb = ref.to_arrays(board, b)
    out_f, out_v = np.empty_like(fa), np.empty_like(va)
    K.compose(fa, va, fb, vb, out_f, out_v)
    want_f, want_v = ref.to_arrays(board, ref.compose(a, b))
    assert np.array_equal(out_f, want_f) and np.array_equal(out_v, want_v)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_cycle_structure_matches_direct_iteration(seed):
    rng = random.Random(seed)
    f = np.array([rng.randrange(30) for _ in range(30)], np.int32)
    cyclic, period = orbit.cycle_structure(f, 10**9)
    for s in range(30):
        x = s
        for _ in range(30):
            x = f[x]
        on_cycle = any(_iterate(f, s, k) == s for k in range(1, 31))
        assert cyclic[s] == on_cycle
        assert _iterate(f, x, int(period)) == x  # the period returns every cyclic state
    lengths = {min(k for k in range(1, 31) if _iterate(f, s, k) == s) for s in range(30) if cyclic[s]}
    assert int(period) == int(np.lcm.reduce(list(lengths)))


def _iterate(f, s, k):
    for _ in range(k):
        s = int(f[s])
    return s


def test_library_entries_match_reference_and_are_distinct():
    for seed in range(6):
        board = _board(seed)
        lib = Library(board, 1 << 16)
        stats = np.zeros(4, np.int64)
        for _ in range(3):
            assert lib.build_next(NO_LIMITS, 10_000, stats) == EXHAUSTED
        seen = set()
        for e in range(lib.size):
            program = lib.program(e)
            f, v = ref.to_arrays(board, ref.behaviour(board, program))
            assert np.array_equal(lib.lib_f[e], f) and np.array_equal(lib.visited(e), v), program
            assert token_count(program) == lib.tokens[e]
            key = (f.tobytes(), v.tobytes())
            assert key not in seen
            seen.add(key)


@pytest.mark.parametrize("seed", [0, *(pytest.param(s, marks=pytest.mark.slow) for s in range(1, 4))])
def test_library_covers_every_program_up_to_its_size_for_all_counts_tried(seed):
    """Every program of up to 3 tokens (counts up to 40) has its behaviour in the library, no larger."""
    board = _board(seed)
    lib = Library(board, 1 << 16)
    stats = np.zeros(4, np.int64)
    for _ in range(2):
        lib.build_next(NO_LIMITS, 10_000, stats)
    stored = {}
    for e in range(lib.size):
        stored[(lib.lib_f[e].astype(np.int32).tobytes(), lib.visited(e).tobytes())] = int(lib.tokens[e])
    for k in range(1, 4):
        for program in all_programs(k, 40):
            f, v = ref.to_arrays(board, ref.behaviour(board, program))
            assert stored.get((f.tobytes(), v.tobytes()), 99) <= k, program


def test_final_loop_matches_the_simulated_orbit():
    board = board_from_text("S###\n#  #\n####")
    body = ref.behaviour(board, ("F", "F", "F", "R"))
    f, v = ref.to_arrays(board, body)
    lib_f = f[None, :]
    lib_r = np.arange(len(f), dtype=np.int32)[None, :]  # entry 0's rows are the pool's rows
    target = np.zeros(1, np.uint64)
    for q in board.targets():
        target[0] |= np.uint64(1 << q)
    vis = np.zeros(1, np.uint64)
    vis[0] = np.uint64(1 << board.start)
    stamp = np.full(lib_f.shape[1], -1, np.int64)
    acc = np.zeros(1, np.uint64)
    library = namedtuple("Entries", "lib_f lib_r pool")(lib_f, lib_r, v)  # what a library bundle holds
    n = orbit.final_loop(board.start * 4, vis, (0, -1, -1, 1), library, target, stamp, 1, acc)
    assert n == 4
    from gridsolver.bunny.rules import simulate

    assert simulate(board, (Loop(n, ("F", "F", "F", "R")),)).solved
    assert not simulate(board, (Loop(n - 1, ("F", "F", "F", "R")),)).solved


def test_pooled_rows_are_distinct_and_entries_of_a_larger_board_match_the_reference():
    """Row ids found without a lookup (a loop's unchanged rows, a sequence's tail rows) are right:
    on a 100-square board (two words a row) with the loop layer, every sampled entry's rows
    equal the reference's, and the pool holds each row once."""
    from gridsolver.bunny.generate import random_board

    board = random_board(seed=3, squares=100).board
    lib = Library(board, 1 << 16)
    stats = np.zeros(4, np.int64)
    for _ in range(2):
        assert lib.build_next(NO_LIMITS, 10_000, stats) == EXHAUSTED
    assert lib.build_loop_layer(NO_LIMITS, 10_000, stats) == EXHAUSTED
    assert lib.loop_layer == lib.top + 1 and lib.level_end[lib.top + 1] > lib.level_start[lib.top + 1]
    rows = lib.pool[: lib.rows[0]]
    assert len(np.unique(rows, axis=0)) == len(rows)
    assert lib.rows[0] < lib.size * 4 * board.size // 4  # rows are shared: far fewer than entries x states
    rng = random.Random(1)
    for e in sorted(rng.sample(range(lib.size), 60)) + [lib.size - 1]:
        program = lib.program(e)
        f, v = ref.to_arrays(board, ref.behaviour(board, program))
        assert np.array_equal(lib.lib_f[e], f) and np.array_equal(lib.visited(e), v), program
        assert token_count(program) == lib.tokens[e]
    layer = range(lib.level_start[lib.top + 1], lib.level_end[lib.top + 1])
    assert all(lib.kinds[e] == K.KIND_LOOP and lib.kinds[lib.arg0[e]] != K.KIND_LOOP for e in layer)


def test_entries_and_rows_stay_within_the_memory_given():
    from gridsolver.bunny.generate import random_board

    board = random_board(seed=3, squares=100).board
    limit = 3 << 20
    lib = Library(board, 1 << 16, memory_bytes=limit)
    stats = np.zeros(4, np.int64)
    status = EXHAUSTED
    while status == EXHAUSTED and lib.top < 6:
        status = lib.build_next(NO_LIMITS, 10_000, stats)
    assert status == LIBRARY_FULL
    used = lib.size * Library.bytes_per_entry(board) + int(lib.rows[0]) * Library.bytes_per_row(board)
    assert limit * 0.9 < used <= limit


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
def test_count_bound_covers_every_count(seed):
    """Every count past count_bound repeats the behaviour of a count within it (the search runs
    the loop layer's loops up to that bound instead of storing them)."""
    rng = random.Random(seed)
    board = _board(seed)
    body = ref.behaviour(board, random_program(rng, rng.randint(1, 4)))
    f, _ = ref.to_arrays(board, body)
    bound = int(orbit.count_bound(f, 10_000))
    assert bound == ref.count_bound(tuple(int(x) for x in f)) >= 1
    seen = set()
    result = ref.identity(board)
    for n in range(1, bound + 3 * len(f) + 3):
        result = ref.compose(result, body)
        if n <= bound:
            seen.add(result)
        else:
            assert result in seen, (n, bound)
