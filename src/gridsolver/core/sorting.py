"""Sorting 64-bit keys, each kept once, by whichever sort is faster on this machine.

numpy's sort is fast on most processors and several times slower on some
(see :mod:`gridsolver.core.kernels.keys`); the radix sort there costs about
the same everywhere. The first call in a process times both on the same
keys and keeps the faster for the rest of the process; either gives the
same answer.

This module imports numpy only; the kernels are imported where they run.
"""

from __future__ import annotations

import time

import numpy as np

#: The keys each sort is timed on (random, of the width of a 41-hole board's positions)
TRIAL_KEYS = 1 << 18
TRIAL_BITS = 41
RADIX_FROM = 1 << 16  # fewer keys are sorted by numpy (and no time is spent choosing)

_radix_faster: bool | None = None  # this process's choice, once timed


def numpy_sort_unique(values: np.ndarray) -> int:
    """numpy's sort, then each value kept once at the front; returns how many."""
    from gridsolver.core.kernels.keys import unique_in_place

    values.sort()
    return int(unique_in_place(values))


def radix_sort_unique(values: np.ndarray, scratch: np.ndarray) -> int:
    """:func:`gridsolver.core.kernels.keys.sort_unique_radix`."""
    from gridsolver.core.kernels.keys import sort_unique_radix

    return int(sort_unique_radix(values, scratch))


def radix_is_faster() -> bool:
    """Whether the radix sort beat numpy's on this machine (timed on the first call: the best of four
    runs each, so that loading the kernel is not counted)."""
    global _radix_faster
    if _radix_faster is None:
        keys = np.random.default_rng(0).integers(0, 1 << TRIAL_BITS, TRIAL_KEYS, dtype=np.uint64)
        values, scratch = np.empty_like(keys), np.empty_like(keys)
        best = {True: float("inf"), False: float("inf")}
        for _ in range(4):
            for radix in (True, False):
                values[:] = keys
                started = time.perf_counter()
                if radix:
                    radix_sort_unique(values, scratch)
                else:
                    numpy_sort_unique(values)
                best[radix] = min(best[radix], time.perf_counter() - started)
        _radix_faster = best[True] < best[False]
    return _radix_faster


def sort_unique(values: np.ndarray, scratch: np.ndarray) -> int:
    """Sort ``values`` in place and keep each value once, in order, at its front; returns how many.
    ``scratch`` has room for as many values (the radix sort's copy)."""
    if len(values) >= RADIX_FROM and radix_is_faster():
        return radix_sort_unique(values, scratch)
    return numpy_sort_unique(values)
