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
