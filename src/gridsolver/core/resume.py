"""Long runs that can stop at any moment and go on later: ``--resume FILE``.

A command of many boards or tracks (``solve`` of several boards, ``bunny
bench``, ``pegs table``, ``ratrace play``) given ``--resume FILE`` writes each
result to FILE as one JSON line the moment it is finished (flushed and synced
to disk), and when FILE already holds results of the same run it takes them as
done instead of running those boards again. A run stopped in any way (Ctrl-C,
``kill -9``, a machine gone) is started again with the same command and goes
on where it stopped; what it prints is what an uninterrupted run prints.

What a :class:`Journal` keeps is plain data (a result's JSON form); the
command says what identifies a unit of its run (``key``) and checks that a
stored result belongs to this run (same board, same options) before taking
it. A result cut short by Ctrl-C is not written: the board runs again.
A line torn by a kill in the middle of writing it is dropped, and the file cut
back to its last whole line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any, TextIO

from gridsolver.core.errors import InputError

Record = dict[str, Any]


class Journal:
    """The results of a run kept in a file of JSON lines, one per finished unit."""

    def __init__(self, path: str, key: Callable[[Record], str]) -> None:
        self.path = path
        self.key = key
        self.done: dict[str, list[Record]] = {}  # by unit name, in the order they were written
        self._stream: TextIO | None = None
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            raise InputError(f"--resume {path}: cannot write there (no such folder, or not writable)")
        self._read()

    def _read(self) -> None:
        try:
            with open(self.path, "rb") as file:
                data = file.read()
        except FileNotFoundError:
            return
        except OSError as exc:
            raise InputError(f"--resume {self.path}: cannot read it ({exc.strerror})") from None
        good = 0  # bytes up to the end of the last whole, readable line
        for number, line in enumerate(data.split(b"\n"), start=1):
            end = good + len(line) + 1
            if not line.strip():
                good = min(end, len(data))
                continue
            try:
                record = json.loads(line)
                if not isinstance(record, dict):
                    raise ValueError("not an object")
                name = self.key(record)
            except (ValueError, KeyError, TypeError) as exc:
                if end >= len(data) and not data.endswith(b"\n"):
                    break  # the last line, torn by a kill while it was written: that unit runs again
                raise InputError(f"--resume {self.path}, line {number}: not a result of this command "
                                 f"({exc})") from None
            self.done.setdefault(name, []).append(record)
            good = min(end, len(data))
        if good < len(data):
            with open(self.path, "r+b") as file:
                file.truncate(good)

    def take(self, name: str) -> Record | None:
        """The stored result of unit ``name`` (the next one, when a run has several units of that
        name), or None when it is still to run."""
        stored = self.done.get(name)
        return stored.pop(0) if stored else None

    def record(self, record: Record) -> None:
        """Keep a finished unit's result: one line, flushed and synced, before the next is begun."""
        if self._stream is None:
            try:
                self._stream = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - kept open
            except OSError as exc:
                raise InputError(f"--resume {self.path}: cannot write it ({exc.strerror})") from None
        self._stream.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._stream.flush()
        os.fsync(self._stream.fileno())

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def by_input(record: Record) -> str:
    """The unit a result record is of: its board's label (``solve``, ``table`` and ``play`` results)."""
    return str(record["input"])


def open_journal(path: str | None, key: Callable[[Record], str] = by_input) -> Any:
    """The run's journal for ``--resume PATH``, as a context manager (one giving None without it)."""
    import contextlib

    return contextlib.nullcontext(None) if path is None else Journal(path, key)


def mismatch(path: str, name: str, what: str) -> InputError:
    """The error for a stored result that belongs to another run."""
    return InputError(f"--resume {path}: its result for {name} was made {what}; resume with the same "
                      "command, or give another file")
