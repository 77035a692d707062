"""Module-level functions that worker processes can import."""


def square(x: int) -> int:
    return x * x


def fail_on_three(x: int) -> int:
    if x == 3:
        raise ValueError("three")
    return x


def slow_pid(_: int) -> int:
    """The worker's process id, after a pause long enough that every worker gets an item."""
    import os
    import time

    time.sleep(0.3)
    return os.getpid()


def spin_for(seconds: float) -> tuple[int, bool]:
    """Spin the budget-check kernel for ``seconds``; (stop code, whether this worker heard Ctrl-C)."""
    import time

    from gridsolver.core import interrupt
    from gridsolver.core.budget import NO_LIMIT
    from tests.core.kernels import spin_until

    deadline = interrupt.capped(time.monotonic_ns() + int(seconds * 1e9))  # spent after Ctrl-C
    _, code = spin_until(deadline, NO_LIMIT)
    return int(code), interrupt.requested()
