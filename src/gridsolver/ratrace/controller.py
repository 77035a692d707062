"""The controller: one game of a player on a track -> points.

:func:`play_on_track` draws the first rats from the controller's generator,
seeds the players' own generators and runs the game in the kernel that suits
the player's kind (see :mod:`gridsolver.ratrace.players`); :func:`play_game`
does it on the track of a seed. This is the low-level layer (it imports the
numba kernels); :mod:`gridsolver.ratrace.game` puts a game into the shared
contract (a :class:`~gridsolver.core.result.Result`) and
:mod:`gridsolver.ratrace.tournament` plays many.
"""

from __future__ import annotations

import operator
import random as py_random
import time
from itertools import islice, repeat
from typing import Any, NamedTuple

import numpy as np

from gridsolver.core.budget import NO_LIMIT, Budget
from gridsolver.core.game import exclude_compiling
from gridsolver.core.kernels.random import seed_numba_random
from gridsolver.core.kernels.stops import BUDGET_STOPS, OUT_OF_MEMORY, OUT_OF_NODES, OUT_OF_TIME
from gridsolver.core.warm import CompileWatch
from gridsolver.ratrace.generate import generate_track
from gridsolver.ratrace.guard import (
    NOT_A_MOVE,
    PLAYING,
    WATCH_MOVES,
    WATCH_PHASE,
    WATCH_SLOTS,
    WATCH_TURN,
    WATCH_TURN_BASE,
    IllegalMove,
    PlayerError,
    check_turns,
    player_traceback,
    raised,
    watched_turn,
)
from gridsolver.ratrace.kernels import simulate
from gridsolver.ratrace.kernels.breed import grow
from gridsolver.ratrace.kernels.simulate import EXTINCT, FINISHED, ILLEGAL, finish_turn, prepare_turn
from gridsolver.ratrace.outcome import GameResult, Snapshot
from gridsolver.ratrace.players import Player
from gridsolver.ratrace.population import Population, Rat, first_rats, to_arrays
from gridsolver.ratrace.rng import GAME_STREAM, SplitMix, player_seed, seed_state
from gridsolver.ratrace.rules import LIFESPAN, MOVES, NEWBORNS, Track
from gridsolver.ratrace.tables import TrackTables, track_tables

DEFAULT_TURNS = 10_000
BYTES_PER_RAT = 48  # cells, ages, goals, fitness (8 bytes each) and two genome words
MOVE_INDEX = {move: index for index, move in enumerate(MOVES)}

STATUS_NAMES = {FINISHED: "finished", EXTINCT: "extinct", **BUDGET_STOPS}


#: A plain Python player's calls are made in chunks of this many, with the watch told after each
#: (see :func:`_python_moves`): cheap (about 5% of a fast player's call), and a call that never
#: returns still shows as no progress.
WATCHED_CHUNK = 16


class Limits(NamedTuple):
    """A game's budget as the game loop reads it (NO_LIMIT: none)."""

    deadline_ns: int
    max_moves: int  # rat-moves (--nodes)
    max_rats: int  # the population's capacity the memory budget allows


UNLIMITED = Limits(NO_LIMIT, NO_LIMIT, NO_LIMIT)


def max_rats_for(budget: Budget | None) -> int:
    """Population capacity the memory budget allows (arrays double, so keep half spare)."""
    limit = None if budget is None else budget.memory_bytes()
    return NO_LIMIT if limit is None else max(64, limit // (2 * BYTES_PER_RAT))


def seed_players(seed: int) -> None:
    """Seed every generator a player may draw from, from the track seed."""
    value = player_seed(seed)
    py_random.seed(value)
    np.random.seed(value)
    seed_numba_random(value)


def play_game(player: Player, seed: int, turns: int = DEFAULT_TURNS,
              budget: Budget | None = None) -> GameResult:
    """Play one game of ``player`` on the track of ``seed``."""
    check_turns(turns)
    return play_on_track(player, generate_track(seed), seed, turns, budget)


def play_on_track(player: Player, track: Track, seed: int, turns: int = DEFAULT_TURNS,
                  budget: Budget | None = None, rats: list[Rat] | None = None,
                  keep_population: bool = False, watch: np.ndarray | None = None) -> GameResult:
    """Play on a given track; ``rats`` replaces the 15 random first rats (tests).

    The loop is compiled (or loaded from numba's cache) for the player before
    the game starts; the seconds numba spent compiling are reported apart
    (``compile_s``) and given back to the budget's clock, never counted
    against ``--time``; loading from the cache counts. ``watch`` (the int64
    slots of :mod:`gridsolver.ratrace.guard`) hears the game's progress; a
    player that is not built in gets one of its own, so that its errors can
    name the turn.
    """
    tables, population, n, rng_state = _start(track, seed, rats)
    watch = _watch_for(player, watch)
    compile_s = _compile(player, tables, population, n, rng_state, watch)
    if budget is not None:
        exclude_compiling(budget, compile_s)
    limits = Limits(NO_LIMIT if budget is None else budget.deadline_ns(),
                    NO_LIMIT if budget is None else budget.node_limit(),
                    max_rats_for(budget))
    _playing(watch, 0)
    play = _play_numba if player.kind == "numba" else _play_by_turn
    result, final = play(player, seed, tables, population, n, rng_state, turns, limits, watch=watch)
    result.compile_s = compile_s
    if keep_population:
        n = result.alive
        result.population = tuple(array[:n].copy() for array in final)
    return result


def _watch_for(player: Player, watch: np.ndarray | None) -> np.ndarray | None:
    """The watch a game writes to: the caller's, a private one for a player that is not built in
    (its errors then name the turn), none for a built-in player (its numba loop skips the writes)."""
    if watch is None and not player.builtin:
        return np.zeros(WATCH_SLOTS, np.int64)
    return watch


def _playing(watch: np.ndarray | None, turn_base: int) -> None:
    """Tell the watch that play starts (again) after turn ``turn_base``."""
    if watch is not None:
        watch[WATCH_TURN_BASE] = turn_base
        watch[WATCH_TURN] = 0
        watch[WATCH_PHASE] = PLAYING


def _turn_of(watch: np.ndarray | None) -> int | None:
    """The turn being played, as the watch last heard it (None without a watch or before turn 1)."""
    return None if watch is None else watched_turn(watch)


def _compile(player: Player, tables: TrackTables, population: Population, n: int,
             rng_state: np.ndarray, watch: np.ndarray | None) -> float:
    """Compile (or load from numba's cache) what the game runs, playing no turn; the seconds numba
    spent compiling (loading from the cache is not compiling).

    A numba player's loop is compiled by a zero-turn game on copies of the
    population; numpy and Python players' per-turn kernels by a turn of zero rats.
    Nothing is announced: a user's numba player's loop is compiled in every
    process that plays it, so "first run only" would not be true of it (a
    built-in player's loop is cached on disk: see kernels.simulate.loop_for).
    """
    with CompileWatch(mode="off") as compiling:
        _call_once(player, tables, population, n, rng_state, watch)
    return compiling.compile_s


def warm_loop(player: Player) -> None:
    """Compile (first run) or load a built-in numba player's game loop in this process, on a small
    track, playing no turn (the warm-up of solve, play and `gridsolver warmup`)."""
    if player.kind == "numba":
        tables, population, n, rng_state = _start(generate_track(0), 0, None)
        _call_once(player, tables, population, n, rng_state, None)


def _call_once(player: Player, tables: TrackTables, population: Population, n: int,
               rng_state: np.ndarray, watch: np.ndarray | None) -> None:
    """What :func:`_compile` runs: the game's kernels called once, no turn played."""
    if player.kind == "numba":
        copies = Population(*(array.copy() for array in population))
        try:
            _loop(player)(tables, copies, n, rng_state.copy(), 0, UNLIMITED, watch)
        except Exception as exc:
            raise PlayerError(player.name, f"cannot be compiled into the game loop: {type(exc).__name__}: "
                              f"{_first_line(exc)}") from None
    else:
        _warm_up_turn_kernels(tables, population)


def _start(track: Track, seed: int, rats: list[Rat] | None) -> tuple[TrackTables, Population, int,
                                                                       np.ndarray]:
    """What a game starts from: the track's tables, the first rats, the controller's generator
    (its state in a one-word array the kernels advance); the players' generators are seeded too."""
    tables = track_tables(track)
    rng = SplitMix(seed_state(seed, GAME_STREAM))
    if rats is None:
        rats = first_rats(rng, track.start_cells)
    population = to_arrays(rats, track.width)
    rng_state = np.array([rng.state], dtype=np.uint64)
    seed_players(seed)
    return tables, population, len(rats), rng_state


def play_sampled(player: Player, track: Track, seed: int, turns: int, at_turns: list[int],
                 watch: np.ndarray | None = None) -> tuple[GameResult, list[Snapshot]]:
    """The game :func:`play_on_track` plays without a budget, with the rats counted after each turn of
    ``at_turns`` (0 = before the first turn) and after the last turn played (the last of ``turns``,
    or the turn the rats died out).

    The game runs in stretches between those turns, each continuing from the
    population and generator states the one before left: the same game, turn
    for turn, as one call plays (the film's tests check its points and rats
    against :func:`play_on_track`). The normal game loop pays nothing for it.
    """
    tables, population, n, rng_state = _start(track, seed, None)
    watch = _watch_for(player, watch)
    compile_s = _compile(player, tables, population, n, rng_state, watch)
    cell_count = track.width * track.height
    limits = UNLIMITED
    play = _play_numba if player.kind == "numba" else _play_by_turn
    wanted = {t for t in at_turns if 0 <= t <= turns}
    snapshots = []
    if 0 in wanted:
        snapshots.append(Snapshot(0, 1, n, np.bincount(population.cells[:n], minlength=cell_count)))
    points, moves, peak, played, ended = 1, 0, n, 0, "finished"
    elapsed = cpu = 0.0
    for stop in sorted(wanted - {0} | ({turns} if turns > 0 else set())):
        _playing(watch, played)
        result, population = play(player, seed, tables, population, n, rng_state, stop, limits,
                                  first_turn=played, watch=watch)
        n, played, ended = result.alive, result.turns, result.ended
        points += result.points - 1
        moves += result.rat_moves
        peak = max(peak, result.peak_rats)
        elapsed += result.elapsed_s
        cpu += result.cpu_s
        snapshots.append(Snapshot(played, points, n, np.bincount(population.cells[:n], minlength=cell_count)))
        if ended != "finished":
            break
    return GameResult(seed, player.name, points, played, n, peak, moves, ended, elapsed, compile_s,
                      cpu), snapshots


def _loop(player: Player) -> Any:
    """The game loop with a numba player compiled in (a built-in's is cached on disk)."""
    return simulate.loop_for(player.fn, player.name, player.builtin)


def _play_numba(player, seed, tables, population, n, rng_state, turns, limits, first_turn=0, watch=None):
    """A numba player's game (its loop compiled: see :func:`_compile`), from turn ``first_turn``
    (0: the start) to turn ``turns``."""
    started = time.perf_counter()
    cpu_started = time.process_time()
    try:
        points, played, alive, moves, status, peak, bad_rat, dx, dy, population = _loop(player)(
            tables, population, n, rng_state, turns - first_turn, limits, watch)
    except (Exception, SystemExit) as exc:  # njit code may raise SystemExit too
        raise PlayerError(player.name, raised(exc), turn=_turn_of(watch),
                          where=f"track seed {seed}", trace=player_traceback(exc)) from None
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    played += first_turn
    if status == ILLEGAL:
        raise IllegalMove(player.name, f"returned ({_number(dx)}, {_number(dy)}) for rat {bad_rat}, "
                          f"{NOT_A_MOVE}", turn=int(played), where=f"track seed {seed}")
    result = GameResult(seed, player.name, int(points), int(played), int(alive), int(peak), int(moves),
                        STATUS_NAMES[int(status)], elapsed, 0.0, cpu)
    return result, population


def _play_by_turn(player, seed, tables, population, n, rng_state, turns, limits, first_turn=0, watch=None):
    """Numpy and Python players: one player call per turn (numpy) or per rat (python), from turn
    ``first_turn`` (0: the start) to turn ``turns`` (the per-turn kernels compiled: see
    :func:`_compile`)."""
    deadline, max_moves, max_rats = limits
    capacity = len(population.cells)
    fitness = np.empty(capacity, np.int64)
    views_buffer = np.empty((capacity, 5, 5), np.int64)
    genomes_buffer = np.empty((capacity, 2), np.uint64)
    views_as_tuples = [tuple(tuple(row) for row in view) for view in tables.views.tolist()]
    points, moves_done, peak, played, ended = 1, 0, n, first_turn, FINISHED
    started = time.perf_counter()
    cpu_started = time.process_time()
    while played < turns:
        played += 1
        if watch is not None:
            watch[WATCH_TURN] = played - watch[WATCH_TURN_BASE]
        if player.kind == "numpy":
            k = prepare_turn(tables.views, population.cells, population.ages, population.genomes, n,
                             views_buffer, genomes_buffer)
            moves = _numpy_moves(player, views_buffer[:k], genomes_buffer[:k], played, seed)
        else:
            moves = _python_moves(player, views_as_tuples, population, n, played, seed, watch)
            k = len(moves)
        moves_done += k
        if watch is not None:
            watch[WATCH_MOVES] += k
        if n + NEWBORNS > capacity:
            if 2 * capacity > max_rats:  # this turn's moves are not played: it does not count
                ended = OUT_OF_MEMORY
                played -= 1
                moves_done -= k
                break
            population, fitness = grow(population, n)
            capacity = len(population.cells)
            views_buffer = np.empty((capacity, 5, 5), np.int64)
            genomes_buffer = np.empty((capacity, 2), np.uint64)
        n, scored = finish_turn(moves, tables.trans, tables.width, tables.start_cells, *population, fitness,
                                n, rng_state)
        points += scored
        if n < 2:
            ended = EXTINCT
            break
        peak = max(peak, n)
        if played < turns and moves_done >= max_moves:
            ended = OUT_OF_NODES
            break
        if played < turns and time.monotonic_ns() >= deadline:
            ended = OUT_OF_TIME
            break
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    result = GameResult(seed, player.name, points, played, n, peak, moves_done, STATUS_NAMES[ended],
                        elapsed, 0.0, cpu)
    return result, population


def _warm_up_turn_kernels(tables: TrackTables, population: Population) -> None:
    """Compile (or load from the cache) the per-turn kernels with zero rats, outside the timing."""
    capacity = len(population.cells)
    fitness = np.empty(capacity, np.int64)
    views_buffer = np.empty((capacity, 5, 5), np.int64)
    genomes_buffer = np.empty((capacity, 2), np.uint64)
    prepare_turn(tables.views, population.cells, population.ages, population.genomes, 0, views_buffer,
                 genomes_buffer)
    finish_turn(np.zeros(0, np.int64), tables.trans, tables.width, tables.start_cells, *population, fitness,
                0, np.zeros(1, np.uint64))


def _numpy_moves(player, views, genomes, turn, seed) -> np.ndarray:
    k = len(views)
    where = f"track seed {seed}"
    try:
        moves = np.asarray(player.fn(views, genomes))
    except (Exception, SystemExit) as exc:  # a player's sys.exit is its error, not the program's end
        raise PlayerError(player.name, raised(exc), turn=turn, where=where,
                          trace=player_traceback(exc)) from None
    if moves.shape != (k, 2):
        raise IllegalMove(player.name, f"returned moves of shape {moves.shape}, not ({k}, 2): a numpy "
                          "player returns one (dx, dy) per rat", turn=turn, where=where)
    try:
        legal = np.isin(moves, (-1, 0, 1)).all(axis=1)
    except TypeError:  # an array of objects that cannot be compared with ints
        legal = np.zeros(k, bool)
    if not legal.all():
        rat = int(np.argmin(legal))
        raise IllegalMove(player.name, f"returned {_row_text(moves[rat])} for rat {rat}, {NOT_A_MOVE}",
                          turn=turn, where=where)
    moves = moves.astype(np.int64)
    return (moves[:, 1] + 1) * 3 + moves[:, 0] + 1


def _python_moves(player, views_as_tuples, population, n, turn, seed, watch=None) -> np.ndarray:
    cells, ages, _, genomes = (array[:n] for array in population)
    moving = ages < LIFESPAN
    cell_list = cells[moving].tolist()
    # genomes as Python ints: low word | high word << 64, all in C-level map() loops
    genome_ints = map(operator.or_, genomes[moving, 0].tolist(),
                      map(operator.lshift, genomes[moving, 1].tolist(), repeat(64)))
    calls = map(player.fn, map(views_as_tuples.__getitem__, cell_list), genome_ints)
    try:
        moves = list(calls) if watch is None else _watched_calls(calls, watch)
    except (Exception, SystemExit) as exc:  # a player's sys.exit is its error, not the program's end
        raise PlayerError(player.name, raised(exc), turn=turn, where=f"track seed {seed}",
                          trace=player_traceback(exc)) from None
    try:
        out = list(map(MOVE_INDEX.__getitem__, moves))
    except (KeyError, TypeError):  # not all plain tuples: look at each move (lists are moves too)
        out = [_python_move_index(player, move, turn, seed) for move in moves]
    return np.array(out, dtype=np.int64)


def _watched_calls(calls: Any, watch: np.ndarray) -> list[Any]:
    """``list(calls)``, telling the watch after every :data:`WATCHED_CHUNK` calls."""
    moves: list[Any] = []
    while True:
        chunk = list(islice(calls, WATCHED_CHUNK))
        moves += chunk
        watch[WATCH_MOVES] += len(chunk)
        if len(chunk) < WATCHED_CHUNK:
            return moves


def _python_move_index(player, move, turn, seed) -> int:
    """The move index of any two-item sequence (dx, dy) in [-1, 1]^2, as the reference game accepts."""
    try:
        index = MOVE_INDEX.get(tuple(move)) if len(move) == 2 else None
    except TypeError:  # not a sequence, or items that cannot be compared with ints
        index = None
    if index is None:
        raise IllegalMove(player.name, f"returned {_short_repr(move)}, {NOT_A_MOVE}", turn=turn,
                          where=f"track seed {seed}")
    return index


def _row_text(row: np.ndarray) -> str:
    """A numpy player's move for an error message: ``(dx, dy)``, numbers as ints where they are whole."""
    try:
        dx, dy = (float(v) for v in row)
    except (TypeError, ValueError):
        return _short_repr(row.tolist())
    return f"({_number(dx)}, {_number(dy)})"


def _short_repr(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else ""
