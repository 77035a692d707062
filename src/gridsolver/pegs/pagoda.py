"""Pagoda functions found by linear programming: holes no peg can reach, finishes no game can make.

A pagoda function weighs the holes so that no jump raises the pegs' total weight: w(a) + w(b) >=
w(c) for every jump from ``a`` over ``b`` into ``c``. Along a game the total never grows, so a
position ``P`` follows from the start ``S`` only if w(P) <= w(S) for every pagoda function ``w``.
Two uses:

- *holes no peg can ever reach* (:func:`occupiable_holes`): with ``w >= 0``, any position with a
  peg in ``h`` weighs at least w(h), so w(h) > w(S) keeps every peg out of ``h`` for good. Only
  jumps that can happen need to hold (from, over and into holes that may hold a peg), so removing
  holes can remove constraints and exclude more: repeated until nothing changes.
- *no single peg anywhere* (:func:`single_peg_excluded`): the final position {h} weighs w(h), so
  w(h) > w(S) (any sign) rules out finishing at ``h``; one pagoda may rule out many holes at once.

Each pagoda maximises w(h) - w(S) under the jump constraints and 0 <= w <= 1 (first use) or
-1 <= w <= 1 (second) (HiGHS through ``highspy``, imported when first needed so the command line
stays fast; one program per board, its objective changed from goal to goal); before any program, the
golden-ratio pagodas toward each hole (:func:`golden_reach`) rule out the holes far from every peg.
The solver works in floating point, so its answer is rounded to fractions, mended where rounding
broke a jump constraint, and checked exactly (:func:`is_pagoda`, plain Python) before it proves
anything; a pagoda that fails the check is dropped, never trusted.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Sequence
from fractions import Fraction

from gridsolver.core.words import plural
from gridsolver.pegs.geometry import GOLDEN, PegBound, fewest_pegs_bound, lattice_distance, reachable_holes
from gridsolver.pegs.rules import Board, bit_indices, triples

Triple = tuple[int, int, int]  # (from, over, into) bit indices
Weights = dict[int, Fraction]

SCALE = 1 << 24  # weights are rounded to multiples of 1 / SCALE


def is_pagoda(weights: Weights, jumps: Iterable[Triple]) -> bool:
    """Exactly: no jump raises the total weight (holes missing from ``weights`` weigh 0)."""
    zero = Fraction(0)
    return all(weights.get(a, zero) + weights.get(b, zero) >= weights.get(c, zero) for a, b, c in jumps)


def weight(weights: Weights, mask: int) -> Fraction:
    return sum((weights.get(i, Fraction(0)) for i in bit_indices(mask)), Fraction(0))


def lp_pagoda(holes: Sequence[int], jumps: Sequence[Triple], start: int, goal: int, *, lower: float,
              seconds: float | None = None) -> Weights | None:
    """A pagoda on ``holes`` (constraints: ``jumps``) with w(goal) > w(start), checked exactly, or None.

    Maximises w(goal hole) - w(start) over lower <= w <= 1 by linear programming, rounds the weights
    to fractions and keeps them only if :func:`is_pagoda` holds and the goal still outweighs the start.
    """
    found = _program(tuple(holes), tuple(jumps), lower).solve(start, goal, seconds)
    if found is None:
        return None
    rounded = {h: Fraction(round(x * SCALE), SCALE) for h, x in zip(holes, found, strict=True)}
    weights = repaired(rounded, jumps)
    if weights is None or not is_pagoda(weights, jumps) or weight(weights, goal) <= weight(weights, start):
        return None
    return weights


class PagodaProgram:
    """The linear program of :func:`lp_pagoda` for one set of holes, jumps and lower bound, made once:
    from one (start, goal) to the next only the objective changes (a search asks for a program per
    position of a layer, and building it each time cost several times the solving)."""

    def __init__(self, holes: tuple[int, ...], jumps: tuple[Triple, ...], lower: float) -> None:
        import highspy
        import numpy as np

        self.column = {h: k for k, h in enumerate(holes)}
        self.columns = np.arange(len(holes), dtype=np.int32)
        self.optimal = highspy.HighsModelStatus.kOptimal
        rows = len(jumps)
        model = highspy.HighsLp()
        model.num_col_, model.num_row_ = len(holes), rows
        model.col_cost_ = np.zeros(len(holes))
        model.col_lower_ = np.full(len(holes), lower)
        model.col_upper_ = np.ones(len(holes))
        model.row_lower_ = np.full(rows, -highspy.kHighsInf)  # a jump's row: w(c) - w(a) - w(b) <= 0
        model.row_upper_ = np.zeros(rows)
        matrix = model.a_matrix_
        matrix.format_ = highspy.MatrixFormat.kRowwise
        matrix.start_ = np.arange(0, 3 * rows + 1, 3, dtype=np.int32)
        matrix.index_ = np.array([self.column[x] for jump in jumps for x in jump], dtype=np.int32)
        matrix.value_ = np.tile(np.array([-1.0, -1.0, 1.0]), rows)
        self.solver = _quiet_solver()
        self.solver.passModel(model)

    def solve(self, start: int, goal: int, seconds: float | None) -> list[float] | None:
        """The weights (one per hole, in order) maximising w(goal) - w(start), when that is positive."""
        import numpy as np

        cost = np.zeros(len(self.column))  # minimised: w(start) - w(goal)
        for h in bit_indices(start):
            cost[self.column[h]] += 1.0
        for h in bit_indices(goal):
            cost[self.column[h]] -= 1.0
        solver = self.solver
        solver.clearSolver()  # from scratch: each answer depends on its own start and goal only
        solver.changeColsCost(len(cost), self.columns, cost)
        # HiGHS's time limit counts all of a solver's runs: this one gets ``seconds`` past those before it
        limit = float("inf") if seconds is None else solver.getRunTime() + max(0.01, seconds)
        solver.setOptionValue("time_limit", limit)
        solver.run()
        if solver.getModelStatus() != self.optimal or -solver.getInfo().objective_function_value <= 1e-7:
            return None
        return [float(x) for x in solver.getSolution().col_value]


_PROGRAMS: dict[tuple, PagodaProgram] = {}
PROGRAMS_KEPT = 8  # programs a process keeps for the boards it searches


def _program(holes: tuple[int, ...], jumps: tuple[Triple, ...], lower: float) -> PagodaProgram:
    key = (holes, jumps, lower)
    program = _PROGRAMS.pop(key, None) or PagodaProgram(holes, jumps, lower)
    _PROGRAMS[key] = program  # the most recent last
    while len(_PROGRAMS) > PROGRAMS_KEPT:
        del _PROGRAMS[next(iter(_PROGRAMS))]
    return program


def _quiet_solver():  # type: ignore[no-untyped-def]
    """A HiGHS solver that writes nothing: it prints a banner on standard output as it is made, before
    any option can silence it, so the process's standard output goes to nowhere meanwhile."""
    import highspy

    sys.stdout.flush()
    saved = os.dup(1)
    nowhere = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(nowhere, 1)
        solver = highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(nowhere)
    solver.setOptionValue("output_flag", False)
    return solver


def repaired(weights: Weights, jumps: Sequence[Triple], passes: int = 50) -> Weights | None:
    """``weights`` lowered until no jump raises the total, or None if that does not settle.

    Rounding a floating-point optimum may break a tight constraint w(a) + w(b) = w(c) by a rounding
    unit; lowering w(c) to w(a) + w(b) mends it (it may break a constraint where c is jumped from or
    over, hence the passes). Lowering a weight moves the total of the start and of the goal by at
    most a few units, far below any margin the caller then checks.
    """
    out = dict(weights)
    for _ in range(passes):
        mended = False
        for a, b, c in jumps:
            top = out[a] + out[b]
            if out[c] > top:
                out[c] = top
                mended = True
        if not mended:
            return out
    return None


def jumps_within(triples: Iterable[Triple], holes: int) -> list[Triple]:
    return [(a, b, c) for a, b, c in triples if holes >> a & 1 and holes >> b & 1 and holes >> c & 1]


def occupiable_holes(triples: Sequence[Triple], reach: int, pegs: int, known: int = 0,
                     deadline: float | None = None, order: Sequence[int] | None = None) -> tuple[int, int]:
    """Shrink ``reach`` (a superset of the holes that may ever hold a peg) by pagodas with w >= 0.

    ``known``: holes some game is known to fill (never tried); ``order``: the holes in the order to
    try them (default: by index; far from the pegs first is best, their pagodas exclude the most).
    Sound at every step, so a deadline (``time.perf_counter()``) may cut it short. Returns (the
    holes left, the pagodas that excluded some).
    """
    one_jump = 0
    for a, b, c in triples:
        if pegs >> a & 1 and pegs >> b & 1 and not pegs >> c & 1:
            one_jump |= 1 << c
    sure = pegs | one_jump | known
    used = 0
    changed = True
    while changed:
        changed = False
        holes = list(bit_indices(reach))
        jumps = jumps_within(triples, reach)
        tried = 0
        for h in holes if order is None else order:
            if sure >> h & 1 or not reach >> h & 1 or tried >> h & 1:
                continue
            if deadline is not None and time.perf_counter() > deadline:
                return reach, used
            tried |= 1 << h
            found = lp_pagoda(holes, jumps, pegs, 1 << h, lower=0.0, seconds=_left(deadline))
            if found is None:
                continue
            used += 1
            cut = weight(found, pegs)
            for i in holes:  # every hole that outweighs the start is out, not only h
                if found[i] > cut and not sure >> i & 1 and reach >> i & 1:
                    reach &= ~(1 << i)
                    changed = True
    return reach, used


def single_peg_excluded(triples: Sequence[Triple], holes: int, pegs: int, first: Iterable[int] = (),
                        deadline: float | None = None) -> int:
    """How many pagodas rule out one peg left in every hole of ``holes`` (0: not shown).

    ``triples`` are the jumps among ``holes``; ``first`` lists holes to try first (those most likely
    to hold a last peg, so a hopeless case fails after one program).
    """
    cells = list(bit_indices(holes))
    order = [*dict.fromkeys(h for h in first if holes >> h & 1), *cells]
    open_holes = holes
    used = 0
    for h in order:
        if not open_holes >> h & 1:
            continue
        if deadline is not None and time.perf_counter() > deadline:
            return 0
        found = lp_pagoda(cells, triples, pegs, 1 << h, lower=-1.0, seconds=_left(deadline))
        if found is None:
            return 0
        used += 1
        cut = weight(found, pegs)
        for i in cells:
            if found[i] > cut:
                open_holes &= ~(1 << i)
    return used


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else deadline - time.perf_counter()


def golden_reach(board: Board) -> int:
    """The holes that the golden pagodas do not keep every peg out of (no program needed).

    For each hole ``h``, w = g ** distance to ``h`` (g = 0.618..., g + g*g = 1, the distance along
    the jump directions) is a pagoda: the distance changes by at most one per step along a line, so
    for a jump a over b into c, w(a) + w(b) >= g ** (d(c) + 2) + g ** (d(c) + 1) = w(c). A start
    lighter than w(h) = 1 keeps pegs out of ``h``. The sums are floating point with an error far
    below the margin required (1e-9).
    """
    import numpy as np

    cells = np.array(board.hole_cells(), dtype=np.int64)
    pegs = np.array(board.peg_cells(), dtype=np.int64)
    dr = cells[:, None, 0] - pegs[None, :, 0]
    dc = cells[:, None, 1] - pegs[None, :, 1]
    if board.jumps == "orthogonal":
        distance = np.abs(dr) + np.abs(dc)
    elif board.jumps == "diagonal":
        distance = np.maximum(np.abs(dr), np.abs(dc))
    else:  # triangular: steps (0,1), (1,0), (1,1), as geometry.lattice_distance
        distance = np.maximum(np.maximum(np.abs(dr), np.abs(dc)), np.abs(dr - dc))
    start = (GOLDEN ** distance.astype(np.float64)).sum(axis=1)
    reach = 0
    for (r, c), total in zip(board.hole_cells(), start, strict=True):
        if total > 1.0 - GOLDEN_MARGIN:
            reach |= 1 << board.index((r, c))
    return reach


GOLDEN_MARGIN = 1e-9


def pagoda_bound(board: Board, known: int = 0, first: Iterable[int] = (),
                 seconds: float | None = None) -> PegBound:
    """:func:`gridsolver.pegs.geometry.fewest_pegs_bound` strengthened by pagoda functions.

    The holes that may hold a peg shrink by :func:`occupiable_holes` (``known``: holes a game is known
    to fill), which may split the board into more groups, and a group whose position class allows one
    peg keeps two when :func:`single_peg_excluded` rules out every hole (``first``: holes to try
    first). Stops trying after ``seconds`` and keeps what it proved by then.
    """
    deadline = None if seconds is None else time.perf_counter() + seconds
    pegs = board.peg_cells()
    far = sorted(board.hole_cells(), key=lambda h: -min(lattice_distance(board, h, p) for p in pegs))
    closure = reachable_holes(board)
    golden = closure & golden_reach(board)
    reach, used = occupiable_holes(triples(board), golden, board.pegs, known, deadline,
                                   [board.index(h) for h in far])
    proof = ""
    if reach != closure:
        by_lp = f", {(golden & ~reach).bit_count()} by {used} found by linear programming" if used else ""
        kept_out = plural((closure & ~reach).bit_count(), "hole")
        proof = (f"pagoda functions keep every peg out of {kept_out} a peg "
                 f"might otherwise reach: {(closure & ~golden).bit_count()} by golden-ratio pagodas{by_lp}")

    def no_single(jumps: list[Triple], holes: int, pegs: int) -> int:
        return single_peg_excluded(jumps, holes, pegs, first, deadline)

    return fewest_pegs_bound(board, reach, no_single, proof)


def finish_bank(triples: Sequence[Triple], holes: int, start: int, finish: int,
                perms: Sequence[Sequence[int]], seconds: float, most: int = 16,
                layer_max: int = 3_000) -> tuple[list[Weights], int | None]:
    """Pagodas that show positions near the start can never end at one peg in bit ``finish``, and
    whether they show that no game does.

    A position ``P`` ends at ``finish`` only if w(P) >= w(finish) for every pagoda ``w``. Breadth-first
    from ``start`` by jumps (positions as their smallest image under ``perms``, symmetries fixing the
    start and the finish), each position that no pagoda found so far rules out gets a linear program
    (maximise w(finish) - w(P)); a pagoda found rules out every position it weighs below the
    finish, and a ruled-out position is not expanded (every game through it fails). Stops after
    ``seconds``, at ``most`` pagodas, or at a layer of more than ``layer_max`` positions. Returns the
    pagodas (exact, checked) and the jumps after which a layer was left empty (every game fails:
    the problem is impossible), else None.
    """
    deadline = time.perf_counter() + seconds
    cells = list(bit_indices(holes))
    jumps = list(triples)
    goal = 1 << finish
    found: list[Weights] = []
    floats: list[dict[int, float]] = []

    def ruled_out(p: int) -> bool:
        return any(sum(w[i] for i in bit_indices(p)) < w[finish] for w in floats)

    def image(p: int, perm: Sequence[int]) -> int:
        return sum(1 << perm[i] for i in bit_indices(p))

    layer = {start}
    depth = 0
    while layer and len(found) < most and time.perf_counter() < deadline:
        kept = []
        for p in sorted(layer):
            if ruled_out(p):
                continue
            if len(found) < most and time.perf_counter() < deadline:
                w = lp_pagoda(cells, jumps, p, goal, lower=-1.0, seconds=_left(deadline))
                if w is not None:
                    found.append(w)
                    floats.append({i: float(v) for i, v in w.items()})  # multiples of 2^-24: exact sums
                    continue
            kept.append(p)
        if not kept:
            return found, depth
        if time.perf_counter() >= deadline or len(found) >= most:
            break
        depth += 1
        following = set()
        for p in kept:
            for a, b, c in jumps:
                if p >> a & 1 and p >> b & 1 and not p >> c & 1:
                    child = p ^ (1 << a) ^ (1 << b) ^ (1 << c)
                    following.add(min(image(child, perm) for perm in perms))
        if len(following) > layer_max:
            break
        layer = following
    return found, None
