"""Data variants for every game: replacement data files, row edits, and ablation.

A game declares its data files once (:class:`DataFiles`: the bundled folder, each file's
stem and name, and the loader that turns a path per stem into the data set its rules read).
Everything an experiment does to the data then goes through this module, the same way for
every game:

- **replacement files**: ``data = { buyers = "my_buyers.csv" }`` in a spec replaces one file;
- **row edits**: ``edit = [{ file = "cards", where = { id = 32 }, set = { printed_vp = 2 } }]``
  changes, increments or removes rows (:mod:`simlab.core.dataedits`);
- **ablation**: a game that declares :class:`Ablation` (the components an ablation may remove or
  change, and how) gets one variant per component, each a list of row edits.

:func:`data_texts` is the text of every file as a variant plays it, so the runner's manifest
hashes exactly the data every variant used.
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simlab.core.dataedits import DataEditError, RowEdit, apply_edits, edits_by_file
from simlab.core.datafiles import data_file_paths, read_text_file
from simlab.core.errors import DataError, SimlabError
from simlab.core.hints import did_you_mean


@dataclass(frozen=True)
class DataFiles:
    """A game's data files: ``directory`` (the bundled ones), ``names`` (stem -> file name),
    ``load`` (a path per stem -> the loaded, validated data set) and ``game`` (its name, for messages)."""

    directory: Path
    names: Mapping[str, str]
    load: Callable[[dict[str, Path]], Any]
    game: str = ""

    @property
    def stems(self) -> tuple[str, ...]:
        """The file stems a spec may replace or edit, in the game's order."""
        return tuple(self.names)


@dataclass(frozen=True)
class AblationChange:
    """One way an ablation changes a component: its name in specs, a description, and the row
    edits that make the change (None when it does not apply to that component, which is then skipped)."""

    name: str
    description: str
    edits: Callable[[Any, Any, int], list[RowEdit] | None]  # (data, component id, delta) -> edits
    variant_name: Callable[[Any, Any, int], str]  # (data, component id, delta) -> variant name


@dataclass(frozen=True)
class Ablation:
    """The components an ablation may remove or change, and how.

    ``component`` is the spec key listing them (``cards = "all"`` or ``cards = [3, 17]``),
    ``ids(data)`` every component id of a data set, ``changes`` the kinds of change (the first
    is the default). ``holders``: the event table that records which seat came to hold a component
    and its id column (e.g. ``("takes", "card")``), for the holder's value of a component compared
    across runs (``simlab.strong_play``); None where the game records no holder. ``label(data, id)``: the
    component as a person knows it (e.g. "card 46 (defense, DEF_SUM_LE5)"); default "<component> <id>".
    """

    component: str
    ids: Callable[[Any], list[Any]]
    changes: Sequence[AblationChange] = field(default_factory=tuple)
    holders: tuple[str, str] | None = None
    label: Callable[[Any, Any], str] | None = None

    def describe(self, data: Any, component_id: Any) -> str:
        """The component as a person knows it (:attr:`label`), or its kind and id when the game gives no label."""
        if self.label is not None:
            return self.label(data, component_id)
        return f"{self.component.removesuffix('s')} {component_id}"

    def change(self, name: str) -> AblationChange:
        """The change called ``name`` (a SimlabError lists the known ones)."""
        for c in self.changes:
            if c.name == name:
                return c
        names = [c.name for c in self.changes]
        raise SimlabError(f"'{name}' is not one of {', '.join(names)}{did_you_mean(name, names)}")


def data_paths(files: DataFiles, replaced: Mapping[str, str | Path] | None = None) -> dict[str, Path]:
    """The path of every data file: the bundled one, or the replacement a variant names."""
    replaced = dict(replaced or {})
    unknown = sorted(set(replaced) - set(files.names))
    if unknown:
        game = f"{files.game} " if files.game else ""
        raise SimlabError(f"no {game}data file '{unknown[0]}' (files: {', '.join(files.stems)})"
                          f"{did_you_mean(unknown[0], files.stems)}")
    return data_file_paths(files.directory, files.names, None, replaced)


def _edited(files: DataFiles, paths: dict[str, Path], edits: Sequence[RowEdit]) -> dict[str, str]:
    """The edited text of each file the edits touch."""
    out = {}
    for stem, file_edits in edits_by_file(edits, files.stems).items():
        path = paths[stem]
        if not files.names[stem].endswith(".csv"):
            raise DataEditError(file_edits[0].origin, f"{path.name}: edits apply to CSV files only")
        if not path.is_file():
            raise DataEditError(file_edits[0].origin, f"{path}: file not found")
        out[stem] = apply_edits(_read_text(path), path.name, file_edits)
    return out


def _read_text(path: Path) -> str:
    """A data file's text (a UTF-8 byte-order mark, as spreadsheets write it, is dropped; other
    encodings, folders and unreadable files raise a one-line DataError)."""
    return read_text_file(path)


def data_texts(files: DataFiles, replaced: Mapping[str, str | Path] | None = None,
               edits: Sequence[RowEdit] = ()) -> dict[str, str]:
    """The text of every data file (by stem) as a variant plays it: replaced, then edited.

    A missing or unreadable file reads as an empty text (loading the data reports it properly).
    """
    paths = data_paths(files, replaced)
    texts = {}
    for stem, p in paths.items():
        try:
            texts[stem] = _read_text(p)
        except DataError:
            texts[stem] = ""
    texts.update(_edited(files, paths, edits))
    return texts


def data_hash(files: DataFiles, replaced: Mapping[str, str | Path] | None = None,
              edits: Sequence[RowEdit] = ()) -> str:
    """A 16-hex-digit hash of every data file's text as the variant plays it."""
    digest = hashlib.sha256()
    for stem, text in sorted(data_texts(files, replaced, edits).items()):
        digest.update(f"{stem}\0{text}\0".encode())
    return digest.hexdigest()[:16]


def variant_data(files: DataFiles, replaced: Mapping[str, str | Path] | None = None,
                 edits: Sequence[RowEdit] = ()) -> Any:
    """The loaded and validated data set of a variant: files replaced, CSV texts edited in order,
    then loaded with the game's loader. A load error in an edited file names the original file
    with ``(after edits)``."""
    paths = data_paths(files, replaced)
    edited = _edited(files, paths, edits)
    if not edited:
        return files.load(paths)
    with tempfile.TemporaryDirectory(prefix="simlab-data-") as tmp:
        load_paths = dict(paths)
        for stem, text in edited.items():
            target = Path(tmp) / files.names[stem]
            target.write_text(text, encoding="utf-8")
            load_paths[stem] = target
        try:
            data = files.load(load_paths)
        except DataError as exc:
            for stem in edited:
                if str(exc.file) == str(load_paths[stem]):
                    raise DataError(f"{paths[stem]} (after edits)", exc.row, exc.column, exc.what) from None
            raise
    labels = getattr(data, "files", None)  # a data set that names its files in later errors
    if isinstance(labels, dict):
        labels.update({stem: f"{paths[stem]} (edited)" for stem in edited})
    return data
