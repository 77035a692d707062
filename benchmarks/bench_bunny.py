"""Hopping Bunny: the 12-board challenge and random boards of 50-400 squares.

Goals (issue 3): the challenge scored 64 with every board proved optimal, all
12 boards in under 10 s of search; random boards of 50-400 squares from the
generator proved optimal within 60 s each.
"""

from __future__ import annotations

import os
import time

from gridsolver import bunny
from gridsolver.bunny.challenge import challenge_row
from gridsolver.bunny.game import CHALLENGE_FILES
from gridsolver.bunny.generate import random_board
from gridsolver.bunny.rules import token_count
from runner import Table

PUBLISHED = (2, 4, 4, 5, 5, 4, 8, 8, 6, 6, 7, 8)  # the published solver's tokens per board
RANDOM_SEEDS = {50: (1, 2, 3, 4), 100: (1, 2, 3, 4), 200: (1, 2, 3), 300: (1, 2, 3), 400: (1, 2, 3)}
QUICK_SEEDS = {50: (1,), 200: (1,), 400: (1,)}


def _warm_up() -> None:
    """Load the compiled kernels once, so per-board times are search times."""
    bunny.solve(bunny.read("S##\n  #"), time=60)


def challenge_table() -> Table:
    table = Table("Challenge (60 s budget per board)",
                  ["board", "squares", "tokens", "published", "status", "seconds", "program"])
    total = published = 0
    seconds = 0.0
    proved = 0
    for name, theirs in zip(CHALLENGE_FILES, PUBLISHED, strict=True):
        row = challenge_row(bunny.named(name), name, 60.0, 2048.0)
        table.add(name, row["squares"], row["score"], theirs, row["status"], row["seconds"],
                  f"`{row['program']}`")
        total += row["score"]
        published += theirs
        seconds += row["seconds"]
        proved += row["status"] == "optimal"
    table.add("**total**", "", f"**{total}**", published, f"{proved}/12 optimal", round(seconds, 2), "")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    table.notes.append("Seconds are wall time per board inside one process after the kernels were "
                       "loaded from numba's cache (a first run ever also compiles them, roughly 30 s). "
                       f"Other engineers' jobs shared the 2 cores (load average {load:.1f} at the end "
                       "of this table), so times are noisy.")
    return table


def random_table(quick: bool) -> Table:
    table = Table("Random boards from `gridsolver bunny random` (60 s budget per board)",
                  ["squares", "seed", "generator tokens", "tokens", "status", "seconds", "program"])
    worst = 0.0
    for squares, seeds in (QUICK_SEEDS if quick else RANDOM_SEEDS).items():
        for seed in seeds:
            made = random_board(seed, squares)
            start = time.perf_counter()
            result = bunny.solve(made.board, time=60)
            elapsed = time.perf_counter() - start
            worst = max(worst, elapsed)
            table.add(squares, seed, token_count(made.program), result.score, result.status,
                      round(elapsed, 3), f"`{result.solution}`")
    table.notes.append(f"Slowest board: {worst:.2f} s. \"generator tokens\" is the size of the random "
                       "program that drew the board (an upper bound the solver is not told).")
    return table


def run(quick: bool) -> list[Table]:
    _warm_up()
    return [challenge_table(), random_table(quick)]
