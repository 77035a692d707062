"""Players: the registry of built-in players and loading a user's player.

A player is one function ``player(view, genome) -> (dx, dy)`` written in
one of three ways (fastest first):

- **numba**: an ``@njit`` function; ``view`` is a C-contiguous ``int64``
  array of shape (5, 5) indexed ``view[dy + 2, dx + 2]`` (colours 0..15, -1
  outside the track, the rat at ``view[2, 2]``); ``genome`` is a ``uint64``
  array of shape (2,) holding the 100 genome bits (bit i is
  ``(genome[i >> 6] >> (i & 63)) & 1``; bits 100..127 are zero). It returns
  a tuple of two ints in -1..1 and is compiled into the game loop. Its
  randomness comes from ``np.random`` inside njit code (numba's own
  generator, which the controller seeds per track).
- **numpy** (vectorised, marked with :func:`numpy_player`): called once per
  turn with ``views`` of shape (n, 5, 5) and ``genomes`` of shape (n, 2) for
  the n rats that move this turn, in order; returns an (n, 2) integer array
  of moves (dx, dy). Randomness: ``np.random`` (seeded per track).
- **python**: any other callable, called once per rat with ``view`` as a
  tuple of 5 tuples of 5 ints (``view[dy + 2][dx + 2]``) and ``genome`` as a
  Python int holding the 100 bits. Randomness: ``random`` (seeded per track).

:func:`as_player` turns what a user gives (a built-in name, a
``path/to/file.py:name`` spec, a :class:`Player` or any callable, whose kind
:func:`player_kind` tells) into a :class:`Player`.

Built-in players live in modules of this package named after the player
(dashes become underscores) holding a function of the same name, so a new
module ``champion.py`` with a function ``champion`` is found as ``champion``
without touching this file. A user's player is ``path/to/file.py:name``:
the file's top level runs here when it is loaded (what it prints is kept
out of the program's output); its function plays in a child process (see
:mod:`gridsolver.ratrace.sandbox`), as does any function that is not a
built-in player's (:attr:`Player.builtin`).

This module does not import numba (the CLI's ``--help`` reads it).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import io
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gridsolver.core.errors import InputError, shown

#: Built-in players and what they do (modules loaded only when a player is used).
PLAYERS: dict[str, str] = {
    "forward": "always moves straight ahead (1, 0)",
    "random": "a uniformly random move among the nine",
    "colour-score": "the spec's example: best 6-bit genome score of the three forward cells",
    "look-ahead": "6-bit score per colour, summed over the cells ahead of each forward move",
    "colour-score-numpy": "colour-score written as a vectorised numpy player",
    "colour-score-python": "colour-score written as a plain Python player",
}

#: Players that are modules of this package of their own, listed when the module is there.
OPTIONAL_PLAYERS: dict[str, str] = {
    "champion": "the strongest built-in player: genome beliefs about each colour, a path search "
                "over the view",
}

KINDS = ("numba", "numpy", "python")
_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Player:
    """A loaded player: its name (as the user gave it), function and kind.

    ``source`` is how another process loads it again: the built-in name or the
    ``path/to/file.py:name`` spec (None for a function given as such, which
    travels by value).
    """

    name: str
    fn: Callable[..., Any]
    kind: str
    source: str | None = None

    @property
    def builtin(self) -> bool:
        """A player of this package: trusted, it plays in this process or loky's workers. A user's
        file or function is not (it plays isolated: see gridsolver.ratrace.sandbox)."""
        target = getattr(self.fn, "py_func", self.fn)
        module = getattr(target, "__module__", None) or ""
        return module.startswith(__name__ + ".")


def numpy_player(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Mark ``fn(views, genomes) -> moves`` as a vectorised numpy player."""
    fn.ratrace_kind = "numpy"  # type: ignore[attr-defined]
    return fn


def player_kind(fn: Any) -> str:
    """``numba`` for an njit dispatcher, ``numpy`` when marked, else ``python``."""
    if getattr(fn, "ratrace_kind", None) == "numpy":
        return "numpy"
    if hasattr(fn, "py_func") and hasattr(fn, "signatures"):
        return "numba"
    return "python"


def as_player(player: Any) -> Player:
    """A :class:`Player` from a spec string, a :class:`Player` or a callable (InputError otherwise)."""
    if isinstance(player, Player):
        return player
    loaded = getattr(player, "player", None)  # a player option already resolved (see ratrace.game)
    if isinstance(loaded, Player):
        return loaded
    if isinstance(player, str):
        return load_player(player)
    if callable(player):
        return Player(callable_name(player), player, player_kind(player))
    raise InputError(f"{_option(player)}: expected a built-in player name, 'path/to/file.py:name' "
                     "or a function")


def callable_name(fn: Any) -> str:
    """``module.qualname`` of a function (of the Python function inside a numba dispatcher, of the
    class of a callable object)."""
    target = getattr(fn, "py_func", fn)
    if not hasattr(target, "__qualname__"):  # an object with __call__: name its class
        target = type(target)
    module = getattr(target, "__module__", None)
    return f"{module}.{target.__qualname__}" if module else str(target.__qualname__)


def available_players() -> dict[str, str]:
    """Built-in players plus the optional ones whose module exists."""
    found = dict(PLAYERS)
    for name, text in OPTIONAL_PLAYERS.items():
        if _module_exists(name):
            found[name] = text
    return found


def _module_name(name: str) -> str:
    return f"{__name__}.{name.replace('-', '_')}"


def _module_exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(_module_name(name)) is not None
    except (ImportError, ValueError):
        return False


def load_player(spec: str) -> Player:
    """A built-in player by name, or ``path/to/file.py:name`` from a file."""
    if ":" in spec and not _NAME.match(spec):
        return _load_from_file(spec)
    if not _NAME.match(spec) or not _module_exists(spec):
        names = ", ".join(available_players())
        raise InputError(f"{_option(spec)}: no such player (built-in: {names}; "
                         f"or give path/to/file.py:name)")
    module = importlib.import_module(_module_name(spec))
    attribute = spec.replace("-", "_")
    fn = getattr(module, attribute, None)
    if fn is None or not callable(fn):
        raise InputError(f"{_option(spec)}: module {module.__name__} has no function {attribute}")
    return Player(spec, fn, player_kind(fn), source=spec)


def _option(value: object) -> str:
    """``--player VALUE`` for messages, a long value cut short (see ``shown``)."""
    return f"--player {shown(value, 80)}"


def _is_file(spec: str, path: Path) -> bool:
    """Whether ``path`` is a file; a name the system cannot even look up (too long, a NUL byte) is the
    user's input error, not ours."""
    try:
        return path.is_file()
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise InputError(f"{_option(spec)}: cannot read {shown(str(path))}: {reason}") from None


def _load_from_file(spec: str) -> Player:
    path_text, _, attribute = spec.rpartition(":")
    path = Path(path_text)
    if not attribute.isidentifier():
        raise InputError(f"{_option(spec)}: {shown(attribute)} is not a function name")
    if not _is_file(spec, path):
        raise InputError(f"{_option(spec)}: no such file {shown(path_text)}")
    module_name = "gridsolver_user_player_" + re.sub(r"\W", "_", str(path.resolve()))
    module = sys.modules.get(module_name)
    if module is None:
        loader_spec = importlib.util.spec_from_file_location(module_name, path)
        if loader_spec is None or loader_spec.loader is None:
            raise InputError(f"{_option(spec)}: cannot load {path_text} as Python")
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[module_name] = module  # numba and pickling look modules up by name
        printed = io.StringIO()
        try:  # what the file prints must not land in the command's output (--json)
            with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
                loader_spec.loader.exec_module(module)
        except (Exception, SystemExit) as exc:  # a user's file: any error is their input error
            del sys.modules[module_name]
            said = printed.getvalue()[:2048]
            raise InputError(f"{_option(spec)}: {path_text} failed to load: "
                             f"{type(exc).__name__}: {exc}" + (f" (it printed {said!r})" if said else "")
                             ) from None
    fn = getattr(module, attribute, None)
    if fn is None or not callable(fn):
        raise InputError(f"{_option(spec)}: {path_text} has no function {attribute}")
    return Player(spec, fn, player_kind(fn), source=spec)
