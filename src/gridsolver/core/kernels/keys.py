"""Sorted 64-bit keys, each kept once: a radix sort, and repeats dropped from sorted keys.

numpy's sort of uint64 is vectorised per processor, and how well differs a
lot: on some processors with AVX-512 its compressing stores are slow, and
it sorts several times slower than on others (about 67 against 12 ns a key
for 8 million keys with those instructions and without, on one machine).
This sort does not depend on them (about 14 ns a key there, its repeats
dropped): one pass deals the keys into buckets by their top bits, each
bucket small enough for the cache (about 2,000 keys), and each bucket is
then sorted by its low bits a digit at a time (least significant first),
and its repeats dropped while it is still in the cache.
:func:`gridsolver.core.sorting.sort_unique` picks whichever of the two is
faster on the machine.

This module imports numba: import it only inside command functions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

BUCKET_BITS = 11  # about 2^11 keys a bucket: a bucket and its copy fit a core's cache
SMALL = 48  # buckets up to this size are sorted by insertion
DIGIT_BITS = 11  # the most bits a digit of the low bits (its counts fit the cache too)


@njit(cache=True)
def unique_in_place(values):
    """Keep each value of the sorted ``values`` once, in order, at its front; returns how many."""
    if values.shape[0] == 0:
        return 0
    kept = 1
    for i in range(1, values.shape[0]):
        value = values[i]
        values[kept] = value  # written every time, kept only when new: no branch to mispredict
        kept += value != values[kept - 1]
    return kept


@njit(cache=True)
def _width(values, n):
    """Bits up to the highest set bit of any of the first ``n`` values."""
    every = np.uint64(0)
    for i in range(n):
        every |= values[i]
    width = 0
    while width < 64 and (every >> np.uint64(width)) != np.uint64(0):
        width += 1
    return width


@njit(cache=True)
def _insertion(source, target, lo, hi):
    """``source[lo:hi]`` sorted into ``target[lo:hi]``."""
    for i in range(lo, hi):
        value = source[i]
        j = i
        while j > lo and target[j - 1] > value:
            target[j] = target[j - 1]
            j -= 1
        target[j] = value


@njit(cache=True)
def _by_digits(values, scratch, lo, hi, bits, counts):
    """``scratch[lo:hi]`` sorted by its low ``bits`` bits into ``values[lo:hi]`` (``scratch`` reused),
    a digit a pass, least significant first; ``counts`` has room for a digit's values."""
    if bits == 0:  # one value
        for i in range(lo, hi):
            values[i] = scratch[i]
        return
    passes = (bits + DIGIT_BITS - 1) // DIGIT_BITS
    digit = (bits + passes - 1) // passes
    mask = np.uint64((1 << digit) - 1)
    # the passes alternate between the two arrays, and must end in values: an even number starts there
    source, target = scratch, values
    if passes % 2 == 0:
        for i in range(lo, hi):
            values[i] = scratch[i]
        source, target = values, scratch
    for p in range(passes):
        shift = np.uint64(p * digit)
        for d in range(1 << digit):
            counts[d] = 0
        for i in range(lo, hi):
            counts[(source[i] >> shift) & mask] += 1
        at = lo
        for d in range(1 << digit):
            count = counts[d]
            counts[d] = at
            at += count
        for i in range(lo, hi):
            value = source[i]
            d = (value >> shift) & mask
            target[counts[d]] = value
            counts[d] += 1
        source, target = target, source


@njit(cache=True)
def sort_unique_radix(values, scratch):
    """Sort ``values`` and keep each value once, in order, at its front; returns how many. ``scratch``
    has room for as many values as ``values``."""
    n = values.shape[0]
    width = _width(values, n)
    if width == 0:  # none, or zeros only
        return min(n, 1)
    top = 1
    while (1 << (top + BUCKET_BITS)) < n:
        top += 1
    top = min(top, width)
    low = width - top
    buckets = 1 << top
    starts = np.zeros(buckets + 1, dtype=np.int64)
    shift = np.uint64(low)
    for i in range(n):
        starts[(values[i] >> shift) + np.uint64(1)] += 1
    for b in range(buckets):
        starts[b + 1] += starts[b]
    at = starts[:buckets].copy()
    for i in range(n):
        value = values[i]
        b = value >> shift
        scratch[at[b]] = value
        at[b] += 1
    counts = np.zeros(1 << DIGIT_BITS, dtype=np.int64)
    kept = 0
    for b in range(buckets):
        lo, hi = starts[b], starts[b + 1]
        if hi - lo <= SMALL:
            _insertion(scratch, values, lo, hi)
        else:
            _by_digits(values, scratch, lo, hi, low, counts)
        # repeats are in one bucket (same top bits), and the front never passes the bucket's start
        if kept == 0 and hi > lo:
            values[0] = values[lo]
            kept = 1
            lo += 1
        for i in range(lo, hi):
            value = values[i]
            values[kept] = value  # written every time, kept only when new: no branch to mispredict
            kept += value != values[kept - 1]
    return kept
