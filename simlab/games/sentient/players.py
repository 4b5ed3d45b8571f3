"""Sentient's built-in compiled players and their parameters.

A compiled player is chosen by a kind number and a float64 parameter vector; the batch loop
and the Python driver both call ``dispatch.choose_action``, which dispatches on the kind:

    choose_action(kind, params, s, legal, n_legal, cards, inv, opts) -> action

``s`` is the state record, ``legal[:n_legal]`` the legal actions (filled only for players
that ask for them, see ``NEEDS_LEGAL``); randomness comes only from the seat's own stream.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core import kernels
from simlab.core.game import BuiltinPlayer
from simlab.core.jit import kernel
from simlab.core.kernels import bind
from simlab.core.rng import below
from simlab.core.search import search_player
from simlab.games.sentient.data import CARD_LEFT, CARD_RIGHT, CARD_TYPE
from simlab.games.sentient.rules import (
    ACT_PASS,
    OPT_SAME_COLUMN,
    encode_buy,
    points,
    wrap_die,
)
from simlab.games.sentient.state import (
    AGENTS,
    N_COLUMNS,
    N_INVESTORS,
    N_ROUNDS,
    N_SLOTS,
    N_TYPES,
    STREAM_SEAT0,
)

next_u64 = bind(kernels.next_u64)  # the shared helper, compiled here so numba inlines it

KIND_RANDOM = 0
KIND_GREEDY = 1
KIND_INVESTOR = 2
KIND_SPECIALIST = 3
KIND_ISMCTS = 5  # kind 4 was the flat Monte Carlo player 'mc', retired (issue 25)
N_PARAMS = 8


BUILTIN_PLAYERS: dict[str, BuiltinPlayer] = {
    "random": BuiltinPlayer(
        "random",
        KIND_RANDOM,
        {},
        "uniform over the legal actions (every take, block and influence choice, and the pass)",
        {},
    ),
    "greedy": BuiltinPlayer(
        "greedy",
        KIND_GREEDY,
        {"pass_below": 1.0, "block": 1.0},
        "takes the card and slot with the best immediate change in round VP, blocking symbols when it pays",
        {
            "pass_below": "pass (and sweep) when the best take gains fewer VP than this",
            "block": "1 to use assistants to block calibration symbols, 0 never",
        },
    ),
    "investor": BuiltinPlayer(
        "investor",
        KIND_INVESTOR,
        {"card_weight": 1.0, "influence_weight": 1.0, "assistant_cost": 0.4, "pass_below": 2.0, "future_share": 0.2},
        "greedy VP plus the worth of investors: cards of types it holds investors for, influence where it can win one",
        {
            "card_weight": "weight of the end-game investor VP a card of that type adds",
            "influence_weight": "weight of the expected investor and runner-up VP an influence change brings",
            "assistant_cost": "VP an assistant is worth kept in hand",
            "pass_below": "pass (and sweep) when the best action is worth less than this",
            "future_share": "expected share of its future buys of each type",
        },
    ),
    "specialist": BuiltinPlayer(
        "specialist",
        KIND_SPECIALIST,
        {"n_types": 2.0, "type_bonus": 1.5, "influence_weight": 1.0, "assistant_cost": 0.5, "pass_below": 3.5},
        "commits to one or two robot types (its starting investor's, then its most-bought) and their investors",
        {
            "n_types": "how many robot types it commits to (1 or 2)",
            "type_bonus": "extra VP it counts for a card of a committed type",
            "influence_weight": "weight of winning investors of its committed types",
            "assistant_cost": "VP an assistant is worth kept in hand",
            "pass_below": "pass (and sweep) when the best action is worth less than this",
        },
    ),
    "ismcts": search_player(
        "ismcts",
        KIND_ISMCTS,
        {"iterations": 330.0, "exploration": 0.5, "rollout_depth": -1.0, "prior_weight": 1.0, "widening": 2.0,
         "expand_after": 4.0, "rollout": 1.0},
        "information-set MCTS (the shared compiled search): determinised descents of one tree, greedy rollouts",
        {"rollout": "the player used for every seat in the rollouts (0 random, 1 greedy, 2 investor, 3 specialist)"},
    ),
}
NEEDS_LEGAL = (KIND_RANDOM, KIND_ISMCTS)


def _default_params() -> np.ndarray:
    table = np.zeros((max(info.kind for info in BUILTIN_PLAYERS.values()) + 1, N_PARAMS))
    for info in BUILTIN_PLAYERS.values():
        for i, value in enumerate(info.params.values()):
            table[info.kind, i] = value
    return table


# Default parameter vector per kind (a compile-time constant: the search's rollouts use the defaults).
DEFAULT_PARAMS = _default_params()


# ---------------------------------------------------------------- evaluation helpers

SCRATCH = 128  # floats of scratch room a heuristic needs (influence values, type weights; the search prior's memo)
_INFL0 = 0
_TYPEW0 = _INFL0 + N_COLUMNS * 6
_MINE0 = _TYPEW0 + N_TYPES
_OTHER0 = _MINE0 + N_INVESTORS
_LEAD0 = _OTHER0 + N_INVESTORS
_ARG0 = _LEAD0 + N_INVESTORS  # per column, the best influence count among 0..m assistants
_GAIN0 = _ARG0 + N_COLUMNS * 6  # per investor position and influence k, its worth times the soft-win gain of k
assert _GAIN0 + N_INVESTORS * 6 <= SCRATCH


@njit(cache=True, inline="always")
def _slot_points(s, p: int, cards, k: int, left: int, right: int) -> int:
    c = s.slot_card[p, k]
    if c < 0:
        return 0
    return points(cards, c, left, right)


@njit(cache=True, inline="always")
def _slot_parts(s, p: int, cards, c: int, k: int) -> tuple[int, int, int, int, int, int]:
    """What a take of card c into slot k shares over its block choices: the slot's dice (dk, dk1), the dice as the
    card calibrates them (dl, dr), and the change in the left and right neighbours' VP that calibration brings
    (nl, nr; zero when the die does not move or the neighbour slot is empty)."""
    dk = s.dice[p, k]
    dk1 = s.dice[p, k + 1]
    dl = wrap_die(dk + cards[c, CARD_LEFT])
    dr = wrap_die(dk1 + cards[c, CARD_RIGHT])
    nl = 0
    if k > 0 and dl != dk:
        left_card = s.slot_card[p, k - 1]
        if left_card >= 0:
            d0 = s.dice[p, k - 1]
            nl = points(cards, left_card, d0, dl) - points(cards, left_card, d0, dk)
    nr = 0
    if k < N_SLOTS - 1 and dr != dk1:
        right_card = s.slot_card[p, k + 1]
        if right_card >= 0:
            d2 = s.dice[p, k + 2]
            nr = points(cards, right_card, dr, d2) - points(cards, right_card, dk1, d2)
    return dk, dk1, dl, dr, nl, nr


@njit(cache=True, inline="always")
def _blocked_delta(cards, c: int, bl: int, br: int, dk: int, dk1: int, dl: int, dr: int, nl: int, nr: int) -> int:
    """The change in network VP of the take whose parts ``_slot_parts`` gave, with these blocks (a blocked die stays
    as it is and moves no neighbour)."""
    return points(cards, c, dk if bl else dl, dk1 if br else dr) + (0 if bl else nl) + (0 if br else nr)


@njit(cache=True, inline="always")
def _take_delta(s, p: int, cards, c: int, k: int, bl: int, br: int) -> int:
    """Change in the seat's current network VP if card c goes to slot k with these blocks."""
    dk, dk1, dl, dr, nl, nr = _slot_parts(s, p, cards, c, k)
    return _blocked_delta(cards, c, bl, br, dk, dk1, dl, dr, nl, nr)


@kernel
def greedy_action(params, s, cards, opts) -> int:
    """Greedy: the take with the best immediate change in round VP (ties at random).

    For a card in slot k the new dice are (dl, dr), each either calibrated or, with an
    assistant, left alone; the left neighbour's change depends on dl only and the right
    neighbour's on dr only, so the four block choices cost four lookups plus two deltas.
    """
    p = s.order[s.turn]
    if s.agents[p] == 0:
        return ACT_PASS
    pass_below = params[0]
    allow_block = params[1] > 0.5
    same_col = opts[OPT_SAME_COLUMN] != 0
    a = s.assistants[p]
    best = -1000
    best_action = ACT_PASS
    n_best = 0
    for col in range(N_COLUMNS):
        c = s.factory[col]
        if c < 0 or (not same_col and s.col_agents[p, col] > 0):
            continue
        sl = cards[c, CARD_LEFT]
        sr = cards[c, CARD_RIGHT]
        block_ok = allow_block and a > 0
        for k in range(N_SLOTS):
            if s.slot_card[p, k] >= 0:
                continue
            dk = s.dice[p, k]
            dk1 = s.dice[p, k + 1]
            dl = wrap_die(dk + sl)
            dr = wrap_die(dk1 + sr)
            # Neighbour changes when the die is calibrated (zero when blocked).
            nl = 0
            if k > 0 and sl != 0:
                left_card = s.slot_card[p, k - 1]
                if left_card >= 0:
                    d0 = s.dice[p, k - 1]
                    nl = points(cards, left_card, d0, dl) - points(cards, left_card, d0, dk)
            nr = 0
            if k < N_SLOTS - 1 and sr != 0:
                right_card = s.slot_card[p, k + 1]
                if right_card >= 0:
                    d2 = s.dice[p, k + 2]
                    nr = points(cards, right_card, dr, d2) - points(cards, right_card, dk1, d2)
            v = points(cards, c, dl, dr) + nl + nr
            bl_best = 0
            br_best = 0
            if block_ok:
                if sl != 0:
                    w = points(cards, c, dk, dr) + nr
                    if w > v:
                        v = w
                        bl_best = 1
                if sr != 0:
                    w = points(cards, c, dl, dk1) + nl
                    if w > v:
                        v = w
                        bl_best = 0
                        br_best = 1
                    if sl != 0 and a >= 2:
                        w = points(cards, c, dk, dk1)
                        if w > v:
                            v = w
                            bl_best = 1
                            br_best = 1
            if v > best:
                best = v
                best_action = encode_buy(col, k, bl_best, br_best, 0)
                n_best = 1
            elif v == best:
                n_best += 1
                if below(next_u64(s, STREAM_SEAT0 + p), n_best) == 0:
                    best_action = encode_buy(col, k, bl_best, br_best, 0)
    if not s.passed[p] and best < pass_below:
        return ACT_PASS
    return best_action


@njit(cache=True, inline="always")
def _soft_win(mine: float, other: float, spread: float) -> float:
    """Soft chance of holding a majority: 0 without influence, 0.5 when level, towards 1 ahead."""
    if mine <= 0:
        return 0.0
    x = (mine - other) / spread
    return 0.5 + 0.5 * x / (1.0 + abs(x))


@kernel
def _investor_influence(s, p: int, scratch) -> None:
    """Per investor position: seat p's influence and the best other seat's (into scratch).

    Position ``pos`` sits between columns ``pos - 1`` and ``pos``: its influence is the pieces in those columns
    (small integers, so the float sums are exact in any order).
    """
    for pos in range(N_INVESTORS):
        scratch[_MINE0 + pos] = 0.0
        scratch[_OTHER0 + pos] = 0.0
    for q in range(s.n_players):
        prev = 0
        for pos in range(N_INVESTORS):
            here = s.col_agents[q, pos] + s.col_assistants[q, pos] if pos < N_COLUMNS else 0
            v = float(prev + here)
            prev = here
            if q == p:
                scratch[_MINE0 + pos] = v
            elif v > scratch[_OTHER0 + pos]:
                scratch[_OTHER0 + pos] = v


@kernel
def _committed_types(s, p: int, n_types: int, out, at: int) -> None:
    """Specialist's types: its starting investor's, then its most-bought other type."""
    for t in range(N_TYPES):
        out[at + t] = 0.0
    out[at + s.start_investor[p]] = 1.0
    if n_types >= 2:
        best = -1
        best_v = 0.0
        for t in range(N_TYPES):
            if t == s.start_investor[p]:
                continue
            v = s.type_count[p, t] * 2.0 + s.investors_held[p, t] * 3.0
            if v > best_v:
                best_v = v
                best = t
        if best >= 0:
            out[at + best] = 1.0


@kernel
def heuristic_action(kind: int, params, s, cards, opts, scratch) -> int:
    """The action a heuristic player (greedy, investor, specialist) picks.

    ``scratch`` is a float64 array of length ``SCRATCH`` (the investor and specialist work in it).
    """
    if kind == KIND_GREEDY:
        return greedy_action(params, s, cards, opts)
    return _investor_like(kind, params, s, cards, opts, scratch)


@kernel
def _investor_weights(kind: int, params, s, p: int, scratch) -> tuple[float, float, float, float, float, float]:
    """(card_weight, future_share, type_bonus, infl_weight, assist_cost, pass_below) of an investor
    or specialist; the per-type weights go to ``scratch[_TYPEW0:]``."""
    card_weight = 0.0
    future_share = 0.2
    type_bonus = 0.0
    if kind == KIND_INVESTOR:
        card_weight = params[0]
        infl_weight = params[1]
        assist_cost = params[2]
        pass_below = params[3]
        future_share = params[4]
        for t in range(N_TYPES):
            scratch[_TYPEW0 + t] = 1.0
    else:  # specialist
        type_bonus = params[1]
        infl_weight = params[2]
        assist_cost = params[3]
        pass_below = params[4]
        _committed_types(s, p, int(params[0]), scratch, _TYPEW0)
    return card_weight, future_share, type_bonus, infl_weight, assist_cost, pass_below


@kernel
def _influence_values(s, p: int, a: int, infl_weight: float, assist_cost: float, future_share: float,
                      scratch) -> None:
    """Per column, the value of sending the agent plus k assistants (``scratch[_INFL0:]``), the best k
    among 0..m (``scratch[_ARG0:]``) and, per investor, whether seat p leads (``scratch[_LEAD0:]``)."""
    remaining_buys = s.agents[p] + AGENTS * (N_ROUNDS - s.round)
    spread = 1.0 + 0.5 * (s.n_players - 1) * (1.0 - s.n_passed / s.n_players)
    _investor_influence(s, p, scratch)
    for pos in range(N_INVESTORS):
        scratch[_LEAD0 + pos] = 1.0 if scratch[_MINE0 + pos] > scratch[_OTHER0 + pos] else 0.0
    if infl_weight > 0:  # the gain of each position depends on k, not on the column: computed once per position
        for pos in range(N_INVESTORS):
            t = s.investors[pos]
            worth = scratch[_TYPEW0 + t] * (s.type_count[p, t] + future_share * remaining_buys) + 0.5
            mine = scratch[_MINE0 + pos]
            other = scratch[_OTHER0 + pos]
            now = _soft_win(mine, other, spread)
            for k in range(a + 1):
                scratch[_GAIN0 + pos * 6 + k] = worth * (_soft_win(mine + k + 1, other, spread) - now)
    for col in range(N_COLUMNS):
        for k in range(a + 1):
            v = 0.0
            if infl_weight > 0:
                v += scratch[_GAIN0 + col * 6 + k]
                v += scratch[_GAIN0 + (col + 1) * 6 + k]
            scratch[_INFL0 + col * 6 + k] = infl_weight * v - assist_cost * k
        best_k = 0
        for k in range(a + 1):
            if scratch[_INFL0 + col * 6 + k] > scratch[_INFL0 + col * 6 + best_k]:
                best_k = k
            scratch[_ARG0 + col * 6 + k] = best_k


@njit(cache=True, inline="always")
def _card_value(s, p: int, t: int, card_weight: float, type_bonus: float, scratch) -> float:
    """The investor worth of a card of type t: investors held and led of that type, committed types."""
    card_v = 0.0
    if card_weight > 0:
        lead = float(s.investors_held[p, t])
        for pos in range(N_INVESTORS):
            if s.investors[pos] == t:
                lead += 0.5 * scratch[_LEAD0 + pos]
        card_v = card_weight * lead
    if type_bonus > 0:
        card_v += type_bonus * scratch[_TYPEW0 + t]
    return card_v


@kernel
def _investor_like(kind: int, params, s, cards, opts, scratch) -> int:
    """Investor and specialist: greedy VP plus investor-aware card and influence values."""
    p = s.order[s.turn]
    if s.agents[p] == 0:
        return ACT_PASS
    same_col = opts[OPT_SAME_COLUMN] != 0
    a = s.assistants[p]
    card_weight, future_share, type_bonus, infl_weight, assist_cost, pass_below = _investor_weights(
        kind, params, s, p, scratch)
    _influence_values(s, p, a, infl_weight, assist_cost, future_share, scratch)
    best = -np.inf
    best_action = ACT_PASS
    n_best = 0
    for col in range(N_COLUMNS):
        c = s.factory[col]
        if c < 0 or (not same_col and s.col_agents[p, col] > 0):
            continue
        card_v = _card_value(s, p, cards[c, CARD_TYPE], card_weight, type_bonus, scratch)
        can_l = 1 if cards[c, CARD_LEFT] != 0 else 0
        can_r = 1 if cards[c, CARD_RIGHT] != 0 else 0
        for k in range(N_SLOTS):
            if s.slot_card[p, k] >= 0:
                continue
            dk, dk1, dl, dr, nl, nr = _slot_parts(s, p, cards, c, k)  # once per slot, not per block choice
            for bl in range(can_l + 1):
                for br in range(can_r + 1):
                    nb = bl + br
                    if nb > a:
                        continue
                    delta = _blocked_delta(cards, c, bl, br, dk, dk1, dl, dr, nl, nr)  # = _take_delta(..., bl, br)
                    v = delta + card_v - (assist_cost + 0.01) * nb
                    # best influence with the assistants left: a prefix maximum computed above
                    k_best = int(scratch[_ARG0 + col * 6 + a - nb])
                    v += scratch[_INFL0 + col * 6 + k_best]
                    if v > best + 1e-9:
                        best = v
                        best_action = encode_buy(col, k, bl, br, k_best)
                        n_best = 1
                    elif v > best - 1e-9:
                        n_best += 1  # reservoir choice among equal values
                        if below(next_u64(s, STREAM_SEAT0 + p), n_best) == 0:
                            best_action = encode_buy(col, k, bl, br, k_best)
    if not s.passed[p] and best < pass_below:
        return ACT_PASS
    return best_action
