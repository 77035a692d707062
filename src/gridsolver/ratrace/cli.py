"""``gridsolver ratrace ...`` (filled in by the rat race issue)."""

import click


@click.group()
def group() -> None:
    """The Genetic Rat Race: controller, players and tournaments."""
