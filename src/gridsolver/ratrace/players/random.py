"""``random``: one of the nine moves uniformly at random (numba's player stream)."""

import numpy as np
from numba import njit


@njit(cache=True)
def random(view, genome):
    return np.random.randint(-1, 2), np.random.randint(-1, 2)
