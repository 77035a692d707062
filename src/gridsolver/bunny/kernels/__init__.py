"""numba kernels of the exact search, one module per algorithm.

- :mod:`.library`: the fragment library: behaviours hashed and stored once
  (visited rows pooled), the builders of a level's loops and sequences;
- :mod:`.enumeration`: the top-level search, programs one to three tokens
  past the library from the start state, and the solutions it records;
- :mod:`.orbit`: stored entries run from one state (a final loop until its
  orbit closes) and the cycle structure of a behaviour's end states;
- :mod:`.budget`: the budget check the builders and searches make.

Stop codes are core's (:mod:`gridsolver.core.kernels.stops`). This package
imports nothing; its modules import numba, so import them only inside
commands. The plain-Python reference is :mod:`gridsolver.bunny.reference`.
"""
