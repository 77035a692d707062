"""``colour-score-numpy``: colour-score as a vectorised numpy player (an API example)."""

import numpy as np

from gridsolver.ratrace.players import numpy_player

_SHIFTS = np.arange(6, dtype=np.uint64)


def _chunks(genomes: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """The 6-bit genome chunk at bit 6 x colour for every rat (colours >= 0)."""
    bits = 6 * colours[:, None] + _SHIFTS.astype(np.int64)[None, :]
    words = np.take_along_axis(genomes, bits >> 6, axis=1)
    values = (words >> (bits & 63).astype(np.uint64)) & np.uint64(1)
    return (values << _SHIFTS[None, :]).sum(axis=1).astype(np.int64)


@numpy_player
def colour_score_numpy(views: np.ndarray, genomes: np.ndarray) -> np.ndarray:
    n = len(views)
    scores = np.full((n, 3), -1, dtype=np.int64)
    for k, dy in enumerate((-1, 0, 1)):
        colours = views[:, dy + 2, 3]
        inside = colours >= 0
        scores[inside, k] = _chunks(genomes[inside], colours[inside])
    # ties at random: add a random fraction below 1 so that equal integer scores compete fairly
    noisy = scores + np.random.random((n, 3))
    moves = np.ones((n, 2), dtype=np.int64)
    moves[:, 1] = np.argmax(noisy, axis=1) - 1
    return moves
