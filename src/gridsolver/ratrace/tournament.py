"""Tournaments: one player, many tracks, one game each, and the geometric mean of the points.

:func:`play` is the Python API (``gridsolver.ratrace.play``) and what the
``play`` command calls. Track ``i`` (from 1) of a tournament from seed ``S``
is the track of seed ``S + i - 1`` and its game is exactly
``GAME.solve(named("seed/<S + i - 1>"), player=..., turns=...)``: every
track's :class:`~gridsolver.core.result.Result` comes from the shared
contract, except that it is not replayed (``verified`` stays False:
replaying would double the cost of a tournament; a track line of ``play
--json`` holds its game, for ``check`` and ``show``).

Where the games run: a built-in player's on local worker processes (loky,
:func:`~gridsolver.core.parallel.parallel_map`); a user's player's in child
processes of this one, one per worker, each watched and killed when its
player misbehaves (:mod:`gridsolver.ratrace.sandbox`); on a Dask cluster
(``cluster``) every game runs on the cluster's workers, a user's player in a
child process of the worker. A track whose player failed is a Result saying
so; the other tracks play on. No numba is imported here.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from gridsolver.core import interrupt
from gridsolver.core.errors import InputError
from gridsolver.core.game import check_seed, check_workers, make_budget
from gridsolver.core.result import Result, Stats
from gridsolver.core.words import plural
from gridsolver.ratrace.game import DEFAULT_TURNS, GAME, SEED_PREFIX
from gridsolver.ratrace.generate import generate_track
from gridsolver.ratrace.guard import Guard, check_turns, make_guard
from gridsolver.ratrace.jobs import TrackJob
from gridsolver.ratrace.players import Player, as_player

DEFAULT_TRACKS = 50
DEFAULT_MEMORY_MB = 2048.0
#: The most tracks one tournament plays: it keeps every track's Result (about 3 KB with its track).
MAX_TRACKS = 100_000
#: Built-in players' tracks go to loky's workers this many at a time (no million futures at once).
BATCH = 10_000


class TournamentError(InputError):
    """Some tracks' games failed because of the player; ``tournament`` holds every track played
    (the failed ones with ``details["error"]``), the message names the first failure."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        failed = tournament.failures
        first = failed[0].details["error"]
        self.trace = failed[0].details.get("traceback", "")  # the first failure's, for --debug
        super().__init__(first if len(failed) == 1 else
                         f"{len(failed):,} of {len(tournament.results):,} tracks failed; the first: {first}")


class TournamentInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped the tournament; ``tournament`` holds the tracks that finished before it."""

    def __init__(self, tournament: Tournament) -> None:
        super().__init__("interrupted")
        self.tournament = tournament


def geometric_mean(points: list[int]) -> float:
    """exp(mean(log p)); 0.0 for no points."""
    return math.exp(sum(math.log(p) for p in points) / len(points)) if points else 0.0


@dataclass
class Tournament:
    """The games of one player on tracks of seeds ``seed``, ``seed + 1``, ...: one Result each.

    ``results`` are in track order: every track played, including those whose
    player failed (``failures``: no points, ``details["error"]`` says why).
    ``points`` and ``geometric_mean`` count the tracks played to the end of
    their game (or of its budget). ``tracks`` is how many were asked for;
    ``interrupted`` says Ctrl-C stopped the tournament before the rest.
    """

    player: str
    seed: int
    turns: int
    results: list[Result] = field(default_factory=list)
    tracks: int | None = None
    interrupted: bool = False

    @property
    def played(self) -> list[Result]:
        return [r for r in self.results if "error" not in r.details]

    @property
    def failures(self) -> list[Result]:
        return [r for r in self.results if "error" in r.details]

    @property
    def points(self) -> list[int]:
        return [int(r.score or 0) for r in self.played]

    @property
    def geometric_mean(self) -> float:
        return geometric_mean(self.points)

    @property
    def cut_short(self) -> int:
        """Games the budget stopped before their last turn."""
        return sum(1 for r in self.results if r.stopped is not None)

    def track_number(self, result: Result) -> int:
        """The number (from 1) of a track of this tournament."""
        return int(result.details["seed"]) - self.seed + 1

    def summary(self) -> Result:
        """The tournament as one Result line: ``score`` is the geometric mean (3 decimals)."""
        points = self.points
        played = self.played
        moves = sum(r.stats.nodes for r in played)
        elapsed = sum(r.stats.elapsed_s for r in played)
        asked = self.tracks if self.tracks is not None else len(self.results)
        return Result(
            game=GAME.name,
            input=f"tournament {self.player}: {len(self.results)} tracks from seed {self.seed}",
            status="played",
            score=round(self.geometric_mean, 3),
            score_name="geometric mean",
            stopped="interrupted" if self.interrupted else next((r.stopped for r in played if r.stopped),
                                                                None),
            stats=Stats(nodes=moves, elapsed_s=round(elapsed, 3),
                        peak_memory_mb=max((r.stats.peak_memory_mb for r in played), default=0.0),
                        compile_s=max((r.stats.compile_s for r in played), default=0.0)),
            details={
                "player": self.player,
                "tracks": len(points),
                "points": points,
                "alive": [r.details.get("alive") for r in played],
                "tracks_at_1_or_2_points": sum(1 for p in points if p <= 2),
                "cut_short": self.cut_short,
                "rat_moves_per_s": round(moves / elapsed) if elapsed > 0 else 0,
                "failed": [self.track_number(r) for r in self.failures],
                "interrupted": self.interrupted,
            },
            options={"player": self.player, "tracks": asked, "seed": self.seed, "turns": self.turns},
        )

    def to_dict(self) -> dict[str, Any]:
        """The summary's JSON keys (those of every Result, schema 1) plus ``results``, one per track."""
        data = self.summary().to_dict()
        data["results"] = [r.to_dict() for r in self.results]
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def to_text(self) -> str:
        """The summary for people."""
        return "\n".join(self._points_lines() + self._trouble_lines())

    def _points_lines(self) -> list[str]:
        points = self.points
        if not points:
            return [f"{self.player}: no tracks played"]
        played = self.played
        moves = sum(r.stats.nodes for r in played)
        elapsed = sum(r.stats.elapsed_s for r in played)
        alive = [int(r.details.get("alive", 0)) for r in played]
        low = sum(1 for p in points if p <= 2)
        over = plural(len(points), "track")
        return [f"{self.player}: geometric mean {self.geometric_mean:.3f} over {over} "
                f"(median {sorted(points)[len(points) // 2]:,}, best {max(points):,}, "
                f"{plural(low, 'track')} at 1-2 points)",
                f"  rats alive at the end: {sum(alive):,} in all, up to {max(alive):,} on one track",
                f"  {moves:,} rat-moves in {elapsed:.2f} s of game loops: "
                f"{moves / elapsed / 1e6 if elapsed else 0:.2f}M rat-moves/s per worker"]

    def _trouble_lines(self) -> list[str]:
        lines = []
        if self.cut_short:
            were = "game was" if self.cut_short == 1 else "games were"
            lines.append(f"  {self.cut_short:,} {were} cut short by the budget (--time/--memory/--nodes)")
        failed = [self.track_number(r) for r in self.failures]
        if failed:
            lines.append(f"  {plural(len(failed), 'track')} failed (their player misbehaved; not counted): "
                         + ", ".join(map(str, failed[:20])) + (", ..." if len(failed) > 20 else ""))
        if self.interrupted and self.tracks is not None:
            lines.append(f"  interrupted: {len(self.results):,} of {plural(self.tracks, 'track')} finished")
        return lines


def track_line(number: int, result: Result) -> str:
    """One line for people about track ``number`` (from 1) of a tournament."""
    d = result.details
    if "error" in d:
        return f"track {number} (seed {d['seed']}): failed: {d['error']}"
    ended = {"finished": "", "extinct": ", extinct"}.get(d["ended"], f", cut short by --{d['ended']}")
    rate = result.stats.nodes / result.stats.elapsed_s if result.stats.elapsed_s > 0 else 0.0
    return (f"track {number} (seed {d['seed']}): {plural(result.score, 'point')}, "
            f"{plural(d['alive'], 'rat')} alive after {plural(d['turns'], 'turn')} "
            f"(peak {d['peak_rats']:,}){ended}, "
            f"{result.stats.nodes:,} rat-moves at {rate / 1e6:.2f}M/s")


def play(player: Any, *, tracks: int = DEFAULT_TRACKS, seed: int = 0, turns: int = DEFAULT_TURNS,
         time: float | None = None, memory: float | None = DEFAULT_MEMORY_MB, nodes: int | None = None,
         workers: int | None = None, cluster: str | None = None,
         on_result: Callable[[int, Result], None] | None = None, move_limit: float | None = None,
         game_limit: float | None = None, isolate: bool = True,
         done: Mapping[int, Result] | None = None) -> Tournament:
    """Play ``player`` on ``tracks`` tracks of seeds ``seed``, ``seed + 1``, ...: one game each.

    ``player`` is a built-in name (``"colour-score"``), ``"path/to/file.py:name"``
    or a function (a numba ``@njit`` dispatcher, a function marked with
    ``numpy_player``, or a plain Python function; see
    :mod:`gridsolver.ratrace.players`). ``time`` (s), ``memory`` (MB) and
    ``nodes`` (rat-moves) bound each game (None: no time or rat-move
    limit; the default memory). ``workers`` local processes (default: every
    core for a name, one for a function) or a Dask ``cluster`` play the
    tracks; ``on_result(index, result)`` hears each track as it finishes.
    Bad input raises :class:`~gridsolver.core.errors.InputError` before any
    game starts.

    A user's player (a file or a function) plays isolated, in child processes
    (see docs/ratrace.md, "Player code that misbehaves"): ``move_limit`` (s,
    default 1) bounds one call of it, ``game_limit`` (s, default ``time`` +
    10, or an hour without ``time``) a game's wall time; ``isolate=False``
    plays it in this process instead, unprotected (to debug it). A function
    travels to the children by value with cloudpickle (lambdas, nested
    functions and functions typed into an interactive session too; a numba
    function is compiled again in each). One that cannot be pickled (an
    object holding a lock or an open file) plays in this process with a
    warning when ``workers`` is 1, and raises an InputError saying so otherwise.

    A track whose player misbehaved does not stop the others: once every
    track is played, :class:`TournamentError` (an InputError) is raised,
    naming the first failure and holding the whole tournament in
    ``.tournament``. Ctrl-C raises :class:`TournamentInterrupted` (a
    KeyboardInterrupt) holding the tracks that finished before it.

    ``done`` maps a track's index (0 for track 1) to its result from an
    earlier run (``play --resume``): those tracks are not played again, and
    ``on_result`` hears them first.
    """
    _check_numbers(tracks, turns, seed)
    make_budget(time, memory, nodes)  # a bad budget fails here, before any worker starts
    guard = make_guard(move_limit, game_limit, not isolate)
    loaded = as_player(player)  # a bad name, file or value fails here too
    by_name = isinstance(player, str)
    if workers is None and not by_name and not cluster:
        workers = 1  # a function plays in one process unless asked otherwise
    count = check_workers(workers)
    ref = _reference(player, loaded, guard, count, tracks, cluster)
    if cluster is None:
        _warm(loaded)
    tournament = Tournament(loaded.name, seed, turns, tracks=tracks)
    finished: dict[int, Result] = {}

    def collect(index: int, result: Result) -> None:
        finished[index] = result
        if on_result:
            on_result(index, result)

    done = dict(done or {})
    for index in sorted(done):  # tracks an earlier run finished (``--resume``): told first, not played
        collect(index, done[index])
    jobs = (TrackJob(ref, i + 1, seed + i, turns, time, memory, nodes, guard) for i in range(tracks)
            if i not in done)
    label = f"ratrace {loaded.name}"
    try:
        if cluster is None and _isolated(loaded, guard, ref):
            _play_in_children(jobs, tracks, min(count, tracks), label, collect)
        else:
            _play_mapped(jobs, tracks, count, cluster, label, collect)
    except KeyboardInterrupt:
        tournament.results = [finished[i] for i in sorted(finished)]
        tournament.interrupted = True
        raise TournamentInterrupted(tournament) from None
    tournament.results = [finished[i] for i in sorted(finished)]
    if tournament.failures:
        raise TournamentError(tournament)
    return tournament


def _warm(loaded: Player) -> None:
    """A built-in numba player's game loop compiled here first (announced: first run only), so that
    the workers load it from numba's cache instead of each compiling it at once; after the first
    run this loads it (well under a second)."""
    from gridsolver.core.warm import warm_up

    warm_up(GAME, None, {"player": loaded})


def _check_numbers(tracks: Any, turns: Any, seed: Any) -> None:
    if isinstance(tracks, bool) or not isinstance(tracks, int) or tracks < 1:
        raise InputError(f"--tracks must be at least 1, got {tracks}")
    if tracks > MAX_TRACKS:
        raise InputError(f"--tracks {tracks:,}: at most {MAX_TRACKS:,} tracks per tournament (it keeps "
                         "every track's result); play more as several tournaments with --seed")
    check_turns(turns)
    seed = check_seed(seed)


def _reference(player: Any, loaded: Player, guard: Guard, count: int, tracks: int,
               cluster: str | None) -> Any:
    """What each track's job carries to name the player: a name or file spec is loaded again where the
    game runs; a function goes as the Player (to this process's threads, which send it to their
    children) or pickled by value (to other processes)."""
    from gridsolver.ratrace import sandbox

    if isinstance(player, str):
        return player
    if not cluster and (count == 1 or tracks == 1):
        return loaded  # one process plays every track: a child of this one, or this one
    try:
        data = sandbox.by_value(loaded)
    except InputError as exc:
        raise InputError(f"{exc}; play it with workers=1 (in this process, unprotected), or give it "
                         "as 'path/to/file.py:name'") from None
    return loaded if not cluster and sandbox.isolates(loaded, guard) else data


def _isolated(loaded: Player, guard: Guard, ref: Any) -> bool:
    """Whether the tracks play in child processes of this one."""
    from gridsolver.ratrace import sandbox

    return sandbox.isolates(loaded, guard) and (isinstance(ref, str) or sandbox.shipped(loaded) is not None)


def _play_mapped(jobs: Iterator[TrackJob], tracks: int, count: int, cluster: str | None, label: str,
                 collect: Callable[[int, Result], None]) -> None:
    """Built-in players (and Dask): loky's workers, this process or the cluster, BATCH tracks a map."""
    from gridsolver.core.parallel import parallel_map

    for _ in range(0, tracks, BATCH):
        batch = list(islice(jobs, BATCH))

        def heard(i: int, result: Result, batch: list[TrackJob] = batch) -> None:
            collect(batch[i].number - 1, result)

        parallel_map(play_track, batch, workers=count, cluster=cluster, label=label, on_result=heard)


def _play_in_children(jobs: Iterable[TrackJob], tracks: int, count: int, label: str,
                      collect: Callable[[int, Result], None]) -> None:
    """A user's player: ``count`` threads here, each playing its tracks in its own child process (see
    :mod:`gridsolver.ratrace.sandbox`); a few tracks are queued ahead, never the whole tournament."""
    from gridsolver.core.progress import progress

    cancel = threading.Event()
    executor = _threads(count)
    numbered = ((job.number - 1, job) for job in jobs)
    running: dict[Future[Result], int] = {}
    with progress(tracks, label) as bar:
        try:
            while True:
                for index, job in islice(numbered, 2 * count - len(running)):
                    running[executor.submit(_play_track_in_thread, job, cancel)] = index
                if not running:
                    return
                done, _ = wait(running, timeout=0.2, return_when=FIRST_COMPLETED)
                for future in done:
                    collect(running.pop(future), future.result())
                    bar.advance()
                if interrupt.requested():  # Ctrl-C inside a command's interrupt.catching()
                    raise KeyboardInterrupt
        except BaseException:
            cancel.set()  # each thread kills its child within a poll
            for future in running:
                future.cancel()
            wait(running, timeout=10)
            raise


_EXECUTOR: tuple[int, ThreadPoolExecutor] | None = None


def _threads(count: int) -> ThreadPoolExecutor:
    """Threads that play tracks in child processes, kept between tournaments: a thread's children
    live as long as it does, so a later tournament of the same player skips their start-up and
    compilation."""
    global _EXECUTOR
    if _EXECUTOR is None or _EXECUTOR[0] != count:
        if _EXECUTOR is not None:
            _EXECUTOR[1].shutdown(wait=False)
        _EXECUTOR = (count, ThreadPoolExecutor(count, thread_name_prefix="ratrace-track"))
    return _EXECUTOR[1]


def _play_track_in_thread(job: TrackJob, cancel: threading.Event) -> Result:
    from gridsolver.ratrace.sandbox import cancelling

    with cancelling(cancel):
        return play_track(job)


def play_track(job: TrackJob) -> Result:
    """One track of a tournament (module-level, so workers can run it): the contract's solve, not
    replayed; a failing player makes a failed Result (see ``RatRaceGame.failed_result``)."""
    player = _unship(job.player) if isinstance(job.player, bytes) else job.player
    guard = job.guard
    return GAME.play_unverified(generate_track(job.seed), time=job.time_s, memory=job.memory_mb,
                                nodes=job.nodes, seed=0, label=f"{SEED_PREFIX}{job.seed}",
                                where=f"track {job.number} (seed {job.seed})", player=player,
                                turns=job.turns, move_limit=guard.move_s, game_limit=guard.game_s,
                                in_process=not guard.isolate)


_UNSHIPPED: dict[bytes, Player] = {}  # one Player per shipped player and process: numba compiles once


def _unship(data: bytes) -> Player:
    player = _UNSHIPPED.get(data)
    if player is None:
        import pickle

        player = _UNSHIPPED[data] = pickle.loads(data)
    return player
