"""Sorted keys, each once: the radix sort kernel and the machine's choice against Python's sorted sets."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridsolver.core import sorting
from gridsolver.core.kernels.keys import SMALL, sort_unique_radix, unique_in_place


def _keys(data: st.DataObject) -> list[int]:
    """Keys of a drawn width, few or many, with repeats likely (a layer's children repeat)."""
    width = data.draw(st.sampled_from([0, 1, 3, 11, 12, 22, 23, 33, 41, 63, 64]))
    top = (1 << width) - 1
    size = data.draw(st.sampled_from([0, 1, 2, SMALL, SMALL + 1, 300, 5000]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    pool = rng.integers(0, top, size=max(1, size // 3), dtype=np.uint64, endpoint=True) if top else [0]
    return [int(k) for k in rng.choice(pool, size=size)] + data.draw(st.lists(st.sampled_from([0, top]),
                                                                              max_size=3))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_radix_sort_keeps_each_key_once_in_order(data):
    """Every width (so one, two or three digits below the top bits: both ends of the passes' swaps),
    buckets sorted by insertion and by digits, zeros and the largest key."""
    keys = _keys(data)
    values = np.array(keys, dtype=np.uint64)
    scratch = np.full(len(values), 7, dtype=np.uint64)
    kept = sort_unique_radix(values, scratch)
    assert values[:kept].tolist() == sorted(set(keys))


def test_the_radix_sort_of_a_chunk_of_children():
    """A chunk's worth of 41-bit keys, many in the same buckets (many buckets, each past insertion)."""
    rng = np.random.default_rng(3)
    keys = rng.integers(0, 1 << 41, size=1 << 17, dtype=np.uint64) & ~np.uint64(0xFF0)
    values = keys.copy()
    kept = sort_unique_radix(values, np.empty_like(values))
    assert np.array_equal(values[:kept], np.unique(keys))


@pytest.mark.parametrize("radix", [True, False])
def test_either_sort_the_machine_chooses_gives_the_same_keys(monkeypatch, radix):
    monkeypatch.setattr(sorting, "_radix_faster", radix)
    rng = np.random.default_rng(5)
    keys = rng.integers(0, 1 << 20, size=sorting.TRIAL_KEYS, dtype=np.uint64)
    values = keys.copy()
    kept = sorting.sort_unique(values, np.empty_like(values))
    assert np.array_equal(values[:kept], np.unique(keys))


def test_the_machine_times_both_sorts_once(monkeypatch):
    monkeypatch.setattr(sorting, "_radix_faster", None)
    choice = sorting.radix_is_faster()
    assert sorting._radix_faster is choice
    monkeypatch.setattr(sorting, "radix_sort_unique", None)  # not timed again
    assert sorting.radix_is_faster() is choice


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 9), max_size=40))
def test_repeats_are_dropped_from_sorted_keys(keys):
    values = np.array(sorted(keys), dtype=np.uint64)
    kept = unique_in_place(values)
    assert values[:kept].tolist() == sorted(set(keys))
