"""Moved to :mod:`gridsolver.samegame.cli`; kept while the top-level CLI still registers this module."""

from gridsolver.samegame.cli import group  # noqa: F401
