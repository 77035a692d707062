import pytest

from gridsolver.core.errors import InputError
from gridsolver.core.parallel import parallel_map
from tests.core.jobs import fail_on_three, slow_pid, square


def test_serial_map_keeps_order_and_reports_results():
    seen = []
    assert parallel_map(square, [3, 1, 2], workers=1,
                        on_result=lambda i, r: seen.append((i, r))) == [9, 1, 4]
    assert seen == [(0, 9), (1, 1), (2, 4)]


def test_local_processes_keep_order():
    assert parallel_map(square, list(range(20)), workers=2) == [x * x for x in range(20)]


def test_worker_errors_propagate():
    with pytest.raises(ValueError, match="three"):
        parallel_map(fail_on_three, [1, 2, 3, 4], workers=2)


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


def test_unreachable_cluster_is_an_input_error():
    pytest.importorskip("dask.distributed")
    with pytest.raises(InputError, match="cannot connect"):
        parallel_map(square, [1, 2], cluster="tcp://127.0.0.1:9")
