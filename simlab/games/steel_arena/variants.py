"""Steel Arena's data files, as the core's data variants see them (``simlab.core.datavariants``).

A spec replaces a file with ``data = { tiles = "my_tiles.csv" }`` (relative to the spec) and
edits rows with ``edit = [{ file = "tiles", where = { tile_id = "G3-A-KUVALDA" }, set = { damage = 3 } }]``.

No ablation is declared yet (the module study of issue 13 adds one).
"""

from __future__ import annotations

from pathlib import Path

from simlab.core.datavariants import DataFiles
from simlab.games.steel_arena.data import DATA_DIR, FILE_NAMES, SteelArenaData, load_data


def _load(paths: dict[str, Path]) -> SteelArenaData:
    return load_data(**{stem: str(path) for stem, path in paths.items()})


DATA = DataFiles(DATA_DIR, FILE_NAMES, _load, "steel_arena")
ABLATION = None
