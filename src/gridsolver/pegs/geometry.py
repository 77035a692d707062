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

Fewest pegs: :func:`fewest_pegs_bound` turns the classes into a lower bound
on the pegs any game can leave (no reachable position has fewer pegs than
the lightest position of the start's class), per group of holes that can
never exchange pegs (see there).

Pagoda functions: :func:`pagoda_for` weighs the holes so that no jump raises
the pegs' total weight toward a finish hole (used by the finish search and,
toward the start's empty hole, by the endgame tables).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import product

import numpy as np

from gridsolver.core.words import plural
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

    def __init__(self, board: Board, jumps: list[tuple[int, int, int]] | None = None) -> None:
        """Classes under every jump of ``board``, or only under the (from, over, to) ``jumps``."""
        self.basis: dict[int, int] = {}  # pivot bit -> vector with that highest bit
        for a, b, c in triples(board) if jumps is None else jumps:
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


CLASS_SEARCH_LIMIT = 1 << 16  # class values a fewest-pegs search may visit per group of holes


@dataclass
class PegBound:
    """A proved lower bound on the pegs left at the end of any game, and why."""

    pegs: int
    groups: int  # groups of holes that never exchange pegs and hold a peg at the start
    stuck: int  # pegs that can never move nor be jumped
    proof: str
    pagoda: bool = False  # pagoda functions (linear programs) took part in the proof


def reachable_holes(board: Board) -> int:
    """Holes that may ever hold a peg (a superset): the start's pegs, then every hole a jump can land
    in from two such holes, until nothing is added."""
    reach = board.pegs
    jumps = triples(board)
    grown = True
    while grown:
        grown = False
        for a, b, c in jumps:
            if reach >> a & 1 and reach >> b & 1 and not reach >> c & 1:
                reach |= 1 << c
                grown = True
    return reach


def fewest_pegs_bound(board: Board, reach: int | None = None,
                      no_single: Callable[[list[tuple[int, int, int]], int, int], int] | None = None,
                      reach_proof: str = "") -> PegBound:
    """A lower bound on the pegs any game from ``board`` leaves.

    Only jumps from and over holes that may ever hold a peg (:func:`reachable_holes`) can ever be
    made. They split the holes into groups (two holes share a group when one such jump uses both): a
    jump moves pegs within its group only and needs two pegs there, so a group that starts with pegs
    keeps at least one, and a peg no such jump uses never leaves. Within a group the positions lie in
    the start's class modulo the group's own jumps (GF(2), as :class:`PositionClasses`), so the group
    keeps at least as many pegs as the lightest nonempty position of that class; the bound sums the
    groups. On the 41-hole diamond with its centre empty this is 2: no single peg anywhere is in the
    start's class.

    ``reach`` replaces :func:`reachable_holes` by a smaller proved superset (pagoda functions,
    :func:`gridsolver.pegs.pagoda.pagoda_bound`; ``reach_proof`` says how it was shown); a jump into
    a hole outside it never happens either. ``no_single(jumps, holes, pegs)``
    may show that a group whose class allows one peg cannot end at one peg (the number of pagodas
    that show it, else 0): the group then keeps at least two.
    """
    reach = reachable_holes(board) if reach is None else reach
    usable = [(a, b, c) for a, b, c in triples(board) if reach >> a & 1 and reach >> b & 1 and reach >> c & 1]
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b, c in usable:
        ra, rb, rc = root(a), root(b), root(c)
        parent[rb] = ra
        parent[root(rc)] = ra
    members: dict[int, int] = {}
    for i in bit_indices(board.holes):
        if i in parent:
            r = root(i)
            members[r] = members.get(r, 0) | 1 << i
    jumps_of: dict[int, list[tuple[int, int, int]]] = {}
    for jump in usable:
        jumps_of.setdefault(root(jump[0]), []).append(jump)
    stuck = sum(1 for i in bit_indices(board.pegs) if i not in parent)
    total, groups, light, by_pagoda = stuck, 0, 0, 0
    for r, holes in members.items():
        pegs = board.pegs & holes
        if not pegs:
            continue
        groups += 1
        least = _lightest_in_class(board, jumps_of[r], holes, pegs)
        light += least > 1
        if least == 1 and no_single is not None and no_single(jumps_of[r], holes, pegs):
            least, by_pagoda = 2, by_pagoda + 1
        total += least
    proof = (f"position classes: {plural(groups, 'group')} of holes that never exchange pegs"
             + (f" ({reach_proof})" if reach_proof else "")
             + (f", {plural(stuck, 'peg')} that can never move" if stuck else "")
             + (f", {plural(light, 'group')} whose start class holds no position of fewer pegs"
                if light else "")
             + (f", {plural(by_pagoda, 'group')} where pagoda functions rule out a single peg in every hole"
                if by_pagoda else "")
             + f": at least {plural(total, 'peg stays', 'pegs stay')}")
    return PegBound(total, groups, stuck, proof, pagoda=bool(reach_proof or by_pagoda))


def _lightest_in_class(board: Board, jumps: list[tuple[int, int, int]], holes: int, pegs: int) -> int:
    """Fewest pegs (at least 1) of a position on ``holes`` in the class of ``pegs`` modulo ``jumps``.

    Each hole's class value is its bitboard reduced by the basis; a position's value is the XOR of
    its holes' values. The fewest holes whose values XOR to the start's is a breadth-first search over
    class values, each step adding one distinct value (using a value twice cancels it, so a shortest
    path never does). A search past CLASS_SEARCH_LIMIT values stops and keeps what it has shown: the
    depth it completed plus one.
    """
    classes = PositionClasses(board, jumps)
    values = {classes.reduce(1 << i) for i in bit_indices(holes)}
    target = classes.reduce(pegs)
    if target == 0:
        # the empty position is in the class, but a group never empties: one peg if a hole's value is
        # zero, else two holes of equal value (or more; two is still a lower bound)
        return 1 if 0 in values else 2
    values.discard(0)
    frontier, seen, depth = {0}, {0}, 0
    while frontier:
        depth += 1
        following = set()
        for value in frontier:
            for step in values:
                nxt = value ^ step
                if nxt == target:
                    return depth
                if nxt not in seen:
                    seen.add(nxt)
                    following.add(nxt)
        if len(seen) > CLASS_SEARCH_LIMIT:
            return depth + 1
        frontier = following
    return depth + 1  # unreachable: the target is a sum of hole values


# -- pagoda functions ---------------------------------------------------------------

GOLDEN = (5 ** 0.5 - 1) / 2  # g + g*g = 1


def lattice_distance(board: Board, a: Cell, b: Cell) -> int:
    """Fewest steps along the jump directions from ``a`` to ``b`` (ignoring holes)."""
    dr, dc = b[0] - a[0], b[1] - a[1]
    if board.jumps == "orthogonal":
        return abs(dr) + abs(dc)
    if board.jumps == "diagonal":
        return max(abs(dr), abs(dc))
    return max(abs(dr), abs(dc), abs(dr - dc))  # triangular: steps (0,1), (1,0), (1,1)


def pagoda_for(board: Board, finish: Cell) -> np.ndarray | None:
    """A pagoda function for finishing at ``finish``: g ** distance, g the golden ratio's inverse.

    A jump toward the finish along a line moves weight g^k + g^(k-1) = g^(k-2)
    into the landing hole, so the total never grows; the finish has weight 1.
    Checked on every jump of the board; None if some jump breaks it.
    """
    size = max(1, -(-board.bits // 64)) * 64
    weight = np.zeros(size, dtype=np.float64)
    for cell in board.hole_cells():
        weight[board.index(cell)] = GOLDEN ** lattice_distance(board, cell, finish)
    for a, b, c in triples(board):
        if weight[a] + weight[b] < weight[c] - 1e-12:
            return None
    return weight


# A peg p that no other peg can ever come next to never moves again (it leaves only by jumping, or
# by being jumped, and both need a peg on a neighbouring hole). Until then p is inert, so the others
# play among themselves, and the golden pagoda toward a neighbour n, g^d(x, n), never grows under
# their jumps: n can get a peg only if the other pegs weigh at least 1 toward it. So a peg whose
# every neighbouring hole weighs less than 1 (toward it, from the other pegs) stays to the end, and
# stays so: the weights only fall. The margin keeps float rounding on the safe side.
DOOM_MARGIN = 1e-9
#: A peg whose every neighbouring hole weighs less than this toward it (its own g included: the
#: kernels sum g^distance over every peg) never moves again.
DOOM_BELOW = 1.0 + GOLDEN - DOOM_MARGIN


def golden_weight(board: Board, pegs: int, cell: Cell) -> float:
    """sum of g^distance (along the jump directions) from the pegs of ``pegs`` to ``cell``."""
    return sum(GOLDEN ** lattice_distance(board, board.cell(q), cell) for q in bit_indices(pegs))


def doomed_pegs(board: Board, pegs: int) -> list[Cell]:
    """The pegs of ``pegs`` that provably never move again (see above): every neighbouring hole
    weighs less than 1 toward it from the other pegs.

    Plain Python: the reference for :func:`gridsolver.pegs.kernels.doom.count_doomed`. A position with a
    doomed peg and another peg can never end at one peg.
    """
    out = []
    for p in bit_indices(pegs):
        r, c = board.cell(p)
        others = pegs & ~(1 << p)
        near = [(r + dr, c + dc) for dr, dc in board.directions]
        if all(golden_weight(board, others, n) < 1 - DOOM_MARGIN for n in near if board.is_hole(n)):
            out.append((r, c))
    return out


def pull_matrix(board: Board, size: int) -> np.ndarray:
    """``size`` x ``size`` array (bit indices): g^distance between two holes along the jump
    directions, 0 where either bit is not a hole (the kernels' table for :func:`doomed_pegs`)."""
    cells = board.hole_cells()
    index = np.array([board.index(cell) for cell in cells], dtype=np.int64)
    rows = np.array([r for r, _ in cells], dtype=np.int64)
    cols = np.array([c for _, c in cells], dtype=np.int64)
    dr = rows[None, :] - rows[:, None]
    dc = cols[None, :] - cols[:, None]
    if board.jumps == "orthogonal":
        dist = np.abs(dr) + np.abs(dc)
    elif board.jumps == "diagonal":
        dist = np.maximum(np.abs(dr), np.abs(dc))
    else:  # triangular, as lattice_distance
        dist = np.maximum(np.maximum(np.abs(dr), np.abs(dc)), np.abs(dr - dc))
    out = np.zeros((size, size), dtype=np.float64)
    out[np.ix_(index, index)] = GOLDEN ** dist
    return out
