import time

import pytest

from gridsolver.core.errors import InputError
from gridsolver.core.parallel import parallel_map
from tests.core.jobs import fail_on_three, slow_pid, square


class WorkerFailure(Exception):
    """An exception class of the caller's own, raised inside a worker."""


def delayed(item: tuple[int, float]) -> int:
    value, seconds = item
    time.sleep(seconds)
    return value


def fail_fast_or_sleep(seconds: float) -> float:
    if seconds == 0:
        raise WorkerFailure("failed", 42)
    time.sleep(seconds)
    return seconds


def test_serial_map_keeps_order_and_reports_results():
    seen = []
    assert parallel_map(square, [3, 1, 2], workers=1,
                        on_result=lambda i, r: seen.append((i, r))) == [9, 1, 4]
    assert seen == [(0, 9), (1, 1), (2, 4)]


def test_local_processes_keep_order():
    assert parallel_map(square, list(range(20)), workers=2) == [x * x for x in range(20)]


def test_results_come_in_input_order_whatever_order_they_finish_in():
    parallel_map(square, [1, 2], workers=2)  # both workers up, so item 0 cannot wait for a start
    seen = []
    items = [(0, 1.0)] + [(i, 0.0) for i in range(1, 8)]  # item 0 finishes last, by far
    results = parallel_map(delayed, items, workers=2, on_result=lambda i, r: seen.append((i, r)))
    assert results == list(range(8))
    assert seen[-1] == (0, 0)  # on_result heard them in completion order: item 0 came last
    assert [i for i, _ in seen] != sorted(i for i, _ in seen)


def test_on_result_is_called_once_per_item_with_its_result():
    seen = []
    results = parallel_map(square, list(range(30)), workers=2, on_result=lambda i, r: seen.append((i, r)))
    assert sorted(seen) == [(i, i * i) for i in range(30)]
    assert results == [i * i for i in range(30)]


def test_worker_errors_propagate():
    with pytest.raises(ValueError, match="three"):
        parallel_map(fail_on_three, [1, 2, 3, 4], workers=2)


def test_a_worker_exception_propagates_as_itself_and_the_next_map_works():
    with pytest.raises(WorkerFailure) as caught:
        parallel_map(fail_fast_or_sleep, [0.0, 0.2, 0.2], workers=2)
    assert type(caught.value) is WorkerFailure and caught.value.args == ("failed", 42)
    assert parallel_map(square, list(range(10)), workers=2) == [x * x for x in range(10)]


def test_a_failed_map_leaves_no_work_running_into_the_next():
    """The item still running when another fails is stopped, not waited for."""
    started = time.monotonic()
    with pytest.raises(WorkerFailure):
        parallel_map(fail_fast_or_sleep, [60.0, 0.0], workers=2)
    assert parallel_map(slow_pid, range(4), workers=2)  # two free workers again
    assert time.monotonic() - started < 30  # far less than the 60 s the other item asked for


def test_local_workers_are_reused_by_later_maps():
    first = set(parallel_map(slow_pid, range(4), workers=2))
    second = set(parallel_map(slow_pid, range(4), workers=2))
    assert len(first) == 2 and second == first


def test_a_failed_map_does_not_break_the_next():
    with pytest.raises(ValueError, match="three"):
        parallel_map(fail_on_three, [3, 3], workers=2)
    assert parallel_map(square, [5, 6], workers=2) == [25, 36]


def test_bad_worker_count():
    with pytest.raises(InputError, match="--workers must be at least 1"):
        parallel_map(square, [1], workers=0)


def test_dask_local_cluster():
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        seen = []
        results = parallel_map(square, list(range(12)), cluster=cluster.scheduler_address,
                               on_result=lambda i, r: seen.append(i))
    assert results == [x * x for x in range(12)]
    assert sorted(seen) == list(range(12))


@pytest.mark.slow  # 10 s: the connection timeout parallel_map gives Dask; the test below is quick
def test_unreachable_cluster_is_an_input_error():
    pytest.importorskip("dask.distributed")
    with pytest.raises(InputError, match="cannot connect"):
        parallel_map(square, [1, 2], cluster="tcp://127.0.0.1:9")


def test_unreachable_cluster_is_an_input_error_with_a_short_timeout(monkeypatch):
    """The same real connection attempt, given up after 1 s instead of parallel_map's 10 s."""
    distributed = pytest.importorskip("dask.distributed")

    class QuickClient(distributed.Client):
        def __init__(self, address, timeout=None, **kwargs):
            super().__init__(address, timeout="1s", **kwargs)

    monkeypatch.setattr(distributed, "Client", QuickClient)
    started = time.monotonic()
    with pytest.raises(InputError, match=r"--cluster tcp://127\.0\.0\.1:9: cannot connect"):
        parallel_map(square, [1, 2], cluster="tcp://127.0.0.1:9")
    assert time.monotonic() - started < 8  # the short timeout was the one used


def test_a_keyboard_interrupt_mid_map_stops_it_without_a_worker_thread_traceback(caplog):
    """A plain Ctrl-C (no interrupt.catching) while items are still queued: the map stops its workers and
    raises KeyboardInterrupt, and loky's manager thread does not log a crash (it once failed cancelled
    futures, InvalidStateError: CANCELLED, as `ratrace play` showed on Ctrl-C)."""
    heard = []

    def stop_after_two(i: int, result: int) -> None:
        heard.append(i)
        if len(heard) == 2:
            raise KeyboardInterrupt

    items = [(i, 0.2) for i in range(20)]  # most of them still queued when the second one comes back
    with caplog.at_level("DEBUG"), pytest.raises(KeyboardInterrupt):
        parallel_map(delayed, items, workers=2, on_result=stop_after_two)
    assert not [r for r in caplog.records if r.levelno >= 40], [r.getMessage() for r in caplog.records]
    assert parallel_map(square, [5, 6], workers=2) == [25, 36]  # the next map gets fresh workers


def test_ctrl_c_with_items_queued_and_running_past_the_wind_down_logs_no_crash(caplog):
    """Inside a command's interrupt.catching(): items still running after the wind-down are stopped, the
    finished ones come back in Interrupted, and the queued ones leave loky's manager thread no cancelled
    future to fail."""
    from gridsolver.core import interrupt

    def press_ctrl_c(i: int, result: int) -> None:
        interrupt.request()

    items = [(0, 0.0)] + [(i, 3.0) for i in range(1, 12)]  # sleeping items do not hear Ctrl-C
    with caplog.at_level("DEBUG"), interrupt.catching(), pytest.raises(interrupt.Interrupted) as stopped:
        parallel_map(delayed, items, workers=2, on_result=press_ctrl_c)
    assert stopped.value.done == {0: 0}
    assert not [r for r in caplog.records if r.levelno >= 40], [r.getMessage() for r in caplog.records]


class _SchedulerGoneAfter:
    """A Dask client stand-in whose scheduler answers ``answers`` times, then is gone."""

    def __init__(self, answers: int) -> None:
        self.answers = answers

    def processing(self) -> dict[str, list[str]]:
        if self.answers == 0:
            raise ConnectionResetError(104, "Connection reset by peer")  # what Dask's CommClosedError is
        self.answers -= 1
        return {"tcp://w1": ["a"]}


def test_a_scheduler_gone_between_two_polls_leaves_the_worker_watch_quiet(capsys):
    """The scheduler killed after a poll saw the futures pending: the watch's next look cannot reach it
    and leaves the map's next poll to find the cancelled futures (it once raised Dask's CommClosedError
    from there, past ClusterLost)."""
    from gridsolver.core import parallel

    watch = parallel._WorkerWatch(_SchedulerGoneAfter(answers=2), {"a": 0})
    watch.look({0})
    watch.next_look = 0.0
    watch.look({0})  # the scheduler is gone now
    assert watch.running == {"tcp://w1": {0}}
    watch.last_look()
    assert capsys.readouterr().err == ""  # no worker was lost: the scheduler was


@pytest.mark.parametrize(("message", "cause"), [
    ("<gridsolver.core.parallel._Task object at 0x7f-1fb0-12 cancelled for reason: "
     "scheduler-connection-lost.", "scheduler-connection-lost"),
    ("in <TCP (closed)>: ConnectionResetError: [Errno 104]\nmore", "in <TCP (closed)>: ConnectionResetError: "
     "[Errno 104]"),
    ("", "CancelledError"),
])
def test_a_lost_cluster_names_its_cause_in_a_few_words(message, cause):
    from concurrent.futures import CancelledError

    from gridsolver.core.parallel import _short_cause

    assert _short_cause(CancelledError(message) if message else CancelledError()) == cause
