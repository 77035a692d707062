"""The game in numba: every rat moves, the dead are squeezed out, ten are bred, turn after turn.

A population is a :class:`~gridsolver.ratrace.population.Population` bundle
(``cells``, ``ages``, ``goals``, ``genomes``: arrays indexed by rat, in turn
order) plus a ``fitness`` scratch array for breeding. Rats that die are
squeezed out in the same pass that moves them, so the arrays stay dense and
ordered; when ten newborns do not fit, every array doubles. Memory is
therefore linear in the population (about 48 bytes per rat slot).

The track comes in as a :class:`~gridsolver.ratrace.tables.TrackTables`
bundle built from :mod:`gridsolver.ratrace.rules`: ``trans[cell, move]``
(new cell, DEAD or GOAL) and ``views[cell]`` (the 5 x 5 colours a rat on
that cell sees). The controller's randomness is splitmix64 on ``rng[0]``
(:mod:`.splitmix`).

:func:`loop_for` gives a numba player's whole game as one kernel, the
player compiled in: a built-in player's loop is cached on disk like every
other kernel, a user's is compiled once per process. Python and numpy players
use :func:`prepare_turn` and :func:`finish_turn`, one call each per turn.
"""

from __future__ import annotations

import hashlib
import inspect
import types as pytypes
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from gridsolver.core.kernels.clock import budget_check
from gridsolver.core.kernels.stops import DOOMED, FOUND, ILLEGAL_MOVE, OUT_OF_MEMORY
from gridsolver.core.kernels.watch import report_best
from gridsolver.ratrace.guard import WATCH_MOVES, WATCH_TURN
from gridsolver.ratrace.kernels.breed import breed, grow
from gridsolver.ratrace.kernels.splitmix import below
from gridsolver.ratrace.population import Population
from gridsolver.ratrace.rules import DEAD, GOAL, LIFESPAN, NEWBORNS

# How a game ended (the status a game loop returns), in core's table of stop codes; the budget
# stops OUT_OF_TIME, OUT_OF_NODES (the rat-move limit, --nodes) and OUT_OF_MEMORY are core's too.
FINISHED = FOUND  # all turns played
EXTINCT = DOOMED  # fewer than 2 rats alive: the game cannot go on
ILLEGAL = ILLEGAL_MOVE  # the player returned something that is not a move


@intrinsic
def borrow_row(typingctx, array, index):  # pragma: no cover - runs inside numba
    """``array[index]`` as a C-contiguous view that skips reference counting.

    A plain slice increments and decrements the parent's reference count
    (two atomic operations per slice, four per rat-move); the game loop
    hands the player views of arrays that outlive the call, so it borrows
    them instead (about 25% faster with colour-score).
    """
    if not isinstance(array, types.Array) or array.layout != "C" or array.ndim < 2:
        return None
    row_type = types.Array(array.dtype, array.ndim - 1, "C")

    def codegen(context, builder, sig, args):
        whole = context.make_array(sig.args[0])(context, builder, value=args[0])
        row = context.make_array(sig.return_type)(context, builder)
        shape = cgutils.unpack_tuple(builder, whole.shape)
        strides = cgutils.unpack_tuple(builder, whole.strides)
        i = context.cast(builder, args[1], sig.args[1], types.intp)
        address = builder.add(builder.ptrtoint(whole.data, cgutils.intp_t), builder.mul(i, strides[0]))
        context.populate_array(row, data=builder.inttoptr(address, whole.data.type),
                               shape=cgutils.pack_array(builder, shape[1:]),
                               strides=cgutils.pack_array(builder, strides[1:]),
                               itemsize=whole.itemsize, meminfo=None)
        return row._getvalue()

    return row_type(array, index), codegen


@njit(cache=True, inline="always")
def _legal(value):
    return value == -1 or value == 0 or value == 1


def player(view, genome):  # pragma: no cover - a stand-in, never called
    """The name :func:`game_loop` calls the player by; each copy of the loop binds its own."""
    raise NotImplementedError("game_loop runs only as a copy made by loop_for")


def game_loop(track, rats, n, rng, turns, limits, watch):
    """Play a game with the numba player ``player`` from a given population (see :func:`loop_for`).

    ``track`` is the track's :class:`~gridsolver.ratrace.tables.TrackTables`,
    ``rats`` the :class:`~gridsolver.ratrace.population.Population` whose
    first ``n`` rats are alive, ``rng`` the controller's stream, ``limits``
    the game's ``(deadline_ns, max_moves, max_rats)``. Returns ``(points,
    turns_played, alive, rat_moves, status, peak_rats, bad_rat, bad_dx,
    bad_dy, rats)``: bad_* describe an illegal move; ``rats`` holds the final
    population (its arrays may have grown).

    ``watch`` (None, or the int64 slots of :mod:`gridsolver.ratrace.guard`)
    hears the turn being played and the rat-moves done after every move, so
    that the parent of an isolated player sees a move that never ends. numba
    compiles a separate loop for ``watch=None`` with the writes pruned, so
    built-in players pay nothing for it.
    """
    trans, views, start_cells, width = track
    cells, ages, goals, genomes = rats
    deadline_ns, max_moves, max_rats = limits
    fitness = np.empty(len(cells), np.int64)
    points = 1
    rat_moves = np.int64(0)  # np.int64: from a literal 0 numba compiles what it is passed to once more
    peak = n
    turn = 0
    status = FINISHED
    while turn < turns:
        turn += 1
        if watch is not None:
            watch[WATCH_TURN] = turn
        alive = np.int64(0)  # np.int64: from a literal 0 numba compiles what it is passed to once more
        for i in range(n):
            age = ages[i]
            if age >= LIFESPAN:
                continue
            cell = cells[i]
            dx, dy = player(borrow_row(views, cell), borrow_row(genomes, i))
            rat_moves += 1
            if watch is not None:
                watch[WATCH_MOVES] = rat_moves
            if not (_legal(dx) and _legal(dy)):
                return (points, turn, n, rat_moves, ILLEGAL, peak, i, float(dx), float(dy),
                        Population(cells, ages, goals, genomes))
            target = trans[cell, (int(dy) + 1) * 3 + int(dx) + 1]
            # Steps 5-6 are written out here and in finish_turn: a shared helper, even one inlined
            # (inline="always"), measured 30-50% slower (array reference counting per rat-move).
            if target == DEAD:
                continue
            if target == GOAL:
                points += 1
                goals[i] += 1
                target = start_cells[below(rng, len(start_cells))]
                age = -1
            cells[alive] = target
            ages[alive] = age + 1
            goals[alive] = goals[i]
            genomes[alive, 0] = genomes[i, 0]
            genomes[alive, 1] = genomes[i, 1]
            alive += 1
        n = alive
        if n < 2:
            status = EXTINCT
            break
        if n + NEWBORNS > len(cells):
            if 2 * len(cells) > max_rats:
                status = OUT_OF_MEMORY
                break
            grown, fitness = grow(Population(cells, ages, goals, genomes), n)
            cells, ages, goals, genomes = grown
        breed(Population(cells, ages, goals, genomes), fitness, n, width, start_cells, rng)
        n += NEWBORNS
        peak = max(peak, n)
        if turn < turns:
            report_best(points)  # the points so far, for a status line (a store: once per turn)
            stop = budget_check(rat_moves, max_moves, deadline_ns, 1)  # once per turn
            if stop:
                status = stop
                break
    return (points, turn, n, rat_moves, status, peak, -1, 0.0, 0.0,
            Population(cells, ages, goals, genomes))


_LOOPS: dict[Any, Callable[..., Any]] = {}


def loop_for(fn: Any, name: str, builtin: bool) -> Callable[..., Any]:
    """:func:`game_loop` compiled with the numba player ``fn`` as its global ``player``.

    The player is a global of a copy of the loop, not an argument: numba
    keys its disk cache on the argument types, and a function's type names
    its address in this process, so a loop taking the player as an argument
    compiles again (2-4 s) in every process and grows the cache each time.
    A built-in player's copy is cached under its own name and a hash of the
    player's source file (an edited player gets a new entry, not a stale
    loop); a user's player (``builtin`` false) is compiled once per process:
    its file may change, or import others, without the cache knowing.
    """
    key = (fn, builtin)
    loop = _LOOPS.get(key)
    if loop is None:
        bound = dict(game_loop.__globals__, player=fn)
        copy = pytypes.FunctionType(game_loop.__code__, bound, game_loop.__name__)
        copy.__qualname__ = f"game_loop_{_loop_tag(fn, name)}" if builtin else "game_loop_user"
        copy.__doc__ = game_loop.__doc__
        loop = _LOOPS[key] = njit(cache=builtin)(copy)
    return loop


def _loop_tag(fn: Any, name: str) -> str:
    """The player's name and a short hash of its source files (names a cached loop: see loop_for).

    Those are the player's own file and the files of the numba functions it calls by name (the
    champion's planner, the genome helpers): an edit to any of them is compiled into the loop.
    """
    sources = {inspect.getfile(fn.py_func)}
    for global_name in fn.py_func.__code__.co_names:
        called = getattr(fn.py_func.__globals__.get(global_name), "py_func", None)
        if called is not None:
            sources.add(inspect.getfile(called))
    digest = hashlib.sha256()
    for source in sorted(sources):
        with open(source, "rb") as file:
            digest.update(file.read())
    return "".join(c if c.isalnum() else "_" for c in name) + "_" + digest.hexdigest()[:12]


# The per-turn kernels are called from Python once or twice a turn, so they take loose arrays: a
# bundle (a tuple) as an argument costs about 3 us more per call to dispatch, several per cent of
# a numpy or Python player's turn. The game loop, called once a game, takes the bundles.


@njit(cache=True)
def prepare_turn(views, cells, ages, genomes, n, out_views, out_genomes):
    """Views and genomes of the rats that move this turn (age below 100), in order; their count."""
    k = 0
    for i in range(n):
        if ages[i] < LIFESPAN:
            out_views[k] = views[cells[i]]
            out_genomes[k] = genomes[i]
            k += 1
    return k


@njit(cache=True)
def finish_turn(moves, trans, width, start_cells, cells, ages, goals, genomes, fitness, n, rng):
    """Apply checked moves (a move index (dy + 1) * 3 + dx + 1 per moving rat), remove the dead, breed.

    The arrays must have room for ten more rats. Returns ``(n, goals_scored)``;
    n < 2 means the game is over (no one was bred).
    """
    scored = 0
    alive = np.int64(0)  # np.int64: from a literal 0 numba compiles what it is passed to once more
    k = 0
    for i in range(n):
        age = ages[i]
        if age >= LIFESPAN:
            continue
        target = trans[cells[i], moves[k]]
        k += 1
        if target == DEAD:  # steps 5-6, as in game_loop
            continue
        if target == GOAL:
            scored += 1
            goals[i] += 1
            target = start_cells[below(rng, len(start_cells))]
            age = -1
        cells[alive] = target
        ages[alive] = age + 1
        goals[alive] = goals[i]
        genomes[alive, 0] = genomes[i, 0]
        genomes[alive, 1] = genomes[i, 1]
        alive += 1
    if alive < 2:
        return alive, scored
    breed(Population(cells, ages, goals, genomes), fitness, alive, width, start_cells, rng)
    return alive + NEWBORNS, scored
