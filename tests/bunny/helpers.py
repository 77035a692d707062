"""Shared test helpers: tiny boards, random programs and a brute-force optimum."""

from __future__ import annotations

import random
from functools import cache

from gridsolver.bunny.rules import Board, Loop, Program, board_from_text, simulate


def random_connected_board(rng: random.Random, rows: int, columns: int, fill: float = 0.7) -> Board:
    """A random board whose squares are connected to the start, with some marked ones."""
    grid = [[rng.random() < fill for _ in range(columns)] for _ in range(rows)]
    sr, sc = rng.randrange(rows), rng.randrange(columns)
    grid[sr][sc] = True
    # keep only the start's component
    keep = {(sr, sc)}
    todo = [(sr, sc)]
    while todo:
        r, c = todo.pop()
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < columns and grid[nr][nc] and (nr, nc) not in keep:
                keep.add((nr, nc))
                todo.append((nr, nc))
    lines = []
    for r in range(rows):
        line = ""
        for c in range(columns):
            if (r, c) == (sr, sc):
                line += "S"
            elif (r, c) in keep:
                line += "O" if rng.random() < 0.1 else "#"
            else:
                line += "."
        lines.append(line)
    return board_from_text("\n".join(lines), "random")


def random_program(rng: random.Random, tokens: int, max_count: int = 5, unbounded: bool = False) -> Program:
    out: list = []
    while tokens > 0:
        if tokens >= 2 and rng.random() < 0.3:
            inner = rng.randint(1, tokens - 1)
            count = None if unbounded and rng.random() < 0.2 else rng.randint(0, max_count)
            out.append(Loop(count, random_program(rng, inner, max_count, unbounded)))
            tokens -= inner + 1
        else:
            out.append(rng.choice("FLR"))
            tokens -= 1
    return tuple(out)


@cache
def all_programs(tokens: int, max_count: int) -> tuple[Program, ...]:
    """Every program of exactly ``tokens`` tokens with loop counts 2..max_count."""
    if tokens == 0:
        return ((),)
    out = []
    for a in range(1, tokens + 1):
        for item in _items(a, max_count):
            for rest in all_programs(tokens - a, max_count):
                out.append((item,) + rest)
    return tuple(out)


@cache
def _items(tokens: int, max_count: int) -> tuple:
    if tokens == 1:
        return ("F", "L", "R")
    return tuple(Loop(n, body) for body in all_programs(tokens - 1, max_count)
                 for n in range(2, max_count + 1))


def brute_force_optimum(board: Board, max_tokens: int, max_count: int) -> int | None:
    """The fewest tokens of a program (loop counts up to max_count) that solves the board."""
    for k in range(1, max_tokens + 1):
        if any(simulate(board, p).solved for p in all_programs(k, max_count)):
            return k
    return None


def naive_run(board: Board, program: Program) -> tuple[bool, int, list[int]]:
    """A direct interpreter with no cycle skipping (bounded loops only): solved, steps, order."""
    marked = set(board.premarked) | {board.start}
    order: list[int] = []
    state = [board.start, 0, 0]  # square, direction, steps

    def run(block: Program) -> bool:
        for token in block:
            if isinstance(token, Loop):
                for _ in range(token.count):
                    if run(token.body):
                        return True
                continue
            state[2] += 1
            if token == "F":
                state[0] = board.neighbour(state[0], state[1])
                if state[0] not in marked:
                    marked.add(state[0])
                    order.append(state[0])
                    if len(marked) == board.size:
                        return True
            elif token == "L":
                state[1] = (state[1] + 3) % 4
            else:
                state[1] = (state[1] + 1) % 4
        return False

    if len(marked) < board.size:
        run(program)
    return len(marked) == board.size, state[2], order
