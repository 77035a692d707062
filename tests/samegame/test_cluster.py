"""SameGame on a real Dask cluster (`dask scheduler` and two `dask worker` processes, each worker with an
empty numba cache): workers warmed before the budget, and the same answer as local workers."""

from __future__ import annotations

import pytest

from gridsolver import samegame
from gridsolver.core.warm import warm_up
from gridsolver.samegame.game import GAME

BOARD = "standard-20#1"  # the first position, 15 x 15 in 5 colours
TIME_S = 3.0
#: What a solve may take past --time (tests/samegame/test_budgets.py allows the same order).
SLACK_S = 6.0  # cold workers' start-up (imports, cache loads) counts; compiling (minutes) must not
NODES = 20_000


@pytest.mark.slow  # cold workers compile a method's kernels: tens of seconds on 2 cores
def test_cold_workers_compile_before_the_budget_and_say_so(dask_cluster):
    """Before, each worker compiled inside its first search task: a 3 s search ran for minutes, its
    compiling not counted in compile_s."""
    board = samegame.named(BOARD)
    options = GAME.check_options(board, {"method": "beam"})
    warm_up(GAME, board, options)  # this process's kernels ready: compile_s below is the workers'
    result = samegame.solve(board, time=TIME_S, workers=2, cluster=dask_cluster.address, method="beam")
    assert result.verified
    assert result.stats.compile_s > 0.5, dask_cluster.log()  # the workers' compiling, reported apart
    assert result.stats.elapsed_s < TIME_S + SLACK_S
    assert any(dask_cluster.cache_dir.rglob("*.nbi"))  # compiled there, into the workers' own cache


@pytest.mark.slow  # the workers compile NRPA's kernels first (excluded from the budget, not from the test)
def test_a_node_budget_gives_the_same_answer_locally_and_on_the_cluster(dask_cluster):
    board = samegame.named(BOARD)
    arguments = {"nodes": NODES, "time": 600.0, "workers": 2, "seed": 3}
    local = samegame.solve(board, **arguments)
    remote = samegame.solve(board, cluster=dask_cluster.address, **arguments)
    assert remote.stopped == local.stopped == "nodes"
    assert (remote.score, remote.solution, remote.stats.nodes) == (local.score, local.solution,
                                                                  local.stats.nodes)
    assert remote.details["worker_scores"] == local.details["worker_scores"]
