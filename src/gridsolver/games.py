"""The games gridsolver knows: one line each.

A game is a subpackage ``gridsolver.<name>`` holding ``game.py`` (its
:class:`~gridsolver.core.game.Game`, named ``GAME``) and ``cli.py`` (its click
group, named ``group``). Adding a game is one new folder like its siblings
plus one line here. The one-line help stays here so ``gridsolver --help``
imports no game.
"""

from __future__ import annotations

import importlib
from typing import Any

from gridsolver.core.errors import InputError

GAMES: dict[str, str] = {
    "bunny": "Hopping Bunny: shortest tile programs that mark every square.",
    "pegs": "Peg solitaire: classic boards and comesolo squares.",
    "clickomania": "Clickomania: clear the board or prove it cannot be.",
    "samegame": "SameGame: maximise the score.",
    "ratrace": "The Genetic Rat Race: controller, players, tournaments.",
}


def game(name: str) -> Any:
    """The :class:`~gridsolver.core.game.Game` of a game name."""
    if name not in GAMES:
        raise InputError(f"unknown game {name!r} (games: {', '.join(GAMES)})")
    return importlib.import_module(f"gridsolver.{name}.game").GAME


def cli_group(name: str) -> Any:
    """The click group of a game name (imported only when used)."""
    return importlib.import_module(f"gridsolver.{name}.cli").group
