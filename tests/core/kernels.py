"""A deliberately endless kernel for budget tests."""

from numba import njit

from gridsolver.core.clock import monotonic_ns


@njit(cache=True)
def spin_until(deadline_ns, node_limit):
    nodes = 0
    while True:
        nodes += 1
        if nodes >= node_limit:
            return nodes
        if nodes % 1024 == 0 and monotonic_ns() >= deadline_ns:
            return nodes
