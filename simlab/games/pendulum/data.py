"""Load and validate Pendulum's data files (base game and Automa solo module).

The files live in ``data/`` (copied from the research folder; NOTES.md Part V describes them):

- ``action_spaces.csv``: both board sides, one row per action space (rewards, cost, frame, blocking);
- ``characters.csv``: the 10 personas (track offsets, start resources, production slots);
- ``stratagems.csv``: the 40 persona stratagems;
- ``council_rewards.csv``: 25 standard cards, 5 finals, the grande card and the default;
- ``achievements.csv``, ``provinces.csv``, ``timer_schedule.csv``;
- ``automa_cards.csv``, ``automa_levels.csv``, ``automa_scoring.csv``, ``automa_track.csv``,
  ``automa_reward_symbols.csv``: the Automa module (mostly reconstructed, NOTES Part IV);
- ``config.toml``: the fixed parameters; ``options.toml``: every open point of NOTES Part II.

Costs, rewards, requirements and yields are written in the token grammar of NOTES V.1 and parsed
here into :class:`Effect` vectors (``tables.EF_*`` columns). Every problem is one line,
``file:row: column: what is wrong``. The ``source`` and ``notes`` columns are kept on every record
(reconstructed rows are data, never code).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from simlab.core.datafiles import data_file_paths, int_field, read_csv_rows, read_text_file
from simlab.core.errors import DataError
from simlab.core.options import Option, load_options
from simlab.games.pendulum.codes import (
    COUNCIL_SLOT_NAMES,
    FINAL_PREF_NAMES,
    MAX_SPACES,
    SLOT_NAMES,
    TIMER_NAMES,
    TRACK_NAMES,
)
from simlab.games.pendulum.tables import (
    EF_CONQUER,
    EF_FIELDS,
    EF_LEGENDARY,
    EF_PROD,
    EF_RECRUIT,
    EF_RETRIEVE,
    EF_SPECIAL,
    EF_VP_ANY,
    EF_VP_POW,
    FLIP_NAMES,
    LEVELS,
    MAX_ALT,
    MAX_EFFECTS,
    N_AUTOMA_CARDS,
    N_COUNCIL,
    N_STANDARD,
    SPECIAL_NAMES,
    TRACK_KINDS,
)

DATA_DIR = Path(__file__).parent / "data"

CSV_FILES = ("action_spaces", "characters", "stratagems", "council_rewards", "achievements", "provinces",
             "timer_schedule", "automa_cards", "automa_levels", "automa_scoring", "automa_track",
             "automa_reward_symbols")
FILES = (*CSV_FILES, "config", "options")
FILE_NAMES = {stem: f"{stem}.toml" if stem in ("config", "options") else f"{stem}.csv" for stem in FILES}

SOURCES = ("rulebook", "public-source", "reconstructed")
BOOLEANS = {"true": True, "false": False}
YES_NO = {"yes": True, "no": False}
BOARD_SIDES = ("1-3p", "4-5p")
FRAMES = ("single", "double", "open")
CHAR_SIDES = ("basic", "advanced")
LONGEST = (*TRACK_NAMES, "all equal")
COUNCIL_DECKS = ("standard", "final", "fixed")
COUNCIL_KINDS = ("immediate", "stratagem", "permanent", "final", "grande", "default")
MOVE_AREAS = ("none", "purple", "green")
AUTOMA_SIZES = ("small", "large")
RESOURCE_TOKENS = ("military", "culture", "gold", "wild", "votes")
VP_TOKENS = (*TRACK_NAMES, "any")
COUNT_TOKENS = {"conquer": EF_CONQUER, "retrieve": EF_RETRIEVE, "recruit": EF_RECRUIT}
MAX_AMOUNT = 99
OPTIONAL_COLUMNS = ("notes", "source")

#: ids of the council cards in council-table order (index = row of ``tables.co``).
COUNCIL_IDS = (*(str(i) for i in range(1, N_STANDARD + 1)), "F1", "F2", "F3", "F4", "F5", "GRANDE", "DEFAULT")
assert len(COUNCIL_IDS) == N_COUNCIL

#: options the rules read (options.toml must define them).
REQUIRED_OPTIONS = (
    "time_model", "auto_flip_order", "auto_flips_count_as_human_flips", "allow_delayed_flips", "agent_protocol",
    "human_action_median_s", "human_action_sigma", "human_flip_delay_median_s", "human_flip_delay_sigma",
    "automa_card_resolution_s", "simultaneity_window_s", "automa_level", "omen_variant", "setup_reveal",
    "mirror_rows", "flip_after_council_called", "human_rechooses_destination", "final_council_preference",
    "track_order_on_mat", "parchment_counting", "outside_parchment_tiebreak", "automa_vs_automa",
    "council_card_6_kind", "council_reading_order", "warmonger_blue_production", "warmonger_exchange",
    "character_side", "advanced_variant", "max_flip_delay_s",
)
OPTION_CHOICES: dict[str, tuple[Any, ...]] = {
    "time_model": ("schedule", "timed"),
    "auto_flips_count_as_human_flips": (False, True),
    "allow_delayed_flips": (False, True),
    "agent_protocol": ("privilege_round_robin",),
    "omen_variant": (False, True),
    "setup_reveal": ("separate_cards", "same_card"),
    "mirror_rows": (False, True),
    "flip_after_council_called": ("ignore",),
    "human_rechooses_destination": (True, False),
    "parchment_counting": ("occupied", "beyond_entry"),
    "outside_parchment_tiebreak": ("next_tracks_then_privilege", "privilege_only"),
    "automa_vs_automa": ("track_then_privilege",),
    "council_card_6_kind": ("stratagem", "immediate"),
    "warmonger_exchange": ("swap_amounts", "convert_any_1to1"),
    "character_side": ("basic", "advanced", "random"),
    "advanced_variant": ("none", "all"),
    "automa_level": LEVELS,
}
#: order options: comma-separated permutations of these names.
ORDER_OPTIONS: dict[str, tuple[str, ...]] = {
    "auto_flip_order": TIMER_NAMES,
    "track_order_on_mat": TRACK_NAMES,
    "council_reading_order": COUNCIL_SLOT_NAMES,
}
#: numeric options (seconds or sigmas) with their bounds.
NUMERIC_OPTIONS = {
    "human_action_median_s": (0.01, 600.0), "human_action_sigma": (0.0, 5.0),
    "human_flip_delay_median_s": (0.01, 600.0), "human_flip_delay_sigma": (0.0, 5.0),
    "automa_card_resolution_s": (0.0, 600.0), "simultaneity_window_s": (0.0, 60.0),
    "max_flip_delay_s": (1.0, 3600.0),
}


# ---------------------------------------------------------------- effects (token grammar, NOTES V.1)


@dataclass(frozen=True)
class Effect:
    """A cost, reward, requirement or yield: one vector of ``EF_FIELDS`` amounts per alternative.

    ``text`` is the token text as written (``none`` for nothing); ``alt_texts`` the text of each
    alternative (without a ``choice:`` prefix). ``choice`` marks a ``choice:`` effect.
    """

    text: str
    alts: tuple[tuple[int, ...], ...]
    alt_texts: tuple[str, ...]
    choice: bool = False

    @property
    def is_none(self) -> bool:
        """Whether the effect is ``none``."""
        return self.text == "none"

    def alt(self, i: int) -> Effect:
        """Alternative ``i`` as an effect of its own (for the two rewards of a double frame)."""
        return Effect(self.alt_texts[i], (self.alts[i],), (self.alt_texts[i],))

    def has(self, column: int) -> bool:
        """Whether any alternative has a non-zero amount in ``column`` (an ``EF_*`` index)."""
        return any(v[column] for v in self.alts)


NONE_EFFECT = Effect("none", ((0,) * EF_FIELDS,), ("none",))


def _amount(file: str, line: int | None, col: str, item: str, text: str, value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise DataError(file, line, col, f"'{value}' in '{item}' is not an integer (in '{text}')") from None
    if not 1 <= n <= MAX_AMOUNT:
        raise DataError(file, line, col, f"amount {n} in '{item}' is outside 1..{MAX_AMOUNT} (in '{text}')")
    return n


def _parse_item(file: str, line: int | None, col: str, item: str, text: str, vec: list[int]) -> None:
    parts = item.split(":")
    head = parts[0]
    bad = f"'{item}' is malformed (in '{text}')"
    if head in RESOURCE_TOKENS:
        if len(parts) != 2:
            raise DataError(file, line, col, bad)
        vec[RESOURCE_TOKENS.index(head)] += _amount(file, line, col, item, text, parts[1])
    elif head == "vp":
        if len(parts) != 3:
            raise DataError(file, line, col, bad)
        if parts[1] not in VP_TOKENS:
            raise DataError(file, line, col, f"unknown track '{parts[1]}' in '{item}' (known: {', '.join(VP_TOKENS)})")
        column = EF_VP_ANY if parts[1] == "any" else EF_VP_POW + TRACK_NAMES.index(parts[1])
        vec[column] += _amount(file, line, col, item, text, parts[2])
    elif head == "legendary":
        if len(parts) != 2 or parts[1] != "1":
            raise DataError(file, line, col, f"'{item}' must be legendary:1 (in '{text}')")
        vec[EF_LEGENDARY] = 1
    elif head == "prod":
        if len(parts) != 2:
            raise DataError(file, line, col, bad)
        if parts[1] not in SLOT_NAMES:
            raise DataError(file, line, col,
                            f"unknown mat slot '{parts[1]}' in '{item}' (known: {', '.join(SLOT_NAMES)})")
        bit = 1 << SLOT_NAMES.index(parts[1])
        if vec[EF_PROD] & bit:
            raise DataError(file, line, col, f"'{item}' appears twice (in '{text}')")
        vec[EF_PROD] |= bit
    elif head in COUNT_TOKENS:
        if len(parts) != 2:
            raise DataError(file, line, col, bad)
        vec[COUNT_TOKENS[head]] += _amount(file, line, col, item, text, parts[1])
    elif head == "special":
        if len(parts) != 2:
            raise DataError(file, line, col, bad)
        if parts[1] not in SPECIAL_NAMES[1:]:
            raise DataError(file, line, col, f"unknown special '{parts[1]}' (known: {', '.join(SPECIAL_NAMES[1:])})")
        if vec[EF_SPECIAL]:
            raise DataError(file, line, col, f"two specials in one alternative (in '{text}')")
        vec[EF_SPECIAL] = SPECIAL_NAMES.index(parts[1])
    elif head == "none":
        raise DataError(file, line, col, f"'none' must stand alone (in '{text}')")
    else:
        raise DataError(file, line, col, f"unknown token '{item}' (in '{text}'; see NOTES V.1)")


def parse_effect(text: str, file: str = "<effect>", line: int | None = None, col: str = "effect") -> Effect:
    """Parse the token grammar of NOTES V.1 into an :class:`Effect` (one-line DataError otherwise).

    ``+`` joins items of one alternative, ``|`` separates alternatives (also after ``choice:``),
    ``none`` is nothing. Items: ``military|culture|gold|wild|votes:N``, ``vp:<track|any>:N``,
    ``legendary:1``, ``prod:<slot>``, ``conquer|retrieve|recruit:N``, ``special:<name>``.
    """
    t = text.strip()
    if t == "":
        raise DataError(file, line, col, "value is empty (write 'none' for nothing)")
    if t == "none":
        return NONE_EFFECT
    choice = t.startswith("choice:")
    body = t[len("choice:"):] if choice else t
    if "choice:" in body:
        raise DataError(file, line, col, f"'choice:' may only start the value (in '{t}')")
    alt_texts = tuple(a.strip() for a in body.split("|"))
    if len(alt_texts) > MAX_ALT:
        raise DataError(file, line, col, f"{len(alt_texts)} alternatives; at most {MAX_ALT} (in '{t}')")
    if choice and len(alt_texts) < 2:
        raise DataError(file, line, col, f"'choice:' needs at least 2 alternatives separated by '|' (in '{t}')")
    alts = []
    for alt in alt_texts:
        if alt == "":
            raise DataError(file, line, col, f"an empty alternative (in '{t}')")
        vec = [0] * EF_FIELDS
        for item in alt.split("+"):
            item = item.strip()
            if item == "":
                raise DataError(file, line, col, f"an empty item (in '{t}')")
            _parse_item(file, line, col, item, t, vec)
        alts.append(tuple(vec))
    return Effect(t, tuple(alts), alt_texts, choice)


def effect_vector_text(vec: tuple[int, ...] | list[int]) -> str:
    """Token text of one effect vector (the inverse of parsing one alternative; ``none`` for zeros)."""
    items = []
    for r, name in enumerate(RESOURCE_TOKENS):
        if vec[r]:
            items.append(f"{name}:{vec[r]}")
    for k, name in enumerate(TRACK_NAMES):
        if vec[EF_VP_POW + k]:
            items.append(f"vp:{name}:{vec[EF_VP_POW + k]}")
    if vec[EF_VP_ANY]:
        items.append(f"vp:any:{vec[EF_VP_ANY]}")
    if vec[EF_LEGENDARY]:
        items.append("legendary:1")
    for m, name in enumerate(SLOT_NAMES):
        if vec[EF_PROD] & (1 << m):
            items.append(f"prod:{name}")
    for name, column in COUNT_TOKENS.items():
        if vec[column]:
            items.append(f"{name}:{vec[column]}")
    if vec[EF_SPECIAL]:
        items.append(f"special:{SPECIAL_NAMES[vec[EF_SPECIAL]]}")
    return "+".join(items) or "none"


# ---------------------------------------------------------------- records


@dataclass(frozen=True)
class Space:
    """One action space of one board side (``space_id`` = side:area:row:pos)."""

    space_id: str
    board_side: str
    area: str
    row: str
    pos_lr: int
    frame: str
    rewards: Effect
    rewards_text: str
    cost: Effect
    common_blocked: bool
    automa_space_size: str | None
    neutral_2p: bool
    source: str
    notes: str
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Character:
    """One persona (a side of a character mat)."""

    character: str
    persona: str
    side: str
    longest_track: str
    start_track: tuple[int, int, int]
    steps: tuple[int, int, int]
    start_res: tuple[int, int, int]
    start_votes: int
    prod: tuple[Effect, Effect, Effect, Effect]  # mat slots in SLOT_NAMES order (brown, red, blue, yellow)
    source: str
    notes: str
    line: int = field(default=0, compare=False)

    @property
    def name(self) -> str:
        """``Bolk, The Champion``."""
        return f"{self.character}, {self.persona}"


@dataclass(frozen=True)
class Stratagem:
    """One persona stratagem card."""

    character: str
    persona: str
    card_no: int
    cost: Effect
    cost_text: str
    effect: Effect
    effect_text: str
    source: str
    notes: str
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class CouncilCard:
    """One council reward card (``card_id`` 1..25, F1..F5, GRANDE, DEFAULT)."""

    card_id: str
    deck: str
    kind: str
    cost: Effect
    cost_text: str
    effect: Effect
    effect_text: str
    source: str
    notes: str
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Achievement:
    """One achievement card: the requirement is held, not paid; the ribbon is the alternative to the legendary."""

    card_id: int
    requirement: Effect
    ribbon: Effect
    ribbon_text: str
    source: str
    notes: str
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Province:
    """One province card: the production edge per mat slot colour (SLOT_NAMES order)."""

    card_no: int
    kind: str
    yields: tuple[Effect, Effect, Effect, Effect]
    source: str
    notes: str
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class ScheduleStep:
    """One step of the timer track: the timers due at ``time_s`` (auto-flip order) and the purple flip number."""

    step: int
    time_s: int
    due: tuple[str, ...]
    purple_flip_no: int  # 0 when purple is not due
    notes: str
    source: str
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class AutomaCard:
    """One Automa card (NOTES I.12.3)."""

    card_id: int
    move_area: str
    flip_combo: str
    province_discard_slot: int
    vp: int
    votes: int
    reward_symbol: str
    left_side_text: str
    source: str
    notes: str
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class AutomaLevel:
    """One Automa difficulty level (A..F)."""

    level: str
    level_ru: str
    name_ru: str
    name_en: str
    advanced_rules: bool
    glory_spaces_usable: bool
    recommended_first: bool
    source: str
    notes: str
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class TrackSpace:
    """One space of the Automa score track."""

    space: int
    row: int
    col: int
    kind: str
    distance_label: int | None  # the printed negative number, None when blank
    distance_to_parchment: int
    parchment_index: int | None
    glory_index: int | None
    advanced_only: bool
    source: str
    notes: str
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class RewardSymbol:
    """An Automa reward symbol and the council cards it matches."""

    symbol: str
    meaning: str
    matches: tuple[str, ...]
    source: str
    notes: str
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Config:
    """The fixed parameters of ``config.toml`` the rules use (``raw`` keeps the whole file)."""

    rounds: int
    timer_seconds: tuple[int, int, int]  # TIMER_NAMES order
    time_markers: int
    resource_cap: int
    max_workers: int
    action_gold: int
    conquer_military: int
    pickup_culture: int
    display_size: int
    prov_limit: int
    prov_limit_max3: int
    strats_per_character: int
    council_offered: int
    council_standard: int
    council_removed: int
    final_cards: int
    priv_bonus_small: tuple[int, ...]  # 3 or fewer players
    priv_bonus_large: tuple[int, ...]  # 4 or more players
    track_first: int
    parchment_first: int
    track_last: int
    reading_order: tuple[str, ...]
    neutral_votes: int
    neutral_spaces: tuple[str, ...]
    legendary_from_round_small: int
    automa_count: int
    automa_workers: int
    automa_cards: int
    votes_cap: int
    automa_priv_bonus: tuple[int, ...]
    no_match_vp: int
    legendary_lost_after_flip: int
    automa_track_spaces: int
    automa_parchment_first: int
    automa_parchment_last: int
    automa_glory_first: int
    automa_glory_last: int
    automa_label_step: int
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    path: str = field(default="config.toml", compare=False)  # the file label for later messages


@dataclass
class PendulumData:
    """Validated content of one Pendulum data set."""

    config: Config
    spaces: list[Space]
    characters: list[Character]
    stratagems: list[Stratagem]
    council: list[CouncilCard]  # COUNCIL_IDS order (index = council table row)
    achievements: list[Achievement]
    provinces: list[Province]
    schedule: list[ScheduleStep]
    automa_cards: list[AutomaCard]
    levels: list[AutomaLevel]  # LEVELS order
    scoring: dict[tuple[str, int], tuple[int, int]]  # (level, round) -> (vp bonus, votes bonus)
    track: list[TrackSpace]
    symbols: list[RewardSymbol]
    options: dict[str, Option]
    files: dict[str, str] = field(default_factory=dict)  # stem -> file label for later messages

    def spaces_of(self, board_side: str) -> list[Space]:
        """The spaces of one board side, in file order."""
        return [s for s in self.spaces if s.board_side == board_side]

    def character_names(self) -> list[str]:
        """Every persona's name (``Bolk, The Champion``) by characters.csv row."""
        return [c.name for c in self.characters]

    def character_row(self, character: str, persona: str) -> int:
        """The row of a persona in ``characters`` (KeyError if absent)."""
        for i, c in enumerate(self.characters):
            if c.character == character and c.persona == persona:
                return i
        raise KeyError(f"{character}, {persona}")

    def file(self, stem: str) -> str:
        """The label of a data file for messages."""
        return self.files.get(stem, FILE_NAMES[stem])


# ---------------------------------------------------------------- field helpers


def _rows(path: Path, required: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    return read_csv_rows(path, required)


def _enum(file: str, line: int, row: dict[str, str], col: str, allowed: tuple[str, ...],
          optional: bool = False) -> str | None:
    text = row[col]
    if text == "":
        if optional:
            return None
        raise DataError(file, line, col, f"value is empty (allowed: {', '.join(allowed)})")
    if text not in allowed:
        raise DataError(file, line, col, f"'{text}' is not allowed (allowed: {', '.join(allowed)})")
    return text


def _flag(file: str, line: int, row: dict[str, str], col: str, words: dict[str, bool]) -> bool:
    text = row[col]
    if text not in words:
        raise DataError(file, line, col, f"'{text}' is not a flag (allowed: {', '.join(words)})")
    return words[text]


def _text(file: str, line: int, row: dict[str, str], col: str) -> str:
    if row[col] == "":
        raise DataError(file, line, col, "value is empty")
    return row[col]


def _int(file: str, line: int, row: dict[str, str], col: str, lo: int, hi: int) -> int:
    value = int_field(file, line, row, col, lo, hi)
    assert value is not None
    return value


def _effect(file: str, line: int, row: dict[str, str], col: str) -> Effect:
    return parse_effect(row[col], file, line, col)


def _source(file: str, line: int, row: dict[str, str]) -> str:
    return _enum(file, line, row, "source", SOURCES) or ""


# ---------------------------------------------------------------- config.toml


def load_config(path: Path) -> Config:
    """Read ``config.toml``: every parameter the rules use, checked for type and range."""
    file = str(path)
    try:
        raw = tomllib.loads(read_text_file(path))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(file, None, None, f"not valid TOML: {exc}") from None

    def table(name: str) -> dict[str, Any]:
        value: Any = raw
        for part in name.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if not isinstance(value, dict):
            raise DataError(file, None, name, "table is missing")
        return value

    def num(tab: str, key: str, lo: int, hi: int) -> int:
        t = table(tab)
        value = t.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            what = f"{value!r} is not an integer" if key in t else "key is missing"
            raise DataError(file, None, f"{tab}.{key}", what)
        if not lo <= value <= hi:
            raise DataError(file, None, f"{tab}.{key}", f"{value} is outside {lo}..{hi}")
        return value

    def ints(tab: str, key: str, n_lo: int, n_hi: int, lo: int, hi: int) -> tuple[int, ...]:
        value = table(tab).get(key)
        if (not isinstance(value, list) or not n_lo <= len(value) <= n_hi
                or not all(isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi for v in value)):
            raise DataError(file, None, f"{tab}.{key}", f"must be a list of {n_lo}..{n_hi} integers in {lo}..{hi}")
        return tuple(value)

    def names(tab: str, key: str) -> tuple[str, ...]:
        value = table(tab).get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise DataError(file, None, f"{tab}.{key}", "must be a list of names")
        return tuple(value)

    secs = table("base").get("timer_seconds")
    if not isinstance(secs, dict) or set(secs) != set(TIMER_NAMES) or not all(
            isinstance(secs[t], int) and not isinstance(secs[t], bool) and 1 <= secs[t] <= 3600 for t in TIMER_NAMES):
        raise DataError(file, None, "base.timer_seconds", f"must give {', '.join(TIMER_NAMES)} in 1..3600 seconds")
    first = num("base.track", "first_space", 0, 0)
    parchment = num("base.track", "parchment_first", 1, 99)
    last = num("base.track", "last_space", parchment, 99)
    reading = names("base.council_board", "reading_order")
    if sorted(reading) != sorted(COUNCIL_SLOT_NAMES):
        raise DataError(file, None, "base.council_board.reading_order",
                        f"must order the slots {', '.join(COUNCIL_SLOT_NAMES)} exactly once each")
    small = ints("base", "privilege_bonus_vp_3_or_fewer_players", 1, 3, 0, 9)
    large = ints("base", "privilege_bonus_vp_4_or_more_players", 1, 5, 0, 9)
    a_first = num("automa.track", "parchment_first", 1, 200)
    a_last = num("automa.track", "parchment_last", a_first, 200)
    g_first = num("automa.track", "glory_first", a_last + 1, 200)
    if g_first != a_last + 1:
        raise DataError(file, None, "automa.track.glory_first", f"{g_first} must follow parchment_last {a_last}")
    g_last = num("automa.track", "glory_last", g_first, 200)
    spaces = num("automa.track", "spaces", 2, 200)
    if spaces != g_last + 1:
        raise DataError(file, None, "automa.track.spaces", f"{spaces}, but glory_last {g_last} means {g_last + 1}")
    num("automa.track", "start_space", 0, 0)
    markers = num("base", "time_markers", 1, 9)
    return Config(
        rounds=num("base", "rounds", 1, 4),
        timer_seconds=(secs["purple"], secs["green"], secs["black"]),
        time_markers=markers,
        resource_cap=num("base", "resource_cap_per_type", 1, 99),
        max_workers=num("base", "max_workers_in_play", 2, 4),
        action_gold=num("base", "green_purple_action_gold_cost", 0, 99),
        conquer_military=num("base", "conquer_province_military_cost", 0, 99),
        pickup_culture=num("base", "pick_up_stratagems_culture_cost", 0, 99),
        display_size=num("base", "province_display_size", 4, 4),
        prov_limit=num("base", "province_limit_per_slot", 1, 8),
        prov_limit_max3=num("base", "province_limit_with_max3", 1, 8),
        strats_per_character=num("base", "stratagems_per_character", 1, 7),
        council_offered=num("base", "council_rewards_offered", 5, 5),
        council_standard=num("base", "council_standard_cards", N_STANDARD, N_STANDARD),
        council_removed=num("base", "council_standard_cards_removed_at_setup", 0, N_STANDARD),
        final_cards=num("base", "final_council_cards", 5, 5),
        priv_bonus_small=small,
        priv_bonus_large=large,
        track_first=first,
        parchment_first=parchment,
        track_last=last,
        reading_order=reading,
        neutral_votes=num("base.two_player", "neutral_votes_each_council", 0, 99),
        neutral_spaces=names("base.two_player", "neutral_worker_spaces"),
        legendary_from_round_small=num("base.three_or_fewer_players", "legendary_available_from_round", 1, 4),
        automa_count=num("automa", "automa_count", 2, 2),
        automa_workers=num("automa", "automa_large_workers", 6, 6),
        automa_cards=num("automa", "automa_cards", N_AUTOMA_CARDS, N_AUTOMA_CARDS),
        votes_cap=num("automa", "votes_cap", 0, 99),
        automa_priv_bonus=ints("automa", "privilege_bonus_vp", 3, 3, 0, 9),
        no_match_vp=num("automa", "no_matching_reward_vp", 0, 9),
        legendary_lost_after_flip=num("automa", "legendary_lost_after_purple_flip", 1, markers),
        automa_track_spaces=spaces,
        automa_parchment_first=a_first,
        automa_parchment_last=a_last,
        automa_glory_first=g_first,
        automa_glory_last=g_last,
        automa_label_step=num("automa.track", "distance_label_step", 1, 9),
        raw=raw,
        path=file,
    )


# ---------------------------------------------------------------- action_spaces.csv

SPACE_COLUMNS = ("space_id", "board_side", "area", "row", "pos_lr", "frame", "rewards", "rewards_text", "cost",
                 "common_blocked", "automa_space_size", "neutral_2p", "source")


def load_spaces(path: Path, config: Config) -> list[Space]:
    """Read ``action_spaces.csv``: ids, geometry (two rows per area, positions 0..n-1), frames
    against their rewards, costs against config.toml, blocking and Automa sizes."""
    file = str(path)
    spaces: list[Space] = []
    seen: dict[str, int] = {}
    for line, row in _rows(path, SPACE_COLUMNS):
        sid = _text(file, line, row, "space_id")
        side = _enum(file, line, row, "board_side", BOARD_SIDES) or ""
        area = _enum(file, line, row, "area", TIMER_NAMES) or ""
        rname = _enum(file, line, row, "row", ("top", "bottom")) or ""
        pos = _int(file, line, row, "pos_lr", 0, MAX_SPACES - 1)
        if sid != f"{side}:{area}:{rname}:{pos}":
            raise DataError(file, line, "space_id", f"'{sid}' does not read {side}:{area}:{rname}:{pos}")
        if sid in seen:
            raise DataError(file, line, "space_id", f"'{sid}' repeats line {seen[sid]}")
        seen[sid] = line
        frame = _enum(file, line, row, "frame", FRAMES) or ""
        rewards = _effect(file, line, row, "rewards")
        cost = _effect(file, line, row, "cost")
        if rewards.is_none:
            raise DataError(file, line, "rewards", "an action space needs a reward")
        if rewards.choice:
            raise DataError(file, line, "rewards", "write a double frame's rewards as 'a|b', not 'choice:'")
        want = 2 if frame == "double" else 1
        if len(rewards.alts) != want:
            raise DataError(file, line, "rewards", f"a {frame} frame needs {want} reward alternative(s), "
                            f"found {len(rewards.alts)} in '{rewards.text}'")
        if len(cost.alts) != 1:
            raise DataError(file, line, "cost", f"a cost cannot have alternatives ('{cost.text}')")
        if (area == "black") != (frame == "open"):
            raise DataError(file, line, "frame", f"'{frame}': black spaces are open, green/purple spaces are not")
        blocked = _flag(file, line, row, "common_blocked", YES_NO)
        if blocked == (area == "black"):
            raise DataError(file, line, "common_blocked", f"'{row['common_blocked']}': commons are blocked in green "
                            "and purple top frames, never in black")
        size = _enum(file, line, row, "automa_space_size", AUTOMA_SIZES, optional=True)
        if side == "1-3p" and area != "black":
            expect = "large" if frame == "double" else "small"
            if size != expect:
                raise DataError(file, line, "automa_space_size", f"'{size or ''}': a {frame} frame on the 1-3p "
                                f"side is {expect} for the Automa")
        elif size is not None:
            raise DataError(file, line, "automa_space_size", f"must be blank outside green/purple of the 1-3p side "
                            f"(found '{size}')")
        neutral = row["neutral_2p"] != ""
        # costs must agree with config.toml (the rules read the CSV cost)
        vec = cost.alts[0]
        if area != "black" and (vec[0] or vec[1] or any(vec[3:]) or vec[2] != config.action_gold):
            raise DataError(file, line, "cost", f"'{cost.text}': green and purple actions cost "
                            f"gold:{config.action_gold} (config.toml base.green_purple_action_gold_cost)")
        if area == "black":
            conquers = rewards.has(EF_CONQUER)
            expect_cost = f"military:{config.conquer_military}" if conquers else "none"
            if cost.text != expect_cost and effect_vector_text(vec) != expect_cost:
                raise DataError(file, line, "cost", f"'{cost.text}': a black {'conquer ' if conquers else ''}space "
                                f"costs {expect_cost} (config.toml base.conquer_province_military_cost)")
        spaces.append(Space(sid, side, area, rname, pos, frame, rewards, row["rewards_text"], cost, blocked, size,
                            neutral, _source(file, line, row), row.get("notes", ""), line))
    _check_geometry(file, spaces)
    _check_neutral(file, spaces, config)
    return spaces


def _check_geometry(file: str, spaces: list[Space]) -> None:
    for side in BOARD_SIDES:
        on_side = [s for s in spaces if s.board_side == side]
        if not on_side:
            raise DataError(file, None, "board_side", f"no spaces for the {side} side")
        if len(on_side) > MAX_SPACES:
            raise DataError(file, on_side[MAX_SPACES].line, "board_side",
                            f"{len(on_side)} spaces on the {side} side; at most {MAX_SPACES}")
        for area in TIMER_NAMES:
            counts = []
            for rname in ("top", "bottom"):
                cell = [s for s in on_side if s.area == area and s.row == rname]
                if not cell:
                    raise DataError(file, None, "row", f"the {side} side has no {area} {rname} row")
                positions = sorted(s.pos_lr for s in cell)
                if positions != list(range(len(cell))):
                    raise DataError(file, cell[-1].line, "pos_lr", f"positions of the {side} {area} {rname} row are "
                                    f"{positions}, not 0..{len(cell) - 1}")
                counts.append(len(cell))
                if side == "1-3p" and area != "black":
                    sizes = sorted(s.automa_space_size or "" for s in cell)
                    if sizes != ["large", "small"]:
                        raise DataError(file, cell[-1].line, "automa_space_size", f"the 1-3p {area} {rname} row needs "
                                        f"one large and one small space (found {', '.join(sizes)})")
            if counts[0] != counts[1]:
                raise DataError(file, None, "row", f"the {side} {area} rows have {counts[0]} and {counts[1]} spaces")


def _check_neutral(file: str, spaces: list[Space], config: Config) -> None:
    by_id = {s.space_id: s for s in spaces}
    for sid in config.neutral_spaces:
        s = by_id.get(sid)
        if s is None:
            raise DataError(config.path, None, "base.two_player.neutral_worker_spaces",
                            f"'{sid}' is not a space_id of {file}")
        if s.board_side != "1-3p" or s.area == "black" or s.frame != "single":
            raise DataError(config.path, None, "base.two_player.neutral_worker_spaces",
                            f"'{sid}' is not a single green/purple space of the 1-3p side")
    for s in spaces:
        if s.neutral_2p != (s.space_id in config.neutral_spaces):
            raise DataError(file, s.line, "neutral_2p", f"'{s.space_id}' {'is' if s.neutral_2p else 'is not'} marked "
                            "for the 2-player neutral, unlike config.toml base.two_player.neutral_worker_spaces")


# ---------------------------------------------------------------- characters.csv, stratagems.csv

CHAR_COLUMNS = ("character", "persona", "side", "longest_track", *(f"start_{k}" for k in TRACK_NAMES),
                *(f"steps_{k}" for k in TRACK_NAMES), "start_military", "start_culture", "start_gold", "start_votes",
                *(f"prod_{m}" for m in SLOT_NAMES), "source")


def load_characters(path: Path, config: Config) -> list[Character]:
    """Read ``characters.csv``: every character has one basic and one advanced persona; start
    offset + steps to the parchment = config.toml base.track.parchment_first on every track."""
    file = str(path)
    chars: list[Character] = []
    seen: dict[tuple[str, str], int] = {}
    sides: dict[tuple[str, str], int] = {}
    for line, row in _rows(path, CHAR_COLUMNS):
        name = _text(file, line, row, "character")
        persona = _text(file, line, row, "persona")
        if (name, persona) in seen:
            raise DataError(file, line, "persona", f"'{name}, {persona}' repeats line {seen[name, persona]}")
        seen[name, persona] = line
        side = _enum(file, line, row, "side", CHAR_SIDES) or ""
        if (name, side) in sides:
            raise DataError(file, line, "side", f"{name} already has a {side} persona (line {sides[name, side]})")
        sides[name, side] = line
        longest = _enum(file, line, row, "longest_track", LONGEST) or ""
        starts = tuple(_int(file, line, row, f"start_{k}", config.track_first, config.parchment_first - 1)
                       for k in TRACK_NAMES)
        steps = []
        for k, st in zip(TRACK_NAMES, starts, strict=True):
            n = _int(file, line, row, f"steps_{k}", 1, config.track_last)
            if st + n != config.parchment_first:
                raise DataError(file, line, f"steps_{k}", f"start {st} + steps {n} = {st + n}, but the parchment "
                                f"starts at {config.parchment_first}")
            steps.append(n)
        res = tuple(_int(file, line, row, f"start_{r}", 0, config.resource_cap)
                    for r in ("military", "culture", "gold"))
        votes = _int(file, line, row, "start_votes", 0, 99)
        prod = tuple(_effect(file, line, row, f"prod_{m}") for m in SLOT_NAMES)
        for m, e in zip(SLOT_NAMES, prod, strict=True):
            if len(e.alts) != 1:
                raise DataError(file, line, f"prod_{m}", f"a production slot cannot have alternatives ('{e.text}')")
            if e.has(EF_PROD):
                raise DataError(file, line, f"prod_{m}", f"a production slot cannot produce a slot ('{e.text}')")
        chars.append(Character(name, persona, side, longest, starts, tuple(steps), res, votes, prod,  # type: ignore[arg-type]
                               _source(file, line, row), row.get("notes", ""), line))
    for (name, side), line in sides.items():
        other = "advanced" if side == "basic" else "basic"
        if (name, other) not in sides:
            raise DataError(file, line, "side", f"{name} has no {other} persona")
    if not chars:
        raise DataError(file, None, None, "no characters")
    if len(chars) > 10:
        raise DataError(file, chars[10].line, "character", f"{len(chars)} personas; at most 10")
    return chars


STRAT_COLUMNS = ("character", "persona", "card_no", "cost", "cost_text", "effect", "effect_text", "source")


def load_stratagems(path: Path, config: Config, chars: list[Character]) -> list[Stratagem]:
    """Read ``stratagems.csv``: every persona of characters.csv has its cards 1..N in one block."""
    file = str(path)
    personas = {(c.character, c.persona) for c in chars}
    strats: list[Stratagem] = []
    blocks: dict[tuple[str, str], list[Stratagem]] = {}
    last_key: tuple[str, str] | None = None
    for line, row in _rows(path, STRAT_COLUMNS):
        key = (_text(file, line, row, "character"), _text(file, line, row, "persona"))
        if key not in personas:
            raise DataError(file, line, "persona", f"'{key[0]}, {key[1]}' is not a persona of characters.csv")
        if key != last_key and key in blocks:
            raise DataError(file, line, "persona", f"the cards of '{key[0]}, {key[1]}' must be consecutive rows")
        last_key = key
        block = blocks.setdefault(key, [])
        no = _int(file, line, row, "card_no", 1, config.strats_per_character)
        if no != len(block) + 1:
            raise DataError(file, line, "card_no", f"{no}, expected {len(block) + 1} (cards numbered 1..N in order)")
        cost = _effect(file, line, row, "cost")
        if len(cost.alts) != 1:
            raise DataError(file, line, "cost", f"a cost cannot have alternatives ('{cost.text}')")
        effect = _effect(file, line, row, "effect")
        if effect.is_none:
            raise DataError(file, line, "effect", "a stratagem needs an effect")
        if len(effect.alts) > 1 and not effect.choice:
            raise DataError(file, line, "effect", f"write alternatives as 'choice:a|b' ('{effect.text}')")
        s = Stratagem(key[0], key[1], no, cost, row["cost_text"], effect, row["effect_text"],
                      _source(file, line, row), row.get("notes", ""), line)
        block.append(s)
        strats.append(s)
    for c in chars:
        n = len(blocks.get((c.character, c.persona), []))
        if n != config.strats_per_character:
            raise DataError(file, None, "persona", f"'{c.name}' has {n} stratagems; config.toml "
                            f"base.stratagems_per_character says {config.strats_per_character}")
    return strats


# ---------------------------------------------------------------- council_rewards.csv

COUNCIL_COLUMNS = ("card_id", "deck", "kind", "cost", "cost_text", "effect", "effect_text", "source")


def _council_deck_kind(card_id: str) -> tuple[str, tuple[str, ...]]:
    if card_id.isdigit():
        return "standard", ("immediate", "stratagem", "permanent")
    if card_id.startswith("F"):
        return "final", ("final",)
    return "fixed", (card_id.lower(),)


def load_council(path: Path, config: Config) -> list[CouncilCard]:
    """Read ``council_rewards.csv``: exactly the cards 1..25, F1..F5, GRANDE and DEFAULT, each
    with the deck and kind its id implies; returned in ``COUNCIL_IDS`` order."""
    file = str(path)
    cards: dict[str, CouncilCard] = {}
    for line, row in _rows(path, COUNCIL_COLUMNS):
        cid = _text(file, line, row, "card_id")
        if cid not in COUNCIL_IDS:
            raise DataError(file, line, "card_id", f"'{cid}' is not a council card id (1..25, F1..F5, GRANDE, DEFAULT)")
        if cid in cards:
            raise DataError(file, line, "card_id", f"'{cid}' repeats line {cards[cid].line}")
        deck = _enum(file, line, row, "deck", COUNCIL_DECKS) or ""
        want_deck, kinds = _council_deck_kind(cid)
        if deck != want_deck:
            raise DataError(file, line, "deck", f"'{deck}': card {cid} belongs to the {want_deck} deck")
        kind = _enum(file, line, row, "kind", COUNCIL_KINDS) or ""
        if kind not in kinds:
            raise DataError(file, line, "kind", f"'{kind}' is not allowed for card {cid} (allowed: {', '.join(kinds)})")
        cost = _effect(file, line, row, "cost")
        if len(cost.alts) != 1:
            raise DataError(file, line, "cost", f"a cost cannot have alternatives ('{cost.text}')")
        effect = _effect(file, line, row, "effect")
        if effect.is_none:
            raise DataError(file, line, "effect", "a council card needs an effect")
        if kind == "grande" and effect.alts[0][EF_SPECIAL] != SPECIAL_NAMES.index("grande"):
            raise DataError(file, line, "effect", f"'{effect.text}': the grande card's effect is special:grande")
        cards[cid] = CouncilCard(cid, deck, kind, cost, row["cost_text"], effect, row["effect_text"],
                                 _source(file, line, row), row.get("notes", ""), line)
    missing = [c for c in COUNCIL_IDS if c not in cards]
    if missing:
        raise DataError(file, None, "card_id", f"missing council cards: {', '.join(missing)}")
    for cid in ("F1", "F2", "F3", "F4"):
        if _final_track(cards[cid]) is None:
            raise DataError(file, cards[cid].line, "effect", f"'{cards[cid].effect.text}': final card {cid} must give "
                            "VP on one track or on all three")
    if not cards["F5"].effect.has(EF_LEGENDARY):
        raise DataError(file, cards["F5"].line, "effect", f"'{cards['F5'].effect.text}': F5 is the legendary card")
    return [cards[c] for c in COUNCIL_IDS]


def _final_track(card: CouncilCard) -> int | None:
    """The track a final card serves (0..2, 3 for all three), None if it gives no track VP."""
    if len(card.effect.alts) != 1:
        return None
    vec = card.effect.alts[0]
    tracks = [k for k in range(3) if vec[EF_VP_POW + k]]
    if len(tracks) == 3:
        return 3
    if len(tracks) == 1:
        return tracks[0]
    return None


def final_track(card: CouncilCard) -> int:
    """``CO_TRACK`` of a council card: the track of F2/F3/F4, 3 for F1 (all tracks), -1 otherwise."""
    if card.kind != "final":
        return -1
    k = _final_track(card)
    return -1 if k is None else k


# ---------------------------------------------------------------- achievements.csv, provinces.csv

ACH_COLUMNS = ("card_id", "requirement", "ribbon_reward", "ribbon_text", "source")
PROV_COLUMNS = ("card_no", "kind", *(f"yield_{m}" for m in SLOT_NAMES), "source")


def load_achievements(path: Path) -> list[Achievement]:
    """Read ``achievements.csv`` (ids unique, requirements without alternatives, at most 16 cards)."""
    file = str(path)
    out: list[Achievement] = []
    seen: dict[int, int] = {}
    for line, row in _rows(path, ACH_COLUMNS):
        cid = _int(file, line, row, "card_id", 1, 99)
        if cid in seen:
            raise DataError(file, line, "card_id", f"{cid} repeats line {seen[cid]}")
        seen[cid] = line
        req = _effect(file, line, row, "requirement")
        if len(req.alts) != 1:
            raise DataError(file, line, "requirement", f"a requirement cannot have alternatives ('{req.text}')")
        ribbon = _effect(file, line, row, "ribbon_reward")
        if ribbon.is_none:
            raise DataError(file, line, "ribbon_reward", "an achievement needs a ribbon reward")
        out.append(Achievement(cid, req, ribbon, row["ribbon_text"], _source(file, line, row), row.get("notes", ""),
                               line))
    if not 2 <= len(out) <= 16:
        raise DataError(file, None, "card_id", f"{len(out)} achievements; 2..16 are supported")
    return out


def load_provinces(path: Path, config: Config) -> list[Province]:
    """Read ``provinces.csv``: one production edge per mat slot colour, no alternatives, at most 64 cards."""
    file = str(path)
    out: list[Province] = []
    seen: dict[int, int] = {}
    for line, row in _rows(path, PROV_COLUMNS):
        no = _int(file, line, row, "card_no", 1, 999)
        if no in seen:
            raise DataError(file, line, "card_no", f"{no} repeats line {seen[no]}")
        seen[no] = line
        kind = _text(file, line, row, "kind")
        yields = tuple(_effect(file, line, row, f"yield_{m}") for m in SLOT_NAMES)
        for m, e in zip(SLOT_NAMES, yields, strict=True):
            if len(e.alts) != 1:
                raise DataError(file, line, f"yield_{m}", f"a province edge cannot have alternatives ('{e.text}')")
            if e.has(EF_PROD):
                raise DataError(file, line, f"yield_{m}", f"a province edge cannot produce a slot ('{e.text}')")
        out.append(Province(no, kind, yields, _source(file, line, row), row.get("notes", ""), line))  # type: ignore[arg-type]
    if not config.display_size <= len(out) <= 64:
        raise DataError(file, None, "card_no", f"{len(out)} provinces; {config.display_size}..64 are supported")
    return out


# ---------------------------------------------------------------- timer_schedule.csv

SCHED_COLUMNS = ("step", "virtual_time_s", "due_timers", "purple_flip_no", "source")


def load_schedule(path: Path, config: Config) -> list[ScheduleStep]:
    """Read ``timer_schedule.csv`` and check it against the sand durations: step 0 flips all three
    timers at 0 s; every later step lies at the next run-out, lists exactly the timers that run out
    then, and counts purple flips; the last step's purple flip knocks the last time marker."""
    file = str(path)
    steps: list[ScheduleStep] = []
    for line, row in _rows(path, SCHED_COLUMNS):
        k = _int(file, line, row, "step", 0, 11)
        if k != len(steps):
            raise DataError(file, line, "step", f"{k}, expected {len(steps)} (steps numbered from 0 in order)")
        time_s = _int(file, line, row, "virtual_time_s", 0, 100000)
        due = tuple(x.strip() for x in row["due_timers"].split(";") if x.strip())
        if not due:
            raise DataError(file, line, "due_timers", "value is empty")
        for t in due:
            if t not in TIMER_NAMES:
                raise DataError(file, line, "due_timers", f"'{t}' is not a timer (allowed: {', '.join(TIMER_NAMES)})")
        if len(set(due)) != len(due):
            raise DataError(file, line, "due_timers", f"'{row['due_timers']}' names a timer twice")
        pno = int_field(file, line, row, "purple_flip_no", 1, 9, optional=True) or 0
        steps.append(ScheduleStep(k, time_s, due, pno, row.get("notes", ""), _source(file, line, row), line))
    if not steps:
        raise DataError(file, None, "step", "no steps")
    runs_out = [0, 0, 0]
    flips = 0
    for i, st in enumerate(steps):
        if i == 0:
            expect_time, expect_due = 0, set(TIMER_NAMES)
        else:
            expect_time = min(runs_out)
            expect_due = {TIMER_NAMES[t] for t in range(3) if runs_out[t] == expect_time}
        if st.time_s != expect_time:
            raise DataError(file, st.line, "virtual_time_s", f"{st.time_s}, but the next sand runs out at "
                            f"{expect_time} s (timers {', '.join(map(str, config.timer_seconds))} s)")
        if set(st.due) != expect_due:
            raise DataError(file, st.line, "due_timers", f"'{';'.join(st.due)}', but at {expect_time} s the timers "
                            f"running out are {';'.join(t for t in TIMER_NAMES if t in expect_due)}")
        for t in st.due:
            ti = TIMER_NAMES.index(t)
            runs_out[ti] = st.time_s + config.timer_seconds[ti]
        if "purple" in st.due:
            flips += 1
            if st.purple_flip_no != flips:
                raise DataError(file, st.line, "purple_flip_no", f"{st.purple_flip_no or 'blank'}, but this is purple "
                                f"flip {flips}")
        elif st.purple_flip_no:
            raise DataError(file, st.line, "purple_flip_no", "must be blank when purple is not due")
    if flips != config.time_markers or "purple" not in steps[-1].due:
        raise DataError(file, steps[-1].line, "purple_flip_no", f"the last step must be purple flip "
                        f"{config.time_markers} (it knocks the last time marker and calls council)")
    if len(steps) > 12:
        raise DataError(file, steps[12].line, "step", f"{len(steps)} steps; at most 12")
    return steps


# ---------------------------------------------------------------- Automa files

ACARD_COLUMNS = ("card_id", "move_area", "flip_combo", "province_discard_slot", "vp", "votes", "reward_symbol",
                 "left_side_text", "source")
LEVEL_COLUMNS = ("level", "level_ru", "name_ru", "name_en", "advanced_rules", "glory_spaces_usable",
                 "recommended_first", "source")
SCORING_COLUMNS = ("level", "round", "vp_bonus", "votes_bonus", "source")
TRACK_COLUMNS = ("space", "row", "col", "kind", "distance_label", "distance_to_parchment", "parchment_index",
                 "glory_index", "advanced_only", "source")
SYMBOL_COLUMNS = ("symbol", "meaning", "matches_council_cards", "source")


def load_symbols(path: Path) -> list[RewardSymbol]:
    """Read ``automa_reward_symbols.csv``: unique symbols whose matches are council card ids."""
    file = str(path)
    out: list[RewardSymbol] = []
    seen: dict[str, int] = {}
    for line, row in _rows(path, SYMBOL_COLUMNS):
        sym = _text(file, line, row, "symbol")
        if sym in seen:
            raise DataError(file, line, "symbol", f"'{sym}' repeats line {seen[sym]}")
        seen[sym] = line
        matches = tuple(x.strip() for x in row["matches_council_cards"].split(";") if x.strip())
        if not matches:
            raise DataError(file, line, "matches_council_cards", "value is empty")
        for cid in matches:
            if cid not in COUNCIL_IDS:
                raise DataError(file, line, "matches_council_cards", f"'{cid}' is not a council card id of "
                                "council_rewards.csv")
        if len(set(matches)) != len(matches):
            raise DataError(file, line, "matches_council_cards", "a card is listed twice")
        out.append(RewardSymbol(sym, row["meaning"], matches, _source(file, line, row), row.get("notes", ""), line))
    if not out or len(out) > 12:
        raise DataError(file, None, "symbol", f"{len(out)} symbols; 1..12 are supported")
    if sum("GRANDE" in s.matches for s in out) > 1:
        raise DataError(file, None, "matches_council_cards", "more than one symbol matches GRANDE")
    return out


def load_automa_cards(path: Path, config: Config, symbols: list[RewardSymbol]) -> list[AutomaCard]:
    """Read ``automa_cards.csv`` (NOTES I.12.3): a province discard only on cards with no move and
    no flip, symbols of automa_reward_symbols.csv, ids unique, as many cards as config.toml says."""
    file = str(path)
    names = tuple(s.symbol for s in symbols)
    out: list[AutomaCard] = []
    seen: dict[int, int] = {}
    for line, row in _rows(path, ACARD_COLUMNS):
        cid = _int(file, line, row, "card_id", 1, 999)
        if cid in seen:
            raise DataError(file, line, "card_id", f"{cid} repeats line {seen[cid]}")
        seen[cid] = line
        move = _enum(file, line, row, "move_area", MOVE_AREAS) or ""
        flip = _enum(file, line, row, "flip_combo", FLIP_NAMES) or ""
        slot = _int(file, line, row, "province_discard_slot", 0, config.display_size)
        if slot and (move != "none" or flip != "none"):
            raise DataError(file, line, "province_discard_slot", f"{slot}: only cards with no move and no flip "
                            "show a province discard")
        vp = _int(file, line, row, "vp", 0, 9)
        votes = _int(file, line, row, "votes", -9, 9)
        sym = _enum(file, line, row, "reward_symbol", names) or ""
        out.append(AutomaCard(cid, move, flip, slot, vp, votes, sym, row["left_side_text"], _source(file, line, row),
                              row.get("notes", ""), line))
    if len(out) != config.automa_cards:
        raise DataError(file, None, "card_id", f"{len(out)} cards; config.toml automa.automa_cards says "
                        f"{config.automa_cards}")
    for area in ("purple", "green"):
        if not any(c.move_area == area for c in out):
            raise DataError(file, None, "move_area", f"no card moves in {area} (the setup reveal needs some)")
    return out


def load_levels(path: Path) -> list[AutomaLevel]:
    """Read ``automa_levels.csv``: exactly the levels A..F, in that order; glory spaces usable iff advanced."""
    file = str(path)
    out: list[AutomaLevel] = []
    for line, row in _rows(path, LEVEL_COLUMNS):
        lvl = _enum(file, line, row, "level", LEVELS) or ""
        if len(out) >= len(LEVELS) or lvl != LEVELS[len(out)]:
            raise DataError(file, line, "level", f"'{lvl}', expected the levels {', '.join(LEVELS)} in order")
        adv = _flag(file, line, row, "advanced_rules", BOOLEANS)
        glory = _flag(file, line, row, "glory_spaces_usable", BOOLEANS)
        if glory != adv:
            raise DataError(file, line, "glory_spaces_usable", "green spaces are usable exactly when the advanced "
                            "rules are")
        out.append(AutomaLevel(lvl, row["level_ru"], row["name_ru"], _text(file, line, row, "name_en"), adv, glory,
                               _flag(file, line, row, "recommended_first", BOOLEANS), _source(file, line, row),
                               row.get("notes", ""), line))
    if len(out) != len(LEVELS):
        raise DataError(file, None, "level", f"{len(out)} levels; expected {', '.join(LEVELS)}")
    return out


def load_scoring(path: Path, config: Config) -> dict[tuple[str, int], tuple[int, int]]:
    """Read ``automa_scoring.csv``: one row per level A..F and round 1..rounds."""
    file = str(path)
    out: dict[tuple[str, int], tuple[int, int]] = {}
    lines: dict[tuple[str, int], int] = {}
    for line, row in _rows(path, SCORING_COLUMNS):
        lvl = _enum(file, line, row, "level", LEVELS) or ""
        rnd = _int(file, line, row, "round", 1, config.rounds)
        if (lvl, rnd) in out:
            raise DataError(file, line, "round", f"level {lvl} round {rnd} repeats line {lines[lvl, rnd]}")
        lines[lvl, rnd] = line
        _source(file, line, row)
        out[lvl, rnd] = (_int(file, line, row, "vp_bonus", -99, 99), _int(file, line, row, "votes_bonus", -99, 99))
    for lvl in LEVELS:
        for rnd in range(1, config.rounds + 1):
            if (lvl, rnd) not in out:
                raise DataError(file, None, "round", f"no row for level {lvl} round {rnd}")
    return out


def load_track(path: Path, config: Config) -> list[TrackSpace]:
    """Read ``automa_track.csv`` and check its geometry: spaces 0..n-1 in rows of equal width, a
    start space, normal spaces, then parchment and glory spaces where config.toml [automa.track]
    puts them; parchment/glory indices count from 1; a label is the negative distance and every
    unlabelled space follows a labelled one; the distance falls by one every label step."""
    file = str(path)
    out: list[TrackSpace] = []
    for line, row in _rows(path, TRACK_COLUMNS):
        sp = _int(file, line, row, "space", 0, 199)
        if sp != len(out):
            raise DataError(file, line, "space", f"{sp}, expected {len(out)} (spaces numbered from 0 in order)")
        r = _int(file, line, row, "row", 1, 99)
        c = _int(file, line, row, "col", 1, 99)
        kind = _enum(file, line, row, "kind", TRACK_KINDS) or ""
        if sp == 0:
            expect = "start"
        elif sp < config.automa_parchment_first:
            expect = "normal"
        elif sp <= config.automa_parchment_last:
            expect = "parchment"
        else:
            expect = "glory"
        if kind != expect:
            raise DataError(file, line, "kind", f"'{kind}', but config.toml [automa.track] makes space {sp} {expect}")
        label = int_field(file, line, row, "distance_label", -99, -1, optional=True)
        dist = _int(file, line, row, "distance_to_parchment", 0, 99)
        pidx = int_field(file, line, row, "parchment_index", 1, 199, optional=True)
        gidx = int_field(file, line, row, "glory_index", 1, 199, optional=True)
        adv = _flag(file, line, row, "advanced_only", BOOLEANS)
        inside = kind in ("parchment", "glory")
        if inside:
            if dist != 0:
                raise DataError(file, line, "distance_to_parchment", f"{dist}, but space {sp} is {kind}")
            if label is not None:
                raise DataError(file, line, "distance_label", f"must be blank on a {kind} space")
        else:
            if dist < 1:
                raise DataError(file, line, "distance_to_parchment", f"{dist}: space {sp} is outside the parchment")
            if label is not None and -label != dist:
                raise DataError(file, line, "distance_label", f"{label}, but distance_to_parchment is {dist}")
            expect_dist = -(-(config.automa_parchment_first - sp) // config.automa_label_step)
            if sp > 0 and dist != expect_dist:
                raise DataError(file, line, "distance_to_parchment", f"{dist}, expected {expect_dist} "
                                f"(ceil((parchment_first - space) / distance_label_step))")
        want_p = sp - config.automa_parchment_first + 1 if kind == "parchment" else None
        if pidx != want_p:
            raise DataError(file, line, "parchment_index", f"{pidx if pidx is not None else 'blank'}, expected "
                            f"{want_p if want_p is not None else 'blank'}")
        want_g = sp - config.automa_glory_first + 1 if kind == "glory" else None
        if gidx != want_g:
            raise DataError(file, line, "glory_index", f"{gidx if gidx is not None else 'blank'}, expected "
                            f"{want_g if want_g is not None else 'blank'}")
        if adv != (kind == "glory"):
            raise DataError(file, line, "advanced_only", "true exactly on glory spaces")
        out.append(TrackSpace(sp, r, c, kind, label, dist, pidx, gidx, adv, _source(file, line, row),
                              row.get("notes", ""), line))
    if len(out) != config.automa_track_spaces:
        raise DataError(file, None, "space", f"{len(out)} spaces; config.toml automa.track.spaces says "
                        f"{config.automa_track_spaces}")
    if len(out) > 80:
        raise DataError(file, out[80].line, "space", f"{len(out)} spaces; at most 80")
    if out[0].distance_label is None:
        raise DataError(file, out[0].line, "distance_label", "the start space needs a printed distance")
    for prev, cur in pairwise(out):
        if cur.kind == "normal" and cur.distance_label is None and prev.distance_label is None:
            raise DataError(file, cur.line, "distance_label", f"spaces {prev.space} and {cur.space} are both "
                            "unlabelled (a distance is read from the space reached or the one before)")
    width = sum(1 for s in out if s.row == 1)
    for s in out:
        if (s.row - 1) * width + (s.col - 1) != s.space:
            raise DataError(file, s.line, "col", f"row {s.row} col {s.col} is not space {s.space} in rows of {width}")
    return out


# ---------------------------------------------------------------- options.toml


def parse_order(value: str, names: tuple[str, ...]) -> tuple[str, ...] | None:
    """A comma-separated permutation of ``names`` as a tuple (None if it is not one)."""
    if not isinstance(value, str):
        return None
    parts = tuple(p.strip() for p in value.split(","))
    return parts if sorted(parts) == sorted(names) else None


def _check_options(file: str, options: dict[str, Option]) -> None:
    for name in REQUIRED_OPTIONS:
        if name not in options:
            raise DataError(file, None, f"options.{name}", "option is missing")
    for name, choices in OPTION_CHOICES.items():
        for value in options[name].allowed:
            if value not in choices or type(value) is not type(choices[0]):
                raise DataError(file, None, f"options.{name}", f"{value!r} is not supported (supported: "
                                f"{', '.join(repr(c) for c in choices)})")
    for name, names in ORDER_OPTIONS.items():
        for value in options[name].allowed:
            if parse_order(value, names) is None:
                raise DataError(file, None, f"options.{name}", f"{value!r} is not an order of {', '.join(names)}")
    for value in options["final_council_preference"].allowed:
        parts = tuple(p.strip() for p in value.split(",")) if isinstance(value, str) else ()
        if not parts or any(p not in FINAL_PREF_NAMES for p in parts) or len(set(parts)) != len(parts) \
                or len(parts) != len(FINAL_PREF_NAMES):
            raise DataError(file, None, "options.final_council_preference",
                            f"{value!r} is not an order of {', '.join(FINAL_PREF_NAMES)}")
    for name, (lo, hi) in NUMERIC_OPTIONS.items():
        for value in options[name].allowed:
            if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
                raise DataError(file, None, f"options.{name}", f"{value!r} is not a number in {lo}..{hi}")
    for value in options["warmonger_blue_production"].allowed:
        if not isinstance(value, str):
            raise DataError(file, None, "options.warmonger_blue_production", f"{value!r} is not token text")
        e = parse_effect(value, file, None, "options.warmonger_blue_production")
        if len(e.alts) != 1 or e.has(EF_PROD):
            raise DataError(file, None, "options.warmonger_blue_production",
                            f"'{value}' must be one production yield without alternatives")


def warmonger_row(data: PendulumData) -> int:
    """The row of Bolk the Warmonger (the persona option ``warmonger_blue_production`` changes)."""
    for i, c in enumerate(data.characters):
        if c.persona == "The Warmonger":
            return i
    return -1


# ---------------------------------------------------------------- cross references


def _check_cross(paths: dict[str, Path], data: PendulumData) -> None:
    cfg = data.config
    cfile = str(paths["config"])
    for slot in cfg.reading_order:
        if slot not in COUNCIL_SLOT_NAMES:
            raise DataError(cfile, None, "base.council_board.reading_order", f"'{slot}' is not a council slot")
    if len(cfg.priv_bonus_small) > 3 or len(cfg.priv_bonus_large) > 5:
        raise DataError(cfile, None, "base.privilege_bonus_vp_4_or_more_players", "too many ranks")
    if cfg.prov_limit_max3 < cfg.prov_limit:
        raise DataError(cfile, None, "base.province_limit_with_max3", f"{cfg.prov_limit_max3} is below "
                        f"province_limit_per_slot {cfg.prov_limit}")
    if cfg.council_removed + cfg.council_offered * (cfg.rounds - 1) > cfg.council_standard:
        raise DataError(cfile, None, "base.council_standard_cards_removed_at_setup",
                        f"{cfg.council_removed} removed leaves too few cards for {cfg.rounds - 1} offers of "
                        f"{cfg.council_offered}")
    if len(data.provinces) < cfg.display_size * (cfg.rounds + 1):
        raise DataError(str(paths["provinces"]), None, "card_no", f"{len(data.provinces)} provinces are too few "
                        f"for {cfg.rounds} rounds of {cfg.display_size}")
    # Warmonger
    if warmonger_row(data) < 0:
        raise DataError(str(paths["characters"]), None, "persona", "no persona 'The Warmonger' (option "
                        "warmonger_blue_production changes its blue production)")
    # the recommended level
    if sum(lv.recommended_first for lv in data.levels) != 1:
        raise DataError(str(paths["automa_levels"]), None, "recommended_first", "exactly one level is recommended")
    # card 6 (option council_card_6_kind)
    if data.council[5].kind not in ("stratagem", "immediate"):
        raise DataError(str(paths["council_rewards"]), data.council[5].line, "kind",
                        f"'{data.council[5].kind}': card 6 is a stratagem or immediate (option council_card_6_kind)")
    if len(data.stratagems) + sum(c.kind == "stratagem" or c.card_id == "6" for c in data.council) > 72:
        raise DataError(str(paths["stratagems"]), None, "card_no", "more than 72 stratagems in all")
    # the Automa setup reveal needs a large/small space in each top row (checked in spaces); symbols vs council
    council_ids = {c.card_id for c in data.council}
    for s in data.symbols:
        for cid in s.matches:
            if cid not in council_ids:
                raise DataError(str(paths["automa_reward_symbols"]), s.line, "matches_council_cards",
                                f"'{cid}' is not in council_rewards.csv")
            if cid.startswith("F") or cid == "DEFAULT":
                raise DataError(str(paths["automa_reward_symbols"]), s.line, "matches_council_cards",
                                f"'{cid}': final cards and the default card carry no Automa symbol")
    # effect table size
    texts = {"none"}
    for sp in data.spaces:
        texts.update(sp.rewards.alt_texts if sp.frame == "double" else (sp.rewards.text,))
        texts.add(sp.cost.text)
    for ch in data.characters:
        texts.update(e.text for e in ch.prod)
    for st in data.stratagems:
        texts.update((st.cost.text, st.effect.text))
    for c in data.council:
        texts.update((c.cost.text, c.effect.text))
    for a in data.achievements:
        texts.update((a.requirement.text, a.ribbon.text))
    for p in data.provinces:
        texts.update(e.text for e in p.yields)
    texts.update(str(v) for v in data.options["warmonger_blue_production"].allowed)
    if len(texts) > MAX_EFFECTS:
        raise DataError(str(paths["action_spaces"]), None, None, f"{len(texts)} distinct effects; at most "
                        f"{MAX_EFFECTS}")


# ---------------------------------------------------------------- entry point


def load_data(data_dir: str | Path | None = None, **files: str | Path) -> PendulumData:
    """Load and validate a data set.

    ``data_dir`` holds the files (the bundled ``data/`` by default); any file can be replaced by
    passing its stem as a keyword, e.g. ``load_data(automa_cards="my_cards.csv")``.
    """
    paths = data_file_paths(DATA_DIR, FILE_NAMES, data_dir, files)
    config = load_config(paths["config"])
    options = load_options(paths["options"])
    _check_options(str(paths["options"]), options)
    spaces = load_spaces(paths["action_spaces"], config)
    chars = load_characters(paths["characters"], config)
    strats = load_stratagems(paths["stratagems"], config, chars)
    council = load_council(paths["council_rewards"], config)
    achievements = load_achievements(paths["achievements"])
    provinces = load_provinces(paths["provinces"], config)
    schedule = load_schedule(paths["timer_schedule"], config)
    symbols = load_symbols(paths["automa_reward_symbols"])
    acards = load_automa_cards(paths["automa_cards"], config, symbols)
    levels = load_levels(paths["automa_levels"])
    scoring = load_scoring(paths["automa_scoring"], config)
    track = load_track(paths["automa_track"], config)
    data = PendulumData(config, spaces, chars, strats, council, achievements, provinces, schedule, acards, levels,
                        scoring, track, symbols, options, {k: str(v) for k, v in paths.items()})
    _check_cross(paths, data)
    return data


__all__ = ["COUNCIL_IDS", "DATA_DIR", "FILES", "FILE_NAMES", "Effect", "PendulumData", "load_data", "parse_effect"]
