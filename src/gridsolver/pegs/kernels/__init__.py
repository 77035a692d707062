"""numba kernels of the peg solitaire searches, one module per algorithm.

- :mod:`.bitboard`: positions as arrays of 64-bit words: shifted reads, jump
  generation, peg count; one-word positions' smallest symmetric image (byte
  tables) and their slot in a hash set;
- :mod:`.stack`: the explicit stack of per-depth move lists that the
  depth-first searches walk;
- :mod:`.dfs`: depth-first search with a table of fully explored positions
  (most jumps, or one peg in a finish hole), under the board's symmetries;
- :mod:`.published`: the published comesolo method (visited hashes, one
  queue per score, biased picks);
- :mod:`.fewest_moves`: fewest moves by depth-first search within a move
  budget (iterative deepening, any board size);
- :mod:`.meet`: fewest moves by breadth-first search from both ends
  (boards of at most 64 holes);
- :mod:`.endgame`: one layer of a breadth-first search by jumps, which
  builds the finish search's endgame tables;
- :mod:`.doom`: isolated pegs and doomed pegs (those no other peg can ever
  come next to), for the beam's ranking and its early stop;
- :mod:`.beam`: beam search over jumps.

The kernels take the board's arrays and their workspaces as named bundles
(namedtuples of arrays made once in Python, see :mod:`gridsolver.pegs.layout`).
This package imports nothing; its modules import numba, so import them only
inside command functions.
"""
