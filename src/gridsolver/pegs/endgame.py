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
from collections.abc import Callable
from typing import Any

import numpy as np

from gridsolver.core.budget import Budget
from gridsolver.core.game import machine_memory_mb
from gridsolver.core.kernels.stops import EXHAUSTED, FOUND, OUT_OF_MEMORY, OUT_OF_TIME
from gridsolver.core.sorting import sort_unique
from gridsolver.pegs import rules
from gridsolver.pegs.geometry import Permutation, canonical, pagoda_for, symmetries
from gridsolver.pegs.meet import Dense, byte_images
from gridsolver.pegs.rules import Board, Cell, Jump

MAX_LOAD = 0.6  # kernels.endgame.MAX_LOAD: a layer's set grows past this load
#: Layers of at most this many positions get linear programs (one per position no pagoda of the bank
#: excludes yet; about 10 ms each).
LP_LAYER_MAX = 2_000
LP_SHARE = 0.2  # of an endgame's time: the most its linear programs may take (0.5 measured slower)
# pagodas kept in the bank the kernels apply (each costs a look-up a byte per parent, an addition per jump)
LP_BANK_MAX = 48
FIRST_SLOTS = 1 << 12
#: Children written, sorted and merged a chunk at a time (:meth:`Endgame.grow` when ``sorted_from``
#: allows it, and :class:`Meeting`'s last look-up): 8M keys, 64 MB.
CHUNK = 1 << 23
#: Children remembered while they are written, so that a repeat among them is left out before sorting
#: (:func:`gridsolver.pegs.kernels.endgame.child_keys`): 64K of them, 512 KB, about a core's cache.
RECENT = 1 << 16
BYTES_PER_POSITION = 8 / MAX_LOAD * 2 + 8  # the set at its worst just after doubling, and the layer
#: A layer grown by sorting (:class:`Children`), at its worst: its runs (in a store of twice its
#: positions) and a merge's copy of its first run, or once merged the layer and its copy
SORTED_BYTES_PER_POSITION = 24


NO_IMAGE = np.zeros((0, 8, 256), dtype=np.uint64)  # the kernels' ``pre`` when positions are taken as they are


NO_POSITIONS = np.zeros(0, dtype=np.uint64)


class Runs:
    """Sorted runs of positions without repeats, side by side in one array (the store), merged in place.

    A chunk of children is written at the store's end (:meth:`free`), sorted and kept once each
    (:meth:`push`): a run. Two runs of as many chunks are merged, as a binary counter carries: each
    child is copied about log2(chunks) times, where merging every chunk into one growing array copied
    that array once a chunk (on the diamond's layers of 40 million positions, 5% faster). Merges are
    made in place (:func:`~gridsolver.pegs.kernels.endgame.merge_runs`): a new array for each would have
    the system clear fresh memory for it, about log2(chunks) times the layer's in all, where the store's
    is cleared once. The system gives the store memory only as the runs reach into it.
    """

    def __init__(self, capacity: int) -> None:
        self.store = np.empty(capacity, dtype=np.uint64)
        self.spare = NO_POSITIONS  # a merge's copy of its first run (kept: its memory is touched already)
        self.scratch = NO_POSITIONS  # the sort's copy of a chunk
        self.runs: list[tuple[int, int, int]] = []  # (start, length, chunks), in the store's order

    def top(self) -> int:
        """Where the next run goes: just past the last."""
        return self.runs[-1][0] + self.runs[-1][1] if self.runs else 0

    def free(self, size: int) -> np.ndarray:
        """The ``size`` places past the last run (fewer when the store ends first)."""
        top = self.top()
        return self.store[top:top + size]

    def push(self, written: int) -> None:
        """The first ``written`` places of :meth:`free` (a chunk's children) become a run of their own,
        merged with the runs before it as the counter carries."""
        top = self.top()
        chunk = self.store[top:top + written]
        if len(self.scratch) < written:
            self.scratch = np.empty(written, dtype=np.uint64)
        run = (top, sort_unique(chunk, self.scratch), 1)
        while self.runs and self.runs[-1][2] == run[2]:
            run = self._merge(self.runs.pop(), run)
        self.runs.append(run)

    def largest(self) -> int:
        """The positions of the first run (it holds the most chunks)."""
        return self.runs[0][1] if self.runs else 0

    def union(self) -> np.ndarray:
        """Every run merged into one, sorted, each position once: the start of the store (a view)."""
        if not self.runs:
            return self.store[:0]
        run = self.runs.pop()
        while self.runs:
            run = self._merge(self.runs.pop(), run)
        self.runs.append(run)
        return self.store[:run[1]]  # the first run starts the store, and a merge starts where its first did

    def _merge(self, first: tuple[int, int, int], second: tuple[int, int, int]) -> tuple[int, int, int]:
        """Two runs side by side made one, in place."""
        from gridsolver.pegs.kernels import endgame as endgame_kernels

        if len(self.spare) < first[1]:
            self.spare = np.empty(first[1], dtype=np.uint64)
        length = endgame_kernels.merge_runs(self.store, first[0], first[1], second[1], self.spare)
        return first[0], int(length), first[2] + second[2]


class Children:
    """The children of a side's positions (:class:`Endgame`), gathered as sorted :class:`Runs` without
    repeats. :meth:`gather` may be called for several ranges of positions (of any layers of the side);
    :meth:`union` is the next layer's part they make. The store is room for twice the positions a layer
    may hold, and a chunk.
    """

    def __init__(self, ending: Endgame) -> None:
        from gridsolver.pegs.kernels import endgame as endgame_kernels

        self.others = ending.others
        self.jumps = endgame_kernels.Jumps(*ending.tri)
        self.pagodas = endgame_kernels.Pagodas(ending.weights, ending.floors)
        self.chunk = max(CHUNK, 4 * len(ending.tri[0]))  # a position's children fit
        self.runs: Runs | None = None  # made at the first gather, for its ``max_positions``
        self.recent = np.zeros(RECENT, dtype=np.uint64)  # the children last written (child_keys)
        self.nodes = 0  # jumps made

    def gather(self, layer: np.ndarray, lo: int, hi: int, node_limit: int, stop_ns: int,
               max_positions: int) -> int:
        """Add the children of ``layer[lo:hi]``: EXHAUSTED, OUT_OF_MEMORY when a run outgrows
        ``max_positions`` (or the runs the store), or a budget code."""
        from gridsolver.pegs.kernels import endgame as endgame_kernels

        if self.runs is None:  # the store is never asked larger than the machine's memory
            most = min(max_positions, int(machine_memory_mb() * 2**20) // SORTED_BYTES_PER_POSITION)
            self.runs = Runs(2 * most + self.chunk)
        runs = self.runs
        part = layer[:hi]
        stats = np.zeros(3, dtype=np.int64)
        stats[0] = self.nodes
        while lo < hi:
            out = runs.free(self.chunk)
            if len(out) < self.chunk:
                return OUT_OF_MEMORY
            stats[1] = 0
            code = endgame_kernels.child_keys(part, lo, NO_IMAGE, self.jumps, np.uint64(0), self.others,
                                              self.pagodas, out, self.recent, False, node_limit, stop_ns,
                                              stats)
            self.nodes = int(stats[0])
            if code not in (EXHAUSTED, OUT_OF_MEMORY):
                return int(code)
            runs.push(int(stats[1]))
            if runs.largest() > max_positions:
                return OUT_OF_MEMORY
            lo = int(stats[2])
        return EXHAUSTED

    def union(self, copy: bool = True) -> np.ndarray:
        """Every child gathered, sorted, each once: an array of its own, or with ``copy`` False the part of
        the store that holds it (no copy to make; the store is then not for gathering any more)."""
        if self.runs is None:
            return NO_POSITIONS.copy()
        layer = self.runs.union()
        self.runs.spare = NO_POSITIONS  # no more merges: its memory back
        return layer.copy() if copy else layer


def deadline_ns(budget: Budget, deadline: float | None) -> int:
    """The budget's kernel deadline (monotonic clock, ns), or ``deadline`` (``time.perf_counter()``) if
    that comes first."""
    ns = budget.deadline_ns()
    if deadline is None:
        return ns
    return min(ns, time.monotonic_ns() + int(max(0.0, deadline - time.perf_counter()) * 1e9))


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
        assert self.perms[0] == tuple(range(len(self.perms[0]))), "the identity comes first"
        self.others = self.images[1:]  # the images but the identity's (a canonical form starts from itself)
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
        #: Layers of at least this many positions grow by sorting their children a chunk at a time
        #: instead of putting them into a hash set (None: never; :class:`Meeting` sets it)
        self.sorted_from: int | None = None

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

    def grow(self, budget: Budget, max_positions: int, deadline: float | None = None) -> bool:
        """Add one layer; False (and no layer) when the budget, ``max_positions`` or ``deadline``
        (``time.perf_counter()``) stops it first."""
        from gridsolver.pegs.kernels import endgame as endgame_kernels

        last = self.layers[-1]
        if self.sorted_from is not None and len(last) >= self.sorted_from:
            return self._grow_sorted(budget, max_positions, deadline)
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
                                          deadline_ns(budget, deadline), stats)
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

    def _grow_sorted(self, budget: Budget, max_positions: int, deadline: float | None) -> bool:
        """:meth:`grow` by sorting (:class:`Children`); on big layers this is faster than a hash set:
        the set's probes go all over memory."""
        started = time.perf_counter()
        last = self.layers[-1]
        children = Children(self)
        code = children.gather(last, 0, len(last), budget.node_limit(), deadline_ns(budget, deadline),
                               max_positions)
        self.nodes += children.nodes
        if code != EXHAUSTED:
            return False
        layer = children.union()
        if len(layer) > max_positions:
            return False
        self.add_layer(layer, time.perf_counter() - started)
        return True

    def add_layer(self, layer: np.ndarray, seconds: float) -> None:
        """Append a layer grown elsewhere (sorted, no repeats), and the seconds it took."""
        self.layers.append(layer)
        self.seconds.append(seconds)

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


def self_dual_symmetry(board: Board, finish: Cell) -> Permutation | None:
    """A symmetry of the board (its own bit numbering) that swaps the start's single empty hole and the
    finish, when there is one: then it maps the problem onto its dual (see :class:`Meeting`)."""
    empty = board.holes & ~board.pegs
    if empty.bit_count() != 1:
        return None
    s, f = empty.bit_length() - 1, board.index(finish)
    for perm in symmetries(board):
        if perm[s] == f and perm[f] == s:
            return perm
    return None


def trend(sizes: list[int], seconds: float) -> tuple[float, float, float]:
    """What a side's last layers (``sizes``, at most the last three, the last grown in ``seconds``) say
    of its next: seconds per position grown from, growth, and how the growth's excess over 1 shrinks
    from one layer to the next (as it last did)."""
    if len(sizes) < 3 or seconds <= 0.0:
        return 1e-6, 3.0, 1.0  # too early to tell: small layers, cheap
    earlier, before, last = sizes[-3:]
    rate = seconds / max(1, before)
    growth = last / max(1, before)
    then = before / max(1, earlier)
    shrink = min(1.0, max(0.0, (growth - 1.0) / (then - 1.0))) if then > 1.0 else 1.0
    return rate, growth, shrink


class LookUp:
    """How :func:`first_child_in` makes the children of a layer and looks them up in another: see
    :func:`gridsolver.pegs.kernels.endgame.child_keys` for ``pre``, ``jumps``, ``flip`` (``all_holes``),
    ``images``, ``pagodas`` and ``above`` (a self-dual problem's look-up of a layer in itself).
    :attr:`hit` holds the child found in both, once found."""

    def __init__(self, pre: np.ndarray, jumps: Any, all_holes: np.uint64, images: np.ndarray,
                 pagodas: Any, above: bool = False) -> None:
        self.pre, self.jumps, self.all_holes = pre, jumps, all_holes
        self.images, self.pagodas, self.above = images, pagodas, above
        self.hit = np.zeros(0, dtype=np.uint64)


def first_child_in(look: LookUp, layer: np.ndarray, lo: int, hi: int, other: np.ndarray, node_limit: int,
                   stop_ns: int, halted: Callable[[], bool] | None = None) -> tuple[int, int, int, int]:
    """Look the children of ``layer[lo:hi]`` up in the sorted ``other``, a chunk of children at a time
    (written out, sorted and merged against ``other``): (code, jumps made, chunk start, chunk end).

    FOUND: :attr:`LookUp.hit` is a child in both, one of the children of ``layer[chunk start:chunk
    end]``; EXHAUSTED: no child of ``layer[lo:hi]`` is in ``other``; else a budget code (also when
    ``halted()`` says so between two chunks).

    A self-dual problem with an odd number of jumps looks its middle layer up in itself (``other`` is
    ``layer``), its positions mapped by the symmetry first. Its jumps between the two come in pairs: a
    game's jump from ``x`` (as a forward position) to a child ``y`` in the layer, read backwards on the
    complements and mapped by the symmetry, is a game's jump from ``y`` to ``x``. So with
    :attr:`LookUp.above` only the children at least their parent are looked up: one jump of each pair
    is, and about half of the keys are sorted.
    """
    from gridsolver.pegs.kernels import endgame as endgame_kernels

    part = layer[:hi]
    buffer = np.empty(max(CHUNK, 4 * len(look.jumps.a)), dtype=np.uint64)  # a position's children fit
    scratch = np.empty_like(buffer)
    recent = np.zeros(RECENT, dtype=np.uint64)  # a child kept in a chunk is not looked up again
    stats = np.zeros(3, dtype=np.int64)
    while True:
        stats[1] = 0
        code = endgame_kernels.child_keys(part, lo, look.pre, look.jumps, look.all_holes, look.images,
                                          look.pagodas, buffer, recent, look.above, node_limit, stop_ns,
                                          stats)
        if code not in (EXHAUSTED, OUT_OF_MEMORY):
            return int(code), int(stats[0]), lo, int(stats[2])
        chunk = buffer[:sort_unique(buffer[:stats[1]], scratch)]  # in place: no new array (nor page faults)
        hit = int(endgame_kernels.first_common(chunk, other))
        if hit >= 0:
            look.hit = chunk[hit:hit + 1].copy()
            return FOUND, int(stats[0]), lo, int(stats[2])
        if code == EXHAUSTED:
            return EXHAUSTED, int(stats[0]), lo, int(stats[2])
        if halted is not None and halted():
            return OUT_OF_TIME, int(stats[0]), lo, int(stats[2])
        lo = int(stats[2])


#: A meeting's layers of at least this many positions grow by sorting (:meth:`Endgame.grow`)
SORTED_FROM = 1 << 16
#: A meeting past its first deadline goes on to the second only when its layers' growth predicts it
#: decides the problem by then with this much of the time to spare.
ETA_MARGIN = 1.25
#: What a look-up (:func:`first_child_in`) costs per parent against the growth of a layer from it, which
#: the predictions measure: it writes, sorts and merges a chunk's children as a growth does, but keeps
#: none. Measured on the diamond's (1,3)->(4,8), (2,4)->(3,1) and (1,3)->(4,2) on two workers: 0.72-0.80.
LOOK_UP_COST = 0.8
#: ... and a self-dual problem's look-up of its middle layer in itself against a plain one: it sorts and
#: merges only the children at least their parent. Measured by looking 10M parents of (1,3)->(4,8)'s
#: layer up in the other both ways: 0.53.
MIDDLE_LOOK_UP_SHARE = 0.53


def middle_in_itself(self_dual: bool, jumps: int) -> bool:
    """Whether a meeting ends by looking a layer up in itself: a self-dual problem of an odd number of
    ``jumps`` (its middle layer; see :func:`first_child_in`)."""
    return self_dual and jumps % 2 == 1


def look_up_cost(middle: bool) -> float:
    """A look-up's cost per parent against a growth's: of a self-dual ``middle`` layer in itself, or not."""
    return LOOK_UP_COST * (MIDDLE_LOOK_UP_SHARE if middle else 1.0)


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
    until the two last layers are one jump apart (``k + j = pegs - 2``); then every game jumps from a
    position of the forward layer to one of the backward layer, so the children of the smaller of the
    two are looked up in the other (:func:`gridsolver.pegs.kernels.endgame.child_meeting`, no layer
    of the size of the next one is built): a child in both is on a game (rebuilt from both sides'
    layers), none proves the problem impossible.

    *Self-dual problems*: when a symmetry ``g`` of the board swaps ``s`` and ``F``
    (:func:`self_dual_symmetry`, e.g. a corner start and the opposite corner), ``g`` maps the problem
    onto its dual, so the forward side's layer ``k`` is the image under ``g`` of the backward side's
    layer ``k`` (and its pagodas the images of the backward side's): only the backward side is built.
    """

    def __init__(self, board: Board, finish: Cell, pagodas: bool = True) -> None:
        empty = board.holes & ~board.pegs
        assert empty.bit_count() == 1, "the dual problem needs a single empty hole at the start"
        self.pagodas = pagodas
        self.board = board
        self.finish = finish
        self.start_hole = board.cell(empty.bit_length() - 1)
        self.dual = board.with_pegs(board.holes & ~(1 << board.index(finish)))
        self.backward = Endgame(board, finish, pagodas=pagodas)
        self.forward = Endgame(self.dual, self.start_hole, pagodas=pagodas)
        for side in (self.backward, self.forward):
            side.sorted_from = SORTED_FROM
        self.mirror = self_dual_symmetry(board, finish)  # board numbering; None: both sides are built
        self.meeting: int | None = None  # a position (board numbering) on some game, once found
        self.via: tuple[int, Jump] | None = None  # the position before :attr:`meeting` and its jump there
        self.compared: tuple[int, int] | None = None  # the layers (forward k, backward j) last compared

    @property
    def forward_depth(self) -> int:
        """Jumps from the start of the forward side's last layer (the backward side's, when self-dual)."""
        return self.backward.pegs - 1 if self.mirror is not None else self.forward.pegs - 1

    @property
    def jumps_covered(self) -> int:
        """Jumps spanned by the two sides' last layers."""
        return self.forward_depth + (self.backward.pegs - 1)

    def _sides(self) -> tuple[Endgame, ...]:
        return (self.backward,) if self.mirror is not None else (self.backward, self.forward)

    def _next_side(self) -> Endgame:
        if self.mirror is not None:
            return self.backward
        smaller = len(self.forward.layers[-1]) <= len(self.backward.layers[-1])
        return self.forward if smaller else self.backward

    def eta(self) -> float:
        """Predicted seconds to decide the problem from here: each layer still to grow costs its side's
        last seconds per parent, sizes grow by the side's last growth, whose excess over 1 shrinks as it
        last shrank; then the look-up of the smaller last layer's children (:func:`look_up_cost`)."""
        total = self.board.peg_count - 1
        state: dict[int, list[float]] = {}
        for side in self._sides():
            rate, growth, shrink = trend([len(layer) for layer in side.layers[-3:]], side.seconds[-1])
            state[id(side)] = [float(len(side.layers[-1])), rate, growth, shrink]
        seconds = 0.0
        depths = {id(self.backward): self.backward.pegs - 1, id(self.forward): self.forward_depth}
        while sum(depths.values()) < total - 1:
            if self.mirror is not None:
                side = self.backward
                depths[id(self.forward)] += 1
            else:
                f, b = state[id(self.forward)], state[id(self.backward)]
                side = self.forward if f[0] <= b[0] else self.backward
            n, rate, growth, shrink = state[id(side)]
            seconds += rate * n
            state[id(side)] = [n * growth, rate, 1.0 + (growth - 1.0) * shrink, shrink]
            depths[id(side)] += 1
        smallest = min(state.values(), key=lambda row: row[0])
        middle = middle_in_itself(self.mirror is not None, total)
        return seconds + look_up_cost(middle) * smallest[1] * smallest[0]

    def run(self, budget: Budget, memory_bytes: int, deadline: float, until: float | None = None) -> str:
        """``"found"`` (:attr:`meeting` set), ``"impossible"`` or ``"stopped"`` (budget, memory, deadline:
        ``time.perf_counter()``). LP pruning gets at most LP_SHARE of the time to the deadline. Past the
        deadline the search goes on to ``until`` if :meth:`eta` (times ETA_MARGIN) says it gets there.
        A self-dual problem's forward side ends with the images of the backward side's pagodas."""
        outcome = self._run(budget, memory_bytes, deadline, until)
        if self.mirror is not None:
            self._mirror_bank()
        return outcome

    def _run(self, budget: Budget, memory_bytes: int, deadline: float, until: float | None) -> str:
        outcome = self._grow(budget, memory_bytes, deadline, until)
        if outcome is not None:
            return outcome
        if self.board.peg_count == 1:  # a start of one peg: the first layers themselves meet
            return self._first_meeting()
        return self._child_meeting(budget, memory_bytes, until if until is not None else deadline)

    def _grow(self, budget: Budget, memory_bytes: int, deadline: float, until: float | None) -> str | None:
        """Grow the sides until their last layers are one jump apart (None), or the outcome when that
        never happens: ``"impossible"`` (a layer left empty) or ``"stopped"``."""
        total = self.board.peg_count - 1
        started = time.perf_counter()
        lp_deadline = started + LP_SHARE * max(0.0, deadline - started)
        stop = deadline
        for side in self._sides():
            side.prune(lp_deadline)
        while True:
            for side in self._sides():
                if side.empty_at is not None:
                    return "impossible"
            if self.jumps_covered >= total - 1:
                return None
            side = self._next_side()
            room = (memory_bytes - 8 * self.positions()) / BYTES_PER_POSITION
            now = time.perf_counter()
            if now > stop and until is not None and stop < until and now + ETA_MARGIN * self.eta() <= until:
                stop = until
            if now > stop or room <= 0 or not side.grow(budget, int(room), until):
                return "stopped"
            side.prune(lp_deadline)
            if len(side.layers[-1]) == 0:
                side.empty_at = side.pegs

    def _dense_mirror(self) -> Permutation:
        assert self.mirror is not None
        dense = self.backward.dense
        return tuple(dense.number[self.mirror[bit]] for bit in dense.bits)

    def _mirror_bank(self) -> None:
        """The forward side's pagodas, when self-dual: the images of the backward side's."""
        g = self._dense_mirror()
        weights = np.zeros_like(self.backward.weights)
        for k, image in enumerate(g):
            weights[:, image] = self.backward.weights[:, k]
        self.forward.weights, self.forward.floors = weights, self.backward.floors.copy()
        self.forward.golden = self.backward.golden

    def _first_meeting(self) -> str:
        from gridsolver.pegs.kernels import endgame as endgame_kernels

        forward, backward = self.forward.layers[-1], self.backward.layers[-1]
        found = int(endgame_kernels.first_meeting(forward, backward, np.uint64(self.backward.all_holes),
                                                  self.backward.images))
        self.compared = (len(self.forward.layers) - 1, len(self.backward.layers) - 1)
        if found < 0:
            return "impossible"
        self.meeting = self.forward.board_mask(forward[found]) ^ self.board.holes
        return "found"

    def _child_meeting(self, budget: Budget, memory_bytes: int, deadline: float) -> str:
        """Children of the smaller of the forward layer ``k`` and the backward layer ``j``
        (``k + j = pegs - 2``) looked up in the other."""
        from gridsolver.pegs.kernels import endgame as endgame_kernels

        total = self.board.peg_count - 1
        j = self.backward.pegs - 1
        k = total - 1 - j
        self.compared = (k, j)
        back = self.backward.layers[j]
        pre = NO_IMAGE
        if self.mirror is not None:
            ahead = self.backward.layers[k]
            pre = byte_images([self._dense_mirror()])
            expand_forward = True
        else:
            ahead = self.forward.layers[k]
            expand_forward = len(ahead) <= len(back)
        layer, other = (ahead, back) if expand_forward else (back, ahead)
        # the pagodas the looked-up side's layers were pruned by (a complement failing one is not there)
        looked_up = self.backward if expand_forward else self.forward
        pagodas = endgame_kernels.Pagodas(looked_up.weights, looked_up.floors)
        jumps = endgame_kernels.Jumps(*self.backward.tri)
        all_holes = np.uint64(self.backward.all_holes)
        images = self.backward.others
        stop = deadline_ns(budget, deadline)
        if 8 * (CHUNK + self.held()) > memory_bytes:
            return "stopped"
        above = middle_in_itself(self.mirror is not None, total)
        assert not above or k == j, "a self-dual meeting of an odd number of jumps meets at its middle"
        look = LookUp(pre, jumps, all_holes, images, pagodas, above=above)
        code, nodes, lo, hi = self._look_up(look, layer, other, budget, stop)
        self.backward.nodes += nodes
        if code == EXHAUSTED:
            return "impossible"
        if code != FOUND:
            return "stopped"
        # which position of layer[lo:hi] has that child, and by which jump: its children looked up
        # again, one at a time, in a set of that child alone
        keys = np.zeros(FIRST_SLOTS, dtype=np.uint64)
        endgame_kernels.insert_all(keys, look.hit)
        part = layer[lo:hi]
        found = np.zeros(3, dtype=np.int64)
        code = endgame_kernels.child_meeting(part, 0, pre, jumps, all_holes, images, pagodas, keys,
                                             np.iinfo(np.int64).max, budget.deadline_ns(), found)
        if code != FOUND:  # stopped (Ctrl-C) while looking again at a chunk with a child in both layers
            return "stopped"
        dense = self.backward.dense
        a, b, c = (int(x[found[2]]) for x in self.backward.tri)
        jumped = (1 << a) | (1 << b) | (1 << c)
        entry = int(part[found[1]])
        if self.mirror is not None:
            entry = sum(1 << image for n, image in enumerate(self._dense_mirror()) if entry >> n & 1)
        if expand_forward:  # entry: a position reached from the start; its child can finish
            before, after = entry, entry ^ jumped
        else:  # entry: a complement of a position that can finish; its child: a reached position's
            before, after = self.backward.all_holes ^ entry ^ jumped, self.backward.all_holes ^ entry
        self.via = (self._board(dense, before), (dense.cell(a), dense.cell(c)))
        self.meeting = self._board(dense, after)
        return "found"

    def _look_up(self, look: LookUp, layer: np.ndarray, other: np.ndarray, budget: Budget,
                 stop: int) -> tuple[int, int, int, int]:
        """:func:`first_child_in` over the whole of ``layer``."""
        return first_child_in(look, layer, 0, len(layer), other, budget.node_limit(), stop)

    @staticmethod
    def _board(dense: Dense, position: int) -> int:
        return sum(1 << bit for k, bit in enumerate(dense.bits) if position >> k & 1)

    def line(self) -> list[Jump]:
        """A game from the start through :attr:`meeting` to one peg at the finish."""
        assert self.meeting is not None
        reached, middle = (self.meeting, []) if self.via is None else (self.via[0], [self.via[1]])
        # the dual game from the complement of a reached position to one peg at s, read backwards, is a
        # game from the start to it (the same jumps, in reverse order)
        if self.mirror is None:
            dual_line = self.forward.finish_line(self.board.holes ^ reached)
        else:  # the dual game is the image under the mirror of a game of the problem itself
            g = self.mirror
            inverse = [0] * len(g)
            for bit, image in enumerate(g):
                inverse[image] = bit
            source = sum(1 << inverse[bit] for bit in rules.bit_indices(self.board.holes ^ reached))
            cell = self.board.cell
            dual_line = [(cell(g[self.board.index(a)]), cell(g[self.board.index(c)]))
                         for a, c in self.backward.finish_line(source)]
        return dual_line[::-1] + middle + self.backward.finish_line(self.meeting)

    def positions(self) -> int:
        return self.forward.positions() + self.backward.positions()

    def held(self) -> int:
        """Positions of the layers held in memory (here all of them)."""
        return self.positions()

    def nodes(self) -> int:
        return self.forward.nodes + self.backward.nodes
