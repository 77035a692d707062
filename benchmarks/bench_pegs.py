"""Peg solitaire benchmarks: classic proofs and the comesolo default-vs-published comparison.

Goals: English central game under 0.1 s of search; the full
English single-vacancy table under a minute; the European central game
proved impossible in seconds; on random comesolo boards (10x10, 20x20,
30x30, peg density 0.6-0.9, seeds below) the default strategy leaves fewer
pegs than the published method on the same budget, and one peg on most.

The diamond and European most-jumps rows end proved optimal at two pegs (no single peg
is in the start's position class); every comesolo square board up to 30x30 at densities 0.5-0.95
(20 seeds per size, :data:`SWEEP_SIZES`) should end at one peg or with a proof that fewer pegs than
found are impossible. The sweep is long (60 boards x 60 s); ``--quick`` runs 3 seeds per size for
10 s each.
"""

from __future__ import annotations

import statistics
import time

from gridsolver import pegs
from gridsolver.pegs import depth_first, generate, geometry, jumps
from gridsolver.pegs.table import single_vacancy_problems, table_job
from runner import Table

# (size, peg density, seed) of the comesolo boards: generate.random_board(size, size, density, seed=seed)
COMESOLO = [(10, 0.6, 1), (10, 0.9, 2), (20, 0.7, 3), (20, 0.85, 4), (30, 0.6, 5), (30, 0.8, 6),
            (30, 0.9, 7)]

SWEEP_SIZES = (10, 20, 30)
SWEEP_SEEDS = 20  # per size; seed k of a size has peg density 0.5 + 0.45 * k / (SWEEP_SEEDS - 1)
SWEEP_FIRST_SEED = 1000  # the sweep's boards are generate.random_board(size, size, density, seed=1000 + k)


named = pegs.named


def classic(quick: bool) -> Table:
    table = Table("Classic boards", ["problem", "status", "result", "search time (s)", "nodes", "goal"])
    english = named("english")
    pegs.solve(english, finish=(3, 3))  # load the compiled kernels
    times, result = [], None
    for _ in range(3 if quick else 7):
        result = pegs.solve(english, finish=(3, 3), time=60)
        times.append(result.stats.elapsed_s)
    table.add("English central game (one peg in the centre)", result.status,
              f"{result.details['pegs_left']} peg at (3,3), verified {result.verified}",
              round(statistics.median(times), 4), result.stats.nodes, "< 0.1 s")
    european = named("european")
    result = pegs.solve(european, finish=(3, 3), time=60)
    table.add("European central game", result.status, result.proof, round(result.stats.elapsed_s, 4),
              result.stats.nodes, "proved impossible in seconds")
    problems = single_vacancy_problems(english)
    start = time.perf_counter()
    results = [table_job((english, s, f, 60.0, 2048.0, None, 0, "english")) for s, f in problems]
    elapsed = time.perf_counter() - start
    solvable = sum(r.status == "optimal" and r.verified for r in results)
    impossible = sum(r.status == "impossible" for r in results)
    by_search = sum(r.status == "impossible" and "exhaustive" in r.proof for r in results)
    table.add(f"English single-vacancy table ({len(problems)} problems up to symmetry)",
              "all decided" if solvable + impossible == len(problems) else "some undecided",
              f"{solvable} solvable, {impossible} impossible ({by_search} by exhaustive search)",
              round(elapsed, 2), sum(r.stats.nodes for r in results), "< 60 s")
    for name in ("triangle", "6x6", "wiegleb", "diamond", "european"):
        board = named(name)
        result = pegs.solve(board, objective="jumps", time=10 if quick else 30)
        table.add(f"{name} ({board.jumps}), most jumps", result.status,
                  f"{result.details['pegs_left']} peg(s) left", round(result.stats.elapsed_s, 3),
                  result.stats.nodes, "")
    result = pegs.solve(named("triangle"), objective="moves", time=60, memory=512)
    table.add("triangle, fewest moves to one peg", result.status, f"{result.score} moves",
              round(result.stats.elapsed_s, 3), result.stats.nodes, "")
    table.notes.append("Search time is Result.stats.elapsed_s: the solve call after the kernels are "
                       "loaded (median of several runs for the central game). Other engineers were "
                       "running builds and tests on the same 2 cores, so times are noisy.")
    return table


def comesolo(quick: bool) -> Table:
    seconds = 10.0 if quick else 60.0
    table = Table(f"Comesolo random boards, {seconds:g} s each, 8 directions",
                  ["board", "pegs", "default: pegs left", "status", "time (s)",
                   "published: pegs left", "time (s)", "stopped by"])
    wins = singles = 0
    for size, density, seed in COMESOLO:
        board = generate.random_board(size, size, density, seed=seed)
        ours = pegs.solve(board, objective="jumps", time=seconds, seed=1)
        theirs = pegs.solve(board, objective="jumps", strategy="published", time=seconds, seed=1)
        assert ours.verified and theirs.verified
        left, their_left = ours.details["pegs_left"], theirs.details["pegs_left"]
        wins += left < their_left
        singles += left == 1
        table.add(f"{size}x{size} density {density} seed {seed}", board.peg_count, left, ours.status,
                  round(ours.stats.elapsed_s, 1), their_left, round(theirs.stats.elapsed_s, 1),
                  theirs.stopped or "-")
    table.notes.append(f"Default strategy leaves fewer pegs on {wins} of {len(COMESOLO)} boards and one "
                       f"peg on {singles}. Boards: generate.random_board(size, size, density, seed=seed); "
                       "both strategies with --seed 1 and the default 2048 MB memory budget. The published "
                       "method stops when its memory is full, as published.")
    return table


def sweep_boards(quick: bool) -> list[tuple[int, float, int]]:
    """(size, density, seed) of the sweep: every size, densities spread evenly over 0.5-0.95."""
    picks = range(0, SWEEP_SEEDS, 7) if quick else range(SWEEP_SEEDS)
    return [(size, round(0.5 + 0.45 * k / (SWEEP_SEEDS - 1), 3), SWEEP_FIRST_SEED + k)
            for size in SWEEP_SIZES for k in picks]


def comesolo_sweep(quick: bool) -> Table:
    seconds = 10.0 if quick else 60.0
    table = Table(f"Comesolo sweep: square boards at densities 0.5-0.95, {seconds:g} s each",
                  ["board", "pegs", "pegs left", "fewest possible (proved)", "status", "time (s)",
                   "peak memory (MB)"])
    boards = sweep_boards(quick)
    singles = proved = 0
    for size, density, seed in boards:
        board = generate.random_board(size, size, density, seed=seed)
        result = pegs.solve(board, objective="jumps", time=seconds, seed=1)
        assert result.verified
        left = result.details["pegs_left"]
        singles += left == 1
        proved += result.status == "optimal"
        table.add(f"{size}x{size} density {density} seed {seed}", board.peg_count, left,
                  result.details.get("fewest_pegs_possible", "-"), result.status,
                  round(result.stats.elapsed_s, 1), round(result.stats.peak_memory_mb))
    table.notes.append(f"{singles} of {len(boards)} boards end at one peg; {proved} are proved optimal "
                       "(one peg, the position-class bound reached, or an exhaustive search). 'fewest "
                       "possible' is the position-class bound (geometry.fewest_pegs_bound). Default "
                       "strategy, --seed 1, default 2048 MB memory budget.")
    return table


def comesolo_sparse(quick: bool) -> Table:
    """The sweep's sparsest row (density 0.5, seed 1000) at every size, with the pagoda bound's part.

    Without the pagoda functions these boards ended at 2-6 pegs without a proof. The fewest-pegs
    bound here includes the pagoda functions (pegs.pagoda: golden-ratio pagodas, then linear
    programs), run once after the depth-first phase when its line leaves more pegs than the
    position classes allow.
    """
    seconds = 10.0 if quick else 60.0
    table = Table(f"Comesolo density 0.5 (the sweep's seed {SWEEP_FIRST_SEED}), {seconds:g} s each",
                  ["board", "pegs", "pegs left", "fewest possible (proved)", "status", "pagoda bound (s)",
                   "beam runs stopped doomed", "time (s)", "peak memory (MB)"])
    pegs.solve(generate.random_board(6, 6, 0.5, seed=1), objective="jumps", time=2)  # load the kernels
    for size in SWEEP_SIZES:
        board = generate.random_board(size, size, 0.5, seed=SWEEP_FIRST_SEED)
        result = pegs.solve(board, objective="jumps", time=seconds, seed=1)
        assert result.verified
        table.add(f"{size}x{size} density 0.5 seed {SWEEP_FIRST_SEED}", board.peg_count,
                  result.details["pegs_left"], result.details.get("fewest_pegs_possible", "-"), result.status,
                  result.details.get("pagoda_bound_s", "-"),
                  result.details.get("beam_runs_stopped_doomed", "-"), round(result.stats.elapsed_s, 1),
                  round(result.stats.peak_memory_mb))
    table.notes.append("Default strategy, --seed 1, default memory budget; the pagoda bound takes at most "
                       f"{jumps.PAGODA_SHARE:g} of the time ({jumps.PAGODA_MAX_S:g} s at most). A beam "
                       "run stops early once every position it keeps has doomed pegs (pegs no other can "
                       "ever come next to) enough that it cannot beat the best line.")
    return table


EUROPEAN_SECONDS = 120.0  # per problem; the goal is all of them in under 5 minutes
EUROPEAN_MEMORY_MB = 4096.0


def european_single_vacancy(quick: bool) -> list[Table]:
    """Every single-vacancy problem of the 37-hole European board with a one-peg finish
    decided, in under 5 minutes in all and 4 GB.

    One start per orbit of the 8 symmetries (8 orbits cover the 37 holes), then one finish per orbit
    of the symmetries fixing that start (190 problems). A finish outside the start's position class
    is impossible at once; the rest go through the finish search (``table_job``, the same as
    ``gridsolver pegs table european``), each replay-verified.
    """
    board = named("european")
    perms = geometry.symmetries(board)
    classes = geometry.PositionClasses(board)
    problems = single_vacancy_problems(board)
    table_job((board, (3, 3), (3, 3), 60.0, EUROPEAN_MEMORY_MB, None, 0, "warm-up"))  # compile
    starts = Table("European board, one peg from one vacancy: the starts (up to the 8 symmetries)",
                   ["start vacancy", "holes in its orbit", "finishes allowed by position class",
                    "one peg anywhere", "time (s)"])
    pairs = Table("European board: every (start, finish) pair the position classes allow",
                  ["start vacancy", "finish", "status", "jumps", "time (s)", "nodes", "endgame (pegs, "
                   "positions)", "peak memory (MB)"])
    started = time.perf_counter()
    impossible = solved = unknown = 0
    for start in dict.fromkeys(s for s, _ in problems):
        full = board.with_pegs(board.holes & ~(1 << board.index(start)))
        allowed = [f for f in board.hole_cells() if classes.same_class(full.pegs, 1 << board.index(f))]
        clock = time.perf_counter()
        outcomes = []
        for _, finish in (p for p in problems if p[0] == start):
            if finish not in allowed:
                impossible += 1
                continue
            result = table_job((board, start, finish, EUROPEAN_SECONDS, EUROPEAN_MEMORY_MB, None, 0,
                                       f"european {start}->{finish}"))
            good = result.status == "optimal" and result.verified
            solved += good
            impossible += result.status == "impossible"
            unknown += not good and result.status != "impossible"
            outcomes.append(result.status if good or result.status == "impossible" else "unknown")
            ending = (f"{result.details['endgame_pegs']}, {result.details['endgame_positions']:,}"
                      if "endgame_pegs" in result.details else "-")
            pairs.add(start, finish, result.status + (", verified" if result.verified else ""),
                      result.score if result.score is not None else "-", round(result.stats.elapsed_s, 2),
                      result.stats.nodes, ending, round(result.stats.peak_memory_mb))
        orbit = len({p[board.index(start)] for p in perms})
        anywhere = ("impossible (position classes: no single peg is in the start's class)" if not allowed
                    else f"solvable ({outcomes.count('optimal')} of {len(outcomes)} finishes up to "
                    "symmetry)" if "optimal" in outcomes else "undecided")
        starts.add(start, orbit, " ".join(f"({r},{c})" for r, c in allowed) or "none", anywhere,
                   round(time.perf_counter() - clock, 2))
    elapsed = time.perf_counter() - started
    from gridsolver.core.budget import peak_rss_mb

    starts.notes.append(f"{len(problems)} problems up to symmetry: {solved} solved (replay-verified), "
                        f"{impossible} proved impossible, {unknown} undecided, in {elapsed:.1f} s in all "
                        f"(goal: under 300 s); peak memory of the process {peak_rss_mb():.0f} MB (goal: "
                        f"under 4,096). Each search: --time {EUROPEAN_SECONDS:g} --memory "
                        f"{EUROPEAN_MEMORY_MB:g} --seed 0, one at a time in one process.")
    pairs.notes.append("Endgame: the finish search's table of every position with that many pegs that "
                       "can still finish (the dual search backwards from the finish, pegs.endgame), built "
                       f"only after {depth_first.ENDGAME_AFTER_NODES:,} nodes without a finish; '-': solved "
                       "before that. Times on a loaded machine (2 cores shared with other jobs).")
    return [starts, pairs]


def run(quick: bool) -> list[Table]:
    return [classic(quick), comesolo(quick), comesolo_sweep(quick), *european_single_vacancy(quick)]


if __name__ == "__main__":  # one section alone: python benchmarks/bench_pegs.py european_single_vacancy
    import sys

    for name in sys.argv[1:]:
        section = globals()[name](quick=False)
        for table in section if isinstance(section, list) else [section]:
            print(table.markdown())
