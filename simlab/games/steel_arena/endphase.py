"""Steel Arena's end phase (NOTES I.11.4, Part II defaults), turn start and game end, as kernels.

The end phase runs as a small step machine over ``s.end_step`` (``ES_*`` below) so that it can
stop for an owner's decision and carry on afterwards:

    ES_BEGIN          EV_END_STEP 0; then the discards (default) or the pickup
                      (``discard_timing = after_pickup``: the discards run between E1 and E2)
    ES_DISCARDS       E0: every robot with pending damage, the active seat first then clockwise,
                      discards one module at a time (PH_DISCARD, the owner picks). When the
                      pending damage is at least the robot's module count every module goes
                      without asking, and more than that destroys the robot (EV_DESTROYED).
                      Destination: the active seat's trophy, or the box in one's own turn
                      (DR_OWN_TURN) and for a team-mate (DR_TEAM_MATE).
    ES_CHECK_DISCARDS end check (EV_END_CHECK); with ``batch_discards_then_check_end = false``
                      the check also runs after each robot's discards. A start placement that set
                      off terrain (``start_placement_triggers_terrain``) runs only these two steps
                      (turn 0) and then goes on with the placement
    ES_PICKUP         E1: EV_END_STEP 1; the active robot takes the module tile it stands on
                      (terrain stays); it joins face down (expert: up), used (not activatable)
                      for the rest of this turn and, if defence, spent until the next turn
                      starts; a 13th module asks for the module-limit discard (PH_LIMIT), which
                      becomes the active seat's own trophy
    ES_CHECK_LIMIT    end check after a module-limit discard
    ES_AFTER_PICKUP   on to E2 (or to the discards with ``after_pickup``)
    ES_E2 .. ES_E5    side A at >= normal_min modules incl. central (every robot), auto-cool
                      tokens off (every robot, or the active one with ``autocool_scope =
                      active_robot_only``), refill of every empty cell without a robot in cell
                      order from the top of the gen-3 stack (an empty stack when a cell needs a
                      tile ends the game; in team mode only with ``team_gen3_exhaustion_ends_game``),
                      side B at <= boosted_max modules incl. central
    ES_TURN_END       EV_TURN_END, and the next seat clockwise starts its turn

``destruction_check = immediate`` is handled by the rules driver: once an activation's owner
decisions are settled and a robot owes more discards than it has modules, the turn goes straight
to this end phase, whose E0 destroys the robot and ends the game (no further activation).
"""

from __future__ import annotations

import numpy as np

from simlab.core import kernels
from simlab.core.jit import kernel
from simlab.core.kernels import bind, rank_seats
from simlab.games.steel_arena.codes import (
    BOX_PER_ROW,
    DR_OWN_TURN,
    DR_TEAM_MATE,
    DR_TROPHY,
    EV_AUTOCOOL,
    EV_DESTROYED,
    EV_DISCARD,
    EV_END_CHECK,
    EV_END_STEP,
    EV_GAME_END,
    EV_LIMIT_DISCARD,
    EV_PICKUP,
    EV_REFILL,
    EV_SIDE_SWITCH,
    EV_SNAP_BOX,
    EV_SNAP_CELL,
    EV_SNAP_MISC,
    EV_SNAP_MOD,
    EV_SNAP_ROBOT,
    EV_SNAP_TROPHY,
    EV_STACK_EXHAUSTED,
    EV_TURN_END,
    EV_TURN_START,
    OPT_AUTOCOOL_ACTIVE_ONLY,
    OPT_BATCH_DISCARDS,
    OPT_BOOSTED_MAX,
    OPT_DISCARD_AFTER_PICKUP,
    OPT_GEN3_TERRAIN_UP,
    OPT_NORMAL_MIN,
    OPT_TEAM_GEN3_ENDS,
    OPT_TEAM_INDIVIDUAL_END,
    OPT_TEAM_TROPHIES_TO_END,
    OPT_TIE_CENTRAL,
    OPT_TROPHIES_TO_END,
    OPT_TURN_LIMIT,
)
from simlab.games.steel_arena.data import T_AUTOCOOL, T_TYPE
from simlab.games.steel_arena.hits import robot_at
from simlab.games.steel_arena.hits import send_to_box as to_box
from simlab.games.steel_arena.state import (
    END_DESTROYED,
    END_GEN3,
    END_NONE,
    END_TEAM_TROPHIES,
    END_TROPHIES,
    END_TURN_LIMIT,
    M_LIMIT,
    MAX_PICKUPS,
    MAX_PLAYERS,
    PH_ACTIVE,
    PH_DISCARD,
    PH_LIMIT,
    PH_OVER,
    PH_PLACE,
)

# kernels take scalar arguments as int64 (and flags as bool): one compiled specialisation each
i64 = np.int64

log_event = bind(kernels.log_event)

TYPE_TERRAIN = 4

# end-phase steps (``s.end_step``)
ES_BEGIN = 0
ES_DISCARDS = 1
ES_CHECK_DISCARDS = 2
ES_PICKUP = 3
ES_CHECK_LIMIT = 4
ES_AFTER_PICKUP = 5
ES_E2 = 6
ES_E3 = 7
ES_E4 = 8
ES_E5 = 9
ES_TURN_END = 10



@kernel
def remove_slot(s, p: int, slot: int) -> int:
    """Take module ``slot`` off robot ``p`` (slots stay packed; its token leaves the supply count).

    Returns the instance.
    """
    inst = s.mods[p, slot]
    if s.heat[p, slot]:
        s.tokens -= 1
    last = s.n_mods[p] - 1
    for m in range(slot, last):
        s.mods[p, m] = s.mods[p, m + 1]
        s.heat[p, m] = s.heat[p, m + 1]
        s.used[p, m] = s.used[p, m + 1]
        s.def_used[p, m] = s.def_used[p, m + 1]
        s.revealed[p, m] = s.revealed[p, m + 1]
        s.mod_type[p, m] = s.mod_type[p, m + 1]
    s.mods[p, last] = -1
    s.heat[p, last] = 0
    s.used[p, last] = 0
    s.def_used[p, last] = 0
    s.revealed[p, last] = 0
    s.mod_type[p, last] = -1
    s.n_mods[p] = last
    return inst


@kernel
def next_seat(s, p: int) -> int:
    """The next seat clockwise after ``p`` whose robot is on the field (``p`` itself if none)."""
    n = s.n_players
    for k in range(1, n + 1):
        q = (p + k) % n
        if s.placed[q] and s.cell[q] >= 0 and not s.destroyed[q]:
            return q
    return p


@kernel
def team_totals(s) -> tuple[int, int]:
    """Trophies of team 0 and team 1 (seats by ``team_of``)."""
    t0 = 0
    t1 = 0
    for p in range(s.n_players):
        if s.team_of[p] == 0:
            t0 += s.n_trophies[p]
        else:
            t1 += s.n_trophies[p]
    return t0, t1


# ---------------------------------------------------------------- turn start and snapshot


@kernel
def snapshot(s, log) -> None:
    """The EV_SNAP_* rows of a turn start (robots, modules, cells, trophies, supply counts, the box's contents)."""
    if log.shape[0] <= 1:
        return
    for p in range(s.n_players):
        row = log_event(log, EV_SNAP_ROBOT)
        if row >= 0:
            log[row, 1] = p
            log[row, 2] = s.cell[p]
            log[row, 3] = s.facing[p]
            log[row, 4] = s.side[p]
            log[row, 5] = s.n_mods[p]
            log[row, 6] = s.central_heat[p]
            log[row, 7] = s.destroyed[p]
            log[row, 8] = s.pending_dmg[p]
            log[row, 9] = s.n_trophies[p]
        for m in range(s.n_mods[p]):
            row = log_event(log, EV_SNAP_MOD)
            if row >= 0:
                log[row, 1] = p
                log[row, 2] = m
                log[row, 3] = s.mods[p, m]
                log[row, 4] = s.heat[p, m]
                log[row, 5] = s.revealed[p, m]
                log[row, 6] = s.used[p, m]
                log[row, 7] = s.def_used[p, m]
    for c in range(s.n_cells):
        row = log_event(log, EV_SNAP_CELL)
        if row >= 0:
            log[row, 1] = c
            log[row, 2] = s.cell_tile[c]
            log[row, 3] = s.cell_up[c]
    for p in range(s.n_players):
        for k in range(s.n_trophies[p]):
            row = log_event(log, EV_SNAP_TROPHY)
            if row >= 0:
                log[row, 1] = p
                log[row, 2] = s.trophies[p, k]
    row = log_event(log, EV_SNAP_MISC)
    if row >= 0:
        log[row, 1] = s.stack_n
        log[row, 2] = s.box_n
        log[row, 3] = s.tokens
    for k0 in range(0, s.box_n, BOX_PER_ROW):
        row = log_event(log, EV_SNAP_BOX)
        if row >= 0:
            k1 = min(k0 + BOX_PER_ROW, s.box_n)
            log[row, 1] = k1 - k0
            for k in range(k0, k1):
                log[row, 2 + k - k0] = s.box[k]


@kernel
def start_turn(s, p: int, log) -> None:
    """Seat ``p`` starts a turn: once-per-turn marks cleared for every robot, EV_TURN_START + snapshot."""
    s.turn += 1
    s.active = p
    s.actor = p
    s.phase = PH_ACTIVE
    for q in range(MAX_PLAYERS):
        for m in range(M_LIMIT + 1):
            s.used[q, m] = 0
            s.def_used[q, m] = 0
        s.central_used[q] = 0
        s.central_def_used[q] = 0
    s.n_activations = 0
    s.may_continue = 0
    s.last_module = -1
    s.discard_seat = -1
    s.end_step = ES_BEGIN
    s.resume_phase = PH_ACTIVE
    s.st_turns[p] += 1
    row = log_event(log, EV_TURN_START)
    if row >= 0:
        log[row, 1] = s.turn
        log[row, 2] = p
    snapshot(s, log)


@kernel
def after_placement(s, log) -> None:
    """The next seat clockwise places its robot, or turn 1 starts with the first player."""
    if s.n_placed >= s.n_players:
        start_turn(s, i64(s.first_player), log)
    else:
        s.phase = PH_PLACE
        s.active = (s.active + 1) % s.n_players  # the seat that placed last (the actor may be a discarder)
        s.actor = s.active


# ---------------------------------------------------------------- game end


@kernel
def game_end(s, reason: int, trigger: int, opts, log) -> None:
    """Final scoring (NOTES I.14.2, II.23, II.38): trophies, then remaining modules, then a draw.

    Team mode: team trophies, then team modules; both team-mates get the team's rank.
    """
    n = s.n_players
    rows = 2 if s.team else n  # team mode ranks the two teams, and each seat gets its team's rank
    keys = np.zeros((rows, 2), dtype=np.int64)
    rank = np.zeros(rows, dtype=np.int64)
    winner = np.zeros(rows, dtype=np.int64)
    for p in range(n):
        if s.destroyed[p]:
            s.final_modules[p] = 0
        else:
            s.final_modules[p] = s.n_mods[p] + (1 if opts[OPT_TIE_CENTRAL] else 0)
        row = s.team_of[p] if s.team else p
        keys[row, 0] += s.n_trophies[p]
        keys[row, 1] += s.final_modules[p]
    rank_seats(keys, rows, rank, winner)
    mask = 0
    nw = 0
    for p in range(n):
        row = s.team_of[p] if s.team else p
        s.rank[p] = rank[row]
        s.winner[p] = winner[row]
        if winner[row]:
            mask |= 1 << p
            nw += 1
    s.end_reason = reason
    s.end_trigger = trigger
    s.over = 1
    s.phase = PH_OVER
    row = log_event(log, EV_GAME_END)
    if row >= 0:
        log[row, 1] = reason
        log[row, 2] = trigger
        log[row, 3] = mask
        log[row, 4] = nw


@kernel
def end_check(s, opts, log) -> bool:
    """The end conditions of NOTES I.14.1 / I.15.2 / II.23 (EV_END_CHECK); ends the game when met."""
    reason = END_NONE
    trigger = -1
    n = s.n_players
    for k in range(n):
        q = (s.active + k) % n
        if s.destroyed[q]:
            reason = END_DESTROYED
            trigger = q
            break
    t0, t1 = team_totals(s)
    team_goal = opts[OPT_TEAM_TROPHIES_TO_END]
    if reason == END_NONE and s.team and (t0 >= team_goal or t1 >= team_goal):
        reason = END_TEAM_TROPHIES
        trigger = s.active
    if reason == END_NONE and (not s.team or opts[OPT_TEAM_INDIVIDUAL_END]):
        for k in range(n):
            q = (s.active + k) % n
            if s.n_trophies[q] >= opts[OPT_TROPHIES_TO_END]:
                reason = END_TROPHIES
                trigger = q
                break
    row = log_event(log, EV_END_CHECK)
    if row >= 0:
        log[row, 1] = reason
        for p in range(MAX_PLAYERS):
            log[row, 2 + p] = s.n_trophies[p] if p < n else 0
        log[row, 6] = t0 if s.team else -1
        log[row, 7] = t1 if s.team else -1
    if reason != END_NONE:
        game_end(s, i64(reason), i64(trigger), opts, log)
        return True
    return False


# ---------------------------------------------------------------- discards and pickup


@kernel
def discard(s, q: int, slot: int, log) -> None:
    """Robot ``q`` discards module ``slot`` for one pending damage (E0): trophy of the active seat or box."""
    inst = remove_slot(s, i64(q), i64(slot))
    a = s.active
    if q == a:
        dest = -1
        reason = DR_OWN_TURN
        to_box(s, i64(inst))
    elif s.team and s.team_of[q] == s.team_of[a]:
        dest = -1
        reason = DR_TEAM_MATE
        to_box(s, i64(inst))
    else:
        dest = a
        reason = DR_TROPHY
        s.trophies[a, s.n_trophies[a]] = inst
        s.n_trophies[a] += 1
    s.st_lost[q] += 1
    s.pending_dmg[q] -= 1
    row = log_event(log, EV_DISCARD)
    if row >= 0:
        log[row, 1] = q
        log[row, 2] = inst
        log[row, 3] = dest
        log[row, 4] = reason
        log[row, 5] = s.pending_dmg[q]


@kernel
def forced_discards(s, q: int, log) -> None:
    """Pending damage >= modules: every module goes without asking; more than that destroys the robot."""
    destroy = s.pending_dmg[q] > s.n_mods[q]
    while s.n_mods[q] > 0:
        discard(s, i64(q), i64(s.n_mods[q] - 1), log)
    s.pending_dmg[q] = 0
    if destroy:
        s.destroyed[q] = 1
        row = log_event(log, EV_DESTROYED)
        if row >= 0:
            log[row, 1] = q


@kernel
def limit_discard(s, slot: int, log) -> None:
    """The module-limit discard of the active robot: its own trophy (NOTES I.13.2)."""
    a = s.active
    inst = remove_slot(s, i64(a), i64(slot))
    s.trophies[a, s.n_trophies[a]] = inst
    s.n_trophies[a] += 1
    row = log_event(log, EV_LIMIT_DISCARD)
    if row >= 0:
        log[row, 1] = a
        log[row, 2] = inst


@kernel
def pickup(s, tiles, pool, log) -> None:
    """E1: the active robot takes the module tile under it (terrain stays; nothing on an empty cell)."""
    a = s.active
    c = s.cell[a]
    if not s.placed[a] or c < 0 or s.destroyed[a]:
        return
    inst = s.cell_tile[c]
    if inst < 0:
        got = -2
    elif s.cell_type[c] == TYPE_TERRAIN:
        got = -1
    else:
        got = inst
        t = tiles[pool[inst], T_TYPE]
        m = s.n_mods[a]
        s.mods[a, m] = inst
        s.mod_type[a, m] = t
        s.heat[a, m] = 0
        s.used[a, m] = 1  # usable from the owner's next turn
        s.def_used[a, m] = 1  # a defence module works from the next player's turn
        s.revealed[a, m] = s.expert
        s.n_mods[a] = m + 1
        s.cell_tile[c] = -1
        s.cell_type[c] = -1
        s.cell_up[c] = 0
        s.st_picked[a, t] += 1
        k = s.n_picks[a]
        if k < MAX_PICKUPS:
            s.pick_design[a, k] = pool[inst]
            s.pick_turn[a, k] = s.turn
        s.n_picks[a] = k + 1
    row = log_event(log, EV_PICKUP)
    if row >= 0:
        log[row, 1] = a
        log[row, 2] = c
        log[row, 3] = got


@kernel
def side_switch(s, step: int, opts, log) -> None:
    """E2 (step 2: side A at >= normal_min) or E5 (step 5: side B at <= boosted_max), every robot."""
    for p in range(s.n_players):
        if not s.placed[p] or s.destroyed[p]:
            continue
        count = s.n_mods[p] + 1
        before = s.side[p]
        if step == 2 and before == 1 and count >= opts[OPT_NORMAL_MIN]:
            s.side[p] = 0
        elif step == 5 and before == 0 and count <= opts[OPT_BOOSTED_MAX]:
            s.side[p] = 1
        else:
            continue
        row = log_event(log, EV_SIDE_SWITCH)
        if row >= 0:
            log[row, 1] = p
            log[row, 2] = step
            log[row, 3] = count
            log[row, 4] = before
            log[row, 5] = s.side[p]


@kernel
def autocool(s, tiles, pool, opts, log) -> None:
    """E3: tokens on auto-cool modules come off (every robot, or the active one only)."""
    for p in range(s.n_players):
        if opts[OPT_AUTOCOOL_ACTIVE_ONLY] and p != s.active:
            continue
        for m in range(s.n_mods[p]):
            if s.heat[p, m] and tiles[pool[s.mods[p, m]], T_AUTOCOOL]:
                s.heat[p, m] = 0
                s.tokens -= 1
                row = log_event(log, EV_AUTOCOOL)
                if row >= 0:
                    log[row, 1] = p
                    log[row, 2] = m
                    log[row, 3] = s.mods[p, m]


@kernel
def refill(s, tiles, pool, opts, log) -> bool:
    """E4: every empty cell without a robot gets the top gen-3 tile; True when the game ended."""
    for c in range(s.n_cells):
        if s.cell_tile[c] >= 0 or robot_at(s, i64(c)) >= 0:
            continue
        if s.stack_n == 0:
            row = log_event(log, EV_STACK_EXHAUSTED)
            if row >= 0:
                log[row, 1] = c
            if not s.team or opts[OPT_TEAM_GEN3_ENDS]:
                game_end(s, i64(END_GEN3), i64(c), opts, log)
                return True
            return False
        s.stack_n -= 1
        inst = s.stack[s.stack_n]
        s.stack[s.stack_n] = -1
        t = tiles[pool[inst], T_TYPE]
        s.cell_tile[c] = inst
        s.cell_type[c] = t
        up = 1 if (s.expert or (t == TYPE_TERRAIN and opts[OPT_GEN3_TERRAIN_UP])) else 0
        s.cell_up[c] = up
        row = log_event(log, EV_REFILL)
        if row >= 0:
            log[row, 1] = c
            log[row, 2] = inst
            log[row, 3] = up
            log[row, 4] = s.stack_n
    return False


@kernel
def _end_step(s, step: int, log) -> None:
    row = log_event(log, EV_END_STEP)
    if row >= 0:
        log[row, 1] = step
        log[row, 2] = s.active


# ---------------------------------------------------------------- the end-phase machine


@kernel
def run_end_phase(s, tiles, pool, opts, log) -> None:
    """Run the end phase from ``s.end_step`` until an owner decision, the game end or the next turn."""
    after = opts[OPT_DISCARD_AFTER_PICKUP] != 0
    n = s.n_players
    while True:
        st = s.end_step
        if st == ES_BEGIN:
            if after:
                s.end_step = ES_PICKUP
            else:
                _end_step(s, i64(0), log)
                s.end_step = ES_DISCARDS
        elif st == ES_DISCARDS:
            q = -1
            for k in range(n):
                r = (s.active + k) % n
                if s.pending_dmg[r] > 0:
                    q = r
                    break
            if q < 0:
                s.discard_seat = -1
                s.end_step = ES_CHECK_DISCARDS
                continue
            if s.pending_dmg[q] >= s.n_mods[q]:
                forced_discards(s, q, log)
                if not opts[OPT_BATCH_DISCARDS] and end_check(s, opts, log):
                    return
                continue
            s.discard_seat = q
            s.actor = q
            s.phase = PH_DISCARD
            return
        elif st == ES_CHECK_DISCARDS:
            if end_check(s, opts, log):
                return
            if s.turn == 0:  # discards of a start placement that set off terrain
                after_placement(s, log)
                return
            s.end_step = ES_E2 if after else ES_PICKUP
        elif st == ES_PICKUP:
            _end_step(s, i64(1), log)
            pickup(s, tiles, pool, log)
            if s.n_mods[s.active] > M_LIMIT:
                s.end_step = ES_CHECK_LIMIT
                s.actor = s.active
                s.phase = PH_LIMIT
                return
            s.end_step = ES_AFTER_PICKUP
        elif st == ES_CHECK_LIMIT:
            if end_check(s, opts, log):
                return
            s.end_step = ES_AFTER_PICKUP
        elif st == ES_AFTER_PICKUP:
            if after:
                _end_step(s, i64(0), log)
                s.end_step = ES_DISCARDS
            else:
                s.end_step = ES_E2
        elif st == ES_E2:
            _end_step(s, i64(2), log)
            side_switch(s, i64(2), opts, log)
            s.end_step = ES_E3
        elif st == ES_E3:
            _end_step(s, i64(3), log)
            autocool(s, tiles, pool, opts, log)
            s.end_step = ES_E4
        elif st == ES_E4:
            _end_step(s, i64(4), log)
            if refill(s, tiles, pool, opts, log):
                return
            s.end_step = ES_E5
        elif st == ES_E5:
            _end_step(s, i64(5), log)
            side_switch(s, i64(5), opts, log)
            s.end_step = ES_TURN_END
        else:
            row = log_event(log, EV_TURN_END)
            if row >= 0:
                log[row, 1] = s.turn
                log[row, 2] = s.active
            if opts[OPT_TURN_LIMIT] > 0 and s.turn >= opts[OPT_TURN_LIMIT]:  # the simulator's safeguard
                game_end(s, i64(END_TURN_LIMIT), i64(-1), opts, log)
                return
            start_turn(s, i64(next_seat(s, s.active)), log)
            return


@kernel
def begin_end_phase(s, tiles, pool, opts, log) -> None:
    """The active phase is over: the end phase starts at E0."""
    s.end_step = ES_BEGIN
    s.may_continue = 0
    run_end_phase(s, tiles, pool, opts, log)


@kernel
def apply_discard(s, slot: int, tiles, pool, opts, log) -> None:
    """PH_DISCARD: the discarding robot gives up ``slot``; then the end phase goes on."""
    q = s.discard_seat
    discard(s, i64(q), i64(slot), log)
    if s.pending_dmg[q] == 0 and not opts[OPT_BATCH_DISCARDS] and end_check(s, opts, log):
        return
    run_end_phase(s, tiles, pool, opts, log)


@kernel
def apply_limit(s, slot: int, tiles, pool, opts, log) -> None:
    """PH_LIMIT: the active robot discards ``slot`` (its own trophy); then the end check and on."""
    limit_discard(s, slot, log)
    run_end_phase(s, tiles, pool, opts, log)
