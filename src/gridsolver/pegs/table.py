"""The single-vacancy table (``gridsolver pegs table``).

Every problem "start with one hole empty, finish with one peg in a given
hole" of a board up to its symmetries (:func:`single_vacancy_problems`),
each solved through the game (:func:`table_job`, so every answer is
verified by replay) and printed by :func:`format_table`. The game imports
the searches (:mod:`gridsolver.pegs.search`), so the table, which solves
through the game, sits above both.
"""

from __future__ import annotations

from dataclasses import replace

from gridsolver.core.game import verify
from gridsolver.core.result import Result, Stats
from gridsolver.core.words import plural
from gridsolver.pegs.game import GAME
from gridsolver.pegs.geometry import Permutation, PositionClasses, fixing, symmetries
from gridsolver.pegs.rules import Board, Cell, format_jump, parse_jump


def table_job(job: tuple) -> Result:
    """Solve one table problem through the game (module level, so worker processes can run it).

    ``job`` is (board, start vacancy, finish hole, seconds, megabytes, nodes, seed, label), and
    optionally the worker processes the search may use (default: every core; 1 when the problems
    themselves run in worker processes).
    """
    board, start, finish, time_s, memory_mb, nodes, seed, label, *more = job
    return GAME.solve(problem_board(board, start), time=time_s, memory=memory_mb, nodes=nodes, seed=seed,
                      label=label, objective="finish", finish=finish, workers=more[0] if more else None)


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


def dual_problems(board: Board, problems: list[tuple[Cell, Cell]]) -> dict[int, tuple[int, Permutation]]:
    """Problems decided by an earlier one: ``i -> (j, p)`` when the dual of problem ``i`` (start
    vacancy ``F``, finish ``s``) is problem ``j < i`` under the symmetry ``p`` (``p`` takes ``F`` to
    ``j``'s start vacancy and ``s`` to its finish). Only problems the position classes leave open
    are listed (the others are decided at once by their own).

    A game from vacancy ``s`` to a peg in ``F`` read backwards on the complemented board (pegs and
    holes swapped) is a game from vacancy ``F`` to a peg in ``s`` with the same jumps in the reverse
    order, so the two problems are solvable or impossible together (:func:`from_dual`).
    """
    perms = symmetries(board)
    classes = PositionClasses(board)
    listed = {(board.index(s), board.index(f)): k for k, (s, f) in enumerate(problems)}
    duals: dict[int, tuple[int, Permutation]] = {}
    for i, (start, finish) in enumerate(problems):
        if not classes.same_class(problem_board(board, start).pegs, 1 << board.index(finish)):
            continue
        found = [(listed[key], p) for p in perms
                 if (key := (p[board.index(finish)], p[board.index(start)])) in listed]
        if found and all(j != i for j, _ in found):  # a self-dual problem is searched
            j, p = min(found, key=lambda pair: pair[0])
            if j < i:
                duals[i] = (j, p)
    return duals


def from_dual(board: Board, problem: tuple[Cell, Cell], dual: tuple[Cell, Cell], p: Permutation,
              decided: Result, label: str) -> Result | None:
    """Problem ``problem``'s result from ``decided``, the result of ``dual`` (see :func:`dual_problems`);
    None when ``decided`` neither proves it impossible nor holds a verified game.

    A game is turned into one for ``problem`` (the jumps mapped back through ``p``, in the reverse
    order) and replayed before it is reported."""
    start, finish = problem
    options = {"objective": "finish", "finish": finish}
    named = (f"the dual of {dual[0]}->{dual[1]} (up to symmetry; a game read backwards on the complemented "
             "board)")
    played = problem_board(board, start)
    base = Result(GAME.name, label, decided.status, score=decided.score, score_name=decided.score_name,
                  stats=Stats(), board=GAME.format(played), options=options,
                  details={"objective": "finish", "dual_of": [list(dual[0]), list(dual[1])]})
    if decided.status == "impossible":
        return replace(base, proof=f"impossible as {named}: {decided.proof}")
    if decided.status != "optimal" or not decided.verified or not decided.solution:
        return None
    back = [0] * len(p)
    for k, image in enumerate(p):
        back[image] = k
    jumps = []
    for text in reversed(decided.solution):
        (r0, c0), (r1, c1) = parse_jump(text)
        a = board.cell(back[board.index((r0, c0))])
        c = board.cell(back[board.index((r1, c1))])
        jumps.append(format_jump((a, c)))
    result = replace(base, solution=jumps, proof=f"one peg left in the finish hole (a game of {named})")
    verify(GAME, played, result)
    return result if result.verified else None
