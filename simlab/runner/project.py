"""The project a run belongs to, the notebooks it names, and the trust a file outside it needs.

A run records the folder it was made from; the files a spec names (its report notebook, its
``file.py:Class`` players) are resolved relative to that project, wherever the run has moved
since, and a file outside the project (and outside simlab's own notebooks) is refused unless
the caller trusts the run (:func:`check_trusted`). The runner hashes the notebook as an input
of the run, replay loads the player files, and the reports execute the notebook: all through
these helpers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simlab.core.errors import SimlabError

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"  # simlab's own report notebooks


class TrustError(SimlabError):
    """A run names code (a notebook, a player file) outside its own project; ``--trust`` runs it anyway."""


def run_project(run_dir: Path, man: dict[str, Any]) -> Path:
    """The project folder a run belongs to, found from where the run is now.

    A run records the folder it was made from (``project``) and its own path inside it
    (``run_in_project``); when the run still sits at that relative place (a copied or moved
    project), the project is the folder that holds it there now. Otherwise the recorded
    folder; for a run that records neither, the folder above ``results/<experiment>/<run>``.
    """
    run_dir = run_dir.resolve()
    rel = man.get("run_in_project")
    if rel:
        parts = Path(rel).parts
        if len(run_dir.parts) > len(parts) and run_dir.parts[-len(parts):] == parts:
            return Path(*run_dir.parts[: -len(parts)])
    if man.get("project"):
        return Path(man["project"])
    return run_dir.parents[2] if len(run_dir.parents) > 2 else run_dir


def find_notebook(name: str, source: str, project: Path) -> Path | None:
    """A spec's ``report`` notebook: relative to the project, to the spec file, or one of simlab's own."""
    path = Path(name)
    spec_dir = Path(source).parent if source and not source.startswith("<") else project
    if not spec_dir.is_absolute():
        spec_dir = project / spec_dir
    candidates = [path] if path.is_absolute() else [project / path, spec_dir / path]
    candidates.append(NOTEBOOKS / path.name)
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    return None


def inside(path: Path, folder: Path) -> bool:
    """Whether ``path`` (symbolic links followed) lies inside ``folder``."""
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def check_trusted(kind: str, path: Path, project: Path, trust: bool) -> None:
    """Refuse to execute a file the run names outside its project (and outside simlab itself) unless trusted."""
    if trust or inside(path, project) or inside(path, NOTEBOOKS):
        return
    raise TrustError(f"the run names {kind} {path}, outside its project {project}: read it, then pass --trust "
                     "to execute it")
