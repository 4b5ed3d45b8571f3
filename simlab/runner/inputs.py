"""Content hashes of a run's input files, so that a resume refuses any change to them.

A run's inputs are every file whose contents decide its results or run as its code:
the game's bundled data files (everything under the ``data/`` folder of the package the
game's class lives in), the replacement data files its variants name, the Python files of
``file.py:Class`` players, and the report notebook the spec names. The spec itself is
covered by the spec hash. Nothing here knows a game: files are found through the spec and
the game object, and hashed by reading their bytes.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

from simlab.runner.project import find_notebook
from simlab.runner.spec import ExperimentSpec

HASH_CHARS = 16


def file_hash(path: Path) -> str:
    """The first 16 hex digits of the file's SHA-256."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:HASH_CHARS]


def game_data_dir(game: Any) -> Path | None:
    """The ``data/`` folder beside the module that defines the game's class (None if it has none)."""
    module = sys.modules.get(type(game).__module__)
    file = getattr(module, "__file__", None)
    if not file:
        return None
    folder = Path(file).resolve().parent / "data"
    return folder if folder.is_dir() else None


def game_code_dir(game: Any) -> Path | None:
    """The package folder of the module that defines the game's class (its rules and built-in players)."""
    module = sys.modules.get(type(game).__module__)
    file = getattr(module, "__file__", None)
    return Path(file).resolve().parent if file else None


def code_hash(folders: list[Path]) -> str:
    """The first 16 hex digits of a SHA-256 over every ``.py`` file under ``folders`` (relative name and
    content, in sorted order): a change to the rules or the built-in players changes it."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            digest.update(str(path.relative_to(folder)).encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:HASH_CHARS]


CORE_DIR = Path(__file__).resolve().parent.parent / "core"  # the shared core every game's code runs on


def game_code_hash(game: Any) -> tuple[Path, str] | None:
    """The game's package folder and :func:`code_hash` over it with the shared core it runs on (its rules, its
    built-in players, the search), or None for a game whose class has no module file."""
    code = game_code_dir(game)
    if code is None:
        return None
    return code, code_hash([code, CORE_DIR])


def player_files(spec: ExperimentSpec) -> list[Path]:
    """The Python files of the spec's ``file.py:Class`` players, resolved as the run resolves them."""
    from simlab.core.player import parse_player_spec

    out = []
    for text in [*(spec.seats or []), *(spec.pool or [])]:
        parsed = parse_player_spec(text)
        if parsed.source == "file" and parsed.path:
            out.append(Path(parsed.path).resolve())
    return out


def data_files(spec: ExperimentSpec) -> list[Path]:
    """The replacement data files the spec's variants name (any path-valued data field)."""
    out = []
    for v in spec.variants:
        out += [Path(p).resolve() for p in v.files.values()]
    return out


def report_notebook(spec: ExperimentSpec) -> Path | None:
    """The report notebook the spec names, if it names one and it is found."""
    name = spec.raw.get("report")
    if not isinstance(name, str) or not name:
        return None
    found = find_notebook(name, spec.source, Path.cwd())
    return found.resolve() if found is not None else None


def input_hashes(spec: ExperimentSpec) -> dict[str, dict[str, str]]:
    """Absolute path -> ``{"kind", "hash"}`` for every input file of the spec."""
    from simlab.core.game import get_game

    entries: dict[str, dict[str, str]] = {}

    def add(kind: str, path: Path) -> None:
        if path.is_file() and str(path) not in entries:
            entries[str(path)] = {"kind": kind, "hash": file_hash(path)}

    game = get_game(spec.game)
    code = game_code_hash(game)
    if code is not None:  # the game's rules and built-in players, with the shared core they run on
        entries[str(code[0])] = {"kind": "game code", "hash": code[1]}
    folder = game_data_dir(game)
    if folder is not None:
        for path in sorted(folder.rglob("*")):
            if "__pycache__" not in path.parts and path.suffix != ".pyc":
                add("game data file", path)
    for path in data_files(spec):
        add("data file", path)
    for path in player_files(spec):
        add("player file", path)
    notebook = report_notebook(spec)
    if notebook is not None:
        add("report notebook", notebook)
    return entries


def compare_inputs(stored: dict[str, dict[str, str]], current: dict[str, dict[str, str]]) -> str | None:
    """What differs between a run's recorded inputs and the current ones (None: nothing)."""
    for path, entry in stored.items():
        kind = entry.get("kind", "input")
        now = current.get(path)
        if now is None:
            if not Path(path).is_file():
                return f"{kind} {path} is gone (it was an input of the run)"
            return f"{kind} {path} was an input of the run but is not one now (resumed from another folder?)"
        if now["hash"] != entry.get("hash"):
            return (f"{kind} {Path(path).name} changed since the run started "
                    f"(hash {str(entry.get('hash'))[:8]} -> {now['hash'][:8]}; {path})")
    for path, entry in current.items():
        if path not in stored:
            return f"{entry['kind']} {path} is not an input of the stored run"
    return None
