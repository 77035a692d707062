"""The map and the warm-up against a real cluster: `dask scheduler` and two `dask worker` processes."""

from __future__ import annotations

import os

from gridsolver.core.parallel import on_each_worker, parallel_map
from gridsolver.core.warm import CompileWatch, warm_up, warm_workers
from tests.core.jobs import square


def pid_and(payload: int) -> tuple[int, int]:
    return os.getpid(), payload


def test_a_map_on_dask_processes_keeps_order(dask_cluster):
    seen = []
    results = parallel_map(square, list(range(12)), cluster=dask_cluster.address,
                           on_result=lambda i, r: seen.append(i))
    assert results == [x * x for x in range(12)]
    assert sorted(seen) == list(range(12))


def test_on_each_worker_runs_once_in_every_worker_process(dask_cluster):
    answers = on_each_worker(pid_and, 7, dask_cluster.address)
    pids = {worker.pid for worker in dask_cluster.workers}
    assert len(answers) == 2 and {pid for pid, _ in answers.values()} == pids
    assert all(payload == 7 for _, payload in answers.values())


def compile_one(payload: int) -> None:
    """A kernel of its own, new to the process: compiled (numba's compile events fire), not cached."""
    from numba import njit

    @njit
    def add(a: int, b: int) -> int:
        return a + b

    add(payload, 1)


class ClusterGame:
    """The least a warm-up needs: a game whose warm slot warms its workers."""

    name = "fake"

    def has_kernels(self) -> bool:
        return True

    def warm(self, board: object, options: object, *, workers: int = 1) -> None:
        warm_workers(compile_one, 1, workers)


def test_inside_a_warm_up_with_a_cluster_every_worker_of_the_cluster_is_warmed(dask_cluster):
    """The game's warm slot is the same as for local workers; warm_up's cluster sends it to the cluster's
    workers (not to local ones), and what they compiled counts in the warm-up's compile seconds."""
    warmed = warm_up(ClusterGame(), "board", {}, workers=1, cluster=dask_cluster.address)
    assert warmed.compiled == 2 and warmed.compile_s > 0  # one kernel on each of the two workers
    with CompileWatch(mode="off") as watch:
        assert warm_workers(compile_one, 1, workers=1) == set()  # no cluster now: nothing to warm
    assert watch.compiled == 0


def sleep_then(item: tuple[int, float]) -> int:
    import time

    value, seconds = item
    time.sleep(seconds)
    return value


def test_a_worker_killed_mid_map_loses_nothing_and_the_output_says_so(dask_cluster, capsys):
    """Dask runs the items of a lost worker again elsewhere; the map names them on standard error and
    its results are those of an undisturbed map. Last in this module: the killed worker is replaced."""
    import threading

    from tests.cluster import start_worker, wait_for_workers

    victim = dask_cluster.workers[1]
    killer = threading.Timer(2.5, victim.kill)  # SIGKILL, mid-item: no nanny starts it again
    killer.start()
    try:
        results = parallel_map(sleep_then, [(i, 1.0) for i in range(8)], cluster=dask_cluster.address)
    finally:
        killer.join()
        start_worker(dask_cluster, "worker-2")
        wait_for_workers(dask_cluster, 2)
    assert results == list(range(8))
    lost = [line for line in capsys.readouterr().err.splitlines() if "was lost" in line]
    assert len(lost) == 1 and "run again on other workers" in lost[0], lost


def test_a_scheduler_that_goes_away_ends_the_map_with_what_finished(tmp_path):
    """Its own cluster (the module's is needed after): the scheduler killed mid-map makes ClusterLost,
    holding the items finished before, instead of an error from deep inside Dask."""
    import threading

    import pytest

    from gridsolver.core.errors import ClusterLost
    from tests.cluster import dask_processes

    with dask_processes(tmp_path / "lost", workers=1) as cluster:
        killer = threading.Timer(3.0, cluster.scheduler.kill)
        killer.start()
        try:
            with pytest.raises(ClusterLost) as lost:
                parallel_map(sleep_then, [(i, 1.0) for i in range(30)], cluster=cluster.address)
        finally:
            killer.join()
    assert cluster.address in str(lost.value) and "went away" in str(lost.value)
    assert 0 < len(lost.value.done) < 30
    assert all(lost.value.done[i] == i for i in lost.value.done)
