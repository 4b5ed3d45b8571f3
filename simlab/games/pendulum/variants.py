"""Pendulum's data files as the core's data variants see them (``simlab.core.datavariants``).

A spec replaces a file with ``data = { automa_cards = "my_cards.csv" }`` (relative to the spec),
or on the command line ``--data automa_cards=my_cards.csv``, and edits rows with
``edit = [{ file = "automa_cards", where = { card_id = 12 }, set = { vp = 1 } }]``. Every file of
``data.FILE_NAMES`` can be replaced or edited (the CSV files, ``config.toml``, ``options.toml``).

Pendulum declares no ablation: its components (action spaces, council cards, Automa cards) are
not independent pieces a game can simply leave out, so experiments change them with row edits.
"""

from __future__ import annotations

from pathlib import Path

from simlab.core.datavariants import DataFiles
from simlab.games.pendulum.data import DATA_DIR, FILE_NAMES, PendulumData, load_data


def _load(paths: dict[str, Path]) -> PendulumData:
    return load_data(**{stem: str(path) for stem, path in paths.items()})


DATA = DataFiles(DATA_DIR, FILE_NAMES, _load, "pendulum")
