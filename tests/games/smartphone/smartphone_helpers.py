"""Helpers for the Smartphone Inc. kernel tests: rulesets, hand-made positions, driving a game."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable

import numpy as np

from simlab.games.smartphone import rules as sr
from simlab.games.smartphone.data import SYMBOLS, TECH_INDEX, load_data
from simlab.games.smartphone.game import SmartphoneGame
from simlab.games.smartphone.state import D_NONE

GAME = SmartphoneGame()
DATA = load_data()
REGION = {r.id: i for i, r in enumerate(DATA.regions)}
TECH = dict(TECH_INDEX)
N_ACTIONS = sr.N_ACTIONS


@functools.lru_cache(maxsize=64)
def _rules(n: int, opts_json: str):
    return GAME.ruleset(n, json.loads(opts_json))


def ruleset(n: int = 2, **opts):
    """A (cached) ruleset for n players with these options."""
    return _rules(n, json.dumps(opts, sort_keys=True))


def new(n: int = 2, seed: int = 1, log_capacity: int = 4000, **opts):
    """(rules, state, log, legal) of a fresh game."""
    rules = ruleset(n, **opts)
    log = GAME.new_log(log_capacity)
    state, legal = GAME.new_game(rules, seed, log)
    return rules, state, log, legal


def legal_now(rules, state) -> np.ndarray:
    buf = np.empty(N_ACTIONS, dtype=np.int64)
    n = sr.legal_actions(state[0], tab(rules), buf)
    return buf[:n].copy()


def first(state, legal) -> int:
    """The do-nothing policy: the smallest legal action (A_DONE where allowed, arrangement 0, ...)."""
    return int(legal[0])


def play_until(rules, state, log, legal, stop: Callable[[np.void], bool],
               choose: Callable[[np.ndarray, np.ndarray], int] = first, max_steps: int = 20000) -> np.ndarray:
    """Step with ``choose`` until ``stop(state[0])`` holds (checked before each step) or the game ends."""
    for _ in range(max_steps):
        if state[0]["over"] or stop(state[0]):
            return legal
        legal = GAME.step(rules, state, choose(state, legal), log)
    raise AssertionError("play_until: too many steps")


def do(rules, state, log, action: int) -> np.ndarray:
    """Apply one action after checking it is legal."""
    legal = legal_now(rules, state)
    assert action in set(legal.tolist()), (action, legal)
    return GAME.step(rules, state, action, log)


def enter_phase(rules, state, log, phase: int, order=None) -> np.ndarray:
    """Jump a hand-made position to the start of a priority phase (4-7) with a fixed seat order."""
    s = state[0]
    n = int(s["n_players"])
    s["phase"] = phase
    s["turn"] = 0
    s["order"][:] = 0
    s["order"][:n] = list(range(n)) if order is None else order
    s["pending"] = D_NONE
    sr.begin_turn(s, tab(rules), log)
    sr.advance(s, tab(rules), log)
    return legal_now(rules, state)


def clear_offices(state) -> None:
    """Remove every office from the map (start offices included)."""
    s = state[0]
    s["office"][:] = -1
    s["office_n"][:] = 0
    s["own_offices"][:] = 0


def add_office(state, p: int, r: int) -> None:
    s = state[0]
    k = int(s["office_n"][r])
    s["office"][r, k] = p
    s["office_n"][r] = k + 1
    s["own_offices"][p, r] += 1


def remove_retailers(state, rules) -> None:
    s = state[0]
    for r in range(len(DATA.regions)):
        s["retailer"][r] = -1
        s["places"][r] = tab(rules)["region"][r, sr.RG_PLACES]


def buyers_of(region: str) -> list[int]:
    r = REGION[region]
    T = tab(ruleset(2))
    first_b = int(T["region"][r, sr.RG_FIRST_BUYER])
    return list(range(first_b, first_b + int(T["region"][r, sr.RG_BUYERS])))


def events(rules, log, kind: int | None = None) -> list[np.ndarray]:
    """Raw log rows (kind, round, phase, seat, args...) of one kind (all if None)."""
    n = int(log[0, 0])
    rows = [log[i] for i in range(1, n + 1)]
    return [r for r in rows if kind is None or int(r[0]) == kind]


def plan_all(rules, state, log, legal, arrs: dict[int, int] | None = None, place: bool = False) -> np.ndarray:
    """Finish phase 1: seat p lays arrangement ``arrs.get(p, 0)``; upgrades are placed only if ``place``."""
    arrs = arrs or {}

    def choose(st, lg):
        s = st[0]
        p = int(s["actor"])
        if s["pending"] == sr.D_ARRANGE:
            return sr.A_ARR + arrs.get(p, 0)
        if place and len(lg) > 1:
            return int(lg[1])
        return sr.A_DONE

    return play_until(rules, state, log, legal, lambda s: s["phase"] != 1, choose)


def set_syms(state, p: int, **counts: int) -> None:
    """Set seat p's active symbols by name (goods, price_down, price_up, upgrade, research, logistics)."""
    s = state[0]
    s["vis_tab"][p, :] = 0
    s["vis_upg"][p, :] = 0
    for name, v in counts.items():
        s["vis_tab"][p, SYMBOLS.index(name)] = v


def put_retailer(rules, state, region: str, bonus: int) -> tuple[int, int]:
    """Cover ``region`` with a retailer tile side of its size carrying ``bonus``; returns (tile, side)."""
    T = tab(rules)
    s = state[0]
    r = REGION[region]
    for tile in range(T["retailer"].shape[0]):
        for side in range(2):
            if T["retailer"][tile, side, 0] == T["region"][r, sr.RG_SIZE] and T["retailer"][tile, side, 3] == bonus:
                s["retailer"][r] = tile
                s["retailer_side"][r] = side
                s["places"][r] = T["retailer"][tile, side, 2]
                return tile, side
    raise LookupError((region, bonus))


def research_tech(state, p: int, tech: str) -> None:
    """Mark technology ``tech`` researched by seat p (no patent, no immediate effect)."""
    s = state[0]
    s["researched"][p, TECH[tech]] = 1
    s["n_techs"][p] += 1


def tab(rules) -> np.void:
    """The kernels' table record (``T = tables[0]``); fields read as ``tab(rules)["name"]``."""
    return rules.tables[0]
