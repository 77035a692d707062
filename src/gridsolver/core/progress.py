"""A progress display for long work that stays silent when output is piped.

:func:`progress` returns a context manager whose ``advance()`` and
``note(text)`` calls are cheap no-ops unless standard error is a terminal.
The display only appears once the work has taken more than ``delay``
seconds, so quick commands print nothing extra. rich is imported only when a
display is actually shown.
"""

from __future__ import annotations

import os
import sys
import time
from types import TracebackType
from typing import Any


def _interactive() -> bool:
    from gridsolver.core.live import NO_PROGRESS_ENV, showing

    if os.environ.get(NO_PROGRESS_ENV):
        return False
    if showing().display is not None:  # the command's status line says it: one line, not two
        return False
    return sys.stderr.isatty()


class Progress:
    """Counts finished units of work and shows a bar after ``delay`` seconds."""

    def __init__(self, total: int | None, label: str, delay: float = 1.0,
                 enabled: bool | None = None) -> None:
        self.total = total
        self.label = label
        self.delay = delay
        self.enabled = _interactive() if enabled is None else enabled
        self.done = 0
        self._text = ""
        self._start = time.monotonic()
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> Progress:
        self._start = time.monotonic()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def advance(self, units: int = 1) -> None:
        self.done += units
        self._refresh()

    def note(self, text: str) -> None:
        """Show a short status text (e.g. the best score so far) next to the bar."""
        self._text = text
        self._refresh()

    @property
    def shown(self) -> bool:
        return self._bar is not None

    def _refresh(self) -> None:
        if not self.enabled:
            return
        if self._bar is None:
            if time.monotonic() - self._start < self.delay:
                return
            self._open()
        self._bar.update(self._task, completed=self.done, status=self._text)

    def _open(self) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                   MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("{task.fields[status]}")]
        if self.total is None:
            columns = [c for c in columns if not isinstance(c, BarColumn | MofNCompleteColumn)]
        from rich.progress import Progress as RichProgress

        self._bar = RichProgress(*columns, console=Console(file=sys.stderr), transient=True)
        self._task = self._bar.add_task(self.label, total=self.total, status=self._text)
        self._bar.start()


def progress(total: int | None, label: str, delay: float = 1.0,
             enabled: bool | None = None) -> Progress:
    """A :class:`Progress` for ``total`` units (None: unknown) labelled ``label``."""
    return Progress(total, label, delay=delay, enabled=enabled)


#: ``off``, ``line`` or ``rich``: how the compiling note (gridsolver.core.warm.NOTE) is shown
#: (default: chosen from the terminal and --json)
NOTE_ENV = "GRIDSOLVER_COMPILE_NOTE"
NOTE_MODES = ("off", "line", "rich")


def note_mode() -> str:
    """How to announce compiling in this process: ``off``, ``line`` or ``rich``."""
    chosen = os.environ.get(NOTE_ENV, "").strip().lower()
    if chosen in NOTE_MODES:
        return chosen
    terminal = sys.stderr is not None and sys.stderr.isatty()
    if not terminal:
        # --json output is read by programs: a pipe for stderr then gets nothing extra either
        return "off" if _json_requested() else "line"
    from gridsolver.core.live import NO_PROGRESS_ENV

    return "line" if os.environ.get(NO_PROGRESS_ENV) else "rich"


def worker_note_mode() -> str:
    """How this process's worker processes announce compiling: as this process would, in a line at
    most (a bar of their own would fight this one's display).

    Workers do not share this command line (a loky worker never parses it),
    so :func:`note_mode` there could not see ``--json``: they are
    told through :data:`NOTE_ENV` (see :func:`gridsolver.core.parallel._executor`).
    """
    return "off" if note_mode() == "off" else "line"


#: Whether this process prints machine-readable output (set by the command line's ``--json``).
_json_output = False


def set_json_output(on: bool) -> None:
    """Say whether this process's output is read by a program (``--json``): compile notes then
    stay off a pipe too. The command line calls this while it reads its options."""
    global _json_output
    _json_output = on


def _json_requested() -> bool:
    return _json_output
