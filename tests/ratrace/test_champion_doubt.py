"""Doubting turns (``champion.choose_doubting``): a tuning variant, not the champion's rule."""

from __future__ import annotations

import numpy as np

from gridsolver.ratrace.players import champion as ch
from tests.ratrace.test_champion import AVOID, _seed_numba, genome, moves, view

# Colour 1 (believed plain by an all-zero genome) fills column +1 except at the bottom.
WALL_OPEN_BELOW = view(["00010", "00010", "00010", "00000", "00000"])
# Colour 1 fills column +1 from top to bottom: no way right once it is doubted.
WALL = view(["00010"] * 5)


def test_with_belief_rewrites_one_colours_chunk_only():
    rng = np.random.default_rng(7)
    for colour in range(16):
        g = rng.integers(0, 2**63, size=2, dtype=np.int64).astype(np.uint64)
        code = int(rng.integers(64))
        changed = ch.with_belief(g, colour, code)
        assert ch.colour_code(changed, colour) == code
        for other in range(16):
            if other != colour:
                assert ch.colour_code(changed, other) == ch.colour_code(g, other)
        assert (int(changed[1]) >> 32) == (int(g[1]) >> 32)  # bits 96.. untouched
        assert ch.colour_code(g, colour) == ch.colour_code(g.copy(), colour)  # g itself unchanged


def test_a_doubting_rat_walks_around_the_colour_it_would_step_on():
    g = genome({})
    assert moves(ch.plan(WALL_OPEN_BELOW, g)[0]) == {(1, -1), (1, 0), (1, 1)}
    _seed_numba(5)
    for _ in range(50):
        # A draw of (1, -1) or (1, 0) doubts colour 1 and detours through (1, 1); a draw of
        # (1, 1) enters the rat's own colour 0, which is never doubted.
        assert moves(ch.choose_doubting(WALL_OPEN_BELOW, g, ch.DECODE, False, True)) == {(1, 1)}
    # Not doubting (or wandering), it plays as the champion.
    for wander in (False, True):
        assert ch.choose_doubting(WALL_OPEN_BELOW, g, ch.DECODE, wander, False) == ch.choose(
            WALL_OPEN_BELOW, g, wander)


def test_a_doubting_rat_boxed_in_slides_whatever_its_genome_says():
    g = genome({})  # bit 97 clear: the champion would not slide; bit 96 clear: up
    _seed_numba(6)
    assert moves(ch.choose_doubting(WALL, g, ch.DECODE, False, True)) == {(0, -1)}
    doubted = ch.with_belief(g, 1, AVOID)
    doubted[1] |= np.uint64(1 << 33)
    assert moves(ch.plan_reference(WALL, doubted)[0]) == {(0, -1)}
