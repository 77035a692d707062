"""Rat race: the champion on held-out tracks that no choice was tuned on.

Players are tuned and trained on track seeds below 10,000 only; this
benchmark plays seeds 1,000,000 .. 1,000,000 + N - 1, which nothing may be
tuned on. Full run: N = 600; ``--quick``: N = 60; ``RATRACE_HELDOUT_TRACKS``
overrides N (the tables say which N was run). 10,000 turns, two local workers.

For each player it reports the geometric mean with a 95% bootstrap confidence
interval over tracks (2,000 resamples, fixed seed), the share of tracks at 1-2
points, the geometric means of six equal blocks of tracks (100 tracks each in
the full run: track sets differ a lot, so the spread says how far one
100-track figure can be trusted), the median and the wall time. The
statistics are plain functions so that they can be tested.
"""

from __future__ import annotations

import os
import statistics
import time

import numpy as np

from gridsolver import ratrace
from runner import Table

PLAYERS = ["colour-score", "champion"]
FIRST_SEED = 1_000_000  # held out: tuning and training use seeds below 10,000
TURNS = 10_000
WORKERS = 2
BLOCKS = 6
RESAMPLES = 2_000
BOOTSTRAP_SEED = 18  # fixed, so that the same points give the same interval
LOW_POINTS = 2  # a track at 1-2 points: the population never really crossed


def geometric_mean(points: list[int] | np.ndarray) -> float:
    """exp(mean(log p)) of positive points."""
    return float(np.exp(np.mean(np.log(np.asarray(points, dtype=float)))))


def bootstrap_interval(points: list[int] | np.ndarray, resamples: int = RESAMPLES,
                       seed: int = BOOTSTRAP_SEED, level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of the geometric mean: resample tracks with replacement."""
    logs = np.log(np.asarray(points, dtype=float))
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(logs), size=(resamples, len(logs)))
    means = np.exp(logs[picks].mean(axis=1))
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return float(low), float(high)


def block_means(points: list[int], blocks: int = BLOCKS) -> list[float]:
    """Geometric means of ``blocks`` consecutive equal blocks of tracks (a remainder is left out)."""
    size = len(points) // blocks
    if size == 0:
        return []
    return [geometric_mean(points[i * size:(i + 1) * size]) for i in range(blocks)]


def low_share(points: list[int]) -> float:
    """The share of tracks that ended at 1-2 points."""
    return sum(p <= LOW_POINTS for p in points) / len(points)


def tournament(player: str, tracks: int) -> tuple[list[int], float]:
    start = time.monotonic()
    played = ratrace.play(player, tracks=tracks, seed=FIRST_SEED, turns=TURNS, workers=WORKERS)
    return played.points, time.monotonic() - start


def run(quick: bool) -> list[Table]:
    tracks = int(os.environ.get("RATRACE_HELDOUT_TRACKS", 60 if quick else 600))
    results = {player: tournament(player, tracks) for player in PLAYERS}
    size = tracks // BLOCKS
    last = FIRST_SEED + tracks - 1
    table = Table(
        f"Held-out tracks: seeds {FIRST_SEED:,}-{last:,} ({tracks} tracks), {TURNS:,} turns",
        ["player", "geometric mean", "95% interval", "tracks at 1-2 points",
         f"{size}-track blocks (min-max)", "median", "wall time (s)"])
    for player, (points, wall) in results.items():
        low, high = bootstrap_interval(points)
        blocks = block_means(points)
        spread = f"{min(blocks):,.1f}-{max(blocks):,.1f}" if blocks else "-"
        table.add(player, round(geometric_mean(points), 1), f"{low:,.1f}-{high:,.1f}",
                  f"{sum(p <= LOW_POINTS for p in points)} ({low_share(points):.1%})", spread,
                  statistics.median(points), round(wall, 1))
    table.notes.append(
        f"95% interval: percentile bootstrap over tracks, {RESAMPLES:,} resamples, seed {BOOTSTRAP_SEED}. "
        f"Blocks: the geometric means of {BLOCKS} consecutive blocks of {size} tracks. "
        f"{WORKERS} worker processes; wall time includes compiling and starting workers, on a shared "
        "machine. Nothing was tuned on these seeds: tuning and training use seeds below 10,000.")
    for player, (points, _) in results.items():
        table.notes.append(f"{player} blocks: " + ", ".join(f"{m:,.1f}" for m in block_means(points)) + ".")
    return [table]
