"""Random tracks: the track of a seed, drawn as the spec says.

Track generation follows the spec step by step with one numpy generator
seeded from the track seed, so ``track --seed S`` and track 1 of
``play --seed S`` are the same track. A track with fewer than 10 start cells
is thrown away and the same generator draws the next one.
"""

from __future__ import annotations

import numpy as np

from gridsolver.ratrace.rules import (
    COLOURS,
    EMPTY,
    GOAL_COLUMNS,
    HEIGHT,
    TELEPORTER,
    TRAP,
    WALL,
    WIDTH,
    Track,
    start_cells,
    transitions,
)

MIN_START_CELLS = 10
_TRACK_STREAM = 0x747261636B  # "track": keeps the track stream apart from other seeded streams

NONZERO_OFFSETS_4 = [(dx, dy) for dy in range(-4, 5) for dx in range(-4, 5) if (dx, dy) != (0, 0)]
OFFSETS_1 = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]


def track_rng(seed: int) -> np.random.Generator:
    """The generator of a track: any int seed (negative too) gives its own stream."""
    return np.random.default_rng([seed % 2**64, _TRACK_STREAM])


def generate_track(seed: int, width: int = WIDTH, height: int = HEIGHT) -> Track:
    """The track of ``seed``, with its start cells (regenerated until it has 10)."""
    rng = track_rng(seed)
    while True:
        track = _draw_track(rng, width, height, seed)
        track.start_cells = start_cells(track, transitions(track))
        if len(track.start_cells) >= MIN_START_CELLS:
            return track


def _draw_track(rng: np.random.Generator, width: int, height: int, seed: int) -> Track:
    order = rng.permutation(COLOURS)
    kinds = np.empty(COLOURS, dtype=np.int64)
    kinds[order[:8]] = EMPTY
    kinds[order[8:12]] = TELEPORTER
    kinds[order[12:14]] = TRAP
    kinds[order[14:16]] = WALL
    offsets = np.zeros((COLOURS, 2), dtype=np.int64)
    teleporters = order[8:12]
    for k in range(2):  # two random offsets, the other two colours get their negations
        offsets[teleporters[k]] = NONZERO_OFFSETS_4[rng.integers(len(NONZERO_OFFSETS_4))]
        offsets[teleporters[k + 2]] = -offsets[teleporters[k]]
    for colour in order[12:14]:
        offsets[colour] = OFFSETS_1[rng.integers(len(OFFSETS_1))]
    colours = rng.integers(COLOURS, size=(height, width))
    empties = np.sort(order[:8])
    goal_x = width - GOAL_COLUMNS
    colours[:, goal_x:] = empties[rng.integers(8, size=(height, width - goal_x))]
    return Track(colours=colours, kinds=kinds, offsets=offsets, seed=seed)
