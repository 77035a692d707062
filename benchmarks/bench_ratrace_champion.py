"""Rat race: the champion player against every built-in player, over the same tracks.

Every player plays tracks 1..N of a tournament from seed 0 (track i uses seed
i - 1, as ``gridsolver ratrace play --player NAME --tracks N``), 10,000 turns,
on two local worker processes. Full run: N = 100; ``--quick``: N = 10.
``RATRACE_CHAMPION_TRACKS`` overrides N (the tables say which N was run).
"""

from __future__ import annotations

import os
import statistics
import time

from gridsolver import ratrace
from runner import Table

PLAYERS = ["forward", "random", "colour-score", "look-ahead", "champion"]
TURNS = 10_000
WORKERS = 2
BINS = [(1, 2), (3, 10), (11, 100), (101, 1_000), (1_001, 10_000), (10_001, 100_000),
        (100_001, 1_000_000), (1_000_001, 10**12)]


def tournament(player: str, tracks: int) -> tuple[ratrace.Tournament, float]:
    start = time.monotonic()
    played = ratrace.play(player, tracks=tracks, seed=0, turns=TURNS, workers=WORKERS)
    return played, time.monotonic() - start


def run(quick: bool) -> list[Table]:
    tracks = int(os.environ.get("RATRACE_CHAMPION_TRACKS", 10 if quick else 100))
    results = {player: tournament(player, tracks) for player in PLAYERS}

    means = Table(
        f"Geometric mean of points over tracks 1-{tracks} (seeds 0-{tracks - 1}), {TURNS:,} turns",
        ["player", "geometric mean", "median", "best", "tracks at 1-2 points", "wall time (s)",
         "rat-moves/s per worker"])
    for player, (played, wall) in results.items():
        points = played.points
        moves = sum(r.stats.nodes for r in played.results)
        loop_s = sum(r.stats.elapsed_s for r in played.results)
        means.add(player, round(played.geometric_mean, 1), statistics.median(points), max(points),
                  sum(p <= 2 for p in points), round(wall, 1),
                  f"{moves / loop_s / 1e6:.2f}M" if loop_s else "-")
    means.notes.append(f"{WORKERS} worker processes; wall time includes compiling and starting workers. "
                       "The machine was shared with other engineers' builds and tests, so times are noisy.")

    champion = results["champion"][0].points
    spread = Table(f"champion: points per track over {tracks} tracks", ["points", "tracks"])
    for low, high in BINS:
        label = f"{low:,}-{high:,}" if high < 10**12 else f"over {low - 1:,}"
        spread.add(label, sum(low <= p <= high for p in champion))
    details = [r.details for r in results["champion"][0].results]
    spread.notes.append(
        f"Rats alive at the end: median {statistics.median(d['alive'] for d in details):,.0f}, "
        f"largest {max(d['alive'] for d in details):,}; largest population during a game "
        f"{max(d['peak_rats'] for d in details):,}.")
    return [means, spread]
