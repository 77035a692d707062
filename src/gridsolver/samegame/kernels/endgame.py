"""Exact SameGame endgames: the most points still to come and the line that scores them (numba kernels).

A memoised exhaustive search over one open-addressing table of Zobrist keys
(:func:`gridsolver.core.kernels.table.find_key`), which every call on
the same board shares.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.clickomania.kernels.groups import (
    CHECK_EVERY,
    EMPTY,
    legal_moves,
    position_hash,
    remove_at,
)
from gridsolver.core.kernels.arrays import copy_prefix
from gridsolver.core.kernels.clock import budget_check
from gridsolver.core.kernels.table import find_key, is_full
from gridsolver.core.table import PROBES
from gridsolver.samegame.kernels.scoring import NO_VALUE, terminal_bonus

# typed, not a literal: find_key is compiled once for every caller's int64 instead of once more for 64
_PROBES = np.int64(PROBES)


@njit(cache=True)
def endgame_value(start, width, height, zob, keys, values, best_moves, penalty, node_limit, deadline_ns):
    """The most points still to come from ``start`` (end bonus included): a memoised exhaustive search.

    A position's value does not depend on how it was reached, so ``keys`` /
    ``values`` / ``best_moves`` (one table, zeroed keys to start) serve every
    call on the same board, and each call reuses what earlier calls proved.
    Only fully searched positions are stored. Returns (value, nodes, complete);
    when the node limit, the deadline or a full table stops it, complete is 0
    and the value is :data:`NO_VALUE`.
    """
    n = width * height
    occupied = 0
    for i in range(n):
        if start[i] != EMPTY:
            occupied += 1
    max_depth = occupied // 2 + 2
    states = np.empty((max_depth, n), np.int8)
    moves = np.empty((max_depth, occupied // 2 + 1), np.int32)
    nmoves = np.zeros(max_depth, np.int64)
    nexti = np.zeros(max_depth, np.int64)
    best = np.zeros(max_depth, np.int64)
    bestm = np.zeros(max_depth, np.int32)
    gain = np.zeros(max_depth, np.int64)  # points of the move that led to each depth
    hashes = np.zeros(max_depth, np.int64)
    left = np.zeros(max_depth, np.int64)
    label = np.empty(n, np.int32)
    sizes = np.empty(n, np.int32)
    reps = np.empty(n, np.int32)
    stack = np.empty(n, np.int32)
    msizes = np.empty(n, np.int32)
    child = np.empty(n, np.int8)
    key = position_hash(start, zob)
    slot = find_key(keys, key, key, _PROBES)
    if slot >= 0:
        return values[slot], 0, 1
    nodes = 0
    copy_prefix(states[0], start, n)
    hashes[0] = position_hash(start, zob)
    left[0] = occupied
    d = 0
    enter = True
    while True:
        if enter:
            enter = False
            nodes += 1
            if budget_check(nodes, node_limit, deadline_ns, CHECK_EVERY):
                return NO_VALUE, nodes, 0
            k = legal_moves(states[d], width, height, label, sizes, reps, stack, moves[d], msizes)
            nmoves[d] = k
            nexti[d] = 0
            best[d] = terminal_bonus(left[d], penalty) if k == 0 else NO_VALUE
            bestm[d] = -1
        if nexti[d] < nmoves[d]:
            move = moves[d, nexti[d]]
            nexti[d] += 1
            copy_prefix(child, states[d], n)
            removed = remove_at(child, width, height, move, stack)
            points = (removed - 2) * (removed - 2)
            key = position_hash(child, zob)
            slot = find_key(keys, key, key, _PROBES)
            if slot >= 0:  # already solved: no need to go down
                if points + values[slot] > best[d]:
                    best[d] = points + values[slot]
                    bestm[d] = move
                continue
            d += 1
            copy_prefix(states[d], child, n)
            hashes[d] = key
            gain[d] = points
            left[d] = left[d - 1] - removed
            enter = True
            continue
        # every move of depth d is searched: store its value and hand it to the parent
        slot = find_key(keys, hashes[d], hashes[d], _PROBES)
        if is_full(slot, keys.shape[0]):
            return NO_VALUE, nodes, 0
        if slot < 0:
            slot = -slot - 1
        keys[slot] = hashes[d]
        values[slot] = best[d]
        best_moves[slot] = bestm[d]
        if d == 0:
            return best[0], nodes, 1
        value = gain[d] + best[d]
        d -= 1
        if value > best[d]:
            best[d] = value
            bestm[d] = moves[d, nexti[d] - 1]


@njit(cache=True)
def endgame_line(start, width, height, zob, keys, values, best_moves, out):
    """The best line from ``start`` read back from a table that :func:`endgame_value` completed for
    it; its moves go to ``out``. Returns the length, or -1 if a position on the way is missing."""
    n = width * height
    state = start.copy()
    stack = np.empty(n, np.int32)
    length = 0
    while True:
        key = position_hash(state, zob)
        slot = find_key(keys, key, key, _PROBES)
        if slot < 0:
            return -1
        move = best_moves[slot]
        if move < 0:
            return length
        out[length] = move
        length += 1
        remove_at(state, width, height, move, stack)
