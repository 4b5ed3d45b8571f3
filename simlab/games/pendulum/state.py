"""The Pendulum state record: one numpy structured scalar holds a whole game (base game or solo).

Layout (P = seat 0..4; W = worker slot 0..3; A = privilege-track entry 0..7; K = random stream):

    game      seed n_players solo (1: one seat against two Automas) phase actor over round (1..4)
              end_branch (codes.EB_*) level (Automa level 0..5 = A..F) cause (log row of the event that
              caused the events now being logged, -1 for none: see eventlog.py)
    clock     now (virtual seconds) sched_step (0..10; -1 in the timed model) timer_row[3] (ROW_TOP /
              ROW_BOTTOM) runs_out[3] (a timer has run out when now >= runs_out[t])
              purple_flips (this round, the round-start flip counts) markers_left (time markers still in
              the purple circles) markers_automa (on the Automa board) council_called
    agents    priv[A] agent ids in privilege order (seats 0..n-1, AG_NEUTRAL, AG_AUTOMA1, AG_AUTOMA2),
              n_priv; rr (index into priv of the next agent to offer an action), passes (consecutive
              passes); ready_at[P] (timed model: when the seat's next action completes), waiting[P]
              (timed model: the seat passed and waits for the next sand run-out)
    pending   pend_kind[12] pend_n[12] pend_arg[12] n_pend (a stack; top = n_pend - 1), pend_seat,
              resume_phase (where play goes when the stack empties); lifted_seat lifted_worker (solo:
              a worker lifted out of a bottom box, placed again in PH_REPLACE)
    seats     char[P] (row of the ruleset's characters) advanced[P] (advanced variant for this seat)
              res[P, 3] (military, culture, gold) votes[P] track[P, 3] (0..track_last) glory[P, 3]
              legendary[P] (has the legendary VP) ach_claims[P] (claims this round) max3[P]
              strat[P, S] (0 not owned, 1 in hand, 2 discarded; S = ruleset stratagem index)
              workers: w_place[P, W] (space index, W_MAT, W_RESERVE or W_GONE) w_part[P, W] (PART_TOP /
              PART_BOTTOM) w_grande[P, W]; provinces: prov[P, 4, 8] (card ids under mat slot m),
              prov_n[P, 4]; stratagem modifiers armed for the next worker action: free_action[P]
              double_action[P] adjacent_action[P]; claim_twice[P]
    provinces pdeck[64] pdeck_n (top = pdeck[pdeck_n - 1]) display[4] (card id or -1; slot 0 = top)
              removed_n (provinces out of the game)
    achieve   adeck[16] adeck_n ach_card (card row or -1) legendary_on_card (the token is on the card)
              legendary_on_council (2-3 players: the token waits on the council deck until council 1)
    council   cdeck[32] cdeck_n (standard cards left, top = cdeck[cdeck_n - 1]; the finals are kept
              apart) offer[5] (card index or -1 once taken; council 4: the 5 final cards) grande_up
              council_pos (index into priv of the chooser) trim_seat
    automa    a_deck[32] a_deck_n a_disc[32] a_disc_n a_work[6] (space index of each Automa worker)
              a_score[2] (score-track space) a_grande[2] a_cards[2, 3] (cards revealed for the council
              or by Omen, left to right) a_ncards[2] a_fallback[2] (fallback VP at the last council)
    results   rank[8] (by agent: seats 0..4, then AG_NEUTRAL.. rows 5..7) winner[P] automa_won
              (0 none, 1 Automa 1, 2 Automa 2)
    stats     st_actions[P] st_strats[P] st_provinces[P] st_claims[P] st_legendary_round[P]
              st_council_vp[P] st_triggers[6] (Automa draws by trigger) st_automa_flips
              st_automa_purple (purple flips by the Automa) st_decisions[P] st_lost[P] (resources and
              VP lost to caps and track ends) start_priv[P] (1-based place on the privilege track at setup)
              step_acts[P] step_key[P] (schedule model: actions taken in the step named by the key, for the
              step_action_limit option; realtime.count_step_action)
    chance    rng_key[K] rng_ctr[K]: one stream each for the province deck, the achievement deck, the
              council deck, the Automa deck, setup (privilege order, characters), the clock (timed
              model reaction times), then one per seat (STREAM_SEAT0 + p)

Copying a game (for the search player) is copying this one record.
"""

from __future__ import annotations

import numpy as np

MIN_PLAYERS = 1
MAX_PLAYERS = 5
MAX_PRIV = 8
MAX_WORKERS = 4
MAX_STRATS = 72
MAX_PER_SLOT = 8
MAX_PENDING = 12

STREAM_PROVINCES = 0
STREAM_ACHIEVEMENTS = 1
STREAM_COUNCIL = 2
STREAM_AUTOMA = 3
STREAM_SETUP = 4
STREAM_CLOCK = 5
STREAM_SEAT0 = 6
N_STREAMS = STREAM_SEAT0 + MAX_PLAYERS
STREAM_NAMES = ("provinces", "achievements", "council", "automa", "setup", "clock",
                *[f"seat{p}" for p in range(MAX_PLAYERS)])

P = MAX_PLAYERS

STATE_DTYPE = np.dtype([
    ("seed", np.uint64), ("n_players", np.int32), ("solo", np.int32), ("phase", np.int32), ("actor", np.int32),
    ("over", np.int32), ("round", np.int32), ("end_branch", np.int32), ("level", np.int32), ("cause", np.int32),
    # clock
    ("now", np.float64), ("sched_step", np.int32), ("timer_row", np.int32, 3), ("runs_out", np.float64, 3),
    ("purple_flips", np.int32), ("markers_left", np.int32), ("markers_automa", np.int32),
    ("council_called", np.int32),
    # agents
    ("priv", np.int32, MAX_PRIV), ("n_priv", np.int32), ("rr", np.int32), ("passes", np.int32),
    ("ready_at", np.float64, P), ("waiting", np.int32, P),
    # pending decisions
    ("pend_kind", np.int32, MAX_PENDING), ("pend_n", np.int32, MAX_PENDING), ("pend_arg", np.int32, MAX_PENDING),
    ("n_pend", np.int32), ("pend_seat", np.int32), ("resume_phase", np.int32),
    ("lifted_seat", np.int32), ("lifted_worker", np.int32),
    # seats
    ("char", np.int32, P), ("advanced", np.int32, P), ("res", np.int32, (P, 3)), ("votes", np.int32, P),
    ("track", np.int32, (P, 3)), ("glory", np.int32, (P, 3)), ("legendary", np.int32, P),
    ("ach_claims", np.int32, P), ("max3", np.int32, P), ("strat", np.int8, (P, MAX_STRATS)),
    ("w_place", np.int32, (P, MAX_WORKERS)), ("w_part", np.int32, (P, MAX_WORKERS)),
    ("w_grande", np.int32, (P, MAX_WORKERS)),
    ("prov", np.int32, (P, 4, MAX_PER_SLOT)), ("prov_n", np.int32, (P, 4)),
    ("free_action", np.int32, P), ("double_action", np.int32, P), ("adjacent_action", np.int32, P),
    ("claim_twice", np.int32, P),
    # provinces
    ("pdeck", np.int32, 64), ("pdeck_n", np.int32), ("display", np.int32, 4), ("removed_n", np.int32),
    # achievements
    ("adeck", np.int32, 16), ("adeck_n", np.int32), ("ach_card", np.int32), ("legendary_on_card", np.int32),
    ("legendary_on_council", np.int32),
    # council
    ("cdeck", np.int32, 32), ("cdeck_n", np.int32), ("offer", np.int32, 5), ("grande_up", np.int32),
    ("council_pos", np.int32), ("trim_seat", np.int32),
    # automa
    ("a_deck", np.int32, 32), ("a_deck_n", np.int32), ("a_disc", np.int32, 32), ("a_disc_n", np.int32),
    ("a_work", np.int32, 6), ("a_score", np.int32, 2), ("a_grande", np.int32, 2), ("a_cards", np.int32, (2, 3)),
    ("a_ncards", np.int32, 2), ("a_fallback", np.int32, 2),
    # results
    ("rank", np.int32, MAX_PRIV), ("winner", np.int32, P), ("automa_won", np.int32),
    # stats
    ("st_actions", np.int32, P), ("st_strats", np.int32, P), ("st_provinces", np.int32, P),
    ("st_claims", np.int32, P), ("st_legendary_round", np.int32, P), ("st_council_vp", np.int32, P),
    ("st_triggers", np.int32, 6), ("st_automa_flips", np.int32), ("st_automa_purple", np.int32),
    ("st_decisions", np.int32, P), ("st_lost", np.int32, P), ("start_priv", np.int32, P),
    ("step_acts", np.int32, P), ("step_key", np.int32, P),
    # chance
    ("rng_key", np.uint64, N_STREAMS), ("rng_ctr", np.uint64, N_STREAMS),
])
