"""What kernels write into the watch block (see :mod:`gridsolver.core.watch`) and how they pause.

- :func:`report_best`, :func:`report_bound`, :func:`report_depth`: a kernel
  says it found a better score, proved a better bound, or went deeper;
- :func:`watch_tick`: called by :func:`.clock.budget_check` each time it
  reads the clock; it writes the node count, answers whether a watcher asked
  the search to stop, and lets the interpreter go for a moment when a thread
  of this process is waiting to read the block.

Kernels reach the block through the address held in
:data:`gridsolver.core.watch.ADDRESS`, loaded at each call, so the block can be
moved between searches without compiling anything again and a kernel loaded
from numba's cache finds it too. Loads and stores are atomic (monotonic):
another thread or process reads the block while the kernel runs, and the
compiler must not keep a value in a register across a loop.

Letting the interpreter go (``PyEval_SaveThread`` then ``PyEval_RestoreThread``)
costs about a microsecond; it happens only when :data:`~gridsolver.core.watch.YIELD_NS`
is set, at most that often.

This module imports numba; import it only from kernel modules.
"""

from __future__ import annotations

import ctypes

import llvmlite.binding as llvm
from llvmlite import ir
from numba import njit, types
from numba.core import config
from numba.extending import intrinsic

from gridsolver.core import watch
from gridsolver.core.watch import (
    BEST,
    BOUND,
    BOUNDS,
    DEPTH,
    IMPROVEMENTS,
    LAST_YIELD_NS,
    NODES,
    STOP,
    YIELD_NS,
)

_BLOCK_SYMBOL = "gridsolver_watch_block"


def _export_symbols() -> None:
    """Tell LLVM where the block's address and the interpreter's two GIL functions are (its own
    symbol search does not see libpython's exports); runs before any kernel that uses them loads."""
    llvm.add_symbol(_BLOCK_SYMBOL, ctypes.addressof(watch.ADDRESS))
    for name in ("PyEval_SaveThread", "PyEval_RestoreThread"):
        llvm.add_symbol(name, ctypes.cast(getattr(ctypes.pythonapi, name), ctypes.c_void_p).value)


_export_symbols()


def _slot_pointer(builder, index):  # pragma: no cover - runs inside numba
    i64 = ir.IntType(64)
    module = builder.module
    address = module.globals.get(_BLOCK_SYMBOL)
    if address is None:
        address = ir.GlobalVariable(module, i64.as_pointer(), name=_BLOCK_SYMBOL)
        address.linkage = "external"
    return builder.gep(builder.load(address), [index])


@intrinsic
def _load(typingctx, index):  # pragma: no cover - runs inside numba
    def codegen(context, builder, sig, args):
        return builder.load_atomic(_slot_pointer(builder, args[0]), "monotonic", 8)

    return types.int64(types.int64), codegen


@intrinsic
def _store(typingctx, index, value):  # pragma: no cover - runs inside numba
    def codegen(context, builder, sig, args):
        builder.store_atomic(args[1], _slot_pointer(builder, args[0]), "monotonic", 8)
        return context.get_dummy_value()

    return types.void(types.int64, types.int64), codegen


@intrinsic
def _let_interpreter_go(typingctx):  # pragma: no cover - runs inside numba
    """Release the GIL and take it back: a waiting thread of this process runs meanwhile."""

    def codegen(context, builder, sig, args):
        state = ir.IntType(8).as_pointer()
        module = builder.module
        save = module.globals.get("PyEval_SaveThread")
        if save is None:
            save = ir.Function(module, ir.FunctionType(state, []), name="PyEval_SaveThread")
        restore = module.globals.get("PyEval_RestoreThread")
        if restore is None:
            restore = ir.Function(module, ir.FunctionType(ir.VoidType(), [state]),
                                  name="PyEval_RestoreThread")
        builder.call(restore, [builder.call(save, [])])
        return context.get_dummy_value()

    return types.void(), codegen


@njit(cache=True, inline="always")
def report_best(score: int) -> None:
    """The kernel found a better solution, of this score."""
    _store(BEST, score)
    _store(IMPROVEMENTS, _load(IMPROVEMENTS) + 1)


@njit(cache=True, inline="always")
def report_bound(bound: int) -> None:
    """The kernel proved a better bound on the score."""
    _store(BOUND, bound)
    _store(BOUNDS, _load(BOUNDS) + 1)


@njit(cache=True, inline="always")
def report_depth(depth: int) -> None:
    """The kernel went on to ``depth``, in the game's terms."""
    _store(DEPTH, depth)


@njit(cache=True)
def watch_tick(nodes: int, now_ns: int) -> bool:
    """At a clock check: write ``nodes`` (negative: leave it), let a waiting reader run when it is
    time, and say whether a watcher asked the search to stop."""
    if nodes >= 0:
        _store(NODES, nodes)
    every = _load(YIELD_NS)
    if every > 0 and now_ns - _load(LAST_YIELD_NS) >= every:
        _store(LAST_YIELD_NS, now_ns)
        _let_interpreter_go()
    return _load(STOP) != 0


if config.DISABLE_JIT:  # pragma: no cover - NUMBA_DISABLE_JIT=1: kernels run as plain Python, to debug
    # Plain Python writes the block itself, and threads take turns without being let in.
    def report_best(score: int) -> None:  # type: ignore[misc]  # noqa: F811
        watch.improved(score)

    def report_bound(bound: int) -> None:  # type: ignore[misc]  # noqa: F811
        watch.bounded(bound)

    def report_depth(depth: int) -> None:  # type: ignore[misc]  # noqa: F811
        watch.deeper(depth)

    def watch_tick(nodes: int, now_ns: int) -> bool:  # type: ignore[misc]  # noqa: F811
        if nodes >= 0:
            watch.block()[NODES] = nodes
        return watch.stop_requested()
