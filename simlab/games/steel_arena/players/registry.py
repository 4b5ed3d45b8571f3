"""Steel Arena's compiled players: their kind numbers, parameters (``BUILTIN_PLAYERS``), the module value
weights and the one-ply evaluation's weight indices."""

from __future__ import annotations

import numpy as np

from simlab.core.game import BuiltinPlayer
from simlab.games.steel_arena.state import (
    MAX_PLAYERS,
)

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


