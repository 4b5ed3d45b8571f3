"""Solo Race's data: the special spaces of the track (``spaces.csv``) and the rule options.

``spaces.csv`` has one row per special space: ``space`` (1..MAX_TRACK-1), ``shift`` (the spaces a
racer landing there moves on, or back when negative; never 0), ``name`` and ``source``
(``rulebook``, ``public-source`` or ``reconstructed``). Errors read ``file:line: column: what``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from simlab.core.datafiles import int_field, read_csv_rows
from simlab.core.errors import DataError
from simlab.core.options import Option, load_options
from simlab_solo_race.state import MAX_TRACK

DATA_DIR = Path(__file__).parent / "data"
FILE_NAMES = {"spaces": "spaces.csv", "options": "options.toml"}
SOURCES = ("rulebook", "public-source", "reconstructed")
SPACE_COLUMNS = ("space", "shift", "name", "source")


@dataclass(frozen=True)
class Space:
    """A special space: landing on it moves a racer by ``shift``."""

    space: int
    shift: int
    name: str
    source: str


@dataclass
class RaceData:
    """A loaded, validated data set: the special spaces and the rule options."""

    spaces: list[Space]
    options: dict[str, Option]
    files: dict[str, str] = field(default_factory=dict)  # stem -> file label, for later messages

    def board(self, goal: int) -> np.ndarray:
        """The shift of every space 0..MAX_TRACK (spaces at or past ``goal`` never shift)."""
        board = np.zeros(MAX_TRACK + 1, dtype=np.int16)
        for s in self.spaces:
            if s.space < goal:
                board[s.space] = s.shift
        return board


def load_spaces(path: Path) -> list[Space]:
    """The special spaces of ``spaces.csv``, validated."""
    name = str(path)
    spaces: list[Space] = []
    seen: dict[int, int] = {}
    for line, row in read_csv_rows(path, SPACE_COLUMNS, extra_ok=lambda col: False):
        space = int_field(name, line, row, "space", 1, MAX_TRACK - 1)
        shift = int_field(name, line, row, "shift", -9, 9)
        assert space is not None and shift is not None
        if shift == 0:
            raise DataError(name, line, "shift", "0 is not a shift (leave the space out)")
        if not 0 <= space + shift <= MAX_TRACK:
            raise DataError(name, line, "shift", f"space {space} shifted by {shift} leaves the track 0..{MAX_TRACK}")
        if space in seen:
            raise DataError(name, line, "space", f"space {space} is already listed on line {seen[space]}")
        if row["source"] not in SOURCES:
            raise DataError(name, line, "source", f"'{row['source']}' is not one of {', '.join(SOURCES)}")
        seen[space] = line
        spaces.append(Space(space, shift, row["name"], row["source"]))
    return spaces


def load_data(paths: Mapping[str, str | Path] | None = None) -> RaceData:
    """Load and validate a data set: the bundled files, or the path given per stem (``spaces``, ``options``)."""
    given = dict(paths or {})
    full = {stem: Path(given[stem]) if given.get(stem) else DATA_DIR / fname for stem, fname in FILE_NAMES.items()}
    return RaceData(load_spaces(full["spaces"]), load_options(full["options"]),
                    {stem: str(p) for stem, p in full.items()})
