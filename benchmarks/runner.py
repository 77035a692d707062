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

A benchmark whose full run is too long for one sitting (SameGame at 300 s a
position is 100 minutes a seed) keeps each finished part as a record
(:class:`Records`, JSON lines in ``benchmarks/records/NAME.jsonl``, written
as each part ends when ``--write`` is given) and builds its tables from every
record kept for the same settings, each row naming the commit that measured
it. ``--from-records`` builds the section again from the records alone,
without running anything.
"""

from __future__ import annotations

import datetime
import importlib
import importlib.metadata
import json
import os
import platform
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS_MD = ROOT / "BENCHMARKS.md"
RECORDS_DIR = ROOT / "benchmarks" / "records"


@dataclass
class Run:
    """How the running benchmark was asked to run (set by :func:`main`)."""

    write: bool = False  # keep records (and write BENCHMARKS.md)
    from_records: bool = False  # build the tables from the records only, running nothing
    commit: str = ""


RUN = Run()


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


def software() -> str:
    """Python, numba, numpy and the core count."""
    return (f"Python {platform.python_version()}, numba {_version('numba')}, numpy {_version('numpy')}; "
            f"{cores()} cores")


def provenance(commit: str | None = None) -> str:
    """The code and software a section measured: commit, Python, numba, numpy, core count."""
    commit = git_commit() if commit is None else commit
    return f"_Code: commit {commit}; {software()}._"


def section(name: str, tables: list[Table], command: str, commit: str | None = None,
            records: bool = False) -> str:
    """One benchmark's section; ``commit`` is the code's :func:`git_commit` (taken now if not given).
    ``records``: the tables come from kept records, whose rows name the code that measured them."""
    today = datetime.date.today().isoformat()
    body = "\n".join(t.markdown() for t in tables)
    if records:
        head = (f"_Built {today} with `{command}` from the records in `benchmarks/records/{name}.jsonl`: "
                "each row names the commit, date and software that measured it._")
    else:
        head = f"_Measured {today} on {machine()} with `{command}`._\n\n{provenance(commit)}"
    return f"<!-- bench:{name} -->\n{head}\n\n{body}<!-- /bench:{name} -->"


class Records:
    """The parts of a long benchmark measured so far: one JSON line each, ``{"key": ..., "commit": ...,
    "machine": ..., "date": ..., "data": ...}``, a later part replacing one of the same key."""

    def __init__(self, name: str, folder: Path | None = None) -> None:
        self.path = (RECORDS_DIR if folder is None else folder) / f"{name}.jsonl"
        self.rows: list[dict] = []
        if self.path.exists():
            self.rows = [json.loads(line) for line in self.path.read_text().splitlines() if line.strip()]

    def put(self, key: dict, data: dict) -> dict:
        """Keep one finished part (written at once when the run writes, so a long run that stops keeps
        what it finished)."""
        row = {"key": key, "commit": RUN.commit or git_commit(), "machine": machine(),
               "software": software(), "date": datetime.date.today().isoformat(), "data": data}
        self.rows = [r for r in self.rows if r["key"] != key] + [row]
        if RUN.write:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_suffix(".tmp")
            temporary.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in self.rows))
            temporary.replace(self.path)
        return row

    def matching(self, **fields: object) -> list[dict]:
        """The parts whose key has these values (in the order they were kept)."""
        return [r for r in self.rows if all(r["key"].get(k) == v for k, v in fields.items())]


def write_section(name: str, text: str, path: Path = BENCHMARKS_MD) -> None:
    """Replace (or append) one benchmark's section; a lock keeps parallel writers apart."""
    import fcntl

    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _replace_section(name, text, path)


#: What BENCHMARKS.md holds above its sections (the sections follow, each under ``## NAME``).
HEADER = """# Benchmarks

Measured figures only: every table below is written by
`python benchmarks/run.py NAME --write` (see `benchmarks/runner.py`), on the
project's machine (2 cores) unless a note says otherwise. Benchmarks are not
tests: they never fail because a machine is slow. Notes on what the figures
mean and on experiments live in the documentation (the engines' pages and
the research notes), not here.
"""


def _replace_section(name: str, text: str, path: Path) -> None:
    content = path.read_text() if path.exists() else HEADER
    if not content.startswith(HEADER):  # the header as the runner writes it, whatever it was
        content = HEADER + content[content.index("\n## "):] if "\n## " in content else HEADER
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
    parser.add_argument("--write", action="store_true",
                        help="record the tables in BENCHMARKS.md (and the parts of a long benchmark in "
                             "benchmarks/records/)")
    parser.add_argument("--from-records", action="store_true",
                        help="build the tables of a benchmark that keeps records from them alone")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    commit = git_commit()  # the code as it was when the run started, before any section is written
    RUN.write, RUN.from_records, RUN.commit = args.write, args.from_records, commit
    for name in args.names:
        module = importlib.import_module(f"bench_{name}")
        if args.from_records and not getattr(module, "KEEPS_RECORDS", False):
            parser.error(f"--from-records: {name} keeps no records")
        tables = module.run(quick=args.quick)
        command = "python benchmarks/run.py " + name + (" --quick" if args.quick else "")
        if args.from_records:
            command += " --from-records"
        text = section(name, tables, command, commit, records=getattr(module, "KEEPS_RECORDS", False))
        print(text)
        if args.write:
            write_section(name, text)
    return 0
