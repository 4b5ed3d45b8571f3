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

The players live in this package, one module per part (``registry``, ``reach``, ``evaluation``, ``redeal``,
``owner``, ``heuristics``, ``search``, ``dispatch``); the names are re-exported here.
"""

from __future__ import annotations

from simlab.games.steel_arena.players.dispatch import (  # noqa: F401
    choose_action,
)
from simlab.games.steel_arena.players.evaluation import (  # noqa: F401
    _facing_cos,
    evaluate,
    heuristic_weights,
    weights_size,
)
from simlab.games.steel_arena.players.heuristics import (  # noqa: F401
    _pointless,
    heuristic_action,
    score_actions,
    score_activations,
)
from simlab.games.steel_arena.players.owner import (  # noqa: F401
    _keep_best,
    _slot_value,
    owner_action,
    place_action,
)
from simlab.games.steel_arena.players.reach import (  # noqa: F401
    _armour,
    _armour_seen,
    _best_ready_attack,
    _can_hurt,
    _free_modules,
    _hex_distance,
    _hit,
    _interferes,
    _is_enemy,
    _module_sum,
    _on_field,
    _robot_at,
    _team_trophies,
    _tokens,
    module_value,
)
from simlab.games.steel_arena.players.redeal import (  # noqa: F401
    _setup_boxed,
    _unseen_places,
    determinize,
    rekey,
)
from simlab.games.steel_arena.players.registry import (  # noqa: F401
    _VW,
    ARC_ALL,
    ARC_SIDE,
    ARM0,
    BUILTIN_PLAYERS,
    DEFAULT_PARAMS,
    DL_ARC,
    DL_BEAM,
    DL_DIRECT,
    DL_MELEE,
    DL_SWEEP,
    END_SCORE,
    KIND_BRAWLER,
    KIND_BRAWLER_V1,
    KIND_COLLECTOR,
    KIND_RANDOM,
    KIND_SEARCH,
    KIND_SNIPER,
    MK_JUMP,
    MV0,
    N_PARAMS,
    N_W,
    POINTLESS,
    STALL_PULL,
    STALL_TURNS,
    TY_ATTACK,
    TY_DEFENCE,
    TY_MOVE,
    TY_ROTATE,
    TY_TERRAIN,
    VALUE_WEIGHTS,
    VW_ARMOUR,
    VW_AUTOCOOL,
    VW_BASE,
    VW_CENTRAL,
    VW_DAMAGE,
    VW_ONESHOT,
    VW_SPEED,
    VW_STEP,
    W_ADJ,
    W_AIM,
    W_APPROACH,
    W_CENTRE,
    W_CONT,
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
    _default_params,
)
from simlab.games.steel_arena.players.search import (  # noqa: F401
    _outcome,
    _playout,
    search_action,
)
