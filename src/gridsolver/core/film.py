"""A replay as data: the frames of a solution, for the HTML player, SVG pictures and the terminal.

Every game turns a board plus a solution into one :class:`Film` (the
``film`` slot of :class:`~gridsolver.core.game.Game`), built by playing the
solution under the rules with the game's own ``apply``. A film is a grid of
one-character cells (what each character means and how it is drawn is the
film's :attr:`Film.legend` and :attr:`Film.palette`) and one :class:`Frame`
per step: the grid after that step, the step in words, the counters (pegs
left, score, ...), the cells to highlight (the move about to be played) and
marks drawn over cells (the bunny and its heading, rats). Frame 0 is the
start. The three views (:mod:`gridsolver.core.page` for the browser,
:func:`svg` for pictures, :func:`terminal_frames` for ``--steps``) only
draw what the film says, so they cannot disagree about the game.

In JSON (:meth:`Film.to_json`) a frame stores only the runs of cells that
changed since the frame before, which keeps a 64x64 Clickomania game or a
sampled 10,000-turn rat race to a few MB.

This module is plain Python (no numpy, no numba).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gridsolver.core.errors import InputError, shown

FILM_SCHEMA = 1

#: Highlight kinds the views know, and how the page and SVG outline them.
HIGHLIGHT_COLOURS = {
    "move": "#111111",  # the group / the cells of the move about to be played
    "from": "#d62728",  # a jumping peg
    "over": "#ff7f0e",  # a jumped (removed) peg
    "to": "#2ca02c",  # where a peg lands
}
#: Mark shapes: "bunny" (value = heading in degrees, 0 = east, 90 = south), "dot" (value = a count).
MARK_SHAPES = ("bunny", "dot")
#: The character a mark replaces its cell's with in the terminal.
TERMINAL_MARKS = {"bunny": "@", "dot": "*"}


@dataclass
class Frame:
    """One step of a replay: the whole grid after it, and what to say and show about it."""

    grid: str
    text: str
    counters: dict[str, int | float | str] = field(default_factory=dict)
    highlight: list[tuple[int, str]] = field(default_factory=list)  # (cell index, kind)
    marks: list[tuple[int, str, float]] = field(default_factory=list)  # (cell index, shape, value)
    panel_index: int = -1  # which :attr:`Film.panel` item is active (-1: none)


@dataclass
class Film:
    """The frames of one replay of one game, row-major cells (index = row * cols + col)."""

    game: str
    title: str
    rows: int
    cols: int
    palette: dict[str, str]  # cell character -> CSS colour; "" = not drawn (off the board)
    legend: dict[str, str]  # cell character -> what it means, in words
    frames: list[Frame]
    panel: list[str] = field(default_factory=list)  # e.g. a bunny program's tokens
    panel_title: str = ""
    plots: dict[str, list[float]] = field(default_factory=dict)  # one value per frame, drawn as lines
    board: str = ""  # the board as the game formats it
    solution: Any = None  # the solution in its JSON form
    options: dict[str, Any] = field(default_factory=dict)
    #: mark shape -> what it means, in words; a film that says it gets a legend in the terminal
    mark_legend: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        cells = self.rows * self.cols
        if not self.frames:
            raise ValueError("a film needs at least its start frame")
        for k, frame in enumerate(self.frames):
            if len(frame.grid) != cells:
                raise ValueError(f"frame {k}: grid of {len(frame.grid)} cells, expected {cells}")
            unknown = set(frame.grid) - set(self.palette)
            if unknown:
                raise ValueError(f"frame {k}: cell characters {sorted(unknown)} have no colour")
        for name, values in self.plots.items():
            if len(values) != len(self.frames):
                raise ValueError(f"plot {name!r}: {len(values)} values for {len(self.frames)} frames")

    @property
    def steps(self) -> int:
        """Steps of the replay (frames after the start)."""
        return len(self.frames) - 1

    def frame(self, which: str | int) -> int:
        """The frame index for ``start``, ``end`` or a step number (InputError when out of range)."""
        if which == "start":
            return 0
        if which == "end":
            return self.steps
        try:
            k = int(which)
        except ValueError:
            raise InputError(f"--frame {which!r}: expected start, end or a step number "
                             f"0-{self.steps}") from None
        if not 0 <= k <= self.steps:
            raise InputError(f"--frame {k}: this replay has steps 0-{self.steps}")
        return k

    def frame_range(self, text: str) -> tuple[int, int]:
        """(first, last) frame of ``--frames`` (:func:`parse_frame_range`), both included; a TO past
        the last frame stops there. InputError naming ``text`` when no frame is in the range."""
        first, last = parse_frame_range(text)
        if first > self.steps:
            raise InputError(f"--frames {shown(text)}: this replay has frames 0-{self.steps}")
        return first, self.steps if last is None else min(last, self.steps)

    # -- JSON --------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The film as JSON data, each frame's grid as runs changed since the frame before."""
        frames = []
        before = ""
        for frame in self.frames:
            entry: dict[str, Any] = {"t": frame.text, "d": grid_delta(before, frame.grid)}
            if frame.counters:
                entry["c"] = frame.counters
            if frame.highlight:
                entry["h"] = [list(h) for h in frame.highlight]
            if frame.marks:
                entry["m"] = [list(m) for m in frame.marks]
            if frame.panel_index >= 0:
                entry["p"] = frame.panel_index
            frames.append(entry)
            before = frame.grid
        return {"schema": FILM_SCHEMA, "game": self.game, "title": self.title, "rows": self.rows,
                "cols": self.cols, "palette": self.palette, "legend": self.legend, "panel": self.panel,
                "panel_title": self.panel_title, "plots": self.plots, "frames": frames,
                "highlight_colours": HIGHLIGHT_COLOURS, "mark_legend": self.mark_legend}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Film:
        """The film back from :meth:`to_json` (grids rebuilt from the runs)."""
        if data.get("schema") != FILM_SCHEMA:
            raise InputError(f"film schema {data.get('schema')!r}: this gridsolver reads "
                             f"schema {FILM_SCHEMA}")
        frames = []
        grid = ""
        for entry in data["frames"]:
            grid = apply_delta(grid, entry["d"])
            frames.append(Frame(grid, entry["t"], dict(entry.get("c", {})),
                                [(int(i), str(k)) for i, k in entry.get("h", [])],
                                [(int(i), str(s), float(v)) for i, s, v in entry.get("m", [])],
                                int(entry.get("p", -1))))
        return cls(data["game"], data["title"], data["rows"], data["cols"], dict(data["palette"]),
                   dict(data["legend"]), frames, list(data.get("panel", [])), data.get("panel_title", ""),
                   {k: list(v) for k, v in data.get("plots", {}).items()},
                   mark_legend=dict(data.get("mark_legend", {})))


#: ``--frames``: FROM:TO, either left out, or one frame N. At most 12 digits: int() refuses thousands.
FRAME_RANGE = re.compile(r"([0-9]{1,12})|([0-9]{0,12}):([0-9]{0,12})")


def parse_frame_range(text: str) -> tuple[int, int | None]:
    """(first, last) of ``--frames FROM:TO`` (``3:7``, ``:10``, ``5:``, ``:``) or ``N`` (that frame
    alone), both included; last None is the end. InputError naming ``text`` when it is malformed."""
    match = FRAME_RANGE.fullmatch(text.strip())
    if match is None:
        raise InputError(f"--frames {shown(text)}: expected FROM:TO, frame numbers from 0 (either may be "
                         "left out, e.g. 3:7, :10, 5:) or one frame N")
    one, start, end = match.groups()
    if one is not None:
        return int(one), int(one)
    first, last = (int(start) if start else 0), (int(end) if end else None)
    if last is not None and first > last:
        raise InputError(f"--frames {shown(text)}: from {first} to {last} is empty")
    return first, last


def grid_delta(before: str, after: str) -> list[list[Any]]:
    """The runs of ``after`` that differ from ``before``: ``[[start, "chars"], ...]``.

    Runs closer than 8 cells are merged (one run costs more than a few equal characters).
    """
    if len(before) != len(after):
        return [[0, after]]
    runs: list[list[Any]] = []
    i, n = 0, len(after)
    while i < n:
        if before[i] == after[i]:
            i += 1
            continue
        j = i
        last_change = i
        while j < n and j - last_change < 8:
            if before[j] != after[j]:
                last_change = j
            j += 1
        runs.append([i, after[i:last_change + 1]])
        i = last_change + 1
    return runs


def apply_delta(before: str, runs: Sequence[Sequence[Any]]) -> str:
    """The grid after the runs of :func:`grid_delta`."""
    cells = list(before)
    for start, chars in runs:
        if start == 0 and len(chars) >= len(cells):
            cells = list(chars)
            continue
        cells[start:start + len(chars)] = chars
    return "".join(cells)


# -- pictures ------------------------------------------------------------------------------------
CELL = 24  # pixels per cell in SVG pictures


def svg(film: Film, k: int, cell: int = CELL) -> str:
    """One frame as a standalone SVG picture (the same drawing as the HTML player's)."""
    frame = film.frames[k]
    width, height = film.cols * cell, film.rows * cell
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}">',
             f"<title>{html.escape(film.title)}: {html.escape(frame.text)}</title>"]
    for index, ch in enumerate(frame.grid):
        colour = film.palette[ch]
        if colour:
            r, c = divmod(index, film.cols)
            parts.append(f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}" '
                         f'fill="{colour}" stroke="#ffffff" stroke-width="1"/>')
    for index, kind in frame.highlight:
        r, c = divmod(index, film.cols)
        parts.append(f'<rect x="{c * cell + 2}" y="{r * cell + 2}" width="{cell - 4}" height="{cell - 4}" '
                     f'fill="none" stroke="{HIGHLIGHT_COLOURS.get(kind, "#000000")}" stroke-width="3"/>')
    for index, shape, value in frame.marks:
        r, c = divmod(index, film.cols)
        parts.append(_mark_svg(shape, value, (c + 0.5) * cell, (r + 0.5) * cell, cell))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _mark_svg(shape: str, value: float, x: float, y: float, cell: int) -> str:
    if shape == "bunny":  # a triangle pointing along the heading
        s = cell * 0.38
        return (f'<polygon points="{s:.1f},0 {-s:.1f},{-s * 0.75:.1f} {-s:.1f},{s * 0.75:.1f}" '
                f'fill="#6a3d9a" transform="translate({x:.1f},{y:.1f}) rotate({value:g})"/>')
    radius = cell * (0.18 + 0.2 * min(1.0, value / 50.0))  # "dot": bigger for more
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" fill="#000000" fill-opacity="0.7"/>'


# -- terminal ------------------------------------------------------------------------------------
def terminal_frames(film: Film, colour: bool, first: int = 0, last: int | None = None) -> Iterator[str]:
    """Frames ``first`` to ``last`` (default: all) as text: the step in words, the counters, the grid
    (rich markup when ``colour``), a blank line between frames.

    Cells are spaced when a row fits in 80 columns that way, else side by side.
    """
    from rich.markup import escape

    from gridsolver.core.terminal import spaced

    last = film.steps if last is None else last
    sep = spaced(film.cols, indent=0)
    for k in range(first, last + 1):
        frame = film.frames[k]
        lines = [escape(frame.text) if colour else frame.text]
        if frame.counters:
            counters = "  ".join(f"{name} {counter_text(value)}" for name, value in frame.counters.items())
            lines.append(escape(counters) if colour else counters)
        if 0 <= frame.panel_index < len(film.panel):
            lines.append(_panel_line(film.panel, frame.panel_index, colour))
        marks = {index: shape for index, shape, _ in frame.marks}
        lit = {index for index, _ in frame.highlight}
        for r in range(film.rows):
            row = []
            for c in range(film.cols):
                index = r * film.cols + c
                ch = frame.grid[index]
                symbol = TERMINAL_MARKS.get(marks[index], "*") if index in marks else ch
                if colour and film.palette[ch]:
                    style = f"bold {film.palette[ch]}" if index not in lit else f"reverse {film.palette[ch]}"
                    row.append(f"[{style}]{escape(symbol)}[/]")
                else:
                    row.append(symbol if index not in lit else _lit(symbol))
            lines.append(sep.join(row).rstrip())
        yield "\n".join(lines) + ("\n" if k < last else "")


def terminal_legend(film: Film, colour: bool) -> str:
    """What the characters of the terminal frames stand for: the film's cells, then its marks
    (rich markup when ``colour``)."""
    from rich.markup import escape

    entries = [(ch if ch.strip() else "' '", film.palette.get(ch, ""), words)
               for ch, words in film.legend.items()]
    entries += [(TERMINAL_MARKS.get(shape, "*"), "", words) for shape, words in film.mark_legend.items()]
    lines = ["legend:"]
    for symbol, paint, words in entries:
        if colour:
            symbol = f"[bold {paint}]{escape(symbol)}[/]" if paint else escape(symbol)
            words = escape(words)
        lines.append(f"  {symbol}  {words}")
    return "\n".join(lines) + "\n"


def counter_text(value: int | float | str) -> str:
    """A counter as the page writes it: thousands separated, at most 3 decimals."""
    if isinstance(value, bool) or isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.3f}".rstrip("0").rstrip(".")


def _lit(ch: str) -> str:
    """A highlighted cell without colours: upper case, or ``+`` when that changes nothing."""
    return ch.upper() if ch.upper() != ch else "+"


def _panel_line(panel: Sequence[str], active: int, colour: bool) -> str:
    from rich.markup import escape

    words = []
    for i, token in enumerate(panel):
        if i == active:
            words.append(f"[reverse]{escape(token)}[/]" if colour else f">{token}<")
        else:
            words.append(escape(token) if colour else token)
    return " ".join(words)
