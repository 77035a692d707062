"""What a game to be played is, as it travels to where it runs (plain types: no numba, no processes).

- :class:`GameJob`: one game for the controller, ``controller.<function>(player, *args)``,
  with the budget figures that set its limits when an isolated player plays it in a
  child process (:mod:`gridsolver.ratrace.sandbox`);
- :class:`TrackJob`: one track of a tournament, as a worker gets it
  (:mod:`gridsolver.ratrace.tournament`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from gridsolver.core.budget import Budget
from gridsolver.ratrace.guard import Guard


@dataclass(frozen=True)
class GameJob:
    """One game for a child: ``controller.<function>(player, *args)``, with the game's budget figures
    (``time_s`` sets its wall limit, ``memory_mb`` its process's memory cap; None: none given)."""

    function: str
    args: tuple[Any, ...]
    time_s: float | None = None
    memory_mb: float | None = None

    @classmethod
    def of(cls, function: str, args: tuple[Any, ...], budget: Budget | None = None) -> GameJob:
        """The job of ``controller.<function>(player, *args)`` under ``budget`` (None: no limits)."""
        if budget is None:
            return cls(function, args)
        return cls(function, args, budget.time_s, budget.memory_mb)


class TrackJob(NamedTuple):
    """What a worker gets for one track of a tournament."""

    player: Any  # a name or file spec, a Player, or a Player pickled by value (bytes)
    number: int  # the track's number in its tournament, from 1
    seed: int  # the track's seed
    turns: int
    time_s: float | None
    memory_mb: float | None
    nodes: int | None
    guard: Guard  # how a user's player is guarded
