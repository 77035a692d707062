"""Seeding numba's own random stream, which every kernel's ``np.random`` draws from.

numba keeps one ``np.random`` state per thread, apart from numpy's: seeding it
takes a call made in compiled code, once before a search or a game starts.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def seed_numba_random(seed):
    """Seed numba's ``np.random`` in this process (the stream kernels and numba players draw from)."""
    np.random.seed(seed)
