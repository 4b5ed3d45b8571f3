"""One writer per run folder: a lock file created with ``O_EXCL`` that names its holder.

The lock file (``.simlab.lock`` in the run folder) holds the holder's pid, host, start time
and a random token, as JSON. A second run on the same folder gets a one-line
:class:`LockError` naming the holder. A lock whose holder is gone (same host, and the pid is
dead or now belongs to a process started later) is stale: it is taken over. Taking over is
serialised by a second ``O_EXCL`` file (``.simlab.lock.break``): the breaker re-reads the
lock under it and removes the lock only if it still holds exactly the stale contents it
judged, so two runs that find the same stale lock cannot both win, and a fresh lock taken in
between is never removed. :meth:`RunLock.release` removes the lock only if it is still ours.
"""

from __future__ import annotations

import json
import os
import socket
import time
import uuid
from pathlib import Path
from types import TracebackType
from typing import Any

from simlab.core.errors import SimlabError

LOCK_NAME = ".simlab.lock"
BREAK_SUFFIX = ".break"
PARTIAL_GRACE_S = 2.0  # a lock file still empty or half-written after this long is a dead writer's


class LockError(SimlabError):
    """The run folder is locked by another live run (or the lock could not be taken)."""


def _host() -> str:
    return socket.gethostname()


def process_start(pid: int) -> str | None:
    """The kernel's start time of a process (Linux ``/proc``), to tell a reused pid apart; None elsewhere."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()
    return fields[19] if len(fields) > 19 else None


def pid_alive(pid: int) -> bool:
    """Whether a process with this pid exists on this host."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    except OSError:
        return False
    return True


def is_stale(holder: dict[str, Any]) -> bool:
    """Whether a lock's holder is certainly gone (only decidable for a holder on this host)."""
    if holder.get("host") != _host():
        return False
    pid = holder.get("pid")
    if not isinstance(pid, int) or not pid_alive(pid):
        return True
    started = holder.get("pid_start")
    now = process_start(pid)
    return started is not None and now is not None and started != now


def describe(holder: dict[str, Any]) -> str:
    """``pid N on HOST, started TIME``."""
    return f"pid {holder.get('pid')} on {holder.get('host')}, started {holder.get('started')}"


class RunLock:
    """The lock of one run folder; use as a context manager (released on every exit path)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.path = self.folder / LOCK_NAME
        self.token = uuid.uuid4().hex
        self.held = False

    def _info(self) -> dict[str, Any]:
        pid = os.getpid()
        return {"pid": pid, "host": _host(), "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                "pid_start": process_start(pid), "token": self.token}

    def _read(self) -> tuple[bytes, dict[str, Any] | None] | None:
        """The lock file's bytes and parsed contents (None contents: empty or half-written); None: no file."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        try:
            info = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            return raw, None
        return raw, info if isinstance(info, dict) else None

    def _create(self) -> bool:
        """Create the lock file exclusively; False if it exists."""
        try:
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            return False
        try:
            os.write(fd, json.dumps(self._info()).encode("utf-8"))
            os.fsync(fd)
        except BaseException:
            os.close(fd)
            self.path.unlink(missing_ok=True)
            raise
        os.close(fd)
        return True

    def _break(self, stale: bytes) -> None:
        """Remove the lock if it still holds ``stale``, under the break guard (one breaker at a time)."""
        guard = self.path.with_name(self.path.name + BREAK_SUFFIX)
        try:
            fd = os.open(guard, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            try:  # a breaker that died while breaking leaves the guard behind
                text = guard.read_text(encoding="utf-8").strip()
                age = time.time() - guard.stat().st_mtime
            except (OSError, UnicodeDecodeError):
                return
            pid = int(text) if text.isdigit() else -1
            if (pid > 0 and not pid_alive(pid)) or age > 30:
                guard.unlink(missing_ok=True)
            else:
                time.sleep(0.02)
            return
        try:
            os.write(fd, str(os.getpid()).encode())
            os.close(fd)
            current = self._read()
            if current is not None and current[0] == stale:
                self.path.unlink(missing_ok=True)
        finally:
            guard.unlink(missing_ok=True)

    def acquire(self) -> RunLock:
        """Take the lock, taking over a stale one; raises :class:`LockError` naming a live holder."""
        self.folder.mkdir(parents=True, exist_ok=True)
        first_partial: float | None = None
        for _ in range(500):
            if self._create():
                self.held = True
                return self
            current = self._read()
            if current is None:
                continue  # released in between: try again
            raw, holder = current
            if holder is None:  # being written right now, or its writer died mid-write
                first_partial = first_partial or time.monotonic()
                if time.monotonic() - first_partial < PARTIAL_GRACE_S:
                    time.sleep(0.02)
                    continue
                self._break(raw)
                first_partial = None
                continue
            if not is_stale(holder):
                raise LockError(f"{self.folder} is in use by another run: {describe(holder)} "
                                f"(lock file {self.path}; if that run is dead, delete the lock file)")
            self._break(raw)
        raise LockError(f"{self.folder}: could not take the lock {self.path} (it keeps changing hands)")

    def release(self) -> None:
        """Remove the lock file if it is still ours."""
        if not self.held:
            return
        self.held = False
        current = self._read()
        if current is not None and current[1] is not None and current[1].get("token") == self.token:
            self.path.unlink(missing_ok=True)

    def __enter__(self) -> RunLock:
        return self.acquire()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()
