"""Positions as bitboards: arrays of 64-bit words, and one-word positions.

A position is a ``uint64[W]`` array in the bit numbering of
:mod:`gridsolver.pegs.rules` (bit ``r * (cols + 1) + c``). All jumps in one
direction with bit offset ``o`` come from three word shifts:
``from = P & (P >> o) & (E >> 2o)`` with ``E = holes & ~P``; the spare column
per row keeps a shift from wrapping a jump round a row end. A jump is coded
``from_bit * D + direction``.

Boards of at most 64 holes also have one-word positions (the fewest-moves
meeting and the endgame tables number the holes densely): :func:`canonical`
gives a position's smallest image under symmetries through byte tables, and
:func:`set_slot` its slot in a set of such positions.

This module imports numba: import it only inside command functions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.core.kernels.bits import ONE, ZERO, popcount, trailing_zeros
from gridsolver.core.kernels.table import find_key

#: Nodes between two clock readings, in every pegs kernel.
CHECK_EVERY = 4096


@njit(cache=True)
def fetch(src, k, dst):
    """``dst`` bit i = ``src`` bit i + k (zero outside); k may be negative."""
    n = src.shape[0]
    q = abs(k) >> 6
    r = np.uint64(abs(k) & 63)
    back = np.uint64(64) - r
    for w in range(n):
        if k >= 0:
            lo = w + q
            v = src[lo] >> r if lo < n else ZERO
            if r != 0 and lo + 1 < n:
                v |= src[lo + 1] << back
        else:
            hi = w - q
            v = src[hi] << r if hi >= 0 else ZERO
            if r != 0 and hi - 1 >= 0:
                v |= src[hi - 1] >> back
        dst[w] = v


@njit(cache=True)
def count_pegs(pos):
    total = 0
    for w in range(pos.shape[0]):
        total += np.int64(popcount(pos[w]))
    return total


@njit(cache=True, inline="always")
def jump_of(code, offsets):
    """The from-bit and the direction's offset of a jump code (from-bit times directions + direction)."""
    dcount = offsets.shape[0]
    return code // dcount, offsets[code % dcount]


@njit(cache=True)
def generate(pos, holes, offsets, out, scratch):
    """Write the codes of every legal jump into ``out``; return how many.

    ``scratch`` is a ``uint64[3, W]`` work area. Codes come by direction,
    then by from-bit.
    """
    nw = pos.shape[0]
    dcount = offsets.shape[0]
    empty = scratch[0]
    over = scratch[1]
    land = scratch[2]
    for w in range(nw):
        empty[w] = holes[w] & ~pos[w]
    n = 0
    for d in range(dcount):
        o = offsets[d]
        fetch(pos, o, over)
        fetch(empty, 2 * o, land)
        for w in range(nw):
            m = pos[w] & over[w] & land[w]
            while m != ZERO:
                low = m & (~m + ONE)
                bit = w * 64 + trailing_zeros(low)
                out[n] = bit * dcount + d
                n += 1
                m ^= low
    return n


# -- one-word positions ---------------------------------------------------------------------------

@njit(cache=True, inline="always")
def mix(p):
    """The home hash of a one-word position (splitmix64's finaliser)."""
    x = p + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True, inline="always")
def image_of(p, table):
    """The image of ``p`` under one symmetry, ``table[k, v]`` being the image of byte value ``v`` at
    byte ``k``."""
    img = ZERO
    for k in range(8):
        img |= table[k, np.int64((p >> np.uint64(8 * k)) & np.uint64(255))]
    return img


@njit(cache=True)
def canonical(p, images):
    """The smallest image of ``p`` under the symmetries; ``images[s, k, v]`` is the image of
    byte value ``v`` at byte ``k`` under symmetry ``s``."""
    best = p
    for s in range(images.shape[0]):
        img = image_of(p, images[s])
        if img < best:
            best = img
    return best


@njit(cache=True)
def set_slot(keys, p):
    """Slot holding ``p``, or the empty slot where it would go (never full: the sets are grown
    before they pass their maximum load)."""
    found = find_key(keys, p, mix(p), keys.shape[0])
    return found if found >= 0 else -1 - found


@njit(cache=True, inline="always")
def new_slot(keys, p):
    """The empty slot where ``p`` goes, or -1 when the set ``keys`` holds it already."""
    slot = set_slot(keys, p)
    return -1 if keys[slot] != ZERO else slot
