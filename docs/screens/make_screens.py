"""Terminal captures of each game's solve while it searches and when it is done, for docs/watching.md.

Each command runs in a detached tmux session of 100 columns (a real terminal: the status line is
drawn there); the pane is captured once mid-search and once at the end, as plain text, into
docs/screens/GAME.txt. Run it from the checkout (``python docs/screens/make_screens.py``) on a
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
COLUMNS, ROWS = 100, 14
#: (game, commands that make the board file first, the solve shown, when to capture mid-search)
SCREENS = [
    ("bunny", ["printf 'S####  ## ##\\n### ##### ##\\n# ##########\\n#   ########\\n####### ####\\n"
               "# ### ## ##\\n### # ######\\n# #  ##  ###\\n############\\n #### ## ##\\n######  ####\\n"
               "######### ##\\n' > holey.txt"],
     "gridsolver bunny solve holey.txt --time 8", 4.0),
    ("pegs", ["gridsolver pegs random 20 --density 0.6 --seed 5 > comesolo20.txt"],
     "gridsolver pegs solve comesolo20.txt --time 8", 4.0),
    ("clickomania", ["gridsolver clickomania generate --random 40x40x5 --seed 1 > random40.txt"],
     "gridsolver clickomania solve random40.txt --time 8", 4.0),
    ("samegame", ["gridsolver samegame format standard-20 | awk 'BEGIN { RS = \"\" } NR == 1' > position1.txt"],
     "gridsolver samegame solve position1.txt --time 10", 8.0),
    ("ratrace", [], "gridsolver ratrace play --player colour-score --tracks 8 --turns 20000", 4.0),
]


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True).stdout


def capture(session: str) -> str:
    lines = tmux("capture-pane", "-p", "-t", session).rstrip("\n").splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(line.rstrip() for line in lines)


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
        after = capture(session)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    return f"While it searches:\n\n{during}\n\nWhen it is done:\n\n{after}\n"


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for game, setup, command, mid_s in SCREENS:
            text = screen(game, setup, command, mid_s, Path(folder))
            (HERE / f"{game}.txt").write_text(text, encoding="utf-8")
            print(f"{game}: {HERE / f'{game}.txt'}")


if __name__ == "__main__":
    main()
