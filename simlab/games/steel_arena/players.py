"""Steel Arena's built-in compiled players and their parameters.

A compiled player is a kind number and a float64 parameter vector (the parameters in the order
``BUILTIN_PLAYERS`` lists them). The batch loop and the Python driver both call

    choose_action(kind, params, s_arr, legal, n_legal, tiles, pool, robots, setup_tab, cells, nbr, opts)

``s_arr`` is the one-element state array, ``legal[:n_legal]`` the legal actions of the seat to act
(``s.actor``); a player's randomness comes only from its seat's own stream (``STREAM_SEAT0 + seat``).

**Decisions.** Every player answers every phase: robot placement (PH_PLACE), the activations of a
turn (PH_ACTIVE, PH_CONTINUE) and the owner decisions asked mid-resolution or in the end phase
(PH_HEAT, PH_WATER, PH_DISCARD, PH_LIMIT). The heuristics and the search share one owner policy
built on a module value function (``VALUE_WEIGHTS``): lose the least valuable module, absorb
heat as long as any token-free module is left (modules that shed the token at once first, then the
least valuable), cool the most valuable overheated module.

**Heuristics** (brawler, sniper, collector) are one-ply: each legal activation (and the cool or
stop) is applied to a copy of the state and the resulting position is scored for the seat
(``evaluate``). The copy is *determinized* first: what the seat has not seen (face-down field
tiles, the generation-3 stack, the other robots' unrevealed modules, the tiles boxed unseen at
setup) is re-dealt among those places, each keeping its visible type, with draws from the seat's
own stream, so no player reads hidden tiles. The scores differ only in their weights: trophies and
the damage and heat pending on enemies, the value of the own modules, overheat tokens carried,
distance to the nearest enemy, the damage its ready attacks could deal from where it ends (and the
enemies' at it), neighbours, cover, module tiles nearby, facing. Attacks that hit nothing (a cell
without terrain, no splash) and the wear rule (b) on a token-free module are not scored. The
brawler (``score_activations``) scores each activation where it ends, before the owner decisions
and the end phase, which ``evaluate(..., before_end=True)`` counts in (pending damage and heat, the
module tile it stands on as picked up); ``brawler_v1``, the sniper and the collector
(``score_actions``) apply each candidate through them.

**Games must end** (the rulebook has no turn limit): a heuristic that cannot hurt the nearest enemy
from its side (armour) goes collecting instead, cooling with nothing to cool costs ``W_PASS``, and
after ``STALL_TURNS`` turns per seat every tile the generation-3 stack loses is worth ``STALL_PULL``,
so pickups run the stack down to the game's end.

**Search** runs determinized playouts of a few turns (brawler for every seat) for its best
candidates; it touches only copies, and draws only from its own seat's stream.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core import kernels
from simlab.core.game import BuiltinPlayer
from simlab.core.jit import kernel
from simlab.core.kernels import bind
from simlab.core.rng import below, derive_key
from simlab.games.steel_arena.codes import (
    A_ACT,
    A_COOL,
    A_NONE,
    A_PICK,
    A_PLACE,
    A_STOP,
    MAX_ACTIONS,
    OPT_COVER_VALUE,
    OPT_TEAM_TROPHIES_TO_END,
    OPT_TROPHIES_TO_END,
    PARAM_SPAN,
    SLOT_C_ATTACK,
    SLOT_CENTRAL,
)
from simlab.games.steel_arena.data import (
    R_ARMOUR_ARC,
    R_ARMOUR_VALUE,
    R_DAMAGE,
    R_DELIVERY,
    T_ARMOUR_ARC,
    T_ARMOUR_VALUE,
    T_AUTOCOOL,
    T_COVER,
    T_DAMAGE,
    T_DELIVERY,
    T_GENERATION,
    T_HEAT,
    T_INTERFERENCE,
    T_MOVE_KIND,
    T_MOVE_MAX,
    T_MOVE_MIN,
    T_NEEDS_ACTIVATION,
    T_ONESHOT,
    T_PASSIVE,
    T_PUSH,
    T_ROTATE_MAX,
    T_ROTATE_MIN,
    T_SPEED,
    T_SPLASH,
    T_TYPE,
    T_WHIRL,
)
from simlab.games.steel_arena.hexgrid import DIRECTIONS, arc_covers
from simlab.games.steel_arena.rules import activate, apply_action, cool_all, legal_actions, new_log
from simlab.games.steel_arena.state import (
    MAX_PLAYERS,
    MAX_TILES,
    N_STREAMS,
    PH_ACTIVE,
    PH_CONTINUE,
    PH_DISCARD,
    PH_HEAT,
    PH_LIMIT,
    PH_PLACE,
    PH_WATER,
    STATE_DTYPE,
    STREAM_SEAT0,
)

# kernels take scalar arguments as int64 (and flags as bool): one compiled specialisation each
i64 = np.int64
b1 = np.bool_

next_u64 = bind(kernels.next_u64)  # the shared helper, compiled here so numba inlines it

KIND_RANDOM = 0
KIND_BRAWLER = 1
KIND_SNIPER = 2
KIND_COLLECTOR = 3
KIND_SEARCH = 4
KIND_BRAWLER_V1 = 5  # the brawler before the end-of-activation look (issue 24): kept for strength benchmarks
N_PARAMS = 8

TY_ATTACK, TY_MOVE, TY_ROTATE, TY_DEFENCE, TY_TERRAIN = range(5)
DL_DIRECT, DL_ARC, DL_BEAM, DL_MELEE, DL_SWEEP = range(5)
MK_JUMP = 2
ARC_SIDE, ARC_ALL = 1, 2

BUILTIN_PLAYERS: dict[str, BuiltinPlayer] = {
    "random": BuiltinPlayer(
        "random",
        KIND_RANDOM,
        {},
        "uniform over the legal actions in every decision (placement, activations, owner choices)",
        {},
    ),
    "brawler": BuiltinPlayer(
        "brawler",
        KIND_BRAWLER,
        {"damage": 1.0, "heat": 0.3, "approach": 0.25, "aim": 0.5, "exposure": 0.1, "module_weight": 0.5,
         "token_cost": 0.1, "tile_pull": 0.2},
        "closes in and attacks: the activation whose result scores best for damage dealt (after the "
        "target's armour), getting an enemy into its line of fire and closing the distance; cools "
        "when nothing useful is possible; starts near the centre facing inwards",
        {
            "damage": "value of one module an enemy will lose (a trophy) to this activation",
            "heat": "value of one heat unit an enemy must absorb with a token",
            "approach": "value of each hex closer to the nearest enemy",
            "aim": "value per point of damage its ready attacks would deal from where it ends",
            "exposure": "cost per point of damage the enemies' ready attacks aim at it",
            "module_weight": "value of its modules (times the module value function) kept",
            "token_cost": "cost of each overheated module it carries (what makes cooling worth it)",
            "tile_pull": "value of a module tile next to it (divided by the distance for farther ones)",
        },
    ),
    "brawler_v1": BuiltinPlayer(
        "brawler_v1",
        KIND_BRAWLER_V1,
        {"damage": 1.0, "heat": 0.3, "approach": 0.25, "aim": 0.5, "exposure": 0.1, "module_weight": 0.5,
         "token_cost": 0.1, "tile_pull": 0.2},
        "the brawler before issue 24, kept to benchmark the brawler against: the same score, taken "
        "after running each activation through the end phase (about 40% slower)",
        {
            "damage": "value of one module an enemy will lose (a trophy) to this activation",
            "heat": "value of one heat unit an enemy must absorb with a token",
            "approach": "value of each hex closer to the nearest enemy",
            "aim": "value per point of damage its ready attacks would deal from where it ends",
            "exposure": "cost per point of damage the enemies' ready attacks aim at it",
            "module_weight": "value of its modules (times the module value function) kept",
            "token_cost": "cost of each overheated module it carries (what makes cooling worth it)",
            "tile_pull": "value of a module tile next to it (divided by the distance for farther ones)",
        },
    ),
    "sniper": BuiltinPlayer(
        "sniper",
        KIND_SNIPER,
        {"damage": 1.0, "heat": 0.3, "aim": 0.6, "min_range": 2.0, "adjacent_cost": 0.6, "cover": 0.4,
         "exposure": 0.35, "token_cost": 0.1},
        "keeps its distance: attacks from range, ends its moves with a target in its line of fire at "
        "distance >= min_range, prefers cover, avoids ending next to an enemy or in its line of fire",
        {
            "damage": "value of one module an enemy will lose (a trophy) to this activation",
            "heat": "value of one heat unit an enemy must absorb with a token",
            "aim": "value per point of damage its ready attacks would deal at distance >= min_range",
            "min_range": "the distance from which aiming counts",
            "adjacent_cost": "cost of each enemy on a neighbouring cell",
            "cover": "value of standing on cover terrain",
            "exposure": "cost per point of damage the enemies' ready attacks aim at it",
            "token_cost": "cost of each overheated module it carries (what makes cooling worth it)",
        },
    ),
    "collector": BuiltinPlayer(
        "collector",
        KIND_COLLECTOR,
        {"module_weight": 1.0, "tile_pull": 0.6, "damage": 0.7, "aim": 0.15, "exposure": 0.15,
         "token_cost": 0.1},
        "grows its robot first: moves onto module tiles (its end phase picks them up), heads for the "
        "nearest one, and attacks when that is worth more than a pickup",
        {
            "module_weight": "value of its modules (times the module value function) kept or gained",
            "tile_pull": "value of a module tile next to it (divided by the distance for farther ones)",
            "damage": "value of one module an enemy will lose (a trophy) to this activation",
            "aim": "value per point of damage its ready attacks would deal from where it ends",
            "exposure": "cost per point of damage the enemies' ready attacks aim at it",
            "token_cost": "cost of each overheated module it carries (what makes cooling worth it)",
        },
    ),
    "search": BuiltinPlayer(
        "search",
        KIND_SEARCH,
        {"playouts": 8.0, "candidates": 6.0, "depth": 2.0, "module_weight": 0.1, "win_bonus": 3.0, "leaf_weight": 1.0},
        "determinized Monte Carlo over its activations: the brawler's best candidates, each played "
        "out a few turns (brawler for every seat) on copies where unseen tiles are re-dealt",
        {
            "playouts": "playouts per candidate (each on a fresh determinization, shared by all candidates)",
            "candidates": "how many of the brawler's best activations are tried (0: all)",
            "depth": "turns per playout, counting the current one (2: this turn and the next seat's)",
            "module_weight": "weight of the module count difference in a playout's score",
            "win_bonus": "added to a playout's score for a game won in it (subtracted for one lost)",
            "leaf_weight": "weight of the brawler's evaluation of the final position (less its trophy part; "
                           "+-100 for a game won or lost)",
        },
        slow=True,
    ),
}


def _default_params() -> np.ndarray:
    table = np.zeros((len(BUILTIN_PLAYERS), N_PARAMS))
    for info in BUILTIN_PLAYERS.values():
        for i, value in enumerate(info.params.values()):
            table[info.kind, i] = value
    return table


# Default parameter vector per kind (a compile-time constant: the search's playouts use the brawler's).
DEFAULT_PARAMS = _default_params()

# The module value function (``module_value``), in "modules" (a plain module is worth ``base``):
VALUE_WEIGHTS = {
    "base": 1.0,  # every module: one tile of protection, one tie-break point
    "damage": 0.45,  # attack: per point of damage (splash x1.5, heat x0.5, push/whirl x0.3; arc and beam x1.2)
    "step": 0.15,  # movement and rotation: per tile or sector of reach (jumps x1.3, side-forward x1.1)
    "armour": 0.4,  # defence: per point of armour (front arc x0.5, side x0.8, all-round x1)
    "speed": 0.35,  # speed: allows a further activation
    "autocool": 0.2,  # auto-cool: never needs cooling
    "oneshot": 0.6,  # one-shot: the whole value is scaled by this
    "central": 2.5,  # the central module's token (heat absorption and water only)
}
_VW = np.array(list(VALUE_WEIGHTS.values()))
VW_BASE, VW_DAMAGE, VW_STEP, VW_ARMOUR, VW_SPEED, VW_AUTOCOOL, VW_ONESHOT, VW_CENTRAL = range(8)

# Internal weights of the one-ply evaluation (each heuristic sets some of them from its parameters).
(W_DMG, W_HEAT, W_SELF, W_MOD, W_TOKEN, W_APPROACH, W_AIM, W_MINRANGE, W_EXPOSE, W_ADJ, W_COVER, W_TILE,
 W_CONT, W_FACE, W_CENTRE, W_START_MODULE, W_TURN_TO, W_OPEN, W_PASS) = range(19)
N_W = 19
# the rest of ``w`` is per-decision scratch (``weights_size``): the armour each robot puts against a hit
# from each relative sector (reset by every ``evaluate``), then each design's module value
ARM0 = N_W
MV0 = ARM0 + MAX_PLAYERS * 6
WIN_SCORE = 100.0  # a won (lost) game in the evaluation
END_SCORE = 30.0  # a game the projected trophies end at once
STALL_TURNS = 40  # after this many turns per seat the heuristics stop fighting and collect (games end)
POINTLESS = -1e17  # the score of an action not worth scoring
STALL_PULL = 2.0  # ... valuing each tile the generation-3 stack loses (pickups refill from it) this much


# ---------------------------------------------------------------- small helpers


@njit(cache=True, inline="always")
def _is_enemy(s, p: int, q: int) -> bool:
    return q != p and (s.team == 0 or s.team_of[q] != s.team_of[p])


@njit(cache=True, inline="always")
def _robot_at(s, c: int) -> int:
    for q in range(s.n_players):
        if s.placed[q] and s.cell[q] == c:
            return q
    return -1


@njit(cache=True, inline="always")
def _hex_distance(cells, a: int, b: int) -> int:
    dq = cells[b, 0] - cells[a, 0]
    dr = cells[b, 1] - cells[a, 1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@njit(cache=True, inline="always")
def _on_field(s, q: int) -> bool:
    return s.placed[q] != 0 and s.cell[q] >= 0 and s.destroyed[q] == 0


@kernel
def module_value(tiles, d: int) -> float:
    """The value of a module of design row ``d`` (``VALUE_WEIGHTS``): what the owner policy keeps."""
    t = tiles[d, T_TYPE]
    v = _VW[VW_BASE]
    if t == TY_ATTACK:
        dl = tiles[d, T_DELIVERY]
        f = 1.2 if dl in (DL_ARC, DL_BEAM) else 1.0
        v += _VW[VW_DAMAGE] * f * (tiles[d, T_DAMAGE] + 1.5 * tiles[d, T_SPLASH] + 0.5 * tiles[d, T_HEAT]
                                   + 0.3 * (tiles[d, T_PUSH] + tiles[d, T_WHIRL]))
    elif t == TY_MOVE:
        f = 1.3 if tiles[d, T_MOVE_KIND] == MK_JUMP else (1.1 if tiles[d, T_MOVE_KIND] == 1 else 1.0)
        v += _VW[VW_STEP] * f * (tiles[d, T_MOVE_MAX] + 0.5 * (tiles[d, T_MOVE_MAX] - tiles[d, T_MOVE_MIN]))
    elif t == TY_ROTATE:
        v += _VW[VW_STEP] * (tiles[d, T_ROTATE_MAX] + 0.5 * (tiles[d, T_ROTATE_MAX] - tiles[d, T_ROTATE_MIN]))
    elif t == TY_DEFENCE:
        arc = tiles[d, T_ARMOUR_ARC]
        f = 1.0 if arc == ARC_ALL else (0.8 if arc == ARC_SIDE else 0.5)
        v += _VW[VW_ARMOUR] * f * tiles[d, T_ARMOUR_VALUE]
    if tiles[d, T_SPEED]:
        v += _VW[VW_SPEED]
    if tiles[d, T_AUTOCOOL]:
        v += _VW[VW_AUTOCOOL]
    if tiles[d, T_ONESHOT]:
        v *= _VW[VW_ONESHOT]
    return v


@kernel
def _module_sum(s, q: int, tiles, pool, w) -> tuple[float, float]:
    """Sum and minimum of the module values of robot q (each design's value computed once per
    decision: ``w[MV0 + d]``, -1 until then, see ``heuristic_weights``)."""
    total = 0.0
    lo = 1e9
    for m in range(s.n_mods[q]):
        d = pool[s.mods[q, m]]
        v = w[MV0 + d]
        if v < 0.0:
            v = module_value(tiles, i64(d))
            w[MV0 + d] = v
        total += v
        if v < lo:
            lo = v
    if lo > 1e8:
        lo = 0.0
    return total, lo


@kernel
def _free_modules(s, q: int) -> int:
    """Modules of robot q that could take a heat token (token-free, the central module included)."""
    n = 0
    for m in range(s.n_mods[q]):
        if s.heat[q, m] == 0:
            n += 1
    if s.central_heat[q] == 0:
        n += 1
    return n


@kernel
def _tokens(s, q: int, tiles, pool) -> int:
    """Overheat tokens robot q carries that stay (auto-cool modules shed theirs at the end of the turn)."""
    n = 1 if s.central_heat[q] else 0
    for m in range(s.n_mods[q]):
        if s.heat[q, m] and not tiles[pool[s.mods[q, m]], T_AUTOCOOL]:
            n += 1
    return n


@njit(cache=True, inline="always")
def _interferes(s, c: int, tiles, pool) -> bool:
    inst = s.cell_tile[c]
    if inst < 0 or s.cell_type[c] != TY_TERRAIN:
        return False
    return tiles[pool[inst], T_INTERFERENCE] != 0


@kernel
def _armour(s, q: int, rel: int, tiles, pool, robots, opts) -> int:
    """Armour robot q would put against a hit from relative sector rel (passive and ready active
    defence, the central module's armour, cover)."""
    a = 0
    for m in range(s.n_mods[q]):
        if s.mod_type[q, m] != TY_DEFENCE:
            continue
        d = pool[s.mods[q, m]]
        if tiles[d, T_NEEDS_ACTIVATION]:
            if s.heat[q, m] == 0 and arc_covers(tiles[d, T_ARMOUR_ARC], rel):
                a += tiles[d, T_ARMOUR_VALUE]
        elif arc_covers(tiles[d, T_ARMOUR_ARC], rel):
            a += tiles[d, T_ARMOUR_VALUE]
    arc = robots[q, s.side[q], R_ARMOUR_ARC]
    if arc >= 0 and arc_covers(arc, rel):
        a += robots[q, s.side[q], R_ARMOUR_VALUE]
    c = s.cell[q]
    inst = s.cell_tile[c]
    if inst >= 0 and s.cell_type[c] == TY_TERRAIN and tiles[pool[inst], T_COVER]:
        a += opts[OPT_COVER_VALUE]
    return a


@njit(cache=True, inline="always")
def _armour_seen(s, q: int, rel: int, tiles, pool, robots, opts, w) -> int:
    """``_armour``, computed once per position: ``w[ARM0 + 6 q + rel]`` (-1 until then, reset by ``evaluate``)."""
    i = ARM0 + 6 * q + rel
    a = w[i]
    if a < 0.0:
        a = float(_armour(s, i64(q), i64(rel), tiles, pool, robots, opts))
        w[i] = a
    return int(a)


@njit(cache=True, inline="always")
def _hit(a: int, dmg: int, heat: int, heat_w: float) -> float:
    """Modules lost (plus heat_w per heat unit) by a robot with armour ``a`` hit by (dmg, heat): armour
    comes off the damage first, then the heat."""
    d = dmg - a
    rest = 0
    if d < 0:
        rest = -d
        d = 0
    h = heat - rest
    if h < 0:
        h = 0
    return d + heat_w * h


@kernel
def _best_ready_attack(s, p: int, only: int, min_range: int, heat_w: float, tiles, pool, robots, cells, nbr,
                       opts, w) -> float:
    """The best value among robot p's token-free attacks (modules and the central module) from where it
    stands: an attack is worth its best single target among p's enemies (``only`` >= 0: that robot only),
    the sum for beams and sweeps; targets closer than ``min_range`` do not count. Direct fire stops at the
    first robot or interfering terrain, melee reaches the cell ahead, arcs and beams the whole line."""
    # most positions have no target in reach: check the enemies' cells against the ray (and the
    # sweep's side cells) before walking the line
    c0 = s.cell[p]
    f = s.facing[p]
    found = False
    for q in range(s.n_players):
        if not _is_enemy(s, p, q) or (only >= 0 and q != only) or not _on_field(s, q):
            continue
        dq = cells[s.cell[q], 0] - cells[c0, 0]
        dr = cells[s.cell[q], 1] - cells[c0, 1]
        k = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        if k >= min_range and dq == k * DIRECTIONS[f, 0] and dr == k * DIRECTIONS[f, 1]:
            found = True
            break
        if k == 1 and min_range <= 1:
            for dirn in ((f + 1) % 6, (f + 5) % 6):
                if dq == DIRECTIONS[dirn, 0] and dr == DIRECTIONS[dirn, 1]:
                    found = True
    if not found:
        return 0.0
    # the targets, walked once: the armour each puts against this robot's hits (-1: no target there).
    # Along the line, in order: up to three targets (arc, beam), the one direct fire reaches, the one ahead
    ray0 = -1
    ray1 = -1
    ray2 = -1
    n_ray = 0
    direct = -1
    melee = -1
    blocked = False
    c = nbr[c0, f]
    k = 1
    while c >= 0:
        q = _robot_at(s, c)
        if q >= 0 and k >= min_range and _is_enemy(s, p, q) and (only < 0 or q == only):
            a = _armour_seen(s, q, (f + 3 - s.facing[q]) % 6, tiles, pool, robots, opts, w)
            if n_ray == 0:
                ray0 = a
            elif n_ray == 1:
                ray1 = a
            else:
                ray2 = a
            n_ray += 1
            if not blocked:
                direct = a
            if k == 1:
                melee = a
        if q >= 0 or _interferes(s, c, tiles, pool):
            blocked = True
        c = nbr[c, f]
        k += 1
    # the sweep's three cells (front, then the two front sides)
    sw0 = -1
    sw1 = -1
    sw2 = -1
    if min_range <= 1:
        for j in range(3):
            dirn = (f + (0, 1, 5)[j]) % 6
            c = nbr[c0, dirn]
            if c < 0:
                continue
            q = _robot_at(s, c)
            if q >= 0 and _is_enemy(s, p, q) and (only < 0 or q == only):
                a = _armour_seen(s, q, (dirn + 3 - s.facing[q]) % 6, tiles, pool, robots, opts, w)
                if j == 0:
                    sw0 = a
                elif j == 1:
                    sw1 = a
                else:
                    sw2 = a
    best = 0.0
    for m in range(-1, s.n_mods[p]):
        if m < 0:  # the central module
            if s.central_heat[p]:
                continue
            side = s.side[p]
            dl = robots[p, side, R_DELIVERY]
            dmg = robots[p, side, R_DAMAGE]
            heat = 0
        else:
            if s.heat[p, m] or s.mod_type[p, m] != TY_ATTACK:
                continue
            d = pool[s.mods[p, m]]
            dl = tiles[d, T_DELIVERY]
            dmg = tiles[d, T_DAMAGE] + tiles[d, T_SPLASH]
            heat = tiles[d, T_HEAT]
        v = 0.0
        if dl == DL_SWEEP:
            if sw0 >= 0:
                v += _hit(sw0, dmg, heat, heat_w)
            if sw1 >= 0:
                v += _hit(sw1, dmg, heat, heat_w)
            if sw2 >= 0:
                v += _hit(sw2, dmg, heat, heat_w)
        elif dl == DL_MELEE:
            if melee >= 0:
                v = _hit(melee, dmg, heat, heat_w)
        elif dl == DL_DIRECT:
            if direct >= 0:
                v = _hit(direct, dmg, heat, heat_w)
        elif dl == DL_BEAM:
            if ray0 >= 0:
                v += _hit(ray0, dmg, heat, heat_w)
            if ray1 >= 0:
                v += _hit(ray1, dmg, heat, heat_w)
            if ray2 >= 0:
                v += _hit(ray2, dmg, heat, heat_w)
        else:  # an arc: the best target on the line
            if ray0 >= 0:
                v = max(v, _hit(ray0, dmg, heat, heat_w))
            if ray1 >= 0:
                v = max(v, _hit(ray1, dmg, heat, heat_w))
            if ray2 >= 0:
                v = max(v, _hit(ray2, dmg, heat, heat_w))
        if v > best:
            best = v
    return best


@kernel
def _team_trophies(s, p: int) -> tuple[int, int]:
    """(trophies of p's side, the most trophies of another side): per team in team mode."""
    mine = 0
    other = 0
    if s.team:
        t_other = 0
        for q in range(s.n_players):
            if s.team_of[q] == s.team_of[p]:
                mine += s.n_trophies[q]
            else:
                t_other += s.n_trophies[q]
        other = t_other
    else:
        mine = s.n_trophies[p]
        for q in range(s.n_players):
            if q != p and s.n_trophies[q] > other:
                other = s.n_trophies[q]
    return mine, other


@kernel
def _can_hurt(s, p: int, q: int, tiles, pool, robots, cells, opts, w) -> bool:
    """Whether one of robot p's attacks (any, overheated or not) beats robot q's armour on q's side
    that faces p: otherwise fighting q from here is pointless for now."""
    dq = cells[s.cell[p], 0] - cells[s.cell[q], 0]
    dr = cells[s.cell[p], 1] - cells[s.cell[q], 1]
    ds = -dq - dr
    d_best = 0
    best_dot = -(1 << 30)
    for d in range(6):
        ddq = DIRECTIONS[d, 0]
        ddr = DIRECTIONS[d, 1]
        dot = dq * ddq + dr * ddr + ds * (-ddq - ddr)
        if dot > best_dot:
            best_dot = dot
            d_best = d
    lo = _armour_seen(s, q, (d_best - s.facing[q]) % 6, tiles, pool, robots, opts, w)
    side = s.side[p]
    if robots[p, side, R_DAMAGE] > lo:
        return True
    for m in range(s.n_mods[p]):
        if s.mod_type[p, m] != TY_ATTACK:
            continue
        d = pool[s.mods[p, m]]
        if tiles[d, T_DAMAGE] + tiles[d, T_HEAT] > lo or tiles[d, T_PUSH] > 0:
            return True
    return False


# ---------------------------------------------------------------- the one-ply evaluation


@kernel
def evaluate(g, p: int, w, tiles, pool, robots, cells, nbr, opts, before_end: bool) -> float:
    """The heuristics' score of position ``g`` for seat p (weights ``w``, indices W_*).

    Trophies count 1 each; the damage and heat pending on other robots count as the trophies
    (damage, times W_DMG) and tempo (absorbed heat, times W_HEAT) they will bring when p is the
    active seat; a game that ends (or will end at once) counts +-WIN_SCORE / END_SCORE.
    ``before_end``: ``g`` is taken at the end of an activation, before the end phase, so the module
    tile p stands on counts as the module it picks up at E1 (its value, and the tile the stack
    loses to refill the cell once the game drags on), not as a plain module.
    """
    for i in range(ARM0, MV0):  # armour seen in this position (``_armour_seen``)
        w[i] = -1.0
    mine, other = _team_trophies(g, p)
    if g.over:
        base = float(mine - other)
        return base + (WIN_SCORE if g.winner[p] else -WIN_SCORE)
    v = 0.0
    gain = 0
    ends = False
    own_turn = g.active == p
    for q in range(g.n_players):
        hd = g.pending_heat[q]
        dmg = g.pending_dmg[q]
        if hd == 0 and dmg == 0:
            continue
        absorbed = 0
        if hd > 0:
            free = _free_modules(g, q)
            absorbed = hd if hd < free else free
            dmg += hd - absorbed
        if dmg > g.n_mods[q]:
            ends = True  # destroyed at E0
            lost = g.n_mods[q]
        else:
            lost = dmg
        if q == p or not _is_enemy(g, p, q):
            _, lo = _module_sum(g, i64(q), tiles, pool, w)
            v -= w[W_SELF] * lost * (lo if lo > 1.0 else 1.0) + 0.5 * w[W_HEAT] * absorbed
        elif own_turn:
            gain += lost
            v += w[W_DMG] * lost + w[W_HEAT] * absorbed
    limit = opts[OPT_TEAM_TROPHIES_TO_END] if g.team else opts[OPT_TROPHIES_TO_END]
    if mine + gain >= limit:
        ends = True
    if ends:
        v += END_SCORE if mine + gain > other else -END_SCORE
    v += mine - other
    total, _ = _module_sum(g, i64(p), tiles, pool, w)
    v += w[W_MOD] * total
    v -= w[W_TOKEN] * _tokens(g, p, tiles, pool)
    if g.turn > STALL_TURNS * g.n_players:
        v -= STALL_PULL * g.stack_n  # a long game: every tile drawn brings its end closer
    if not _on_field(g, p):
        return v
    c0 = g.cell[p]
    # position: distance, aim, exposure, neighbours, cover, module tiles
    near = 99
    near_c = -1
    near_q = -1
    n_adj = 0
    expose = 0.0
    for q in range(g.n_players):
        if not _is_enemy(g, p, q) or not _on_field(g, q):
            continue
        dist = _hex_distance(cells, c0, g.cell[q])
        if dist < near:
            near = dist
            near_c = g.cell[q]
            near_q = q
        if dist == 1:
            n_adj += 1
        if w[W_EXPOSE] != 0.0:
            expose += _best_ready_attack(g, i64(q), i64(p), i64(1), w[W_HEAT], tiles, pool, robots, cells, nbr, opts, w)
    w_tile = w[W_TILE]
    if near_q >= 0 and (g.turn > STALL_TURNS * g.n_players
                        or not _can_hurt(g, i64(p), i64(near_q), tiles, pool, robots, cells, opts, w)):
        # no attack of ours gets through its armour on the side facing us (or the game drags on):
        # go and collect instead, which also runs the generation-3 stack down to the game's end
        near_c = -1
        if w_tile < 0.4:
            w_tile = 0.4
    elif near < 99:
        v -= w[W_APPROACH] * near
    v -= w[W_ADJ] * n_adj + w[W_EXPOSE] * expose
    if w[W_AIM] != 0.0:
        v += w[W_AIM] * _best_ready_attack(g, i64(p), i64(-1), i64(int(w[W_MINRANGE])), w[W_HEAT], tiles, pool,
                                           robots, cells, nbr, opts, w)
    inst = g.cell_tile[c0]
    if inst >= 0:
        if g.cell_type[c0] == TY_TERRAIN:
            if tiles[pool[inst], T_COVER]:
                v += w[W_COVER]
        elif before_end and own_turn:  # picked up at E1 (NOTES E1), the cell refilled from the stack
            d = pool[inst]
            mv = w[MV0 + d]
            if mv < 0.0:
                mv = module_value(tiles, i64(d))
                w[MV0 + d] = mv
            v += w[W_MOD] * mv
            if g.turn > STALL_TURNS * g.n_players and g.stack_n > 0:
                v += STALL_PULL
        elif own_turn:
            v += w[W_MOD] * _VW[VW_BASE]  # picked up in this turn's end phase
    if w_tile != 0.0:
        best = 0.0
        tile_c = -1
        for c in range(g.n_cells):
            if c == c0 or g.cell_tile[c] < 0 or g.cell_type[c] == TY_TERRAIN:
                continue
            x = 1.0 / _hex_distance(cells, c0, c)
            if c == nbr[c0, g.facing[p]]:
                x = 2.0  # straight ahead: one move away
            if x <= best or _robot_at(g, c) >= 0:
                continue
            if x > best:
                best = x
                tile_c = c
        v += w_tile * best
        if (w[W_APPROACH] == 0.0 or near_c < 0) and tile_c >= 0:
            near_c = tile_c  # turn towards module tiles, not enemies
    # facing: towards the nearest enemy (or tile), and into the field (room to move and shoot)
    f = g.facing[p]
    if near_c >= 0:
        v += w[W_TURN_TO] * _facing_cos(cells, i64(c0), i64(near_c), i64(f))
    c = nbr[c0, f]
    k = 0
    while c >= 0 and k < 3:
        k += 1
        c = nbr[c, f]
    v += w[W_OPEN] * k
    return v


@kernel
def _facing_cos(cells, a: int, b: int, f: int) -> float:
    """Cosine of the angle between facing f at cell a and the direction from a to cell b."""
    dq = cells[b, 0] - cells[a, 0]
    dr = cells[b, 1] - cells[a, 1]
    ds = -dq - dr
    ddq = DIRECTIONS[f, 0]
    ddr = DIRECTIONS[f, 1]
    norm = np.sqrt(2.0 * (dq * dq + dr * dr + ds * ds))
    if norm == 0.0:
        return 0.0
    return (dq * ddq + dr * ddr + ds * (-ddq - ddr)) / norm


@kernel
def weights_size(tiles) -> int:
    """Length of the weights array ``w``: N_W evaluation weights, the armour seen (6 sectors per robot),
    then one module-value slot per design."""
    return MV0 + tiles.shape[0]


@kernel
def heuristic_weights(kind: int, params, w) -> None:
    """Fill the evaluation weights ``w[:N_W]`` of heuristic ``kind`` from its parameters; the rest of
    ``w`` (the armour seen, then one entry per tile design, ``weights_size``) caches armour and module values
    and is reset to -1."""
    for i in range(N_W):
        w[i] = 0.0
    for i in range(N_W, w.shape[0]):
        w[i] = -1.0
    w[W_DMG] = 1.0
    w[W_HEAT] = 0.3
    w[W_SELF] = 1.0
    w[W_MOD] = 0.5
    w[W_TOKEN] = 0.1
    w[W_TILE] = 0.2
    w[W_MINRANGE] = 1.0
    w[W_FACE] = 0.5
    w[W_CENTRE] = 0.2
    w[W_START_MODULE] = 0.3
    w[W_TURN_TO] = 0.15
    w[W_OPEN] = 0.05
    w[W_PASS] = 0.3
    if kind in (KIND_BRAWLER, KIND_BRAWLER_V1):
        w[W_DMG] = params[0]
        w[W_HEAT] = params[1]
        w[W_APPROACH] = params[2]
        w[W_AIM] = params[3]
        w[W_EXPOSE] = params[4]
        w[W_MOD] = params[5]
        w[W_TOKEN] = params[6]
        w[W_TILE] = params[7]
    elif kind == KIND_SNIPER:
        w[W_DMG] = params[0]
        w[W_HEAT] = params[1]
        w[W_AIM] = params[2]
        w[W_MINRANGE] = params[3]
        w[W_ADJ] = params[4]
        w[W_COVER] = params[5]
        w[W_EXPOSE] = params[6]
        w[W_TOKEN] = params[7]
        w[W_CENTRE] = 0.0
    elif kind == KIND_COLLECTOR:
        w[W_MOD] = params[0]
        w[W_TILE] = params[1]
        w[W_DMG] = params[2]
        w[W_AIM] = params[3]
        w[W_EXPOSE] = params[4]
        w[W_TOKEN] = params[5]
        w[W_START_MODULE] = 1.0


# ---------------------------------------------------------------- determinization


@kernel
def _setup_boxed(g, tiles, pool, setup_tab) -> int:
    """How many of the first box entries were boxed unseen at setup (unused gen-2 and gen-3 tiles)."""
    n2 = 0
    n3 = 0
    for i in range(g.n_tiles):
        gen = tiles[pool[i], T_GENERATION]
        if gen == 2:
            n2 += 1
        elif gen == 3:
            n3 += 1
    k = (n2 - setup_tab[g.n_players, 0]) + (n3 - setup_tab[g.n_players, 7])
    return min(max(k, 0), g.box_n)


@kernel
def rekey(g, seed: np.uint64) -> None:
    """Give every random stream of the copy ``g`` a fresh key derived from ``seed``."""
    for k in range(N_STREAMS):
        g.rng_key[k] = derive_key(seed, np.uint64(k))
        g.rng_ctr[k] = 0


@kernel
def _unseen_places(g, p: int, tiles, pool, n_boxed: int, buf, put: bool) -> None:
    """Walk the places seat p has not seen, always in the same order: face-down field tiles, the other
    robots' unrevealed modules (basic mode), the generation-3 stack, the first ``n_boxed`` box entries.
    ``put`` false: append each place's tile instance to the row of its type in ``buf`` (``buf[5, t]``
    counts them); true: give each place, in the same order, the next instance of its type's row."""
    n = 0
    for t in range(5):
        buf[5, t] = 0
    if not g.expert:
        for c in range(g.n_cells):
            inst = g.cell_tile[c]
            if inst >= 0 and g.cell_up[c] == 0:
                t = tiles[pool[inst], T_TYPE]
                k = buf[5, t]
                if put:
                    g.cell_tile[c] = buf[t, k]
                else:
                    buf[t, k] = inst
                buf[5, t] = k + 1
                n += 1
        for q in range(g.n_players):
            if q == p:
                continue
            for m in range(g.n_mods[q]):
                if g.revealed[q, m] == 0 and n < MAX_TILES:
                    inst = g.mods[q, m]
                    t = tiles[pool[inst], T_TYPE]
                    k = buf[5, t]
                    if put:
                        g.mods[q, m] = buf[t, k]
                    else:
                        buf[t, k] = inst
                    buf[5, t] = k + 1
                    n += 1
    for i in range(g.stack_n):
        if n < MAX_TILES:
            inst = g.stack[i]
            t = tiles[pool[inst], T_TYPE]
            k = buf[5, t]
            if put:
                g.stack[i] = buf[t, k]
            else:
                buf[t, k] = inst
            buf[5, t] = k + 1
            n += 1
    for i in range(n_boxed):
        if n < MAX_TILES:
            inst = g.box[i]
            t = tiles[pool[inst], T_TYPE]
            k = buf[5, t]
            if put:
                g.box[i] = buf[t, k]
            else:
                buf[t, k] = inst
            buf[5, t] = k + 1
            n += 1


@kernel
def determinize(g, p: int, tiles, pool, setup_tab, buf) -> None:
    """Re-deal, in the copy ``g``, what seat p has not seen: face-down field tiles, the gen-3 stack,
    the other robots' unrevealed modules and the tiles boxed unseen at setup. Each place keeps its
    visible type; the instances of each type are shuffled among that type's places (Fisher-Yates from
    the top, types in order) with ``g``'s stream of seat p (rekey ``g`` first). ``buf``: int64
    [6, MAX_TILES] scratch (a row of instances per type, row 5 the counts)."""
    n_boxed = _setup_boxed(g, tiles, pool, setup_tab)
    _unseen_places(g, p, tiles, pool, n_boxed, buf, b1(False))
    stream = STREAM_SEAT0 + p
    for t in range(5):
        for i in range(buf[5, t] - 1, 0, -1):
            j = below(next_u64(g, stream), i + 1)
            tmp = buf[t, i]
            buf[t, i] = buf[t, j]
            buf[t, j] = tmp
    _unseen_places(g, p, tiles, pool, n_boxed, buf, b1(True))


# ---------------------------------------------------------------- owner decisions and placement


@kernel
def _slot_value(s, p: int, slot: int, tiles, pool) -> float:
    if slot == SLOT_CENTRAL:
        return _VW[VW_CENTRAL]
    return module_value(tiles, i64(pool[s.mods[p, slot]]))


@kernel
def owner_action(s, legal, n_legal: int, tiles, pool) -> int:
    """The shared owner policy for PH_HEAT, PH_WATER, PH_DISCARD and PH_LIMIT (seat ``s.actor``)."""
    p = i64(s.actor)
    ph = s.phase
    best = -1
    best_v = 0.0
    has_none = False
    for i in range(n_legal):
        a = legal[i]
        if a == A_NONE:
            has_none = True
            continue
        if a < A_PICK or a >= A_ACT:
            continue
        slot = a - A_PICK
        if ph == PH_HEAT:
            # cheapest token first: one shed at once (auto-cool, passive) or put on a module already
            # overheated (when the options allow it) costs nothing; else the least valuable module
            if slot == SLOT_CENTRAL:
                v = 0.0 if s.central_heat[p] else -_VW[VW_CENTRAL]
            else:
                d = pool[s.mods[p, slot]]
                free = s.heat[p, slot] or tiles[d, T_AUTOCOOL] or tiles[d, T_PASSIVE]
                v = 0.0 if free else -module_value(tiles, i64(d))
        elif ph == PH_WATER:
            hot = s.central_heat[p] if slot == SLOT_CENTRAL else s.heat[p, slot]
            if not hot:
                continue
            v = _slot_value(s, p, slot, tiles, pool)
        else:  # PH_DISCARD, PH_LIMIT: lose the least valuable (the central module only when forced)
            v = -_slot_value(s, p, slot, tiles, pool) - (100.0 if slot == SLOT_CENTRAL else 0.0)
        if best < 0 or v > best_v:
            best = a
            best_v = v
    if best >= 0:
        return best
    if has_none:
        return A_NONE
    return legal[0]


@njit(cache=True, inline="always")
def _keep_best(s, p: int, v: float, candidate: int, best: int, best_v: float, n_best: int) -> tuple[int, float, int]:
    """One step of an argmax with random tie-breaks: ``(best, best_v, n_best)`` after scoring ``candidate`` at
    ``v``. A tie (within 1e-9) replaces the best with probability 1/n_best, drawn from the seat's own stream,
    so every tied candidate is equally likely to be chosen."""
    if v > best_v + 1e-9:
        return candidate, v, 1
    if v > best_v - 1e-9:
        n_best += 1
        if below(next_u64(s, STREAM_SEAT0 + p), n_best) == 0:
            return candidate, best_v, n_best
    return best, best_v, n_best


@kernel
def place_action(s, w, legal, n_legal: int, tiles, pool, robots, cells, nbr, opts) -> int:
    """Placement: near the centre facing inwards, towards (or, with W_ADJ, away from) placed enemies,
    on a module tile (or cover) -- scored directly from the geometry."""
    p = i64(s.actor)
    n_c = s.n_cells
    cx = 0.0
    cy = 0.0
    for c in range(n_c):
        cx += cells[c, 0] + 0.5 * cells[c, 1]
        cy += 0.8660254 * cells[c, 1]
    cx /= n_c
    cy /= n_c
    best = legal[0]
    best_v = -1e18
    n_best = 0
    for i in range(n_legal):
        a = legal[i]
        if a < A_PLACE or a >= A_PICK:
            continue
        c = (a - A_PLACE) // 6
        f = (a - A_PLACE) % 6
        x = cells[c, 0] + 0.5 * cells[c, 1]
        y = 0.8660254 * cells[c, 1]
        dx = cx - x
        dy = cy - y
        dist = np.sqrt(dx * dx + dy * dy)
        fx = DIRECTIONS[f, 0] + 0.5 * DIRECTIONS[f, 1]
        fy = 0.8660254 * DIRECTIONS[f, 1]
        v = -w[W_CENTRE] * dist
        if dist > 1e-9:
            v += w[W_FACE] * (fx * dx + fy * dy) / dist
        inst = s.cell_tile[c]
        if inst >= 0:
            if s.cell_type[c] != TY_TERRAIN:
                v += w[W_START_MODULE]
            elif tiles[pool[inst], T_COVER]:
                v += w[W_COVER]
        if w[W_TILE] != 0.0:
            for d in range(6):
                b = nbr[c, d]
                if b >= 0 and s.cell_tile[b] >= 0 and s.cell_type[b] != TY_TERRAIN:
                    v += 0.2 * w[W_TILE]
        # enemies already placed: in the line of fire (at >= min_range), next to it
        for q in range(s.n_players):
            if not _is_enemy(s, p, q) or not _on_field(s, q):
                continue
            dist_q = _hex_distance(cells, c, s.cell[q])
            if dist_q == 1:
                v -= w[W_ADJ]
            v -= 0.5 * w[W_APPROACH] * dist_q
            b = nbr[c, f]
            k = 1
            while b >= 0:
                if b == s.cell[q] and k >= w[W_MINRANGE]:
                    v += w[W_AIM]
                    break
                b = nbr[b, f]
                k += 1
        best, best_v, n_best = _keep_best(s, p, v, a, best, best_v, n_best)
    return best


# ---------------------------------------------------------------- heuristics


@kernel
def _pointless(s, p: int, a: int, tiles, pool, nbr) -> bool:
    """Actions a one-ply look need not score: an attack on a cell with no terrain and no splash (module
    tiles and empty cells ignore hits, NOTES I.10.6: a pass that costs a token); the wear rule (b) on a
    token-free module (the same action without wear, less the module: the look does not value the
    further activation)."""
    if a < A_ACT:
        return False
    x = a - A_ACT
    slot = x // PARAM_SPAN // 2
    wear = (x // PARAM_SPAN) % 2
    param = x % PARAM_SPAN
    if slot == SLOT_C_ATTACK:
        splash = 0
    elif slot < SLOT_C_ATTACK:
        t = s.mod_type[p, slot]
        if wear and s.heat[p, slot] == 0:
            return True
        if t != TY_ATTACK:
            return False
        splash = tiles[pool[s.mods[p, slot]], T_SPLASH]
    else:
        return False
    if splash > 0 or (param // 16) % 2 == 0:
        return False
    t = param // 32
    f = s.facing[p]
    c = nbr[s.cell[p], f]
    for _ in range(t):
        if c < 0:
            break
        c = nbr[c, f]
    if c < 0:
        return True
    return s.cell_tile[c] < 0 or s.cell_type[c] != TY_TERRAIN


@kernel
def score_actions(w, s_arr, legal, n_legal: int, tiles, pool, robots, setup_tab, cells, nbr, opts,
                  base, work, log, scores, buf, resample: bool) -> int:
    """Score every legal action of the active seat (PH_ACTIVE / PH_CONTINUE) by applying it to a copy
    (determinized from the seat's view when ``resample``) and evaluating the result; ``scores[i]``
    gets the score of ``legal[i]``. Returns the index of the best (ties at random)."""
    s = s_arr[0]
    p = i64(s.actor)
    base[0] = s_arr[0]
    b = base[0]
    if resample:  # (a one-ply look draws from no other stream: only the seat's own is re-keyed)
        b.rng_key[STREAM_SEAT0 + p] = next_u64(s, STREAM_SEAT0 + p)
        b.rng_ctr[STREAM_SEAT0 + p] = 0
        determinize(b, p, tiles, pool, setup_tab, buf)
    best = 0
    best_v = POINTLESS
    n_best = 0
    cool_pass = _tokens(s, p, tiles, pool) == 0
    for i in range(n_legal):
        if _pointless(s, p, legal[i], tiles, pool, nbr):
            scores[i] = POINTLESS
            continue
        work[0] = base[0]
        g = work[0]
        apply_action(g, legal[i], tiles, pool, robots, setup_tab, cells, nbr, opts, log)
        v = evaluate(g, p, w, tiles, pool, robots, cells, nbr, opts, b1(False))
        if legal[i] == A_COOL and cool_pass:
            v -= w[W_PASS]  # cooling nothing: a wasted turn
        scores[i] = v
        best, best_v, n_best = _keep_best(s, p, v, i, best, best_v, n_best)
    return best


@kernel
def score_activations(w, s_arr, legal, n_legal: int, tiles, pool, robots, setup_tab, cells, nbr, opts,
                      base, work, log, scores, buf) -> int:
    """``score_actions`` scored at the end of each activation: the activation alone is applied to
    the (determinized) copy, with no owner decisions and no end phase, and that position is
    evaluated (``evaluate`` counts the damage and heat left pending on each robot, the module tile
    the robot stands on as picked up, and a game the pending damage ends). A cool is the tokens
    removed, a stop the position as it is. Returns the index of the best (ties at random)."""
    s = s_arr[0]
    p = i64(s.actor)
    base[0] = s_arr[0]
    b = base[0]
    b.rng_key[STREAM_SEAT0 + p] = next_u64(s, STREAM_SEAT0 + p)
    b.rng_ctr[STREAM_SEAT0 + p] = 0
    determinize(b, p, tiles, pool, setup_tab, buf)
    best = 0
    best_v = POINTLESS
    n_best = 0
    cool_pass = _tokens(s, p, tiles, pool) == 0
    for i in range(n_legal):
        a = legal[i]
        if _pointless(s, p, a, tiles, pool, nbr):
            scores[i] = POINTLESS
            continue
        if a == A_STOP:
            g = b
        else:
            work[0] = base[0]
            g = work[0]
            if a == A_COOL:
                cool_all(g, log)
            else:
                g.phase = PH_ACTIVE
                activate(g, a, tiles, pool, robots, cells, nbr, opts, log)
        v = evaluate(g, p, w, tiles, pool, robots, cells, nbr, opts, b1(True))
        if a == A_COOL and cool_pass:
            v -= w[W_PASS]  # cooling nothing: a wasted turn
        scores[i] = v
        best, best_v, n_best = _keep_best(s, p, v, i, best, best_v, n_best)
    return best


@kernel
def heuristic_action(kind: int, params, s_arr, legal, n_legal: int, tiles, pool, robots, setup_tab, cells, nbr,
                     opts, base, work, log, scores, buf, w, resample: bool) -> int:
    """The action of a heuristic (brawler, sniper, collector) in any phase."""
    s = s_arr[0]
    ph = s.phase
    if n_legal == 1:
        return legal[0]
    if ph in (PH_HEAT, PH_WATER, PH_DISCARD, PH_LIMIT):
        return owner_action(s, legal, n_legal, tiles, pool)
    heuristic_weights(i64(kind), params, w)
    if ph == PH_PLACE:
        return place_action(s, w, legal, n_legal, tiles, pool, robots, cells, nbr, opts)
    if kind == KIND_BRAWLER:
        i = score_activations(w, s_arr, legal, i64(n_legal), tiles, pool, robots, setup_tab, cells, nbr, opts,
                              base, work, log, scores, buf)
    else:
        i = score_actions(w, s_arr, legal, i64(n_legal), tiles, pool, robots, setup_tab, cells, nbr, opts,
                          base, work, log, scores, buf, b1(resample))
    return legal[i]


# ---------------------------------------------------------------- search


@kernel
def _outcome(g, p: int, mod_w: float, win_bonus: float) -> float:
    """A playout's score for seat p: trophies (of its side) minus the most of another side, plus
    mod_w times the module count difference, plus or minus win_bonus for a finished game."""
    mine, other = _team_trophies(g, p)
    own_m = 0
    other_m = 0
    if g.team:
        for q in range(g.n_players):
            if g.team_of[q] == g.team_of[p]:
                own_m += g.n_mods[q]
            else:
                other_m += g.n_mods[q]
    else:
        own_m = g.n_mods[p]
        for q in range(g.n_players):
            if q != p and g.n_mods[q] > other_m:
                other_m = g.n_mods[q]
    v = float(mine - other) + mod_w * (own_m - other_m)
    if g.over:
        v += win_bonus if g.winner[p] else -win_bonus
    return v


@kernel
def _playout(g_arr, stop_turn: int, tiles, pool, robots, setup_tab, cells, nbr, opts,
             legal, base, work, log, scores, buf, w, bparams) -> None:
    """Play the copy with the brawler for every seat until turn ``stop_turn`` begins (or the game ends)."""
    g = g_arr[0]
    while not g.over:
        if g.turn >= stop_turn and g.phase == PH_ACTIVE:
            break
        n = legal_actions(g, legal, tiles, pool, robots, setup_tab, cells, nbr, opts)
        if n == 0:
            break
        a = heuristic_action(i64(KIND_BRAWLER_V1), bparams, g_arr, legal, i64(n), tiles, pool, robots, setup_tab, cells,
                             nbr, opts, base, work, log, scores, buf, w, b1(False))
        apply_action(g, a, tiles, pool, robots, setup_tab, cells, nbr, opts, log)


@kernel
def search_action(params, s_arr, legal, n_legal: int, tiles, pool, robots, setup_tab, cells, nbr, opts,
                  base, work, log, scores, buf, w) -> int:
    """Determinized Monte Carlo over the activations available now (see BUILTIN_PLAYERS['search'])."""
    s = s_arr[0]
    p = i64(s.actor)
    bparams = DEFAULT_PARAMS[KIND_BRAWLER_V1].copy()
    ph = s.phase
    if n_legal == 1 or ph not in (PH_ACTIVE, PH_CONTINUE):
        return heuristic_action(i64(KIND_BRAWLER_V1), bparams, s_arr, legal, i64(n_legal), tiles, pool, robots,
                                setup_tab, cells, nbr, opts, base, work, log, scores, buf, w, b1(True))
    playouts = max(1, int(params[0]))
    n_cand = int(params[1])
    depth = max(1, int(params[2]))
    mod_w = params[3]
    win_bonus = params[4]
    leaf_w = params[5]
    heuristic_weights(i64(KIND_BRAWLER_V1), bparams, w)
    score_actions(w, s_arr, legal, i64(n_legal), tiles, pool, robots, setup_tab, cells, nbr, opts,
                  base, work, log, scores, buf, b1(True))
    if n_cand <= 0 or n_cand > n_legal:
        n_cand = n_legal
    order = np.argsort(-scores[:n_legal])
    n_scored = 0
    for i in range(n_legal):
        if scores[i] > POINTLESS:
            n_scored += 1
    if n_cand > n_scored:
        n_cand = max(n_scored, 1)
    cands = np.empty(n_cand, dtype=np.int64)
    for i in range(n_cand):
        cands[i] = legal[order[i]]
    if n_cand == 1:
        return cands[0]
    totals = np.zeros(n_cand)
    d_arr = np.empty(1, dtype=STATE_DTYPE)
    g_arr = np.empty(1, dtype=STATE_DTYPE)
    legal2 = np.empty(MAX_ACTIONS, dtype=np.int64)
    scores2 = np.empty(MAX_ACTIONS)
    stop_turn = s.turn + depth  # the playout stops when that turn begins
    for _ in range(playouts):
        d_arr[0] = s_arr[0]
        rekey(d_arr[0], next_u64(s, STREAM_SEAT0 + p))
        determinize(d_arr[0], p, tiles, pool, setup_tab, buf)
        for ci in range(n_cand):
            g_arr[0] = d_arr[0]
            g = g_arr[0]
            apply_action(g, cands[ci], tiles, pool, robots, setup_tab, cells, nbr, opts, log)
            _playout(g_arr, stop_turn, tiles, pool, robots, setup_tab, cells, nbr, opts,
                     legal2, base, work, log, scores2, buf, w, bparams)
            v = _outcome(g, p, mod_w, win_bonus)
            if leaf_w != 0.0:  # (a finished game: +-WIN_SCORE)
                mine, other = _team_trophies(g, p)
                v += leaf_w * (evaluate(g, p, w, tiles, pool, robots, cells, nbr, opts, b1(False)) - (mine - other))
            totals[ci] += v
    best = 0
    for i in range(1, n_cand):
        if totals[i] > totals[best] + 1e-9:
            best = i
    return cands[best]


# ---------------------------------------------------------------- dispatch


@kernel
def choose_action(kind: int, params, s_arr, legal, n_legal: int, tiles, pool, robots, setup_tab, cells, nbr,
                  opts) -> int:
    """The action of built-in player ``kind`` for the seat to act (``s.actor``) in ``s_arr[0]``."""
    s = s_arr[0]
    if kind == KIND_RANDOM or n_legal == 1:
        if n_legal == 1:
            return legal[0]
        return legal[below(next_u64(s, STREAM_SEAT0 + s.actor), n_legal)]
    if s.phase in (PH_HEAT, PH_WATER, PH_DISCARD, PH_LIMIT):  # no scratch needed (as heuristic_action)
        return owner_action(s, legal, n_legal, tiles, pool)
    copies = np.empty(2, dtype=STATE_DTYPE)  # (scratch: few allocations per decision)
    base = copies[0:1]
    work = copies[1:2]
    log = new_log(i64(0))
    n_scores = max(n_legal, 1)
    floats = np.empty(n_scores + weights_size(tiles))
    scores = floats[:n_scores]
    w = floats[n_scores:]
    buf = np.empty((6, MAX_TILES), dtype=np.int64)
    if kind == KIND_SEARCH:
        return search_action(params, s_arr, legal, n_legal, tiles, pool, robots, setup_tab, cells, nbr, opts,
                             base, work, log, scores, buf, w)
    return heuristic_action(i64(kind), params, s_arr, legal, i64(n_legal), tiles, pool, robots, setup_tab, cells, nbr,
                            opts, base, work, log, scores, buf, w, b1(True))
