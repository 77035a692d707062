"""Peg solitaire on the 41-hole diamond: every single-vacancy start decided, then every (start, finish) pair.

Goal: each of the 41 single-vacancy starts decided (one peg found and replay-verified, or proved
impossible, naming the proof) within 60 s and 4 GB each, then every (vacancy, finish) pair the
position classes allow. The board's 8 symmetries split the 41 starts into 9 orbits; one start per
orbit, then one finish per orbit of the symmetries fixing it: 237 problems, 220 impossible by
position classes at once. The other 17 go through the finish search (``table_job``, the same as
``gridsolver pegs table diamond``): pagoda functions found by linear programming (near the start, and
in the small layers of the endgame found backwards from the finish), the two-sided breadth-first
search, then depth-first runs down to the endgame. As ``pegs table`` does, a problem whose dual (a game
read backwards on the complemented board) was decided before it takes its answer from it, a game turned
round and replayed. ``--quick`` gives each problem 20 s instead of 60.
"""

from __future__ import annotations

import os
import time

from gridsolver import pegs
from gridsolver.core.budget import peak_rss_mb
from gridsolver.core.result import Result
from gridsolver.pegs import geometry
from gridsolver.pegs.table import dual_problems, from_dual, single_vacancy_problems, table_job
from runner import Table

SECONDS = 60.0  # per problem
QUICK_SECONDS = 20.0
MEMORY_MB = 4096.0


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f} / {five:.1f}"


def proof_kind(proof: str) -> str:
    if proof.startswith("position classes"):
        return "position classes"
    if proof.startswith("pagoda functions") and "from the start can end" in proof:
        return "pagodas near the start"
    if proof.startswith("pagoda functions"):
        return "pagodas on the endgame"
    if proof.startswith("breadth-first search by jumps from both ends"):
        return "both ends never meet"
    if proof.startswith("breadth-first search by jumps from the finish"):
        return "both ends never meet (self-dual: one side built)"
    if proof.startswith("impossible as the dual of"):
        return "its dual's: " + proof_kind(proof.split(": ", 1)[1])
    if proof.startswith("exhaustive"):
        return "exhaustive search"
    return proof[:40]


def run(quick: bool) -> list[Table]:
    board = pegs.named("diamond")
    seconds = QUICK_SECONDS if quick else SECONDS
    perms = geometry.symmetries(board)
    classes = geometry.PositionClasses(board)
    problems = single_vacancy_problems(board)
    table_job((board, (3, 4), (2, 4), 10.0, MEMORY_MB, None, 0, "warm-up"))  # compile the kernels
    starts = Table("Diamond (41 holes), one peg from one vacancy: the starts (up to the 8 symmetries)",
                   ["start vacancy", "holes in its orbit", "finishes allowed by position class",
                    "one peg anywhere", "decided after (s)", "load (1 / 5 min)"])
    pairs = Table("Diamond: every (start, finish) pair the position classes allow",
                  ["start vacancy", "finish", "status", "proof", "time (s)", "nodes",
                   "endgame (pegs, positions)", "peak memory (MB)", "workers' peak memory (MB)",
                   "load (1 / 5 min)"])
    started = time.perf_counter()
    counts = {"solved": 0, "impossible": 0, "undecided": 0}
    duals = dual_problems(board, problems)
    results: dict[int, Result] = {}
    for start in dict.fromkeys(s for s, _ in problems):
        full = board.with_pegs(board.holes & ~(1 << board.index(start)))
        allowed = [f for f in board.hole_cells() if classes.same_class(full.pegs, 1 << board.index(f))]
        outcomes, decided_after, spent = [], None, 0.0
        for i, (_, finish) in ((i, p) for i, p in enumerate(problems) if p[0] == start):
            if finish not in allowed:
                counts["impossible"] += 1
                continue
            label = f"diamond {start}->{finish}"
            result = None
            if i in duals:
                j, p = duals[i]
                result = from_dual(board, problems[i], problems[j], p, results[j], label)
            if result is None:
                result = table_job((board, start, finish, seconds, MEMORY_MB, None, 0, label))
            results[i] = result
            good = result.status == "optimal" and result.verified
            outcome = "solved" if good else "impossible" if result.status == "impossible" else "undecided"
            counts[outcome] += 1
            outcomes.append(outcome)
            spent += result.stats.elapsed_s
            if good and decided_after is None:
                decided_after = spent
            ending = (f"{result.details['endgame_pegs']}, {result.details['endgame_positions']:,}"
                      if "endgame_pegs" in result.details else "-")
            pairs.add(start, finish, result.status + (", verified" if result.verified else ""),
                      proof_kind(result.proof) if result.status == "impossible" else "-",
                      round(result.stats.elapsed_s, 2), result.stats.nodes, ending,
                      round(result.stats.peak_memory_mb), result.details.get("meeting_worker_peak_mb", "-"),
                      load())
        orbit = len({p[board.index(start)] for p in perms})
        if not allowed:
            anywhere = "impossible (position classes: no single peg is in the start's class)"
            decided_after = 0.0
        elif "solved" in outcomes:
            anywhere = f"solvable ({outcomes.count('solved')} of {len(outcomes)} finishes up to symmetry)"
        elif all(o == "impossible" for o in outcomes):
            anywhere, decided_after = "impossible (every finish proved impossible)", spent
        else:
            anywhere = "undecided"
        starts.add(start, orbit, " ".join(f"({r},{c})" for r, c in allowed) or "none", anywhere,
                   "-" if decided_after is None else round(decided_after, 2), load())
    elapsed = time.perf_counter() - started
    starts.notes.append(f"{len(problems)} problems up to symmetry: {counts['solved']} solved "
                        f"(replay-verified), {counts['impossible']} proved impossible, "
                        f"{counts['undecided']} undecided, in "
                        f"{elapsed:.1f} s in all; peak memory of the process {peak_rss_mb():.0f} MB. Each "
                        f"search: --time {seconds:g} --memory {MEMORY_MB:g} --seed 0, one at a time, its "
                        "two-sided search grown in two worker processes (their memory is not in this "
                        "process's figures; the pairs' table gives the larger worker's peak, since it "
                        "started: workers are reused). A problem whose dual was decided before it takes its "
                        "answer from it, as `pegs table` does. 'Decided after': the searches of "
                        "that start's finishes, in table order, "
                        "until the first solved one (or all, when every one is impossible).")
    pairs.notes.append("Proofs: position classes are not listed (220 pairs); 'pagodas near the start': every "
                       "position a few jumps from the start weighs less than the finish under some pagoda "
                       "found by linear programming; 'pagodas on the endgame': every position of a few pegs "
                       "that can end at the finish (found backwards) outweighs the start under some pagoda; "
                       "'both ends never meet': breadth-first search by jumps from both ends, pruned by "
                       "pagodas, finds no position on both sides. "
                       "Times on a machine shared with other jobs (2 cores): the load column is the "
                       "1- and 5-minute load average after each search.")
    return [starts, pairs]


if __name__ == "__main__":  # python benchmarks/bench_pegs_diamond.py [--quick]
    import sys

    for table in run(quick="--quick" in sys.argv):
        print(table.markdown())
