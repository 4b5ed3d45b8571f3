"""Sentient's rules as compiled kernels over the state record (see ``state.py``).

Every kernel takes the state record ``s`` (``arr[0]``), the card array ``cards`` (see
``data.py``), the investor array ``inv`` (rows 0-2: the round stacks, row 3: the starting
investors, -1 padded), the option array ``opts`` (``OPT_*``) and an event log ``log``.

The event log is an int32 array of shape (capacity + 1, LOG_WIDTH); ``log[0, 0]`` counts the
events written to rows 1.., ``log[0, 1]`` is set when events were dropped for lack of room.
A log with one row records nothing, which is what the batch loop passes.

Actions are integers: ``ACT_PASS`` (pass; sweeps when the seat still has an agent),
``ACT_PASS_NO_SWEEP`` (only with the optional-sweep variant) and buys ``encode_buy(...)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind, rank_seats, shuffle
from simlab.core.rng import below, derive_key
from simlab.games.sentient.data import (
    CARD_COND,
    CARD_IN_DECK,
    CARD_LEFT,
    CARD_PARAM,
    CARD_RIGHT,
    CARD_TYPE,
    CARD_VP,
)
from simlab.games.sentient.state import (
    AGENTS,
    ASSISTANTS,
    N_COLUMNS,
    N_DICE,
    N_INVESTORS,
    N_ROUNDS,
    N_SLOTS,
    N_STREAMS,
    N_TYPES,
    STREAM_DICE,
    STREAM_LAYOUT,
    STREAM_RESHUFFLE,
    STREAM_SETUP,
)

next_u64 = bind(kernels.next_u64)  # the shared helpers, compiled here so numba inlines them
log_event = bind(kernels.log_event)

# ---- options (indices into the option array; values are documented in options.toml) ----
OPT_AGENT_TIEBREAK_SKIP = 0  # 1: skip the agent tie-break (O1 'skip')
OPT_RUNNER_UP_MIN = 1  # minimum influence for the runner-up 1 VP (O2)
OPT_SERVICE_FLOOR_ALL = 2  # 1: floor every service formula at 0 (O3 'all')
OPT_INVESTORS_TYPE_ORDER = 3  # 1: investors laid out in type order (O4)
OPT_LEFTOVERS_REMOVED = 4  # 1: leftover factory cards leave the game (O5)
OPT_SWEEP_DRAW_FIRST = 5  # 1: draw the new factory before discarding the swept cards (O6)
OPT_RESHUFFLE_AT_ONCE = 6  # 1: reshuffle as soon as the deck is empty (O7)
OPT_SAME_COLUMN = 7  # 1: a second agent may join one's own column (O8)
OPT_SWEEP_OPTIONAL = 8  # 1: sweeping on a voluntary pass is optional (O10)
N_OPTS = 9

# ---- actions ----
ACT_PASS = 0
ACT_PASS_NO_SWEEP = 1
ACT_BUY0 = 2
MAX_INFLUENCE = ASSISTANTS
N_ACTIONS = ACT_BUY0 + N_COLUMNS * N_SLOTS * 2 * 2 * (MAX_INFLUENCE + 1)

# ---- events ----
LOG_WIDTH = 40
EV_ROUND_START = 1  # round, order[4], factory[4], investors[5], dice[4*5]
EV_TAKE = 2  # round, seat, column, card, slot, block_l, block_r, influence, before[2], after[2], refill
EV_PASS = 3  # round, seat, swept, factory[4]
EV_RESHUFFLE = 4  # round, deck_size
EV_CARD_SCORED = 5  # round, seat, slot, card, left die, right die, points
EV_INVESTOR = 6  # round, position, type, influence[4], agents[4], winner, second
EV_ROUND_END = 7  # round, next order[4]


def option_array(values: dict) -> np.ndarray:
    """Encode resolved option values (names as in options.toml) for the kernels."""
    opts = np.zeros(N_OPTS, dtype=np.int64)
    opts[OPT_AGENT_TIEBREAK_SKIP] = values["agent_tiebreak_scope"] == "skip"
    opts[OPT_RUNNER_UP_MIN] = int(values["runner_up_min_influence"])
    opts[OPT_SERVICE_FLOOR_ALL] = values["service_floor"] == "all"
    opts[OPT_INVESTORS_TYPE_ORDER] = values["investor_layout"] == "type_order_face_up"
    opts[OPT_LEFTOVERS_REMOVED] = values["factory_leftovers"] == "remove_from_game"
    opts[OPT_SWEEP_DRAW_FIRST] = values["sweep_order"] == "draw_then_discard"
    opts[OPT_RESHUFFLE_AT_ONCE] = values["reshuffle_timing"] == "as_soon_as_deck_empty"
    opts[OPT_SAME_COLUMN] = bool(values["same_column_multiple_agents"])
    opts[OPT_SWEEP_OPTIONAL] = values["sweep_on_voluntary_pass"] == "optional"
    return opts


@kernel
def new_log(capacity: int) -> np.ndarray:
    """An event log with room for ``capacity`` events (0: record nothing)."""
    return kernels.new_log(capacity, LOG_WIDTH)


# ---------------------------------------------------------------- small helpers


@njit(cache=True, inline="always")
def encode_buy(col: int, slot: int, block_left: int, block_right: int, influence: int) -> int:
    """The action code of a buy."""
    return ACT_BUY0 + (((col * N_SLOTS + slot) * 2 + block_left) * 2 + block_right) * (MAX_INFLUENCE + 1) + influence


@njit(cache=True, inline="always")
def decode_buy(action: int) -> tuple[int, int, int, int, int]:
    """(column, slot, block_left, block_right, influence) of a buy action."""
    x = action - ACT_BUY0
    influence = x % (MAX_INFLUENCE + 1)
    x //= MAX_INFLUENCE + 1
    block_right = x % 2
    x //= 2
    block_left = x % 2
    x //= 2
    return x // N_SLOTS, x % N_SLOTS, block_left, block_right, influence


@njit(cache=True, inline="always")
def wrap_die(v: int) -> int:
    """Die value after calibration, with 6 -> 1 and 1 -> 6 wrap-around."""
    if v > 6:
        return v - 6
    if v < 1:
        return v + 6
    return v


@kernel
def card_points(cards, ci: int, left: int, right: int, floor_all: bool) -> int:
    """Points a card scores between dice ``left`` and ``right`` (rulebook: КАРТЫ И СИМВОЛЫ)."""
    cond = cards[ci, CARD_COND]
    vp = cards[ci, CARD_VP]
    lo = min(left, right)
    hi = max(left, right)
    tot = left + right
    if cond == 0:  # INF_TARGET
        t = cards[ci, CARD_PARAM]
        m = (left == t) + (right == t)
        return 7 if m == 2 else (2 if m == 1 else 0)
    if cond <= 6:  # service formulas
        if cond == 1:
            v = 8 - tot
        elif cond == 2:
            v = 5 - lo
        elif cond == 3:
            v = 7 - hi
        elif cond == 4:
            return max(0, tot - 6)
        elif cond == 5:
            v = hi - 2
        else:
            v = lo - 1
        return max(0, v) if floor_all else v
    if cond == 7:
        ok = left < right
    elif cond == 8:
        ok = left <= right
    elif cond == 9:
        ok = left == right
    elif cond == 10:
        ok = left > right
    elif cond == 11:
        ok = left >= right
    elif cond == 12:
        ok = tot <= 4 or tot >= 10
    elif cond == 13:
        ok = tot == 7
    elif cond == 14:
        ok = hi - lo == 1
    elif cond == 15:
        ok = hi - lo == 2
    elif cond == 16:
        ok = tot <= 5
    elif cond == 17:
        ok = tot >= 9
    elif cond == 18:
        ok = left % 2 == 0 and right % 2 == 1
    elif cond == 19:
        ok = left % 2 == 1 and right % 2 == 0
    elif cond == 20:
        ok = tot % 2 == 1
    else:
        ok = left % 2 == 1 and right % 2 == 1
    return vp if ok else 0


# The kernels read a card table: the data columns (``data.CARD_*``) followed by each card's
# points for every pair of final dice, so that scoring is one lookup: ``points(...)``.
PTS0 = 8


@kernel
def card_table(raw, opts) -> np.ndarray:
    """The card table the kernels use: ``raw`` (data.card_array) plus precomputed points."""
    n = raw.shape[0]
    out = np.zeros((n, PTS0 + 49), dtype=np.int32)
    floor_all = opts[OPT_SERVICE_FLOOR_ALL] != 0
    for c in range(n):
        for j in range(raw.shape[1]):
            out[c, j] = raw[c, j]
        for left in range(1, 7):
            for right in range(1, 7):
                out[c, PTS0 + left * 7 + right] = card_points(raw, c, left, right, floor_all)
    return out


@njit(cache=True, inline="always")
def points(cards, c: int, left: int, right: int) -> int:
    """Points card c scores between dice ``left`` and ``right`` (table lookup, options applied)."""
    return cards[c, PTS0 + left * 7 + right]


# ---------------------------------------------------------------- deck


@kernel
def _reshuffle(s, log) -> None:
    """Shuffle the discard pile into a new deck (below any cards left in the deck)."""
    if s.discard_n == 0:
        return
    for i in range(s.deck_n - 1, -1, -1):  # keep remaining deck cards on top
        s.deck[i + s.discard_n] = s.deck[i]
    for i in range(s.discard_n):
        s.deck[i] = s.discard[i]
    n_new = s.discard_n
    s.discard_n = 0
    shuffle(s, STREAM_RESHUFFLE, s.deck, n_new)
    s.deck_n += n_new
    s.n_reshuffles += 1
    e = log_event(log, EV_RESHUFFLE)
    if e >= 0:
        log[e, 1] = s.round
        log[e, 2] = s.deck_n


@kernel
def draw_card(s, opts, log) -> int:
    """Top card of the deck, reshuffling the discard pile when needed (O7); -1 if none."""
    if s.deck_n == 0:
        _reshuffle(s, log)
        if s.deck_n == 0:
            return -1
    s.deck_n -= 1
    c = s.deck[s.deck_n]
    if s.deck_n == 0 and opts[OPT_RESHUFFLE_AT_ONCE]:
        _reshuffle(s, log)
    return c


@njit(cache=True, inline="always")
def _discard(s, c: int) -> None:
    if c >= 0:
        s.discard[s.discard_n] = c
        s.discard_n += 1


# ---------------------------------------------------------------- setup and rounds


@kernel
def setup(s, seed: np.uint64, n_players: int, cards, inv, opts, log) -> None:
    """Set up a new game (rulebook ПОДГОТОВКА К ИГРЕ) and its first round from its seed."""
    s.seed = seed
    s.n_players = n_players
    s.round = 1
    s.over = 0
    s.n_turns = 0
    s.n_reshuffles = 0
    s.n_sweeps = 0
    for k in range(N_STREAMS):
        s.rng_key[k] = derive_key(seed, np.uint64(k))
        s.rng_ctr[k] = 0
    n_cards = cards.shape[0]
    s.n_cards = n_cards
    for i in range(n_cards):
        s.deck[i] = i
    s.deck_n = n_cards
    s.discard_n = 0
    shuffle(s, STREAM_SETUP, s.deck, n_cards)
    # Cards taken out of the deck (ablation) are skipped after the shuffle, so the others
    # keep their order: a game with and without a card stays paired card for card.
    kept = 0
    for i in range(n_cards):
        c = s.deck[i]
        if cards[c, CARD_IN_DECK]:
            s.deck[kept] = c
            kept += 1
    s.deck_n = kept
    s.removed_n = n_cards - kept
    # Step 6: right board sections dealt at random (each carries a starting investor).
    n_start = 0
    while n_start < inv.shape[1] and inv[3, n_start] >= 0:
        n_start += 1
    sections = s.scratch
    for i in range(n_start):
        sections[i] = inv[3, i]
    shuffle(s, STREAM_SETUP, sections, n_start)
    for p in range(s.order.shape[0]):
        s.owned_n[p] = 0
        s.card_vp[p] = 0
        s.second_vp[p] = 0
        s.investor_vp[p] = 0
        s.total[p] = 0
        s.rank[p] = 0
        s.winner[p] = 0
        for r in range(N_ROUNDS):
            s.round_vp[p, r] = 0
        for t in range(N_TYPES):
            s.type_count[p, t] = 0
            s.investors_held[p, t] = 0
        s.start_investor[p] = -1
        s.order[p] = -1
    for p in range(n_players):
        s.start_investor[p] = sections[p]
        s.investors_held[p, sections[p]] = 1
        s.order[p] = p
    # Step 7: turn-order markers shuffled into the first stack.
    shuffle(s, STREAM_SETUP, s.order, n_players)
    s.first_seat = s.order[0]
    start_round(s, cards, inv, opts, log)


@kernel
def start_round(s, cards, inv, opts, log) -> None:
    """Round setup (ПОДГОТОВКА К РАУНДУ): factory, investors, dice, pieces back."""
    n = s.n_players
    for c in range(N_COLUMNS):
        s.factory[c] = draw_card(s, opts, log)
    for i in range(N_INVESTORS):
        s.investors[i] = inv[s.round - 1, i]
    if not opts[OPT_INVESTORS_TYPE_ORDER]:
        shuffle(s, STREAM_LAYOUT, s.investors, N_INVESTORS)
    for p in range(s.order.shape[0]):
        s.passed[p] = 0
        s.pass_seq[p] = -1
        s.agents[p] = AGENTS if p < n else 0
        s.assistants[p] = ASSISTANTS if p < n else 0
        for c in range(N_COLUMNS):
            s.col_agents[p, c] = 0
            s.col_assistants[p, c] = 0
        for k in range(N_SLOTS):
            s.slot_card[p, k] = -1
            s.slot_block[p, k] = 0
        for d in range(N_DICE):
            if p < n:
                s.dice[p, d] = 1 + below(next_u64(s, STREAM_DICE), 6)
            else:
                s.dice[p, d] = 0
            s.round_dice[p, d] = s.dice[p, d]
    s.n_passed = 0
    s.turn = 0
    e = log_event(log, EV_ROUND_START)
    if e >= 0:
        log[e, 1] = s.round
        for p in range(4):
            log[e, 2 + p] = s.order[p]
            log[e, 6 + p] = s.factory[p]
        for i in range(N_INVESTORS):
            log[e, 10 + i] = s.investors[i]
        for p in range(4):
            for d in range(N_DICE):
                log[e, 15 + p * N_DICE + d] = s.dice[p, d]


# ---------------------------------------------------------------- turns


@njit(cache=True, inline="always")
def current_player(s) -> int:
    """The seat whose turn it is."""
    return s.order[s.turn]


@kernel
def legal_actions(s, cards, opts, out) -> int:
    """Write the legal actions of the current player to ``out``; return how many."""
    p = s.order[s.turn]
    n = 0
    if not s.passed[p]:
        out[n] = ACT_PASS
        n += 1
        if s.agents[p] > 0 and opts[OPT_SWEEP_OPTIONAL]:
            out[n] = ACT_PASS_NO_SWEEP
            n += 1
    if s.agents[p] == 0:
        return n
    a = s.assistants[p]
    for col in range(N_COLUMNS):
        c = s.factory[col]
        if c < 0 or (not opts[OPT_SAME_COLUMN] and s.col_agents[p, col] > 0):
            continue
        can_l = 1 if cards[c, CARD_LEFT] != 0 else 0
        can_r = 1 if cards[c, CARD_RIGHT] != 0 else 0
        for slot in range(N_SLOTS):
            if s.slot_card[p, slot] >= 0:
                continue
            for bl in range(can_l + 1):
                for br in range(can_r + 1):
                    nb = bl + br
                    if nb > a:
                        continue
                    for infl in range(a - nb + 1):
                        out[n] = encode_buy(col, slot, bl, br, infl)
                        n += 1
    return n


@kernel
def _buy(s, p: int, action: int, cards, opts, log) -> None:
    col, slot, bl, br, infl = decode_buy(action)
    c = s.factory[col]
    s.agents[p] -= 1
    s.assistants[p] -= infl + bl + br
    s.col_agents[p, col] += 1
    s.col_assistants[p, col] += infl
    refill = draw_card(s, opts, log)  # the factory is refilled at once (R20)
    s.factory[col] = refill
    s.slot_card[p, slot] = c
    s.slot_block[p, slot] = bl | (br << 1)
    before_l = s.dice[p, slot]
    before_r = s.dice[p, slot + 1]
    if not bl:
        s.dice[p, slot] = wrap_die(before_l + cards[c, CARD_LEFT])
    if not br:
        s.dice[p, slot + 1] = wrap_die(before_r + cards[c, CARD_RIGHT])
    i = s.owned_n[p]
    s.owned[p, i] = c
    s.owned_slot[p, i] = slot
    s.owned_block[p, i] = bl | (br << 1)
    s.owned_influence[p, i] = infl
    s.owned_column[p, i] = col
    s.owned_turn[p, i] = s.n_turns
    s.owned_points[p, i] = 0
    s.owned_n[p] += 1
    s.type_count[p, cards[c, CARD_TYPE]] += 1
    e = log_event(log, EV_TAKE)
    if e >= 0:
        log[e, 1] = s.round
        log[e, 2] = p
        log[e, 3] = col
        log[e, 4] = c
        log[e, 5] = slot
        log[e, 6] = bl
        log[e, 7] = br
        log[e, 8] = infl
        log[e, 9] = before_l
        log[e, 10] = before_r
        log[e, 11] = s.dice[p, slot]
        log[e, 12] = s.dice[p, slot + 1]
        log[e, 13] = refill


@kernel
def _pass(s, p: int, want_sweep: bool, opts, log) -> None:
    s.passed[p] = 1
    s.pass_seq[s.n_passed] = p
    s.n_passed += 1
    swept = want_sweep and s.agents[p] > 0  # a forced pass never sweeps (R28)
    if swept:
        s.n_sweeps += 1
        if opts[OPT_SWEEP_DRAW_FIRST]:
            old = s.factory.copy()
            for c in range(N_COLUMNS):
                s.factory[c] = draw_card(s, opts, log)
            for c in range(N_COLUMNS):
                _discard(s, old[c])
        else:
            for c in range(N_COLUMNS):
                _discard(s, s.factory[c])
                s.factory[c] = -1
            for c in range(N_COLUMNS):
                s.factory[c] = draw_card(s, opts, log)
    e = log_event(log, EV_PASS)
    if e >= 0:
        log[e, 1] = s.round
        log[e, 2] = p
        log[e, 3] = swept
        for c in range(N_COLUMNS):
            log[e, 4 + c] = s.factory[c]


@kernel
def apply_action(s, action: int, cards, inv, opts, log) -> None:
    """Play ``action`` for the current player, then move on (ending rounds and the game)."""
    p = s.order[s.turn]
    if action == ACT_PASS:
        _pass(s, p, True, opts, log)
    elif action == ACT_PASS_NO_SWEEP:
        _pass(s, p, False, opts, log)
    else:
        _buy(s, p, action, cards, opts, log)
    s.n_turns += 1
    n = s.n_players
    for k in range(1, n + 1):
        t = (s.turn + k) % n
        q = s.order[t]
        if not (s.passed[q] and s.agents[q] == 0):
            s.turn = t
            return
    end_round(s, cards, inv, opts, log)


# ---------------------------------------------------------------- end of round and game


@kernel
def award_investors(s, opts, log) -> None:
    """Attract investors (R32): token to the most influence, 1 VP to the runner-up."""
    n = s.n_players
    skip_agents = opts[OPT_AGENT_TIEBREAK_SKIP] != 0
    runner_min = opts[OPT_RUNNER_UP_MIN]
    infl = s.work[0]
    agents = s.work[1]
    for pos in range(N_INVESTORS):
        lo = max(pos - 1, 0)
        hi = min(pos, N_COLUMNS - 1)
        for p in range(4):
            infl[p] = 0
            agents[p] = 0
        for p in range(n):
            for c in range(lo, hi + 1):
                infl[p] += s.col_agents[p, c] + s.col_assistants[p, c]
                agents[p] += s.col_agents[p, c]
        first = -1
        second = -1
        for t in range(n):  # players in turn order: earlier wins remaining ties
            p = s.order[t]
            if first < 0 or _ranks_before(p, first, infl, agents, skip_agents):
                second = first
                first = p
            elif second < 0 or _ranks_before(p, second, infl, agents, skip_agents):
                second = p
        winner = first if infl[first] >= 1 else -1
        runner = second if winner >= 0 and second >= 0 and infl[second] >= runner_min else -1
        if winner >= 0:
            s.investors_held[winner, s.investors[pos]] += 1
        if runner >= 0:
            s.second_vp[runner] += 1
        e = log_event(log, EV_INVESTOR)
        if e >= 0:
            log[e, 1] = s.round
            log[e, 2] = pos
            log[e, 3] = s.investors[pos]
            for p in range(4):
                log[e, 4 + p] = infl[p]
                log[e, 8 + p] = agents[p]
            log[e, 12] = winner
            log[e, 13] = runner


@njit(cache=True, inline="always")
def _ranks_before(p: int, q: int, infl, agents, skip_agents: bool) -> bool:
    """Whether p strictly beats q on influence, then agents (ties left to turn order)."""
    if infl[p] != infl[q]:
        return infl[p] > infl[q]
    if not skip_agents and agents[p] != agents[q]:
        return agents[p] > agents[q]
    return False


@kernel
def end_round(s, cards, inv, opts, log) -> None:
    """Score cards, attract investors, then prepare the next round or end the game."""
    n = s.n_players
    r = s.round
    for p in range(n):
        for k in range(N_SLOTS):
            c = s.slot_card[p, k]
            if c < 0:
                continue
            pts = points(cards, c, s.dice[p, k], s.dice[p, k + 1])
            for i in range((r - 1) * N_SLOTS, s.owned_n[p]):  # this round's purchases
                if s.owned_slot[p, i] == k:
                    s.owned_points[p, i] = pts
            s.card_vp[p] += pts
            s.round_vp[p, r - 1] += pts
            e = log_event(log, EV_CARD_SCORED)
            if e >= 0:
                log[e, 1] = r
                log[e, 2] = p
                log[e, 3] = k
                log[e, 4] = c
                log[e, 5] = s.dice[p, k]
                log[e, 6] = s.dice[p, k + 1]
                log[e, 7] = pts
    award_investors(s, opts, log)
    # The next round's stack: the last to pass is on top (R29).
    for t in range(n):
        s.order[t] = s.pass_seq[n - 1 - t]
    e = log_event(log, EV_ROUND_END)
    if e >= 0:
        log[e, 1] = r
        for t in range(4):
            log[e, 2 + t] = s.order[t] if t < n else -1
    if r == N_ROUNDS:
        final_scoring(s)
        return
    for c in range(N_COLUMNS):  # leftovers (O5)
        if opts[OPT_LEFTOVERS_REMOVED]:
            if s.factory[c] >= 0:
                s.removed_n += 1
        else:
            _discard(s, s.factory[c])
        s.factory[c] = -1
    s.round = r + 1
    start_round(s, cards, inv, opts, log)


@kernel
def final_scoring(s) -> None:
    """End-game investor scoring (R42), totals, ranks and winners (R43)."""
    n = s.n_players
    for p in range(n):
        v = 0
        for t in range(N_TYPES):
            v += s.investors_held[p, t] * s.type_count[p, t]
        s.investor_vp[p] = v
        s.total[p] = s.card_vp[p] + s.second_vp[p] + v
    keys = np.empty((n, 2), dtype=np.int64)  # total, then investor tokens held (R43)
    for p in range(n):
        keys[p, 0] = s.total[p]
        keys[p, 1] = investor_count(s, p)
    rank_seats(keys, n, s.rank, s.winner)
    s.round = N_ROUNDS + 1
    s.over = 1


@kernel
def investor_count(s, p: int) -> int:
    """Investor tokens the seat holds, the starting one included."""
    tot = 0
    for t in range(N_TYPES):
        tot += s.investors_held[p, t]
    return tot


# ---------------------------------------------------------------- entry points for Python
# Python cannot hand a record to a kernel cheaply, so these take the one-element state array.


@kernel
def py_setup(s_arr, seed: np.uint64, n_players: int, cards, inv, opts, log, legal) -> int:
    """Set up a game; return the number of legal actions written to ``legal``."""
    s = s_arr[0]
    setup(s, seed, n_players, cards, inv, opts, log)
    return legal_actions(s, cards, opts, legal)


@kernel
def py_step(s_arr, action: int, cards, inv, opts, log, legal) -> int:
    """Apply ``action``; return the next player's legal actions count (0 once the game is over)."""
    s = s_arr[0]
    apply_action(s, action, cards, inv, opts, log)
    if s.over:
        return 0
    return legal_actions(s, cards, opts, legal)
