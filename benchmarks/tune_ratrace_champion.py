"""Tune the rat race champion's parameters on training tracks; not a run.py section.

A variant is the champion's decision rule (``kernels/planner.py``) with other
parameters: the wander rate and how the 6-bit colour codes decode into
beliefs; the doubting variants (:func:`choose_doubting`) live here only.
``before`` is the champion's decoding before the ``hamming`` layout (the
variants other than the layouts change that one); ``hamming`` is the
champion's own (why: docs/research/ratrace.md, "Genome layouts that unlearn
a wrong belief"). Every variant plays the same (track, game seed) pairs: track seeds
``--first`` .. ``--first + --tracks - 1`` (keep them below 10,000: seeds from
1,000,000 on are held out), game seeds ``track + 7 + 1000 * g`` for
``g < --games``, ``--turns`` turns each (3,000: a game's points at 3,000 turns
predict its points at 10,000 well, see docs/research/ratrace.md).

For each variant it prints the take-off rate (games above 100 points), the
share at 1-2 points and the geometric mean of points with a 95% bootstrap
interval over tracks; for each variant after the first, the ratio of its
geometric mean to the first's with a paired bootstrap interval over tracks
(the same pairs, so track-to-track luck cancels). Games are appended to
``--out`` (JSON lines) and a rerun skips the games already there, so a long
run can be stopped and resumed.

    python benchmarks/tune_ratrace_champion.py --variants before fewer-avoid --first 3000 --tracks 250
    python benchmarks/tune_ratrace_champion.py --variants before hamming --first 3000 --tracks 500
    python benchmarks/tune_ratrace_champion.py --list

Games are seeded per pair, so the points do not depend on ``--workers``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from gridsolver.ratrace.beliefs import KIND_AVOID, KIND_PLAIN, KIND_TELEPORT, KIND_TRAP, TRAP_OFFSETS
from gridsolver.ratrace.kernels import planner
from gridsolver.ratrace.kernels.planner import draw, plan_decoded, with_belief

HELD_OUT = 1_000_000  # seeds from here on are the held-out benchmark's
TAKE_OFF = 100  # points above which a population has crossed for good
RESAMPLES = 2_000


def before_table() -> np.ndarray:
    """The champion's decoding before the ``hamming`` layout was adopted (docs/research/ratrace.md).

    Kinds 0-1 (``kind = code & 3``, ``p = code >> 2``): plain; kind 2: a trap
    at offset ``(p % 3 - 1, p // 3 - 1)``, "never step" for ``p == 4`` or
    ``p >= 9``; kind 3: a teleporter by ``(1 + (p & 1), (p >> 1) - 4)``. Kept
    here so that ``before`` and the variants derived from it keep their
    meaning and the earlier comparisons reproduce.
    """
    table = np.zeros((64, 3), np.int64)
    for code in range(64):
        kind, param = code & 3, code >> 2
        if kind == 2 and (param == 4 or param >= 9):
            table[code] = (KIND_AVOID, 0, 0)
        elif kind == 2:
            table[code] = (KIND_TRAP, param % 3 - 1, param // 3 - 1)
        elif kind == 3:
            table[code] = (KIND_TELEPORT, 1 + (param & 1), (param >> 1) - 4)
    return table


# Layouts in which one bit flip turns a "plain" belief into "never step" more often (see the rat
# race's research notes). In the `before` table only 8 of the 32 plain codes
# have a "never step" neighbour, so a wall that the whole front believes plain is unlearnt slowly.


def hamming_table() -> np.ndarray:
    """The ``hamming`` layout, the champion's own: a code's syndrome is its kind.

    Built here from the package's :func:`planner.syndrome` and
    :data:`beliefs.TRAP_OFFSETS` rather than taken from ``planner.DECODE``,
    so a test can check the two agree. Syndrome 0 (8 codes): never step;
    1-4 (32): plain, each one flip from one "never step" code; 5 and 6 (16):
    a teleporter by ``(1 or 2, param - 4)``; 7 (8): a trap at the param-th
    neighbour offset (param: bits 3-5). A random genome holds the same shares
    of beliefs as under ``before`` (50 / 12.5 / 12.5 / 25%).
    """
    table = np.zeros((64, 3), np.int64)
    for code in range(64):
        kind, param = int(planner.syndrome(code)), code >> 3
        if kind == 0:
            table[code] = (KIND_AVOID, 0, 0)
        elif kind in (5, 6):
            table[code] = (KIND_TELEPORT, kind - 4, param - 4)
        elif kind == 7:
            table[code] = (KIND_TRAP, *TRAP_OFFSETS[param])
    return table


# Four codes 3 or more flips apart: their 24 neighbours are distinct.
_SPREAD_AVOID = (0b000000, 0b000111, 0b111000, 0b111111)


def spread_table() -> np.ndarray:
    """The ``spread`` layout: 4 "never step" codes (6.25%, as ``fewer-avoid``) 3 flips apart.

    Their 24 neighbours, and the 12 other codes with the most plain
    neighbours among those, are plain (36 codes, 24 of them one flip from
    "never step"); the 8 of the rest with the most plain neighbours are traps,
    the last 16 teleporters (params in code order).
    """
    def near(code: int, group: set[int]) -> int:
        return sum((code ^ (1 << bit)) in group for bit in range(6))

    avoid = set(_SPREAD_AVOID)
    rest = [c for c in range(64) if c not in avoid]
    plain = {c for c in rest if near(c, avoid)}
    others = sorted((c for c in rest if c not in plain), key=lambda c: (-near(c, plain), c))
    plain |= set(others[:36 - len(plain)])
    others = sorted((c for c in rest if c not in plain), key=lambda c: (-near(c, plain), c))
    table = np.zeros((64, 3), np.int64)
    for code in avoid:
        table[code] = (KIND_AVOID, 0, 0)
    for i, code in enumerate(others[:8]):
        table[code] = (KIND_TRAP, *TRAP_OFFSETS[i])
    for i, code in enumerate(sorted(others[8:])):
        table[code] = (KIND_TELEPORT, 1 + i // 8, i % 8 - 4)
    return table


# Kinds of codes 0..63 (P plain, A never step, T trap, L teleporter), found once by simulated
# annealing over swaps with the shares fixed (score: 10 per plain code one flip from "never step",
# minus 1 per flip from plain to trap or teleporter): every plain code is one flip from "never
# step" (1.19 such flips on average), and only 1.19 of its flips give a trap or teleporter
# (hamming: 2.5; before: 0.75). The tests check these properties, not the search.
_QUIET = "LATPLPLTLPLPTPTPPATPLPLPTPLPLPLAPPLPAPLPPPLAPALPPPLPPPTAAPTPPPLP"


def quiet_table() -> np.ndarray:
    """The ``quiet`` layout: :data:`_QUIET`'s kinds; traps and teleporters take params in code order."""
    table = np.zeros((64, 3), np.int64)
    traps = [c for c in range(64) if _QUIET[c] == "T"]
    jumps = [c for c in range(64) if _QUIET[c] == "L"]
    for code in range(64):
        if _QUIET[code] == "A":
            table[code] = (KIND_AVOID, 0, 0)
    for i, code in enumerate(traps):
        table[code] = (KIND_TRAP, *TRAP_OFFSETS[i])
    for i, code in enumerate(jumps):
        table[code] = (KIND_TELEPORT, 1 + i // 8, i % 8 - 4)
    return table


LAYOUTS = {"hamming": hamming_table, "spread": spread_table, "quiet": quiet_table}


def flip_stats(table: np.ndarray) -> dict[str, float]:
    """Mean number of the 6 single flips that turn one belief kind into another.

    ``plain->avoid`` is the mean over plain codes (uniform: selection does not
    tell plain codes apart, so a population drifts among them) of the flips
    that give "never step"; a child of a plain-believing parent believes
    "never step" through mutation with probability about 0.01 times it.
    """
    names = {KIND_PLAIN: "plain", KIND_AVOID: "avoid", KIND_TRAP: "trap",
             KIND_TELEPORT: "teleport"}
    stats: dict[str, float] = {}
    for kind, name in names.items():
        codes = [c for c in range(64) if table[c, 0] == kind]
        stats[f"share {name}"] = len(codes) / 64
        for other, other_name in names.items():
            if other != kind and codes:
                flips = sum(table[c ^ (1 << b), 0] == other for c in codes for b in range(6))
                stats[f"{name}->{other_name}"] = float(flips) / len(codes)
    return stats


@dataclass(frozen=True)
class Variant:
    """Parameters of the champion's rule.

    Codes are read as in :func:`before_table` (kind = the low two bits, p =
    the other four; the champion's decoding before the ``hamming`` layout), then changed:

    - ``avoid_from_plain``: how many of the 16 kind-1 codes ("plain") mean
      "never step" instead, the ones with the largest p;
    - ``plain_from_avoid``: how many of the 7 kind-2 codes with p 9..15
      ("never step") mean "plain" instead, the ones with the largest p;
    - ``short_teleports``: kind-3 codes describe jumps of dy -2..2 only
      (``p < 10``: dx ``1 + p % 2``, dy ``p // 2 - 2``), the other six mean
      "never step" (``before``'s kind 3 covers dy -4..3);
    - ``plain_far_teleports``: kind-3 codes of a jump with dy -4 or 3 (which
      the search can hardly use: the landing is off the view or on its
      border) mean "plain";
    - ``doubt``: how often a rat doubts its beliefs about the colours its
      best steps enter and replans as if they were "never step", sliding
      along the barrier if that boxes it in (:func:`choose_doubting`:
      a rat pushing into a wall it believes plain walks around it);
    - ``doubt_bit``: only rats whose genome bit 99 (unused by the champion)
      is set doubt, so selection decides per track whether doubting pays;
    - ``layout``: a name in :data:`LAYOUTS`: read codes through that table
      instead (the other decoding fields then change nothing).
    """

    wander: float = 1 / 24
    avoid_from_plain: int = 0
    plain_from_avoid: int = 0
    short_teleports: bool = False
    plain_far_teleports: bool = False
    doubt: float = 0.0
    doubt_bit: bool = False
    layout: str = ""

    def decode(self) -> np.ndarray:
        if self.layout:
            return LAYOUTS[self.layout]()
        table = before_table()
        for code in range(64):
            kind, param = code & 3, code >> 2
            if kind == 1 and param >= 16 - self.avoid_from_plain:
                table[code] = (KIND_AVOID, 0, 0)
            if kind == 2 and param >= max(9, 16 - self.plain_from_avoid):
                table[code] = (KIND_PLAIN, 0, 0)
            if kind == 3 and self.plain_far_teleports and param >> 1 in (0, 7):
                table[code] = (KIND_PLAIN, 0, 0)
            if kind == 3 and self.short_teleports:
                jump = (KIND_TELEPORT, 1 + param % 2, param // 2 - 2)
                table[code] = jump if param < 10 else (KIND_AVOID, 0, 0)
        return table


#: Named variants (the first one in a run is the reference of the ratios).
VARIANTS: dict[str, Variant] = {
    "before": Variant(),
    "wander16": Variant(wander=1 / 16),
    "wander36": Variant(wander=1 / 36),
    "more-avoid": Variant(avoid_from_plain=8),
    "short-teleports": Variant(short_teleports=True),
    "plain-far-teleports": Variant(plain_far_teleports=True),
    "fewer-avoid": Variant(plain_from_avoid=4),
    "no-avoid": Variant(plain_from_avoid=7),
    "lean": Variant(plain_from_avoid=4, plain_far_teleports=True),
    "doubt8": Variant(doubt=1 / 8),
    "doubt4": Variant(doubt=1 / 4),
    "doubt8-bit": Variant(doubt=1 / 8, doubt_bit=True),
    "hamming": Variant(layout="hamming"),
    "spread": Variant(layout="spread"),
    "quiet": Variant(layout="quiet"),
}


@njit(cache=True)
def _first_code(decode: np.ndarray, kind: int) -> int:
    """The first 6-bit code ``decode`` reads as ``kind`` (-1: none)."""
    for code in range(decode.shape[0]):
        if decode[code, 0] == kind:
            return code
    return -1


_SLIDE_BIT = np.uint64(1 << 33)  # genome bit 97 (word 1, bit 33): slide when boxed in


@njit(cache=True)
def choose_doubting(view: np.ndarray, genome: np.ndarray, decode: np.ndarray, wander: bool,
                    doubting: bool) -> int:
    """:func:`planner.choose_decoded`, except on a ``doubting`` turn (a variant only this script plays).

    On such a turn the rat draws one of its best steps and doubts the colour it
    enters: it replans with a genome that calls that colour "never step" and
    slides (bit 97) when boxed in, and takes any believed-safe step if even that
    finds nothing. A memoryless rat pushing into a wall it believes plain cannot
    tell it is stuck; doubting now and then walks it around the wall without
    waiting for the population to learn it. The colour the rat stands on is
    never doubted: it is surely no wall and not lethal.
    """
    best, safe, bold = plan_decoded(view, genome, decode)
    if best == 0:
        return bold if bold else safe
    if wander:
        return safe
    if not doubting:
        return best
    avoid_code = _first_code(decode, KIND_AVOID)
    if avoid_code < 0:
        return best
    dx, dy = draw(best)
    colour = view[dy + 2, dx + 2]
    if colour == view[2, 2]:
        return 1 << ((dy + 1) * 3 + dx + 1)
    doubter = with_belief(genome, colour, avoid_code)
    doubter[1] |= _SLIDE_BIT
    detour = plan_decoded(view, doubter, decode)[0]
    return detour if detour else safe


def make_player(decode: np.ndarray, wander: float, doubt: float = 0.0, doubt_bit: bool = False) -> Any:
    """A numba player playing the champion's rule with other parameters (see :class:`Variant`).

    They are frozen into the compiled function as constants, so a variant
    runs as fast as the champion. Defined here, outside the package, on
    purpose: the controller caches the game loop of a package player on
    disk, and cached loops of two closures from one factory can call each
    other's code (seen: a second variant replayed the first's games).
    A player from this module is compiled afresh in every process.
    """
    table = np.ascontiguousarray(decode, dtype=np.int64)
    rate = float(wander)
    if table.shape != (64, 3):
        raise ValueError(f"decode must have shape (64, 3), not {table.shape}")

    if doubt <= 0:  # the champion's draws exactly: one random number, then the move
        @njit
        def variant(view: np.ndarray, genome: np.ndarray) -> tuple[int, int]:
            return draw(planner.choose_decoded(view, genome, table, np.random.random() < rate))

        return variant
    doubt_rate = float(doubt)
    every_rat = not doubt_bit

    @njit
    def doubting(view: np.ndarray, genome: np.ndarray) -> tuple[int, int]:
        wander = np.random.random() < rate
        doubts = np.random.random() < doubt_rate
        if not every_rat:
            doubts = doubts and (genome[1] >> np.uint64(35)) & np.uint64(1) == np.uint64(1)
        return draw(choose_doubting(view, genome, table, wander, doubts))

    return doubting


def pairs(first: int, tracks: int, games: int) -> Iterator[tuple[int, int]]:
    """The (track seed, game seed) pairs every variant plays."""
    for track in range(first, first + tracks):
        for g in range(games):
            yield track, track + 7 + 1000 * g


_PLAYERS: dict[str, Any] = {}


def play_one(name: str, track_seed: int, game_seed: int, turns: int) -> dict[str, Any]:
    """One game of variant ``name``; the player is compiled once per process."""
    from gridsolver.ratrace.controller import play_on_track
    from gridsolver.ratrace.generate import generate_track
    from gridsolver.ratrace.players import Player

    if name not in _PLAYERS:
        variant = VARIANTS[name]
        made = make_player(variant.decode(), variant.wander, variant.doubt, variant.doubt_bit)
        _PLAYERS[name] = Player(name, made, "numba")
    game = play_on_track(_PLAYERS[name], generate_track(track_seed), game_seed, turns)
    return {"v": name, "track": track_seed, "game": game_seed, "turns": turns,
            "points": int(game.points), "alive": int(game.alive), "moves": int(game.rat_moves),
            "s": round(game.elapsed_s, 3)}


def load(path: Path) -> dict[tuple[str, int, int, int], int]:
    """Points of the games already in ``path``, by (variant, track, game seed, turns)."""
    if not path.exists():
        return {}
    rows = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return {(r["v"], r["track"], r["game"], r["turns"]): r["points"] for r in rows}


def run(names: list[str], todo: list[tuple[int, int]], turns: int, workers: int, out: Path) -> None:
    """Play the games of ``names`` x ``todo`` missing from ``out``, appending each as it ends."""
    done = load(out)
    jobs = [(n, t, g) for n in names for t, g in todo if (n, t, g, turns) not in done]
    with out.open("a") as sink:
        if workers <= 1:
            for n, t, g in jobs:
                sink.write(json.dumps(play_one(n, t, g, turns)) + "\n")
                sink.flush()
            return
        with ProcessPoolExecutor(workers) as pool:
            futures = [pool.submit(play_one, n, t, g, turns) for n, t, g in jobs]
            for future in futures:
                sink.write(json.dumps(future.result()) + "\n")
                sink.flush()


def _bootstrap(by_track: dict[int, list[float]], seed: int) -> tuple[float, float]:
    """95% percentile interval of exp(mean) when tracks are resampled."""
    rng = random.Random(seed)
    tracks = sorted(by_track)
    means = []
    for _ in range(RESAMPLES):
        values = [x for t in rng.choices(tracks, k=len(tracks)) for x in by_track[t]]
        means.append(math.exp(sum(values) / len(values)))
    means.sort()
    return means[int(0.025 * RESAMPLES)], means[int(0.975 * RESAMPLES) - 1]


def summary(points: dict[tuple[int, int], int], reference: dict[tuple[int, int], int] | None) -> str:
    """One report line: take-off, 1-2 share, geometric mean (interval), ratio to the reference."""
    keys = sorted(points if reference is None else set(points) & set(reference))
    logs: dict[int, list[float]] = {}
    for track, game in keys:
        logs.setdefault(track, []).append(math.log(points[track, game]))
    n = len(keys)
    mean = math.exp(sum(math.log(points[k]) for k in keys) / n)
    low, high = _bootstrap(logs, 1)
    line = (f"games {n:5d}  take-off {sum(points[k] > TAKE_OFF for k in keys) / n:6.1%}  "
            f"at 1-2 {sum(points[k] <= 2 for k in keys) / n:6.1%}  "
            f"geometric mean {mean:9.1f} ({low:.1f}-{high:.1f})")
    if reference is not None:
        diffs: dict[int, list[float]] = {}
        for track, game in keys:
            gain = math.log(points[track, game]) - math.log(reference[track, game])
            diffs.setdefault(track, []).append(gain)
        ratio = math.exp(sum(x for d in diffs.values() for x in d) / n)
        low, high = _bootstrap(diffs, 2)
        line += f"  ratio {ratio:.2f} ({low:.2f}-{high:.2f})"
    return line


def report(names: list[str], todo: list[tuple[int, int]], turns: int, out: Path) -> None:
    done = load(out)
    wanted = set(todo)
    by_name: dict[str, dict[tuple[int, int], int]] = {n: {} for n in names}
    for (name, track, game, length), points in done.items():
        if name in by_name and length == turns and (track, game) in wanted:
            by_name[name][track, game] = points
    reference = by_name[names[0]]
    for n in names:
        if by_name[n]:
            print(f"{n:18s} {summary(by_name[n], None if n == names[0] else reference)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variants", nargs="+", default=["before"], choices=sorted(VARIANTS))
    parser.add_argument("--first", type=int, default=3000, help="first training track seed")
    parser.add_argument("--tracks", type=int, default=250)
    parser.add_argument("--games", type=int, default=2, help="game seeds per track")
    parser.add_argument("--turns", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("tune_ratrace_champion.jsonl"))
    parser.add_argument("--report-only", action="store_true", help="play nothing, report what --out holds")
    parser.add_argument("--list", action="store_true", help="list the named variants")
    args = parser.parse_args(argv)
    if args.list:
        for name, variant in VARIANTS.items():
            flips = flip_stats(variant.decode())["plain->avoid"]
            print(f"{name:18s} {variant}  flips plain->avoid {flips:.2f}")
        return 0
    if args.first + args.tracks > 10_000:
        parser.error("train on track seeds below 10,000 (seeds from 1,000,000 on are held out)")
    todo = list(pairs(args.first, args.tracks, args.games))
    if not args.report_only:
        run(args.variants, todo, args.turns, args.workers, args.out)
    report(args.variants, todo, args.turns, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
