"""Small pieces of the text output, written once so every game says them alike.

- :func:`cell` names a cell for people: ``row 3, column 0``, counted from 0
  with row 0 at the top and column 0 at the left, the same numbers as the
  moves, the options and the JSON (docs/reference/coordinates.md);
- :func:`plural` counts a thing in words: ``1 point``, ``2 points``, ``1 peg``.
"""

from __future__ import annotations


def cell(row: int, column: int) -> str:
    """``row R, column C`` (both counted from 0, row 0 at the top)."""
    return f"row {row}, column {column}"


def plural(count: float | int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, the noun in the plural unless the count is 1: ``1 point``, ``0 points``,
    ``4,096 cells`` (whole numbers grouped by thousands).

    ``many`` is the plural when it is not ``noun + "s"`` (``plural(2, "peg left", "pegs left")``).
    """
    shown = f"{count:,}" if isinstance(count, int) else f"{count:g}"
    return f"{shown} {noun if count == 1 else (many or noun + 's')}"
