"""numba kernels for Clickomania (and the rules' kernels SameGame's searches build on).

Kernel board layout: a flat ``int8`` array of ``width * height`` cells, column
by column, each column bottom-up: cell ``c * height + h`` is column ``c`` at
height ``h`` (0 = bottom). Empty cells are -1. A settled board has every
column packed from the bottom and every non-empty column packed to the left,
so equal positions have equal arrays (and equal hashes).

A move is the index of the canonical cell of a group: the lowest cell of its
leftmost column, which is the first cell of the group in scan order.

Every search loop lives inside a kernel and checks the monotonic clock every
few hundred nodes. The modules, each importing only the ones above it:

- :mod:`.arrays`: array copies as element loops (numba's slice assignment
  from an array compiles for seconds in every kernel that has one);
- :mod:`.groups`: layout conversions, Zobrist keys and hash tables, group
  finding, removal and settling, move lists, colour counts;
- :mod:`.playout`: SameGame's points at a game's end and the random
  tabu-colour playout (Clickomania's first answer, the Monte-Carlo beam's
  ranking and the playouts of :mod:`gridsolver.samegame.kernels.nmcs`);
- :mod:`.exact`: the exhaustive branch and bound for the fewest cells left,
  its transposition table and the clearing ranking it orders children by;
- :mod:`.beam`: the anytime beam search (clearing, with exact endgames, or
  scoring, ranked by a heuristic or by playouts).

This package imports nothing; its modules import numba, so import them only
inside commands. SameGame's own searches live in :mod:`gridsolver.samegame.kernels`.
"""
