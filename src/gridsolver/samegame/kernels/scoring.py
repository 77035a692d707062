"""SameGame's end-of-game points in kernel form (numba kernels).

A move that removes n cells scores (n - 2)^2, written out where a kernel
adds it up; the game's end adds :func:`terminal_bonus`. The plain-Python form
of these rules is :mod:`gridsolver.samegame.rules`; the board kernels of
:mod:`gridsolver.clickomania.kernels` play the moves and know no points.
"""

from __future__ import annotations

from numba import njit

NO_VALUE = -(1 << 40)  # below any score: no game yet


@njit(cache=True)
def terminal_bonus(left, penalty):
    """Points at the end of a game with ``left`` cells left: 1000 for clearing, minus (left - 2)^2
    with ``penalty`` when more than two are left."""
    if left == 0:
        return 1000
    if penalty and left > 2:
        return -(left - 2) * (left - 2)
    return 0
