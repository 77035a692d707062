"""The random tabu-colour playout scored in SameGame's points (numba kernel).

It ranks the children of the Monte-Carlo beam (:mod:`.beam`) and is the
bottom level of nested Monte-Carlo search (:mod:`.nmcs`). The game itself is
Clickomania's :func:`~gridsolver.clickomania.kernels.playout.tabu_playout`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.clickomania.kernels.playout import tabu_playout
from gridsolver.samegame.kernels.scoring import terminal_bonus


@njit(cache=True)
def playout(cells, width, height, penalty, seq, start_len, label, sizes, reps, stack, counts):
    """A random tabu-colour game from ``cells`` (modified in place); moves go to ``seq[start_len:]``.
    Returns (points of the game's moves and of its end, length)."""
    removed = np.empty(cells.shape[0] + 1, np.int32)
    length, left = tabu_playout(cells, width, height, seq, start_len, removed, label, sizes, reps, stack,
                                counts)
    points = 0
    for t in range(start_len, length):
        points += (removed[t] - 2) * (removed[t] - 2)
    return points + terminal_bonus(left, penalty), length
