"""Checking a Pendulum data set as a whole: ``options.toml`` (every open point of NOTES Part II) and the
references between files (a stratagem's persona, a level's scoring rows, the Automa track's labels...).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simlab.core.errors import DataError
from simlab.core.options import Option
from simlab.games.pendulum.codes import (
    COUNCIL_SLOT_NAMES,
    FINAL_PREF_NAMES,
    TIMER_NAMES,
    TRACK_NAMES,
)
from simlab.games.pendulum.data_grammar import (
    parse_effect,
)
from simlab.games.pendulum.data_records import (
    PendulumData,
)
from simlab.games.pendulum.tables import (
    EF_PROD,
    LEVELS,
    MAX_EFFECTS,
)

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
