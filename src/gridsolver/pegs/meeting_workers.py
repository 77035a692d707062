"""A :class:`~gridsolver.pegs.endgame.Meeting` on two cores: its two sides grown side by side, its last
look-up split in two.

On one core a meeting grows the side whose last layer is smaller, one layer at a time, then looks the
children of one side's last layer up in the other's. Here each side grows in a worker process of its
own (:func:`~gridsolver.core.parallel.parallel_map` of two tasks), and the look-up runs as two halves
the same way. The processes share what they build through files in a temporary directory (in
``/dev/shm`` when there is one: memory, not disk): each finished layer is written to a file that the
others map, and a small file of progress (:class:`Progress`) says what each side has done and claimed.

Between two layers a side asks the progress whether to grow another (:func:`plan`). The two sides'
last layers must end up ``pegs - 2`` jumps apart: while more than one layer is missing a free side
claims the next; the last one goes to the side predicted to finish it first (the other may still be
growing a layer); and past the meeting's first deadline a layer is begun only when the whole meeting
is predicted to end before its last one (:func:`eta`, as :meth:`Meeting.eta` on one core). The
answer does not depend on which side grew which layer: any two layers that far apart decide the
problem (see :class:`~gridsolver.pegs.endgame.Meeting`).

This module imports numpy only; the kernels are imported where they run.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import numpy as np

from gridsolver.core import interrupt
from gridsolver.core.budget import Budget, peak_rss_mb
from gridsolver.core.kernels.stops import EXHAUSTED, FOUND, OUT_OF_TIME
from gridsolver.pegs.endgame import (
    BYTES_PER_POSITION,
    ETA_MARGIN,
    LP_SHARE,
    SORTED_FROM,
    Endgame,
    LookUp,
    Meeting,
    first_child_in,
    trend,
)
from gridsolver.pegs.rules import Board, Cell

BACKWARD, FORWARD = 0, 1
NAMES = ("backward", "forward")

# What the progress file holds per side (int64 each)
STATE, DEPTH, CLAIMED, POSITIONS, LAST, BEFORE, EARLIER, SECONDS_NS, BUSY_SINCE_NS, RESERVED = range(10)
FIELDS = 16
# A side's STATE
WAITING, GROWING, STOPPED, EMPTY = range(4)
HALT = 2 * FIELDS  # set by a look-up half that found a child in both: the other half stops


PREFIX = "gridsolver-meeting-"


def shared_directory() -> str:
    """A new temporary directory for a meeting's files: in ``/dev/shm`` when it is there (memory).

    Its name holds this process's id. A meeting removes its directory when it ends; one left by a
    process that was killed first is removed here, when that process is gone (its files are memory).
    """
    where = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    parent = where or tempfile.gettempdir()
    for name in os.listdir(parent):
        owner = name[len(PREFIX):].split("-")[0]
        if name.startswith(PREFIX) and owner.isdigit() and not _alive(int(owner)):
            shutil.rmtree(os.path.join(parent, name), ignore_errors=True)
    return tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=where)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


class Progress:
    """The meeting's progress file, mapped: two rows of :data:`FIELDS` int64 and the :data:`HALT` flag.
    :meth:`locked` holds the file's lock, so that a side reads and claims in one step."""

    def __init__(self, directory: str, create: bool = False) -> None:
        self.path = os.path.join(directory, "progress")
        if create:
            np.zeros(2 * FIELDS + 1, dtype=np.int64).tofile(self.path)
        self.values = np.memmap(self.path, dtype=np.int64, mode="r+")

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        with open(self.path, "rb") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def row(self, side: int) -> np.ndarray:
        return self.values[side * FIELDS:(side + 1) * FIELDS]

    def finished_layer(self, side: int, ending: Endgame) -> None:
        row = self.row(side)
        sizes = [len(layer) for layer in ending.layers[-3:]]
        row[LAST], row[BEFORE], row[EARLIER] = ([0] * (3 - len(sizes)) + sizes)[::-1]
        row[DEPTH] = row[CLAIMED] = len(ending.layers) - 1
        row[POSITIONS] = ending.positions()
        row[SECONDS_NS] = int(ending.seconds[-1] * 1e9)
        row[RESERVED] = 0


@dataclass
class Outlook:
    """A side's next layers as its last ones predict them (see :func:`trend`): its last layer's size,
    seconds per position grown from, growth, how the growth's excess shrinks, and seconds from now
    until it is free (0: free now)."""

    size: float
    rate: float
    growth: float
    shrink: float
    free_in: float = 0.0

    def cost(self) -> float:
        return self.rate * self.size

    def grown(self) -> Outlook:
        return replace(self, size=self.size * self.growth, growth=1.0 + (self.growth - 1.0) * self.shrink)


def outlook(row: np.ndarray, now_ns: int) -> Outlook:
    """A side's :class:`Outlook` from its progress row; a side growing a layer is seen as it will be
    when that layer is done, free once its predicted time for it has passed."""
    sizes = [int(row[k]) for k in (EARLIER, BEFORE, LAST) if row[k] > 0]
    rate, growth, shrink = trend(sizes, row[SECONDS_NS] / 1e9)
    seen = Outlook(float(row[LAST]), rate, growth, shrink)
    if row[STATE] == GROWING and row[CLAIMED] > row[DEPTH]:
        busy = (now_ns - int(row[BUSY_SINCE_NS])) / 1e9
        seen = replace(seen.grown(), free_in=max(0.0, seen.cost() - busy))
    return seen


def eta(sides: list[Outlook], missing: int) -> float:
    """Predicted seconds until the meeting decides: ``missing`` more layers, each going to the side free
    first (the last to the side that would finish it first), then the look-up of the smaller last
    layer's children, in two halves."""
    sides = list(sides)
    ends = [side.free_in for side in sides]
    for _ in range(max(0, missing)):
        if missing == 1:
            i = min(range(len(sides)), key=lambda k: ends[k] + sides[k].cost())
        else:
            i = min(range(len(sides)), key=lambda k: ends[k])
        ends[i] += sides[i].cost()
        sides[i] = sides[i].grown()
        missing -= 1
    smallest = min(sides, key=lambda side: side.size)
    return max(ends) + smallest.cost() / 2


def plan(progress: np.ndarray, me: int, total: int, now_ns: int, deadline_ns: int, until_ns: int) -> bool:
    """Whether the side ``me``, free, grows another layer (see the module's docstring); ``progress``
    the two rows, read under the lock."""
    rows = [progress[k * FIELDS:(k + 1) * FIELDS] for k in (BACKWARD, FORWARD)]
    mine, theirs = rows[me], rows[1 - me]
    missing = total - 1 - int(mine[CLAIMED]) - int(theirs[CLAIMED])
    if missing <= 0 or theirs[STATE] == EMPTY:
        return False
    sides = [outlook(row, now_ns) for row in rows]
    active = [sides[me]] + ([sides[1 - me]] if theirs[STATE] in (WAITING, GROWING) else [])
    if now_ns > deadline_ns and now_ns + ETA_MARGIN * eta(active, missing) * 1e9 > until_ns:
        return False
    if missing == 1 and len(active) == 2:
        other = active[1]
        return sides[me].cost() <= other.free_in + other.cost()
    return True


@dataclass
class SideJob:
    """One side to grow in a worker (:func:`grow_side`); times on the monotonic clock, in ns (the same
    in every process)."""

    board: Board
    finish: Cell
    side: int
    directory: str
    budget: Budget
    memory_bytes: int
    deadline_ns: int
    until_ns: int
    lp_deadline_ns: int
    pagodas: bool = True

    def endgame(self) -> Endgame:
        meeting = Meeting(self.board, self.finish, pagodas=self.pagodas)
        return meeting.forward if self.side == FORWARD else meeting.backward


@dataclass
class SideReport:
    """What a side's worker built: its layers' sizes (each in its file) and everything else
    :class:`Endgame` holds besides its layers."""

    sizes: list[int]
    weights: np.ndarray
    floors: np.ndarray
    golden: int
    lp_pagodas: int
    lp_seconds: float
    empty_at: int | None
    nodes: int
    seconds: list[float] = field(default_factory=list)
    peak_mb: float = 0.0  # the worker's peak memory (since it started: workers are reused)


def layer_path(directory: str, side: int, k: int) -> str:
    return os.path.join(directory, f"{NAMES[side]}-{k}")


def mapped(path: str, size: int) -> np.ndarray:
    """The sorted layer in the file ``path`` (``size`` positions), mapped (plain ndarray, writable type:
    the kernels are compiled for that)."""
    if size == 0:
        return np.zeros(0, dtype=np.uint64)
    return np.memmap(path, dtype=np.uint64, mode="r+", shape=(size,)).view(np.ndarray)


def path_of(layer: np.ndarray) -> str | None:
    """The file a layer is mapped from, or None."""
    return getattr(layer.base, "filename", None)


def _to_file(ending: Endgame, directory: str, side: int) -> None:
    """The last layer written to its file and mapped from it instead (its memory given back)."""
    k = len(ending.layers) - 1
    path = layer_path(directory, side, k)
    ending.layers[-1].tofile(path)
    ending.layers[-1] = mapped(path, len(ending.layers[-1]))


def _perf(ns: int) -> float:
    """A monotonic-clock time in ns as a ``time.perf_counter()`` time (what :class:`Endgame` takes)."""
    return time.perf_counter() + (ns - time.monotonic_ns()) / 1e9


def grow_side(job: SideJob) -> SideReport:
    """Grow one side of the meeting while :func:`plan` says so (a worker task: module level)."""
    ending = job.endgame()
    ending.sorted_from = SORTED_FROM
    progress = Progress(job.directory)
    me, row = job.side, progress.row(job.side)
    total = job.board.peg_count - 1
    until = _perf(job.until_ns)
    row[STATE] = GROWING
    ending.prune(_perf(job.lp_deadline_ns))
    _to_file(ending, job.directory, me)
    progress.finished_layer(me, ending)
    while ending.empty_at is None:
        with progress.locked():
            now = time.monotonic_ns()
            if not plan(progress.values, me, total, now, job.deadline_ns, job.until_ns):
                break
            theirs = progress.row(1 - me)
            room = (job.memory_bytes - 8 * (row[POSITIONS] + theirs[POSITIONS]) - theirs[RESERVED])
            most = int(room / BYTES_PER_POSITION)
            row[RESERVED] = int(min(most, len(ending.layers[-1]) * max(2.0, ending.growth()))
                                * BYTES_PER_POSITION)
            row[CLAIMED] += 1
            row[BUSY_SINCE_NS] = now
        if most <= 0 or not ending.grow(job.budget, most, until):
            break
        ending.prune(_perf(job.lp_deadline_ns))
        if len(ending.layers[-1]) == 0:
            ending.empty_at = ending.pegs
        _to_file(ending, job.directory, me)
        with progress.locked():
            progress.finished_layer(me, ending)
    with progress.locked():
        row[STATE] = EMPTY if ending.empty_at is not None else STOPPED
        row[CLAIMED] = row[DEPTH]
        row[RESERVED] = 0
    return SideReport([len(layer) for layer in ending.layers], ending.weights, ending.floors, ending.golden,
                      ending.lp_pagodas, ending.lp_seconds, ending.empty_at, ending.nodes, ending.seconds,
                      peak_rss_mb())


def _adopt(ending: Endgame, report: SideReport, directory: str, side: int) -> None:
    ending.layers = [mapped(layer_path(directory, side, k), size) for k, size in enumerate(report.sizes)]
    ending.weights, ending.floors, ending.golden = report.weights, report.floors, report.golden
    ending.lp_pagodas, ending.lp_seconds = report.lp_pagodas, report.lp_seconds
    ending.empty_at = report.empty_at
    ending.nodes, ending.seconds = report.nodes, report.seconds


class MeetingApart(Meeting):
    """A :class:`Meeting` whose sides grow side by side in two worker processes and whose last look-up
    runs in two halves (a self-dual problem, which grows one side only, grows it here)."""

    def __init__(self, board: Board, finish: Cell, pagodas: bool = True) -> None:
        super().__init__(board, finish, pagodas)
        self.shared: str | None = None  # the directory of the files the worker processes share
        #: the larger of the worker processes' peak memory, MB (each since it started: workers are reused);
        #: the layers they map are in it, the memory figures of this process's result are not
        self.worker_peak_mb = 0.0

    def run(self, budget: Budget, memory_bytes: int, deadline: float, until: float | None = None) -> str:
        try:
            return super().run(budget, memory_bytes, deadline, until)
        finally:  # the layers stay mapped, and readable, where they are in use
            if self.shared is not None:
                shutil.rmtree(self.shared, ignore_errors=True)
                self.shared = None

    def _grow(self, budget: Budget, memory_bytes: int, deadline: float, until: float | None) -> str | None:
        total = self.board.peg_count - 1
        if self.mirror is not None or total <= 1:
            return super()._grow(budget, memory_bytes, deadline, until)
        self._grow_sides(budget, memory_bytes, deadline, until)
        if any(side.empty_at is not None for side in self._sides()):
            return "impossible"
        return None if self.jumps_covered >= total - 1 else "stopped"

    def _grow_sides(self, budget: Budget, memory_bytes: int, deadline: float, until: float | None) -> None:
        """Grow the two sides side by side (``deadline`` and ``until`` as :meth:`Meeting.run` takes them);
        their layers end up mapped from files in :attr:`shared`. Each side stops where :func:`plan`
        says, or at its budget."""
        from gridsolver.core.parallel import parallel_map

        directory = self.shared = shared_directory()
        Progress(directory, create=True)
        now, now_ns = time.perf_counter(), time.monotonic_ns()

        def ns(t: float) -> int:
            return now_ns + int((t - now) * 1e9)

        last = until if until is not None else deadline
        jobs = [SideJob(self.board, self.finish, side, directory, budget, memory_bytes, ns(deadline),
                        ns(max(last, deadline)), ns(now + LP_SHARE * max(0.0, deadline - now)), self.pagodas)
                for side in (BACKWARD, FORWARD)]
        try:
            reports = parallel_map(grow_side, jobs, workers=2, label="meeting")
        except interrupt.Interrupted as stop:  # Ctrl-C: the sides that came back
            reports = [stop.done.get(side) for side in (BACKWARD, FORWARD)]  # type: ignore[misc]
        for side, ending in ((BACKWARD, self.backward), (FORWARD, self.forward)):
            report = reports[side]
            if report is not None:
                _adopt(ending, report, directory, side)
                self.worker_peak_mb = max(self.worker_peak_mb, report.peak_mb)

    def _look_up(self, look: LookUp, layer: np.ndarray, other: np.ndarray, budget: Budget,
                 stop: int) -> tuple[int, int, int, int]:
        """:func:`first_child_in` over the whole ``layer`` in two halves, side by side, when both layers
        are in files."""
        from gridsolver.core.parallel import parallel_map

        mine, theirs = path_of(layer), path_of(other)
        if self.shared is None or mine is None or theirs is None:
            return super()._look_up(look, layer, other, budget, stop)
        middle = len(layer) // 2
        jobs = [LookUpJob((mine, len(layer)), lo, hi, (theirs, len(other)), look, budget.node_limit(), stop,
                          self.shared) for lo, hi in ((0, middle), (middle, len(layer)))]
        try:
            halves = parallel_map(look_up_half, jobs, workers=2, label="meeting")
        except interrupt.Interrupted as stopped:
            done = stopped.done
            halves = [done[i] if i in done else (OUT_OF_TIME, 0, 0, 0, look.hit, 0.0)  # type: ignore[misc]
                      for i in range(2)]
        nodes = sum(half[1] for half in halves)
        self.worker_peak_mb = max([self.worker_peak_mb] + [half[5] for half in halves])
        for code, _, lo, hi, hit, _ in halves:
            if code == FOUND:
                look.hit = hit
                return FOUND, nodes, lo, hi
        codes = [half[0] for half in halves]
        if all(code == EXHAUSTED for code in codes):
            return EXHAUSTED, nodes, 0, len(layer)
        return next(code for code in codes if code != EXHAUSTED), nodes, 0, 0


@dataclass
class LookUpJob:
    """Half of a meeting's look-up (:func:`look_up_half`)."""

    layer: tuple[str, int]
    lo: int
    hi: int
    other: tuple[str, int]
    look: LookUp
    node_limit: int
    stop_ns: int
    directory: str


def look_up_half(job: LookUpJob) -> tuple[int, int, int, int, np.ndarray, float]:
    """:func:`first_child_in` over ``job.layer[lo:hi]``, stopping when the other half found a child in
    both (a worker task: module level); (code, jumps, chunk start, chunk end, the child found, the
    worker's peak memory in MB)."""
    progress = Progress(job.directory)
    layer, other = mapped(*job.layer), mapped(*job.other)
    code, nodes, lo, hi = first_child_in(job.look, layer, job.lo, job.hi, other, job.node_limit, job.stop_ns,
                                         halted=lambda: bool(progress.values[HALT]))
    if code == FOUND:
        progress.values[HALT] = 1
    return code, nodes, lo, hi, job.look.hit, peak_rss_mb()
