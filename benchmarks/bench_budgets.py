"""Budgets end to end: does the whole ``gridsolver ... solve`` process keep --time and --memory?

Each command runs as a subprocess, the way a user runs it, after one warm-up
run of the same command (so the numba cache is warm and compilation is not
measured: that is the ``coldstart`` benchmark's figure). While it runs, the resident memory of
the process and all its children (worker processes) is summed every 50 ms
with psutil; the peak of that sum is the figure reported. Wall time is the
whole process: Python start-up, imports, loading the cached kernels, the
search, the verifying replay and the printing. Start-up alone is measured
apart (``gridsolver bunny boards``: imports, no search) so the over-run can
be read against it.

Boards are the largest each game allows, made by the games' own generators
(``clickomania generate --random 64x64x5``, ``pegs random 30``, ``bunny
random --squares 4000``), plus the shipped boards where the search works
hardest. ``python benchmarks/bench_budgets.py ARGS...`` measures one command
(for trying a fix by hand).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psutil

from runner import Table

TIME_S = 3.0
WARM_UP_TIME_S = 1.0  # the warm-up run only has to load (or compile) the kernels
POLL_S = 0.05
SMALL_MEMORY_MB = 512  # the second table's budget
HANG_CAP_S = 300  # a command still running after this long is killed and reported as such


@dataclass
class Run:
    wall_s: float
    peak_mb: float
    exit_code: int
    stdout: str
    stderr: str

    def search_s(self) -> str:
        """The search's own time (``stats.elapsed_s`` of the first --json result), or "-"."""
        import json

        for line in self.stdout.splitlines():
            if line.startswith("{"):
                try:
                    return f"{json.loads(line)['stats']['elapsed_s']:.2f}"
                except (ValueError, KeyError, TypeError):
                    return "-"
        return "-"


def _tree_rss(process: psutil.Process) -> int:
    """Resident bytes of ``process`` and its children now (processes that just ended count 0)."""
    try:
        members = [process, *process.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for member in members:
        try:
            total += member.memory_info().rss
        except psutil.Error:
            pass
    return total


def measure(args: list[str]) -> Run:
    """Run ``gridsolver ARGS`` to its end; wall time and the peak memory of its process tree."""
    command = [sys.executable, "-m", "gridsolver", *args]
    # output goes to files, not pipes: a full pipe would stall the command while it is polled
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, stderr=err, text=True)
        process = psutil.Process(child.pid)
        peak = 0
        while child.poll() is None:
            peak = max(peak, _tree_rss(process))
            if time.perf_counter() - start > HANG_CAP_S:
                for member in process.children(recursive=True):
                    member.kill()
                child.kill()
            time.sleep(POLL_S)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        return Run(wall, peak / 2**20, child.returncode, out.read(), err.read())


def _boards(folder: Path) -> dict[str, str]:
    """The largest boards each game allows, written by the games' own generators."""
    made = {
        "samegame64": ["clickomania", "generate", "--random", "64x64x5", "--seed", "1"],
        "clickomania64": ["clickomania", "generate", "--random", "64x64x3", "--seed", "2"],
        "pegs30": ["pegs", "random", "30", "--density", "0.8", "--seed", "3"],
        "bunny4000": ["bunny", "random", "--squares", "4000", "--seed", "1"],
    }
    paths = {}
    for name, args in made.items():
        path = folder / f"{name}.txt"
        text = subprocess.run([sys.executable, "-m", "gridsolver", *args], capture_output=True, text=True,
                              check=True).stdout
        path.write_text(text)
        paths[name] = str(path)
    return paths


def cases(boards: dict[str, str]) -> list[tuple[str, list[str]]]:
    """(game, solve arguments without the budget) of every command measured."""
    samegame = [("samegame", ["samegame", "solve", boards["samegame64"], "--workers", "2", "--method", m])
                for m in ("nrpa", "mcbeam", "beam", "nmcs")]
    return [
        ("bunny", ["bunny", "solve", boards["bunny4000"]]),
        ("bunny", ["bunny", "solve", "08-level5-13x13"]),
        ("pegs", ["pegs", "solve", boards["pegs30"]]),
        ("pegs", ["pegs", "solve", boards["pegs30"], "--strategy", "published"]),
        ("pegs", ["pegs", "solve", "english", "--strategy", "published"]),
        ("pegs", ["pegs", "solve", "english", "--objective", "moves"]),
        ("pegs", ["pegs", "solve", boards["pegs30"], "--objective", "moves"]),
        ("clickomania", ["clickomania", "solve", boards["clickomania64"]]),
        *samegame,
        ("ratrace", ["ratrace", "solve", "seed/0", "--player", "forward", "--turns", "1000000"]),
    ]


def _shown(args: list[str], boards: dict[str, str]) -> str:
    """The command as a user would type it, with the generated boards named by what they are."""
    names = {path: f"{name}.txt" for name, path in boards.items()}
    return "gridsolver " + " ".join(names.get(a, a) for a in args)


def _auto_memory_mb() -> float:
    from gridsolver.core.budget import default_memory_mb

    return default_memory_mb()


def run(quick: bool) -> list[Table]:
    seconds = 1.0 if quick else TIME_S
    startup = min(measure(["bunny", "boards"]).wall_s for _ in range(3))
    with tempfile.TemporaryDirectory() as folder:
        boards = _boards(Path(folder))
        chosen = cases(boards)
        if quick:
            chosen = [c for c in chosen if c[0] != "samegame" or "nrpa" in c[1]]
        budget = ["--time", f"{seconds:g}", "--json"]
        auto = Table(f"Default memory budget, --time {seconds:g}",
                     ["game", "command", "--time (s)", "search (s)", "wall (s)", "over-run (s)",
                      "peak tree memory (MB)", "--memory (MB)", "exit"])
        small = Table(f"--memory {SMALL_MEMORY_MB} --workers 2, --time {seconds:g}",
                      ["game", "command", "search (s)", "wall (s)", "over-run (s)", "peak tree memory (MB)",
                       "--memory (MB)", "peak - budget (MB)", "exit"])
        for game, args in chosen:
            # warm-up: the numba cache is loaded (or filled) once, outside the figures
            measure([*args, "--time", f"{WARM_UP_TIME_S:g}", "--json"])
            memory = _auto_memory_mb()
            result = measure([*args, *budget])
            auto.add(game, _shown(args, boards), seconds, result.search_s(), round(result.wall_s, 2),
                     round(result.wall_s - seconds, 2), round(result.peak_mb), f"auto ({memory:,.0f})",
                     result.exit_code)
            limited = [*args, *budget, "--memory", str(SMALL_MEMORY_MB)]
            if "--workers" not in limited:
                limited += ["--workers", "2"]
            result = measure(limited)
            small.add(game, _shown(args, boards), result.search_s(), round(result.wall_s, 2),
                      round(result.wall_s - seconds, 2), round(result.peak_mb), SMALL_MEMORY_MB,
                      round(result.peak_mb - SMALL_MEMORY_MB), result.exit_code)
    for table in (auto, small):
        table.notes.append(
            f"Wall time is the whole process (Python start-up, imports, cached kernels, search, verifying "
            f"replay, output); search is the result's own `stats.elapsed_s`; start-up alone "
            f"(`gridsolver bunny boards`, best of 3) took {startup:.2f} s. "
            f"Peak memory: the resident memory of the process and all its worker processes, summed every "
            f"{POLL_S * 1000:g} ms with psutil (pages shared between processes count once per process). "
            "Each command ran once before it was measured (warm numba cache). Exit 1 is a search that "
            "found no answer (e.g. fewest moves not reached in time), not an error.")
    small.notes.append("A worker process costs about 150 MB of interpreter, numpy and numba before it "
                       "searches: budgets cover the search's own tables, the peak includes that fixed "
                       "overhead.")
    return [auto, small]


def _print_measured(args: list[str]) -> None:
    measured = measure(args)
    print(f"wall {measured.wall_s:.2f} s, peak tree memory {measured.peak_mb:.0f} MB, "
          f"exit {measured.exit_code}")
    for stream in (measured.stdout, measured.stderr):
        for line in stream.strip().splitlines():
            print(line[:300])


if __name__ == "__main__":
    try:
        _print_measured(sys.argv[1:])
        sys.stdout.flush()
    except BrokenPipeError:  # piped into `head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
