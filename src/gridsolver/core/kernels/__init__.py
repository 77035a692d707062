"""The numba toolkit every game's kernels build on, written once.

- :mod:`.stops`: the one table of codes a kernel returns to say why it ended
  (plain integers, no numba);
- :mod:`.clock`: the monotonic clock kernels read and the one budget check
  (time, nodes, Ctrl-C) every kernel makes;
- :mod:`.arrays`: array copies as element loops (numba's slice assignment
  from an array compiles for seconds);
- :mod:`.bits`: bit tricks on 64-bit words and word arrays (popcount,
  trailing zeros, get and flip a bit);
- :mod:`.flood`: the four-way flood fill of a group of one colour on a board
  stored column by column (finding, removing and tracking groups);
- :mod:`.table`: open-addressing transposition tables on numpy arrays;
- :mod:`.random`: seeding numba's own random stream;
- :mod:`.watch`: what kernels write for a status line while they run (the
  best score, a bound), read by :mod:`gridsolver.core.live`.

This package imports nothing; its modules other than :mod:`.stops` import
numba, so import them only from kernel modules.
"""
