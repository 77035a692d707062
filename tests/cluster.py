"""A real Dask cluster for tests: `dask scheduler` and `dask worker` started as processes on loopback.

Not ``LocalCluster``: users start clusters with Dask's own commands, each worker a process of its
own with its own environment. The workers get an empty numba cache of their own (``NUMBA_CACHE_DIR``),
so a test sees what a fresh machine does: kernels compiled on the workers, not loaded from the cache
this process filled.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

#: Starting the scheduler and the workers (imports of dask, distributed, numpy) on a busy machine.
START_TIMEOUT_S = 90
STOP_TIMEOUT_S = 10


@dataclass
class DaskProcesses:
    """A running cluster: its address, the worker processes (one Dask worker each) and their cache."""

    address: str
    cache_dir: Path | None  # None: the workers use this process's numba cache
    scheduler: subprocess.Popen[bytes]
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)
    logs: Path | None = None

    def log(self) -> str:
        """Every process's output so far, for a failing test's message."""
        assert self.logs is not None
        return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}"
                         for p in sorted(self.logs.glob("*.log")))


def free_port() -> int:
    """A TCP port nothing listens on now, on 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def dask_command(*args: str) -> list[str]:
    """``dask ARGS`` from this interpreter's environment."""
    script = Path(sys.executable).parent / "dask"
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "dask", *args]


#: The checkout: the tests' own module-level functions (tests.core.jobs ...) travel by reference.
ROOT = Path(__file__).resolve().parents[1]


def _environment(**extra: str) -> dict[str, str]:
    """This process's environment (PYTHONPATH included), with the checkout importable too."""
    paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return {**os.environ, "PYTHONPATH": os.pathsep.join([*paths, str(ROOT)]), **extra}


def _start(command: list[str], log: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    with open(log, "wb") as out:
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)  # a test's Ctrl-C is not theirs


def start_worker(cluster: DaskProcesses, name: str) -> subprocess.Popen[bytes]:
    """One more worker process (no nanny: killed, it stays dead) with the cluster's numba cache."""
    assert cluster.logs is not None
    env = _environment()
    if cluster.cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = str(cluster.cache_dir)
    worker = _start(dask_command("worker", cluster.address, "--host", "127.0.0.1", "--nthreads", "1",
                                 "--nworkers", "1", "--no-nanny", "--no-dashboard", "--name", name),
                    cluster.logs / f"{name}.log", env)
    cluster.workers.append(worker)
    return worker


@contextlib.contextmanager
def dask_processes(directory: Path, workers: int = 2, own_cache: bool = True) -> Iterator[DaskProcesses]:
    """A scheduler on a free loopback port and ``workers`` workers, each a process; stopped on exit.

    ``own_cache``: the workers get an empty numba cache of their own (a fresh machine); else they
    share this process's (a benchmark that measures searching, not compiling)."""
    directory.mkdir(parents=True, exist_ok=True)
    cache: Path | None = None
    if own_cache:
        cache = directory / "numba-cache"
        cache.mkdir(exist_ok=True)
    address = f"tcp://127.0.0.1:{free_port()}"
    scheduler = _start(dask_command("scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                                    "--no-dashboard"), directory / "scheduler.log", _environment())
    cluster = DaskProcesses(address, cache, scheduler, logs=directory)
    try:
        for k in range(workers):
            start_worker(cluster, f"worker-{k}")
        wait_for_workers(cluster, workers)
        yield cluster
    finally:
        for process in [*cluster.workers, scheduler]:
            stop(process)


def wait_for_workers(cluster: DaskProcesses, count: int) -> None:
    from dask.distributed import Client

    try:
        with Client(cluster.address, timeout=f"{START_TIMEOUT_S}s") as client:
            client.wait_for_workers(count, timeout=START_TIMEOUT_S)
    except Exception as exc:
        raise RuntimeError(f"the Dask processes did not start: {exc}\n{cluster.log()}") from exc


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then SIGKILL if it has not ended within STOP_TIMEOUT_S."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
