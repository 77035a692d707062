"""Regenerate the gallery: run each game's commands and write docs/gallery.md beside the pictures.

    python docs/gallery/make_gallery.py

Every picture in docs/gallery/ is made by the commands printed under it in
docs/gallery.md (run from the repository's root, with gridsolver installed);
solves use node budgets or proved optima, so the pictures do not depend on
the machine's speed.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = "docs/gallery"

GALLERY = [
    ("Hopping Bunny", "bunny", "board 07 (12x12), the proved 7-token program, step 40: the bunny (purple) "
     "and the squares marked so far; the page highlights the token being executed",
     ["gridsolver bunny show challenge/07 'LOOP{LOOP(2){L LOOP(11){F} L} F}' --svg docs/gallery/bunny.svg "
      "--frame 40"]),
    ("Peg solitaire", "pegs", "the English central game after 10 of its 31 jumps; the next jump's peg, "
     "the peg it removes and the hole it lands in are outlined",
     ["gridsolver pegs solve english --finish 3,3 --json > english.json",
      "gridsolver pegs show english.json --svg docs/gallery/pegs.svg --frame 10"]),
    ("Clickomania", "clickomania", "a 5x5 duel board cleared in 10 clicks, at step 3: the group about to "
     "be removed is outlined",
     ["gridsolver clickomania show duel-5x5 '4,3 4,0 4,1 4,1 2,1 4,0 3,1 4,0 4,0 4,0' "
      "--svg docs/gallery/clickomania.svg --frame 3"]),
    ("SameGame", "samegame", "standard position 1 (15x15, 5 colours) after 20 moves of a short search",
     ["gridsolver samegame solve standard-20 --nodes 20000 --workers 1 --seed 1 --json > samegame.json",
      "gridsolver samegame show samegame.json --svg docs/gallery/samegame.svg --frame 20"]),
    ("The Genetic Rat Race", "ratrace", "track seed/1 after 2,000 turns of colour-score: cell colours, "
     "traps, teleporters and walls, and the rats (dots, bigger where more stand)",
     ["gridsolver ratrace solve seed/1 --player colour-score --turns 2000 --json > ratrace.json",
      "gridsolver ratrace show ratrace.json --svg docs/gallery/ratrace.svg --frame end"]),
]


def main() -> None:
    lines = ["# Gallery", "",
             "One picture per game, each made by `gridsolver GAME show ... --svg` with the commands under it",
             "(regenerate them all with `python docs/gallery/make_gallery.py`). The same commands without",
             "`--svg` write a page that replays the whole solution step by step in the browser",
             "(`-o FILE.html`; one self-contained file that opens offline).", ""]
    with tempfile.TemporaryDirectory() as work:
        for title, name, caption, commands in GALLERY:
            for command in commands:
                run = command.replace("docs/gallery/", f"{ROOT}/{OUT}/")
                done = subprocess.run(run, shell=True, cwd=work, capture_output=True, text=True,
                                      env={"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"})
                if done.returncode != 0:
                    sys.exit(f"{command}: exit {done.returncode}: {done.stderr.strip()}")
            lines += [f"## {title}", "", f"![{title}: {caption}](gallery/{name}.svg)", "", caption + ".", "",
                      "```sh", *commands, "```", ""]
    (ROOT / "docs" / "gallery.md").write_text("\n".join(lines))
    print(f"wrote docs/gallery.md and {len(GALLERY)} pictures in {OUT}/")


if __name__ == "__main__":
    main()
