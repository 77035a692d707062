"""--time end to end (issue 15): a solve's game leaves room for its verifying replay, and only the
seconds numba spends compiling are kept out of the clock."""

import json
import subprocess
import sys
import time

import pytest

from gridsolver import ratrace
from gridsolver.core.budget import Budget
from gridsolver.ratrace import controller, sandbox
from gridsolver.ratrace.game import GAME, PLAY_SHARE
from gridsolver.ratrace.generate import generate_track
from gridsolver.ratrace.players import as_player


def _played_budgets(monkeypatch) -> list[Budget]:
    """The budgets the games are played with (the game itself is not played)."""
    seen: list[Budget] = []
    real_run = sandbox.run

    def run(player, guard, job, *, where):
        if job.function == "play_on_track" and len(job.args) > 3:
            seen.append(job.args[3])
        return real_run(player, guard, job, where=where)

    monkeypatch.setattr(sandbox, "run", run)
    return seen


def test_a_solve_plays_a_share_of_its_time_and_leaves_the_rest_for_the_replay(monkeypatch):
    played = _played_budgets(monkeypatch)
    result = ratrace.solve(ratrace.named("seed/3"), player="forward", turns=50, time=40)
    assert [b.time_s for b in played] == [40 * PLAY_SHARE]
    assert result.verified and result.stopped is None  # 50 turns take far less: not cut


def test_a_tournament_game_is_not_replayed_and_plays_all_its_time(monkeypatch):
    played = _played_budgets(monkeypatch)
    GAME.play_unverified(ratrace.named("seed/3"), player="forward", turns=50, time=40)
    assert [b.time_s for b in played] == [40]


def test_loading_the_kernels_counts_against_the_time(monkeypatch):
    """Nothing compiled (the loading, here a sleep, is start-up): the clock is not moved."""
    monkeypatch.setattr(controller, "_compile", lambda *args: time.sleep(0.2) or 0.0)
    budget = Budget(time_s=30)
    started = budget.started_ns
    controller.play_on_track(as_player("forward"), generate_track(2), 2, turns=5, budget=budget)
    assert budget.started_ns == started


def test_a_time_cut_game_is_said_so_and_replays_to_the_same_points():
    """A game of a billion turns and --time 1 ends: cut by time, verified by its replay."""
    track = ratrace.named("seed/0")
    started = time.monotonic()
    result = ratrace.solve(track, player="forward", turns=10**9, time=1.0)
    assert time.monotonic() - started < 120  # a cap against a game that ignores --time
    assert result.stopped == "time" and result.details["ended"] == "time"
    assert 0 < result.solution["turns"] < 10**9
    assert result.verified
    again = GAME.check(track, result.solution, player="forward", turns=10**9)
    assert again.score == result.score and again.steps == result.solution["turns"]


@pytest.mark.slow  # a subprocess that compiles the game loop: several seconds
def test_the_cli_solve_ends_and_reports_the_cut():
    done = subprocess.run([sys.executable, "-m", "gridsolver", "ratrace", "solve", "seed/0", "--player",
                           "forward", "--turns", "1000000000", "--time", "1", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["stopped"] == "time" and result["verified"]
