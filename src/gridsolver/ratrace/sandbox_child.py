"""The child process an isolated player plays in (started by :mod:`gridsolver.ratrace.sandbox`).

It reads jobs from its connection, one at a time, plays each with the
controller, writing its progress to the shared *watch*, and answers
``("done", job, value, peak MB)`` or ``("failed", job, reason, turn)``. It
ignores Ctrl-C (the parent handles it and kills this process), dies with the
parent's thread on Linux, and exits when its connection closes. Anything the
player raises, ``SystemExit`` and ``KeyboardInterrupt`` included, is a failed
game; what ends the process (``os._exit``, a crash) the parent sees as its
death, and faulthandler prints the Python stack of a crash into the output the
parent shows.
"""

from __future__ import annotations

import contextlib
import ctypes
import faulthandler
import mmap
import os
import pickle
import signal
import sys
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from gridsolver.ratrace.guard import (
    IDLE,
    WATCH_PHASE,
    WATCH_SLOTS,
    PlayerError,
    player_traceback,
    raised,
    watch_job,
    watched_turn,
)
from gridsolver.ratrace.players import Player

_PR_SET_PDEATHSIG = 1
FUNCTIONS = ("play_on_track", "play_sampled")


def serve(conn: Connection, watch_fd: int) -> None:
    """Play the jobs the parent sends until it closes the connection."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it stops this process
    _die_with_parent()
    faulthandler.enable()
    watch = np.frombuffer(mmap.mmap(watch_fd, WATCH_SLOTS * 8), dtype=np.int64)
    from gridsolver.ratrace import controller  # numba and the cached kernels, before the first job

    players: dict[str | bytes, Player] = {}
    while True:
        try:
            job_id, ref, function, args, cap_mb = conn.recv()
        except (EOFError, OSError):
            return
        watch_job(watch, job_id)
        reply = _play(controller, players, job_id, ref, function, args, cap_mb, watch)
        watch[WATCH_PHASE] = IDLE
        _flush()
        try:
            conn.send(reply)
        except Exception as exc:  # a value that cannot be pickled: say so instead of dying
            conn.send(("failed", job_id, f"the game's result cannot be sent back ({type(exc).__name__}: "
                                         f"{exc})", None))


def _play(controller: Any, players: dict[str | bytes, Player], job_id: int, ref: str | bytes,
          function: str, args: tuple[Any, ...], cap_mb: float | None, watch: np.ndarray) -> tuple[Any, ...]:
    try:
        _limit_memory(cap_mb)
        player = _player(players, ref)
        if function not in FUNCTIONS:
            raise ValueError(f"unknown job {function!r}")
        value = getattr(controller, function)(player, *args, watch=watch)
        return ("done", job_id, value, _peak_mb())
    except PlayerError as exc:
        return ("failed", job_id, exc.reason, exc.turn, exc.trace)
    except BaseException as exc:  # noqa: BLE001 - SystemExit, KeyboardInterrupt: all the player's doing
        return ("failed", job_id, raised(exc), watched_turn(watch), player_traceback(exc))


def _player(players: dict[str | bytes, Player], ref: str | bytes) -> Player:
    """The player a job names (its file spec, or pickled by value), loaded once per process: a numba
    player's game loop is then compiled once."""
    player = players.get(ref)
    if player is None:
        try:
            if isinstance(ref, str):
                from gridsolver.ratrace.players import load_player

                player = load_player(ref)
            else:
                player = pickle.loads(ref)
        except Exception as exc:
            reason = f"cannot be loaded in its own process ({type(exc).__name__}: {exc})"
            raise PlayerError("?", reason) from None
        players[ref] = player
    return player


def _limit_memory(cap_mb: float | None) -> None:
    """Let this process grow by at most ``cap_mb`` beyond its address space now (RLIMIT_AS): a single
    huge allocation then fails at once with a MemoryError instead of taking the machine's memory."""
    if cap_mb is None:
        return
    try:
        import resource

        import psutil
    except ImportError:  # pragma: no cover - not on this platform: the parent's RSS watch remains
        return
    now = psutil.Process().memory_info().vms
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    soft = now + int(cap_mb * 2**20)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _peak_mb() -> float:
    from gridsolver.core.budget import peak_rss_mb

    return round(peak_rss_mb(), 1)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a player may have closed or replaced them
            stream.flush()


def _die_with_parent() -> None:
    """Linux: be killed when the parent's thread that started this process ends (no orphans left
    looping when the parent is killed)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() == 1:  # the parent died before prctl: nobody will ever send a job
            os._exit(0)
