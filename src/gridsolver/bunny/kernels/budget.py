"""The search's budget check: nodes on every call, the clock at an interval set from the board.

This module imports numba; import it only from kernel modules.
"""

from __future__ import annotations

from numba import njit

from gridsolver.core.kernels.clock import budget_check


@njit(cache=True)
def expired(limits, stats):
    """Whether the budget is spent; ``stats[0]`` counts nodes.

    ``limits`` = (deadline on the monotonic clock in ns, node limit, nodes between clock
    readings, node count of the next reading). A node costs up to 4 x squares x words word
    operations, milliseconds on a board of thousands of squares, so the search sets the
    interval from the board; and the top-level search adds many nodes at once, so the clock is
    read once the count has passed the next reading, not at exact multiples. A two-entry
    ``limits`` reads the clock every 1,024 nodes.
    """
    if limits.shape[0] < 4:
        return budget_check(stats[0], limits[1], limits[0], 1024) != 0
    if stats[0] < limits[3] and stats[0] < limits[1]:
        return False
    limits[3] = stats[0] + limits[2]
    return budget_check(stats[0], limits[1], limits[0], 1) != 0
