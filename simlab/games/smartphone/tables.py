"""The arrays Smartphone Inc.'s kernels read: one table record per data set and option set.

The fields are those of ``Tables``; ``build_tables`` packs them into a one-element structured
array so that kernels receive them as one record (``T = tables[0]``).
Everything here comes from the data files and the resolved options; nothing is hard-coded.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from simlab.core.errors import DataError
from simlab.games.smartphone.arrangements import arrangement_table
from simlab.games.smartphone.data import SmartphoneData
from simlab.games.smartphone.state import (
    DISPLAY,
    MAX_BUYERS,
    MAX_DECK,
    MAX_PLACES,
    MAX_REGIONS,
    N_TECH,
    PAD_N,
)
from simlab.games.smartphone.upgrades import slot_table

# Option array indices.
(OPT_UPG_PER_SYMBOL, OPT_EMPTY_DISPLAY_TOKEN, OPT_TOKENS_LIMITED, OPT_COMPONENT_LIMITS, OPT_PRICE_MIN,
 OPT_PRICE_MAX, OPT_CONTROL_TIE, OPT_CONTROL_REQUIRES_OFFICE, OPT_ADJACENCY, OPT_LOG_PERSISTS, OPT_TECH_SIDES,
 OPT_FACE_FIRST, OPT_GAMEPAD_ON_RETAILER, OPT_NFC_MIN, OPT_NFC_MAX, OPT_RET_4P_RANDOM, OPT_RET_SIDE,
 OPT_MAY_WITHHOLD, OPT_PRIORITY_EACH_PHASE, OPT_SYMBOLS_INCLUDE_UPGRADES, OPT_MOVE_ANY, OPT_COLOUR_RANDOM,
 OPT_TOKEN_SUPPLY, OPT_PROGRESS_MARKERS, OPT_OFFICE_MARKERS, OPT_GOODS_MARKERS, OPT_START_PRICE,
 OPT_DISPLAY) = range(28)
OPT_TECH_LIST0 = 28  # side per technology (0 face, 1 back) for technology_sides = "list"
N_OPTS = OPT_TECH_LIST0 + N_TECH

CONTROL_TIES = ("nobody", "leftmost_office", "all_tied")
TECH_SIDE_MODES = ("face", "back", "random", "list")
RETAILER_SIDE_MODES = ("random", "a", "b")
SIZE_SMALL = 0  # index of "small" in constants [retailers] sizes


class Tables(NamedTuple):
    """Static arrays for the kernels, by field (``build_tables`` returns them as one record)."""

    arr_grid: np.ndarray  # int8 [N, PAD_N] topmost tablet symbol per padded position
    arr_layers: np.ndarray  # int8 [N, PAD_N] EMPTY / LOWER / UPPER / BOTH
    arr_hidden: np.ndarray  # int8 [N] hidden cells
    arr_counts: np.ndarray  # int8 [N, N_SYM] visible tablet symbols
    slots: np.ndarray  # int16 [N, MAX_SLOTS, 5] upgrade slots (upgrades.S_*), overhang slots included
    n_slots: np.ndarray  # int16 [N]
    region: np.ndarray  # int16 [R, 7] data.region_array
    place_cost: np.ndarray  # int16 [R, MAX_PLACES] entry cost per office place (region's own places)
    place_vp: np.ndarray  # int16 [R, MAX_PLACES] control VP per office place (region's own places)
    buyers: np.ndarray  # int16 [B, 5] region, position, kind (0 red, 1 purple), cap, technology
    start: np.ndarray  # int16 [colours, 2] start region, starting upgrade
    upgrades: np.ndarray  # int8 [U, 4] kind (0 starting, 1 regular), colour, symbol a, symbol b
    tech: np.ndarray  # int16 [6, 4] board sector, base cost, cost while the patent is on it, patent VP
    tech_effect: np.ndarray  # int8 [6, 2] effect code of (face, back) after option O16
    effect_tech: np.ndarray  # int8 [12] technology of each effect code
    retailer: np.ndarray  # int16 [tiles, 2, 5] size, size number, places, bonus, amount
    retailer_vp: np.ndarray  # int16 [tiles, 2, max places] VP per office place
    placement: np.ndarray  # int16 [rows, 3] players, rule, region
    adjacency: np.ndarray  # int8 [R, R]
    opts: np.ndarray  # int64 [N_OPTS]


def option_array(values: dict[str, Any], data: SmartphoneData) -> np.ndarray:
    """Encode resolved option values (names as in options.toml) for the kernels."""
    o = np.zeros(N_OPTS, dtype=np.int64)
    o[OPT_UPG_PER_SYMBOL] = values["upgrades_taken_per_round"] == "one_per_symbol"
    o[OPT_EMPTY_DISPLAY_TOKEN] = values["empty_display"] == "goods_token"
    o[OPT_TOKENS_LIMITED] = values["goods_token_supply"] == "limited"
    o[OPT_COMPONENT_LIMITS] = bool(values["component_limits"])
    o[OPT_PRICE_MIN], o[OPT_PRICE_MAX] = values["price_track"]
    o[OPT_CONTROL_TIE] = CONTROL_TIES.index(values["control_tie"])
    o[OPT_CONTROL_REQUIRES_OFFICE] = bool(values["control_requires_office"])
    o[OPT_ADJACENCY] = bool(values["logistics_adjacency"])
    o[OPT_LOG_PERSISTS] = bool(values["logistics_progress_persists"])
    o[OPT_TECH_SIDES] = TECH_SIDE_MODES.index(values["technology_sides"])
    o[OPT_FACE_FIRST] = bool(values["technology_face_is_first_listed"])
    o[OPT_GAMEPAD_ON_RETAILER] = bool(values["gamepad_office_on_retailer"])
    o[OPT_NFC_MIN], o[OPT_NFC_MAX] = values["nfc_direct_sale"]
    o[OPT_RET_4P_RANDOM] = values["retailer_four_player_medium"] == "random"
    o[OPT_RET_SIDE] = RETAILER_SIDE_MODES.index(values["retailer_side"])
    o[OPT_MAY_WITHHOLD] = bool(values["sales_may_withhold"])
    o[OPT_PRIORITY_EACH_PHASE] = values["priority_recompute"] == "each_phase"
    o[OPT_SYMBOLS_INCLUDE_UPGRADES] = bool(values["symbol_effects_include_upgrades"])
    o[OPT_MOVE_ANY] = values["move_office_destination"] == "any_region"
    o[OPT_COLOUR_RANDOM] = values["colour_assignment"] == "random"
    c = data.constants
    o[OPT_TOKEN_SUPPLY] = c["goods_tokens"]["count"]
    o[OPT_PROGRESS_MARKERS] = c["markers_per_player"]["progress"]
    o[OPT_OFFICE_MARKERS] = c["markers_per_player"]["office"]
    o[OPT_GOODS_MARKERS] = c["markers_per_player"]["goods"] - 2  # the VP and price markers
    o[OPT_START_PRICE] = c["price"]["start"]
    o[OPT_DISPLAY] = c["upgrades"]["display"]
    sides = values["technology_side_list"]
    for t, ch in enumerate(sides):
        o[OPT_TECH_LIST0 + t] = ch == "B"
    return o


def _check(data: SmartphoneData, ok: bool, file: str, what: str) -> None:
    if not ok:
        raise DataError(data.files.get(file, file), None, None, what)


def build_tables(data: SmartphoneData, values: dict[str, Any]) -> np.ndarray:
    """The kernel arrays for this data set and these resolved options, as a one-element record array."""
    arr = arrangement_table(data)
    st = slot_table(data, allow_overhang=True)
    n = len(arr.hidden)
    _check(data, st.grid[0].size == PAD_N, "tablets", f"tablets must be 2x3 cells (frame {st.grid[0].shape})")
    _check(data, len(data.regions) <= MAX_REGIONS, "regions", f"at most {MAX_REGIONS} regions")
    _check(data, len(data.buyer_array) <= MAX_BUYERS, "buyers", f"at most {MAX_BUYERS} buyers")
    regular = int((data.upgrade_array[:, 0] == 1).sum())
    _check(data, regular <= MAX_DECK, "upgrades", f"at most {MAX_DECK} regular upgrades")
    _check(data, data.constants["upgrades"]["display"] <= DISPLAY, "constants", f"display holds at most {DISPLAY}")
    places = data.region_array[:, 4]
    _check(data, int(places.max()) <= MAX_PLACES, "office_places", f"at most {MAX_PLACES} office places a region")
    _check(data, int(data.retailer_array[:, :, 2].max(initial=0)) <= MAX_PLACES, "retailers",
           f"at most {MAX_PLACES} office places a retailer")

    r = len(data.regions)
    place_cost = np.zeros((r, MAX_PLACES), dtype=np.int16)
    place_vp = np.zeros((r, MAX_PLACES), dtype=np.int16)
    for reg, k, cost, vp in data.office_place_array:
        place_cost[reg, k] = cost
        place_vp[reg, k] = vp
    tech_effect = data.tech_effect_array.copy()
    if not values["technology_face_is_first_listed"]:
        tech_effect = tech_effect[:, ::-1].copy()
    effect_tech = np.zeros(2 * N_TECH, dtype=np.int8)
    for t in range(N_TECH):
        effect_tech[tech_effect[t]] = t
    arrays = Tables(
        arr_grid=np.ascontiguousarray(st.grid.reshape(n, PAD_N)),
        arr_layers=np.ascontiguousarray(st.layers.reshape(n, PAD_N)),
        arr_hidden=arr.hidden.astype(np.int8),
        arr_counts=arr.counts.astype(np.int8),
        slots=st.slots.astype(np.int16),
        n_slots=st.n_slots.astype(np.int16),
        region=data.region_array.astype(np.int16),
        place_cost=place_cost,
        place_vp=place_vp,
        buyers=data.buyer_array.astype(np.int16),
        start=data.start_array.astype(np.int16),
        upgrades=data.upgrade_array.astype(np.int8),
        tech=data.technology_array.astype(np.int16),
        tech_effect=tech_effect.astype(np.int8),
        effect_tech=effect_tech,
        retailer=data.retailer_array.astype(np.int16),
        retailer_vp=data.retailer_vp_array.astype(np.int16),
        placement=data.placement_array.astype(np.int16),
        adjacency=data.adjacency_array.astype(np.int8),
        opts=option_array(values, data),
    )
    return as_record(arrays)


def as_record(arrays: Tables) -> np.ndarray:
    """The tables as a one-element structured array (kernels read ``T = tables[0]``).

    A record reaches a kernel as one pointer, where a tuple of twenty arrays would be passed
    field by field on every call; the shapes are part of the dtype, so a data set with other
    sizes compiles its own kernels.
    """
    fields = [(name, a.dtype, a.shape) for name, a in zip(Tables._fields, arrays, strict=True)]
    rec = np.zeros(1, dtype=np.dtype(fields))
    for name, a in zip(Tables._fields, arrays, strict=True):
        rec[0][name] = a
    return rec
