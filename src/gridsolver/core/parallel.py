"""A parallel map for embarrassingly parallel work: benchmark suites, tournaments.

``parallel_map(fn, items)`` returns ``[fn(x) for x in items]`` in order,
computed on local worker processes (``workers``, default: every core) or on a
Dask cluster (``cluster="tcp://host:port"``, needs the ``cluster`` extra and
gridsolver installed on the workers). ``fn`` must be a module-level function
so it can be sent to another process.

Local workers are loky's reusable workers, started spawn-like (loky's default
method: fork then exec at once), never a bare ``fork``: forking a process that
runs a progress thread or a numba thread pool can deadlock the child.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from gridsolver.core import interrupt, watch
from gridsolver.core.errors import ClusterLost, InputError
from gridsolver.core.live import NO_PROGRESS_ENV
from gridsolver.core.progress import NOTE_ENV, progress, worker_note_mode

T = TypeVar("T")
R = TypeVar("R")


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else (os.cpu_count() or 1))


def parallel_map(
    fn: Callable[[T], R],
    items: Sequence[T],
    *,
    workers: int | None = None,
    cluster: str | None = None,
    label: str = "working",
    on_result: Callable[[int, R], None] | None = None,
) -> list[R]:
    """Apply ``fn`` to every item in parallel; results come back in input order.

    ``on_result(index, result)`` is called as each result arrives (in completion
    order), e.g. to print results early.

    Ctrl-C (see :mod:`gridsolver.core.interrupt`): each task runs inside
    ``interrupt.catching(hard=False)`` in its worker, so a running search returns
    its best. Inside a command's ``interrupt.catching()`` the map passes the
    request on to its workers, waits a moment for the running items, and returns
    normally if every item finished; otherwise it raises
    :class:`~gridsolver.core.interrupt.Interrupted` holding the finished ones.
    """
    items = list(items)
    if workers is not None and workers < 1:
        raise InputError(f"--workers must be at least 1, got {workers}")
    with progress(len(items), label) as bar:
        if cluster:
            return _dask_map(fn, items, cluster, bar, on_result)
        count = workers or default_workers()  # the pool's size, whatever this map's length
        # After Ctrl-C the items return at once (their deadlines are spent): here, rather than in
        # workers that might have to be started for them.
        if count <= 1 or len(items) <= 1 or interrupt.requested():
            return _local_map(fn, items, bar, on_result)
        return _process_map(fn, items, count, bar, on_result)


def _local_map(fn, items, bar, on_result):
    """The map in this process, one item after another; Ctrl-C ends it after the running item."""
    results = []
    after_ctrl_c = interrupt.requested()  # then every item runs: each returns at once
    for i, item in enumerate(items):
        if interrupt.requested() and not after_ctrl_c and i > 0:
            raise interrupt.Interrupted(dict(enumerate(results)))
        results.append(fn(item))
        if on_result:
            on_result(i, results[-1])
        bar.advance()
    return results


class _Skipped(Exception):
    """A task that was still queued when Ctrl-C came: it did not run."""


class _Task:
    """``fn`` run in a worker under ``interrupt.catching(hard=False)`` (module level: it is pickled).

    ``stop_file`` (local maps) is created by the parent on Ctrl-C: a task that starts after it
    exists does not run (it raises :class:`_Skipped`). loky hands a worker its next task before
    the last one ends, so cancelling futures cannot hold back every task that has not begun.
    ``watch_rows`` (local maps) is the parent's file of watch rows: task ``index``'s kernels write
    row ``index``, which the parent's status line reads while the task runs.
    """

    def __init__(self, fn: Callable[[T], R], stop_file: str | None = None,
                 watch_rows: str | None = None) -> None:
        self.fn = fn
        self.stop_file = stop_file
        self.watch_rows = watch_rows

    def __call__(self, item: T, index: int = -1) -> R:
        if self.stop_file is not None and os.path.exists(self.stop_file):
            raise _Skipped
        rows = watch.writing_row(self.watch_rows, index) if self.watch_rows and index >= 0 \
            else contextlib.nullcontext()
        with interrupt.catching(hard=False), rows:
            return self.fn(item)


#: Past this growth loky would restart a worker as leaking (see _executor): 1 TB, i.e. never.
LOKY_LEAK_LIMIT_BYTES = 1 << 40
# Workers idle this long exit (loky's default is 10 s, short enough to lose them between two boards).
IDLE_TIMEOUT_S = 300


def _executor(count: int):
    """loky's reusable executor with ``count`` workers, started once and reused by every later map.

    Starting a worker (importing numpy and numba, loading the cached kernels)
    takes about a second; a command that solves 20 boards one after another
    on every core would otherwise pay it 20 times, inside each board's budget.
    loky keeps one executor per process, resizes it when ``count`` changes and
    makes a new one when the last was shut down or broken (a worker died).
    Its workers start with loky's own method, spawn-like (fork then exec): no
    thread of this process is copied into them.

    Measured against the hand-made cache it replaces (a stdlib ProcessPoolExecutor
    with spawn, kept per worker count), on the SameGame pattern: maps of 2 items on
    2 workers, a 15x15 numpy grid per item, 2 cores (3 runs each, 400 maps a run):
    a map costs 0.68-0.84 ms with the stdlib pool and 0.95-1.45 ms with loky, so
    the 40 maps of a 20-board run pay 12-25 ms more; the first map (starting the
    workers) takes about 1 s with either. The stdlib pool is a little faster, but
    by under 1 ms per map, where each map runs a board's search for seconds; loky
    was chosen for what it adds: a worker killed between two maps (say by the
    out-of-memory killer) broke the cached stdlib pool for every later map
    (``submit`` raised BrokenProcessPool before the clean-up could run), while
    loky starts a fresh executor; and idle workers exit.
    """
    from loky import get_reusable_executor

    # loky restarts a worker whose memory grew 300 MB past its size after its first task, taking it
    # for a leak; a search's tables grow that much by design (bounded by --memory), and a restart
    # costs about a second of start-up inside the next board's budget. Workers read it at start.
    os.environ.setdefault("LOKY_MAX_MEMORY_LEAK_SIZE", str(LOKY_LEAK_LIMIT_BYTES))
    global _last_executor
    # workers cannot read --json from this command line: they are told how to announce compiling;
    # and they never draw a bar of their own on the terminal they share with this process
    _last_executor = get_reusable_executor(max_workers=count, timeout=IDLE_TIMEOUT_S,
                                           initializer=_ignore_sigint,
                                           env={NOTE_ENV: worker_note_mode(), NO_PROGRESS_ENV: "1"})
    return _last_executor


_last_executor: Any = None


def start_workers(count: int, modules: Sequence[str]) -> None:
    """Start the ``count`` local workers of later maps now, in the background, importing ``modules``.

    Returns at once: the workers import (numpy, numba, a game's kernels modules:
    about a second each) while this process does something else, e.g. loads its
    own kernels, instead of after it, when the first map would start them.
    Importing compiles nothing. After Ctrl-C nothing is started.
    """
    if count <= 1 or interrupt.requested():
        return
    with _sigint_blocked():  # workers start here: see _ignore_sigint
        executor = _executor(count)
        for _ in range(count):  # one each when every worker is free; a busy one just queues it
            executor.submit(_import_modules, tuple(modules))


def _import_modules(modules: tuple[str, ...]) -> None:
    """A worker's first task from :func:`start_workers` (module level: it is pickled)."""
    import importlib

    for module in modules:
        importlib.import_module(module)


def stop_workers() -> None:
    """End this process's worker processes now, for a command that is about to exit.

    Left alone, loky's exit handler waits for idle workers to wind down, about
    1.5 s: a command interrupted with Ctrl-C would print its answer at once and
    then hang on that long. Killing idle workers loses nothing.
    """
    global _last_executor
    if _last_executor is not None:
        _last_executor.shutdown(wait=True, kill_workers=True)
        _last_executor = None


def _ignore_sigint() -> None:
    """Workers ignore Ctrl-C between tasks (a task listens: see :class:`_Task`), so an idle worker
    does not die of it and take the pool's running tasks down with it.

    A worker is born with SIGINT blocked (:func:`_sigint_blocked`: the mask survives fork and
    exec), so a Ctrl-C while it imports waits, and is dropped here, instead of killing it.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT blocked in this thread while worker processes may start (they inherit the mask).

    Not lost meanwhile: the kernel delivers it to another thread of this process, or
    when the block ends.
    """
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


#: How long a map waits, after Ctrl-C, for running items to return their best.
WIND_DOWN_S = 0.6
_POLL_S = 0.1  # how often a waiting map looks whether Ctrl-C was pressed


def _process_map(fn, items, count, bar, on_result):
    stop_file = os.path.join(tempfile.gettempdir(), f"gridsolver-stop-{os.getpid()}-{uuid.uuid4().hex}")
    with watch.rows_for(len(items)) as rows:
        return _watched_process_map(fn, items, count, bar, on_result, stop_file, rows)


def _watched_process_map(fn, items, count, bar, on_result, stop_file, rows):
    from concurrent.futures import FIRST_COMPLETED, wait

    results: list = [None] * len(items)
    done: dict[int, object] = {}
    task = _Task(fn, stop_file, rows.path)
    with _sigint_blocked():  # workers start here: see _ignore_sigint
        executor = _executor(count)
        futures = {executor.submit(task, item, i): i for i, item in enumerate(items)}
    pending = set(futures)
    wind_down_until = None
    try:
        while pending:
            finished, pending = wait(pending, timeout=_POLL_S, return_when=FIRST_COMPLETED)
            for future in finished:
                if future.cancelled() or isinstance(future.exception(), _Skipped):
                    continue
                i = futures[future]
                results[i] = done[i] = future.result()
                if on_result:
                    on_result(i, results[i])
                bar.advance()
            if interrupt.requested() and pending:
                if wind_down_until is None:
                    # tasks not begun yet will not run; their futures are not cancelled: see _kill
                    open(stop_file, "w").close()
                    _forward_sigint()
                    wind_down_until = time.monotonic() + WIND_DOWN_S
                elif time.monotonic() >= wind_down_until:
                    raise interrupt.Interrupted(done)
        if len(done) < len(items):  # Ctrl-C: some items never ran
            raise interrupt.Interrupted(done)
    except interrupt.Interrupted:
        if pending:  # tasks still running past the wind-down: stop them
            _kill(executor)
        raise
    except BaseException:
        # a failed or interrupted map leaves no half-finished work behind for the next one:
        # stop its workers now; the next map gets a fresh executor from loky
        _kill(executor)
        raise
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.remove(stop_file)
    return results


def _kill(executor: Any) -> None:
    """Stop ``executor``'s workers now; its unfinished futures end with loky's ShutdownExecutorError.

    Its futures must not be cancelled first: loky's manager thread fails every pending future on
    such a shutdown and, meeting a cancelled one, crashes with a traceback on standard error
    (``InvalidStateError: CANCELLED``).
    """
    executor.shutdown(wait=True, kill_workers=True)


def _forward_sigint() -> None:
    """Pass Ctrl-C on to this process's workers (a terminal's Ctrl-C reaches them anyway;
    ``kill -INT`` of this process alone does not)."""
    import psutil

    for child in psutil.Process().children(recursive=True):
        try:
            child.send_signal(signal.SIGINT)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass


#: Cluster addresses as Dask writes them: scheme://host:port.
_CLUSTER_ADDRESS = re.compile(r"^(tcp|tls|ws|wss)://[^\s/:]+(:\d{1,5})?/?$")
CONNECT_TIMEOUT_S = 5


def check_cluster_address(address: str) -> str:
    """The address if it reads like a Dask scheduler's, else an InputError saying what one looks like."""
    if not _CLUSTER_ADDRESS.match(address):
        raise InputError(f"--cluster {address!r}: expected a Dask scheduler address such as tcp://HOST:8786")
    return address


def _connect(address: str) -> Any:
    """A Dask client of the scheduler at ``address``; an InputError when Dask is missing or no scheduler
    answers within :data:`CONNECT_TIMEOUT_S`."""
    check_cluster_address(address)
    try:
        from dask.distributed import Client
    except ImportError:
        raise InputError(
            "--cluster needs Dask: pip install 'gridsolver[cluster]'"
        ) from None
    try:
        return Client(address, timeout=f"{CONNECT_TIMEOUT_S}s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise InputError(f"--cluster {address}: cannot connect within {CONNECT_TIMEOUT_S} s "
                         f"({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})") from None


def on_each_worker(fn: Callable[[T], R], payload: T, cluster: str) -> dict[str, R]:
    """``fn(payload)`` once in every worker process of a Dask cluster, side by side.

    Returns {worker address: what ``fn`` returned} for the workers that answered (after Ctrl-C, those
    done by then). One task pinned to each worker rather than ``Client.run``, which would call ``fn``
    on the worker's event loop: seconds of compiling there stall its heartbeats and its other tasks.
    """
    client = _connect(cluster)
    try:
        futures = {address: client.submit(fn, payload, workers=[address], allow_other_workers=False,
                                          pure=False)
                   for address in client.scheduler_info()["workers"]}
        while not all(future.done() for future in futures.values()):
            if interrupt.requested():
                client.cancel([f for f in futures.values() if not f.done()])
                break
            time.sleep(_POLL_S)
        # a task that failed raises here, as a map's would; one cancelled by Ctrl-C is left out
        return {address: future.result() for address, future in futures.items()
                if future.done() and future.status != "cancelled"}
    finally:
        client.close()


#: How often a cluster map asks the scheduler which worker runs which item (an RPC: not every poll).
WATCH_S = 1.0


class _WorkerWatch:
    """Which cluster worker runs which item of a map, so that a worker lost mid-map is named with the
    items it was running. Dask runs those again on other workers by itself; only this says so."""

    def __init__(self, client: Any, index: dict[Any, int]) -> None:
        self.client = client
        self.index = index
        self.running: dict[str, set[int]] = {}
        self.next_look = 0.0
        self.workers = set(client.processing())  # every worker seen during the map
        self.named: set[str] = set()  # the lost workers already said

    def look(self, pending: set[int]) -> None:
        now = time.monotonic()
        if now < self.next_look:
            return
        self.next_look = now + WATCH_S
        try:
            processing = self.client.processing()
        except (OSError, TimeoutError):
            # the scheduler went away after the last poll: the client cancels every future it holds,
            # and the map's next poll says so with what finished
            return
        self.workers |= set(processing)
        for worker in set(self.running) - set(processing):
            # items it held that have not come back: they were on it when it went
            again = sorted(self.running.pop(worker) & pending)
            if again:
                self.named.add(worker)
                print(f"gridsolver: warning: cluster worker {worker} was lost; item(s) "
                      f"{', '.join(str(i + 1) for i in again)} of {len(self.index)} run again on other "
                      "workers", file=sys.stderr, flush=True)
        for worker, keys in processing.items():  # kept from earlier looks: an item may outlive a look
            self.running.setdefault(worker, set()).update(self.index[k] for k in keys if k in self.index)


    def last_look(self) -> None:
        """At the map's end: a worker that went while no look saw its items (a busy machine, short
        items) is still said, without the items."""
        try:
            gone = self.workers - set(self.client.processing()) - self.named
        except (OSError, TimeoutError):
            return
        for worker in sorted(gone):
            print(f"gridsolver: warning: cluster worker {worker} was lost; the items it held were run "
                  "again on other workers", file=sys.stderr, flush=True)


def _short_cause(exc: BaseException) -> str:
    """Why a future ended, in a few words: Dask's own reason when it gives one (its message also
    names the task object and key, of no use to a user), else the first line of the message."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    _, said, reason = text.partition("reason: ")
    return (reason.rstrip(".") if said and reason else text)[:200]


def _result_of(future: Any, address: str, done: dict[int, object]) -> object:
    """A finished future's result; :class:`ClusterLost` when it ended because the scheduler went away
    (the client cancels every future it holds once it cannot reach the scheduler again)."""
    from concurrent.futures import CancelledError

    try:
        return future.result()
    except (CancelledError, OSError, TimeoutError) as exc:
        if interrupt.requested():
            raise
        cause = _short_cause(exc)
        raise ClusterLost(address, done, cause) from None


def _dask_map(fn, items, address, bar, on_result):
    client = _connect(address)
    try:
        futures = client.map(_Task(fn), items, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        lost = _WorkerWatch(client, index)
        results: list = [None] * len(items)
        done: dict[int, object] = {}
        pending = set(futures)
        while pending:
            finished = {future for future in pending if future.done()}
            pending -= finished
            if not finished:
                lost.look({index[future.key] for future in pending})
                time.sleep(_POLL_S)
            for future in finished:
                i = index[future.key]
                results[i] = done[i] = _result_of(future, address, done)
                if on_result:
                    on_result(i, results[i])
                bar.advance()
            if interrupt.requested() and pending:
                client.cancel(list(pending))  # remote workers hear no Ctrl-C: their tasks are dropped
                raise interrupt.Interrupted(done)
        lost.last_look()
        return results
    finally:
        client.close()
