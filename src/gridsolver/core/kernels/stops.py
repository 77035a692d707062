"""The one table of codes a kernel returns to say why it ended.

Every game's kernels return these, so a code means the same thing wherever
it is read: 0 and 1 are the two ordinary endings, 2-4 are the budget stops
that :mod:`gridsolver.core.budget` turns into ``Result.stopped`` words, and
the codes from 5 up are the few ways a particular search can end early.
This module holds plain integers and imports nothing, so light modules can
read it without importing numba.
"""

from __future__ import annotations

#: the search space is exhausted (every node below the root was searched)
EXHAUSTED = 0
#: the search found what it was asked for and stopped there
FOUND = 1
#: the deadline passed (or Ctrl-C was pressed: :func:`.clock.budget_check`)
OUT_OF_TIME = 2
#: the node budget is spent
OUT_OF_NODES = 3
#: a table or a buffer reached the memory budget
OUT_OF_MEMORY = 4
#: a transposition table is full at its current size and asks to grow
TABLE_FULL = 5
#: the position was proved to have no solution of the asked kind
DOOMED = 6
#: a library of fragments reached its size and asks for more room
LIBRARY_FULL = 7
#: code run inside the kernel (a rat race player) returned something that is not a legal move
ILLEGAL_MOVE = 8

#: the codes that mean "the budget ran out", with the ``Result.stopped`` word of each
BUDGET_STOPS = {OUT_OF_TIME: "time", OUT_OF_NODES: "nodes", OUT_OF_MEMORY: "memory"}
