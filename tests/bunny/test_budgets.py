"""Budgets end to end (issue 15): memory follows the library built, and the answer is ready by --time."""

import time

import numpy as np
import pytest

from gridsolver import bunny
from gridsolver.bunny import search
from gridsolver.bunny.generate import random_board
from gridsolver.bunny.rules import simulate
from gridsolver.core.budget import Budget
from gridsolver.core.game import machine_memory_mb
from gridsolver.core.kernels.stops import EXHAUSTED

NO_LIMITS = np.array([1 << 62, 1 << 62], np.int64)


def _built(board, levels: int) -> search.Library:
    lib = search.Library(board, search.library_capacity(board, Budget(memory_mb=1024)))
    stats = np.zeros(4, np.int64)
    for _ in range(levels):
        assert lib.build_next(NO_LIMITS, 10_000, stats) == EXHAUSTED
    return lib


def test_library_table_starts_small_whatever_the_capacity():
    # a tiny board fits tens of millions of entries in gigabytes: the table used to be made (and
    # filled with -1) at twice that, hundreds of megabytes, before the first level was built
    board = bunny.named("challenge/01")
    capacity = search.library_capacity(board, Budget(memory_mb=min(8192.0, machine_memory_mb() / 2)))
    assert capacity > 1 << 24
    lib = search.Library(board, capacity)
    assert len(lib.table) == search.FIRST_TABLE_SLOTS < lib.max_table_slots


def test_growing_table_builds_the_same_library(monkeypatch):
    board = random_board(seed=3, squares=60).board
    whole = _built(board, 4)  # 21,646 entries: the table grows from 16,384 slots too
    monkeypatch.setattr(search, "FIRST_TABLE_SLOTS", 16)
    grown = _built(board, 4)
    assert grown.size == whole.size > 10_000
    n = grown.size
    for name in ("lib_f", "lib_r", "kinds", "arg0", "arg1", "tokens", "hashes"):
        assert np.array_equal(getattr(grown, name)[:n], getattr(whole, name)[:n]), name
    m = int(whole.rows[0])
    assert grown.rows[0] == m and np.array_equal(grown.pool[:m], whole.pool[:m])
    assert np.array_equal(grown.level_end, whole.level_end)
    assert 2 * n < len(grown.table) <= 4 * n + 4  # at most half full, at least a quarter
    assert len(grown.table) < grown.max_table_slots


def test_greedy_answer_gives_way_to_the_deadline():
    board = random_board(seed=5, squares=200).board
    lib = _built(board, 2)
    assert search.greedy_program(lib, board, deadline_ns=0) is None
    program = search.greedy_program(lib, board)
    assert program is not None and simulate(board, program).solved


def test_wrap_up_is_paid_from_the_budget():
    three = Budget(time_s=3)
    assert search.wrap_up_reserve_ns(1_000_000, three) == 4_000_000  # greedy, folding, 3 verifications
    assert search.wrap_up_reserve_ns(2_000_000_000, three) == 750_000_000  # at most a quarter of --time
    assert search.wrap_up_reserve_ns(2_000_000_000, Budget(time_s=None)) == 0


@pytest.mark.slow
def test_a_4000_square_board_answers_within_its_time():
    """Its greedy answer and verification took 1.6 s after the kernels stopped (--time 3: 4.8 s)."""
    board = random_board(seed=1, squares=4000).board
    bunny.solve(board, time=0.5)  # kernels compiled and loaded
    started = time.monotonic()
    result = bunny.solve(board, time=2)
    assert result.verified and result.status == "best-found"
    assert time.monotonic() - started < 2 + 10  # generous: a hang guard, not a speed test
