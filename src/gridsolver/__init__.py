"""gridsolver: provably best or best-known solutions to grid puzzle games.

Every game is a subpackage with the same small API (see docs/contract.md)::

    from gridsolver import bunny
    result = bunny.solve(bunny.named("07-full-12x12"), time=10)
    print(result.status, result.solution, result.verified)

and the same for :mod:`gridsolver.pegs`, :mod:`gridsolver.clickomania`,
:mod:`gridsolver.samegame` and :mod:`gridsolver.ratrace` (which also has
``ratrace.play(player, tracks=..., seed=...)``). Every result is a
:class:`Result`; every mistake in the input raises an :class:`InputError`
(a :class:`BoardError` names the file, row and column).

Importing the package is cheap: numba is only imported by the modules that
hold compiled kernels, when a search starts.
"""

from __future__ import annotations

import importlib
from typing import Any

from gridsolver.core.errors import BoardError, BudgetError, GridsolverError, InputError
from gridsolver.core.result import Result, Stats
from gridsolver.games import GAMES, game

__version__ = "0.1.0"

__all__ = ["GAMES", "BoardError", "BudgetError", "GridsolverError", "InputError", "Result", "Stats",
           "__version__", "game"]


def __getattr__(name: str) -> Any:
    """``gridsolver.bunny`` and the other games without importing them all up front."""
    if name in GAMES:
        return importlib.import_module(f"gridsolver.{name}")
    raise AttributeError(f"module 'gridsolver' has no attribute {name!r}")
