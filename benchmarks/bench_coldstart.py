"""Cold start: a first run with an empty numba cache, split into import, compilation and search.

Each run is a new process. "cold" gives it a new, empty cache directory
(``NUMBA_CACHE_DIR``: numba then reads and writes kernels only there, never
the copies in the source tree's ``__pycache__`` folders; the run checks both);
"warm" runs the same again on the cache the cold run filled.

- The README's main job, ``gridsolver bunny bench --time 60``, as a user runs
  it: the wall time of the command, and the time to its first answer (board 01
  solved and replayed), split the same way.
- One ``solve`` per game: import (interpreter, gridsolver, numpy, numba),
  warm-up (the kernels compiled or loaded: :mod:`gridsolver.core.warm`), of
  which compiling, and the search (``stats.elapsed_s``, which the compiling is
  no part of).
- ``gridsolver warmup`` from an empty cache: what compiling every kernel of
  each game takes, in one process.

The machine's load average is printed with the tables: compile times double
on a machine whose cores are shared.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from runner import ROOT, Table

# One solve per game: (game, board, options, --time); the quick run gives each 2 s.
SOLVES = [
    ("bunny", "challenge/04", {}, 10.0),
    ("pegs", "english", {}, 10.0),
    ("clickomania", "duel-5x5", {}, 10.0),
    ("samegame", "standard-20", {"workers": 1}, 10.0),
    ("ratrace", "seed/1", {"player": "champion", "turns": 2000}, 10.0),
]
QUICK_TIME = 2.0
MAIN_JOB_TIME = 60.0
QUICK_MAIN_JOB_TIME = 10.0

# Runs in the measured process: the split of one solve, as JSON on stdout.
DRIVER = """
import json, sys, time
started = time.perf_counter()
import numba
from gridsolver.core.warm import warm_up
from gridsolver.games import game
g = game(sys.argv[1])
board = g.load(sys.argv[2])[0]
options = json.loads(sys.argv[3])
workers = options.pop("workers", 1)
imported = time.perf_counter()
warmed = warm_up(g, board, g.check_options(board, options), workers, mode="off")
result = g.solve(board, time=float(sys.argv[4]), workers=workers, **options)
done = time.perf_counter()
caches = set()
for name, module in list(sys.modules.items()):
    if name.startswith("gridsolver."):
        for value in vars(module).values():
            if isinstance(value, numba.core.dispatcher.Dispatcher) and value.overloads:
                caches.add(str(getattr(value._cache, "_cache_path", "")))  # "": not cached on disk
caches.discard("")
print(json.dumps({"import_s": imported - started, "warm_s": warmed.seconds,
                  "compile_s": warmed.compile_s + result.stats.compile_s, "kernels": warmed.compiled,
                  "search_s": result.stats.elapsed_s, "status": result.status, "score": result.score,
                  "in_process_s": done - started, "caches": sorted(caches)}))
"""

# The main job's first answer: `bunny bench` solves the boards one by one through the same call.
FIRST_ANSWER = """
import json, sys, time
started = time.perf_counter()
from gridsolver.bunny.challenge import challenge_job
from gridsolver.bunny.game import GAME
imported = time.perf_counter()
text = GAME.named_text("challenge/01")
row = challenge_job((text, "01-level1", float(sys.argv[1]), 2048.0))
done = time.perf_counter()
print(json.dumps({"import_s": imported - started, "in_process_s": done - started, "row": row}))
"""


def _env(cache: str) -> dict[str, str]:
    return {**os.environ, "NUMBA_CACHE_DIR": cache, "GRIDSOLVER_NO_PROGRESS": "1",
            "GRIDSOLVER_COMPILE_NOTE": "off"}


def _run(args: list[str], cache: str) -> tuple[float, str]:
    """Wall time and stdout of one process (a failure is printed, not hidden)."""
    started = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, env=_env(cache), cwd=ROOT, timeout=3600)
    wall = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr.strip()[-500:]}")
    return wall, done.stdout


def _tree_kernels() -> dict[str, int]:
    """The numba cache files under src/ and their modification times (a cold run must not touch them)."""
    found = {}
    for path in (ROOT / "src").rglob("__pycache__/*.nb*"):
        found[str(path)] = path.stat().st_mtime_ns
    return found


def _cache_files(cache: str) -> int:
    return sum(1 for _ in Path(cache).rglob("*.nbi"))


def _solve_rows(table: Table, quick: bool, checks: list[str]) -> None:
    for name, board, options, seconds in SOLVES:
        seconds = QUICK_TIME if quick else seconds
        with tempfile.TemporaryDirectory(prefix="gridsolver-coldstart-") as cache:
            for state in ("cold", "warm"):
                args = [sys.executable, "-c", DRIVER, name, board, json.dumps(options), str(seconds)]
                wall, out = _run(args, cache)
                split = json.loads(out)
                starting = wall - split["in_process_s"]  # the interpreter itself, before the first line
                table.add(f"{name} solve {board} --time {seconds:g}", state,
                          round(starting + split["import_s"], 2), round(split["warm_s"], 2),
                          round(split["compile_s"], 2), round(split["search_s"], 2), round(wall, 2),
                          f"{split['status']} {split['score']}")
                outside = [c for c in split["caches"] if not c.startswith(cache)]
                if outside:
                    checks.append(f"{name}: kernels cached outside NUMBA_CACHE_DIR: {outside}")
            checks.append(f"{name}: {_cache_files(cache)} kernel index files written to NUMBA_CACHE_DIR")


def _main_job_rows(table: Table, quick: bool) -> None:
    seconds = QUICK_MAIN_JOB_TIME if quick else MAIN_JOB_TIME
    bench = [sys.executable, "-m", "gridsolver", "bunny", "bench", "--time", f"{seconds:g}"]
    first = [sys.executable, "-c", FIRST_ANSWER, str(seconds)]
    for label, args, result in (("first answer (board 01 solved)", first, _first_status),
                                (f"gridsolver bunny bench --time {seconds:g}", bench, _last_line)):
        with tempfile.TemporaryDirectory(prefix="gridsolver-coldstart-") as cache:
            for state in ("cold", "warm"):
                wall, out = _run(args, cache)
                table.add(label, state, round(wall, 2), result(out))


def _first_status(out: str) -> str:
    row = json.loads(out)["row"]
    return f"{row['status']}, {row['score']} tokens in {row['seconds']:.3f} s of search"


def _last_line(out: str) -> str:
    return out.strip().splitlines()[-1]


def _warmup_rows(table: Table) -> None:
    with tempfile.TemporaryDirectory(prefix="gridsolver-coldstart-") as cache:
        for state in ("cold", "warm"):
            wall, out = _run([sys.executable, "-m", "gridsolver", "warmup"], cache)
            for line in out.strip().splitlines():
                table.add(state, line)
            table.add(state, f"(the whole command: {wall:.1f} s)")


def run(quick: bool) -> list[Table]:
    before = _tree_kernels()
    load = os.getloadavg()[0]
    checks: list[str] = []
    main = Table("The README's main job from an empty numba cache", ["run", "cache", "wall (s)", "result"])
    _main_job_rows(main, quick)
    solves = Table("One solve per game", ["run", "cache", "import (s)", "warm-up (s)",
                                          "of which compiling (s)", "search (s)", "wall (s)", "result"])
    _solve_rows(solves, quick, checks)
    warmup = Table("gridsolver warmup (every game, one process)", ["cache", "output"])
    _warmup_rows(warmup)
    after = _tree_kernels()
    touched = [p for p, mtime in after.items() if before.get(p) != mtime]
    checks.append(f"numba cache files in src/ written during the runs: {len(touched)} (of {len(after)})")
    load_note = (f"Load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end "
                 f"({os.cpu_count()} cores).")
    main.notes += [
        "cold: a new, empty NUMBA_CACHE_DIR; warm: the same again on the cache the cold run filled. "
        "The first answer is board 01 solved and replayed through the call `bench` makes per board; "
        "the bench row is the whole command with its own empty cache.", load_note]
    solves.notes += [
        "import: the interpreter, gridsolver, numpy and numba; warm-up: the kernels the solve needs, "
        "compiled (cold) or loaded from the cache (warm) before the clock starts; search: stats.elapsed_s "
        "(never includes compiling); wall: the whole process.", *checks, load_note]
    return [main, solves, warmup]
