"""One layer of a breadth-first search by jumps (positions of one 64-bit word): the endgame tables.

Every jump removes one peg, so the positions ``k`` jumps from the start are
exactly the reachable positions with ``pegs - k`` pegs: a breadth-first
search by jumps needs no set of everything seen, only the layer it builds.
A layer is a sorted array of positions (uint64, one bit per hole), canonical
under the symmetries that fix the start position and the finish hole.

The endgame tables (:mod:`gridsolver.pegs.endgame`) run it on the *dual*
problem: a game from ``S`` to ``F`` read backwards on the complemented
board (pegs <-> holes) is a game from ``holes ^ F`` to ``holes ^ S`` (an
unjump refilling ``a`` and ``b`` from ``c`` is, on the complement, the jump
``a`` over ``b`` into ``c``), so a forward layer of the dual lists the
positions that can still finish.

This module imports numba: import it only inside command functions.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from gridsolver.core.kernels.bits import ONE, ZERO, trailing_zeros
from gridsolver.core.kernels.clock import budget_check
from gridsolver.core.kernels.stops import EXHAUSTED, FOUND, OUT_OF_MEMORY
from gridsolver.core.kernels.table import find_key
from gridsolver.pegs.kernels.bitboard import CHECK_EVERY, canonical, image_of, mix, new_slot, set_slot

MAX_LOAD = 0.6  # a layer's set is grown past this load (endgame.MAX_LOAD too)
GOLDEN_MIX = np.uint64(0x9E3779B97F4A7C15)  # child_keys' slot in ``recent``: the top bits of key * this

#: Every jump of the board as three parallel arrays of holes: from ``a[t]`` over ``b[t]`` into ``c[t]``.
Jumps = namedtuple("Jumps", "a b c")
#: Pagoda functions and their floors: ``weights[k]`` (one weight per bit) must weigh at least
#: ``floors[k]`` on every position that can still reach the target.
Pagodas = namedtuple("Pagodas", "weights floors")


@njit(cache=True)
def weight_of(p, weights):
    """Total pagoda weight of the pegs of ``p``."""
    total = 0.0
    q = p
    k = 0
    while q != ZERO:
        if q & ONE:
            total += weights[k]
        q >>= ONE
        k += 1
    return total


#: What expanding a layer reads for every parent and jump, made once per call (:func:`steps`):
#: each jump's ``a`` and ``b`` holes (``both``) and its ``c`` hole (``land``) as masks; ``delta[t, k]``,
#: what jump ``t`` adds to the weight under pagoda ``k`` of the position weighed (the parent's pegs, or
#: its complement's); each pagoda's byte tables (``tables[k, j, v]``: the weight of the pegs byte
#: value ``v`` puts at byte ``j``, up to the last byte with a weight); and each jump's images under the
#: symmetries (:func:`jump_images`).
Steps = namedtuple("Steps", "both land delta tables images")
COMPLEMENT = 1.0  # steps' sign when the weighed position is the parent's complement ...
PARENT = -1.0  # ... and when it is the parent


@njit(cache=True)
def steps(jumps, weights, images, sign):
    """:data:`Steps` for ``jumps`` under the pagodas ``weights`` and the symmetries ``images``; with
    ``sign`` :data:`COMPLEMENT` the weighed position is the parent's complement (gaining ``a`` and
    ``b``, losing ``c``), with :data:`PARENT` the parent (losing ``a`` and ``b``, gaining ``c``).
    A float, not a flag: numba types a literal True and False apart, so a flag compiled this kernel
    once for each, and once more for a flag that is not a literal.

    The pagodas' weights are multiples of 2^-24 (linear programs) or powers of the golden ratio
    whose floor keeps a margin of 1e-9: a sum in any order decides every position on a game alike."""
    ntri = jumps.a.shape[0]
    npag = weights.shape[0]
    both = np.empty(ntri, dtype=np.uint64)
    land = np.empty(ntri, dtype=np.uint64)
    delta = np.empty((ntri, npag), dtype=np.float64)
    for t in range(ntri):
        a, b, c = jumps.a[t], jumps.b[t], jumps.c[t]
        both[t] = (ONE << np.uint64(a)) | (ONE << np.uint64(b))
        land[t] = ONE << np.uint64(c)
        for k in range(npag):
            delta[t, k] = sign * (weights[k, a] + weights[k, b] - weights[k, c])
    top = 0  # the highest hole any pagoda weighs: the bytes above it weigh nothing
    for k in range(npag):
        for bit in range(weights.shape[1]):
            if weights[k, bit] != 0.0:
                top = max(top, bit)
    tables = np.zeros((npag, top // 8 + 1, 256), dtype=np.float64)
    for k in range(npag):
        for j in range(tables.shape[1]):
            for v in range(1, 256):
                low = v & -v
                tables[k, j, v] = tables[k, j, v ^ low] + weights[k, 8 * j + trailing_zeros(np.uint64(low))]
    return Steps(both, land, delta, tables, jump_images(jumps, images))


@njit(cache=True, inline="always")
def _weigh(q, tables, base):
    """``base[k]`` = the weight of the pegs of ``q`` under pagoda ``k`` (a byte look-up a byte)."""
    for k in range(tables.shape[0]):
        weight = 0.0
        for j in range(tables.shape[1]):
            weight += tables[k, j, np.int64((q >> np.uint64(8 * j)) & np.uint64(255))]
        base[k] = weight


@njit(cache=True, inline="always")
def _legal(p, both, land, legal, which):
    """The legal jumps in ``p`` (pegs on a jump's ``a`` and ``b``, ``both[t]``; its ``c``, ``land[t]``,
    empty): their indices in ``which``, in order, and how many. All jumps are tested at once (``legal``,
    a loop the compiler turns into vector operations), then their indices are gathered without a
    branch per jump: about one jump in eight is legal in a parent, and a branch taken that rarely is
    mispredicted each time it is."""
    for t in range(both.shape[0]):
        legal[t] = ((p & both[t]) == both[t]) & ((p & land[t]) == ZERO)
    moves = 0
    for t in range(both.shape[0]):
        which[moves] = t
        moves += legal[t]
    return moves


@njit(cache=True, inline="always")
def _too_light(base, delta, floors, t):
    """Whether jump ``t`` leaves the weighed position (``base``: :func:`_weigh` of it before the jump)
    lighter than a floor of the pagodas (``delta``: :data:`Steps`)."""
    for k in range(floors.shape[0]):
        if base[k] + delta[t, k] < floors[k]:
            return True
    return False


@njit(cache=True, inline="always")
def _jumped(p, jumps, t):
    """``p`` after jump ``t`` of ``jumps`` (legal in ``p``)."""
    a = np.uint64(jumps.a[t])
    b = np.uint64(jumps.b[t])
    c = np.uint64(jumps.c[t])
    return p ^ ((ONE << a) | (ONE << b) | (ONE << c))


@njit(cache=True, inline="always")
def _pre_image(p, pre):
    """``p``, or its image under ``pre[0]`` (byte tables) when ``pre`` has a row."""
    if pre.shape[0] == 0:
        return p
    return image_of(p, pre[0])


# A symmetry moves holes one by one, so the image of ``q ^ m`` is the image of ``q`` xor the image of
# ``m``: a parent's images, taken once, give each child's with one xor per symmetry (the jump's
# images, :func:`jump_images`) instead of a byte-table pass per child and symmetry.

@njit(cache=True)
def jump_images(jumps, images):
    """``out[s, t]``: the image under symmetry ``s`` of ``images`` of the three holes of jump ``t``."""
    out = np.empty((images.shape[0], jumps.a.shape[0]), dtype=np.uint64)
    for t in range(jumps.a.shape[0]):
        holes = _jumped(ZERO, jumps, t)
        for s in range(images.shape[0]):
            out[s, t] = image_of(holes, images[s])
    return out


@njit(cache=True, inline="always")
def _images(q, images, out):
    """``out[s]`` = the image of ``q`` under symmetry ``s`` of ``images``."""
    for s in range(images.shape[0]):
        out[s] = image_of(q, images[s])


@njit(cache=True, inline="always")
def _smallest_jumped(q, t, jumps, q_images, jumped_images):
    """:func:`canonical` of ``q`` after jump ``t``'s three holes flip, from ``q``'s images
    (:func:`_images`) and the jumps' (:func:`jump_images`)."""
    best = _jumped(q, jumps, t)
    for s in range(q_images.shape[0]):
        img = q_images[s] ^ jumped_images[s, t]
        if img < best:
            best = img
    return best


@njit(cache=True, inline="always")
def _stopped(stats, nodes, count, at, code):
    """A layer kernel's way out: ``stats[0]`` += ``nodes`` (jumps made), ``stats[1]`` = ``count``
    (entries written), ``stats[2]`` = ``at`` (where to go on from); returns ``code``."""
    stats[0] += nodes
    stats[1] = count
    stats[2] = at
    return code


@njit(cache=True)
def expand(layer, lo, jumps, images, pagodas, keys, node_limit, deadline_ns, stats):
    """Put every child of ``layer[lo:]`` (one of ``jumps`` on) into the set ``keys``, canonical under the
    symmetries of ``images`` (see :func:`gridsolver.pegs.kernels.bitboard.canonical`).

    A child whose pegs weigh less than a floor of ``pagodas`` under its weights is left out (no
    game from it reaches the target: a jump never raises the weight). ``stats[0]`` += jumps made,
    ``stats[1]`` = children in the set. Returns EXHAUSTED, a budget code, or OUT_OF_MEMORY with
    ``stats[2]`` = the parent whose children did not fit (go on from it after the set grows).
    """
    weights, floors = pagodas
    capacity = np.int64(keys.shape[0] * MAX_LOAD)
    count = stats[1]
    nodes = 0
    ntri = jumps.a.shape[0]
    base = np.zeros(weights.shape[0], dtype=np.float64)
    both, land, delta, tables, jumped_images = steps(jumps, weights, images, PARENT)
    p_images = np.empty(images.shape[0], dtype=np.uint64)
    legal = np.empty(ntri, dtype=np.bool_)
    which = np.empty(ntri, dtype=np.int64)
    for i in range(lo, layer.shape[0]):
        p = layer[i]
        _weigh(p, tables, base)  # the pegs' weights under every pagoda
        _images(p, images, p_images)
        moves = _legal(p, both, land, legal, which)
        for m in range(moves):
            t = which[m]
            nodes += 1
            code = budget_check(stats[0] + nodes, node_limit, deadline_ns, CHECK_EVERY)
            if code != EXHAUSTED:
                return _stopped(stats, nodes, count, i, code)
            if _too_light(base, delta, floors, t):
                continue
            child = _smallest_jumped(p, t, jumps, p_images, jumped_images)
            slot = new_slot(keys, child)
            if slot < 0:
                continue
            if count >= capacity:
                return _stopped(stats, nodes, count, i, OUT_OF_MEMORY)
            keys[slot] = child
            count += 1
    stats[0] += nodes
    stats[1] = count
    return EXHAUSTED


@njit(cache=True)
def heavy_enough(layer, weights, floors, keep):
    """``keep[i]`` = False for each ``layer[i]`` that weighs less than ``floors[k]`` under some
    ``weights[k]`` (see :func:`expand`); returns how many are kept."""
    kept = 0
    for i in range(layer.shape[0]):
        ok = True
        for k in range(weights.shape[0]):
            if weight_of(layer[i], weights[k]) < floors[k]:
                ok = False
                break
        keep[i] = ok
        kept += ok
    return kept


@njit(cache=True)
def insert_all(keys, values):
    """Put ``values`` (distinct, none 0) into the empty set ``keys``."""
    for i in range(values.shape[0]):
        keys[set_slot(keys, values[i])] = values[i]


@njit(cache=True)
def first_meeting(forward, backward, all_holes, images):
    """Index of the first ``forward[i]`` whose complement's smallest image (``images``, see
    :func:`gridsolver.pegs.kernels.bitboard.canonical`) is in the sorted ``backward``, or -1.

    The forward layer holds positions, the backward layer complements (both as smallest images under
    the same symmetries): a position in both is on some game from the start to the finish."""
    for i in range(forward.shape[0]):
        key = canonical(all_holes ^ forward[i], images)
        j = np.searchsorted(backward, key)
        if j < backward.shape[0] and backward[j] == key:
            return i
    return -1


@njit(cache=True)
def child_meeting(layer, lo, pre, jumps, all_holes, images, pagodas, keys, node_limit, deadline_ns, stats):
    """The first child that meets the set ``keys``: positions ``p`` (``layer[i]`` from ``lo``, or its
    image under ``pre[0]`` when ``pre`` has a row; see :func:`gridsolver.pegs.kernels.bitboard.canonical`)
    and their children ``q`` (one of ``jumps`` on), until the smallest image of ``all_holes ^ q`` under
    ``images`` is in ``keys``. A child whose complement weighs less than a floor of ``pagodas`` (see
    :func:`expand`) is not looked up: ``keys`` must hold no such complement.

    Returns FOUND with ``stats[1]`` = ``i`` and ``stats[2]`` = the jump's index, EXHAUSTED when no child
    meets, or a budget code with ``stats[1]`` = the entry to go on from. ``stats[0]`` += jumps made.
    """
    weights, floors = pagodas
    ntri = jumps.a.shape[0]
    base = np.zeros(weights.shape[0], dtype=np.float64)
    slots = keys.shape[0]
    nodes = 0
    both, land, delta, tables, jumped_images = steps(jumps, weights, images, COMPLEMENT)
    q_images = np.empty(images.shape[0], dtype=np.uint64)
    legal = np.empty(ntri, dtype=np.bool_)
    which = np.empty(ntri, dtype=np.int64)
    for i in range(lo, layer.shape[0]):
        p = _pre_image(layer[i], pre)
        _weigh(all_holes ^ p, tables, base)  # the complement's weights under every pagoda
        _images(all_holes ^ p, images, q_images)
        moves = _legal(p, both, land, legal, which)
        for m in range(moves):
            t = which[m]
            nodes += 1
            code = budget_check(stats[0] + nodes, node_limit, deadline_ns, CHECK_EVERY)
            if code != EXHAUSTED:
                stats[0] += nodes
                stats[1] = i
                return code
            if _too_light(base, delta, floors, t):
                continue
            key = _smallest_jumped(all_holes ^ p, t, jumps, q_images, jumped_images)
            if find_key(keys, key, mix(key), slots) >= 0:
                stats[0] += nodes
                stats[1] = i
                stats[2] = t
                return FOUND
    stats[0] += nodes
    stats[1] = layer.shape[0]
    return EXHAUSTED


@njit(cache=True)
def child_keys(layer, lo, pre, jumps, flip, images, pagodas, out, recent, above, node_limit, deadline_ns,
               stats):
    """Write into ``out``, from ``stats[1]`` on, the smallest image under ``images`` of ``flip ^ q`` for
    every child ``q`` (one of ``jumps`` on) of the positions ``p`` of ``layer[lo:]`` (each mapped by
    ``pre[0]`` first when ``pre`` has a row) whose ``flip ^ q`` weighs at least every floor of
    ``pagodas`` (``flip`` is 0, or every hole: then ``flip ^ q`` gains the jump's ``a`` and ``b`` and
    loses ``c``). A key equal to the one last kept in its slot of ``recent`` (a table of a power of two
    entries, or none) is not written again: siblings share many children, and each repeat left out is
    one less to sort (a key is never 0, an empty slot's value: a child and its complement both hold a peg).
    Other repeats are written as often as they come. With ``above``, only the keys at least their
    parent's value in ``layer`` are written (and remembered); see
    :func:`gridsolver.pegs.endgame.first_child_in` for why a self-dual look-up needs no others.

    Stops before a position whose children might not fit: returns OUT_OF_MEMORY with ``stats[2]`` =
    that position (go on from it once ``out`` is emptied), EXHAUSTED (``stats[2]`` = the layer's end)
    or a budget code (``stats[2]`` = the position being expanded). ``stats[0]`` += jumps made,
    ``stats[1]`` = keys in ``out``.
    """
    weights, floors = pagodas
    ntri = jumps.a.shape[0]
    base = np.zeros(weights.shape[0], dtype=np.float64)
    count = stats[1]
    nodes = 0
    sign = COMPLEMENT if flip != ZERO else PARENT
    both, land, delta, tables, jumped_images = steps(jumps, weights, images, sign)
    q_images = np.empty(images.shape[0], dtype=np.uint64)
    legal = np.empty(ntri, dtype=np.bool_)
    which = np.empty(ntri, dtype=np.int64)
    shift = np.uint64(64)  # no table
    if recent.shape[0] > 0:
        shift = np.uint64(64 - trailing_zeros(np.uint64(recent.shape[0])))
    for i in range(lo, layer.shape[0]):
        if count + ntri > out.shape[0]:
            return _stopped(stats, nodes, count, i, OUT_OF_MEMORY)
        p = _pre_image(layer[i], pre)
        least = layer[i] if above else ZERO
        _weigh(flip ^ p, tables, base)
        _images(flip ^ p, images, q_images)
        moves = _legal(p, both, land, legal, which)
        for m in range(moves):
            t = which[m]
            nodes += 1
            code = budget_check(stats[0] + nodes, node_limit, deadline_ns, CHECK_EVERY)
            if code != EXHAUSTED:
                return _stopped(stats, nodes, count, i, code)
            if _too_light(base, delta, floors, t):
                continue
            key = _smallest_jumped(flip ^ p, t, jumps, q_images, jumped_images)
            out[count] = key
            wanted = key >= least
            if shift < 64:
                slot = np.int64((key * GOLDEN_MIX) >> shift)
                # written, and kept only when new and wanted: no branch to mispredict
                count += (recent[slot] != key) & wanted
                recent[slot] = key if wanted else recent[slot]
            else:
                count += wanted
    return _stopped(stats, nodes, count, layer.shape[0], EXHAUSTED)


@njit(cache=True)
def merge_runs(store, start, first, second, spare):
    """Merge two sorted runs without repeats, ``store[start:start + first]`` and the ``second`` values
    after it, in place: their union, each value once, from ``store[start]`` on; returns its length.

    The first run is copied to ``spare`` (room for ``first`` values) and merged from there with the
    second where it lies: the output is never ahead of the second run's unread part. Where the copy
    runs out with nothing dropped, the rest of the second run is already in place."""
    for k in range(first):
        spare[k] = store[start + k]
    i = 0
    j = start + first
    end = j + second
    out = start
    while i < first and j < end:
        x = spare[i]
        y = store[j]
        store[out] = min(x, y)
        i += x <= y  # both when equal: the value is written once
        j += y <= x
        out += 1
    while i < first:
        store[out] = spare[i]
        i += 1
        out += 1
    if out == j:
        return end - start
    while j < end:
        store[out] = store[j]
        j += 1
        out += 1
    return out - start


@njit(cache=True)
def merge_into(a, b, out):
    """The union of the sorted ``a`` and ``b`` (each without repeats), each value once, written to
    ``out`` (room for both); returns its length."""
    i = 0
    j = 0
    n = 0
    na = a.shape[0]
    nb = b.shape[0]
    while i < na and j < nb:
        x = a[i]
        y = b[j]
        out[n] = min(x, y)
        i += x <= y  # both when equal: the value is written once
        j += y <= x
        n += 1
    while i < na:
        out[n] = a[i]
        i += 1
        n += 1
    while j < nb:
        out[n] = b[j]
        j += 1
        n += 1
    return n


STRIDE = 8  # first_common's step through the larger array: one cache line of values


@njit(cache=True)
def first_common(a, b):
    """Index of the first value of the sorted ``a`` that is in the sorted ``b``, or -1.

    When ``b`` is the larger (a meeting's layer against a chunk of children), most values of ``a``
    pass several of ``b``: those are passed a :data:`STRIDE` at a time, and inside the last stride
    the values below ``a[i]`` are counted rather than stepped over (no branch to mispredict)."""
    j = 0
    nb = b.shape[0]
    for i in range(a.shape[0]):
        x = a[i]
        if j < nb and b[j] < x:
            while j + STRIDE <= nb and b[j + STRIDE - 1] < x:
                j += STRIDE
            if j + STRIDE <= nb:
                below = 0
                for k in range(STRIDE):
                    below += b[j + k] < x
                j += below
            else:
                while j < nb and b[j] < x:
                    j += 1
        if j == nb:
            return -1
        if b[j] == x:
            return i
    return -1
