"""The explicit stack that the depth-first searches walk: one list of moves per depth.

A recursive search keeps, at each depth, the moves of its position and how
many it has tried. Here those are three arrays (``moves[depth, :]``,
``count[depth]``, ``nxt[depth]``, made by :func:`new_stack`): :func:`push`
gives a depth its moves, :func:`next_move` takes the next one or says the
depth is done (time to back up). Both are inlined where they are used. The
searches unpack the three arrays once and hand them to the helpers, rather
than reading them out of a bundle on every node: each read of an array from
a tuple inside the loop costs numba a reference count.

This module imports numba: import it only inside command functions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.core.kernels.arrays import copy_prefix


@njit(cache=True)
def new_stack(depths, width):
    """An empty stack of ``depths`` levels of at most ``width`` moves: (moves: int32[depths, width],
    the jump codes of each depth; count: int64[depths], how many; nxt: int64[depths], the next to try)."""
    return (np.zeros((depths, width), dtype=np.int32), np.zeros(depths, dtype=np.int64),
            np.zeros(depths, dtype=np.int64))


@njit(cache=True, inline="always")
def push(moves, count, nxt, depth, codes, n):
    """``depth`` gets the moves ``codes[:n]``, to be tried in that order."""
    copy_prefix(moves[depth], codes, n)
    count[depth] = n
    nxt[depth] = 0


@njit(cache=True, inline="always")
def next_move(moves, count, nxt, depth):
    """The next move to try at ``depth``, or -1 when every one was tried."""
    i = nxt[depth]
    if i >= count[depth]:
        return -1
    nxt[depth] = i + 1
    return np.int64(moves[depth, i])
