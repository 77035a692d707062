"""Helpers for numba players: reading genome bits (njit, inlined into the game loop)."""

from __future__ import annotations

import numpy as np
from numba import njit

GENOME_BITS = 100


@njit(cache=True, inline="always")
def genome_bit(genome: np.ndarray, i: int) -> int:
    """Bit ``i`` (0..99) of a genome held in two uint64 words."""
    return int((genome[i >> 6] >> np.uint64(i & 63)) & np.uint64(1))


@njit(cache=True, inline="always")
def genome_chunk(genome: np.ndarray, start: int, width: int) -> int:
    """The ``width``-bit number whose bit k is genome bit ``start + k`` (may cross a word)."""
    value = 0
    for k in range(width):
        value |= genome_bit(genome, start + k) << k
    return value


def genome_chunk_int(genome: int, start: int, width: int) -> int:
    """:func:`genome_chunk` for a genome held in one Python int (plain Python players)."""
    return (genome >> start) & ((1 << width) - 1)
