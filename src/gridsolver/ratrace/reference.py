"""The plain-Python references the numba kernels are tested against.

The whole game, rat by rat, straight from the spec (:class:`ReferenceGame`):
same rules (:func:`gridsolver.ratrace.rules.step` for every move instead of
the transition table), same controller generator, same order of random draws.
It is far too slow for real games (tens of microseconds per rat-move).
Players here are plain Python players: ``player(view, genome) -> (dx, dy)``
with ``view[dy + 2][dx + 2]`` and the genome as a 100-bit int.

The champion's decision rule (:func:`plan_reference`, :func:`classify_reference`):
the same move masks as :mod:`gridsolver.ratrace.kernels.planner`, written
differently (sets and dictionaries instead of bitboards), for the tests and
for reading.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable

import numpy as np

from gridsolver.ratrace.beliefs import (
    BITS_PER_COLOUR,
    KIND_AVOID,
    KIND_PLAIN,
    KIND_TELEPORT,
    KIND_TRAP,
    TRAP_OFFSETS,
)
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


# -- the champion's decision rule ----------------------------------------------------------------
Cell = tuple[int, int]  # (row, column) in the view: row = dy + 2, column = dx + 2


def classify_reference(genome_bits: int, colour: int) -> tuple[int, int, int]:
    """:func:`~gridsolver.ratrace.kernels.planner.classify` of ``colour``'s chunk, with the genome as
    one Python int."""
    code = (genome_bits >> (BITS_PER_COLOUR * colour)) & 63
    # Syndrome bit j is the parity of the code bits whose PARITY_CHECK column has bit j set.
    rows = (0b011001, 0b101010, 0b110100)
    kind = sum((bin(code & row).count("1") % 2) << j for j, row in enumerate(rows))
    param = code >> 3
    if kind == 0:
        return KIND_AVOID, 0, 0
    if kind in (5, 6):
        return KIND_TELEPORT, kind - 4, param - 4
    if kind == 7:
        dx, dy = TRAP_OFFSETS[param]
        return KIND_TRAP, dx, dy
    return KIND_PLAIN, 0, 0


def plan_reference(view: np.ndarray, genome: np.ndarray,
                   decode: np.ndarray | None = None) -> tuple[int, int, int]:
    """Same result as :func:`~gridsolver.ratrace.kernels.planner.plan` (``decode`` given: as
    :func:`~gridsolver.ratrace.kernels.planner.plan_decoded` with that table)."""
    bits = int(genome[0]) | (int(genome[1]) << 64)
    cells = [(r, k) for r in range(5) for k in range(5)]
    centre = (2, 2)
    lethal: set[Cell] = set()
    avoid: set[Cell] = set()
    jump: dict[Cell, tuple[int, int]] = {}
    for r, k in cells:
        colour = int(view[r, k])
        if colour < 0:
            lethal.add((r, k))
            continue
        if decode is None:
            kind, dx, dy = classify_reference(bits, colour)
        else:
            kind, dx, dy = (int(x) for x in decode[(bits >> (BITS_PER_COLOUR * colour)) & 63])
        if kind == KIND_AVOID:
            avoid.add((r, k))
        elif kind == KIND_TRAP:
            lethal.add((r + dy, k + dx))
        elif kind == KIND_TELEPORT:
            jump[(r, k)] = (dx, dy)
    lethal.discard(centre)
    trusts_border = bool((bits >> 98) & 1)

    def row_outside(dy: int) -> bool:
        edge = [d for d in (1, 2) if int(view[2 - d if dy < 0 else 2 + d, 2]) < 0]
        return bool(edge) and dy != 0 and abs(dy) >= edge[0]

    def bit(a: int, b: int) -> int:
        return 1 << ((a + 1) * 3 + b + 1)

    safe, bold = bit(0, 0), 0
    distance = {centre: 0}
    firsts: dict[Cell, int] = {centre: 0}
    layer = [centre]
    while layer:
        found: dict[Cell, int] = {}
        for u in layer:
            for a in (-1, 0, 1):
                for b in (-1, 0, 1):
                    p = (u[0] + a, u[1] + b)
                    # Standing still on a teleporter cell (one the rat landed on) jumps again.
                    if (a, b) == (0, 0) and u == centre or p not in set(cells) or p in lethal:
                        continue
                    label = bit(a, b) if u == centre else firsts[u]
                    landing = p
                    if p in jump:
                        landing = (p[0] + jump[p][1], p[1] + jump[p][0])
                        if landing not in set(cells):
                            if u == centre and not row_outside(landing[0] - 2):
                                bold |= label
                            continue
                        if landing in lethal or landing in avoid:
                            continue
                        if not trusts_border and (landing[0] in (0, 4) or landing[1] in (0, 4)):
                            if u == centre:
                                bold |= label  # unchecked, like a landing out of view
                            continue
                    if u == centre:
                        bold |= label
                    if p in avoid:
                        continue
                    if u == centre:
                        safe |= label
                    if landing not in distance:
                        found[landing] = found.get(landing, 0) | label
        for cell, label in found.items():
            distance[cell] = distance[layer[0]] + 1
            firsts[cell] = label
        layer = list(found)
    reached = [c for c in distance if c != centre]
    best = 0
    if reached and max(c[1] for c in reached) > 2:
        right = max(c[1] for c in reached)
        nearest = min(distance[c] for c in reached if c[1] == right)
        for c in reached:
            if c[1] == right and distance[c] == nearest:
                best |= firsts[c]
        best = _furthest_right_reference(best)
    direction = 1 if (bits >> 96) & 1 else -1
    rises = {c: (c[0] - 2) * direction for c in reached}
    if not best and (bits >> 97) & 1 and rises and max(rises.values()) > 0:
        top = max(rises.values())
        nearest = min(distance[c] for c in reached if rises[c] == top)
        for c in reached:
            if rises[c] == top and distance[c] == nearest:
                best |= firsts[c]
        best = _furthest_right_reference(best)
    return best, safe, _furthest_right_reference(bold)


def _furthest_right_reference(mask: int) -> int:
    for dx in (1, 0, -1):
        part = sum(1 << ((dy + 1) * 3 + dx + 1) for dy in (-1, 0, 1)) & mask
        if part:
            return part
    return mask
