"""The arrays the game kernels read, built once per track from the rules."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from gridsolver.ratrace.rules import VIEW_RADIUS, Track, transitions


class TrackTables(NamedTuple):
    """A track as the kernels read it (made once per game, handed down to every kernel).

    ``trans[cell, move]`` (the new cell, DEAD or GOAL: :func:`gridsolver.ratrace.rules.transitions`),
    ``views[cell]`` (the 5 x 5 colours a rat on that cell sees), the start cells as cell numbers and
    the track's width (a cell is ``y * width + x``).
    """

    trans: np.ndarray
    views: np.ndarray
    start_cells: np.ndarray
    width: int


def cell_views(track: Track) -> np.ndarray:
    """``views[y * width + x]`` is what a rat on (x, y) sees: ``[dy + 2, dx + 2]``, -1 outside."""
    r = VIEW_RADIUS
    padded = np.full((track.height + 2 * r, track.width + 2 * r), -1, dtype=np.int64)
    padded[r:r + track.height, r:r + track.width] = track.colours
    views = np.empty((track.height * track.width, 2 * r + 1, 2 * r + 1), dtype=np.int64)
    for y in range(track.height):
        for x in range(track.width):
            views[y * track.width + x] = padded[y:y + 2 * r + 1, x:x + 2 * r + 1]
    return views


def track_tables(track: Track) -> TrackTables:
    starts = np.array([y * track.width for y in track.start_cells], dtype=np.int64)
    return TrackTables(trans=transitions(track).astype(np.int64), views=cell_views(track),
                       start_cells=starts, width=track.width)
