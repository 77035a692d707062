"""Pictures for the terminal: colour on a terminal, plain text in a pipe, laid out for 80 columns.

``solve --show`` and ``show --steps`` print through here. Whether to colour
is decided once per command by :func:`colour_wanted`: standard output is a
terminal, unless ``GRIDSOLVER_COLOUR=on|off`` (or ``NO_COLOR``, see
no-color.org) says otherwise. A picture is built as lines of rich
:class:`~rich.text.Text` (the styles ride along with the characters, so
the widths used to lay blocks out side by side are the visible ones) and
:func:`render` turns them into escape codes or into their plain characters:
plain output never holds an escape code.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from rich.console import Console
from rich.text import Text

#: ``on`` or ``off`` forces colour in pictures (default: on exactly when standard output is a terminal)
COLOUR_ENV = "GRIDSOLVER_COLOUR"
#: The terminal width pictures are laid out for.
WIDTH = 80

#: (text, rich style) of one cell of a picture; "" is no style.
Cell = tuple[str, str]


def colour_wanted(stream: TextIO | None = None) -> bool:
    """Whether pictures written to ``stream`` (default: standard output) get colours."""
    chosen = os.environ.get(COLOUR_ENV, "").strip().lower()
    if chosen in ("on", "off"):
        return chosen == "on"
    if os.environ.get("NO_COLOR"):
        return False
    stream = sys.stdout if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def console(colour: bool, file: TextIO | None = None) -> Console:
    """A rich console that writes escape codes exactly when ``colour`` says so.

    It never wraps: pictures are laid out for :data:`WIDTH` already, and a
    frame wider than the terminal reads better cut by the terminal than
    folded by rich.
    """
    return Console(file=file, force_terminal=colour, no_color=not colour, highlight=False, emoji=False,
                   soft_wrap=True)


def render(lines: Sequence[Text], colour: bool) -> str:
    """The lines as one string: with escape codes when ``colour``, else their characters alone."""
    if not colour:
        return "\n".join(line.plain.rstrip() for line in lines)
    out = io.StringIO()
    printer = console(True, out)
    for line in lines:
        trimmed = line.copy()
        trimmed.rstrip()  # the padding of blocks side by side, when the last one ends early
        printer.print(trimmed)
    return out.getvalue().rstrip("\n")


def on(background: str) -> str:
    """A rich style that fills a cell with ``background`` (a ``#rrggbb`` colour), text in black or white,
    whichever reads better on it."""
    red, green, blue = (int(background[i:i + 2], 16) for i in (1, 3, 5))
    light = 0.299 * red + 0.587 * green + 0.114 * blue > 140
    return f"{'black' if light else 'white'} on {background}"


def grid(rows: Sequence[Sequence[Cell]], sep: str = " ") -> list[Text]:
    """Rows of styled cells as lines, the cells joined by ``sep``."""
    lines = []
    for row in rows:
        line = Text()
        for k, (text, style) in enumerate(row):
            if k:
                line.append(sep)
            line.append(text, style=style or None)
        lines.append(line)
    return lines


def spaced(columns: int, width: int = WIDTH, indent: int = 2) -> str:
    """The separator of one-character cells: a space when such rows fit in ``width``, else none."""
    return " " if indent + 2 * columns - 1 <= width else ""


def arrange(blocks: Sequence[Sequence[Text]], *, indent: int = 2, gap: int = 4,
            width: int = WIDTH) -> list[Text]:
    """Blocks of lines side by side when they fit in ``width``, else one under the other (a blank
    line between), each line indented by ``indent``."""
    widths = [max((line.cell_len for line in block), default=0) for block in blocks]
    margin = Text(" " * indent)
    if indent + sum(widths) + gap * (len(blocks) - 1) > width:
        stacked: list[Text] = []
        for k, block in enumerate(blocks):
            if k:
                stacked.append(Text())
            stacked.extend(margin + line for line in block)
        return stacked
    lines = []
    for r in range(max(len(block) for block in blocks)):
        line = margin.copy()
        for k, block in enumerate(blocks):
            part = block[r] if r < len(block) else Text()
            line.append_text(part)
            if k < len(blocks) - 1:
                line.append(" " * (widths[k] - part.cell_len + gap))
        lines.append(line)
    return lines
