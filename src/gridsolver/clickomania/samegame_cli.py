"""``gridsolver samegame ...`` (filled in by the Clickomania issue)."""

import click


@click.group()
def group() -> None:
    """SameGame: maximise the score (same rules as Clickomania)."""
