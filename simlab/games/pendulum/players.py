"""Pendulum's built-in compiled players and their parameters.

A compiled player is a kind number and a float64 parameter vector (the parameters in the order
``BUILTIN_PLAYERS`` lists them). The batch loop and the Python driver both call

    choose_action(kind, params, s_arr, legal, n_legal, tables) -> action

``s_arr`` is the one-element state array, ``legal[:n_legal]`` the legal actions of the seat to act
(``s.actor``), ``tables`` the ruleset record array (``t = tables[0]``). A player draws random numbers only
from its own seat's stream (``STREAM_SEAT0 + seat``) and changes nothing else in the state. In solo any of
them plays the one seat against the two Automas (which are rules, not players).

**What a position is worth** (``evaluate``, weights ``W_*``; one VP on a track far from the parchment is
worth about 1-3, a resource cube ``W_RES``): the three VP tracks, each by its distance ``d`` to the
parchment (``-W_TRACK * d - W_WORST * d * d / 8``: the quadratic part makes the worst track the one a VP is
worth most on) plus ``W_INSIDE`` per VP inside the parchment; the legendary VP (``W_LEG``); resources and
votes (plus the council bonus VP the votes now point at: ``W_RANK``); provinces (``W_PROV`` each plus
``W_FUT`` times the slot edge's yield times the productions still to come, less for provinces over the
slot limit, which go at council); workers in play and grandes; the stratagems in hand (``W_HAND`` times
what playing them gains); how close the seat is to claiming the achievement while the legendary token
lies on it (``W_ACH``), and in round 4 to paying for the final card F5 (``W_F5``); in solo the time markers
on the Automa board (each is a VP and a vote for each Automa). Workers add their **potential**: a worker in
the top frame of a space on a row its timer is not on waits for it (``W_WAIT`` times the space's value: its
best reward less its cost), one on the timed row can act now (``W_NOW``), a free worker (the mat, a bottom
box of an untimed row) is worth ``W_FREE`` times the best space it could move to, a stuck one (bottom box
of the timed row) ``W_STUCK`` times it.

**Heuristics** (track_balancer, producer, voter) are one-ply in every phase, and differ only in their
weights. A move changes nothing but where a worker stands, so its value is computed directly (the worker's new
potential less its old). In the real-time phase (most of a game's decisions) every other action is first
scored by the static scorer ``fast_score`` (its value read off the position, no copy), and only the best
``LOOKAHEAD`` of those by it are played out: applied to a copy of the state (determinized first: what the
seat cannot see is re-dealt from its own stream, see ``determinize``), the seat's own decisions that follow
at once (the pending stack: wild cubes, VP of choice, the province to conquer and its slot, the worker to
retrieve, ...; the solo re-placement after a lift) settled by the fast policy (``fast_action``), and the
result evaluated. In the other phases (pending decisions, council cards, trim, step 5, start placements,
the solo re-placement: a few a round) every action is played out so, the follow-ups settled one-ply (each
choice on a further copy). The best of the moves, the played-out actions and the pass wins. **They pass**
(``A_PASS``, where legal) when no action gains more than ``pass_below`` over the position as it is, so a
step always ends: every action a heuristic takes raises its own evaluation. Their first versions
(``track_balancer_v1``, ``producer_v1``, ``voter_v1``, same weights) play every action out in every phase,
settling one-ply: slower (docs/players.md gives the speeds and the ladder between the versions).

**Search** (slow): determinized Monte Carlo in the real-time phase and at council. Its base heuristic's
(the voter by default) best few actions are the candidates, searched only when the runner-up's one-ply score
is within ``margin`` of the best; each playout re-deals what the seat cannot see from the seat's own stream
(the order of the province, achievement and Automa decks, the council cards still in the deck), applies a
candidate and plays the copy to the end of the round (or of the game) with ``fast_action`` (the base's
values scored directly, no copies) for every seat, then scores the final position with the base's
evaluation (a finished game: +-win_bonus); the candidate with the best mean wins. Other decisions are the
base heuristic's.

``random`` is uniform over the legal actions, but passes with probability ``pass_prob`` wherever it may
(uniform random play would almost never see every seat pass in a row, and a step would not end).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core import kernels
from simlab.core.game import BuiltinPlayer
from simlab.core.kernels import bind
from simlab.core.rng import below, derive_key, unit
from simlab.games.pendulum import workers
from simlab.games.pendulum.codes import (
    A_ACTION,
    A_CLAIM,
    A_CONQUER,
    A_COUNCIL,
    A_FLIP,
    A_LIFT,
    A_MOVE,
    A_NO,
    A_PASS,
    A_PICKUP,
    A_REFILL,
    A_RES,
    A_RETURN,
    A_SPACE,
    A_STRAT,
    A_SWAPVP,
    A_TRACK,
    A_TRIM,
    A_WORKER,
    A_YES,
    AG_AUTOMA1,
    AG_NEUTRAL,
    DEST_MAT,
    MAX_ACTIONS,
    N_DEST,
    OPT_LEVEL,
    OPT_NEUTRAL_VOTES,
    OPT_PARCHMENT_FIRST,
    OPT_PROV_LIMIT,
    OPT_PROV_LIMIT_MAX3,
    OPT_RES_CAP,
    OPT_TRACK_LAST,
    PART_TOP,
    PD_ALT,
    PD_GRANDE_SWAP,
    PD_RETRIEVE,
    PD_WILD_PAY,
    PH_COUNCIL,
    PH_PENDING,
    PH_REAL,
    PH_REPLACE,
    PH_STEP5,
    PH_TRIM,
    T_BLACK,
    T_GREEN,
    T_PURPLE,
    W_MAT,
    W_RESERVE,
)
from simlab.games.pendulum.rules import apply_action, legal_actions, new_log
from simlab.games.pendulum.state import MAX_WORKERS, N_STREAMS, STATE_DTYPE, STREAM_SEAT0
from simlab.games.pendulum.tables import (
    AC_VOTES,
    C_DEFAULT,
    CH_PROD0,
    CK_GRANDE,
    CK_PERMANENT,
    CK_STRATAGEM,
    CO_COST,
    CO_EFFECT,
    CO_KIND,
    CO_STRAT,
    EF_CONQUER,
    EF_LEGENDARY,
    EF_PROD,
    EF_RECRUIT,
    EF_RES0,
    EF_RETRIEVE,
    EF_SPECIAL,
    EF_VOTES,
    EF_VP0,
    EF_VP_ANY,
    EF_WILD,
    N_STANDARD,
    SP_AREA,
    SP_COST,
    SP_FREE_ACTION,
    SP_GRANDE,
    SP_MAX3,
    SP_NALT,
    SP_NONE,
    SP_PICKUP,
    SP_REWARD0,
    SP_ROW,
    ST_COST,
    ST_COUNCIL,
    ST_EFFECT,
)

next_u64 = bind(kernels.next_u64)  # the shared helper, compiled here so numba inlines it

KIND_RANDOM = 0
KIND_BALANCER = 1
KIND_PRODUCER = 2
KIND_VOTER = 3
KIND_SEARCH = 4
KIND_BALANCER_V1 = 5  # the heuristics' first version (a full look-ahead on every action), kept for comparisons
KIND_PRODUCER_V1 = 6
KIND_VOTER_V1 = 7
N_PARAMS = 8
V1_OFFSET = KIND_BALANCER_V1 - KIND_BALANCER  # a _v1 kind less this is its heuristic's kind
LOOKAHEAD = 2  # real time: how many non-move actions, the best by fast_score, the heuristics play out

BUILTIN_PLAYERS: dict[str, BuiltinPlayer] = {
    "random": BuiltinPlayer(
        "random",
        KIND_RANDOM,
        {"pass_prob": 0.5},
        "uniform over the legal actions in every decision (placements, moves, worker actions, stratagems, "
        "council cards, pending choices); passes with probability pass_prob wherever it may",
        {"pass_prob": "chance of passing where a pass is legal (else uniform over all legal actions, the pass "
                      "included); uniform play alone would hardly ever see every seat pass in a row"},
    ),
    "track_balancer": BuiltinPlayer(
        "track_balancer",
        KIND_BALANCER,
        {"worst": 0.8, "track": 1.0, "legendary": 40.0, "resource": 0.4, "vote": 1.4, "province": 0.4,
         "worker": 2.0, "pass_below": 0.05},
        "pushes its worst track: one-ply over every action, valuing a VP most on the track furthest from the "
        "parchment (all three tracks into the parchment, NOTES I.9 and I.12.11), and the legendary VP above "
        "all (claimed from the achievement as soon as it can hold the requirement)",
        {
            "worst": "weight of the squared distance of each track to the parchment (/8): the balancing pull",
            "track": "value of one step of a track towards the parchment",
            "legendary": "value of the legendary VP (the achievement's and F5's pull scale with it)",
            "resource": "value of one military, culture or gold cube",
            "vote": "value of one vote held (council privilege, achievement requirements)",
            "province": "value of a tucked province beyond what its slot edge yields",
            "worker": "value of a worker in play (recruit; less in later rounds)",
            "pass_below": "passes when no action gains more than this over the position as it is",
        },
    ),
    "producer": BuiltinPlayer(
        "producer",
        KIND_PRODUCER,
        {"province": 0.8, "production": 1.0, "resource": 0.38, "worst": 0.5, "track": 1.0, "legendary": 40.0,
         "worker": 2.5, "pass_below": 0.05},
        "provinces and production first: conquers in the black area, tucks each province under the mat slot "
        "whose production it will take most (brown VP edges under brown), produces, and converts the "
        "resources into VP through actions, stratagems and the final council cards",
        {
            "province": "value of a tucked province beyond what its slot edge yields",
            "production": "weight of a province edge's yield times the productions of its slot still to come",
            "resource": "value of one military, culture or gold cube",
            "worst": "weight of the squared distance of each track to the parchment (/8)",
            "track": "value of one step of a track towards the parchment",
            "legendary": "value of the legendary VP",
            "worker": "value of a worker in play (recruit; less in later rounds)",
            "pass_below": "passes when no action gains more than this over the position as it is",
        },
    ),
    "voter": BuiltinPlayer(
        "voter",
        KIND_VOTER,
        {"vote": 1.6, "rank": 1.0, "achievement": 0.75, "worst": 0.5, "track": 1.0, "legendary": 40.0,
         "resource": 0.4, "pass_below": 0.05},
        "privilege and council rewards: gathers votes (black +1 vote, green power+votes) to lead the council "
        "(its bonus VP and first pick of the cards), holds the achievement's requirement to claim it (the "
        "legendary while it lies there), and takes the council card whose result it values most",
        {
            "vote": "value of one vote held",
            "rank": "weight of the council bonus VP its votes now point at (rank among all agents' votes)",
            "achievement": "share of the legendary's value earned by holding the achievement requirement",
            "worst": "weight of the squared distance of each track to the parchment (/8)",
            "track": "value of one step of a track towards the parchment",
            "legendary": "value of the legendary VP",
            "resource": "value of one military, culture or gold cube",
            "pass_below": "passes when no action gains more than this over the position as it is",
        },
    ),
    "search": BuiltinPlayer(
        "search",
        KIND_SEARCH,
        {"playouts": 4.0, "candidates": 3.0, "horizon": 0.0, "win_bonus": 20.0, "base": 3.0, "margin": 0.3},
        "determinized Monte Carlo: its base heuristic's best few actions, each played out on copies where "
        "what the seat cannot see (deck orders, the council cards still to come) is re-dealt from its own "
        "stream, to the end of the round (or the game) with the fast heuristic policy for every seat; "
        "the best mean outcome wins",
        {
            "playouts": "playouts per candidate (each on a fresh determinization, shared by all candidates)",
            "candidates": "how many of the base heuristic's best actions are tried",
            "horizon": "0: play out to the end of the round (its council done); 1: to the end of the game",
            "win_bonus": "added to a playout's score for a game won in it (subtracted for one lost)",
            "base": "the heuristic that ranks the candidates and values the leaves (1 track_balancer, "
                    "2 producer, 3 voter)",
            "margin": "searches only when the base heuristic's runner-up is within this of its best action",
        },
        slow=True,
    ),
}


for _name, _kind in (("track_balancer", KIND_BALANCER_V1), ("producer", KIND_PRODUCER_V1), ("voter", KIND_VOTER_V1)):
    _info = BUILTIN_PLAYERS[_name]
    BUILTIN_PLAYERS[f"{_name}_v1"] = BuiltinPlayer(
        f"{_name}_v1",
        _kind,
        dict(_info.params),
        f"{_name} as it was first written (kept to measure the new one against): every legal action, not only "
        "the best by the static scorer, is played out on a copy with the seat's follow-up decisions settled "
        "one-ply; same weights, about 3-5 times slower",
        dict(_info.param_help),
    )


def _default_params() -> np.ndarray:
    table = np.zeros((len(BUILTIN_PLAYERS), N_PARAMS))
    for info in BUILTIN_PLAYERS.values():
        for i, value in enumerate(info.params.values()):
            table[info.kind, i] = value
    return table


# Default parameter vector per kind (a compile-time constant: the search's playouts use its base's).
DEFAULT_PARAMS = _default_params()

# ---------------------------------------------------------------- evaluation weights

(W_TRACK, W_WORST, W_INSIDE, W_LEG, W_RES, W_VOTE, W_RANK, W_PROV, W_FUT, W_WORKER, W_GRANDE, W_HAND, W_MAX3,
 W_ACH, W_PARCH, W_MARKER, W_GLORY, W_WAIT, W_NOW, W_FREE, W_STUCK, W_PASS, W_RETRIEVE, W_TRIGGER) = range(24)
N_W = 24
D0 = 8.0  # the quadratic track term's scale: -W_WORST * d * d / D0
WIN_SCORE = 1000.0  # a finished game, won or lost, in the evaluation
NEG = -1e18

# Resources are worth more while few are held: the first RES_FIRST[r] cubes of resource r are worth
# RES_HIGH[r] times W_RES each (gold pays the green and purple actions, military the conquest, culture the
# pick-up and the achievements), every further cube W_RES.
RES_FIRST = (4, 3, 4)
RES_HIGH = (2.5, 1.5, 4.0)

# Context slots (``ctx``, float64): values computed once per evaluated position.
C_VP0 = 0  # +k: value of one more VP on track k
C_VPANY = 3  # the best track's value
C_CONQ = 4  # the best province a conquer could bring now
C_FUT = 5  # expected productions still to come of a kept province's slot
C_BESTC = 6  # best waiting value a free common could reach
C_BESTG = 7  # ... a free grande
C_WORKER = 8  # value of one more worker in play now
C_RANKV = 9  # value of the council bonus the votes point at
C_CAP0 = 10  # +r: the seat's cap on resource r
C_HI0 = 13  # +r: value of each of the first RES_FIRST[r] cubes
N_CTX = 16


@njit(cache=True)
def heuristic_weights(kind: int, params, w) -> None:
    """Fill the evaluation weights ``w`` (length N_W) of heuristic ``kind`` from its parameters."""
    w[W_TRACK] = 1.0
    w[W_WORST] = 1.0
    w[W_INSIDE] = 0.3
    w[W_LEG] = 40.0
    w[W_RES] = 0.3
    w[W_VOTE] = 0.8
    w[W_RANK] = 0.5
    w[W_PROV] = 0.4
    w[W_FUT] = 1.0
    w[W_WORKER] = 3.0
    w[W_GRANDE] = 0.6
    w[W_HAND] = 0.6
    w[W_MAX3] = 0.3
    w[W_ACH] = 0.6
    w[W_PARCH] = 0.75
    w[W_MARKER] = 1.0
    w[W_GLORY] = 0.3
    w[W_WAIT] = 0.5
    w[W_NOW] = 0.6
    w[W_FREE] = 0.3
    w[W_STUCK] = 0.15
    w[W_PASS] = 0.05
    w[W_RETRIEVE] = 0.3
    w[W_TRIGGER] = 0.6
    if kind >= KIND_BALANCER_V1:
        kind -= V1_OFFSET
    if kind == KIND_BALANCER:
        w[W_WORST] = params[0]
        w[W_TRACK] = params[1]
        w[W_LEG] = params[2]
        w[W_RES] = params[3]
        w[W_VOTE] = params[4]
        w[W_PROV] = params[5]
        w[W_WORKER] = params[6]
        w[W_PASS] = params[7]
    elif kind == KIND_PRODUCER:
        w[W_PROV] = params[0]
        w[W_FUT] = params[1]
        w[W_RES] = params[2]
        w[W_WORST] = params[3]
        w[W_TRACK] = params[4]
        w[W_LEG] = params[5]
        w[W_WORKER] = params[6]
        w[W_PASS] = params[7]
    elif kind == KIND_VOTER:
        w[W_VOTE] = params[0]
        w[W_RANK] = params[1]
        w[W_ACH] = params[2]
        w[W_WORST] = params[3]
        w[W_TRACK] = params[4]
        w[W_LEG] = params[5]
        w[W_RES] = params[6]
        w[W_PASS] = params[7]
        w[W_FUT] = 0.8


# ---------------------------------------------------------------- small helpers


@njit(cache=True, inline="always")
def _cap(s, t, p: int, r: int) -> int:
    """Seat p's cap on resource r: the bank of 10 less the glory cubes of that colour (effects.res_cap)."""
    return int(t.opts[OPT_RES_CAP]) - s.glory[p, r]


@njit(cache=True, inline="always")
def _is_timed(s, t, d: int) -> bool:
    return s.timer_row[t.sp[d, SP_AREA]] == t.sp[d, SP_ROW]


@njit(cache=True, inline="always")
def res_value(ctx, w, r: int, n: int) -> float:
    """What holding n cubes of resource r is worth (concave: see RES_FIRST)."""
    k = RES_FIRST[r]
    if n <= k:
        return ctx[C_HI0 + r] * n
    return ctx[C_HI0 + r] * k + w[W_RES] * (n - k)


@njit(cache=True, inline="always")
def _marginal(ctx, w, r: int, n: int) -> float:
    """Value of one more cube of resource r when n are held (0 at the cap)."""
    if n >= ctx[C_CAP0 + r]:
        return 0.0
    return ctx[C_HI0 + r] if n < RES_FIRST[r] else w[W_RES]


@njit(cache=True)
def _holds(t, e: int, h0: int, h1: int, h2: int, votes: int, s, p: int) -> bool:
    """Whether holdings (h0, h1, h2) and the seat's votes and tracks pay effect e's first alternative."""
    if e <= 0:
        return True
    e0 = t.eff[e, 0, EF_RES0]
    e1 = t.eff[e, 0, EF_RES0 + 1]
    e2 = t.eff[e, 0, EF_RES0 + 2]
    if h0 < e0 or h1 < e1 or h2 < e2:
        return False
    if t.eff[e, 0, EF_WILD] > (h0 - e0) + (h1 - e1) + (h2 - e2):
        return False
    if t.eff[e, 0, EF_VOTES] > votes:
        return False
    for k in range(3):  # noqa: SIM110 (numba: no generators)
        if t.eff[e, 0, EF_VP0 + k] > s.track[p, k]:
            return False
    return True


@njit(cache=True)
def _pay(t, e: int, ctx, w, h0: int, h1: int, h2: int):
    """What paying effect e's first alternative costs from holdings (h0, h1, h2), in evaluation units, and the
    holdings left: (value, h0, h1, h2). The wild part takes the cheapest cubes; a missing cube counts at the
    high value."""
    if e <= 0:
        return 0.0, h0, h1, h2
    v = 0.0
    h = (h0, h1, h2)
    n0 = t.eff[e, 0, EF_RES0]
    n1 = t.eff[e, 0, EF_RES0 + 1]
    n2 = t.eff[e, 0, EF_RES0 + 2]
    a0 = min(h[0], n0)
    a1 = min(h[1], n1)
    a2 = min(h[2], n2)
    v += res_value(ctx, w, 0, h0) - res_value(ctx, w, 0, h0 - a0) + (n0 - a0) * ctx[C_HI0]
    v += res_value(ctx, w, 1, h1) - res_value(ctx, w, 1, h1 - a1) + (n1 - a1) * ctx[C_HI0 + 1]
    v += res_value(ctx, w, 2, h2) - res_value(ctx, w, 2, h2 - a2) + (n2 - a2) * ctx[C_HI0 + 2]
    h0 -= a0
    h1 -= a1
    h2 -= a2
    wild = t.eff[e, 0, EF_WILD]
    while wild > 0:
        best = -1
        bv = 1e18
        for r in range(3):
            hr = h0 if r == 0 else (h1 if r == 1 else h2)
            if hr > 0:
                m = ctx[C_HI0 + r] if hr <= RES_FIRST[r] else w[W_RES]
                if m < bv:
                    bv = m
                    best = r
        if best < 0:
            v += wild * w[W_RES] * 2.0
            break
        v += bv
        if best == 0:
            h0 -= 1
        elif best == 1:
            h1 -= 1
        else:
            h2 -= 1
        wild -= 1
    v += t.eff[e, 0, EF_VOTES] * w[W_VOTE]
    for k in range(3):
        v += t.eff[e, 0, EF_VP0 + k] * ctx[C_VP0 + k]
    return v, h0, h1, h2


@njit(cache=True)
def _workers_in_play(s, p: int) -> int:
    n = 0
    for w in range(MAX_WORKERS):
        if s.w_place[p, w] >= W_MAT:
            n += 1
    return n


@njit(cache=True)
def _reserve_common(s, p: int) -> bool:
    for w in range(MAX_WORKERS):  # noqa: SIM110 (numba: no generators)
        if s.w_place[p, w] == W_RESERVE and s.w_grande[p, w] == 0:
            return True
    return False


@njit(cache=True)
def _grandes(s, p: int) -> int:
    n = 0
    for w in range(MAX_WORKERS):
        if s.w_grande[p, w] != 0 and s.w_place[p, w] >= W_MAT:
            n += 1
    return n


@njit(cache=True)
def _gain_res(ctx, w, r: int, n: int, h: int):
    """(value, new holding) of gaining n cubes of resource r on top of h (capped)."""
    room = int(ctx[C_CAP0 + r]) - h
    if n > room:
        n = room
    if n <= 0:
        return 0.0, h
    return res_value(ctx, w, r, h + n) - res_value(ctx, w, r, h), h + n


@njit(cache=True)
def _gain_leaf(s, t, p: int, e: int, alt: int, ctx, w, h0: int, h1: int, h2: int):
    """What gaining alternative ``alt`` of effect e is worth to seat p on top of holdings (h0, h1, h2),
    production and the pick-up special aside: (value, h0, h1, h2)."""
    if e <= 0:
        return 0.0, h0, h1, h2
    v = 0.0
    x, h0 = _gain_res(ctx, w, 0, t.eff[e, alt, EF_RES0], h0)
    v += x
    x, h1 = _gain_res(ctx, w, 1, t.eff[e, alt, EF_RES0 + 1], h1)
    v += x
    x, h2 = _gain_res(ctx, w, 2, t.eff[e, alt, EF_RES0 + 2], h2)
    v += x
    wild = t.eff[e, alt, EF_WILD]
    while wild > 0:
        m0 = _marginal(ctx, w, 0, h0)
        m1 = _marginal(ctx, w, 1, h1)
        m2 = _marginal(ctx, w, 2, h2)
        if m0 <= 0.0 and m1 <= 0.0 and m2 <= 0.0:
            break
        if m2 >= m0 and m2 >= m1:
            v += m2
            h2 += 1
        elif m0 >= m1:
            v += m0
            h0 += 1
        else:
            v += m1
            h1 += 1
        wild -= 1
    v += t.eff[e, alt, EF_VOTES] * w[W_VOTE]
    for k in range(3):
        n = t.eff[e, alt, EF_VP0 + k]
        if n > 0:
            v += n * ctx[C_VP0 + k]
    v += t.eff[e, alt, EF_VP_ANY] * ctx[C_VPANY]
    if t.eff[e, alt, EF_LEGENDARY] > 0 and s.legendary[p] == 0:
        v += w[W_LEG]
    v += t.eff[e, alt, EF_CONQUER] * ctx[C_CONQ]
    v += t.eff[e, alt, EF_RETRIEVE] * w[W_RETRIEVE]
    if t.eff[e, alt, EF_RECRUIT] > 0 and _workers_in_play(s, p) < MAX_WORKERS and _reserve_common(s, p):
        v += ctx[C_WORKER]
    sp = t.eff[e, alt, EF_SPECIAL]
    if sp != SP_NONE:
        if sp == SP_MAX3:
            v += w[W_MAX3] if s.max3[p] == 0 else 0.0
        elif sp == SP_FREE_ACTION:
            v += 2.0 * ctx[C_HI0 + 2]
        elif sp == SP_GRANDE:
            v += w[W_GRANDE]
        elif sp != SP_PICKUP:
            v += 0.3
    return v, h0, h1, h2


@njit(cache=True)
def _production_value(s, t, p: int, m: int, ctx, w, h0: int, h1: int, h2: int):
    """Seat p's production of mat slot m (the character's yield plus every tucked province's edge) on top of
    holdings (h0, h1, h2): (value, h0, h1, h2)."""
    v, h0, h1, h2 = _gain_leaf(s, t, p, t.ch[s.char[p], CH_PROD0 + m], 0, ctx, w, h0, h1, h2)
    for i in range(s.prov_n[p, m]):
        x, h0, h1, h2 = _gain_leaf(s, t, p, t.prov[s.prov[p, m, i], m], 0, ctx, w, h0, h1, h2)
        v += x
    return v, h0, h1, h2


@njit(cache=True)
def _gain_mid(s, t, p: int, e: int, alt: int, ctx, w, h0: int, h1: int, h2: int):
    """``_gain_leaf`` plus production: (value, h0, h1, h2)."""
    v, h0, h1, h2 = _gain_leaf(s, t, p, e, alt, ctx, w, h0, h1, h2)
    prod = t.eff[e, alt, EF_PROD] if e > 0 else 0
    if prod != 0:
        for m in range(4):
            if prod & (1 << m):
                x, h0, h1, h2 = _production_value(s, t, p, m, ctx, w, h0, h1, h2)
                v += x
    return v, h0, h1, h2


@njit(cache=True)
def _strat_value(s, t, p: int, i: int, ctx, w) -> float:
    """What playing stratagem i would gain now (its best alternative; a pick-up special counts nothing
    here), less its cost (halved when it cannot be paid now)."""
    e = t.st[i, ST_EFFECT]
    c = t.st[i, ST_COST]
    h0 = s.res[p, 0]
    h1 = s.res[p, 1]
    h2 = s.res[p, 2]
    ok = _holds(t, c, h0, h1, h2, s.votes[p], s, p)
    cost, g0, g1, g2 = _pay(t, c, ctx, w, h0, h1, h2)
    best = NEG
    for alt in range(max(1, t.eff_nalt[e])):
        v, _, _, _ = _gain_mid(s, t, p, e, alt, ctx, w, g0, g1, g2)
        if v > best:
            best = v
    if t.eff[e, 0, EF_RETRIEVE] > 0:
        best = _retrieve_value(s, t, p, ctx, w)
    v = best - cost
    return v if ok else 0.5 * v


@njit(cache=True)
def _retrieve_value(s, t, p: int, ctx, w) -> float:
    """A retrieve: a stuck worker (bottom box of a timed row) freed at once."""
    v = 0.0
    for wk in range(MAX_WORKERS):
        d = s.w_place[p, wk]
        if d >= 0 and _is_timed(s, t, d):
            best = ctx[C_BESTG] if s.w_grande[p, wk] else ctx[C_BESTC]
            x = (w[W_FREE] - (w[W_STUCK] if s.w_part[p, wk] != PART_TOP else w[W_NOW])) / w[W_WAIT] * best
            if x > v:
                v = x
    return v


@njit(cache=True)
def _discard_value(s, t, p: int, ctx, w) -> float:
    """Hand value the discarded stratagems would have back in hand (pick up)."""
    v = 0.0
    for i in range(t.n_strats):
        if s.strat[p, i] == 2:
            x = _strat_value(s, t, p, i, ctx, w)
            if x > 0.0:
                v += w[W_HAND] * x
    return v


@njit(cache=True)
def gain_value(s, t, p: int, e: int, alt: int, ctx, w, h0: int, h1: int, h2: int) -> float:
    """What gaining alternative ``alt`` of effect e is worth to seat p on top of holdings (h0, h1, h2):
    resources (capped, concave), votes, VP at the tracks' marginal values, the legendary, production (the
    mat slot and its provinces), a conquer (the best province now), retrieve, recruit, specials (pick up:
    the discarded stratagems back in hand)."""
    v, _, _, _ = _gain_mid(s, t, p, e, alt, ctx, w, h0, h1, h2)
    if e > 0 and t.eff[e, alt, EF_SPECIAL] == SP_PICKUP:
        v += _discard_value(s, t, p, ctx, w)
    return v


@njit(cache=True)
def best_gain_value(s, t, p: int, e: int, ctx, w) -> float:
    """The best alternative of effect e on top of what the seat holds."""
    best = NEG
    for alt in range(max(1, t.eff_nalt[e])):
        v = gain_value(s, t, p, e, alt, ctx, w, s.res[p, 0], s.res[p, 1], s.res[p, 2])
        if v > best:
            best = v
    return best if best > NEG else 0.0


@njit(cache=True)
def space_value_from(s, t, p: int, d: int, ctx, w, h0: int, h1: int, h2: int):
    """Seat p's value of one action in space d from holdings (h0, h1, h2): its best reward less its cost
    (a quarter when the cost cannot be paid from them), never below 0; and whether it can be paid."""
    c = t.sp[d, SP_COST]
    ok = _holds(t, c, h0, h1, h2, s.votes[p], s, p)
    cost, g0, g1, g2 = _pay(t, c, ctx, w, h0, h1, h2)
    if s.free_action[p] and t.sp[d, SP_AREA] != T_BLACK:
        cost = 0.0
        g0 = h0
        g1 = h1
        g2 = h2
        ok = True
    best = 0.0
    for alt in range(max(1, t.sp[d, SP_NALT])):
        v = gain_value(s, t, p, t.sp[d, SP_REWARD0 + alt], 0, ctx, w, g0, g1, g2) - cost
        if v > best:
            best = v
    if not ok:
        best *= 0.25
    return best, ok


@njit(cache=True)
def space_value(s, t, p: int, d: int, ctx, w) -> float:
    """Seat p's value of one action in space d from what it holds (``space_value_from``)."""
    v, _ = space_value_from(s, t, p, d, ctx, w, s.res[p, 0], s.res[p, 1], s.res[p, 2])
    return v


@njit(cache=True)
def _province_value(s, t, p: int, card: int, m: int, kept: bool, ctx, w) -> float:
    """A province under mat slot m: W_PROV (kept past council) plus its edge's yield times the productions to
    come (half a production when it is over the slot limit and will be trimmed)."""
    edge, _, _, _ = _gain_leaf(s, t, p, t.prov[card, m], 0, ctx, w, 0, 0, 0)
    if kept:
        return w[W_PROV] + ctx[C_FUT] * edge
    return 0.5 * edge


@njit(cache=True)
def _slot_limit(s, t, p: int) -> int:
    return int(t.opts[OPT_PROV_LIMIT_MAX3]) if s.max3[p] else int(t.opts[OPT_PROV_LIMIT])


@njit(cache=True)
def _automa_votes_estimate(s, t, a: int) -> float:
    """Solo: the votes Automa a is expected to bring to this round's council (its revealed cards, about 1.1 a
    card for those still to come, the scoring card's bonus, the time markers on its board; 0..20)."""
    lvl = int(t.opts[OPT_LEVEL])
    rnd = min(max(s.round, 1), 4) - 1
    v = float(t.scoring[lvl, rnd, 1] + s.markers_automa)
    n = s.a_ncards[a]
    for i in range(n):
        v += t.acard[s.a_cards[a, i], AC_VOTES]
    v += 1.1 * (3 - n)
    return min(max(v, 0.0), 20.0)


@njit(cache=True)
def _rank_bonus(s, t, p: int, votes: int) -> int:
    """The council bonus VP seat p's votes point at now (rank among the agents by votes, ties lost)."""
    ahead = 0
    for j in range(s.n_priv):
        q = s.priv[j]
        if q == p:
            continue
        if q < s.n_players:
            if s.votes[q] >= votes:
                ahead += 1
        elif q == AG_NEUTRAL:
            if t.opts[OPT_NEUTRAL_VOTES] >= votes:
                ahead += 1
        elif _automa_votes_estimate(s, t, q - AG_AUTOMA1) >= votes:
            ahead += 1
    if ahead >= 5:
        return 0
    return t.priv_bonus[ahead]


@njit(cache=True)
def _common_may_enter(s, t, p: int, d: int) -> bool:
    """A common of seat p may enter space d's top frame (blocking only: ``workers.can_enter``)."""
    for w in range(MAX_WORKERS):
        if s.w_place[p, w] >= W_MAT and s.w_grande[p, w] == 0:
            if s.w_place[p, w] == d and s.w_part[p, w] == PART_TOP:
                return True  # already there
            return workers.can_enter(s, t, p, w, d)
    return True


@njit(cache=True)
def prepare(s, t, p: int, w, ctx) -> None:
    """Fill the context ``ctx`` (C_*) of seat p in position s: marginal VP values, caps, the best province,
    the best space a free worker could reach."""
    pf = int(t.opts[OPT_PARCHMENT_FIRST])
    last = int(t.opts[OPT_TRACK_LAST])
    best = 0.0
    for k in range(3):
        x = s.track[p, k]
        d = pf - x
        if d > 0:
            v = w[W_TRACK] + w[W_WORST] * (2 * d - 1) / D0
        elif x < last:
            v = w[W_INSIDE]
        else:
            v = 0.0
        ctx[C_VP0 + k] = v
        if v > best:
            best = v
    ctx[C_VPANY] = best
    for r in range(3):
        ctx[C_CAP0 + r] = _cap(s, t, p, r)
        ctx[C_HI0 + r] = RES_HIGH[r] * w[W_RES]
    rnd = min(max(s.round, 1), 4)
    ctx[C_FUT] = w[W_FUT] * (0.5 + 0.5 * (4 - rnd))
    ctx[C_WORKER] = w[W_WORKER] * (0.25 + 0.25 * (4 - rnd))
    # the best province a conquer brings now: a display card (or the deck top, valued at the display's
    # average) under its best slot
    ctx[C_CONQ] = 0.0
    limit = _slot_limit(s, t, p)
    bestp = 0.0
    tot = 0.0
    nd = 0
    for i in range(4):
        card = s.display[i]
        if card < 0:
            continue
        bc = 0.0
        for m in range(4):
            v = _province_value(s, t, p, card, m, s.prov_n[p, m] < limit, ctx, w)
            if v > bc:
                bc = v
        tot += bc
        nd += 1
        if bc > bestp:
            bestp = bc
    if nd == 0 and s.pdeck_n > 0:
        bestp = w[W_PROV] + ctx[C_FUT] * best
    ctx[C_CONQ] = bestp
    ctx[C_RANKV] = 0.0
    if s.n_priv > 1 and s.phase != PH_COUNCIL and s.phase != PH_TRIM:
        ctx[C_RANKV] = _rank_bonus(s, t, p, s.votes[p]) * best
    # the best waiting value a free worker could reach, common and grande
    bc = 0.0
    bg = 0.0
    for d in range(t.n_spaces):
        if _is_timed(s, t, d):
            continue
        v = space_value(s, t, p, d, ctx, w)
        if v <= 0.0:
            continue
        if v > bg:
            bg = v
        if v > bc and _common_may_enter(s, t, p, d):
            bc = v
    ctx[C_BESTC] = w[W_WAIT] * bc
    ctx[C_BESTG] = w[W_WAIT] * bg


@njit(cache=True)
def potentials(s, t, p: int, ctx, w) -> float:
    """What seat p's workers are worth where they stand (see the module docstring). The workers that can act
    now, then those waiting for their timer, draw on one budget: a space whose cost the cubes left after
    the others' costs cannot pay counts a quarter."""
    h0 = s.res[p, 0]
    h1 = s.res[p, 1]
    h2 = s.res[p, 2]
    total = 0.0
    for timed_pass in range(2):
        for wk in range(MAX_WORKERS):
            d = s.w_place[p, wk]
            if d < 0 or s.w_part[p, wk] != PART_TOP:
                continue
            timed = _is_timed(s, t, d)
            if timed != (timed_pass == 0):
                continue
            v, ok = space_value_from(s, t, p, d, ctx, w, h0, h1, h2)
            if ok and v > 0.0:
                _, h0, h1, h2 = _pay(t, t.sp[d, SP_COST], ctx, w, h0, h1, h2)
            if timed:
                total += w[W_NOW] * v
            else:
                best = ctx[C_BESTG] if s.w_grande[p, wk] else ctx[C_BESTC]
                here = w[W_WAIT] * v
                alt = w[W_FREE] / w[W_WAIT] * best
                total += here if here > alt else alt
    for wk in range(MAX_WORKERS):
        d = s.w_place[p, wk]
        if d < W_MAT or (d >= 0 and s.w_part[p, wk] == PART_TOP):
            continue
        best = ctx[C_BESTG] if s.w_grande[p, wk] else ctx[C_BESTC]
        if d >= 0 and _is_timed(s, t, d):
            total += w[W_STUCK] / w[W_WAIT] * best
        else:
            total += w[W_FREE] / w[W_WAIT] * best
    return total


@njit(cache=True)
def _req_progress(s, t, p: int, e: int, with_votes: bool) -> float:
    """Share (0..1) of requirement e (resources, wild, votes) seat p holds."""
    need = 0
    short = 0
    spare = 0
    for r in range(3):
        n = t.eff[e, 0, EF_RES0 + r]
        need += n
        if s.res[p, r] < n:
            short += n - s.res[p, r]
        else:
            spare += s.res[p, r] - n
    wild = t.eff[e, 0, EF_WILD]
    need += wild
    if wild > spare:
        short += wild - spare
    if with_votes:
        nv = t.eff[e, 0, EF_VOTES]
        need += nv
        if s.votes[p] < nv:
            short += nv - s.votes[p]
    if need == 0:
        return 1.0
    return 1.0 - short / need


@njit(cache=True)
def _ach_progress(s, t, p: int) -> float:
    """Share (0..1) of the current achievement's requirement seat p holds (resources, wild, votes)."""
    if s.ach_card < 0:
        return 0.0
    return _req_progress(s, t, p, t.ach[s.ach_card, 0], True)


@njit(cache=True)
def _next_ach_progress(s, t, p: int) -> float:
    """The mean over the achievements still in the deck (one of them comes next) of the squared share of its
    resource requirement seat p holds (votes aside: they are discarded at council)."""
    n = s.adeck_n
    if n <= 0:
        return 0.0
    tot = 0.0
    for i in range(n):
        f = _req_progress(s, t, p, t.ach[s.adeck[i], 0], False)
        tot += f * f
    return tot / n


@njit(cache=True)
def _lead_share(s, t, p: int) -> float:
    """1 when seat p's votes lead every other agent's (expected) votes, else 0.4 plus 0.6 times its share of
    the leader's votes (one more vote always helps)."""
    top = 0.0
    for j in range(s.n_priv):
        q = s.priv[j]
        if q == p:
            continue
        if q < s.n_players:
            v = float(s.votes[q])
        elif q == AG_NEUTRAL:
            v = float(t.opts[OPT_NEUTRAL_VOTES])
        else:
            v = _automa_votes_estimate(s, t, q - AG_AUTOMA1)
        if v > top:
            top = v
    mine = float(s.votes[p])
    if mine > top:
        return 1.0
    return 0.4 + 0.6 * mine / (top + 1.0)


@njit(cache=True)
def legendary_prospect(s, t, p: int) -> float:
    """How close seat p is to its legendary VP (0..1, squared so that the last cubes count most): the share
    of the achievement's requirement it holds while the token lies there; before the next token comes, 0.6
    times the mean over the achievements still in the deck (their resources only); in round 4 the share it
    holds of F5's 10 cubes (less when its votes do not lead: F5 goes to the first who takes it,
    ``_lead_share``)."""
    if s.legendary[p]:
        return 0.0
    best = 0.0
    if s.legendary_on_card and (s.ach_claims[p] == 0 or s.claim_twice[p]):
        f = _ach_progress(s, t, p)
        best = f * f
    elif s.round < 4:
        best = 0.6 * _next_ach_progress(s, t, p)
    if s.round == 4:
        f = min(s.res[p, 0] + s.res[p, 1] + s.res[p, 2], 10) / 10.0
        x = f * f * _lead_share(s, t, p)
        if x > best:
            best = x
    return best


@njit(cache=True)
def static_value(g, t, p: int, w, ctx) -> float:
    """Everything of ``evaluate`` but the workers' potentials (``ctx`` must be ``prepare``d)."""
    pf = int(t.opts[OPT_PARCHMENT_FIRST])
    v = 0.0
    for k in range(3):
        x = g.track[p, k]
        d = pf - x
        if d > 0:
            v -= w[W_TRACK] * d + w[W_WORST] * d * d / D0
        else:
            v += w[W_INSIDE] * (1 - d)
        v += w[W_GLORY] * g.glory[p, k]
    if g.legendary[p]:
        v += w[W_LEG]
    for r in range(3):
        v += res_value(ctx, w, r, g.res[p, r])
    v += w[W_VOTE] * g.votes[p] + w[W_RANK] * ctx[C_RANKV]
    limit = _slot_limit(g, t, p)
    for m in range(4):
        for i in range(g.prov_n[p, m]):
            v += _province_value(g, t, p, g.prov[p, m, i], m, i < limit, ctx, w)
    v += ctx[C_WORKER] * _workers_in_play(g, p) + w[W_GRANDE] * _grandes(g, p)
    for i in range(t.n_strats):
        if g.strat[p, i] == 1:
            x = _strat_value(g, t, p, i, ctx, w)
            if x > 0.0:
                v += w[W_HAND] * x
    v += w[W_MAX3] * g.max3[p]
    v += 2.0 * ctx[C_HI0 + 2] * g.free_action[p] + 0.5 * (g.double_action[p] + g.adjacent_action[p])
    v += w[W_ACH] * w[W_LEG] * legendary_prospect(g, t, p)
    if pf - g.track[p, 0] <= 0 and pf - g.track[p, 1] <= 0 and pf - g.track[p, 2] <= 0:
        v += w[W_PARCH] * w[W_LEG]
    if g.solo:
        v -= w[W_MARKER] * g.markers_automa
    return v


@njit(cache=True)
def evaluate(g, t, p: int, w, ctx) -> float:
    """The heuristics' score of position ``g`` for seat p (weights ``w``; ``ctx`` is filled here)."""
    if g.over:
        return WIN_SCORE if g.winner[p] else -WIN_SCORE
    prepare(g, t, p, w, ctx)
    return static_value(g, t, p, w, ctx) + potentials(g, t, p, ctx, w)


# ---------------------------------------------------------------- determinization


@njit(cache=True)
def rekey(g, seed: np.uint64) -> None:
    """Give every random stream of the copy ``g`` a fresh key derived from ``seed``."""
    for k in range(N_STREAMS):
        g.rng_key[k] = derive_key(seed, np.uint64(k))
        g.rng_ctr[k] = 0


@njit(cache=True)
def _sort_shuffle(g, arr, n: int, stream: int) -> None:
    """Sort ``arr[:n]`` (forgetting its order), then Fisher-Yates it with g's stream."""
    for i in range(1, n):  # insertion sort: n <= 64
        x = arr[i]
        j = i - 1
        while j >= 0 and arr[j] > x:
            arr[j + 1] = arr[j]
            j -= 1
        arr[j + 1] = x
    for i in range(n - 1, 0, -1):
        j = below(next_u64(g, stream), i + 1)
        x = arr[i]
        arr[i] = arr[j]
        arr[j] = x


@njit(cache=True)
def determinize(g, t, p: int, seed: np.uint64) -> None:
    """Re-deal, in the copy ``g``, what seat p cannot see, from streams keyed by ``seed``.

    Every random stream is re-keyed (the chance streams' futures are unknown to the seat); the order of
    the province, achievement and Automa decks is forgotten (their contents follow from what is public)
    and shuffled anew; the standard council cards still in the deck are drawn anew from those the seat has
    not seen on offer or owned (neither in the offer nor a stratagem of any seat: 10 of the unseen cards
    left the game unseen at setup; the cards of earlier offers that nobody kept count as unseen, an
    approximation: the state keeps no record of them). Reads nothing that ``PendulumGame.hide`` hides:
    the result is the same from the true state and from the seat's view."""
    rekey(g, seed)
    stream = STREAM_SEAT0 + p
    _sort_shuffle(g, g.pdeck, g.pdeck_n, stream)
    _sort_shuffle(g, g.adeck, g.adeck_n, stream)
    _sort_shuffle(g, g.a_deck, g.a_deck_n, stream)
    n = g.cdeck_n
    if n > 0:
        seen = np.zeros(N_STANDARD, dtype=np.bool_)
        for i in range(5):
            if 0 <= g.offer[i] < N_STANDARD:
                seen[g.offer[i]] = True
        for i in range(t.n_strats):
            c = t.st[i, ST_COUNCIL]
            if 0 <= c < N_STANDARD and not seen[c]:
                for q in range(g.n_players):
                    if g.strat[q, i] != 0:
                        seen[c] = True
        pool = np.empty(N_STANDARD, dtype=np.int32)
        k = 0
        for c in range(N_STANDARD):
            if not seen[c]:
                pool[k] = c
                k += 1
        for i in range(k - 1, 0, -1):
            j = below(next_u64(g, stream), i + 1)
            x = pool[i]
            pool[i] = pool[j]
            pool[j] = x
        for i in range(n):
            g.cdeck[i] = pool[i % k] if k > 0 else 0


# ---------------------------------------------------------------- one-ply heuristics


@njit(cache=True, inline="always")
def _is_move(a: int) -> bool:
    return A_MOVE <= a < A_ACTION


@njit(cache=True)
def _move_score(s, t, p: int, a: int, base_v: float, base_pot: float, ctx, w) -> float:
    """The one-ply value of ``A_MOVE`` a computed directly: the position's value with the workers' potentials
    recomputed with the worker at its destination (``s`` is a scratch copy: changed and restored)."""
    x = a - A_MOVE
    wk = x // N_DEST
    d = x % N_DEST
    place = s.w_place[p, wk]
    part = s.w_part[p, wk]
    if d == DEST_MAT:
        s.w_place[p, wk] = W_MAT
    else:
        s.w_place[p, wk] = d
        s.w_part[p, wk] = PART_TOP
    pot = potentials(s, t, p, ctx, w)
    s.w_place[p, wk] = place
    s.w_part[p, wk] = part
    return base_v - base_pot + pot


@njit(cache=True)
def _trigger_penalty(s, t, a: int, w) -> float:
    """Solo: taking a card off the Automa deck while purple has run out and is unflipped risks an Automa purple
    flip (a time marker to its board, the legendary token gone at flip 2): a worker out of a bottom box
    (trigger 1) or a green/black flip (trigger 2)."""
    if s.solo == 0 or s.council_called or s.phase == PH_STEP5:
        return 0.0
    if s.now < s.runs_out[T_PURPLE]:
        return 0.0
    if A_LIFT <= a < A_MOVE or a == A_FLIP + T_GREEN or a == A_FLIP + T_BLACK:
        v = w[W_TRIGGER] * w[W_MARKER]
        if s.purple_flips == 1 and s.legendary_on_card and s.legendary[s.actor] == 0:
            v += 0.3 * w[W_ACH] * w[W_LEG]
        return v
    return 0.0


@njit(cache=True)
def settle(g_arr, t, p: int, w, ctx, legal2, work2, log) -> None:
    """Resolve greedily, one-ply, the decisions of seat p that follow at once in the copy (the pending stack,
    the solo re-placement after a lift)."""
    g = g_arr[0]
    for _ in range(24):
        if g.over or g.actor != p or (g.phase != PH_PENDING and g.phase != PH_REPLACE):
            return
        n = legal_actions(g, t, legal2)
        if n == 0:
            return
        best = legal2[0]
        if n > 1:
            best_v = NEG
            for i in range(n):
                a = legal2[i]
                if a == A_REFILL:
                    continue  # the deck top stays an option; a refill only reshuffles the choice
                work2[0] = g
                apply_action(work2[0], t, a, log)
                v = evaluate(work2[0], t, p, w, ctx)
                if v > best_v + 1e-9:
                    best_v = v
                    best = a
        apply_action(g, t, best, log)


@njit(cache=True)
def score_actions(s_arr, t, legal, n_legal: int, w, scores, base, work, work2, legal2, ctx, bctx, log,
                  resample: bool) -> float:
    """Score every legal action of the seat to act (``scores[i]`` for ``legal[i]``): moves directly, the rest
    on a (determinized) copy with the seat's follow-up decisions settled. Returns the value of the position
    as it is (what a pass keeps)."""
    s = s_arr[0]
    p = s.actor
    base[0] = s_arr[0]
    b = base[0]
    if resample:
        determinize(b, t, p, next_u64(s, STREAM_SEAT0 + p))
    base_v = evaluate(b, t, p, w, bctx)
    base_pot = potentials(b, t, p, bctx, w)
    for i in range(n_legal):
        a = legal[i]
        if a == A_PASS:
            scores[i] = base_v
        elif _is_move(a):
            scores[i] = _move_score(b, t, p, a, base_v, base_pot, bctx, w)
        else:
            work[0] = base[0]
            apply_action(work[0], t, a, log)
            settle(work, t, p, w, ctx, legal2, work2, log)
            scores[i] = evaluate(work[0], t, p, w, ctx) - _trigger_penalty(b, t, a, w)
    return base_v


@njit(cache=True)
def pick_best(s, legal, n_legal: int, scores, base_v: float, pass_below: float) -> int:
    """The best-scored action (ties at random from the seat's stream); the pass when it is legal and nothing
    beats the position as it is by more than ``pass_below``."""
    p = s.actor
    best = -1
    best_v = NEG
    n_best = 0
    pass_i = -1
    for i in range(n_legal):
        if legal[i] == A_PASS:
            pass_i = i
            continue
        v = scores[i]
        if v > best_v + 1e-9:
            best_v = v
            best = i
            n_best = 1
        elif v > best_v - 1e-9:
            n_best += 1
            if below(next_u64(s, STREAM_SEAT0 + p), n_best) == 0:
                best = i
    if pass_i >= 0 and (best < 0 or best_v <= base_v + pass_below):
        return legal[pass_i]
    if best < 0:
        return legal[0]
    return legal[best]


@njit(cache=True)
def heuristic_action(kind: int, params, s_arr, legal, n_legal: int, t, w, scores, base, work, work2, legal2, ctx,
                     bctx, log, fs, chosen) -> int:
    """The action of a one-ply heuristic (track_balancer, producer, voter) in any phase: in the real-time
    phase only the best non-move actions by ``fast_score`` are played out (``score_actions_fast``), in the
    other phases (pending decisions, council, trim, step 5, start, re-placement: a few a round) every one
    (``score_actions``); the ``_v1`` kinds play every action out everywhere."""
    if n_legal == 1:
        return legal[0]
    heuristic_weights(kind, params, w)
    if kind >= KIND_BALANCER_V1 or s_arr[0].phase != PH_REAL:
        # np.bool_ / np.int64: typed as plain bool / int64, not as literals, so the batch loop and a call from
        # Python (the tests) share one compiled version of these two large kernels instead of compiling each twice
        base_v = score_actions(s_arr, t, legal, n_legal, w, scores, base, work, work2, legal2, ctx, bctx, log,
                               np.bool_(True))
    else:
        base_v = score_actions_fast(s_arr, t, legal, n_legal, w, scores, base, work, legal2, ctx, bctx, log, fs,
                                    chosen, np.int64(LOOKAHEAD))
    return pick_best(s_arr[0], legal, n_legal, scores, base_v, w[W_PASS])


# ---------------------------------------------------------------- the fast policy (playouts)


@njit(cache=True, inline="always")
def _pending_top(s) -> int:
    if s.n_pend <= 0:
        return 0
    return s.pend_kind[s.n_pend - 1]


@njit(cache=True)
def fast_score(s, t, p: int, a: int, base_pot: float, ctx, w) -> float:
    """The value of action a for seat p scored directly from the position (no copy of it): what the fast policy
    of the playouts maximises (0 = passing). ``ctx`` must be ``prepare``d for (s, p) and ``base_pot`` be
    ``potentials(s, ...)``; ``s`` is changed and restored for a move."""
    h0 = s.res[p, 0]
    h1 = s.res[p, 1]
    h2 = s.res[p, 2]
    if a == A_PASS:
        return 0.0
    if a < A_PICKUP:  # flips: the own workers a flip makes actable, less the solo trigger risk
        tm = a - A_FLIP
        v = 0.0
        for wk in range(MAX_WORKERS):
            d = s.w_place[p, wk]
            if d >= 0 and s.w_part[p, wk] == PART_TOP and t.sp[d, SP_AREA] == tm and not _is_timed(s, t, d):
                v += (w[W_NOW] - w[W_WAIT]) * space_value(s, t, p, d, ctx, w)
        if tm == T_PURPLE and s.legendary[p] == 0 and s.legendary_on_card and s.purple_flips == 1:
            v -= w[W_ACH] * w[W_LEG]
        return v - _trigger_penalty(s, t, a, w)
    if a == A_PICKUP:
        return _discard_value(s, t, p, ctx, w) - (res_value(ctx, w, 1, h1) - res_value(ctx, w, 1, h1 - 5))
    if a == A_REFILL:
        return -0.01
    if a < A_NO:
        if a == A_CLAIM:
            return w[W_LEG]
        return best_gain_value(s, t, p, t.ach[s.ach_card, 1], ctx, w) if s.ach_card >= 0 else 0.0
    if a == A_NO:
        return 0.0
    if a == A_YES:
        return w[W_GLORY]
    if a < A_TRACK:
        r = a - A_RES
        k = _pending_top(s)
        if k == PD_WILD_PAY:
            return -_marginal(ctx, w, r, s.res[p, r] - 1) + 0.001 * r
        if k == PD_ALT:
            e = s.pend_arg[s.n_pend - 1]
            if e >= 0:
                return gain_value(s, t, p, e, r, ctx, w, h0, h1, h2) if r < t.eff_nalt[e] else 0.0
            if e == -1:  # claim: the legendary (0) or the ribbon (1)
                if r == 0:
                    return w[W_LEG]
                return best_gain_value(s, t, p, t.ach[s.ach_card, 1], ctx, w) if s.ach_card >= 0 else 0.0
            return -0.01
        return _marginal(ctx, w, r, s.res[p, r]) + 0.001 * (3 - r)
    if a < A_LIFT:
        return ctx[C_VP0 + a - A_TRACK]
    if a < A_MOVE:
        wk = a - A_LIFT
        best = ctx[C_BESTG] if s.w_grande[p, wk] else ctx[C_BESTC]
        return best - w[W_FREE] / w[W_WAIT] * best - _trigger_penalty(s, t, a, w)
    if a < A_ACTION:
        return _move_score(s, t, p, a, 0.0, base_pot, ctx, w)
    if a < A_STRAT:
        x = a - A_ACTION
        wk = x // 2
        d = s.w_place[p, wk]
        c = t.sp[d, SP_COST]
        cost, g0, g1, g2 = _pay(t, c, ctx, w, h0, h1, h2)
        if s.free_action[p] and t.sp[d, SP_AREA] != T_BLACK:
            cost = 0.0
            g0 = h0
            g1 = h1
            g2 = h2
        v = gain_value(s, t, p, t.sp[d, SP_REWARD0 + x % 2], 0, ctx, w, g0, g1, g2) - cost
        return v - w[W_NOW] * space_value(s, t, p, d, ctx, w) + 0.01
    if a < A_CONQUER:
        i = a - A_STRAT
        return (1.0 - w[W_HAND]) * _strat_value(s, t, p, i, ctx, w)
    if a < A_COUNCIL:
        x = a - A_CONQUER
        src = x // 4
        m = x % 4
        limit = _slot_limit(s, t, p)
        if src < 4:
            card = s.display[src]
            if card < 0:
                return 0.0
            return _province_value(s, t, p, card, m, s.prov_n[p, m] < limit, ctx, w)
        return 0.8 * ctx[C_CONQ] + 0.1 * (s.prov_n[p, m] < limit)
    if a < A_WORKER:
        c = a - A_COUNCIL
        kind = t.co[c, CO_KIND]
        if kind == CK_GRANDE:
            return w[W_GRANDE] + 0.5
        if kind == CK_STRATAGEM:
            i = t.co[c, CO_STRAT]
            return w[W_HAND] * _strat_value(s, t, p, i, ctx, w) if i >= 0 else 0.3
        if kind == CK_PERMANENT:
            return w[W_MAX3] + 0.3
        cost, g0, g1, g2 = _pay(t, t.co[c, CO_COST], ctx, w, h0, h1, h2)
        v = gain_value(s, t, p, t.co[c, CO_EFFECT], 0, ctx, w, g0, g1, g2) - cost
        if c == C_DEFAULT:
            v -= 0.01
        return v
    if a < A_TRIM:
        wk = a - A_WORKER
        k = _pending_top(s)
        if k == PD_RETRIEVE:
            d = s.w_place[p, wk]
            return 0.5 if d >= 0 and s.w_part[p, wk] != PART_TOP else -0.1
        if k == PD_GRANDE_SWAP:
            return 0.001 * wk
        return 0.0
    if a < A_RETURN:
        x = a - A_TRIM
        m = x // 8
        return -_province_value(s, t, p, s.prov[p, m, x % 8], m, True, ctx, w)
    if a < A_SWAPVP:
        return _strat_value(s, t, p, a - A_RETURN, ctx, w)
    if a < A_SPACE:
        x = a - A_SWAPVP
        return ctx[C_VP0 + x % 3] - ctx[C_VP0 + x // 3]
    return space_value(s, t, p, a - A_SPACE, ctx, w)


@njit(cache=True)
def fast_action(g, t, legal, n_legal: int, w, ctx) -> int:
    """The fast policy: the legal action with the best ``fast_score`` (the first of equals); the pass when
    nothing beats passing by more than W_PASS."""
    if n_legal == 1:
        return legal[0]
    p = g.actor
    prepare(g, t, p, w, ctx)
    base_pot = potentials(g, t, p, ctx, w)
    best = -1
    best_v = NEG
    has_pass = False
    for i in range(n_legal):
        a = legal[i]
        if a == A_PASS:
            has_pass = True
            continue
        v = fast_score(g, t, p, a, base_pot, ctx, w)
        if v > best_v + 1e-9:
            best_v = v
            best = i
    if has_pass and (best < 0 or best_v <= w[W_PASS]):
        return A_PASS
    if best < 0:
        return legal[0]
    return legal[best]


@njit(cache=True)
def settle_fast(g_arr, t, p: int, w, ctx, legal2, log) -> None:
    """Resolve with the fast policy (``fast_action``) the decisions of seat p that follow at once in the copy
    (the pending stack, the solo re-placement after a lift)."""
    g = g_arr[0]
    for _ in range(24):
        if g.over or g.actor != p or (g.phase != PH_PENDING and g.phase != PH_REPLACE):
            return
        n = legal_actions(g, t, legal2)
        if n == 0:
            return
        apply_action(g, t, fast_action(g, t, legal2, n, w, ctx), log)


@njit(cache=True)
def score_actions_fast(s_arr, t, legal, n_legal: int, w, scores, base, work, legal2, ctx, bctx, log, fs, chosen,
                       look: int) -> float:
    """Score the legal actions of the seat to act like ``score_actions``, at a fraction of its cost: moves
    and the pass exactly (a move changes only the workers' potentials), every other action first by the
    static scorer ``fast_score``; only the ``look`` best of those by it (every one at council, where the
    card changes the position most) are played out on a determinized copy with the seat's follow-up
    decisions settled by the fast policy and evaluated; the others score ``NEG`` (never chosen). ``fs`` and
    ``chosen`` are scratch (n_legal entries each). Returns the value of the position as it is (what a pass
    keeps)."""
    s = s_arr[0]
    p = s.actor
    prepare(s, t, p, w, bctx)
    base_pot = potentials(s, t, p, bctx, w)
    base_v = static_value(s, t, p, w, bctx) + base_pot
    fs[:n_legal] = NEG  # fast_score of the actions to play out, NEG for the others
    n_other = 0
    for i in range(n_legal):
        a = legal[i]
        if a == A_PASS:
            scores[i] = base_v
        elif _is_move(a):
            scores[i] = _move_score(s, t, p, a, base_v, base_pot, bctx, w)
        else:
            scores[i] = NEG
            fs[i] = fast_score(s, t, p, a, base_pot, bctx, w)
            n_other += 1
    if n_other == 0:
        return base_v
    if s.phase == PH_COUNCIL or look > n_other:
        look = n_other
    nc = 0  # chosen[:nc]: the ``look`` best by fast_score, the first of equals
    for _ in range(look):
        best = -1
        best_v = NEG
        for i in range(n_legal):
            if fs[i] > best_v:
                best_v = fs[i]
                best = i
        if best < 0:
            break
        chosen[nc] = best
        nc += 1
        fs[best] = NEG
    base[0] = s_arr[0]
    b = base[0]
    determinize(b, t, p, next_u64(s, STREAM_SEAT0 + p))
    for j in range(nc):
        i = chosen[j]
        a = legal[i]
        work[0] = base[0]
        apply_action(work[0], t, a, log)
        settle_fast(work, t, p, w, ctx, legal2, log)
        scores[i] = evaluate(work[0], t, p, w, ctx) - _trigger_penalty(b, t, a, w)
    return base_v


# ---------------------------------------------------------------- search


@njit(cache=True)
def playout(g_arr, t, stop_round: int, legal, w, ctx, log, max_steps: int) -> int:
    """Play the copy with the fast policy for every seat until round ``stop_round`` begins (the council
    before it done) or the game ends; returns the number of actions played."""
    g = g_arr[0]
    for i in range(max_steps):
        if g.over or g.round >= stop_round:
            return i
        n = legal_actions(g, t, legal)
        if n == 0:
            return i
        apply_action(g, t, fast_action(g, t, legal, n, w, ctx), log)
    return max_steps


@njit(cache=True)
def search_action(params, s_arr, legal, n_legal: int, t, w, scores, base, work, work2, legal2, ctx, bctx,
                  log) -> int:
    """Determinized Monte Carlo over the base heuristic's best candidates (see BUILTIN_PLAYERS['search'])."""
    s = s_arr[0]
    p = s.actor
    if n_legal == 1:
        return legal[0]
    base_kind = int(params[4])
    if base_kind < KIND_BALANCER or base_kind > KIND_VOTER:
        base_kind = KIND_BALANCER
    heuristic_weights(base_kind, DEFAULT_PARAMS[base_kind], w)
    base_v = score_actions(s_arr, t, legal, n_legal, w, scores, base, work, work2, legal2, ctx, bctx, log,
                           np.bool_(True))
    pass_below = w[W_PASS]
    ph = s.phase
    if ph != PH_REAL and ph != PH_COUNCIL:
        return pick_best(s, legal, n_legal, scores, base_v, pass_below)
    # the candidates: the heuristic's best actions (a pass scores the position plus pass_below)
    for i in range(n_legal):
        if legal[i] == A_PASS:
            scores[i] = base_v + pass_below
    n_cand = max(1, int(params[1]))
    if n_cand > n_legal:
        n_cand = n_legal
    order = np.argsort(-scores[:n_legal], kind="mergesort")
    if n_cand == 1 or scores[order[0]] - scores[order[1]] > params[5]:
        return pick_best(s, legal, n_legal, scores, base_v, pass_below)
    cands = np.empty(n_cand, dtype=np.int64)
    for i in range(n_cand):
        cands[i] = legal[order[i]]
    playouts = max(1, int(params[0]))
    stop_round = 99 if int(params[2]) >= 1 else s.round + 1
    win_bonus = params[3]
    totals = np.zeros(n_cand)
    d_arr = np.empty(1, dtype=STATE_DTYPE)
    g_arr = np.empty(1, dtype=STATE_DTYPE)
    legal3 = np.empty(MAX_ACTIONS, dtype=np.int64)
    for _ in range(playouts):
        d_arr[0] = s_arr[0]
        determinize(d_arr[0], t, p, next_u64(s, STREAM_SEAT0 + p))
        for ci in range(n_cand):
            g_arr[0] = d_arr[0]
            g = g_arr[0]
            apply_action(g, t, cands[ci], log)
            playout(g_arr, t, stop_round, legal3, w, ctx, log, 50000)
            totals[ci] += (win_bonus if g.winner[p] else -win_bonus) if g.over else evaluate(g, t, p, w, ctx)
    best = 0
    for i in range(1, n_cand):
        if totals[i] > totals[best] + 1e-9:
            best = i
    return cands[best]


# ---------------------------------------------------------------- dispatch


@njit(cache=True)
def random_action(params, s_arr, legal, n_legal: int) -> int:
    """Uniform over the legal actions; the pass with probability ``params[0]`` where it is legal."""
    s = s_arr[0]
    if n_legal == 1:
        return legal[0]
    stream = STREAM_SEAT0 + s.actor
    if legal[0] == A_PASS and unit(next_u64(s, stream)) < params[0]:
        return A_PASS
    return legal[below(next_u64(s, stream), n_legal)]


@njit(cache=True)
def choose_action(kind: int, params, s_arr, legal, n_legal: int, tables) -> int:
    """The action of built-in player ``kind`` for the seat to act (``s.actor``) in ``s_arr[0]``."""
    if n_legal <= 1:
        return legal[0]
    if kind == KIND_RANDOM:
        return random_action(params, s_arr, legal, n_legal)
    t = tables[0]
    # one allocation per kind of scratch (a decision takes a few microseconds: allocations count)
    copies = np.empty(3, dtype=STATE_DTYPE)
    base = copies[0:1]
    work = copies[1:2]
    work2 = copies[2:]
    m = max(n_legal, 2)
    ibuf = np.empty(MAX_ACTIONS + m, dtype=np.int64)
    legal2 = ibuf[:MAX_ACTIONS]
    chosen = ibuf[MAX_ACTIONS:]
    fbuf = np.empty(N_W + 2 * N_CTX + 2 * m)
    w = fbuf[:N_W]
    ctx = fbuf[N_W:N_W + N_CTX]
    bctx = fbuf[N_W + N_CTX:N_W + 2 * N_CTX]
    scores = fbuf[N_W + 2 * N_CTX:N_W + 2 * N_CTX + m]
    fs = fbuf[N_W + 2 * N_CTX + m:]
    log = new_log(0)
    if kind == KIND_SEARCH:
        return search_action(params, s_arr, legal, n_legal, t, w, scores, base, work, work2, legal2, ctx, bctx, log)
    return heuristic_action(kind, params, s_arr, legal, n_legal, t, w, scores, base, work, work2, legal2, ctx, bctx,
                            log, fs, chosen)
