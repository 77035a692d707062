"""SameGame's end-of-game points and the random tabu-colour playout (numba kernels).

The playout gives Clickomania its first answer at once, ranks the children
of the Monte-Carlo beam (:mod:`.beam`) and is the bottom level of nested
Monte-Carlo search (:mod:`gridsolver.samegame.kernels.nmcs`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.clickomania.kernels.groups import colour_summary, find_groups, remove_at

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


@njit(cache=True)
def playout(cells, width, height, penalty, seq, start_len, label, sizes, reps, stack, counts):
    """A random game from ``cells`` (modified in place) with the tabu-colour policy.

    The tabu colour is the one with the most cells at the start: removing its
    small groups early spoils the big final group, so they are avoided while
    any other move exists. Moves go to ``seq[start_len:]``; returns (points, length).

    Kernels pass ``start_len`` as ``np.int64(0)``, never a bare ``0``: numba
    compiles a kernel apart for each literal argument, and this one is also
    called from Python with an int64.
    """
    left, dead = colour_summary(cells, counts)
    tabu = 0
    for k in range(counts.shape[0]):
        if counts[k] > counts[tabu]:
            tabu = k
    points = 0
    length = start_len
    while True:
        ng = find_groups(cells, width, height, label, sizes, reps, stack)
        legal = 0
        preferred = 0
        for g in range(ng):
            if sizes[g] >= 2:
                legal += 1
                if cells[reps[g]] != tabu:
                    preferred += 1
        if legal == 0:
            break
        pick_tabu = preferred == 0
        choice = np.random.randint(legal if pick_tabu else preferred)
        for g in range(ng):
            if sizes[g] < 2:
                continue
            if not pick_tabu and cells[reps[g]] == tabu:
                continue
            if choice == 0:
                seq[length] = reps[g]
                length += 1
                points += (sizes[g] - 2) * (sizes[g] - 2)
                left -= sizes[g]
                remove_at(cells, width, height, reps[g], stack)
                break
            choice -= 1
    return points + terminal_bonus(left, penalty), length
