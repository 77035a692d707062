"""Plain-Python references for the kernels: slow, short and obviously right.

Tests compare the numba kernels with these on small boards: jump generation,
the most jumps, whether a finish is reachable and the fewest moves.
"""

from __future__ import annotations

from functools import cache

from gridsolver.pegs.rules import Board, triples


def jump_codes(board: Board) -> list[int]:
    """Codes (from_bit * D + direction) of every legal jump, as the kernels number them."""
    d = len(board.directions)
    out = []
    for r, c in board.peg_cells():
        for k, (dr, dc) in enumerate(board.directions):
            over, to = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
            if board.has_peg(over) and board.is_hole(to) and not board.has_peg(to):
                out.append(board.index((r, c)) * d + k)
    return sorted(out)


def _successors(board: Board) -> list[tuple[int, int, int]]:
    """(new pegs, from bit, landing bit) for every legal jump."""
    out = []
    for a, b, c in triples(board):
        if board.pegs >> a & 1 and board.pegs >> b & 1 and not board.pegs >> c & 1:
            out.append((board.pegs ^ (1 << a) ^ (1 << b) ^ (1 << c), a, c))
    return out


def most_jumps(board: Board) -> int:
    """The most jumps possible from ``board`` (exhaustive, memoised on positions)."""

    @cache
    def best(pegs: int) -> int:
        return max((1 + best(p) for p, _, _ in _successors(board.with_pegs(pegs))), default=0)

    return best(board.pegs)


def can_finish(board: Board, finish_bit: int) -> bool:
    """True when some game ends with one peg, in bit ``finish_bit``."""

    @cache
    def win(pegs: int) -> bool:
        if pegs.bit_count() == 1:
            return pegs == 1 << finish_bit
        return any(win(p) for p, _, _ in _successors(board.with_pegs(pegs)))

    return win(board.pegs)


def fewest_moves(board: Board, finish_bit: int | None = None) -> int | None:
    """Fewest moves to one peg (in ``finish_bit`` when given); None when impossible.

    The state is (pegs, bit of the peg that moved last): that peg's next jump is free.
    """
    infinity = 1 << 30

    @cache
    def cost(pegs: int, last: int) -> int:
        if pegs.bit_count() == 1:
            return 0 if finish_bit is None or pegs == 1 << finish_bit else infinity
        best = infinity
        for p, a, c in _successors(board.with_pegs(pegs)):
            best = min(best, cost(p, c) + (0 if a == last else 1))
        return best

    result = cost(board.pegs, -1)
    return None if result >= infinity else result
