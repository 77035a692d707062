"""Clickomania benchmarks (issue 5): duel-5x5, clearable boards, random boards (SameGame: bench_samegame.py).

Seeds are fixed here; sample sizes are kept small enough for the whole run
to take about ten minutes on 2 cores (the notes say how many boards).
"""

from __future__ import annotations

import time

from gridsolver.clickomania import rules
from gridsolver.clickomania.game import GAME
from gridsolver.clickomania.generate import clearable_board, random_board
from gridsolver.clickomania.search import solve_clickomania
from gridsolver.core.boards import split_boards
from gridsolver.core.budget import Budget
from gridsolver.core.game import verify
from gridsolver.core.parallel import parallel_map
from runner import Table

CLEARABLE_SEED = 100
RANDOM_SEED = 500


def _named(name: str) -> list[rules.Board]:
    return [rules.parse(b) for b in split_boards(rules.named(name), name, rules.COMMENT)]


def _solve(job: tuple[rules.Board, float]) -> tuple[str, int, float]:
    board, seconds = job
    result = solve_clickomania(board, Budget(time_s=seconds, memory_mb=2048))
    verify(GAME, board, result)  # solve_clickomania no longer replays; Game.solve does (core.game.verify)
    assert result.verified or result.solution is None
    return result.status, int(result.score if result.score is not None else -1), result.stats.elapsed_s


def duel(quick: bool) -> Table:
    boards = _named("duel-5x5")
    solve_clickomania(boards[0], Budget(time_s=60))  # load the compiled kernels before timing
    start = time.perf_counter()
    outcomes = [solve_clickomania(b, Budget(time_s=60)) for b in boards]
    verified = [verify(GAME, b, r) for b, r in zip(boards, outcomes, strict=True)]  # replayed, as before
    wall = time.perf_counter() - start
    assert all(verified)
    search = sum(r.stats.elapsed_s for r in outcomes)
    table = Table("duel-5x5: every board decided", ["boards", "decided", "clearable", "proved impossible",
                                                     "total search time (s)", "wall time incl. Python (s)"])
    table.add(len(boards), sum(r.proved for r in outcomes), sum(r.score == 0 for r in outcomes),
              sum(r.status == "impossible" for r in outcomes), round(search, 3), round(wall, 3))
    table.notes.append("Goal: all 200 decided in under 0.2 s of search. Every sequence replayed under the "
                       "rules. Search time is the solver's own clock per board, summed.")
    return table


def clearable(quick: bool) -> Table:
    sizes = (10, 20, 37) if quick else (10, 20, 37, 50)
    count = 1 if quick else 2
    limit = 20.0 if quick else 60.0
    table = Table("Guaranteed-clearable boards, 5 colours", ["size", "boards", "cleared",
                                                            "median time (s)", "max time (s)",
                                                            "fewest cells left (worst board)"])
    for size in sizes:
        jobs = [(clearable_board(size, size, 5, CLEARABLE_SEED + k).board, limit) for k in range(count)]
        outcomes = [_solve(job) for job in jobs]
        times = sorted(o[2] for o in outcomes)
        table.add(f"{size}x{size}", count, sum(o[1] == 0 for o in outcomes), round(times[len(times) // 2], 2),
                  round(times[-1], 2), max(o[1] for o in outcomes))
    table.notes.append(f"Seeds {CLEARABLE_SEED}..{CLEARABLE_SEED + count - 1} (`gridsolver clickomania solve "
                       f"--clearable NxNx5 --seed S --time {limit:g}`), {limit:g} s budget per board, one "
                       "board at a time. Goal: 50x50 cleared in under 60 s.")
    return table


def random_boards(quick: bool) -> list[Table]:
    count = 3 if quick else 12
    tables = []
    for (width, height, limit, what) in ((10, 10, 60.0, "decided exactly"), (20, 10, 10.0, "cleared")):
        table = Table(f"Random {width}x{height} boards: share {what} within {limit:g} s",
                      ["colours", "boards", "cleared", "proved impossible", "undecided", f"share {what}",
                       "median time (s)"])
        for colours in (3, 4):
            jobs = [(random_board(width, height, colours, RANDOM_SEED + k), limit) for k in range(count)]
            outcomes = parallel_map(_solve, jobs, workers=2, label="random boards")
            cleared = sum(o[1] == 0 for o in outcomes)
            impossible = sum(o[0] == "impossible" for o in outcomes)
            good = cleared + impossible if what == "decided exactly" else cleared
            times = sorted(o[2] for o in outcomes)
            table.add(colours, count, cleared, impossible, count - cleared - impossible,
                      f"{good}/{count}", round(times[len(times) // 2], 2))
        table.notes.append(f"Seeds {RANDOM_SEED}..{RANDOM_SEED + count - 1} (`--random {width}x{height}xC "
                           f"--seed S`), {count} boards per colour count, two boards at a time on 2 cores.")
        tables.append(table)
    return tables


def run(quick: bool) -> list[Table]:
    # the SameGame standard set is benchmarks/bench_samegame.py (its own section)
    return [duel(quick), clearable(quick), *random_boards(quick)]
