"""The `gridsolver` command's entry point (also `python -m gridsolver`).

It loads the command line lazily so that Ctrl-C while the command is still
loading ends like Ctrl-C anywhere else: one line and exit 130, no traceback.
(Only the first few tens of milliseconds, importing the package itself, stay
uncovered: they run before any of its code can catch anything.)
"""

from __future__ import annotations

import sys

# gridsolver.core.cliutil.EXIT_INTERRUPTED; not imported from there, since loading it is what was interrupted
EXIT_INTERRUPTED = 130


def main() -> None:
    """Run the command line; Ctrl-C while it loads exits 130 with one line."""
    try:
        from gridsolver.cli import main as run_cli
    except KeyboardInterrupt:
        print("gridsolver: interrupted", file=sys.stderr)
        sys.exit(EXIT_INTERRUPTED)
    run_cli()
