"""Watching a search think: the live status line and the stream of events.

While a search runs, a :class:`Watcher` thread reads the watch blocks (see
:mod:`gridsolver.core.watch`: the search's own and those of the worker
processes it maps onto) a few times a second and turns what changed into

- **events**, dictionaries with an ``event`` key: ``start``, ``improved`` (a
  better score), ``bound`` (a better proved bound) and ``end`` (the verified
  result), handed to ``solve(..., on_event=...)`` and written one JSON object
  per line by ``--events FILE``; their keys are listed in :data:`EVENT_KEYS`;
- a **status line** on standard error (:class:`Display`): the board (k of n),
  time used and budget, the best score so far and what it counts, the proved
  bound and the gap, the work rate and the workers. When the board ends the
  line becomes a one-line summary. It is drawn only on a terminal, unless
  asked for (``--progress``: a plain line a second), and never on standard
  output.

Events and frames come from the watcher's thread; ``on_event`` is called
from it too, so a callback should be quick and must not call back into the
search. Scores in ``improved`` events never get worse, and the last one
equals the result.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

import numpy as np

from gridsolver.core import watch

#: set (to anything) to draw no status line or progress display: worker processes, tests
NO_PROGRESS_ENV = "GRIDSOLVER_NO_PROGRESS"

Event = dict[str, Any]
EventHandler = Callable[[Event], None]

#: The keys of each event (every event also has ``event``, ``game``, ``input`` and ``t``, the
#: seconds since the search started).
EVENT_KEYS = {
    "start": ("time_budget_s", "workers", "board_index", "boards"),
    "improved": ("score", "score_name", "status", "bound", "work", "solution"),
    "bound": ("bound", "score", "score_name"),
    "end": ("status", "score", "score_name", "bound", "stopped", "verified", "work", "elapsed_s"),
}
#: How often the watcher reads the blocks, and how often kernels let it in to do so.
INTERVAL_S = 0.25
YIELD_NS = 100_000_000
#: A solution goes into an ``improved`` event when its JSON is at most this long.
SMALL_SOLUTION_CHARS = 2000
#: What the status line says before the search starts (kernels loading, workers starting).
STARTING = "starting: loading the kernels"
#: ``--progress`` on a pipe prints a plain status line this often.
PLAIN_EVERY_S = 1.0


@dataclass
class Search:
    """What the watcher is told about the search it watches."""

    game: str
    label: str
    score_name: str
    minimize: bool
    work_name: str = "nodes"
    budget_s: float | None = None
    workers: int = 1
    board_index: int = 1
    boards: int = 1
    #: when the search's clock started (time.monotonic()); None: when the watcher starts
    started: float | None = None


@dataclass
class Reading:
    """One look at the blocks."""

    elapsed_s: float
    work: int
    rate: float
    best: int | None
    bound: int | None
    depth: int


def read_blocks(blocks: list[np.ndarray], minimize: bool) -> tuple[int, int | None, int | None, int]:
    """Work, best score, best bound and depth over the blocks of one search (its own and its workers')."""
    work = 0
    bests: list[int] = []
    bounds: list[int] = []
    depth = 0
    for block in blocks:
        work += watch.work(block)
        if block[watch.IMPROVEMENTS] > 0:
            bests.append(int(block[watch.BEST]))
        if block[watch.BOUNDS] > 0:
            bounds.append(int(block[watch.BOUND]))
        depth = max(depth, int(block[watch.DEPTH]))
    best = (min(bests) if minimize else max(bests)) if bests else None
    # a bound limits the score from the side it cannot pass: below for a score made small, above for
    # one made large; the tightest of the workers' holds for the search
    bound = (max(bounds) if minimize else min(bounds)) if bounds else None
    return work, best, bound, depth


def better(a: float | int, b: float | int | None, minimize: bool) -> bool:
    """Whether score ``a`` beats ``b`` (None: no score yet)."""
    return b is None or (a < b if minimize else a > b)


class Watcher:
    """Reads the running search's blocks on a thread; says what changed as events and frames."""

    def __init__(self, search: Search, handlers: list[EventHandler], display: Display | None) -> None:
        self.search = search
        self.handlers = handlers
        self.display = display
        self.best: int | float | None = None
        self.bound: int | None = None
        #: the last improved event sent, as (score, status, carried a solution)
        self._told: tuple[int | float, str, bool] | None = None
        self.note = ""
        self._meter = WorkMeter()
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        #: what the search is doing before it searches (loading or compiling kernels), else ""
        self.starting = ""

    @property
    def active(self) -> bool:
        return bool(self.handlers) or self.display is not None

    def start(self) -> None:
        watch.reset(YIELD_NS if self.active else 0)
        if self.search.started is None:
            self.search.started = time.monotonic()
        s = self.search
        self.emit("start", time_budget_s=s.budget_s, workers=s.workers, board_index=s.board_index,
                  boards=s.boards)
        if self.active:
            if self.display is not None:
                _active_watchers.append(self)
            self._thread = threading.Thread(target=self._run, name="gridsolver-watcher", daemon=True)
            self._thread.start()

    def _started(self) -> float:
        return time.monotonic() if self.search.started is None else self.search.started

    def _run(self) -> None:
        while not self._done.wait(INTERVAL_S):
            try:
                self.look()
            except Exception:  # noqa: BLE001 - a status line must never take the search down
                self.display = None

    def start_up(self, doing: str) -> None:
        """Before the search: say ``doing`` on the status line; what kernels write meanwhile (a
        warm-up runs them on a tiny board of its own) is not read."""
        self.starting = doing

    def searching(self, started: float) -> None:
        """The search starts now, its clock from ``started`` (time.monotonic()): what the warm-up
        wrote is wiped, and the blocks are read from here on."""
        watch.reset(YIELD_NS if self.active else 0)
        self.search.started = started
        self.starting = ""

    def look(self) -> Reading:
        """Read the blocks now: events for what improved, a frame for the status line."""
        if self.starting:
            reading = Reading(time.monotonic() - self._started(), 0, 0.0, None, None, 0)
            if self.display is not None:
                self.display.line(starting_text(self.search, reading, self.starting))
            return reading
        work, best, bound, depth = read_blocks(all_blocks(), self.search.minimize)
        now = time.monotonic()
        work, rate = self._meter.read(now, work)
        reading = Reading(now - self._started(), work, rate, best, bound, depth)
        with self._lock:
            if bound is not None and (self.bound is None or better(self.bound, bound, self.search.minimize)):
                self.bound = bound
                self.emit("bound", bound=bound, score=self.best, score_name=self.search.score_name)
            if best is not None and better(best, self.best, self.search.minimize):
                self.best = best
                solution = _small(watch.solution_of(best)) if self.handlers else None
                self._tell(best, "best-found", work, solution)
        if self.display is not None:
            self.display.frame(self.search, reading, self)
        return reading

    def heard(self, note: str) -> None:
        """A search's note in words (``progress`` of :meth:`Game.solve`): shown on the status line."""
        self.note = note

    def stop(self) -> None:
        """Stop reading (the search returned, or failed)."""
        self._done.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self in _active_watchers:
            _active_watchers.remove(self)
        watch.block()[watch.YIELD_NS] = YIELD_NS if _active_tallies else 0

    def finish(self, result: Any) -> None:
        """The search ended with ``result`` (verified): last events, the summary line."""
        self.stop()
        work = result.stats.nodes
        score = result.score
        with self._lock:
            if score is not None and result.solution is not None and result.verified:
                solution = _small(result.solution)
                # the last improved event is the result's: its status, and its solution when the
                # watcher read the same score from a kernel (numbers only) or in another process
                never_worse = self.best is None or not better(self.best, score, self.search.minimize)
                if never_worse and self._told != (score, result.status, solution is not None):
                    self.best = score
                    self._tell(score, result.status, work, solution)
            self.emit("end", status=result.status, score=score, score_name=self.search.score_name,
                      bound=self.bound, stopped=result.stopped, verified=result.verified, work=work,
                      elapsed_s=result.stats.elapsed_s)
        if self.display is not None:
            self.display.summary(self.search, result)

    def _tell(self, score: int | float, status: str, work: int, solution: Any) -> None:
        self._told = (score, status, solution is not None)
        self.emit("improved", score=score, score_name=self.search.score_name, status=status,
                  bound=self.bound, work=work, solution=solution)

    def emit(self, kind: str, **fields: Any) -> None:
        if not self.handlers:
            return
        event: Event = {"event": kind, "game": self.search.game, "input": self.search.label,
                        "t": round(time.monotonic() - self._started(), 3), **fields}
        for handler in self.handlers:
            handler(event)


#: The watchers drawing a status line now (a run's tally keeps quiet meanwhile), and the tallies.
_active_watchers: list[Watcher] = []
_active_tallies: list[Any] = []


def active_watchers() -> list[Watcher]:
    """The watchers drawing a status line now."""
    return list(_active_watchers)


def _small(solution: Any) -> Any:
    """The solution, when it is short enough to travel in an event; else None."""
    try:
        return solution if len(json.dumps(solution)) <= SMALL_SOLUTION_CHARS else None
    except (TypeError, ValueError):
        return None


# -- what a command shows: the status line and the events file ------------------------------------
class Display:
    """The status line on standard error: redrawn in place on a terminal, a plain line a second when
    asked for on a pipe (``--progress``), nothing otherwise."""

    def __init__(self, stream: TextIO, terminal: bool) -> None:
        self.stream = stream
        self.terminal = terminal
        self._lock = threading.Lock()
        self._drawn = False
        self._last_plain = 0.0
        if terminal:
            # rich is imported here, not on the watcher's thread: an import there takes the
            # interpreter in many short turns, each waiting for the kernel to let go (a second or more)
            _styled("")

    def frame(self, search: Search, reading: Reading, watcher: Watcher) -> None:
        self.line(status_text(search, reading, watcher.best, watcher.bound, watcher.note))

    def line(self, text: str) -> None:
        """Show ``text`` as the status line."""
        with self._lock:
            if self.terminal:
                self._write("\r\x1b[2K" + _styled(_fit(text, self._width())))
                self._drawn = True
            elif time.monotonic() - self._last_plain >= PLAIN_EVERY_S:
                self._last_plain = time.monotonic()
                self._write(text + "\n")

    def summary(self, search: Search, result: Any) -> None:
        text = summary_text(search, result)
        with self._lock:
            self._clear_locked()
            self._write((_styled(text) if self.terminal else text) + "\n")

    def clear(self) -> None:
        """Take the status line off the screen (before something else is printed there)."""
        with self._lock:
            self._clear_locked()

    def _clear_locked(self) -> None:
        if self._drawn:
            self._write("\r\x1b[2K")
            self._drawn = False

    def _write(self, text: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.stream.write(text)
            self.stream.flush()

    def _width(self) -> int:
        try:
            columns = os.get_terminal_size(self.stream.fileno()).columns
        except (OSError, ValueError, AttributeError):
            columns = 0
        return columns if columns >= 20 else 80  # a terminal that does not say its width


def _fit(text: str, width: int) -> str:
    return text if len(text) < width else text[: max(10, width - 2)] + "…"


def _styled(text: str) -> str:
    """``text`` with rich's colours for a terminal (the numbers bold, the rest dim)."""
    from rich.console import Console
    from rich.highlighter import ReprHighlighter
    from rich.text import Text

    console = Console(file=_Sink(), force_terminal=True, color_system="standard", width=10_000,
                      highlight=False, soft_wrap=True)
    styled = Text(text)
    ReprHighlighter().highlight(styled)
    with console.capture() as captured:
        console.print(styled, end="")
    return captured.get()


class _Sink:
    """A file that drops what it is given (the console only captures)."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def _number(value: float | int) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:,.6g}"


def _rate(rate: float, unit: str) -> str:
    for scale, suffix in ((1e9, " G"), (1e6, " M"), (1e3, " k")):
        if rate >= scale:
            return f"{rate / scale:.1f}{suffix} {unit}/s"
    return f"{rate:.0f} {unit}/s"


def status_text(search: Search, reading: Reading, best: float | int | None, bound: int | None,
                note: str = "") -> str:
    """The status line: board, time, best so far, bound and gap, rate, workers."""
    parts = [f"{search.game} {_short(search.label)}"]
    if search.boards > 1:
        parts[0] += f" ({search.board_index}/{search.boards})"
    budget = f" / {search.budget_s:g} s" if search.budget_s is not None else " s"
    parts.append(f"{reading.elapsed_s:.1f}{budget}")
    parts.append("no solution yet" if best is None else f"best {_number(best)} {search.score_name}")
    if bound is not None:
        side = ">=" if search.minimize else "<="
        gap = "" if best is None else f" (gap {_number(abs(best - bound))})"
        parts.append(f"bound {side} {_number(bound)}{gap}")
    if reading.depth:
        parts.append(f"depth {reading.depth}")
    parts.append(_rate(reading.rate, search.work_name))
    if search.workers > 1:
        parts.append(f"{search.workers} workers")
    if note:
        parts.append(note)
    return "  ".join(parts)


def starting_text(search: Search, reading: Reading, doing: str) -> str:
    """The status line before the search starts: board, time, what it is doing."""
    board = f" ({search.board_index}/{search.boards})" if search.boards > 1 else ""
    return f"{search.game} {_short(search.label)}{board}  {doing} ({reading.elapsed_s:.1f} s)"


#: A board's label takes at most this much of the status line (a long path keeps its end).
LABEL_CHARS = 32


def _short(label: str) -> str:
    return label if len(label) <= LABEL_CHARS else "…" + label[-(LABEL_CHARS - 1):]


def summary_text(search: Search, result: Any) -> str:
    """The line a finished board leaves on the screen."""
    score = "" if result.score is None else f" {_number(result.score)} {search.score_name}"
    stopped = f", stopped: {result.stopped}" if result.stopped else ""
    elapsed = result.stats.elapsed_s
    rate = _rate(result.stats.nodes / elapsed, search.work_name) if elapsed > 0 and result.stats.nodes else ""
    board = f" ({search.board_index}/{search.boards})" if search.boards > 1 else ""
    return (f"{search.game} {search.label}{board}: {result.status}{score} in {elapsed:.1f} s{stopped}"
            + (f"  {rate}" if rate else ""))


# -- the command's choices: where the line and the events go ------------------------------------------
@dataclass
class Showing:
    """What the running command shows: a status line (or none) and where events go."""

    display: Display | None = None
    handlers: list[EventHandler] = field(default_factory=list)
    board_index: int = 1
    boards: int = 1


_showing = Showing()


def showing() -> Showing:
    """What this process's command shows (nothing, for the Python API and worker processes)."""
    return _showing


@contextlib.contextmanager
def show(status: str = "auto", events: str | None = None) -> Iterator[Showing]:
    """Show a status line and write events while inside (a command's whole run).

    ``status``: ``auto`` (on a terminal only), ``always`` (also on a pipe: a plain line a second),
    ``never``. ``events``: a file for the JSON lines, ``-`` for standard error, None for none.
    """
    global _showing
    stream = sys.stderr
    terminal = bool(stream is not None and stream.isatty()) and not os.environ.get(NO_PROGRESS_ENV)
    display = None
    if stream is not None and (status == "always" or (status == "auto" and terminal)):
        display = Display(stream, terminal)
    before = _showing
    with _events_file(events) as write:
        _showing = Showing(display, [write] if write else [])
        try:
            yield _showing
        finally:
            _showing = before
            if display is not None:
                display.clear()


@contextlib.contextmanager
def _events_file(path: str | None) -> Iterator[EventHandler | None]:
    if path is None:
        yield None
        return
    from gridsolver.core.errors import InputError

    try:
        stream = sys.stderr if path == "-" else open(path, "w", encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        raise InputError(f"--events {path}: cannot write it ({exc.strerror})") from None
    lock = threading.Lock()

    def write(event: Event) -> None:
        with lock, contextlib.suppress(OSError, ValueError):
            stream.write(json.dumps(event, separators=(",", ":")) + "\n")
            stream.flush()

    try:
        yield write
    finally:
        if stream is not sys.stderr:
            stream.close()


@contextlib.contextmanager
def board(index: int, count: int) -> Iterator[None]:
    """The searches inside are board ``index`` of ``count`` (for the status line and events)."""
    before = (_showing.board_index, _showing.boards)
    _showing.board_index, _showing.boards = index, count
    try:
        yield
    finally:
        _showing.board_index, _showing.boards = before


def clear_line() -> None:
    """Take the status line off the terminal before printing a result."""
    if _showing.display is not None:
        _showing.display.clear()


def watcher(search: Search, on_event: EventHandler | None = None) -> Watcher:
    """A watcher for ``search``, telling the command's display and events and ``on_event``."""
    shown = _showing
    search.board_index, search.boards = shown.board_index, shown.boards
    handlers = list(shown.handlers) + ([on_event] if on_event is not None else [])
    return Watcher(search, handlers, shown.display)


def tell_result(search: Search, result: Any) -> None:
    """The events of a search that ran elsewhere (a worker of a run spread over boards), told when
    its result arrives: ``start``, the result's ``improved`` and ``end``. The run's tally draws the
    status line meanwhile."""
    shown = _showing
    if not shown.handlers:
        return
    search.started = time.monotonic() - float(result.stats.elapsed_s or 0.0)
    teller = Watcher(search, list(shown.handlers), None)
    teller.emit("start", time_budget_s=search.budget_s, workers=search.workers,
                board_index=search.board_index, boards=search.boards)
    teller.finish(result)


# -- commands of many boards or tracks: one line for the whole run ------------------------------------
class WorkMeter:
    """The work of the blocks read so far, never going back when a map's rows go, and its rate."""

    def __init__(self) -> None:
        self._history: deque[tuple[float, int]] = deque()
        self._seen = 0
        self._gone = 0

    def read(self, now: float, work: int) -> tuple[int, float]:
        if work < self._seen:  # a map ended and its rows went (or a block began again): it still counts
            self._gone += self._seen - work
        self._seen = work
        work += self._gone
        self._history.append((now, work))
        while len(self._history) > 2 and now - self._history[0][0] > 2.0:
            self._history.popleft()
        then, before = self._history[0]
        return work, (work - before) / (now - then) if now > then else 0.0


def all_blocks() -> list[np.ndarray]:
    """This process's block and the rows of its running maps."""
    blocks = [watch.block()]
    blocks += [rows.array[i] for rows in list(watch.open_rows) for i in range(rows.count)]
    return blocks


class Tally:
    """The status line of a command that runs many boards or tracks (``bunny bench``, ``pegs table``,
    ``ratrace play``): how many are done, the time, the work rate of every worker, the last one
    finished. While a search of this process shows its own line (one board at a time), it is silent.
    """

    def __init__(self, game: str, label: str, total: int, unit: str, work_name: str, workers: int,
                 display: Display | None) -> None:
        self.game, self.label, self.total, self.unit = game, label, total, unit
        self.work_name, self.workers, self.display = work_name, workers, display
        self.done = 0
        self.last = ""
        self.started = time.monotonic()
        self._meter = WorkMeter()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self.display is None:
            return
        _active_tallies.append(self)
        watch.block()[watch.YIELD_NS] = YIELD_NS  # kernels of this process let the thread in
        self._thread = threading.Thread(target=self._run, name="gridsolver-tally", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(INTERVAL_S):
            try:
                self.look()
            except Exception:  # noqa: BLE001 - a status line must never take the run down
                self.display = None

    def text(self) -> str:
        now = time.monotonic()
        work = sum(watch.work(block) for block in all_blocks())
        _, rate = self._meter.read(now, work)
        parts = [f"{self.game} {_short(self.label)}", f"{self.done}/{self.total} {self.unit}",
                 f"{now - self.started:.1f} s", _rate(rate, self.work_name)]
        if self.workers > 1:
            parts.append(f"{self.workers} workers")
        if self.last:
            parts.append(f"last: {self.last}")
        return "  ".join(parts)

    def look(self) -> None:
        display = self.display
        if display is not None and not _active_watchers:
            display.line(self.text())

    def finished(self, last: str = "") -> None:
        """One more board or track is done (``last``: a few words about it)."""
        self.done += 1
        self.last = last
        _showing.board_index = min(self.done + 1, self.total)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self in _active_tallies:
            _active_tallies.remove(self)
            watch.block()[watch.YIELD_NS] = 0
        if self.display is not None:
            self.display.clear()


@contextlib.contextmanager
def tally(game: str, label: str, total: int, unit: str = "boards", work_name: str = "nodes",
          workers: int = 1) -> Iterator[Tally]:
    """A status line for a run of ``total`` boards or tracks; searches inside that run in this process
    are board k of ``total`` (their own line says so)."""
    counter = Tally(game, label, total, unit, work_name, workers, _showing.display)
    before = (_showing.board_index, _showing.boards)
    _showing.board_index, _showing.boards = 1, total
    counter.start()
    try:
        yield counter
    finally:
        counter.stop()
        _showing.board_index, _showing.boards = before
