"""Module-level functions that worker processes can import."""


def square(x: int) -> int:
    return x * x


def fail_on_three(x: int) -> int:
    if x == 3:
        raise ValueError("three")
    return x
