"""The rat race's numba kernels, one module per algorithm.

- :mod:`.splitmix`: the controller's random stream (splitmix64 on a one-word
  state array) and the seeding of numba's own generator, the players' stream;
- :mod:`.breed`: the genetic algorithm's step: parents drawn by fitness,
  crossover and mutation of ten children a turn, and growing the population;
- :mod:`.simulate`: the game itself: the whole game loop with a numba player
  compiled in, and the per-turn kernels numpy and Python players play with;
- :mod:`.planner`: the ``champion`` player's decision rule: its genome read
  as beliefs about colours, and a breadth-first search over the rat's view.

This package imports nothing; its modules import numba, so they are imported
only where a game runs.
"""
