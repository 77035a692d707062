"""Side by side: the same figures for this checkout and an earlier commit, measured in one run.

``AB_BASE=REV python benchmarks/run.py ab`` checks out REV in a temporary git
worktree and, round after round, runs the same commands from both trees
(``python -m gridsolver ... --json`` with ``PYTHONPATH`` pointing at each
tree's ``src``), alternating which goes first. A figure is the least search
time over the rounds (the solver's own ``stats.elapsed_s``, compile time
excluded), so a busy moment on a shared machine shows up as noise in one
round, not as a verdict. Each command runs at a node budget or to a proof, so
both trees must give the same results: the table says whether they did.

``AB_ROUNDS=N`` sets the rounds (default 3; more rounds narrow a noisy host's
spread), and ``AB_STATUS_LINE=0`` leaves out the third tree, this checkout
with its status line on (its column then reads "not run").

Cold start runs a command with an empty numba cache (``NUMBA_CACHE_DIR`` set
to a new folder) and takes the wall time of the whole command, compiling
included. Only the commands' own command-line interface is used, so any two
commits with the same commands can be compared, whatever moved inside.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from runner import ROOT, Table, git_commit

ROUNDS = 3
QUICK_ROUNDS = 1


@dataclass(frozen=True)
class Figure:
    """One measured command: what it solves, and what its results are compared on."""

    name: str
    args: tuple[str, ...]
    unit: str = "s"  # "s": search seconds summed over the output lines; "moves/s": rat-moves per second


def _figures(files: Path) -> list[Figure]:
    return [
        Figure("bunny: the 12 challenge boards, each to its proof",
               ("bunny", "solve", "challenge", "--time", "120")),
        Figure("pegs: English central game, 10 times",
               ("pegs", "solve", *["english"] * 10, "--finish", "3,3", "--time", "60")),
        # most jumps at 1M nodes: a base older than the node-budget fix stopped its depth-first phase after a
        # second of its own, so only a budget that phase spends well within the second repeats in both trees
        Figure("pegs: diamond, most jumps, 1M nodes",
               ("pegs", "solve", "diamond", "--objective", "jumps", "--nodes", "1000000", "--seed", "1")),
        Figure("pegs: European, most jumps, 1M nodes",
               ("pegs", "solve", "european", "--objective", "jumps", "--nodes", "1000000", "--seed", "1")),
        Figure("pegs: Wiegleb, most jumps, 1M nodes",
               ("pegs", "solve", "wiegleb", "--objective", "jumps", "--nodes", "1000000", "--seed", "1")),
        Figure("pegs: triangle, fewest moves to one peg",
               ("pegs", "solve", "triangle", "--objective", "moves", "--time", "60", "--memory", "512")),
        Figure("pegs: comesolo 14x14 (density 0.75, seed 3), 1M nodes",
               ("pegs", "solve", str(files / "comesolo.txt"), "--objective", "jumps", "--nodes", "1000000",
                "--seed", "1")),
        Figure("clickomania: 3 clearable 50x50 boards (seeds 1-3), to a clearing",
               ("clickomania", "solve", str(files / "clearable.txt"), "--time", "120")),
        Figure("samegame: standard-20, 30,000 playouts a position, one worker",
               ("samegame", "solve", "standard-20", "--nodes", "30000", "--workers", "1", "--seed", "1")),
        Figure("ratrace: champion, tracks 1-3, 10,000 turns",
               ("ratrace", "play", "--player", "champion", "--tracks", "3", "--seed", "1",
                "--turns", "10000"),
               unit="moves/s"),
        Figure("ratrace: colour-score, tracks 1-3, 10,000 turns",
               ("ratrace", "play", "--player", "colour-score", "--tracks", "3", "--seed", "1",
                "--turns", "10000"), unit="moves/s"),
    ]


COLD = [
    ("cold start: bunny solve challenge/01 (the main job's first board)",
     ("bunny", "solve", "challenge/01", "--time", "60")),
    ("cold start: samegame solve standard-20 at 2,000 playouts a position",
     ("samegame", "solve", "standard-20", "--nodes", "2000", "--workers", "1", "--seed", "1")),
]


#: The third column: this checkout with its status line drawn (``--progress``: the watcher thread reads
#: the kernels' watch block four times a second and the kernels let it in), where the others draw none.
STATUS_LINE = ("--progress",)


def _run(src: Path, args: tuple[str, ...], env: dict[str, str] | None = None) -> tuple[list[dict], float]:
    """Run ``python -m gridsolver ARGS --json`` from ``src``; its JSON lines and the wall seconds."""
    environment = {**os.environ, "PYTHONPATH": str(src), "GRIDSOLVER_NO_PROGRESS": "1", **(env or {})}
    if args[-len(STATUS_LINE):] == STATUS_LINE:
        environment.pop("GRIDSOLVER_NO_PROGRESS")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "gridsolver", *args, "--json"], capture_output=True,
                          text=True, env=environment, timeout=1800)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(args)} from {src}: exit {done.returncode}\n{done.stderr}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()], wall


def _value(figure: Figure, lines: list[dict]) -> float:
    if figure.unit == "moves/s":  # the games' lines (a tournament's summary line has no rat-moves)
        games = [line["details"] for line in lines if "rat_moves" in line["details"]]
        return sum(game["rat_moves"] for game in games) / sum(game["cpu_s"] for game in games)
    return sum(line["stats"]["elapsed_s"] for line in lines)


def _change(figure: Figure, old: float, new: float) -> str:
    """How much slower (or faster) ``new`` is than ``old``."""
    worse = (old / new - 1) if figure.unit == "moves/s" else (new / old - 1)
    return f"{'+' if worse >= 0 else ''}{100 * worse:.1f}% {'slower' if worse >= 0 else 'faster'}"


def _outcome(lines: list[dict]) -> list[tuple]:
    """What both trees must agree on: each line's status, score and node count (by board: parallel
    work, such as a tournament's tracks, prints its lines in the order they finish)."""
    return sorted((line["input"], line["status"], line["score"], line["stats"]["nodes"]) for line in lines)


def _write_inputs(src: Path, files: Path) -> None:
    files.mkdir(parents=True, exist_ok=True)
    for name, args in (("comesolo.txt", ("pegs", "random", "14", "--density", "0.75", "--seed", "3")),
                       ("clearable.txt", ("clickomania", "generate", "--clearable", "50x50x5", "--count", "3",
                                          "--seed", "1"))):
        done = subprocess.run([sys.executable, "-m", "gridsolver", *args], capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(src)}, check=True, timeout=300)
        (files / name).write_text(done.stdout)


def _base_tree(rev: str, into: Path) -> Path:
    subprocess.run(["git", "worktree", "add", "--detach", str(into), rev], cwd=ROOT, check=True,
                   capture_output=True, timeout=300)
    return into


def run(quick: bool) -> list[Table]:
    rev = os.environ.get("AB_BASE")
    if not rev:
        raise SystemExit("bench ab: set AB_BASE to the commit to compare with (e.g. AB_BASE=HEAD~5)")
    rounds = QUICK_ROUNDS if quick else int(os.environ.get("AB_ROUNDS", ROUNDS))
    with tempfile.TemporaryDirectory(prefix="gridsolver-ab-") as scratch:
        base_root = _base_tree(rev, Path(scratch) / "base")
        try:
            return _measure(rev, base_root / "src", ROOT / "src", Path(scratch), rounds)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base_root)], cwd=ROOT,
                           capture_output=True, timeout=300)


def _measure(rev: str, base: Path, here: Path, scratch: Path, rounds: int) -> list[Table]:
    files = scratch / "inputs"
    _write_inputs(here, files)
    trees = {"base": (base, ()), "this": (here, ())}
    if os.environ.get("AB_STATUS_LINE", "1") != "0":
        trees["status"] = (here, STATUS_LINE)
    figures = _figures(files)
    best: dict[tuple[str, str], float] = {}
    outcomes: dict[tuple[str, str], list[tuple]] = {}
    for figure in figures:  # a first round compiles or loads each tree's kernels: not counted
        for src in (base, here):
            _run(src, figure.args)
    for number in range(rounds):
        order = list(trees.items()) if number % 2 == 0 else list(reversed(trees.items()))
        for figure in figures:
            for which, (src, extra) in order:
                lines, _ = _run(src, figure.args + extra)
                value = _value(figure, lines)
                key = (figure.name, which)
                better = max if figure.unit == "moves/s" else min
                best[key] = better(best.get(key, value), value)
                outcomes.setdefault(key, _outcome(lines))
                if _outcome(lines) != outcomes[key]:
                    outcomes[key] = [("varies between rounds",)]
    speed = Table(f"Search figures, base {rev} against this checkout ({git_commit()}), its status line "
                  "off and on",
                  ["figure", "unit", "base", "this", "change", "this, status line on", "change (on/off)",
                   "same results"])
    for figure in figures:
        old, new = best[(figure.name, "base")], best[(figure.name, "this")]
        unit = "M rat-moves/s (CPU)" if figure.unit == "moves/s" else "search s (least of rounds)"
        scale = 1e-6 if figure.unit == "moves/s" else 1.0
        same = len({tuple(outcomes[(figure.name, which)]) for which in trees}) == 1
        if "status" in trees:
            shown = best[(figure.name, "status")]
            on, change_on = round(shown * scale, 3), _change(figure, new, shown)
        else:
            on, change_on = "not run", "not run"
        speed.add(figure.name, unit, round(old * scale, 3), round(new * scale, 3), _change(figure, old, new),
                  on, change_on, "yes" if same else "NO")
    speed.notes.append(f"Least of {rounds} interleaved rounds after one warm-up round per tree; search "
                       "seconds are the solvers' own (compile and start-up excluded). Status line on: "
                       "`--progress`, which draws it (a plain line a second on the pipe) and has the "
                       "kernels let the watcher thread in four times a second. Same results: every output "
                       "line's status, score and node count equal in every tree run.")
    cold = Table("Cold start (empty numba cache): whole command, wall seconds",
                 ["command", "base", "this", "compile s (base)", "compile s (this)"])
    for name, args in COLD:
        row: dict[str, tuple[float, float]] = {}
        for which, src in (("base", base), ("this", here)):
            with tempfile.TemporaryDirectory(dir=scratch) as cache:
                lines, wall = _run(src, args, env={"NUMBA_CACHE_DIR": cache})
            row[which] = (wall, max(line["stats"].get("compile_s", 0.0) for line in lines))
        cold.add(name, round(row["base"][0], 1), round(row["this"][0], 1), round(row["base"][1], 1),
                 round(row["this"][1], 1))
    cold.notes.append("One run each, one after the other; the goal is under 15 s for the main job's first "
                      "board.")
    return [speed, cold]
