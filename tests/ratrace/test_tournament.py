"""Tournaments give the same results on one process, local worker processes and a Dask cluster."""

import json

import pytest
from click.testing import CliRunner

from gridsolver.cli import cli

ARGS = ["ratrace", "play", "--player", "colour-score", "--tracks", "3", "--turns", "300", "--seed", "11",
        "--json"]


def points(output):
    lines = [json.loads(line) for line in output.splitlines()]
    return [line["score"] for line in lines[:-1]], lines[-1]["details"]["points"]


def test_workers_do_not_change_the_results():
    one = CliRunner().invoke(cli, [*ARGS, "--workers", "1"])
    two = CliRunner().invoke(cli, [*ARGS, "--workers", "2"])
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    assert points(one.output)[1] == points(two.output)[1]
    assert sorted(points(two.output)[0]) == sorted(points(two.output)[1])


@pytest.mark.slow  # 10-16 s; quick cover: tests/core/test_parallel.py::test_dask_local_cluster (the Dask
# path of parallel_map) and test_workers_do_not_change_the_results above (same tournament off-process)
def test_a_dask_cluster_plays_the_same_tournament():
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        on_cluster = CliRunner().invoke(cli, [*ARGS, "--cluster", cluster.scheduler_address])
    local = CliRunner().invoke(cli, [*ARGS, "--workers", "1"])
    assert on_cluster.exit_code == 0, on_cluster.output
    assert points(on_cluster.output)[1] == points(local.output)[1]
