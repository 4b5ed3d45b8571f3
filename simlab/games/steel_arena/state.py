"""The Steel Arena state record: one numpy structured scalar holds a whole game.

Layout (P = seat 0..3, clockwise; C = field cell 0..n_cells-1; M = module slot 0..12; T = tile
instance 0..n_tiles-1; K = random stream):

    game      seed n_players n_cells expert team (0/1) team_of[P] (0/1; 0 for everyone without teams)
              phase actor active turn (0 = setup, then 1, 2, ...) first_player n_placed
              over end_reason end_trigger (seat or cell whose event ended the game)
    field     cell_tile[C]   tile instance on the cell or -1 (empty); the field is fixed at setup
              cell_up[C]     1 when the tile lies face up (terrain always; everything in expert mode)
              cell_type[C]   the tile's type (TILE_TYPES order) or -1: public even when face down
              cells are numbered in refill order (ascending r, then q); geometry is in the ruleset
              (``cells``: q, r, s, is_edge; ``nbr[C, 6]``: neighbour cell or -1 off the field)
    tiles     every physical tile is an instance T; its design is ``pool[T]`` (a ruleset array)
              stack[] stack_n   the generation-3 refill stack, top = stack[stack_n - 1]
              box[] box_n       tiles out of the game (unused gen-2/gen-3, one-shots, wear, explosions,
                                discards in one's own turn or from a team-mate), in the order they left
    robots    cell[P] facing[P] (0..5, NOTES I.17) side[P] (0 = A normal, 1 = B boosted) placed[P]
              destroyed[P]
              mods[P, M] module instances, packed in slots 0..n_mods-1 (slot M_LIMIT = 12 holds a 13th
              module only while the module-limit discard is pending); n_mods[P]
              heat[P, M] overheat token; used[P, M] activated this turn; def_used[P, M] defence used
              this turn; revealed[P, M] (basic mode: shown to the others); mod_type[P, M] (public)
              central_heat[P] central_used[P] central_def_used[P] (the board's armour on side B)
    damage    pending_dmg[P]   module discards owed at E0
              pending_heat[P]  heat units to absorb, asked of the owner right after the activation
              pending_water[P] water coolings owed, asked of the owner right after the activation
    trophies  trophies[P, T] instances (in the order won), n_trophies[P]
    turn      may_continue (a further activation is allowed: speed or wear b) last_module (the
              instance that allowed it, -1 for none; -2 central), n_activations (this turn),
              discard_seat (robot whose E0 discard is being chosen), end_step (which end-phase step
              runs next, E_*), resume_phase (where to go after the owner decisions)
    stats     per seat: activations, cools, hits made, damage dealt (after reduction), modules lost,
              trophies from others, pickups by type [P, 4], pickups list (design and turn) for the
              pickups event table, wear destructions, explosions set off, pushes made, turns played
    chance    rng_key[K] rng_ctr[K]: STREAM_SETUP (gen-2 choice, field shuffle, gen-3 stack),
              STREAM_FIRST (first player), then one stream per seat (STREAM_SEAT0 + p)

Copying a game (for the search player) is copying this one record.
"""

from __future__ import annotations

import numpy as np

MAX_PLAYERS = 4
MIN_PLAYERS = 2
MAX_CELLS = 32  # the largest layout has 24; room for designers' fields
MAX_TILES = 128  # physical tiles (the printed set has 76)
MAX_STACK = 64
MAX_MODS = 13  # 12 modules + room for the 13th until the module-limit discard
M_LIMIT = 12  # the module limit (config.toml: module_limit_excluding_central)
N_TYPES = 5
MAX_PICKUPS = 24  # pickups recorded per seat for the event table (further ones are counted only)

# ---- phases: who decides what next (the actor)
PH_PLACE = 0  # actor places its robot: cell and facing
PH_ACTIVE = 1  # the active seat's first choice of the turn: activate a module or cool all
PH_CONTINUE = 2  # after a speed module (or wear b): activate one more module, or stop
PH_HEAT = 3  # the actor absorbs pending heat: overheat one more module, or refuse (1 damage per unit left)
PH_WATER = 4  # the actor cools one module (water), or none
PH_DISCARD = 5  # E0: the actor discards one module for pending damage
PH_LIMIT = 6  # E1: the active seat discards one of 13 modules (its own trophy)
PH_OVER = 7

# ---- end reasons
END_NONE = 0
END_TROPHIES = 1
END_DESTROYED = 2
END_GEN3 = 3
END_TEAM_TROPHIES = 4
END_TURN_LIMIT = 5  # the simulator's safeguard (option turn_limit), not a rulebook end
END_REASONS = ("none", "trophies", "destroyed", "gen3_exhausted", "team_trophies", "turn_limit")

# ---- random streams
STREAM_SETUP = 0
STREAM_FIRST = 1
STREAM_SEAT0 = 2
N_STREAMS = STREAM_SEAT0 + MAX_PLAYERS

STATE_DTYPE = np.dtype(
    [
        ("seed", np.uint64),
        ("n_players", np.int8),
        ("n_cells", np.int8),
        ("n_tiles", np.int16),
        ("expert", np.int8),
        ("team", np.int8),
        ("team_of", np.int8, (MAX_PLAYERS,)),
        ("phase", np.int8),
        ("actor", np.int8),
        ("active", np.int8),
        ("turn", np.int16),
        ("first_player", np.int8),
        ("n_placed", np.int8),
        ("over", np.int8),
        ("end_reason", np.int8),
        ("end_trigger", np.int8),
        # field
        ("cell_tile", np.int16, (MAX_CELLS,)),
        ("cell_up", np.int8, (MAX_CELLS,)),
        ("cell_type", np.int8, (MAX_CELLS,)),
        # tiles
        ("stack", np.int16, (MAX_STACK,)),
        ("stack_n", np.int16),
        ("box", np.int16, (MAX_TILES,)),
        ("box_n", np.int16),
        # robots
        ("cell", np.int8, (MAX_PLAYERS,)),
        ("facing", np.int8, (MAX_PLAYERS,)),
        ("side", np.int8, (MAX_PLAYERS,)),
        ("placed", np.int8, (MAX_PLAYERS,)),
        ("destroyed", np.int8, (MAX_PLAYERS,)),
        ("mods", np.int16, (MAX_PLAYERS, MAX_MODS)),
        ("n_mods", np.int8, (MAX_PLAYERS,)),
        ("heat", np.int8, (MAX_PLAYERS, MAX_MODS)),
        ("used", np.int8, (MAX_PLAYERS, MAX_MODS)),
        ("def_used", np.int8, (MAX_PLAYERS, MAX_MODS)),
        ("revealed", np.int8, (MAX_PLAYERS, MAX_MODS)),
        ("mod_type", np.int8, (MAX_PLAYERS, MAX_MODS)),
        ("central_heat", np.int8, (MAX_PLAYERS,)),
        ("central_used", np.int8, (MAX_PLAYERS,)),
        ("central_def_used", np.int8, (MAX_PLAYERS,)),
        ("tokens", np.int16),  # overheat tokens on robots now (for the 40-token option)
        # damage
        ("pending_dmg", np.int16, (MAX_PLAYERS,)),
        ("pending_heat", np.int16, (MAX_PLAYERS,)),
        ("pending_water", np.int8, (MAX_PLAYERS,)),
        # trophies
        ("trophies", np.int16, (MAX_PLAYERS, MAX_TILES)),
        ("n_trophies", np.int16, (MAX_PLAYERS,)),
        # turn
        ("may_continue", np.int8),
        ("last_module", np.int16),
        ("n_activations", np.int16),
        ("discard_seat", np.int8),
        ("end_step", np.int8),
        ("resume_phase", np.int8),
        # results
        ("rank", np.int8, (MAX_PLAYERS,)),
        ("winner", np.int8, (MAX_PLAYERS,)),
        ("final_modules", np.int8, (MAX_PLAYERS,)),
        # stats
        ("st_activations", np.int16, (MAX_PLAYERS,)),
        ("st_cools", np.int16, (MAX_PLAYERS,)),
        ("st_hits", np.int16, (MAX_PLAYERS,)),
        ("st_damage", np.int16, (MAX_PLAYERS,)),
        ("st_lost", np.int16, (MAX_PLAYERS,)),
        ("st_wear", np.int16, (MAX_PLAYERS,)),
        ("st_explosions", np.int16, (MAX_PLAYERS,)),
        ("st_pushes", np.int16, (MAX_PLAYERS,)),
        ("st_turns", np.int16, (MAX_PLAYERS,)),
        ("st_picked", np.int16, (MAX_PLAYERS, N_TYPES)),
        ("pick_design", np.int16, (MAX_PLAYERS, MAX_PICKUPS)),
        ("pick_turn", np.int16, (MAX_PLAYERS, MAX_PICKUPS)),
        ("n_picks", np.int16, (MAX_PLAYERS,)),
        # scratch for kernels that would otherwise allocate (breadth-first explosion queue etc.)
        ("queue", np.int16, (2 * MAX_CELLS,)),
        ("queued", np.int8, (MAX_CELLS,)),
        # chance
        ("rng_key", np.uint64, (N_STREAMS,)),
        ("rng_ctr", np.uint64, (N_STREAMS,)),
    ]
)


def new_state() -> np.ndarray:
    """A zeroed one-element state array."""
    return np.zeros(1, dtype=STATE_DTYPE)
