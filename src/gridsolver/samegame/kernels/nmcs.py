"""Nested Monte-Carlo search for SameGame, levels 0 (one playout), 1 and 2 (numba kernels)."""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.clickomania.kernels.groups import EMPTY, MAX_COLOURS_CODE, legal_moves, remove_at
from gridsolver.core.kernels.arrays import copy_prefix
from gridsolver.core.kernels.clock import time_remains
from gridsolver.samegame.kernels.playout import playout
from gridsolver.samegame.kernels.scoring import terminal_bonus


@njit(cache=True)
def nmcs(start, width, height, level, penalty, seed, deadline_ns, best_seq):
    """Nested Monte-Carlo search of ``level`` 0 (one playout), 1 or 2 (which calls :func:`_level_one`)
    from ``start``; the moves go to ``best_seq``.

    At every step each move is tried with a search one level lower, the best
    whole game seen so far is remembered, and its next move is played. When
    the deadline passes, the rest of the best game is followed without more
    search, so a complete sequence is always returned: (points, length, playouts).
    (One kernel for every level: a wrapper kernel picking the level cost a
    second of compiling more.)
    """
    np.random.seed(seed)
    n = width * height
    label = np.empty(n, np.int32)
    sizes = np.empty(n, np.int32)
    reps = np.empty(n, np.int32)
    stack = np.empty(n, np.int32)
    counts = np.zeros(MAX_COLOURS_CODE, np.int64)
    state = start.copy()
    moves = np.empty(n, np.int32)
    msizes = np.empty(n, np.int32)
    child = np.empty(n, np.int8)
    trial = np.empty(n, np.int32)
    if level <= 0:
        points, length = playout(state, width, height, penalty, best_seq, np.int64(0), label, sizes, reps,
                                 stack, counts)
        return points, length, 1
    best_points = -(1 << 40)
    best_len = 0
    played = 0
    gained = 0
    playouts = 0
    while True:
        k = legal_moves(state, width, height, label, sizes, reps, stack, moves, msizes)
        if k == 0:
            break
        if time_remains(deadline_ns):
            for m in range(k):
                copy_prefix(child, state, n)
                remove_at(child, width, height, moves[m], stack)
                step = (msizes[m] - 2) * (msizes[m] - 2)
                if level <= 1:
                    points, length = playout(child, width, height, penalty, trial, np.int64(0),
                                             label, sizes, reps, stack, counts)
                    playouts += 1
                else:
                    points, length, more = _level_one(child, width, height, penalty, deadline_ns, trial)
                    playouts += more
                total = gained + step + points
                if total > best_points:
                    best_points = total
                    best_seq[played] = moves[m]
                    for j in range(length):
                        best_seq[played + 1 + j] = trial[j]
                    best_len = played + 1 + length
                if not time_remains(deadline_ns):
                    break
        if played >= best_len:
            # no whole game recorded yet (out of time at once): play the first move
            best_seq[played] = moves[0]
            best_len = played + 1
        move = best_seq[played]
        removed = remove_at(state, width, height, move, stack)
        gained += (removed - 2) * (removed - 2)
        played += 1
    left = np.int64(0)  # typed: a literal 0 here gets terminal_bonus compiled once more for it
    for i in range(n):
        if state[i] != EMPTY:
            left += 1
    return gained + terminal_bonus(left, penalty), played, playouts


@njit(cache=True)
def _level_one(start, width, height, penalty, deadline_ns, best_seq):
    """Level-1 nested search: the same loop with playouts below (kept apart: no recursion in kernels)."""
    n = width * height
    label = np.empty(n, np.int32)
    sizes = np.empty(n, np.int32)
    reps = np.empty(n, np.int32)
    stack = np.empty(n, np.int32)
    counts = np.zeros(MAX_COLOURS_CODE, np.int64)
    state = start.copy()
    moves = np.empty(n, np.int32)
    msizes = np.empty(n, np.int32)
    child = np.empty(n, np.int8)
    trial = np.empty(n, np.int32)
    best_points = -(1 << 40)
    best_len = 0
    played = 0
    gained = 0
    playouts = 0
    while True:
        k = legal_moves(state, width, height, label, sizes, reps, stack, moves, msizes)
        if k == 0:
            break
        if time_remains(deadline_ns):
            for m in range(k):
                copy_prefix(child, state, n)
                remove_at(child, width, height, moves[m], stack)
                step = (msizes[m] - 2) * (msizes[m] - 2)
                points, length = playout(child, width, height, penalty, trial, np.int64(0),
                                         label, sizes, reps, stack, counts)
                playouts += 1
                total = gained + step + points
                if total > best_points:
                    best_points = total
                    best_seq[played] = moves[m]
                    for j in range(length):
                        best_seq[played + 1 + j] = trial[j]
                    best_len = played + 1 + length
                # a step of a big board tries hundreds of moves, a playout each: read the clock
                # after every one, or the level runs on for seconds past the deadline
                if not time_remains(deadline_ns):
                    break
        if played >= best_len:
            best_seq[played] = moves[0]
            best_len = played + 1
        move = best_seq[played]
        removed = remove_at(state, width, height, move, stack)
        gained += (removed - 2) * (removed - 2)
        played += 1
    left = np.int64(0)  # typed: see nmcs
    for i in range(n):
        if state[i] != EMPTY:
            left += 1
    return gained + terminal_bonus(left, penalty), played, playouts

