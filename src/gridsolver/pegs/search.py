"""Peg solitaire searches: set up the kernels, run them within the budget, report.

Objectives (see ``docs/pegs.md``):

- ``jumps``: most jumps (fewest pegs left). Default strategy: depth-first
  searches restarted with doubling node limits and noisy move order, sharing
  one table of fully explored positions (anytime, and exhaustive when a run
  completes). ``published``: the published comesolo method
  (:func:`gridsolver.pegs.kernels.published.published`).
- ``finish``: one peg left in a given hole. Position classes first, then a
  depth-first search with a table of dead positions under the symmetries
  that fix the finish hole; an exhausted search proves impossibility.
- ``moves``: fewest moves (runs of jumps by one peg) to one peg: breadth-first
  search by moves from both ends until they meet (boards of up to 64 holes,
  :mod:`gridsolver.pegs.meet`), else iterative deepening on the move count.

:func:`search` returns an unverified :class:`~gridsolver.core.result.Result`:
:meth:`gridsolver.pegs.game.PegsGame.solve` replays it under the rules
(:func:`gridsolver.core.game.verify`), and only that replay sets
``verified``. :func:`report` replays the jumps too, for the details (pegs
left, moves) and as an internal consistency check.

The kernels (:mod:`gridsolver.pegs.kernels`) take the board's arrays and
their options as named bundles made here: :class:`Geometry`, :class:`Finish`,
:class:`Order`, :class:`Table`, :class:`Ceilings`, :class:`MoveBound`,
:class:`Ranking` and :class:`Doom`. Each field keeps one type (the
constructors below cast), so every kernel compiles once.

This module imports numpy but not numba: the kernels are imported inside
the functions that run them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from gridsolver.core import watch
from gridsolver.core.budget import STOP_REASONS, Budget, peak_rss_mb
from gridsolver.core.errors import InputError
from gridsolver.core.kernels.stops import (
    DOOMED,
    EXHAUSTED,
    FOUND,
    OUT_OF_NODES,
    OUT_OF_TIME,
    TABLE_FULL,
)
from gridsolver.core.result import Result, Stats
from gridsolver.core.table import GrowingTable
from gridsolver.pegs import endgame, meet, rules
from gridsolver.pegs.endgame import BYTES_PER_POSITION, Endgame
from gridsolver.pegs.geometry import (
    DOOM_BELOW,
    PegBound,
    PositionClasses,
    fewest_pegs_bound,
    fixing,
    pagoda_for,
    pull_matrix,
    symmetries,
)
from gridsolver.pegs.geometry import transform as geometry_transform
from gridsolver.pegs.rules import OBJECTIVES, STRATEGIES, Board, Cell, Jump

PUBLISHED_BIAS = 0.31


# -- the kernels' bundles ---------------------------------------------------------------------------

class Geometry(NamedTuple):
    """The board as every kernel sees it."""

    holes: np.ndarray  # uint64[W]: the holes, in the board's bit numbering
    offsets: np.ndarray  # int64[D]: the bit offset of each jump direction
    zobrist: np.ndarray  # uint64[64 W]: a random key per bit
    perms: np.ndarray  # int64[S, 64 W]: the symmetries a search uses, the identity first


class Finish(NamedTuple):
    """What the depth-first search aims at and prunes with (see :func:`_restarted_dfs`)."""

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
    """The most the published method's arrays may grow to (:func:`published_limits`)."""

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


def _notation(jumps: list[Any]) -> Callable[[], list[str]]:
    """The jumps in the result's notation, written only when an event asks for them."""
    kept = list(jumps)
    return lambda: [rules.format_jump(j) for j in kept]


def centroid(board: Board) -> tuple[float, float]:
    cells = board.hole_cells()
    return (sum(r for r, _ in cells) / len(cells), sum(c for _, c in cells) / len(cells))


STOPPED = STOP_REASONS


def search(board: Board, budget: Budget, *, label: str = "board", objective: str = "jumps",
           finish: Cell | None = None, strategy: str = "default", seed: int = 0,
           note: Callable[[str], None] | None = None, workers: int = 1) -> Result:
    """Search one board for ``objective`` within ``budget``; the result is not verified yet.

    The options are those :meth:`gridsolver.pegs.game.PegsGame.check_options`
    has checked (this function only refuses what it cannot run). ``workers``: the worker processes
    a finish problem's two-sided search may use (see :mod:`gridsolver.pegs.meeting_workers`). ``note``
    (e.g. a progress display's ``note``) hears the best result so far of the
    anytime jumps search after each of its runs.
    """
    if objective not in OBJECTIVES or strategy not in STRATEGIES:
        raise InputError(f"objective {objective!r} with strategy {strategy!r}: expected an objective of "
                         f"{', '.join(OBJECTIVES)} and a strategy of {', '.join(STRATEGIES)}")
    if (objective == "finish" and finish is None) or (objective == "jumps" and finish is not None):
        raise InputError(f"objective {objective!r} with finish {finish!r}: finish needs a finish hole, "
                         "jumps takes none")
    started = time.perf_counter()
    if board.peg_count == 1 and objective != "jumps":
        # nothing to search: the one peg either is where it must be or can never move
        done = finish is None or board.has_peg(finish)
        outcome = (("optimal", [], "one peg at the start: no jump needed", 0, None, {}) if done else
                   ("impossible", None, "one peg at the start and no jump is possible", 0, None, {}))
    elif objective == "finish":
        assert finish is not None
        outcome = _solve_finish(board, finish, budget, seed, workers)
    elif objective == "moves":
        outcome = _solve_moves(board, finish, budget)
    elif strategy == "published":
        outcome = _solve_published(board, budget, seed)
    else:
        outcome = _solve_jumps(board, budget, seed, note)
    status, jumps, proof, nodes, stopped, extra = outcome
    if objective == "jumps" and jumps is not None:
        found = len(jumps)
        jumps = play_out(board, jumps)
        if note and len(jumps) > found:
            note(f"best {board.peg_count - len(jumps)} pegs left (the best line played on to its end)")
    stats = Stats(nodes=nodes, elapsed_s=time.perf_counter() - started, peak_memory_mb=peak_rss_mb())
    return report(board, label, objective, finish, strategy, status, jumps, proof, stopped, stats, extra)


def play_out(board: Board, jumps: list[Jump]) -> list[Jump]:
    """``jumps`` followed by any legal jumps until none is left (the first by cell and direction).

    A search stopped by its budget may hold a best line whose last position
    still has a jump; playing on only adds jumps, and a most-jumps answer then
    always ends where no jump is left, as its replay checks.
    """
    final = rules.replay(board, jumps)
    triples = rules.triples(board)
    pegs = final.pegs
    out = list(jumps)
    while True:
        for a, b, c in triples:
            if pegs >> a & 1 and pegs >> b & 1 and not pegs >> c & 1:
                pegs ^= (1 << a) | (1 << b) | (1 << c)
                out.append((board.cell(a), board.cell(c)))
                break
        else:
            return out


def report(board: Board, label: str, objective: str, finish: Cell | None, strategy: str, status: str,
           jumps: list[Jump] | None, proof: str, stopped: str | None, stats: Stats, extra: dict) -> Result:
    """Build the result; the jumps are replayed for the details and as a consistency check.

    A replay that disagrees with the search is a bug: it is recorded in
    ``details['consistency']`` (the verifying replay will then refuse the result).
    """
    details: dict = {"objective": objective, "jump_rule": board.jumps, "pegs_at_start": board.peg_count}
    if objective == "jumps":
        details["strategy"] = strategy
    if finish is not None:
        details["finish"] = list(finish)
    details.update(extra)
    score = None
    solution = None
    if jumps is not None:
        solution = [rules.format_jump(j) for j in jumps]
        moves = rules.count_moves(jumps)
        score = moves if objective == "moves" else len(jumps)
        details.update(jumps=len(jumps), moves=moves)
        try:
            final = rules.replay(board, jumps)
        except InputError as exc:
            details["consistency"] = f"the search's own jumps do not replay: {exc}"
        else:
            details["pegs_left"] = final.peg_count
            one_peg = final.peg_count == 1 and (finish is None or final.has_peg(finish))
            if status == "optimal" and objective != "jumps" and not one_peg:
                details["consistency"] = "the search claims one peg left in the finish, the replay disagrees"
    return Result(game="pegs", input=label, status=status, solution=solution, score=score,
                  score_name="moves" if objective == "moves" else "jumps", proof=proof, stopped=stopped,
                  stats=stats, details=details)


# -- jumps -------------------------------------------------------------------------

#: Phase 1 of the most-jumps search under a node budget stops at this many nodes (about the second it
#: gets under a time budget, at 2 million nodes a second), so that a node budget repeats exactly.
PHASE_ONE_NODES = 2_000_000
TABLE_SHARE = 0.5  # of the memory budget: the depth-first runs' table, with nothing else held
TABLE_SHARE_LEAST = 0.05  # ... and at least this, however much a stopped meeting holds


def phase_one_budget(budget: Budget) -> Budget:
    """The depth-first phase's part of ``budget``: a twentieth of the time (at most 1 s) or, under a
    node budget, at most :data:`PHASE_ONE_NODES` nodes and no clock of its own (a time share would
    make the nodes, and so the answer, depend on the machine's speed); phase 2 gets the rest."""
    if budget.nodes is not None:
        return Budget(time_s=budget.time_s, memory_mb=budget.memory_mb,
                      nodes=min(budget.nodes, PHASE_ONE_NODES), started_ns=budget.started_ns)
    share = 1.0 if budget.time_s is None else min(0.05 * budget.time_s, 1.0)
    return Budget(time_s=share, memory_mb=budget.memory_mb, nodes=None if budget.time_s else 5_000_000)


def _solve_jumps(board: Board, budget: Budget, seed: int, note: Callable[[str], None] | None = None):
    """Exhaustive search first (proves small boards), then beam searches of doubling width.

    Both stop as soon as a line leaves as few pegs as the position classes allow
    (:func:`gridsolver.pegs.geometry.fewest_pegs_bound`): such a line is optimal.
    """
    layout = Layout.of(board, seed)
    perms = symmetries(board)
    bound = fewest_pegs_bound(board)
    goal = board.peg_count - bound.pegs
    watch.bounded(goal)  # the position classes' fewest pegs: at most this many jumps
    code, best, nodes, runs, entries, _ = _restarted_dfs(board, layout, perms, phase_one_budget(budget), seed,
                                                         goal=goal)
    extra = {"symmetries": len(perms), "restarts": runs, "table_entries": entries,
             "fewest_pegs_possible": bound.pegs}
    if len(best) >= goal:
        return "optimal", best, _bound_proof(board, bound), nodes, None, extra
    if code == EXHAUSTED:
        proof = (f"exhaustive depth-first search under {len(perms)} symmetries with a table of explored "
                 "positions")
        return "optimal", best, proof, nodes, None, extra
    bound = _pagoda_bound(board, bound, best, budget, extra)
    goal = board.peg_count - bound.pegs
    watch.bounded(goal)
    if len(best) >= goal:
        return "optimal", best, _bound_proof(board, bound), nodes, None, extra
    if note:
        note(f"best {board.peg_count - len(best)} pegs left (depth-first phase)")
    code, beam_best, beam_nodes, width, doomed_runs = _widening_beam(board, layout, budget, seed, nodes, best,
                                                                     note, goal=goal)
    nodes += beam_nodes
    extra["widest_beam"] = width
    extra["beam_runs_stopped_doomed"] = doomed_runs
    if len(beam_best) > len(best):
        best = beam_best
        extra["found_by"] = "beam"
    if len(best) >= goal:
        return "optimal", best, _bound_proof(board, bound), nodes, None, extra
    stopped = "nodes" if budget.nodes is not None and nodes >= budget.nodes else "time"
    return "best-found", best, "", nodes, stopped, extra


PAGODA_SHARE = 0.1  # of --time: the most the pagoda bound may take (at most PAGODA_MAX_S)
PAGODA_MAX_S = 10.0
PAGODA_NO_TIME_S = 5.0  # the cap when the budget has no time limit (nodes only)


def _pagoda_bound(board: Board, bound: PegBound, best: list[Jump], budget: Budget,
                  extra: dict[str, object]) -> PegBound:
    """The fewest-pegs bound again, strengthened by pagoda functions (:mod:`gridsolver.pegs.pagoda`).

    Run once the first phase has a line (its holes are known to fill, its last pegs are tried first
    as single survivors) and only when that line leaves more pegs than ``bound``; linear programs take
    at most a tenth of the time (PAGODA_NO_TIME_S with a node budget only). Keeps ``bound`` when the
    pagodas prove no more.
    """
    from gridsolver.pegs import pagoda

    if board.peg_count - len(best) <= bound.pegs:
        return bound
    remaining = budget.remaining_s()
    seconds = PAGODA_NO_TIME_S if budget.time_s is None else min(PAGODA_SHARE * budget.time_s, PAGODA_MAX_S)
    seconds = seconds if remaining is None else min(seconds, remaining)
    filled, position = board.pegs, board
    for jump in best:
        position = rules.apply(position, jump)
        filled |= position.pegs
    started = time.perf_counter()
    stronger = pagoda.pagoda_bound(board, filled, rules.bit_indices(position.pegs), seconds)
    extra["pagoda_bound_s"] = round(time.perf_counter() - started, 2)
    if stronger.pegs > bound.pegs:
        extra["fewest_pegs_possible"] = stronger.pegs
        return stronger
    return bound


def _bound_proof(board: Board, bound: PegBound) -> str:
    jumps = board.peg_count - bound.pegs
    if bound.pegs == 1:
        return f"one peg left: {jumps} jumps is the most possible"
    return f"{bound.pegs} pegs left, the fewest possible ({bound.proof}): {jumps} jumps is the most possible"


def luby_term(i: int) -> int:
    """The ``i``-th term (from 1) of Luby's restart sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...

    Restarts of a randomised search whose run times have a heavy tail do best
    with many short runs and a few ever longer ones (Luby, Sinclair and
    Zuckerman 1993); the longest still doubles, so an exhaustive run comes.
    """
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


def _restarted_dfs(board: Board, layout: Layout, perms: list, budget: Budget, seed: int,
                   target: Cell | None = None, first_limit: int = 20_000, goal: int | None = None,
                   ending: Endgame | None = None, bank: tuple[np.ndarray, np.ndarray] | None = None,
                   table_share: float = TABLE_SHARE):
    """Depth-first searches with doubling node limits sharing one table; run 0 follows the
    move-order weights, later runs add noise so they try other lines. A finish search that builds
    its endgame (after ENDGAME_AFTER_NODES) goes on with Luby-sized runs (FINISH_RUN_NODES).

    With ``target`` the searches look for one peg there; the table then holds dead positions.
    Without, they stop after the run whose best line makes ``goal`` jumps (when given).
    Either way a stored position's whole subtree was explored, so the table stays valid from
    run to run and a run that ends without hitting its node limit is exhaustive.
    """
    from gridsolver.pegs.kernels.dfs import dfs

    geometry = layout.geometry._replace(perms=layout.perm_array(perms))
    weights = layout.weights(centroid(board) if target is None else target)
    target_bit = -1 if target is None else board.index(target)
    golden = None if target is None else pagoda_for(board, target)
    pagoda = np.zeros((0, layout.words * 64), dtype=np.float64) if golden is None else golden[None, :]
    floor = np.full(len(pagoda), 1.0 - 1e-9)
    if bank is not None:  # exact pagodas (multiples of 2^-24) and their floors, the finish's weights
        pagoda = np.concatenate([pagoda, bank[0]])
        floor = np.concatenate([floor, bank[1]])
    table = GrowingTable(budget, layout.words, share=table_share)
    start = layout.to_words(board.pegs)
    best: list[Jump] = []
    best_path = np.zeros(board.peg_count, dtype=np.int32)
    stats = np.zeros(3, dtype=np.int64)
    nodes, run, limit = 0, 0, first_limit
    code = OUT_OF_NODES
    node_budget = budget.node_limit()
    if ending is not None:
        nodes += ending.nodes
    luby_runs = 0
    no_layer, no_images = np.zeros(1, dtype=np.uint64), np.zeros((1, 8 * layout.words, 256), dtype=np.uint64)
    while True:
        run_limit = min(limit, node_budget - nodes)
        if run_limit <= 0:
            code = OUT_OF_NODES
            break
        if target is not None and ending is None and nodes >= ENDGAME_AFTER_NODES and endgame.fits(board):
            ending = _endgame(board, target, budget, nodes)
            nodes += ending.nodes
            run_limit = min(limit, node_budget - nodes)
        end_depth = -1 if ending is None else board.peg_count - ending.pegs
        noise = 0.0 if run == 0 else float(np.ptp(weights)) * 0.5 + 1.0
        layer, images = (no_layer, no_images) if ending is None else (ending.layers[-1], ending.lookup)
        all_holes = np.uint64(0 if ending is None else ending.all_holes)
        finish = Finish(target_bit, pagoda, floor, end_depth, layer, images, all_holes)
        order = Order(weights, noise, (seed * 1000 + run) % 2**63)
        code = dfs(start, geometry, finish, order, Table.of(table), run_limit, budget.deadline_ns(),
                   best_path, stats)
        nodes += int(stats[0])
        watch.call_ended(int(stats[0]))
        if target is None and int(stats[1]) > len(best):
            best = [layout.decode(c) for c in best_path[:int(stats[1])]]
        if target is not None and code == FOUND:
            best = [layout.decode(c) for c in best_path[:int(stats[1])]]
            if ending is not None and len(best) == end_depth:
                best += ending.finish_line(rules.replay(board, best).pegs)
            watch.improved(len(best), _notation(best))
        if code in (FOUND, EXHAUSTED, OUT_OF_TIME):
            break
        if target is None and goal is not None and len(best) >= goal:
            break
        if budget.expired(nodes):
            code = OUT_OF_TIME if nodes < node_budget else OUT_OF_NODES
            break
        if code == TABLE_FULL:
            table.grow()
        else:
            run += 1
            if ending is None:
                limit *= 2
            else:  # see FINISH_RUN_NODES
                luby_runs += 1
                limit = FINISH_RUN_NODES * luby_term(luby_runs)
    info = {} if ending is None else _endgame_info(ending)
    return code, best, nodes, run, int(stats[2]), info


def _endgame_info(ending: Endgame) -> dict:
    info = {"endgame_pegs": ending.pegs, "endgame_positions": ending.positions(),
            "endgame_s": round(sum(ending.seconds), 2)}
    if ending.pagodas:
        info.update(endgame_lp_pagodas=ending.lp_pagodas, endgame_lp_s=round(ending.lp_seconds, 2))
    return info


#: Once a finish search has its endgame, its runs get this many nodes times Luby's sequence (1, 1, 2,
#: 1, 1, 2, 4, ...) instead of doubling: on the European board the nodes a run needs to find a finish
#: vary a hundredfold with its (random) move order, so many short runs beat a few long ones.
FINISH_RUN_NODES = 1_000_000
#: A finish search builds its endgame (:mod:`gridsolver.pegs.endgame`) once this many nodes have not
#: found the finish: easy problems (the English central game: 0.05 s) never pay for it.
ENDGAME_AFTER_NODES = 16_000_000
#: The endgame's layers stop before one would pass this many positions (or its share of the budget):
#: a deterministic size, about 2 GB of set and layers at most, built in seconds.
ENDGAME_MAX_LAYER = 1 << 23
ENDGAME_TIME_SHARE = 0.3  # of the time left: the most an endgame may take to build
#: Boards of this many holes or more (the 41-hole diamond) build their endgame, pruned by pagodas,
#: before the first forward run: their finish problems are not found without it.
ENDGAME_AT_ONCE_HOLES = 40
ENDGAME_MEMORY_SHARE = 0.25  # of the memory budget


def _endgame(board: Board, finish: Cell, budget: Budget, nodes: int, pagodas: bool = False) -> Endgame:
    """The endgame of a finish problem, as big as its limits allow."""
    ending = Endgame(board, finish, pagodas=pagodas)
    remaining = budget.remaining_s()
    seconds = 60.0 if remaining is None else ENDGAME_TIME_SHARE * remaining
    memory = int(ENDGAME_MEMORY_SHARE * (budget.memory_bytes() or (2 << 30)))
    memory = min(memory, int(ENDGAME_MAX_LAYER * BYTES_PER_POSITION))
    ending.build(budget, seconds, memory, board.peg_count - 1)
    return ending


BEAM_ISOLATED_WEIGHT = 1.0  # per isolated peg
BEAM_SPREAD_WEIGHT = 4.0  # a peg in a corner costs about 2 * this
BEAM_MOBILITY_WEIGHT = 0.3  # per legal jump of a pooled candidate (kernels.beam.beam)
BEAM_POOL = 16  # candidates ranked again by their jumps, per beam slot


BEAM_DOOM_STOP = True  # stop a beam run once it cannot beat the best line (the beam's Doom.stop_pegs)
BEAM_CENTRES = 2  # beam runs per width: the centroid, then toward stranded pegs
BEAM_SHIFT = 0.7  # of the way from the board's centroid to the peg a run stranded farthest from it


def spread(board: Board, layout: Layout, centre: tuple[float, float]) -> np.ndarray:
    """The beam's spread term per hole: squared distance to ``centre``, scaled to the board's area."""
    cr, cc = centre
    scale = BEAM_SPREAD_WEIGHT / max(1.0, (board.rows * board.cols) / 4.0)
    phi = np.zeros(layout.words * 64, dtype=np.float64)
    for r, c in board.hole_cells():
        phi[board.index((r, c))] = scale * ((r - cr) ** 2 + (c - cc) ** 2)
    return phi


def doomed_cells(board: Board, pegs: int, pull: np.ndarray) -> list[Cell]:
    """geometry.doomed_pegs through the kernels' table ``pull`` (numpy: fast enough for 900 holes)."""
    bits = list(rules.bit_indices(pegs))
    totals = pull[bits].sum(axis=0)
    steps = [dr * board.stride + dc for dr, dc in board.directions]
    return [board.cell(p) for p in bits
            if all(totals[p + o] < DOOM_BELOW for o in steps if 0 <= p + o < len(totals))]


def toward_stranded(board: Board, line: list[Jump], middle: tuple[float, float],
                    stranded: list[Cell] | None = None) -> tuple[float, float]:
    """A centre for the next beam run: BEAM_SHIFT of the way from ``middle`` to the peg farthest from it
    where ``line`` ends (among ``stranded`` when given: the doomed pegs of a run stopped early).

    The beam gathers the pegs toward its centre, so a peg far from it (on sparse random boards, often
    in a corner) is left for last and then has no partner to leave with. Measured on the density-0.5
    sweep boards: 20x20 and 30x30 end at 2 pegs with every width centred on the centroid,
    each time with the same corner peg left, and at one peg at width 64-128 centred about 0.7 of
    the way toward it. Each width runs centred on the centroid, then on this centre.
    """
    last = stranded if stranded else rules.replay(board, line).peg_cells() if line else []
    if len(last) <= 1 and not stranded:
        return middle
    far = max(last, key=lambda cell: (cell[0] - middle[0]) ** 2 + (cell[1] - middle[1]) ** 2)
    return (middle[0] + BEAM_SHIFT * (far[0] - middle[0]), middle[1] + BEAM_SHIFT * (far[1] - middle[1]))


def _widening_beam(board: Board, layout: Layout, budget: Budget, seed: int, used_nodes: int,
                   known: list[Jump], note: Callable[[str], None] | None = None, goal: int | None = None):
    """Beam searches of width 8, 16, 32, ... until one peg (or ``goal`` jumps), the budget or the
    memory bound; each width runs centred on the centroid, then toward the peg that run left
    farthest out (:func:`toward_stranded`).

    ``known`` is the best line found before (only used for progress notes)."""
    from gridsolver.pegs.kernels.beam import beam

    middle = centroid(board)
    centre = middle
    phi = spread(board, layout, centre)
    start = layout.to_words(board.pegs)
    memory = budget.memory_bytes() or (8 << 30)
    best: list[Jump] = []
    best_path = np.zeros(board.peg_count, dtype=np.int32)
    stats = np.zeros(3, dtype=np.int64)
    nodes, width, run, doomed_runs, slowest, runs_here = 0, 8, 0, 0, 0.0, 0
    aimed: set[tuple[float, float]] = set()
    code = OUT_OF_TIME
    # per width unit: the parent links of every depth, the candidates, two position rows and the pool
    # ranked by jumps (a position row, its candidate and key, and four seen-set slots per pooled one)
    # and two rows of golden weights per slot (the doomed-peg stop), besides the table of g^distance
    per_width = (8 * board.peg_count + 64 * 40 + 16 * (layout.words + 2) + BEAM_POOL * (8 * layout.words + 48)
                 + 16 * 64 * layout.words)
    pull = pull_matrix(board, layout.words * 64)
    geometry = layout.geometry
    max_width = max(8, (int(memory * 0.5) - pull.nbytes) // per_width)
    widest = 0
    stranded: list[Cell] | None = None
    while not budget.expired(used_nodes + nodes):
        started = time.perf_counter()
        widest = max(widest, width)
        # a run whose every position has pegs that can never move again cannot beat the best line: it
        # stops there (DOOMED), and the next run is centred toward those pegs
        known_best = max(len(best), len(known))
        stop_pegs = board.peg_count - known_best if known_best and BEAM_DOOM_STOP else 0
        ranking = Ranking.of(phi, BEAM_ISOLATED_WEIGHT, 0.5, BEAM_POOL, BEAM_MOBILITY_WEIGHT)
        code = beam(start, geometry, ranking, Doom.of(pull, stop_pegs), width,
                    (seed * 1000 + run + 500 * runs_here) % 2**63, budget.node_limit() - used_nodes - nodes,
                    budget.deadline_ns(), best_path, stats)
        nodes += int(stats[0])
        watch.call_ended(int(stats[0]))
        slowest = max(slowest, time.perf_counter() - started)
        line = [layout.decode(c) for c in best_path[:int(stats[1])]]
        stranded = None
        if code == DOOMED:
            doomed_runs += 1
            stranded = doomed_cells(board, rules.replay(board, line).pegs, pull)
        elif len(line) > len(best):
            best = line
            watch.improved(len(best), _notation(best))
        if note:
            left = board.peg_count - max(len(best), len(known))
            note(f"best {left} pegs left (beam width {width})")
        if code == FOUND or (goal is not None and len(best) >= goal):
            break
        # each width runs centred on the centroid as before (same noise), then toward the peg the last
        # run stranded (its own noise), again while a run strands a peg not yet aimed at (at most
        # BEAM_CENTRES runs per width)
        target = toward_stranded(board, line, middle, stranded)
        runs_here += 1
        if runs_here < BEAM_CENTRES and target != middle and target not in aimed:
            aimed.add(target)
            centre = target
            phi = spread(board, layout, centre)
            continue
        centre, runs_here, aimed = middle, 0, set()
        phi = spread(board, layout, centre)
        run += 1
        # a run's time grows about linearly with the width: double it while the next run fits in
        # the time left, else take the widest that should still finish
        took = max(slowest, 1e-3)  # the slower of the width's two runs (one may have stopped early)
        slowest = 0.0
        remaining = budget.remaining_s()
        fits = max_width if remaining is None else int(width * 0.85 * remaining / took)
        width = max(8, min(2 * width, fits, max_width))
    return code, best, nodes, widest, doomed_runs


PUBLISHED_SHARE = 0.4  # of the memory: the method's arrays at their largest (growing one takes 1.5x)


def published_limits(memory_bytes: int, words: int) -> tuple[int, int]:
    """The most positions (pool rows and parent records) and visited-set slots the published method
    may grow to within ``memory_bytes``.

    Per position: a pool row (the position, its hash, record and queue link), a parent record
    (12 bytes) and two visited-set slots (16 bytes). The arrays start small and double as they fill
    (:func:`gridsolver.pegs.kernels.published.published`), so these are ceilings, never what is allocated; a
    doubling briefly holds the old array and the new one, hence the share below the usual 0.6.
    """
    per_position = 8 * words + 24 + 12 + 16
    positions = max(1024, int(memory_bytes * PUBLISHED_SHARE) // per_position)
    seen_slots = 1 << max(10, (2 * positions).bit_length() - 1)
    return positions, seen_slots


def _solve_published(board: Board, budget: Budget, seed: int):
    from gridsolver.pegs.kernels.published import published

    layout = Layout.of(board, seed)
    start = layout.to_words(board.pegs)
    positions, seen_slots = published_limits(budget.memory_bytes() or (8 << 30), layout.words)
    best_path = np.zeros(board.peg_count, dtype=np.int32)
    stats = np.zeros(4, dtype=np.int64)
    code = published(start, layout.geometry, Ceilings(positions, positions, seen_slots), PUBLISHED_BIAS, seed,
                     budget.node_limit(), budget.deadline_ns(), best_path, stats)
    best = [layout.decode(c) for c in best_path[:int(stats[1])]]
    extra = {"positions": int(stats[2]), "table_mb": round(int(stats[3]) / 2**20, 1)}
    if code == FOUND:
        return ("optimal", best, f"one peg left: {len(best)} jumps is the most possible", int(stats[0]),
                None, extra)
    # the method's visited set keeps only 64-bit hashes, so even an emptied queue proves nothing
    return "best-found", best, "", int(stats[0]), STOPPED.get(code), extra


# -- finish ------------------------------------------------------------------------

def _big(board: Board) -> bool:
    """A board whose finish problems build their endgame at once (one word per position in the dense
    numbering)."""
    return board.hole_count >= ENDGAME_AT_ONCE_HOLES and endgame.fits(board)


def meets(board: Board) -> bool:
    """Whether a finish problem from ``board`` starts with the two-sided search (:func:`_meet`): a big
    board with one empty hole."""
    return _big(board) and (board.holes & ~board.pegs).bit_count() == 1


def _solve_finish(board: Board, finish: Cell, budget: Budget, seed: int, workers: int = 1):
    target = 1 << board.index(finish)
    classes = PositionClasses(board)
    if not classes.same_class(board.pegs, target):
        proof = (f"position classes: the start and one peg at {finish} lie in different classes "
                 f"(of {classes.count}) of positions modulo jumps")
        return "impossible", None, proof, 0, None, {"position_classes": classes.count}
    layout = Layout.of(board, seed)
    perms = fixing(symmetries(board), board, finish)
    ending = None
    bank = None
    extra: dict = {}
    table_share = TABLE_SHARE
    if meets(board):
        # big boards, one empty hole: breadth-first by jumps from both ends, pruned by pagodas; it may
        # decide the problem, else its backward side is the depth-first runs' endgame and its forward
        # side's pagodas their cuts
        meeting, outcome = _meet(board, finish, budget, workers)
        extra = _meeting_info(meeting)
        if outcome == "found":
            return "optimal", meeting.line(), "one peg left in the finish hole", meeting.nodes(), None, extra
        if outcome == "impossible":
            return "impossible", None, _meeting_proof(meeting, finish), meeting.nodes(), None, extra
        if meeting.mirror is None:  # the depth-first runs share the time with the dual problem's
            return _finish_both_ways(meeting, layout, perms, budget, seed, extra)
        ending = meeting.backward
        bank = _dense_bank_rows(board, layout, meeting.forward, perms)
        table_share = _table_share(budget, meeting)
    elif _big(board):
        # big boards: pagodas that rule out positions near the start, for the forward search's cuts
        # (they may rule out every position of a layer: then no game finishes)
        found, empty_at, seconds = _finish_bank(board, finish, perms, budget)
        extra = {"forward_lp_pagodas": len(found), "forward_lp_s": seconds}
        if empty_at is not None:
            proof = (f"pagoda functions: every position {empty_at} jump(s) from the start weighs less than "
                     f"one peg at {finish} under one of {len(found)} pagoda functions found by linear "
                     "programming")
            return "impossible", None, proof, 0, None, extra
        bank = _bank_rows(board, layout, found, board.index(finish), perms)
        # then the endgame, its small layers pruned by pagodas (which may prove the problem impossible)
        ending = _endgame(board, finish, budget, 0, pagodas=True)
        if ending.empty_at is not None:
            proof = _backward_proof(ending, finish)
            return "impossible", None, proof, ending.nodes, None, _endgame_info(ending)
    own = Phase(board, layout, perms, finish, ending, bank, budget, table_share)
    return _depth_first([own], seed, 0 if ending is None else ending.nodes, extra)


MEET_TIME_SHARE = 0.25  # of the time left: the two-sided breadth-first search's own share (0.4 slower)
#: ... and the most it takes when its layers predict it decides the problem by then (Meeting.eta): the
#: rest is the depth-first runs' when that prediction fails
MEET_TIME_MOST = 0.95
MEET_MEMORY_SHARE = 0.35  # of the memory budget (the depth-first runs' table gets half of it)
#: ... on the worker processes, which keep in memory only the sides' last layers (the others go to
#: disk): what is left of it once the search ends is those two layers, and the table gets the rest
#: (:func:`_table_share`). A layer grown by sorting needs three times its size while it is built, so
#: the diamond's last layer of (1,3)->(7,5), 100 million positions, needs 3 GB of a 4 GB budget.
MEET_MEMORY_SHARE_APART = 0.75


def _table_share(budget: Budget, meeting: endgame.Meeting) -> float:
    """The depth-first runs' table's share of the memory budget beside a stopped meeting's layers that
    stay in memory (its sides' last ones: one is the runs' endgame): half, or what those layers leave."""
    limit = budget.memory_bytes()
    if not limit:
        return TABLE_SHARE
    return max(TABLE_SHARE_LEAST, min(TABLE_SHARE, 1.0 - 8 * meeting.held() / limit - TABLE_SHARE_LEAST))


def _meet(board: Board, finish: Cell, budget: Budget, workers: int = 1) -> tuple[Endgame, str]:
    """:class:`gridsolver.pegs.endgame.Meeting` within its shares of the budget, on two worker processes
    when ``workers`` allows (:class:`gridsolver.pegs.meeting_workers.MeetingApart`): (it, its outcome)."""
    share_of_memory = MEET_MEMORY_SHARE
    if workers > 1:
        from gridsolver.pegs.meeting_workers import MeetingApart

        meeting: endgame.Meeting = MeetingApart(board, finish)
        share_of_memory = MEET_MEMORY_SHARE_APART
    else:
        meeting = endgame.Meeting(board, finish)
    remaining = budget.remaining_s()
    now = time.perf_counter()
    share = 60.0 if remaining is None else MEET_TIME_SHARE * remaining
    most = 4 * share if remaining is None else MEET_TIME_MOST * remaining
    memory = int(share_of_memory * (budget.memory_bytes() or (4 << 30)))
    outcome = meeting.run(budget, memory, now + share, now + most)
    return meeting, outcome


#: After a two-sided search that did not decide a problem, the share of the time left that the
#: depth-first runs on the problem itself get; its dual gets the rest
OWN_SHARE = 0.5


class Phase(NamedTuple):
    """Depth-first runs to one peg at ``target`` on ``board``, down to ``ending`` (None: built when
    needed), cut by the pagodas ``bank``, within ``budget``."""

    board: Board
    layout: Layout
    perms: list
    target: Cell
    ending: Endgame | None
    bank: tuple[np.ndarray, np.ndarray] | None
    budget: Budget
    table_share: float = TABLE_SHARE  # of the memory budget, for the runs' table of dead positions


def _finish_both_ways(meeting: endgame.Meeting, layout: Layout, perms: list, budget: Budget, seed: int,
                      extra: dict):
    """Depth-first runs after a two-sided search that stopped: on the problem, down to the meeting's
    backward side, for OWN_SHARE of the time left, then on its dual (start: one empty hole at the
    finish, finish: the start's empty hole), down to the forward side, which is that problem's
    endgame. A game of the dual read backwards is a game of the problem (see
    :class:`~gridsolver.pegs.endgame.Meeting`), and an exhaustive search of either proves both
    impossible. The two sides' pagodas cut the runs of both."""
    board, dual, hole = meeting.board, meeting.dual, meeting.start_hole
    dual_layout = Layout.of(dual, seed)
    dual_perms = fixing(symmetries(dual), dual, hole)
    share = _table_share(budget, meeting)
    phases = [Phase(board, layout, perms, meeting.finish, meeting.backward,
                    _dense_bank_rows(board, layout, meeting.forward, perms), budget.split(OWN_SHARE), share),
              Phase(dual, dual_layout, dual_perms, hole, meeting.forward,
                    _dense_bank_rows(dual, dual_layout, meeting.backward, dual_perms), budget, share)]
    return _depth_first(phases, seed, meeting.nodes(), extra)


def _depth_first(phases: list[Phase], seed: int, nodes: int, extra: dict):
    """The finish search's outcome from depth-first runs, phase after phase until one decides the
    problem (the first phase's) or the time is up; a phase on another board is the dual problem's
    (its game read backwards is the problem's), and its details carry the prefix ``dual_``.
    ``nodes``: the jumps made so far, the phases' endgames' included."""
    code = OUT_OF_TIME
    for phase in phases:
        code, jumps, found, runs, entries, info = _restarted_dfs(
            phase.board, phase.layout, phase.perms, phase.budget, seed, target=phase.target,
            first_limit=200_000, ending=phase.ending, bank=phase.bank, table_share=phase.table_share)
        nodes += found - (0 if phase.ending is None else phase.ending.nodes)  # counted already
        own = phase.board is phases[0].board
        info = {"symmetries": len(phase.perms), "restarts": runs, "table_entries": entries, **info}
        if own:
            extra = {key: info[key] for key in ("symmetries", "restarts", "table_entries")} | extra | info
        else:
            extra = extra | {"dual_" + key: value for key, value in info.items()}
        if code == FOUND:
            line = jumps if own else jumps[::-1]  # the dual's game, read backwards
            return "optimal", line, "one peg left in the finish hole", nodes, None, extra
        if code == EXHAUSTED:
            proof = (f"exhaustive depth-first search under the {len(phase.perms)} symmetries fixing "
                     f"{phase.target}, with a table of dead positions")
            if not own:
                proof = (f"{proof}, of the dual problem (one empty hole at {phases[0].target}, to one peg "
                         f"at {phase.target}): its games read backwards are this problem's")
            return "impossible", None, proof, nodes, None, extra
        if phases[-1].budget.expired():  # the whole budget
            break
    return "not-found", None, "", nodes, STOPPED.get(code), extra


def _meeting_info(meeting) -> dict:
    peak = getattr(meeting, "worker_peak_mb", None)  # a meeting on worker processes: their memory
    workers = {} if peak is None else {"meeting_worker_peak_mb": round(peak)}
    return {**workers, "meeting_forward_pegs": meeting.board.peg_count - meeting.forward_depth,
            "meeting_backward_pegs": meeting.backward.pegs, "meeting_positions": meeting.positions(),
            "meeting_self_dual": meeting.mirror is not None,
            "meeting_lp_pagodas": meeting.forward.lp_pagodas + meeting.backward.lp_pagodas,
            "meeting_lp_s": round(meeting.forward.lp_seconds + meeting.backward.lp_seconds, 2),
            "meeting_s": round(sum(meeting.forward.seconds) + sum(meeting.backward.seconds), 2)}


def _backward_proof(ending: Endgame, finish: Cell) -> str:
    pegs = f"{ending.empty_at} peg{'s' if ending.empty_at != 1 else ''}"
    return (f"pagoda functions: no position of {pegs} that can end at {finish} (found "
            f"backwards from it) is reachable from the start: each weighs more than the start under one of "
            f"{ending.lp_pagodas} pagoda functions found by linear programming or the golden pagoda toward "
            "the start's empty hole")


def _meeting_proof(meeting, finish: Cell) -> str:
    pegs = meeting.board.peg_count
    if meeting.backward.empty_at is not None:
        return _backward_proof(meeting.backward, finish)
    if meeting.forward.empty_at is not None:
        jumps = meeting.forward.empty_at - 1
        return (f"pagoda functions: no position {jumps} jump{'s' if jumps != 1 else ''} from the start can "
                f"end at {finish}: each weighs less than one peg there under one of "
                f"{meeting.forward.lp_pagodas} pagoda functions found by linear programming or the golden "
                f"pagoda toward {finish}")
    found = meeting.forward.lp_pagodas + meeting.backward.lp_pagodas
    ends = "from both ends"
    if meeting.mirror is not None:
        ends = ("from the finish (the problem is its own dual under a symmetry of the board: the layers from "
                "the start are their images)")
    if meeting.compared is None or meeting.compared[0] + meeting.compared[1] >= pegs - 1:
        middle = pegs - meeting.forward_depth
        what = f"no position of {middle} pegs is both reachable from the start and able to end at {finish}"
    else:
        below = meeting.compared[1] + 1
        what = (f"no position of {below + 1} pegs reachable from the start has a jump to one of {below} pegs "
                f"able to end at {finish}")
    return (f"breadth-first search by jumps {ends} under the {len(meeting.backward.perms)} "
            f"symmetries fixing the start and {finish}, pruned by {found} pagoda functions found by linear "
            f"programming and two golden pagodas: {what}")


def _dense_bank_rows(board: Board, layout: Layout, side: Endgame, perms: list):
    """The forward side's pagodas found by linear programming (dense rows on positions, floors the
    finish's weight) as the depth-first search's rows (board numbering), each under every symmetry of
    ``perms``; the golden row (the first, when there is one) is left out: the search has its own."""
    rows, floors = [], []
    for k in range(side.golden, len(side.floors)):
        for perm in perms:
            row = np.zeros(layout.words * 64, dtype=np.float64)
            for number, bit in enumerate(side.dense.bits):
                row[perm[bit]] = side.weights[k, number]
            rows.append(row)
            floors.append(side.floors[k])
    return (np.array(rows, dtype=np.float64).reshape(-1, layout.words * 64),
            np.array(floors, dtype=np.float64))


FINISH_BANK_SHARE = 0.1  # of --time: the most the forward pagodas' linear programs take
FINISH_BANK_MAX_S = 6.0
FINISH_BANK_MOST = 12  # pagodas (each used under every symmetry fixing the finish)


def _finish_bank(board: Board, finish: Cell, perms: list, budget: Budget):
    """Pagodas ruling out positions near the start (:func:`gridsolver.pegs.pagoda.finish_bank`): (the
    pagodas, the depth of a layer they leave empty or None, seconds)."""
    from gridsolver.pegs import pagoda

    started = time.perf_counter()
    seconds = FINISH_BANK_MAX_S if budget.time_s is None else min(FINISH_BANK_SHARE * budget.time_s,
                                                                  FINISH_BANK_MAX_S)
    remaining = budget.remaining_s()
    seconds = seconds if remaining is None else min(seconds, remaining)
    fixing_start = [p for p in perms if geometry_transform(board.pegs, p) == board.pegs]
    found, empty_at = pagoda.finish_bank(rules.triples(board), board.holes, board.pegs, board.index(finish),
                                         fixing_start, seconds, most=FINISH_BANK_MOST)
    return found, empty_at, round(time.perf_counter() - started, 2)


def _bank_rows(board: Board, layout: Layout, found: list, finish_bit: int, perms: list):
    """The pagodas ``found`` as kernel rows, each under every symmetry of ``perms`` (all fix the finish),
    and their floors (the finish's weight): exact, the weights being multiples of 2^-24."""
    rows, floors = [], []
    for weights in found:
        for perm in perms:
            row = np.zeros(layout.words * 64, dtype=np.float64)
            for bit, value in weights.items():
                row[perm[bit]] = float(value)
            rows.append(row)
            floors.append(float(weights.get(finish_bit, 0)))
    return (np.array(rows, dtype=np.float64).reshape(-1, layout.words * 64),
            np.array(floors, dtype=np.float64))


# -- moves -------------------------------------------------------------------------

def must_move_holes(board: Board) -> int:
    """Holes no jump passes over: a peg there leaves only by jumping itself."""
    over = 0
    for _, b, _ in rules.triples(board):
        over |= 1 << b
    return board.holes & ~over


def _solve_moves(board: Board, finish: Cell | None, budget: Budget):
    if finish is not None:
        classes = PositionClasses(board)
        if not classes.same_class(board.pegs, 1 << board.index(finish)):
            return ("impossible", None, f"position classes: no single peg can finish at {finish}", 0, None,
                    {})
    if meet.fits(board):
        return _solve_moves_meet(board, finish, budget)
    return _solve_moves_deepening(board, finish, budget)


MOVES_FIRST_SLOTS = 1 << 15  # the deepening search's table starts here and doubles as it fills


def _solve_moves_deepening(board: Board, finish: Cell | None, budget: Budget):
    """Fewest moves by iterative deepening on the move count (any board size; weaker than meeting)."""
    from gridsolver.pegs.kernels.fewest_moves import fewest_moves

    layout = Layout.of(board)
    must = must_move_holes(board)
    target = -1 if finish is None else board.index(finish)
    free_survivor = finish is None or bool(must >> target & 1)
    start_bound = max(0, (board.pegs & must).bit_count() - (1 if free_survivor else 0))
    # rows: the position's words, the last mover's bit, the move budget (see kernels.fewest_moves);
    # probed at random, so the table grows with its entries instead of being sized to the budget
    table = GrowingTable(budget, layout.words + 2, first_slots=MOVES_FIRST_SLOTS, share=0.5, maximum=1 << 22)
    best_path = np.zeros(board.peg_count, dtype=np.int32)
    stats = np.zeros(3, dtype=np.int64)
    limit = max(1, start_bound)
    bound = MoveBound(target, layout.to_words(must), free_survivor)
    geometry = layout.geometry
    start = layout.to_words(board.pegs)
    while limit <= board.peg_count - 1:
        # every run (each limit, each table size) counts against the one --nodes
        nodes_left = max(1, budget.node_limit() - int(stats[0]))
        code = fewest_moves(start, geometry, bound, limit, Table.of(table), nodes_left, budget.deadline_ns(),
                            best_path, stats)
        nodes = int(stats[0])
        if code == TABLE_FULL:  # the same limit again in a bigger table
            table.grow()
            continue
        extra = {"move_limit_searched": limit,
                 "table_mb": round((table.hash.nbytes + table.keys.nbytes) / 2**20, 1)}
        if code == FOUND:
            jumps = [layout.decode(c) for c in best_path[:int(stats[1])]]
            proof = (f"iterative deepening on moves: no solution in {limit - 1} moves"
                     if limit > max(1, start_bound) else "equals the lower bound (pegs no jump passes over)")
            return "optimal", jumps, proof, nodes, None, extra
        if code != EXHAUSTED:
            proof = f"no solution in {limit - 1} moves (proved)" if limit > max(1, start_bound) else ""
            return "not-found", None, proof, nodes, STOPPED.get(code), extra
        limit += 1
    return "impossible", None, "exhaustive iterative deepening: no single survivor", int(stats[0]), None, {}


def _solve_moves_meet(board: Board, finish: Cell | None, budget: Budget):
    """Fewest moves by breadth-first search from both ends (boards of at most 64 holes)."""
    driver = meet.MeetSearch(board, finish, budget)
    code, moves, meeting = driver.run()
    extra = {"method": "meet in the middle", "symmetries": len(driver.perms),
             "forward_layers": [driver.forward.bounds[k + 1] - driver.forward.bounds[k]
                                for k in range(driver.forward.depth + 1)],
             "backward_layers": [driver.backward.bounds[k + 1] - driver.backward.bounds[k]
                                 for k in range(driver.backward.depth + 1)]}
    insufficient = driver.proved_insufficient()
    extra["moves_proved_insufficient"] = insufficient
    if code == FOUND:
        jumps = driver.path(meeting)
        proof = (f"breadth-first search by moves from both ends under {len(driver.perms)} symmetries: "
                 f"no position within {driver.forward.depth} moves of the start is within "
                 f"{driver.backward.depth} of the finish, so no game has {moves - 1} moves or fewer")
        if moves == 0 or rules.count_moves(jumps) != moves:
            proof = f"meeting position at {moves} moves"
        return "optimal", jumps, proof, driver.nodes, None, extra
    if code == EXHAUSTED:
        return ("impossible", None, "breadth-first search by moves from both ends: one side reached "
                "every position it can without meeting the other", driver.nodes, None, extra)
    proof = f"no solution in {insufficient} moves or fewer (proved)" if insufficient > 0 else ""
    return "not-found", None, proof, driver.nodes, STOPPED.get(code), extra
