import subprocess
import sys
import time

import numpy as np
import pytest

from gridsolver.core.budget import (
    Budget,
    BudgetExceeded,
    current_rss_mb,
    peak_rss_mb,
    tree_rss_mb,
)
from gridsolver.core.errors import BudgetError
from gridsolver.core.kernels.stops import OUT_OF_NODES, OUT_OF_TIME


def test_python_search_stops_within_time_budget():
    budget = Budget(time_s=0.2, memory_mb=None)
    nodes = 0
    start = time.monotonic()
    with pytest.raises(BudgetExceeded):
        while True:  # a deliberately endless search
            nodes += 1
            if nodes % 1000 == 0:
                budget.check(nodes)
    assert 0.2 <= time.monotonic() - start < 2.0


def test_node_budget():
    budget = Budget(time_s=None, memory_mb=None, nodes=500)
    assert not budget.expired(499)
    assert budget.expired(500)


def test_memory_budget_stops_a_growing_search():
    # the limit is 50 MB above what the process holds now (numba alone can take 150 MB): the search
    # must stop, not at once, and within a step of crossing the limit. (How many 1 MB steps that
    # takes depends on how much freed memory the allocator reuses first, so that is not asserted.)
    limit = current_rss_mb() + 50
    budget = Budget(time_s=None, memory_mb=limit)
    hoard = []
    with pytest.raises(BudgetExceeded):
        for _ in range(10_000):  # would take 10 GB if nothing stopped it
            hoard.append(np.ones(1 << 17))  # 1 MB each, every page written
            budget.check()
    assert len(hoard) >= 40
    assert limit < current_rss_mb() <= limit + 4


def test_current_and_peak_rss_follow_an_allocation():
    before = current_rss_mb()
    block = np.ones(100 << 17)  # 100 MB, every page written
    grown = current_rss_mb() - before
    assert 90 <= grown <= 130, grown
    assert peak_rss_mb() >= current_rss_mb() - 1  # the peak is never below the current size
    del block
    assert current_rss_mb() < before + 30  # numpy gives a block this large back to the system


def test_tree_rss_counts_child_processes():
    others = tree_rss_mb() - current_rss_mb()  # children already running (idle pool workers, say)
    code = ("import sys\nblock = b'x' * (100 << 20)\nprint('ready', flush=True)\n"
            "sys.stdin.readline()\n")
    child = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        with_child = tree_rss_mb() - current_rss_mb()
        assert with_child - others >= 100, (others, with_child)  # its 100 MB block and its interpreter
    finally:
        child.communicate("\n", timeout=30)
    assert tree_rss_mb() - current_rss_mb() < others + 50  # gone: nothing of it is counted any more


def test_table_slots_fit_memory_and_are_powers_of_two():
    budget = Budget(memory_mb=64)
    slots = budget.table_slots(bytes_per_slot=16, share=0.5)
    assert slots & (slots - 1) == 0
    assert slots * 16 <= 32 * 2**20 < slots * 32
    with pytest.raises(BudgetError, match=r"too small: the search needs at least 0\.0312 MB"):
        Budget(memory_mb=0.001).table_slots(bytes_per_slot=16)


def test_bad_budgets_are_input_errors():
    with pytest.raises(BudgetError, match="--time must be positive"):
        Budget(time_s=0)
    with pytest.raises(BudgetError, match="--memory must be positive"):
        Budget(memory_mb=-1)


def test_kernel_stops_at_deadline():
    """A numba loop with no end of its own stops at the budget's deadline."""
    from tests.core.kernels import spin_until

    spin_until(0, 1)  # compile first, so the budget below times only the loop
    budget = Budget(time_s=0.3, memory_mb=None)
    spins, code = spin_until(budget.deadline_ns(), budget.node_limit())
    elapsed = budget.elapsed_s()
    assert spins > 1024 and code == OUT_OF_TIME
    assert 0.3 <= elapsed < 3.0

    nodes_budget = Budget(time_s=None, memory_mb=None, nodes=12345)
    assert spin_until(nodes_budget.deadline_ns(), nodes_budget.node_limit()) == (12345, OUT_OF_NODES)
