"""Smartphone Inc.'s Python face: the Game contract over the compiled kernels."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import numpy as np

from simlab.core.compiled import CompiledGame, Kernels, Observation
from simlab.core.datavariants import DataFiles
from simlab.core.game import RetiredPlayer
from simlab.games.smartphone import render, variants
from simlab.games.smartphone.batch import play_games, py_results
from simlab.games.smartphone.columns import GAME_COLUMNS, SEAT_COLUMNS
from simlab.games.smartphone.data import SYMBOLS, SmartphoneData, load_data
from simlab.games.smartphone.dispatch import py_choose
from simlab.games.smartphone.players import BUILTIN_PLAYERS
from simlab.games.smartphone.rules import (
    A_ARR,
    A_DONE,
    A_PICK,
    A_PLACE,
    E_GPS_DOUBLE,
    E_LIION_GOODS,
    E_LIION_PRICE_UP,
    E_NFC_PLUS1,
    GOODS,
    LOG_WIDTH,
    LOGISTICS,
    N_ACTIONS,
    PRICE_DOWN,
    PRICE_UP,
    RESEARCH,
    UPGRADE,
    py_setup,
    py_step,
)
from simlab.games.smartphone.search_hooks import profile_search
from simlab.games.smartphone.state import (
    DECISION_NAMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PAD_N,
    STATE_DTYPE,
    STREAM_SEAT0,
)
from simlab.games.smartphone.tables import (
    OPT_COMPONENT_LIMITS,
    OPT_GOODS_MARKERS,
    OPT_PRICE_MAX,
    OPT_PRICE_MIN,
    OPT_START_PRICE,
    OPT_SYMBOLS_INCLUDE_UPGRADES,
    OPT_UPG_PER_SYMBOL,
    build_tables,
)


@dataclass
class SmartphoneRules:
    """A ruleset: data, resolved options and the table record the kernels read."""

    n_players: int
    data: SmartphoneData
    options: dict[str, Any]
    tables: np.ndarray  # one-element structured array (tables.build_tables)
    _fields: SimpleNamespace | None = field(default=None, repr=False)

    @property
    def T(self) -> SimpleNamespace:  # noqa: N802 - the kernels' name for the tables
        """The tables' fields as attributes (numpy arrays), for Python code such as the renderers."""
        if self._fields is None:
            rec = self.tables[0]
            self._fields = SimpleNamespace(**{name: rec[name] for name in rec.dtype.names})
        return self._fields


@dataclass(frozen=True)
class Buyer:
    """A buyer on the map: its data row, region, place in the region and what it buys."""

    row: int  # buyer row (the argument of a sell action: A_SELL + row)
    region: str  # region id
    region_index: int
    index: int  # 0-based, left to right in its region
    kind: str  # "red" (any phone at a price up to ``cap``) or "purple" (needs ``technology``)
    cap: int | None  # red buyers: the highest price it pays
    technology: str | None  # purple buyers: the technology a seller must have researched
    owner: int  # seat whose good lies on it this round, -1 while free


@dataclass(frozen=True)
class Region:
    """A region of the map as a seat sees it now."""

    index: int
    id: str
    size: str
    offices: list[int]  # seat holding each occupied office place, left to right
    places: int  # office places (a retailer's when one covers the region)
    entry_cost: int  # logistics markers the next office here costs
    retailer: str | None  # the retailer's bonus ("GOODS", ...) when one covers the region, else None
    buyers: list[Buyer]


@dataclass(frozen=True)
class Yield:
    """What an arrangement of the two tablets shows, before any upgrade is laid on it."""

    arrangement: int
    goods: int  # active goods symbols
    hidden: int  # hidden cells (1 goods each)
    price_down: int
    price_up: int
    research: int
    logistics: int
    upgrade: int  # active upgrade symbols

    @property
    def price_change(self) -> int:
        """The change in price it brings (+$ minus -$)."""
        return self.price_up - self.price_down


@dataclass(frozen=True)
class PlanPreview:
    """A seat's plan for the round and what it brings in phases 2-6 (see :meth:`SmartphoneObservation.plan_preview`).

    ``symbols`` are the active symbols (tablets and upgrade halves); ``price`` is the phase-2
    price; ``goods`` what phase 3 produces (from ``goods_symbols``, ``hidden`` cells,
    ``unused_upgrades``, ``tokens`` and technology, capped by the goods markers with
    component limits); ``research``/``logistics`` the markers phases 5 and 6 give (logistics
    with LI-ION's +$ when it counts); ``upgrades`` how many upgrades phase 4 lets it take
    (a goods token instead when 0); ``key`` the seat's phase-4 priority key.
    """

    arrangement: int
    symbols: dict[str, int]
    price: int
    goods: int
    goods_symbols: int
    hidden: int
    unused_upgrades: int
    tokens: int
    research: int
    logistics: int
    upgrades: int
    key: tuple[int, int, int, int, int]

    def before(self, other: tuple[int | None, ...]) -> bool | None:
        """Whether this plan's seat comes before a seat with priority key ``other`` (see :func:`priority_before`)."""
        return priority_before(self.key, other)


def priority_before(a: tuple[int | None, ...], b: tuple[int | None, ...]) -> bool | None:
    """Whether priority key ``a`` comes before ``b``: lower price, then lower VP, then fewer goods produced, then
    more technologies, then more patents (rulebook S19). None when the keys tie (chance decides) or when an
    unknown part (None) decides."""
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        if x is None or y is None:
            return None
        if x != y:
            return x < y if i < 3 else x > y
    return None


class SmartphoneObservation(Observation):
    """What a Python player sees on its turn.

    Attributes: ``seat``, ``round``, ``phase``, ``decision`` (name of the pending decision),
    ``legal`` (action codes), ``state``, ``rules``. ``state`` is a copy of the state record as
    this seat may know it: during phase 1 (planning is simultaneous and secret, S11) the other
    seats' plans for the round are blanked (``plan_arr`` -1, no upgrades laid, no symbols);
    the face-down upgrade deck is sorted, so only which upgrades are left shows; every random
    stream's key and counter is zeroed but this seat's own key. Hands, the display, the map,
    research, prices and VP are open information.

    Helpers: ``describe(a)``, ``render()``, ``menu()`` (the legal actions as a tree of choices;
    arrangements grouped by the symbols they yield), ``regions()``, ``buyers()``,
    ``arrangement(i)``, ``arrangement_groups()``, ``plan_preview(a)`` and ``priority_key(seat)``.
    """

    rules: SmartphoneRules

    @property
    def round(self) -> int:
        """The round, 1-5."""
        return int(self._state[0]["round"])

    @property
    def phase(self) -> int:
        """The phase, 1-8."""
        return int(self._state[0]["phase"])

    @property
    def decision(self) -> str:
        """The pending decision's name (state.DECISION_NAMES)."""
        return DECISION_NAMES[int(self._state[0]["pending"])]

    @property
    def n_players(self) -> int:
        """Seats in the game."""
        return int(self._state[0]["n_players"])

    # ---- the map
    def buyers(self) -> list[Buyer]:
        """Every buyer on the map, by row: region, kind, cap or technology, and who sold to it this round."""
        rec = self._state[0]
        regions = {r.id: i for i, r in enumerate(self.rules.data.regions)}
        out = []
        for b in range(len(self.rules.data.buyer_array)):
            f = render.buyer_fields(self.rules, b)
            out.append(Buyer(b, f["region"], regions[f["region"]], f["index"], f["kind"], f["cap"],
                             f["technology"], int(rec["buyer_owner"][b])))
        return out

    def regions(self) -> list[Region]:
        """The map, region by region: offices, entry cost, retailer and buyers."""
        rec = self._state[0]
        T = self.rules.T
        buyers = self.buyers()
        out = []
        for r, reg in enumerate(self.rules.data.regions):
            k = min(int(rec["office_n"][r]), int(T.region[r, 4]) - 1)  # O21: a retailer uses the region's cost
            retailer = None
            if rec["retailer"][r] >= 0:
                retailer = self.rules.data.retailers[int(rec["retailer"][r])][int(rec["retailer_side"][r])].bonus
            out.append(Region(r, reg.id, reg.size, [int(x) for x in rec["office"][r][: int(rec["office_n"][r])]],
                              int(rec["places"][r]), int(T.place_cost[r, k]), retailer,
                              [b for b in buyers if b.region_index == r]))
        return out

    # ---- the tablets
    def arrangement(self, index: int) -> Yield:
        """What arrangement ``index`` (action ``A_ARR + index``) shows with no upgrade laid."""
        c = render.arrangement_counts(self.rules, index)
        return Yield(index, c["goods"], c["hidden"], c["price_down"], c["price_up"], c["research"],
                     c["logistics"], c["upgrade"])

    def arrangement_groups(self) -> dict[tuple[int, int, int, int, bool], list[int]]:
        """The legal arrangement actions grouped by what they yield: (goods + hidden, price change, research,
        logistics, shows an upgrade symbol) -> actions (the grouping of ``menu()``); empty outside planning."""
        groups: dict[tuple[int, int, int, int, bool], list[int]] = {}
        for a in self.legal:
            if A_ARR <= a < A_PLACE:
                y = self.arrangement(a - A_ARR)
                key = (y.goods + y.hidden, y.price_change, y.research, y.logistics, y.upgrade > 0)
                groups.setdefault(key, []).append(a)
        return groups

    # ---- the plan and its consequences
    def _has(self, rec: np.void, effect: int) -> bool:
        T = self.rules.T
        t = int(T.effect_tech[effect])
        return bool(rec["researched"][self.seat, t]) and int(T.tech_effect[t, int(rec["tech_side"][t])]) == effect

    def plan_preview(self, action: int | None = None) -> PlanPreview:
        """This seat's plan after ``action`` (an arrangement ``A_ARR + i``, an upgrade placement, or ``A_DONE``;
        None: the plan as laid now) and what it brings: price, goods, markers, upgrades and priority key.

        Arrangements are read from the tables; a placement is applied with the game's own step kernel on a
        copy, reading only this seat's plan. The price and goods are exactly what phases 2 and 3 will give:
        no other seat's plan changes them.
        """
        action = None if action is None else int(action)
        rec = self._state[0]
        p = self.seat
        T = self.rules.T
        opts = T.opts
        if action is not None and A_ARR <= action < A_PLACE:
            arr = action - A_ARR
            vis_tab = T.arr_counts[arr].astype(int)
            vis_upg = np.zeros_like(vis_tab)
            plan_n = 0
        elif action is not None and A_PLACE <= action < A_PICK:
            if self.decision != "place_upgrade":
                raise ValueError(f"{self.describe(action)!r} is not an upgrade placement now")
            copy = self._state.copy()
            self._game.step(self.rules, copy, int(action), self._game.new_log(0))
            arr = int(rec["plan_arr"][p])
            vis_tab = copy[0]["vis_tab"][p].astype(int)
            vis_upg = copy[0]["vis_upg"][p].astype(int)
            plan_n = int(rec["plan_n"][p]) + 1
        elif action is None or (action == A_DONE and self.decision == "place_upgrade"):
            arr = int(rec["plan_arr"][p])
            if arr < 0 or self.phase != 1:
                raise ValueError("no plan is being laid now")
            vis_tab = rec["vis_tab"][p].astype(int)
            vis_upg = rec["vis_upg"][p].astype(int)
            plan_n = int(rec["plan_n"][p])
        else:
            raise ValueError(f"action {action} is not a planning action")
        vis = vis_tab + vis_upg
        tech = vis if opts[OPT_SYMBOLS_INCLUDE_UPGRADES] else vis_tab  # what technology effects count (O26)
        price = int(opts[OPT_START_PRICE]) - int(vis[PRICE_DOWN]) + int(vis[PRICE_UP])
        if self._has(rec, E_NFC_PLUS1):
            price += 1
        price = min(max(price, int(opts[OPT_PRICE_MIN])), int(opts[OPT_PRICE_MAX]))
        goods_symbols = int(vis[GOODS]) + (int(tech[GOODS]) if self._has(rec, E_GPS_DOUBLE) else 0)
        hidden = int(T.arr_hidden[arr])
        unused = int(rec["hand_n"][p]) - plan_n
        tokens = int(rec["tokens"][p])
        from_tech = int(rec["n_techs"][p]) // 2 if self._has(rec, E_LIION_GOODS) else 0
        goods = goods_symbols + hidden + unused + tokens + from_tech
        if opts[OPT_COMPONENT_LIMITS]:
            goods = min(goods, max(0, int(opts[OPT_GOODS_MARKERS]) - int(rec["goods"][p])))
        logistics = int(vis[LOGISTICS]) + (int(tech[PRICE_UP]) if self._has(rec, E_LIION_PRICE_UP) else 0)
        n_up = int(vis[UPGRADE])
        upgrades = n_up if opts[OPT_UPG_PER_SYMBOL] else min(n_up, 1)
        symbols = {SYMBOLS[k]: int(vis[k]) for k in range(len(SYMBOLS)) if SYMBOLS[k] != "blank"}
        key = (price, int(rec["vp"][p]), goods, int(rec["n_techs"][p]), int(rec["n_patents"][p]))
        return PlanPreview(arr, symbols, price, goods, goods_symbols, hidden, unused, tokens, int(vis[RESEARCH]),
                           logistics, upgrades, key)

    def priority_key(self, seat: int) -> tuple[int | None, int, int | None, int, int]:
        """Seat ``seat``'s priority key as this seat knows it: (price, VP, goods produced this round,
        technologies, patents); lower price, VP and goods go first, more technologies and patents go first
        (compare keys with :func:`priority_before`). During phase 1 this round's price and goods are not set
        yet (None): a plan's own are in :meth:`plan_preview`, the other seats' are secret."""
        rec = self._state[0]
        known = self.phase != 1
        return (int(rec["price"][seat]) if known else None, int(rec["vp"][seat]),
                int(rec["produced"][seat]) if known else None, int(rec["n_techs"][seat]),
                int(rec["n_patents"][seat]))


def hide(state: np.ndarray, seat: int) -> np.ndarray:
    """A copy of the state with what ``seat`` may not know removed.

    In phase 1 other seats' plans for the round are secret (S11); the order of the face-down
    upgrade deck is never known; nor are the other seats' or the chance streams' positions.
    """
    copy = state.copy()
    rec = copy[0]
    if int(rec["phase"]) == 1:
        for p in range(int(rec["n_players"])):
            if p != seat:
                rec["plan_arr"][p] = -1
                rec["plan_n"][p] = 0
                rec["pl_low"][p, :PAD_N] = -1
                rec["pl_top"][p, :PAD_N] = -1
                rec["vis_tab"][p] = 0
                rec["vis_upg"][p] = 0
    n = int(rec["deck_n"])
    rec["deck"][:n] = np.sort(rec["deck"][:n])
    rec["rng_key"][:] = 0
    rec["rng_ctr"][:] = 0
    rec["rng_key"][STREAM_SEAT0 + seat] = state[0]["rng_key"][STREAM_SEAT0 + seat]
    return copy


class SmartphoneGame(CompiledGame):
    """Smartphone Inc. (Ludonova/Cosmodrome, 2018): plan with two tablets, price, produce, research, expand, sell."""

    name = "smartphone"
    title = "Smartphone Inc."
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    summary = "tablet planning, price war, research, offices and sales on a world map (2-5 players, 5 rounds)"
    kernels = Kernels(
        state_dtype=STATE_DTYPE,
        max_actions=N_ACTIONS,
        log_width=LOG_WIDTH,
        rule_args=("tables",),
        setup=py_setup,
        step=py_step,
        choose=py_choose,
        search_profile=profile_search,
        batch=play_games,
        results=py_results,
        game_columns=GAME_COLUMNS,
        seat_columns=SEAT_COLUMNS,
    )
    renderer = render
    players = BUILTIN_PLAYERS
    observation_class = SmartphoneObservation
    bench_mixes = (
        ("greedy",) * 4, ("random",) * 4, ("greedy",) * 2, ("greedy",) * 3, ("greedy",) * 5,
        ("greedy", "price_cutter"), ("greedy", "price_cutter", "tech_rusher"),
        ("greedy", "price_cutter", "tech_rusher", "expansionist"),
        ("greedy", "price_cutter", "tech_rusher", "expansionist", "greedy"),
        ("ismcts", "greedy"),
    )
    ladder_players = ("random", "greedy", "tech_rusher", "expansionist", "price_cutter", "ismcts")
    report_notebook = "smartphone_start_position.ipynb"
    retired_players = {"mc": RetiredPlayer(  # noqa: RUF012 - a class-level declaration, never mutated
        "ismcts", "as strong at equal time per decision (docs/players.md)", since="issue 25")}

    # ---- content and rules
    def load_default_data(self) -> SmartphoneData:
        return load_data()

    def default_data(self) -> SmartphoneData:
        """The bundled data set (loaded once)."""
        return super().default_data()

    def build_rules(self, n_players: int, data: SmartphoneData, options: dict[str, Any]) -> SmartphoneRules:
        return SmartphoneRules(n_players, data, options, build_tables(data, options))

    def hide(self, state: np.ndarray, seat: int) -> np.ndarray:
        """A copy of the state with what ``seat`` may not know removed (see :func:`hide`)."""
        return hide(state, seat)

    def categorical_columns(self, rules: SmartphoneRules | None = None) -> dict[str, dict[str, list[str]]]:
        data = rules.data if rules is not None else self.default_data()  # a variant may rename regions
        return {"seats": {"colour": list(data.colours), "start_region": [r.id for r in data.regions]}}

    def data_files(self) -> DataFiles:
        return variants.DATA

    def render_svg(self, rules: SmartphoneRules, state: np.ndarray, seat: int | None = None) -> str:
        """The position as an SVG board (see simlab/games/smartphone/svg.py)."""
        from simlab.games.smartphone.svg import board_svg
        return board_svg(rules, state[0], seat)

    def describe_turn(self, rules: SmartphoneRules, state: np.ndarray) -> str:
        rec = state[0]
        return (f"round {int(rec['round'])}, phase {int(rec['phase'])}, seat {int(rec['actor'])} "
                f"({DECISION_NAMES[int(rec['pending'])]})")
