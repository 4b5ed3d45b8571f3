"""Column layout of Steel Arena's result arrays (games, seats) and of its ``pickups`` event table."""

from __future__ import annotations

from simlab.games.steel_arena.state import MAX_PICKUPS

MODULE_TYPE_NAMES = ("attack", "move", "rotate", "defence")

# ---- per game
GAME_COLUMNS = [
    "turns",  # turns played (placement not counted)
    "end_reason",  # categorical: trophies, destroyed, gen3_exhausted, team_trophies
    "n_winners",
    "winner_mask",  # bit p set when seat p won
    "explosions",  # terrain explosions in the game
    "stack_left",  # generation-3 tiles left in the stack at the end
    "team_mode",  # bool: 2 v 2
]
G_TURNS, G_END_REASON, G_N_WINNERS, G_WINNER_MASK, G_EXPLOSIONS, G_STACK_LEFT, G_TEAM = range(7)

# ---- per seat (game-major, one row per game and seat)
SEAT_COLUMNS = [
    "score",  # trophies (the team's total in team mode)
    "trophies",  # this seat's own trophies
    "rank",
    "winner",
    "first_player",  # bool: this seat played the first turn
    "team",  # 0 for seats 0 and 2, 1 for seats 1 and 3 in team mode (seats count from 0); 0 otherwise
    "modules",  # modules at the end, central included (0 for a destroyed robot)
    "boosted",  # bool: the robot ended on side B
    "destroyed",  # bool: the robot was destroyed
    "activations",
    "cools",  # cool-all actions
    "hits",  # hits on other robots
    "damage_dealt",  # damage that got through to other robots
    "modules_lost",  # modules discarded for damage
    "wear_destroyed",  # modules destroyed by the wear rule
    "explosions_set_off",
    "pushes",  # attacks with a push
    "turns_played",
    *[f"picked_{t}" for t in MODULE_TYPE_NAMES],  # modules picked up, by type
]
(S_SCORE, S_TROPHIES, S_RANK, S_WINNER, S_FIRST, S_TEAM, S_MODULES, S_BOOSTED, S_DESTROYED, S_ACTIVATIONS,
 S_COOLS, S_HITS, S_DAMAGE, S_LOST, S_WEAR, S_EXPLOSIONS, S_PUSHES, S_TURNS) = range(18)
S_PICKED0 = 18
N_SEAT_COLS = S_PICKED0 + len(MODULE_TYPE_NAMES)

# ---- the pickups event table (one row per module picked up in the end phase; MAX_PICKUPS per seat)
PICKUP_COLUMNS = ["seat", "turn", "design", "type", "generation", "kept"]
P_SEAT, P_TURN, P_DESIGN, P_TYPE, P_GENERATION, P_KEPT = range(6)
PICKUPS_PER_SEAT = MAX_PICKUPS

BOOL_COLUMNS = frozenset({"first_player", "boosted", "destroyed", "team_mode", "kept"})

assert len(SEAT_COLUMNS) == N_SEAT_COLS
