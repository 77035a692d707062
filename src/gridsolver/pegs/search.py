"""Solving peg solitaire through the game, so every answer is verified by replay.

- :func:`solve`: one board, with the keyword arguments of the API that
  predates the contract (``objective``, ``finish``, ``strategy``, a
  :class:`~gridsolver.core.budget.Budget`); it is :meth:`PegsGame.solve`.
- the single-vacancy table (``gridsolver pegs table``): every problem
  "start with one hole empty, finish with one peg in a given hole" of a
  board up to its symmetries, each solved by :meth:`PegsGame.solve`.

The searches themselves are in :mod:`gridsolver.pegs.solvers`; :class:`Layout`
and :func:`single_vacancy_problems` are re-exported from there.
"""

from __future__ import annotations

from collections.abc import Callable

from gridsolver.core.budget import Budget
from gridsolver.core.result import Result
from gridsolver.pegs.game import GAME
from gridsolver.pegs.geometry import symmetries
from gridsolver.pegs.rules import Board, Cell
from gridsolver.pegs.solvers import Layout, single_vacancy_problems

__all__ = ["Layout", "format_table", "single_vacancy_problems", "solve", "table_job"]


def solve(board: Board, *, label: str = "board", objective: str = "jumps", finish: Cell | None = None,
          strategy: str = "default", budget: Budget | None = None, seed: int = 0,
          note: Callable[[str], None] | None = None) -> Result:
    """Solve one board for ``objective`` within ``budget`` (its time, memory and nodes).

    The same as ``GAME.solve(board, time=..., memory=..., nodes=..., objective=...,
    finish=..., strategy=...)``: the result is verified by replay. A budget
    without a time limit gets the game's default (60 s).
    """
    budget = budget or Budget()
    options: dict = {"objective": objective, "strategy": strategy}
    if finish is not None:
        options["finish"] = finish
    return GAME.solve(board, time=budget.time_s, memory=budget.memory_mb, nodes=budget.nodes, seed=seed,
                      progress=note, label=label, **options)


def table_job(job: tuple) -> Result:
    """Solve one table problem (module level, so worker processes can run it).

    ``job`` is (board, start vacancy, finish hole, seconds, megabytes, nodes, seed, label).
    """
    board, start, finish, time_s, memory_mb, nodes, seed, label = job
    full = board.with_pegs(board.holes & ~(1 << board.index(start)))
    return GAME.solve(full, time=time_s, memory=memory_mb, nodes=nodes, seed=seed, label=label,
                      objective="finish", finish=finish)


def format_table(board: Board, problems: list[tuple[Cell, Cell]], results: list[Result]) -> str:
    """One line per problem, then a count of each outcome."""
    lines = []
    counts: dict[str, int] = {}
    for (start, finish), result in zip(problems, results, strict=True):
        if result.status == "optimal" and result.verified:
            what = "solvable: " + " ".join(result.solution or [])
        elif result.status == "impossible":
            what = "impossible: " + result.proof
        else:
            stopped = f", stopped by {result.stopped}" if result.stopped else ""
            unverified = ", not verified" if result.status == "optimal" else ""
            what = f"unknown ({result.status}{stopped}{unverified})"
        key = what.split(":")[0].split(" (")[0]
        counts[key] = counts.get(key, 0) + 1
        lines.append(f"vacancy {start} -> survivor {finish}: {what}")
    summary = ", ".join(f"{n} {k}" for k, n in counts.items())
    lines += start_summary(board, problems, results)
    lines.append(f"{len(problems)} problems up to symmetry ({board.hole_count} holes): {summary}")
    return "\n".join(lines)


def start_summary(board: Board, problems: list[tuple[Cell, Cell]], results: list[Result]) -> list[str]:
    """Per start (one per orbit of holes): can one peg be left anywhere at all?

    Solvable when some finish was solved (and verified); impossible when every
    finish was proved impossible; else undecided.
    """
    perms = symmetries(board)
    by_start: dict[Cell, list[Result]] = {}
    for (start, _), result in zip(problems, results, strict=True):
        by_start.setdefault(start, []).append(result)
    lines = []
    for start, outcomes in by_start.items():
        orbit = len({p[board.index(start)] for p in perms})
        solved = sum(r.status == "optimal" and r.verified for r in outcomes)
        if solved:
            what = f"solvable ({solved} of {len(outcomes)} finishes up to symmetry)"
        elif all(r.status == "impossible" for r in outcomes):
            what = "impossible (every finish proved impossible)"
        else:
            what = "undecided"
        lines.append(f"vacancy {start} ({orbit} hole{'s' if orbit > 1 else ''} alike): one peg anywhere "
                     f"{what}")
    return lines
