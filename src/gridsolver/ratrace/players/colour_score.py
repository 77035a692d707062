"""``colour-score``: the spec's example player.

For each of the three forward cells (dx = 1, dy = -1, 0, 1) inside the track,
read the 6-bit genome chunk that starts at bit 6 x colour; go to the best,
ties at random (each tied cell kept with the same probability).
"""

from numba import njit

from gridsolver.ratrace.players.api import genome_chunk, keep_best


@njit(cache=True)
def colour_score(view, genome):
    best = -1
    best_dy = 0
    ties = 0
    for dy in range(-1, 2):
        colour = view[dy + 2, 3]
        if colour < 0:
            continue
        best, best_dy, ties = keep_best(genome_chunk(genome, 6 * colour, 6), dy, best, best_dy, ties)
    return 1, best_dy
