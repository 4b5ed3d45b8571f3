"""The Smartphone Inc. state record: one numpy structured scalar holds a whole game.

Layout (P = seat 0..4, R = region, T = technology, B = buyer, H = hand slot, X = padded frame position):

    game      n_players round (1..5) phase (1..8) over n_steps
    decision  pending (D_*)  actor (seat to act)  turn (index into order)  order[P] (seats in
              priority order for phases 4-7; seat order in phase 1)  stage (step inside a phase-6 turn)
              markers (progress markers left this turn)  takes (upgrades still to take in phase 4)
              rb_kind rb_left (a retailer bonus being resolved) move_from (MOVE_OFFICE source region)
    seats     colour[P] start_region[P]
    planning  plan_arr[P] (arrangement, -1 before) plan_n[P] placed upgrades; plan_hand/slot/orient[P, H]
              (hand slot, slot row, half order of each placed upgrade, bottom to top in placing order)
              pl_low/pl_top[P, X] topmost UNDER / TOP upgrade symbol per position (-1 none)
              vis_tab/vis_upg[P, S] active symbols shown by tablets / by upgrade halves
              overhang_used[P]
    hand      hand[P, H] upgrade index (-1 empty) hand_round[P, H] round it was taken (0: starting)
              hand_n[P] tokens[P] (goods tokens; one taken in phase 4 produces from the next round)
              tokens_left (goods-token supply, for the limited option)
    economy   price[P] produced[P] (this round's phase 3) goods[P] (in the organiser) vp[P] (the track)
    research  progress[P, T] researched[P, T] patent_owner[T] tech_side[T] (0 face, 1 back)
              n_techs[P] n_patents[P]
    map       reg_progress[P, R] office[R, 5] seat per office place (-1 free) office_n[R]
              own_offices[P, R] retailer[R] tile (-1 none) retailer_side[R] (0 a, 1 b)
              places[R] office places (the retailer's on a covered region)
    buyers    buyer_owner[B] seat whose good lies on buyer B this round (-1 free)
              used_outside[P] (4G back used this round)
    display   display[5] upgrade index (-1 taken) deck[32] deck_n (top is deck[deck_n - 1])
    scoring   sales_vp nfc_vp control_vp patent_vp retailer_vp total rank winner [P]
    stats     sold[P] lost[P] produced_total[P] offices_built[P] controls[P] upgrades_taken[P]
              tokens_taken[P] price_sum[P] first_count[P] (times first in phase-4 priority)
              round_vp[P, 5]
    chance    rng_key[K] rng_ctr[K]: K = chance streams + one per seat (STREAM_*)

Indices are rows of the data arrays (``SmartphoneData.region_array`` etc.), not printed ids.
Copying a game (for search players) is copying this one record.
"""

from __future__ import annotations

import numpy as np

MIN_PLAYERS = 2
MAX_PLAYERS = 5
N_ROUNDS = 5
N_PHASES = 8
N_SYM = 7
N_TECH = 6
MAX_REGIONS = 16
MAX_PLACES = 6
MAX_BUYERS = 96
MAX_HAND = 16
MAX_DECK = 32
DISPLAY = 5
PAD_N = 6 * 7  # padded planning frame: arrangements frame (4 x 5) plus one position each way

# Pending decisions.
(D_NONE, D_ARRANGE, D_PLACE, D_PICK, D_RESEARCH, D_LOGISTICS, D_WIFI, D_GAMEPAD, D_NFC, D_SELL,
 D_RB_RESEARCH, D_RB_PRICE, D_RB_SECOND, D_MOVE_FROM, D_MOVE_TO) = range(15)
DECISION_NAMES = ("none", "arrange", "place_upgrade", "pick_upgrade", "research", "logistics", "wifi_office",
                  "gamepad_office", "nfc_sale", "sell", "retailer_research", "retailer_price",
                  "retailer_second_office", "move_office_from", "move_office_to")

# Phase-6 turn stages.
ST_LOGISTICS, ST_WIFI, ST_GAMEPAD, ST_NFC, ST_END = range(5)

# Random streams. Chance is split by purpose so that the set-up and every tie-break draw depend
# only on the game seed, never on what the players do.
STREAM_SETUP = 0  # colours, retailers, technology sides, the upgrade deck
STREAM_PRIORITY = 1  # the last tie-break of the priority rule (one draw per seat and phase)
STREAM_SEAT0 = 2  # seat p draws from stream STREAM_SEAT0 + p
N_STREAMS = STREAM_SEAT0 + MAX_PLAYERS

P, R, B, H, X = MAX_PLAYERS, MAX_REGIONS, MAX_BUYERS, MAX_HAND, PAD_N

STATE_DTYPE = np.dtype(
    [
        ("seed", np.uint64),
        ("n_players", np.int8),
        ("round", np.int8),
        ("phase", np.int8),
        ("over", np.int8),
        ("n_steps", np.int32),
        ("pending", np.int8),
        ("actor", np.int8),
        ("turn", np.int8),
        ("order", np.int8, (P,)),
        ("stage", np.int8),
        ("markers", np.int16),
        ("takes", np.int8),
        ("rb_kind", np.int8),
        ("rb_left", np.int8),
        ("move_from", np.int8),
        ("colour", np.int8, (P,)),
        ("start_region", np.int8, (P,)),
        ("plan_arr", np.int16, (P,)),
        ("plan_n", np.int8, (P,)),
        ("plan_hand", np.int8, (P, H)),
        ("plan_slot", np.int8, (P, H)),
        ("plan_orient", np.int8, (P, H)),
        ("pl_low", np.int8, (P, X)),
        ("pl_top", np.int8, (P, X)),
        ("vis_tab", np.int8, (P, N_SYM)),
        ("vis_upg", np.int8, (P, N_SYM)),
        ("overhang_used", np.int8, (P,)),
        ("hand", np.int8, (P, H)),
        ("hand_round", np.int8, (P, H)),
        ("hand_n", np.int8, (P,)),
        ("tokens", np.int8, (P,)),
        ("tokens_left", np.int16),
        ("price", np.int8, (P,)),
        ("produced", np.int16, (P,)),
        ("goods", np.int16, (P,)),
        ("vp", np.int16, (P,)),
        ("progress", np.int8, (P, N_TECH)),
        ("researched", np.int8, (P, N_TECH)),
        ("patent_owner", np.int8, (N_TECH,)),
        ("tech_side", np.int8, (N_TECH,)),
        ("n_techs", np.int8, (P,)),
        ("n_patents", np.int8, (P,)),
        ("reg_progress", np.int8, (P, R)),
        ("office", np.int8, (R, MAX_PLACES)),
        ("office_n", np.int8, (R,)),
        ("own_offices", np.int8, (P, R)),
        ("retailer", np.int8, (R,)),
        ("retailer_side", np.int8, (R,)),
        ("places", np.int8, (R,)),
        ("buyer_owner", np.int8, (B,)),
        ("used_outside", np.int8, (P,)),
        ("display", np.int8, (DISPLAY,)),
        ("deck", np.int8, (MAX_DECK,)),
        ("deck_n", np.int8),
        ("sales_vp", np.int16, (P,)),
        ("nfc_vp", np.int16, (P,)),
        ("control_vp", np.int16, (P,)),
        ("patent_vp", np.int16, (P,)),
        ("retailer_vp", np.int16, (P,)),
        ("total", np.int16, (P,)),
        ("rank", np.int8, (P,)),
        ("winner", np.int8, (P,)),
        ("sold", np.int16, (P,)),
        ("lost", np.int16, (P,)),
        ("produced_total", np.int16, (P,)),
        ("offices_built", np.int8, (P,)),
        ("controls", np.int8, (P,)),
        ("upgrades_taken", np.int8, (P,)),
        ("tokens_taken", np.int8, (P,)),
        ("price_sum", np.int16, (P,)),
        ("first_count", np.int8, (P,)),
        ("round_vp", np.int16, (P, N_ROUNDS)),
        ("rng_key", np.uint64, (N_STREAMS,)),
        ("rng_ctr", np.uint64, (N_STREAMS,)),
    ]
)
