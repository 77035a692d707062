"""Fewest moves by meeting in the middle: the plain-Python side (no numba here).

The search itself runs in :mod:`gridsolver.pegs.kernels.meet`; this module builds
its arrays, drives it one layer at a time, and rebuilds a game through the
meeting position from the two sides' sets (see that module for why the
first meeting proves the minimum).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from gridsolver.core.budget import Budget
from gridsolver.core.kernels.stops import EXHAUSTED, FOUND, OUT_OF_MEMORY, OUT_OF_TIME
from gridsolver.pegs.geometry import Permutation, symmetries, transform
from gridsolver.pegs.rules import Board, Cell, Jump, bit_indices, triples

#: A side's set is grown (or the search stops out of memory) past this load: kernels.meet.MAX_LOAD,
#: repeated here because that module imports numba (a test checks the two agree).
MAX_LOAD = 0.6
#: Per slot: key and level, and the layer order's 0.6 entries of 8 bytes; 17 also covers growing,
#: when the new set and order (9 + 4.8 per new slot) sit beside the old order (2.4).
BYTES_PER_SLOT = 8 + 1 + 8
#: A side's set starts this small and doubles as it fills, up to its share of the budget (at least
#: 128: the backward side starts with up to 64 positions, one per finish hole, before it can grow).
FIRST_SLOTS = 1 << 14


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
    """One direction of the search: its hash set and the positions in the order found.

    The set starts at ``slots`` and doubles (see :meth:`grow`) up to
    ``max_slots``, so memory follows the positions met: a budget sized for the
    whole search costs nothing until the search gets there.
    """

    slots: int
    max_slots: int = 0  # 0: ``slots``, a set that never grows
    keys: np.ndarray = field(init=False)
    levels: np.ndarray = field(init=False)
    order: np.ndarray = field(init=False)
    bounds: list[int] = field(default_factory=lambda: [0])  # order[bounds[k]:bounds[k+1]] = layer k

    def __post_init__(self) -> None:
        self.max_slots = max(self.max_slots, self.slots)
        self.keys = np.zeros(self.slots, dtype=np.uint64)
        self.levels = np.zeros(self.slots, dtype=np.int8)
        self.order = np.zeros(order_length(self.slots), dtype=np.uint64)

    @property
    def depth(self) -> int:
        return len(self.bounds) - 2

    def layer_size(self) -> int:
        return self.bounds[-1] - self.bounds[-2]

    def level(self, canon: int) -> int:
        from gridsolver.pegs.kernels import meet as meet_kernels

        return int(meet_kernels.level_of(self.keys, self.levels, np.uint64(canon)))

    def can_grow(self) -> bool:
        return self.slots < self.max_slots

    def grow(self, count: int, deadline_ns: int) -> bool:
        """Twice the slots, the set made again from ``order[:count]`` (the positions past the
        last bound being the layer under way); False if the deadline passed meanwhile.

        The old set goes before the new one is made (the order has every position), so
        growing never holds both sets at once.
        """
        from gridsolver.pegs.kernels import meet as meet_kernels

        self.slots = min(2 * self.slots, self.max_slots)
        del self.keys, self.levels
        self.keys = np.zeros(self.slots, dtype=np.uint64)
        self.levels = np.zeros(self.slots, dtype=np.int8)
        order = np.zeros(order_length(self.slots), dtype=np.uint64)
        order[:count] = self.order[:count]
        self.order = order
        bounds = np.array(self.bounds, dtype=np.int64)
        return bool(meet_kernels.refill(self.order, count, bounds, self.keys, self.levels, deadline_ns))


MASK64 = (1 << 64) - 1


def mix(p: int) -> int:
    """The kernels' home hash of a position (kernels.bitboard.mix), on Python ints."""
    x = (p + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def refilled(order: list[int], count: int, bounds: list[int], slots: int) -> tuple[list[int], list[int]]:
    """Plain-Python reference for kernels.meet.refill: the (keys, levels) of a set of ``slots`` slots
    holding ``order[:count]``, layer ``k`` being ``order[bounds[k]:bounds[k + 1]]`` (the last
    running to ``count``), placed by the same linear probing."""
    keys, levels = [0] * slots, [0] * slots
    ends = [*bounds[1:], count]
    for level, (lo, hi) in enumerate(zip(bounds, ends, strict=True)):
        for p in order[lo:hi]:
            slot = mix(p) & (slots - 1)
            while keys[slot] not in (0, p):
                slot = (slot + 1) & (slots - 1)
            keys[slot], levels[slot] = p, level
    return keys, levels


def order_length(slots: int) -> int:
    """Room in a side's order for every position its set of ``slots`` may hold."""
    return int(slots * MAX_LOAD) + 1


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
        most = budget.table_slots(BYTES_PER_SLOT, share=0.4, maximum=1 << min(31, board.hole_count + 1))
        self.forward = Side(min(FIRST_SLOTS, most), most)
        self.backward = Side(min(FIRST_SLOTS, most), most)
        self.nodes = 0

    def run(self) -> tuple[int, int | None, int | None]:
        """(kernel code, moves, meeting position). FOUND gives the minimum; EXHAUSTED: impossible."""
        from gridsolver.pegs.kernels import meet as meet_kernels

        f, b = self.forward, self.backward
        self.start = self.dense.mask(self.board.pegs)
        start = canonical(self.start, self.perms)
        f.bounds.append(meet_kernels.add_start(f.keys, f.levels, f.order, 0, np.uint64(start)))
        holes = len(self.dense.bits)
        ends = [1 << self.dense.number[self.board.index(self.finish)]] if self.finish else [
            1 << k for k in range(holes)]
        count = 0
        for end in ends:
            canon = np.uint64(canonical(end, self.perms))
            count = meet_kernels.add_start(b.keys, b.levels, b.order, count, canon)
        b.bounds.append(count)
        if b.level(start) >= 0:
            return FOUND, 0, start
        stats = np.zeros(4, dtype=np.int64)
        meeting = np.zeros(1, dtype=np.uint64)
        while True:
            # grow the side whose last layer is smaller: the cheaper way to add one move
            side, other = (f, b) if f.layer_size() <= b.layer_size() else (b, f)
            level = side.depth + 1
            code = self._layer(side, other, stats, meeting)
            self.nodes = int(stats[0])
            if code == FOUND:
                return code, level + int(stats[2]), int(meeting[0])
            if code != EXHAUSTED:
                return code, None, None
            side.bounds.append(int(stats[3]))
            if side.layer_size() == 0:
                return EXHAUSTED, None, None

    def _layer(self, side: Side, other: Side, stats: np.ndarray, meeting: np.ndarray) -> int:
        """Expand ``side`` by one layer, growing its set as it fills; the kernel's code."""
        from gridsolver.pegs.kernels import meet as meet_kernels

        chains = meet_kernels.Chains(*self.adj_arrays)
        theirs = meet_kernels.Reached(other.keys, other.levels)
        lo, count = side.bounds[-2], side.bounds[-1]
        while True:
            mine = meet_kernels.Reached(side.keys, side.levels)  # new arrays each time the set grows
            code = meet_kernels.expand_from(side.order, lo, side.bounds[-1], count, chains, self.images,
                                            side is self.backward, mine, side.depth + 1, theirs,
                                            self.budget.node_limit(), self.budget.deadline_ns(), stats,
                                            meeting)
            if code != OUT_OF_MEMORY or not side.can_grow():
                return int(code)
            lo, count = int(stats[1]), int(stats[3])  # go on from where the full set stopped
            if not side.grow(count, self.budget.deadline_ns()):
                return OUT_OF_TIME

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
