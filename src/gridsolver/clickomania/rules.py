"""The Clickomania board rules in plain Python: the reference every board kernel is tested against.

A board is a grid of colours, top row first. A move names one cell (row,
column, 0-based from the top-left) of a group of at least two orthogonally
connected cells of one colour; the group is removed, every column settles
(cells fall with no gaps under them) and empty columns close to the left.

Colours are written as the characters ``0``-``9`` and ``a``-``z`` (``.`` is
an empty cell); a board may use at most :data:`MAX_COLOURS` different ones.
Internally a colour is its index in :data:`ALPHABET` and an empty cell is -1.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from gridsolver.core.boards import BoardText, check_sides, parse_grid, read_package_text, split_boards
from gridsolver.core.errors import InputError
from gridsolver.core.errors import shown as shown  # re-exported: the game modules quote values with it

ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
EMPTY = -1
MAX_COLOURS = 20
#: The most rows and columns of a board. The kernels copy a board of
#: width x height cells per beam entry and per search depth; at 64 x 64 = 4,096 cells the searches
#: still fit their tables in the default --memory and answer within --time.
MAX_SIDE = 64
COMMENT = "#"

Move = tuple[int, int]

#: Boards shipped with the package, by name.
NAMED_SETS = {"duel-5x5": "duel-5x5.txt", "standard-20": "standard-20.txt"}


@dataclass(frozen=True)
class Board:
    """A settled board: ``grid[row, col]`` is a colour index or -1, row 0 at the top."""

    grid: np.ndarray

    @property
    def height(self) -> int:
        return int(self.grid.shape[0])

    @property
    def width(self) -> int:
        return int(self.grid.shape[1])

    @property
    def cells_left(self) -> int:
        return int((self.grid != EMPTY).sum())

    def colour_counts(self) -> dict[int, int]:
        values, counts = np.unique(self.grid[self.grid != EMPTY], return_counts=True)
        return {int(v): int(c) for v, c in zip(values, counts, strict=True)}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and np.array_equal(self.grid, other.grid)

    def __hash__(self) -> int:
        return hash((self.grid.shape, self.grid.tobytes()))


def parse(board: BoardText) -> Board:
    """Read a board: equal-width rows of colour characters and ``.``; floating cells settle."""
    check_size(board)
    alphabet = {ch: i for i, ch in enumerate(ALPHABET)}
    alphabet["."] = EMPTY
    grid = parse_grid(board, alphabet, max_rows=MAX_SIDE, max_columns=MAX_SIDE)
    colours = np.unique(grid[grid != EMPTY])
    if colours.size == 0:
        raise board.error("the board has no coloured cell (it is empty)")
    if colours.size > MAX_COLOURS:
        names = "".join(ALPHABET[c] for c in colours)
        raise board.error(f"{colours.size} colours ({names}), more than the {MAX_COLOURS} supported")
    return Board(settle(grid))


def check_size(board: BoardText) -> None:
    """Refuse a board of more than :data:`MAX_SIDE` rows or columns before any array is made."""
    check_sides(board, MAX_SIDE, "clickomania and samegame boards")




def from_text(text: str, source: str = "<string>") -> Board:
    """Parse a single board from a string (convenience for tests and the API)."""
    return parse(split_boards(text, source, COMMENT)[0])


def format_board(board: Board) -> str:
    """The board as text rows; :func:`parse` reads it back to the same board."""
    return "\n".join("".join("." if v == EMPTY else ALPHABET[v] for v in row) for row in board.grid)


def named(name: str) -> str | None:
    """Text of a board set shipped with the package (``duel-5x5``, ``standard-20``), or None."""
    filename = NAMED_SETS.get(name)
    return None if filename is None else read_package_text("gridsolver.clickomania", f"data/{filename}")


def settle(grid: np.ndarray) -> np.ndarray:
    """Let cells fall to the bottom of their column, then close empty columns to the left.

    Whole columns at once (a 64x64 game of a thousand moves replays in a fraction
    of a second, where a loop per column took over a second): a stable sort of
    each column on "filled" puts its empty cells on top and keeps the order of
    the rest; columns with no cell are dropped and the others move left.
    """
    filled = grid != EMPTY
    keep = filled.any(axis=0)
    columns, filled = grid[:, keep], filled[:, keep]
    fallen = np.take_along_axis(columns, np.argsort(filled, axis=0, kind="stable"), axis=0)
    out = np.full_like(grid, EMPTY)
    out[:, :fallen.shape[1]] = fallen
    return out


def group_at(board: Board, move: Move) -> list[Move]:
    """Every cell of the group containing ``move`` (a flood fill)."""
    row, col = move
    colour = board.grid[row, col]
    seen = {move}
    stack = [move]
    while stack:
        r, c = stack.pop()
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if (0 <= nr < board.height and 0 <= nc < board.width and (nr, nc) not in seen
                    and board.grid[nr, nc] == colour):
                seen.add((nr, nc))
                stack.append((nr, nc))
    return sorted(seen)


def groups(board: Board) -> list[list[Move]]:
    """Every group (including single cells), in order of their canonical cell."""
    seen: set[Move] = set()
    found = []
    for col in range(board.width):
        for row in range(board.height - 1, -1, -1):
            if board.grid[row, col] != EMPTY and (row, col) not in seen:
                group = group_at(board, (row, col))
                seen.update(group)
                found.append(group)
    return found


def canonical(group: Iterable[Move]) -> Move:
    """The cell naming a group: in its leftmost column, the lowest one (what the kernels report)."""
    return min(group, key=lambda cell: (cell[1], -cell[0]))


def legal_moves(board: Board) -> list[Move]:
    """The canonical cell of every group of two or more cells."""
    return [canonical(g) for g in groups(board) if len(g) >= 2]


def is_over(board: Board) -> bool:
    return not legal_moves(board)


def check_move(board: Board, move: Sequence[int]) -> Move:
    """Validate a move; raise InputError naming it if it is not legal."""
    if len(move) != 2:
        raise InputError(f"move {tuple(move)}: expected (row, column)")
    row, col = int(move[0]), int(move[1])
    if not (0 <= row < board.height and 0 <= col < board.width):
        raise InputError(f"move ({row}, {col}): outside the {board.height}x{board.width} board")
    if board.grid[row, col] == EMPTY:
        raise InputError(f"move ({row}, {col}): the cell is empty")
    if len(group_at(board, (row, col))) < 2:
        raise InputError(f"move ({row}, {col}): a single cell cannot be removed")
    return row, col


def apply(board: Board, move: Sequence[int]) -> Board:
    """The board after removing the group at ``move``; InputError if that is not a legal move."""
    cell = check_move(board, move)
    grid = board.grid.copy()
    for r, c in group_at(board, cell):
        grid[r, c] = EMPTY
    return Board(settle(grid))


@dataclass(frozen=True)
class Replay:
    """What replaying a move sequence under the rules gives."""

    final: Board
    cells_left: int
    game_over: bool


def replay(board: Board, moves: Sequence[Sequence[int]]) -> Replay:
    """Play ``moves`` under the rules; raises InputError on an illegal move."""
    for move in moves:
        board = apply(board, move)
    return Replay(board, board.cells_left, is_over(board))


class Clickomania:
    """The :class:`gridsolver.core.game.Puzzle` interface for Clickomania's boards."""

    name = "clickomania"
    comment = COMMENT

    def parse(self, board: BoardText) -> Board:
        return parse(board)

    def format(self, board: Board) -> str:
        return format_board(board)

    def legal_moves(self, board: Board) -> list[Move]:
        return legal_moves(board)

    def apply(self, board: Board, move: Move) -> Board:
        return apply(board, move)

    def named(self, name: str) -> str | None:
        return named(name)


PUZZLE = Clickomania()
