"""The controller's random stream in numba: splitmix64 on a one-word state array.

``rng[0]`` is the state; every draw advances it, so a game's draws continue
across kernel calls. The stream is the same as
:class:`gridsolver.ratrace.rng.SplitMix` (the plain-Python reference game's).
Players draw from numba's own ``np.random`` instead, seeded per track by
:func:`gridsolver.core.kernels.random.seed_numba_random`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.ratrace import rng as reference

# The reference's constants as uint64 scalars (numba freezes globals into the kernels).
_GOLDEN = np.uint64(reference.GOLDEN)
_MUL1 = np.uint64(reference.MUL1)
_MUL2 = np.uint64(reference.MUL2)


@njit(cache=True, inline="always")
def next_u64(rng):
    state = rng[0] + _GOLDEN
    rng[0] = state
    z = (state ^ (state >> np.uint64(30))) * _MUL1
    z = (z ^ (z >> np.uint64(27))) * _MUL2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def uniform(rng):
    return float(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def below(rng, n):
    return int(uniform(rng) * n)
