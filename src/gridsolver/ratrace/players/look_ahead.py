"""``look-ahead``: colour scores summed along each forward move.

Every colour has a 6-bit score in the genome (bits 6c .. 6c+5, as in
``colour-score``). A forward move (1, dy) is worth the score of its target
cell plus the scores of the three cells ahead of that target (x + 2,
dy - 1 .. dy + 1) that lie inside the track; the best move wins, ties at
random. Seeing two columns ahead lets the genome learn to avoid targets
whose every continuation is bad.
"""

import numpy as np
from numba import njit

from gridsolver.ratrace.players.api import genome_chunk


@njit(cache=True)
def look_ahead(view, genome):
    scores = np.empty(16, np.int64)
    for colour in range(16):
        scores[colour] = genome_chunk(genome, 6 * colour, 6)
    best = -1
    best_dy = 0
    ties = 0
    for dy in range(-1, 2):
        target = view[dy + 2, 3]
        if target < 0:
            continue
        total = scores[target]
        for ahead in range(dy - 1, dy + 2):
            if -2 <= ahead <= 2:
                colour = view[ahead + 2, 4]
                if colour >= 0:
                    total += scores[colour]
        if total > best:
            best, best_dy, ties = total, dy, 1
        elif total == best:
            ties += 1
            if np.random.randint(0, ties) == 0:
                best_dy = dy
    return 1, best_dy
