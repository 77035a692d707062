"""A set of Clickomania boards sent to a real Dask cluster (`dask scheduler` and two `dask worker`
processes with empty numba caches): the same answers, in board order, as local workers; the workers
compile before any board's budget starts."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

SOLVE = ["clickomania", "solve", "--nodes", "3000", "--time", "5", "--json", "--quiet"]


def gridsolver(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gridsolver", *args], capture_output=True, text=True,
                          timeout=900)


@pytest.mark.slow  # cold workers compile the clickomania kernels first (outside the budgets, not the test)
def test_a_set_on_the_cluster_answers_as_local_workers_in_board_order(dask_cluster, tmp_path):
    boards = tmp_path / "six.txt"
    boards.write_text(gridsolver("clickomania", "generate", "--random", "9x9x4", "--count", "6").stdout)
    local = gridsolver(*SOLVE, str(boards), "--workers", "2")
    remote = gridsolver(*SOLVE, str(boards), "--cluster", dask_cluster.address)
    assert remote.returncode == local.returncode, remote.stderr + dask_cluster.log()
    lines = [json.loads(line) for line in remote.stdout.splitlines()]
    assert [line["input"] for line in lines] == [f"{boards}#{k}" for k in range(1, 7)]

    def answer(line: dict) -> tuple:
        return line["input"], line["status"], line["score"], line["solution"], line["stats"]["nodes"]

    assert [answer(x) for x in lines] == [answer(json.loads(x)) for x in local.stdout.splitlines()]
    # compiled before the budgets: a 5 s budget ends by the node budget, not spent compiling
    assert all(line["stopped"] != "time" for line in lines)
    assert any(dask_cluster.cache_dir.rglob("*.nbi"))
