"""The champion's slide: a rat with no believed-safe way right follows the barrier (genome bits 96-97)."""

from __future__ import annotations

import numpy as np

from gridsolver.ratrace import reference
from gridsolver.ratrace.kernels import planner
from tests.ratrace.test_champion import AVOID, genome, moves, view

# Columns +1 and +2 are "never step" from top to bottom: no way right in view.
BARRIER = view(["00011"] * 5)


def sliding(g: np.ndarray, down: bool) -> np.ndarray:
    """``g`` with bit 97 (slide) set and bit 96 (down) as given."""
    g = g.copy()
    g[1] |= np.uint64(1 << 33) | np.uint64(int(down) << 32)
    return g


def test_a_rat_whose_genome_slides_heads_up_or_down_along_the_barrier():
    g = genome({1: AVOID})
    assert moves(planner.plan(BARRIER, sliding(g, down=False))[0]) == {(0, -1)}
    assert moves(planner.plan(BARRIER, sliding(g, down=True))[0]) == {(0, 1)}
    assert moves(reference.plan_reference(BARRIER, sliding(g, down=True))[0]) == {(0, 1)}
    # A sliding turn is a best move, so choose takes it rather than the bold step forward.
    assert moves(planner.choose(BARRIER, sliding(g, down=False), False)) == {(0, -1)}


def test_a_rat_whose_genome_does_not_slide_steps_boldly():
    g = genome({1: AVOID})
    best_mask, _, bold = planner.plan(BARRIER, g)
    assert best_mask == 0
    assert moves(planner.choose(BARRIER, g, False)) == moves(bold) == {(1, -1), (1, 0), (1, 1)}


def test_slides_to_the_furthest_row_by_the_step_furthest_right():
    # Two rows up only the cell one left of the rat is open: reached through (-1, -1)
    # or (0, -1), and the step furthest right wins.
    v = view(["10111", "00011", "00011", "11111", "11111"])
    g = sliding(genome({1: AVOID}), down=False)
    assert moves(planner.plan(v, g)[0]) == {(0, -1)}
    assert moves(reference.plan_reference(v, g)[0]) == {(0, -1)}


def test_nowhere_to_slide_falls_back_to_the_bold_step():
    # At the top edge of the track, sliding up has nowhere to go.
    v = view(["-----", "-----", "00011", "00011", "00011"])
    g = sliding(genome({1: AVOID}), down=False)
    best_mask, _, bold = planner.plan(v, g)
    assert best_mask == 0
    assert moves(bold) == {(1, 0), (1, 1)}


def test_a_way_right_beats_sliding():
    v = view(["00011", "00011", "00011", "00011", "00001"])
    g = sliding(genome({1: AVOID}), down=False)
    assert moves(planner.plan(v, g)[0]) == {(0, 1)}  # toward (1, 2), the only cell right of the rat
