"""``gridsolver pegs ...`` (filled in by the peg solitaire issue)."""

import click


@click.group()
def group() -> None:
    """Peg solitaire: classic boards and comesolo squares."""
