"""Nested Monte-Carlo search for SameGame, levels 0 (one playout), 1 and 2 (numba kernels)."""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from gridsolver.clickomania.kernels.groups import (
    EMPTY,
    MAX_COLOURS_CODE,
    group_scratch,
    legal_moves,
    remove_at,
)
from gridsolver.core.kernels.arrays import copy_prefix
from gridsolver.core.kernels.clock import time_remains
from gridsolver.samegame.kernels.playout import playout
from gridsolver.samegame.kernels.scoring import terminal_bonus

Scratch = namedtuple("Scratch", "groups counts moves msizes child trial")


@njit(cache=True)
def _scratch(n):
    """Room for one level of the search on a board of ``n`` cells."""
    return Scratch(group_scratch(n), np.zeros(MAX_COLOURS_CODE, np.int64), np.empty(n, np.int32),
                   np.empty(n, np.int32), np.empty(n, np.int8), np.empty(n, np.int32))


@njit(cache=True, inline="always")
def _random_game(cells, width, height, penalty, seq, s):
    """One tabu-colour playout from ``cells`` (changed in place): (points, length)."""
    g = s.groups
    return playout(cells, width, height, penalty, seq, np.int64(0), g.label, g.sizes, g.reps, g.stack,
                   s.counts)


@njit(cache=True, inline="always")
def _child(state, width, height, m, s):
    """Move ``m`` of ``s.moves`` played from ``state`` into ``s.child``; returns its points."""
    copy_prefix(s.child, state, state.shape[0])
    remove_at(s.child, width, height, s.moves[m], s.groups.stack)
    return (s.msizes[m] - 2) * (s.msizes[m] - 2)


@njit(cache=True, inline="always")
def _remember(total, best_points, best_len, best_seq, played, move, trial, length):
    """Keep ``move`` then ``trial`` as the best game when ``total`` beats ``best_points``."""
    if total > best_points:
        best_seq[played] = move
        for j in range(length):
            best_seq[played + 1 + j] = trial[j]
        return total, played + 1 + length
    return best_points, best_len


@njit(cache=True, inline="always")
def _play_best(state, width, height, best_seq, played, best_len, s):
    """Play the best game's next move on ``state``; returns (its points, the best game's length)."""
    if played >= best_len:
        # no whole game recorded yet (out of time at once): play the first move
        best_seq[played] = s.moves[0]
        best_len = played + 1
    removed = remove_at(state, width, height, best_seq[played], s.groups.stack)
    return (removed - 2) * (removed - 2), best_len


@njit(cache=True, inline="always")
def _legal(state, width, height, s):
    g = s.groups
    return legal_moves(state, width, height, g.label, g.sizes, g.reps, g.stack, s.moves, s.msizes)


@njit(cache=True, inline="always")
def _final_points(state, gained, penalty):
    left = np.int64(0)  # typed: a literal 0 here gets terminal_bonus compiled once more for it
    for i in range(state.shape[0]):
        if state[i] != EMPTY:
            left += 1
    return gained + terminal_bonus(left, penalty)


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
    s = _scratch(width * height)
    state = start.copy()
    if level <= 0:
        points, length = _random_game(state, width, height, penalty, best_seq, s)
        return points, length, 1
    if level == 1:
        return _level_one(state, width, height, penalty, deadline_ns, best_seq)
    # level 2: the loop of :func:`_level_one` with a level-1 search below each move (written out
    # twice because a kernel cannot call itself: numba's cache cannot hold a recursive kernel)
    best_points = -(1 << 40)
    best_len = 0
    played = 0
    gained = 0
    playouts = 0
    while True:
        k = _legal(state, width, height, s)
        if k == 0:
            break
        for m in range(k):
            if not time_remains(deadline_ns):
                break
            step = _child(state, width, height, m, s)
            points, length, more = _level_one(s.child, width, height, penalty, deadline_ns, s.trial)
            playouts += more
            best_points, best_len = _remember(gained + step + points, best_points, best_len, best_seq,
                                              played, s.moves[m], s.trial, length)
        step, best_len = _play_best(state, width, height, best_seq, played, best_len, s)
        gained += step
        played += 1
    return _final_points(state, gained, penalty), played, playouts


@njit(cache=True)
def _level_one(start, width, height, penalty, deadline_ns, best_seq):
    """Level-1 nested search: the same loop with playouts below (kept apart: no recursion in kernels)."""
    s = _scratch(width * height)
    state = start.copy()
    best_points = -(1 << 40)
    best_len = 0
    played = 0
    gained = 0
    playouts = 0
    while True:
        k = _legal(state, width, height, s)
        if k == 0:
            break
        for m in range(k):
            # a step of a big board tries hundreds of moves, a playout each: read the clock
            # before every one, or the level runs on for seconds past the deadline
            if not time_remains(deadline_ns):
                break
            step = _child(state, width, height, m, s)
            points, length = _random_game(s.child, width, height, penalty, s.trial, s)
            playouts += 1
            best_points, best_len = _remember(gained + step + points, best_points, best_len, best_seq,
                                              played, s.moves[m], s.trial, length)
        step, best_len = _play_best(state, width, height, best_seq, played, best_len, s)
        gained += step
        played += 1
    return _final_points(state, gained, penalty), played, playouts
