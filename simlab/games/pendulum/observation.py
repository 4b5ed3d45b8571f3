"""What a Python Pendulum player sees: :class:`PendulumObservation`, the observation helpers.

Every helper answers from the seat's own view (``obs.state``, which ``PendulumGame.hide`` stripped of the
deck orders, the council cards still in the deck and the other random streams). Helpers that need the
rules (``open_spaces``, ``action_preview``) call the game's own kernels, on a copy of that view whose hidden
parts were re-dealt (``players.determinize``), never on the true state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from simlab.core.compiled import Observation
from simlab.games.pendulum import players, workers
from simlab.games.pendulum.codes import (
    A_ACTION,
    A_CLAIM,
    A_CONQUER,
    A_COUNCIL,
    A_STRAT,
    AG_AUTOMA1,
    AG_AUTOMA2,
    AG_NEUTRAL,
    AGENT_NAMES,
    AREA_NAMES,
    OPT_NEUTRAL_VOTES,
    OPT_PARCHMENT_FIRST,
    OPT_TRACK_LAST,
    PART_BOTTOM,
    PART_TOP,
    PENDING_NAMES,
    PH_COUNCIL,
    PH_PENDING,
    PH_REPLACE,
    RESOURCE_NAMES,
    ROW_NAMES,
    SLOT_NAMES,
    TIMER_NAMES,
    TRACK_NAMES,
    W_MAT,
)
from simlab.games.pendulum.rules import apply_action, new_log
from simlab.games.pendulum.state import MAX_WORKERS, STREAM_SEAT0
from simlab.games.pendulum.tables import (
    AC_VOTES,
    CO_COST,
    CO_EFFECT,
    EF_RES0,
    EF_VOTES,
    EF_VP0,
    EF_WILD,
    SP_AREA,
    SP_COST,
    SP_FRAME,
    SP_NALT,
    SP_REWARD0,
    SP_ROW,
    ST_COST,
    ST_EFFECT,
)

FRAMES = ("single", "double", "open")
PREVIEW_SEED = np.uint64(0x5EED_0F_F1EE)  # the fixed key of the re-dealt copy a preview plays on


@dataclass(frozen=True)
class SpaceView:
    """One action space as a seat sees it: where it is, what it gives and costs, who stands there."""

    index: int  # space index (the ``d`` of ``A_MOVE + w * N_DEST + d``)
    id: str  # ``1-3p:green:top:0``
    area: str  # purple / green / black
    row: str  # top / bottom
    frame: str  # single / double / open
    rewards: tuple[str, ...]  # the reward of each alternative, in token text
    cost: str  # token text (``none``)
    timed: bool  # the area's timer is on this row (workers act here, none may enter)
    for_common: bool  # one of your commons may move into its top frame now
    for_grande: bool  # one of your grandes may move into its top frame now
    occupants: tuple[str, ...]  # ``seat0:top``, ``automa``, ``neutral``


class PendulumObservation(Observation):
    """What a Python player sees: ``seat``, ``legal``, ``state``, ``rules``, plus the Pendulum helpers.

    ``open_spaces(timer)`` (the spaces a worker could move to now), ``space(d)``, ``my_workers()``,
    ``production(slot)`` (what producing a mat slot gives now), ``achievement()`` (the card, its requirement,
    what you lack), ``action_preview(a)`` (what an action would cost and bring, by the rules' own kernels),
    ``council_outlook()`` (votes, the likely privilege rank, the offer, the Automas' visible cards),
    ``my_tracks()`` (positions and distances to the parchment), ``timers()`` (rows, run out or not).
    """

    # ---- the seat's view and a playable copy of it
    def _view(self) -> np.void:
        return self.state

    def _playable(self) -> np.ndarray:
        """A copy of the seat's view with the hidden parts re-dealt (a fixed key): the rules can run on it."""
        view = self._game.hide(self._state, self.seat)
        players.determinize(view[0], self.rules.tables[0], self.seat, PREVIEW_SEED)
        return view

    # ---- board
    def space(self, d: int) -> SpaceView:
        """Space index ``d`` as this seat sees it."""
        t = self.rules.tables[0]
        rec = self._view()
        d = int(d)
        n_alt = max(1, int(t["sp"][d, SP_NALT]))
        rewards = tuple(self.rules.effect_text(int(t["sp"][d, SP_REWARD0 + i])) for i in range(n_alt))
        timed = int(rec["timer_row"][int(t["sp"][d, SP_AREA])]) == int(t["sp"][d, SP_ROW])
        common = grande = False
        for w in range(MAX_WORKERS):
            if int(rec["w_place"][self.seat, w]) < W_MAT:
                continue
            if workers.can_place(rec, t, self.seat, w, d):
                if rec["w_grande"][self.seat, w]:
                    grande = True
                else:
                    common = True
        occ = []
        for p in range(int(rec["n_players"])):
            for w in range(MAX_WORKERS):
                if int(rec["w_place"][p, w]) == d:
                    occ.append(f"seat{p}:{'top' if int(rec['w_part'][p, w]) == PART_TOP else 'bottom'}")
        if workers.automa_on_space(rec, d):
            occ.append("automa")
        if workers.neutral_on_space(rec, t, d):
            occ.append("neutral")
        sp = t["sp"][d]
        return SpaceView(d, self.rules.space_id(d), AREA_NAMES[int(sp[SP_AREA])], ROW_NAMES[int(sp[SP_ROW])],
                         FRAMES[int(sp[SP_FRAME])], rewards, self.rules.effect_text(int(sp[SP_COST])),
                         timed, common, grande, tuple(occ))

    def open_spaces(self, timer: str | int | None = None) -> list[SpaceView]:
        """The spaces one of your workers could move into now (a row without its timer, not blocked for at
        least one of your workers in play), of one area (``purple``/``green``/``black`` or the timer code)
        or of all three."""
        if isinstance(timer, str):
            timer = TIMER_NAMES.index(timer)
        out = []
        for d in range(self.rules.n_spaces):
            v = self.space(d)
            if timer is not None and AREA_NAMES.index(v.area) != int(timer):
                continue
            if v.for_common or v.for_grande:
                out.append(v)
        return out

    def my_workers(self) -> list[dict[str, Any]]:
        """Your workers in play: ``worker`` (slot, the ``w`` of action codes), ``grande``, ``place`` (a space
        id or ``mat``), ``part`` (top/bottom), ``state``: ``can_act`` (top frame of the timed row), ``waiting``
        (top frame of an untimed row: acts when its timer comes), ``free`` (mat or an untimed bottom box)
        or ``stuck`` (bottom box of the timed row)."""
        t = self.rules.tables[0]
        rec = self._view()
        out = []
        for w in range(MAX_WORKERS):
            d = int(rec["w_place"][self.seat, w])
            if d < W_MAT:
                continue
            if d == W_MAT:
                state, part = "free", None
            else:
                timed = int(rec["timer_row"][int(t["sp"][d, SP_AREA])]) == int(t["sp"][d, SP_ROW])
                part = "top" if int(rec["w_part"][self.seat, w]) == PART_TOP else "bottom"
                state = ({("top", True): "can_act", ("top", False): "waiting", ("bottom", True): "stuck",
                          ("bottom", False): "free"})[(part, timed)]
            out.append({"worker": w, "grande": bool(rec["w_grande"][self.seat, w]), "place": self.rules.space_id(d),
                        "space": d if d >= 0 else None, "part": part, "state": state})
        return out

    # ---- what an action does
    def _cost_dict(self, e: int) -> dict[str, int]:
        t = self.rules.tables[0]
        out: dict[str, int] = {}
        if e <= 0:
            return out
        for r in range(3):
            if t["eff"][e, 0, EF_RES0 + r]:
                out[RESOURCE_NAMES[r]] = int(t["eff"][e, 0, EF_RES0 + r])
        if t["eff"][e, 0, EF_WILD]:
            out["wild"] = int(t["eff"][e, 0, EF_WILD])
        if t["eff"][e, 0, EF_VOTES]:
            out["votes"] = int(t["eff"][e, 0, EF_VOTES])
        for k in range(3):
            if t["eff"][e, 0, EF_VP0 + k]:
                out[TRACK_NAMES[k]] = int(t["eff"][e, 0, EF_VP0 + k])
        return out

    def _action_cost(self, action: int) -> dict[str, int]:
        t = self.rules.tables[0]
        rec = self._view()
        a = int(action)
        if A_ACTION <= a < A_STRAT:
            w = (a - A_ACTION) // 2
            d = int(rec["w_place"][self.seat, w])
            if d < 0:
                return {}
            free = bool(rec["free_action"][self.seat]) and AREA_NAMES[int(t["sp"][d, SP_AREA])] != "black"
            return {} if free else self._cost_dict(int(t["sp"][d, SP_COST]))
        if A_STRAT <= a < A_CONQUER:
            return self._cost_dict(int(t["st"][a - A_STRAT, ST_COST]))
        if A_COUNCIL <= a < A_COUNCIL + 32:
            return self._cost_dict(int(t["co"][a - A_COUNCIL, CO_COST]))
        if a == 4:  # A_PICKUP
            return {"culture": 5}
        return {}

    def action_preview(self, action: int) -> dict[str, Any]:
        """What action ``a`` would cost and bring this seat, by the rules' own kernels on a copy of its view.

        Returns ``pay`` (the price: resources, ``wild``, votes, VP by track name), ``gain`` (what arrives:
        resources, votes, VP by track, ``legendary``, ``provinces``, ``workers``; a cap or a track's end shows
        as a smaller gain), ``change`` (the net change, ``gain`` less ``pay``), ``then`` (the decisions the
        seat must take next: ``wild_gain``, ``vp_any``, ``conquer``, ... by pending kind name) and ``effect``
        (the card's or space's effect text, when there is one). Hidden cards are re-dealt in the copy (a
        conquer from the deck top shows some card, not the true one)."""
        t = self.rules.tables[0]
        copy = self._playable()
        before = copy[0].copy()
        apply_action(copy[0], t, int(action), new_log(0))
        after = copy[0]
        p = self.seat

        def snap(r: Any) -> dict[str, int]:
            d = {RESOURCE_NAMES[i]: int(r["res"][p, i]) for i in range(3)}
            d["votes"] = int(r["votes"][p])
            d.update({TRACK_NAMES[k]: int(r["track"][p, k]) for k in range(3)})
            d["legendary"] = int(r["legendary"][p])
            d["provinces"] = int(r["prov_n"][p].sum())
            d["workers"] = sum(int(r["w_place"][p, w]) >= W_MAT for w in range(MAX_WORKERS))
            return d

        b, a = snap(before), snap(after)
        change = {k: a[k] - b[k] for k in b if a[k] != b[k]}
        pay = self._action_cost(action)
        gain = {k: change.get(k, 0) + pay.get(k, 0) for k in set(change) | set(pay) if k != "wild"}
        if "wild" in pay:  # a wild price: the cubes that went count as paid, not as a loss of gain
            for r in RESOURCE_NAMES:
                if gain.get(r, 0) < 0:
                    gain[r] = 0
        gain = {k: v for k, v in gain.items() if v}
        then = []
        if int(after["phase"]) == PH_PENDING and int(after["actor"]) == p:
            then = [PENDING_NAMES[int(after["pend_kind"][i])] for i in range(int(after["n_pend"]) - 1, -1, -1)]
        elif int(after["phase"]) == PH_REPLACE and int(after["actor"]) == p:
            then = ["replace"]
        effect = None
        x = int(action)
        if A_ACTION <= x < A_STRAT:
            d = int(before["w_place"][p, (x - A_ACTION) // 2])
            if d >= 0:
                effect = self.rules.effect_text(int(t["sp"][d, SP_REWARD0 + (x - A_ACTION) % 2]))
        elif A_STRAT <= x < A_CONQUER:
            effect = self.rules.effect_text(int(t["st"][x - A_STRAT, ST_EFFECT]))
        elif A_COUNCIL <= x < A_COUNCIL + 32:
            effect = self.rules.effect_text(int(t["co"][x - A_COUNCIL, CO_EFFECT]))
        elif A_CLAIM <= x < A_CLAIM + 2:
            c = int(before["ach_card"])
            if x == A_CLAIM:
                effect = "legendary:1"
            elif c >= 0:
                effect = self.rules.effect_text(int(t["ach"][c, 1]))
        return {"pay": pay, "gain": gain, "change": change, "then": then, "effect": effect}

    # ---- council
    def _agent_name(self, q: int) -> str:
        return f"seat{q}" if q < int(self._view()["n_players"]) else AGENT_NAMES[q]

    def council_outlook(self) -> dict[str, Any]:
        """The coming council from this seat's view.

        ``votes``: every agent's votes so far by name (``seat0``.., ``neutral``: the 3 it always bids,
        Automas: the votes of their revealed cards plus the scoring card's bonus and the time markers, 0..20,
        or None while no card is revealed), ``automa_expected``: each Automa's expected votes (about 1.1 per card
        still to come), ``privilege``: the privilege order now, ``my_rank``: your likely rank by votes (ties
        lost), ``bonus_vp``: the council bonus VP at that rank, ``offer``: the council card ids on offer,
        ``grande_available``, ``automa_cards``: the Automas' revealed cards (Omen, or once the council reveals
        them) as card ids, and ``markers_on_automa_board``."""
        rec = self._view()
        t = self.rules.tables[0]
        n = int(rec["n_players"])
        votes: dict[str, int | None] = {f"seat{q}": int(rec["votes"][q]) for q in range(n)}
        expected: dict[str, float] = {}
        cards: dict[str, list[int]] = {}
        priv = [int(rec["priv"][j]) for j in range(int(rec["n_priv"]))]
        if AG_NEUTRAL in priv:
            votes["neutral"] = int(t["opts"][OPT_NEUTRAL_VOTES])
        if rec["solo"]:
            lvl = int(t["opts"][players.OPT_LEVEL])
            rnd = min(max(int(rec["round"]), 1), 4) - 1
            for i, ag in enumerate((AG_AUTOMA1, AG_AUTOMA2)):
                name = AGENT_NAMES[ag]
                k = int(rec["a_ncards"][i])
                cards[name] = [self.rules.acard_id(int(rec["a_cards"][i, j])) for j in range(k)]
                if k:
                    raw = sum(int(t["acard"][int(rec["a_cards"][i, j]), AC_VOTES]) for j in range(k))
                    votes[name] = min(max(raw + int(t["scoring"][lvl, rnd, 1]) + int(rec["markers_automa"]), 0), 20)
                else:
                    votes[name] = None
                expected[name] = float(players._automa_votes_estimate(rec, t, i))
        mine = int(rec["votes"][self.seat])
        rank = 1
        for q in priv:
            if q == self.seat:
                continue
            v = votes.get(self._agent_name(q))
            if v is None:
                v = expected.get(self._agent_name(q), 0.0)
            if v >= mine:
                rank += 1
        bonus = int(t["priv_bonus"][rank - 1]) if rank <= 5 else 0
        offer = [self.rules.council_id(int(c)) for c in rec["offer"] if int(c) >= 0]
        return {"votes": votes, "automa_expected": expected, "privilege": [self._agent_name(q) for q in priv],
                "my_rank": rank, "bonus_vp": bonus, "offer": offer, "grande_available": bool(rec["grande_up"]),
                "automa_cards": cards, "markers_on_automa_board": int(rec["markers_automa"]),
                "in_council": int(rec["phase"]) == PH_COUNCIL}

    # ---- production
    def production(self, slot: str | int, seat: int | None = None) -> list[str]:
        """What producing a mat slot (``brown``/``red``/``blue``/``yellow`` or its code) gives a seat (yours by
        default) now, as token texts: the mat's yield first, then the edge of every province tucked under the
        slot (``["military:4", "military:2"]``)."""
        if isinstance(slot, str):
            slot = SLOT_NAMES.index(slot)
        rec = self._view()
        p = self.seat if seat is None else int(seat)
        m = int(slot)
        out = [self.rules.data.characters[int(rec["char"][p])].prod[m].text]
        for i in range(int(rec["prov_n"][p, m])):
            out.append(self.rules.data.provinces[int(rec["prov"][p, m, i])].yields[m].text)
        return out

    # ---- achievement
    def achievement(self) -> dict[str, Any]:
        """The achievement on display: ``card`` (its id, None when there is none), ``requirement`` (what must be
        held, not paid: resources, ``wild``, votes), ``short`` (what you lack of it; empty when you could claim
        now), ``ribbon`` (the ribbon reward's token text), ``legendary_on_card`` (the token lies on it; in solo
        only until the 2nd purple flip of the round), ``claims_left`` (claims you have left this round) and
        ``have_legendary``."""
        rec = self._view()
        t = self.rules.tables[0]
        p = self.seat
        c = int(rec["ach_card"])
        if c < 0:
            return {"card": None, "requirement": {}, "short": {}, "ribbon": None,
                    "legendary_on_card": False, "claims_left": 0, "have_legendary": bool(rec["legendary"][p])}
        req = self._cost_dict(int(t["ach"][c, 0]))
        held = {r: int(rec["res"][p, i]) for i, r in enumerate(RESOURCE_NAMES)}
        short = {r: req[r] - held[r] for r in RESOURCE_NAMES if req.get(r, 0) > held[r]}
        spare = sum(max(0, held[r] - req.get(r, 0)) for r in RESOURCE_NAMES)
        if req.get("wild", 0) > spare:
            short["wild"] = req["wild"] - spare
        if req.get("votes", 0) > int(rec["votes"][p]):
            short["votes"] = req["votes"] - int(rec["votes"][p])
        claims = (1 if int(rec["ach_claims"][p]) == 0 else 0) + int(rec["claim_twice"][p])
        return {"card": self.rules.achievement_id(c), "requirement": req, "short": short,
                "ribbon": self.rules.effect_text(int(t["ach"][c, 1])),
                "legendary_on_card": bool(rec["legendary_on_card"]), "claims_left": claims,
                "have_legendary": bool(rec["legendary"][p])}

    # ---- tracks and timers
    def my_tracks(self, seat: int | None = None) -> dict[str, Any]:
        """A seat's VP tracks (yours by default): per track ``position`` (0..21), ``to_parchment`` (0 once in
        it), ``inside`` (VP inside the parchment, the token on its first space counting 1), ``to_end``; then
        ``worst`` (the track furthest from the parchment), ``worst_distance``, ``all_in_parchment``,
        ``legendary`` and ``glory`` (by track)."""
        rec = self._view()
        t = self.rules.tables[0]
        p = self.seat if seat is None else int(seat)
        pf, last = int(t["opts"][OPT_PARCHMENT_FIRST]), int(t["opts"][OPT_TRACK_LAST])
        out: dict[str, Any] = {}
        for k, name in enumerate(TRACK_NAMES):
            x = int(rec["track"][p, k])
            out[name] = {"position": x, "to_parchment": max(0, pf - x), "inside": max(0, x - pf + 1),
                         "to_end": last - x}
        worst = max(TRACK_NAMES, key=lambda n: (out[n]["to_parchment"], -TRACK_NAMES.index(n)))
        out["worst"] = worst
        out["worst_distance"] = out[worst]["to_parchment"]
        out["all_in_parchment"] = out["worst_distance"] == 0
        out["legendary"] = bool(rec["legendary"][p])
        out["glory"] = {name: int(rec["glory"][p, k]) for k, name in enumerate(TRACK_NAMES)}
        return out

    def timers(self) -> dict[str, Any]:
        """The three timers: per area ``row`` (top/bottom), ``run_out`` (its sand has run out: it may be
        flipped), ``runs_out_at`` (virtual seconds); plus ``now``, ``step`` (the schedule step, -1 in the
        timed model), ``purple_flips`` (this round, the round-start flip counts), ``markers_left`` and
        ``council_called``."""
        rec = self._view()
        out: dict[str, Any] = {}
        now = float(rec["now"])
        for tm, name in enumerate(TIMER_NAMES):
            out[name] = {"row": ROW_NAMES[int(rec["timer_row"][tm])], "run_out": now >= float(rec["runs_out"][tm]),
                         "runs_out_at": float(rec["runs_out"][tm])}
        out.update({"now": now, "step": int(rec["sched_step"]), "purple_flips": int(rec["purple_flips"]),
                    "markers_left": int(rec["markers_left"]), "council_called": bool(rec["council_called"])})
        return out

    @property
    def phase(self) -> str:
        """The decision being asked: ``start``, ``real_time``, ``pending``, ``replace``, ``council``, ``trim``,
        ``step5`` (``codes.PHASE_NAMES``)."""
        from simlab.games.pendulum.codes import PHASE_NAMES

        return PHASE_NAMES[int(self._state[0]["phase"])]

    @property
    def pending(self) -> str | None:
        """The pending decision's kind name (``wild_gain``, ``vp_any``, ``conquer``, ...) in phase ``pending``."""
        rec = self._state[0]
        if int(rec["phase"]) != PH_PENDING or int(rec["n_pend"]) <= 0:
            return None
        return PENDING_NAMES[int(rec["pend_kind"][int(rec["n_pend"]) - 1])]


assert PART_BOTTOM == 1 and STREAM_SEAT0 > 0
