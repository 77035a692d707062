"""A :class:`~gridsolver.pegs.endgame.Meeting` on two cores: its sides' layers grown by both, its last
look-up split in two.

On one core a meeting grows the side whose last layer is smaller, one layer at a time, then looks the
children of one side's last layer up in the other's. Here each side has a worker process of its own
(:func:`~gridsolver.core.parallel.parallel_map` of two tasks), and the look-up runs as two halves
the same way. The processes share what they build through files in a temporary directory (in
``/dev/shm`` when there is one: memory, not disk): each finished layer is written to a file that the
others map, and a small file of progress (:class:`Progress`) says what each side has done and claimed.

Between two layers a side asks the progress what to do next (:func:`plan`). The two sides' last
layers must end up ``pegs - 2`` jumps apart, and the layers grown are those one core would grow:
a free side claims the next layer when its own is predicted no dearer than the other side's next;
otherwise it helps. A big layer is grown in pieces of its parents (:data:`PIECE` each), which the
side that claimed it and the other, when free, take in turn; each gathers its pieces' children into
sorted runs (:class:`~gridsolver.pegs.endgame.Children`) and the claimer merges the two parts straight
into the layer's file (:func:`merged_file`). So both
cores work until the sides meet, whichever side the layers are on. Past the meeting's first
deadline a layer is claimed only when the whole meeting is predicted to end before its last one
(:func:`eta`, as :meth:`Meeting.eta` on one core). The answer does not depend on which side grew
which layer: any two layers that far apart decide the problem (see
:class:`~gridsolver.pegs.endgame.Meeting`). A self-dual problem grows its one side, the other worker
taking pieces of its layers.

Each side keeps only its last layer in memory: the ones before it, read again only to rebuild a found
game, go to a directory on disk (the system's temporary directory).

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
    LOOK_UP_COST,
    LP_SHARE,
    SORTED_BYTES_PER_POSITION,
    SORTED_FROM,
    Children,
    Endgame,
    LookUp,
    Meeting,
    deadline_ns,
    first_child_in,
    look_up_cost,
    middle_in_itself,
    trend,
)
from gridsolver.pegs.rules import Board, Cell

BACKWARD, FORWARD = 0, 1
NAMES = ("backward", "forward")

# What the progress file holds per side (int64 each): its layers, and the pieces of the layer it grows
(STATE, DEPTH, CLAIMED, POSITIONS, LAST, BEFORE, EARLIER, SECONDS_NS, BUSY_SINCE_NS, RESERVED,
 PIECES, NEXT_PIECE, HELPER, HELP_SIZE, HELP_NS) = range(15)
FIELDS = 16
# A side's STATE (WAITING: its worker has not begun)
WAITING, GROWING, STOPPED, EMPTY = range(4)
# A side's HELPER: how the other side stands with the pieces of the layer this side grows
IDLE, HELPING, HELPED, FAILED = range(4)
HALT = 2 * FIELDS  # set by a look-up half that found a child in both: the other half stops

#: Parents in a piece of a layer grown by both workers (about 0.4 s of work on the diamond); layers
#: of fewer than two pieces are grown by their side alone.
PIECE = 1 << 20
POLL_S = 0.002  # how often a free side looks for work, and a claimer for its helper's part
# What a free side does next (:func:`plan`)
GROW, HELP, STOP = "grow", "help", "stop"
#: Past the first deadline a layer is claimed only when the meeting is predicted (:func:`eta`) to end
#: before its last one with this much of the time to spare. Measured on the diamond's (1,3)->(4,8),
#: (2,4)->(3,1) and (1,3)->(4,2), from each claim with at most four layers missing to the end, the
#: meeting took 0.55-1.06 of the time predicted (the found ones stop early in the look-up).
ETA_MARGIN_APART = 1.1


PREFIX = "gridsolver-meeting-"


def shared_directory(on_disk: bool = False) -> str:
    """A new temporary directory for a meeting's files: in ``/dev/shm`` when it is there (memory), or
    with ``on_disk`` in the system's temporary directory (on disk as a rule: the layers kept only to
    rebuild a game go there).

    Its name holds this process's id. A meeting removes its directories when it ends; one left by a
    process that was killed first is removed here, when that process is gone.
    """
    memory = os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK)
    where = "/dev/shm" if memory and not on_disk else None
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

    def finished_layer(self, side: int, ending: Endgame, work_seconds: float) -> None:
        """Record a side's new last layer, which took ``work_seconds`` of the two workers' time."""
        row = self.row(side)
        sizes = [len(layer) for layer in ending.layers[-3:]]
        row[LAST], row[BEFORE], row[EARLIER] = ([0] * (3 - len(sizes)) + sizes)[::-1]
        row[DEPTH] = row[CLAIMED] = len(ending.layers) - 1
        row[POSITIONS] = len(ending.layers[-1])  # in memory: the layers before it are on disk
        row[SECONDS_NS] = int(work_seconds * 1e9)
        row[RESERVED] = 0

    def take_piece(self, side: int, helper: bool = False,
                   depth: int | None = None) -> tuple[int, int, int] | None:
        """The next piece of the layer ``side`` grows (of that layer only, with ``depth``): (piece, the
        layer's depth, its parents), or None when there is none left. A ``helper`` (the other side's
        worker) is marked HELPING in the same step, so that the claimer waits for its part."""
        row = self.row(side)
        with self.locked():
            if row[NEXT_PIECE] >= row[PIECES] or (depth is not None and row[CLAIMED] != depth):
                return None
            piece = int(row[NEXT_PIECE])
            row[NEXT_PIECE] += 1
            if helper:
                row[HELPER] = HELPING
            return piece, int(row[CLAIMED]), int(row[LAST])

    def helper(self, side: int) -> tuple[int, int, int]:
        """The other side's part in the layer ``side`` grows: (HELPER, HELP_SIZE, HELP_NS)."""
        row = self.row(side)
        with self.locked():
            return int(row[HELPER]), int(row[HELP_SIZE]), int(row[HELP_NS])


@dataclass
class Outlook:
    """A side's next layers as its last ones predict them (see :func:`trend`): its last layer's size,
    seconds of work per position grown from, growth, how the growth's excess shrinks, and the work
    left on the layer it is growing (0: none)."""

    size: float
    rate: float
    growth: float
    shrink: float
    left: float = 0.0

    def cost(self) -> float:
        """Seconds of work its next layer takes."""
        return self.rate * self.size

    def grown(self) -> Outlook:
        return replace(self, size=self.size * self.growth, growth=1.0 + (self.growth - 1.0) * self.shrink)


def busy(row: np.ndarray) -> bool:
    """Whether a side is growing a layer."""
    return bool(row[STATE] == GROWING and row[CLAIMED] > row[DEPTH])


def outlook(row: np.ndarray, now_ns: int) -> Outlook:
    """A side's :class:`Outlook` from its progress row; a side growing a layer is seen as it will be
    when that layer is done, with the work its prediction leaves on it (two workers' when helped)."""
    sizes = [int(row[k]) for k in (EARLIER, BEFORE, LAST) if row[k] > 0]
    rate, growth, shrink = trend(sizes, row[SECONDS_NS] / 1e9)
    seen = Outlook(float(row[LAST]), rate, growth, shrink)
    if busy(row):
        done = (now_ns - int(row[BUSY_SINCE_NS])) / 1e9 * (2 if row[HELPER] == HELPING else 1)
        seen = replace(seen.grown(), left=max(0.0, seen.cost() - done))
    return seen


def eta(sides: list[Outlook], missing: int, workers: int | None = None,
        look_up: float = LOOK_UP_COST) -> float:
    """Predicted seconds until the meeting decides, on ``workers`` (one per side in ``sides``) sharing the
    work: what is left of the layers being grown, ``missing`` more layers, each on the side whose next
    is cheaper (as one core would grow them), then the look-up of the smaller last layer's children at
    ``look_up`` times a growth's cost per parent (:func:`~gridsolver.pegs.endgame.look_up_cost`)."""
    sides = list(sides)
    work = sum(side.left for side in sides)
    for _ in range(max(0, missing)):
        i = min(range(len(sides)), key=lambda k: sides[k].cost())
        work += sides[i].cost()
        sides[i] = sides[i].grown()
    work += look_up * min(sides, key=lambda side: side.size).cost()
    return work / (workers or len(sides))


def plan(progress: np.ndarray, me: int, total: int, now_ns: int, deadline_ns: int, until_ns: int,
         self_dual: bool = False) -> str:
    """What the side ``me``, free, does next: GROW (claims its next layer), HELP (takes pieces of the
    other side's layer, or waits for it to claim one) or STOP; ``progress`` the two rows, read under the
    lock. See the module's docstring. A ``self_dual`` problem grows one side, whose layer ``k`` stands
    for the other's too (two jumps a layer), the other worker helping."""
    rows = [progress[k * FIELDS:(k + 1) * FIELDS] for k in (BACKWARD, FORWARD)]
    mine, theirs = rows[me], rows[1 - me]
    if self_dual:
        layers = -(-(total - 1 - 2 * int(mine[CLAIMED])) // 2)
        late = now_ns > deadline_ns
        look_up = look_up_cost(middle_in_itself(True, total))
        predicted = eta([outlook(mine, now_ns)], layers, 2, look_up)
        if layers <= 0 or late and now_ns + ETA_MARGIN_APART * predicted * 1e9 > until_ns:
            return STOP
        return GROW
    if theirs[STATE] == EMPTY:
        return STOP
    helping = HELP if busy(theirs) else STOP
    missing = total - 1 - int(mine[CLAIMED]) - int(theirs[CLAIMED])
    if missing <= 0:
        return helping
    sides = [outlook(row, now_ns) for row in rows]
    if theirs[STATE] == GROWING and sides[1 - me].cost() < sides[me].cost():
        return HELP  # theirs is the cheaper next layer: they claim it when free
    active = [sides[me]] + ([sides[1 - me]] if theirs[STATE] in (WAITING, GROWING) else [])
    if now_ns > deadline_ns and now_ns + ETA_MARGIN_APART * eta(active, missing) * 1e9 > until_ns:
        return helping
    return GROW


@dataclass
class SideJob:
    """One side to grow in a worker (:func:`grow_side`); times on the monotonic clock, in ns (the same
    in every process)."""

    board: Board
    finish: Cell
    side: int
    directory: str
    stored: str  # the directory of the layers but the last (on disk)
    budget: Budget
    memory_bytes: int
    deadline_ns: int
    until_ns: int
    lp_deadline_ns: int
    pagodas: bool = True
    piece: int = PIECE
    sorted_from: int = SORTED_FROM
    self_dual: bool = False  # then the backward side is grown, and the forward side's worker only helps


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


def merged_file(own: np.ndarray, part: np.ndarray, path: str) -> np.ndarray:
    """The union of two sorted parts of a layer (each without repeats) written straight into the
    layer's file ``path``, and mapped from it: neither part is copied first, and the layer is written
    once."""
    from gridsolver.pegs.kernels import endgame as endgame_kernels

    room = len(own) + len(part)
    if room == 0:
        NO_PART.tofile(path)
        return mapped(path, 0)
    out = np.memmap(path, dtype=np.uint64, mode="w+", shape=(room,))
    size = int(endgame_kernels.merge_into(own, part, out.view(np.ndarray)))
    del out
    os.truncate(path, 8 * size)
    return mapped(path, size)


def _to_file(ending: Endgame, job: SideJob) -> None:
    """The last layer written to its file (unless it is mapped from there already) and mapped from it
    instead (its memory given back); the one before it, needed now only to rebuild a game, moved to
    the directory on disk."""
    k = len(ending.layers) - 1
    path = layer_path(job.directory, job.side, k)
    if path_of(ending.layers[-1]) != os.path.abspath(path):
        ending.layers[-1].tofile(path)
        ending.layers[-1] = mapped(path, len(ending.layers[-1]))
    if k > 0:
        source, target = layer_path(job.directory, job.side, k - 1), layer_path(job.stored, job.side, k - 1)
        shutil.copyfile(source, target)
        ending.layers[k - 1] = mapped(target, len(ending.layers[k - 1]))
        os.remove(source)


def _perf(ns: int) -> float:
    """A monotonic-clock time in ns as a ``time.perf_counter()`` time (what :class:`Endgame` takes)."""
    return time.perf_counter() + (ns - time.monotonic_ns()) / 1e9


def _bank_path(directory: str, side: int) -> str:
    return os.path.join(directory, f"bank-{NAMES[side]}.npy")


def _help_path(directory: str, side: int, k: int) -> str:
    return os.path.join(directory, f"help-{NAMES[side]}-{k}")


def _write_bank(ending: Endgame, directory: str, side: int) -> None:
    """A side's pagodas (weights and floors), for the worker that helps it."""
    temporary = _bank_path(directory, side) + ".new.npy"
    np.save(temporary, np.column_stack([ending.weights, ending.floors]))
    os.replace(temporary, _bank_path(directory, side))


def _read_bank(ending: Endgame, directory: str, side: int) -> None:
    bank = np.load(_bank_path(directory, side))
    ending.weights, ending.floors = bank[:, :-1].copy(), bank[:, -1].copy()


def _halted(stop_ns: int) -> bool:
    return interrupt.requested() or time.monotonic_ns() > stop_ns


class SideWorker:
    """A side's worker (:func:`grow_side`): grows its side's layers, the big ones in pieces that the other
    side's worker may share (:meth:`grow`), and takes pieces of the other side's layers when free
    (:meth:`help`)."""

    def __init__(self, job: SideJob) -> None:
        meeting = Meeting(job.board, job.finish, pagodas=job.pagodas)
        self.job = job
        self.me = job.side
        self.ending = meeting.forward if job.side == FORWARD else meeting.backward
        self.theirs = meeting.backward if job.side == FORWARD else meeting.forward  # to grow their pieces
        self.ending.sorted_from = job.sorted_from
        self.progress = Progress(job.directory)
        self.until = _perf(job.until_ns)
        self.helped = 0  # pieces of the other side's layers grown here

    def grow(self, most: int) -> float | None:
        """Add a layer to this side (at most ``most`` positions): the seconds of work it took, or None when
        the budget stopped it first (no layer then)."""
        ending, job = self.ending, self.job
        last, piece = ending.layers[-1], job.piece
        if len(last) < max(job.sorted_from, 2 * piece):
            return ending.seconds[-1] if ending.grow(job.budget, most, self.until) else None
        row = self.progress.row(self.me)
        started = time.monotonic_ns()
        stop = deadline_ns(job.budget, self.until)
        _write_bank(ending, job.directory, self.me)
        with self.progress.locked():  # the pieces are open
            row[PIECES], row[NEXT_PIECE] = -(-len(last) // piece), 0
            row[HELPER], row[HELP_SIZE], row[HELP_NS] = IDLE, 0, 0
        children = Children(ending)
        code = EXHAUSTED
        while code == EXHAUSTED and (taken := self.progress.take_piece(self.me)) is not None:
            lo = taken[0] * piece
            code = children.gather(last, lo, min(lo + piece, len(last)), job.budget.node_limit(), stop, most)
        ending.nodes += children.nodes
        if code != EXHAUSTED:
            with self.progress.locked():  # the helper takes no more pieces of it
                row[NEXT_PIECE] = row[PIECES]
            return None
        layer = children.union(copy=False)  # meanwhile the helper, if any, ends its part
        state, size, helped_ns = self.progress.helper(self.me)
        while state == HELPING and not _halted(stop):
            time.sleep(POLL_S)
            state, size, helped_ns = self.progress.helper(self.me)
        if state == HELPED:  # the two parts merged into the layer's file
            k = len(ending.layers)
            path = _help_path(job.directory, self.me, k)
            layer = merged_file(layer, mapped(path, size), layer_path(job.directory, self.me, k))
            os.remove(path)
        elif state != IDLE:  # it failed, or did not end its part in time
            return None
        if len(layer) > most:
            return None
        seconds = (time.monotonic_ns() - started) / 1e9
        ending.add_layer(layer, seconds)
        return seconds + helped_ns / 1e9

    def help(self) -> bool:
        """Grow pieces of the layer the other side grows, while there are any; False when there were
        none."""
        other, job = 1 - self.me, self.job
        taken = self.progress.take_piece(other, helper=True)
        if taken is None:
            return False
        started = time.monotonic_ns()
        _, depth, parents = taken
        row = self.progress.row(other)
        _read_bank(self.theirs, job.directory, other)
        last = mapped(layer_path(job.directory, other, depth - 1), parents)
        children = Children(self.theirs)
        stop = deadline_ns(job.budget, self.until)
        most = int(job.memory_bytes / BYTES_PER_POSITION)
        code = EXHAUSTED
        piece = job.piece
        while taken is not None:
            lo = taken[0] * piece
            code = children.gather(last, lo, min(lo + piece, parents), job.budget.node_limit(), stop, most)
            self.helped += 1
            if code != EXHAUSTED:
                break
            taken = self.progress.take_piece(other, depth=depth)
        self.ending.nodes += children.nodes  # the meeting's count is the two sides' sum
        part = children.union(copy=False) if code == EXHAUSTED else NO_PART
        part.tofile(_help_path(job.directory, other, depth))
        with self.progress.locked():
            row[HELP_SIZE] = len(part)
            row[HELP_NS] += time.monotonic_ns() - started
            row[HELPER] = HELPED if code == EXHAUSTED else FAILED
        return True


NO_PART = np.zeros(0, dtype=np.uint64)


def claim(progress: np.ndarray, me: int, ending: Endgame, job: SideJob, now_ns: int) -> tuple[str, int]:
    """The side ``me`` claims its next layer, which :func:`plan` said it grows, with room for it: (GROW,
    the most positions it may hold) or, when the other side's growing layer holds the room it needs,
    (HELP, 0); ``progress`` the two rows, under the lock."""
    rows = [progress[k * FIELDS:(k + 1) * FIELDS] for k in (BACKWARD, FORWARD)]
    mine, theirs = rows[me], rows[1 - me]
    room = job.memory_bytes - 8 * (mine[POSITIONS] + theirs[POSITIONS]) - theirs[RESERVED]
    last = len(ending.layers[-1])
    per = SORTED_BYTES_PER_POSITION if last >= job.sorted_from else BYTES_PER_POSITION
    most = int(room / per)
    if most < last * ending.growth() and busy(theirs):
        return HELP, 0  # the room their layer holds comes back when it is done
    mine[RESERVED] = int(min(most, last * max(2.0, ending.growth())) * per)
    mine[CLAIMED] += 1
    mine[BUSY_SINCE_NS] = now_ns
    return GROW, most


def grow_side(job: SideJob) -> SideReport:
    """Grow one side of the meeting, and help the other, as :func:`plan` says (a worker task: module
    level)."""
    worker = SideWorker(job)
    if job.self_dual and job.side == FORWARD:
        return _help_only(worker)
    ending, progress, me = worker.ending, worker.progress, job.side
    row = progress.row(me)
    total = job.board.peg_count - 1
    row[STATE] = GROWING
    ending.prune(_perf(job.lp_deadline_ns))
    _to_file(ending, job)
    progress.finished_layer(me, ending, 0.0)
    most = 0
    while ending.empty_at is None:
        with progress.locked():
            now = time.monotonic_ns()
            step = plan(progress.values, me, total, now, job.deadline_ns, job.until_ns, job.self_dual)
            if step == GROW:
                step, most = claim(progress.values, me, ending, job, now)
        if step == STOP or (step == HELP and _halted(job.until_ns)):
            break
        if step == HELP:
            if not worker.help():
                time.sleep(POLL_S)
            continue
        work = worker.grow(most) if most > 0 else None
        if work is None:
            break
        ending.prune(_perf(job.lp_deadline_ns))
        if len(ending.layers[-1]) == 0:
            ending.empty_at = ending.pegs
        _to_file(ending, job)
        with progress.locked():
            progress.finished_layer(me, ending, work)
    with progress.locked():
        row[STATE] = EMPTY if ending.empty_at is not None else STOPPED
        row[CLAIMED] = row[DEPTH]
        row[RESERVED] = 0
    return SideReport([len(layer) for layer in ending.layers], ending.weights, ending.floors, ending.golden,
                      ending.lp_pagodas, ending.lp_seconds, ending.empty_at, ending.nodes, ending.seconds,
                      peak_rss_mb())


def _help_only(worker: SideWorker) -> SideReport:
    """The forward side's worker of a self-dual problem: it helps the backward side while that grows
    (its report has no layers)."""
    job, progress = worker.job, worker.progress
    with progress.locked():
        progress.row(FORWARD)[STATE] = STOPPED
    while progress.row(BACKWARD)[STATE] in (WAITING, GROWING) and not _halted(job.until_ns):
        if not worker.help():
            time.sleep(POLL_S)
    return SideReport([], worker.ending.weights, worker.ending.floors, 0, 0, 0.0, None, worker.ending.nodes,
                      [], peak_rss_mb())


def _adopt(ending: Endgame, report: SideReport, job: SideJob) -> None:
    last = len(report.sizes) - 1
    ending.layers = [mapped(layer_path(job.directory if k == last else job.stored, job.side, k), size)
                     for k, size in enumerate(report.sizes)]
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
        self.stored: str | None = None  # and of the layers they keep on disk
        #: the larger of the worker processes' peak memory, MB (each since it started: workers are reused);
        #: the layers they map are in it, the memory figures of this process's result are not
        self.worker_peak_mb = 0.0
        self.piece = PIECE  # parents in a piece of a layer both workers grow
        self.sorted_from = SORTED_FROM  # the workers' Endgame.sorted_from

    def run(self, budget: Budget, memory_bytes: int, deadline: float, until: float | None = None) -> str:
        try:
            return super().run(budget, memory_bytes, deadline, until)
        finally:  # the layers stay mapped, and readable, where they are in use
            for directory in (self.shared, self.stored):
                if directory is not None:
                    shutil.rmtree(directory, ignore_errors=True)
            self.shared = self.stored = None

    def _grow(self, budget: Budget, memory_bytes: int, deadline: float, until: float | None) -> str | None:
        total = self.board.peg_count - 1
        if total <= 1:
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
        self.stored = shared_directory(on_disk=True)
        Progress(directory, create=True)
        now, now_ns = time.perf_counter(), time.monotonic_ns()

        def ns(t: float) -> int:
            return now_ns + int((t - now) * 1e9)

        last = until if until is not None else deadline
        jobs = [SideJob(self.board, self.finish, side, directory, self.stored, budget, memory_bytes,
                        ns(deadline), ns(max(last, deadline)), ns(now + LP_SHARE * max(0.0, deadline - now)),
                        self.pagodas, self.piece, self.sorted_from, self.mirror is not None)
                for side in (BACKWARD, FORWARD)]
        try:
            reports = parallel_map(grow_side, jobs, workers=2, label="meeting")
        except interrupt.Interrupted as stop:  # Ctrl-C: the sides that came back
            reports = [stop.done.get(side) for side in (BACKWARD, FORWARD)]  # type: ignore[misc]
        for side, ending in ((BACKWARD, self.backward), (FORWARD, self.forward)):
            report = reports[side]
            if report is not None:
                if report.sizes:  # not the helper of a self-dual problem
                    _adopt(ending, report, jobs[side])
                self.worker_peak_mb = max(self.worker_peak_mb, report.peak_mb)

    def held(self) -> int:
        """Positions of the layers held in memory: the sides' last layers, when grown by the workers
        (the others are on disk)."""
        if self.stored is None:
            return super().held()
        return sum(len(side.layers[-1]) for side in self._sides())

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
