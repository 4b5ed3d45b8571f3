"""The result store: ``results/<experiment>/<run>/`` with parquet shards and a manifest.

Layout of a run directory::

    manifest.json                    spec, spec hash, versions, plan, shards done, timings, stop
    games/<variant>/shard-000000.parquet
    seats/<variant>/shard-000000.parquet
    <event table>/<variant>/shard-000000.parquet

Every file is written under a temporary name and renamed into place, so a file that exists
is complete. The manifest's ``shards_done`` names the shards of the run: readers read those
files and nothing else. On resume a shard counts as done when all its table files exist, are
readable parquet, and hold exactly the shard's games (the ``game`` column is the shard's range
[lo, hi) of the plan, with the plan's seeds); anything else is redone.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import platform
import re
import time
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simlab.core.errors import SimlabError
from simlab.core.version import __version__


def atomic_write_text(path: Path, text: str) -> None:
    """Write a text file atomically (temporary name, then rename); on failure the old file stays."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except BaseException as exc:
        _discard(tmp)
        error = os_error(exc, path)
        if error is not None and error is not exc:
            raise error from None
        raise


_OS_ERROR = re.compile(r"\(os error (\d+)\)")


def os_error(exc: BaseException, path: Path) -> OSError | None:
    """The OS error behind a failed write of ``path``, naming ``path``; None when it was no OS error.

    An ``OSError`` is returned as it is when it names a file other than a temporary one (e.g. a
    folder that could not be made), else as a copy naming ``path``. Polars reports an OS error
    met while writing parquet as its own exception whose message ends with "(os error N)" (e.g.
    ``ComputeError: parquet: ... File too large (os error 27)``); that is mapped to an
    ``OSError`` with errno ``N`` and its standard text.
    """
    if isinstance(exc, OSError):
        if exc.errno is None:
            return exc
        named = str(exc.filename) if exc.filename is not None else ""
        if named and ".tmp-" not in Path(named).name:
            return exc
        return type(exc)(exc.errno, exc.strerror or os.strerror(exc.errno), str(path))
    match = _OS_ERROR.search(str(exc))
    if match is None:
        return None
    code = int(match.group(1))
    return OSError(code, os.strerror(code), str(path))


def _discard(tmp: Path) -> None:
    """Remove a temporary file if there is one (a failure to remove it must not hide the write's error)."""
    with contextlib.suppress(OSError):
        tmp.unlink(missing_ok=True)


def safe_component(name: str) -> bool:
    """Whether ``name`` is a single plain path component (no separators, not ``.``/``..``, not empty)."""
    return bool(name) and name not in (".", "..") and not any(c in name for c in "/\\\0") \
        and not Path(name).is_absolute()


def versions() -> dict[str, str]:
    """Versions that decide results or speed."""
    import numba
    import numpy
    import pyarrow

    return {
        "simlab": __version__,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "numba": numba.__version__,
        "polars": pl.__version__,
        "pyarrow": pyarrow.__version__,
    }


class RunStore:
    """One run directory."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    @property
    def manifest_path(self) -> Path:
        """Where the manifest lives."""
        return self.root / "manifest.json"

    def exists(self) -> bool:
        """Whether the directory holds a run."""
        return self.manifest_path.is_file()

    def read_manifest(self) -> dict[str, Any]:
        """The manifest (a clear error when it is missing or unreadable)."""
        try:
            man = json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise SimlabError(f"{self.root}: no run here (manifest.json not found)") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            what = "empty" if self.manifest_path.stat().st_size == 0 else f"not JSON: {exc}"
            raise SimlabError(f"{self.manifest_path}: unreadable manifest ({what})") from None
        except OSError as exc:
            raise SimlabError(f"{self.manifest_path}: cannot read: {exc.strerror or exc}") from None
        if not isinstance(man, dict):
            raise SimlabError(f"{self.manifest_path}: unreadable manifest (not a JSON object)")
        return man

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        """Replace the manifest atomically."""
        manifest["updated"] = time.strftime("%Y-%m-%dT%H:%M:%S")
        atomic_write_text(self.manifest_path, json.dumps(manifest, indent=2, default=str))

    def shard_path(self, table: str, variant: str, shard: int) -> Path:
        """The parquet file of one table of one shard."""
        if not (safe_component(table) and safe_component(variant)):
            raise SimlabError(f"{self.root}: table/variant name {table}/{variant} is not a plain folder name")
        return self.root / table / variant / f"shard-{int(shard):06d}.parquet"

    def done_files(self, manifest: dict[str, Any], table: str) -> list[Path]:
        """The files of one table that the manifest's ``shards_done`` names, in variant and shard order."""
        done = manifest.get("shards_done")
        if not isinstance(done, dict):
            raise SimlabError(f"{self.manifest_path}: the manifest names no shards (no shards_done): "
                              "not a run written by simlab run")
        files = []
        for variant in manifest.get("variants") or list(done):
            shards = done.get(variant, [])
            if not isinstance(shards, list) or not all(isinstance(i, int) and not isinstance(i, bool)
                                                        for i in shards):
                raise SimlabError(f"{self.manifest_path}: shards_done.{variant}: expected a list of shard numbers")
            files += [self.shard_path(table, variant, i) for i in sorted(set(shards))]
        return files

    def write_shard(self, variant: str, shard: int, frames: dict[str, pl.DataFrame]) -> None:
        """Write a shard's tables atomically, the games table last (it marks the shard done).

        Each table is encoded in memory (a shard is small) and written by Python, so any OS error
        (a full disk, a file-size limit, a quota, a read-only or failing disk) is an ``OSError``
        with its errno, raised naming the table file (:func:`os_error`); the temporary file is
        removed, so the shard is redone on resume.
        """
        for name in sorted(frames, key=lambda k: k == "games"):
            path = self.shard_path(name, variant, shard)
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
            try:
                # encoded in memory, written by Python: an OS error is then an OSError with its errno
                # (polars writing the file itself may report one as "Invalid thrift: transport error")
                buffer = io.BytesIO()
                frames[name].write_parquet(buffer, statistics=True)
                tmp.write_bytes(buffer.getbuffer())
                os.replace(tmp, path)
            except BaseException as exc:
                _discard(tmp)
                error = os_error(exc, path)
                if error is not None and error is not exc:
                    raise error from None
                raise

    def shard_done(self, variant: str, shard: int, lo: int, hi: int, tables: list[str],
                   seeds: np.ndarray | None = None) -> bool:
        """Whether every table file of the shard is present, readable and holds exactly games [lo, hi).

        The games file's ``game`` column must be ``lo, lo+1, ..., hi-1`` (and its ``seed`` column
        ``seeds``, when given); every other table's games must lie in [lo, hi). A shard written
        under another shard size or another plan fails this, whatever its row count.
        """
        import pyarrow.parquet as pq

        expected = np.arange(lo, hi, dtype=np.int64)
        for name in tables:
            path = self.shard_path(name, variant, shard)
            if not path.is_file():
                return False
            try:
                columns = ["game", "seed"] if name == "games" and seeds is not None else ["game"]
                table = pq.read_table(path, columns=columns)
                games = np.asarray(table.column("game").to_numpy(), dtype=np.int64)
            except Exception:
                return False
            if name == "games":
                order = np.argsort(games, kind="stable")
                if games.shape != expected.shape or not np.array_equal(games[order], expected):
                    return False
                if seeds is not None:
                    stored = np.asarray(table.column("seed").to_numpy(), dtype=np.uint64)[order]
                    if not np.array_equal(stored, np.asarray(seeds, dtype=np.uint64)):
                        return False
            elif games.size and (games.min() < lo or games.max() >= hi):
                return False
        return True

    def remove_shard(self, variant: str, shard: int, tables: list[str]) -> None:
        """Delete whatever files a shard left (before it is redone); a file that is not there is left alone
        (on a read-only disk even removing a missing file fails, and the error belongs to the write)."""
        for name in tables:
            path = self.shard_path(name, variant, shard)
            if path.exists() or path.is_symlink():
                path.unlink(missing_ok=True)

    def foreign_entries(self, keep: tuple[str, ...] = ()) -> list[Path]:
        """Whatever the folder holds besides the names in ``keep`` (sorted)."""
        if not self.root.is_dir():
            return []
        return sorted(p for p in self.root.iterdir() if p.name not in keep)

    def empty(self, keep: tuple[str, ...] = ()) -> None:
        """Delete everything in the folder except the names in ``keep``."""
        import shutil

        for p in self.foreign_entries(keep):
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p)
            else:
                p.unlink(missing_ok=True)

    def clean_temporaries(self) -> None:
        """Remove temporary files an interrupted run left behind."""
        for tmp in self.root.rglob(".*.tmp-*"):
            tmp.unlink(missing_ok=True)
