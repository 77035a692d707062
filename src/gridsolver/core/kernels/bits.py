"""Bit tricks on 64-bit words and on arrays of them, for bitboard kernels.

A bitboard of more than 64 cells is a ``uint64[W]`` array: bit ``i`` is bit
``i & 63`` of word ``i >> 6``. The helpers work on numpy ``uint64`` values
(numba keeps them unsigned, so shifts never sign-extend).

This module imports numba; import it only from kernel modules.
"""

from __future__ import annotations

import numpy as np
from numba import njit

ONE = np.uint64(1)
ZERO = np.uint64(0)


@njit(cache=True)
def popcount(x):
    """Set bits of the word ``x`` (SWAR: no loop, no table)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(cache=True, inline="always")
def trailing_zeros(x):
    """Zero bits below the lowest set bit of ``x`` (64 for 0)."""
    return np.int64(popcount((x & (~x + ONE)) - ONE))


@njit(cache=True, inline="always")
def get_bit(words, i):
    """Bit ``i`` of the word array ``words`` (1 or 0, as a uint64)."""
    return (words[i >> 6] >> np.uint64(i & 63)) & ONE


@njit(cache=True, inline="always")
def flip_bit(words, i):
    """Flip bit ``i`` of the word array ``words``."""
    words[i >> 6] ^= ONE << np.uint64(i & 63)
