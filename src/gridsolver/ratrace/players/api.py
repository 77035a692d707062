"""Helpers for numba players: reading genome bits, keeping the best move (njit, inlined into the game
loop)."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def genome_bit(genome: np.ndarray, i: int) -> int:
    """Bit ``i`` (0 .. 99: :data:`gridsolver.ratrace.rules.GENOME_BITS`) of a genome held in two uint64
    words."""
    return int((genome[i >> 6] >> np.uint64(i & 63)) & np.uint64(1))


@njit(cache=True, inline="always")
def genome_chunk(genome: np.ndarray, start: int, width: int) -> int:
    """The ``width``-bit number (width 1..63) whose bit k is genome bit ``start + k``.

    A chunk may cross from word 0 into word 1 (e.g. bits 60..65).
    """
    shift = start & 63
    value = genome[start >> 6] >> np.uint64(shift)
    if shift + width > 64:
        value |= genome[(start >> 6) + 1] << np.uint64(64 - shift)
    return int(value & np.uint64((1 << width) - 1))


@njit(cache=True, inline="always")
def keep_best(score: int, dy: int, best: int, best_dy: int, ties: int) -> tuple[int, int, int]:
    """``(best, best_dy, ties)`` once the move ``dy`` scoring ``score`` is weighed: a better move
    replaces the best, a tie replaces it with probability 1 / ties (reservoir sampling, numba's
    generator), so each of the tied moves is kept with the same probability."""
    if score > best:
        return score, dy, 1
    if score == best:
        ties += 1
        if np.random.randint(0, ties) == 0:
            return best, dy, ties
    return best, best_dy, ties


def genome_chunk_reference(genome: np.ndarray, start: int, width: int) -> int:
    """:func:`genome_chunk` bit by bit, in plain Python (for tests)."""
    return sum(((int(genome[(start + k) >> 6]) >> ((start + k) & 63)) & 1) << k for k in range(width))


def genome_chunk_int(genome: int, start: int, width: int) -> int:
    """:func:`genome_chunk` for a genome held in one Python int (plain Python players)."""
    return (genome >> start) & ((1 << width) - 1)
