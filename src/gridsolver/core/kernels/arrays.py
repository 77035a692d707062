"""Array copies for the kernels, written as element loops.

numba compiles a slice assignment from an array (``dst[:k] = src[:k]``,
``a[i, :] = b``) into a broadcast with a shape check whose error message
needs string formatting: seconds of compiling in every kernel that has one,
which a new user waits for on the first run. A plain loop compiles in a
fraction of that and runs as fast. Each helper is inlined where it is used.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def copy_prefix(dst, src, count):
    """``dst[:count] = src[:count]`` for 1-D arrays (the caller makes sure both are long enough)."""
    for i in range(count):
        dst[i] = src[i]


@njit(cache=True, inline="always")
def copy_rows(dst, src):
    """``dst[:, :] = src`` for 2-D arrays of the same shape."""
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]
