"""What watching a search costs, part by part: each part timed alone, the least of many repeats.

The rates of ``bench_status_line`` move by 10-40% from one back-to-back pair
to the next on a shared machine, far more than the watching could cost; timing
its parts alone gives the bound those rates cannot resolve: how much of each
second of search the watcher's work and the kernels' letting it in take.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from runner import Table


def run(quick: bool) -> list[Table]:
    return [_costs()]


def _costs() -> Table:
    """What the watching costs, part by part, timed alone (the least of many repeats): an upper bound on
    the share of a second of search it takes, free of the machine's drift."""
    import io

    from numba import njit

    from gridsolver.core import live, watch
    from gridsolver.core.kernels.clock import monotonic_ns
    from gridsolver.core.kernels.watch import _let_interpreter_go, watch_tick

    @njit(cache=False)
    def let_go(times: int) -> int:
        for _ in range(times):
            _let_interpreter_go()
        return times

    @njit(cache=False)
    def ticks(times: int) -> int:
        stops = 0
        for i in range(times):
            stops += watch_tick(i, monotonic_ns())
        return stops

    def least_ns(fn: Callable[[], Any], per_call: int, repeats: int = 7) -> float:
        best = float("inf")
        for _ in range(repeats):
            started = time.perf_counter_ns()
            fn()
            best = min(best, (time.perf_counter_ns() - started) / per_call)
        return best

    watch.reset(0)
    let_go(1), ticks(1)  # compile
    yield_ns = least_ns(lambda: let_go(100_000), 100_000)
    tick_ns = least_ns(lambda: ticks(1_000_000), 1_000_000)

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    display = live.Display(Terminal(), terminal=True)
    watcher = live.Watcher(live.Search("samegame", "standard-20#1", "points", False, "playouts", 60.0, 2,
                                       started=time.monotonic()), [lambda event: None], display)
    watch.improved(2781)
    look_ns = least_ns(lambda: [watcher.look() for _ in range(200)], 200)
    per_second = (1e9 / live.YIELD_NS) * yield_ns + (1 / live.INTERVAL_S) * look_ns
    table = Table("The watching's parts, each timed alone (least of 7 repeats)",
                  ["part", "cost", "how often", "share of a second of search"])
    table.add("kernels let the watcher in (GIL released and taken back, nobody waiting)",
              f"{yield_ns:,.0f} ns", f"{1e9 / live.YIELD_NS:g} a second", f"{yield_ns * 10 / 1e7:.4f}%")
    table.add("the watcher reads the blocks, makes the events and draws the line (coloured)",
              f"{look_ns / 1e3:,.1f} µs", f"{1 / live.INTERVAL_S:g} a second",
              f"{look_ns / live.INTERVAL_S / 1e7:.3f}%")
    table.add("a kernel's watch tick at a clock check (node count, stop asked?, time to let go?)",
              f"{tick_ns:,.1f} ns", "once per clock check (every few hundred nodes), status line or not",
              "in both columns of `status_line`")
    table.notes.append(f"With the line on, the watcher's own work comes to {per_second / 1e7:.3f}% of each "
                       "second at most (while it draws, the kernel waits for the interpreter): the bound the "
                       "noisy rates of `status_line` cannot resolve.")
    return table
