"""What watching a search costs: each game's speed figure with the status line's watcher on and off.

Every figure is a search at a node budget or to its proof (the same work each
time), run in this process through the API, alternately without a listener
(no watcher thread: kernels only write the watch block at their clock checks)
and with one (``on_event``: a watcher thread reads the block four times a
second and the kernels let it in). Work per second is the search's own count
(nodes, playouts, rat-moves) over this process's CPU seconds for the call
(the watcher thread's included; other programs on a shared machine not); the figure is the median of
the rounds, each pair run back to back, so the machine's drift touches both.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from runner import Table

ROUNDS = 15
QUICK_ROUNDS = 3


Search = tuple[Callable[..., Any], Any, dict[str, Any]]  # (a game's solve, a board, its options)


def _figures() -> list[tuple[str, str, Callable[[], list[Search]]]]:
    """(name, unit, a maker of the searches it runs)."""
    from gridsolver import bunny, clickomania, pegs, ratrace, samegame
    from gridsolver.clickomania.generate import clearable_board
    from gridsolver.pegs.generate import random_board

    return [
        ("bunny: challenge boards 07, 08, 12 to their proofs", "nodes/s",
         lambda: [(bunny.solve, bunny.named(f"challenge/{k:02d}"), {"time": 120}) for k in (7, 8, 12)]),
        ("pegs: English central game, 10 times", "nodes/s",
         lambda: [(pegs.solve, pegs.named("english"), {"finish": (3, 3)})] * 10),
        ("pegs: comesolo 10x10 (density 0.75, seed 3), one peg in the corner, 3M nodes", "nodes/s",
         lambda: [(pegs.solve, random_board(10, 10, 0.75, seed=3), {"nodes": 3_000_000, "seed": 1,
                                                               "finish": (0, 0)})]),
        ("clickomania: 3 clearable 50x50 boards (seeds 1-3), to a clearing", "nodes/s",
         lambda: [(clickomania.solve, clearable_board(50, 50, 5, seed=seed).board, {"time": 120})
                  for seed in (1, 2, 3)]),
        ("samegame: standard positions 1-3, 30,000 playouts, one worker", "playouts/s",
         lambda: [(samegame.solve, board, {"nodes": 30_000, "workers": 1, "seed": 1})
                  for board in samegame.load("standard-20")[:3]]),
        ("ratrace: champion, track 1, 10,000 turns", "rat-moves/s",
         lambda: [(ratrace.solve, ratrace.named("seed/1"), {"player": "champion", "turns": 10_000})]),
        ("ratrace: colour-score, track 1, 10,000 turns", "rat-moves/s",
         lambda: [(ratrace.solve, ratrace.named("seed/1"), {"player": "colour-score", "turns": 10_000})]),
    ]


def _rate(searches: list[Search], watched: bool) -> float:
    """Work per CPU second over the searches, with or without a listener (this process's CPU time:
    the watcher's own included, other programs' not)."""
    work = seconds = 0.0
    for solve, board, options in searches:
        started = time.process_time()
        result = solve(board, on_event=(lambda event: None) if watched else None, **options)
        seconds += time.process_time() - started
        work += result.stats.nodes
    return work / seconds if seconds > 0 else 0.0


def run(quick: bool) -> list[Table]:
    rounds = QUICK_ROUNDS if quick else ROUNDS
    table = Table("Work per second with the status line's watcher off and on (median of rounds)",
                  ["figure", "unit", "off", "on", "change (median of pairs)", "pairs range", "rounds"])
    for name, unit, make in _figures():
        searches = make()
        _rate(searches, False)  # compile or load the kernels, outside the rounds
        off, on, ratios = [], [], []
        for number in range(rounds):
            pair = {}
            for watched in ((False, True) if number % 2 == 0 else (True, False)):
                pair[watched] = _rate(searches, watched)
            off.append(pair[False])
            on.append(pair[True])
            ratios.append(pair[True] / pair[False] - 1 if pair[False] else 0.0)
        ratios.sort()
        table.add(name, unit, f"{statistics.median(off):,.0f}", f"{statistics.median(on):,.0f}",
                  f"{100 * statistics.median(ratios):+.1f}%",
                  f"{100 * ratios[0]:+.1f}% to {100 * ratios[-1]:+.1f}%", rounds)
    table.notes.append(
        "Off: no listener, so no watcher thread (the kernels still write the watch block at their clock "
        "checks, as they always do). On: a listener, as a status line on a terminal has: the watcher "
        "thread reads the block four times a second and the kernels let it in once per 100 ms. Each "
        "search at a node budget or to its proof: the same work in both. Rates are the searches' node "
        "counts over this process's CPU seconds for the calls (the watcher's included). The change is the "
        "median over the rounds of on / off, each pair run back to back, alternating which goes first "
        "(the machine's speed drifts by more than 10% over minutes: a pair shares its moment); the range "
        "shows how noisy single pairs are. `python benchmarks/run.py watch_costs` times the watching's "
        "parts alone, which bounds what it can cost.")
    return [table]
