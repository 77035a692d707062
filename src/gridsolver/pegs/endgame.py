"""Endgames for finish problems: every position with few pegs that can still finish, found backwards.

A game from ``S`` to one peg at ``F``, read backwards on the complemented
board (pegs <-> empty holes), is a game from ``holes ^ F`` to ``holes ^ S``:
undoing the jump ``a`` over ``b`` into ``c`` refills ``a`` and ``b`` from
``c``, which on the complement is that same jump. So the positions with
``k + 1`` pegs that can finish at ``F`` are the complements of the *dual*
positions ``k`` jumps from ``holes ^ F``, and a breadth-first search by
jumps of the dual game lists them: layer ``k`` of :class:`Endgame`. Each
layer has one peg count, so only the layer being built needs a set.

Three prunings keep the layers small, all sound for positions reachable
from ``S`` (the only ones the forward search asks about):

- symmetry: positions are stored as their smallest image under the
  symmetries that fix ``F`` and the start position,
- when ``S`` has a single empty hole ``s``, the dual game must end with one
  peg at ``s``: a dual position whose pagoda weight toward ``s`` (see
  :func:`gridsolver.pegs.geometry.pagoda_for`) is below ``s``'s own can
  never get there, so its complement is not reachable from ``S``, and
- (``pagodas=True``) pagoda functions found by linear programming
  (:func:`gridsolver.pegs.pagoda.lp_pagoda`) for the positions of the small
  layers: a position ``P`` with ``w(P) > w(S)`` for some pagoda ``w`` is
  never reached from ``S``, and neither is any position that ``w`` weighs
  above ``S``. Each pagoda found joins a bank that the kernel applies to
  every later child (on the dual, ``P = holes ^ D`` weighs more than ``S``
  exactly when ``w(D) < w(holes) - w(S)``), so one program prunes many
  positions of every later layer. A layer is built only from the positions
  kept in the one before: every game from ``S`` passes through a kept one.
  When a layer is left empty, no game from ``S`` ends at ``F``: the
  problem is proved impossible by those pagodas (:attr:`Endgame.empty_at`).

The forward depth-first search (:func:`gridsolver.pegs.kernels.dfs.dfs`) stops at
the last layer's peg count and asks the layer: a position there is in it
exactly when it can finish. The layers hold positions in the *dense*
numbering of the holes (0, 1, ... row by row, :class:`gridsolver.pegs.meet.Dense`),
so any board of at most 64 holes fits one word (the 41-hole diamond too,
whose own numbering takes 90 bits); :attr:`Endgame.lookup` maps a position
in the board's numbering, a byte at a time, straight to the dense images
the layers are searched by.

This module imports numpy only; the kernels are imported where they run.
"""

from __future__ import annotations

import time

import numpy as np

from gridsolver.core.budget import Budget
from gridsolver.core.kernels.stops import EXHAUSTED, OUT_OF_MEMORY
from gridsolver.pegs import rules
from gridsolver.pegs.geometry import Permutation, canonical, pagoda_for
from gridsolver.pegs.meet import Dense, byte_images
from gridsolver.pegs.rules import Board, Cell, Jump

MAX_LOAD = 0.6  # kernels.endgame.MAX_LOAD: a layer's set grows past this load
#: Layers of at most this many positions get linear programs (one per position no pagoda of the bank
#: excludes yet; about 10 ms each).
LP_LAYER_MAX = 2_000
LP_SHARE = 0.2  # of an endgame's time: the most its linear programs may take (0.5 measured slower)
LP_BANK_MAX = 48  # pagodas kept in the bank the kernel applies (each costs three additions per jump)
FIRST_SLOTS = 1 << 12
BYTES_PER_POSITION = 8 / MAX_LOAD * 2 + 8  # the set at its worst just after doubling, and the layer


def fits(board: Board) -> bool:
    """True when a position is one word in the dense numbering of the holes (what the layers need)."""
    return board.hole_count <= 64


def lookup_images(dense: Dense, perms: list[Permutation], words: int) -> np.ndarray:
    """``out[s, k, v]``: the dense image under ``perms[s]`` (dense numbering) of byte value ``v`` placed
    at byte ``k`` of a position in the board's own numbering (``words`` 64-bit words)."""
    out = np.zeros((len(perms), 8 * words, 256), dtype=np.uint64)
    for s, perm in enumerate(perms):
        for k in range(8 * words):
            for i in range(8):
                number = dense.number.get(8 * k + i)
                if number is None:
                    continue
                bit = np.uint64(1 << perm[number])
                for v in range(256):
                    if v >> i & 1:
                        out[s, k, v] |= bit
    return out


class Endgame:
    """Layer ``k``: the canonical complements of the positions with ``k + 1`` pegs that can finish
    at ``finish`` (among those reachable from ``board``'s position), as a sorted uint64 array, in the
    dense numbering of the holes.

    :attr:`perms` are the symmetries (dense numbering) fixing the finish and the start position,
    :attr:`images` their byte tables on dense positions (for the layers' kernel), :attr:`lookup`
    their byte tables from positions in the board's numbering (for the depth-first search) and
    :attr:`all_holes` the dense mask of every hole.
    """

    def __init__(self, board: Board, finish: Cell, pagodas: bool = False) -> None:
        assert fits(board)
        self.board = board
        self.finish = finish
        self.dense = Dense(board)
        self.perms: list[Permutation] = self.dense.group(finish)
        self.images = byte_images(self.perms)
        self.lookup = lookup_images(self.dense, self.perms, max(1, -(-board.bits // 64)))
        self.all_holes = (1 << board.hole_count) - 1
        empty = board.holes & ~board.pegs
        # the bank of pagodas (dense numbering) and their floors on the dual positions
        self.weights = np.zeros((0, 64), dtype=np.float64)
        self.floors = np.zeros(0, dtype=np.float64)
        self.golden = 0  # 1 when the bank's first row is the golden pagoda toward the start's empty hole
        if empty.bit_count() == 1:
            weights = pagoda_for(board, board.cell(empty.bit_length() - 1))
            if weights is not None:
                self._bank([weights[bit] for bit in self.dense.bits], 1.0 - 1e-9)
                self.golden = 1
        self.pagodas = pagodas
        self.lp_pagodas = 0  # pagodas found by linear programming
        self.lp_seconds = 0.0
        self.empty_at: int | None = None  # pegs of a layer left empty: the problem is impossible
        tri = np.array(self.dense.triples(), dtype=np.int64).reshape(-1, 3)
        self.tri = (tri[:, 0].copy(), tri[:, 1].copy(), tri[:, 2].copy())
        self.layers = [np.array([self.key(1 << board.index(finish))], dtype=np.uint64)]
        self.nodes = 0
        self.seconds: list[float] = [0.0]

    def _bank(self, weights: list[float], floor: float) -> None:
        row = np.zeros((1, 64), dtype=np.float64)
        row[0, :len(weights)] = weights
        self.weights = np.concatenate([self.weights, row])
        self.floors = np.append(self.floors, floor)

    def board_mask(self, key: int) -> int:
        """The position (board numbering) whose stored form is ``key`` (one of its symmetric images)."""
        dual = self.all_holes ^ int(key)
        return sum(1 << bit for k, bit in enumerate(self.dense.bits) if dual >> k & 1)

    def prune(self, deadline: float) -> None:
        """Drop from the last layer every position some pagoda shows unreachable from the start (linear
        programs, one per position the bank does not exclude yet, until ``deadline``,
        ``time.perf_counter()``); each pagoda found joins the bank (at most LP_BANK_MAX)."""
        from gridsolver.pegs import pagoda
        from gridsolver.pegs.kernels import endgame as endgame_kernels

        layer = self.layers[-1]
        if not self.pagodas or len(layer) > LP_LAYER_MAX:
            return
        started = time.perf_counter()
        holes = list(rules.bit_indices(self.board.holes))
        jumps = rules.triples(self.board)
        start = self.board.pegs
        keep = np.ones(len(layer), dtype=np.bool_)
        found_any = False
        for i in range(len(layer)):
            if not keep[i]:
                continue
            if time.perf_counter() > deadline:
                break
            found = pagoda.lp_pagoda(holes, jumps, start, self.board_mask(layer[i]), lower=-1.0,
                                     seconds=max(0.01, deadline - time.perf_counter()))
            if found is None:
                continue
            self.lp_pagodas += 1
            found_any = True
            dense = [float(found[bit]) for bit in self.dense.bits]  # multiples of 2^-24: exact sums
            floor = float(pagoda.weight(found, self.board.holes) - pagoda.weight(found, start))
            row = np.zeros((1, 64), dtype=np.float64)
            row[0, :len(dense)] = dense
            mine = np.ones(len(layer), dtype=np.bool_)
            endgame_kernels.heavy_enough(layer, row, np.array([floor]), mine)
            keep &= mine
            if len(self.floors) < LP_BANK_MAX:
                self._bank(dense, floor)
        if found_any:
            self.layers[-1] = layer[keep]
            if len(self.layers[-1]) == 0:
                self.empty_at = self.pegs
        self.lp_seconds += time.perf_counter() - started

    def key(self, pegs: int) -> int:
        """The stored form of a position (board numbering): its complement's smallest dense image."""
        return canonical(self.all_holes ^ self.dense.mask(pegs), self.perms)

    @property
    def pegs(self) -> int:
        """Pegs of the positions in the last layer."""
        return len(self.layers)

    def positions(self) -> int:
        return sum(len(layer) for layer in self.layers)

    def contains(self, pegs: int) -> bool:
        """True when the position ``pegs`` (with :attr:`pegs` or fewer pegs) can finish."""
        layer = self.layers[pegs.bit_count() - 1]
        key = np.uint64(self.key(pegs))
        i = int(np.searchsorted(layer, key))
        return i < len(layer) and layer[i] == key

    def grow(self, budget: Budget, max_positions: int) -> bool:
        """Add one layer; False (and no layer) when the budget or ``max_positions`` stops it first."""
        from gridsolver.pegs.kernels import endgame as endgame_kernels

        last = self.layers[-1]
        guess = len(last) * max(2, self.growth())
        slots = FIRST_SLOTS
        while slots * MAX_LOAD < min(guess, max_positions):
            slots *= 2
        keys = np.zeros(slots, dtype=np.uint64)
        stats = np.zeros(3, dtype=np.int64)
        started = time.perf_counter()
        lo = 0
        jumps = endgame_kernels.Jumps(*self.tri)
        pagodas = endgame_kernels.Pagodas(self.weights, self.floors)
        while True:
            code = endgame_kernels.expand(last, lo, jumps, self.images, pagodas, keys, budget.node_limit(),
                                          budget.deadline_ns(), stats)
            if code != OUT_OF_MEMORY:
                break
            if slots * MAX_LOAD >= max_positions:
                return False
            slots *= 2
            found = keys[keys != 0]
            del keys
            keys = np.zeros(slots, dtype=np.uint64)
            endgame_kernels.insert_all(keys, found)
            lo = int(stats[2])
        self.nodes += int(stats[0])
        if code != EXHAUSTED:
            return False
        self.layers.append(np.sort(keys[keys != 0]))
        self.seconds.append(time.perf_counter() - started)
        return True

    def growth(self) -> float:
        """How much the last layer grew on the one before (1 with a single layer)."""
        if len(self.layers) < 2:
            return 1.0
        return len(self.layers[-1]) / max(1, len(self.layers[-2]))

    def build(self, budget: Budget, seconds: float, memory_bytes: int, most_pegs: int) -> None:
        """Add layers while the next should fit in ``seconds`` and ``memory_bytes``, up to positions of
        ``most_pegs`` pegs (pruned by linear programs with ``pagodas``, in at most LP_SHARE of
        ``seconds``); stops at a layer left empty (:attr:`empty_at`)."""
        started = time.perf_counter()
        lp_deadline = started + LP_SHARE * seconds
        if len(self.layers) == 1:
            self.prune(lp_deadline)
        while self.pegs < most_pegs and self.empty_at is None:
            spent = time.perf_counter() - started
            growth = max(1.0, self.growth())
            if spent + self.seconds[-1] * growth > seconds:
                return
            room = (memory_bytes - 8 * self.positions()) / BYTES_PER_POSITION
            if len(self.layers[-1]) * growth > room or not self.grow(budget, int(room)):
                return
            self.prune(lp_deadline)

    def finish_line(self, pegs: int) -> list[Jump]:
        """Jumps from the position ``pegs`` (in the endgame) to one peg at the finish."""
        board = self.board
        line: list[Jump] = []
        triples = rules.triples(board)
        while pegs.bit_count() > 1:
            for a, b, c in triples:
                if pegs >> a & 1 and pegs >> b & 1 and not pegs >> c & 1:
                    child = pegs ^ (1 << a) ^ (1 << b) ^ (1 << c)
                    if self.contains(child):
                        line.append((board.cell(a), board.cell(c)))
                        pegs = child
                        break
            else:
                raise AssertionError("an endgame position has no jump to the layer below")
        return line


class Meeting:
    """A finish problem decided by breadth-first search by jumps from both ends, pruned by pagodas.

    Backward: :class:`Endgame` of the problem (layer ``j``: the complements of the positions with
    ``j + 1`` pegs that can end at the finish). Forward: :class:`Endgame` of the *dual* problem (start
    ``holes ^ F``, finish the start's empty hole ``s``): its layer ``k`` holds complements of dual
    positions that can end at ``s``, i.e. the positions ``k`` jumps from the start, each stored as
    itself. Both prune by pagodas (a forward position that some pagoda weighs below the finish never
    ends there; a backward one it weighs above the start is never reached), and both keep only the
    positions of their layer that can come from a kept one, so every game from the start to the
    finish passes through kept positions on both sides. The side with the smaller last layer grows
    until the two last layers have equal peg counts (``k + j = pegs - 1``); then a position in both
    is on a game (rebuilt from both sides' layers), and none proves the problem impossible.
    """

    def __init__(self, board: Board, finish: Cell, pagodas: bool = True) -> None:
        empty = board.holes & ~board.pegs
        assert empty.bit_count() == 1, "the dual problem needs a single empty hole at the start"
        self.board = board
        self.finish = finish
        self.start_hole = board.cell(empty.bit_length() - 1)
        self.dual = board.with_pegs(board.holes & ~(1 << board.index(finish)))
        self.backward = Endgame(board, finish, pagodas=pagodas)
        self.forward = Endgame(self.dual, self.start_hole, pagodas=pagodas)
        self.meeting: int | None = None  # a position (board numbering) on some game, once found

    @property
    def jumps_covered(self) -> int:
        """Jumps spanned by the two sides' last layers (they meet at ``board.peg_count - 1``)."""
        return (self.forward.pegs - 1) + (self.backward.pegs - 1)

    def run(self, budget: Budget, memory_bytes: int, deadline: float) -> str:
        """``"found"`` (:attr:`meeting` set), ``"impossible"`` or ``"stopped"`` (budget, memory, deadline:
        ``time.perf_counter()``). LP pruning gets at most LP_SHARE of the time to the deadline."""
        from gridsolver.pegs.kernels import endgame as endgame_kernels

        total = self.board.peg_count - 1
        started = time.perf_counter()
        lp_deadline = started + LP_SHARE * max(0.0, deadline - started)
        for side in (self.backward, self.forward):
            side.prune(lp_deadline)
        while True:
            for side in (self.backward, self.forward):
                if side.empty_at is not None:
                    return "impossible"
            if self.jumps_covered >= total:
                break
            smaller = len(self.forward.layers[-1]) <= len(self.backward.layers[-1])
            side = self.forward if smaller else self.backward
            room = (memory_bytes - 8 * self.positions()) / BYTES_PER_POSITION
            if time.perf_counter() > deadline or room <= 0 or not side.grow(budget, int(room)):
                return "stopped"
            side.prune(lp_deadline)
            if len(side.layers[-1]) == 0:
                side.empty_at = side.pegs
        forward, backward = self.forward.layers[-1], self.backward.layers[-1]
        found = int(endgame_kernels.first_meeting(forward, backward, np.uint64(self.backward.all_holes),
                                                  self.backward.images))
        if found < 0:
            return "impossible"
        # the forward side stores the position itself; board_mask gives its complement
        self.meeting = self.forward.board_mask(forward[found]) ^ self.board.holes
        return "found"

    def line(self) -> list[Jump]:
        """A game from the start through :attr:`meeting` to one peg at the finish."""
        assert self.meeting is not None
        # the dual game from the meeting's complement to one peg at s, read backwards, is the game from
        # the start to the meeting (the same jumps, in reverse order)
        dual_line = self.forward.finish_line(self.board.holes ^ self.meeting)
        return dual_line[::-1] + self.backward.finish_line(self.meeting)

    def positions(self) -> int:
        return self.forward.positions() + self.backward.positions()

    def nodes(self) -> int:
        return self.forward.nodes + self.backward.nodes
