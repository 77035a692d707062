"""gridsolver: provably best or best-known solutions to grid puzzle games.

The package is split into a small shared core (:mod:`gridsolver.core`) and
one subpackage per game: :mod:`gridsolver.bunny`, :mod:`gridsolver.pegs`,
:mod:`gridsolver.clickomania` and :mod:`gridsolver.ratrace`.

Importing the package is cheap: numba is only imported by the modules that
hold compiled kernels, and those are imported when a command needs them.
"""

__version__ = "0.1.0"

GAMES = ("bunny", "pegs", "clickomania", "samegame", "ratrace")
