"""Terminal captures of each game's solve while it searches and when it is done: docs/watching.md.

Each command runs in a detached tmux session of 100 columns (a real terminal: the status line is
drawn there); the pane is captured once mid-search and once at the end, as plain text, and the
page is written from them. Run it from the checkout (``python docs/screens/make_screens.py``) on a
machine with tmux; the kernels should be compiled first (``gridsolver warmup``), or the captures
show the compiling note.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PAGE = HERE.parent / "watching.md"
INTRO = """# Watching a search

On a terminal, every `solve` keeps one status line on standard error while it searches, redrawn
four times a second: the board (and which of how many), the time used and the budget, the best
score so far and what it counts, the proved bound and the gap where the search has one, the work
per second and the workers. When a board ends, the line becomes a one-line summary and the result
is printed on standard output. `bunny bench`, `pegs table` and `ratrace play` keep a line of the
whole run instead: how many boards, problems or tracks are done, the time, the work per second and
the last one finished.

The line is drawn only when standard error is a terminal: piped, a command prints its results
alone. `--progress` asks for it anyway (a plain line a second), `--quiet` for none, and `--events
FILE` writes what the line shows as JSON lines (see [Events](reference/events.md)).

Each capture below is a terminal of 100 columns, taken while the search runs and again when it is
done (made by `python docs/screens/make_screens.py`).
"""
TITLES = {"bunny": "Hopping Bunny", "pegs": "Peg solitaire", "clickomania": "Clickomania",
          "samegame": "SameGame", "ratrace": "The Genetic Rat Race: a tournament"}
COLUMNS, ROWS = 100, 14
#: (game, commands that make the board file first, the solve shown, when to capture mid-search)
SCREENS = [
    ("bunny", ["printf 'S####  ## ##\\n### ##### ##\\n# ##########\\n#   ########\\n####### ####\\n"
               "# ### ## ##\\n### # ######\\n# #  ##  ###\\n############\\n #### ## ##\\n######  ####\\n"
               "######### ##\\n' > holey.txt"],
     "gridsolver bunny solve holey.txt --time 8", 4.0),
    ("pegs", ["gridsolver pegs random 30 --density 0.5 --seed 5 > comesolo30.txt"],
     "gridsolver pegs solve comesolo30.txt --time 8", 4.0),
    ("clickomania", ["gridsolver clickomania generate --random 64x64x5 --seed 1 > random64.txt"],
     "gridsolver clickomania solve random64.txt --time 8", 4.0),
    ("samegame", ["gridsolver samegame format standard-20 | awk 'BEGIN { RS = \"\" } NR == 1' > position1.txt"],
     "gridsolver samegame solve position1.txt --time 10", 8.0),
    ("ratrace", [], "gridsolver ratrace play --player colour-score --tracks 8 --turns 20000", 4.0),
]


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True).stdout


#: Lines of a finished run's screen kept from its start, and from its end (a long result between them
#: is cut, as the terminal's scrollback would hold it)
HEAD_LINES, TAIL_LINES = 12, 3


def capture(session: str, history: bool = False) -> str:
    extra = ["-S", "-1000"] if history else []
    lines = tmux("capture-pane", "-p", "-J", *extra, "-t", session).rstrip("\n").splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(line.rstrip() for line in lines)


def finished(screen: str) -> str:
    """A finished run's screen from its command line on, a long middle cut."""
    lines = screen.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("$ gridsolver")]
    lines = lines[starts[-1]:] if starts else lines
    if len(lines) > HEAD_LINES + TAIL_LINES + 1:
        lines = [*lines[:HEAD_LINES], "...", *lines[-TAIL_LINES:]]
    return "\n".join(line if len(line) <= COLUMNS else line[:COLUMNS - 3] + "..." for line in lines)


def screen(game: str, setup: list[str], command: str, mid_s: float, folder: Path) -> str:
    session = f"gridsolver-screen-{game}"
    bindir = Path(sys.executable).parent
    script = " && ".join([f"cd {shlex.quote(str(folder))}", f"export PATH={shlex.quote(str(bindir))}:$PATH",
                          *setup, "clear", f"echo '$ {command}'", command, "echo '$'", "sleep 600"])
    tmux("new-session", "-d", "-s", session, "-x", str(COLUMNS), "-y", str(ROWS), "bash", "-c", script)
    try:
        time.sleep(mid_s)
        during = capture(session)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and not capture(session).endswith("$"):
            time.sleep(0.5)
        after = finished(capture(session, history=True))
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    return (f"While it searches:\n\n```text\n{during}\n```\n\n"
            f"When it is done:\n\n```text\n{after}\n```\n")


def main() -> None:
    parts = [INTRO]
    with tempfile.TemporaryDirectory() as folder:
        for game, setup, command, mid_s in SCREENS:
            parts.append(f"## {TITLES[game]}\n\n" + screen(game, setup, command, mid_s, Path(folder)))
            print(f"{game}: captured")
    PAGE.write_text("\n".join(parts), encoding="utf-8")
    print(f"written: {PAGE}")


if __name__ == "__main__":
    main()
