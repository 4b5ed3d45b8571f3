"""The heuristics' one-ply evaluation of a position (``evaluate``) and each heuristic's weights."""

from __future__ import annotations

import numpy as np

from simlab.core.jit import kernel
from simlab.games.steel_arena.codes import (
    OPT_TEAM_TROPHIES_TO_END,
    OPT_TROPHIES_TO_END,
)
from simlab.games.steel_arena.data import (
    T_COVER,
)
from simlab.games.steel_arena.hexgrid import DIRECTIONS
from simlab.games.steel_arena.players.reach import (
    _best_ready_attack,
    _can_hurt,
    _free_modules,
    _hex_distance,
    _is_enemy,
    _module_sum,
    _on_field,
    _robot_at,
    _team_trophies,
    _tokens,
    module_value,
)
from simlab.games.steel_arena.players.registry import (
    _VW,
    ARM0,
    END_SCORE,
    KIND_BRAWLER,
    KIND_BRAWLER_V1,
    KIND_COLLECTOR,
    KIND_SNIPER,
    MV0,
    N_W,
    STALL_PULL,
    STALL_TURNS,
    TY_TERRAIN,
    VW_BASE,
    W_ADJ,
    W_AIM,
    W_APPROACH,
    W_CENTRE,
    W_COVER,
    W_DMG,
    W_EXPOSE,
    W_FACE,
    W_HEAT,
    W_MINRANGE,
    W_MOD,
    W_OPEN,
    W_PASS,
    W_SELF,
    W_START_MODULE,
    W_TILE,
    W_TOKEN,
    W_TURN_TO,
    WIN_SCORE,
)

# kernels take scalar arguments as int64 (and flags as bool): one compiled specialisation each
i64 = np.int64


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


