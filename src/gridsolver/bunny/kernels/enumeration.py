"""The top-level search: programs one to three tokens past the library, from the start state.

With the library complete up to ``top`` tokens, :func:`search_one_past`,
:func:`search_two_past` and :func:`search_three_past` enumerate the
programs of ``top + 1``, ``top + 2`` and ``top + 3`` tokens from one state
without storing them (docs/bunny.md gives the cases and why they are
complete); each larger one calls the smaller ones for what follows a first
primitive or item. :func:`covering` answers the programs of at most ``top``
tokens: the stored entries themselves.

A solution is recorded in ``found`` as up to :data:`MAX_PIECES` pieces of
:data:`PIECE_FIELDS` integers each (kind, x, y, z, count, inner):
PIECE_ENTRY is the stored entry x; PIECE_LOOP is ``LOOP(count){x y z}``, a
body of up to three stored entries (-1 where one is absent);
PIECE_LOOP_INNER is ``LOOP(count){x LOOP(inner){y} z}``.
:meth:`gridsolver.bunny.search.Library.pieces_program` turns a row back
into a program. The searches return
:data:`~gridsolver.core.kernels.stops.OUT_OF_TIME`, or
:data:`~gridsolver.core.kernels.stops.EXHAUSTED` (``found`` full or every
program of the size tried).

This module imports numba; import it only from kernel modules.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from gridsolver.bunny.kernels.budget import expired
from gridsolver.bunny.kernels.library import KIND_LOOP, new_item
from gridsolver.bunny.kernels.orbit import NO_ENTRY, body_step, count_bound, enter, final_loop
from gridsolver.core.kernels.arrays import copy_prefix
from gridsolver.core.kernels.stops import EXHAUSTED, OUT_OF_TIME

PIECE_NONE, PIECE_ENTRY, PIECE_LOOP, PIECE_LOOP_INNER = 0, 1, 2, 3
PIECE_FIELDS = 6
MAX_PIECES = 4  # a primitive, a primitive, an item and a tail: three_past -> two_past -> one_past

#: The stored library the searches read (:class:`gridsolver.bunny.search.Library`): level k's
#: entries are ``level_start[k]:level_end[k]``, each with its kind, its end state and visited set from
#: every state (``lib_f``, ``lib_r`` into ``pool``).
Fragments = namedtuple("Fragments", "level_start level_end kinds lib_f lib_r pool")
#: Where the searches record programs: ``found`` (a row of pieces each), ``n_found[0]`` rows so far,
#: and the stamps that mark the states a loop's orbit has passed.
Answers = namedtuple("Answers", "found n_found stamp stamp_counter")

# Sizes passed as arguments are int64, never literals (see orbit.NO_ENTRY).
ZERO, ONE, TWO, THREE = np.int64(0), np.int64(1), np.int64(2), np.int64(3)

GO_ON = np.int64(-1)  # not a stop code: the case is exhausted without a stop, the caller goes on


@njit(cache=True)
def covering(first, last, lib_r, pool, start_state, target):
    """Entries in [first, last) whose visited set from ``start_state`` covers ``target``."""
    found = []
    for e in range(first, last):
        ok = True
        r = lib_r[e, start_state]
        for w in range(target.shape[0]):
            if (pool[r, w] & target[w]) != target[w]:
                ok = False
                break
        if ok:
            found.append(e)
    return found


@njit(cache=True)
def _record(found, n_found, pieces):
    row = found[n_found[0]]
    for i in range(row.shape[0]):
        row[i] = pieces[i] if i < pieces.shape[0] else 0
    n_found[0] += 1
    return n_found[0] >= found.shape[0]


@njit(cache=True, inline="always")
def _ends(status, found, n_found):
    """Whether a search that returned ``status`` ends its caller's too: a stop, or ``found`` full."""
    return status != EXHAUSTED or n_found[0] >= found.shape[0]


@njit(cache=True, inline="always")
def _set_piece(pieces, at, kind, x, y, z, count, inner=0):
    pieces[at] = kind
    pieces[at + 1] = x
    pieces[at + 2] = y
    pieces[at + 3] = z
    pieces[at + 4] = count
    pieces[at + 5] = inner


@njit(cache=True)
def _with_piece(prefix):
    """A copy of ``prefix`` with room for one more piece."""
    out = np.zeros(prefix.shape[0] + PIECE_FIELDS, np.int64)
    copy_prefix(out, prefix, prefix.shape[0])
    return out


@njit(cache=True)
def _tails(state, acc, level, frags, target, prefix, answers, stats):
    """Record every stored entry of ``level`` tokens that completes the board from ``state``."""
    level_start, level_end, lib_r, pool = frags.level_start, frags.level_end, frags.lib_r, frags.pool
    found, n_found, stamp, stamp_counter = answers
    words = target.shape[0]
    stats[0] += level_end[level] - level_start[level]
    for t in range(level_start[level], level_end[level]):
        ok = True
        for w in range(words):
            if ((acc[w] | pool[lib_r[t, state], w]) & target[w]) != target[w]:
                ok = False
                break
        if ok:
            pieces = _with_piece(prefix)
            _set_piece(pieces, prefix.shape[0], PIECE_ENTRY, t, -1, -1, 0)
            if _record(found, n_found, pieces):
                return True
    return False


@njit(cache=True)
def _items_then_tails(state, vis, first_size, last_size, total, frags, target, head, k, answers, limits,
                      stats):
    """Programs ``h t`` from ``state``: a new item h of a = first_size..last_size tokens, then a stored
    tail t of ``total - a`` tokens (at most the library's top), h written as piece ``k`` of ``head``.
    Returns EXHAUSTED when ``found`` is full, OUT_OF_TIME, or GO_ON."""
    level_start, level_end, kinds = frags.level_start, frags.level_end, frags.kinds
    found, n_found, stamp, stamp_counter = answers
    acc = np.empty(target.shape[0], np.uint64)
    for a in range(first_size, last_size + 1):
        for h in range(level_start[a], level_end[a]):
            if not new_item(kinds, h):  # only new items start a sequence
                continue
            stats[0] += 1
            if expired(limits, stats):
                return OUT_OF_TIME
            x = enter(state, vis, h, frags, acc)
            _set_piece(head, k, PIECE_ENTRY, h, -1, -1, 0)
            if _tails(x, acc, total - a, frags, target, head, answers, stats):
                return EXHAUSTED
    return GO_ON


@njit(cache=True)
def _pair_finals(state, vis, p, first_size, last_size, total, frags, target, prefix, answers, limits, stats):
    """Final loops ``LOOP{[p] h t}`` from ``state``: h a new item of c = first_size..last_size tokens,
    t a stored entry of ``total - c``, after the primitive p unless p is NO_ENTRY (-1: absent).
    Returns EXHAUSTED when one completes the board and ``found`` is full, OUT_OF_TIME, or GO_ON."""
    level_start, level_end, kinds = frags.level_start, frags.level_end, frags.kinds
    found, n_found, stamp, stamp_counter = answers
    acc = np.empty(target.shape[0], np.uint64)
    for c in range(first_size, last_size + 1):
        for h in range(level_start[c], level_end[c]):
            if not new_item(kinds, h):
                continue
            for t in range(level_start[total - c], level_end[total - c]):
                stats[0] += 1
                if expired(limits, stats):
                    return OUT_OF_TIME
                if _final(state, vis, (p, h, t, ONE), frags, target, prefix, answers, acc):
                    return EXHAUSTED
    return GO_ON


@njit(cache=True)
def search_one_past(state, vis, top, frags, target, prefix, answers, limits, stats):
    """Programs of ``top + 1`` tokens (the library holds levels 1..top) from one state.

    Either a new item of a <= top tokens followed by a stored tail of
    top + 1 - a tokens, or a final loop over a body of ``top`` tokens.
    Returns OUT_OF_TIME, or EXHAUSTED (``found`` full or the level exhausted).
    """
    level_start, level_end, kinds = frags.level_start, frags.level_end, frags.kinds
    found, n_found, stamp, stamp_counter = answers
    acc = np.empty(target.shape[0], np.uint64)
    k = prefix.shape[0]
    head = _with_piece(prefix)
    status = _items_then_tails(state, vis, ONE, top, top + 1, frags, target, head, k, answers, limits, stats)
    if status != GO_ON:
        return status
    for b in range(level_start[top], level_end[top]):
        if kinds[b] == KIND_LOOP:  # LOOP{LOOP(n){c}} behaves as LOOP{c}, one token shorter
            continue
        stats[0] += 1
        if expired(limits, stats):
            return OUT_OF_TIME
        if _final(state, vis, (b, NO_ENTRY, NO_ENTRY, ONE), frags, target, prefix, answers, acc):
            return EXHAUSTED
    return EXHAUSTED


@njit(cache=True)
def _loop_then_tail(state, vis, first, second, tail_level, frags, target, prefix, answers, stats):
    """``LOOP(n){first second}`` from ``state`` for every count n >= 2 that can differ, then a stored
    tail of ``tail_level`` tokens. The loop is entered once, so counts past its closed orbit and
    once round again repeat what smaller ones give. True when ``found`` is full."""
    lib_f = frags.lib_f
    found, n_found, stamp, stamp_counter = answers
    n_states = lib_f.shape[1]
    acc = np.empty(target.shape[0], np.uint64)
    head = _with_piece(prefix)
    k = prefix.shape[0]
    stamp_counter[0] += 1
    x = state
    copy_prefix(acc, vis, vis.shape[0])
    n = 0
    closed_at = -1
    while closed_at < 0 or n < 2 * closed_at + 1:
        if closed_at < 0 and stamp[x] == stamp_counter[0]:
            closed_at = n
        stamp[x] = stamp_counter[0]
        x = body_step(x, (first, second, NO_ENTRY, ONE), frags, acc)
        n += 1
        if n > 2 * n_states + 2:
            break
        if n >= 2:  # LOOP(1){b} is b, one token shorter
            _set_piece(head, k, PIECE_LOOP, first, second, -1, n)
            if _tails(np.int64(x), acc, tail_level, frags, target, head, answers, stats):
                return True
    return False


@njit(cache=True)
def _final(state, vis, body, frags, target, prefix, answers, acc):
    """Record the final loop ``LOOP{first LOOP(repeats){second} third}`` (``body`` = (first, second,
    third, repeats); repeats 1: ``LOOP{first second third}``; -1 entries absent) when iterating it from
    ``state`` completes the board. True when ``found`` is full."""
    first, second, third, repeats = body
    found, n_found, stamp, stamp_counter = answers
    stamp_counter[0] += 1
    n = final_loop(state, vis, body, frags, target, stamp, stamp_counter[0], acc)
    if n == 0:
        return False
    pieces = _with_piece(prefix)
    if repeats == 1:
        _set_piece(pieces, prefix.shape[0], PIECE_LOOP, first, second, third, n)
    else:
        _set_piece(pieces, prefix.shape[0], PIECE_LOOP_INNER, first, second, third, n, repeats)
    return _record(found, n_found, pieces)


@njit(cache=True)
def search_two_past(state, vis, top, frags, target, prefix, answers, limits, stats):
    """Programs of ``top + 2`` tokens from one state (the library holds levels 1..top).

    The first item of such a program is a primitive (then ``top + 1`` tokens
    follow: :func:`search_one_past`), a stored item with a stored tail, a loop over
    a ``top``-token body with some count followed by one primitive, or a final
    loop over a ``top + 1``-token body (a new item then a stored entry).
    """
    level_start, level_end, kinds = frags.level_start, frags.level_end, frags.kinds
    found, n_found, stamp, stamp_counter = answers
    acc = np.empty(target.shape[0], np.uint64)
    k = prefix.shape[0]
    head = _with_piece(prefix)
    for h in range(level_start[1], level_end[1]):
        x = enter(state, vis, h, frags, acc)
        _set_piece(head, k, PIECE_ENTRY, h, -1, -1, 0)
        status = search_one_past(x, acc, top, frags, target, head, answers, limits, stats)
        if _ends(status, found, n_found):
            return status
    status = _items_then_tails(state, vis, TWO, top, top + 2, frags, target, head, k, answers, limits, stats)
    if status != GO_ON:
        return status
    # LOOP(n){b} with b of `top` tokens, then one primitive.
    for b in range(level_start[top], level_end[top]):
        if kinds[b] == KIND_LOOP:  # LOOP(n){LOOP(m){c}} is LOOP(nm){c}, one token shorter
            continue
        stats[0] += 1
        if expired(limits, stats):
            return OUT_OF_TIME
        if _loop_then_tail(state, vis, b, NO_ENTRY, ONE, frags, target, prefix, answers, stats):
            return EXHAUSTED
    # A final loop whose body is a new item of a tokens followed by a stored entry of top + 1 - a.
    status = _pair_finals(state, vis, NO_ENTRY, ONE, top, top + 1, frags, target, prefix, answers, limits,
                          stats)
    return OUT_OF_TIME if status == OUT_OF_TIME else EXHAUSTED


@njit(cache=True)
def _layer_finals(state, vis, top, frags, target, answers, count_cap, limits, stats):
    """The final loops ``LOOP{p LOOP(n){b}}`` and ``LOOP{LOOP(n){b} p}`` (p a primitive, b of ``top``
    tokens, every count n that can differ) without the loop layer stored: each inner loop is run
    count by count. Returns OUT_OF_TIME, or EXHAUSTED (``found`` full or all tried)."""
    level_start, level_end, kinds, lib_f = frags.level_start, frags.level_end, frags.kinds, frags.lib_f
    found, n_found, stamp, stamp_counter = answers
    acc = np.empty(target.shape[0], np.uint64)
    empty = np.zeros(0, np.int64)
    no = NO_ENTRY
    for b in range(level_start[top], level_end[top]):
        if kinds[b] == KIND_LOOP:  # LOOP(n){LOOP(m){c}} is LOOP(nm){c}
            continue
        last_count = count_bound(lib_f[b], count_cap)
        for n in range(2, last_count + 1):
            for p in range(level_start[1], level_end[1]):
                for before in range(2):
                    stats[0] += 1 + n // 16
                    if expired(limits, stats):
                        return OUT_OF_TIME
                    first = p if before == 1 else no
                    last = no if before == 1 else p
                    if _final(state, vis, (first, b, last, n), frags, target, empty, answers, acc):
                        return EXHAUSTED
    return EXHAUSTED


@njit(cache=True)
def search_three_past(state, vis, top, frags, target, answers, virtual, count_cap, limits, stats):
    """Programs of ``top + 3`` tokens from one state: levels 1..top complete, plus the loop layer.

    The loop layer, level ``top + 1`` of the library, holds the new ``LOOP(n){b}`` behaviours with
    b of ``top`` tokens (every count) but none of that level's sequences. When ``virtual`` is set
    (top >= 2), the layer is not stored: its loops are run from the states where they start
    instead (from the start state, every count up to the closed orbit; inside a final loop, every
    count up to :func:`count_bound`). The first item of a program is (searched in the order
    third case, fourth, then the first two: those hold by far the most programs, so a program of
    the others is found sooner; on 400-square 8-token boards this halved the nodes to the optimum):

    - a primitive, then ``top + 2`` tokens (:func:`search_two_past`);
    - a stored item of 2..top + 1 tokens, then the rest: a stored tail, or :func:`search_one_past`
      when ``top + 1`` tokens are left (only when top = 1 or for two-token items);
    - a loop of ``top + 2`` tokens (its body a new item of c <= top tokens and a stored entry of
      top + 1 - c) with every count that can differ, then one primitive;
    - the final loop, over ``top + 2`` tokens: a primitive, a new item and a stored entry (or
      a primitive and a loop-layer item); a new item of 2..top tokens and a stored entry; or a
      loop-layer item and a primitive. (A body that is one loop is one token too many:
      ``LOOP{LOOP(n){b}}`` behaves as ``LOOP{b}``.)
    """
    level_start, level_end, kinds = frags.level_start, frags.level_end, frags.kinds
    found, n_found, stamp, stamp_counter = answers
    words = target.shape[0]
    acc = np.empty(words, np.uint64)
    head = np.zeros(PIECE_FIELDS, np.int64)
    empty = np.zeros(0, np.int64)
    no = NO_ENTRY
    layer = top + 1
    stored_layer = layer if virtual == 0 else top  # the last level whose items are stored
    if virtual != 0:  # a layer loop first (entered once: its orbit's counts), then two tokens
        for b in range(level_start[top], level_end[top]):
            if kinds[b] == KIND_LOOP:  # LOOP(n){LOOP(m){c}} is LOOP(nm){c}
                continue
            stats[0] += 1
            if expired(limits, stats):
                return OUT_OF_TIME
            if _loop_then_tail(state, vis, b, no, TWO, frags, target, empty, answers, stats):
                return EXHAUSTED
    # LOOP(n){h t} (h a new item of c tokens, t stored of top + 1 - c), then one primitive.
    for c in range(1, top + 1):
        for h in range(level_start[c], level_end[c]):
            if not new_item(kinds, h):
                continue
            for t in range(level_start[top + 1 - c], level_end[top + 1 - c]):
                stats[0] += 1
                if expired(limits, stats):
                    return OUT_OF_TIME
                if _loop_then_tail(state, vis, h, t, ONE, frags, target, empty, answers, stats):
                    return EXHAUSTED
    # The final loop over top + 2 tokens.
    for p in range(level_start[1], level_end[1]):
        status = _pair_finals(state, vis, np.int64(p), ONE, top, top + 1, frags, target, empty, answers,
                              limits, stats)
        if status != GO_ON:
            return status
        for h in range(level_start[layer], level_end[layer] if virtual == 0 else level_start[layer]):
            stats[0] += 1
            if expired(limits, stats):
                return OUT_OF_TIME
            if _final(state, vis, (p, h, no, ONE), frags, target, empty, answers, acc):
                return EXHAUSTED
    status = _pair_finals(state, vis, no, TWO, stored_layer, top + 2, frags, target, empty, answers, limits,
                          stats)
    if status != GO_ON:
        return status
    if virtual != 0:
        status = _layer_finals(state, vis, top, frags, target, answers, count_cap, limits, stats)
        if _ends(status, found, n_found):
            return status
    # Last, the cases that open with a stored item: by far the most programs, so a program of
    # the cases above is found before them (the level's proof needs every case either way).
    for h in range(level_start[1], level_end[1]):
        x = enter(state, vis, h, frags, acc)
        _set_piece(head, 0, PIECE_ENTRY, h, -1, -1, 0)
        status = search_two_past(x, acc, top, frags, target, head, answers, limits, stats)
        if _ends(status, found, n_found):
            return status
    # A two-token item leaves top + 1 tokens (search_one_past); a larger one, a stored tail.
    for h in range(level_start[2], level_end[2] if stored_layer >= 2 else level_start[2]):
        if not new_item(kinds, h):
            continue
        stats[0] += 1
        if expired(limits, stats):
            return OUT_OF_TIME
        x = enter(state, vis, h, frags, acc)
        _set_piece(head, 0, PIECE_ENTRY, h, -1, -1, 0)
        status = search_one_past(x, acc, top, frags, target, head, answers, limits, stats)
        if _ends(status, found, n_found):
            return status
    status = _items_then_tails(state, vis, THREE, stored_layer, top + 3, frags, target, head, ZERO, answers,
                               limits, stats)
    if status != GO_ON:
        return status
    return EXHAUSTED
