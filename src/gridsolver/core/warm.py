"""Kernels ready before a search starts: compiled on a first run (kept out of --time), loaded after.

numba compiles a kernel the first time it is called with new argument types,
which takes from one to tens of seconds a kernel (BENCHMARKS.md, section
``coldstart``), and keeps the machine code in its cache on disk, so later
processes only load it. Counted against ``--time``, a first run would search
for a fraction of its budget and report the compiling as search time.

So :meth:`gridsolver.core.game.Game.solve` first calls the game's
:meth:`~gridsolver.core.game.Game.warm` slot (which calls the kernels the
search will use once, on a tiny board of the same types) through
:func:`warm_up`, and moves the budget's start later by the seconds numba
spent compiling (:func:`gridsolver.core.game.exclude_compiling`). The rest of
the warm-up, loading cached kernels and starting worker processes, is start-up
that every run pays: it counts against ``--time``, so that the whole process
ends within ``--time`` plus a small fixed overhead. Meanwhile:

- the seconds numba spends compiling are measured (:class:`CompileWatch`,
  which hears numba's own compile events: loading from the cache is not
  compiling) and reported apart, in ``Result.stats.compile_s``;
- as soon as numba starts compiling, the user is told
  :data:`NOTE` on standard error: a rich display when standard error is a
  terminal, one plain line otherwise, nothing when the command line asks for
  ``--json`` and standard error is not a terminal (``GRIDSOLVER_COMPILE_NOTE``
  = ``off``, ``line`` or ``rich`` overrides the choice). Nothing at all is
  said when every kernel comes from the cache.

A game may leave out of its warm-up the kernels that only some searches reach
(bunny's deeper searches: most of its compiling, which a board solved in a few
tokens never needs). Its search then calls :func:`ready` before each such
kernel's first call, ahead of reading the deadline it hands the kernel: the
kernel is loaded or compiled there, and the seconds compiling are given back
to the budget in the same way (:meth:`gridsolver.core.budget.Budget.give_back`).

``gridsolver warmup [GAME...]`` (:func:`warm_games`) fills the cache ahead
of any search, with a progress bar.

numba is imported only when a game that has kernels warms them.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from gridsolver.core import interrupt
from gridsolver.core.budget import Budget
from gridsolver.core.progress import NOTE_ENV, NOTE_MODES, note_mode, worker_note_mode  # noqa: F401

NOTE = "compiling kernels, first run only"


class _Note:
    """The announcement: shown when the first kernel starts compiling, updated as kernels finish."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self._bar: Any = None
        self._task: Any = None
        self.shown = False

    def start(self) -> None:
        global _note_shown
        if self.shown or self.mode == "off":
            return
        self.shown = _note_shown = True
        if self.mode == "rich":
            self._open_bar()
        else:
            print(f"gridsolver: {NOTE} (later runs load them from the cache) ...", file=sys.stderr,
                  flush=True)

    def _open_bar(self) -> None:
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        self._bar = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                             TextColumn("{task.fields[status]}"), console=Console(file=sys.stderr),
                             transient=True)
        self._task = self._bar.add_task(NOTE, status="")
        self._bar.start()

    def update(self, compiled: int) -> None:
        if self._bar is not None:
            self._bar.update(self._task, status=f"{compiled} compiled")

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


_active: CompileWatch | None = None  # the watch of the warm-up running in this process, if any
_note_shown = False  # the note was shown in this process: kernels compiled on first use say it no more


class CompileWatch:
    """Within this block, time numba's compiling and announce it (see the module's docstring).

    Only outermost compilations count: compiling a kernel compiles the
    functions it calls inside the same event. ``on_compiled(count)`` hears
    each one start (with the count finished so far) and finish.
    """

    def __init__(self, mode: str | None = None,
                 on_compiled: Callable[[int], None] | None = None) -> None:
        self.compile_s = 0.0
        self.compiled = 0
        self._note = _Note(note_mode() if mode is None else mode)
        self._on_compiled = on_compiled
        self._depth = 0
        self._started = 0.0
        self._context: Any = None
        self._outer: CompileWatch | None = None

    def __enter__(self) -> CompileWatch:
        global _active
        from numba.core import event

        self._context = event.install_listener("numba:compile", _listener(self))
        self._context.__enter__()
        self._outer, _active = _active, self
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        global _active
        _active = self._outer
        self._context.__exit__(exc_type, exc, tb)
        self._note.stop()

    def started(self) -> None:
        self._depth += 1
        if self._depth == 1:
            self._started = time.perf_counter()
            self._note.start()
            if self._on_compiled is not None:  # told as it starts too: the first kernel takes long
                self._on_compiled(self.compiled)

    def ended(self) -> None:
        self._depth -= 1
        if self._depth == 0:
            self.add(time.perf_counter() - self._started)

    def add(self, seconds: float, kernels: int = 1) -> None:
        """Count ``kernels`` compiled in ``seconds`` (here, or in a worker process warmed for this one)."""
        self.compile_s += seconds
        self.compiled += kernels
        self._note.update(self.compiled)
        if self._on_compiled is not None:
            self._on_compiled(self.compiled)


def load_cached(kernel: Any) -> bool:
    """Load from numba's disk cache every machine code of ``kernel`` (a dispatcher) made for this
    machine and its source as it is now (a fraction of a second). False when there was none: then a
    first call compiles it. A cache numba cannot read counts as none."""
    try:
        cache = kernel._cache
        index = cache._cache_file._load_index()
        codegen = kernel.targetctx.codegen()
        signatures = [key[0] for key in index if cache._index_key(key[0], codegen) == key]
    except (AttributeError, OSError, EOFError, ValueError, TypeError):  # no disk cache, or numba changed
        return False
    for signature in signatures:
        kernel.compile(signature)
    return bool(signatures)


def ready(budget: Budget | None, kernel: Any, *args: Any) -> int:
    """Load or compile ``kernel`` (a numba dispatcher) for the types of ``args`` now, before it is
    called with them. When numba compiled, the seconds this took are given back to ``budget``;
    returns them in nanoseconds, for a deadline read before (0 when the kernel was compiled already,
    for any types, or came from the cache)."""
    # A kernel compiled for any types already is taken as ready: the searches that call this use one
    # set of types a kernel, and typing the arguments of every call would cost more than some calls
    # take (milliseconds a board). A plain function (NUMBA_DISABLE_JIT) has nothing to compile.
    if getattr(kernel, "overloads", True):
        return 0
    types = tuple(kernel.typeof_pyval(arg) for arg in args)
    from gridsolver.core import live

    lines = list(live.active_watchers())  # a status line tells it; else the note, as a warm-up does
    notes = [line.note for line in lines]
    for line in lines:
        line.heard(NOTE)
    began = time.perf_counter()
    with CompileWatch(mode="off" if lines or _note_shown else None) as watch:
        kernel.compile(types)
    seconds = time.perf_counter() - began
    for line, note in zip(lines, notes, strict=True):
        line.heard(note)
    if budget is None or watch.compile_s == 0:  # loaded from the cache: start-up, which counts
        return 0
    before = budget.started_ns
    budget.give_back(seconds)  # numba's first compile in a process also sets itself up: half a second
    return budget.started_ns - before


def _listener(watch: CompileWatch) -> Any:
    """A numba event listener that tells ``watch`` when compiling starts and ends."""
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, ev: Any) -> None:
            watch.started()

        def on_end(self, ev: Any) -> None:
            watch.ended()

    return Listener()


@dataclass
class Warmup:
    """What one warm-up took."""

    seconds: float = 0.0  # in all: compiling, loading from the cache, starting workers
    compile_s: float = 0.0  # of which numba was compiling (0 when everything came from the cache)
    compiled: int = 0  # kernels compiled


def warms(game: Any) -> bool:
    """Whether a :class:`~gridsolver.core.game.Game` fills the warm slot (one without kernels does not)."""
    return bool(game.has_kernels())


_cluster: str | None = None  # the Dask cluster the search of the running warm-up will use, if any


def warm_up(game: Any, board: Any, options: Any, workers: int = 1,
            mode: str | None = None, on_compiled: Callable[[int], None] | None = None,
            cluster: str | None = None) -> Warmup:
    """Run ``game.warm`` under a :class:`CompileWatch` and say what it took.

    With ``cluster`` (a Dask scheduler's address) the :func:`warm_workers` of the game's warm slot
    warm that cluster's workers instead of local ones: the slot itself does not change.
    """
    return _timed_warm(game, lambda: game.warm(board, options, workers=workers), cluster, mode, on_compiled)


def warm_for_boards(game: Any, boards: Sequence[tuple[Any, Any]], workers: int,
                    cluster: str | None = None) -> Warmup:
    """Make ready, before any budget starts, what the searches of these (board, options) pairs run:
    in this process, then in each of the ``workers`` local worker processes that
    :func:`gridsolver.core.parallel.parallel_map` will give them to (or every worker of ``cluster``).
    A run that spreads a set of boards over workers calls it: otherwise each worker would load or
    compile its kernels inside the budget of the first board it is given."""

    def here_then_workers() -> None:
        _warm_boards((game, boards))  # first here, so the workers load from the cache
        warm_workers(_warm_boards, (game, boards), workers)

    return _timed_warm(game, here_then_workers, cluster)


def _timed_warm(game: Any, warm: Callable[[], object], cluster: str | None, mode: str | None = None,
                on_compiled: Callable[[int], None] | None = None) -> Warmup:
    """``warm()`` under a :class:`CompileWatch`, with :func:`warm_workers` sent to ``cluster``."""
    global _cluster
    if not warms(game):
        return Warmup()
    started = time.perf_counter()
    outer, _cluster = _cluster, cluster
    try:
        with CompileWatch(mode, on_compiled) as watch:
            warm()
    finally:
        _cluster = outer
    return Warmup(round(time.perf_counter() - started, 3), round(watch.compile_s, 3), watch.compiled)


def _warm_boards(payload: tuple[Any, Sequence[tuple[Any, Any]]]) -> None:
    game, boards = payload
    for board, options in boards:  # each kind of board once: the game's warm is kept per process
        game.warm(board, options, workers=1)


_DONE: set[Hashable] = set()


def once(key: Hashable, warm: Callable[[], object]) -> None:
    """Call ``warm()`` unless it already ran in this process: kernels stay compiled for its lifetime."""
    if key not in _DONE:
        warm()
        _DONE.add(key)


# -- worker processes ---------------------------------------------------------------------------
#: How long a worker holds on to its warm-up task, so that every idle worker takes one of them.
WORKER_HOLD_S = 0.05
#: Maps tried until every worker has warmed (a worker still starting may leave its task to another).
WORKER_ROUNDS = 3


class _WarmWorker:
    """A task for :func:`warm_workers` (module level, so it can be sent to a worker process)."""

    def __init__(self, warm: Callable[[Any], object]) -> None:
        self.warm = warm

    def __call__(self, payload: Any) -> tuple[int, float, int]:
        with CompileWatch(mode="off") as watch:
            self.warm(payload)
        time.sleep(WORKER_HOLD_S)
        return os.getpid(), watch.compile_s, watch.compiled


def warm_workers(warm: Callable[[Any], object], payload: Any, workers: int) -> set[int]:
    """Run ``warm(payload)`` on each of the ``workers`` local worker processes that
    :func:`gridsolver.core.parallel.parallel_map` will use, starting them if need be; inside
    :func:`warm_up` with a cluster, on every worker of that cluster instead (``workers`` aside).

    ``warm`` is a module-level function. Call this after warming this process,
    so that local workers load the kernels from the cache instead of compiling
    them side by side (a cluster's workers may not share that cache: each
    compiles or loads from its own). What the workers compile counts in the
    running watch. After Ctrl-C nothing is started: the search stops at once
    anyway. Returns the process ids of the workers warmed.
    """
    if interrupt.requested():
        return set()
    if _cluster is not None:
        return _warm_cluster(warm, payload, _cluster)
    warmed: set[int] = set()
    if workers <= 1:
        return warmed
    from gridsolver.core.parallel import parallel_map

    for _ in range(WORKER_ROUNDS):
        answers = parallel_map(_WarmWorker(warm), [payload] * workers, workers=workers,
                               label="starting workers")
        warmed.update(pid for pid, _, _ in answers)
        _count(answers)
        if len(warmed) >= workers or interrupt.requested():
            break
    return warmed


def _warm_cluster(warm: Callable[[Any], object], payload: Any, cluster: str) -> set[int]:
    """``warm(payload)`` on every worker of ``cluster`` at once, before any budget starts: else each
    worker would compile inside the first search task it runs."""
    from gridsolver.core.parallel import on_each_worker

    answers = list(on_each_worker(_WarmWorker(warm), payload, cluster).values())
    _count(answers)
    return {pid for pid, _, _ in answers}


def _count(answers: list[tuple[int, float, int]]) -> None:
    """Add what workers compiled, side by side, to the running watch: the slowest worker's seconds."""
    compiled = sum(count for _, _, count in answers)
    if _active is not None and compiled:
        _active.add(max(seconds for _, seconds, _ in answers), compiled)


# -- gridsolver warmup --------------------------------------------------------------------------
def warm_games(games: Sequence[Any], report: Callable[[str, Warmup | None], None]) -> None:
    """Compile (or load) every kernel of each game, with a progress bar on a terminal.

    ``report(name, warmup)`` hears each game as it is done (``None``: the game
    has no kernels to compile ahead).
    """
    from gridsolver.core.progress import progress

    with progress(len(games), "warming up kernels", delay=0) as bar:
        for each in games:
            if not warms(each):
                report(each.name, None)
                bar.advance()
                continue
            bar.note(f"{each.name}: loading or compiling")

            def compiled(count: int, name: str = each.name) -> None:
                bar.note(f"{name}: {NOTE}, {count} compiled")

            report(each.name, warm_up(each, None, None, mode="off", on_compiled=compiled))
            bar.advance()
