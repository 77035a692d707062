"""The Genetic Rat Race: controller speed (rat-moves per second) and built-in players' scores.

Speed is measured in this process on one core; the machine is shared with
other engineers' builds, so rates are given per wall-clock second and per
CPU second of the game loop (the CPU figure is what one unshared core does).
Scores are geometric means of points over tracks 1..N (seed = track number),
10,000 turns per game, played on local worker processes.
"""

from __future__ import annotations

import time

from gridsolver import ratrace
from gridsolver.core.parallel import default_workers
from gridsolver.ratrace.controller import play_game
from gridsolver.ratrace.players import PLAYERS, load_player
from runner import Table

SPEED_PLAYERS = [("colour-score", 10_000), ("look-ahead", 10_000), ("forward", 10_000),
                 ("colour-score-numpy", 2_000), ("colour-score-python", 2_000)]
SCORE_PLAYERS = ["forward", "random", "colour-score", "look-ahead"]


def speed_table(quick: bool) -> Table:
    tracks = [5] if quick else [1, 2, 5]
    table = Table("Rat-moves per second, one core",
                  ["player", "kind", "tracks", "turns", "rat-moves", "wall s", "M rat-moves/s (wall)",
                   "M rat-moves/s (CPU)", "compile s"])
    for name, turns in SPEED_PLAYERS:
        player = load_player(name)
        turns = turns // 5 if quick else turns
        games = [play_game(player, seed, turns) for seed in tracks]
        moves = sum(g.rat_moves for g in games)
        wall = sum(g.elapsed_s for g in games)
        cpu = sum(g.cpu_s for g in games)
        table.add(name, player.kind, " ".join(map(str, tracks)), turns, moves, round(wall, 2),
                  round(moves / wall / 1e6, 2), round(moves / cpu / 1e6, 2),
                  round(max(g.compile_s for g in games), 2))
    table.notes.append("Compile s: seconds numba compiled for the game (0 when a built-in player's loop "
                       "came from the disk cache: see docs/ratrace.md, Speed); not in the rates.")
    table.notes.append("Goal: >= 8M rat-moves/s for colour-score and look-ahead; a plain Python "
                       "player within 20x of that (>= 0.4M/s).")
    return table


def score_table(quick: bool) -> Table:
    count = 10 if quick else 50
    turns = 2_000 if quick else 10_000
    workers = default_workers()
    table = Table(f"Geometric mean over tracks 1-{count} ({turns:,} turns)",
                  ["player", "geometric mean", "median", "best", "tracks at 1-2 points",
                   "max rats alive", "rat-moves", "M rat-moves/s per worker (wall)", "wall s"])
    for name in SCORE_PLAYERS:
        start = time.perf_counter()
        tournament = ratrace.play(name, tracks=count, seed=1, turns=turns, workers=workers)
        wall = time.perf_counter() - start
        points = sorted(tournament.points)
        moves = sum(r.stats.nodes for r in tournament.results)
        loops = sum(r.stats.elapsed_s for r in tournament.results)
        table.add(name, round(tournament.geometric_mean, 2), points[len(points) // 2], points[-1],
                  sum(1 for p in points if p <= 2), max(r.details["alive"] for r in tournament.results),
                  moves, round(moves / loops / 1e6, 2), round(wall, 1))
    table.notes.append(f"{workers} worker processes; track i uses seed i "
                       f"(`gridsolver ratrace play --player NAME --tracks {count} --seed 1`).")
    table.notes.append("Reference: the spec reports 28-30 for colour-score in the C++ controller "
                       "(whose rules differ in details the spec lists); this controller follows the spec.")
    table.notes.append("Built-in players: " + ", ".join(PLAYERS) + ".")
    return table


def three_ways_table(quick: bool) -> Table:
    """colour-score as a numba, a numpy and a plain Python player: same rules, same scores?"""
    count = 4 if quick else 10
    turns = 1_000 if quick else 10_000
    table = Table(f"colour-score three ways, tracks 1-{count} ({turns:,} turns)",
                  ["player", "kind", "geometric mean", "points per track", "wall s"])
    for name in ("colour-score", "colour-score-numpy", "colour-score-python"):
        start = time.perf_counter()
        tournament = ratrace.play(name, tracks=count, seed=1, turns=turns)
        wall = time.perf_counter() - start
        table.add(name, load_player(name).kind, round(tournament.geometric_mean, 2),
                  " ".join(map(str, tournament.points)), round(wall, 1))
    table.notes.append("Ties are broken at random from each kind's own generator, so single tracks "
                       "differ; the scores should agree in distribution.")
    return table


def run(quick: bool) -> list[Table]:
    return [speed_table(quick), score_table(quick), three_ways_table(quick)]
