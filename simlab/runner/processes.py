"""Signals and worker lifetimes: a run stops cleanly on Ctrl-C or SIGTERM, and no worker outlives it.

- :func:`interrupt_on_sigterm` makes SIGTERM raise :class:`~simlab.core.errors.Terminated` (a
  KeyboardInterrupt) in the main thread for the duration of a run, so the run is marked
  ``interrupted`` and stays resumable, exactly as after Ctrl-C.
- :func:`guard_worker` is called by every shard in a worker process of this machine: on Linux
  it asks the kernel to SIGKILL the worker when its parent dies (``PR_SET_PDEATHSIG``), and
  everywhere it starts a watchdog thread that exits the worker when the process that started
  the run is gone (its parent pid changes). A worker of a remote Dask cluster (not a child of
  the run) is left alone.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from simlab.core.errors import Terminated

_PR_SET_PDEATHSIG = 1
_guarded_for: int | None = None  # the run process this worker is guarded against
_guard_lock = threading.Lock()


@contextmanager
def interrupt_on_sigterm() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated` (once; a second SIGTERM is ignored
    while the run records its state). Only in the main thread; elsewhere a no-op.

    Python swallows an exception raised inside a finaliser (a ``__del__`` or weakref callback run by
    the garbage collector) and prints "Exception ignored in ...". A signal that lands there would be
    lost and the run would go on as if never stopped, so within the block an interruption swallowed
    that way (SIGTERM's :class:`Terminated`, or Ctrl-C's KeyboardInterrupt) is delivered again: the
    same signal is re-sent to this process and raised at the next ordinary line instead. A library that
    catches such an interruption to log it on its way out (sqlalchemy's pool, resetting a connection
    as Optuna's storage is collected) would print a traceback as if something had failed: within the
    block, log records that carry an interruption are dropped from the default stderr handler.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_term(signum: int, frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise Terminated("terminated (SIGTERM)")

    previous_hook = sys.unraisablehook

    def redeliver(unraisable: sys.UnraisableHookArgs) -> None:
        exc = unraisable.exc_type
        if exc is None or not issubclass(exc, KeyboardInterrupt):
            previous_hook(unraisable)
            return
        sig = signal.SIGTERM if issubclass(exc, Terminated) else signal.SIGINT
        if sig == signal.SIGTERM:
            signal.signal(signal.SIGTERM, on_term)
        # Sent from another thread a moment later: a signal sent from here would be handled inside this
        # hook, where it would be swallowed again.
        resend = threading.Timer(0.01, os.kill, args=(os.getpid(), sig))
        resend.daemon = True
        resend.start()

    old = signal.signal(signal.SIGTERM, on_term)
    sys.unraisablehook = redeliver
    stderr_handler = logging.lastResort
    if stderr_handler is not None:
        stderr_handler.addFilter(_not_an_interruption)
    try:
        yield
    finally:
        if stderr_handler is not None:
            stderr_handler.removeFilter(_not_an_interruption)
        sys.unraisablehook = previous_hook
        signal.signal(signal.SIGTERM, old)


def _not_an_interruption(record: logging.LogRecord) -> bool:
    """False for a log record whose exception is a Ctrl-C or SIGTERM interruption (see interrupt_on_sigterm)."""
    exc = record.exc_info[0] if record.exc_info else None
    return exc is None or not issubclass(exc, KeyboardInterrupt)


def _set_parent_death_signal() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies; False where that is unavailable."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int, interval: float = 0.2) -> None:
    while True:
        if os.getppid() != parent:
            os._exit(70)  # the run is gone: stop now, whatever this worker was doing
        time.sleep(interval)


def guard_worker(parent: int) -> None:
    """Make this worker process stop when ``parent`` (the process running the run) dies.

    A no-op in the run's own process and in a process that is not ``parent``'s child (a
    worker of a remote Dask cluster); idempotent.
    """
    global _guarded_for
    if parent <= 0 or os.getpid() == parent or _guarded_for == parent:
        return
    with _guard_lock:
        if _guarded_for == parent or os.getppid() != parent:
            return
        _set_parent_death_signal()
        if os.getppid() != parent:  # the parent died before the kernel knew to tell us
            os._exit(70)
        threading.Thread(target=_watch_parent, args=(parent,), name="simlab-parent-watch", daemon=True).start()
        _guarded_for = parent
