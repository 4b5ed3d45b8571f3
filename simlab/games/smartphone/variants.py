"""Smartphone Inc.'s data variants: replacement data files and row edits from an experiment spec.

The runner finds this module by name (``simlab.games.<game>.variants``, see
``simlab.runner.spec.data_hooks``) and uses three things from it:

- ``DATA_FILES``: the files a spec may replace or edit (``buyers``, ``regions``, ...);
- :func:`variant_data`: the loaded, validated data set of a variant;
- :func:`data_texts`: the text of every file as the variant plays it (the manifest's data hash).

A spec writes ``data = { buyers = "my_buyers.csv" }`` (replacement files, relative to the spec)
and ``edit = [{ file = "buyers", where = { region_id = "USA", position = 1 }, set = { price_cap = 6 } }]``
(row edits, see ``simlab.core.dataedits``).
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from simlab.core.dataedits import DataEditError, RowEdit, apply_edits, edits_by_file
from simlab.core.errors import DataError, SimlabError
from simlab.games.smartphone.data import DATA_DIR, FILE_NAMES, FILES, SmartphoneData, load_data

DATA_FILES: tuple[str, ...] = FILES

FileSpec = str | Path | Mapping[str, str | Path] | None


def data_paths(files: FileSpec = None) -> dict[str, Path]:
    """The path of every data file: the bundled ``data/`` (or a directory given as ``files``),
    with the files a mapping names (stem -> path) in place of the bundled ones."""
    if files is None or isinstance(files, Mapping):
        base, replaced = DATA_DIR, dict(files or {})
    else:
        base, replaced = Path(files), {}
    unknown = sorted(set(replaced) - set(FILES))
    if unknown:
        raise SimlabError(f"no smartphone data file '{unknown[0]}' (files: {', '.join(FILES)})")
    return {stem: Path(replaced[stem]) if replaced.get(stem) else base / FILE_NAMES[stem] for stem in FILES}


def _edited(paths: dict[str, Path], edits: Sequence[RowEdit]) -> dict[str, str]:
    """The edited text of each file the edits touch."""
    out = {}
    for stem, file_edits in edits_by_file(edits, FILES).items():
        path = paths[stem]
        if not FILE_NAMES[stem].endswith(".csv"):
            raise DataEditError(file_edits[0].origin, f"{path.name}: edits apply to CSV files only")
        if not path.is_file():
            raise DataEditError(file_edits[0].origin, f"{path}: file not found")
        out[stem] = apply_edits(path.read_text(encoding="utf-8"), path.name, file_edits)
    return out


def data_texts(files: FileSpec = None, edits: Sequence[RowEdit] = ()) -> dict[str, str]:
    """The text of every data file (by stem) as the variant plays it: replaced, then edited.

    A missing file reads as an empty text (loading the data reports it properly).
    """
    paths = data_paths(files)
    texts = {stem: p.read_text(encoding="utf-8") if p.is_file() else "" for stem, p in paths.items()}
    texts.update(_edited(paths, edits))
    return texts


def variant_data(files: FileSpec = None, edits: Sequence[RowEdit] = ()) -> SmartphoneData:
    """The loaded and validated data set of a variant.

    ``files``: None (the bundled data), a data directory, or a mapping from file stem to a
    replacement file. ``edits`` are applied to the CSV texts in order, then everything is
    loaded with :func:`simlab.games.smartphone.data.load_data`. A load error in an edited file
    names the original file with ``(after edits)``.
    """
    paths = data_paths(files)
    edited = _edited(paths, edits)
    if not edited:
        return load_data(**{stem: str(p) for stem, p in paths.items()})
    with tempfile.TemporaryDirectory(prefix="simlab-smartphone-") as tmp:
        load_paths = {stem: str(p) for stem, p in paths.items()}
        for stem, text in edited.items():
            target = Path(tmp) / FILE_NAMES[stem]
            target.write_text(text, encoding="utf-8")
            load_paths[stem] = str(target)
        try:
            data = load_data(**load_paths)
        except DataError as exc:
            for stem in edited:
                if exc.file == load_paths[stem]:
                    raise DataError(f"{paths[stem]} (after edits)", exc.row, exc.column, exc.what) from None
            raise
    data.files.update({stem: f"{paths[stem]} (edited)" for stem in edited})
    return data
