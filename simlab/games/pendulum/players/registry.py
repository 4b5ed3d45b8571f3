"""The registry of Pendulum's built-in players: kind numbers, names, parameters (in the order of the
parameter vector), descriptions and defaults (``DEFAULT_PARAMS``, one row per kind)."""

from __future__ import annotations

import numpy as np

from simlab.core.game import BuiltinPlayer

KIND_RANDOM = 0
KIND_BALANCER = 1
KIND_PRODUCER = 2
KIND_VOTER = 3
KIND_SEARCH = 4
KIND_BALANCER_V1 = 5  # the heuristics' first version (a full look-ahead on every action), kept for comparisons
KIND_PRODUCER_V1 = 6
KIND_VOTER_V1 = 7
N_PARAMS = 8
V1_OFFSET = KIND_BALANCER_V1 - KIND_BALANCER  # a _v1 kind less this is its heuristic's kind

BUILTIN_PLAYERS: dict[str, BuiltinPlayer] = {
    "random": BuiltinPlayer(
        "random",
        KIND_RANDOM,
        {"pass_prob": 0.5},
        "uniform over the legal actions in every decision (placements, moves, worker actions, stratagems, "
        "council cards, pending choices); passes with probability pass_prob wherever it may",
        {"pass_prob": "chance of passing where a pass is legal (else uniform over all legal actions, the pass "
                      "included); uniform play alone would hardly ever see every seat pass in a row"},
    ),
    "track_balancer": BuiltinPlayer(
        "track_balancer",
        KIND_BALANCER,
        {"worst": 0.8, "track": 1.0, "legendary": 40.0, "resource": 0.4, "vote": 1.4, "province": 0.4,
         "worker": 2.0, "pass_below": 0.05},
        "pushes its worst track: one-ply over every action, valuing a VP most on the track furthest from the "
        "parchment (all three tracks into the parchment, NOTES I.9 and I.12.11), and the legendary VP above "
        "all (claimed from the achievement as soon as it can hold the requirement)",
        {
            "worst": "weight of the squared distance of each track to the parchment (/8): the balancing pull",
            "track": "value of one step of a track towards the parchment",
            "legendary": "value of the legendary VP (the achievement's and F5's pull scale with it)",
            "resource": "value of one military, culture or gold cube",
            "vote": "value of one vote held (council privilege, achievement requirements)",
            "province": "value of a tucked province beyond what its slot edge yields",
            "worker": "value of a worker in play (recruit; less in later rounds)",
            "pass_below": "passes when no action gains more than this over the position as it is",
        },
    ),
    "producer": BuiltinPlayer(
        "producer",
        KIND_PRODUCER,
        {"province": 0.8, "production": 1.0, "resource": 0.38, "worst": 0.5, "track": 1.0, "legendary": 40.0,
         "worker": 2.5, "pass_below": 0.05},
        "provinces and production first: conquers in the black area, tucks each province under the mat slot "
        "whose production it will take most (brown VP edges under brown), produces, and converts the "
        "resources into VP through actions, stratagems and the final council cards",
        {
            "province": "value of a tucked province beyond what its slot edge yields",
            "production": "weight of a province edge's yield times the productions of its slot still to come",
            "resource": "value of one military, culture or gold cube",
            "worst": "weight of the squared distance of each track to the parchment (/8)",
            "track": "value of one step of a track towards the parchment",
            "legendary": "value of the legendary VP",
            "worker": "value of a worker in play (recruit; less in later rounds)",
            "pass_below": "passes when no action gains more than this over the position as it is",
        },
    ),
    "voter": BuiltinPlayer(
        "voter",
        KIND_VOTER,
        {"vote": 1.6, "rank": 1.0, "achievement": 0.75, "worst": 0.5, "track": 1.0, "legendary": 40.0,
         "resource": 0.4, "pass_below": 0.05},
        "privilege and council rewards: gathers votes (black +1 vote, green power+votes) to lead the council "
        "(its bonus VP and first pick of the cards), holds the achievement's requirement to claim it (the "
        "legendary while it lies there), and takes the council card whose result it values most",
        {
            "vote": "value of one vote held",
            "rank": "weight of the council bonus VP its votes now point at (rank among all agents' votes)",
            "achievement": "share of the legendary's value earned by holding the achievement requirement",
            "worst": "weight of the squared distance of each track to the parchment (/8)",
            "track": "value of one step of a track towards the parchment",
            "legendary": "value of the legendary VP",
            "resource": "value of one military, culture or gold cube",
            "pass_below": "passes when no action gains more than this over the position as it is",
        },
    ),
    "search": BuiltinPlayer(
        "search",
        KIND_SEARCH,
        {"playouts": 4.0, "candidates": 3.0, "horizon": 0.0, "win_bonus": 20.0, "base": 3.0, "margin": 0.3},
        "determinized Monte Carlo: its base heuristic's best few actions, each played out on copies where "
        "what the seat cannot see (deck orders, the council cards still to come) is re-dealt from its own "
        "stream, to the end of the round (or the game) with the fast heuristic policy for every seat; "
        "the best mean outcome wins",
        {
            "playouts": "playouts per candidate (each on a fresh determinization, shared by all candidates)",
            "candidates": "how many of the base heuristic's best actions are tried",
            "horizon": "0: play out to the end of the round (its council done); 1: to the end of the game",
            "win_bonus": "added to a playout's score for a game won in it (subtracted for one lost)",
            "base": "the heuristic that ranks the candidates and values the leaves (1 track_balancer, "
                    "2 producer, 3 voter)",
            "margin": "searches only when the base heuristic's runner-up is within this of its best action",
        },
        slow=True,
    ),
}

for _name, _kind in (("track_balancer", KIND_BALANCER_V1), ("producer", KIND_PRODUCER_V1), ("voter", KIND_VOTER_V1)):
    _info = BUILTIN_PLAYERS[_name]
    BUILTIN_PLAYERS[f"{_name}_v1"] = BuiltinPlayer(
        f"{_name}_v1",
        _kind,
        dict(_info.params),
        f"{_name} as it was first written (kept to measure the new one against): every legal action, not only "
        "the best by the static scorer, is played out on a copy with the seat's follow-up decisions settled "
        "one-ply; same weights, about 3-5 times slower",
        dict(_info.param_help),
    )


def _default_params() -> np.ndarray:
    table = np.zeros((len(BUILTIN_PLAYERS), N_PARAMS))
    for info in BUILTIN_PLAYERS.values():
        for i, value in enumerate(info.params.values()):
            table[info.kind, i] = value
    return table


DEFAULT_PARAMS = _default_params()
