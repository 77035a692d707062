"""Loop folding: shorter programs that do exactly the same, by writing repeated runs as loops.

A run of n copies of one block X behaves as ``LOOP(n){X}``: a counted loop runs its body n
times, so folding never changes what a program does, hop for hop. It costs one token (the
LOOP) and saves the tokens of the other n - 1 copies. ``LOOP(n){LOOP(m){b}}`` is likewise
``LOOP(nm){b}``, one token shorter.

The exact search proves optimal programs of up to about 8 tokens; past that it stops by its
budget and answers with the greedy walk's program (:func:`gridsolver.bunny.search.greedy_program`),
which on regular boards is hundreds of tokens of the same few blocks over and over. Folding takes
such a program to tens of tokens: still best-found, never a proof.
"""

from __future__ import annotations

import time

import numpy as np

from gridsolver.bunny.rules import Loop, Program, Token, flatten, token_count
from gridsolver.core.budget import NO_LIMIT

#: The longest block looked for, in items: a pass costs about N x MAX_PERIOD comparisons, and the
#: blocks of walk programs are tens of items long.
MAX_PERIOD = 64


def fold(program: Program, deadline_ns: int = NO_LIMIT) -> Program:
    """``program`` with repeated runs written as counted loops, greedily by the tokens saved.

    Folding stops at ``deadline_ns`` (monotonic clock) with what it has folded: every step keeps
    the program's hops, so a partly folded program is as good an answer as the unfolded one.
    """
    items: list[Token] = [Loop(t.count, fold(t.body, deadline_ns)) if isinstance(t, Loop)
                          and t.count is not None else t for t in program]
    while time.monotonic_ns() < deadline_ns:
        run = _best_run(items, deadline_ns)
        if run is None:
            break
        start, period, copies = run
        block = fold(tuple(items[start:start + period]), deadline_ns)
        items[start:start + period * copies] = [_loop(copies, block)]
    return tuple(items)


def absorb_tail(program: Program) -> Program:
    """A whole program ending ``LOOP(n){X} P``, where P does the first hops of X, as ``LOOP(n+1){X}``.

    Only for whole programs: a run stops once every square is marked, so if the program solves
    its board within P, the extra loop pass solves it at the same hop and the rest of X never runs.
    Repeated while it applies. (Programs that do not solve their board may differ after it.)
    """
    changed = True
    while changed:
        changed = False
        for i, loop in enumerate(program[:-1]):  # the earliest such loop absorbs the longest tail
            if not isinstance(loop, Loop) or loop.count is None:
                continue
            body = flatten(loop.body)
            tail = flatten(program[i + 1:])
            if len(tail) <= len(body) and body[:len(tail)] == tail:
                program = program[:i] + (Loop(loop.count + 1, loop.body),)
                changed = True
                break
    return program


def _loop(count: int, body: Program) -> Loop:
    if len(body) == 1 and isinstance(body[0], Loop) and body[0].count is not None:
        return Loop(count * body[0].count, body[0].body)  # LOOP(n){LOOP(m){b}} = LOOP(nm){b}
    return Loop(count, body)


def _best_run(items: list[Token], deadline_ns: int) -> tuple[int, int, int] | None:
    """(start, period, copies) of the tandem repeat that saves the most tokens, or None (also when
    ``deadline_ns`` passes)."""
    n = len(items)
    if n < 2:
        return None
    ids: dict[Token, int] = {}
    codes = np.array([ids.setdefault(t, len(ids)) for t in items], np.int64)
    weight = np.concatenate(([0], np.cumsum([token_count((t,)) for t in items])))
    best, best_saving = None, 0
    for period in range(1, min(n // 2, MAX_PERIOD) + 1):
        if time.monotonic_ns() >= deadline_ns:
            return None
        # same[j]: item j equals item j + period; r of them in a row from j hold 1 + r // period copies
        same = np.concatenate(([False], codes[:-period] == codes[period:], [False]))
        edges = np.flatnonzero(same[1:] != same[:-1])
        for a, b in zip(edges[::2], edges[1::2], strict=True):
            length = int(b - a)
            if length < period:
                continue
            for start in range(int(a), int(a) + min(period, length - period + 1)):
                copies = 1 + (length - (start - int(a))) // period
                saving = (copies - 1) * int(weight[start + period] - weight[start]) - 1
                if saving > best_saving:
                    best, best_saving = (start, period, copies), saving
    return best
