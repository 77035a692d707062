"""The ``champion`` rat race player: per-colour beliefs in the genome, path search over the view.

Each colour's six genome bits say what the rats believe it is (plain, never
step, a trap and where it kills, a teleporter and where it jumps:
:mod:`gridsolver.ratrace.beliefs`); a rat searches its 5 x 5 view for the
believed-safe path furthest right and takes its first step
(:mod:`gridsolver.ratrace.kernels.planner`). With probability
:data:`WANDER` (1/24) it takes any believed-safe step instead, which breaks
the loops a memoryless rat falls into (pushing forever against a wall it
believes open). ``docs/research/ratrace.md`` tells how it was tuned
(``benchmarks/tune_ratrace_champion.py``). This module imports numba: import it
only where the game runs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.ratrace.kernels.planner import choose, draw

WANDER = 1.0 / 24  # how often a rat takes any believed-safe step instead of the best


@njit(cache=True)
def champion(view: np.ndarray, genome: np.ndarray) -> tuple[int, int]:
    """The champion's move for one rat, drawn uniformly from the mask of
    :func:`~gridsolver.ratrace.kernels.planner.choose`."""
    return draw(choose(view, genome, np.random.random() < WANDER))
