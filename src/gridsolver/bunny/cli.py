"""``gridsolver bunny ...`` (filled in by the Hopping Bunny issue)."""

import click


@click.group()
def group() -> None:
    """Hopping Bunny: shortest tile programs that mark every square."""
