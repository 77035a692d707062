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
from dataclasses import asdict, dataclass, field
from itertools import repeat
from typing import Any

import numpy as np

from gridsolver.core.budget import NO_LIMIT, Budget
from gridsolver.core.errors import InputError
from gridsolver.ratrace import kernels
from gridsolver.ratrace.players import Player
from gridsolver.ratrace.population import Rat, first_rats, to_arrays
from gridsolver.ratrace.rng import GAME_STREAM, SplitMix, player_seed, seed_state
from gridsolver.ratrace.rules import MOVES, Track
from gridsolver.ratrace.tables import track_tables
from gridsolver.ratrace.track import generate_track

DEFAULT_TURNS = 10_000
BYTES_PER_RAT = 48  # cells, ages, goals, fitness (8 bytes each) and two genome words
MOVE_INDEX = {move: index for index, move in enumerate(MOVES)}

STATUS_NAMES = {
    kernels.FINISHED: "finished",
    kernels.EXTINCT: "extinct",
    kernels.OUT_OF_TIME: "time",
    kernels.OUT_OF_MEMORY: "memory",
    kernels.OUT_OF_NODES: "nodes",
}


class IllegalMove(InputError):
    """A player returned something that is not a move in [-1, 1]^2."""


@dataclass
class GameResult:
    """The outcome of one game on one track."""

    seed: int
    player: str
    points: int
    turns: int  # turns played
    alive: int  # rats alive at the end
    peak_rats: int
    rat_moves: int
    ended: str  # finished (all turns), extinct (< 2 rats), or the budget that ran out: time, memory, nodes
    elapsed_s: float  # game loop only, wall time
    compile_s: float = 0.0
    cpu_s: float = 0.0  # game loop only, this process's CPU time (less noisy on a busy machine)
    #: final (cells, ages, goals, genomes) of the living rats, kept only when asked (tests)
    population: tuple[np.ndarray, ...] | None = field(default=None, repr=False, compare=False)

    @property
    def rat_moves_per_s(self) -> float:
        return self.rat_moves / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("population")
        data["rat_moves_per_s"] = round(self.rat_moves_per_s, 1)
        return data


def max_rats_for(budget: Budget | None) -> int:
    """Population capacity the memory budget allows (arrays double, so keep half spare)."""
    limit = None if budget is None else budget.memory_bytes()
    return NO_LIMIT if limit is None else max(64, limit // (2 * BYTES_PER_RAT))


def seed_players(seed: int) -> None:
    """Seed every generator a player may draw from, from the track seed."""
    value = player_seed(seed)
    py_random.seed(value)
    np.random.seed(value)
    kernels.seed_player_stream(value)


def play_game(player: Player, seed: int, turns: int = DEFAULT_TURNS,
              budget: Budget | None = None) -> GameResult:
    """Play one game of ``player`` on the track of ``seed``."""
    if turns < 0:
        raise InputError(f"--turns must be at least 0, got {turns}")
    return play_on_track(player, generate_track(seed), seed, turns, budget)


def play_on_track(player: Player, track: Track, seed: int, turns: int = DEFAULT_TURNS,
                  budget: Budget | None = None, rats: list[Rat] | None = None,
                  keep_population: bool = False) -> GameResult:
    """Play on a given track; ``rats`` replaces the 15 random first rats (tests)."""
    tables, population, n, rng_state = _start(track, seed, rats)
    limits = (NO_LIMIT if budget is None else budget.deadline_ns(),
              NO_LIMIT if budget is None else budget.node_limit(),
              max_rats_for(budget))
    play = _play_numba if player.kind == "numba" else _play_by_turn
    result, final = play(player, seed, tables, population, n, rng_state, turns, limits)
    if keep_population:
        cells, ages, goals, genomes = final
        n = result.alive
        result.population = (cells[:n].copy(), ages[:n].copy(), goals[:n].copy(), genomes[:n].copy())
    return result


def _start(track: Track, seed: int, rats: list[Rat] | None) -> tuple[Any, tuple[np.ndarray, ...], int,
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


@dataclass
class Snapshot:
    """Where the rats stand after a turn (turn 0: the first rats): for the replay film."""

    turn: int
    points: int
    alive: int
    counts: np.ndarray  # rats per cell (``y * width + x``)


def play_sampled(player: Player, track: Track, seed: int, turns: int,
                 at_turns: list[int]) -> tuple[GameResult, list[Snapshot]]:
    """The game :func:`play_on_track` plays without a budget, with the rats counted after each turn of
    ``at_turns`` (0 = before the first turn) and after the last turn played (the last of ``turns``,
    or the turn the rats died out).

    The game runs in stretches between those turns, each continuing from the
    population and generator states the one before left: the same game, turn
    for turn, as one call plays (the film's tests check its points and rats
    against :func:`play_on_track`). The normal game loop pays nothing for it.
    """
    tables, population, n, rng_state = _start(track, seed, None)
    cell_count = track.width * track.height
    limits = (NO_LIMIT, NO_LIMIT, NO_LIMIT)
    play = _play_numba if player.kind == "numba" else _play_by_turn
    wanted = {t for t in at_turns if 0 <= t <= turns}
    snapshots = []
    if 0 in wanted:
        snapshots.append(Snapshot(0, 1, n, np.bincount(population[0][:n], minlength=cell_count)))
    points, moves, peak, played, ended = 1, 0, n, 0, "finished"
    elapsed = compile_s = cpu = 0.0
    for stop in sorted(wanted - {0} | ({turns} if turns > 0 else set())):
        result, population = play(player, seed, tables, population, n, rng_state, stop, limits,
                                  first_turn=played)
        n, played, ended = result.alive, result.turns, result.ended
        points += result.points - 1
        moves += result.rat_moves
        peak = max(peak, result.peak_rats)
        elapsed += result.elapsed_s
        compile_s += result.compile_s
        cpu += result.cpu_s
        snapshots.append(Snapshot(played, points, n, np.bincount(population[0][:n], minlength=cell_count)))
        if ended != "finished":
            break
    return GameResult(seed, player.name, points, played, n, peak, moves, ended, elapsed, compile_s,
                      cpu), snapshots


def _play_numba(player, seed, tables, population, n, rng_state, turns, limits, first_turn=0):
    """A numba player's game, from turn ``first_turn`` (0: the start) to turn ``turns``."""
    cells, ages, goals, genomes = population
    started = time.perf_counter()
    if first_turn == 0:
        try:  # a zero-turn game compiles the loop for this player without playing
            kernels.play_numba(player.fn, tables.trans, tables.views, tables.width, tables.start_cells,
                               cells.copy(), ages.copy(), goals.copy(), genomes.copy(), n,
                               rng_state.copy(), 0, *limits)
        except Exception as exc:
            raise InputError(f"player {player.name!r} cannot be compiled into the game loop: "
                             f"{type(exc).__name__}: {_first_line(exc)}") from None
    compiled = time.perf_counter()
    cpu_started = time.process_time()
    try:
        (points, played, alive, moves, status, peak, bad_rat, dx, dy,
         cells, ages, goals, genomes) = kernels.play_numba(
            player.fn, tables.trans, tables.views, tables.width, tables.start_cells,
            cells, ages, goals, genomes, n, rng_state, turns - first_turn, *limits)
    except Exception as exc:
        raise InputError(f"player {player.name!r} failed on track seed {seed}: "
                         f"{type(exc).__name__}: {_first_line(exc)}") from None
    elapsed = time.perf_counter() - compiled
    cpu = time.process_time() - cpu_started
    played += first_turn
    if status == kernels.ILLEGAL:
        raise IllegalMove(f"player {player.name!r} returned the illegal move "
                          f"({_number(dx)}, {_number(dy)}) at turn {played} (rat {bad_rat}, "
                          f"track seed {seed}); a move is (dx, dy) with dx, dy in -1, 0, 1")
    result = GameResult(seed, player.name, int(points), int(played), int(alive), int(peak), int(moves),
                        STATUS_NAMES[int(status)], elapsed, compiled - started, cpu)
    return result, (cells, ages, goals, genomes)


def _play_by_turn(player, seed, tables, population, n, rng_state, turns, limits, first_turn=0):
    """Numpy and Python players: one player call per turn (numpy) or per rat (python), from turn
    ``first_turn`` (0: the start) to turn ``turns``."""
    deadline, max_moves, max_rats = limits
    cells, ages, goals, genomes = population
    fitness = np.empty(len(cells), np.int64)
    views_buffer = np.empty((len(cells), 5, 5), np.int64)
    genomes_buffer = np.empty((len(cells), 2), np.uint64)
    views_as_tuples = [tuple(tuple(row) for row in view) for view in tables.views.tolist()]
    points, moves_done, peak, played, ended = 1, 0, n, first_turn, kernels.FINISHED
    compile_started = time.perf_counter()
    _warm_up_turn_kernels(tables, cells, ages, goals, genomes, fitness, views_buffer, genomes_buffer)
    compile_s = time.perf_counter() - compile_started
    started = time.perf_counter()
    cpu_started = time.process_time()
    while played < turns:
        played += 1
        if player.kind == "numpy":
            k = kernels.prepare_turn(tables.views, cells, ages, n, views_buffer, genomes_buffer, genomes)
            moves = _numpy_moves(player, views_buffer[:k], genomes_buffer[:k], played, seed)
        else:
            moves = _python_moves(player, views_as_tuples, cells[:n], ages[:n], genomes[:n], played, seed)
            k = len(moves)
        moves_done += k
        if n + kernels.NEWBORNS > len(cells):
            if 2 * len(cells) > max_rats:  # this turn's moves are not played: it does not count
                ended = kernels.OUT_OF_MEMORY
                played -= 1
                moves_done -= k
                break
            cells, ages, goals, genomes, fitness = kernels.grow(cells, ages, goals, genomes, fitness, n)
            views_buffer = np.empty((len(cells), 5, 5), np.int64)
            genomes_buffer = np.empty((len(cells), 2), np.uint64)
        n, scored = kernels.finish_turn(moves, tables.trans, tables.width, tables.start_cells,
                                        cells, ages, goals, genomes, fitness, n, rng_state)
        points += scored
        if n < 2:
            ended = kernels.EXTINCT
            break
        peak = max(peak, n)
        if played < turns and moves_done >= max_moves:
            ended = kernels.OUT_OF_NODES
            break
        if played < turns and time.monotonic_ns() >= deadline:
            ended = kernels.OUT_OF_TIME
            break
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    result = GameResult(seed, player.name, points, played, n, peak, moves_done, STATUS_NAMES[ended],
                        elapsed, compile_s, cpu)
    return result, (cells, ages, goals, genomes)


def _warm_up_turn_kernels(tables, cells, ages, goals, genomes, fitness, views_buffer, genomes_buffer):
    """Compile (or load from the cache) the per-turn kernels with zero rats, outside the timing."""
    kernels.prepare_turn(tables.views, cells, ages, 0, views_buffer, genomes_buffer, genomes)
    kernels.finish_turn(np.zeros(0, np.int64), tables.trans, tables.width, tables.start_cells, cells,
                        ages, goals, genomes, fitness, 0, np.zeros(1, np.uint64))


def _numpy_moves(player, views, genomes, turn, seed) -> np.ndarray:
    k = len(views)
    try:
        raw = player.fn(views, genomes)
        moves = np.asarray(raw)
    except Exception as exc:
        raise InputError(f"player {player.name!r} failed at turn {turn} (track seed {seed}): "
                         f"{type(exc).__name__}: {_first_line(exc)}") from None
    if moves.shape != (k, 2):
        raise IllegalMove(f"player {player.name!r} returned moves of shape {moves.shape} at turn {turn} "
                          f"(track seed {seed}); a numpy player returns an ({k}, 2) array")
    legal = np.isin(moves, (-1, 0, 1)).all(axis=1)
    if not legal.all():
        rat = int(np.argmin(legal))
        dx, dy = moves[rat].tolist()
        raise IllegalMove(f"player {player.name!r} returned the illegal move ({_number(dx)}, "
                          f"{_number(dy)}) at turn {turn} (rat {rat}, track seed {seed}); "
                          f"a move is (dx, dy) with dx, dy in -1, 0, 1")
    moves = moves.astype(np.int64)
    return (moves[:, 1] + 1) * 3 + moves[:, 0] + 1


def _python_moves(player, views_as_tuples, cells, ages, genomes, turn, seed) -> np.ndarray:
    moving = ages < kernels.LIFESPAN
    cell_list = cells[moving].tolist()
    # genomes as Python ints: low word | high word << 64, all in C-level map() loops
    genome_ints = map(operator.or_, genomes[moving, 0].tolist(),
                      map(operator.lshift, genomes[moving, 1].tolist(), repeat(64)))
    try:
        moves = list(map(player.fn, map(views_as_tuples.__getitem__, cell_list), genome_ints))
    except Exception as exc:
        raise InputError(f"player {player.name!r} failed at turn {turn} (track seed {seed}): "
                         f"{type(exc).__name__}: {_first_line(exc)}") from None
    try:
        out = list(map(MOVE_INDEX.__getitem__, moves))
    except (KeyError, TypeError):  # not all plain tuples: look at each move (lists are moves too)
        out = [_python_move_index(player, move, turn, seed) for move in moves]
    return np.array(out, dtype=np.int64)


def _python_move_index(player, move, turn, seed) -> int:
    """The move index of any two-item sequence (dx, dy) in [-1, 1]^2, as the reference game accepts."""
    try:
        index = MOVE_INDEX.get(tuple(move)) if len(move) == 2 else None
    except TypeError:  # not a sequence, or items that cannot be compared with ints
        index = None
    if index is None:
        raise IllegalMove(f"player {player.name!r} returned the illegal move {move!r} at turn {turn} "
                          f"(track seed {seed}); a move is (dx, dy) with dx, dy in -1, 0, 1")
    return index


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else ""
