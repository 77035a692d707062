"""Clickomania in the shared contract (:class:`gridsolver.core.game.Game`).

Boards are :class:`~gridsolver.clickomania.rules.Board`; a move is
``(row, column)`` of a cell of the removed group, 0-based from the top-left of
the board just before the move; a solution is the list of moves, played until
no group is left, and its score is the cells left (0: cleared). Another game
on these boards and moves subclasses :class:`ClickomaniaBoards` with its own
objective. No numba here: the search is imported when a solve starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gridsolver.clickomania import rules
from gridsolver.clickomania.rules import Board, Move
from gridsolver.core.boards import BoardText
from gridsolver.core.budget import Budget
from gridsolver.core.errors import InputError
from gridsolver.core.game import Game, NamedBoard, Progress, Replayed
from gridsolver.core.result import Result

if TYPE_CHECKING:
    from gridsolver.core.film import Film

NAMED = (
    NamedBoard("duel-5x5", "200 random 5x5 boards of 3 colours (cleared or proved impossible)", 200),
    NamedBoard("standard-20", "the 20 standard 15x15 SameGame positions of 5 colours", 20),
)


def parse_moves(text: str) -> list[list[int]]:
    """Moves written as ``row,col row,col ...`` (0-based), in their JSON form ``[[row, col], ...]``."""
    moves = []
    for token in text.replace(";", " ").split():
        parts = token.strip("()[]").split(",")
        try:
            row, col = (int(p) for p in parts)
        except ValueError:
            raise InputError(f"move {rules.shown(token)}: expected ROW,COL (0-based, e.g. 3,0)") from None
        moves.append([row, col])
    return moves


def moves_of(solution: Any) -> list[Move]:
    """A solution in its JSON form as moves; InputError naming what is malformed."""
    if not isinstance(solution, Sequence) or isinstance(solution, str):
        raise InputError(f"solution {rules.shown(solution)}: expected a list of [row, column] moves")
    moves = []
    for number, move in enumerate(solution, start=1):
        if (not isinstance(move, Sequence) or isinstance(move, str) or len(move) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in move)):
            raise InputError(f"move {number} {rules.shown(move)}: expected [row, column] (whole numbers)")
        moves.append((int(move[0]), int(move[1])))
    return moves


class ClickomaniaBoards(Game[Board, Move]):
    """The boards and moves (parse, format, named sets, legal moves); the objective is the subclass's."""

    board_type = Board

    comment = rules.COMMENT

    def parse(self, text: BoardText) -> Board:
        return rules.parse(text)

    def format(self, board: Board) -> str:
        return rules.format_board(board)

    def named_boards(self) -> list[NamedBoard]:
        return list(NAMED)

    def named_text(self, name: str) -> str | None:
        return rules.named(name)

    def moves(self, board: Board) -> list[Move]:
        return rules.legal_moves(board)

    def apply(self, board: Board, move: Move) -> Board:
        return rules.apply(board, move)

    def parse_solution(self, text: str) -> Any:
        stripped = text.strip()
        if stripped.startswith("[["):
            return super().parse_solution(stripped)
        return parse_moves(stripped)


class ClickomaniaGame(ClickomaniaBoards):
    name = "clickomania"
    title = "Clickomania: clear the board or prove it cannot be."
    score_name = "cells left"
    minimize = True
    default_time = 10.0

    def replay(self, board: Board, solution: Any, options: Mapping[str, Any]) -> Replayed[Board]:
        moves = moves_of(solution)
        replayed = rules.replay(board, moves)
        # a solution is played to the end: the cells left when no group is left
        return Replayed(replayed.final, replayed.cells_left, replayed.game_over, len(moves))

    def film(self, board: Board, solution: Any, options: Mapping[str, Any], **view: Any) -> Film:
        """The clicks frame by frame: the group of the next click outlined, the cells left."""
        from gridsolver.clickomania.film import film

        if solution is None:
            raise InputError("clickomania show: give the clicks to replay "
                             "(or a solve --json result that has them)")
        moves = moves_of(self.parse_solution(solution) if isinstance(solution, str) else solution)
        return film(board, moves, game=self.name, options=options)

    def warm(self, board: Board | None, options: Mapping[str, Any] | None, *, workers: int = 1) -> None:
        """The playout and the beam, and the exhaustive search too for boards small enough for it."""
        from gridsolver.clickomania.search import EXACT_MAX_CELLS
        from gridsolver.core.warm import once

        if board is None or board.width * board.height <= EXACT_MAX_CELLS:
            once(("clickomania", "exact"), _warm_exact)
        else:
            once(("clickomania", "beam"), _warm_beam)

    def search(self, board: Board, budget: Budget, *, seed: int, workers: int, cluster: str | None,
               progress: Progress | None, label: str, options: Mapping[str, Any]) -> Result:
        from gridsolver.clickomania.search import solve_clickomania

        return solve_clickomania(board, budget, label=label)


GAME = ClickomaniaGame()

#: A board that cannot be cleared (one or two cells stay) but has moves: a solve of it runs the beam,
#: then the exhaustive search (see ClickomaniaGame.warm). The kernels' types do not depend on the size.
WARM_BOARD = "112\n221"


def _warm_exact() -> None:
    from gridsolver.clickomania.search import solve_clickomania

    solve_clickomania(GAME.read(WARM_BOARD), Budget(time_s=None, memory_mb=16.0))


def _warm_beam() -> None:
    """A solve that stops after its first beam: one node is the whole budget."""
    from gridsolver.clickomania.search import solve_clickomania

    solve_clickomania(GAME.read(WARM_BOARD), Budget(time_s=None, memory_mb=16.0, nodes=1))

