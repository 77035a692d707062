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


def test_kernels_run_as_plain_python_with_numba_disabled():
    """NUMBA_DISABLE_JIT=1 (to debug a kernel) runs the same search through the Python clock."""
    import os
    import subprocess
    import sys

    command = [sys.executable, "-m", "gridsolver", "bunny", "solve", "challenge/01", "--time", "60"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NUMBA_DISABLE_JIT": "1", "GRIDSOLVER_NO_PROGRESS": "1"})
    assert done.returncode == 0, done.stderr
    assert "optimal" in done.stdout and "replay verified" in done.stdout
    assert "Warning" not in done.stderr
