"""A Pendulum ruleset: the data, the resolved options and the one tables record every kernel reads.

Kernels take the ruleset's arrays in this order (``RULE_ARGS``):

    tables   TABLES_DTYPE, shape (1,)   everything (``tables.py`` documents every column); kernels
                                        read ``t = tables[0]``

The ruleset is built per player count: ``t.sp`` holds the board side in play only (1-3p for 1-3
players, solo included; 4-5p for 4-5), with ``pos_lr`` after ``mirror_rows``; the 2-player neutral
spaces are marked only for 2 players; ``priv_bonus`` is the council bonus by rank for the count
(the Automas' 2/1/0 bonus is applied by ``automa.py``). Effects are interned by their token text:
effect 0 is ``none``; the two rewards of a double frame are separate effects (``SP_REWARD0/1``).
The stratagem table lists the persona cards (stratagems.csv order) and then one row per council
card played as a stratagem (kind ``stratagem``, and card 6 when ``council_card_6_kind = stratagem``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from simlab.core.errors import OptionError
from simlab.core.options import resolve_options
from simlab.games.pendulum import codes, tables
from simlab.games.pendulum.data import (
    COUNCIL_IDS,
    Effect,
    PendulumData,
    final_track,
    parse_effect,
    parse_order,
    warmonger_row,
)

RULE_ARGS = ("tables",)

BOARD_SIDE_SMALL, BOARD_SIDE_LARGE = "1-3p", "4-5p"
WORKER_ACTION_SPECIALS = (tables.SP_FREE_ACTION, tables.SP_ADJACENT, tables.SP_DOUBLE)
PLACE_NAMES = {codes.W_MAT: "mat", codes.W_RESERVE: "reserve", codes.W_GONE: "gone"}


@dataclass
class PendulumRules:
    """A ruleset for one player count: data, resolved options and the kernels' tables record."""

    n_players: int
    data: PendulumData
    options: dict[str, Any]
    tables: np.ndarray
    effect_texts: tuple[str, ...] = ()  # effect index -> token text
    space_ids: tuple[str, ...] = ()  # space index -> action_spaces.csv space_id (board side in play)
    strat_rows: tuple[tuple[int, int], ...] = ()  # stratagem index -> (kind 0 persona / 1 council, record index)

    @property
    def args(self) -> tuple[np.ndarray, ...]:
        """The kernel arguments, in ``RULE_ARGS`` order."""
        return (self.tables,)

    @property
    def t(self) -> Any:
        """The tables record (``tables[0]``)."""
        return self.tables[0]

    @property
    def board_side(self) -> str:
        """The board side in play (``1-3p`` or ``4-5p``)."""
        return board_side(self.n_players)

    @property
    def n_spaces(self) -> int:
        """Action spaces of the board side in play."""
        return len(self.space_ids)

    # ---- names of indices (trace, renderer)
    def space_id(self, d: int) -> str:
        """The space id of space index ``d`` (``1-3p:green:top:1``); ``mat``/``reserve``/``gone`` for
        the worker places W_MAT, W_RESERVE, W_GONE (and DEST_MAT)."""
        d = int(d)
        if d == codes.DEST_MAT:
            return "mat"
        if d in PLACE_NAMES:
            return PLACE_NAMES[d]
        return self.space_ids[d]

    def space_index(self, space_id: str) -> int:
        """The space index of a space id of the board side in play (ValueError otherwise)."""
        try:
            return self.space_ids.index(space_id)
        except ValueError:
            raise ValueError(f"'{space_id}' is not a space of the {self.board_side} side") from None

    def space(self, d: int) -> Any:
        """The :class:`~simlab.games.pendulum.data_records.Space` record of space index ``d``."""
        return next(s for s in self.data.spaces if s.space_id == self.space_ids[int(d)])

    def council_id(self, c: int) -> str:
        """The card id of council index ``c`` (``"7"``, ``"F3"``, ``"GRANDE"``, ``"DEFAULT"``)."""
        return COUNCIL_IDS[int(c)]

    def council_index(self, card_id: str | int) -> int:
        """The council index of a card id (ValueError for an unknown id)."""
        try:
            return COUNCIL_IDS.index(str(card_id))
        except ValueError:
            raise ValueError(f"'{card_id}' is not a council card id") from None

    def strat_name(self, i: int) -> str:
        """A stratagem's name: ``Bolk, The Champion #1`` (persona card) or ``council 11``."""
        kind, j = self.strat_rows[int(i)]
        if kind == 0:
            st = self.data.stratagems[j]
            return f"{st.character}, {st.persona} #{st.card_no}"
        return f"council {COUNCIL_IDS[j]}"

    def strat_index(self, name: str) -> int:
        """The stratagem index of a :meth:`strat_name` (ValueError otherwise)."""
        for i in range(len(self.strat_rows)):
            if self.strat_name(i) == name:
                return i
        raise ValueError(f"'{name}' is not a stratagem of this ruleset")

    def character_name(self, row: int) -> str:
        """``Bolk, The Champion`` for a characters.csv row."""
        return self.data.characters[int(row)].name

    def character_row(self, name: str) -> int:
        """The characters.csv row of ``Character, Persona`` (ValueError otherwise)."""
        for i, c in enumerate(self.data.characters):
            if c.name == name:
                return i
        raise ValueError(f"'{name}' is not a persona")

    def effect_text(self, e: int) -> str:
        """The token text of effect ``e`` (``none`` for 0)."""
        return self.effect_texts[int(e)]

    def effect_index(self, text: str) -> int:
        """The effect index of a token text that occurs in the data (ValueError otherwise)."""
        try:
            return self.effect_texts.index(text.strip())
        except ValueError:
            raise ValueError(f"'{text}' is not an effect of this ruleset") from None

    def acard_id(self, i: int) -> int:
        """The card id of Automa card index ``i``."""
        return self.data.automa_cards[int(i)].card_id

    def acard_index(self, card_id: int) -> int:
        """The Automa card index of a card id (ValueError otherwise)."""
        for i, c in enumerate(self.data.automa_cards):
            if c.card_id == int(card_id):
                return i
        raise ValueError(f"{card_id} is not an Automa card id")

    def province_id(self, i: int) -> int:
        """The card number of province index ``i``."""
        return self.data.provinces[int(i)].card_no

    def achievement_id(self, i: int) -> int:
        """The card id of achievement index ``i``."""
        return self.data.achievements[int(i)].card_id

    def symbol_name(self, i: int) -> str:
        """The Automa reward symbol of symbol index ``i``."""
        return self.data.symbols[int(i)].symbol

    def level_letter(self) -> str:
        """The Automa level of this ruleset (``A``..``F``)."""
        return str(self.options["automa_level"])


def board_side(n_players: int) -> str:
    """The board side for a player count (solo plays the 1-3p side)."""
    return BOARD_SIDE_SMALL if n_players <= 3 else BOARD_SIDE_LARGE


class _Effects:
    """Effect interning: token text -> index into ``t.eff`` (0 = none)."""

    def __init__(self) -> None:
        self.texts: list[str] = ["none"]
        self.vectors: list[tuple[tuple[int, ...], ...]] = [((0,) * tables.EF_FIELDS,)]
        self.index: dict[str, int] = {"none": 0}

    def add(self, e: Effect) -> int:
        if e.text in self.index:
            return self.index[e.text]
        if len(self.texts) >= tables.MAX_EFFECTS:
            raise OptionError(f"more than {tables.MAX_EFFECTS} distinct effects")
        self.index[e.text] = len(self.texts)
        self.texts.append(e.text)
        self.vectors.append(e.alts)
        return self.index[e.text]


def needs_code(e: Effect) -> int:
    """``ST_NEEDS`` of a stratagem effect: a retrievable worker, a recruit, a worker action, or nothing."""
    v = e.alts[0]
    if any(a[tables.EF_RETRIEVE] for a in e.alts):
        return tables.NEED_RETRIEVABLE
    if any(a[tables.EF_RECRUIT] for a in e.alts):
        return tables.NEED_RECRUIT
    if v[tables.EF_SPECIAL] in WORKER_ACTION_SPECIALS:
        return tables.NEED_WORKER_ACTION
    return tables.NEED_NONE


def option_array(n_players: int, data: PendulumData, options: dict[str, Any]) -> np.ndarray:
    """The ``opts`` array (codes.OPT_*) from resolved options and config.toml numbers."""
    cfg = data.config
    o = np.zeros(codes.N_OPTS, dtype=np.int64)
    level = tables.LEVELS.index(options["automa_level"])
    solo = n_players == 1
    o[codes.OPT_TIME_MODEL] = codes.TIME_MODELS.index(options["time_model"])
    o[codes.OPT_AUTO_FLIP_AS_HUMAN] = int(bool(options["auto_flips_count_as_human_flips"]))
    o[codes.OPT_DELAYED_FLIPS] = int(bool(options["allow_delayed_flips"]))
    o[codes.OPT_LEVEL] = level
    o[codes.OPT_OMEN] = int(bool(options["omen_variant"]))
    o[codes.OPT_SETUP_SAME_CARD] = int(options["setup_reveal"] == "same_card")
    o[codes.OPT_MIRROR_ROWS] = int(bool(options["mirror_rows"]))
    o[codes.OPT_FLIP_AFTER_COUNCIL] = 0  # "ignore" is the only supported value
    o[codes.OPT_RECHOOSE] = int(bool(options["human_rechooses_destination"]))
    tracks = parse_order(options["track_order_on_mat"], codes.TRACK_NAMES)
    assert tracks is not None
    for i, k in enumerate(tracks):
        o[codes.OPT_TRACK_ORDER0 + i] = codes.TRACK_NAMES.index(k)
    o[codes.OPT_PARCHMENT_BEYOND_ENTRY] = int(options["parchment_counting"] == "beyond_entry")
    o[codes.OPT_OUTSIDE_PRIVILEGE_ONLY] = int(options["outside_parchment_tiebreak"] == "privilege_only")
    o[codes.OPT_CARD6_IMMEDIATE] = int(options["council_card_6_kind"] == "immediate")
    o[codes.OPT_WARMONGER_CONVERT] = int(options["warmonger_exchange"] == "convert_any_1to1")
    # effective: solo levels D-F impose the advanced variant on the human
    o[codes.OPT_ADVANCED] = int(options["advanced_variant"] == "all" or (solo and data.levels[level].advanced_rules))
    o[codes.OPT_CHARACTER_SIDE] = ("basic", "advanced", "random").index(options["character_side"])
    o[codes.OPT_SOLO] = int(solo)
    o[codes.OPT_ROUNDS] = cfg.rounds
    o[codes.OPT_RES_CAP] = cfg.resource_cap
    o[codes.OPT_MAX_WORKERS] = cfg.max_workers
    o[codes.OPT_ACTION_GOLD] = cfg.action_gold
    o[codes.OPT_CONQUER_MILITARY] = cfg.conquer_military
    o[codes.OPT_PICKUP_CULTURE] = cfg.pickup_culture
    o[codes.OPT_PROV_LIMIT] = cfg.prov_limit
    o[codes.OPT_PROV_LIMIT_MAX3] = cfg.prov_limit_max3
    o[codes.OPT_TRACK_LAST] = cfg.track_last
    o[codes.OPT_PARCHMENT_FIRST] = cfg.parchment_first
    o[codes.OPT_NEUTRAL_VOTES] = cfg.neutral_votes
    o[codes.OPT_AUTOMA_PARCHMENT_FIRST] = cfg.automa_parchment_first
    o[codes.OPT_AUTOMA_PARCHMENT_LAST] = cfg.automa_parchment_last
    o[codes.OPT_AUTOMA_GLORY_LAST] = cfg.automa_glory_last
    o[codes.OPT_VOTES_CAP] = cfg.votes_cap
    o[codes.OPT_HUMAN_MS] = round(float(options["human_action_median_s"]) * 1000)
    o[codes.OPT_HUMAN_SIGMA_PM] = round(float(options["human_action_sigma"]) * 1000)
    o[codes.OPT_FLIP_MS] = round(float(options["human_flip_delay_median_s"]) * 1000)
    o[codes.OPT_FLIP_SIGMA_PM] = round(float(options["human_flip_delay_sigma"]) * 1000)
    o[codes.OPT_AUTOMA_CARD_MS] = round(float(options["automa_card_resolution_s"]) * 1000)
    o[codes.OPT_SIMUL_MS] = round(float(options["simultaneity_window_s"]) * 1000)
    prefs = [p.strip() for p in str(options["final_council_preference"]).split(",")]
    for i, p in enumerate(prefs):
        o[codes.OPT_FINAL_PREF0 + i] = codes.FINAL_PREF_NAMES.index(p)
    auto = parse_order(options["auto_flip_order"], codes.TIMER_NAMES)
    assert auto is not None
    for i, name in enumerate(auto):
        o[codes.OPT_AUTO_ORDER0 + i] = codes.TIMER_NAMES.index(name)
    reading = parse_order(options["council_reading_order"], codes.COUNCIL_SLOT_NAMES)
    assert reading is not None
    for i, name in enumerate(reading):
        o[codes.OPT_READ_ORDER0 + i] = codes.COUNCIL_SLOT_NAMES.index(name)
    o[codes.OPT_STEP_LIMIT] = int(options["step_action_limit"])
    o[codes.OPT_MAX_FLIP_DELAY_MS] = round(float(options["max_flip_delay_s"]) * 1000)
    return o



def build_ruleset(n_players: int, data: PendulumData, options: dict[str, Any] | None) -> PendulumRules:
    """The ruleset for ``n_players`` (1 = solo against two Automas; 2..5) from validated data and
    options (resolved here against ``data.options``: defaults fill what ``options`` leaves out)."""
    if not 1 <= int(n_players) <= 5:
        raise OptionError(f"Pendulum is for 1 (solo) to 5 players, not {n_players}")
    n_players = int(n_players)
    opts = resolve_options(data.options, options)
    cfg = data.config
    tab = np.zeros(1, dtype=tables.TABLES_DTYPE)
    t = tab[0]
    fx = _Effects()

    # ---- spaces of the board side in play
    side = board_side(n_players)
    spaces = data.spaces_of(side)
    mirror = bool(opts["mirror_rows"]) and side == BOARD_SIDE_SMALL
    t["n_spaces"] = len(spaces)
    neutral = [-1, -1, -1, -1]
    n_neutral = 0
    for d, s in enumerate(spaces):
        area = codes.TIMER_NAMES.index(s.area)
        row_n = sum(1 for x in spaces if x.area == s.area and x.row == s.row)
        pos = row_n - 1 - s.pos_lr if mirror and s.area != "black" else s.pos_lr
        if s.frame == "double":
            r0, r1 = fx.add(s.rewards.alt(0)), fx.add(s.rewards.alt(1))
        else:
            r0, r1 = fx.add(s.rewards), 0
        is_neutral = n_players == 2 and s.space_id in cfg.neutral_spaces
        if is_neutral:
            neutral[n_neutral] = d
            n_neutral += 1
        large = -1 if s.automa_space_size is None else int(s.automa_space_size == "large")
        t["sp"][d] = (area, codes.ROW_NAMES.index(s.row), pos, ("single", "double", "open").index(s.frame),
                      len(s.rewards.alts), r0, r1, fx.add(s.cost), int(s.common_blocked), large, int(is_neutral),
                      int(s.rewards.has(tables.EF_PROD)))
    t["neutral_spaces"] = neutral

    # ---- characters and stratagems
    warmonger = warmonger_row(data)
    blue = parse_effect(str(opts["warmonger_blue_production"]), data.file("options"), None,
                        "options.warmonger_blue_production")
    groups: list[str] = []
    t["n_chars"] = len(data.characters)
    first_strat: dict[tuple[str, str], int] = {}
    strat_rows: list[tuple[int, int]] = []
    for j, st in enumerate(data.stratagems):
        i = len(strat_rows)
        first_strat.setdefault((st.character, st.persona), i)
        owner = data.character_row(st.character, st.persona)
        t["st"][i] = (owner, fx.add(st.cost), fx.add(st.effect), -1, needs_code(st.effect))
        strat_rows.append((0, j))
    for r, ch in enumerate(data.characters):
        if ch.character not in groups:
            groups.append(ch.character)
        prod = list(ch.prod)
        if r == warmonger:
            prod[codes.M_BLUE] = blue
        t["ch"][r] = (*ch.start_track, *ch.steps, *ch.start_res, ch.start_votes, *(fx.add(e) for e in prod),
                      int(ch.side == "advanced"), groups.index(ch.character), first_strat[ch.character, ch.persona])

    # ---- council cards (card 6 per option), council stratagems
    for c, card in enumerate(data.council):
        kind = card.kind
        if card.card_id == "6":
            kind = str(opts["council_card_6_kind"])
        strat = -1
        if kind == "stratagem":
            strat = len(strat_rows)
            t["st"][strat] = (-1, fx.add(card.cost), fx.add(card.effect), c, needs_code(card.effect))
            strat_rows.append((1, c))
        t["co"][c] = (("standard", "final", "fixed").index(card.deck), tables.COUNCIL_KINDS.index(kind),
                      fx.add(card.cost), fx.add(card.effect), strat, final_track(card))
    t["n_strats"] = len(strat_rows)

    # ---- achievements, provinces
    t["n_ach"] = len(data.achievements)
    for i, a in enumerate(data.achievements):
        t["ach"][i] = (fx.add(a.requirement), fx.add(a.ribbon))
    t["n_prov"] = len(data.provinces)
    for i, p in enumerate(data.provinces):
        t["prov"][i] = [fx.add(e) for e in p.yields]

    # ---- Automa
    sym_names = [s.symbol for s in data.symbols]
    for i, ac in enumerate(data.automa_cards):
        move = -1 if ac.move_area == "none" else codes.TIMER_NAMES.index(ac.move_area)
        t["acard"][i] = (move, tables.FLIP_NAMES.index(ac.flip_combo), ac.province_discard_slot, ac.vp, ac.votes,
                         sym_names.index(ac.reward_symbol))
    t["n_sym"] = len(data.symbols)
    t["sym_grande"] = -1
    for k, s in enumerate(data.symbols):
        for cid in s.matches:
            t["sym_match"][k, COUNCIL_IDS.index(cid)] = 1
        if "GRANDE" in s.matches:
            t["sym_grande"] = k
    for li, lvl in enumerate(tables.LEVELS):
        for rnd in range(1, cfg.rounds + 1):
            t["scoring"][li, rnd - 1] = data.scoring[lvl, rnd]
        t["lvl_adv"][li] = int(data.levels[li].advanced_rules)
    t["n_track"] = len(data.track)
    for i, sp in enumerate(data.track):
        t["trk"][i] = (tables.TRACK_KINDS.index(sp.kind), sp.distance_label or 0, sp.distance_to_parchment,
                       sp.parchment_index or 0, sp.glory_index or 0)

    # ---- schedule, timers, council bonus
    t["n_sched"] = len(data.schedule)
    for k, st in enumerate(data.schedule):
        due = 0
        for name in st.due:
            due |= 1 << codes.TIMER_NAMES.index(name)
        t["sched"][k] = (st.time_s, due, st.purple_flip_no, 0)
    t["timer_s"] = cfg.timer_seconds
    bonus = cfg.priv_bonus_small if n_players <= 3 else cfg.priv_bonus_large
    t["priv_bonus"][:len(bonus)] = bonus

    # ---- effects and options
    t["n_eff"] = len(fx.texts)
    for e, alts in enumerate(fx.vectors):
        t["eff_nalt"][e] = len(alts)
        for a, vec in enumerate(alts):
            t["eff"][e, a] = vec
    t["opts"] = option_array(n_players, data, opts)

    return PendulumRules(n_players, data, opts, tab, tuple(fx.texts), tuple(s.space_id for s in spaces),
                         tuple(strat_rows))
