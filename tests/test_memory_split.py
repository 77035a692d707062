"""--memory covers the whole run: commands that run jobs in worker processes split it among them."""

import os
import subprocess
import sys
import time

import psutil
import pytest
from click.testing import CliRunner

from gridsolver.cli import cli
from gridsolver.core import budget as budget_module
from gridsolver.core import parallel
from gridsolver.core.budget import AUTO, per_worker_memory_mb

AVAILABLE_HALF_MB = 1000.0  # what default_memory_mb answers in these tests


@pytest.fixture
def auto_memory(monkeypatch):
    monkeypatch.setattr(budget_module, "default_memory_mb", lambda: AVAILABLE_HALF_MB)


@pytest.mark.parametrize("memory, workers, jobs, share", [
    (300.0, 2, 10, 150.0),
    (300.0, 1, 10, 300.0),
    (300.0, 4, 2, 150.0),  # two jobs: only two workers ever run at once
    (300.0, 3, 1, 300.0),
    (100.0, 3, 12, 100 / 3),
    (None, 4, 12, AVAILABLE_HALF_MB / 4),
    (AUTO, 2, 12, AVAILABLE_HALF_MB / 2),
])
def test_each_job_gets_its_share_of_the_run(auto_memory, memory, workers, jobs, share):
    assert per_worker_memory_mb(memory, workers, jobs) == pytest.approx(share)


def test_a_cluster_job_has_a_machine_to_itself(auto_memory):
    assert per_worker_memory_mb(300.0, 4, 12, cluster="tcp://host:8786") == 300.0
    # the cluster machine works out its own default: this machine's memory says nothing about it
    assert per_worker_memory_mb(None, 4, 12, cluster="tcp://host:8786") is None


class Captured(Exception):
    """Raised by the stand-in parallel map once it has the jobs (nothing is solved)."""


@pytest.fixture
def captured_jobs(monkeypatch) -> list:
    seen: list = []

    def fake_map(fn, items, *, workers=None, cluster=None, label="", on_result=None):
        seen.append((list(items), workers))
        raise Captured

    monkeypatch.setattr(parallel, "parallel_map", fake_map)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    return seen


def invoke(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert isinstance(result.exception, Captured), result.output
    return result


def test_pegs_table_splits_memory_among_the_workers_it_uses(captured_jobs):
    result = invoke("pegs", "table", "triangle", "--workers", "64", "--memory", "300", "--time", "5")
    jobs, workers = captured_jobs[0]
    assert workers == 2 and "using 2" in result.output  # capped at the cores, with a warning
    assert {job[4] for job in jobs} == {150.0}


def test_pegs_table_splits_the_auto_budget(captured_jobs, auto_memory):
    invoke("pegs", "table", "triangle", "--time", "5")
    jobs, workers = captured_jobs[0]
    assert workers == 1 and {job[4] for job in jobs} == {AVAILABLE_HALF_MB}


def test_bunny_bench_splits_memory_among_the_workers(captured_jobs):
    invoke("bunny", "bench", "--workers", "2", "--memory", "512", "--time", "5")
    jobs, workers = captured_jobs[0]
    assert workers == 2 and {job[3] for job in jobs} == {256.0}


def test_bunny_bench_defaults_to_the_auto_budget(captured_jobs, auto_memory):
    invoke("bunny", "bench", "--time", "5")
    jobs, _ = captured_jobs[0]
    assert {job[3] for job in jobs} == {AVAILABLE_HALF_MB}


def peak_tree_rss_mb(command: list[str], cap_s: float) -> tuple[float, int]:
    """Run ``command``; the peak resident memory of it and its children (sampled), and its exit code."""
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    process = psutil.Process(child.pid)
    peak, started = 0, time.monotonic()
    while child.poll() is None:
        if time.monotonic() - started > cap_s:
            child.kill()
            pytest.fail(f"still running after {cap_s} s: {command}")
        try:
            members = [process, *process.children(recursive=True)]
            peak = max(peak, sum(m.memory_info().rss for m in members))
        except psutil.Error:
            pass
        time.sleep(0.05)
    return peak / 2**20, child.returncode


@pytest.mark.slow
def test_fewest_moves_stays_within_its_memory_budget():
    # the English board's fewest moves fill any budget this small: the sets grow to their share and stop
    memory = 300
    peak, code = peak_tree_rss_mb([sys.executable, "-m", "gridsolver", "pegs", "solve", "english",
                                   "--objective", "moves", "--memory", str(memory), "--time", "20"], 200)
    assert code in (0, 1)
    assert peak < memory + 250, f"peak {peak:.0f} MB for --memory {memory}"
