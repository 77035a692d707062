"""Random comesolo boards (``gridsolver pegs random``)."""

from __future__ import annotations

import random

from gridsolver.core.errors import InputError
from gridsolver.pegs.rules import MAX_SIDE, Board


def random_board(rows: int, cols: int, density: float, *, seed: int) -> Board:
    """A comesolo board: every cell a hole, each holding a peg with chance ``density``.

    At least one hole is empty and at least two hold pegs, so the board parses back.
    """
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE) or rows * cols < 3:
        raise InputError(f"random board {rows}x{cols}: random boards go from 1x3 up to {MAX_SIDE}x{MAX_SIDE} "
                         f"(pegs boards are at most {MAX_SIDE}x{MAX_SIDE})")
    if isinstance(density, bool) or not isinstance(density, int | float) or not 0.0 < density < 1.0:
        raise InputError(f"--density {density!r}: expected a number above 0 and below 1 "
                         "(the chance that a hole holds a peg)")
    rng = random.Random(seed)
    board = Board(rows, cols, 0, 0, "diagonal", comesolo=True)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    pegs = [rng.random() < density for _ in cells]
    if all(pegs):
        pegs[rng.randrange(len(cells))] = False
    while sum(pegs) < 2:
        pegs[rng.randrange(len(cells))] = True
    holes = sum(1 << board.index(cell) for cell in cells)
    peg_mask = sum(1 << board.index(cell) for cell, p in zip(cells, pegs, strict=True) if p)
    return Board(rows, cols, holes, peg_mask, "diagonal", comesolo=True)
