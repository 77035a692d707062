"""The watch block: kernels write it while they run, a thread or another process reads it."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from numba import njit

from gridsolver.core import watch
from gridsolver.core.kernels.clock import budget_check, monotonic_ns
from gridsolver.core.kernels.stops import OUT_OF_TIME
from gridsolver.core.kernels.watch import report_best, report_bound, report_depth
from gridsolver.core.parallel import parallel_map


@njit
def _count_for(seconds, improve_every):
    """Counts nodes for ``seconds``, reporting a better score (the node count) every so often."""
    deadline = monotonic_ns() + np.int64(seconds * 1e9)
    nodes = 0
    while True:
        nodes += 1
        if nodes % improve_every == 0:
            report_best(nodes // improve_every)
        code = budget_check(nodes, 1 << 62, deadline, 1024)
        if code:
            return nodes, code


@njit
def _report_once(score, bound, depth):
    report_best(score)
    report_bound(bound)
    report_depth(depth)


@pytest.fixture(autouse=True)
def fresh_block():
    watch.detach()
    watch.reset()
    yield
    watch.detach()
    watch.reset()


def test_a_kernel_writes_best_bound_and_depth_into_the_block():
    _report_once(17, 12, 5)
    block = watch.block()
    assert (block[watch.BEST], block[watch.IMPROVEMENTS]) == (17, 1)
    assert (block[watch.BOUND], block[watch.BOUNDS], block[watch.DEPTH]) == (12, 1, 5)


def test_a_thread_reads_the_block_while_a_kernel_runs_when_the_kernel_lets_it():
    _count_for(0.01, 1000)  # compile first
    watch.reset(yield_ns=50_000_000)
    seen: list[tuple[int, int]] = []
    done = threading.Event()

    def read() -> None:
        while not done.wait(0.1):
            seen.append((int(watch.work(watch.block())), int(watch.block()[watch.BEST])))

    reader = threading.Thread(target=read)
    reader.start()
    nodes, code = _count_for(1.5, 100_000)
    done.set()
    reader.join()
    assert code == OUT_OF_TIME
    during = [s for s in seen if 0 < s[0] < nodes]
    assert len(during) >= 5, seen  # reads while the kernel ran, not only after it
    assert [s[0] for s in during] == sorted(s[0] for s in during)
    assert len({s[1] for s in during}) >= 3  # the best moved while it was watched


def test_without_yielding_the_thread_waits_for_the_kernel():
    """What the yield is for: a kernel that never lets go keeps every thread out until it ends."""
    _count_for(0.01, 1000)
    watch.reset(yield_ns=0)
    seen: list[int] = []
    done = threading.Event()

    def read() -> None:
        while not done.wait(0.05):
            seen.append(int(watch.work(watch.block())))

    reader = threading.Thread(target=read)
    reader.start()
    time.sleep(0.1)
    nodes, _ = _count_for(0.8, 100_000)
    done.set()
    reader.join()
    assert len([s for s in seen if 0 < s < nodes]) <= 1


def test_a_stop_asked_by_a_watcher_ends_the_kernel_at_its_next_clock_check():
    _count_for(0.01, 1000)
    watch.reset(yield_ns=10_000_000)
    threading.Timer(0.3, lambda: watch.block().__setitem__(watch.STOP, 1)).start()
    started = time.monotonic()
    _, code = _count_for(30.0, 1_000_000)
    assert code == OUT_OF_TIME
    assert time.monotonic() - started < 5.0  # not its 30 s


def test_a_stop_reads_as_a_spent_budget_in_python_too():
    from gridsolver.core.budget import Budget

    budget = Budget(time_s=60)
    assert not budget.expired() and budget.remaining_s() > 59
    watch.block()[watch.STOP] = 1
    assert budget.expired() and budget.remaining_s() == 0.0
    assert budget.deadline_ns() == budget.started_ns


def test_python_writes_add_up_across_kernel_calls():
    watch.block()[watch.NODES] = 40
    watch.call_ended(40)
    watch.block()[watch.NODES] = 5
    assert watch.work(watch.block()) == 45
    watch.improved(3)
    watch.improved(7)
    watch.bounded(9)
    assert (watch.block()[watch.BEST], watch.block()[watch.IMPROVEMENTS]) == (7, 2)
    assert (watch.block()[watch.BOUND], watch.block()[watch.BOUNDS]) == (9, 1)


def test_attach_refuses_an_array_the_kernels_could_not_write():
    with pytest.raises(ValueError):
        watch.attach(np.zeros(watch.SLOTS, np.int32))
    with pytest.raises(ValueError):
        watch.attach(np.zeros(watch.SLOTS - 1, np.int64))


def _improve_in_a_worker(score: int) -> int:
    """A task: report a score the way a search in a worker does, then hold the row a moment."""
    watch.improved(score)
    watch.block()[watch.NODES] = score * 10
    time.sleep(0.6)
    return score


def test_worker_processes_write_the_rows_their_parent_reads():
    seen: list[list[int]] = []
    done = threading.Event()

    def read() -> None:
        while not done.wait(0.1):
            for rows in list(watch.open_rows):
                seen.append([int(rows.array[i][watch.BEST]) for i in range(rows.count)])

    reader = threading.Thread(target=read)
    reader.start()
    assert parallel_map(_improve_in_a_worker, [3, 8], workers=2) == [3, 8]
    done.set()
    reader.join()
    assert [3, 8] in seen
    assert not watch.open_rows  # the map's rows went with it


def test_rows_files_are_removed_when_their_map_ends():
    import os

    with watch.rows_for(3) as rows:
        path = rows.path
        assert os.path.exists(path)
        assert rows.array.shape == (3, watch.SLOTS)
    assert not os.path.exists(path)
