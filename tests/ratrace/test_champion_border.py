"""The champion distrusts teleporter landings on the view's border unless genome bit 98 trusts them.

A trap just outside the view can make a landing on the border lethal, and no belief can show
it, so such a landing is unchecked (a bold step only, like a landing out of view).
"""

from __future__ import annotations

from gridsolver.ratrace import reference
from gridsolver.ratrace.kernels import planner
from tests.ratrace.test_champion import AVOID, genome, moves, teleport, trusting, view

# Colour 3 at (1, 0) jumps (1, 0): it lands at (2, 0), on the view's right border.
# Everything but the rat's own cell, the teleporter and its landing is "never step".
TO_BORDER = view(["11111", "11111", "11030", "11111", "11111"])
JUMP_TO_BORDER = genome({1: AVOID, 3: teleport(1, 0)})


def test_a_landing_on_the_border_is_only_a_bold_step():
    best_mask, safe_mask, bold = planner.plan(TO_BORDER, JUMP_TO_BORDER)
    assert (1, 0) not in moves(best_mask)
    assert (1, 0) not in moves(safe_mask)
    assert (1, 0) in moves(bold)
    assert reference.plan_reference(TO_BORDER, JUMP_TO_BORDER) == (best_mask, safe_mask, bold)


def test_a_genome_that_trusts_the_border_plans_through_the_teleporter():
    g = trusting(JUMP_TO_BORDER)
    best_mask, safe_mask, _ = planner.plan(TO_BORDER, g)
    assert moves(best_mask) == {(1, 0)}
    assert (1, 0) in moves(safe_mask)
    assert reference.plan_reference(TO_BORDER, g) == planner.plan(TO_BORDER, g)


def test_an_inner_landing_needs_no_trust():
    # Colour 3 at (0, -1) jumps (1, 1): it lands at (1, 0), an inner cell of the view.
    v = view(["00000", "00300", "00000", "00000", "00000"])
    g = genome({3: teleport(1, 1)})
    assert (0, -1) in moves(planner.plan(v, g)[1])  # safe with or without bit 98
    assert (0, -1) in moves(planner.plan(v, trusting(g))[1])


def test_a_lethal_border_landing_is_not_even_bold():
    # The border landing is a "never step" cell: surely bad, so no step at all takes it.
    v = view(["11111", "11111", "11031", "11111", "11111"])
    _, safe_mask, bold = planner.plan(v, JUMP_TO_BORDER)
    assert (1, 0) not in moves(bold)
    assert (1, 0) not in moves(safe_mask)
