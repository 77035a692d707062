"""Board generators: random boards, and boards guaranteed to be clearable.

A clearable board is built backwards from the empty board by inserting
removable groups: each insertion puts a connected run of one colour into
the board (pushing the cells above it up, or opening a new column) such that
no cell next to the run has its colour. Removing that run is then a legal
move that gives back exactly the board before the insertion, so playing the
insertions in reverse order clears the board; :func:`clearable_board`
returns that sequence as a certificate.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import numpy as np

from gridsolver.clickomania.rules import ALPHABET, EMPTY, MAX_COLOURS, MAX_SIDE, Board, Move, shown
from gridsolver.core.errors import InputError

MAX_RUN = 4  # longest inserted run; short runs give boards like the random ones


def check_size(width: int, height: int, colours: int) -> None:
    """The limits of parsed boards: sides 1 to :data:`MAX_SIDE`, 1 to :data:`MAX_COLOURS` colours."""
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise InputError(f"board size {width}x{height}: width and height must be 1 to {MAX_SIDE} "
                         f"(clickomania and samegame boards are at most {MAX_SIDE}x{MAX_SIDE})")
    if not 1 <= colours <= MAX_COLOURS:
        raise InputError(f"{colours} colours: must be 1 to {MAX_COLOURS} (the most a board may use)")


# Nine digits at most: larger sizes are refused by check_size, and int() never refuses them.
SPEC = re.compile(r"([0-9]{1,9})x([0-9]{1,9})x([0-9]{1,9})")


def parse_spec(spec: str) -> tuple[int, int, int]:
    """``WIDTHxHEIGHTxCOLOURS`` (e.g. ``20x10x4``: 20 columns, 10 rows, 4 colours)."""
    match = SPEC.fullmatch(spec.strip().lower())
    if match is None:
        raise InputError(f"board spec {shown(spec)}: expected WIDTHxHEIGHTxCOLOURS, e.g. 20x10x4 "
                         f"(at most {MAX_SIDE}x{MAX_SIDE}x{MAX_COLOURS})")
    width, height, colours = (int(part) for part in match.groups())
    check_size(width, height, colours)
    return width, height, colours


def random_board(width: int, height: int, colours: int, seed: int) -> Board:
    """A full board with every cell drawn uniformly from ``colours`` colours."""
    check_size(width, height, colours)
    rng = np.random.default_rng(seed)
    return Board(rng.integers(0, colours, size=(height, width)).astype(np.int8))


@dataclass(frozen=True)
class Clearable:
    """A clearable board and a sequence of moves that clears it."""

    board: Board
    solution: list[Move]


def clearable_board(width: int, height: int, colours: int, seed: int,
                    max_restarts: int = 50) -> Clearable:
    """A full ``width`` x ``height`` board that can be cleared, built by inserting removable groups."""
    check_size(width, height, colours)
    if colours < 2 and width * height > 1:
        raise InputError("a clearable board of more than one group needs at least 2 colours")
    if width * height < 2:
        raise InputError(f"board size {width}x{height}: a clearable board needs at least 2 cells")
    rng = random.Random(seed)
    for _ in range(max_restarts):
        built = _build(width, height, colours, rng)
        if built is not None:
            return built
    raise InputError(f"could not build a clearable {width}x{height} board with {colours} colours "
                     f"(seed {seed}); try another seed")


def _build(width: int, height: int, colours: int, rng: random.Random) -> Clearable | None:
    columns: list[list[int]] = []
    moves: list[Move] = []
    failures = 0
    while not (len(columns) == width and all(len(c) == height for c in columns)):
        proposal = _propose(columns, width, height, rng)
        placed = None if proposal is None else _place(columns, proposal, height, colours, rng)
        if placed is None:
            failures += 1
            if failures > 2000:
                return None
            continue
        failures = 0
        columns, move = placed
        moves.append(move)
    grid = np.full((height, width), EMPTY, dtype=np.int8)
    for c, column in enumerate(columns):
        for h, colour in enumerate(column):
            grid[height - 1 - h, c] = colour
    return Clearable(Board(grid), moves[::-1])


# A proposal: (new columns to open at position p or None, list of (column, height) cells).
Proposal = tuple[int | None, list[tuple[int, int]]]


def _allowed_free(free: int, height: int) -> bool:
    # A column left with one free cell could only be filled by a horizontal run
    # through its neighbours, which may be full: never leave one (unless height is 1).
    return free != 1 or height == 1


def _propose(columns: list[list[int]], width: int, height: int, rng: random.Random) -> Proposal | None:
    kind = rng.random()
    open_slots = [c for c, col in enumerate(columns) if len(col) < height]
    if len(columns) < width and (kind < 0.2 or not open_slots):
        position = rng.randint(0, len(columns))
        if height >= 2 and (rng.random() < 0.5 or width - len(columns) < 2):
            run = rng.randint(2, min(MAX_RUN, height))
            if not _allowed_free(height - run, height):
                return None
            return position, [(position, h) for h in range(run)]
        if width - len(columns) < 2 or not _allowed_free(height - 1, height):
            return None
        run = rng.randint(2, min(MAX_RUN, width - len(columns)))
        if not _allowed_free(height - 1, height):
            return None
        return position, [(position + i, 0) for i in range(run)]
    if not open_slots:
        return None
    col = rng.choice(open_slots)
    free = height - len(columns[col])
    if kind < 0.6 and free >= 2:
        run = rng.randint(2, min(MAX_RUN, free))
        if not _allowed_free(free - run, height):
            return None
        at = rng.randint(0, len(columns[col]))
        return None, [(col, at + h) for h in range(run)]
    run = rng.randint(2, MAX_RUN)
    span = range(col, col + run)
    if col + run > len(columns):
        return None
    if any(not _allowed_free(height - len(columns[c]) - 1, height) or len(columns[c]) >= height
           for c in span):
        return None
    at = rng.randint(0, min(len(columns[c]) for c in span))
    return None, [(c, at) for c in span]


def _place(columns: list[list[int]], proposal: Proposal, height: int, colours: int,
           rng: random.Random) -> tuple[list[list[int]], Move] | None:
    position, cells = proposal
    new = list(columns)
    if position is not None:
        opened = len({c for c, _ in cells})
        new[position:position] = [[] for _ in range(opened)]
    for c in {c for c, _ in cells}:
        new[c] = list(new[c])
    marker = -2
    for c, h in sorted(cells, key=lambda cell: cell[1]):
        new[c].insert(h, marker)
    cell_set = set(cells)
    near = set()
    for c, h in cells:
        for nc, nh in ((c - 1, h), (c + 1, h), (c, h - 1), (c, h + 1)):
            if (nc, nh) in cell_set or not (0 <= nc < len(new)) or not (0 <= nh < len(new[nc])):
                continue
            near.add(new[nc][nh])
    choices = [k for k in range(colours) if k not in near]
    if not choices:
        return None
    colour = rng.choice(choices)
    for c, h in cells:
        new[c][h] = colour
    c, h = min(cells, key=lambda cell: (cell[0], cell[1]))
    return new, (height - 1 - h, c)


def describe(board: Board) -> str:
    """A one-line summary: size and colours used."""
    used = sorted({int(v) for v in board.grid.reshape(-1) if v != EMPTY})
    return f"{board.width}x{board.height}, colours {''.join(ALPHABET[v] for v in used)}"
