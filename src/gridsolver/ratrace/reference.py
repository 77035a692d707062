"""The whole game in plain Python, rat by rat, straight from the spec.

This is the reference the numba kernels are tested against: same rules
(:func:`gridsolver.ratrace.rules.step` for every move instead of the
transition table), same controller generator, same order of random draws.
It is far too slow for real games (tens of microseconds per rat-move).

Players here are plain Python players: ``player(view, genome) -> (dx, dy)``
with ``view[dy + 2][dx + 2]`` and the genome as a 100-bit int.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable

from gridsolver.ratrace.population import Rat
from gridsolver.ratrace.rng import SplitMix
from gridsolver.ratrace.rules import (
    CROSSOVER_SWITCH,
    DEAD,
    GENOME_BITS,
    GOAL,
    GOAL_POINTS_FITNESS,
    LIFESPAN,
    MUTATION,
    NEWBORNS,
    Track,
    step,
)

PythonPlayer = Callable[[list[list[int]], int], tuple[int, int]]


class IllegalMoveError(ValueError):
    pass


def fitness(rat: Rat) -> int:
    return 1 + rat.x + GOAL_POINTS_FITNESS * rat.goals


def pick_parent(running: list[int], rng: SplitMix, other: int) -> int:
    """Index of a parent drawn proportionally to fitness (``running`` sums), never ``other``."""
    while True:
        chosen = bisect_right(running, rng.below(running[-1]))
        if chosen != other:
            return chosen


def crossover(rng: SplitMix, genome_a: int, genome_b: int) -> int:
    """Copy from a random parent, switching before each later bit with probability 0.05; mutate."""
    parents = (genome_a, genome_b)
    source = rng.below(2)
    child = 0
    for bit in range(GENOME_BITS):
        if bit > 0 and rng.uniform() < CROSSOVER_SWITCH:
            source ^= 1
        child |= ((parents[source] >> bit) & 1) << bit
    for bit in range(GENOME_BITS):
        if rng.uniform() < MUTATION:
            child ^= 1 << bit
    return child


def breed(rats: list[Rat], rng: SplitMix, start_cells: list[int]) -> list[Rat]:
    """Ten children of ``rats`` (all of them born before this turn's breeding)."""
    running = []
    total = 0
    for rat in rats:
        total += fitness(rat)
        running.append(total)
    children = []
    for _ in range(NEWBORNS):
        a = pick_parent(running, rng, -1)
        b = pick_parent(running, rng, a)
        genome = crossover(rng, rats[a].genome, rats[b].genome)
        y = start_cells[rng.below(len(start_cells))]
        children.append(Rat(0, y, 0, 0, genome))
    return children


class ReferenceGame:
    """A game in progress: ``turn()`` plays one turn, ``points`` is the score so far."""

    def __init__(self, track: Track, rats: list[Rat], rng: SplitMix, player: PythonPlayer) -> None:
        self.track = track
        self.rats = rats
        self.rng = rng
        self.player = player
        self.points = 1
        self.turns = 0
        self.rat_moves = 0
        self.over = False

    def turn(self) -> bool:
        """Play one turn; False once the game is over (fewer than 2 rats alive)."""
        self.turns += 1
        survivors = []
        for rat in self.rats:
            if rat.age >= LIFESPAN:  # 1. old age
                continue
            rat.age += 1
            move = self.player(self.track.view(rat.x, rat.y), rat.genome)  # 2. the player
            self.rat_moves += 1
            if len(move) != 2 or any(v not in (-1, 0, 1) for v in move):
                raise IllegalMoveError(f"illegal move {move!r} at turn {self.turns}")
            outcome, x, y = step(self.track, rat.x, rat.y, int(move[0]), int(move[1]))  # 3.-5.
            if outcome == DEAD:
                continue
            if outcome == GOAL:  # 6. score and restart
                self.points += 1
                rat.goals += 1
                x, y = 0, self.track.start_cells[self.rng.below(len(self.track.start_cells))]
                rat.age = 0
            rat.x, rat.y = x, y
            survivors.append(rat)
        self.rats = survivors
        if len(survivors) < 2:
            self.over = True
            return False
        self.rats = survivors + breed(survivors, self.rng, self.track.start_cells)
        return True

    def play(self, turns: int) -> int:
        while self.turns < turns and self.turn():
            pass
        return self.points
