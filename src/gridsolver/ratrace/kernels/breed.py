"""The genetic algorithm's step in numba: ten children a turn, and room for them.

After the moves of a turn, the first ``n`` rats of the population (the
survivors, in turn order) breed ten children: each has two different
parents drawn with probability proportional to fitness (``1 + x + 50 x
goals``), a genome copied from one parent that switches to the other before
each later bit with probability 0.05, then each bit flipped with probability
0.01, and a random start cell. Draws come from the controller's stream
(:mod:`.splitmix`) in the order of :func:`gridsolver.ratrace.reference.breed`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.core.kernels.arrays import copy_prefix, copy_rows
from gridsolver.ratrace.kernels.splitmix import below, uniform
from gridsolver.ratrace.population import Population
from gridsolver.ratrace.rules import CROSSOVER_SWITCH, GENOME_BITS, GOAL_POINTS_FITNESS, MUTATION, NEWBORNS


@njit(cache=True)
def pick_parent(fitness, n, total, rng, other):
    """A rat among the first n with probability proportional to fitness, not ``other``."""
    while True:
        r = below(rng, total)
        lo, hi = 0, n - 1
        while lo < hi:  # first j with fitness[j] > r (fitness holds running sums)
            mid = (lo + hi) >> 1
            if fitness[mid] > r:
                hi = mid
            else:
                lo = mid + 1
        if lo != other:
            return lo


@njit(cache=True)
def breed(rats, fitness, n, width, start_cells, rng):
    """Append ten children of the first n rats (capacity must allow n + 10); ``fitness`` is scratch."""
    cells, ages, goals, genomes = rats
    total = np.int64(0)  # np.int64: from a literal 0 numba compiles what it is passed to once more
    for j in range(n):
        total += 1 + cells[j] % width + GOAL_POINTS_FITNESS * goals[j]
        fitness[j] = total
    one = np.uint64(1)
    for k in range(NEWBORNS):
        a = pick_parent(fitness, n, total, rng, np.int64(-1))
        b = pick_parent(fitness, n, total, rng, a)
        source = a if below(rng, 2) == 0 else b
        word0 = np.uint64(0)
        word1 = np.uint64(0)
        for bit in range(GENOME_BITS):
            if bit > 0 and uniform(rng) < CROSSOVER_SWITCH:
                source = b if source == a else a
            value = (genomes[source, bit >> 6] >> np.uint64(bit & 63)) & one
            if bit < 64:
                word0 |= value << np.uint64(bit)
            else:
                word1 |= value << np.uint64(bit - 64)
        for bit in range(GENOME_BITS):
            if uniform(rng) < MUTATION:
                if bit < 64:
                    word0 ^= one << np.uint64(bit)
                else:
                    word1 ^= one << np.uint64(bit - 64)
        child = n + k
        genomes[child, 0] = word0
        genomes[child, 1] = word1
        cells[child] = start_cells[below(rng, len(start_cells))]
        ages[child] = 0
        goals[child] = 0


@njit(cache=True)
def grow(rats, n):
    """The population with twice the capacity (first n rats copied) and a fitness scratch to match."""
    capacity = 2 * len(rats.cells)
    cells = np.empty(capacity, np.int64)
    ages = np.empty(capacity, np.int64)
    goals = np.empty(capacity, np.int64)
    genomes = np.zeros((capacity, 2), np.uint64)
    copy_prefix(cells, rats.cells, n)
    copy_prefix(ages, rats.ages, n)
    copy_prefix(goals, rats.goals, n)
    copy_rows(genomes[:n], rats.genomes[:n])
    return Population(cells, ages, goals, genomes), np.empty(capacity, np.int64)
