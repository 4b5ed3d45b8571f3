"""Load and validate Sentient's data files into the arrays the compiled kernels read.

The designer's files live in ``data/``: ``cards.csv`` (one row per robot card),
``investors.csv`` (the round stacks and the starting investors) and ``options.toml`` (one
option per open rule point). Every problem is reported as ``file:row: column: what is wrong``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simlab.core.datafiles import int_field, read_csv_rows
from simlab.core.errors import DataError
from simlab.core.options import Option, load_options

DATA_DIR = Path(__file__).parent / "data"

TYPES = ("information", "service", "transport", "defense", "industrial")
SYMBOLS = {"+": 1, "-": -1, "=": 0}
SYMBOL_NAMES = {1: "+", -1: "-", 0: "="}

# Condition codes the rules implement, in kernel order, with their robot type and VP kind.
CONDITIONS: tuple[tuple[str, str, str], ...] = (
    ("INF_TARGET", "information", "info_2_7"),
    ("SVC_8_MINUS_SUM", "service", "formula"),
    ("SVC_5_MINUS_MIN", "service", "formula"),
    ("SVC_7_MINUS_MAX", "service", "formula"),
    ("SVC_SUM_MINUS_6", "service", "formula"),
    ("SVC_MAX_MINUS_2", "service", "formula"),
    ("SVC_MIN_MINUS_1", "service", "formula"),
    ("TRN_LT", "transport", "fixed"),
    ("TRN_LE", "transport", "fixed"),
    ("TRN_EQ", "transport", "fixed"),
    ("TRN_GT", "transport", "fixed"),
    ("TRN_GE", "transport", "fixed"),
    ("DEF_SUM_LE4_OR_GE10", "defense", "fixed"),
    ("DEF_SUM_EQ7", "defense", "fixed"),
    ("DEF_DIFF_EQ1", "defense", "fixed"),
    ("DEF_DIFF_EQ2", "defense", "fixed"),
    ("DEF_SUM_LE5", "defense", "fixed"),
    ("DEF_SUM_GE9", "defense", "fixed"),
    ("IND_LEVEN_RODD", "industrial", "fixed"),
    ("IND_LODD_REVEN", "industrial", "fixed"),
    ("IND_SUM_ODD", "industrial", "fixed"),
    ("IND_BOTH_ODD", "industrial", "fixed"),
)
CONDITION_INDEX = {code: i for i, (code, _, _) in enumerate(CONDITIONS)}

# Columns of the card array handed to the kernels.
CARD_ID, CARD_TYPE, CARD_COND, CARD_PARAM, CARD_VP, CARD_LEFT, CARD_RIGHT, CARD_IN_DECK = range(8)
CARD_FIELDS = 8
MAX_CARDS = 128

CARD_COLUMNS = ("id", "type", "condition_code", "param", "vp_kind", "printed_vp", "left_symbol", "right_symbol")
INVESTOR_COLUMNS = ("id", "kind", "type", "round")


@dataclass(frozen=True)
class Card:
    """One robot card as printed: type, scoring condition, VP and calibration symbols."""

    id: int
    type: str
    condition: str
    param: int | None
    vp_kind: str
    printed_vp: int | None
    left: str
    right: str
    source: str = ""
    in_deck: bool = True  # False: taken out of the deck (still shuffled, then skipped; see without_cards)


@dataclass
class SentientData:
    """Validated content of one Sentient data set (cards, investors, options)."""

    cards: list[Card]
    round_investors: list[list[str]]  # per round 1..3, the five investor types of the stack
    starting_investors: list[str]  # the types printed on the right board sections
    options: dict[str, Option]
    cards_file: str = ""
    removed: frozenset[int] = frozenset()  # printed ids taken out of the deck (ablation studies)
    card_array: np.ndarray = field(init=False, repr=False)
    round_investor_array: np.ndarray = field(init=False, repr=False)
    starting_investor_array: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.removed = frozenset(self.removed | {c.id for c in self.cards if not c.in_deck})
        arr = np.zeros((len(self.cards), CARD_FIELDS), dtype=np.int32)
        for i, c in enumerate(self.cards):
            arr[i] = (
                c.id,
                TYPES.index(c.type),
                CONDITION_INDEX[c.condition],
                c.param or 0,
                c.printed_vp or 0,
                SYMBOLS[c.left],
                SYMBOLS[c.right],
                0 if c.id in self.removed else 1,
            )
        self.card_array = arr
        self.round_investor_array = np.array(
            [[TYPES.index(t) for t in stack] for stack in self.round_investors], dtype=np.int8
        )
        self.starting_investor_array = np.array([TYPES.index(t) for t in self.starting_investors], dtype=np.int8)

    def card_by_id(self, card_id: int) -> Card:
        """The card with printed id ``card_id``."""
        for c in self.cards:
            if c.id == card_id:
                return c
        raise KeyError(card_id)

    def card_table(self) -> list[dict[str, Any]]:
        """The card table as plain dicts (the trace's ``game_start.cards``)."""
        return [
            {
                "id": c.id,
                "type": c.type,
                "condition": c.condition,
                "param": c.param,
                "vp": c.printed_vp,
                "left": c.left,
                "right": c.right,
            }
            for c in self.cards
        ]

    def with_card_values(self, changes: dict[int, dict[str, Any]]) -> SentientData:
        """A copy with single card fields replaced, e.g. ``{32: {"printed_vp": 5}}``; validated."""
        rows = []
        for c in self.cards:
            row = {
                "id": str(c.id),
                "type": c.type,
                "condition_code": c.condition,
                "param": "" if c.param is None else str(c.param),
                "vp_kind": c.vp_kind,
                "printed_vp": "" if c.printed_vp is None else str(c.printed_vp),
                "left_symbol": c.left,
                "right_symbol": c.right,
                "source": c.source,
            }
            for key, value in changes.get(c.id, {}).items():
                if key not in row:
                    raise DataError(self.cards_file, None, key, f"card {c.id}: not a card field")
                row[key] = "" if value is None else str(value)
            rows.append(row)
        unknown = set(changes) - {c.id for c in self.cards}
        if unknown:
            raise DataError(self.cards_file, None, "id", f"no card with id {sorted(unknown)[0]}")
        cards = [_parse_card(self.cards_file, i + 2, row) for i, row in enumerate(rows)]
        _check_deck(self.cards_file, cards, list(range(2, len(cards) + 2)))
        return SentientData(cards, self.round_investors, self.starting_investors, self.options, self.cards_file,
                            self.removed)

    def without_cards(self, card_ids: set[int] | list[int]) -> SentientData:
        """A copy with these cards taken out of the deck.

        The deck is still shuffled as if they were in it and they are then skipped, so every
        other card keeps its relative order: games with and without a card stay paired.
        """
        ids = {int(i) for i in card_ids}
        unknown = ids - {c.id for c in self.cards}
        if unknown:
            raise DataError(self.cards_file, None, "id", f"no card with id {sorted(unknown)[0]}")
        return SentientData(self.cards, self.round_investors, self.starting_investors, self.options,
                            self.cards_file, frozenset(self.removed | ids))

    @property
    def deck_size(self) -> int:
        """Cards in play (the file's cards less the removed ones)."""
        return len(self.cards) - len(self.removed)


def _parse_card(file: str, line: int, row: dict[str, str]) -> Card:
    card_id = int_field(file, line, row, "id", 0, 10**6, optional=False)
    ctype = row["type"]
    if ctype not in TYPES:
        raise DataError(file, line, "type", f"'{ctype}' is not a robot type ({', '.join(TYPES)})")
    code = row["condition_code"]
    if code not in CONDITION_INDEX:
        raise DataError(file, line, "condition_code", f"unknown condition '{code}'")
    _, cond_type, vp_kind = CONDITIONS[CONDITION_INDEX[code]]
    if cond_type != ctype:
        raise DataError(file, line, "condition_code", f"{code} is a {cond_type} condition, card type is {ctype}")
    if row["vp_kind"] != vp_kind:
        raise DataError(file, line, "vp_kind", f"'{row['vp_kind']}' does not match {code} (expected {vp_kind})")
    param = int_field(file, line, row, "param", 1, 6, optional=vp_kind != "info_2_7")
    if vp_kind != "info_2_7" and param is not None:
        raise DataError(file, line, "param", f"{code} takes no parameter")
    vp = int_field(file, line, row, "printed_vp", 0, 99, optional=vp_kind != "fixed")
    if vp_kind != "fixed" and vp is not None:
        raise DataError(file, line, "printed_vp", f"{code} scores by its rule, not a printed VP")
    for col in ("left_symbol", "right_symbol"):
        if row[col] not in SYMBOLS:
            raise DataError(file, line, col, f"'{row[col]}' is not a calibration symbol (+, -, =)")
    left, right = row["left_symbol"], row["right_symbol"]
    in_deck = int_field(file, line, row, "in_deck", 0, 1, optional=True)
    return Card(card_id, ctype, code, param, vp_kind, vp, left, right, row.get("source", ""), in_deck != 0)


def _check_deck(file: str, cards: list[Card], lines: list[int]) -> None:
    if not cards:
        raise DataError(file, None, None, "no cards")
    if len(cards) > MAX_CARDS:
        raise DataError(file, None, None, f"{len(cards)} cards; at most {MAX_CARDS} are supported")
    seen: set[int] = set()
    for line, c in zip(lines, cards, strict=True):
        if c.id in seen:
            raise DataError(file, line, "id", f"duplicate card id {c.id}")
        seen.add(c.id)


def load_cards(path: Path) -> list[Card]:
    """Read and validate a cards file."""
    rows = read_csv_rows(path, CARD_COLUMNS)
    cards = [_parse_card(str(path), line, row) for line, row in rows]
    _check_deck(str(path), cards, [line for line, _ in rows])
    return cards


def load_investors(path: Path) -> tuple[list[list[str]], list[str]]:
    """Read the investors file: the three round stacks and the starting investors."""
    name = str(path)
    stacks: list[list[str]] = [[], [], []]
    starting: list[str] = []
    for line, row in read_csv_rows(path, INVESTOR_COLUMNS):
        if row["type"] not in TYPES:
            raise DataError(name, line, "type", f"'{row['type']}' is not an investor type")
        if row["kind"] == "token":
            rnd = int_field(name, line, row, "round", 1, 3, optional=False)
            stacks[rnd - 1].append(row["type"])
        elif row["kind"] == "starting":
            starting.append(row["type"])
        else:
            raise DataError(name, line, "kind", f"'{row['kind']}' is neither 'token' nor 'starting'")
    for rnd, stack in enumerate(stacks, start=1):
        if sorted(stack) != sorted(TYPES):
            raise DataError(name, None, "round", f"round {rnd} stack must hold one investor of each type")
    if len(starting) < 4:
        raise DataError(name, None, "kind", f"{len(starting)} starting investors; 4 players need at least 4")
    return stacks, starting


def load_data(cards_file: str | Path | None = None, investors_file: str | Path | None = None) -> SentientData:
    """Load the game data (the bundled files unless other paths are given)."""
    cards_path = Path(cards_file) if cards_file else DATA_DIR / "cards.csv"
    investors_path = Path(investors_file) if investors_file else DATA_DIR / "investors.csv"
    cards = load_cards(cards_path)
    stacks, starting = load_investors(investors_path)
    options = load_options(DATA_DIR / "options.toml")
    return SentientData(cards, stacks, starting, options, str(cards_path))
