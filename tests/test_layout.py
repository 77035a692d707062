"""The shape of the package: every game folder alike, and dependencies that point down.

Read from the source as text (the modules are parsed, never imported), so a
module that would only import a game inside a function is caught as well.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "gridsolver"
GAMES = ("bunny", "pegs", "clickomania", "samegame", "ratrace")
#: the modules every game folder has, each named for what it holds
GAME_MODULES = ("rules.py", "game.py", "cli.py", "generate.py", "film.py", "reference.py",
                "kernels/__init__.py")
#: the games with a solver, whose Python side lives in search.py (the rat race plays tournaments)
SEARCHING_GAMES = ("bunny", "pegs", "clickomania", "samegame")
#: the one game that builds on another: SameGame plays on Clickomania's board engine
ALLOWED_GAME_IMPORTS = {("samegame", "clickomania")}
#: modules a game takes from the game it builds on (SameGame's boards and pictures are Clickomania's)
INHERITED = {"samegame": ("clickomania", ("generate.py", "film.py"))}
#: the names of kernel stop codes, defined once in gridsolver.core.kernels.stops
STOP_CODES = {"DONE", "EXHAUSTED", "FOUND", "OUT_OF_TIME", "OUT_OF_NODES", "OUT_OF_MEMORY", "ILLEGAL_MOVE",
              "TABLE_FULL", "DOOMED", "LIBRARY_FULL"}


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at any depth of the file (absolute names)."""
    tree = ast.parse(path.read_text(), str(path))
    package = _name(path) if path.name == "__init__.py" else _name(path).rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def _top(module: str) -> str | None:
    """The part of gridsolver a module belongs to (``core``, a game, or a top-level module)."""
    parts = module.split(".")
    if parts[0] != "gridsolver" or len(parts) < 2:
        return None
    return parts[1]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_folder_has_the_same_modules(game):
    folder = PACKAGE / game
    base, inherited = INHERITED.get(game, (game, ()))
    missing = [name for name in GAME_MODULES if not (folder / name).is_file()
               and not (name in inherited and (PACKAGE / base / name).is_file())]
    if game in SEARCHING_GAMES and not (folder / "search.py").is_file():
        missing.append("search.py")
    assert not missing, f"{game}/ lacks {missing}"
    assert not (folder / "kernels.py").exists(), f"{game}/kernels.py: kernels are a package, one module each"


@pytest.mark.parametrize("game", GAMES)
def test_kernel_packages_import_nothing(game):
    """``kernels/__init__.py`` lists its modules; importing it must not import numba."""
    init = PACKAGE / game / "kernels" / "__init__.py"
    tree = ast.parse(init.read_text())
    imports = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
               and not (isinstance(node, ast.ImportFrom) and node.module == "__future__")]
    assert not imports, f"{init} imports {[ast.unparse(node) for node in imports]}"
    assert ast.get_docstring(tree), f"{init} has no docstring listing its modules"


def test_core_imports_no_game_and_no_front_end():
    wrong = {}
    for path in _modules():
        if _top(_name(path)) != "core":
            continue
        reaching = sorted(m for m in _imports(path) if _top(m) in (*GAMES, "games", "cli", "launch"))
        if reaching:
            wrong[_name(path)] = reaching
    assert not wrong, f"core reaches up: {wrong}"


def test_games_import_no_other_game_but_samegame_builds_on_clickomania():
    wrong = defaultdict(list)
    for path in _modules():
        owner = _top(_name(path))
        if owner not in GAMES:
            continue
        for module in _imports(path):
            other = _top(module)
            if other in GAMES and other != owner and (owner, other) not in ALLOWED_GAME_IMPORTS:
                wrong[_name(path)].append(module)
            if other in ("games", "cli", "launch"):
                wrong[_name(path)].append(module)
    assert not wrong, f"games reaching sideways or up: {dict(wrong)}"


def test_core_reads_no_command_line():
    users = [_name(path) for path in _modules() if _top(_name(path)) == "core"
             and "sys.argv" in path.read_text()]
    assert not users, f"core modules reading sys.argv: {users}"


def test_stop_codes_are_numbered_once():
    """A code means the same wherever it is read: only core.kernels.stops assigns the names."""
    stops = PACKAGE / "core" / "kernels" / "stops.py"
    owners = defaultdict(list)
    for path in _modules():
        tree = ast.parse(path.read_text())
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else (
                [node.target] if isinstance(node, ast.AnnAssign) else [])
            for target in targets:
                names = target.elts if isinstance(target, ast.Tuple) else [target]
                for name in names:
                    if isinstance(name, ast.Name) and name.id in STOP_CODES:
                        owners[name.id].append(_name(path))
    elsewhere = {code: where for code, where in owners.items() if where != [_name(stops)]}
    assert not elsewhere, f"stop codes numbered outside core.kernels.stops: {elsewhere}"


def _njit_functions():
    for path in _modules():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and any("njit" in ast.unparse(decorator)
                                                         for decorator in node.decorator_list):
                yield _name(path), node


def test_no_kernel_helper_is_written_twice():
    """Two numba functions with the same body (docstrings aside) are one helper written twice."""
    bodies = defaultdict(list)
    for module, function in _njit_functions():
        body = function.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]
        if len(body) == 1 and isinstance(body[0], ast.Return):
            continue  # a one-line wrapper is a name, not a copy
        key = ast.dump(ast.Module(body=body, type_ignores=[]), annotate_fields=False)
        bodies[(ast.dump(function.args, annotate_fields=False), key)].append(f"{module}.{function.name}")
    twice = [names for names in bodies.values() if len(names) > 1]
    assert not twice, f"kernel helpers written more than once: {twice}"


def test_genome_size_is_defined_once():
    owners = [_name(path) for path in _modules()
              if any(isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "GENOME_BITS"
                                                         for t in node.targets)
                     for node in ast.parse(path.read_text()).body)]
    assert len(owners) == 1, f"GENOME_BITS defined in {owners}"
