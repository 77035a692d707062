"""Exceptions that stand for a user's mistake, not a bug.

The command-line front end catches :class:`InputError` (and its subclasses)
and prints its message on one line with exit code 2, never a traceback.
"""

from __future__ import annotations


class GridsolverError(Exception):
    """Base class of every error gridsolver raises on purpose."""


class InputError(GridsolverError):
    """Bad input: a malformed board, an unknown option value, an illegal move."""


class BoardError(InputError):
    """A board that cannot be read, with the position of the offending character.

    ``row`` and ``column`` are the cell's position inside the board, counted
    from 0 with row 0 at the top, as every game names cells (docs/reference/coordinates.md);
    ``board`` is its number in a source of several (from 1, as in the label
    ``file.txt#2``); ``line`` is the line of the source, counted from 1 as a
    text editor counts lines.
    """

    def __init__(
        self,
        source: str,
        message: str,
        *,
        board: int | None = None,
        row: int | None = None,
        column: int | None = None,
        line: int | None = None,
    ) -> None:
        self.source = source
        self.board = board
        self.row = row
        self.column = column
        self.line = line
        self.reason = message
        super().__init__(self._format())

    def _format(self) -> str:
        where = [self.source if self.board is None else f"{self.source}#{self.board}"]
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.column is not None:
            where.append(f"column {self.column}")
        text = ", ".join(where)
        if self.line is not None and self.row is not None:
            text += f" (line {self.line})"
        return f"{text}: {self.reason}"


class BudgetError(InputError):
    """A budget that cannot work, e.g. too little memory for any table."""


class ClusterLost(GridsolverError):
    """The Dask scheduler went away in the middle of a run; ``done`` holds the items finished before
    (index -> result), which the command prints before it exits with its own code."""

    def __init__(self, address: str, done: dict[int, object], cause: str) -> None:
        super().__init__(f"the Dask scheduler at {address} went away ({cause}); {len(done)} "
                         f"{'item had' if len(done) == 1 else 'items had'} finished")
        self.address = address
        self.done = done


def shown(value: object, limit: int = 50) -> str:
    """``repr(value)``, cut to ``limit`` characters: a message naming a huge value stays one short line."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"
