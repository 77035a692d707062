"""The random tabu-colour playout (numba kernel).

The playout gives Clickomania its first answer at once. It records the
cells each move removed, so a game that scores its moves can add them up.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.clickomania.kernels.groups import colour_summary, find_groups, remove_at


@njit(cache=True)
def tabu_playout(cells, width, height, seq, start_len, removed, label, sizes, reps, stack, counts):
    """A random game from ``cells`` (modified in place) with the tabu-colour policy.

    The tabu colour is the one with the most cells at the start: removing its
    small groups early spoils the big final group, so they are avoided while
    any other move exists. Moves go to ``seq[start_len:]`` and the cells each
    removed to ``removed`` at the same places; returns (length, cells left).

    Kernels pass ``start_len`` as ``np.int64(0)``, never a bare ``0``: numba
    compiles a kernel apart for each literal argument, and this one is also
    called from Python with an int64.
    """
    left, dead = colour_summary(cells, counts)
    tabu = 0
    for k in range(counts.shape[0]):
        if counts[k] > counts[tabu]:
            tabu = k
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
                removed[length] = sizes[g]
                length += 1
                left -= sizes[g]
                remove_at(cells, width, height, reps[g], stack)
                break
            choice -= 1
    return length, left
