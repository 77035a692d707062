"""One layer of a breadth-first search by jumps (positions of one 64-bit word): the endgame tables.

Every jump removes one peg, so the positions ``k`` jumps from the start are
exactly the reachable positions with ``pegs - k`` pegs: a breadth-first
search by jumps needs no set of everything seen, only the layer it builds.
A layer is a sorted array of positions (uint64, one bit per hole), canonical
under the symmetries that fix the start position and the finish hole.

The endgame tables (:mod:`gridsolver.pegs.endgame`) run it on the *dual*
problem: a game from ``S`` to ``F`` read backwards on the complemented
board (pegs <-> holes) is a game from ``holes ^ F`` to ``holes ^ S`` (an
unjump refilling ``a`` and ``b`` from ``c`` is, on the complement, the jump
``a`` over ``b`` into ``c``), so a forward layer of the dual lists the
positions that can still finish.

This module imports numba: import it only inside command functions.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from gridsolver.core.kernels.bits import ONE, ZERO, trailing_zeros
from gridsolver.core.kernels.clock import budget_check
from gridsolver.core.kernels.stops import EXHAUSTED, OUT_OF_MEMORY
from gridsolver.pegs.kernels.bitboard import CHECK_EVERY, canonical, new_slot, set_slot

MAX_LOAD = 0.6  # a layer's set is grown past this load (endgame.MAX_LOAD too)

#: Every jump of the board as three parallel arrays of holes: from ``a[t]`` over ``b[t]`` into ``c[t]``.
Jumps = namedtuple("Jumps", "a b c")
#: Pagoda functions and their floors: ``weights[k]`` (one weight per bit) must weigh at least
#: ``floors[k]`` on every position that can still reach the target.
Pagodas = namedtuple("Pagodas", "weights floors")


@njit(cache=True)
def weight_of(p, weights):
    """Total pagoda weight of the pegs of ``p``."""
    total = 0.0
    q = p
    k = 0
    while q != ZERO:
        if q & ONE:
            total += weights[k]
        q >>= ONE
        k += 1
    return total


@njit(cache=True)
def expand(layer, lo, jumps, images, pagodas, keys, node_limit, deadline_ns, stats):
    """Put every child of ``layer[lo:]`` (one of ``jumps`` on) into the set ``keys``, canonical under the
    symmetries of ``images`` (see :func:`gridsolver.pegs.kernels.bitboard.canonical`).

    A child whose pegs weigh less than a floor of ``pagodas`` under its weights is left out (no
    game from it reaches the target: a jump never raises the weight). ``stats[0]`` += jumps made,
    ``stats[1]`` = children in the set. Returns EXHAUSTED, a budget code, or OUT_OF_MEMORY with
    ``stats[2]`` = the parent whose children did not fit (go on from it after the set grows).
    """
    tri_a, tri_b, tri_c = jumps
    weights, floors = pagodas
    capacity = np.int64(keys.shape[0] * MAX_LOAD)
    count = stats[1]
    nodes = 0
    ntri = tri_a.shape[0]
    npag = weights.shape[0]
    base = np.zeros(npag, dtype=np.float64)
    for i in range(lo, layer.shape[0]):
        p = layer[i]
        base[:] = 0.0
        q = p
        while q != ZERO:  # the pegs' weights under every pagoda, peg by peg
            low = q & (~q + ONE)
            bit = trailing_zeros(low)
            for k in range(npag):
                base[k] += weights[k, bit]
            q ^= low
        for t in range(ntri):
            a = np.uint64(tri_a[t])
            b = np.uint64(tri_b[t])
            c = np.uint64(tri_c[t])
            if (p >> a) & (p >> b) & ~(p >> c) & ONE == ZERO:
                continue
            nodes += 1
            code = budget_check(stats[0] + nodes, node_limit, deadline_ns, CHECK_EVERY)
            if code != EXHAUSTED:
                stats[0] += nodes
                stats[1] = count
                stats[2] = i
                return code
            light = False
            for k in range(npag):
                if base[k] - weights[k, tri_a[t]] - weights[k, tri_b[t]] + weights[k, tri_c[t]] < floors[k]:
                    light = True
                    break
            if light:
                continue
            child = canonical(p ^ ((ONE << a) | (ONE << b) | (ONE << c)), images)
            slot = new_slot(keys, child)
            if slot < 0:
                continue
            if count >= capacity:
                stats[0] += nodes
                stats[1] = count
                stats[2] = i
                return OUT_OF_MEMORY
            keys[slot] = child
            count += 1
    stats[0] += nodes
    stats[1] = count
    return EXHAUSTED


@njit(cache=True)
def heavy_enough(layer, weights, floors, keep):
    """``keep[i]`` = False for each ``layer[i]`` that weighs less than ``floors[k]`` under some
    ``weights[k]`` (see :func:`expand`); returns how many are kept."""
    kept = 0
    for i in range(layer.shape[0]):
        ok = True
        for k in range(weights.shape[0]):
            if weight_of(layer[i], weights[k]) < floors[k]:
                ok = False
                break
        keep[i] = ok
        kept += ok
    return kept


@njit(cache=True)
def insert_all(keys, values):
    """Put ``values`` (distinct, none 0) into the empty set ``keys``."""
    for i in range(values.shape[0]):
        keys[set_slot(keys, values[i])] = values[i]


@njit(cache=True)
def first_meeting(forward, backward, all_holes, images):
    """Index of the first ``forward[i]`` whose complement's smallest image (``images``, see
    :func:`gridsolver.pegs.kernels.bitboard.canonical`) is in the sorted ``backward``, or -1.

    The forward layer holds positions, the backward layer complements (both as smallest images under
    the same symmetries): a position in both is on some game from the start to the finish."""
    for i in range(forward.shape[0]):
        key = canonical(all_holes ^ forward[i], images)
        j = np.searchsorted(backward, key)
        if j < backward.shape[0] and backward[j] == key:
            return i
    return -1
