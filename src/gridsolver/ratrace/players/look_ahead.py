"""``look-ahead``: colour scores summed along each forward move.

Every colour has a 6-bit score in the genome (bits 6c .. 6c+5, as in
``colour-score``). A forward move (1, dy) is worth the score of its target
cell plus the scores of the three cells ahead of that target (x + 2,
dy - 1 .. dy + 1) that lie inside the track; the best move wins, ties at
random. Seeing two columns ahead lets the genome learn to avoid targets
whose every continuation is bad.
"""

from numba import njit

from gridsolver.ratrace.players.api import genome_chunk, keep_best


@njit(cache=True, inline="always")
def _score(view, row, column, genome):
    """The 6-bit genome score of the colour at view[row, column]; 0 outside the track."""
    colour = view[row, column]
    return genome_chunk(genome, 6 * colour, 6) if colour >= 0 else 0


@njit(cache=True)
def look_ahead(view, genome):
    # scores of the column two cells ahead, rows dy = -2..2 (scalars: no allocation per call)
    b0, b1, b2 = _score(view, 0, 4, genome), _score(view, 1, 4, genome), _score(view, 2, 4, genome)
    b3, b4 = _score(view, 3, 4, genome), _score(view, 4, 4, genome)
    best = -1
    best_dy = 0
    ties = 0
    for dy in range(-1, 2):
        target = view[dy + 2, 3]
        if target < 0:
            continue
        total = genome_chunk(genome, 6 * target, 6)
        if dy == -1:
            total += b0 + b1 + b2
        elif dy == 0:
            total += b1 + b2 + b3
        else:
            total += b2 + b3 + b4
        best, best_dy, ties = keep_best(total, dy, best, best_dy, ties)
    return 1, best_dy
