"""numba kernels for fewest moves by meeting in the middle (boards of at most 64 holes,
numbered densely: see :class:`gridsolver.pegs.meet.Dense`).

A *move* is a run of jumps by one peg. Breadth-first search by moves from
both ends: forward from the start (a move = a chain of jumps by one peg,
every prefix of the chain being a move of its own), and backward from the
finish (a reverse move = a chain of *unjumps* by one peg: a peg at ``c``
with ``b`` and ``a`` empty goes back to ``a`` and refills ``b``; reversed,
that chain is one forward move). Each side keeps a hash set of the positions
it has reached, with the number of moves, canonical under the symmetries that
fix both the start position and the finish, so a position and its images
are one entry (sound: such a symmetry maps games from the start to the
finish onto games from the start to the finish, move for move).

Why the meeting proves the minimum: if the forward set of positions within
``a`` moves and the backward set within ``b`` moves are disjoint, no game
has ``m <= a + b`` moves. (For ``m >= a`` the position after ``a`` moves is
in the forward set and ``m - a <= b`` moves from the finish; for ``m < a``
the final position is in both.) The searches grow one layer at a time and
every new position is checked against the other side's whole set, so the
first position found in both sets gives the minimum: ``a + b`` with the
sets for ``a + b - 1`` known disjoint. A side whose new layer is empty has
reached everything it can: no meeting then proves the problem impossible.

This module imports numba: import it only inside command functions.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from gridsolver.core.kernels.bits import ONE, ZERO
from gridsolver.core.kernels.clock import budget_check, time_remains
from gridsolver.core.kernels.stops import EXHAUSTED, FOUND, OUT_OF_MEMORY
from gridsolver.pegs.kernels.bitboard import CHECK_EVERY, canonical, new_slot, set_slot

MAX_LOAD = 0.6  # a layer stops (for a bigger set, or out of memory) past this load; meet.MAX_LOAD too
REFILL_CLOCK_EVERY = 1 << 16  # positions put in a grown set between two clock readings

#: The jumps grouped by from-hole: hole ``a``'s are ``start[a]:start[a + 1]``, each over the hole
#: ``over[j]`` to the hole ``to[j]`` (:func:`gridsolver.pegs.meet.adjacency`).
Chains = namedtuple("Chains", "start over to")
#: One side's set of reached positions: ``keys`` (open addressing, 0 = empty) and, slot by slot,
#: the moves it took to reach each (``levels``).
Reached = namedtuple("Reached", "keys levels")


@njit(cache=True)
def add_start(keys, levels, order, count, p):
    """Put ``p`` (already canonical) in a side's set at level 0; returns the new count."""
    slot = set_slot(keys, p)
    if keys[slot] == ZERO:
        keys[slot] = p
        levels[slot] = 0
        order[count] = p
        count += 1
    return count


@njit(cache=True)
def level_of(keys, levels, p):
    """Moves recorded for ``p`` (canonical) in a side's set, or -1."""
    slot = set_slot(keys, p)
    return -1 if keys[slot] == ZERO else np.int64(levels[slot])


@njit(cache=True)
def expand(order, lo, hi, chains, images, reverse, mine, level, theirs, node_limit, deadline_ns, stats,
           meeting):
    """Add every position one move (``reverse``: one reverse move) from ``order[lo:hi]``.

    New positions go into this side's set (``mine``) at ``level`` and are appended to
    ``order`` from ``hi``. Each is looked up in the other side's set (``theirs``); on the
    first one found there, returns FOUND with ``meeting[0]`` = the position and
    ``stats[2]`` = its level on the other side. Otherwise EXHAUSTED (the layer
    is complete; ``stats[3]`` = the new count) or a budget code. stats[0] +=
    jumps tried. OUT_OF_MEMORY: the set is full; see :func:`expand_from`.
    """
    return expand_from(order, lo, hi, hi, chains, images, reverse, mine, level, theirs, node_limit,
                       deadline_ns, stats, meeting)


@njit(cache=True)
def expand_from(order, lo, hi, count, chains, images, reverse, mine, level, theirs, node_limit, deadline_ns,
                stats, meeting):
    """:func:`expand` from ``order[lo]`` on, with ``order[hi:count]`` already found in this layer.

    When the set reaches ``MAX_LOAD`` it returns OUT_OF_MEMORY with
    ``stats[1]`` = the position being expanded, ``stats[3]`` = the count and
    ``stats[0]`` as it was before that position: after the set grows (see
    :func:`refill`), calling again with ``lo = stats[1]`` and ``count =
    stats[3]`` finishes the layer exactly as a set big enough from the start
    would have (that position's children already in the set are skipped, and
    the chains through them are still followed).
    """
    adj_start, adj_over, adj_to = chains
    keys, levels = mine
    other_keys, other_levels = theirs
    capacity = min(order.shape[0], np.int64(keys.shape[0] * MAX_LOAD))
    stack_pos = np.zeros(65, dtype=np.uint64)
    stack_bit = np.zeros(65, dtype=np.int64)
    stack_idx = np.zeros(65, dtype=np.int64)
    nodes = 0
    code = EXHAUSTED
    for i in range(lo, hi):
        p = order[i]
        before = nodes  # nodes tried before this position, for a restart at it
        pegs = p
        while pegs != ZERO:
            low = pegs & (~pegs + ONE)
            pegs ^= low
            start = 0
            while (low >> np.uint64(start)) != ONE:
                start += 1
            # depth-first over the chains of jumps (or unjumps) of the peg that began at ``start``
            sp = 0
            stack_pos[0] = p
            stack_bit[0] = start
            stack_idx[0] = adj_start[start]
            while sp >= 0:
                j = stack_idx[sp]
                a = stack_bit[sp]
                if j == adj_start[a + 1]:
                    sp -= 1
                    continue
                stack_idx[sp] = j + 1
                q = stack_pos[sp]
                b = adj_over[j]
                c = adj_to[j]
                over_full = (q >> np.uint64(b)) & ONE
                if (q >> np.uint64(c)) & ONE:
                    continue
                if reverse:
                    if over_full:
                        continue
                elif not over_full:
                    continue
                child = q ^ ((ONE << np.uint64(a)) | (ONE << np.uint64(b)) | (ONE << np.uint64(c)))
                nodes += 1
                code = budget_check(stats[0] + nodes, node_limit, deadline_ns, CHECK_EVERY)
                if code != EXHAUSTED:
                    stats[0] += nodes
                    return code
                sp += 1
                stack_pos[sp] = child
                stack_bit[sp] = c
                stack_idx[sp] = adj_start[c]
                canon = canonical(child, images)
                slot = new_slot(keys, canon)
                if slot < 0:
                    continue
                if count >= capacity:
                    stats[0] += before
                    stats[1] = i
                    stats[3] = count
                    return OUT_OF_MEMORY
                keys[slot] = canon
                levels[slot] = level
                order[count] = canon
                count += 1
                seen = level_of(other_keys, other_levels, canon)
                if seen >= 0:
                    stats[0] += nodes
                    meeting[0] = canon
                    stats[2] = seen
                    stats[3] = count
                    return FOUND
    stats[0] += nodes
    stats[3] = count
    return code


@njit(cache=True)
def refill(order, count, bounds, keys, levels, deadline_ns):
    """Put ``order[:count]`` into an empty set (``keys``, ``levels``); returns False if the
    deadline passed first (the set is then incomplete and the search over).

    Layer ``k`` is ``order[bounds[k]:bounds[k + 1]]`` and the positions past the
    last bound are the layer being built: the order holds every position of the
    side's set once, so a grown set is made from it and the old set can be
    dropped first. A big set takes a while to fill, so the clock is read as it goes.
    """
    last = bounds.shape[0] - 1
    for k in range(last + 1):
        end = count if k == last else bounds[k + 1]
        for j in range(bounds[k], end):
            if j % REFILL_CLOCK_EVERY == REFILL_CLOCK_EVERY - 1 and not time_remains(deadline_ns):
                return False
            p = order[j]
            slot = set_slot(keys, p)
            keys[slot] = p
            levels[slot] = k
    return True
