"""A plain walk program: an upper bound that exists for every solvable board.

Depth-first through the squares (turning as needed, hopping, and hopping back
on the way out), with runs of three or more hops written as ``LOOP(n){F}``.
It is far from short; it gives the search a bound to stop at and a
best-found answer when the budget runs out before anything shorter is found.
"""

from __future__ import annotations

from gridsolver.bunny.rules import START_DIRECTION, Board, Loop, Program


def _turns(current: int, wanted: int) -> list[str]:
    delta = (wanted - current) % 4
    return [[], ["R"], ["R", "R"], ["L"]][delta]


def walk_program(board: Board) -> Program:
    """A loop-light program that visits every square reachable from the start."""
    tokens: list[str] = []
    direction = START_DIRECTION
    remaining = set(board.targets())
    seen = {board.start}

    def hop(towards: int) -> None:
        nonlocal direction
        tokens.extend(_turns(direction, towards))
        tokens.append("F")
        direction = towards

    # An explicit stack of (square, next direction to try, direction we came in by).
    stack: list[tuple[int, int, int | None]] = [(board.start, 0, None)]
    while stack and remaining:
        square, tried, came = stack.pop()
        if tried < 4:
            stack.append((square, tried + 1, came))
            nxt = board.neighbour(square, tried)
            if nxt != square and nxt not in seen:
                seen.add(nxt)
                remaining.discard(nxt)
                hop(tried)
                stack.append((nxt, 0, tried))
        elif came is not None and remaining:
            hop((came + 2) % 4)
    return _compress(tokens)


def _compress(tokens: list[str]) -> Program:
    out: list = []
    i = 0
    while i < len(tokens):
        j = i
        while j < len(tokens) and tokens[j] == tokens[i]:
            j += 1
        run = j - i
        if tokens[i] == "F" and run >= 3:
            out.append(Loop(run, ("F",)))
        else:
            out.extend(tokens[i:j])
        i = j
    return tuple(out)


def path_to_nearest(board: Board, square: int, direction: int, wanted: set[int]) -> list[str]:
    """The fewest F/L/R tokens that take the bunny from (square, direction) onto a wanted square."""
    from collections import deque

    start = (square, direction)
    previous: dict[tuple[int, int], tuple[tuple[int, int], str] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if state[0] in wanted:
            tokens = []
            while previous[state] is not None:
                state, token = previous[state]
                tokens.append(token)
            return tokens[::-1]
        sq, d = state
        for token, nxt in (("F", (board.neighbour(sq, d), d)), ("L", (sq, (d + 3) % 4)),
                           ("R", (sq, (d + 1) % 4))):
            if nxt not in previous:
                previous[nxt] = (state, token)
                queue.append(nxt)
    return []
