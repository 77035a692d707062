"""Random boards made by running a random program on an open plane.

Every hop of the generating program lands on a square of the board it
makes, so that program solves the board: the optimum is at most its token
count, and the board is always solvable. The generator never tells the
solver anything; the program is only returned for tests and benchmarks.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from gridsolver.bunny.rules import DELTAS, MAX_SQUARES, START_DIRECTION, Board, Loop, Program, token_count
from gridsolver.core.errors import InputError

MIN_SQUARES = 2  # random boards obey the board limit, MAX_SQUARES, like every parsed board


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


#: Up to this many squares, the trace of one random loop is dense enough within the attempts; past
#: it such traces are nearly always thin lines, so after :data:`PLAIN_TRIES` tries the generator
#: draws snakes: a random row pattern run across, a U-turn, the same pattern back, another U-turn.
PLAIN_UP_TO = 400
PLAIN_TRIES = 100


def random_board(squares: int = 100, *, seed: int, tokens: int | None = None, name: str | None = None,
                 attempts: int = 2000) -> Generated:
    """A board of exactly ``squares`` squares traced by a random program (same seed, same board)."""
    if (isinstance(squares, bool) or not isinstance(squares, int)
            or not MIN_SQUARES <= squares <= MAX_SQUARES):
        raise InputError(f"--squares must be between {MIN_SQUARES} and {MAX_SQUARES}, got {squares!r} "
                         f"(bunny boards have at most {MAX_SQUARES:,} squares)")
    rng = random.Random(seed)
    plain = attempts if squares <= PLAIN_UP_TO else min(attempts, PLAIN_TRIES)
    for attempt in range(attempts):
        body = _plain_body(rng, tokens) if attempt < plain else _snake_body(rng, squares)
        if "F" not in repr(body):
            continue
        made = _traced(body, squares, name or f"random-{seed}")
        if made is not None:
            return made
    raise InputError(f"seed {seed}: no random program reached {squares} squares "
                     f"in {attempts} attempts; try another seed or size")


def _plain_body(rng: random.Random, tokens: int | None) -> Program:
    size = tokens or rng.randint(4, 9)
    return tuple(_random_block(rng, size - 1, 1))


def _snake_body(rng: random.Random, squares: int) -> Program:
    """A random row pattern run ``width`` times, a U-turn, the pattern back, a U-turn the other way."""
    row = tuple(_random_block(rng, rng.randint(1, 3), 2))
    side = math.isqrt(squares)
    width = rng.randint(max(2, side // 2), 2 * side) // max(1, repr(row).count("F"))
    turn, back = ("R", "L") if rng.random() < 0.5 else ("L", "R")
    return (Loop(max(1, width), row), turn, "F", turn, Loop(max(1, width), row), back, "F", back)


def _traced(body: Program, squares: int, name: str) -> Generated | None:
    """The board ``LOOP(n){body}`` traces up to ``squares`` squares, or None when it is not interesting."""
    # The loop runs until the board has enough squares; that many iterations is its count.
    cells, count = _trace(body, squares)
    if len(cells) < squares:
        return None
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    placed = [(r - top, c - left) for r, c in cells]
    rows = max(r for r, _ in placed) + 1
    columns = max(c for _, c in placed) + 1
    if not _interesting(rows, columns, squares):
        return None
    program: Program = (Loop(count, body),)
    board = Board(tuple(sorted(placed)), frozenset(), 0, rows, columns, name)
    start = board.index(*placed[0])
    board = Board(board.squares, frozenset({start}), start, rows, columns, board.name)
    return Generated(board, program)


def _interesting(rows: int, columns: int, squares: int) -> bool:
    """A board that is not a thin line or a sparse scatter: both sides and the density reasonable.

    Two squares can only lie in a line: for them one side of one square is enough.
    """
    side = 1 if squares < 3 else max(2, int(squares ** 0.5 / 2))
    return rows >= side and columns >= side and squares >= 0.25 * rows * columns


def describe(generated: Generated) -> str:
    return f"{generated.board.size} squares, made by a {token_count(generated.program)}-token program"
