"""A monotonic clock that numba kernels can read, and the one budget check every kernel makes.

numba's nopython mode has no ``time`` module. :func:`monotonic_ns` calls the
C library's ``clock_gettime(CLOCK_MONOTONIC)`` straight from the generated
code; unlike a ctypes function pointer, this keeps ``cache=True`` working.
It reads the same clock as :func:`time.monotonic_ns`, so a deadline made by
:meth:`gridsolver.core.budget.Budget.deadline_ns` can be compared directly.
A call costs about 25 ns: kernels check it every few hundred nodes, through
:func:`budget_check`, so every game stops for the same reasons in the same way.

:func:`budget_check` also hears Ctrl-C (see :mod:`gridsolver.core.interrupt`):
where it reads the clock it asks the interpreter whether a SIGINT arrived
(``PyOS_InterruptOccurred``), and if one did, stops the kernel as if its
time were up and sets the signal pending again (``PyErr_SetInterrupt``) so
that Python's handler still runs once the kernel returns. Both C functions
need the calling thread to hold the GIL, which every kernel here does (none
is compiled with ``nogil`` or ``parallel``); a kernel that releases the GIL
must not call :func:`budget_check`.

This module imports numba; import it only from kernel modules.
"""

from __future__ import annotations

import time

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils, config
from numba.extending import intrinsic

from gridsolver.core.kernels.stops import OUT_OF_NODES, OUT_OF_TIME
from gridsolver.core.kernels.watch import watch_tick

_CLOCK_MONOTONIC = 1  # Linux value of CLOCK_MONOTONIC


def _export_interrupt_functions() -> None:
    """Tell LLVM where the interpreter's two signal functions are.

    LLVM's symbol search does not see libpython's exports (``address_of_symbol``
    gives 0 for them), so kernels calling them would not find the interpreter's
    own flags. This runs when the module is imported, before any kernel that
    uses them is compiled or loaded from the cache (every such kernel imports
    this module).
    """
    import ctypes

    import llvmlite.binding as llvm

    for name in ("PyOS_InterruptOccurred", "PyErr_SetInterrupt"):
        address = ctypes.cast(getattr(ctypes.pythonapi, name), ctypes.c_void_p).value
        llvm.add_symbol(name, address)


_export_interrupt_functions()


@intrinsic
def _clock_gettime_ns(typingctx):  # pragma: no cover - runs inside numba
    signature = types.int64()

    def codegen(context, builder, sig, args):
        i32, i64 = ir.IntType(32), ir.IntType(64)
        timespec = ir.LiteralStructType([i64, i64])
        fn = builder.module.globals.get("clock_gettime")
        if fn is None:
            fnty = ir.FunctionType(i32, [i32, timespec.as_pointer()])
            fn = ir.Function(builder.module, fnty, name="clock_gettime")
        # alloca in the entry block: an alloca inside a loop would grow the stack.
        ts = cgutils.alloca_once(builder, timespec)
        builder.call(fn, [ir.Constant(i32, _CLOCK_MONOTONIC), ts])
        zero = ir.Constant(i32, 0)
        sec = builder.load(builder.gep(ts, [zero, ir.Constant(i32, 0)]))
        nsec = builder.load(builder.gep(ts, [zero, ir.Constant(i32, 1)]))
        return builder.add(builder.mul(sec, ir.Constant(i64, 1_000_000_000)), nsec)

    return signature, codegen


@intrinsic
def _sigint_arrived(typingctx):  # pragma: no cover - runs inside numba
    """1 when a SIGINT arrived since Python last looked (it is then left pending again), else 0."""
    signature = types.int64()

    def codegen(context, builder, sig, args):
        i32, i64 = ir.IntType(32), ir.IntType(64)
        module = builder.module
        occurred = module.globals.get("PyOS_InterruptOccurred")
        if occurred is None:
            occurred = ir.Function(module, ir.FunctionType(i32, []), name="PyOS_InterruptOccurred")
        rearm = module.globals.get("PyErr_SetInterrupt")
        if rearm is None:
            rearm = ir.Function(module, ir.FunctionType(ir.VoidType(), []), name="PyErr_SetInterrupt")
        # PyOS_InterruptOccurred clears the flag it reports: set it again so Python's handler runs.
        arrived = builder.icmp_signed("!=", builder.call(occurred, []), ir.Constant(i32, 0))
        with builder.if_then(arrived, likely=False):
            builder.call(rearm, [])
        return builder.zext(arrived, i64)

    return signature, codegen


@njit(cache=True, inline="always")
def sigint_arrived() -> bool:
    """Whether Ctrl-C was pressed (the signal stays pending for Python; call it with the GIL held)."""
    return _sigint_arrived() != 0


@njit(cache=True, inline="always")
def monotonic_ns() -> int:
    """Nanoseconds on the monotonic clock (same as ``time.monotonic_ns()``)."""
    return _clock_gettime_ns()


@njit(cache=True, inline="always")
def time_remains(deadline_ns: int) -> bool:
    """Before the deadline, no Ctrl-C and no stop asked by a watcher: for kernels that read the
    clock themselves (it is also their watch tick: see :func:`.watch.watch_tick`)."""
    now = monotonic_ns()
    return now < deadline_ns and not sigint_arrived() and not watch_tick(np.int64(-1), now)


@njit(cache=True, inline="always")
def budget_check(nodes: int, node_limit: int, deadline_ns: int, clock_every: int) -> int:
    """0 while a search may go on; :data:`~gridsolver.core.kernels.stops.OUT_OF_NODES` once ``nodes``
    reached ``node_limit``; :data:`~gridsolver.core.kernels.stops.OUT_OF_TIME` once the deadline passed
    or Ctrl-C was pressed (Python then tells the two apart: see :mod:`gridsolver.core.interrupt`).

    The clock is read only when ``nodes`` is a multiple of ``clock_every`` (a power of two), so
    the check costs one comparison on most nodes. A kernel whose count grows by more than one
    at a time should pass 1 and call it less often. Where it reads the clock it also ticks the
    watch (:func:`.watch.watch_tick`): the node count is written for a status line, and a stop
    asked by a watcher ends the search as if its time were up.
    """
    if nodes >= node_limit:
        return OUT_OF_NODES
    if (nodes & (clock_every - 1)) == 0:
        now = monotonic_ns()
        # np.int64: one compile of watch_tick whatever the caller's count (a literal 0 is one more)
        if now >= deadline_ns or sigint_arrived() or watch_tick(np.int64(nodes), now):
            return OUT_OF_TIME
    return 0


if config.DISABLE_JIT:  # pragma: no cover - NUMBA_DISABLE_JIT=1: kernels run as plain Python, to debug
    # The intrinsics above exist only in compiled code; plain Python reads the same clock, and hears
    # Ctrl-C through core.interrupt's handler, which the searches install. Hashes wrap around 64 bits
    # on purpose, silently in compiled code: numpy's scalars would warn at every wrap.
    import numpy as np

    np.seterr(over="ignore")

    def sigint_arrived() -> bool:  # type: ignore[misc]  # noqa: F811
        from gridsolver.core import interrupt

        return interrupt.requested()

    def monotonic_ns() -> int:  # type: ignore[misc]  # noqa: F811
        return time.monotonic_ns()
