"""Smartphone Inc.'s data files, as the core's data variants see them (``simlab.core.datavariants``).

A spec replaces a file with ``data = { buyers = "my_buyers.csv" }`` (relative to the spec) and
edits rows with ``edit = [{ file = "buyers", where = { region_id = "USA", position = 1 },
set = { price_cap = 6 } }]``.

Smartphone Inc. declares no ablation.
"""

from __future__ import annotations

from pathlib import Path

from simlab.core.datavariants import DataFiles
from simlab.games.smartphone.data import DATA_DIR, FILE_NAMES, SmartphoneData, load_data


def _load(paths: dict[str, Path]) -> SmartphoneData:
    return load_data(**{stem: str(path) for stem, path in paths.items()})


DATA = DataFiles(DATA_DIR, FILE_NAMES, _load, "smartphone")
