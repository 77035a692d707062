"""Board symmetries and position classes (plain Python, computed once per board).

Symmetries: a lattice map that sends the jump directions onto themselves and
the holes onto the holes sends every legal game onto a legal game, so a
search may treat a position and its images as one. They are found, not
listed: every integer 2x2 matrix with entries in {-1, 0, 1} and determinant
±1 that permutes the direction set, shifted so the holes land on the holes.
This covers the 8 square symmetries and the 6 of the triangular staircase.

Position classes: a jump flips three holes (from, over, to). Over GF(2) the
set of positions reachable from ``p`` lies in ``p`` plus the span of those
flip vectors, so ``start ^ target`` outside the span proves a problem
impossible before any search (the classic position-class / "rule of three"
argument, generalised to any board and jump rule).
"""

from __future__ import annotations

from itertools import product

from gridsolver.pegs.rules import Board, Cell, bit_indices, triples

Permutation = tuple[int, ...]  # bit index -> bit index (identity outside the holes)


def symmetries(board: Board) -> list[Permutation]:
    """Permutations of bit indices that preserve holes and jumps; the identity first."""
    cells = board.hole_cells()
    hole_set = set(cells)
    directions = set(board.directions)
    found: list[Permutation] = []
    seen: set[Permutation] = set()
    identity = tuple(range(board.bits))
    for a, b, c, d in product((1, 0, -1), repeat=4):
        if a * d - b * c not in (1, -1):
            continue
        if {(a * dr + b * dc, c * dr + d * dc) for dr, dc in directions} != directions:
            continue
        image = [(a * r + b * col, c * r + d * col) for r, col in cells]
        shift_r = min(r for r, _ in cells) - min(r for r, _ in image)
        shift_c = min(col for _, col in cells) - min(col for _, col in image)
        moved = [(r + shift_r, col + shift_c) for r, col in image]
        if set(moved) != hole_set:
            continue
        perm = list(identity)
        for src, dst in zip(cells, moved, strict=True):
            perm[board.index(src)] = board.index(dst)
        key = tuple(perm)
        if key not in seen:
            seen.add(key)
            found.append(key)
    found.sort(key=lambda p: p != identity)
    return found


def fixing(perms: list[Permutation], board: Board, cell: Cell) -> list[Permutation]:
    """The symmetries that leave ``cell`` where it is."""
    i = board.index(cell)
    return [p for p in perms if p[i] == i]


def transform(mask: int, perm: Permutation) -> int:
    out = 0
    for i in bit_indices(mask):
        out |= 1 << perm[i]
    return out


def canonical(mask: int, perms: list[Permutation]) -> int:
    """The smallest image of ``mask`` (as an integer) under ``perms``."""
    return min(transform(mask, p) for p in perms)


class PositionClasses:
    """Positions modulo the GF(2) span of the jump flip vectors."""

    def __init__(self, board: Board) -> None:
        self.basis: dict[int, int] = {}  # pivot bit -> vector with that highest bit
        for a, b, c in triples(board):
            self._add((1 << a) | (1 << b) | (1 << c))
        self.rank = len(self.basis)
        self.count = 2 ** (board.hole_count - self.rank)

    def _add(self, vector: int) -> None:
        vector = self.reduce(vector)
        if vector:
            self.basis[vector.bit_length() - 1] = vector

    def reduce(self, vector: int) -> int:
        """The class representative: ``vector`` with every pivot bit cleared.

        A loop, not recursion: a board with few jumps has hundreds of bits without a pivot.
        """
        kept = 0
        while vector:
            top = vector.bit_length() - 1
            pivot = self.basis.get(top)
            if pivot is None:  # no pivot here: keep this bit (pivots below it never touch it)
                kept |= 1 << top
                vector ^= 1 << top
            else:
                vector ^= pivot
        return kept

    def same_class(self, p: int, q: int) -> bool:
        return self.reduce(p ^ q) == 0
