"""What a user's player may do, and the error that says what it did instead.

A *guard* holds the limits a player plays under (see docs/ratrace.md,
"Player code that misbehaves"): the per-move limit (one call of the player),
the per-game wall limit, and whether the player runs in a child process at
all. :class:`PlayerError` is the one error every misbehaviour becomes,
naming the player, the track and the turn.

The *watch* is a small shared array of int64 slots the game writes as it
goes (which job, which phase, which turn, how many rat-moves): the parent of
an isolated player reads it to see progress and to say which turn a killed
game was on. The controller's numba loop writes it too, so this module holds
only plain constants and no numba.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gridsolver.core.errors import InputError, shown

#: One call of the player may take this long (s) by default (--move-limit).
DEFAULT_MOVE_LIMIT_S = 1.0
#: Without --time, a game of an isolated player may run this long (s) by default (--game-limit).
DEFAULT_GAME_LIMIT_S = 3600.0
#: With --time, a game may run this much longer than its --time (s) before it is killed: the
#: controller checks --time once per turn, so a turn that started in time may finish after it.
GAME_GRACE_S = 10.0
#: Loading the player and compiling the game loop for it may take this long (s).
PREPARE_LIMIT_S = 120.0
#: A player's process may use its game's --memory plus this much (MB) for Python, numpy and numba.
PROCESS_OVERHEAD_MB = 1024.0
#: A player may print this much (bytes) per game; more stops the game.
OUTPUT_LIMIT_BYTES = 1 << 20
#: How much of a player's output an error shows.
OUTPUT_SHOWN_BYTES = 2048

# Slots of the watch array (int64).
WATCH_JOB = 0  # the job the child is on
WATCH_PHASE = 1  # IDLE, PREPARING or PLAYING
WATCH_TURN_BASE = 2  # the turn a stretch of play started after (film replays play in stretches)
WATCH_TURN = 3  # the turn being played, counted from WATCH_TURN_BASE
WATCH_MOVES = 4  # rat-moves done: any change is progress
WATCH_SLOTS = 8
IDLE, PREPARING, PLAYING = 0, 1, 2


def watch_job(watch: Any, job_id: int) -> None:
    """Tell the watch that job ``job_id`` is being prepared (loaded and compiled; no turn played)."""
    watch[WATCH_TURN_BASE] = watch[WATCH_TURN] = watch[WATCH_MOVES] = 0
    watch[WATCH_PHASE] = PREPARING
    watch[WATCH_JOB] = job_id


def watched_progress(watch: Any) -> tuple[int, int, int]:
    """What changes while a game makes progress: the turn (its base and count) and the rat-moves."""
    return (watch[WATCH_TURN_BASE], watch[WATCH_TURN], watch[WATCH_MOVES])


def watched_turn(watch: Any) -> int | None:
    """The turn the watch last heard of, counted from the game's start (None before its first)."""
    if watch[WATCH_TURN] <= 0:
        return None
    return int(watch[WATCH_TURN_BASE] + watch[WATCH_TURN])


@dataclass(frozen=True)
class Guard:
    """The limits a user's player plays under.

    ``move_s``: one call of the player (a numpy player's call covers a whole
    turn); ``game_s``: a game's wall time once it is compiled (None: ``time_s
    + GAME_GRACE_S`` when the game has a --time, else DEFAULT_GAME_LIMIT_S);
    ``isolate``: play a user's player in a child process (False: in this
    process, unprotected, e.g. to debug it).
    """

    move_s: float = DEFAULT_MOVE_LIMIT_S
    game_s: float | None = None
    isolate: bool = True

    def game_limit(self, time_s: float | None) -> float:
        """The wall time a game with ``--time time_s`` may run before it is killed."""
        if self.game_s is not None:
            return self.game_s
        return DEFAULT_GAME_LIMIT_S if time_s is None else time_s + GAME_GRACE_S


#: The longest --move-limit or --game-limit accepted (about 11.6 days, the longest --time).
MAX_LIMIT_S = 1e6


def make_guard(move_limit: Any = None, game_limit: Any = None, in_process: Any = False) -> Guard:
    """A guard from option values, each checked (InputError naming the option)."""
    for option, value in (("--move-limit", move_limit), ("--game-limit", game_limit)):
        if value is not None and not (isinstance(value, int | float) and not isinstance(value, bool)
                                      and math.isfinite(value) and 0 < value <= MAX_LIMIT_S):
            raise InputError(f"{option} {value!r}: expected a number of seconds above 0 and at most "
                             f"{MAX_LIMIT_S:,.0f}")
    return Guard(move_s=DEFAULT_MOVE_LIMIT_S if move_limit is None else float(move_limit),
                 game_s=None if game_limit is None else float(game_limit), isolate=not in_process)


class PlayerError(InputError):
    """A player misbehaved: the message names the player, where (the track), the turn and what it did.

    ``reason`` says what happened (``raised ZeroDivisionError: ...``,
    ``returned (2, 0) for rat 3, not a move ...``); ``turn`` is the turn being
    played (None before the first); ``output`` the start of what the player
    printed and ``output_bytes`` how much it printed in all; ``trace`` the
    player's traceback when it raised (``gridsolver --debug`` prints it).
    """

    def __init__(self, player: str, reason: str, *, turn: int | None = None, where: str | None = None,
                 output: str = "", output_bytes: int = 0, trace: str = "") -> None:
        self.player = player
        self.reason = reason
        self.turn = turn
        self.where = where
        self.output = output
        self.output_bytes = output_bytes
        self.trace = trace  # the player's traceback when it raised (shown under --debug)
        super().__init__(self._message())

    def _message(self) -> str:
        head = [f"player {self.player}"]
        if self.where:
            head.append(self.where)
        if self.turn is not None:
            head.append(f"turn {self.turn}")
        text = f"{', '.join(head)}: {self.reason}"
        if self.output_bytes:
            shown = self.output[:OUTPUT_SHOWN_BYTES]
            more = "" if self.output_bytes <= len(shown) else f", the first {len(shown):,} shown"
            text += f" (it printed {self.output_bytes:,} bytes{more}: {shown!r})"
        return text

    def at(self, where: str | None = None, **changes: Any) -> PlayerError:
        """The same error said about ``where`` (e.g. ``track 3 (seed 102)``), with fields changed."""
        fields = {"turn": self.turn, "where": where or self.where, "output": self.output,
                  "output_bytes": self.output_bytes, "trace": self.trace, **changes}
        return type(self)(self.player, self.reason, **fields)

    def __reduce__(self) -> tuple[Any, ...]:  # keyword fields survive pickling (worker processes)
        return (_rebuild, (type(self), self.player, self.reason, self.turn, self.where, self.output,
                           self.output_bytes, self.trace))


def _rebuild(cls: type[PlayerError], player: str, reason: str, turn: int | None, where: str | None,
             output: str, output_bytes: int, trace: str = "") -> PlayerError:
    return cls(player, reason, turn=turn, where=where, output=output, output_bytes=output_bytes,
               trace=trace)


class IllegalMove(PlayerError):
    """A player returned something that is not a move (dx, dy) in [-1, 1]^2."""


NOT_A_MOVE = "not a move (dx, dy) with dx, dy in -1..1"


def check_turns(turns: Any) -> int:
    """A number of turns: a whole number from 0 to :data:`~gridsolver.ratrace.rules.MAX_TURNS`
    (InputError naming ``--turns`` otherwise, never the player's fault)."""
    from gridsolver.ratrace.rules import MAX_TURNS

    if isinstance(turns, bool) or not isinstance(turns, int) or not 0 <= turns <= MAX_TURNS:
        raise InputError(f"--turns {shown(turns)}: expected a whole number from 0 to {MAX_TURNS:,}")
    return turns


def raised(exc: BaseException) -> str:
    """What a player did when it raised ``exc``, in one line: the exception and where in the
    player's own code (``raised IndexError: ... at moves.py, line 12, in pick``)."""
    where = _where_raised(exc)
    if isinstance(exc, SystemExit):
        return f"called sys.exit({exc.code!r})" + where
    lines = str(exc).strip().splitlines()
    return f"raised {type(exc).__name__}" + (f": {lines[0]}" if lines else "") + where


def player_traceback(exc: BaseException) -> str:
    """The traceback of a player's exception as Python prints it, from the player's first frame on
    (what ``gridsolver --debug`` shows under the one-line message)."""
    import traceback

    tb = exc.__traceback__
    while tb is not None and _library(tb.tb_frame.f_code.co_filename):
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc, tb or exc.__traceback__))


def _where_raised(exc: BaseException) -> str:
    """`` at FILE, line N, in FUNCTION``: the innermost frame of the player's own code ("" if none)."""
    import traceback

    frames = [frame for frame in traceback.extract_tb(exc.__traceback__) if not _library(frame.filename)]
    if not frames:
        return ""
    frame = frames[-1]
    return f" at {frame.filename}, line {frame.lineno}" + ("" if frame.name == "<module>"
                                                           else f", in {frame.name}")


def _library(filename: str) -> bool:
    """Whether a traceback's file is gridsolver's, Python's or an installed package's, not the player's."""
    import sysconfig

    if filename.startswith("<"):
        return True
    roots = [str(Path(__file__).resolve().parents[1])]
    roots += [path for key in ("stdlib", "platstdlib", "purelib", "platlib")
              if (path := sysconfig.get_paths().get(key))]
    resolved = str(Path(filename).resolve())
    return any(resolved.startswith(root.rstrip("/") + "/") for root in roots)
