"""Kernels compiled before the clock starts (gridsolver.core.warm): timed apart, announced, complete.

The tests that compile the games' real kernels from an empty cache take minutes
on a small machine and are marked slow; the others compile one tiny function of
their own, or load the games' kernels from the cache the test run shares.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Mapping
from typing import Any

import click
import pytest

from gridsolver.core import interrupt, warm
from gridsolver.core.boards import BoardText
from gridsolver.core.budget import Budget
from gridsolver.core.game import Game, NamedBoard, Replayed
from gridsolver.core.result import Result, Stats


def fresh_kernel():
    """A function numba has never seen (no disk cache): calling it compiles it."""
    from numba import njit

    @njit
    def twice(x):
        return 2 * x

    return twice


# -- the watch and the note ----------------------------------------------------------------------
def test_a_compile_is_timed_counted_and_announced_once(capsys):
    kernel = fresh_kernel()
    with warm.CompileWatch(mode="line") as watch:
        assert kernel(3) == 6
        assert kernel(4) == 8  # same types: nothing more to compile
    assert watch.compiled == 1 and watch.compile_s > 0
    err = capsys.readouterr().err
    assert err.count(warm.NOTE) == 1


def test_nothing_is_said_when_nothing_compiles(capsys):
    kernel = fresh_kernel()
    kernel(1)
    with warm.CompileWatch(mode="line") as watch:
        kernel(2)
    assert (watch.compiled, watch.compile_s) == (0, 0.0)
    assert capsys.readouterr().err == ""


def test_mode_off_says_nothing_but_still_times(capsys):
    with warm.CompileWatch(mode="off") as watch:
        fresh_kernel()(1)
    assert watch.compiled == 1
    assert capsys.readouterr().err == ""


def test_the_rich_display_is_up_while_compiling_and_gone_after():
    seen = []
    with warm.CompileWatch(mode="rich", on_compiled=lambda n: seen.append(watch._note._bar)) as watch:
        fresh_kernel()(1)
    assert seen and seen[0] is not None  # shown while the kernel compiled
    assert watch._note._bar is None


def test_on_compiled_hears_each_kernel_start_and_finish():
    heard: list[int] = []
    with warm.CompileWatch(mode="off", on_compiled=heard.append):
        fresh_kernel()(1)
        fresh_kernel()(1)
    assert heard == [0, 1, 1, 2]  # the count finished so far, as each starts and ends


class _Stderr:
    def __init__(self, terminal: bool) -> None:
        self.terminal = terminal

    def isatty(self) -> bool:
        return self.terminal


def _parse_json_flag(monkeypatch, argv):
    """Let click read ``--json`` (or not) from ``argv``, as the command line does."""
    from gridsolver.core import progress
    from gridsolver.core.cliutil import json_option

    monkeypatch.setattr(progress, "_json_output", False)

    @click.command()
    @click.argument("boards", nargs=-1)
    @json_option
    def solve(boards, as_json):
        pass

    solve.main(argv[3:], standalone_mode=False)


@pytest.mark.parametrize(("terminal", "argv", "env", "expected"), [
    (False, ["gridsolver", "bunny", "solve", "x"], None, "line"),
    (False, ["gridsolver", "bunny", "solve", "x", "--json"], None, "off"),
    (True, ["gridsolver", "bunny", "solve", "x", "--json"], None, "rich"),
    (True, ["gridsolver", "bunny", "solve", "x"], None, "rich"),
    (False, ["gridsolver", "bunny", "solve", "--", "--json"], None, "line"),  # a file called --json
    (False, ["gridsolver", "bunny", "solve", "x", "--json"], "line", "line"),
    (True, ["gridsolver", "bunny", "solve", "x"], "off", "off"),
])
def test_note_mode(monkeypatch, terminal, argv, env, expected):
    monkeypatch.setattr(sys, "stderr", _Stderr(terminal))
    _parse_json_flag(monkeypatch, argv)
    monkeypatch.delenv("GRIDSOLVER_NO_PROGRESS", raising=False)
    if env is None:
        monkeypatch.delenv(warm.NOTE_ENV, raising=False)
    else:
        monkeypatch.setenv(warm.NOTE_ENV, env)
    assert warm.note_mode() == expected


# -- Game.solve: the clock starts after the warm-up ----------------------------------------------
class _Tiny(Game[str, str]):
    """A game of one-word boards whose warm-up compiles a kernel and whose search does nothing."""

    name = "tiny"
    title = "tiny"
    score_name = "points"
    board_type = str

    def __init__(self) -> None:
        self.warm_ended_ns = 0
        self.budget: Budget | None = None

    def parse(self, text: BoardText) -> str:
        return text.text

    def format(self, board: str) -> str:
        return board

    def named_boards(self) -> list[NamedBoard]:
        return []

    def named_text(self, name: str) -> str | None:
        return None

    def moves(self, board: str) -> list[str]:
        return []

    def apply(self, board: str, move: str) -> str:
        return board

    def replay(self, board: str, solution: Any, options: Mapping[str, Any]) -> Replayed[str]:
        return Replayed(board, 0, True, 0)

    def warm(self, board: str | None, options: Mapping[str, Any] | None, *, workers: int = 1) -> None:
        fresh_kernel()(1)
        time.sleep(0.2)  # loading from the cache takes time too, and is not search either
        self.warm_ended_ns = time.monotonic_ns()

    def search(self, board: str, budget: Budget, *, seed: int, workers: int, cluster: str | None,
               progress: Any, label: str, options: Mapping[str, Any]) -> Result:
        self.budget = budget
        return Result(self.name, label, "not-found", stats=Stats(elapsed_s=budget.elapsed_s()))


def test_solve_gives_back_the_compiling_but_counts_the_loading(monkeypatch):
    """Compiling is reported apart; loading kernels (here a sleep) is start-up that counts (issue 15)."""
    monkeypatch.setenv(warm.NOTE_ENV, "off")
    game = _Tiny()
    before_ns = time.monotonic_ns()
    result = game.solve("board", time=10)
    assert result.stats.compile_s > 0
    given_back_ns = int((result.stats.compile_s - 0.001) * 1e9)  # compile_s is rounded to ms
    assert game.budget is not None and game.budget.started_ns >= before_ns + given_back_ns
    assert result.stats.elapsed_s >= 0.2  # the warm-up's sleep is in it


def test_nothing_compiled_leaves_the_clock_where_the_solve_started_it(monkeypatch):
    monkeypatch.setenv(warm.NOTE_ENV, "off")
    game = _Tiny()
    monkeypatch.setattr(_Tiny, "warm", lambda self, board, options, workers=1: time.sleep(0.2))
    before_ns = time.monotonic_ns()
    result = game.solve("board", time=10)
    assert result.stats.compile_s == 0
    assert game.budget.started_ns <= before_ns + 100_000_000  # not moved past the warm-up's sleep
    assert result.stats.elapsed_s >= 0.2


def test_exclude_compiling_never_moves_the_start_past_now():
    from gridsolver.core.game import exclude_compiling

    budget = Budget(time_s=5)
    exclude_compiling(budget, 1000.0)
    assert budget.started_ns <= time.monotonic_ns()
    assert budget.remaining_s() <= 5


def test_a_game_without_kernels_is_not_watched():
    class Plain(_Tiny):
        warm = Game.warm  # type: ignore[assignment]

    assert not warm.warms(Plain())
    assert warm.warm_up(Plain(), "board", {}) == warm.Warmup()


def test_ctrl_c_while_compiling_stops_the_search_at_once(monkeypatch):
    """A Ctrl-C during the warm-up is recorded; the search then reads its deadlines as spent."""
    from gridsolver import bunny
    from gridsolver.bunny.game import BunnyGame

    real_warm = BunnyGame.warm
    pressed = []

    def warm_then_ctrl_c(self, board, options, *, workers=1):
        real_warm(self, board, options, workers=workers)
        interrupt.request()  # as the handler does when Ctrl-C comes
        pressed.append(time.monotonic())

    monkeypatch.setattr(BunnyGame, "warm", warm_then_ctrl_c)
    monkeypatch.setenv(warm.NOTE_ENV, "off")
    board = bunny.named("challenge/12")  # minutes for a proof
    with interrupt.catching():
        result = bunny.solve(board, time=60)
    assert result.stopped == "interrupted"
    assert result.verified  # the walk program found first still stands
    # a cap against a search that ran on, not a speed test; from the Ctrl-C, so that compiling the
    # kernels on a first run (20-30 s on a loaded machine) does not count
    assert time.monotonic() - pressed[0] < 30


# -- kernels made ready on first use, inside the search ----------------------------------------------
def test_ready_compiles_before_the_call_and_gives_the_seconds_back(monkeypatch):
    monkeypatch.setenv(warm.NOTE_ENV, "off")
    kernel = fresh_kernel()
    budget = Budget(time_s=10)
    started = budget.started_ns
    given = warm.ready(budget, kernel, 3)
    assert given > 0 and kernel.overloads  # compiled before the call
    assert budget.started_ns == started + given and budget.compile_s == pytest.approx(given / 1e9)
    assert warm.ready(budget, kernel, 4) == 0  # compiled already: nothing to do
    assert budget.started_ns == started + given and kernel(3) == 6


def test_ready_without_a_budget_only_compiles(monkeypatch):
    monkeypatch.setenv(warm.NOTE_ENV, "off")
    kernel = fresh_kernel()
    assert warm.ready(None, kernel, 1) == 0 and kernel.overloads


def test_giving_back_never_moves_the_start_past_now():
    budget = Budget(time_s=5)
    budget.give_back(1000.0)
    assert budget.started_ns <= time.monotonic_ns() and budget.compile_s == 1000.0


# -- every kernel a search uses is warmed (loaded from the shared cache: seconds) ----------------
COVERAGE = textwrap.dedent("""
    import json, sys
    import numba
    from gridsolver.core.game import check_workers
    from gridsolver.games import game

    def overloads():
        found = set()
        for name, module in list(sys.modules.items()):
            if name.startswith("gridsolver."):
                for attr, value in vars(module).items():
                    if isinstance(value, numba.core.dispatcher.Dispatcher):
                        found.update((name, attr, str(sig)) for sig in value.overloads)
        return found

    name, board_name, options = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    seconds = options.pop("time", 1.0)
    every_board = options.pop("every_board", False)  # gridsolver warmup's warm-up, for any board
    g = game(name)
    board = g.load(board_name)[0]
    g.warm(None if every_board else board, None if every_board else g.check_options(board, options),
           workers=1)
    before = overloads()
    g.solve(board, time=seconds, workers=1, **options)
    print(json.dumps({"warmed": len(before), "missed": sorted(map(list, overloads() - before))}))
""")

CASES = [
    # bunny's kernels are made ready on first use (see the cold tests below); `warmup` covers them all
    ("bunny", "challenge/04", {"every_board": True}),
    ("bunny", "challenge/08", {"every_board": True, "all": True, "limit": 5}),  # a table that grows
    ("pegs", "english", {}),
    ("pegs", "english", {"finish": "3,3"}),
    ("pegs", "wiegleb", {"finish": "4,4", "time": 5}),  # 45 holes: the two-sided search first
    ("pegs", "6x6", {"strategy": "published"}),
    ("pegs", "triangle", {"objective": "moves"}),
    ("pegs", "9x9", {"objective": "moves"}),  # 81 holes: iterative deepening, not meeting
    ("clickomania", "duel-5x5", {}),
    ("samegame", "standard-20", {}),
    ("samegame", "standard-20", {"method": "mcbeam"}),
    ("samegame", "standard-20", {"method": "nmcs"}),
    ("samegame", "duel-5x5", {"method": "mcbeam"}),  # small enough to be solved exactly from the start
]


def assert_warm_up_covers(name: str, board: str, options: dict[str, Any]) -> None:
    done = subprocess.run([sys.executable, "-c", COVERAGE, name, board, json.dumps(options)],
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, warm.NOTE_ENV: "off"})
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["warmed"] > 0
    assert report["missed"] == [], "kernels the search compiled or loaded after the warm-up"


@pytest.mark.slow  # several seconds each: the default run stays under 5 minutes
@pytest.mark.parametrize(("name", "board", "options"), CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_the_warm_up_compiles_every_kernel_the_search_calls(name, board, options):
    assert_warm_up_covers(name, board, options)


def test_the_warm_up_of_a_large_clickomania_board_covers_its_beam_search(tmp_path):
    """Over 400 cells there is no exhaustive search, and only the beam is warmed."""
    import numpy as np

    rows = np.random.default_rng(7).integers(0, 4, size=(20, 25))
    path = tmp_path / "big.txt"
    path.write_text("\n".join("".join(str(c) for c in row) for row in rows) + "\n")
    assert_warm_up_covers("clickomania", str(path), {})


def test_every_worker_process_is_warmed():
    from gridsolver.core import parallel

    try:
        pids = warm.warm_workers(_record_pid, None, 2)
    finally:
        stop = getattr(parallel, "stop_workers", None)  # idle workers would otherwise wait 5 minutes
        if stop is not None:
            stop()
    assert len(pids) == 2 and os.getpid() not in pids


def _record_pid(payload: object) -> int:
    return os.getpid()


# -- the command line: the note on stderr, never in --json output ----------------------------------
# The bunny's warm-up is swapped for one that compiles a function of its own: a real first run, in
# a second instead of a minute.
PATCHED_CLI = textwrap.dedent("""
    import sys
    from numba import njit
    from gridsolver.bunny.game import BunnyGame

    def warm(self, board, options, *, workers=1):
        @njit
        def twice(x):
            return 2 * x
        twice(1)

    BunnyGame.warm = warm
    sys.argv = ["gridsolver", *sys.argv[1:]]
    from gridsolver.cli import main
    main(sys.argv[1:])
""")


def run_patched(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != warm.NOTE_ENV}
    return subprocess.run([sys.executable, "-c", PATCHED_CLI, *args], capture_output=True, text=True,
                          timeout=300, env=env)


def test_the_cli_announces_compiling_on_stderr():
    done = run_patched("bunny", "solve", "challenge/02", "--time", "5")
    assert done.returncode == 0, done.stderr
    assert done.stderr.count(warm.NOTE) == 1
    assert warm.NOTE not in done.stdout
    assert "s compiling kernels" in done.stdout  # the result reports it apart from the search


def test_the_cli_says_nothing_with_json_on_a_pipe():
    done = run_patched("bunny", "solve", "challenge/02", "--time", "5", "--json")
    assert done.returncode == 0, done.stderr
    assert warm.NOTE not in done.stderr
    (line,) = done.stdout.splitlines()
    stats = json.loads(line)["stats"]
    assert stats["compile_s"] > 0


# -- from an empty cache: the real kernels (a minute or more each on 2 cores) ---------------------
def run_cold(cache: os.PathLike[str], *args: str) -> subprocess.CompletedProcess:
    env = {**{k: v for k, v in os.environ.items() if k != warm.NOTE_ENV}, "NUMBA_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "gridsolver", *args], capture_output=True, text=True,
                          timeout=1800, env=env)


@pytest.mark.slow
def test_a_first_run_keeps_compiling_out_of_its_time(tmp_path):
    """The issue's case: board 02 reported 17 s with --time 10 on a fresh install."""
    first = run_cold(tmp_path, "bunny", "solve", "challenge/02", "--time", "1", "--json")
    assert first.returncode == 0, first.stderr
    assert warm.NOTE not in first.stderr
    result = json.loads(first.stdout)
    assert result["stats"]["compile_s"] > 1
    assert result["stats"]["elapsed_s"] <= 1.5
    assert any(tmp_path.rglob("*.nbi")), "numba did not cache into NUMBA_CACHE_DIR"
    again = run_cold(tmp_path, "bunny", "solve", "challenge/02", "--time", "1", "--json")
    assert json.loads(again.stdout)["stats"]["compile_s"] == 0.0
    assert warm.NOTE not in again.stderr


COLD_BUNNY = textwrap.dedent("""
    import json, sys
    from gridsolver import bunny
    from gridsolver.core.warm import CompileWatch

    with CompileWatch(mode="off") as watch:
        result = bunny.solve(bunny.named(sys.argv[1]), time=float(sys.argv[2]))
    print(json.dumps({"status": result.status, "compile_s": result.stats.compile_s,
                      "elapsed_s": result.stats.elapsed_s, "compiling": watch.compile_s}))
""")


@pytest.mark.slow
def test_a_bunny_search_gives_back_every_kernel_it_compiles_on_first_use(tmp_path):
    """bunny warms nothing for a board: its search compiles each kernel on first use, and all of that
    compiling (most of its kernels: a 5-token board reaches every search) is given back."""
    done = subprocess.run([sys.executable, "-c", COLD_BUNNY, "challenge/04", "3"], capture_output=True,
                          text=True, timeout=1800, env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["status"] == "optimal"
    assert report["compiling"] > 3  # more than the budget: without giving it back the search would stop
    assert report["compile_s"] >= report["compiling"] - 0.01  # and numba setting itself up
    assert report["elapsed_s"] < 3


@pytest.mark.slow
def test_warmup_fills_the_cache(tmp_path):
    done = run_cold(tmp_path, "warmup", "pegs")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("pegs: ") and "kernels compiled" in done.stdout
    for options in ([], ["--objective", "moves"], ["--strategy", "published"]):
        solved = run_cold(tmp_path, "pegs", "solve", "triangle", "--time", "2", "--json", *options)
        assert json.loads(solved.stdout)["stats"]["compile_s"] == 0.0, options
        assert warm.NOTE not in solved.stderr
    again = run_cold(tmp_path, "warmup", "pegs")
    assert "loaded from the cache" in again.stdout


def test_warmup_refuses_an_unknown_game():
    done = subprocess.run([sys.executable, "-m", "gridsolver", "warmup", "chess"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "gridsolver: error: unknown game 'chess' (games: bunny, pegs, clickomania, samegame, ratrace)"]


# -- worker processes are told how to announce compiling (they do not share the command line) -----
def _note_mode_here(item: object) -> str:
    return warm.note_mode()


@pytest.mark.parametrize(("argv", "expected"), [(["gridsolver", "solve", "--json"], "off"),
                                                (["gridsolver", "solve"], "line")])
def test_workers_follow_this_process_s_choice_of_note(monkeypatch, argv, expected):
    from gridsolver.core import parallel

    monkeypatch.delenv(warm.NOTE_ENV, raising=False)
    _parse_json_flag(monkeypatch, ["gridsolver", "bunny", *argv])
    with open(os.devnull, "w") as pipe_like:
        monkeypatch.setattr(sys, "stderr", pipe_like)  # not a terminal, as under a pipe
        try:
            modes = parallel.parallel_map(_note_mode_here, [0, 1], workers=2)
        finally:
            parallel.stop_workers()
    assert modes == [expected, expected]
    assert warm.NOTE_ENV not in os.environ  # this process keeps choosing for itself


# -- worker processes: started early, and their start-up counts against --time (issue 15) ----------
def _imported_here(modules: tuple[str, ...]) -> list[bool]:
    return [module in sys.modules for module in modules]


def test_start_workers_has_the_workers_import_ahead():
    from gridsolver.core import parallel

    modules = ("numba", "gridsolver.samegame.search")
    parallel.stop_workers()  # fresh workers: none has imported anything yet
    try:
        parallel.start_workers(2, modules)
        answers = set()
        for _ in range(warm.WORKER_ROUNDS):  # as warm_workers does: until both workers answered
            answers.update(parallel.parallel_map(_pid_and_imported, [modules] * 2, workers=2))
            if len({pid for pid, _ in answers}) == 2:
                break
    finally:
        parallel.stop_workers()
    assert len({pid for pid, _ in answers}) == 2
    assert all(imported == (True, True) for _, imported in answers)


def _pid_and_imported(modules: tuple[str, ...]) -> tuple[int, tuple[bool, ...]]:
    time.sleep(warm.WORKER_HOLD_S)  # so that each worker takes one
    return os.getpid(), tuple(_imported_here(modules))


def test_a_samegame_solve_counts_starting_its_workers_against_its_time(monkeypatch):
    from gridsolver import samegame
    from gridsolver.core import parallel
    from gridsolver.samegame.game import SameGameGame

    seen: dict[str, int] = {}
    real_search = SameGameGame.search

    def search(self, board, budget, **kwargs):
        seen["started_ns"] = budget.started_ns
        return real_search(self, board, budget, **kwargs)

    monkeypatch.setattr(SameGameGame, "search", search)
    monkeypatch.setenv(warm.NOTE_ENV, "off")
    parallel.stop_workers()  # the workers start inside this solve
    before_ns = time.monotonic_ns()
    try:
        result = samegame.solve(samegame.named("standard-20#1"), time=1, workers=2)
    finally:
        parallel.stop_workers()
    given_back_ns = int((result.stats.compile_s + 0.001) * 1e9)  # compiling only (0 on a warm cache)
    assert seen["started_ns"] <= before_ns + given_back_ns + 200_000_000
    assert result.verified


LITERALS = textwrap.dedent("""
    import json, sys
    import numba
    from gridsolver.games import game

    game(sys.argv[1]).warm(None, None, workers=1)
    found = set()
    for name, module in list(sys.modules.items()):
        if name.startswith("gridsolver."):
            for attr, value in vars(module).items():
                if isinstance(value, numba.core.dispatcher.Dispatcher):
                    found.update(f"{value.py_func.__module__}.{attr}{sig}" for sig in value.overloads
                                 if "Literal" in str(sig))
    print(json.dumps(sorted(found)))
""")


#: Kernels compiled for a constant on purpose: the clearing beam's whole-board scan_box(..., 0, width - 1,
#: 0, ...) is its own compile, and the beam runs 5% faster for it (60x60, 6 colours, 3 million nodes).
WANTED_CONSTANTS = ("gridsolver.clickomania.kernels.beam.scan_box(",)


@pytest.mark.slow  # every kernel of a game compiled from an empty cache: 10-45 s a game
@pytest.mark.parametrize("name", ["bunny", "pegs", "clickomania", "samegame", "ratrace"])
def test_no_kernel_is_compiled_for_a_constant_argument(tmp_path, name):
    """A constant passed from one kernel to another (or a loop counter starting at one) is a type of its
    own to numba: the kernel called compiles once for it and once more for the variable, seconds of a
    first run for nothing. See CONTRIBUTING.md (Numba kernels)."""
    env = {**os.environ, warm.NOTE_ENV: "off", "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", LITERALS, name], capture_output=True, text=True,
                          timeout=1800, env=env)
    assert done.returncode == 0, done.stderr
    assert [sig for sig in json.loads(done.stdout) if not sig.startswith(WANTED_CONSTANTS)] == []
