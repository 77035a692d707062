"""Fewest moves by meeting in the middle: the plain-Python side (no numba here).

The search itself runs in :mod:`gridsolver.pegs.meet`; this module builds
its arrays, drives it one layer at a time, and rebuilds a game through the
meeting position from the two sides' sets (see that module for why the
first meeting proves the minimum).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from gridsolver.core.budget import Budget
from gridsolver.pegs.geometry import Permutation, symmetries, transform
from gridsolver.pegs.rules import Board, Cell, Jump, bit_indices, triples

BYTES_PER_SLOT = 8 + 1 + 8  # key, level, and (at most) one entry of the layer order per slot


def fits(board: Board) -> bool:
    """True when the holes can be numbered within one 64-bit word (the kernels need that)."""
    return board.hole_count <= 64


class Dense:
    """The holes numbered 0, 1, ... row by row, so a board of up to 64 holes fits one word.

    The kernels and the game rebuilding work in this numbering; ``mask`` and
    ``cell`` translate to and from the board's own.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.bits = list(bit_indices(board.holes))
        self.number = {bit: k for k, bit in enumerate(self.bits)}

    def mask(self, board_mask: int) -> int:
        """A board bit mask in the dense numbering."""
        return sum(1 << self.number[i] for i in bit_indices(board_mask))

    def cell(self, k: int) -> Cell:
        return self.board.cell(self.bits[k])

    def triples(self) -> list[tuple[int, int, int]]:
        return [(self.number[a], self.number[b], self.number[c]) for a, b, c in triples(self.board)]

    def group(self, finish: Cell | None) -> list[Permutation]:
        """Symmetries fixing the start position and the finish hole (the identity first)."""
        board = self.board
        perms = [p for p in symmetries(board) if transform(board.pegs, p) == board.pegs]
        if finish is not None:
            i = board.index(finish)
            perms = [p for p in perms if p[i] == i]
        return [tuple(self.number[p[bit]] for bit in self.bits) for p in perms]


def adjacency(dense: Dense) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Jumps grouped by from-hole: ``start[a]:start[a+1]`` index ``over`` and ``to``."""
    by_from: list[list[tuple[int, int]]] = [[] for _ in range(64)]
    for a, b, c in dense.triples():
        by_from[a].append((b, c))
    start = np.zeros(65, dtype=np.int64)
    over, to = [], []
    for a in range(64):
        start[a + 1] = start[a] + len(by_from[a])
        for b, c in by_from[a]:
            over.append(b)
            to.append(c)
    return start, np.array(over, dtype=np.int64), np.array(to, dtype=np.int64)


def byte_images(perms: list[Permutation]) -> np.ndarray:
    """``out[s, k, v]``: the image under ``perms[s]`` of byte value ``v`` placed at byte ``k``."""
    out = np.zeros((len(perms), 8, 256), dtype=np.uint64)
    for s, perm in enumerate(perms):
        full = list(perm) + list(range(len(perm), 64))  # holes past the last are never set
        for k in range(8):
            for v in range(256):
                out[s, k, v] = sum(1 << full[8 * k + i] for i in range(8) if v >> i & 1)
    return out


def canonical(mask: int, perms: list[Permutation]) -> int:
    """The smallest image (the kernel's canonical form: identity included)."""
    return min(transform(mask, p) for p in perms)


BitJump = tuple[int, int]  # (from bit, to bit)


def chains(pegs: int, adj: dict[int, list[BitJump]], reverse: bool) -> Iterator[tuple[int, list[BitJump]]]:
    """Every position one move away, with that move's jumps as bit pairs (from, to).

    ``reverse``: one reverse move (a chain of unjumps by one peg); the pairs
    are then the forward jumps, in forward order, that undo it.
    """
    def walk(q: int, a: int, path: list) -> Iterator[tuple[int, list]]:
        for b, c in adj.get(a, []):
            if q >> c & 1 or (q >> b & 1) == reverse:
                continue
            child = q ^ (1 << a) ^ (1 << b) ^ (1 << c)
            step = path + [(c, a) if reverse else (a, c)]
            yield child, (step[::-1] if reverse else step)
            yield from walk(child, c, step)

    for a in bit_indices(pegs):
        yield from walk(pegs, a, [])


@dataclass
class Side:
    """One direction of the search: its hash set and the positions in the order found."""

    slots: int
    keys: np.ndarray = field(init=False)
    levels: np.ndarray = field(init=False)
    order: np.ndarray = field(init=False)
    bounds: list[int] = field(default_factory=lambda: [0])  # order[bounds[k]:bounds[k+1]] = layer k

    def __post_init__(self) -> None:
        self.keys = np.zeros(self.slots, dtype=np.uint64)
        self.levels = np.zeros(self.slots, dtype=np.int8)
        self.order = np.zeros(int(self.slots * 0.6) + 1, dtype=np.uint64)

    @property
    def depth(self) -> int:
        return len(self.bounds) - 2

    def layer_size(self) -> int:
        return self.bounds[-1] - self.bounds[-2]

    def level(self, canon: int) -> int:
        from gridsolver.pegs import meet

        return int(meet.level_of(self.keys, self.levels, np.uint64(canon)))


class MeetSearch:
    """Fewest moves from ``board`` to one peg (at ``finish`` when given), both ends at once."""

    def __init__(self, board: Board, finish: Cell | None, budget: Budget) -> None:
        self.board = board
        self.finish = finish
        self.budget = budget
        self.dense = Dense(board)
        self.perms = self.dense.group(finish)
        self.images = byte_images(self.perms)
        self.adj_arrays = adjacency(self.dense)
        self.adj: dict[int, list[tuple[int, int]]] = {}
        for a, b, c in self.dense.triples():
            self.adj.setdefault(a, []).append((b, c))
        # a side never holds more than the 2^holes positions: small boards get small tables
        slots = budget.table_slots(BYTES_PER_SLOT, share=0.4, maximum=1 << min(31, board.hole_count + 1))
        self.forward = Side(slots)
        self.backward = Side(slots)
        self.nodes = 0

    def run(self) -> tuple[int, int | None, int | None]:
        """(kernel code, moves, meeting position). FOUND gives the minimum; EXHAUSTED: impossible."""
        from gridsolver.pegs import meet

        f, b = self.forward, self.backward
        self.start = self.dense.mask(self.board.pegs)
        start = canonical(self.start, self.perms)
        f.bounds.append(meet.add_start(f.keys, f.levels, f.order, 0, np.uint64(start)))
        holes = len(self.dense.bits)
        ends = [1 << self.dense.number[self.board.index(self.finish)]] if self.finish else [
            1 << k for k in range(holes)]
        count = 0
        for end in ends:
            count = meet.add_start(b.keys, b.levels, b.order, count, np.uint64(canonical(end, self.perms)))
        b.bounds.append(count)
        if b.level(start) >= 0:
            return meet.FOUND, 0, start
        stats = np.zeros(4, dtype=np.int64)
        meeting = np.zeros(1, dtype=np.uint64)
        adj_start, adj_over, adj_to = self.adj_arrays
        while True:
            # grow the side whose last layer is smaller: the cheaper way to add one move
            side, other = (f, b) if f.layer_size() <= b.layer_size() else (b, f)
            level = side.depth + 1
            code = meet.expand(side.order, side.bounds[-2], side.bounds[-1], adj_start, adj_over, adj_to,
                               self.images, side is b, side.keys, side.levels, level, other.keys,
                               other.levels, self.budget.node_limit(), self.budget.deadline_ns(), stats,
                               meeting)
            self.nodes = int(stats[0])
            if code == meet.FOUND:
                return code, level + int(stats[2]), int(meeting[0])
            if code != meet.EXHAUSTED:
                return code, None, None
            side.bounds.append(int(stats[3]))
            if side.layer_size() == 0:
                return meet.EXHAUSTED, None, None

    def proved_insufficient(self) -> int:
        """Moves proved too few so far: the two sides' depths (their sets are disjoint)."""
        return self.forward.depth + self.backward.depth

    def path(self, meeting: int) -> list[Jump]:
        """A game through ``meeting`` with as many moves as its two levels add up to."""
        jumps: list[tuple[int, int]] = []
        here = meeting
        for level in range(self.forward.level(meeting), 0, -1):
            here, move = self._step(here, self.forward, level - 1, reverse=True)
            jumps[:0] = move
        # the forward half starts at an image of the start under a symmetry fixing the start: itself
        assert here == self.start
        here = meeting
        for level in range(self.backward.level(meeting), 0, -1):
            here, move = self._step(here, self.backward, level - 1, reverse=False)
            jumps += move
        return [(self.dense.cell(a), self.dense.cell(c)) for a, c in jumps]

    def _step(self, here: int, side: Side, level: int, reverse: bool) -> tuple[int, list]:
        for child, move in chains(here, self.adj, reverse):
            if side.level(canonical(child, self.perms)) == level:
                return child, move
        raise AssertionError("a position in the search sets has no neighbour one layer closer")
