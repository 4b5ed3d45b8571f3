"""Sentient's data files and card ablation, as the core's data variants see them
(``simlab.core.datavariants``).

A spec replaces a file with ``data = { cards = "my_cards.csv" }`` and edits rows with
``edit = [{ file = "cards", where = { id = 32 }, set = { printed_vp = 2 } }]``; a card leaves
the deck with ``set = { in_deck = 0 }`` (it is still shuffled and then skipped, so every other
card keeps its place: games with and without it stay paired).

The ablation (``[ablation] cards = "all", change = "remove"``) makes one variant per card:
``remove`` takes the card out of the deck (variant ``card32_removed``); ``vp`` changes its
printed VP by ``delta`` (variant ``card32_vp4``; cards that score by rule are skipped).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simlab.core.dataedits import RowEdit
from simlab.core.datavariants import Ablation, AblationChange, DataFiles
from simlab.games.sentient.data import DATA_DIR, SentientData, load_data

FILE_NAMES = {"cards": "cards.csv", "investors": "investors.csv"}


def _load(paths: dict[str, Path]) -> SentientData:
    return load_data(paths["cards"], paths["investors"])


def _card_ids(data: SentientData) -> list[int]:
    return [c.id for c in data.cards]


def _remove(data: SentientData, card: int, delta: int) -> list[RowEdit]:
    return [RowEdit("cards", {"id": card}, {"in_deck": 0}, origin=f"ablation (card {card})")]


def _change_vp(data: SentientData, card: int, delta: int) -> list[RowEdit] | None:
    printed = data.card_by_id(card).printed_vp
    if printed is None:
        return None  # information and service cards score by rule, not a printed VP
    return [RowEdit("cards", {"id": card}, {"printed_vp": printed + delta}, origin=f"ablation (card {card})")]


def _vp_name(data: SentientData, card: Any, delta: int) -> str:
    printed = data.card_by_id(card).printed_vp
    return f"card{card}_vp{(printed or 0) + delta}"


DATA = DataFiles(DATA_DIR, FILE_NAMES, _load, "sentient")
ABLATION = Ablation(
    component="cards",
    ids=_card_ids,
    changes=(
        AblationChange("remove", "the card taken out of the deck", _remove, lambda d, c, k: f"card{c}_removed"),
        AblationChange("vp", "the card's printed VP changed by delta", _change_vp, _vp_name),
    ),
    holders=("takes", "card"),
    label=lambda data, card: (f"card {card} ({data.card_by_id(int(card)).type}, "
                              f"{data.card_by_id(int(card)).condition})"),
)
