"""Pendulum's data records: one frozen dataclass per row kind, and :class:`PendulumData`, the loaded set.

The loaders (``data_board``, ``data_cards``, ``data_automa``) fill them; ``ruleset.build_ruleset`` turns them
into the kernels' tables. The ``source`` and ``notes`` columns are kept on every record (reconstructed rows are
data, never code).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simlab.core.options import Option
from simlab.games.pendulum.data_grammar import (
    Effect,
)

#: the files of a data set (their stems: ``PendulumData.files`` keys, ``load_data`` keywords).
CSV_FILES = ("action_spaces", "characters", "stratagems", "council_rewards", "achievements", "provinces",
             "timer_schedule", "automa_cards", "automa_levels", "automa_scoring", "automa_track",
             "automa_reward_symbols")
FILES = (*CSV_FILES, "config", "options")
FILE_NAMES = {stem: f"{stem}.toml" if stem in ("config", "options") else f"{stem}.csv" for stem in FILES}



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
