"""The benchmark runner every game's benchmark plugs into.

A game's benchmark is ``benchmarks/bench_<name>.py`` with a function
``run(quick: bool) -> list[Table]``. ``python benchmarks/run.py NAME`` runs
it and prints the tables as markdown; ``--write`` also replaces the section
``<!-- bench:NAME -->`` ... ``<!-- /bench:NAME -->`` in BENCHMARKS.md, with the
machine and date and a line naming the code measured (git commit, "+dirty" when
the tree had uncommitted changes) and the versions of Python, numba and numpy
and the core count, so measured figures are recorded, never typed in by hand.
Benchmarks are not tests: they print what they measure and never fail
because a machine is slow.
"""

from __future__ import annotations

import datetime
import importlib
import importlib.metadata
import os
import platform
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS_MD = ROOT / "BENCHMARKS.md"


@dataclass
class Table:
    """One markdown table with a title and notes under it."""

    title: str
    headers: list[str]
    rows: list[list[object]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, *cells: object) -> None:
        self.rows.append(list(cells))

    def markdown(self) -> str:
        lines = [f"### {self.title}", "", "| " + " | ".join(self.headers) + " |",
                 "|" + "|".join("---" for _ in self.headers) + "|"]
        lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in self.rows]
        if self.notes:
            lines.append("")
            lines += self.notes
        return "\n".join(lines) + "\n"


def _cell(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}" if abs(value) >= 10000 else str(value)
    return str(value).replace("|", "\\|")


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return cpu


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def git_commit(root: Path = ROOT) -> str:
    """The short hash of HEAD, with "+dirty" when the tree has changes not committed.

    Untracked files count (a new module changes what runs); BENCHMARKS.md does not, so
    that writing one section does not mark the next one of the same run dirty.
    """
    def git(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=60)

    try:
        head = git("rev-parse", "--short", "HEAD")
        if head.returncode != 0:
            return "unknown (not a git checkout)"
        status = git("status", "--porcelain", "--", ".", ":(exclude)BENCHMARKS.md")
    except (OSError, subprocess.SubprocessError):
        return "unknown (git not available)"
    dirty = status.returncode != 0 or bool(status.stdout.strip())
    return head.stdout.strip() + ("+dirty" if dirty else "")


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def provenance(commit: str | None = None) -> str:
    """The code and software a section measured: commit, Python, numba, numpy, core count."""
    commit = git_commit() if commit is None else commit
    return (f"_Code: commit {commit}; Python {platform.python_version()}, numba {_version('numba')}, "
            f"numpy {_version('numpy')}; {cores()} cores._")


def section(name: str, tables: list[Table], command: str, commit: str | None = None) -> str:
    """One benchmark's section; ``commit`` is the code's :func:`git_commit` (taken now if not given)."""
    today = datetime.date.today().isoformat()
    body = "\n".join(t.markdown() for t in tables)
    return (f"<!-- bench:{name} -->\n_Measured {today} on {machine()} with `{command}`._\n\n"
            f"{provenance(commit)}\n\n{body}<!-- /bench:{name} -->")


def write_section(name: str, text: str, path: Path = BENCHMARKS_MD) -> None:
    """Replace (or append) one benchmark's section; a lock keeps parallel writers apart."""
    import fcntl

    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _replace_section(name, text, path)


def _replace_section(name: str, text: str, path: Path) -> None:
    content = path.read_text() if path.exists() else "# Benchmarks\n"
    pattern = re.compile(rf"<!-- bench:{re.escape(name)} -->.*?<!-- /bench:{re.escape(name)} -->",
                         re.S)
    if pattern.search(content):
        content = pattern.sub(lambda _: text, content)
    else:
        content = content.rstrip("\n") + f"\n\n## {name}\n\n{text}\n"
    path.write_text(content)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="Run gridsolver benchmarks.")
    parser.add_argument("names", nargs="+", help="benchmark names (bench_NAME.py)")
    parser.add_argument("--quick", action="store_true", help="a short run (smaller sets)")
    parser.add_argument("--write", action="store_true", help="record the tables in BENCHMARKS.md")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    commit = git_commit()  # the code as it was when the run started, before any section is written
    for name in args.names:
        module = importlib.import_module(f"bench_{name}")
        tables = module.run(quick=args.quick)
        command = "python benchmarks/run.py " + name + (" --quick" if args.quick else "")
        text = section(name, tables, command, commit)
        print(text)
        if args.write:
            write_section(name, text)
    return 0
