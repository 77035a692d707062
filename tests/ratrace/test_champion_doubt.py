"""Doubting turns (``choose_doubting`` of benchmarks/tune_ratrace_champion.py): a tuning variant."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from gridsolver.ratrace import reference
from gridsolver.ratrace.kernels import planner
from tests.ratrace.test_champion import AVOID, _seed_numba, genome, moves, view

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import tune_ratrace_champion as tune  # noqa: E402  (the doubting variant is the tuning script's)

# Colour 1 (believed plain by an all-zero genome) fills column +1 except at the bottom.
WALL_OPEN_BELOW = view(["00010", "00010", "00010", "00000", "00000"])
# Colour 1 fills column +1 from top to bottom: no way right once it is doubted.
WALL = view(["00010"] * 5)


def test_with_belief_rewrites_one_colours_chunk_only():
    rng = np.random.default_rng(7)
    for colour in range(16):
        g = rng.integers(0, 2**63, size=2, dtype=np.int64).astype(np.uint64)
        code = int(rng.integers(64))
        changed = planner.with_belief(g, colour, code)
        assert planner.colour_code(changed, colour) == code
        for other in range(16):
            if other != colour:
                assert planner.colour_code(changed, other) == planner.colour_code(g, other)
        assert (int(changed[1]) >> 32) == (int(g[1]) >> 32)  # bits 96.. untouched
        assert planner.colour_code(g, colour) == planner.colour_code(g.copy(), colour)  # g itself unchanged


def test_a_doubting_rat_walks_around_the_colour_it_would_step_on():
    g = genome({})
    assert moves(planner.plan(WALL_OPEN_BELOW, g)[0]) == {(1, -1), (1, 0), (1, 1)}
    _seed_numba(5)
    for _ in range(50):
        # A draw of (1, -1) or (1, 0) doubts colour 1 and detours through (1, 1); a draw of
        # (1, 1) enters the rat's own colour 0, which is never doubted.
        assert moves(tune.choose_doubting(WALL_OPEN_BELOW, g, planner.DECODE, False, True)) == {(1, 1)}
    # Not doubting (or wandering), it plays as the champion.
    for wander in (False, True):
        assert tune.choose_doubting(WALL_OPEN_BELOW, g, planner.DECODE, wander, False) == planner.choose(
            WALL_OPEN_BELOW, g, wander)


def test_a_doubting_rat_boxed_in_slides_whatever_its_genome_says():
    g = genome({})  # bit 97 clear: the champion would not slide; bit 96 clear: up
    _seed_numba(6)
    assert moves(tune.choose_doubting(WALL, g, planner.DECODE, False, True)) == {(0, -1)}
    doubted = planner.with_belief(g, 1, AVOID)
    doubted[1] |= np.uint64(1 << 33)
    assert moves(reference.plan_reference(WALL, doubted)[0]) == {(0, -1)}
