"""Random boards made by running a random program on an open plane.

Every hop of the generating program lands on a square of the board it
makes, so that program solves the board: the optimum is at most its token
count, and the board is always solvable. The generator never tells the
solver anything; the program is only returned for tests and benchmarks.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gridsolver.bunny.rules import DELTAS, START_DIRECTION, Board, Loop, Program, token_count
from gridsolver.core.errors import InputError

MIN_SQUARES, MAX_SQUARES = 2, 4000


@dataclass(frozen=True)
class Generated:
    board: Board
    program: Program  # a program that solves the board (an upper bound on its optimum)


def _random_block(rng: random.Random, tokens: int, depth: int) -> list:
    block: list = []
    while tokens > 0:
        if tokens >= 2 and depth < 3 and rng.random() < 0.35:
            inner = rng.randint(1, min(tokens - 1, 4))
            block.append(Loop(rng.randint(2, 12), tuple(_random_block(rng, inner, depth + 1))))
            tokens -= inner + 1
        else:
            block.append(rng.choice("FFFLR"))
            tokens -= 1
    return block


def _trace(body: Program, squares: int, iterations: int | None = None) -> tuple[list[tuple[int, int]], int]:
    """Cells visited on the open plane (in order) by repeating ``body``, and the iterations run.

    Stops at ``squares`` cells, after ``iterations`` iterations, or when the
    bunny is back in a pose (position, direction) it had at the start of an
    earlier iteration: from there the trace repeats and can never grow.
    """
    position = (0, 0)
    direction = START_DIRECTION
    seen = {position}
    order = [position]

    class Enough(Exception):
        pass

    def run(block: Program) -> None:
        nonlocal position, direction
        for token in block:
            if isinstance(token, Loop):
                for _ in range(token.count or 0):
                    run(token.body)
            elif token == "F":
                dr, dc = DELTAS[direction]
                position = (position[0] + dr, position[1] + dc)
                if position not in seen:
                    seen.add(position)
                    order.append(position)
                    if len(order) >= squares:
                        raise Enough
            elif token == "L":
                direction = (direction + 3) % 4
            else:
                direction = (direction + 1) % 4

    poses = set()
    done = 0
    try:
        while iterations is None or done < iterations:
            pose = (position, direction)
            if pose in poses:
                break
            poses.add(pose)
            run(body)
            done += 1
    except Enough:
        done += 1
    return order, done


def random_board(seed: int, squares: int = 100, tokens: int | None = None, name: str | None = None,
                 attempts: int = 2000) -> Generated:
    """A board of exactly ``squares`` squares traced by a random program (same seed, same board)."""
    if not MIN_SQUARES <= squares <= MAX_SQUARES:
        raise InputError(f"--squares must be between {MIN_SQUARES} and {MAX_SQUARES}, got {squares}")
    rng = random.Random(seed)
    for _ in range(attempts):
        size = tokens or rng.randint(4, 9)
        body = tuple(_random_block(rng, size - 1, 1))
        if "F" not in repr(body):
            continue
        # The loop runs until the board has enough squares; that many iterations is its count.
        cells, count = _trace(body, squares)
        if len(cells) < squares:
            continue
        top = min(r for r, _ in cells)
        left = min(c for _, c in cells)
        placed = [(r - top, c - left) for r, c in cells]
        rows = max(r for r, _ in placed) + 1
        columns = max(c for _, c in placed) + 1
        if not _interesting(rows, columns, squares):
            continue
        program: Program = (Loop(count, body),)
        board = Board(tuple(sorted(placed)), frozenset(), 0, rows, columns, name or f"random-{seed}")
        start = board.index(*placed[0])
        board = Board(board.squares, frozenset({start}), start, rows, columns, board.name)
        return Generated(board, program)
    raise InputError(f"seed {seed}: no random program reached {squares} squares "
                     f"in {attempts} attempts; try another seed or size")


def _interesting(rows: int, columns: int, squares: int) -> bool:
    """A board that is not a thin line or a sparse scatter: both sides and the density reasonable."""
    side = max(2, int(squares ** 0.5 / 2))
    return rows >= side and columns >= side and squares >= 0.25 * rows * columns


def describe(generated: Generated) -> str:
    return f"{generated.board.size} squares, made by a {token_count(generated.program)}-token program"
