"""Pendulum's economy and its cards as kernels: the API in one place (NOTES I.4, I.7, I.10.3, I.11, II.15-II.17, V.1).

The kernels live in one module per family, lowest first (each imports only the ones before it, and ``workers``
sits between the economy and the decisions):

    workforce      a seat's workers in play, counted and recruited (re-exported by ``workers``)
    economy        resources and their caps, votes, VP tracks and glory, costs (``can_pay``, ``pay``,
                   ``pay_gain``) and gains (``gain``: the token grammar, production, the specials below);
                   ``push_pending``, because gains and costs leave decisions
    provinces      the province display (``refill``) and conquests (``conquer_legal``)
    achievements   what a claim requires (``claim_legal``) and gives
    pending        the pending decisions: ``pending_legal``, ``pending_apply``, ``pending_settle``
    cards          the card actions: stratagems (``strat_legal``, ``play_strat``, ``pickup``) and ``claim``

This module re-exports them all (``effects.gain``, ``effects.pending_settle``...) and names the columns of their
event rows (``EVENT_FIELDS``, read by the trace under this module's name).

The specials of the token grammar (``tables.SP_*``, gained by ``economy.gain``):

    max3                  s.max3 = 1
    pickup_stratagems     every discarded stratagem back to hand, free (council card 7; EV_PICKUP)
    swap_vp               PD_SWAP_VP: 1 VP from one track to another (A_SWAPVP)
    free_action           arms s.free_action (the next green/purple worker action costs no gold)
    double_action         arms s.double_action;  adjacent_action arms s.adjacent_action (workers.take_action)
    claim_achievement_twice  s.claim_twice = 1: one more claim this round (consumed by that claim)
    claim_achievement     Pacifist: claim the current achievement with its requirement waived (the card's cost
                          stands for it); the per-round claim limit still applies. PD_ALT with arg ALT_CLAIM:
                          A_RES + 0 the legendary (when allowed), A_RES + 1 the ribbon reward
    exchange_military_culture  Warmonger (II.17, opts[OPT_WARMONGER_CONVERT]): 0 = swap the two amounts held
                          (each capped); 1 = convert any number 1:1: PD_ALT with arg ALT_EXCHANGE, one A_RES per
                          cube (A_RES + R_MILITARY: a culture cube becomes military, A_RES + R_CULTURE the other
                          way), the first choice fixes the direction, A_NO stops
    place_on_timed_row    PD_TIMED_PLACE: A_WORKER (a free worker), then A_SPACE (workers.timed_place)
    return_one_stratagem  PD_RETURN_STRAT: a discarded stratagem back to hand (A_RETURN; never the card played)
    grande                PD_GRANDE_SWAP: the common to swap for the second grande (workers.grande_swap)

Pending decision kinds (``PD_*``; a stack, see ``pending``): PD_GLORY (A_YES / A_NO per VP past a track's end,
advanced variant), PD_VP_ANY (A_TRACK per VP), PD_WILD_GAIN / PD_WILD_PAY (A_RES per cube), PD_ALT (A_RES + alt;
arg = the effect, or ALT_CLAIM / ALT_EXCHANGE*), PD_CONQUER (A_CONQUER + src * 4 + m), PD_SWAP_VP (A_SWAPVP),
PD_RETURN_STRAT (A_RETURN), and the worker decisions (PD_RETRIEVE, PD_GRANDE_SWAP, PD_TIMED_PLACE, PD_ADJACENT:
A_WORKER / A_SPACE, ``workers``).
"""

from __future__ import annotations

from simlab.games.pendulum.achievements import *  # noqa: F403  (effects.py is the economy's whole API in one place)
from simlab.games.pendulum.cards import *  # noqa: F403
from simlab.games.pendulum.codes import (
    EV_ACHIEVEMENT,
    EV_CHOICE,
    EV_CONQUER,
    EV_GAIN,
    EV_PAY,
    EV_PICKUP,
    EV_PRODUCTION,
    EV_REFILL,
    EV_STRATAGEM,
    EV_TRACK,
)
from simlab.games.pendulum.economy import *  # noqa: F403
from simlab.games.pendulum.pending import *  # noqa: F403
from simlab.games.pendulum.provinces import *  # noqa: F403
from simlab.games.pendulum.workforce import *  # noqa: F403

EVENT_FIELDS = {
    # a gain of effect e (alternative alt; effect 0 = a direct resource/vote change): resources and votes
    # before and after, cubes lost to the caps, the legendary VP held after; VP appear as EV_TRACK rows and
    # production details as EV_PRODUCTION rows (logged after this row)
    EV_GAIN: ("effect", "alt", "military_before", "culture_before", "gold_before", "votes_before",
              "military_after", "culture_after", "gold_after", "votes_after", "lost", "has_legendary"),
    # a cost paid (effect, times; effect 0 = the rest of a wild cost paid automatically); is_wild_pending: the
    # wild part waits for PD_WILD_PAY decisions (EV_CHOICE rows); VP costs appear as EV_TRACK rows
    EV_PAY: ("effect", "times", "military_before", "culture_before", "gold_before", "votes_before",
             "military_after", "culture_after", "gold_after", "votes_after", "is_wild_pending"),
    # every change of a VP track or a glory cube: gain = the change applied (after - before; negative: paid),
    # requested = the VP the effect asked for (gain + lost + glory_pending when nothing was clipped at 0),
    # lost = VP lost past the end, glory_pending = VP past the end waiting for PD_GLORY decisions
    EV_TRACK: ("player", "track", "before", "after", "gain", "lost", "glory_pending", "glory_before",
               "glory_after", "requested"),
    # production of one mat slot: the mat's yield effect (0 on continuation rows), the number of provinces under
    # the slot, the index of the first one listed here, then (province, its edge effect for this slot) pairs
    EV_PRODUCTION: ("slot", "mat_effect", "n_provinces", "first", "p0_province", "p0_effect", "p1_province",
                    "p1_effect", "p2_province", "p2_effect", "p3_province", "p3_effect", "p4_province",
                    "p4_effect", "p5_province", "p5_effect"),
    EV_STRATAGEM: ("strat", "cost_effect", "effect", "n_in_hand_after"),
    # Pick Up Stratagems: culture paid (0 for council card 7), culture before/after, the cards returned
    EV_PICKUP: ("culture_paid", "culture_before", "culture_after", "n_returned", "ret0_strat", "ret1_strat",
                "ret2_strat", "ret3_strat", "ret4_strat", "ret5_strat", "ret6_strat", "ret7_strat",
                "ret8_strat", "ret9_strat", "ret10_strat", "ret11_strat", "ret12_strat"),
    # a claim: achievement row, its requirement and ribbon effects, the amounts held when claiming, legendary
    # (1) or ribbon (0), the claim's number this round, is_waived: Pacifist stratagem (requirement not checked)
    EV_ACHIEVEMENT: ("achievement_row", "requirement_effect", "ribbon_effect", "military", "culture", "gold",
                     "votes", "is_legendary", "claim_no", "is_waived"),
    # a conquest: source (display position 0..3, 4 = deck top), the province, the mat slot, its edge there,
    # provinces now under that slot, cards left in the deck
    EV_CONQUER: ("source", "province", "mat_slot", "edge_effect", "n_under_slot", "deck_left"),
    EV_REFILL: ("display_pos", "province", "deck_left"),
    # a pending decision: kind (PD_*), the action taken (FORFEIT = -1: no option, dropped), units left after,
    # the entry's arg, is_auto (forced, taken by the rules), the value concerned before/after (resource or track;
    # -1 when none) and what was lost
    EV_CHOICE: ("pending", "action", "n_left", "arg", "is_auto", "before", "after", "lost"),
}
"""Fields of the events this module logs, in column order (eventlog.FIELD0 + i)."""
