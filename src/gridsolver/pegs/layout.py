"""A board's arrays as the pegs kernels take them.

The kernels (:mod:`gridsolver.pegs.kernels`) take the board's arrays and their options as named
bundles made here: :class:`Geometry`, :class:`Finish`, :class:`Order`, :class:`Table`,
:class:`Ceilings`, :class:`MoveBound`, :class:`Ranking` and :class:`Doom`. Each field keeps one type
(the constructors cast), so every kernel compiles once. :class:`Layout` holds a board's words, jump
offsets and hash keys, and turns kernel codes back into jumps.

This module imports numpy but not numba.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from gridsolver.core.table import GrowingTable
from gridsolver.pegs import rules
from gridsolver.pegs.rules import Board, Jump


class Geometry(NamedTuple):
    """The board as every kernel sees it."""

    holes: np.ndarray  # uint64[W]: the holes, in the board's bit numbering
    offsets: np.ndarray  # int64[D]: the bit offset of each jump direction
    zobrist: np.ndarray  # uint64[64 W]: a random key per bit
    perms: np.ndarray  # int64[S, 64 W]: the symmetries a search uses, the identity first


class Finish(NamedTuple):
    """What the depth-first search aims at and prunes with (see
    :func:`gridsolver.pegs.depth_first.restarted_dfs`)."""

    target: int  # the finish's bit, or -1: most jumps
    pagoda: np.ndarray  # float64[K, 64 W]: pagoda functions toward the finish (K may be 0)
    floor: np.ndarray  # float64[K]: positions lighter than floor[k] under pagoda[k] never finish
    end_depth: int  # the depth where the endgame layer answers, or -1
    end_layer: np.ndarray  # uint64[n]: the sorted canonical complements of that layer (dense numbering)
    end_images: np.ndarray  # uint64[S, 8 W, 256]: board bytes to the layer's dense symmetric images
    end_holes: np.uint64  # every hole in the dense numbering


class Order(NamedTuple):
    """The depth-first search's move order: weights per jump code, plus seeded noise."""

    weights: np.ndarray  # float64[64 W D]
    noise: float
    seed: int


class Table(NamedTuple):
    """A :class:`~gridsolver.core.table.GrowingTable`'s arrays and the entries it stops at."""

    hash: np.ndarray  # uint64[slots]
    keys: np.ndarray  # uint64[slots, words]
    grow_at: int

    @classmethod
    def of(cls, table: GrowingTable) -> Table:
        return cls(table.hash, table.keys, table.grow_at)


class Ceilings(NamedTuple):
    """The most the published method's arrays may grow to (:func:`gridsolver.pegs.jumps.published_limits`)."""

    positions: int
    records: int
    seen_slots: int


class MoveBound(NamedTuple):
    """Fewest moves by deepening: the finish and the lower bound's holes."""

    target: int  # the finish's bit, or -1: anywhere
    must_move: np.ndarray  # uint64[W]: holes no jump passes over
    free_survivor: bool  # the last peg may stay on such a hole


class Ranking(NamedTuple):
    """How the beam ranks the children of a depth (see :func:`gridsolver.pegs.kernels.beam.beam`)."""

    phi: np.ndarray  # float64[64 W]: the spread term per hole
    iso_weight: float  # per isolated peg
    noise: float
    pool_factor: int  # candidates ranked again by their jumps, per beam slot
    mobility_weight: float  # per legal jump of a pooled candidate (0: no second ranking)

    @classmethod
    def of(cls, phi: np.ndarray, iso_weight: float, noise: float, pool_factor: int = 1,
           mobility_weight: float = 0.0) -> Ranking:
        return cls(phi, float(iso_weight), float(noise), int(pool_factor), float(mobility_weight))


class Doom(NamedTuple):
    """The beam's doomed-peg stop: ``pull`` (geometry.pull_matrix; empty: no stop) and the pegs at
    which it stops."""

    pull: np.ndarray  # float64[64 W, 64 W]
    stop_pegs: int

    @classmethod
    def of(cls, pull: np.ndarray | None = None, stop_pegs: int = 0) -> Doom:
        return cls(np.zeros((0, 0), dtype=np.float64) if pull is None else pull, int(stop_pegs))


@dataclass
class Layout:
    """A board's numpy arrays for the kernels; :attr:`geometry` bundles them (identity only)."""

    board: Board
    words: int
    holes: np.ndarray
    offsets: np.ndarray
    zobrist: np.ndarray

    @property
    def geometry(self) -> Geometry:
        identity = np.arange(self.words * 64, dtype=np.int64)[None, :]
        return Geometry(self.holes, self.offsets, self.zobrist, identity)

    @classmethod
    def of(cls, board: Board, seed: int = 0) -> Layout:
        words = max(1, -(-board.bits // 64))
        offsets = np.array([dr * board.stride + dc for dr, dc in board.directions], dtype=np.int64)
        rng = np.random.default_rng(0x5EED ^ seed)
        zobrist = rng.integers(0, 2**63, size=words * 64, dtype=np.int64).astype(np.uint64) * np.uint64(2)
        zobrist ^= rng.integers(0, 2, size=words * 64, dtype=np.int64).astype(np.uint64)
        layout = cls(board, words, np.zeros(words, np.uint64), offsets, zobrist)
        layout.holes = layout.to_words(board.holes)
        return layout

    def to_words(self, mask: int) -> np.ndarray:
        return np.array([(mask >> (64 * w)) & (2**64 - 1) for w in range(self.words)], dtype=np.uint64)

    def from_words(self, words: np.ndarray) -> int:
        return sum(int(v) << (64 * w) for w, v in enumerate(words))

    def decode(self, code: int) -> Jump:
        d = len(self.offsets)
        a, direction = divmod(int(code), d)
        dr, dc = self.board.directions[direction]
        r, c = self.board.cell(a)
        return (r, c), (r + 2 * dr, c + 2 * dc)

    def perm_array(self, perms: list[tuple[int, ...]]) -> np.ndarray:
        size = self.words * 64
        out = np.tile(np.arange(size, dtype=np.int64), (len(perms), 1))
        for s, perm in enumerate(perms):
            out[s, :len(perm)] = perm
        return out

    def weights(self, centre: tuple[float, float]) -> np.ndarray:
        """Move-order weights per jump code: prefer jumps from the outside in.

        ``phi`` is the squared distance to ``centre``; a jump scores
        phi(from) + phi(over) - phi(to), so pegs far out are cleared first
        and the survivors gather round the centre.
        """
        d = len(self.offsets)
        out = np.zeros(self.words * 64 * d, dtype=np.float64)
        cr, cc = centre
        for r, c in self.board.hole_cells():
            for k, (dr, dc) in enumerate(self.board.directions):
                cells = [(r, c), (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)]
                phi = [(y - cr) ** 2 + (x - cc) ** 2 for y, x in cells]
                out[self.board.index((r, c)) * d + k] = phi[0] + phi[1] - phi[2]
        return out


def lazy_notation(jumps: list[Any]) -> Callable[[], list[str]]:
    """The jumps in the result's notation, written only when an event asks for them."""
    kept = list(jumps)
    return lambda: [rules.format_jump(j) for j in kept]


def centroid(board: Board) -> tuple[float, float]:
    cells = board.hole_cells()
    return (sum(r for r, _ in cells) / len(cells), sum(c for _, c in cells) / len(cells))

