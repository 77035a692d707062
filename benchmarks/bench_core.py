"""Start-up cost: ``gridsolver --help`` must stay well under 0.5 s (no numba import)."""

import statistics
import subprocess
import sys
import time

from runner import Table


def _time(args: list[str], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "gridsolver", *args], capture_output=True,
                       check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run(quick: bool) -> list[Table]:
    repeats = 3 if quick else 10
    table = Table("Start-up time", ["command", "median wall time (s)"])
    for args in (["--help"], ["--version"], ["bunny", "--help"], ["ratrace", "--help"]):
        table.add("gridsolver " + " ".join(args), round(_time(args, repeats), 3))
    table.notes.append(f"Median of {repeats} runs, including the Python interpreter start-up.")
    return [table]
