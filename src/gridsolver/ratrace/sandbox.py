"""Isolated players: a user's player plays in a child process that this process watches and can kill.

Built-in players are trusted and play in this process (or loky's workers).
A user's player (a ``path/to/file.py:name`` spec or a function) plays each
game in a child process (:mod:`gridsolver.ratrace.sandbox_child`), so that
nothing it does can stop, hang or garble the program that runs it:

- the child's standard output and error come back through a pipe: never
  into this process's output (``--json`` stays clean); the first
  :data:`~gridsolver.ratrace.guard.OUTPUT_SHOWN_BYTES` appear in the error of
  a failed game, and more than :data:`~gridsolver.ratrace.guard.OUTPUT_LIMIT_BYTES`
  per game stops it;
- the game writes its progress (job, phase, turn, rat-moves) to a small
  shared memory map, the *watch*; this process looks every
  :data:`POLL_S` seconds and kills the child when no rat-move finished for
  the per-move limit, when the game outlives its wall limit, when the child's
  memory passes its cap (the game's ``--memory`` plus
  :data:`~gridsolver.ratrace.guard.PROCESS_OVERHEAD_MB`; the child also sets
  ``RLIMIT_AS`` so that one huge allocation fails at once), or when it
  prints too much;
- whatever ends the child (``sys.exit``, ``os._exit``, a crash in native
  code, a kill) becomes a :class:`~gridsolver.ratrace.guard.PlayerError`
  naming the player, the track and the turn the watch last heard of.

Children are started with ``subprocess`` running a fresh interpreter (never a
bare fork: this process may run threads), in their own session (a
terminal's Ctrl-C reaches only this process, which kills them), and die with
the thread that started them (Linux ``PR_SET_PDEATHSIG``). A child plays one
game at a time and is reused by later games of the same thread, so a numba
player's loop is compiled once per child; idle children exit after
:data:`IDLE_CHILD_S` seconds or when this process ends.

A function that cannot be pickled cannot reach a child: it plays in this
process, unprotected, with a warning. Windows has none of the tools used
here: there every player plays in this process.
"""

from __future__ import annotations

import atexit
import mmap
import os
import pickle
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from gridsolver.core import interrupt
from gridsolver.core.errors import InputError
from gridsolver.ratrace.guard import (
    OUTPUT_LIMIT_BYTES,
    OUTPUT_SHOWN_BYTES,
    PLAYING,
    PREPARE_LIMIT_S,
    PROCESS_OVERHEAD_MB,
    WATCH_JOB,
    WATCH_PHASE,
    WATCH_SLOTS,
    Guard,
    PlayerError,
    watched_progress,
    watched_turn,
)
from gridsolver.ratrace.jobs import GameJob
from gridsolver.ratrace.players import Player

#: How often (s) the parent looks at a running game: the per-move limit is kept to about this.
POLL_S = 0.02
#: How often (s) it reads the child's memory (psutil: about 50 us a look).
MEMORY_POLL_S = 0.2
#: Children idle this long (s) are closed.
IDLE_CHILD_S = 300.0
SUPPORTED = sys.platform != "win32"

# The child's first lines: the stdlib only until this process's sys.path is in place.
_BOOT = ("import sys\n"
         "from multiprocessing.connection import Connection\n"
         "conn = Connection(int(sys.argv[1]))\n"
         "sys.path[:] = conn.recv()\n"
         "from gridsolver.ratrace.sandbox_child import serve\n"
         "serve(conn, int(sys.argv[2]))\n")


class Cancelled(BaseException):  # noqa: N818 - a stop request, like KeyboardInterrupt, not an error
    """The game was stopped because its tournament was interrupted (see :func:`cancelling`)."""


def isolates(player: Player, guard: Guard) -> bool:
    """Whether ``player`` plays in a child process under ``guard``."""
    return SUPPORTED and guard.isolate and not player.builtin


def run(player: Player, guard: Guard, job: GameJob, *, where: str) -> tuple[Any, float]:
    """``controller.<job.function>(player, *job.args)``: in a child when the player is isolated, else
    here. Returns (its value, the peak memory in MB of the process that played it); a misbehaving
    player raises :class:`PlayerError` said about ``where`` (e.g. ``track 3 (seed 102)``)."""
    ref = shipped(player) if isolates(player, guard) else None
    if ref is None:
        return _run_here(player, job, where)
    child = _take_child()
    try:
        return child.play(ref, player.name, guard, job, where)
    finally:
        _give_back(child)


def _run_here(player: Player, job: GameJob, where: str) -> tuple[Any, float]:
    from gridsolver.core.budget import peak_rss_mb
    from gridsolver.ratrace import controller

    try:
        value = getattr(controller, job.function)(player, *job.args)
    except PlayerError as exc:
        raise exc.at(where) from None
    return value, peak_rss_mb()


# -- sending a player to a child ---------------------------------------------------------------------
_SHIPPED: dict[int, tuple[Player, str | bytes | None]] = {}  # id(player) -> (player, what was sent)


def shipped(player: Player) -> str | bytes | None:
    """How a child gets ``player``: its file spec, or the Player pickled by value (cloudpickle); None
    when it cannot be pickled (it then plays in this process, with a warning)."""
    if player.source is not None:
        return player.source
    known = _SHIPPED.get(id(player))
    if known is not None and known[0] is player:
        return known[1]  # the same bytes every time: a child compiles a numba player once
    try:
        data: bytes | None = by_value(player)
    except InputError as exc:
        data = None
        warnings.warn(f"{exc}: it plays in this process, without the protections of an isolated "
                      "player (see docs/ratrace.md, 'Player code that misbehaves')", RuntimeWarning,
                      stacklevel=3)
    _SHIPPED[id(player)] = (player, data)
    while len(_SHIPPED) > 32:  # the players of the last few games are enough: forget older ones
        del _SHIPPED[next(iter(_SHIPPED))]
    return data


def by_value(player: Player) -> bytes:
    """``player`` pickled by value where it can be (InputError saying why not).

    cloudpickle (loky's and Dask's serialiser) sends lambdas, nested functions
    and functions typed into an interactive session by value; a numba
    dispatcher travels as its Python function and is compiled where it lands.
    A function from a player file is sent by value too: its module (loaded from
    a path) cannot be imported by name elsewhere.
    """
    try:
        import cloudpickle
    except ImportError:  # pragma: no cover - cloudpickle comes with loky and dask
        dumps = pickle.dumps
    else:
        dumps = cloudpickle.dumps
        module = sys.modules.get(getattr(getattr(player.fn, "py_func", player.fn), "__module__", "") or "")
        if module is not None and module.__name__.startswith("gridsolver_user_player_"):
            cloudpickle.register_pickle_by_value(module)
    try:
        return dumps(player)
    except Exception as exc:  # objects holding locks, open files, sockets ...
        lines = str(exc).strip().splitlines()
        raise InputError(f"player {player.name}: cannot be sent to another process: it cannot be pickled "
                         f"({type(exc).__name__}: {lines[0] if lines else ''})") from None


# -- stopping the games of a tournament ----------------------------------------------------------------
_LOCAL = threading.local()


@contextmanager
def cancelling(event: threading.Event) -> Iterator[None]:
    """Within this block (in this thread), a game stops with :class:`Cancelled` once ``event`` is set."""
    before = getattr(_LOCAL, "cancel", None)
    _LOCAL.cancel = event
    try:
        yield
    finally:
        _LOCAL.cancel = before


def _cancelled() -> bool:
    event = getattr(_LOCAL, "cancel", None)
    return event is not None and event.is_set()


# -- the children ---------------------------------------------------------------------------------------
@dataclass
class _Running:
    """What the parent knows about the game a child is playing."""

    job_id: int
    sent: float
    started: float | None = None  # when the watch first said PLAYING
    progress: tuple[int, int, int] = (0, 0, 0)
    progressed: float = 0.0
    memory_checked: float = 0.0
    output: bytearray = field(default_factory=bytearray)
    output_bytes: int = 0


class _Child:
    """One child process and the pipes to it: the job connection, its output, the watch."""

    def __init__(self) -> None:
        parent_end, child_end = socket.socketpair()
        self._watch_file = tempfile.TemporaryFile()
        self._watch_file.truncate(WATCH_SLOTS * 8)
        self._map = mmap.mmap(self._watch_file.fileno(), WATCH_SLOTS * 8)
        self.watch = memoryview(self._map).cast("q")
        fds = (child_end.fileno(), self._watch_file.fileno())
        self.process = subprocess.Popen(
            [sys.executable, "-c", _BOOT, *map(str, fds)], stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, pass_fds=fds, start_new_session=True,
            env=_child_environment())
        child_end.close()
        self.conn = Connection(parent_end.detach())
        self.conn.send(list(sys.path))
        assert self.process.stdout is not None
        self._output = self.process.stdout
        os.set_blocking(self._output.fileno(), False)
        self._output_open = True
        self.jobs = 0
        self.idle_since = time.monotonic()
        self.broken = False
        self.owner = threading.current_thread()  # the child dies with this thread (PR_SET_PDEATHSIG)

    def alive(self) -> bool:
        return not self.broken and self.process.poll() is None

    def play(self, ref: str | bytes, name: str, guard: Guard, job: GameJob, where: str) -> tuple[Any, float]:
        """Play ``job`` and return (value, the child's peak MB), or raise PlayerError / Cancelled."""
        self.jobs += 1
        running = _Running(self.jobs, time.monotonic())
        cap_mb = memory_cap_mb(job.memory_mb)
        answered = False
        try:
            try:
                self.conn.send((running.job_id, ref, job.function, job.args, cap_mb))
            except OSError:  # it died while idle (say, the system's out-of-memory killer)
                answered = True
                return self._answer(("died",), running, name, where)
            while True:
                reply = self._next_reply(running)
                if reply is not None:
                    answered = True
                    return self._answer(reply, running, name, where)
                problem = self._problem(running, guard, job, cap_mb)
                if problem is not None:
                    self.kill()
                    raise self._error(name, problem, running, where)
                if _cancelled():
                    raise Cancelled
                if interrupt.requested():  # Ctrl-C inside a command's interrupt.catching()
                    raise KeyboardInterrupt
        except BaseException:
            if not answered:
                self.kill()  # Ctrl-C, a cancel or a bug here: the game must not run on unwatched
            raise
        finally:
            self.idle_since = time.monotonic()

    def _next_reply(self, running: _Running) -> tuple[Any, ...] | None:
        """The child's reply if one came within POLL_S (output read meanwhile), ``("died",)`` when
        the child ended without one, else None."""
        sources: list[Any] = [self.conn] + ([self._output] if self._output_open else [])
        ready: list[Any] = wait(sources, timeout=POLL_S)
        if self._output in ready:
            self._read_output(running)
        if self.conn not in ready and self.process.poll() is None:
            return None
        try:  # an answer sent just before the process ended is still read
            if self.conn.poll(0):
                reply: tuple[Any, ...] = self.conn.recv()
                self._read_output(running)  # what it printed before answering belongs to this game
                return reply
        except (EOFError, OSError):  # the connection closed: the process ended (or closed it)
            return ("died",)
        return ("died",) if self.process.poll() is not None else None

    def _read_output(self, running: _Running) -> None:
        while self._output_open:
            try:
                data = os.read(self._output.fileno(), 1 << 16)
            except BlockingIOError:
                return
            if not data:
                self._output_open = False
                return
            running.output_bytes += len(data)
            room = OUTPUT_SHOWN_BYTES - len(running.output)
            if room > 0:
                running.output += data[:room]
            if running.output_bytes > OUTPUT_LIMIT_BYTES:
                return  # enough: the game is stopped for it (see _problem)

    def _answer(self, reply: tuple[Any, ...], running: _Running, name: str, where: str) -> tuple[Any, float]:
        if reply[0] == "done" and reply[1] == running.job_id:
            return reply[2], reply[3]
        if reply[0] == "failed" and reply[1] == running.job_id:
            self.broken = True  # not reused: the player may have left it in any state (a hoard of memory)
            raise self._error(name, reply[2], running, where, turn=reply[3],
                              trace=reply[4] if len(reply) > 4 else "")
        self.broken = True
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:  # alive but deaf: it closed its end of the connection
            self.kill()
            raise self._error(name, "closed its process's connection to gridsolver", running, where) from None
        self._read_output(running)  # its last words: faulthandler's stack of a crash
        if self.watch[WATCH_JOB] != running.job_id:  # not the player's doing: its output says why
            raise self._error(name, f"its process ended before it started the game (exit code "
                              f"{self.process.returncode})", running, where)
        raise self._error(name, _death(self.process.returncode), running, where)

    def _problem(self, running: _Running, guard: Guard, job: GameJob, cap_mb: float | None) -> str | None:
        """Why the game must be stopped now, if it must."""
        now = time.monotonic()
        if running.output_bytes > OUTPUT_LIMIT_BYTES:
            return (f"printed more than {OUTPUT_LIMIT_BYTES / 2**20:g} MB (a game may print "
                    f"{OUTPUT_LIMIT_BYTES / 2**20:g} MB; its output is shown only when the game fails)")
        overdue = self._overdue(running, guard, job, now)
        if cap_mb is not None and (overdue or now - running.memory_checked >= MEMORY_POLL_S):
            running.memory_checked = now  # and look now when time is up: a slow move may be swapping
            used = _rss_mb(self.process.pid)
            if used > cap_mb:
                return (f"its process grew to {used:,.0f} MB, over the {cap_mb:,.0f} MB it may use "
                        f"({_memory_rule(job.memory_mb)})")
        return overdue

    def _overdue(self, running: _Running, guard: Guard, job: GameJob, now: float) -> str | None:
        """Which time limit the game has run past, if any."""
        if self.watch[WATCH_JOB] != running.job_id or self.watch[WATCH_PHASE] != PLAYING:
            if running.started is None and now - running.sent > PREPARE_LIMIT_S:
                return (f"loading the player and compiling the game loop for it took more than "
                        f"{PREPARE_LIMIT_S:g} s")
            return None
        progress = watched_progress(self.watch)
        if running.started is None:
            running.started = running.progressed = now
        if progress != running.progress:
            running.progress, running.progressed = progress, now
        if now - running.progressed > guard.move_s:
            return (f"a move took more than {guard.move_s:g} s (the per-move limit, --move-limit): "
                    "its process was stopped")
        limit = guard.game_limit(job.time_s)
        if now - running.started > limit:
            return (f"the game ran for more than {limit:g} s (the per-game limit: --game-limit, by default "
                    "--time + 10 s, or 1 hour without --time): its process was stopped")
        return None

    def _error(self, name: str, reason: str, running: _Running, where: str,
               turn: int | None = None, trace: str = "") -> PlayerError:
        if turn is None:
            turn = self._turn(running)
        output = running.output.decode("utf-8", "replace")
        return PlayerError(name, reason, turn=turn, where=where, output=output,
                           output_bytes=running.output_bytes, trace=trace)

    def _turn(self, running: _Running) -> int | None:
        """The turn the watch last heard of in this game (None before its first turn)."""
        if self.watch[WATCH_JOB] != running.job_id:
            return None
        return watched_turn(self.watch)

    def kill(self) -> None:
        """Kill the child and whatever processes its player started (its process group)."""
        self.broken = True
        if self.process.poll() is None:  # not reaped yet: its pid (and group id) is still its own
            try:
                os.killpg(self.process.pid, signal.SIGKILL)  # its own session: the group is its pid
            except (ProcessLookupError, PermissionError):
                pass
        self.process.wait()

    def close(self) -> None:
        """Let the child go: it exits when its connection closes (killed if it does not)."""
        self.broken = True
        self.conn.close()
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.kill()
        self._output.close()
        self.watch.release()
        self._map.close()
        self._watch_file.close()


def _death(code: int) -> str:
    """What ended a child's process, from its exit code (negative: the signal)."""
    if code >= 0:
        return (f"ended its process (exit code {code}: os._exit, or exit() in native code) before the game "
                "was over")
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = f"signal {-code}"
    if name == "SIGSEGV":
        return "crashed its process (SIGSEGV, a segmentation fault: a bad memory access in native code)"
    if name == "SIGKILL":
        return "had its process killed (SIGKILL: perhaps the system ran out of memory)"
    return f"had its process ended by {name}"


def memory_cap_mb(memory_mb: float | None) -> float:
    """The memory a child playing a game with ``--memory memory_mb`` may use (MB)."""
    if memory_mb is None:
        import psutil

        return 0.75 * float(psutil.virtual_memory().total) / 2**20
    return memory_mb + PROCESS_OVERHEAD_MB


def _memory_rule(memory_mb: float | None) -> str:
    if memory_mb is None:
        return "three quarters of the machine's memory, for a game without --memory"
    return f"--memory {memory_mb:g} + {PROCESS_OVERHEAD_MB:g} MB for Python, numpy and numba"


def _rss_mb(pid: int) -> float:
    import psutil

    try:
        return float(psutil.Process(pid).memory_info().rss) / 2**20
    except (psutil.NoSuchProcess, psutil.ZombieProcess, psutil.AccessDenied):
        return 0.0


def _child_environment() -> dict[str, str]:
    environment = dict(os.environ)
    environment["PYTHONUNBUFFERED"] = "1"  # what a player printed before it crashed is not lost
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        environment.setdefault(name, "1")  # a child is one worker: no thread pools competing for cores
    return environment


# -- the idle children of each thread -----------------------------------------------------------------
_IDLE: dict[int, list[_Child]] = {}
_IDLE_LOCK = threading.Lock()


def _take_child() -> _Child:
    """An idle child of this thread (children die with the thread that started them), or a new one."""
    with _IDLE_LOCK:
        children = _IDLE.setdefault(threading.get_ident(), [])
        while children:
            child = children.pop()
            if child.alive() and child.owner is threading.current_thread():
                return child
            child.close()  # dead, or left by an ended thread whose ident this one reuses
    return _Child()


def _give_back(child: _Child) -> None:
    now = time.monotonic()
    with _IDLE_LOCK:
        children = _IDLE.setdefault(threading.get_ident(), [])
        if child.alive():
            children.append(child)
        else:
            child.close()
        stale = [c for c in children if now - c.idle_since > IDLE_CHILD_S]
        children[:] = [c for c in children if c not in stale]
    for old in stale:
        old.close()


@atexit.register
def _close_all() -> None:
    with _IDLE_LOCK:
        children = [child for idle in _IDLE.values() for child in idle]
        _IDLE.clear()
    for child in children:
        child.close()
