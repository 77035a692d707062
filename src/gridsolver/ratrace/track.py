"""The track text format, and showing tracks to people and to other tools (JSON).

The text format (:func:`format_track`, :func:`parse_track`) holds a whole
track, so that reading the text back gives an equal track::

    seed: 5
    start: 0 1 2 3 5 8 9 10 11 12 13 14
    colour 0: empty
    colour 1: teleporter -3 2
    colour 2: trap 1 -1
    colour 3: wall
    ...
    0a3f52...
    ...

``seed:`` is optional (a track drawn by hand has none); ``start:`` lists the
y of the start cells (x = 0) and when it is missing they are computed from
the rules (the goal within 100 moves); a colour with no ``colour`` line is
empty; teleporters and traps take an offset ``dx dy``. Then one row per y,
one hex digit (the colour) per x; the last four columns are the goal.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from gridsolver.core.boards import BoardText
from gridsolver.ratrace.rules import (
    COLOURS,
    EMPTY,
    GOAL_COLUMNS,
    HEIGHT,
    KIND_NAMES,
    MAX_HEIGHT,
    MAX_WIDTH,
    TELEPORTER,
    TRAP,
    WALL,
    WIDTH,
    Track,
    start_cells,
)


def track_to_json(track: Track) -> dict[str, Any]:
    """The JSON form other tools read (see ``gridsolver ratrace track --help``)."""
    def offsets_of(kind: int) -> dict[str, list[int]]:
        return {str(c): [int(v) for v in track.offsets[c]] for c in range(COLOURS)
                if track.kinds[c] == kind}

    return {
        "seed": track.seed,
        "width": track.width,
        "height": track.height,
        "colours": track.colours.tolist(),
        "kinds": {str(c): KIND_NAMES[int(track.kinds[c])] for c in range(COLOURS)},
        "teleporters": offsets_of(TELEPORTER),
        "traps": offsets_of(TRAP),
        "start_cells": list(track.start_cells),
    }


# -- the text format -------------------------------------------------------------------------------
MIN_WIDTH = GOAL_COLUMNS + 1  # a start column left of the goal
_HEX = "0123456789abcdef"
_HEX_VALUE = {ch: value for value, ch in enumerate(_HEX)} | {ch.upper(): v for v, ch in enumerate(_HEX)}
_COLOUR_LINE = re.compile(r"^colour\s+(\S+)\s*:\s*(\S+)((?:\s+\S+)*)\s*$")
_KIND_OF_NAME = {name: kind for kind, name in enumerate(KIND_NAMES)}
#: Digits of a number in a track or a seed name: 2^64 - 1 has 20 and a seed counts modulo 2^64, so
#: no seed needs more (and int() of thousands of digits is slow, then refused past 4,300).
MAX_DIGITS = 20
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
#: The longest offset of a teleporter or trap: one longer leaves even the largest track.
MAX_OFFSET = max(MAX_WIDTH, MAX_HEIGHT)
_SIZE_LIMIT = (f"rat race tracks are at most {MAX_WIDTH} wide and {MAX_HEIGHT} high; "
               f"the standard track is {WIDTH} x {HEIGHT}")


def colour_kinds(track: Track) -> Iterator[tuple[int, int, tuple[int, int] | None]]:
    """Each colour of ``track`` with its kind and, for a teleporter or trap, its offset ``(dx, dy)``."""
    for c in range(COLOURS):
        kind = int(track.kinds[c])
        dx, dy = (int(v) for v in track.offsets[c])
        yield c, kind, (dx, dy) if kind in (TELEPORTER, TRAP) else None


def format_track(track: Track) -> str:
    """The track as text; :func:`parse_track` of it gives an equal track."""
    lines = [] if track.seed is None else [f"seed: {track.seed}"]
    lines.append(" ".join(["start:", *(str(int(y)) for y in track.start_cells)]))
    for c, kind, offset in colour_kinds(track):
        text = f"colour {c}: {KIND_NAMES[kind]}"
        lines.append(text if offset is None else f"{text} {offset[0]} {offset[1]}")
    lines += ["".join(_HEX[int(c)] for c in row) for row in track.colours]
    return "\n".join(lines)


def parse_track(text: BoardText) -> Track:
    """Read one track in the text format; errors name the line (and the column of a bad colour).

    The size is checked on the rows' lengths before any array is made (:data:`MAX_WIDTH`,
    :data:`MAX_HEIGHT`), so a huge track is refused at once.
    """
    seed: int | None = None
    starts: list[int] | None = None
    start_row = 0
    kinds = np.full(COLOURS, EMPTY, dtype=np.int64)
    offsets = np.zeros((COLOURS, 2), dtype=np.int64)
    given: set[int] = set()
    seen: set[str] = set()
    rows: list[tuple[int, str]] = []
    for r, raw in enumerate(text.rows):
        line = raw.strip()
        if ":" not in line:
            rows.append((r, _checked_row(text, r, raw.rstrip())))
            continue
        if rows:
            raise text.error("a header line after the colour rows (seed, start and colour lines "
                             "come first)", r)
        key, values = (part.strip() for part in line.split(":", 1))
        if key in ("seed", "start"):
            if key in seen:
                raise text.error(f"a second '{key}:' line", r)
            seen.add(key)
            if key == "seed":
                seed = _seed_line(text, r, values)
            else:
                starts, start_row = _start_line(text, r, values), r
            continue
        colour, kind, offset = _colour_line(text, r, line)
        if colour in given:
            raise text.error(f"a second line for colour {colour}", r)
        given.add(colour)
        kinds[colour] = kind
        offsets[colour] = offset
    track = Track(colours=_colour_grid(text, rows), kinds=kinds, offsets=offsets, seed=seed)
    if starts is None:
        track.start_cells = start_cells(track)
    else:
        for y in starts:
            if not 0 <= y < track.height:
                raise text.error(f"start cell y = {y} is not a row of the track (0 to {track.height - 1})",
                                 start_row)
        if len(set(starts)) != len(starts):
            raise text.error("a start cell is listed twice", start_row)
        track.start_cells = starts
    return track


def _checked_row(text: BoardText, r: int, row: str) -> str:
    """A row of colours no wider than :data:`MAX_WIDTH` (checked as it is read: a 10 MB row is
    refused before the next line)."""
    if len(row) > MAX_WIDTH:
        raise text.error(f"a row of {len(row):,} cells, more than the {MAX_WIDTH} a track may have "
                         f"({_SIZE_LIMIT})", r)
    return row


def _colour_grid(text: BoardText, rows: list[tuple[int, str]]) -> np.ndarray:
    """The colours of the rows, once their number and widths are checked."""
    if not rows:
        raise text.error("no colour rows (one row of hex digits per y)")
    if len(rows) > MAX_HEIGHT:
        raise text.error(f"{len(rows):,} rows of cells, more than the {MAX_HEIGHT} a track may have "
                         f"({_SIZE_LIMIT})")
    width = len(rows[0][1])
    for r, row in rows:
        if len(row) != width:
            raise text.error(f"row has {len(row)} cells but the first row has {width} "
                             "(all rows must have the same width)", r)
    if width < MIN_WIDTH:
        raise text.error(f"{width} columns: a track needs at least {MIN_WIDTH} "
                         f"(a start column and the {GOAL_COLUMNS} goal columns)", rows[0][0])
    colours = np.empty((len(rows), width), dtype=np.int64)
    for y, (r, row) in enumerate(rows):
        for x, ch in enumerate(row):
            value = _HEX_VALUE.get(ch)
            if value is None:
                raise text.error(f"unexpected character {ch!r} (a colour is a hex digit 0-9, a-f)", r, x)
            colours[y, x] = value
    return colours


def whole_number(token: str) -> int | None:
    """``token`` as an int when it is a whole number of at most :data:`MAX_DIGITS` digits, else None."""
    if len(token) > MAX_DIGITS + 1 or _WHOLE_NUMBER.fullmatch(token) is None:
        return None
    digits = token.lstrip("+-")
    return int(token) if len(digits) <= MAX_DIGITS else None


def shown(value: str, limit: int = 50) -> str:
    """``repr(value)`` cut to ``limit`` characters: a message naming a huge value stays one short line."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(value):,} characters)"


def _integers(text: BoardText, r: int, tokens: list[str], key: str) -> list[int]:
    numbers = []
    for token in tokens:
        number = whole_number(token)
        if number is None:
            raise text.error(f"'{key}:' takes whole numbers of at most {MAX_DIGITS} digits, "
                             f"got {shown(token)}", r)
        numbers.append(number)
    return numbers


def _seed_line(text: BoardText, r: int, values: str) -> int:
    tokens = values.split()
    if len(tokens) != 1:
        raise text.error("expected 'seed: N' with one whole number", r)
    return _integers(text, r, tokens, "seed")[0]


def _start_line(text: BoardText, r: int, values: str) -> list[int]:
    tokens = values.split()
    if len(tokens) > MAX_HEIGHT:  # counted before converting: the line may hold millions
        raise text.error(f"'start:' lists {len(tokens):,} cells; a track has at most {MAX_HEIGHT} rows "
                         f"({_SIZE_LIMIT})", r)
    return _integers(text, r, tokens, "start")


def _colour_line(text: BoardText, r: int, line: str) -> tuple[int, int, tuple[int, int]]:
    """``colour C: KIND [DX DY]`` -> (colour, kind, offset)."""
    match = _COLOUR_LINE.match(line)
    if match is None:
        raise text.error(f"unexpected line {shown(line)} (expected 'seed: N', 'start: Y ...' or "
                         "'colour C: KIND [DX DY]')", r)
    number, name, rest = match.groups()
    colour = whole_number(number) if number.isascii() and number.isdigit() else None
    if colour is None or not 0 <= colour < COLOURS:
        raise text.error(f"colour {shown(number)}: expected a colour number from 0 to {COLOURS - 1}", r)
    kind = _KIND_OF_NAME.get(name)
    if kind is None:
        raise text.error(f"colour {colour}: unknown kind {shown(name)} (expected {', '.join(KIND_NAMES)})", r)
    tokens = rest.split()
    wanted = 2 if kind in (TELEPORTER, TRAP) else 0
    if len(tokens) != wanted:
        shape = "an offset 'dx dy'" if wanted else "no offset"
        raise text.error(f"colour {colour}: a {name} takes {shape}, got {shown(rest.strip())}", r)
    values = _integers(text, r, tokens, f"colour {colour}")
    for value in values:
        if abs(value) > MAX_OFFSET:
            raise text.error(f"colour {colour}: offset {value} is past {MAX_OFFSET} either way, the "
                             "most an offset may move (further leaves even the largest track)", r)
    return colour, kind, (values[0], values[1]) if wanted else (0, 0)


_KIND_MARK = {EMPTY: ".", TELEPORTER: "T", TRAP: "X", WALL: "#"}


def render_track(track: Track) -> str:
    """The track for people: colours in hex, then kinds, lethal cells and start cells."""
    lines = [f"track seed {track.seed}: {track.width} x {track.height}, goal at x >= {track.goal_x}"]
    for c, kind, offset in colour_kinds(track):
        lines.append(f"  colour {c:x} ({c:2d}): {KIND_NAMES[kind]}"
                     + ("" if offset is None else f" offset ({offset[0]:+d}, {offset[1]:+d})"))
    lines.append("colours (hex; '>' marks a start cell, '|' the goal line):")
    for y in range(track.height):
        row = "".join(f"{int(c):x}" for c in track.colours[y])
        mark = ">" if y in track.start_cells else " "
        lines.append(f"  {y:2d} {mark}{row[:track.goal_x]}|{row[track.goal_x:]}")
    lines.append("kinds ('.' empty, 'T' teleporter, 'X' trap, '#' wall; '!' lethal non-wall cell):")
    for y in range(track.height):
        marks = []
        for x in range(track.width):
            kind = int(track.kinds[track.colours[y, x]])
            marks.append("!" if track.lethal[y, x] and kind != WALL else _KIND_MARK[kind])
        row = "".join(marks)
        mark = ">" if y in track.start_cells else " "
        lines.append(f"  {y:2d} {mark}{row[:track.goal_x]}|{row[track.goal_x:]}")
    lines.append(f"start cells (y at x = 0): {' '.join(str(y) for y in track.start_cells)}")
    return "\n".join(lines)
