"""Ctrl-C: kernels stop at their next clock check, searches keep their best, maps wind down."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest

from gridsolver.core import interrupt
from gridsolver.core.budget import NO_LIMIT, Budget
from gridsolver.core.kernels.stops import OUT_OF_TIME
from tests.core.jobs import spin_for
from tests.core.kernels import spin_until

HOUR_NS = 3600 * 10**9
HANG_CAP_S = 30.0  # far above the moment a stop takes; only a hang (a search to its deadline) exceeds it


def press_ctrl_c(after_s: float) -> subprocess.Popen:
    """Send this process SIGINT after a while, as a terminal's Ctrl-C does.

    From another process: a thread of this one could not run while a kernel holds the GIL.
    """
    return subprocess.Popen(["sh", "-c", f"sleep {after_s}; kill -INT {os.getpid()}"])


@pytest.fixture(autouse=True)
def _listening_to_sigint():
    # background jobs may start with SIGINT ignored: these tests need Python's own handler
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_a_kernel_stops_at_ctrl_c_and_python_hears_it_after():
    spin_until(time.monotonic_ns() + 10**6, NO_LIMIT)  # compiled (or loaded) before the clock starts
    with interrupt.catching():
        press_ctrl_c(0.3)
        started = time.monotonic()
        nodes, code = spin_until(time.monotonic_ns() + HOUR_NS, NO_LIMIT)
        took = time.monotonic() - started
        assert code == OUT_OF_TIME and nodes > 0
        assert took < HANG_CAP_S
        assert interrupt.requested()  # the kernel left the signal pending for this handler
    assert not interrupt.requested()  # the block restores the state it found


def test_outside_catching_ctrl_c_in_a_kernel_raises_keyboard_interrupt_promptly():
    spin_until(time.monotonic_ns() + 10**6, NO_LIMIT)
    press_ctrl_c(0.3)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        spin_until(time.monotonic_ns() + HOUR_NS, NO_LIMIT)
        time.sleep(HANG_CAP_S)  # not reached: the pending signal raises as the kernel returns
    assert time.monotonic() - started < HANG_CAP_S


def test_a_second_ctrl_c_raises():
    with interrupt.catching():
        os.kill(os.getpid(), signal.SIGINT)
        deadline = time.monotonic() + 5
        while not interrupt.requested() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert interrupt.requested()
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)


def test_a_budget_reads_as_spent_once_ctrl_c_was_pressed():
    budget = Budget(time_s=None, memory_mb=None)
    assert not budget.expired() and budget.deadline_ns() == NO_LIMIT
    with interrupt.catching():
        interrupt.request()
        assert budget.expired()
        assert budget.remaining_s() == 0.0
        assert budget.deadline_ns() <= time.monotonic_ns()
        assert interrupt.capped(123) == 0 and not interrupt.time_left(time.monotonic_ns() + HOUR_NS)
    assert not budget.expired()


def test_a_map_passes_ctrl_c_to_its_workers_and_keeps_their_results():
    from gridsolver.core.parallel import parallel_map

    parallel_map(spin_for, [0.01, 0.01], workers=2)  # workers started and kernels compiled first
    with interrupt.catching():
        press_ctrl_c(1.0)  # to this process only, like `kill -INT`: the map forwards it
        started = time.monotonic()
        results = parallel_map(spin_for, [3600.0, 3600.0], workers=2)
        took = time.monotonic() - started
    assert took < HANG_CAP_S
    assert results == [(OUT_OF_TIME, True), (OUT_OF_TIME, True)]


def test_ctrl_c_during_a_map_in_this_process_ends_it_after_the_running_item():
    from gridsolver.core.parallel import parallel_map

    spin_for(0.01)
    with interrupt.catching():
        press_ctrl_c(0.3)
        started = time.monotonic()
        with pytest.raises(interrupt.Interrupted) as caught:
            parallel_map(spin_for, [3600.0, 3600.0, 3600.0], workers=1)
        assert time.monotonic() - started < HANG_CAP_S
    assert caught.value.done == {0: (OUT_OF_TIME, True)}


def test_a_map_started_after_ctrl_c_runs_every_item_here_and_each_returns_at_once():
    from gridsolver.core.parallel import parallel_map

    with interrupt.catching():
        interrupt.request()
        started = time.monotonic()
        results = parallel_map(spin_for, [3600.0, 3600.0, 3600.0], workers=2)
        assert time.monotonic() - started < HANG_CAP_S
    assert results == [(OUT_OF_TIME, True)] * 3
