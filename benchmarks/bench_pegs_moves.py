"""Peg solitaire, fewest moves (a move = consecutive jumps by one peg).

Goal: the English central game in 18 moves, proved
minimal, on this machine. Also every English "complement" problem (one
vacancy, finish with one peg in that hole) up to symmetry, and the 15-hole
triangle to one peg anywhere.
"""

from __future__ import annotations

from gridsolver import pegs
from gridsolver.pegs import rules
from gridsolver.pegs.table import single_vacancy_problems
from runner import Table

SECONDS = 300.0


named = pegs.named


def row(table: Table, what: str, board: rules.Board, finish: rules.Cell | None, goal: str) -> None:
    result = pegs.solve(board, objective="moves", finish=finish, time=SECONDS)
    table.add(what, result.status, result.score if result.score is not None else "-",
              result.details.get("moves_proved_insufficient", "-"), result.verified,
              round(result.stats.elapsed_s, 2), result.stats.nodes, round(result.stats.peak_memory_mb),
              goal)


def run(quick: bool) -> list[Table]:
    english = named("english")
    table = Table("Fewest moves (meet in the middle)",
                  ["problem", "status", "moves", "moves proved too few", "verified", "time (s)",
                   "jumps tried", "peak memory (MB)", "goal"])
    pegs.solve(named("triangle"), objective="moves")  # load the compiled kernels
    row(table, "English central game: vacancy and finish (3,3)", english, (3, 3),
        "18 moves, proved minimal")
    if not quick:
        for start, finish in single_vacancy_problems(english):
            if start != finish or start == (3, 3):
                continue
            board = english.with_pegs(english.holes & ~(1 << english.index(start)))
            row(table, f"English: vacancy and finish {start}", board, finish, "")
    row(table, "15-hole triangle, one peg anywhere", named("triangle"), None, "")
    table.notes.append(
        f"Default 2048 MB memory, {SECONDS:g} s time budget per problem; time is Result.stats.elapsed_s "
        "after the kernels are compiled. 'moves proved too few' is the largest move count shown "
        "impossible (the forward and backward depths whose sets are disjoint). Other engineers were "
        "running builds and tests on the same 2 cores, so times are noisy.")
    return [table]
