"""Array copies for the kernels, written as element loops (numba kernel).

numba compiles ``dst[:k] = src[:k]`` (any slice assignment from an array)
into a broadcast with a shape check whose error message needs string
formatting: seconds of compiling in every kernel that has one (issue 20).
A plain loop compiles in a fraction of that and runs as fast.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def copy_into(dst, src, count):
    """``dst[:count] = src[:count]`` for 1-D arrays (the caller makes sure both are long enough)."""
    for i in range(count):
        dst[i] = src[i]
