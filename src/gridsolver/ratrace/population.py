"""A game's rats: the first ones, drawn from the controller's generator, and the arrays the kernels
keep them in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from gridsolver.ratrace.rng import SplitMix

FIRST_RATS = 15
HIGH_WORD_MASK = (1 << 36) - 1  # genome bits 64..99 live in the low 36 bits of word 1


@dataclass
class Rat:
    """One rat for the plain-Python reference game."""

    x: int
    y: int
    age: int
    goals: int
    genome: int  # 100 bits in a Python int


class Population(NamedTuple):
    """The rats of a game as the kernels hold them: arrays indexed by rat, in turn order.

    ``cells`` (``y * width + x``), ``ages``, ``goals`` (int64) and ``genomes``
    (two uint64 words per rat). Only the first ``n`` rats (a count kept beside
    the bundle) are alive; the rest is room for newborns. The kernels make a
    new bundle when the population outgrows it (:func:`~gridsolver.ratrace.kernels.breed.grow`).
    """

    cells: np.ndarray
    ages: np.ndarray
    goals: np.ndarray
    genomes: np.ndarray


def first_rats(rng: SplitMix, start_cells: list[int], count: int = FIRST_RATS) -> list[Rat]:
    """``count`` rats with random genomes, age 0, on random start cells (x = 0)."""
    rats = []
    for _ in range(count):
        low = rng.next()
        high = rng.next() & HIGH_WORD_MASK
        y = start_cells[rng.below(len(start_cells))]
        rats.append(Rat(0, y, 0, 0, low | high << 64))
    return rats


def to_arrays(rats: list[Rat], width: int, capacity: int = 64) -> Population:
    """The kernels' arrays of ``rats``, with spare capacity."""
    capacity = max(capacity, 2 * len(rats))
    cells = np.zeros(capacity, np.int64)
    ages = np.zeros(capacity, np.int64)
    goals = np.zeros(capacity, np.int64)
    genomes = np.zeros((capacity, 2), np.uint64)
    for i, rat in enumerate(rats):
        cells[i] = rat.y * width + rat.x
        ages[i] = rat.age
        goals[i] = rat.goals
        genomes[i, 0] = rat.genome & ((1 << 64) - 1)
        genomes[i, 1] = rat.genome >> 64
    return Population(cells, ages, goals, genomes)
