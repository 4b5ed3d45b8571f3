"""Solo Race's data files and ablation, as the core's data variants see them (``simlab.core.datavariants``).

A spec replaces a file with ``data = { spaces = "my_spaces.csv" }`` and edits rows with
``edit = [{ file = "spaces", where = { space = 9 }, set = { shift = -1 } }]``. The ablation
(``[ablation] spaces = "all"``) makes one variant per special space: ``remove`` takes the space
off the track (variant ``space9_removed``), ``shift`` changes its shift by ``delta``
(variant ``space9_shift-2``; skipped where the new shift would be 0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from simlab.core import datavariants
from simlab.core.dataedits import RowEdit
from simlab.core.datavariants import Ablation, AblationChange, DataFiles
from simlab_solo_race.data import DATA_DIR, FILE_NAMES, RaceData, load_data


def _space_ids(data: RaceData) -> list[int]:
    return [s.space for s in data.spaces]


def _remove(data: RaceData, space: int, delta: int) -> list[RowEdit]:
    return [RowEdit("spaces", {"space": space}, remove=True, origin=f"ablation (space {space})")]


def _shift(data: RaceData, space: int, delta: int) -> list[RowEdit] | None:
    old = next(s.shift for s in data.spaces if s.space == space)
    if old + delta == 0:
        return None
    return [RowEdit("spaces", {"space": space}, {"shift": old + delta}, origin=f"ablation (space {space})")]


def _shift_name(data: RaceData, space: int, delta: int) -> str:
    old = next(s.shift for s in data.spaces if s.space == space)
    return f"space{space}_shift{old + delta}"


DATA = DataFiles(DATA_DIR, FILE_NAMES, load_data, "solo_race")
ABLATION = Ablation(
    component="spaces",
    ids=_space_ids,
    changes=(
        AblationChange("remove", "the special space taken off the track", _remove,
                       lambda d, s, k: f"space{s}_removed"),
        AblationChange("shift", "the space's shift changed by delta", _shift, _shift_name),
    ),
)
DATA_FILES: tuple[str, ...] = DATA.stems  # the hook names the runner reads today


def variant_data(files: Mapping[str, str | Path] | None = None, edits: Sequence[RowEdit] = ()) -> RaceData:
    """The loaded data set with these replacement files and edits."""
    return datavariants.variant_data(DATA, files, edits)


def data_texts(files: Mapping[str, str | Path] | None = None, edits: Sequence[RowEdit] = ()) -> dict[str, str]:
    """Every data file's text as the variant plays it (for the manifest's data hash)."""
    return datavariants.data_texts(DATA, files, edits)
