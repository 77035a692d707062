"""SameGame at long budgets: the standard-20 positions at up to 5 minutes each.

The same report as ``samegame`` (a row per seed, the spread over seeds, the
scores position by position), at ``SAMEGAME_TIME`` seconds per position
(default 300) on 2 workers, seeds from ``SAMEGAME_SEEDS`` (default ``1,2,3``).
``SAMEGAME_POSITIONS`` (1-based, e.g. ``1-10`` or ``1,5,7``) plays a part of
the set: a whole seed is 100 minutes of wall time, so a part fits where the
whole does not (a part's total is not comparable to the goal). ``--quick``
plays 2 positions at 5 s.
"""

from __future__ import annotations

import os

from bench_samegame import GOALS, KEEPS_RECORDS, report  # noqa: F401  (KEEPS_RECORDS: the runner reads it)
from gridsolver import samegame as game
from runner import Table

DEFAULT_TIME_S = 300.0


def positions(count: int) -> list[int]:
    """The standard positions to play, from ``SAMEGAME_POSITIONS`` (default: all ``count``)."""
    given = os.environ.get("SAMEGAME_POSITIONS", "").strip()
    if not given:
        return list(range(1, count + 1))
    chosen: list[int] = []
    for part in given.split(","):
        first, _, last = part.strip().partition("-")
        chosen.extend(range(int(first), int(last or first) + 1))
    if not all(1 <= number <= count for number in chosen):
        raise SystemExit(f"SAMEGAME_POSITIONS={given!r}: positions are 1 to {count}")
    return chosen


def run(quick: bool) -> list[Table]:
    boards = game.load("standard-20")
    numbers = [1, 2] if quick else positions(len(boards))
    per_position = 5.0 if quick else float(os.environ.get("SAMEGAME_TIME", DEFAULT_TIME_S))
    goal, what = GOALS[-1]
    part = ("all 20 positions" if len(numbers) == len(boards) else
            f"positions {', '.join(map(str, numbers))} only (a part of the set: its total is not the goal's)")
    note = (f"Goal: above {goal:,} ({what}) at up to 5 minutes per position, for the worst seed. "
            f"The runs used {per_position:g} s per position on {part}")
    return report("samegame_long", [boards[n - 1] for n in numbers], numbers, per_position, note)
