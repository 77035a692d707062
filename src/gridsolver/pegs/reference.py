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


def one_move(board: Board, pegs: int) -> set[int]:
    """Every position one move (one or more jumps by the same peg) after ``pegs``."""
    seen: set[tuple[int, int]] = set()  # (position, bit of the moving peg)
    todo = [(p, c) for p, _, c in _successors(board.with_pegs(pegs))]
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        p, peg = state
        todo += [(q, c) for q, a, c in _successors(board.with_pegs(p)) if a == peg]
    return {p for p, _ in seen}


def move_distances(board: Board, ends: set[int], reverse: bool = False) -> dict[int, int]:
    """Fewest moves from ``board.pegs`` to each position (``reverse``: from each position to one of
    ``ends``, by trying every position of the board: tiny boards only)."""
    if not reverse:
        frontier, dist = {board.pegs}, {board.pegs: 0}
        step = lambda p: one_move(board, p)  # noqa: E731
    else:
        before: dict[int, set[int]] = {}
        holes = [i for i in range(board.bits) if board.holes >> i & 1]
        for k in range(1 << len(holes)):
            p = sum(1 << holes[i] for i in range(len(holes)) if k >> i & 1)
            for q in one_move(board, p):
                before.setdefault(q, set()).add(p)
        frontier, dist = set(ends), dict.fromkeys(ends, 0)
        step = lambda q: before.get(q, set())  # noqa: E731
    level = 0
    while frontier:
        level += 1
        nxt = set()
        for p in frontier:
            for q in step(p):
                if q not in dist:
                    dist[q] = level
                    nxt.add(q)
        frontier = nxt
    return dist


def canonical_children(positions: list[int], jumps: list[tuple[int, int, int]], perms: list[tuple[int, ...]],
                       weights: list[list[float]], floors: list[float]) -> set[int]:
    """kernels.endgame.expand in plain Python: every position one jump after one of ``positions`` whose pagoda
    weight under each ``weights[k]`` is at least ``floors[k]``, as its smallest image under ``perms`` (bit
    maps)."""
    out = set()
    for p in positions:
        for a, b, c in jumps:
            if p >> a & 1 and p >> b & 1 and not p >> c & 1:
                child = p ^ (1 << a) ^ (1 << b) ^ (1 << c)
                if any(sum(w[i] for i in range(child.bit_length()) if child >> i & 1) < floor
                       for w, floor in zip(weights, floors, strict=True)):
                    continue
                out.add(min(sum(1 << perm[i] for i in range(child.bit_length()) if child >> i & 1)
                            for perm in perms))
    return out


def reachable_by_pegs(board: Board, fewest: int = 1) -> dict[int, set[int]]:
    """Every position reachable from ``board`` with at least ``fewest`` pegs, by peg count (tiny
    boards, or few jumps)."""
    jumps = triples(board)
    count = board.pegs.bit_count()
    layers = {count: {board.pegs}}
    while layers[count] and count > fewest:
        layers[count - 1] = {q ^ (1 << a) ^ (1 << b) ^ (1 << c) for q in layers[count] for a, b, c in jumps
                             if q >> a & 1 and q >> b & 1 and not q >> c & 1}
        count -= 1
    return layers


def finishers(board: Board, finish_bit: int) -> set[int]:
    """Every position on ``board``'s holes that can end with one peg in ``finish_bit``, found
    backwards by unjumps (a peg at ``c`` with ``a`` and ``b`` empty goes back to ``a`` and refills
    ``b``); tiny boards only."""
    jumps = triples(board)
    seen = {1 << finish_bit}
    frontier = [1 << finish_bit]
    while frontier:
        following = []
        for q in frontier:
            for a, b, c in jumps:
                if q >> c & 1 and not q >> a & 1 and not q >> b & 1:
                    p = q ^ (1 << a) ^ (1 << b) ^ (1 << c)
                    if p not in seen:
                        seen.add(p)
                        following.append(p)
        frontier = following
    return seen


def first_meeting(forward: list[int], backward: list[int], all_holes: int,
                  perms: list[tuple[int, ...]]) -> int:
    """kernels.endgame.first_meeting in plain Python: the index of the first forward position whose
    complement's smallest image under ``perms`` is in ``backward``, or -1."""
    wanted = set(backward)
    for i, p in enumerate(forward):
        q = all_holes ^ p
        if min(sum(1 << perm[k] for k in range(q.bit_length()) if q >> k & 1) for perm in perms) in wanted:
            return i
    return -1


def heavy_enough(positions: list[int], weights: list[list[float]], floors: list[float]) -> list[bool]:
    """kernels.endgame.heavy_enough in plain Python: whether each position weighs at least every floor."""
    return [all(sum(w[k] for k in range(p.bit_length()) if p >> k & 1) >= floor
                for w, floor in zip(weights, floors, strict=True)) for p in positions]


def _image(mask: int, perm: tuple[int, ...]) -> int:
    return sum(1 << perm[i] for i in range(mask.bit_length()) if mask >> i & 1)


def _light(q: int, weights: list[list[float]], floors: list[float]) -> bool:
    return any(sum(w[i] for i in range(q.bit_length()) if q >> i & 1) < floor
               for w, floor in zip(weights, floors, strict=True))


def child_keys(layer: list[int], pre: tuple[int, ...] | None, jumps: list[tuple[int, int, int]], flip: int,
               perms: list[tuple[int, ...]], weights: list[list[float]], floors: list[float],
               above: bool = False) -> list[int]:
    """kernels.endgame.child_keys in plain Python: for each position of ``layer`` (its image under ``pre``
    first, if any) and each child ``q`` in jump order whose ``flip ^ q`` weighs at least every floor, the
    smallest image of ``flip ^ q`` under ``perms`` (with ``above``: when at least the position as given)."""
    out = []
    for given in layer:
        p = given if pre is None else _image(given, pre)
        for a, b, c in jumps:
            if p >> a & 1 and p >> b & 1 and not p >> c & 1:
                q = flip ^ p ^ (1 << a) ^ (1 << b) ^ (1 << c)
                if not _light(q, weights, floors):
                    key = min(_image(q, perm) for perm in perms)
                    if not above or key >= given:
                        out.append(key)
    return out


def without_recent_repeats(keys: list[int], slots: int) -> list[int]:
    """kernels.endgame.child_keys' table of recent keys in plain Python: ``keys`` in order, less each one
    equal to the last kept in its slot (the top bits of key * 0x9E3779B97F4A7C15 mod 2^64) of ``slots``
    slots (a power of two; fewer than two: no table)."""
    if slots < 2:
        return list(keys)
    shift = 64 - (slots.bit_length() - 1)
    table = [0] * slots
    kept = []
    for key in keys:
        slot = (key * 0x9E3779B97F4A7C15 & (1 << 64) - 1) >> shift
        if table[slot] != key:
            kept.append(key)
        table[slot] = key
    return kept


def child_meeting(layer: list[int], pre: tuple[int, ...] | None, jumps: list[tuple[int, int, int]],
                  all_holes: int, perms: list[tuple[int, ...]], weights: list[list[float]],
                  floors: list[float], keys: set[int]) -> tuple[int, int] | None:
    """kernels.endgame.child_meeting in plain Python: the first (position index, jump index) whose child's
    complement (heavy enough) has its smallest image in ``keys``, or None."""
    for i, p in enumerate(layer):
        p = p if pre is None else _image(p, pre)
        for t, (a, b, c) in enumerate(jumps):
            if p >> a & 1 and p >> b & 1 and not p >> c & 1:
                q = all_holes ^ p ^ (1 << a) ^ (1 << b) ^ (1 << c)
                if not _light(q, weights, floors) and min(_image(q, perm) for perm in perms) in keys:
                    return i, t
    return None
