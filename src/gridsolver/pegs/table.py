"""The single-vacancy table (``gridsolver pegs table``).

Every problem "start with one hole empty, finish with one peg in a given
hole" of a board up to its symmetries (:func:`single_vacancy_problems`),
each solved through the game (:func:`table_job`, so every answer is
verified by replay) and printed by :func:`format_table`. The game imports
the searches (:mod:`gridsolver.pegs.search`), so the table, which solves
through the game, sits above both.
"""

from __future__ import annotations

from gridsolver.core.result import Result
from gridsolver.core.words import plural
from gridsolver.pegs.game import GAME
from gridsolver.pegs.geometry import fixing, symmetries
from gridsolver.pegs.rules import Board, Cell


def table_job(job: tuple) -> Result:
    """Solve one table problem through the game (module level, so worker processes can run it).

    ``job`` is (board, start vacancy, finish hole, seconds, megabytes, nodes, seed, label).
    """
    board, start, finish, time_s, memory_mb, nodes, seed, label = job
    return GAME.solve(problem_board(board, start), time=time_s, memory=memory_mb, nodes=nodes, seed=seed,
                      label=label, objective="finish", finish=finish)


def problem_board(board: Board, start: Cell) -> Board:
    """The board full of pegs but for the ``start`` vacancy."""
    return board.with_pegs(board.holes & ~(1 << board.index(start)))


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
            stopped = f", stopped: {result.stopped}" if result.stopped else ""
            unverified = ", not verified" if result.status == "optimal" else ""
            what = f"unknown ({result.status}{stopped}{unverified})"
        key = what.split(":")[0].split(" (")[0]
        counts[key] = counts.get(key, 0) + 1
        lines.append(f"vacancy {start} -> survivor {finish}: {what}")
    summary = ", ".join(f"{n} {k}" for k, n in counts.items())
    lines += start_summary(board, problems, results)
    lines.append(f"{plural(len(problems), 'problem')} up to symmetry ({plural(board.hole_count, 'hole')}): "
                 f"{summary}")
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
        lines.append(f"vacancy {start} ({plural(orbit, 'hole')} alike): one peg anywhere "
                     f"{what}")
    return lines


def single_vacancy_problems(board: Board) -> list[tuple[Cell, Cell]]:
    """(start vacancy, finish hole) pairs up to the board's symmetries.

    One start per orbit of holes under the whole group, then one finish per
    orbit under the symmetries that fix that start.
    """
    perms = symmetries(board)
    problems = []
    seen_starts: set[int] = set()
    for start in board.hole_cells():
        i = board.index(start)
        if i in seen_starts:
            continue
        seen_starts.update(p[i] for p in perms)
        stabiliser = fixing(perms, board, start)
        seen_finishes: set[int] = set()
        for finish in board.hole_cells():
            j = board.index(finish)
            if j in seen_finishes:
                continue
            seen_finishes.update(p[j] for p in stabiliser)
            problems.append((start, finish))
    return problems
