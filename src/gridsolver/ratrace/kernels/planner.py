"""The ``champion`` player's decision rule in numba: beliefs read from the genome, then a
breadth-first search over the rat's 5 x 5 view.

A colour's six genome bits code a belief about it (:mod:`gridsolver.ratrace.beliefs`
has the layout): :func:`colour_code` reads them, :func:`classify` decodes
them, and :data:`DECODE` holds that decoding for all 64 codes, the table the
planner reads.

Decision rule (:func:`plan`): a breadth-first search over the 5 x 5 view from
the rat, on 25-bit bitboards of the view (bit ``5 * row + column``). A step may
not enter a cell outside the track, a "never step" cell or a cell a visible
believed trap makes lethal; stepping on a believed teleporter continues from
its landing, which must be in view and safe (and off the view's border,
unless genome bit 98 trusts the border: otherwise such a landing counts as
unchecked, like a landing out of view, since a trap outside the view can make
it lethal). The rat aims at the reachable cells furthest right, then the
nearest of them, and takes a first step of such a path (ties: the step
furthest right, then at random). A rat with no believed-safe way right first
slides, if its genome says so (bit 97; bit 96: down): it heads for the
reachable cell furthest up (or down), which follows a barrier taller than the
view until a way right comes into sight. Otherwise (or with nowhere to slide)
it steps forward onto anything not surely lethal: a genome that distrusts too
many colours would otherwise freeze its rats, and a rat that tries teaches the
population. The player (:mod:`gridsolver.ratrace.players.champion`) wanders
now and then instead (:func:`choose`) and draws its move with :func:`draw`.

:func:`plan` and :func:`gridsolver.ratrace.reference.plan_reference` (plain
Python) compute the same move masks, indexed by
:func:`gridsolver.ratrace.rules.move_index`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridsolver.ratrace.beliefs import (
    BITS_PER_COLOUR,
    KIND_AVOID,
    KIND_PLAIN,
    KIND_TELEPORT,
    KIND_TRAP,
    PARITY_CHECK,
    TRAP_OFFSETS,
)

_CENTRE = 12


@njit(cache=True)
def colour_code(genome: np.ndarray, colour: int) -> int:
    """The six genome bits of ``colour`` as an int (bit 0 = genome bit ``6 * colour``)."""
    start = colour * 6
    word = start >> 6
    shift = start & 63
    low = np.int64(genome[word])
    if shift + 6 <= 64:
        return (low >> shift) & 63
    kept = 64 - shift
    high = np.int64(genome[word + 1])
    return ((low >> shift) & ((1 << kept) - 1)) | ((high & ((1 << (6 - kept)) - 1)) << kept)


@njit(cache=True)
def syndrome(code: int) -> int:
    """The 3-bit syndrome of a 6-bit code under :data:`PARITY_CHECK`: the code's kind."""
    value = 0
    for bit in range(6):
        if (code >> bit) & 1:
            value ^= PARITY_CHECK[bit]
    return value


@njit(cache=True)
def classify(code: int) -> tuple[int, int, int]:
    """``(kind, dx, dy)`` of a colour's code: the trap's lethal offset or the teleport offset."""
    kind = syndrome(code)
    param = code >> 3
    if kind == 0:
        return KIND_AVOID, 0, 0
    if kind <= 4:
        return KIND_PLAIN, 0, 0
    if kind <= 6:
        return KIND_TELEPORT, kind - 4, param - 4
    cell = param + (param >= 4)  # the 3 x 3 block's cells in reading order, the centre skipped
    return KIND_TRAP, cell % 3 - 1, cell // 3 - 1


def code_for(kind: int, dx: int = 0, dy: int = 0) -> int:
    """The smallest 6-bit code :func:`classify` reads as ``(kind, dx, dy)`` (ValueError: none).

    For tests and tools that need a belief's code without spelling out its bits.
    """
    if kind in (KIND_AVOID, KIND_PLAIN) and (dx, dy) != (0, 0):
        raise ValueError("plain and never-step beliefs have no offset")
    if kind == KIND_TRAP and (dx, dy) not in TRAP_OFFSETS:
        raise ValueError(f"no trap kills the cell at {(dx, dy)} from it")
    if kind == KIND_TELEPORT and not (dx in (1, 2) and -4 <= dy <= 3):
        raise ValueError(f"no teleporter code jumps by {(dx, dy)}")
    for code in range(64):
        if classify.py_func(code) == (kind, dx, dy):
            return code
    raise ValueError(f"unknown kind {kind}")


@njit(cache=True)
def _known_outside(view: np.ndarray, dy: int) -> bool:
    """Whether the row ``dy`` rows below the rat (any distance) is surely outside the track.

    The view shows the track's top or bottom edge when the rat is within two
    rows of it; further off, a row beyond the view is assumed inside.
    """
    if dy < 0:
        for d in range(1, 3):
            if view[2 - d, 2] < 0:
                return -dy >= d
        return False
    if dy > 0:
        for d in range(1, 3):
            if view[2 + d, 2] < 0:
                return dy >= d
    return False


_FULL = (1 << 25) - 1
_NOT_COL0 = sum(1 << (r * 5 + k) for r in range(5) for k in range(1, 5))
_NOT_COL4 = sum(1 << (r * 5 + k) for r in range(5) for k in range(4))
_COL3 = sum(1 << (r * 5 + 3) for r in range(5))
_COL4 = sum(1 << (r * 5 + 4) for r in range(5))
_BORDER = sum(1 << (r * 5 + k) for r in range(5) for k in range(5) if r in (0, 4) or k in (0, 4))


@njit(cache=True)
def _dilate(cells: int) -> int:
    """``cells`` and every cell one king move from them, on the 5 x 5 bitboard (bit 5 * row + column)."""
    row = cells | ((cells << 1) & _NOT_COL0) | ((cells >> 1) & _NOT_COL4)
    return (row | (row << 5) | (row >> 5)) & _FULL


# _KEEP[dx + 4]: the columns whose cells stay in view when moved by dx.
_KEEP = tuple(sum(1 << (r * 5 + k) for r in range(5) for k in range(5) if 0 <= k + dx < 5)
              for dx in range(-4, 5))


@njit(cache=True)
def _shift(cells: int, dx: int, dy: int) -> int:
    """``cells`` moved by (dx, dy); cells that would leave the view are dropped."""
    cells &= _KEEP[dx + 4]
    by = dy * 5 + dx
    if by >= 0:
        return (cells << by) & _FULL
    return (cells >> -by) & _FULL


def decode_table() -> np.ndarray:
    """:func:`classify` of every 6-bit code, as a (64, 3) table of ``(kind, dx, dy)`` rows."""
    return np.array([classify.py_func(code) for code in range(64)], dtype=np.int64)


# The beliefs the champion reads its genome as (a global array: numba freezes it into the kernel).
DECODE = decode_table()


@njit(cache=True)
def plan(view: np.ndarray, genome: np.ndarray) -> tuple[int, int, int]:
    """:func:`plan_decoded` with the champion's own decoding (:data:`DECODE`)."""
    return plan_decoded(view, genome, DECODE)


@njit(cache=True)
def plan_decoded(view: np.ndarray, genome: np.ndarray, decode: np.ndarray) -> tuple[int, int, int]:
    """Three 9-bit move masks (bit :func:`~gridsolver.ratrace.rules.move_index`): ``(best, safe, bold)``.

    ``best``: first steps of the shortest believed-safe paths to the best place
    in view; when no such path gets right of the rat's column, those toward the
    reachable cells furthest up or down if genome bit 97 says to slide (bit 96:
    down), else 0. ``safe``: every
    first step believed safe, standing still included. ``bold``: steps that are
    not surely deadly, forward ones if any (for a rat that believes it is boxed in).
    ``decode[code]`` is the ``(kind, dx, dy)`` belief a colour's 6-bit code stands for.
    """
    # Cells of each colour, then the beliefs: lethal, never-step and teleporter cells.
    # 0..15 cells per colour, 16..31 and 32..47 teleport dx and dy, 48..56 frontiers, 57.. teleporters
    scratch = np.zeros(80, np.int64)
    outside = 0
    for r in range(5):
        for k in range(5):
            colour = view[r, k]
            if colour < 0:
                outside |= 1 << (r * 5 + k)
            else:
                scratch[colour] |= 1 << (r * 5 + k)
    lethal = outside
    avoid = 0
    all_teleporters = 0
    # Believed teleporters in view, compacted: scratch[57 + i] is the colour of the i-th.
    n_tele = 0
    for colour in range(16):
        cells = scratch[colour]
        if cells == 0:
            continue
        code = colour_code(genome, colour)
        kind = decode[code, 0]
        dx = decode[code, 1]
        dy = decode[code, 2]
        if kind == KIND_AVOID:
            avoid |= cells
        elif kind == KIND_TRAP:
            lethal |= _shift(cells, dx, dy)
        elif kind == KIND_TELEPORT:
            all_teleporters |= cells
            scratch[16 + colour] = dx
            scratch[32 + colour] = dy
            scratch[57 + n_tele] = colour
            n_tele += 1
    lethal &= ~(1 << _CENTRE)
    deadly_landing = lethal | avoid
    # A landing on the view's border may be lethal through a trap outside the view, which no
    # belief can show: unchecked (bold only, like a landing out of view) unless genome bit 98
    # trusts it. On training tracks this doubled the geometric mean at 3,000 turns.
    if not ((np.int64(genome[1]) >> 34) & 1):
        deadly_landing |= _BORDER
    # Teleporter cells whose landing is in view and believed safe can be walked through;
    # scratch[colour] keeps only those.
    through = 0
    for i in range(n_tele):
        colour = scratch[57 + i]
        dx = scratch[16 + colour]
        dy = scratch[32 + colour]
        good = _shift(_shift(scratch[colour], dx, dy) & ~deadly_landing, -dx, -dy)
        scratch[colour] = good
        through |= good
    enter = _FULL & ~(lethal | avoid | (all_teleporters & ~through))
    # First steps, one by one (each labels the frontier it starts).
    safe = 1 << 4
    bold = np.int64(0)  # np.int64: from a literal 0 numba compiles what it is passed to once more
    visited = 1 << _CENTRE
    for a in range(-1, 2):
        for b in range(-1, 2):
            move = (a + 1) * 3 + b + 1
            scratch[48 + move] = 0
            if a == 0 and b == 0:
                continue
            p = (a + 2) * 5 + b + 2
            if (lethal >> p) & 1:
                continue
            landing = p
            if (all_teleporters >> p) & 1:
                colour = view[a + 2, b + 2]
                dx = scratch[16 + colour]
                dy = scratch[32 + colour]
                lr = a + 2 + dy
                lk = b + 2 + dx
                if not (0 <= lr < 5 and 0 <= lk < 5):
                    if not _known_outside(view, lr - 2):
                        bold |= 1 << move
                    continue
                landing = lr * 5 + lk
                if (deadly_landing >> landing) & 1:
                    if not ((lethal | avoid) >> landing) & 1:
                        bold |= 1 << move
                    continue
            bold |= 1 << move
            if (avoid >> p) & 1:
                continue
            safe |= 1 << move
            if landing != _CENTRE:
                scratch[48 + move] = 1 << landing
    # Breadth-first search, one frontier per first step, layer by layer.
    best_value = 2
    best = np.int64(0)  # np.int64: from a literal 0 numba compiles what it is passed to once more
    # A rat with no believed-safe way right may slide along the barrier instead (genome bit 97),
    # toward the reachable cell furthest up or down (bit 96): see _slide_value.
    down = int((np.int64(genome[1]) >> 32) & 1)
    slides = int((np.int64(genome[1]) >> 33) & 1)
    slide_value = 0
    slide = np.int64(0)  # np.int64: from a literal 0 numba compiles what it is passed to once more
    depth = 1
    while True:
        layer = 0
        for move in range(9):
            layer |= scratch[48 + move]
        layer &= ~visited
        if layer == 0:
            break
        visited |= layer
        found = 0
        value = 2
        for move in range(9):
            frontier = scratch[48 + move]
            if frontier & _COL4:
                column = 4
            elif frontier & _COL3:
                column = 3
            else:
                continue
            if column > value:
                value = column
                found = 1 << move
            elif column == value:
                found |= 1 << move
        if value > best_value:
            best_value = value
            best = found
        if slides and best_value == 2:  # the slide only counts while no way right is found
            value = 0
            found = 0
            for move in range(9):
                rise = _slide_value(scratch[48 + move], down)
                if rise > value:
                    value = rise
                    found = 1 << move
                elif rise == value and rise > 0:
                    found |= 1 << move
            if value > slide_value:
                slide_value = value
                slide = found
        if best_value == 4:
            break  # nothing deeper can beat the far column at this depth
        for move in range(9):
            frontier = scratch[48 + move]
            if frontier == 0:
                continue
            near = _dilate(frontier) & enter
            grown = near & ~through
            if near & through:
                for i in range(n_tele):
                    colour = scratch[57 + i]
                    jumps = near & scratch[colour]
                    if jumps:
                        grown |= _shift(jumps, scratch[16 + colour], scratch[32 + colour])
            scratch[48 + move] = grown & ~visited
        depth += 1
    if best == 0 and slides:
        best = slide
    return _furthest_right(best), safe, _furthest_right(bold)


@njit(cache=True)
def _slide_value(cells: int, down: int) -> int:
    """How many rows below (``down``) or above the rat the furthest of ``cells`` is (0: none)."""
    for far in range(2, 0, -1):
        row = 2 + far if down else 2 - far
        if (cells >> (row * 5)) & 31:
            return far
    return 0


@njit(cache=True)
def _furthest_right(mask: int) -> int:
    """The moves of ``mask`` with the largest dx."""
    for dx in range(1, -2, -1):
        column = (1 << (dx + 1)) | (1 << (dx + 4)) | (1 << (dx + 7))
        if mask & column:
            return mask & column
    return mask


@njit(cache=True)
def choose(view: np.ndarray, genome: np.ndarray, wander: bool) -> int:
    """The mask the champion draws its move from (``wander``: a turn spent exploring)."""
    return choose_decoded(view, genome, DECODE, wander)


@njit(cache=True)
def choose_decoded(view: np.ndarray, genome: np.ndarray, decode: np.ndarray, wander: bool) -> int:
    """:func:`choose` with the decoding ``decode`` (see :func:`plan_decoded`)."""
    best, safe, bold = plan_decoded(view, genome, decode)
    if best == 0:
        return bold if bold else safe
    if wander:
        return safe
    return best


@njit(cache=True)
def with_belief(genome: np.ndarray, colour: int, code: int) -> np.ndarray:
    """A copy of ``genome`` whose chunk for ``colour`` holds the 6-bit ``code``."""
    changed = genome.copy()
    for k in range(BITS_PER_COLOUR):
        bit = BITS_PER_COLOUR * colour + k
        one = np.uint64(1) << np.uint64(bit & 63)
        if (code >> k) & 1:
            changed[bit >> 6] |= one
        else:
            changed[bit >> 6] &= ~one
    return changed


@njit(cache=True)
def draw(mask: int) -> tuple[int, int]:
    """A move drawn uniformly from the 9-bit ``mask`` (numba's generator)."""
    count = 0
    for i in range(9):
        count += (mask >> i) & 1
    pick = np.random.randint(count) if count > 1 else 0
    for i in range(9):
        if (mask >> i) & 1:
            if pick == 0:
                return i % 3 - 1, i // 3 - 1
            pick -= 1
    return 0, 0
