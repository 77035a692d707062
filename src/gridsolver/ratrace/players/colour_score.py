"""``colour-score``: the spec's example player.

For each of the three forward cells (dx = 1, dy = -1, 0, 1) inside the track,
read the 6-bit genome chunk that starts at bit 6 x colour; go to the best,
ties at random.
"""

import numpy as np
from numba import njit

from gridsolver.ratrace.players.api import genome_chunk


@njit(cache=True)
def colour_score(view, genome):
    best = -1
    best_dy = 0
    ties = 0
    for dy in range(-1, 2):
        colour = view[dy + 2, 3]
        if colour < 0:
            continue
        score = genome_chunk(genome, 6 * colour, 6)
        if score > best:
            best, best_dy, ties = score, dy, 1
        elif score == best:
            ties += 1  # reservoir sampling: each tied cell is kept with probability 1/ties
            if np.random.randint(0, ties) == 0:
                best_dy = dy
    return 1, best_dy
