"""Pendulum's solo Automa module: the two Automas of the booklet (NOTES I.12, I.13.7-9, II.6-13, II.18-20).

The Automas share one set of 6 grande workers and one deck in the real-time phases, and are two players
(``AG_AUTOMA1``, ``AG_AUTOMA2``; index ``a`` = 0 / 1 in the ``a_*`` state fields) at council and at the end.

**Setup** (``automa_setup``, I.12.2, II.20): the 32 cards 0..31 are shuffled (``STREAM_AUTOMA``); the top card
decides the purple top-row worker, the next one the green worker (the same card with ``setup_reveal =
same_card``): a card whose worker-move area is that area puts the worker in the area's small top space, any other
card in the large one; the 4 bottom-row spaces of purple and green get one worker each. The revealed cards go
back and the 32 cards are shuffled again. Invariant from then on: each of purple and green holds exactly 3
Automa workers in its 4 spaces, at most one per space.

**Triggers** (``automa_act``, I.12.4-8): the caller (workers / timers) decides that a trigger fired. If the deck is
empty the discard is shuffled into a new deck; the top card goes onto the discard and is resolved in order:

1. worker move (``AC_MOVE`` = area): the leftmost (``SP_POS``) Automa worker in the row the area's timer is on
   moves to the one space of the area without an Automa worker (human workers neither block nor move);
2. timer flip (``AC_FLIP``): purple if it has run out, else the card's green/black timer if that has run out,
   else nothing (``flip_decision``); flips are ignored once council is called (II.7) and in council step 5;
   the flip itself is ``timers.flip_timer(s, t, timer, FL_AUTOMA, log)`` (markers, legendary cut-off, council);
3. province discard (``AC_DISCARD`` = display slot 1..4 from the top): the province there leaves the game;
   an empty slot does nothing; ignored in council step 5.

In the timed model every card drawn in real time adds ``automa_card_resolution_s`` to the seat's ``ready_at[0]``
(counted from ``max(ready_at[0], now)``).

**Omen** (``omen_before_purple_flip``, I.12.13): one card for Automa 1 then one for Automa 2 before every purple
flip; they stay on the Automa board (``a_cards``) and are the Automas' 3 council cards.

**Council** (I.12.10): ``automa_council_vp`` (before step 1; 3 cards per Automa unless Omen; VP = card VP + the
scoring card's VP bonus for level and round + 1 per time marker on the Automa board, floor 0),
``automa_votes`` (same with votes, clamped 0..20), ``automa_reward`` (rank bonus from ``t.priv_bonus``, then the
reward-symbol scan of councils 1-3, or the final-council procedure with ``final_council_preference``; no card
-> 1 VP), ``automa_round_reset`` (all 32 cards shuffled into the deck).

**Score track** (``automa_add_score``, I.12.9): one space per VP; the green (glory) spaces only when the human
plays the advanced variant (levels D-F), otherwise the marker stops on the last non-green space.

**End** (``solo_end``, I.12.11, II.10-13): see its docstring.

Event rows (``EVENT_FIELDS``): EV_AUTOMA_SETUP, EV_AUTOMA_DRAW, EV_AUTOMA_MOVE, EV_AUTOMA_FLIP,
EV_AUTOMA_DISCARD, EV_COUNCIL_AUTOMA_VP, EV_AUTOMA_SYMBOL, EV_COUNCIL_REWARD (Automa rows), EV_TRACK (the Automa
score track, ``track`` = ``TRACK_AUTOMA``), EV_GAME_END (solo: one row per player) and EV_DECK_ORDER
(``DECK_AUTOMA`` after every shuffle, ``DECK_COUNCIL_OFFER`` before each Automa reward: offer slots R1..R5, then
GRANDE (-1 when down) and DEFAULT).
"""

from __future__ import annotations

import numpy as np

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind
from simlab.games.pendulum import timers
from simlab.games.pendulum.automa_deck import (  # noqa: F401  (the deck's kernels are part of the Automa's API)
    N_COUNCIL_CARDS,
    _card_ms_delay,
    draw_card,
    log_deck,
    omen_before_purple_flip,
)
from simlab.games.pendulum.codes import (
    AG_AUTOMA1,
    CS_DEFAULT,
    CS_GRANDE,
    CT_NONE,
    CT_READING_ORDER,
    CT_TRACK_ORDER,
    DB_AUTOMA_SCORE,
    DB_GLORY,
    DB_LEGENDARY,
    DB_NONE,
    DB_PARCHMENT_VP,
    DB_PRIVILEGE,
    DB_REACHED,
    DB_SECOND_DIST,
    DB_THIRD_DIST,
    DB_WORST_DIST,
    DECK_AUTOMA,
    DECK_AUTOMA_SETUP,
    EB_NO_LEGENDARY,
    EB_ONLY_ONE,
    EB_OUTSIDE,
    EB_PARCHMENT,
    EV_AUTOMA_DISCARD,
    EV_AUTOMA_DRAW,
    EV_AUTOMA_FLIP,
    EV_AUTOMA_MOVE,
    EV_AUTOMA_SETUP,
    EV_AUTOMA_SYMBOL,
    EV_COUNCIL_AUTOMA_VP,
    EV_COUNCIL_REWARD,
    EV_DECK_ORDER,
    EV_GAME_END,
    EV_TRACK,
    FL_AUTOMA,
    FP_ALL,
    FP_DEFAULT,
    FP_SECOND,
    FP_THIRD,
    FP_WORST,
    N_READ_ORDER,
    OPT_FINAL_PREF0,
    OPT_OMEN,
    OPT_OUTSIDE_PRIVILEGE_ONLY,
    OPT_PARCHMENT_BEYOND_ENTRY,
    OPT_PARCHMENT_FIRST,
    OPT_READ_ORDER0,
    OPT_ROUNDS,
    OPT_SETUP_SAME_CARD,
    OPT_TRACK_LAST,
    OPT_TRACK_ORDER0,
    OPT_VOTES_CAP,
    PH_STEP5,
    ROW_BOTTOM,
    ROW_TOP,
    T_BLACK,
    T_GREEN,
    T_PURPLE,
    TR_COUNCIL_VP,
    TR_STEP5,
)
from simlab.games.pendulum.endgame import deciding_key
from simlab.games.pendulum.eventlog import FIELD0, ev_begin
from simlab.games.pendulum.state import STREAM_AUTOMA
from simlab.games.pendulum.tables import (
    AC_DISCARD,
    AC_FLIP,
    AC_MOVE,
    AC_SYMBOL,
    AC_VOTES,
    AC_VP,
    C_DEFAULT,
    C_F1,
    C_F5,
    C_GRANDE,
    CO_KIND,
    CO_TRACK,
    FLIP_NONE,
    FLIP_PURPLE_GREEN,
    N_AUTOMA_CARDS,
    SP_AREA,
    SP_AUTOMA_LARGE,
    SP_POS,
    SP_ROW,
    TK_GLORY,
    TK_PARCHMENT,
)
from simlab.games.pendulum.tables import TR_GIDX as TRK_GIDX
from simlab.games.pendulum.tables import TR_KIND as TRK_KIND
from simlab.games.pendulum.tables import TR_LABEL as TRK_LABEL
from simlab.games.pendulum.tables import TR_PIDX as TRK_PIDX

shuffle = bind(kernels.shuffle)

N_AUTOMA_WORKERS = 6
TRACK_AUTOMA = 3  # EV_TRACK ``track`` value of the Automa score track (K_POWER..K_POPULARITY are 0..2)

# EV_AUTOMA_FLIP ``reason``
FX_FLIPPED, FX_NOT_RUN_OUT, FX_COUNCIL_CALLED, FX_STEP5 = range(4)
FLIP_REASON_NAMES = ("flipped", "not_run_out", "council_called", "council_step5")

# EV_AUTOMA_SYMBOL ``result``
SY_MATCH, SY_GRANDE_OWNED, SY_GRANDE_DOWN, SY_NO_MATCH, SY_FINAL_F5, SY_FINAL_PREF, SY_FINAL_DEFAULT = range(7)
SYMBOL_RESULT_NAMES = ("match", "grande_owned", "grande_down", "no_match", "final_legendary_card",
                       "final_preference", "final_default_vp")

# EV_COUNCIL_REWARD ``how`` (Automa rows)
RW_SYMBOL, RW_FALLBACK, RW_FINAL_F5, RW_FINAL_PREF = range(4)
REWARD_HOW_NAMES = ("symbol", "fallback_vp", "final_legendary_card", "final_preference")

EVENT_FIELDS = {
    EV_AUTOMA_SETUP: ("purple_acard", "purple_card_move_timer", "green_acard", "green_card_move_timer",
                      "is_same_card", "w0_space", "w1_space", "w2_space", "w3_space", "w4_space", "w5_space",
                      "deck_n", "disc_n"),
    # player: the Automa that keeps the card (council / Omen), -1 for a real-time card (discarded)
    EV_AUTOMA_DRAW: ("trigger", "is_reshuffled", "acard", "move_timer", "flip_combo", "discard_pos", "vp", "votes",
                     "symbol", "player", "deck_n", "disc_n", "is_purple_out", "is_green_out", "is_black_out"),
    # before_mask: bit d set for every space d holding an Automa worker before the move
    EV_AUTOMA_MOVE: ("area_timer", "timed_row", "before_mask", "from_space", "to_space"),
    # other_timer: the card's green/black timer; flipped_timer: -1 none (see reason, FLIP_REASON_NAMES)
    EV_AUTOMA_FLIP: ("flip_combo", "other_timer", "is_purple_out", "is_other_out", "flipped_timer", "reason",
                     "is_council_called", "is_step5"),
    # discard_pos: display slot 1..4 from the top; province -1 when the slot was empty
    EV_AUTOMA_DISCARD: ("discard_pos", "province", "is_ignored"),
    # per Automa: its 3 cards (left to right) with their VP and votes, the scoring card's VP bonus, the markers
    # on the Automa board, the raw VP sum and the VP gained (floor 0), its space before/after; the votes bonus
    # (the council votes are votes0 + votes1 + votes2 + votes_bonus + markers, clamped 0..20)
    EV_COUNCIL_AUTOMA_VP: ("player", "c0_acard", "c1_acard", "c2_acard", "vp0", "vp1", "vp2", "votes0", "votes1",
                           "votes2", "vp_bonus", "markers", "raw", "gained", "score_before", "score_after",
                           "votes_bonus"),
    # One row per symbol checked (councils 1-3): pos 0..2 (the Automa's card, left to right), its card and
    # reward symbol, result (SYMBOL_RESULT_NAMES), the card taken (-1 none), its board place (CS_*: R1..R5
    # 0..4, DEFAULT 5, GRANDE 6), the matches in reading order (m*_card, -1 padding).
    # One row for the final council: pos/acard/symbol -1, result SY_FINAL_*, the card taken, m*_card = the
    # cards of final_council_preference in order (-1 for default_vp), n_matches = how many of them are still
    # offered; whether the human has the legendary VP, F5 is offered, and the human's distances to the LAST
    # space of each track (glory counted with the advanced variant; ties went by track_order_on_mat)
    EV_AUTOMA_SYMBOL: ("player", "pos", "acard", "symbol", "result", "card", "council_slot", "n_matches",
                       "m0_card", "m1_card", "m2_card", "m3_card", "is_human_legendary", "is_f5_offered",
                       "dist_power", "dist_prestige", "dist_popularity"),
    # council.py's layout (rank is the 0-based place; the board when it chose), then for an Automa: how it
    # chose (REWARD_HOW_NAMES), the fallback VP gained and its score-track space after the reward
    EV_COUNCIL_REWARD: ("seat", "rank", "bonus_vp", "r1_card", "r2_card", "r3_card", "r4_card", "r5_card",
                        "is_grande_up", "card", "card_kind", "cost_effect", "gain_effect", "stratagem_strat",
                        "automa_how", "fallback_vp", "automa_score", "tiebreak"),
    # effects.py's layout; an Automa's rows: track = TRACK_AUTOMA (3), before/after = score-track spaces, lost =
    # VP past the last usable space, glory_pending 0, glory_before/after = green spaces reached (glory)
    EV_TRACK: ("player", "track", "before", "after", "gain", "lost", "glory_pending", "glory_before",
               "glory_after", "requested"),
    # endgame.py's layout, one row per player (seat 0, AG_AUTOMA1, AG_AUTOMA2): is_parchment = reached the
    # parchment; an Automa's parchment_vp / glory are its parchment / green spaces, its three distances are the
    # one it reads from label_space, its track positions -1; then its score-track space
    EV_GAME_END: ("seat", "end_branch", "is_parchment", "parchment_vp", "glory", "has_legendary", "worst_dist",
                  "second_dist", "third_dist", "priv_pos", "rank", "is_winner", "power_vp", "prestige_vp",
                  "popularity_vp", "automa_score", "label_space", "decided_by"),
    EV_DECK_ORDER: ("deck", "start", "n", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10",
                    "v11", "v12", "v13"),
}


# ---------------------------------------------------------------- small helpers


@kernel
def automa_on_space(s, d: int) -> bool:
    """Whether an Automa worker stands on space ``d`` (solo only)."""
    if s.solo == 0:
        return False
    for i in range(N_AUTOMA_WORKERS):  # noqa: SIM110
        if s.a_work[i] == d:
            return True
    return False


@kernel
def human_advanced(s, t) -> bool:
    """The human plays the advanced variant (imposed by levels D-F): the green Automa spaces are in use."""
    return s.advanced[0] != 0 or t.lvl_adv[s.level] != 0


@kernel
def score_limit(t, advanced: bool) -> int:
    """The last score-track space a marker may reach: the track's end with the advanced variant, else the last
    space that is not green (I.12.9.4)."""
    last = t.n_track - 1
    if advanced:
        return last
    while last > 0 and t.trk[last, TRK_KIND] == TK_GLORY:
        last -= 1
    return last


# ---------------------------------------------------------------- setup


@kernel
def place_setup_workers(s, t, c_purple: int, c_green: int) -> None:
    """The 6 Automa workers from the revealed cards (I.12.2.6): each bottom-row space of purple and green,
    then the small top space of an area whose card shows that area's worker symbol, else the large one.
    ``a_work`` = purple's three (bottom left to right as listed, then top), then green's."""
    k = 0
    for area in (T_PURPLE, T_GREEN):
        card = c_purple if area == T_PURPLE else c_green
        want_large = 0 if t.acard[card, AC_MOVE] == area else 1
        for d in range(t.n_spaces):
            if t.sp[d, SP_AREA] == area and t.sp[d, SP_ROW] == ROW_BOTTOM:
                s.a_work[k] = d
                k += 1
        for d in range(t.n_spaces):
            if t.sp[d, SP_AREA] == area and t.sp[d, SP_ROW] == ROW_TOP and t.sp[d, SP_AUTOMA_LARGE] == want_large:
                s.a_work[k] = d
                k += 1
                break


@kernel
def automa_setup(s, t, log) -> None:
    """Automa setup (I.12.2, II.20): deck shuffled (logged as DECK_AUTOMA_SETUP: the top card, last, is the
    purple reveal, the one under it the green reveal), two cards revealed (one with ``setup_reveal =
    same_card``), the 6 workers placed, the cards returned and all 32 shuffled (DECK_AUTOMA after
    EV_AUTOMA_SETUP); score markers on the start space."""
    for i in range(N_AUTOMA_CARDS):
        s.a_deck[i] = i
        s.a_disc[i] = -1
    s.a_deck_n = N_AUTOMA_CARDS
    s.a_disc_n = 0
    shuffle(s, STREAM_AUTOMA, s.a_deck, N_AUTOMA_CARDS)
    log_deck(s, log, DECK_AUTOMA_SETUP, s.a_deck, N_AUTOMA_CARDS, -1)  # the order the reveals come from
    same = t.opts[OPT_SETUP_SAME_CARD] != 0
    c_p = s.a_deck[N_AUTOMA_CARDS - 1]
    c_g = c_p if same else s.a_deck[N_AUTOMA_CARDS - 2]
    place_setup_workers(s, t, c_p, c_g)
    shuffle(s, STREAM_AUTOMA, s.a_deck, N_AUTOMA_CARDS)
    for a in range(2):
        s.a_score[a] = 0
        s.a_grande[a] = 0
        s.a_ncards[a] = 0
        s.a_fallback[a] = 0
        for j in range(N_COUNCIL_CARDS):
            s.a_cards[a, j] = -1
    r = ev_begin(s, log, EV_AUTOMA_SETUP, -1)
    if r >= 0:
        log[r, FIELD0] = c_p
        log[r, FIELD0 + 1] = t.acard[c_p, AC_MOVE]
        log[r, FIELD0 + 2] = c_g
        log[r, FIELD0 + 3] = t.acard[c_g, AC_MOVE]
        log[r, FIELD0 + 4] = 1 if same else 0
        for i in range(N_AUTOMA_WORKERS):
            log[r, FIELD0 + 5 + i] = s.a_work[i]
        log[r, FIELD0 + 11] = s.a_deck_n
        log[r, FIELD0 + 12] = s.a_disc_n
    log_deck(s, log, DECK_AUTOMA, s.a_deck, s.a_deck_n, -1)


# ---------------------------------------------------------------- real time: one card


@kernel
def move_choice(s, t, area: int) -> tuple[int, int]:
    """(index into ``a_work`` of the worker to move, destination space) for a move in ``area`` (I.12.6):
    the leftmost Automa worker in the row the area's timer is on, to the area's space without an Automa
    worker; (-1, -1) when there is none (the invariant rules that out)."""
    row = s.timer_row[area]
    best = -1
    best_pos = 1 << 30
    occupied = 0
    for i in range(N_AUTOMA_WORKERS):
        d = s.a_work[i]
        if d < 0:
            continue
        occupied |= 1 << d
        if t.sp[d, SP_AREA] == area and t.sp[d, SP_ROW] == row and t.sp[d, SP_POS] < best_pos:
            best_pos = t.sp[d, SP_POS]
            best = i
    dest = -1
    for d in range(t.n_spaces):
        if t.sp[d, SP_AREA] == area and (occupied >> d) & 1 == 0:
            dest = d
            break
    if best < 0 or dest < 0:
        return -1, -1
    return best, dest


@kernel
def automa_move(s, t, area: int, log) -> int:
    """Resolve a worker-move symbol of ``area`` (I.12.6); logs EV_AUTOMA_MOVE. Returns the destination or -1."""
    mask = 0
    for i in range(N_AUTOMA_WORKERS):
        if s.a_work[i] >= 0:
            mask |= 1 << s.a_work[i]
    i, dest = move_choice(s, t, area)
    src = -1
    if i >= 0:
        src = s.a_work[i]
        s.a_work[i] = dest
    r = ev_begin(s, log, EV_AUTOMA_MOVE, -1)
    if r >= 0:
        log[r, FIELD0] = area
        log[r, FIELD0 + 1] = s.timer_row[area]
        log[r, FIELD0 + 2] = mask
        log[r, FIELD0 + 3] = src
        log[r, FIELD0 + 4] = dest
    return dest


@kernel
def flip_decision(combo: int, purple_out: bool, other_out: bool, council_called: bool,
                  step5: bool) -> tuple[int, int]:
    """(timer to flip or -1, reason FX_*) for a card's flip combination (I.12.7, II.7, I.12.10 step V).

    Step 5 and a called council ignore the symbol; otherwise purple first if it has run out (then the green or
    black symbol is ignored), else the card's other timer if that has run out, else nothing."""
    if combo == FLIP_NONE:
        return -1, FX_NOT_RUN_OUT
    other = T_GREEN if combo == FLIP_PURPLE_GREEN else T_BLACK
    if step5:
        return -1, FX_STEP5
    if council_called:
        return -1, FX_COUNCIL_CALLED
    if purple_out:
        return T_PURPLE, FX_FLIPPED
    if other_out:
        return other, FX_FLIPPED
    return -1, FX_NOT_RUN_OUT


@kernel
def automa_flip(s, t, combo: int, step5: bool, log) -> int:
    """Resolve a flip combination (``flip_decision``); logs EV_AUTOMA_FLIP, then flips through
    ``timers.flip_timer(..., FL_AUTOMA, ...)`` (its events point at the EV_AUTOMA_FLIP row) and counts it
    (``st_automa_flips``, ``st_automa_purple``). Returns the timer flipped or -1."""
    other = T_GREEN if combo == FLIP_PURPLE_GREEN else T_BLACK
    p_out = timers.has_run_out(s, T_PURPLE)
    o_out = timers.has_run_out(s, other)
    called = s.council_called != 0
    timer, reason = flip_decision(combo, p_out, o_out, called, step5)
    r = ev_begin(s, log, EV_AUTOMA_FLIP, -1)
    if r >= 0:
        log[r, FIELD0] = combo
        log[r, FIELD0 + 1] = other
        log[r, FIELD0 + 2] = 1 if p_out else 0
        log[r, FIELD0 + 3] = 1 if o_out else 0
        log[r, FIELD0 + 4] = timer
        log[r, FIELD0 + 5] = reason
        log[r, FIELD0 + 6] = 1 if called else 0
        log[r, FIELD0 + 7] = 1 if step5 else 0
    if timer >= 0:
        old = s.cause
        if r >= 0:
            s.cause = r
        if timers.flip_timer(s, t, timer, FL_AUTOMA, log, -1):
            s.st_automa_flips += 1
            if timer == T_PURPLE:
                s.st_automa_purple += 1
        s.cause = old
    return timer


@kernel
def automa_discard(s, t, pos: int, ignored: bool, log) -> int:
    """Resolve a province-discard symbol: the face-up province in display slot ``pos`` (1 = top) leaves the
    game (I.12.8); an empty slot, or step 5 (``ignored``), does nothing. Returns the province or -1."""
    card = -1
    if not ignored and 1 <= pos <= 4:
        card = s.display[pos - 1]
        if card >= 0:
            s.display[pos - 1] = -1
            s.removed_n += 1
    r = ev_begin(s, log, EV_AUTOMA_DISCARD, -1)
    if r >= 0:
        log[r, FIELD0] = pos
        log[r, FIELD0 + 1] = card
        log[r, FIELD0 + 2] = 1 if ignored else 0
    return card


@kernel
def automa_act(s, t, trigger: int, log) -> int:
    """One Automa action (I.12.4.3): draw a card (``draw_card``), then resolve its move, flip and province
    discard in that order (I.12.5). With ``trigger == TR_STEP5`` (or in PH_STEP5) only the move resolves.
    The caller has checked that the trigger fired. Returns the card drawn."""
    old = s.cause
    c = draw_card(s, t, trigger, -1, log)
    if c < 0:
        s.cause = old
        return -1
    step5 = trigger == TR_STEP5 or s.phase == PH_STEP5
    area = t.acard[c, AC_MOVE]
    if area >= 0:
        automa_move(s, t, area, log)
    combo = t.acard[c, AC_FLIP]
    if combo != FLIP_NONE:
        automa_flip(s, t, combo, step5, log)
    pos = t.acard[c, AC_DISCARD]
    if pos > 0:
        automa_discard(s, t, pos, step5, log)
    s.cause = old
    return c


# ---------------------------------------------------------------- score track


@kernel
def automa_add_score(s, t, a: int, n: int, log) -> int:
    """Advance Automa ``a``'s marker by ``n`` spaces (I.12.9), stopping at ``score_limit``; logs EV_TRACK.
    Returns the spaces actually moved."""
    if n <= 0:
        return 0
    before = s.a_score[a]
    limit = score_limit(t, human_advanced(s, t))
    after = before + n
    if after > limit:
        after = limit
    if after < before:
        after = before
    s.a_score[a] = after
    r = ev_begin(s, log, EV_TRACK, AG_AUTOMA1 + a)
    if r >= 0:
        log[r, FIELD0] = AG_AUTOMA1 + a
        log[r, FIELD0 + 1] = TRACK_AUTOMA
        log[r, FIELD0 + 2] = before
        log[r, FIELD0 + 3] = after
        log[r, FIELD0 + 4] = after - before
        log[r, FIELD0 + 5] = before + n - after
        log[r, FIELD0 + 6] = 0
        log[r, FIELD0 + 7] = t.trk[before, TRK_GIDX] if t.trk[before, TRK_KIND] == TK_GLORY else 0
        log[r, FIELD0 + 8] = t.trk[after, TRK_GIDX] if t.trk[after, TRK_KIND] == TK_GLORY else 0
        log[r, FIELD0 + 9] = n
    return after - before


# ---------------------------------------------------------------- council: VP and votes


@kernel
def council_vp_value(cards_vp: int, bonus: int, markers: int) -> tuple[int, int]:
    """(raw sum, VP gained) of the council VP step: card VP + scoring bonus + 1 per marker, floored at 0."""
    raw = cards_vp + bonus + markers
    return raw, raw if raw > 0 else 0


@kernel
def votes_value(cards_votes: int, bonus: int, markers: int, cap: int) -> tuple[int, int]:
    """(raw sum, votes) of council step I: card votes + scoring bonus + 1 per marker, clamped to 0..cap."""
    raw = cards_votes + bonus + markers
    v = raw
    if v < 0:
        v = 0
    if v > cap:
        v = cap
    return raw, v


@kernel
def _round_index(s) -> int:
    r = s.round - 1
    if r < 0:
        r = 0
    if r > 3:
        r = 3
    return r


@kernel
def scoring_bonus(s, t, which: int) -> int:
    """The scoring card's bonus for the level and round: ``which`` 0 = VP, 1 = votes."""
    return t.scoring[s.level, _round_index(s), which]


@kernel
def automa_council_vp(s, t, log) -> None:
    """The Automa VP step before council step 1 (I.12.10): for Automa 1 then 2, reveal 3 cards (none with
    Omen, whose cards are already laid; an Automa short of 3 is topped up), score them; logs
    EV_COUNCIL_AUTOMA_VP (and EV_AUTOMA_DRAW per card, EV_TRACK)."""
    omen = t.opts[OPT_OMEN] != 0
    old = s.cause
    markers = s.markers_automa
    for a in range(2):
        if not omen:
            s.a_ncards[a] = 0
        while s.a_ncards[a] < N_COUNCIL_CARDS:
            c = draw_card(s, t, TR_COUNCIL_VP, a, log)
            s.cause = old
            if c < 0:
                break
        vp = 0
        for j in range(s.a_ncards[a]):
            vp += t.acard[s.a_cards[a, j], AC_VP]
        bonus = scoring_bonus(s, t, 0)
        raw, gained = council_vp_value(vp, bonus, markers)
        before = s.a_score[a]
        r = ev_begin(s, log, EV_COUNCIL_AUTOMA_VP, AG_AUTOMA1 + a)
        if r >= 0:
            s.cause = r
        automa_add_score(s, t, a, gained, log)
        s.cause = old
        if r >= 0:
            log[r, FIELD0] = AG_AUTOMA1 + a
            for j in range(N_COUNCIL_CARDS):
                c = s.a_cards[a, j] if j < s.a_ncards[a] else -1
                log[r, FIELD0 + 1 + j] = c
                log[r, FIELD0 + 4 + j] = t.acard[c, AC_VP] if c >= 0 else 0
                log[r, FIELD0 + 7 + j] = t.acard[c, AC_VOTES] if c >= 0 else 0
            log[r, FIELD0 + 10] = bonus
            log[r, FIELD0 + 11] = markers
            log[r, FIELD0 + 12] = raw
            log[r, FIELD0 + 13] = gained
            log[r, FIELD0 + 14] = before
            log[r, FIELD0 + 15] = s.a_score[a]
            log[r, FIELD0 + 16] = scoring_bonus(s, t, 1)


@kernel
def automa_votes_raw(s, t, a: int) -> int:
    """Automa ``a``'s unclamped votes sum (cards + scoring bonus + markers on the Automa board)."""
    v = 0
    for j in range(s.a_ncards[a]):
        v += t.acard[s.a_cards[a, j], AC_VOTES]
    return v + scoring_bonus(s, t, 1) + s.markers_automa


@kernel
def automa_votes(s, t, a: int) -> int:
    """Automa ``a``'s votes at council step I (I.12.10): the raw sum clamped to 0..votes cap (20)."""
    v = automa_votes_raw(s, t, a)
    cap = int(t.opts[OPT_VOTES_CAP])
    if v < 0:
        return 0
    if v > cap:
        return cap
    return v


# ---------------------------------------------------------------- council: rewards


@kernel
def _offer_index(s, card: int) -> int:
    for i in range(5):
        if s.offer[i] == card:
            return i
    return -1


@kernel
def board_card(s, place: int) -> int:
    """The council card at board place ``place`` (CS_*: R1..R5 = offer slots, DEFAULT, GRANDE), -1 if none
    (taken, or the grande card turned down)."""
    if 0 <= place <= 4:
        return s.offer[place]
    if place == CS_DEFAULT:
        return C_DEFAULT
    if place == CS_GRANDE:
        return C_GRANDE if s.grande_up != 0 else -1
    return -1


@kernel
def symbol_scan(s, t, a: int, sym: int, out) -> tuple[int, int, int]:
    """Scan the council board in the reading order (``OPT_READ_ORDER0..``) for symbol ``sym`` of Automa
    ``a``'s card. Fills ``out`` with the matching cards in reading order. Returns (result SY_*, number of
    matches, board place of the first match or -1). The grande symbol is skipped when the Automa owns a grande
    (SY_GRANDE_OWNED) and finds nothing when the grande card is down (SY_GRANDE_DOWN)."""
    if sym == t.sym_grande and s.a_grande[a] != 0:
        return SY_GRANDE_OWNED, 0, -1
    n = 0
    first = -1
    for k in range(N_READ_ORDER):
        place = int(t.opts[OPT_READ_ORDER0 + k])
        c = board_card(s, place)
        if c < 0:
            continue
        if t.sym_match[sym, c] != 0:
            if n < out.shape[0]:
                out[n] = c
            if n == 0:
                first = place
            n += 1
    if n > 0:
        return SY_MATCH, n, first
    if sym == t.sym_grande and s.grande_up == 0:
        return SY_GRANDE_DOWN, 0, -1
    return SY_NO_MATCH, 0, -1


@kernel
def take_board_card(s, a: int, place: int) -> int:
    """Automa ``a`` takes the card at board place ``place`` (it gains nothing from it): an offer card leaves
    the offer (-1); the grande card fills the Automa's grande slot and is turned down. Returns the card."""
    c = board_card(s, place)
    if 0 <= place <= 4:
        s.offer[place] = -1
    elif place == CS_GRANDE:
        s.a_grande[a] = 1
        s.grande_up = 0
    return c


@kernel
def human_track_distances(s, t) -> tuple[int, int, int]:
    """The human's distance of each track (K_* order) to its LAST space, glory counted with the advanced
    variant (final council, I.12.10)."""
    last = int(t.opts[OPT_TRACK_LAST])
    adv = human_advanced(s, t)
    d = np.zeros(3, dtype=np.int64)
    for k in range(3):
        d[k] = last - s.track[0, k]
        if adv:
            d[k] -= s.glory[0, k]
    return d[0], d[1], d[2]


@kernel
def rank_tracks(d0: int, d1: int, d2: int, o0: int, o1: int, o2: int) -> tuple[int, int, int]:
    """Tracks ordered worst first (largest distance), ties by the mat order ``o0, o1, o2`` (track codes,
    highest on the mat first). Returns (worst, second, third) track codes."""
    d = np.array((d0, d1, d2), dtype=np.int64)
    order = np.array((o0, o1, o2), dtype=np.int64)
    pos = np.zeros(3, dtype=np.int64)
    for i in range(3):
        pos[order[i]] = i
    res = np.zeros(3, dtype=np.int64)
    used = np.zeros(3, dtype=np.int64)
    for j in range(3):
        best = -1
        for k in range(3):
            if used[k]:
                continue
            if best < 0 or d[k] > d[best] or (d[k] == d[best] and pos[k] < pos[best]):
                best = k
        used[best] = 1
        res[j] = best
    return res[0], res[1], res[2]


@kernel
def final_card_for_track(t, k: int) -> int:
    """The final council card of track ``k`` (power F3, prestige F4, popularity F2; k = 3: F1 for all)."""
    for c in range(C_F1, C_F5 + 1):
        if t.co[c, CO_TRACK] == k:
            return c
    return -1


@kernel
def final_choice(s, t) -> tuple[int, int, int, int, int, int]:
    """The final council pick of an Automa (I.12.10, II.9): (card or -1 for the 1 VP default, how RW_*,
    preference index used or -1, worst, second, third track). F5 first when the human lacks the legendary and
    F5 is offered; else the ``final_council_preference`` list over the human's tracks ranked by
    ``human_track_distances`` / ``rank_tracks``."""
    d0, d1, d2 = human_track_distances(s, t)
    w0, w1, w2 = rank_tracks(d0, d1, d2, int(t.opts[OPT_TRACK_ORDER0]), int(t.opts[OPT_TRACK_ORDER0 + 1]),
                             int(t.opts[OPT_TRACK_ORDER0 + 2]))
    if s.legendary[0] == 0 and _offer_index(s, C_F5) >= 0:
        return C_F5, RW_FINAL_F5, -1, w0, w1, w2
    for i in range(5):
        pref = int(t.opts[OPT_FINAL_PREF0 + i])
        if pref == FP_DEFAULT:
            return -1, RW_FALLBACK, i, w0, w1, w2
        c = -1
        if pref == FP_WORST:
            c = final_card_for_track(t, w0)
        elif pref == FP_SECOND:
            c = final_card_for_track(t, w1)
        elif pref == FP_THIRD:
            c = final_card_for_track(t, w2)
        elif pref == FP_ALL:
            c = final_card_for_track(t, 3)
        if c >= 0 and _offer_index(s, c) >= 0:
            return c, RW_FINAL_PREF, i, w0, w1, w2
    return -1, RW_FALLBACK, -1, w0, w1, w2


@kernel
def _log_final(s, t, a: int, card: int, how: int, log) -> None:
    """The EV_AUTOMA_SYMBOL row of a final-council pick (see EVENT_FIELDS)."""
    r = ev_begin(s, log, EV_AUTOMA_SYMBOL, AG_AUTOMA1 + a)
    if r < 0:
        return
    d0, d1, d2 = human_track_distances(s, t)
    w0, w1, w2 = rank_tracks(d0, d1, d2, int(t.opts[OPT_TRACK_ORDER0]), int(t.opts[OPT_TRACK_ORDER0 + 1]),
                             int(t.opts[OPT_TRACK_ORDER0 + 2]))
    log[r, FIELD0] = AG_AUTOMA1 + a
    log[r, FIELD0 + 1] = -1
    log[r, FIELD0 + 2] = -1
    log[r, FIELD0 + 3] = -1
    if how == RW_FINAL_F5:
        log[r, FIELD0 + 4] = SY_FINAL_F5
    elif how == RW_FINAL_PREF:
        log[r, FIELD0 + 4] = SY_FINAL_PREF
    else:
        log[r, FIELD0 + 4] = SY_FINAL_DEFAULT
    log[r, FIELD0 + 5] = card
    idx = _offer_index(s, card) if card >= 0 else -1
    log[r, FIELD0 + 6] = idx
    n_off = 0
    for i in range(4):
        pref = int(t.opts[OPT_FINAL_PREF0 + i])
        c = -1
        if pref == FP_WORST:
            c = final_card_for_track(t, w0)
        elif pref == FP_SECOND:
            c = final_card_for_track(t, w1)
        elif pref == FP_THIRD:
            c = final_card_for_track(t, w2)
        elif pref == FP_ALL:
            c = final_card_for_track(t, 3)
        log[r, FIELD0 + 8 + i] = c
        if c >= 0 and _offer_index(s, c) >= 0:
            n_off += 1
    log[r, FIELD0 + 7] = n_off
    log[r, FIELD0 + 12] = s.legendary[0]
    log[r, FIELD0 + 13] = 1 if _offer_index(s, C_F5) >= 0 else 0
    log[r, FIELD0 + 14] = d0
    log[r, FIELD0 + 15] = d1
    log[r, FIELD0 + 16] = d2


@kernel
def automa_reward(s, t, a: int, rank: int, log) -> int:
    """Council step II for Automa ``a`` at privilege place ``rank`` (0-based, as council.py counts;
    I.12.10): the rank bonus VP (``t.priv_bonus[rank]``: 2/1/0 with 3 players), then, in councils 1-3, the
    symbol scan of its cards in order (``symbol_scan``; the first card with a match decides and that card
    leaves the board: ``take_board_card``), or in the final council ``final_choice`` (the card leaves the
    offer); no card -> 1 VP (``a_fallback[a]`` = 1, else 0). The Automa gains nothing from a card.

    Logs EV_COUNCIL_REWARD (council.py's layout plus the Automa fields; the board as it was when the Automa
    chose), then under it EV_TRACK (bonus), EV_AUTOMA_SYMBOL per symbol checked or the final-council row, and
    EV_TRACK (fallback). Returns the card taken or -1."""
    ag = AG_AUTOMA1 + a
    old = s.cause
    bonus = int(t.priv_bonus[rank]) if 0 <= rank < t.priv_bonus.shape[0] else 0
    r = ev_begin(s, log, EV_COUNCIL_REWARD, ag)
    if r >= 0:
        log[r, FIELD0] = ag
        log[r, FIELD0 + 1] = rank
        log[r, FIELD0 + 2] = bonus
        for i in range(5):
            log[r, FIELD0 + 3 + i] = s.offer[i]
        log[r, FIELD0 + 8] = s.grande_up
        log[r, FIELD0 + 11] = 0
        log[r, FIELD0 + 12] = 0
        log[r, FIELD0 + 13] = -1
        s.cause = r
    automa_add_score(s, t, a, bonus, log)
    final = s.round >= t.opts[OPT_ROUNDS]
    card = -1
    how = RW_FALLBACK
    tiebreak = CT_NONE
    if final:
        card, how, pref_i, _w0, _w1, _w2 = final_choice(s, t)
        if how == RW_FINAL_PREF and final_track_tied(s, t, int(t.opts[OPT_FINAL_PREF0 + pref_i]), _w0, _w1, _w2):
            tiebreak = CT_TRACK_ORDER
        _log_final(s, t, a, card, how, log)
        if card >= 0:
            s.offer[_offer_index(s, card)] = -1
    else:
        matches = np.full(4, -1, dtype=np.int32)
        for j in range(s.a_ncards[a]):
            c = s.a_cards[a, j]
            sym = t.acard[c, AC_SYMBOL]
            for m in range(4):
                matches[m] = -1
            res, n, place = symbol_scan(s, t, a, sym, matches)
            taken = -1
            if res == SY_MATCH:
                taken = take_board_card(s, a, place)
            rs = ev_begin(s, log, EV_AUTOMA_SYMBOL, ag)
            if rs >= 0:
                log[rs, FIELD0] = ag
                log[rs, FIELD0 + 1] = j
                log[rs, FIELD0 + 2] = c
                log[rs, FIELD0 + 3] = sym
                log[rs, FIELD0 + 4] = res
                log[rs, FIELD0 + 5] = taken
                log[rs, FIELD0 + 6] = place
                log[rs, FIELD0 + 7] = n
                for m in range(4):
                    log[rs, FIELD0 + 8 + m] = matches[m]
                for m in range(12, 17):
                    log[rs, FIELD0 + m] = -1
            if taken >= 0:
                card = taken
                how = RW_SYMBOL
                if n > 1:
                    tiebreak = CT_READING_ORDER
                break
    s.a_fallback[a] = 0
    fallback = 0
    if card < 0:
        fallback = automa_add_score(s, t, a, 1, log)
        s.a_fallback[a] = 1
    s.cause = old
    if r >= 0:
        log[r, FIELD0 + 9] = card
        log[r, FIELD0 + 10] = t.co[card, CO_KIND] if card >= 0 else -1
        log[r, FIELD0 + 14] = how
        log[r, FIELD0 + 15] = fallback
        log[r, FIELD0 + 16] = s.a_score[a]
        log[r, FIELD0 + 17] = tiebreak
    return card


@kernel
def final_track_tied(s, t, pref: int, w0: int, w1: int, w2: int) -> bool:
    """Final council: the preference ``pref`` (FP_*) picked a track (worst, second or third) whose distance
    equals another track's, so ``track_order_on_mat`` decided which card it was (II.10)."""
    if pref == FP_WORST:
        k = w0
    elif pref == FP_SECOND:
        k = w1
    elif pref == FP_THIRD:
        k = w2
    else:
        return False
    d0, d1, d2 = human_track_distances(s, t)
    d = (d0, d1, d2)
    n = 0
    for j in range(3):
        if d[j] == d[k]:
            n += 1
    return n > 1


@kernel
def automa_round_reset(s, t, log) -> None:
    """Council step IV (I.12.10): all 32 cards (deck, discard, the council / Omen cards) shuffled into a new
    deck; logs EV_DECK_ORDER."""
    for i in range(N_AUTOMA_CARDS):
        s.a_deck[i] = i
        s.a_disc[i] = -1
    s.a_deck_n = N_AUTOMA_CARDS
    s.a_disc_n = 0
    for a in range(2):
        s.a_ncards[a] = 0
        for j in range(N_COUNCIL_CARDS):
            s.a_cards[a, j] = -1
    shuffle(s, STREAM_AUTOMA, s.a_deck, N_AUTOMA_CARDS)
    log_deck(s, log, DECK_AUTOMA, s.a_deck, N_AUTOMA_CARDS, -1)


# ---------------------------------------------------------------- end of game


@kernel
def distance_from_label(t, space: int) -> tuple[int, int]:
    """(label read, space it was read from) for an Automa marker on ``space`` (I.12.11.6): the negative label
    printed on that space, or on the space before it when it has none; (0, -1) when neither has one (in the
    parchment). The distance to the parchment is minus the label."""
    if space < 0:
        return 0, -1
    if t.trk[space, TRK_LABEL] != 0:
        return t.trk[space, TRK_LABEL], space
    if space > 0 and t.trk[space - 1, TRK_LABEL] != 0:
        return t.trk[space - 1, TRK_LABEL], space - 1
    return 0, -1


@kernel
def automa_reached(t, space: int) -> bool:
    """An Automa marker on a parchment (or green) space reached the parchment."""
    k = t.trk[space, TRK_KIND]
    return k in (TK_PARCHMENT, TK_GLORY)


@kernel
def automa_parchment(t, space: int, beyond_entry: bool) -> tuple[int, int]:
    """(parchment spaces, glory spaces) of an Automa marker on ``space``: its parchment index (the first
    parchment space counts 1, or 0 with ``parchment_counting = beyond_entry``; a green space counts every
    parchment space) and its glory index (green spaces reached)."""
    kind = t.trk[space, TRK_KIND]
    if kind != TK_PARCHMENT and kind != TK_GLORY:
        return 0, 0
    glory = 0
    sp = space
    if kind == TK_GLORY:
        glory = t.trk[space, TRK_GIDX]
        while sp > 0 and t.trk[sp, TRK_KIND] != TK_PARCHMENT:
            sp -= 1
    p = t.trk[sp, TRK_PIDX]
    if beyond_entry:
        p -= 1
    return p, glory


@kernel
def _priv_pos(s, agent: int) -> int:
    for i in range(s.n_priv):
        if s.priv[i] == agent:
            return i
    return 99


@kernel
def solo_end_key_name(k: int, no_legendary: bool, reached: bool) -> int:
    """The DB_* name of key ``k`` of ``solo_end``'s comparison for a player (-1: none, a tie)."""
    if k == 0:
        return DB_LEGENDARY if no_legendary else DB_REACHED
    if k == 1:
        return DB_AUTOMA_SCORE if no_legendary else (DB_PARCHMENT_VP if reached else DB_WORST_DIST)
    if k == 2:
        return DB_GLORY if reached else DB_SECOND_DIST
    if k == 3:
        return DB_THIRD_DIST
    if k == 4:
        return DB_PRIVILEGE
    return DB_NONE


@kernel
def solo_end(s, t, log) -> None:
    """The solo game end (I.12.11 with II.10-13). Fills ``rank[0]``, ``rank[AG_AUTOMA1/2]`` (1 + players
    strictly ahead), ``winner[0]``, ``automa_won`` (0, 1, 2), ``end_branch``; logs one EV_GAME_END per player.

    * No legendary VP for the human: EB_NO_LEGENDARY, the human is last; the Automas are ordered by II.13
      (higher score-track space, then privilege).
    * Otherwise the players who reached the parchment (the human with all 3 tracks, an Automa on a parchment or
      green space) are ahead of the others. Exactly one: EB_ONLY_ONE; several: EB_PARCHMENT (parchment spaces
      ``parchment_counting``: the human's 3 tracks summed vs the Automa's; then glory; then privilege); none:
      EB_OUTSIDE (distance to the parchment, smaller wins: the human's worst track vs the Automa's label; ties
      II.12: the human's next tracks vs the Automa's one distance, then privilege, or privilege only).
      Players who did not reach are ranked among themselves by the outside comparison.
    """
    first = int(t.opts[OPT_PARCHMENT_FIRST])
    beyond = t.opts[OPT_PARCHMENT_BEYOND_ENTRY] != 0
    priv_only = t.opts[OPT_OUTSIDE_PRIVILEGE_ONLY] != 0
    adv = human_advanced(s, t)
    # per player: 0 human, 1 Automa 1, 2 Automa 2
    agent = np.array((0, AG_AUTOMA1, AG_AUTOMA1 + 1), dtype=np.int64)
    reached = np.zeros(3, dtype=np.int64)
    parch = np.zeros(3, dtype=np.int64)
    glory = np.zeros(3, dtype=np.int64)
    dist = np.zeros((3, 3), dtype=np.int64)
    label_space = np.full(3, -1, dtype=np.int64)
    pp = np.zeros(3, dtype=np.int64)
    # the human
    hr = 1
    for k in range(3):
        d = first - s.track[0, k]
        if d > 0:
            hr = 0
        else:
            d = 0
            parch[0] += s.track[0, k] - first + (0 if beyond else 1)
        dist[0, k] = d
        if adv:
            glory[0] += s.glory[0, k]
    if hr == 0:
        parch[0] = 0
    reached[0] = hr
    # worst first
    for i in range(3):
        for j in range(2 - i):
            if dist[0, j] < dist[0, j + 1]:
                tmp = dist[0, j]
                dist[0, j] = dist[0, j + 1]
                dist[0, j + 1] = tmp
    for a in range(2):
        sp = s.a_score[a]
        reached[1 + a] = 1 if automa_reached(t, sp) else 0
        p, g = automa_parchment(t, sp, beyond)
        parch[1 + a] = p
        glory[1 + a] = g
        lab, lsp = distance_from_label(t, sp)
        label_space[1 + a] = lsp
        for k in range(3):
            dist[1 + a, k] = -lab
    for i in range(3):
        pp[i] = _priv_pos(s, int(agent[i]))
    legendary = s.legendary[0] != 0
    n_reached = reached[0] + reached[1] + reached[2]
    keys = np.zeros((3, 5), dtype=np.int64)
    if not legendary:
        branch = EB_NO_LEGENDARY
        keys[0, 0] = -1
        for a in range(2):
            keys[1 + a, 1] = s.a_score[a]
    else:
        if n_reached == 1:
            branch = EB_ONLY_ONE
        elif n_reached >= 2:
            branch = EB_PARCHMENT
        else:
            branch = EB_OUTSIDE
        for i in range(3):
            if reached[i]:
                keys[i, 0] = 1
                keys[i, 1] = parch[i]
                keys[i, 2] = glory[i]
            else:
                keys[i, 1] = -dist[i, 0]
                if not priv_only:
                    keys[i, 2] = -dist[i, 1]
                    keys[i, 3] = -dist[i, 2]
    for i in range(3):
        keys[i, 4] = -pp[i]
    rank = np.zeros(3, dtype=np.int64)
    for i in range(3):
        ahead = 0
        for j in range(3):
            for k in range(5):
                if keys[j, k] != keys[i, k]:
                    if keys[j, k] > keys[i, k]:
                        ahead += 1
                    break
        rank[i] = ahead + 1
    s.rank[0] = rank[0]
    s.rank[AG_AUTOMA1] = rank[1]
    s.rank[AG_AUTOMA1 + 1] = rank[2]
    s.winner[0] = 1 if rank[0] == 1 else 0
    s.automa_won = 0
    if rank[0] != 1:
        if rank[1] == 1:
            s.automa_won = 1
        elif rank[2] == 1:
            s.automa_won = 2
    s.end_branch = branch
    for i in range(3):
        r = ev_begin(s, log, EV_GAME_END, int(agent[i]))
        if r < 0:
            continue
        log[r, FIELD0] = agent[i]
        log[r, FIELD0 + 1] = branch
        log[r, FIELD0 + 2] = reached[i]
        log[r, FIELD0 + 3] = parch[i]
        log[r, FIELD0 + 4] = glory[i]
        log[r, FIELD0 + 5] = 1 if (i > 0 or legendary) else 0
        log[r, FIELD0 + 6] = dist[i, 0]
        log[r, FIELD0 + 7] = dist[i, 1]
        log[r, FIELD0 + 8] = dist[i, 2]
        log[r, FIELD0 + 9] = pp[i]
        log[r, FIELD0 + 10] = rank[i]
        log[r, FIELD0 + 11] = 1 if rank[i] == 1 else 0
        for k in range(3):
            log[r, FIELD0 + 12 + k] = s.track[0, k] if i == 0 else -1
        log[r, FIELD0 + 15] = s.a_score[i - 1] if i > 0 else -1
        log[r, FIELD0 + 16] = label_space[i]
        log[r, FIELD0 + 17] = solo_end_key_name(deciding_key(keys, 3, i), branch == EB_NO_LEGENDARY, reached[i] != 0)
