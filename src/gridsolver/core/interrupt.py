"""Ctrl-C during a search: stop within a moment and keep the best answer found so far.

Python hears a signal only between two bytecodes, so a numba kernel that
searches for a minute would hear Ctrl-C only when it ends, and a
``KeyboardInterrupt`` raised then throws away everything it found. Instead,
while a command searches (inside :func:`catching`):

- the first Ctrl-C is only *recorded* (:func:`requested` becomes true); every
  budget then reads as spent (:class:`~gridsolver.core.budget.Budget` asks
  :func:`requested`), so each search winds down through its ordinary
  out-of-time path and returns its best, and
  :meth:`~gridsolver.core.game.Game.solve` marks the result
  ``stopped="interrupted"``;
- kernels hear it too: :func:`gridsolver.core.kernels.clock.budget_check` asks the
  interpreter whether a SIGINT is pending each time it reads the clock, stops
  the kernel as if its time were up, and leaves the signal pending so that
  this module's handler still runs when the kernel returns;
- a second Ctrl-C raises ``KeyboardInterrupt`` at once: the way out when a
  wind-down itself takes too long.

Outside :func:`catching` (the Python API, commands that do not search)
Ctrl-C raises ``KeyboardInterrupt`` as usual, and kernels still end within a
clock check of it instead of running to their deadline.

Worker processes (see :mod:`gridsolver.core.parallel`) run each task inside
``catching(hard=False)``: a Ctrl-C typed at the terminal reaches them too and
their searches return their best to the parent, which alone decides whether
a second Ctrl-C ends everything.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

_requested = False


def requested() -> bool:
    """True once Ctrl-C was pressed inside :func:`catching` (until it ends)."""
    return _requested


def request() -> None:
    """Record a stop request, as the first Ctrl-C does (for tests, and to forward one)."""
    global _requested
    _requested = True


def time_left(deadline_ns: int) -> bool:
    """Whether a plain-Python search loop may go on: before its deadline and not interrupted."""
    return not _requested and time.monotonic_ns() < deadline_ns


def capped(deadline_ns: int) -> int:
    """``deadline_ns``, or 0 (long past) once Ctrl-C was pressed: what to hand the next kernel."""
    return 0 if _requested else deadline_ns


class Interrupted(KeyboardInterrupt):
    """Raised by work that stopped early on Ctrl-C, holding what finished before it.

    ``done`` maps an item's index to its result (see
    :func:`gridsolver.core.parallel.parallel_map`). It is a ``KeyboardInterrupt``,
    so code that does not look for it ends as on any Ctrl-C.
    """

    def __init__(self, done: dict[int, object] | None = None) -> None:
        super().__init__("interrupted")
        self.done = dict(done or {})


@contextmanager
def catching(*, hard: bool = True) -> Iterator[None]:
    """Within this block the first Ctrl-C only sets :func:`requested`.

    With ``hard`` (the default) a second Ctrl-C raises ``KeyboardInterrupt``;
    without it every Ctrl-C is only recorded (worker processes: their parent
    decides). Off the main thread (where Python cannot set signal handlers)
    this does nothing. The previous handler and state come back on exit.
    """
    global _requested
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        global _requested
        if _requested and hard:
            raise KeyboardInterrupt
        _requested = True

    before = _requested
    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        _requested = before
