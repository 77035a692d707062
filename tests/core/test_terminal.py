"""Pictures for the terminal: when to colour, blocks side by side or stacked, plain text without escapes."""

import os
import pty
import re
import subprocess
import sys

import pytest
from rich.text import Text

from gridsolver.core.terminal import COLOUR_ENV, arrange, colour_wanted, grid, on, render, spaced


class Stream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(("env", "tty", "wanted"), [
    ({}, True, True), ({}, False, False),
    ({COLOUR_ENV: "on"}, False, True), ({COLOUR_ENV: "off"}, True, False), ({COLOUR_ENV: "ON "}, False, True),
    ({COLOUR_ENV: "sometimes"}, True, True),  # an unknown value leaves the choice to the terminal
    ({"NO_COLOR": "1"}, True, False), ({"NO_COLOR": "1", COLOUR_ENV: "on"}, False, True),
])
def test_colour_on_a_terminal_unless_the_environment_says(monkeypatch, env, tty, wanted):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert colour_wanted(Stream(tty)) is wanted


def test_blocks_side_by_side_when_they_fit_else_stacked():
    left = [Text("ab"), Text("cd"), Text("ef")]
    right = [Text("title"), Text("1")]
    assert render(arrange([left, right]), colour=False) == "  ab    title\n  cd    1\n  ef"
    assert render(arrange([left, right], width=12), colour=False) == "  ab\n  cd\n  ef\n\n  title\n  1"


def test_render_paints_only_in_colour_and_the_characters_are_the_same():
    lines = grid([[("1", on("#e6194b")), ("2", on("#ffe119"))]])
    assert render(lines, colour=False) == "1 2"
    painted = render(lines, colour=True)
    assert "\x1b[" in painted and re.sub(r"\x1b\[[0-9;]*m", "", painted) == "1 2"


def test_text_on_a_cell_reads_on_its_colour():
    assert on("#ffe119") == "black on #ffe119" and on("#000075") == "white on #000075"


def test_cells_are_spaced_while_a_row_fits_in_80_columns():
    assert spaced(39) == " " and spaced(40) == ""
    assert spaced(40, indent=0) == " " and spaced(41, indent=0) == ""


def in_a_terminal(*args: str) -> tuple[int, str]:
    """Run ``gridsolver ARGS`` with standard output on a pseudo-terminal: (exit code, what it printed)."""
    env = {k: v for k, v in os.environ.items() if k != COLOUR_ENV}
    env["TERM"] = "xterm-256color"
    master, slave = pty.openpty()
    with subprocess.Popen([sys.executable, "-m", "gridsolver", *args], stdin=subprocess.DEVNULL, stdout=slave,
                          stderr=subprocess.PIPE, env=env) as process:
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        os.close(master)
        process.wait(timeout=120)
    return process.returncode, b"".join(chunks).decode()


def test_steps_are_coloured_on_a_real_terminal_and_plain_in_a_pipe():
    code, shown = in_a_terminal("pegs", "show", "english", "(1,3)->(3,3) (2,1)->(2,3)", "--steps")
    assert code == 0 and "\x1b[" in shown
    plain = re.sub(r"\x1b\[[0-9;]*m", "", shown).replace("\r\n", "\n")
    assert plain.startswith("step 0 of 2: start, 32 pegs") and "step 2 of 2: jump (2,1) to (2,3)" in plain
    piped = subprocess.run([sys.executable, "-m", "gridsolver", "pegs", "show", "english",
                            "(1,3)->(3,3) (2,1)->(2,3)", "--steps"], capture_output=True, text=True,
                           timeout=120)
    assert piped.returncode == 0 and "\x1b[" not in piped.stdout
    # the same frames; a pipe marks the next jump's holes in upper case or +, the terminal in reverse video
    assert piped.stdout.lower().replace("+", ".").rstrip("\n") == plain.lower().rstrip("\n")
