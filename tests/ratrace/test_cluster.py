"""A tournament on a real Dask cluster (`dask scheduler` and two `dask worker` processes) that loses a
worker mid-run: the lost tracks are played again on the other worker, and every track is the same."""

from __future__ import annotations

import pytest

from gridsolver import ratrace

TRACKS = 8
NODES = 30_000_000  # rat-moves per game: a second or two each, longer than the map's look at its workers


@pytest.mark.slow  # cold workers compile the player's game loop first
def test_a_worker_killed_mid_tournament_changes_no_track(dask_cluster, capsys):
    local = ratrace.play("colour-score", tracks=TRACKS, seed=5, nodes=NODES, workers=2)
    heard: list[int] = []

    def kill_after_two(index: int, result: object) -> None:
        heard.append(index)
        if len(heard) == 2:
            dask_cluster.workers[1].kill()  # SIGKILL, mid-track: no nanny starts it again

    remote = ratrace.play("colour-score", tracks=TRACKS, seed=5, nodes=NODES, cluster=dask_cluster.address,
                          on_result=kill_after_two)
    assert dask_cluster.workers[1].poll() is not None  # it was killed before the tournament ended
    assert [r.score for r in remote.results] == [r.score for r in local.results]
    assert [r.stats.nodes for r in remote.results] == [r.stats.nodes for r in local.results]
    lost = [line for line in capsys.readouterr().err.splitlines() if "was lost" in line]
    assert len(lost) == 1 and "run again on other workers" in lost[0], lost
