"""SameGame on a Dask cluster against local workers of the same count, at the same budget.

A `dask scheduler` and two `dask worker` processes (one thread each) are started on loopback with
Dask's own commands, as a user starts them (``tests/cluster.py``; the workers share this
checkout's numba cache, so they load the kernels instead of compiling them). The same positions
then run at the same time budget through ``--cluster`` and through two local workers, alternating
position by position, and the table gives each one's points and playouts per second: what the
cluster's messaging and warm-up cost against a local run of the same worker count.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from runner import ROOT, Table

WORKERS = 2
POSITIONS = 5
QUICK_POSITIONS = 2
SECONDS = 20.0
QUICK_SECONDS = 5.0
SEED = 1


def run(quick: bool) -> list[Table]:
    sys.path.insert(0, str(ROOT))
    from tests.cluster import dask_processes

    from gridsolver import samegame

    positions = samegame.load("standard-20")[:QUICK_POSITIONS if quick else POSITIONS]
    seconds = QUICK_SECONDS if quick else SECONDS
    table = Table(f"SameGame: standard positions 1-{len(positions)} at {seconds:g} s each, "
                  f"{WORKERS} workers: a Dask cluster against local workers",
                  ["position", "local points", "cluster points", "local playouts/s", "cluster playouts/s"])
    totals: dict[str, list[float]] = {"local": [0, 0.0, 0], "cluster": [0, 0.0, 0]}
    with tempfile.TemporaryDirectory() as folder, \
            dask_processes(Path(folder), workers=WORKERS, own_cache=False) as cluster:
        samegame.solve(positions[0], time=2, workers=WORKERS, cluster=cluster.address)  # warm the workers
        for number, board in enumerate(positions, start=1):
            row = {}
            order = ("local", "cluster") if number % 2 else ("cluster", "local")
            for where in order:
                result = samegame.solve(board, time=seconds, workers=WORKERS, seed=SEED,
                                        cluster=cluster.address if where == "cluster" else None)
                assert result.verified, result.details
                row[where] = result
                totals[where][0] += int(result.score)
                totals[where][1] += result.stats.elapsed_s
                totals[where][2] += result.stats.nodes
            table.add(number, row["local"].score, row["cluster"].score,
                      round(row["local"].stats.nodes_per_s), round(row["cluster"].stats.nodes_per_s))
    rates = {where: round(nodes / seconds) for where, (_, seconds, nodes) in totals.items()}
    table.add("total", totals["local"][0], totals["cluster"][0], rates["local"], rates["cluster"])
    table.notes.append(
        f"Seed {SEED}, the same positions and time budget in both, alternating which runs first. The "
        "cluster is a `dask scheduler` and two `dask worker --nthreads 1` processes on loopback on this "
        "machine, so it has the same two cores: the difference is what going through Dask costs, not "
        "more hardware. One sample per position: a timed search's points vary by hundreds between runs "
        "of the same code.")
    return [table]
