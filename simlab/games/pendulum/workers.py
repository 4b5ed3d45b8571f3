"""Pendulum workers on the board: who stands where, placement, worker actions, retrieve, recruit, grande swap.

Rules: NOTES I.3.6-I.3.7 (workers in play, start of play), I.5 (rule 1: workers move on or off spaces
only in the row the area's timer is NOT on; rule 2: they act only in the row it IS on), I.6 (placing,
blocking, taking an action, the four worker states, retrieve), I.10.3 (advanced placement), I.12.2 and
I.12.4 trigger 1 (solo), I.13.4 (atomic actions), II.8 (the human re-chooses the destination).

Worker slots (``s.w_place[p, w]``, ``s.w_part[p, w]``, ``s.w_grande[p, w]``): slot 0 is the first grande and
slot 1 the first common, both in play from the start; slots 2-3 are reserve commons (``W_RESERVE``) that
only recruit brings in (to the mat). The second grande enters by swapping a common in play: that slot's
``w_grande`` becomes 1, same place (the common leaves the game). A worker is in play when its place is a
space index (0..n_spaces-1) or ``W_MAT``; ``w_part`` (``PART_TOP`` / ``PART_BOTTOM``) matters only on a space.

Readings fixed here (the brief and NOTES leave them to the implementation):

- **Free workers** are those on the mat and those on a space whose row does not hold the area's timer
  (top frame or bottom box). Only free workers move (``A_MOVE``); the mat is always a legal destination of
  a worker that is not on it. A worker in a bottom box may also go to the top frame of the same space.
- **Blocking** (``can_enter``; NOTES I.6.2 as clarified on 2026-11-27): a common cannot enter a top frame of a
  space with ``SP_COMMON_BLOCKED`` (green and purple) that holds a top-frame worker of anyone else: another
  seat's of either kind (grandes included), the 2-player neutral's (``SP_NEUTRAL``, only when
  ``s.n_players == 2``) or an Automa's (``s.a_work``, only when ``s.solo``). The seat's own workers (its grande
  or another of its commons) never block it under the basic rules; a seat with ``s.advanced[p]`` never puts
  two of its own workers in one top frame (any area, any worker type). Grandes are never blocked by others;
  black never blocks; bottom boxes never block.
- **Solo trigger 1** (the human's worker leaves a bottom box, black included): ``move_legal`` offers
  ``A_LIFT + w`` instead of the moves of such a worker. ``lift_worker`` logs ``EV_WORKER_LIFT``, puts the
  worker on the mat (where it waits), records ``s.lifted_seat/lifted_worker`` and lets the Automa act
  (``TR_STEP5`` in ``PH_STEP5``, else ``TR_BOTTOM_BOX``); the caller then goes to ``PH_REPLACE``, where
  ``replace_legal`` offers the mat and every legal space again and ``move_worker`` logs ``EV_WORKER_PLACE``.
  A retrieve from a bottom box fires the trigger before the worker reaches the mat; a retrieve from a top
  frame does not.
- **Worker action** (``take_action``): the worker slides to the bottom box, pays the space's cost (the
  ``SP_COST`` effect) and gains the chosen reward. Armed stratagem modifiers: ``free_action`` waives the cost
  of a green or purple action and is kept for a later one when the action is black (it never pays the
  conquer cost); ``double_action`` pays the cost twice and gains twice when the cost can be paid twice,
  else it stays armed; ``adjacent_action`` pushes ``PD_ADJACENT`` (arg = the space acted on) below the
  action's own decisions, so they resolve first. ``adjacent_legal``/``adjacent_apply`` resolve it: the
  adjacent spaces are those of the same area and row with ``SP_POS`` one apart; their cost is paid.
- **Adjacent action on a double frame**: ``A_SPACE + d2`` cannot carry the reward, so choosing a double frame
  pushes two PD_ADJACENT entries: a carrier (arg ``-2 - d2``) and on top the choice (arg ``ADJ_CHOICE``,
  options ``A_RES + alt``); the choice pops the carrier and takes the action; declining (A_NO) leaves the
  carrier, which offers nothing and is dropped by ``pending.pending_settle``.
- **Insurgent** (``timed_place``): a free worker goes straight into the top frame of a space on a timed row
  (blocking applies, production spaces excluded, cost payable) and takes its action at once. On a double
  frame (1-3 board: green top 0 is the only one without production) the worker waits in the top frame and
  the seat takes the action with ``A_ACTION + w * 2 + alt`` as its next action (rule 2 allows it there).
  Solo, a worker chosen in a bottom box is lifted as soon as it is chosen (``timed_place_lift``: EV_WORKER_LIFT,
  the worker waits on the mat, the Automa acts: trigger 1 comes before the placement, NOTES I.12.4.1, [A
  §Выполнение действий Автомы] "перед тем, как поместите"); the seat then chooses the space again among the
  targets left (II.8), and the placement is EV_WORKER_PLACE. When the Automa left no target the worker stays
  on the mat (EV_WORKER_PLACE to the mat) and the stratagem's action is lost.
- ``s.cause`` is set to the row of this module's event only when nothing set it before (``s.cause < 0``),
  so an event nested in a stratagem or a council card keeps pointing at it.
"""

from __future__ import annotations

from numba import njit

from simlab.core.jit import kernel
from simlab.games.pendulum import automa, economy
from simlab.games.pendulum.automa import automa_on_space
from simlab.games.pendulum.codes import (
    A_ACTION,
    A_LIFT,
    A_MOVE,
    A_RES,
    A_SPACE,
    A_WORKER,
    DEST_MAT,
    EV_GRANDE_SWAP,
    EV_HUMAN_SETUP,
    EV_RECRUIT,
    EV_RETRIEVE,
    EV_WORKER_ACTION,
    EV_WORKER_LIFT,
    EV_WORKER_MOVE,
    EV_WORKER_PLACE,
    N_DEST,
    PART_BOTTOM,
    PART_TOP,
    PD_ADJACENT,
    PH_REPLACE,
    PH_STEP5,
    ROW_BOTTOM,
    T_BLACK,
    T_GREEN,
    T_PURPLE,
    TR_BOTTOM_BOX,
    TR_STEP5,
    W_MAT,
)
from simlab.games.pendulum.eventlog import FIELD0, ev_begin
from simlab.games.pendulum.state import MAX_PLAYERS, MAX_WORKERS
from simlab.games.pendulum.tables import (
    SP_AREA,
    SP_COMMON_BLOCKED,
    SP_COST,
    SP_HAS_PROD,
    SP_NALT,
    SP_NEUTRAL,
    SP_POS,
    SP_REWARD0,
    SP_REWARD1,
    SP_ROW,
)
from simlab.games.pendulum.workforce import (  # noqa: F401  (re-exported: the workers' API)
    _set_cause,
    grande_count,
    in_play,
    recruit,
    recruit_legal,
    worker_count_in_play,
)

EVENT_FIELDS = {
    EV_HUMAN_SETUP: ("seat", "worker", "is_grande", "space"),
    EV_WORKER_MOVE: ("worker", "is_grande", "from_space", "from_part", "to_space", "purple_row", "green_row",
                     "black_row", "triggers_automa"),
    EV_WORKER_LIFT: ("worker", "is_grande", "from_space", "from_part", "purple_row", "green_row", "black_row",
                     "trigger"),
    EV_WORKER_PLACE: ("worker", "is_grande", "to_space", "purple_row", "green_row", "black_row"),
    EV_WORKER_ACTION: ("worker", "space", "alt", "cost_effect", "reward_effect", "times", "modifier_mask"),
    EV_RETRIEVE: ("worker", "is_grande", "from_space", "from_part", "triggers_automa"),
    EV_RECRUIT: ("worker", "in_play"),
    EV_GRANDE_SWAP: ("worker", "space", "part"),
}
"""Fields of the events this module logs, in column order (eventlog.FIELD0 + i)."""

# modifier_mask bits of EV_WORKER_ACTION
MOD_FREE, MOD_DOUBLE, MOD_ADJACENT, MOD_TIMED_PLACE = 1, 2, 4, 8


# ---------------------------------------------------------------- who stands where


@kernel
def neutral_on_space(s, t, d: int) -> bool:
    """2 players: the neutral worker sits permanently in space d."""
    return s.n_players == 2 and t.sp[d, SP_NEUTRAL] != 0


@kernel
def seat_count_on_space(s, p: int, d: int, part: int) -> int:
    """Number of seat p's workers in space d's part ``part`` (PART_TOP or PART_BOTTOM)."""
    n = 0
    for w in range(MAX_WORKERS):
        if s.w_place[p, w] == d and s.w_part[p, w] == part:
            n += 1
    return n


@kernel
def space_workers(s, d: int, out) -> int:
    """Seat workers in space d (either part): writes ``p * MAX_WORKERS + w`` codes to out, returns the count."""
    n = 0
    for p in range(MAX_PLAYERS):
        if p >= s.n_players:
            break
        for w in range(MAX_WORKERS):
            if s.w_place[p, w] == d:
                out[n] = p * MAX_WORKERS + w
                n += 1
    return n


@kernel
def others_on_top(s, p: int, d: int) -> bool:
    """A worker of a seat other than p stands in the top frame of space d."""
    k = 0
    for q in range(s.n_players):
        if q != p:
            k += seat_count_on_space(s, q, d, PART_TOP)
    return k > 0


@kernel
def is_timed(s, t, d: int) -> bool:
    """Space d lies on the row its area's timer is on."""
    return s.timer_row[t.sp[d, SP_AREA]] == t.sp[d, SP_ROW]


@kernel
def is_free(s, t, p: int, w: int) -> bool:
    """Worker w may be moved (rule 1): in play, and on the mat or on a row without its area's timer."""
    d = s.w_place[p, w]
    if d == W_MAT:
        return True
    if d < 0:
        return False
    return not is_timed(s, t, d)


@kernel
def in_bottom_box(s, p: int, w: int) -> bool:
    """Worker w stands in the bottom box of a space."""
    return s.w_place[p, w] >= 0 and s.w_part[p, w] == PART_BOTTOM


# ---------------------------------------------------------------- placement legality


@kernel
def can_enter(s, t, p: int, w: int, d: int) -> bool:
    """Blocking only (NOTES I.6.2, I.10.3): may worker w of seat p enter the top frame of space d?"""
    if d < 0 or d >= t.n_spaces:
        return False
    if s.w_place[p, w] == d and s.w_part[p, w] == PART_TOP:
        return False  # already there
    if s.advanced[p] != 0:
        for v in range(MAX_WORKERS):
            if v != w and s.w_place[p, v] == d and s.w_part[p, v] == PART_TOP:
                return False
    common_blocked = s.w_grande[p, w] == 0 and t.sp[d, SP_COMMON_BLOCKED] != 0
    return not (common_blocked and (others_on_top(s, p, d) or neutral_on_space(s, t, d) or automa_on_space(s, d)))


@kernel
def can_place(s, t, p: int, w: int, d: int) -> bool:
    """Worker w of seat p may be placed in the top frame of space d: rule 1 (d's row has no timer) and blocking.

    The worker's own freedom to leave where it stands is ``is_free``'s business.
    """
    if d < 0 or d >= t.n_spaces:
        return False
    if is_timed(s, t, d):
        return False
    return can_enter(s, t, p, w, d)


@kernel
def decode_move(a: int):
    """(worker, destination) of an ``A_MOVE`` code."""
    x = a - A_MOVE
    return x // N_DEST, x % N_DEST


@kernel
def _append_moves(s, t, p: int, w: int, out, n: int) -> int:
    for d in range(t.n_spaces):
        if can_place(s, t, p, w, d):
            out[n] = A_MOVE + w * N_DEST + d
            n += 1
    if s.w_place[p, w] != W_MAT:
        out[n] = A_MOVE + w * N_DEST + DEST_MAT
        n += 1
    return n


@kernel
def move_legal(s, t, p: int, out, n: int) -> int:
    """Append seat p's worker moves (ascending): ``A_LIFT + w`` (solo, a free worker in a bottom box: trigger 1)
    and ``A_MOVE + w * N_DEST + d`` for the other free workers (d a legal space, or DEST_MAT off the mat)."""
    if s.solo != 0:
        for w in range(MAX_WORKERS):
            if in_bottom_box(s, p, w) and is_free(s, t, p, w):
                out[n] = A_LIFT + w
                n += 1
    for w in range(MAX_WORKERS):
        if not is_free(s, t, p, w):
            continue
        if s.solo != 0 and in_bottom_box(s, p, w):
            continue
        n = _append_moves(s, t, p, w, out, n)
    return n


@kernel
def step5_legal(s, t, p: int, out, n: int) -> int:
    """Council step 5 (placement only): the same moves and lifts as ``move_legal``."""
    return move_legal(s, t, p, out, n)


# ---------------------------------------------------------------- moving


@njit(cache=True, inline="always")
def _log_rows(s, log, r: int, col: int) -> None:
    log[r, FIELD0 + col] = s.timer_row[T_PURPLE]
    log[r, FIELD0 + col + 1] = s.timer_row[T_GREEN]
    log[r, FIELD0 + col + 2] = s.timer_row[T_BLACK]


@kernel
def _put(s, p: int, w: int, d: int) -> None:
    """Worker w to the top frame of space d, or to the mat (d = DEST_MAT)."""
    if d == DEST_MAT:
        s.w_place[p, w] = W_MAT
    else:
        s.w_place[p, w] = d
    s.w_part[p, w] = PART_TOP


@kernel
def _trigger(s) -> int:
    return TR_STEP5 if s.phase == PH_STEP5 else TR_BOTTOM_BOX


@kernel
def move_worker(s, t, p: int, w: int, d: int, log) -> None:
    """Move worker w of seat p to the top frame of space d or to the mat (``DEST_MAT``).

    In ``PH_REPLACE`` for the lifted worker this is the placement after the Automa acted (``EV_WORKER_PLACE``;
    ``lifted_seat/lifted_worker`` are cleared). Otherwise ``EV_WORKER_MOVE``; should a solo worker leave a
    bottom box this way, the Automa acts first (trigger 1) and the worker goes to the mat if d is no longer
    legal then.
    """
    if s.phase == PH_REPLACE and s.lifted_seat == p and s.lifted_worker == w:
        _put(s, p, w, d)
        s.lifted_seat = -1
        s.lifted_worker = -1
        r = ev_begin(s, log, EV_WORKER_PLACE, p)
        if r >= 0:
            log[r, FIELD0 + 0] = w
            log[r, FIELD0 + 1] = s.w_grande[p, w]
            log[r, FIELD0 + 2] = s.w_place[p, w]
            _log_rows(s, log, r, 3)
        _set_cause(s, r)
        return
    trig = s.solo != 0 and in_bottom_box(s, p, w)
    r = ev_begin(s, log, EV_WORKER_MOVE, p)
    if r >= 0:
        log[r, FIELD0 + 0] = w
        log[r, FIELD0 + 1] = s.w_grande[p, w]
        log[r, FIELD0 + 2] = s.w_place[p, w]
        log[r, FIELD0 + 3] = s.w_part[p, w] if s.w_place[p, w] >= 0 else -1
        log[r, FIELD0 + 4] = -1 if d == DEST_MAT else d
        _log_rows(s, log, r, 5)
        log[r, FIELD0 + 8] = 1 if trig else 0
    _set_cause(s, r)
    if trig:
        s.w_place[p, w] = W_MAT
        s.w_part[p, w] = PART_TOP
        automa.automa_act(s, t, _trigger(s), log)
        if d != DEST_MAT and not can_place(s, t, p, w, d):
            d = DEST_MAT
    _put(s, p, w, d)


@kernel
def _lift_to_mat(s, p: int, w: int, trig: int, log) -> None:
    """Lift worker w of seat p out of its bottom box onto the mat (it waits there), logged as EV_WORKER_LIFT
    with the trigger ``trig`` that lifting it fires; the caller lets the Automa act."""
    r = ev_begin(s, log, EV_WORKER_LIFT, p)
    if r >= 0:
        log[r, FIELD0 + 0] = w
        log[r, FIELD0 + 1] = s.w_grande[p, w]
        log[r, FIELD0 + 2] = s.w_place[p, w]
        log[r, FIELD0 + 3] = s.w_part[p, w]
        _log_rows(s, log, r, 4)
        log[r, FIELD0 + 7] = trig
    _set_cause(s, r)
    s.w_place[p, w] = W_MAT
    s.w_part[p, w] = PART_TOP


@kernel
def lift_worker(s, t, p: int, w: int, log) -> None:
    """Solo trigger 1: lift worker w out of its bottom box (it waits on the mat), then the Automa acts.

    Sets ``s.lifted_seat/lifted_worker``; the caller goes to ``PH_REPLACE`` (``replace_legal``).
    """
    trig = _trigger(s)
    _lift_to_mat(s, p, w, trig, log)
    s.lifted_seat = p
    s.lifted_worker = w
    automa.automa_act(s, t, trig, log)


@kernel
def replace_legal(s, t, out) -> int:
    """PH_REPLACE: the lifted worker's destinations (ascending): every legal space, then the mat (always)."""
    p = s.lifted_seat
    w = s.lifted_worker
    n = 0
    for d in range(t.n_spaces):
        if can_place(s, t, p, w, d):
            out[n] = A_MOVE + w * N_DEST + d
            n += 1
    out[n] = A_MOVE + w * N_DEST + DEST_MAT
    return n + 1


@kernel
def replace_apply(s, t, a: int, log) -> None:
    """PH_REPLACE: apply an ``A_MOVE`` code of the lifted worker (``move_worker``)."""
    w, d = decode_move(a)
    move_worker(s, t, s.lifted_seat, w, d, log)


# ---------------------------------------------------------------- start of play (PH_START)


@kernel
def start_worker(s, p: int) -> int:
    """The worker seat p places next at the start of play: its grande on the mat, else its common, else -1."""
    for w in range(MAX_WORKERS):
        if s.w_place[p, w] == W_MAT and s.w_grande[p, w] != 0:
            return w
    for w in range(MAX_WORKERS):
        if s.w_place[p, w] == W_MAT:
            return w
    return -1


@kernel
def start_legal(s, t, out) -> int:
    """PH_START: the actor's placements of its next worker (grande first, then common) on bottom-row spaces."""
    p = s.actor
    w = start_worker(s, p)
    n = 0
    if w < 0:
        return 0
    for d in range(t.n_spaces):
        if t.sp[d, SP_ROW] == ROW_BOTTOM and can_place(s, t, p, w, d):
            out[n] = A_MOVE + w * N_DEST + d
            n += 1
    return n


@kernel
def start_apply(s, t, a: int, log) -> None:
    """PH_START: place the actor's worker (an ``A_MOVE`` code from ``start_legal``); logs EV_HUMAN_SETUP."""
    p = s.actor
    w, d = decode_move(a)
    _put(s, p, w, d)
    r = ev_begin(s, log, EV_HUMAN_SETUP, p)
    if r >= 0:
        log[r, FIELD0 + 0] = p
        log[r, FIELD0 + 1] = w
        log[r, FIELD0 + 2] = s.w_grande[p, w]
        log[r, FIELD0 + 3] = d
    _set_cause(s, r)


# ---------------------------------------------------------------- worker actions


@kernel
def reward_of(t, d: int, alt: int):
    """(effect, alternative) of reward ``alt`` of space d (a double frame holds two effects or one with 2 alts)."""
    if alt >= 1 and t.sp[d, SP_REWARD1] > 0:
        return t.sp[d, SP_REWARD1], 0
    if t.sp[d, SP_REWARD1] > 0:
        return t.sp[d, SP_REWARD0], 0
    return t.sp[d, SP_REWARD0], alt


@kernel
def n_alternatives(t, d: int) -> int:
    """How many rewards space d offers (2 for a double frame)."""
    k = t.sp[d, SP_NALT]
    return k if k >= 1 else 1


@kernel
def cost_waived(s, t, p: int, d: int) -> bool:
    """The armed free-action modifier waives space d's cost (green or purple only, never conquer)."""
    return s.free_action[p] != 0 and t.sp[d, SP_AREA] != T_BLACK


@kernel
def action_payable(s, t, p: int, d: int) -> bool:
    """Seat p can pay the cost of space d's action once (honouring free_action)."""
    c = t.sp[d, SP_COST]
    if c <= 0 or cost_waived(s, t, p, d):
        return True
    return economy.can_pay(s, t, p, c, 1)


@kernel
def action_legal(s, t, p: int, out, n: int) -> int:
    """Append ``A_ACTION + w * 2 + alt`` (ascending) for seat p's workers in a top frame of a timed row (rule 2)
    whose cost can be paid; a double frame offers alt 0 and alt 1."""
    for w in range(MAX_WORKERS):
        d = s.w_place[p, w]
        if d < 0 or s.w_part[p, w] != PART_TOP:
            continue
        if not is_timed(s, t, d):
            continue
        if not action_payable(s, t, p, d):
            continue
        for alt in range(n_alternatives(t, d)):
            out[n] = A_ACTION + w * 2 + alt
            n += 1
    return n


@kernel
def _pay_and_gain(s, t, p: int, d: int, alt: int, times: int, waived: bool, log) -> None:
    c = t.sp[d, SP_COST]
    e, ealt = reward_of(t, d, alt)
    k = 0
    if c > 0 and not waived:
        economy.pay_gain(s, t, p, c, times, e, ealt, log)  # pay (times times), then gain once
        k = 1
    for _ in range(k, times):
        if e > 0:
            economy.gain(s, t, p, e, ealt, log)


@kernel
def take_action(s, t, p: int, w: int, alt: int, log) -> None:
    """Worker w of seat p takes its space's action: slide into the bottom box, pay, gain reward ``alt``.

    Honours the armed modifiers (free_action, double_action, adjacent_action); logs EV_WORKER_ACTION.
    """
    _take(s, t, p, w, alt, 0, log)


@kernel
def _take(s, t, p: int, w: int, alt: int, extra_mask: int, log) -> None:
    d = s.w_place[p, w]
    c = t.sp[d, SP_COST]
    mask = extra_mask
    waived = False
    if c > 0 and cost_waived(s, t, p, d):
        waived = True
        s.free_action[p] = 0
        mask |= MOD_FREE
    times = 1
    if s.double_action[p] != 0 and (c <= 0 or waived or economy.can_pay(s, t, p, c, 2)):
        times = 2
        s.double_action[p] = 0
        mask |= MOD_DOUBLE
    adjacent = s.adjacent_action[p] != 0
    if adjacent:
        s.adjacent_action[p] = 0
        mask |= MOD_ADJACENT
    s.w_part[p, w] = PART_BOTTOM
    s.st_actions[p] += 1
    e, _ealt = reward_of(t, d, alt)
    r = ev_begin(s, log, EV_WORKER_ACTION, p)
    if r >= 0:
        log[r, FIELD0 + 0] = w
        log[r, FIELD0 + 1] = d
        log[r, FIELD0 + 2] = alt
        log[r, FIELD0 + 3] = 0 if waived else c
        log[r, FIELD0 + 4] = e
        log[r, FIELD0 + 5] = times
        log[r, FIELD0 + 6] = mask
    _set_cause(s, r)
    if adjacent:
        economy.push_pending(s, p, PD_ADJACENT, 1, d)
    _pay_and_gain(s, t, p, d, alt, times, waived, log)


# ---------------------------------------------------------------- adjacent action (Warmonger)

ADJ_CHOICE = -1  # PD_ADJACENT arg of the alternative choice (stage 2); the carrier below holds the space


@kernel
def is_adjacent(t, d: int, d2: int) -> bool:
    """Spaces d and d2 are neighbours: same area, same row, positions one apart."""
    if d2 == d or d2 < 0 or d2 >= t.n_spaces:
        return False
    if t.sp[d, SP_AREA] != t.sp[d2, SP_AREA] or t.sp[d, SP_ROW] != t.sp[d2, SP_ROW]:
        return False
    dp = t.sp[d, SP_POS] - t.sp[d2, SP_POS]
    return dp == 1 or dp == -1


@kernel
def adjacent_legal(s, t, p: int, arg: int, out, n: int) -> int:
    """PD_ADJACENT options besides A_NO (appended ascending).

    arg >= 0 (the space acted on): ``A_SPACE + d2`` for each neighbour d2 whose cost seat p can pay.
    arg == ADJ_CHOICE (a double frame was chosen): ``A_RES + alt`` for its two rewards; the entry below (the
    carrier, arg ``-2 - d2``) holds the space. A carrier itself offers nothing (it is dropped when on top).
    """
    if arg >= 0:
        for d2 in range(t.n_spaces):
            if is_adjacent(t, arg, d2) and action_payable(s, t, p, d2):
                out[n] = A_SPACE + d2
                n += 1
    elif arg == ADJ_CHOICE and s.n_pend >= 2:
        d2 = -2 - int(s.pend_arg[s.n_pend - 2])
        if 0 <= d2 < t.n_spaces:
            for alt in range(n_alternatives(t, d2)):
                out[n] = A_RES + alt
                n += 1
    return n


@kernel
def adjacent_apply(s, t, p: int, x: int, log) -> None:
    """PD_ADJACENT resolved with ``A_SPACE + x`` (the entry is already popped): seat p also takes the action of
    space x (no worker moves): pay its cost, gain its reward. A double frame first asks for the reward: a carrier
    entry (arg ``-2 - x``) and the choice (arg ``ADJ_CHOICE``, ``A_RES + alt``) are pushed; the choice comes
    back here with x = ``A_RES + alt - A_SPACE`` < 0, the carrier is popped and the action is taken.
    """
    if x >= 0:
        if n_alternatives(t, x) > 1:
            economy.push_pending(s, p, PD_ADJACENT, 1, -2 - x)
            economy.push_pending(s, p, PD_ADJACENT, 1, ADJ_CHOICE)
            return
        d2 = x
        alt = 0
    else:
        alt = x + A_SPACE - A_RES
        i = s.n_pend - 1
        if i < 0 or s.pend_kind[i] != PD_ADJACENT or s.pend_arg[i] > -2:
            return
        d2 = -2 - int(s.pend_arg[i])
        s.pend_kind[i] = 0
        s.pend_n[i] = 0
        s.pend_arg[i] = 0
        s.n_pend = i
    waived = t.sp[d2, SP_COST] > 0 and cost_waived(s, t, p, d2)
    if waived:
        s.free_action[p] = 0
    _pay_and_gain(s, t, p, d2, alt, 1, waived, log)


# ---------------------------------------------------------------- retrieve, recruit, grande


@kernel
def retrieve_legal_workers(s, t, p: int) -> int:
    """Bit mask of seat p's workers that can be retrieved: on a space of a row that has its timer."""
    mask = 0
    for w in range(MAX_WORKERS):
        d = s.w_place[p, w]
        if d >= 0 and is_timed(s, t, d):
            mask |= 1 << w
    return mask


@kernel
def retrieve_worker(s, t, p: int, w: int, log) -> None:
    """Retrieve worker w to the mat (free at once). Solo, from a bottom box: the Automa acts first (trigger 1)."""
    trig = s.solo != 0 and in_bottom_box(s, p, w)
    r = ev_begin(s, log, EV_RETRIEVE, p)
    if r >= 0:
        log[r, FIELD0 + 0] = w
        log[r, FIELD0 + 1] = s.w_grande[p, w]
        log[r, FIELD0 + 2] = s.w_place[p, w]
        log[r, FIELD0 + 3] = s.w_part[p, w]
        log[r, FIELD0 + 4] = 1 if trig else 0
    _set_cause(s, r)
    s.w_place[p, w] = W_MAT
    s.w_part[p, w] = PART_TOP
    if trig:
        automa.automa_act(s, t, TR_BOTTOM_BOX, log)


@kernel
def grande_swap_legal_workers(s, t, p: int) -> int:
    """Bit mask of seat p's commons in play that can be swapped for the second grande (0 once it is in)."""
    if grande_count(s, p) >= 2:
        return 0
    mask = 0
    for w in range(MAX_WORKERS):
        if s.w_place[p, w] >= W_MAT and s.w_grande[p, w] == 0:
            mask |= 1 << w
    return mask


@kernel
def grande_swap(s, t, p: int, w: int, log) -> None:
    """The second grande takes common w's place (same space and part, or the mat); the common leaves the game."""
    s.w_grande[p, w] = 1
    r = ev_begin(s, log, EV_GRANDE_SWAP, p)
    if r >= 0:
        log[r, FIELD0 + 0] = w
        log[r, FIELD0 + 1] = s.w_place[p, w]
        log[r, FIELD0 + 2] = s.w_part[p, w] if s.w_place[p, w] >= 0 else -1
    _set_cause(s, r)


# ---------------------------------------------------------------- Insurgent: place on a timed row


@kernel
def timed_place_space_ok(s, t, p: int, w: int, d: int) -> bool:
    """Space d is a legal Insurgent target for worker w: a timed row, no production, not blocked, payable."""
    if d < 0 or d >= t.n_spaces:
        return False
    if not is_timed(s, t, d) or t.sp[d, SP_HAS_PROD] != 0:
        return False
    return can_enter(s, t, p, w, d) and action_payable(s, t, p, d)


@kernel
def timed_place_workers(s, t, p: int) -> int:
    """Bit mask of seat p's free workers that have at least one Insurgent target space."""
    mask = 0
    for w in range(MAX_WORKERS):
        if not is_free(s, t, p, w):
            continue
        for d in range(t.n_spaces):
            if timed_place_space_ok(s, t, p, w, d):
                mask |= 1 << w
                break
    return mask


@kernel
def timed_place_legal(s, t, p: int, w: int, out, n: int) -> int:
    """Append ``A_SPACE + d`` for worker w's Insurgent target spaces (ascending; ``w`` may carry TP_LIFTED)."""
    w = w % TP_LIFTED
    for d in range(t.n_spaces):
        if timed_place_space_ok(s, t, p, w, d):
            out[n] = A_SPACE + d
            n += 1
    return n


@kernel
def timed_place_worker_codes(s, t, p: int, out, n: int) -> int:
    """Append ``A_WORKER + w`` for the workers of ``timed_place_workers``."""
    mask = timed_place_workers(s, t, p)
    for w in range(MAX_WORKERS):
        if (mask >> w) & 1:
            out[n] = A_WORKER + w
            n += 1
    return n


TP_LIFTED = 8  # PD_TIMED_PLACE arg: worker + TP_LIFTED once the worker was lifted out of a bottom box (solo)


@kernel
def timed_place_needs_lift(s, p: int, w: int) -> bool:
    """Solo: the Insurgent's chosen worker stands in a bottom box, so choosing it is trigger 1 (I.12.4.1)."""
    return s.solo != 0 and in_bottom_box(s, p, w)


@kernel
def timed_place_lift(s, t, p: int, w: int, log) -> bool:
    """Solo, the Insurgent chose worker w in a bottom box: lift it (EV_WORKER_LIFT; it waits on the mat) and let
    the Automa act BEFORE the worker is placed ([A §Выполнение действий Автомы], NOTES I.12.4.1, II.8). Returns
    whether a target space is left for the seat to choose again; if not the worker stays on the mat
    (EV_WORKER_PLACE to the mat) and the caller drops the decision."""
    _lift_to_mat(s, p, w, TR_BOTTOM_BOX, log)
    automa.automa_act(s, t, TR_BOTTOM_BOX, log)
    for d in range(t.n_spaces):
        if timed_place_space_ok(s, t, p, w, d):
            return True
    _log_place(s, log, p, w)
    return False


@kernel
def _log_place(s, log, p: int, w: int) -> None:
    """EV_WORKER_PLACE: a lifted worker's new place (after the Automa acted)."""
    r = ev_begin(s, log, EV_WORKER_PLACE, p)
    if r >= 0:
        log[r, FIELD0 + 0] = w
        log[r, FIELD0 + 1] = s.w_grande[p, w]
        log[r, FIELD0 + 2] = s.w_place[p, w]
        _log_rows(s, log, r, 3)
    _set_cause(s, r)


@kernel
def timed_place(s, t, p: int, w: int, d: int, log) -> None:
    """Insurgent: worker w goes straight to the top frame of space d on a timed row and takes its action.

    Logs EV_WORKER_MOVE, or EV_WORKER_PLACE when ``w`` carries ``TP_LIFTED`` (solo: it was lifted out of a
    bottom box and the Automa has acted, ``timed_place_lift``). The action is taken at once when d is payable;
    on a double frame the worker waits in the top frame and the seat takes the action with ``A_ACTION``
    (choosing the reward) like any worker on a timed row.
    """
    if w >= TP_LIFTED:
        w -= TP_LIFTED
        _put(s, p, w, d)
        _log_place(s, log, p, w)
        if n_alternatives(t, d) == 1 and is_timed(s, t, d) and action_payable(s, t, p, d):
            _take(s, t, p, w, 0, MOD_TIMED_PLACE, log)
        return
    trig = s.solo != 0 and in_bottom_box(s, p, w)  # (the pending decision lifts such a worker first)
    r = ev_begin(s, log, EV_WORKER_MOVE, p)
    if r >= 0:
        log[r, FIELD0 + 0] = w
        log[r, FIELD0 + 1] = s.w_grande[p, w]
        log[r, FIELD0 + 2] = s.w_place[p, w]
        log[r, FIELD0 + 3] = s.w_part[p, w] if s.w_place[p, w] >= 0 else -1
        log[r, FIELD0 + 4] = d
        _log_rows(s, log, r, 5)
        log[r, FIELD0 + 8] = 1 if trig else 0
    _set_cause(s, r)
    if trig:
        s.w_place[p, w] = W_MAT
        s.w_part[p, w] = PART_TOP
        automa.automa_act(s, t, TR_BOTTOM_BOX, log)
    _put(s, p, w, d)
    if n_alternatives(t, d) == 1 and is_timed(s, t, d) and action_payable(s, t, p, d):
        _take(s, t, p, w, 0, MOD_TIMED_PLACE, log)
