"""The result store: ``results/<experiment>/<run>/`` with parquet shards and a manifest.

Layout of a run directory::

    manifest.json                    spec, spec hash, versions, plan, shards done, timings, stop
    games/<variant>/shard-000000.parquet
    seats/<variant>/shard-000000.parquet
    <event table>/<variant>/shard-000000.parquet

Every file is written under a temporary name and renamed into place, so a file that exists
is complete. A shard counts as done when all its table files exist, are readable parquet and
the games file holds the shard's row count; anything else is redone on resume.
"""

from __future__ import annotations

import json
import os
import platform
import time
from pathlib import Path
from typing import Any

import polars as pl

from simlab.core.errors import SimlabError


def atomic_write_text(path: Path, text: str) -> None:
    """Write a text file atomically (temporary name, then rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def versions() -> dict[str, str]:
    """Versions that decide results or speed."""
    import numba
    import numpy
    import pyarrow

    import simlab

    return {
        "simlab": simlab.__version__,
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
            return json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise SimlabError(f"{self.root}: no run here (manifest.json not found)") from None
        except json.JSONDecodeError as exc:
            raise SimlabError(f"{self.manifest_path}: unreadable manifest: {exc}") from None

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        """Replace the manifest atomically."""
        manifest["updated"] = time.strftime("%Y-%m-%dT%H:%M:%S")
        atomic_write_text(self.manifest_path, json.dumps(manifest, indent=2, default=str))

    def shard_path(self, table: str, variant: str, shard: int) -> Path:
        """The parquet file of one table of one shard."""
        return self.root / table / variant / f"shard-{shard:06d}.parquet"

    def write_shard(self, variant: str, shard: int, frames: dict[str, pl.DataFrame]) -> None:
        """Write a shard's tables atomically, the games table last (it marks the shard done)."""
        for name in sorted(frames, key=lambda k: k == "games"):
            path = self.shard_path(name, variant, shard)
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
            frames[name].write_parquet(tmp, statistics=True)
            os.replace(tmp, path)

    def shard_done(self, variant: str, shard: int, n_games: int, tables: list[str]) -> bool:
        """Whether every table file of the shard is present and sound."""
        import pyarrow.parquet as pq

        for name in tables:
            path = self.shard_path(name, variant, shard)
            if not path.is_file():
                return False
            try:
                rows = pq.read_metadata(path).num_rows
            except Exception:
                return False
            if name == "games" and rows != n_games:
                return False
        return True

    def remove_shard(self, variant: str, shard: int, tables: list[str]) -> None:
        """Delete whatever files a shard left (before it is redone)."""
        for name in tables:
            self.shard_path(name, variant, shard).unlink(missing_ok=True)

    def clean_temporaries(self) -> None:
        """Remove temporary files an interrupted run left behind."""
        for tmp in self.root.rglob(".*.tmp-*"):
            tmp.unlink(missing_ok=True)
