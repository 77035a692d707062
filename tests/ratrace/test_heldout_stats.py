"""The held-out benchmark's statistics (benchmarks/bench_ratrace_heldout.py) on known inputs."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from bench_ratrace_heldout import (  # noqa: E402
    block_means,
    bootstrap_interval,
    geometric_mean,
    low_share,
)


def test_geometric_mean_of_known_points():
    assert geometric_mean([1, 100]) == pytest.approx(10.0)
    assert geometric_mean([2, 8]) == pytest.approx(4.0)


def test_interval_of_equal_points_is_that_value():
    low, high = bootstrap_interval([7] * 50)
    assert low == pytest.approx(7.0) and high == pytest.approx(7.0)


def test_interval_of_two_tracks_spans_the_resampled_extremes():
    # Resampling [1, 100] gives geometric means 1 (1/4), 10 (1/2) and 100 (1/4): the 2.5th and
    # 97.5th percentiles are the extremes.
    low, high = bootstrap_interval([1, 100])
    assert low == pytest.approx(1.0) and high == pytest.approx(100.0)


def test_interval_narrows_with_more_tracks_and_holds_the_mean():
    few = [1, 1000, 30, 5, 20000, 2, 400, 60]
    many = few * 25
    few_low, few_high = bootstrap_interval(few)
    many_low, many_high = bootstrap_interval(many)
    assert few_low < many_low < geometric_mean(many) < many_high < few_high


def test_interval_is_reproducible_and_depends_on_the_seed():
    points = [1, 3, 90, 2, 5000, 17, 1, 250, 40, 8]
    assert bootstrap_interval(points) == bootstrap_interval(points)
    assert bootstrap_interval(points, seed=1) != bootstrap_interval(points, seed=2)


def test_block_means_split_tracks_in_order():
    points = [1] * 100 + [100] * 100 + [4, 16] * 50 + [10] * 300
    assert block_means(points) == pytest.approx([1, 100, 8, 10, 10, 10])
    assert block_means([5, 5, 5, 5, 5, 5, 999]) == pytest.approx([5] * 6)  # remainder left out
    assert block_means([3, 3]) == []


def test_low_share_counts_one_and_two_points():
    assert low_share([1, 2, 3, 1000]) == 0.5
    assert low_share([3, 4]) == 0.0
