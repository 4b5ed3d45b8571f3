"""Smartphone Inc.'s data files, as the core's data variants see them (``simlab.core.datavariants``).

A spec replaces a file with ``data = { buyers = "my_buyers.csv" }`` (relative to the spec) and
edits rows with ``edit = [{ file = "buyers", where = { region_id = "USA", position = 1 },
set = { price_cap = 6 } }]``. Smartphone Inc. declares no ablation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from simlab.core import datavariants
from simlab.core.dataedits import RowEdit
from simlab.core.datavariants import DataFiles
from simlab.games.smartphone.data import DATA_DIR, FILE_NAMES, SmartphoneData, load_data


def _load(paths: dict[str, Path]) -> SmartphoneData:
    return load_data(**{stem: str(path) for stem, path in paths.items()})


DATA = DataFiles(DATA_DIR, FILE_NAMES, _load, "smartphone")
ABLATION = None
DATA_FILES: tuple[str, ...] = DATA.stems  # the runner's current hook names (until it reads DATA)


def variant_data(files: Mapping[str, str | Path] | None = None, edits: Sequence[RowEdit] = ()) -> SmartphoneData:
    """The loaded data set with these replacement files and edits (see ``simlab.core.datavariants``)."""
    if files is not None and not isinstance(files, Mapping):  # a whole data directory
        return load_data(files)
    return datavariants.variant_data(DATA, files, edits)


def data_texts(files: Mapping[str, str | Path] | None = None, edits: Sequence[RowEdit] = ()) -> dict[str, str]:
    """Every data file's text as the variant plays it (see ``simlab.core.datavariants``)."""
    return datavariants.data_texts(DATA, files, edits)
