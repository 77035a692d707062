"""A griffe extension for the API reference (mkdocs.yml: mkdocstrings' ``extensions``).

Each game's ``solve`` is made at import time (``solve = GAME.api_solve()``),
with a signature and a docstring that name the game's own options. Read
statically, it would show as ``solve = GAME.api_solve()``; this extension
imports the game and puts the function it made in its place, with that
signature and docstring.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import griffe

KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: griffe.ParameterKind.positional_only,
    inspect.Parameter.POSITIONAL_OR_KEYWORD: griffe.ParameterKind.positional_or_keyword,
    inspect.Parameter.VAR_POSITIONAL: griffe.ParameterKind.var_positional,
    inspect.Parameter.KEYWORD_ONLY: griffe.ParameterKind.keyword_only,
    inspect.Parameter.VAR_KEYWORD: griffe.ParameterKind.var_keyword,
}


def _text(annotation: Any) -> str | None:
    if annotation is inspect.Parameter.empty:
        return None
    return annotation if isinstance(annotation, str) else inspect.formatannotation(annotation)


def made_solve(module_path: str, attribute: griffe.Attribute) -> griffe.Function:
    """The griffe function of ``module_path.solve``, from the function the game made."""
    solve = importlib.import_module(module_path).solve
    signature = inspect.signature(solve)
    parameters = griffe.Parameters(*[
        griffe.Parameter(name, annotation=_text(parameter.annotation), kind=KINDS[parameter.kind],
                         default=None if parameter.default is inspect.Parameter.empty
                         else repr(parameter.default))
        for name, parameter in signature.parameters.items()])
    function = griffe.Function("solve", lineno=attribute.lineno, endlineno=attribute.endlineno,
                               parameters=parameters, returns=_text(signature.return_annotation))
    function.docstring = griffe.Docstring(inspect.cleandoc(solve.__doc__ or ""), parent=function)
    return function


class GameSolve(griffe.Extension):
    """Replace ``solve = GAME.api_solve()`` in a game's package by the function it makes."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        if pkg.name != "gridsolver":
            return
        for module in pkg.modules.values():
            solve = module.members.get("solve")
            if isinstance(solve, griffe.Attribute) and "api_solve" in str(solve.value):
                module.set_member("solve", made_solve(module.path, solve))
