"""Hand-built tracks and deterministic players for the rat race tests."""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.ratrace.players import numpy_player
from gridsolver.ratrace.players.api import genome_chunk
from gridsolver.ratrace.rules import COLOURS, EMPTY, MOVES, Track, start_cells

# Colours of hand-built tracks: '.' empty (0), '#' wall (1), 'X' trap (2), 'T' teleporter (3),
# 'Z' a trap with offset (0, 0) (4), 'U' a second teleporter (5).
CHARS = {".": 0, "#": 1, "X": 2, "T": 3, "Z": 4, "U": 5}


def build_track(rows: list[str], kinds: dict[int, int], offsets: dict[int, tuple[int, int]],
                starts: list[int] | None = None) -> Track:
    """A track from rows of CHARS; colours missing from ``kinds`` are empty."""
    colours = np.array([[CHARS[ch] for ch in row] for row in rows], dtype=np.int64)
    kind = np.full(COLOURS, EMPTY, dtype=np.int64)
    offset = np.zeros((COLOURS, 2), dtype=np.int64)
    for colour, k in kinds.items():
        kind[colour] = k
    for colour, (dx, dy) in offsets.items():
        offset[colour] = (dx, dy)
    track = Track(colours=colours, kinds=kind, offsets=offset, seed=None)
    track.start_cells = start_cells(track) if starts is None else starts
    return track


def random_track(seed: int) -> Track:
    """A small random track (any kinds and offsets) with at least one start cell, or None."""
    rng = np.random.default_rng(seed)
    height, width = int(rng.integers(3, 8)), int(rng.integers(7, 18))
    kinds = rng.integers(0, 4, size=COLOURS)
    kinds[:6] = 0  # keep some empty colours so that rats can get through
    offsets = rng.integers(-2, 3, size=(COLOURS, 2))
    colours = rng.integers(0, COLOURS, size=(height, width))
    colours[:, width - 4:] = rng.integers(0, 6, size=(height, 4))
    track = Track(colours=colours, kinds=kinds, offsets=offsets, seed=seed)
    track.start_cells = start_cells(track)
    return track


@njit(cache=True)
def greedy(view, genome):
    """Deterministic: the move whose target colour has the best 6-bit score plus 3*dx; ties: first."""
    best = -1000
    best_dx = 0
    best_dy = 0
    for dy in range(-1, 2):
        for dx in range(-1, 2):
            colour = view[dy + 2, dx + 2]
            if colour < 0:
                continue
            score = genome_chunk(genome, 6 * colour, 6) + 3 * dx
            if score > best:
                best, best_dx, best_dy = score, dx, dy
    return best_dx, best_dy


def greedy_python(view, genome):
    best, best_move = -1000, (0, 0)
    for dx, dy in MOVES:  # same order as greedy: dy outer, dx inner
        colour = view[dy + 2][dx + 2]
        if colour < 0:
            continue
        score = ((genome >> (6 * colour)) & 63) + 3 * dx
        if score > best:
            best, best_move = score, (dx, dy)
    return best_move


@numpy_player
def greedy_numpy(views, genomes):
    n = len(views)
    best = np.full(n, -1000, dtype=np.int64)
    moves = np.zeros((n, 2), dtype=np.int64)
    shifts = np.arange(6)
    for dx, dy in MOVES:
        colours = views[:, dy + 2, dx + 2]
        bits = 6 * np.maximum(colours, 0)[:, None] + shifts[None, :]
        words = np.take_along_axis(genomes, bits >> 6, axis=1)
        chunk = (((words >> (bits & 63).astype(np.uint64)) & np.uint64(1)).astype(np.int64)
                 << shifts[None, :]).sum(axis=1)
        score = np.where(colours >= 0, chunk + 3 * dx, -1000)
        better = score > best
        best = np.where(better, score, best)
        moves[better] = (dx, dy)
    return moves


@njit(cache=True)
def stay(view, genome):
    return 0, 0


@njit(cache=True)
def ahead(view, genome):
    return 1, 0


@njit(cache=True)
def too_far(view, genome):
    """Legal on the first column (nothing to the left), then (2, 0)."""
    if view[2, 1] < 0:
        return 1, 0
    return 2, 0


@njit(cache=True)
def noisy_stay(view, genome):
    """Stays, but draws from the players' stream on every call."""
    if np.random.random() < 2.0:
        return 0, 0
    return 1, 0
