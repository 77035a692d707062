"""Tournaments: one player, many tracks, one game each, and the geometric mean of the points.

:func:`play` is the Python API (``gridsolver.ratrace.play``) and what the
``play`` command calls. Track ``i`` (from 1) of a tournament from seed ``S``
is the track of seed ``S + i - 1`` and its game is exactly
``GAME.solve(named("seed/<S + i - 1>"), player=..., turns=...)``: every
track's :class:`~gridsolver.core.result.Result` comes from the shared
contract, except that it is not replayed (``verified`` stays False:
replaying would double the cost of a tournament; a track line of ``play
--json`` holds its game, for ``check`` and ``show``). Tracks run on local
worker processes or a Dask cluster
(:func:`~gridsolver.core.parallel.parallel_map`); no numba is imported here.
"""

from __future__ import annotations

import json
import math
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gridsolver.core.errors import InputError
from gridsolver.core.game import check_workers, make_budget
from gridsolver.core.result import Result, Stats
from gridsolver.ratrace.game import DEFAULT_TURNS, GAME, SEED_PREFIX
from gridsolver.ratrace.players import Player, as_player
from gridsolver.ratrace.track import generate_track

DEFAULT_TRACKS = 50
DEFAULT_MEMORY_MB = 2048.0

#: What a worker gets for one track: (player name or Player, track seed, turns, time s, memory MB,
#: rat-moves).
Job = tuple[Any, int, int, float | None, float | None, int | None]


def geometric_mean(points: list[int]) -> float:
    """exp(mean(log p)); 0.0 for no points."""
    return math.exp(sum(math.log(p) for p in points) / len(points)) if points else 0.0


@dataclass
class Tournament:
    """The games of one player on tracks of seeds ``seed``, ``seed + 1``, ...: one Result each."""

    player: str
    seed: int
    turns: int
    results: list[Result] = field(default_factory=list)

    @property
    def points(self) -> list[int]:
        return [int(r.score or 0) for r in self.results]

    @property
    def geometric_mean(self) -> float:
        return geometric_mean(self.points)

    @property
    def cut_short(self) -> int:
        """Games the budget stopped before their last turn."""
        return sum(1 for r in self.results if r.stopped is not None)

    def summary(self) -> Result:
        """The tournament as one Result line: ``score`` is the geometric mean (3 decimals)."""
        points = self.points
        moves = sum(r.stats.nodes for r in self.results)
        elapsed = sum(r.stats.elapsed_s for r in self.results)
        return Result(
            game=GAME.name,
            input=f"tournament {self.player}: {len(self.results)} tracks from seed {self.seed}",
            status="played",
            score=round(self.geometric_mean, 3),
            score_name="geometric mean",
            stopped=next((r.stopped for r in self.results if r.stopped), None),
            stats=Stats(nodes=moves, elapsed_s=round(elapsed, 3),
                        peak_memory_mb=max((r.stats.peak_memory_mb for r in self.results), default=0.0),
                        compile_s=max((r.stats.compile_s for r in self.results), default=0.0)),
            details={
                "player": self.player,
                "tracks": len(points),
                "points": points,
                "alive": [r.details.get("alive") for r in self.results],
                "tracks_at_1_or_2_points": sum(1 for p in points if p <= 2),
                "cut_short": self.cut_short,
                "rat_moves_per_s": round(moves / elapsed) if elapsed > 0 else 0,
            },
            options={"player": self.player, "tracks": len(points), "seed": self.seed, "turns": self.turns},
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
        points = self.points
        if not points:
            return f"{self.player}: no tracks played"
        moves = sum(r.stats.nodes for r in self.results)
        elapsed = sum(r.stats.elapsed_s for r in self.results)
        alive = [int(r.details.get("alive", 0)) for r in self.results]
        low = sum(1 for p in points if p <= 2)
        lines = [f"{self.player}: geometric mean {self.geometric_mean:.3f} over {len(points)} tracks "
                 f"(median {sorted(points)[len(points) // 2]:,}, best {max(points):,}, "
                 f"{low} tracks at 1-2 points)",
                 f"  rats alive at the end: {sum(alive):,} in all, up to {max(alive):,} on one track",
                 f"  {moves:,} rat-moves in {elapsed:.2f} s of game loops: "
                 f"{moves / elapsed / 1e6 if elapsed else 0:.2f}M rat-moves/s per worker"]
        if self.cut_short:
            lines.append(f"  {self.cut_short} games were cut short by the budget (--time/--memory/--nodes)")
        return "\n".join(lines)


def track_line(number: int, result: Result) -> str:
    """One line for people about track ``number`` (from 1) of a tournament."""
    d = result.details
    ended = {"finished": "", "extinct": ", extinct"}.get(d["ended"], f", cut short by --{d['ended']}")
    rate = result.stats.nodes / result.stats.elapsed_s if result.stats.elapsed_s > 0 else 0.0
    return (f"track {number} (seed {d['seed']}): {result.score:,} points, {d['alive']:,} rats alive "
            f"after {d['turns']:,} turns (peak {d['peak_rats']:,}){ended}, "
            f"{result.stats.nodes:,} rat-moves at {rate / 1e6:.2f}M/s")


def play(player: Any, *, tracks: int = DEFAULT_TRACKS, seed: int = 0, turns: int = DEFAULT_TURNS,
         time: float | None = None, memory: float | None = DEFAULT_MEMORY_MB, nodes: int | None = None,
         workers: int | None = None, cluster: str | None = None,
         on_result: Callable[[int, Result], None] | None = None) -> Tournament:
    """Play ``player`` on ``tracks`` tracks of seeds ``seed``, ``seed + 1``, ...: one game each.

    ``player`` is a built-in name (``"colour-score"``), ``"path/to/file.py:name"``
    or a function (a numba ``@njit`` dispatcher, a function marked with
    ``numpy_player``, or a plain Python function; see
    :mod:`gridsolver.ratrace.players`). ``time`` (s), ``memory`` (MB) and
    ``nodes`` (rat-moves) bound each game (None: no time or rat-move
    limit; the default memory). ``workers`` local processes (default: every
    core for a name, this process for a function) or a Dask ``cluster``
    play the tracks; ``on_result(index, result)`` hears each track as it
    finishes. Bad input raises :class:`~gridsolver.core.errors.InputError`
    before any game starts.

    A function is sent to worker processes only when asked (``workers > 1``
    or ``cluster``), by value with cloudpickle: lambdas, nested functions and
    functions typed into an interactive session travel too, a numba function
    is compiled again in each worker. One that cannot be pickled (say, an
    object holding a lock or an open file) raises an InputError saying so;
    ``workers=1`` always works.
    """
    if isinstance(tracks, bool) or not isinstance(tracks, int) or tracks < 1:
        raise InputError(f"--tracks must be at least 1, got {tracks}")
    if isinstance(turns, bool) or not isinstance(turns, int) or turns < 0:
        raise InputError(f"--turns must be at least 0, got {turns}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InputError(f"--seed {seed!r}: expected a whole number")
    make_budget(time, memory, nodes)  # a bad budget fails here, before any worker starts
    loaded = as_player(player)  # a bad name, file or value fails here too
    by_name = isinstance(player, str)
    if workers is None and not by_name and not cluster:
        workers = 1  # a function plays in this process unless asked otherwise
    count = check_workers(workers)
    ref: Any = player if by_name else loaded  # a name is loaded again by each worker
    if not by_name and (cluster or (count > 1 and tracks > 1)):
        ref = _ship(loaded)
    jobs: list[Job] = [(ref, seed + i, turns, time, memory, nodes) for i in range(tracks)]
    from gridsolver.core.parallel import parallel_map

    results = parallel_map(play_track, jobs, workers=count, cluster=cluster,
                           label=f"ratrace {loaded.name}", on_result=on_result)
    return Tournament(loaded.name, seed, turns, results)


def play_track(job: Job) -> Result:
    """One track of a tournament (module-level, so workers can run it): the contract's solve, not replayed."""
    player, seed, turns, time_s, memory_mb, nodes = job
    if isinstance(player, bytes):
        player = _unship(player)
    return GAME.play_unverified(generate_track(seed), time=time_s, memory=memory_mb, nodes=nodes, seed=0,
                                label=f"{SEED_PREFIX}{seed}", player=player, turns=turns)


def _ship(player: Player) -> bytes:
    """A player as bytes for worker processes, by value where it can be (InputError saying why not).

    cloudpickle (loky's and Dask's serialiser) sends lambdas, nested functions
    and functions typed into an interactive session by value; a numba
    dispatcher travels as its Python function and is compiled in the worker.
    """
    try:
        import cloudpickle
    except ImportError:  # pragma: no cover - cloudpickle comes with loky and dask
        dumps = pickle.dumps
    else:
        dumps = cloudpickle.dumps
    try:
        return dumps(player)
    except Exception as exc:  # objects holding locks, open files, sockets ...
        raise InputError(f"player {player.name}: cannot be sent to worker processes: it cannot be pickled "
                         f"({type(exc).__name__}: {_first_line(exc)}); play it with workers=1, or give it "
                         "as 'path/to/file.py:name'") from None


_UNSHIPPED: dict[bytes, Player] = {}  # one Player per shipped player and worker: numba compiles its loop once


def _unship(data: bytes) -> Player:
    player = _UNSHIPPED.get(data)
    if player is None:
        player = _UNSHIPPED[data] = pickle.loads(data)
    return player


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else ""
