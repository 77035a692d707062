"""Isolated pegs and doomed pegs: what the beam ranks positions by, and when it stops.

An isolated peg has no peg next to it along a jump direction: it needs
another to come to it before it can leave. A doomed peg is one no other peg
can ever come next to (golden-ratio pagodas, see
:func:`gridsolver.pegs.geometry.doomed_pegs`, the plain-Python reference):
it stays to the end.

This module imports numba: import it only inside command functions.
"""

from __future__ import annotations

from numba import njit

from gridsolver.core.kernels.bits import ZERO, get_bit
from gridsolver.pegs.geometry import DOOM_BELOW
from gridsolver.pegs.kernels.bitboard import fetch


@njit(cache=True, inline="always")
def _unseen(x, j, offsets, nbits, mark, stamp):
    """Hole ``x`` (``j`` < 0) or its neighbour along ``offsets[j]``, marked counted; -1 when off the board
    or already counted."""
    y = x if j < 0 else x + offsets[j]
    if y < 0 or y >= nbits or mark[y] == stamp:
        return -1
    mark[y] = stamp
    return y


@njit(cache=True, inline="always")
def _alone(pos, y, offsets, nbits):
    """Whether hole ``y`` has no peg next to it along a jump direction."""
    for i in range(offsets.shape[0]):
        z = y + offsets[i]
        if 0 <= z < nbits and get_bit(pos, z) != ZERO:
            return False
    return True


@njit(cache=True)
def isolated_around(pos, offsets, nbits, cells, mark, stamp):
    """Pegs with no peg next to them (along a jump direction) among ``cells`` and their neighbours.

    ``mark``/``stamp`` count each hole once.
    """
    total = 0
    for k in range(cells.shape[0]):
        for j in range(-1, offsets.shape[0]):
            y = _unseen(cells[k], j, offsets, nbits, mark, stamp)
            if y >= 0 and get_bit(pos, y) != ZERO and _alone(pos, y, offsets, nbits):
                total += 1
    return total


@njit(cache=True)
def marked_around(bits, offsets, nbits, cells, mark, stamp):
    """How many of ``cells`` and their neighbours are set in ``bits`` (each hole once)."""
    total = 0
    for k in range(cells.shape[0]):
        for j in range(-1, offsets.shape[0]):
            y = _unseen(cells[k], j, offsets, nbits, mark, stamp)
            if y >= 0 and get_bit(bits, y) != ZERO:
                total += 1
    return total


@njit(cache=True)
def isolated_mask(pos, offsets, out, shifted):
    """``out`` = pegs with no peg next to them along a jump direction (bitwise, whole board)."""
    nw = pos.shape[0]
    for w in range(nw):
        out[w] = pos[w]
    for i in range(offsets.shape[0]):
        fetch(pos, offsets[i], shifted)
        for w in range(nw):
            out[w] &= ~shifted[w]


@njit(cache=True)
def isolated_pegs(pos, offsets):
    """Pegs with no neighbouring peg along any jump direction (whole board; for tests)."""
    nbits = pos.shape[0] * 64
    total = 0
    for y in range(nbits):
        if get_bit(pos, y) != ZERO and _alone(pos, y, offsets, nbits):
            total += 1
    return total


@njit(cache=True)
def pull_totals(pos, pull, out):
    """``out[x]`` = sum of ``pull[q, x]`` (g^distance, geometry.pull_matrix) over the pegs q of ``pos``."""
    n = pull.shape[0]
    for x in range(n):
        out[x] = 0.0
    for q in range(n):
        if get_bit(pos, q) != ZERO:
            for x in range(n):
                out[x] += pull[q, x]


@njit(cache=True)
def count_doomed(pos, totals, offsets):
    """Pegs of ``pos`` that never move again: every neighbouring hole weighs less than 1 toward it
    from the other pegs (``totals``: :func:`pull_totals`; geometry.doomed_pegs is the reference)."""
    n = totals.shape[0]
    total = 0
    for y in range(n):
        if get_bit(pos, y) == ZERO:
            continue
        doomed = True
        for i in range(offsets.shape[0]):
            z = y + offsets[i]
            if 0 <= z < n and totals[z] >= DOOM_BELOW:
                doomed = False
                break
        if doomed:
            total += 1
    return total
