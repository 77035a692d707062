"""numba kernels of SameGame's searches, on top of :mod:`gridsolver.clickomania.kernels`.

- :mod:`.tracking`: the list of groups of two or more cells kept up to date
  through each move's dirty zone (what the NRPA playouts choose from);
- :mod:`.nmcs`: nested Monte-Carlo search (levels 0-2);
- :mod:`.nrpa`: nested rollout policy adaptation: policy playouts, move
  codes, adaptation and the unrolled search with its resumable state;
- :mod:`.endgame`: the exact value and best line of an ending (memoised
  exhaustive search).

The beam searches (``--method beam``, ``mcbeam``) are Clickomania's beam
kernel with its scoring objective (:mod:`gridsolver.clickomania.kernels.beam`).
This package imports nothing; its modules import numba, so import them only
inside commands.
"""
