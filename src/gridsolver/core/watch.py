"""The watch: a few numbers a running search writes and a watcher reads while it runs.

A numba kernel holds the interpreter for as long as it searches, so nothing
in Python can ask it how it is doing. Instead every search process has one
*watch block*, a small int64 array: kernels write their node count, their best
score and their proved bound into it (:mod:`gridsolver.core.kernels.watch`),
and a status line or an event writer (:mod:`gridsolver.core.live`) reads it
a few times a second. The block costs a kernel nothing between its clock
checks: it writes the node count when it reads the clock anyway, and the
best score only when it improves.

Three things make the block readable while a kernel runs:

- kernels find the block through one pointer (:data:`ADDRESS`) that they
  load at each clock check, so it can be moved (:func:`attach`) to a row of
  a file that the parent process maps too: a worker's kernels write straight
  into what the parent reads (:class:`Rows`);
- when the block's :data:`YIELD_NS` is set, kernels let go of the interpreter
  for a moment that often, so a thread of the same process (the status line)
  gets to run;
- a watcher may set :data:`STOP`: kernels then end at their next clock check
  as if their time were up (the search proved its answer elsewhere, or a
  sibling worker did).

This module needs numpy but not numba, so the command line can import it.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import tempfile
import uuid
from collections.abc import Iterator
from typing import Any

import numpy as np

#: the running kernel call's work (nodes, playouts, rat-moves), written at its clock checks
NODES = 0
#: the work of the search's kernel calls that have ended (written from Python)
NODES_DONE = 1
#: the best score found so far, in the game's score (see IMPROVEMENTS)
BEST = 2
#: how many times BEST was written: 0 means no solution found yet
IMPROVEMENTS = 3
#: the best proved bound on the score (see BOUNDS)
BOUND = 4
#: how many times BOUND was written: 0 means no bound yet
BOUNDS = 5
#: set by a watcher: kernels stop at their next clock check, as if out of time
STOP = 6
#: when above 0, kernels let other threads run once per this many nanoseconds
YIELD_NS = 7
#: when kernels last let other threads run (monotonic ns; the kernels' own bookkeeping)
LAST_YIELD_NS = 8
#: how deep the search is, in the game's own terms (e.g. the program length being tried)
DEPTH = 9
#: slots in a block (a few left free, so the layout can grow without moving)
SLOTS = 16

#: Per-process, one block is the kernels' at any moment; a fresh process writes into this one.
_own = np.zeros(SLOTS, np.int64)
_current: np.ndarray = _own
#: The address the kernels load the block's address from (core.kernels.watch tells LLVM about it).
ADDRESS = ctypes.c_void_p(_own.ctypes.data)


def block() -> np.ndarray:
    """The block the kernels of this process write into now."""
    return _current


def attach(array: np.ndarray) -> None:
    """Make ``array`` (int64, :data:`SLOTS` long, kept alive by the caller) the kernels' block."""
    global _current
    if array.dtype != np.int64 or array.shape != (SLOTS,) or not array.flags.c_contiguous:
        raise ValueError("a watch block is a contiguous int64 array of SLOTS numbers")
    _current = array
    ADDRESS.value = array.ctypes.data


def detach() -> None:
    """Back to the process's own block."""
    attach(_own)


def reset(yield_ns: int = 0) -> None:
    """Zero the block for a new search; ``yield_ns`` > 0 when a thread of this process reads it."""
    global _best_solution
    _current[:] = 0
    _current[YIELD_NS] = yield_ns
    _best_solution = None


# -- writing from Python: searches with a Python loop around their kernels --------------------------
def call_ended(nodes: int) -> None:
    """A kernel call that did ``nodes`` of work ended: its work moves to the search's total."""
    _current[NODES_DONE] += nodes
    _current[NODES] = 0


#: The solution of the last score this process's Python code reported, when it gave one:
#: (score, the solution in the result's notation, or a function that makes it when asked).
_best_solution: tuple[int, Any] | None = None


def improved(score: int, solution: Any = None) -> None:
    """The search has a new best score; ``solution`` (in the result's notation, or a function of no
    arguments that returns it, called only when someone asks) lets an ``improved`` event carry it."""
    global _best_solution
    _best_solution = None if solution is None else (int(score), solution)
    _current[BEST] = int(score)
    _current[IMPROVEMENTS] += 1


def solution_of(score: int) -> Any:
    """The solution reported with ``score`` by this process's last :func:`improved`, else None (a
    kernel's improvements carry no solution: they are read from the block, numbers only)."""
    known = _best_solution
    if known is None or known[0] != score:
        return None
    return known[1]() if callable(known[1]) else known[1]


def bounded(bound: int) -> None:
    """The search proved a better bound."""
    _current[BOUND] = int(bound)
    _current[BOUNDS] += 1


def deeper(depth: int) -> None:
    """The search went on to ``depth`` (in the game's terms)."""
    _current[DEPTH] = int(depth)


def stop_requested() -> bool:
    return bool(_current[STOP])


def work(row: np.ndarray) -> int:
    """The whole work a block counts: ended calls and the running one."""
    return int(row[NODES_DONE] + row[NODES])


# -- rows a parent maps and its workers write ------------------------------------------------------
#: the rows of the maps running now in this process (a watcher reads them beside its own block)
open_rows: list[Rows] = []


class Rows:
    """``count`` blocks in a file that worker processes map: task ``i`` writes row ``i``.

    The file lives in /dev/shm where there is one (memory, not disk); the
    parent removes it when its map ends.
    """

    def __init__(self, count: int) -> None:
        folder = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()
        self.path = os.path.join(folder, f"gridsolver-watch-{os.getpid()}-{uuid.uuid4().hex}")
        self.count = count
        self.array = np.memmap(self.path, dtype=np.int64, mode="w+", shape=(max(count, 1), SLOTS))

    def row(self, index: int) -> np.ndarray:
        return self.array[index]

    def close(self) -> None:
        """Remove the file (the mapping goes with the last reference: a watcher may be reading it)."""
        with contextlib.suppress(FileNotFoundError):
            os.remove(self.path)


@contextlib.contextmanager
def rows_for(count: int) -> Iterator[Rows]:
    """Rows for a map of ``count`` tasks, read by this process's watcher while the map runs."""
    rows = Rows(count)
    open_rows.append(rows)
    try:
        yield rows
    finally:
        open_rows.remove(rows)
        rows.close()


@contextlib.contextmanager
def writing_row(path: str, index: int) -> Iterator[None]:
    """In a worker: the kernels write row ``index`` of the parent's file ``path`` while inside."""
    try:
        mapped = np.memmap(path, dtype=np.int64, mode="r+", offset=index * SLOTS * 8, shape=(SLOTS,))
    except OSError:  # the parent's map already ended: nobody reads, write the worker's own block
        yield
        return
    attach(mapped)
    try:
        yield
    finally:
        detach()
        del mapped
