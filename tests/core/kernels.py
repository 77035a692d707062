"""A deliberately endless kernel for budget tests."""

from numba import njit

from gridsolver.core.kernels.clock import budget_check


@njit(cache=True)
def spin_until(deadline_ns, node_limit):
    """Count nodes until the shared budget check says stop; returns (nodes, stop code)."""
    nodes = 0
    while True:
        nodes += 1
        code = budget_check(nodes, node_limit, deadline_ns, 1024)
        if code != 0:
            return nodes, code
