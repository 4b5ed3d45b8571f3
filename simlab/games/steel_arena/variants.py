"""Steel Arena's data files and tile ablation, as the core's data variants see them
(``simlab.core.datavariants``).

A spec replaces a file with ``data = { tiles = "my_tiles.csv" }`` (relative to the spec) and
edits rows with ``edit = [{ file = "tiles", where = { tile_id = "G3-A-KUVALDA" }, set = { damage = 3 } }]``.
A design leaves play with ``set = { in_play = false }``: its tiles are still shuffled and then
skipped when the field and the generation-3 stack are built, so every other tile keeps its place
and games with and without it stay paired (the same seeds deal the same arena otherwise).

The ablation (``[ablation] tiles = "all", change = "remove"``) makes one variant per generation-2
and generation-3 design: ``remove`` takes it out of play (variant ``G3-A-KUVALDA_removed``).
Starter (generation-1) modules are not ablated: every robot starts with them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simlab.core.dataedits import RowEdit
from simlab.core.datavariants import Ablation, AblationChange, DataFiles
from simlab.games.steel_arena.data import DATA_DIR, FILE_NAMES, SteelArenaData, load_data


def _load(paths: dict[str, Path]) -> SteelArenaData:
    return load_data(**{stem: str(path) for stem, path in paths.items()})


def _tile_ids(data: SteelArenaData) -> list[str]:
    return [t.tile_id for t in data.tiles if t.generation > 1]


def _remove(data: SteelArenaData, tile_id: Any, delta: int) -> list[RowEdit]:
    return [RowEdit("tiles", {"tile_id": tile_id}, {"in_play": "false"}, origin=f"ablation (tile {tile_id})")]


def _label(data: SteelArenaData, tile_id: Any) -> str:
    """A module design as the pages name it: ``module G3-A-RELSOTRON (Railgun)``."""
    names = [t.name_en for t in data.tiles if t.tile_id == str(tile_id)]
    return f"module {tile_id}" + (f" ({names[0]})" if names else "")


DATA = DataFiles(DATA_DIR, FILE_NAMES, _load, "steel_arena")
ABLATION = Ablation(
    component="tiles",
    ids=_tile_ids,
    changes=(
        AblationChange("remove", "the tile design taken out of play (still shuffled, then skipped)", _remove,
                       lambda d, t, k: f"{t}_removed"),
    ),
    holders=("pickups", "design"),
    label=_label,
)
