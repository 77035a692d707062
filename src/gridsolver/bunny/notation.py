"""Program notation: ``F L R``, ``LOOP(n){...}`` and unbounded ``LOOP{...}``.

Tokens are separated by spaces; braces and parentheses may also be written
without spaces (``LOOP(3){F L}``). :func:`format_program` prints the
canonical form and ``parse_program(format_program(p)) == p`` for every program.
"""

from __future__ import annotations

import re

from gridsolver.bunny.rules import Loop, Program, shown
from gridsolver.core.errors import InputError

_LEXEME = re.compile(r"\s*(?:(?P<count_loop>LOOP\s*\(\s*(?P<count>[0-9]+)\s*\)\s*\{)|(?P<loop>LOOP\s*\{)"
                     r"|(?P<close>\})|(?P<move>[FLR])|(?P<other>[^\s{}]+|\{))", re.IGNORECASE)

#: Loops nested deeper are refused: the simulator, the printer and ``show`` recurse once per level.
MAX_NESTING = 100
#: Tokens (F, L, R and LOOP) a program may have; a walk program for a 4,000-square board has fewer
#: than 25,000, and simulating stays well under a second.
MAX_TOKENS = 100_000
#: The largest loop count: cycles are skipped whole, so any count runs fast, but a count past
#: this is no longer a 64-bit integer anywhere else.
MAX_COUNT = 10**18


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
    """Read a program; raise InputError naming the offending text and its position.

    The parser keeps its own stack (no recursion) and refuses programs past
    :data:`MAX_NESTING`, :data:`MAX_TOKENS` or :data:`MAX_COUNT` before
    building anything larger.
    """
    stack: list[tuple[int | None, list, int]] = []
    current: list = []
    tokens = 0
    position = 0
    text = text.rstrip()
    while position < len(text):
        match = _LEXEME.match(text, position)
        if match is None:  # only trailing whitespace is left
            break
        where = match.start(match.lastindex or 0) + 1
        kind = match.lastgroup
        if kind in ("move", "count_loop", "loop"):
            tokens += 1
            if tokens > MAX_TOKENS:
                raise InputError(f"program: more than {MAX_TOKENS:,} tokens (at character {where}); "
                                 f"programs have at most {MAX_TOKENS:,}")
        if kind == "move":
            current.append(match.group("move").upper())
        elif kind in ("count_loop", "loop"):
            if len(stack) >= MAX_NESTING:
                raise InputError(f"program: the LOOP at character {where} is nested {len(stack) + 1} deep; "
                                 f"loops nest at most {MAX_NESTING} deep")
            stack.append((_count(match.group("count"), where), current, where))
            current = []
        elif kind == "close":
            if not stack:
                raise InputError(f"program: unmatched '}}' at character {where}")
            loop_count, outer, _ = stack.pop()
            outer.append(Loop(loop_count, tuple(current)))
            current = outer
        else:
            raise InputError(f"program: unknown token {shown(match.group('other'))} at character {where} "
                             "(expected F, L, R, LOOP(n){ or LOOP{ or })")
        position = match.end()
    if stack:
        raise InputError(f"program: the LOOP opened at character {stack[-1][2]} is never closed")
    return tuple(current)


def _count(digits: str | None, where: int) -> int | None:
    """A loop's count (None for ``LOOP{``), refused past :data:`MAX_COUNT` before converting it."""
    if digits is None:
        return None
    significant = digits.lstrip("0")
    if len(significant) > len(str(MAX_COUNT)) or int(significant or "0") > MAX_COUNT:
        many = len(significant)
        text = significant if many <= 30 else f"{significant[:12]}... ({many:,} digits)"
        raise InputError(f"program: loop count {text} at character {where} is more than 10^18; "
                         "use LOOP{...} for a loop that runs until the board is done")
    return int(significant or "0")
