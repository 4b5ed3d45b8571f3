"""Steel Arena's codes: actions, rule options (the ``opts`` array) and event-log rows.

**Actions** are int codes (a legal-action buffer holds up to ``MAX_ACTIONS``):

    A_COOL = 0            PH_ACTIVE: cool all modules (removes every token, the central one included)
    A_STOP = 1            PH_CONTINUE: no further activation this turn
    A_NONE = 2            PH_HEAT: refuse the rest (each unit left is 1 damage); PH_WATER: cool nothing
    A_PLACE + c * 6 + f   PH_PLACE: robot on cell c facing f
    A_PICK + slot         PH_HEAT / PH_WATER / PH_DISCARD / PH_LIMIT: that module slot (SLOT_CENTRAL:
                          the central module, for heat, water, and the forced discard that destroys)
    A_ACT + (slot * 2 + wear) * 256 + param
                          PH_ACTIVE / PH_CONTINUE: activate module slot 0..12, or the central module's
                          attack (SLOT_C_ATTACK), move (SLOT_C_MOVE) or rotation (SLOT_C_ROTATE); wear = 1
                          uses the wear rule (a: the module is overheated; b: an auto-cool movement or
                          rotation module used as if it had speed); either way it is destroyed after use

``param`` by module kind:

    rotate  sense * 4 + k                    k sectors 1..3; sense 0 = clockwise (facing - k),
                                             1 = counter-clockwise (facing + k)
    move    variant * 8 + n                  n tiles (1..7); variant 0 straight ahead (forward, jump),
                                             1 diagonal-forward left (facing + 1), 2 right (facing - 1)
    attack  ((t * 2 + which) * 8 + e) * 2 + order
                                             t: target cell's index on the line of fire (0 = adjacent);
                                             which: 0 the robot there, 1 the cell itself (terrain, a
                                             module tile or an empty cell); beam and sweep use t = 0,
                                             which = 0 (they hit everything); e: push n (e = n) or whirl
                                             (e = k: counter-clockwise k, e = 3 + k: clockwise k), 0 none;
                                             order: 0 damage then effect, 1 effect then damage
"""

from __future__ import annotations

from typing import Any

import numpy as np

# ---------------------------------------------------------------- actions

A_COOL = 0
A_STOP = 1
A_NONE = 2
A_PLACE = 16
A_PICK = 224
A_ACT = 256
PARAM_SPAN = 256

SLOT_CENTRAL = 13  # A_PICK + SLOT_CENTRAL: the central module
SLOT_C_ATTACK = 13  # A_ACT slots of the central module's three properties
SLOT_C_MOVE = 14
SLOT_C_ROTATE = 15
N_ACT_SLOTS = 16
MAX_ACTIONS = 4096

# activation "via" (trace field)
VIA_FIRST, VIA_SPEED, VIA_WEAR_A, VIA_WEAR_B = range(4)
VIA_NAMES = ("first", "speed", "wear_a", "wear_b")

# move variants
MV_STRAIGHT, MV_LEFT, MV_RIGHT = range(3)

# hit kinds (trace field)
HK_PRIMARY, HK_BEAM, HK_SWEEP, HK_SPLASH, HK_TERRAIN_BIG, HK_TERRAIN_SMALL = range(6)
HIT_KINDS = ("primary", "beam", "sweep", "splash", "terrain_big", "terrain_small")

# target kinds (trace field)
TK_ROBOT, TK_TERRAIN, TK_MODULE_TILE, TK_EMPTY = range(4)
TARGET_KINDS = ("robot", "terrain", "module_tile", "empty")

# step causes
CAUSE_MOVE, CAUSE_SHOVE, CAUSE_PUSH = range(3)
STEP_CAUSES = ("move", "shove", "push")

# reduction kinds
RED_PASSIVE, RED_ACTIVE, RED_COVER, RED_CENTRAL = range(4)
REDUCTION_KINDS = ("passive_armour", "active_defence", "cover", "central_armour")

# explosion causes
XC_DAMAGE, XC_HEAT, XC_STOP, XC_PASS, XC_CHAIN = range(5)
EXPLOSION_CAUSES = ("damage", "heat", "stop", "pass", "chain")

# discard reasons (destination box)
DR_TROPHY, DR_OWN_TURN, DR_TEAM_MATE, DR_ONESHOT, DR_WEAR, DR_LIMIT = range(6)
DISCARD_REASONS = ("trophy", "own_turn", "team_mate", "oneshot", "wear", "module_limit")

# ---------------------------------------------------------------- options (the ``opts`` array)

(OPT_EXPERT, OPT_TEAM, OPT_FIRST_SEAT0, OPT_TOKEN_LIMIT, OPT_GEN3_TERRAIN_UP, OPT_TERRAIN_START,
 OPT_PLACE_TRIGGERS, OPT_UP_TO, OPT_STOP_SHORT, OPT_JUMP_TRIGGERS, OPT_WATER_ENTER, OPT_REQUIRE_CELL,
 OPT_PUSH_WHIRL_MIN, OPT_SPLASH_ATTACKER, OPT_SWEEP_FACING, OPT_PASSIVE_CHOOSE, OPT_REDUCTION,
 OPT_ONLY_COOL_ABSORB, OPT_PASSIVE_OVERHEATED, OPT_COOL_ALWAYS, OPT_WEAR_FIRST, OPT_DISCARD_AFTER_PICKUP,
 OPT_BATCH_DISCARDS, OPT_DESTROY_IMMEDIATE, OPT_LIMIT_NEW, OPT_AUTOCOOL_ACTIVE_ONLY, OPT_TIE_CENTRAL,
 OPT_TEAM_GEN3_ENDS, OPT_TEAM_INDIVIDUAL_END, OPT_TROPHIES_TO_END, OPT_TEAM_TROPHIES_TO_END,
 OPT_NORMAL_MIN, OPT_BOOSTED_MAX, OPT_COVER_VALUE, OPT_WATER_COOLS, OPT_N_CELLS, OPT_TURN_LIMIT,
 OPT_UNDER_ROBOT_TERRAIN_ONLY) = range(38)
N_OPTS = 38

RED_DAMAGE_FIRST, RED_HEAT_FIRST, RED_DEFENDER = range(3)


def option_array(options: dict[str, Any], config: Any, n_cells: int) -> np.ndarray:
    """The resolved options (and the rulebook's fixed numbers) as the kernels' ``opts`` array."""
    o = np.zeros(N_OPTS, dtype=np.int64)
    o[OPT_EXPERT] = options["mode"] == "expert"
    o[OPT_TEAM] = bool(options["team"])
    o[OPT_FIRST_SEAT0] = options["first_player"] == "seat0"
    o[OPT_TOKEN_LIMIT] = int(options["overheat_token_limit"])
    o[OPT_GEN3_TERRAIN_UP] = bool(options["gen3_terrain_face_up"])
    o[OPT_TERRAIN_START] = bool(options["allow_terrain_start_cell"])
    o[OPT_PLACE_TRIGGERS] = bool(options["start_placement_triggers_terrain"])
    o[OPT_UP_TO] = options["single_value"] == "up_to"
    o[OPT_STOP_SHORT] = options["blocked_move"] == "stop_short"
    o[OPT_JUMP_TRIGGERS] = bool(options["jump_triggers_crossed_terrain"])
    o[OPT_WATER_ENTER] = options["water_trigger"] == "enter"
    o[OPT_REQUIRE_CELL] = bool(options["require_cell_in_line"])
    o[OPT_PUSH_WHIRL_MIN] = int(options["push_whirl_min"])
    o[OPT_SPLASH_ATTACKER] = bool(options["splash_hits_attacker"])
    o[OPT_SWEEP_FACING] = options["sweep_side_hit_direction"] == "attacker_facing"
    o[OPT_PASSIVE_CHOOSE] = options["passive_trigger"] == "defender_chooses"
    o[OPT_REDUCTION] = ("damage_first", "heat_first", "defender_chooses").index(options["reduction_priority"])
    o[OPT_ONLY_COOL_ABSORB] = bool(options["only_cool_modules_absorb"])
    o[OPT_PASSIVE_OVERHEATED] = bool(options["passive_works_when_overheated"])
    o[OPT_COOL_ALWAYS] = bool(options["cool_always_legal"])
    o[OPT_WEAR_FIRST] = bool(options["wear_on_first_activation"])
    o[OPT_DISCARD_AFTER_PICKUP] = options["discard_timing"] == "after_pickup"
    o[OPT_BATCH_DISCARDS] = bool(options["batch_discards_then_check_end"])
    o[OPT_DESTROY_IMMEDIATE] = options["destruction_check"] == "immediate"
    o[OPT_LIMIT_NEW] = bool(options["module_limit_may_discard_new"])
    o[OPT_AUTOCOOL_ACTIVE_ONLY] = options["autocool_scope"] == "active_robot_only"
    o[OPT_TIE_CENTRAL] = bool(options["tie_break_count_includes_central"])
    o[OPT_TEAM_GEN3_ENDS] = bool(options["team_gen3_exhaustion_ends_game"])
    o[OPT_TEAM_INDIVIDUAL_END] = bool(options["team_individual_trophies_end_game"])
    o[OPT_TROPHIES_TO_END] = config.trophies_to_end
    o[OPT_TEAM_TROPHIES_TO_END] = config.team_trophies_to_end
    o[OPT_NORMAL_MIN] = config.normal_side_min_modules_incl_central
    o[OPT_BOOSTED_MAX] = config.boosted_side_max_modules_incl_central
    o[OPT_COVER_VALUE] = config.cover_value
    o[OPT_WATER_COOLS] = config.water_cools_modules
    o[OPT_N_CELLS] = n_cells
    o[OPT_TURN_LIMIT] = int(options["turn_limit"])
    o[OPT_UNDER_ROBOT_TERRAIN_ONLY] = options["cell_under_robot_target"] == "terrain_only"
    return o


# ---------------------------------------------------------------- event log
# Column 0 is the kind; columns 1.. as listed. Every row is written only when the log has room
# (batch loops pass a log of capacity 0). Instances are tile instance ids (ruleset ``pool`` gives
# the design); -1 means none. ``seat`` names a robot by its owner's seat.
LOG_WIDTH = 14

EV_SETUP_CELL = 1  # cell, instance (-1 none), face_up
EV_GEN2_TAKEN = 2  # type (TILE_TYPES index, 5 = random draw), instance, order
EV_GEN2_RETURNED = 3  # instance
EV_STACK = 4  # position (0 = first drawn), instance
EV_STARTER = 5  # seat, instance
EV_FIRST_PLAYER = 6  # seat, reason (0 random, 1 seat0 option)
EV_PLACE = 7  # seat, cell, facing
EV_TAKE_START = 8  # seat, cell, instance (-1 terrain or empty)
EV_TURN_START = 9  # turn, seat   (followed by the EV_SNAP_* snapshot rows)
EV_SNAP_ROBOT = 10  # seat, cell, facing, side, n_mods, central_heat, destroyed, pending_dmg, n_trophies
EV_SNAP_MOD = 11  # seat, slot, instance, heat, revealed, used, def_used
EV_SNAP_CELL = 12  # cell, instance (-1 empty), face_up
EV_SNAP_TROPHY = 13  # seat, instance
EV_SNAP_MISC = 14  # stack_n, box_n, tokens
EV_COOL_ALL = 15  # seat, n_tokens_removed
EV_COOL_TOKEN = 16  # seat, slot (SLOT_CENTRAL for central), instance (-1 central)
EV_ACTIVATE = 17  # seat, slot (0..12 or SLOT_C_*), instance (-1 central), via, last_module (speed
#                   source, -1), was_overheated, was_used, param, wear, side (central), action code
EV_ACT_END = 18  # seat, slot, instance, destroyed_by_wear, oneshot_to_box, may_continue
EV_ROTATE = 19  # seat, before, after, cause (0 module, 1 whirl), by seat
EV_STEP = 20  # seat, from, to, direction, cause (CAUSE_*), by seat, jump (0/1)
EV_JUMP_OVER = 21  # seat, cell passed over
EV_STOPPED_SHORT = 22  # seat, refused step's target cell (-1 edge), blocking cell
EV_HIT = 23  # source instance (-1 central; -2 - cell for terrain), hit kind, target kind, cell, seat
#             (robot target, else -1), D, H, incoming direction (-1 none), rel sector (-1 none),
#             D after reduction, H after reduction, pending damage after
EV_REDUCE = 24  # seat, slot (SLOT_CENTRAL central armour, -1 cover), instance, amount, kind (RED_*)
EV_HEAT_ABSORB = 25  # seat, slot (SLOT_CENTRAL central), instance, shed (0/1: token removed at once)
EV_HEAT_DAMAGE = 26  # seat, units refused or not absorbable, pending damage after
EV_EXPLOSION = 27  # instance, cell, cause (XC_*), seat that set it off (-1)
EV_WATER_DESTROYED = 28  # instance, cell
EV_WATER_COOL = 29  # seat, slot (SLOT_CENTRAL central, -1 none), instance
EV_DISCARD = 30  # seat, instance, destination seat (-1 box), reason (DR_*), pending left
EV_DESTROYED = 31  # seat
EV_END_CHECK = 32  # result (END_*), trophies p0..p3 (cols 2..5), team totals (6, 7)
EV_PICKUP = 33  # seat, cell, instance (-1 terrain, -2 empty)
EV_LIMIT_DISCARD = 34  # seat, instance
EV_SIDE_SWITCH = 35  # seat, step (2 or 5), modules incl. central, side before, side after
EV_AUTOCOOL = 36  # seat, slot, instance
EV_REFILL = 37  # cell, instance, face_up, stack_n after
EV_STACK_EXHAUSTED = 38  # cell
EV_TURN_END = 39  # turn, seat
EV_GAME_END = 40  # reason (END_*), trigger, winners mask, n winners
EV_END_STEP = 41  # step (0..5), seat (active)  -- marks that an end-phase step ran
EV_PUSH_EFFECT = 42  # seat (target), n requested, n done
EV_WHIRL_EFFECT = 43  # seat (target), sectors (signed: + counter-clockwise)
EV_SHED = 44  # seat, slot, instance: a heat token removed at once (auto-cool / passive)
EV_SNAP_BOX = 45  # n (1..12), then n box instances (cols 2..13), in the order they went to the box
BOX_PER_ROW = 12
EV_NAMES = {
    v: k[3:].lower() for k, v in globals().items() if k.startswith("EV_") and isinstance(v, int)
}
