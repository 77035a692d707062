"""Generating tracks from a seed, and showing them (text for people, JSON for tools).

Track generation follows the spec step by step with one numpy generator
seeded from the track seed, so ``track --seed S`` and track 1 of
``play --seed S`` are the same track. A track with fewer than 10 start cells
is thrown away and the same generator draws the next one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gridsolver.ratrace.rules import (
    COLOURS,
    EMPTY,
    HEIGHT,
    KIND_NAMES,
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
    goal_x = width - 4
    colours[:, goal_x:] = empties[rng.integers(8, size=(height, width - goal_x))]
    return Track(colours=colours, kinds=kinds, offsets=offsets, seed=seed)


def track_to_json(track: Track) -> dict[str, Any]:
    """The JSON form other tools read (see ``gridsolver ratrace track --help``)."""
    def offsets_of(kind: int) -> dict[str, list[int]]:
        return {str(c): [int(v) for v in track.offsets[c]] for c in range(COLOURS)
                if track.kinds[c] == kind}

    return {
        "seed": track.seed,
        "width": track.width,
        "height": track.height,
        "colours": track.colours.tolist(),
        "kinds": {str(c): KIND_NAMES[int(track.kinds[c])] for c in range(COLOURS)},
        "teleporters": offsets_of(TELEPORTER),
        "traps": offsets_of(TRAP),
        "start_cells": list(track.start_cells),
    }


_KIND_MARK = {EMPTY: ".", TELEPORTER: "T", TRAP: "X", WALL: "#"}


def render_track(track: Track) -> str:
    """The track for people: colours in hex, then kinds, lethal cells and start cells."""
    lines = [f"track seed {track.seed}: {track.width} x {track.height}, goal at x >= {track.goal_x}"]
    for c in range(COLOURS):
        kind = int(track.kinds[c])
        text = f"  colour {c:x} ({c:2d}): {KIND_NAMES[kind]}"
        if kind in (TELEPORTER, TRAP):
            dx, dy = (int(v) for v in track.offsets[c])
            text += f" offset ({dx:+d}, {dy:+d})"
        lines.append(text)
    lines.append("colours (hex; '>' marks a start cell, '|' the goal line):")
    for y in range(track.height):
        row = "".join(f"{int(c):x}" for c in track.colours[y])
        mark = ">" if y in track.start_cells else " "
        lines.append(f"  {y:2d} {mark}{row[:track.goal_x]}|{row[track.goal_x:]}")
    lines.append("kinds ('.' empty, 'T' teleporter, 'X' trap, '#' wall; '!' lethal non-wall cell):")
    for y in range(track.height):
        marks = []
        for x in range(track.width):
            kind = int(track.kinds[track.colours[y, x]])
            marks.append("!" if track.lethal[y, x] and kind != WALL else _KIND_MARK[kind])
        row = "".join(marks)
        mark = ">" if y in track.start_cells else " "
        lines.append(f"  {y:2d} {mark}{row[:track.goal_x]}|{row[track.goal_x:]}")
    lines.append(f"start cells (y at x = 0): {' '.join(str(y) for y in track.start_cells)}")
    return "\n".join(lines)
