"""``colour-score-python``: colour-score as a plain Python player (an API example)."""

import random


def colour_score_python(view: tuple[tuple[int, ...], ...], genome: int) -> tuple[int, int]:
    # the three forward cells (dy = -1, 0, 1); -1 (outside the track) scores below any colour
    up, ahead, down = view[1][3], view[2][3], view[3][3]
    best = (genome >> 6 * up) & 63 if up >= 0 else -1
    best_dy, ties = -1, 1
    score = (genome >> 6 * ahead) & 63 if ahead >= 0 else -1
    if score > best:
        best, best_dy = score, 0
    elif score == best:  # ties at random: keep each tied cell with probability 1 / ties
        ties = 2
        if random.random() < 0.5:
            best_dy = 0
    score = (genome >> 6 * down) & 63 if down >= 0 else -1
    if score > best:
        best_dy = 1
    elif score == best and random.random() * (ties + 1) < 1:
        best_dy = 1
    return 1, best_dy
