"""The exact search for the shortest program, and the result it reports.

Token counts k = 1, 2, ... are tried in order. The fragment library holds
every distinct behaviour of up to ``top`` tokens (all loop counts, see
:mod:`gridsolver.bunny.kernels.library`). Programs of ``top + 1`` to ``top + 3``
tokens are then enumerated from the single start state without storing them;
the ``top + 3`` search also needs the *loop layer*, the loops of ``top + 1``
tokens, which is stored while top = 1 and run from the states where its loops
start after that (:data:`VIRTUAL_LAYER_FROM`). A level is only built when it
is needed, so the library stays at the optimum minus three tokens
(docs/bunny.md gives the cases and why they are complete). When every
program of k - 1 tokens has been ruled out and one of k tokens works, it is
optimal for any loop counts.

Unbounded ``LOOP{}`` never needs to be searched: it only runs at the end of
an execution, and the finite loop with a large enough count behaves the same
up to completion with the same tokens. A final loop's count is free, so the
top-level search iterates it until its orbit closes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gridsolver.bunny import reference
from gridsolver.bunny.notation import format_program
from gridsolver.bunny.rules import Board, Loop, Program, Run, simulate, token_count
from gridsolver.bunny.walk import walk_program
from gridsolver.core import interrupt, watch
from gridsolver.core.budget import NO_LIMIT, Budget, peak_rss_mb
from gridsolver.core.kernels.stops import EXHAUSTED, LIBRARY_FULL, OUT_OF_TIME
from gridsolver.core.result import Result, Stats
from gridsolver.core.warm import ready
from gridsolver.core.words import cell, plural

GAME = "bunny"
DEFAULT_LIMIT = 1
FIRST_TABLE_SLOTS = 1 << 14  # the library's hash table starts here and doubles as entries come
WRAP_UP_SHARE = 0.25  # at most this share of --time is kept for improving and verifying the answer
#: From this many complete levels on, the loop layer is not stored: search_three_past runs its loops.
VIRTUAL_LAYER_FROM = 2


@dataclass
class Library:
    """The fragment library of one board, as numpy arrays for the kernels.

    ``capacity`` entries at most, and entries plus pooled rows within ``memory_bytes`` (by
    default what ``capacity`` entries of one new row a state would take). A kernel compiled on its
    first use gives its seconds back to ``budget`` (see :func:`gridsolver.core.warm.ready`).
    """

    board: Board
    capacity: int
    memory_bytes: int | None = None
    budget: Budget | None = None
    lib_f: np.ndarray = field(init=False)
    lib_r: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        n_states = 4 * self.board.size
        words = (self.board.size + 63) // 64
        cap = self.capacity
        entry_bytes, row_bytes = self.bytes_per_entry(self.board), self.bytes_per_row(self.board)
        if self.memory_bytes is None:
            self.memory_bytes = cap * (entry_bytes + n_states * row_bytes)
        # room for the empty fragment and the primitives whatever the budget (as for the capacity)
        self.memory_bytes = max(self.memory_bytes, 8 * (entry_bytes + n_states * row_bytes))
        row_cap = max(n_states + 1, min(1 << 30, self.memory_bytes // row_bytes))
        # np.zeros maps pages lazily: memory is only used by the entries and rows made.
        assert n_states <= np.iinfo(np.int16).max, "end states are int16 (boards of up to 8,191 squares)"
        self.lib_f = np.zeros((cap, n_states), np.int16)
        self.lib_r = np.zeros((cap, n_states), np.int32)
        self.pool = np.zeros((row_cap, words), np.uint64)
        self.pool_hash = np.zeros(row_cap, np.uint64)
        self.rows = np.zeros(1, np.int64)
        self.mem = np.array([self.memory_bytes, entry_bytes, row_bytes], np.int64)
        self.kinds = np.zeros(cap, np.int8)
        self.arg0 = np.zeros(cap, np.int64)
        self.arg1 = np.zeros(cap, np.int64)
        self.tokens = np.zeros(cap, np.int8)
        self.hashes = np.zeros(cap, np.uint64)
        # The tables are filled (-1: empty) and probed at random, so every page of them is touched:
        # they start small and double with the entries (grow_table), never sized to the budget.
        self.max_table_slots = 1 << (2 * cap - 1).bit_length()
        self.table = np.full(min(FIRST_TABLE_SLOTS, self.max_table_slots), -1, np.int32)
        self.max_row_slots = 1 << (2 * row_cap - 1).bit_length()
        self.row_table = np.full(min(FIRST_TABLE_SLOTS, self.max_row_slots), -1, np.int64)
        self.counter = np.zeros(1, np.int64)
        self.level_start = np.zeros(64, np.int64)
        self.level_end = np.zeros(64, np.int64)
        self.top = 0
        self.loop_layer = 0  # the level whose loops are stored (top, or top + 1 before its sequences)
        self.count_capped = False
        self.largest_count = 1
        from gridsolver.bunny.kernels import library as K

        self._k = K
        self._add(reference.identity(self.board), K.KIND_EMPTY, 0, 0, 0)
        self.level_end[0] = self.counter[0]
        self.level_start[1] = self.counter[0]
        for code, token in enumerate("FLR"):
            self._add(reference.primitive(self.board, token), K.KIND_PRIMITIVE, code, 0, 1)
        self.level_end[1] = self.counter[0]
        self.top = self.loop_layer = 1

    @staticmethod
    def bytes_per_entry(board: Board) -> int:
        """An entry without its rows: end states (int16) and row ids, its record and table slots."""
        n_states = 4 * board.size
        return n_states * (2 + 4) + 8 + 8 + 8 + 2 + 2 * 4 * 2

    @staticmethod
    def bytes_per_row(board: Board) -> int:
        """A pooled visited row: its words, its hash and up to four table slots."""
        return 8 * ((board.size + 63) // 64) + 8 + 4 * 8

    def visited(self, entry: int) -> np.ndarray:
        """The visited sets of an entry, one bitset row a state (a copy)."""
        rows: np.ndarray = self.pool[self.lib_r[entry]]
        return rows

    def _store(self) -> Any:
        """The library's arrays as the kernels take them (kernels.library.Store), made anew after a
        table grows."""
        return self._k.Store(self.lib_f, self.lib_r, self.kinds, self.arg0, self.arg1, self.tokens,
                             self.hashes, self.table, self.counter, self.pool, self.pool_hash, self.row_table,
                             self.rows, self.mem)

    def _add(self, behaviour, kind: int, arg0: int, arg1: int, tokens: int) -> None:
        f, v = reference.to_arrays(self.board, behaviour)
        r = np.full(len(f), -1, np.int32)
        ready(self.budget, self._k.insert, f, v, r, kind, arg0, arg1, tokens, self._store())
        while self._k.insert(f, v, r, kind, arg0, arg1, tokens, self._store()) == -2:
            if not self.grow_table():
                raise MemoryError("the memory budget cannot hold the primitive fragments")

    def grow_table(self) -> bool:
        """Double a hash table that is half full; False when none is (the budget is what is full)."""
        grew = False
        n = int(self.counter[0])
        if n < self.capacity and 2 * (n + 1) > len(self.table) and len(self.table) < self.max_table_slots:
            self.table = self._doubled(self.table, self.hashes, n)
            grew = True
        m = int(self.rows[0])
        if 2 * (m + 1) > len(self.row_table) and len(self.row_table) < self.max_row_slots:
            rows = np.full(2 * len(self.row_table), -1, np.int64)
            ready(self.budget, self._k.rehash_rows, self.pool_hash, m, rows)
            self._k.rehash_rows(self.pool_hash, m, rows)
            self.row_table = rows
            grew = True
        return grew

    def _doubled(self, table: np.ndarray, hashes: np.ndarray, count: int) -> np.ndarray:
        bigger = np.full(2 * len(table), -1, np.int32)
        ready(self.budget, self._k.rehash_library, hashes, count, bigger)
        self._k.rehash_library(hashes, count, bigger)
        return bigger

    @property
    def size(self) -> int:
        return int(self.counter[0])

    def build_next(self, limits: np.ndarray, count_cap: int, stats: np.ndarray) -> int:
        """Complete level ``top + 1``; returns the kernel stop code (EXHAUSTED, OUT_OF_TIME, LIBRARY_FULL).

        When its loops are stored already (:meth:`build_loop_layer`), only its sequences are added.
        """
        return self._build(self.top + 1, limits, count_cap, stats, sequences=True)

    def build_loop_layer(self, limits: np.ndarray, count_cap: int, stats: np.ndarray) -> int:
        """Store the loops of level ``top + 1`` only (the layer the ``top + 3`` search uses)."""
        return self._build(self.top + 1, limits, count_cap, stats, sequences=False)

    def _build(self, j: int, limits: np.ndarray, count_cap: int, stats: np.ndarray, sequences: bool) -> int:
        K = self._k
        loops_done = self.loop_layer == j
        if not loops_done:
            self.level_start[j] = self.counter[0]
        cursor = np.zeros(3, np.int64)  # where a builder stopped for a bigger table (see kernels.library)
        while True:
            args = (self.level_start, self.level_end, self._store())
            loops = (j, *args, count_cap, limits, stats, cursor)
            if loops_done:
                status = EXHAUSTED
            else:
                ready_now = _ready_to_run(self.budget, limits, K.build_loops, *loops)
                status = K.build_loops(*loops) if ready_now else OUT_OF_TIME
            if status == EXHAUSTED:
                loops_done = True
                self.level_end[j] = self.counter[0]
                if sequences:
                    more = (j, *args, limits, stats, cursor)
                    ready_now = _ready_to_run(self.budget, limits, K.build_sequences, *more)
                    status = K.build_sequences(*more) if ready_now else OUT_OF_TIME
            if status != LIBRARY_FULL or not self.grow_table():
                break
        self.level_end[j] = self.counter[0]
        self.largest_count = max(self.largest_count, int(stats[1]))
        if stats[2]:
            self.count_capped = True
        if status == EXHAUSTED:
            if sequences:
                self.top = j
            self.loop_layer = j
        return int(status)

    # -- programs back from entries ----------------------------------------
    def program(self, entry: int) -> Program:
        kind = self.kinds[entry]
        K = self._k
        if kind == K.KIND_EMPTY:
            return ()
        if kind == K.KIND_PRIMITIVE:
            return ("FLR"[self.arg0[entry]],)
        if kind == K.KIND_LOOP:
            return (Loop(int(self.arg1[entry]), self.program(int(self.arg0[entry]))),)
        return self.program(int(self.arg0[entry])) + self.program(int(self.arg1[entry]))

    def pieces_program(self, row: np.ndarray) -> Program:
        """The program of a solution row found by the top-level search."""
        from gridsolver.bunny.kernels import enumeration as K

        out: Program = ()
        for p in range(K.MAX_PIECES):
            kind, x, y, z, n = (int(v) for v in row[p * K.PIECE_FIELDS:p * K.PIECE_FIELDS + 5])
            if kind == K.PIECE_ENTRY:
                out += self.program(x)
            elif kind == K.PIECE_LOOP:
                body = sum((self.program(e) for e in (x, y, z) if e >= 0), ())
                out += (Loop(n, body),)
            elif kind == K.PIECE_LOOP_INNER:
                inner = (Loop(int(row[p * K.PIECE_FIELDS + 5]), self.program(y)),)
                before = self.program(x) if x >= 0 else ()
                after = self.program(z) if z >= 0 else ()
                out += (Loop(n, before + inner + after),)
        return out


def greedy_program(lib: Library, board: Board, step_limit: int = 100_000,
                   deadline_ns: int = NO_LIMIT) -> Program | None:
    """A quick upper bound: repeatedly take the library fragment that marks most per token.

    When no fragment marks anything new from where the bunny stands, it walks
    the shortest path to the nearest unmarked square instead. None when the
    deadline (on the monotonic clock) passes first: on thousands of squares
    this takes a good part of a second.
    """
    from gridsolver.bunny.walk import path_to_nearest

    count = min(lib.size, 20_000)  # the shortest fragments come first; this bounds the time it takes
    words = lib.pool.shape[1]
    squares = np.array(sorted(board.targets()), np.int64)
    target = np.zeros(words, np.uint64)
    np.bitwise_or.at(target, squares >> 6, np.left_shift(np.uint64(1), (squares & 63).astype(np.uint64)))
    vis = np.zeros(words, np.uint64)
    vis[board.start >> 6] |= np.uint64(1 << (board.start & 63))
    tokens = lib.tokens[:count].astype(np.float64)
    tokens[tokens == 0] = np.inf
    state = board.start * 4
    program: Program = ()
    for _ in range(step_limit):
        if not interrupt.time_left(deadline_ns):
            return None
        missing = target & ~vis
        if not missing.any():
            return program
        gained = lib.pool[lib.lib_r[:count, state]] & missing
        gain = np.unpackbits(gained.view(np.uint8), axis=1).sum(axis=1)
        best = int(np.argmax(gain / tokens))
        if gain[best] > 0:
            program += lib.program(best)
            vis |= lib.pool[lib.lib_r[best, state]]
            state = int(lib.lib_f[best, state])
            continue
        marked = (vis[squares >> 6] >> (squares & 63).astype(np.uint64)) & np.uint64(1)
        wanted = set(squares[marked == 0].tolist())
        path = path_to_nearest(board, state // 4, state % 4, wanted)
        for token in path:
            entry = 1 + "FLR".index(token)  # the primitives follow the empty fragment
            vis |= lib.pool[lib.lib_r[entry, state]]
            state = int(lib.lib_f[entry, state])
        program += tuple(path)
    return program


@dataclass
class Solution:
    """A verified program: the unbounded form and its finite form."""

    program: Program
    finite: Program
    run: Run

    @property
    def tokens(self) -> int:
        return token_count(self.program)


def open_final_loop(program: Program) -> Program:
    """The same program with its last top-level loop (if it ends with one) unbounded."""
    if program and isinstance(program[-1], Loop):
        return program[:-1] + (Loop(None, program[-1].body),)
    return program


def smallest_final_count(board: Board, program: Program) -> Program:
    """The finite form with the smallest final-loop count that still solves the board."""
    if not program or not isinstance(program[-1], Loop):
        return program
    last = program[-1]
    low, high = 1, last.count if last.count is not None else 4 * board.size + 1
    # Marks only accumulate, so "solves" is monotone in the final count: bisect it.
    while low < high:
        mid = (low + high) // 2
        if simulate(board, program[:-1] + (Loop(mid, last.body),)).solved:
            high = mid
        else:
            low = mid + 1
    return program[:-1] + (Loop(low, last.body),)


def verify(board: Board, program: Program) -> Solution | None:
    """Check a finite program with the simulator; return both forms, or None if it fails."""
    run = simulate(board, program)
    if not run.solved:
        return None
    finite = smallest_final_count(board, program)
    opened = open_final_loop(finite)
    if not simulate(board, finite).solved or not simulate(board, opened).solved:
        return None
    return Solution(opened, finite, simulate(board, finite))


@dataclass
class Outcome:
    """What the search established for one board."""

    solutions: list[Solution]
    exhausted: int  # every program of up to this many tokens was ruled out
    optimal: bool
    stopped_by: str | None
    nodes: int
    library: int
    top: int
    count_capped: bool
    largest_count: int


@dataclass
class _Start:
    """The kernels' view of the start: state, visited bitset, target bitset, result buffers."""

    board: Board
    limit: int

    def __post_init__(self) -> None:
        from gridsolver.bunny.kernels.enumeration import MAX_PIECES, PIECE_FIELDS

        board = self.board
        words = (board.size + 63) // 64
        self.state = board.start * 4
        self.target = np.zeros(words, np.uint64)
        for q in board.targets():
            self.target[q >> 6] |= np.uint64(1 << (q & 63))
        self.visited = np.zeros(words, np.uint64)
        self.visited[board.start >> 6] |= np.uint64(1 << (board.start & 63))
        self.found = np.zeros((max(1, self.limit), MAX_PIECES * PIECE_FIELDS), np.int64)
        self.n_found = np.zeros(1, np.int64)
        self.stamp = np.full(4 * board.size, -1, np.int64)
        self.stamp_counter = np.zeros(1, np.int64)


def _programs_of(k: int, lib: Library, start: _Start, limits: np.ndarray, stats: np.ndarray,
                 count_cap: int) -> int:
    """Fill ``start.found`` with programs of exactly k tokens that solve the board; kernel stop code."""
    from gridsolver.bunny.kernels import enumeration as K

    start.n_found[0] = 0
    if k <= lib.top:  # stored fragments, checked from the start state
        covering = (lib.level_start[k], lib.level_end[k], lib.lib_r, lib.pool, start.state, start.target)
        ready(lib.budget, K.covering, *covering)
        for e in K.covering(*covering):
            if start.n_found[0] < start.found.shape[0]:
                start.found[start.n_found[0]] = 0
                start.found[start.n_found[0], :2] = (K.PIECE_ENTRY, e)
                start.n_found[0] += 1
        return EXHAUSTED
    frags = K.Fragments(lib.level_start, lib.level_end, lib.kinds, lib.lib_f, lib.lib_r, lib.pool)
    answers = K.Answers(start.found, start.n_found, start.stamp, start.stamp_counter)
    no_prefix = np.zeros(0, np.int64)
    if k <= lib.top + 2:
        kernel = K.search_one_past if k == lib.top + 1 else K.search_two_past
        args: tuple[Any, ...] = (start.state, start.visited, lib.top, frags, start.target, no_prefix, answers,
                                 limits, stats)
    else:
        assert k == lib.top + 3
        kernel = K.search_three_past
        virtual = int(lib.loop_layer == lib.top)  # the loop layer is stored for top = 1 only (see search)
        args = (start.state, start.visited, lib.top, frags, start.target, answers, virtual, count_cap, limits,
                stats)
    if not _ready_to_run(lib.budget, limits, kernel, *args):
        return OUT_OF_TIME
    return int(kernel(*args))


def _ready_to_run(budget: Budget | None, limits: np.ndarray, kernel: Any, *args: Any) -> bool:
    """Make ``kernel`` ready for ``args`` (:func:`gridsolver.core.warm.ready`: its compiling moves
    the deadline in ``limits[0]`` on) and say whether there is time to run it: once the deadline has
    passed, or after Ctrl-C, a kernel is not compiled only to stop at once."""
    if not interrupt.time_left(int(limits[0])):
        return False
    limits[0] += ready(budget, kernel, *args)
    return True


def search(board: Board, budget: Budget, limit: int = DEFAULT_LIMIT, count_cap: int | None = None,
           on_progress: Callable[[str], None] | None = None) -> Outcome:
    """The shortest programs for a solvable board (every target reachable), within ``budget``."""
    started = time.monotonic_ns()
    fallback = verify(board, walk_program(board))
    assert fallback is not None, "the walk program must solve a connected board"
    verify_ns = time.monotonic_ns() - started
    reserve = wrap_up_reserve_ns(verify_ns, budget)
    count_cap = count_cap or 64 * board.size + 64
    lib = Library(board, library_capacity(board, budget), library_bytes(budget), budget)
    limits = np.array([budget.deadline_ns() - reserve, budget.node_limit(), clock_interval(board), 0],
                      np.int64)
    stats = np.zeros(4, np.int64)
    start = _Start(board, limit)
    watch.improved(fallback.tokens, format_program(fallback.program))  # the walk: a solution at once
    exhausted = 0
    stopped = None
    solutions: list[Solution] = []
    for k in range(1, fallback.tokens):
        status = EXHAUSTED
        watch.deeper(k)
        # programs of k tokens need levels up to k - 3 and the loops of level k - 2
        while lib.top < k - 3 and status == EXHAUSTED:
            limits[0] = budget.deadline_ns() - reserve  # read afresh: it moves to the start on Ctrl-C
            status = lib.build_next(limits, count_cap, stats)
        layer_needed = k == lib.top + 3 and lib.loop_layer == lib.top and lib.top < VIRTUAL_LAYER_FROM
        if status == EXHAUSTED and layer_needed:
            limits[0] = budget.deadline_ns() - reserve
            status = lib.build_loop_layer(limits, count_cap, stats)
        if status == EXHAUSTED:
            limits[0] = budget.deadline_ns() - reserve
            status = _programs_of(k, lib, start, limits, stats, count_cap)
            _collect(board, lib, start, solutions)
        if status != EXHAUSTED:
            stopped = _stopped_by(status, stats, budget)
            break
        if solutions:
            break
        exhausted = k
        watch.bounded(k + 1)  # every program of k tokens ruled out
        if on_progress is not None:
            on_progress(f"no program of {_tokens(k)}; library {lib.size:,} fragments")
    if solutions:  # found at k after every program of k - 1 tokens was ruled out
        optimal = True
    else:  # stopped by the budget, or every program shorter than the walk was ruled out
        optimal = stopped is None
        solutions = [fallback]
        if not optimal:
            solutions = [_best_found(board, lib, fallback, budget, verify_ns)]
    return Outcome(solutions, exhausted, optimal, stopped, int(stats[0]), lib.size, lib.top,
                   lib.count_capped, lib.largest_count)


def _best_found(board: Board, lib: Library, walk: Solution, budget: Budget, verify_ns: int) -> Solution:
    """The shortest of the walk's and the greedy walk's programs, each also folded (repeated runs
    written as loops, :mod:`gridsolver.bunny.fold`), every candidate verified by the simulator.

    Folding stops in time for the two verifications that follow it (each about ``verify_ns``)."""
    from gridsolver.bunny.fold import absorb_tail, fold

    candidates = [walk]
    program = greedy_program(lib, board, deadline_ns=budget.deadline_ns())
    greedy = None if program is None else verify(board, program)
    if greedy is not None:
        candidates.append(greedy)
    fold_until = budget.deadline_ns() - 2 * verify_ns
    for found in list(candidates):
        folded = verify(board, absorb_tail(fold(found.finite, fold_until)))
        if folded is not None:
            candidates.append(folded)
    return min(candidates, key=lambda solution: solution.tokens)  # the first of equals: unfolded walk


def library_bytes(budget: Budget) -> int:
    """The library's share of the memory budget: 60% (the rest is Python, numba and the search)."""
    return int((budget.memory_bytes() or 8 << 30) * 0.6)


def library_capacity(board: Board, budget: Budget) -> int:
    """The most fragments the library may hold: its share of the memory in entries without rows
    (its arrays are mapped lazily, so only the entries made take memory; the kernels keep
    entries and rows together within :func:`library_bytes`)."""
    return max(8, min(1 << 30, library_bytes(budget) // Library.bytes_per_entry(board)))


def wrap_up_reserve_ns(verify_ns: int, budget: Budget) -> int:
    """Time kept from the kernels for what follows them: a greedy answer and its verification.

    That work is about four times the verification of the walk program made at the start
    (``verify_ns``: the greedy program's and two folded programs' verifications, and folding):
    milliseconds on small boards, a second or two on 4,000 squares, where it used to run past
    --time. At most :data:`WRAP_UP_SHARE` of the time; none without a time limit.
    """
    if budget.time_s is None:
        return 0
    return min(4 * verify_ns, int(WRAP_UP_SHARE * budget.time_s * 1e9))


def clock_interval(board: Board) -> int:
    """Kernel nodes between two readings of the clock (see ``kernels.budget.expired``).

    A node costs up to 4 x squares x words word operations: about 2^20 of them pass between
    readings, a few milliseconds whatever the size, so --time holds on a 4,000-square board too.
    """
    work = 4 * board.size * ((board.size + 63) // 64)
    return max(1, min(1024, (1 << 20) // work))


def _collect(board: Board, lib: Library, start: _Start, solutions: list[Solution]) -> None:
    """Verify the programs the kernels found and keep the distinct ones."""
    for row in start.found[: start.n_found[0]]:
        solution = verify(board, lib.pieces_program(row))
        if solution is None:  # a kernel bug must never become a reported answer
            raise AssertionError(f"search kernel proposed a failing program: {row.tolist()}")
        if all(format_program(s.finite) != format_program(solution.finite) for s in solutions):
            solutions.append(solution)


def _tokens(count: int) -> str:
    return plural(count, "token")


def _stopped_by(status: int, stats: np.ndarray, budget: Budget) -> str:
    if status == LIBRARY_FULL:
        return "memory"
    return "nodes" if stats[0] >= budget.node_limit() else "time"


def solve(board: Board, budget: Budget, limit: int = DEFAULT_LIMIT,
          on_progress: Callable[[str], None] | None = None) -> Result:
    """Solve one board (facing east) and say what is proved; the caller verifies by replay."""
    start = time.perf_counter()
    unreachable = board.unreachable()
    if unreachable:
        where = "; ".join(cell(r, c) for r, c in unreachable[:5])
        more = f" and {len(unreachable) - 5} more" if len(unreachable) > 5 else ""
        return Result(GAME, board.name, "impossible", score_name="tokens",
                           proof=f"no program can reach the square at {where}{more} "
                                 "(not connected to the start)",
                           details={"unreachable": [[r, c] for r, c in unreachable]})
    if not board.targets():
        return Result(GAME, board.name, "optimal", solution="", score=0, score_name="tokens",
                           proof="every square is already marked")
    outcome = search(board, budget, limit, on_progress=on_progress)
    best = outcome.solutions[0]
    k = best.tokens
    bound = "any loop counts" if not outcome.count_capped else f"loop counts up to {outcome.largest_count}"
    if outcome.optimal:
        status = "optimal"
        proof = (f"optimal: no program of {_tokens(k - 1)} solves this board, for {bound}" if k > 1
                 else "optimal: one token is the least possible")
    else:
        status = "best-found"
        proof = (f"best found: every program of up to {_tokens(outcome.exhausted)} was ruled out "
                 f"(for {bound}); {_tokens(k)} found")
    searched = time.perf_counter() - start - budget.compile_s  # kernels compiled on first use: not searching
    stats = Stats(nodes=outcome.nodes, elapsed_s=max(0.0, searched), peak_memory_mb=peak_rss_mb())
    details = {
        "tokens": k,
        "finite_form": format_program(best.finite),
        "steps": best.run.steps,
        "exhausted_tokens": outcome.exhausted,
        "library_fragments": outcome.library,
        "library_tokens": outcome.top,
    }
    if limit > 1:
        details["all"] = [format_program(s.program) for s in outcome.solutions]
    return Result(GAME, board.name, status, solution=format_program(best.program), score=k,
                  score_name="tokens", proof=proof, stopped=outcome.stopped_by, stats=stats, details=details)
