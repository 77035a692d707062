"""numba kernels for Clickomania: the board engine and the searches for the fewest cells left.

Kernel board layout: a flat ``int8`` array of ``width * height`` cells, column
by column, each column bottom-up: cell ``c * height + h`` is column ``c`` at
height ``h`` (0 = bottom). Empty cells are -1. A settled board has every
column packed from the bottom and every non-empty column packed to the left,
so equal positions have equal arrays (and equal hashes).

A move is the index of the canonical cell of a group: the lowest cell of its
leftmost column, which is the first cell of the group in scan order.

Every search loop lives inside a kernel and checks the monotonic clock every
few hundred nodes. The modules, each importing only the ones above it:

- :mod:`.groups`: layout conversions, Zobrist keys, group finding, removal
  and settling, move lists, colour counts (the board engine);
- :mod:`.playout`: the random tabu-colour playout (Clickomania's first
  answer);
- :mod:`.exact`: the exhaustive branch and bound for the fewest cells left,
  its transposition table and the clearing ranking it orders children by;
- :mod:`.beam`: the anytime beam search for the fewest cells left, with
  exact endgames, and its parts (next beam, path tracing).

This package imports nothing; its modules import numba, so import them only
inside commands.
"""
