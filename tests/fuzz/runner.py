"""Run one ``gridsolver`` invocation as a subprocess under a wall-time cap and a memory cap.

The memory cap polls the resident memory (RSS) of the whole process tree with
psutil and kills the tree past the cap, rather than setting ``RLIMIT_AS``:

- numba and LLVM reserve far more virtual memory than they ever touch, so an
  address-space limit either has to be set so high that it catches nothing or
  makes a healthy run fail with a MemoryError of our own making;
- ``RLIMIT_AS`` is per process, while a solve may run worker processes (loky)
  whose memory adds up: only the tree's total says what the machine pays;
- a kill at the cap is an outcome we can report ("over 3,072 MB"), where a
  limit turns into whatever the program does with a failed allocation.

Between two polls (every 20 ms) a run can outgrow the cap by what it allocates
in that time; the peak reported is the larger of the polled tree total and the
kernel's own high-water mark of the main process (``ru_maxrss`` from wait4).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import psutil

POLL_S = 0.02
#: stdout modes: a file we read back, a closed descriptor, /dev/full, a pipe into `head -c 10`, or
#: a pipe whose reader is gone before the run starts (every write meets it: no race with a reader)
STDOUT_MODES = ("capture", "closed", "full", "head", "broken")


@dataclass
class Outcome:
    """What one capped run did."""

    code: int  # exit code; negative: ended by that signal (ours when ``killed`` is set)
    stdout: str
    stderr: str
    seconds: float
    peak_mb: float
    killed: str | None  # "time" or "memory" when the cap ended the run


def gridsolver_command() -> list[str]:
    """The installed entry point next to this Python (the venv's), else ``python -m gridsolver``."""
    found = shutil.which("gridsolver", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "gridsolver"]


def child_env() -> dict[str, str]:
    """The environment of a run: no progress bars, no tracebacks asked for."""
    env = dict(os.environ)
    env["GRIDSOLVER_NO_PROGRESS"] = "1"
    env.pop("GRIDSOLVER_DEBUG", None)
    return env


def run_capped(args: list[str], cwd: Path, *, time_cap_s: float, memory_cap_mb: float,
               stdin: str = "devnull", stdout: str = "capture") -> Outcome:
    """Run ``gridsolver ARGS`` in ``cwd``; kill its process tree past either cap.

    ``stdin`` is ``devnull``, ``closed`` (no descriptor 0 at all) or a path to read.
    ``stdout`` is one of :data:`STDOUT_MODES`.
    """
    argv = gridsolver_command() + list(args)
    if stdout == "head":  # the shell reports gridsolver's exit code, not head's
        argv = ["bash", "-c", '"$@" | head -c 10; exit "${PIPESTATUS[0]}"', "fuzz", *argv]
    out_path, err_path = cwd / ".fuzz-stdout", cwd / ".fuzz-stderr"
    with _stdin(stdin) as stdin_file, _stdout(stdout, out_path) as stdout_file, \
            open(err_path, "wb") as stderr_file:
        closing = [fd for fd, mode in ((0, stdin), (1, stdout)) if mode == "closed"]

        def close_in_child() -> None:  # runs in the child between fork and exec
            for fd in closing:
                os.close(fd)

        proc = subprocess.Popen(argv, cwd=cwd, env=child_env(), stdin=stdin_file, stdout=stdout_file,
                                stderr=stderr_file, start_new_session=True,
                                preexec_fn=close_in_child if closing else None)
        code, seconds, peak, killed = _watch(proc, time_cap_s, memory_cap_mb)
    text = out_path.read_bytes().decode("utf-8", "replace") if out_path.exists() else ""
    return Outcome(code, text, err_path.read_bytes().decode("utf-8", "replace"), seconds, peak, killed)


def _stdin(mode: str) -> BinaryIO:
    if mode in ("devnull", "closed"):
        return open(os.devnull, "rb")  # "closed": the child closes it before exec
    return open(mode, "rb")


def _stdout(mode: str, path: Path) -> BinaryIO:
    if mode == "broken":
        read_end, write_end = os.pipe()
        os.close(read_end)
        return os.fdopen(write_end, "wb")
    if mode == "full":
        return open("/dev/full", "wb")
    if mode == "closed":
        return open(os.devnull, "wb")  # the child closes it before exec
    return open(path, "wb")  # "capture", and "head": what head passes on lands here


def _watch(proc: subprocess.Popen[bytes], time_cap_s: float, memory_cap_mb: float
           ) -> tuple[int, float, float, str | None]:
    """Wait for ``proc``, polling its tree's memory; (exit code, seconds, peak MB, killed by)."""
    started = time.monotonic()
    peak, killed = 0.0, None
    while True:
        # wait4, not Popen.wait: it also gives the kernel's peak RSS of the process
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        rss = tree_rss_mb(proc.pid)
        peak = max(peak, rss)
        if rss > memory_cap_mb:
            killed = "memory"
        elif time.monotonic() - started > time_cap_s:
            killed = "time"
        if killed:
            kill_tree(proc.pid)
            pid, status, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(POLL_S)
    seconds = time.monotonic() - started
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    kill_tree(proc.pid)  # worker processes a finished run left behind
    return proc.returncode, seconds, max(peak, usage.ru_maxrss / 1024), killed


def tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and its descendants, in MB (0 once it is gone)."""
    try:
        root = psutil.Process(pid)
        members = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0.0
    total = 0
    for member in members:
        try:
            total += member.memory_info().rss
        except psutil.Error:  # ended while we counted
            pass
    return total / 2**20


def kill_tree(pid: int) -> None:
    """SIGKILL a run's descendants and its process group (the run is its own session)."""
    try:
        victims = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        victims = []
    for victim in victims:
        try:
            victim.kill()
        except psutil.Error:
            pass
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
