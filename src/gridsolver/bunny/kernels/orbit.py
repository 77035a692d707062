"""Orbits: a program of stored entries run from one state, and the cycles of a behaviour's end states.

A final loop's count is free, so the top-level search iterates its body
from a state until the orbit closes (:func:`final_loop`); a loop's counts
that can differ are bounded by the cycles of its body's end-state function
(:func:`cycle_structure`, :func:`count_bound`). Entries are read from a
``library``: any bundle with the arrays ``lib_f`` (end states), ``lib_r``
(row ids) and ``pool`` (visited rows), such as the enumeration's
``Fragments`` (see :mod:`gridsolver.bunny.kernels.library`). A loop body is
the tuple ``(first, second, third, repeats)`` of :func:`body_step`.

This module imports numba; import it only from kernel modules.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.core.kernels.arrays import copy_prefix

# Every kernel takes its integer arguments as int64: a call passing int32 (a value read from
# ``lib_f``) or a constant (numba types ``-1`` as a literal) would compile the callee once more.
NO_ENTRY = np.int64(-1)  # an absent piece of a loop body (see body_step)


@njit(cache=True, inline="always")
def apply_entry(x, e, library, acc):
    """Entry ``e`` from state ``x``: its squares into ``acc``; returns the state it ends in."""
    pool = library.pool
    row = library.lib_r[e, x]
    for w in range(pool.shape[1]):
        acc[w] |= pool[row, w]
    return np.int64(library.lib_f[e, x])


@njit(cache=True, inline="always")
def enter(state, vis, e, library, acc):
    """Entry ``e`` from ``state`` after the squares ``vis``: ``acc`` = vis and e's squares; returns
    the state e ends in."""
    copy_prefix(acc, vis, vis.shape[0])
    return apply_entry(state, e, library, acc)


@njit(cache=True, inline="always")
def body_step(x, body, library, acc):
    """One iteration of the loop ``body`` = (first, second, third, repeats): ``first
    LOOP(repeats){second} third`` (``repeats`` 1: the body ``first second third``); an entry of -1 is
    absent."""
    first, second, third, repeats = body
    if first >= 0:
        x = apply_entry(x, first, library, acc)
    if second >= 0:
        for _ in range(repeats):
            x = apply_entry(x, second, library, acc)
    if third >= 0:
        x = apply_entry(x, third, library, acc)
    return x


@njit(cache=True)
def covers(acc, target):
    """Whether the visited bitset ``acc`` holds every square of ``target``."""
    for w in range(target.shape[0]):
        if (acc[w] & target[w]) != target[w]:
            return False
    return True


@njit(cache=True)
def final_loop(state, vis, body, library, target, stamp, stamp_id, acc):
    """Iterate the loop ``body`` (see :func:`body_step`) from ``state``, after the squares ``vis``,
    until its orbit closes; ``stamp`` marks the states passed with ``stamp_id``.

    Returns the smallest count after which everything in ``target`` is
    visited, or 0 when even endless iteration cannot do it.
    """
    copy_prefix(acc, vis, vis.shape[0])
    x = state
    n = 0
    while True:
        if stamp[x] == stamp_id:
            return 0
        stamp[x] = stamp_id
        x = body_step(x, body, library, acc)
        n += 1
        if covers(acc, target):
            return n


@njit(cache=True)
def cycle_structure(f, cap):
    """(is_cyclic[S], period) of the function f; period = lcm of cycle lengths, capped at cap + 1."""
    n = f.shape[0]
    stamp = np.full(n, -1, np.int64)
    position = np.zeros(n, np.int64)
    cyclic = np.zeros(n, np.bool_)
    period = np.int64(1)
    for start in range(n):
        if stamp[start] >= 0:
            continue
        s = start
        k = 0
        while stamp[s] < 0:
            stamp[s] = start
            position[s] = k
            k += 1
            s = f[s]
        if stamp[s] == start:  # a new cycle, entered at s
            length = k - position[s]
            t = s
            for _ in range(length):
                cyclic[t] = True
                t = f[t]
            a, b = period, np.int64(length)
            while b:
                a, b = b, a % b
            period = period // a * length
            if period > cap:
                period = cap + 1
    return cyclic, period


@njit(cache=True)
def count_bound(f, cap):
    """A count past which ``LOOP(n){b}`` (b with end states f) gives nothing new, from f alone.

    Every state is on a cycle after r iterations (the longest tail); from then on f^n repeats
    with period P (the lcm of the cycle lengths), and the visited sets stop growing once every
    state has gone once round its cycle, by r + C (C the longest cycle). So counts up to
    r + C + P - 1 give every behaviour; the result is capped at ``cap`` (P is capped there too).
    """
    n = f.shape[0]
    cyclic, period = cycle_structure(f, cap)
    depth = np.full(n, -1, np.int64)  # steps to reach a cycle
    longest_cycle = np.int64(0)
    trail = np.empty(n, np.int64)
    for s in range(n):
        if cyclic[s]:
            depth[s] = 0
    for s in range(n):
        if cyclic[s] and depth[s] == 0:
            length = np.int64(1)  # its cycle's length
            t = f[s]
            while t != s:
                length += 1
                t = f[t]
            longest_cycle = max(longest_cycle, length)
    tail = np.int64(0)
    for s in range(n):
        k = 0
        t = s
        while depth[t] < 0:
            trail[k] = t
            k += 1
            t = f[t]
        d = depth[t]
        for i in range(k - 1, -1, -1):
            d += 1
            depth[trail[i]] = d
        tail = max(tail, depth[s])
    return min(cap, tail + longest_cycle + period - 1)
