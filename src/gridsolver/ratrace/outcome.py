"""What a game gives back: its figures (:class:`GameResult`) and, for the film, where the rats stood
(:class:`Snapshot`).

Kept apart from the controller (which imports numba) so that a process that
only receives games played elsewhere, such as the parent of an isolated
player's process, can read them without importing numba.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np


@dataclass
class GameResult:
    """The outcome of one game on one track."""

    seed: int
    player: str
    points: int
    turns: int  # turns played
    alive: int  # rats alive at the end
    peak_rats: int
    rat_moves: int
    ended: str  # finished (all turns), extinct (< 2 rats), or the budget that ran out: time, memory, nodes
    elapsed_s: float  # game loop only, wall time
    compile_s: float = 0.0
    cpu_s: float = 0.0  # game loop only, this process's CPU time (less noisy on a busy machine)
    #: final (cells, ages, goals, genomes) of the living rats, kept only when asked (tests)
    population: tuple[np.ndarray, ...] | None = field(default=None, repr=False, compare=False)

    @property
    def rat_moves_per_s(self) -> float:
        return self.rat_moves / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("population")
        data["rat_moves_per_s"] = round(self.rat_moves_per_s, 1)
        return data



@dataclass
class Snapshot:
    """Where the rats stand after a turn (turn 0: the first rats): for the replay film."""

    turn: int
    points: int
    alive: int
    counts: np.ndarray  # rats per cell (``y * width + x``)
