"""The boards of a set solved side by side: one search per worker process or cluster worker.

A game whose search runs in one process (bunny, pegs, clickomania) can still
use many cores on many boards: ``solve --workers N`` runs up to N boards at
once, ``solve --cluster tcp://HOST:PORT`` sends them to a Dask cluster. Each
board is solved by :meth:`Game.solve <gridsolver.core.game.Game.solve>` in
its worker (kernels warmed there before its clock starts), so every result
is replayed under the rules where it was found and again here; results are
printed in the order of the boards, each as soon as the boards before it are
done. A worker that dies has its board run again elsewhere (see
:func:`gridsolver.core.parallel.parallel_map`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gridsolver.core.boards import BoardText
from gridsolver.core.game import Game
from gridsolver.core.result import Result


@dataclass(frozen=True)
class SolveJob:
    """One board of a spread run, as it travels to a worker: the game (pickled by reference), the
    board as written, its budget and options."""

    game: Game[Any, Any]
    text: BoardText
    time_s: float | None
    memory_mb: float | None
    nodes: int | None
    seed: int
    options: dict[str, Any]


def solve_job(job: SolveJob) -> Result:
    """Solve one board in this (worker) process: parsed here, searched on one core."""
    board = job.game.parse(job.text)
    return job.game.solve(board, time=job.time_s, memory=job.memory_mb, nodes=job.nodes, seed=job.seed,
                          workers=1, label=job.text.label, **job.options)


class InOrder:
    """Hands results on in board order while they arrive in any order: ``arrived(i, result)`` passes
    on every result whose predecessors have all arrived."""

    def __init__(self, count: int, deliver: Callable[[int, Result], None]) -> None:
        self.count = count
        self.deliver = deliver
        self.waiting: dict[int, Result] = {}
        self.next = 0

    def arrived(self, index: int, result: Result) -> None:
        self.waiting[index] = result
        while self.next in self.waiting:
            self.deliver(self.next, self.waiting.pop(self.next))
            self.next += 1

    def flush(self) -> None:
        """Pass on what arrived past a gap (a run cut short): still in board order."""
        for index in sorted(self.waiting):
            self.deliver(index, self.waiting.pop(index))
