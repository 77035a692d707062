"""Program notation: ``F L R``, ``LOOP(n){...}`` and unbounded ``LOOP{...}``.

Tokens are separated by spaces; braces and parentheses may also be written
without spaces (``LOOP(3){F L}``). :func:`format_program` prints the
canonical form and ``parse_program(format_program(p)) == p`` for every program.
"""

from __future__ import annotations

import re

from gridsolver.bunny.rules import Loop, Program
from gridsolver.core.errors import InputError

_LEXEME = re.compile(r"\s*(LOOP\s*\(\s*(\d+)\s*\)\s*\{|LOOP\s*\{|\}|F|L|R|[^\s{}]+|\{)", re.IGNORECASE)


def format_program(program: Program) -> str:
    """The canonical text of a program."""
    parts = []
    for token in program:
        if isinstance(token, Loop):
            head = "LOOP" if token.count is None else f"LOOP({token.count})"
            parts.append(f"{head}{{{format_program(token.body)}}}")
        else:
            parts.append(token)
    return " ".join(parts)


def parse_program(text: str) -> Program:
    """Read a program; raise InputError naming the offending text and its position."""
    stack: list[tuple[int | None, list, int]] = []
    current: list = []
    position = 0
    text = text.rstrip()
    while position < len(text):
        match = _LEXEME.match(text, position)
        if match is None:  # only trailing whitespace is left
            break
        lexeme, count = match.group(1), match.group(2)
        where = match.start(1) + 1
        upper = lexeme.upper()
        if upper in ("F", "L", "R"):
            current.append(upper)
        elif upper.startswith("LOOP"):
            stack.append((None if count is None else int(count), current, where))
            current = []
        elif lexeme == "}":
            if not stack:
                raise InputError(f"program: unmatched '}}' at character {where}")
            loop_count, outer, _ = stack.pop()
            outer.append(Loop(loop_count, tuple(current)))
            current = outer
        else:
            raise InputError(f"program: unknown token {lexeme!r} at character {where} "
                             "(expected F, L, R, LOOP(n){ or LOOP{ or })")
        position = match.end(1)
    if stack:
        raise InputError(f"program: the LOOP opened at character {stack[-1][2]} is never closed")
    return tuple(current)
