"""``gridsolver clickomania ...`` (filled in by the Clickomania issue)."""

import click


@click.group()
def group() -> None:
    """Clickomania: clear the board or prove it cannot be cleared."""
