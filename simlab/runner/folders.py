"""Where stored runs (and tunes) live: ``results/<experiment>/<time>-<spec hash>[suffix]``.

One set of helpers for every kind of folder a spec makes: :func:`default_folder` names a new
one, :func:`spec_folders` and :func:`latest_folder` find the stored ones of a spec (same spec
hash, holding their manifest), :func:`resolve_run` turns what a user typed into a run folder
and :func:`manifest` reads its manifest. A run's manifest is ``manifest.json``; a tune
(:mod:`simlab.tune.run`) names its folders with the suffix ``-tune`` and its manifest
``tune.json``. The results API (:mod:`simlab.results`) re-exports :func:`resolve_run` and
:func:`manifest`.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Protocol

from simlab.core.errors import SimlabError
from simlab.runner.store import RunStore

DEFAULT_ROOT = Path("results")
RUN_MANIFEST = "manifest.json"


class NamedSpec(Protocol):
    """What naming a spec's folders needs: its name and its spec hash."""

    name: str

    def spec_hash(self) -> str: ...


def default_folder(spec: NamedSpec, root: str | Path = DEFAULT_ROOT, suffix: str = "") -> Path:
    """A new folder for the spec: ``<root>/<experiment>/<time>-<first 8 of the spec hash><suffix>``."""
    return Path(root) / spec.name / f"{time.strftime('%Y%m%d-%H%M%S')}-{spec.spec_hash()[:8]}{suffix}"


def spec_folders(spec: NamedSpec, root: str | Path = DEFAULT_ROOT, suffix: str = "",
                 marker: str = RUN_MANIFEST) -> list[Path]:
    """The stored folders of this spec (same spec hash, same suffix, holding ``marker``), oldest first."""
    base = Path(root) / spec.name
    if not base.is_dir():
        return []
    tag = f"{spec.spec_hash()[:8]}{suffix}"
    return sorted(p for p in base.iterdir() if p.name.endswith(tag) and (p / marker).is_file())


def latest_folder(spec: NamedSpec, root: str | Path = DEFAULT_ROOT, suffix: str = "",
                  marker: str = RUN_MANIFEST) -> Path | None:
    """The newest of :func:`spec_folders`, or None."""
    found = spec_folders(spec, root, suffix, marker)
    return found[-1] if found else None


def resolve_run(run: str | Path, root: str | Path = DEFAULT_ROOT) -> Path:
    """A run directory from a path, ``experiment/run``, or a bare run name under ``root``."""
    p = Path(run)
    if (p / RUN_MANIFEST).is_file():
        return p
    r = Path(root)
    if (r / p / RUN_MANIFEST).is_file():
        return r / p
    matches = sorted(r.glob(f"*/{run}/{RUN_MANIFEST}")) if r.is_dir() else []
    if len(matches) == 1:
        return matches[0].parent
    if len(matches) > 1:
        raise SimlabError(f"run '{run}' is ambiguous: " + ", ".join(str(m.parent) for m in matches))
    experiment = r / p
    if experiment.is_dir():
        runs = sorted(q.parent for q in experiment.glob(f"*/{RUN_MANIFEST}"))
        if runs:
            return runs[-1]
    raise SimlabError(f"no stored run '{run}' (looked in {p} and under {r}/)")


def manifest(run: str | Path, root: str | Path = DEFAULT_ROOT) -> dict[str, Any]:
    """The manifest of a run."""
    return RunStore(resolve_run(run, root)).read_manifest()
