"""The Pendulum ruleset as the kernels read it: one structured record ``tables[0]`` (``TABLES_DTYPE``).

Every kernel takes ``(s, t, log, ...)`` with ``s`` the state record and ``t = tables[0]``.
``ruleset.build_ruleset`` fills it from the data files and the resolved options.

    effects   eff[E, 3, EF_FIELDS] eff_nalt[E] n_eff: every cost, reward, requirement and yield of
              the data files as up to 3 alternatives ('|' in the token grammar) of amounts; effect 0 is
              ``none``. Columns EF_*: military culture gold wild votes vp_power vp_prestige vp_popularity
              vp_any legendary prod (bit mask of mat slots M_*) conquer retrieve recruit special (SP_*)
    spaces    n_spaces sp[20, SP_FIELDS]: the action spaces of the board side in play, in
              action_spaces.csv order (space index = row). SP_*: area (timer) row pos_lr (after
              mirror_rows) frame (FR_*) n_alt reward0 reward1 (effects) cost (effect) common_blocked
              automa_large (1 large, 0 small, -1 none) neutral (a 2-player neutral worker sits here)
              has_prod (a reward includes production)
    chars     n_chars ch[10, CH_FIELDS]: characters.csv rows. CH_*: start track x3, steps x3, start
              resources x3, start votes, production effect per mat slot (M_* order) x4, advanced,
              group (the character 0..4), first stratagem index
    strats    n_strats st[72, ST_FIELDS]: stratagem index = row; persona cards first (stratagems.csv
              order), then one row per council card of kind stratagem. ST_*: owner character row (-1
              for a council card) cost effect council card (-1) needs (NEED_*)
    council   co[32, CO_FIELDS]: council card index = row: standard cards 0..24 (ids 1..25), finals
              25..29 (F1..F5), C_GRANDE = 30, C_DEFAULT = 31. CO_*: deck (0 standard, 1 final, 2 fixed)
              kind (CK_*) cost effect stratagem index (-1) track (final cards F2/F3/F4: their track, F1
              = 3 for all, else -1)
    achieve   n_ach ach[16, 2]: requirement effect, ribbon effect
    provinces n_prov prov[64, 4]: effect of each edge by mat slot colour (M_* order)
    automa    acard[32, AC_FIELDS]: AC_*: move_area (-1, T_PURPLE, T_GREEN) flip (FLIP_*) discard slot
              (0 none, 1..4) vp votes symbol; sym_match[12, 32]: symbol x council card; n_sym;
              sym_grande (the symbol index matching the grande card); scoring[6, 4, 2] (level, round-1:
              vp bonus, votes bonus); lvl_adv[6] (the level imposes the advanced variant)
    track     n_track trk[80, TR_FIELDS]: the Automa score track. TR_*: kind (TK_*) distance label
              (0 = none printed) distance to parchment, parchment index, glory index
    schedule  n_sched sched[12, 4]: step k: virtual time (s), due timers bit mask, purple flip number
              (0 none), auto-flip order code (unused: the order comes from opts); timer_s[3]
    setup     priv_bonus[5] (council bonus VP by rank for this player count); neutral_spaces[4]
    opts      int64[N_OPTS] (codes.OPT_*)
"""

from __future__ import annotations

import numpy as np

from simlab.games.pendulum.codes import MAX_SPACES, N_OPTS

MAX_EFFECTS = 256
MAX_ALT = 3

(EF_MIL, EF_CUL, EF_GOLD, EF_WILD, EF_VOTES, EF_VP_POW, EF_VP_PRE, EF_VP_POP, EF_VP_ANY, EF_LEGENDARY, EF_PROD,
 EF_CONQUER, EF_RETRIEVE, EF_RECRUIT, EF_SPECIAL) = range(15)
EF_FIELDS = 15
EF_RES0 = EF_MIL  # EF_RES0 + r for resource r
EF_VP0 = EF_VP_POW  # EF_VP0 + k for track k

# special effects (EF_SPECIAL)
(SP_NONE, SP_MAX3, SP_PICKUP, SP_SWAP_VP, SP_FREE_ACTION, SP_GRANDE, SP_EXCHANGE_MC, SP_ADJACENT, SP_CLAIM_TWICE,
 SP_PLACE_TIMED, SP_RETURN_ONE, SP_CLAIM_ACH, SP_DOUBLE) = range(13)
SPECIAL_NAMES = ("none", "max3", "pickup_stratagems", "swap_vp", "free_action", "grande",
                 "exchange_military_culture", "adjacent_action", "claim_achievement_twice", "place_on_timed_row",
                 "return_one_stratagem", "claim_achievement", "double_action")

# spaces
(SP_AREA, SP_ROW, SP_POS, SP_FRAME, SP_NALT, SP_REWARD0, SP_REWARD1, SP_COST, SP_COMMON_BLOCKED, SP_AUTOMA_LARGE,
 SP_NEUTRAL, SP_HAS_PROD) = range(12)
SP_FIELDS = 12
FR_SINGLE, FR_DOUBLE, FR_OPEN = 0, 1, 2
FRAME_NAMES = ("single", "double", "open")

# characters
(CH_START_POW, CH_START_PRE, CH_START_POP, CH_STEPS_POW, CH_STEPS_PRE, CH_STEPS_POP, CH_START_MIL, CH_START_CUL,
 CH_START_GOLD, CH_START_VOTES, CH_PROD_BROWN, CH_PROD_RED, CH_PROD_BLUE, CH_PROD_YELLOW, CH_ADVANCED, CH_GROUP,
 CH_STRAT0) = range(17)
CH_FIELDS = 17
CH_START_TRACK0 = CH_START_POW
CH_START_RES0 = CH_START_MIL
CH_PROD0 = CH_PROD_BROWN  # CH_PROD0 + m for mat slot m

# stratagems
ST_OWNER, ST_COST, ST_EFFECT, ST_COUNCIL, ST_NEEDS = range(5)
ST_FIELDS = 5
NEED_NONE, NEED_RETRIEVABLE, NEED_RECRUIT, NEED_WORKER_ACTION = range(4)

# council cards
CO_DECK, CO_KIND, CO_COST, CO_EFFECT, CO_STRAT, CO_TRACK = range(6)
CO_FIELDS = 6
CK_IMMEDIATE, CK_STRATAGEM, CK_PERMANENT, CK_FINAL, CK_GRANDE, CK_DEFAULT = range(6)
COUNCIL_KINDS = ("immediate", "stratagem", "permanent", "final", "grande", "default")
N_STANDARD = 25
C_F1 = 25  # F1..F5 = 25..29
C_F5 = 29
C_GRANDE = 30
C_DEFAULT = 31
N_COUNCIL = 32

# automa cards
AC_MOVE, AC_FLIP, AC_DISCARD, AC_VP, AC_VOTES, AC_SYMBOL = range(6)
AC_FIELDS = 6
FLIP_NONE, FLIP_PURPLE_GREEN, FLIP_PURPLE_BLACK = range(3)
FLIP_NAMES = ("none", "purple>green", "purple>black")
N_AUTOMA_CARDS = 32
LEVELS = ("A", "B", "C", "D", "E", "F")

# automa track
TR_KIND, TR_LABEL, TR_DIST, TR_PIDX, TR_GIDX = range(5)
TR_FIELDS = 5
TK_START, TK_NORMAL, TK_PARCHMENT, TK_GLORY = range(4)
TRACK_KINDS = ("start", "normal", "parchment", "glory")

# schedule
SC_TIME, SC_DUE, SC_PURPLE_NO = range(3)

TABLES_DTYPE = np.dtype([
    ("eff", np.int32, (MAX_EFFECTS, MAX_ALT, EF_FIELDS)), ("eff_nalt", np.int32, MAX_EFFECTS), ("n_eff", np.int32),
    ("n_spaces", np.int32), ("sp", np.int32, (MAX_SPACES, SP_FIELDS)),
    ("n_chars", np.int32), ("ch", np.int32, (10, CH_FIELDS)),
    ("n_strats", np.int32), ("st", np.int32, (72, ST_FIELDS)),
    ("co", np.int32, (N_COUNCIL, CO_FIELDS)),
    ("n_ach", np.int32), ("ach", np.int32, (16, 2)),
    ("n_prov", np.int32), ("prov", np.int32, (64, 4)),
    ("acard", np.int32, (N_AUTOMA_CARDS, AC_FIELDS)), ("sym_match", np.int32, (12, N_COUNCIL)), ("n_sym", np.int32),
    ("sym_grande", np.int32), ("scoring", np.int32, (6, 4, 2)), ("lvl_adv", np.int32, 6),
    ("n_track", np.int32), ("trk", np.int32, (80, TR_FIELDS)),
    ("n_sched", np.int32), ("sched", np.int32, (12, 4)), ("timer_s", np.int32, 3),
    ("priv_bonus", np.int32, 5), ("neutral_spaces", np.int32, 4),
    ("opts", np.int64, N_OPTS),
])
