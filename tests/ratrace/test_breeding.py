"""Breeding: fitness 1 + x + 50 x goals, two distinct parents drawn in proportion to fitness."""

import numpy as np

from gridsolver.ratrace.kernels import breed
from gridsolver.ratrace.population import Population, Rat
from gridsolver.ratrace.reference import fitness as reference_fitness
from gridsolver.ratrace.reference import pick_parent
from gridsolver.ratrace.rng import SplitMix
from gridsolver.ratrace.rules import NEWBORNS


def test_fitness_is_1_plus_x_plus_50_per_goal():
    width = 53
    xs, ys, goals = [0, 7, 48, 3], [2, 0, 14, 5], [0, 0, 2, 1]
    capacity = len(xs) + NEWBORNS
    cells = np.zeros(capacity, np.int64)
    cells[:4] = [y * width + x for x, y in zip(xs, ys, strict=True)]
    goal_counts = np.zeros(capacity, np.int64)
    goal_counts[:4] = goals
    fitness = np.zeros(capacity, np.int64)
    rats = Population(cells, np.zeros(capacity, np.int64), goal_counts, np.zeros((capacity, 2), np.uint64))
    breed.breed(rats, fitness, 4, width, np.array([0], np.int64), np.array([3], np.uint64))
    expected = [1 + x + 50 * g for x, g in zip(xs, goals, strict=True)]
    assert np.diff(fitness[:4], prepend=0).tolist() == expected == [1, 8, 149, 54]
    assert [reference_fitness(Rat(x, y, 0, g, 0)) for x, y, g in zip(xs, ys, goals, strict=True)] == expected


def test_parents_are_distinct_and_drawn_in_proportion_to_fitness():
    weights = np.array([1, 2, 7])
    running = np.cumsum(weights)
    total = int(running[-1])
    draws = 40_000
    rng = np.array([99], np.uint64)
    pairs = np.zeros((3, 3), np.int64)
    for _ in range(draws):
        a = breed.pick_parent(running, 3, total, rng, -1)
        b = breed.pick_parent(running, 3, total, rng, a)
        pairs[a, b] += 1
    assert np.trace(pairs) == 0  # never the same rat twice
    first = weights / total
    expected = np.array([[first[i] * weights[j] / (total - weights[i]) if i != j else 0.0
                          for j in range(3)] for i in range(3)])
    assert np.abs(pairs / draws - expected).max() < 0.01  # standard errors are below 0.0025
    # the plain-Python reference draws the same parents from the same stream
    state = SplitMix(99)
    reference = [pick_parent(running.tolist(), state, -1) for _ in range(50)]
    rng = np.array([99], np.uint64)
    assert reference == [breed.pick_parent(running, 3, total, rng, -1) for _ in range(50)]
