import time

from numba import njit

from gridsolver.core.kernels.clock import monotonic_ns


@njit(cache=True)
def _read():
    return monotonic_ns()


def test_kernel_clock_matches_python_clock():
    _read()  # compile
    before = time.monotonic_ns()
    inside = _read()
    after = time.monotonic_ns()
    assert before <= inside <= after
