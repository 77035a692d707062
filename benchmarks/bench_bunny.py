"""Hopping Bunny: the 12-board challenge and random boards of 50-400 squares.

Goals: the challenge scored 64 with every board proved optimal, all
12 boards in under 10 s of search; random boards of 50-400 squares from the
generator proved optimal within 60 s each; every board of up to 400
squares with an optimum of at most 8 tokens proved within 60 s, in time and
peak memory within 2x of a compiled solver: the proof table runs each board in
a process of its own, so its peak memory is that board's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
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
# The proof table's 20 boards: random programs of 10 tokens (``random_board(squares, seed=seed, tokens=10)``),
# which draw boards with larger optima than the default sizes do.
PROOF_TOKENS = 10
PROOF_BOARDS = [(squares, seed) for squares in (200, 250, 300, 350, 400) for seed in (1, 2, 3, 4)]
QUICK_PROOF_BOARDS = [(200, 1), (400, 2)]
PROOF_TIME_S, PROOF_MEMORY_MB = 60.0, 2048.0

# One board in a fresh process: its peak resident memory is that board's alone.
PROOF_DRIVER = """
import json, resource, sys, time
from gridsolver import bunny
from gridsolver.bunny.generate import random_board
squares, seed, tokens, seconds, memory = (int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]),
                                          float(sys.argv[4]), float(sys.argv[5]))
made = random_board(squares, seed=seed, tokens=tokens)
bunny.solve(bunny.read("S##\\n  #"), time=60)  # load the compiled kernels first
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
start, cpu = time.perf_counter(), time.process_time()
result = bunny.solve(made.board, time=seconds, memory=memory)
elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
print(json.dumps({"tokens": result.score, "status": result.status, "stopped": result.stopped,
                  "seconds": elapsed, "cpu_seconds": cpu,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "base_mb": base, "fragments": result.details.get("library_fragments"),
                  "nodes": result.stats.nodes, "program": result.solution}))
"""


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
            made = random_board(seed=seed, squares=squares)
            start = time.perf_counter()
            result = bunny.solve(made.board, time=60)
            elapsed = time.perf_counter() - start
            worst = max(worst, elapsed)
            table.add(squares, seed, token_count(made.program), result.score, result.status,
                      round(elapsed, 3), f"`{result.solution}`")
    table.notes.append(f"Slowest board: {worst:.2f} s. \"generator tokens\" is the size of the random "
                       "program that drew the board (an upper bound the solver is not told).")
    return table


def _proof_run(squares: int, seed: int) -> dict:
    args = [sys.executable, "-c", PROOF_DRIVER, str(squares), str(seed), str(PROOF_TOKENS), str(PROOF_TIME_S),
            str(PROOF_MEMORY_MB)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"bunny proof board {squares}/{seed} failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def proof_table(quick: bool) -> Table:
    table = Table(f"Exact proofs on random boards of 200-400 squares ({PROOF_TIME_S:.0f} s, "
                  f"--memory {PROOF_MEMORY_MB:.0f} per board)",
                  ["squares", "seed", "tokens", "status", "seconds", "CPU s", "peak MB", "library fragments",
                   "program"])
    worst_s = worst_mb = 0.0
    proved = 0
    boards = QUICK_PROOF_BOARDS if quick else PROOF_BOARDS
    for squares, seed in boards:
        row = _proof_run(squares, seed)
        worst_s = max(worst_s, row["seconds"])
        worst_mb = max(worst_mb, row["peak_mb"])
        proved += row["status"] == "optimal"
        status = row["status"] + (f" (stopped by {row['stopped']})" if row["stopped"] else "")
        program = row["program"] if len(row["program"]) <= 60 else row["program"][:57] + "..."
        table.add(squares, seed, row["tokens"], status, round(row["seconds"], 2),
                  round(row["cpu_seconds"], 2), round(row["peak_mb"]), row["fragments"], f"`{program}`")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    table.notes.append(f"Boards: `random_board(squares, seed=seed, tokens={PROOF_TOKENS})` from "
                       "`gridsolver.bunny.generate`. Each board runs in a process of its own after the "
                       "kernels were loaded; peak MB is that process's peak resident memory (Python, numpy "
                       "and numba take about 150 MB of it before the search); CPU s is the process's CPU "
                       "time for the search, which other jobs on a loaded machine inflate less than the wall "
                       "time. "
                       f"{proved}/{len(boards)} proved optimal; slowest {worst_s:.2f} s; largest peak "
                       f"{worst_mb:.0f} MB. Load average {load:.1f} at the end of this table.")
    return table


def run(quick: bool) -> list[Table]:
    _warm_up()
    return [challenge_table(), random_table(quick), proof_table(quick)]
