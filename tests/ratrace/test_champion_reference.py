"""The champion's kernel and its plain-Python reference agree, on hand-made and many random views."""

from __future__ import annotations

import numpy as np

from gridsolver.ratrace import reference
from gridsolver.ratrace.kernels import planner
from tests.ratrace.test_champion import AVOID, genome, moves, teleport, trusting, view


def test_standing_still_on_a_teleporter_it_landed_on_jumps_again():
    # Colour 3 at (-1, 0) jumps (1, -2): the rat lands on the colour-4 teleporter at (0, -2),
    # and standing still there jumps (2, 0) to the far column (the rules teleport a rat that
    # stays on a teleporter cell). Everything else is "never step". Both landings are on the
    # view's border, so the genome trusts the border (bit 98).
    v = view(["11410", "11111", "13011", "11111", "11111"])
    g = trusting(genome({1: AVOID, 3: teleport(1, -2), 4: teleport(2, 0)}))
    assert moves(planner.plan(v, g)[0]) == {(-1, 0)}
    assert moves(reference.plan_reference(v, g)[0]) == {(-1, 0)}


def test_kernel_matches_the_reference_on_many_random_views():
    # Random views with many teleporters and track edges: hypothesis' few hundred examples
    # missed a teleporter landing on a teleporter, which these find.
    rng = np.random.default_rng(2026)
    for _ in range(3000):
        v = rng.integers(0, 16, size=(5, 5)).astype(np.int64)
        v[rng.random((5, 5)) < 0.4] = 3  # often a teleporter, so that landings meet teleporters
        edge = rng.integers(0, 3)
        if edge:
            v[:edge] = -1
        g = rng.integers(0, 2**63, size=2, dtype=np.int64).astype(np.uint64)
        jump = (int(rng.integers(1, 3)), int(rng.integers(-4, 4)))
        g = planner.with_belief(g, 3, teleport(*jump))  # colour 3 is believed a teleporter
        assert planner.plan(v, g) == reference.plan_reference(v, g), (v.tolist(), g.tolist())
