"""``colour-score-python``: colour-score as a plain Python player (an API example)."""

import random


def colour_score_python(view: tuple[tuple[int, ...], ...], genome: int) -> tuple[int, int]:
    best = -1
    best_dy = 0
    ties = 0
    for dy in (-1, 0, 1):
        colour = view[dy + 2][3]
        if colour < 0:
            continue
        score = (genome >> (6 * colour)) & 63
        if score > best:
            best, best_dy, ties = score, dy, 1
        elif score == best:
            ties += 1
            if random.randrange(ties) == 0:
                best_dy = dy
    return 1, best_dy
