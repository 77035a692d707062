"""A game's own solve options, declared once: the command line, the checks, the API and the docs
are all made from the declaration.

A game lists its options as :class:`Option` values in ``Game.options``. From
that one list:

- :func:`click_option` makes each ``--flag`` of ``gridsolver GAME solve``
  (and ``show``, which replays with the same options);
- :func:`check_declared` refuses an unknown name, a value of the wrong type
  or outside its choices, with a message naming the option, before the game's
  own cross-checks (``Game.resolve_options``) run;
- :func:`solve_signature` gives ``gridsolver.GAME.solve`` a signature that
  names every option with its type and default, for ``help()``, editors and
  the generated reference;
- :func:`describe` writes the options as reference text.

This module imports click only inside :func:`click_option`, so the Python API
does not load it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gridsolver.core.errors import InputError, shown


@dataclass(frozen=True)
class Option:
    """One game option of ``solve``.

    ``name`` is the Python keyword; the command line spells it with dashes
    (``move_limit`` is ``--move-limit``). ``kind`` is the value's Python type
    (``bool`` makes a flag); ``choices`` limits a ``str`` option to a few
    words. ``parse`` turns command-line text into the value (``"3,3"`` into a
    cell) where the type alone cannot; ``metavar`` names the text it takes.
    ``low`` and ``high`` bound a number (both included): the command line
    refuses a value past them as a usage error naming the option, and so do
    the checks of the API. ``cli`` False keeps an option out of the command
    line (an API-only knob).
    """

    name: str
    kind: type
    default: Any
    help: str
    choices: tuple[str, ...] | None = None
    metavar: str | None = None
    parse: Callable[[str], Any] | None = None
    cli: bool = True
    low: float | None = None
    high: float | None = None

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def annotation(self) -> str:
        """The type as a reader writes it: ``bool``, ``str``, ``int | None`` ..."""
        if self.choices:
            text = "Literal[" + ", ".join(repr(c) for c in self.choices) + "]"
        elif self.parse is not None and self.kind is not str:
            text = self.kind.__name__
        else:
            text = self.kind.__name__
        return text + (" | None" if self.default is None else "")


def check_declared(game: str, declared: Sequence[Option], options: Mapping[str, Any]) -> None:
    """Refuse an unknown option, a value of the wrong type or one outside its choices.

    ``None`` stands for "not given" and passes; the game's own
    ``resolve_options`` then fills in defaults and checks options against the
    board and against each other.
    """
    known = {option.name: option for option in declared}
    unknown = sorted(set(options) - set(known))
    if unknown:
        names = ", ".join(known) or "none"
        raise InputError(f"{game}: unknown option(s) {', '.join(unknown)} (known: {names})")
    for name, value in options.items():
        option = known[name]
        if value is None:
            continue
        if option.choices is not None:
            if value not in option.choices:
                raise InputError(f"{option.flag} {value!r}: expected one of {', '.join(option.choices)}")
            continue
        if option.kind is bool and not isinstance(value, bool):
            raise InputError(f"{option.flag} {value!r}: expected True or False")
        if option.kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise InputError(f"{option.flag} {value!r}: expected a whole number")
        if option.kind is float and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise InputError(f"{option.flag} {value!r}: expected a number")
        if option.kind in (int, float) and not _within(option, value):
            raise InputError(f"{option.flag} {shown(value)}: expected {_range_words(option)}")


def _within(option: Option, value: float) -> bool:
    return not ((option.low is not None and value < option.low)
                or (option.high is not None and value > option.high))


def _range_words(option: Option) -> str:
    """``a whole number from 0 to 1,000,000,000``, ``a number of at most 1,000,000`` ..."""
    what = "a whole number" if option.kind is int else "a number"
    low, high = (None if v is None else f"{v:,}" for v in (option.low, option.high))
    if low is not None and high is not None:
        return f"{what} from {low} to {high}"
    return f"{what} of at least {low}" if low is not None else f"{what} of at most {high}"


def click_option(option: Option) -> Callable[[Any], Any]:
    """The ``click.option`` decorator of one declared option (defaults stay in the game: None here)."""
    import click

    if option.kind is bool:
        return click.option(option.flag, option.name, is_flag=True, default=None, help=option.help)
    if option.choices is not None:
        return click.option(option.flag, option.name, type=click.Choice(option.choices), default=None,
                            help=option.help)
    kind: Any = option.kind if option.parse is None and option.kind in (int, float) else str
    if kind is int and (option.low is not None or option.high is not None):
        kind = click.IntRange(None if option.low is None else int(option.low),
                              None if option.high is None else int(option.high))
    elif kind is float and (option.low is not None or option.high is not None):
        kind = click.FloatRange(option.low, option.high)
    return click.option(option.flag, option.name, type=kind, default=None, metavar=option.metavar,
                        help=option.help)


def from_command_line(declared: Sequence[Option], values: Mapping[str, Any]) -> dict[str, Any]:
    """The options a command line gave, parsed (``--finish 3,3`` becomes a cell); the rest left out."""
    given: dict[str, Any] = {}
    for option in declared:
        value = values.get(option.name)
        if value is None or value is False and option.kind is bool:
            continue
        given[option.name] = option.parse(value) if option.parse is not None else value
    return given


def solve_signature(solve: Callable[..., Any], declared: Sequence[Option]) -> inspect.Signature:
    """``solve``'s signature with ``**options`` replaced by the declared options, keyword-only."""
    signature = inspect.signature(solve)
    parameters = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
    parameters += [inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, default=option.default,
                                     annotation=option.annotation()) for option in declared]
    return signature.replace(parameters=parameters)


def describe(declared: Sequence[Option]) -> str:
    """The options as reference text, one line each: name, type, default, what it does."""
    if not declared:
        return "This game has no options of its own."
    return "\n".join(f"- ``{option.name}`` (``{option.annotation()}``, default ``{option.default!r}``; "
                     f"command line {option.flag if option.cli else 'none'}): {option.help}"
                     for option in declared)
