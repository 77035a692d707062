"""The search budget: wall time, memory and node count.

Every solver takes a :class:`Budget` and must stop when any part of it runs
out, reporting the best it has so far. Budgets are plain numbers so that
numba kernels can check them too: :meth:`Budget.deadline_ns` is a deadline
on the monotonic clock that :func:`gridsolver.core.kernels.clock.monotonic_ns`
reads inside a kernel, and :meth:`Budget.table_slots` sizes an
open-addressing transposition table to the memory bound.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field

import psutil

from gridsolver.core import interrupt, watch
from gridsolver.core.errors import BudgetError
from gridsolver.core.kernels.stops import BUDGET_STOPS

NO_LIMIT = (1 << 62)  # "unbounded" for int64 kernel arguments
DEFAULT_TIME_S = 60.0
DEFAULT_MEMORY_MB = 2048.0  # a Budget made without a memory figure (tests, internal phases)
#: A game's default --memory: this share of the memory available when the search starts ...
AUTO_MEMORY_SHARE = 0.5
#: ... but never less than this (a machine short of memory still gets a working search).
AUTO_MEMORY_MIN_MB = 256.0
AUTO = "auto"  # the default --memory of the games: see default_memory_mb

# Why a kernel stopped early (gridsolver.core.kernels.stops), and the ``Result.stopped`` word of each.
STOP_REASONS = BUDGET_STOPS


class BudgetExceeded(Exception):
    """Raised by plain-Python searches when the budget runs out."""


@dataclass
class Budget:
    """Limits for one search. ``None`` means no limit of that kind.

    The clock starts when the budget is created (or at :meth:`restart`).
    """

    time_s: float | None = DEFAULT_TIME_S
    memory_mb: float | None = DEFAULT_MEMORY_MB
    nodes: int | None = None
    started_ns: int = field(default_factory=time.monotonic_ns)
    #: seconds of compiling given back during the search (:meth:`give_back`)
    compile_s: float = 0.0

    def __post_init__(self) -> None:
        if self.time_s is not None and not self.time_s > 0:
            raise BudgetError(f"--time must be positive, got {self.time_s}")
        if self.memory_mb is not None and not self.memory_mb > 0:
            raise BudgetError(f"--memory must be positive, got {self.memory_mb}")
        if self.nodes is not None and self.nodes <= 0:
            raise BudgetError(f"--nodes must be positive, got {self.nodes}")

    def restart(self) -> Budget:
        self.started_ns = time.monotonic_ns()
        return self

    def give_back(self, compile_s: float) -> None:
        """Move the start ``compile_s`` seconds later (never past now): a kernel compiled on its first
        use inside the search (see :func:`gridsolver.core.warm.ready`) is not searching."""
        later = self.started_ns + int(compile_s * 1e9)
        self.started_ns = min(later, time.monotonic_ns())
        self.compile_s += compile_s

    def split(self, share: float) -> Budget:
        """A budget with ``share`` of the remaining time (for phases of a search)."""
        remaining = self.remaining_s()
        return Budget(
            time_s=None if remaining is None else max(remaining * share, 1e-3),
            memory_mb=self.memory_mb,
            nodes=self.nodes,
        )

    # -- time ---------------------------------------------------------------
    def elapsed_s(self) -> float:
        return (time.monotonic_ns() - self.started_ns) / 1e9

    def remaining_s(self) -> float | None:
        """Seconds left (None: no time limit); 0 once Ctrl-C was pressed (see core.interrupt) or a
        watcher asked the search to stop (see core.watch)."""
        if interrupt.requested() or watch.stop_requested():
            return 0.0
        if self.time_s is None:
            return None
        return max(0.0, self.time_s - self.elapsed_s())

    def deadline_ns(self) -> int:
        """Deadline on the monotonic clock in ns (huge when unlimited), for kernels.

        After Ctrl-C (see :mod:`gridsolver.core.interrupt`) it is the budget's start: a
        kernel started then stops at its first clock check, with what it has. The same once a
        watcher asked the search to stop.
        """
        if interrupt.requested() or watch.stop_requested():
            return self.started_ns
        if self.time_s is None:
            return NO_LIMIT
        return self.started_ns + int(self.time_s * 1e9)

    def node_limit(self) -> int:
        return NO_LIMIT if self.nodes is None else int(self.nodes)

    def expired(self, nodes: int = 0) -> bool:
        """True when the time or the node count has run out."""
        if self.nodes is not None and nodes >= self.nodes:
            return True
        if interrupt.requested() or watch.stop_requested():
            return True
        return self.time_s is not None and time.monotonic_ns() >= self.deadline_ns()

    def check(self, nodes: int = 0) -> None:
        """Raise :class:`BudgetExceeded` when the budget has run out."""
        if self.expired(nodes):
            raise BudgetExceeded
        if self.memory_mb is not None and current_rss_mb() > self.memory_mb:
            raise BudgetExceeded

    # -- memory -------------------------------------------------------------
    def memory_bytes(self) -> int | None:
        return None if self.memory_mb is None else int(self.memory_mb * 1024 * 1024)

    def table_slots(self, bytes_per_slot: int, share: float = 0.5, minimum: int = 1 << 10,
                    maximum: int = 1 << 32) -> int:
        """The largest power-of-two slot count whose table fits ``share`` of the memory.

        Raises :class:`BudgetError` when not even ``minimum`` slots fit.
        """
        limit = self.memory_bytes()
        if limit is None:
            return maximum
        affordable = int(limit * share) // bytes_per_slot
        if affordable < minimum:
            raise BudgetError(
                f"--memory {self.memory_mb:g} MB is too small: the search needs at least "
                f"{_mb(minimum * bytes_per_slot / share)} for its table"
            )
        slots = 1 << (affordable.bit_length() - 1)
        return min(slots, maximum)


def default_memory_mb() -> float:
    """The memory budget when none is given, in whole MB: half of the least room the process has.

    The room is the least of three: the memory the machine has available now;
    the address-space limit (``ulimit -v``, ``prlimit --as``, as batch systems
    set) less what the process maps already; and the container's memory limit
    (its cgroup's) less what the container uses. Half, not all: the operating
    system, other programs and this process's own code need the rest, and
    tables are sized to the budget (they would take every page offered). A
    fixed figure would be too small on a large machine and too large on a
    small one.
    """
    room = [psutil.virtual_memory().available]
    room += [limit for limit in (address_space_room(), cgroup_room()) if limit is not None]
    return float(max(AUTO_MEMORY_MIN_MB, int(min(room) / 2**20 * AUTO_MEMORY_SHARE)))


def address_space_room() -> int | None:
    """Bytes this process may still map under its address-space limit (None: no limit)."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError):
        return None
    if soft == resource.RLIM_INFINITY:
        return None
    return max(0, int(soft) - int(psutil.Process().memory_info().vms))


#: cgroup v2's limit and usage files, then v1's (a v1 limit this large means none was set)
_CGROUP_FILES = (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                 ("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                  "/sys/fs/cgroup/memory/memory.usage_in_bytes"))
_CGROUP_NO_LIMIT = 1 << 60


def cgroup_room(files: tuple[tuple[str, str], ...] = _CGROUP_FILES) -> int | None:
    """Bytes the container may still use under its cgroup's memory limit (None: no limit found)."""
    for limit_file, usage_file in files:
        try:
            with open(limit_file) as limit_text, open(usage_file) as usage_text:
                limit, usage = limit_text.read().strip(), usage_text.read().strip()
        except OSError:
            continue
        if limit == "max" or not limit.isdigit() or int(limit) >= _CGROUP_NO_LIMIT:
            return None
        return max(0, int(limit) - (int(usage) if usage.isdigit() else 0))
    return None


def per_worker_memory_mb(memory_mb: float | str | None, workers: int, jobs: int,
                         cluster: str | None = None) -> float | None:
    """Each job's memory budget when ``jobs`` jobs run ``workers`` at a time in local processes.

    The run's budget (None or "auto": :func:`default_memory_mb`) is split evenly
    among the jobs that run at once, so all the workers together stay within it.
    On a ``cluster`` each job runs on a machine of its own: it gets the whole
    figure, and None stays None (that machine's own default, not this one's).
    """
    if cluster:
        return None if memory_mb is None or memory_mb == AUTO else float(memory_mb)
    total = default_memory_mb() if memory_mb is None or memory_mb == AUTO else float(memory_mb)
    return total / max(1, min(workers, jobs))


def _mb(size_bytes: float) -> str:
    """A byte count in MB, with enough digits that it never reads as 0."""
    mb = size_bytes / 2**20
    return f"{mb:.1f} MB" if mb >= 0.1 else f"{mb:.3g} MB"


_PROCESS: psutil.Process | None = None  # cached: check() may run often


def _process() -> psutil.Process:
    """The :class:`psutil.Process` of this process (made again after a fork: the pid changes)."""
    global _PROCESS
    if _PROCESS is None or _PROCESS.pid != os.getpid():
        _PROCESS = psutil.Process()
    return _PROCESS


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MB.

    This stays on :func:`resource.getrusage`: psutil has no portable peak (on Linux and
    macOS its ``memory_info`` is only the current size), while ``ru_maxrss`` is the
    kernel's own high-water mark, so no short spike between two samples is missed.
    ``ru_maxrss`` counts KiB on Linux and bytes on macOS.
    """
    try:
        import resource
    except ImportError:  # Windows: no resource module; psutil's peak working set instead
        info = _process().memory_info()
        return int(getattr(info, "peak_wset", info.rss)) / 2**20
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024.0


def current_rss_mb() -> float:
    """Current resident memory of this process, in MB."""
    return int(_process().memory_info().rss) / 2**20


def tree_rss_mb() -> float:
    """Current resident memory of this process and all its child processes, in MB.

    For budgets that must cover worker processes too. Children that exit while they are
    counted are skipped; pages shared between processes are counted once per process.
    Finding the children scans every process (about 2 ms), so call it now and then, not
    once per search node.
    """
    me = _process()
    total = int(me.memory_info().rss)
    for child in me.children(recursive=True):
        try:
            total += int(child.memory_info().rss)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            pass
    return total / 2**20
