"""``forward``: always move straight ahead. A baseline (and the fastest player)."""

from numba import njit


@njit(cache=True)
def forward(view, genome):
    return 1, 0
