"""The small interface every puzzle fills in (in the spirit of Simon Tatham's collection).

A game's ``rules`` module provides a :class:`Puzzle`: read and validate a
board (with an error naming row and column), format it back (printing then
parsing gives the same board), list and apply moves, and replay a solution.
Search algorithms live in other modules and use only this interface and the
game's kernels, so a rule change touches one file.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Generic, Protocol, TypeVar

from gridsolver.core.boards import BoardText

BoardT = TypeVar("BoardT")
MoveT = TypeVar("MoveT")


class Puzzle(Protocol, Generic[BoardT, MoveT]):
    """What every game module offers."""

    name: str
    #: Lines starting with this are comments in board files (None: no comments).
    comment: str | None

    def parse(self, board: BoardText) -> BoardT:
        """Read and validate a board; raise ``board.error(...)`` on bad input."""
        ...

    def format(self, board: BoardT) -> str:
        """The board as text that :meth:`parse` reads back to the same board."""
        ...

    def legal_moves(self, board: BoardT) -> Iterable[MoveT]:
        ...

    def apply(self, board: BoardT, move: MoveT) -> BoardT:
        """The board after ``move``; raise InputError for an illegal move."""
        ...

    def named(self, name: str) -> str | None:
        """Text of a board shipped with the package, or None."""
        ...


def replay(puzzle: Puzzle[BoardT, MoveT], board: BoardT, moves: Sequence[MoveT]) -> BoardT:
    """Apply ``moves`` in order under the rules; raises on the first illegal one."""
    for move in moves:
        board = puzzle.apply(board, move)
    return board
