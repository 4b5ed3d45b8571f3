"""Shared set-up for the tune tests: makes ``tune_helpers`` importable, fast folders, and the tiny tune.

A tune commits every trial's record to its SQLite study, and each commit waits for the disk: on
a busy disk that, not the games, is most of a small tune's time. The tune folders of these tests
are therefore made on a RAM file system when the machine has one (``/dev/shm``), else in
pytest's temporary folder.

The tiny tune (``tune_helpers.TINY_SPEC``) is played once per session, uninterrupted and on one
worker: the determinism tests play it again and compare, the resume tests kill it and compare.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from tune_helpers import TINY_SPEC, fresh, run_tiny, write_spec  # noqa: E402


@pytest.fixture(scope="session")
def fast_root(tmp_path_factory) -> Iterator[Path]:
    """The session's folder for tunes: on ``/dev/shm`` when it is there (removed at the end)."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        root = Path(tempfile.mkdtemp(prefix="simlab-tune-tests-", dir=shm))
        try:
            yield root
        finally:
            shutil.rmtree(root, ignore_errors=True)
    else:
        yield tmp_path_factory.mktemp("tunes")


@pytest.fixture
def fast_path(fast_root, request) -> Path:
    """A new folder for one test's tunes (like ``tmp_path``, on the fast file system)."""
    return fresh(fast_root, request.node.name)


@pytest.fixture(scope="session")
def tiny_spec_file(fast_root) -> Path:
    """The tiny tune's spec file."""
    return write_spec(fresh(fast_root, "tiny_spec"), "tune_tiny", TINY_SPEC)


@pytest.fixture(scope="session")
def tiny_reference(tiny_spec_file, fast_root) -> Path:
    """The tiny tune played once, uninterrupted (its folder)."""
    return run_tiny(tiny_spec_file, fresh(fast_root, "tiny_ref") / "tune")
