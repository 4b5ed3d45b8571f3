"""Pendulum's codes: actions, phases, pending decisions, agents, event-log rows.

**Actions** are int codes (a legal-action buffer holds up to ``MAX_ACTIONS``):

    A_PASS                   PH_REAL / PH_STEP5: done for now (the step ends when every agent passed in a row)
    A_FLIP + t               PH_REAL: flip timer t (T_PURPLE, T_GREEN, T_BLACK) whose sand has run out
    A_PICKUP                 PH_REAL: pick up stratagems (pay 5 culture, discarded stratagems back to hand)
    A_REFILL                 PH_REAL / PH_PENDING(conquer): fill the empty province display slots from the deck
    A_CLAIM + c              PH_REAL: claim the achievement; c = 0 take the legendary token, 1 the ribbon reward
    A_NO / A_YES             PH_PENDING: decline / accept (glory for a VP past a track's end; optional choices)
    A_RES + r                PH_PENDING: one cube of resource r (R_MILITARY, R_CULTURE, R_GOLD) for a wild gain or cost
    A_TRACK + k              PH_PENDING: one VP on track k (K_POWER, K_PRESTIGE, K_POPULARITY) for vp:any
    A_LIFT + w               PH_REAL (solo): lift worker w out of a bottom box (Automa trigger 1), then PH_REPLACE
    A_MOVE + w * N_DEST + d  PH_START / PH_REAL / PH_REPLACE / PH_STEP5: worker w to the top frame of space d
                             (0..n_spaces-1 of the board side in play) or to the mat (d = DEST_MAT)
    A_ACTION + w * 2 + alt   PH_REAL: worker w takes the action of its space (alt: which reward of a double frame)
    A_STRAT + i              PH_REAL: play stratagem i (index into the ruleset's stratagem table)
    A_CONQUER + src * 4 + m  PH_PENDING(conquer): province from display slot src (0..3) or the deck top (src = 4),
                             tucked under mat slot m (M_BROWN, M_RED, M_BLUE, M_YELLOW)
    A_COUNCIL + c            PH_COUNCIL: take council card c (index into the council table; C_DEFAULT always)
    A_WORKER + w             PH_PENDING(retrieve / grande swap / timed-row placement): that worker
    A_TRIM + m * 8 + i       PH_TRIM: remove province i of mat slot m (until the slot is within its limit)
    A_RETURN + i             PH_PENDING(return one stratagem): stratagem i back from the discard to the hand
    A_SWAPVP + f * 3 + t     PH_PENDING(swap vp): move 1 VP from track f to track t
    A_SPACE + d              PH_PENDING(timed-row placement, adjacent action): space d

All legal-action lists are strictly ascending.
"""

from __future__ import annotations

# ---------------------------------------------------------------- board constants

MAX_SPACES = 20  # action spaces on one board side (1-3p: 16, 4-5p: 20)
N_DEST = 21  # MAX_SPACES + the mat
DEST_MAT = 20

# timers / areas (timer t belongs to area t)
T_PURPLE, T_GREEN, T_BLACK = 0, 1, 2
TIMER_NAMES = ("purple", "green", "black")
AREA_NAMES = TIMER_NAMES
ROW_TOP, ROW_BOTTOM = 0, 1
ROW_NAMES = ("top", "bottom")

# resources, tracks, mat slots
R_MILITARY, R_CULTURE, R_GOLD = 0, 1, 2
RESOURCE_NAMES = ("military", "culture", "gold")
K_POWER, K_PRESTIGE, K_POPULARITY = 0, 1, 2
TRACK_NAMES = ("power", "prestige", "popularity")
M_BROWN, M_RED, M_BLUE, M_YELLOW = 0, 1, 2, 3
SLOT_NAMES = ("brown", "red", "blue", "yellow")

# worker places
W_RESERVE = -2  # not in play (waiting by the mat / council board)
W_MAT = -1  # in play, on the mat (free)
W_GONE = -3  # left the game (the common swapped for a grande)
PART_TOP, PART_BOTTOM = 0, 1

# agents (privilege-track ids): seats are 0..n_players-1
AG_NEUTRAL = 5  # the 2-player neutral
AG_AUTOMA1 = 6
AG_AUTOMA2 = 7
AGENT_NAMES = {AG_NEUTRAL: "neutral", AG_AUTOMA1: "automa1", AG_AUTOMA2: "automa2"}

# ---------------------------------------------------------------- actions

A_PASS = 0
A_FLIP = 1  # + timer (3)
A_PICKUP = 4
A_REFILL = 5
A_CLAIM = 6  # + 0 legendary / 1 ribbon
A_NO = 8
A_YES = 9
A_RES = 10  # + resource (3)
A_TRACK = 13  # + track (3)
A_LIFT = 16  # + worker (4)
A_MOVE = 32  # + w * N_DEST + d (4 * 21 = 84)
A_ACTION = 120  # + w * 2 + alt (8)
A_STRAT = 128  # + stratagem index (MAX_STRATS)
A_CONQUER = 208  # + src * 4 + slot (20)
A_COUNCIL = 232  # + council card (N_COUNCIL)
A_WORKER = 264  # + worker (4)
A_TRIM = 272  # + slot * 8 + i (32)
A_RETURN = 304  # + stratagem index (MAX_STRATS)
A_SWAPVP = 384  # + from * 3 + to (9)
A_SPACE = 400  # + space (MAX_SPACES)
MAX_ACTIONS = 512

# ---------------------------------------------------------------- phases

PH_START = 0  # start-of-play placement (round 1): the actor places its grande, then its common, on a bottom-row space
PH_REAL = 1  # the real-time phase: one atomic action by the actor (privilege round robin / earliest clock)
PH_PENDING = 2  # the actor resolves the top pending decision (pend_* fields)
PH_REPLACE = 3  # solo: the lifted worker (s.lifted_worker) is placed again after the Automa acted
PH_COUNCIL = 4  # council step 2: the actor takes one council reward card
PH_TRIM = 5  # council step 3: the actor removes provinces over its per-slot limit
PH_STEP5 = 6  # council step 5: placement-only round robin (moves and pass)
PH_OVER = 7
PHASE_NAMES = ("start", "real_time", "pending", "replace", "council", "trim", "step5", "over")

# pending decisions (pend_kind); pend_n = units left, pend_arg = a parameter
PD_NONE = 0
PD_WILD_GAIN = 1  # choose the resource of each cube gained (A_RES)
PD_WILD_PAY = 2  # choose the resource of each cube paid (A_RES); arg = follow-up effect index to gain after paying
PD_VP_ANY = 3  # choose the track of each VP (A_TRACK)
PD_CONQUER = 4  # choose a province and a mat slot (A_CONQUER), or A_REFILL first
PD_RETRIEVE = 5  # choose a worker on a row with a timer to retrieve (A_WORKER)
PD_GLORY = 6  # a VP past the end of track arg: take 1 glory (A_YES) or lose it (A_NO)
PD_GRANDE_SWAP = 7  # choose the common worker to swap for the second grande (A_WORKER)
PD_RETURN_STRAT = 8  # choose a discarded stratagem back to hand (A_RETURN)
PD_SWAP_VP = 9  # move 1 VP between tracks (A_SWAPVP)
PD_TIMED_PLACE = 10  # Insurgent: a worker (A_WORKER) then a timed-row space (A_SPACE), then its action
PD_ADJACENT = 11  # Warmonger: the adjacent action to take too (A_SPACE), or A_NO
PD_ALT = 12  # choose the alternative of a stratagem "choice:" effect (A_RES + alt index) — arg = effect index
PENDING_NAMES = ("none", "wild_gain", "wild_pay", "vp_any", "conquer", "retrieve", "glory", "grande_swap",
                 "return_stratagem", "swap_vp", "timed_place", "adjacent", "choice")
MAX_PENDING = 12

# time models
TM_SCHEDULE, TM_TIMED = 0, 1
TIME_MODELS = ("schedule", "timed")

# flippers (trace)
FL_ROUND_START, FL_HUMAN, FL_AUTOMA, FL_AUTO, FL_OVERDUE = 0, 1, 2, 3, 4
FLIPPER_NAMES = ("round_start", "human", "automa", "auto", "overdue")

# automa triggers (trace)
TR_BOTTOM_BOX, TR_HUMAN_FLIP, TR_STEP5, TR_OMEN, TR_COUNCIL_VP, TR_SETUP = range(6)
TRIGGER_NAMES = ("bottom_box", "human_flip", "council_step5", "omen", "council_vp", "setup")

# solo end-of-game branches
EB_NONE, EB_NO_LEGENDARY, EB_ONLY_ONE, EB_PARCHMENT, EB_OUTSIDE, EB_MULTI_PARCHMENT, EB_MULTI_LEGENDARY, \
    EB_NO_WINNER = range(8)
END_BRANCHES = ("none", "no_legendary", "only_one_reached", "parchment_compare", "outside_compare",
                "parchment", "legendary_worst_track", "no_winner")

# ---------------------------------------------------------------- options (the opts array)

(OPT_TIME_MODEL, OPT_AUTO_FLIP_AS_HUMAN, OPT_DELAYED_FLIPS, OPT_LEVEL, OPT_OMEN, OPT_SETUP_SAME_CARD,
 OPT_MIRROR_ROWS, OPT_FLIP_AFTER_COUNCIL, OPT_RECHOOSE, OPT_TRACK_ORDER0, OPT_TRACK_ORDER1, OPT_TRACK_ORDER2,
 OPT_PARCHMENT_BEYOND_ENTRY, OPT_OUTSIDE_PRIVILEGE_ONLY, OPT_CARD6_IMMEDIATE, OPT_WARMONGER_CONVERT,
 OPT_ADVANCED, OPT_CHARACTER_SIDE, OPT_SOLO, OPT_ROUNDS, OPT_RES_CAP, OPT_MAX_WORKERS, OPT_ACTION_GOLD,
 OPT_CONQUER_MILITARY, OPT_PICKUP_CULTURE, OPT_PROV_LIMIT, OPT_PROV_LIMIT_MAX3, OPT_TRACK_LAST,
 OPT_PARCHMENT_FIRST, OPT_NEUTRAL_VOTES, OPT_AUTOMA_PARCHMENT_FIRST, OPT_AUTOMA_PARCHMENT_LAST,
 OPT_AUTOMA_GLORY_LAST, OPT_VOTES_CAP, OPT_HUMAN_MS, OPT_HUMAN_SIGMA_PM, OPT_FLIP_MS, OPT_FLIP_SIGMA_PM,
 OPT_AUTOMA_CARD_MS, OPT_SIMUL_MS, OPT_FINAL_PREF0, OPT_FINAL_PREF1, OPT_FINAL_PREF2, OPT_FINAL_PREF3,
 OPT_FINAL_PREF4, OPT_AUTO_ORDER0, OPT_AUTO_ORDER1, OPT_AUTO_ORDER2, OPT_READ_ORDER0) = range(49)
N_READ_ORDER = 7  # OPT_READ_ORDER0 .. +6: council slot codes in the Automa's reading order
OPT_STEP_LIMIT = OPT_READ_ORDER0 + N_READ_ORDER  # atomic actions a seat may take in one schedule step (0: no limit)
OPT_MAX_FLIP_DELAY_MS = OPT_STEP_LIMIT + 1  # delayed flips: a timer run out this long ago flips by itself (ms)
N_OPTS = OPT_MAX_FLIP_DELAY_MS + 1

# council slot codes (reading order entries): R1..R5 = 0..4, DEFAULT = 5, GRANDE = 6
CS_R1, CS_DEFAULT, CS_GRANDE = 0, 5, 6
COUNCIL_SLOT_NAMES = ("R1", "R2", "R3", "R4", "R5", "DEFAULT", "GRANDE")

# final council preference codes (OPT_FINAL_PREF*)
FP_WORST, FP_ALL, FP_SECOND, FP_THIRD, FP_DEFAULT = range(5)
FINAL_PREF_NAMES = ("worst_track_card", "all_tracks_card", "second_worst_track_card", "third_worst_track_card",
                    "default_vp")

# ---------------------------------------------------------------- event log

LOG_WIDTH = 26  # column 0 = event code, 1 = seq-independent "cause" row or -1, then event fields

(EV_GAME_START, EV_AUTOMA_SETUP, EV_HUMAN_SETUP, EV_TIMER_FLIP, EV_SCHEDULE_STEP, EV_WORKER_MOVE, EV_WORKER_LIFT,
 EV_WORKER_PLACE, EV_WORKER_ACTION, EV_GAIN, EV_PAY, EV_PRODUCTION, EV_STRATAGEM, EV_PICKUP, EV_ACHIEVEMENT,
 EV_CONQUER, EV_REFILL, EV_PASS, EV_AUTOMA_DRAW, EV_AUTOMA_MOVE, EV_AUTOMA_FLIP, EV_AUTOMA_DISCARD,
 EV_COUNCIL_CALLED, EV_COUNCIL_AUTOMA_VP, EV_COUNCIL_VOTES, EV_COUNCIL_REWARD, EV_AUTOMA_SYMBOL,
 EV_PROVINCE_LIMIT, EV_ROUND_SETUP, EV_TRACK, EV_GAME_END, EV_RETRIEVE, EV_RECRUIT, EV_GRANDE_SWAP, EV_CHOICE,
 EV_CONFLICT, EV_CLOCK, EV_DECK_ORDER, EV_LEGENDARY) = range(39)
EVENT_NAMES = ("game_start", "automa_setup", "human_setup", "timer_flip", "schedule_step", "worker_move",
               "worker_lift", "worker_place", "worker_action", "gain", "pay", "production", "stratagem_played",
               "stratagems_picked_up", "achievement_claimed", "province_conquered", "display_refilled", "pass",
               "automa_draw", "automa_move", "automa_flip", "automa_province_discard", "council_called",
               "council_automa_vp", "council_votes", "council_reward", "automa_symbol", "province_limit",
               "round_setup", "track", "game_end", "worker_retrieved", "worker_recruited", "grande_swap",
               "choice", "conflict", "clock", "deck_order", "legendary_removed")


# deck codes of EV_DECK_ORDER rows (fields: deck, start, n, v0..v13)
(DECK_PROVINCES, DECK_ACHIEVEMENTS, DECK_COUNCIL, DECK_COUNCIL_REMOVED, DECK_AUTOMA, DECK_PRIVILEGE,
 DECK_AUTOMA_WORKERS, DECK_COUNCIL_OFFER, DECK_DISPLAY) = range(9)
DECK_NAMES = ("provinces", "achievements", "council", "council_removed", "automa", "privilege", "automa_workers",
              "council_offer", "display", "automa_setup")
DECK_AUTOMA_SETUP = 9  # the Automa deck as first shuffled, before the set-up reveal (I.12.2)

# game_end ``decided_by``: the comparison that separated a player from its nearest rival (endgame.py, automa.py)
(DB_NONE, DB_REACHED, DB_LEGENDARY, DB_PARCHMENT_VP, DB_GLORY, DB_WORST_DIST, DB_SECOND_DIST, DB_THIRD_DIST,
 DB_AUTOMA_SCORE, DB_PRIVILEGE) = range(10)
DECIDED_BY_NAMES = ("none", "reached", "legendary", "parchment_vp", "glory", "worst_dist", "second_dist",
                    "third_dist", "automa_score", "privilege")

# council_reward ``tiebreak``: what settled an Automa's choice among equals (automa.py)
CT_NONE, CT_READING_ORDER, CT_TRACK_ORDER = 0, 1, 2
COUNCIL_TIEBREAK_NAMES = ("none", "reading_order", "track_order_on_mat")
