"""Plain-Python reference of the behaviour machinery (tested against the kernels).

A behaviour is ``(f, v)``: ``f[s]`` the end state of each start state
``s = square * 4 + direction``, ``v[s]`` the frozenset of squares stood on.
"""

from __future__ import annotations

from gridsolver.bunny.rules import Board, Loop, Program

Behaviour = tuple[tuple[int, ...], tuple[frozenset[int], ...]]


def states(board: Board) -> int:
    return 4 * board.size


def identity(board: Board) -> Behaviour:
    n = states(board)
    return tuple(range(n)), tuple(frozenset({s // 4}) for s in range(n))


def primitive(board: Board, token: str) -> Behaviour:
    """The behaviour of F, L or R."""
    f, v = [], []
    for s in range(states(board)):
        square, direction = divmod(s, 4)
        if token == "F":
            square = board.neighbour(square, direction)
        elif token == "L":
            direction = (direction + 3) % 4
        elif token == "R":
            direction = (direction + 1) % 4
        else:
            raise ValueError(token)
        f.append(square * 4 + direction)
        v.append(frozenset({s // 4, square}))
    return tuple(f), tuple(v)


def compose(a: Behaviour, b: Behaviour) -> Behaviour:
    """``a`` then ``b``."""
    fa, va = a
    fb, vb = b
    return tuple(fb[m] for m in fa), tuple(va[s] | vb[fa[s]] for s in range(len(fa)))


def repeat(body: Behaviour, count: int, board: Board) -> Behaviour:
    result = identity(board)
    for _ in range(count):
        result = compose(result, body)
    return result


def behaviour(board: Board, program: Program) -> Behaviour:
    """The behaviour of a program with bounded loops only."""
    result = identity(board)
    for token in program:
        if isinstance(token, Loop):
            if token.count is None:
                raise ValueError("unbounded loops have no finite behaviour")
            part = repeat(behaviour(board, token.body), token.count, board)
        else:
            part = primitive(board, token)
        result = compose(result, part)
    return result


def to_arrays(board: Board, beh: Behaviour):
    """The kernel representation (int32 f, uint64 bitsets v) of a behaviour."""
    import numpy as np

    f, v = beh
    words = (board.size + 63) // 64
    out_v = np.zeros((len(f), words), np.uint64)
    for s, squares in enumerate(v):
        for q in squares:
            out_v[s, q >> 6] |= np.uint64(1 << (q & 63))
    return np.array(f, np.int32), out_v


def count_bound(f: tuple[int, ...]) -> int:
    """Counts up to this give every behaviour of ``LOOP(n){b}`` (b with end states f): the longest
    tail to a cycle, plus the longest cycle, plus the lcm of the cycle lengths, minus one."""
    import math

    cycles: set[tuple[int, ...]] = set()
    tail = 0
    for start in range(len(f)):
        path = [start]
        seen = {start: 0}
        while f[path[-1]] not in seen:
            seen[f[path[-1]]] = len(path)
            path.append(f[path[-1]])
        entry = seen[f[path[-1]]]  # the cycle starts at this step of the path
        cycles.add(tuple(sorted(path[entry:])))
        tail = max(tail, entry)
    lengths = [len(c) for c in cycles]
    return tail + max(lengths) + math.lcm(*lengths) - 1
