"""The contract every game fills, and the calls every front end makes through it.

A game is one subclass of :class:`Game` (in ``gridsolver/<game>/game.py``)
that fills a few slots, in the spirit of Simon Tatham's puzzle collection:

- boards: :meth:`Game.parse` reads and validates one board (errors name the
  file, row and column), :meth:`Game.format` writes it back so that parsing
  the text gives an equal board with every rule included,
  :meth:`Game.named_boards` / :meth:`Game.named_text` list and supply the
  boards and sets the package ships;
- replay: :meth:`Game.replay` (a whole solution under the rules) and
  :meth:`Game.film` (the replay frame by frame, for ``show``); a game whose
  positions change one legal move at a time also offers ``moves`` and
  ``apply`` (the optional :class:`Stepwise` capability);
- search: :meth:`Game.search` runs the game's own algorithms within a
  :class:`~gridsolver.core.budget.Budget` and returns a
  :class:`~gridsolver.core.result.Result`.

Everything users touch is written once, here and in :mod:`.commands`: the
Python API (:meth:`Game.named`, :meth:`Game.read`, :meth:`Game.load`,
:meth:`Game.solve`, :meth:`Game.check`), budgets, option checks, and the
replay that alone may set ``Result.verified``. The command line calls the
same methods, so the two front ends cannot disagree.
"""

from __future__ import annotations

import inspect
import math
import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from gridsolver.core import interrupt
from gridsolver.core.boards import STDIN, BoardText, load_boards, pick_board, split_boards, split_pick
from gridsolver.core.budget import AUTO, DEFAULT_TIME_S, NO_LIMIT, Budget, default_memory_mb
from gridsolver.core.errors import InputError
from gridsolver.core.options import Option, check_declared, describe, solve_signature
from gridsolver.core.result import Result, Stats

if TYPE_CHECKING:
    from gridsolver.core.film import Film
    from gridsolver.core.live import EventHandler

BoardT = TypeVar("BoardT")
MoveT = TypeVar("MoveT")

#: Statuses that a longer search might have improved on (an interrupted one says so in ``stopped``).
UNPROVED = ("best-found", "not-found")

#: A callable that hears short progress notes ("k = 12 tokens ruled out").
Progress = Callable[[str], None]


@dataclass(frozen=True)
class NamedBoard:
    """A board or set of boards shipped with the package."""

    name: str
    description: str
    count: int = 1  # boards in the set


@dataclass(frozen=True)
class Replayed(Generic[BoardT]):
    """What replaying a solution under the rules gives.

    ``score`` is computed by the rules alone; ``complete`` says whether the
    final position meets the objective the solution claims (every square
    marked, one peg left in the finish hole, ...), for the statuses that
    claim it.
    """

    final: BoardT
    score: float | int
    complete: bool
    steps: int


class Game(ABC, Generic[BoardT, MoveT]):
    """One game: its rules' slots, filled by a subclass, and the shared front end."""

    #: the command name: ``gridsolver NAME ...`` and ``from gridsolver import NAME``
    name: ClassVar[str]
    #: one line for ``gridsolver --help``
    title: ClassVar[str]
    #: what the score counts, e.g. "tokens", "cells left", "points"
    score_name: ClassVar[str]
    #: whether a smaller score is better (tokens, cells left) rather than a larger one (points)
    minimize: ClassVar[bool] = False
    #: what the searches count as their work, for the status line's rate ("nodes", "playouts")
    work_name: ClassVar[str] = "nodes"
    #: lines starting with this are comments in board files (None: no comments)
    comment: ClassVar[str | None] = "#"
    #: defaults of the budget options for this game's ``solve``
    default_time: ClassVar[float | None] = DEFAULT_TIME_S
    #: "auto": half the memory available when a search starts (core.budget.default_memory_mb)
    default_memory: ClassVar[float | str | None] = AUTO
    #: worker processes a solve uses by default (None: every core)
    default_workers: ClassVar[int | None] = 1
    #: whether a search can use worker processes or a cluster (else --cluster is refused)
    parallel: ClassVar[bool] = False
    #: modules a search's worker processes import: they are started importing them while this
    #: process warms its kernels (see Game.solve)
    worker_modules: ClassVar[tuple[str, ...]] = ()
    #: the class of this game's boards, so the API can refuse anything else with a clear message
    board_type: ClassVar[type]
    #: the game's own solve options, declared once: the command line, the checks, the API's
    #: signature and the reference are made from them (see gridsolver.core.options)
    options: ClassVar[tuple[Option, ...]] = ()

    # -- slots: boards ---------------------------------------------------------------------------
    @abstractmethod
    def parse(self, text: BoardText) -> BoardT:
        """Read and validate one board; raise ``text.error(...)`` naming row and column."""

    @abstractmethod
    def format(self, board: BoardT) -> str:
        """The board as text; :meth:`parse` of it gives an equal board, every rule included."""

    @abstractmethod
    def named_boards(self) -> list[NamedBoard]:
        """The boards and sets shipped with the package."""

    @abstractmethod
    def named_text(self, name: str) -> str | None:
        """The text of a shipped board or set, or None when ``name`` is not one."""

    # -- slots: replay ---------------------------------------------------------------------------
    @abstractmethod
    def replay(self, board: BoardT, solution: Any, options: Mapping[str, Any]) -> Replayed[BoardT]:
        """Play a solution (in its JSON form) under the rules; InputError on an illegal move."""

    def film(self, board: BoardT, solution: Any, options: Mapping[str, Any], **view: Any) -> Film:
        """The replay of a solution frame by frame, for ``show`` (see :mod:`gridsolver.core.film`).

        Built by playing the solution under the rules (``options`` as
        :meth:`check_options` returned them); an illegal step raises an
        InputError naming it, so no picture of an illegal game is ever made.
        ``view`` holds the game's own ``show`` options (what to show, not
        what to play), e.g. the rat race's turn range.
        """
        raise InputError(f"{self.name}: no step-by-step view for this game yet")

    def parse_solution(self, text: str) -> Any:
        """A solution as a person writes it on the command line, in its JSON form.

        The default reads JSON, or else whitespace-separated moves.
        """
        stripped = text.strip()
        if stripped[:1] in ("[", "{", '"'):
            import json

            try:
                return json.loads(stripped)
            except json.JSONDecodeError as exc:
                raise InputError(f"solution: not JSON ({exc.msg} at column {exc.colno})") from None
            except RecursionError:
                raise InputError("solution: JSON nested too deeply to be a solution") from None
            except ValueError as exc:  # e.g. a number of over 4,300 digits
                raise InputError(f"solution: not JSON ({str(exc)[:100]})") from None
        return stripped.split()

    # -- slot: search ----------------------------------------------------------------------------
    @abstractmethod
    def search(self, board: BoardT, budget: Budget, *, seed: int, workers: int, cluster: str | None,
               progress: Progress | None, label: str, options: Mapping[str, Any]) -> Result:
        """Run the game's algorithms within ``budget``; the result is verified afterwards."""

    def has_kernels(self) -> bool:
        """Whether the game fills the :meth:`warm` slot (one without kernels has nothing to warm)."""
        return type(self).warm is not Game.warm

    def warm(self, board: BoardT | None, options: Mapping[str, Any] | None, *, workers: int = 1) -> None:
        """Get the kernels a search of ``board`` with ``options`` will use ready: compiled, or loaded
        from numba's cache (see :mod:`gridsolver.core.warm`).

        A game calls each such kernel once on a tiny input of the same types,
        so that every specialisation the search uses exists before the search
        starts; :meth:`solve` calls this first and reports the compiling apart
        (``stats.compile_s``, given back to the budget's clock). ``options`` are as
        :meth:`check_options` returned them. With ``workers`` > 1 the worker
        processes the search maps onto are warmed too
        (:func:`gridsolver.core.warm.warm_workers`; with ``--cluster``, every
        worker of the cluster). ``board`` None: every
        kernel any command of the game may use (``gridsolver warmup``). The
        default has nothing to warm.
        """

    def check_options(self, board: BoardT, options: Mapping[str, Any]) -> dict[str, Any]:
        """Validate the game's own solve options against a board; return them JSON-ready.

        Called before any search, so a bad option fails fast with an InputError:
        first the checks made from the declaration (:attr:`options`: unknown
        names, types, choices), then the game's :meth:`resolve_options`.
        """
        check_declared(self.name, self.options, options)
        return self.resolve_options(board, options)

    def resolve_options(self, board: BoardT, options: Mapping[str, Any]) -> dict[str, Any]:
        """The game's own part of :meth:`check_options`: defaults filled in, options checked against
        the board and against each other, returned JSON-ready (checking them again gives them back)."""
        return {}

    def workers_for(self, board: BoardT, options: Mapping[str, Any], workers: int) -> int:
        """How many of the ``workers`` asked for a search of ``board`` uses: fewer when starting them
        would cost more than they bring (a board solved in milliseconds)."""
        return workers

    def sense(self, options: Mapping[str, Any]) -> tuple[str, bool]:
        """What a search's score counts with these options (as :meth:`check_options` returned them),
        and whether a smaller score is better."""
        return self.score_name, self.minimize

    def label(self, board: BoardT) -> str:
        """The name results use for a board when the caller gives none."""
        name = getattr(board, "name", "")
        return str(name) if name else "board"

    def equal(self, a: BoardT, b: BoardT) -> bool:
        """Whether two boards are the same position under the same rules."""
        return bool(a == b)

    # -- front end: reading boards ---------------------------------------------------------------
    def read(self, text: str, source: str = "<string>") -> BoardT:
        """The one board in ``text``; when ``text`` holds several, ``source`` ending in ``#k``
        (``"boards.txt#2"``) picks board k, counted from 1 (InputError otherwise, or if there is none)."""
        base, k = split_pick(source)
        blocks = split_boards(text, base if k is not None else source, self.comment)
        if k is not None:
            return self.parse(pick_board(blocks, k, source))
        if len(blocks) != 1:
            raise InputError(f"{source}: expected one board, found {len(blocks)} (separated by blank lines); "
                             f"name one as {source}#k, k from 1 to {len(blocks)}")
        return self.parse(blocks[0])

    def texts(self, sources: Iterable[str]) -> list[BoardText]:
        """Every board in files, ``-`` (stdin) or shipped names, unparsed (they know where they came from)."""
        return load_boards(sources, comment=self.comment, named=self._named_or_none)

    def load(self, source: str) -> list[BoardT]:
        """Every board of a file, ``-`` or a shipped name."""
        return [self.parse(text) for text in self.texts([source])]

    def named(self, name: str) -> BoardT:
        """A shipped board by name; board k of a shipped set is ``"SET#k"`` (``"standard-20#3"``,
        counted from 1, as results label it). A set's name alone is an InputError saying so."""
        base, k = split_pick(name)
        text = self.named_text(base) if k is not None else None
        if text is None:
            base, k = name, None
            text = self.named_text(name)
        if text is None:
            known = ", ".join(b.name for b in self.named_boards())
            raise InputError(f"{self.name}: no shipped board called {name!r} (shipped: {known})")
        blocks = split_boards(text, base, self.comment)
        if k is not None:
            return self.parse(pick_board(blocks, k, name))
        if len(blocks) > 1:
            raise InputError(f"{self.name}: {name!r} is a set of {len(blocks)} boards, not one board: name "
                             f"one as '{name}#k' (k from 1 to {len(blocks)}), or take them all with "
                             f"{self.name}.load({name!r})")
        return self.parse(blocks[0])

    def _named_or_none(self, name: str) -> str | None:
        if name == STDIN or os.path.exists(name):
            return None
        return self.named_text(name)

    # -- front end: solving ----------------------------------------------------------------------
    def solve(self, board: BoardT, *, time: float | None = None, memory: float | None = None,
              nodes: int | None = None, seed: int = 0, workers: int | None = None,
              cluster: str | None = None, progress: Progress | None = None, label: str | None = None,
              on_event: EventHandler | None = None, **options: Any) -> Result:
        """Search ``board`` within the budget and return a replay-verified result.

        ``time`` (seconds) and ``memory`` (MB) default to the game's defaults
        (memory: half of what the machine has available at the start);
        game-specific options (e.g. ``objective`` for pegs) go in ``options``.
        The kernels are made ready first (:meth:`warm`): compiling on a first
        run is reported in ``stats.compile_s``, never counted in ``time`` or
        ``stats.elapsed_s``; loading them from the cache and starting worker
        processes are counted (see :func:`exclude_compiling`).

        ``on_event(event)`` hears the search as it goes: ``start``, each
        ``improved`` score and ``bound``, and ``end`` (see
        :mod:`gridsolver.core.live` for the keys). It is called from a watcher
        thread, a few times a second at most, so it should return quickly.
        """
        if not isinstance(board, self.board_type):
            kind = self.board_type.__name__
            raise InputError(f"{self.name}.solve: expected a {kind} (from {self.name}.named/read/load), "
                             f"got {type(board).__name__}")
        budget = make_budget(self.default_time if time is None else time,
                             resolve_memory(self.default_memory if memory is None else memory), nodes)
        seed = check_seed(seed)
        if cluster is not None and not self.parallel:
            raise InputError(f"--cluster {cluster}: a {self.name} search runs in one process; "
                             "there is no work to send to a cluster")
        count = check_workers(self.default_workers if workers is None else workers)
        checked = self.check_options(board, options)
        if cluster is None:
            count = self.workers_for(board, checked, count)
        # Kernels compile (first run) or load, and workers start, before the search: the clock runs
        # on, but the seconds numba spent compiling are given back (never counted against --time).
        # Loading cached kernels and starting workers are start-up that every run pays: they count,
        # or the process would end seconds past --time. A Ctrl-C meanwhile is recorded and the
        # search then reads its deadlines as spent. A cluster's workers are not ours to start, but
        # they are warmed too (each of them, in place of local ones: see core.warm.warm_workers).
        from gridsolver.core import live
        from gridsolver.core.progress import NOTE_ENV
        from gridsolver.core.warm import NOTE, warm_up

        label = label or self.label(board)
        score_name, minimize = self.sense(checked)
        watcher = live.watcher(live.Search(self.name, label, score_name, minimize, self.work_name,
                                           budget.time_s, count, started=budget.started_ns / 1e9), on_event)
        watcher.start_up(live.STARTING)  # the status line says so while the kernels load (or compile)
        watcher.start()
        try:
            if count > 1 and cluster is None and self.worker_modules:  # they import while this one warms
                from gridsolver.core.parallel import start_workers

                start_workers(count, self.worker_modules)
            # on a status line, compiling is told there (unless GRIDSOLVER_COMPILE_NOTE asks for the note)
            shown = watcher.display is not None and not os.environ.get(NOTE_ENV)

            def compiling(done: int) -> None:
                watcher.start_up(f"{NOTE}: {done} done")

            warmed = warm_up(self, board, checked, count, cluster=cluster, mode="off" if shown else None,
                             on_compiled=compiling if shown else None)
            exclude_compiling(budget, warmed.compile_s)
            watcher.searching(budget.started_ns / 1e9)
            result = self._search_heard(board, budget, seed, count, cluster, label, checked,
                                        _notes(progress, watcher.heard))
        finally:
            watcher.stop()
        # the warm-up's compiling, and any kernel's compiled on its first use (core.warm.ready)
        result.stats.compile_s = round(result.stats.compile_s + warmed.compile_s + budget.compile_s, 3)
        if interrupt.requested() and (result.stopped is not None or result.status in UNPROVED):
            result.stopped = "interrupted"  # the search saw its budget spent: it was Ctrl-C
        result.board = self.format(board)
        result.options = checked
        verify(self, board, result)
        watcher.finish(result)
        return result

    def _search_heard(self, board: BoardT, budget: Budget, seed: int, workers: int, cluster: str | None,
                      label: str, options: dict[str, Any], progress: Progress) -> Result:
        """:meth:`search`, with an allocation that fails anyway turned into a ``memory`` stop."""
        try:
            return self.search(board, budget, seed=seed, workers=workers, cluster=cluster,
                               progress=progress, label=label, options=options)
        except MemoryError as exc:  # an allocation the memory budget let through failed anyway
            return self.out_of_memory(label, budget, exc)

    def out_of_memory(self, label: str, budget: Budget, error: MemoryError) -> Result:
        """The result of a search whose allocation failed past what its budget foresaw (a process
        limit lower than the budget, or memory taken by others meanwhile): a ``memory`` stop."""
        detail = str(error) or "an allocation failed"
        return Result(self.name, label, "not-found", score_name=self.score_name, stopped="memory",
                      stats=Stats(elapsed_s=round(budget.elapsed_s(), 3)),
                      details={"error": f"out of memory: {detail}; a smaller --memory leaves more room"})

    def api_solve(self) -> Callable[..., Result]:
        """:meth:`solve` for the game's module (``gridsolver.GAME.solve``), its signature and
        docstring naming each of the game's options with its type and default."""
        method = self.solve

        def solve(board: BoardT, **arguments: Any) -> Result:
            return method(board, **arguments)

        signature = solve_signature(method, self.options)
        board = signature.parameters["board"].replace(annotation=self.board_type.__name__)
        solve.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[board, *list(signature.parameters.values())[1:]])
        solve.__doc__ = (f"{inspect.cleandoc(Game.solve.__doc__ or '')}\n\nOptions of {self.name}:\n\n"
                         f"{describe(self.options)}\n")
        solve.__qualname__ = solve.__name__ = "solve"
        solve.__module__ = f"gridsolver.{self.name}"
        return solve

    def check(self, board: BoardT, solution: Any, **options: Any) -> Replayed[BoardT]:
        """Replay a solution under the rules (InputError naming the first illegal move)."""
        if not isinstance(board, self.board_type):
            raise InputError(f"{self.name}.check: expected a {self.board_type.__name__}, got "
                             f"{type(board).__name__}")
        return self.replay(board, solution, self.check_options(board, options))


def _notes(*hearers: Progress | None) -> Progress:
    """One ``progress`` callable telling every hearer given."""
    told = [hear for hear in hearers if hear is not None]

    def tell(note: str) -> None:
        for hear in told:
            hear(note)

    return tell


def exclude_compiling(budget: Budget, compile_s: float) -> None:
    """Move the budget's start ``compile_s`` seconds later: compiling is reported apart, not searched.

    Never past now: what was not compiling (loading from the cache, starting
    workers) stays counted.
    """
    import time

    later = budget.started_ns + int(compile_s * 1e9)
    budget.started_ns = min(later, time.monotonic_ns())


def verify(game: Game[Any, Any], board: Any, result: Result) -> bool:
    """Replay ``result.solution`` under the rules and set ``result.verified`` from what it gives.

    A result is verified when the replay is legal, reaches the reported score
    and, for a solution that claims to meet the objective (optimal,
    best-found), ends in a position that meets it. A result with no solution
    is never verified. A search whose own answer does not replay is a bug:
    it is reported as unverified, never silently trusted.
    """
    result.verified = False
    if result.solution is None:
        return False
    try:
        replayed = game.replay(board, result.solution, result.options)
    except InputError as exc:
        result.details["replay_error"] = str(exc)
        return False
    ok = _same_score(replayed.score, result.score)
    if result.status in ("optimal", "best-found"):
        ok = ok and replayed.complete
    result.verified = ok
    return ok


def _same_score(a: float | int, b: float | int | None) -> bool:
    if b is None:
        return False
    return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-9)


# -- option checks shared by the API and the CLI -------------------------------------------------
MAX_SEED = 2**64 - 1


#: The longest --time accepted (about 11.6 days): past it a deadline means nothing.
MAX_TIME_S = 1e6


def make_budget(time_s: float | None, memory_mb: float | None, nodes: int | None) -> Budget:
    """A budget from option values, each checked: finite, positive and within its limit, or None."""
    for option, value in (("--time", time_s), ("--memory", memory_mb)):
        if value is not None and not (isinstance(value, int | float) and not isinstance(value, bool)
                                      and math.isfinite(value) and value > 0):
            raise InputError(f"{option} {value!r}: expected a finite number above 0")
    if time_s is not None and time_s > MAX_TIME_S:
        raise InputError(f"--time {time_s:g}: more than the {MAX_TIME_S:g} s (about 11 days) gridsolver "
                         "accepts; leave --time out of Python calls for no limit")
    if memory_mb is not None:
        machine = machine_memory_mb()
        if memory_mb > machine:
            raise InputError(f"--memory {memory_mb:g}: more than this machine's {machine:,.0f} MB of memory")
    whole = isinstance(nodes, int) and not isinstance(nodes, bool)
    if nodes is not None and not (whole and 0 < nodes <= NO_LIMIT):
        raise InputError(f"--nodes {nodes!r}: expected a whole number from 1 to 2^62")
    return Budget(time_s=time_s, memory_mb=memory_mb, nodes=nodes)


def resolve_memory(memory_mb: float | str | None) -> float | None:
    """A memory figure in MB: ``"auto"`` becomes half the memory available now."""
    return default_memory_mb() if memory_mb == AUTO else memory_mb  # type: ignore[return-value]


def machine_memory_mb() -> float:
    """The machine's physical memory in MB."""
    import psutil

    return float(psutil.virtual_memory().total) / 2**20


def check_seed(seed: int) -> int:
    """A seed is any integer in [0, 2^64); anything else is named back to the user."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InputError(f"--seed {seed!r}: expected a whole number from 0 to 2^64 - 1")
    return seed


def check_workers(workers: int | None) -> int:
    """Worker processes: at least 1, at most the machine's cores (more is capped with a warning)."""
    import sys

    from gridsolver.core.parallel import default_workers

    if workers is None:
        return default_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InputError(f"--workers {workers!r}: expected a whole number of at least 1")
    cores = os.cpu_count() or 1
    if workers > cores:
        print(f"gridsolver: warning: --workers {workers}: this machine has {cores} cores; using {cores}",
              file=sys.stderr)
        return cores
    return workers


@runtime_checkable
class Stepwise(Protocol[BoardT, MoveT]):
    """The optional capability of a game played one legal move at a time.

    A game offers it by defining both methods; one whose solution is not a
    sequence of moves on a position (a bunny program is, a rat race game is
    not) leaves them out, and nothing calls them.
    """

    def moves(self, board: BoardT) -> list[MoveT]:
        """The legal moves of a position."""
        ...

    def apply(self, board: BoardT, move: MoveT) -> BoardT:
        """The position after ``move``; :class:`InputError` naming the move when it is illegal."""
        ...


def replay_moves(game: Stepwise[BoardT, MoveT], board: BoardT, moves: Sequence[MoveT]) -> BoardT:
    """Apply ``moves`` in order under the rules; InputError naming the first illegal one."""
    for number, move in enumerate(moves, start=1):
        try:
            board = game.apply(board, move)
        except InputError as exc:
            raise InputError(f"move {number}: {exc}") from None
    return board
