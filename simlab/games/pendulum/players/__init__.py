"""Pendulum's built-in compiled players and their parameters.

A compiled player is a kind number and a float64 parameter vector (the parameters in the order
``BUILTIN_PLAYERS`` lists them). The batch loop and the Python driver both call

    choose_action(kind, params, s_arr, legal, n_legal, tables) -> action

``s_arr`` is the one-element state array, ``legal[:n_legal]`` the legal actions of the seat to act
(``s.actor``), ``tables`` the ruleset record array (``t = tables[0]``). A player draws random numbers only
from its own seat's stream (``STREAM_SEAT0 + seat``) and changes nothing else in the state. In solo any of
them plays the one seat against the two Automas (which are rules, not players).

**What a position is worth** (``evaluate``, weights ``W_*``; one VP on a track far from the parchment is
worth about 1-3, a resource cube ``W_RES``): the three VP tracks, each by its distance ``d`` to the
parchment (``-W_TRACK * d - W_WORST * d * d / 8``: the quadratic part makes the worst track the one a VP is
worth most on) plus ``W_INSIDE`` per VP inside the parchment; the legendary VP (``W_LEG``); resources and
votes (plus the council bonus VP the votes now point at: ``W_RANK``); provinces (``W_PROV`` each plus
``W_FUT`` times the slot edge's yield times the productions still to come, less for provinces over the
slot limit, which go at council); workers in play and grandes; the stratagems in hand (``W_HAND`` times
what playing them gains); how close the seat is to claiming the achievement while the legendary token
lies on it (``W_ACH``), and in round 4 to paying for the final card F5 (``W_F5``); in solo the time markers
on the Automa board (each is a VP and a vote for each Automa). Workers add their **potential**: a worker in
the top frame of a space on a row its timer is not on waits for it (``W_WAIT`` times the space's value: its
best reward less its cost), one on the timed row can act now (``W_NOW``), a free worker (the mat, a bottom
box of an untimed row) is worth ``W_FREE`` times the best space it could move to, a stuck one (bottom box
of the timed row) ``W_STUCK`` times it.

**Heuristics** (track_balancer, producer, voter) are one-ply in every phase, and differ only in their weights.
A move changes nothing but where a worker stands, so its value is computed directly (the worker's new
potential less its old). In the real-time phase (most of a game's decisions) every other action is played out:
applied to a copy of the state (determinized first: what the seat cannot see is re-dealt from its own stream,
see ``determinize``), the seat's own decisions that follow at once (the pending stack: wild cubes, VP of
choice, the province to conquer and its slot, the worker to retrieve, ...; the solo re-placement after a lift)
settled by the fast policy, and the result evaluated with the base position's two scans (the best space a free
worker could reach, the best province a conquer brings: ``evaluate_after``), which are most of an evaluation's
time; every other part of the context is recomputed for the copy. In the other phases (pending decisions,
council cards, trim, step 5, start placements, the solo re-placement: a few a round) every action is played
out so, the follow-ups settled one-ply (each choice on a further copy, valued the same way). The best of the
moves, the played-out actions and the pass wins. **They pass** (``A_PASS``, where legal) when no action gains
more than ``pass_below`` over the position as it is, so a step always ends: every action a heuristic takes
raises its own evaluation. Their first versions (``track_balancer_v1``, ``producer_v1``, ``voter_v1``, same
weights) play every action out in every phase, settling one-ply, each copy evaluated in full: slower
(docs/players.md gives the speeds and the ladder between the versions).

**Search** (slow): determinized Monte Carlo in the real-time phase and at council. Its base heuristic's
(the voter by default) best few actions are the candidates, searched only when the runner-up's one-ply score
is within ``margin`` of the best; each playout re-deals what the seat cannot see from the seat's own stream
(the order of the province, achievement and Automa decks, the council cards still in the deck), applies a
candidate and plays the copy to the end of the round (or of the game) with ``fast_action`` (the base's
values scored directly, no copies) for every seat, then scores the final position with the base's
evaluation (a finished game: +-win_bonus); the candidate with the best mean wins. Other decisions are the
base heuristic's.

``random`` is uniform over the legal actions, but passes with probability ``pass_prob`` wherever it may
(uniform random play would almost never see every seat pass in a row, and a step would not end).

Where each part lives: ``registry`` (kinds, names, parameters, defaults), ``heuristics`` (each heuristic's
weights), ``weights`` (the evaluation's indices and constants), ``values`` (what resources, effects, spaces,
provinces and stratagems are worth), ``evaluation`` (a position's value), ``redeal`` (re-dealing the hidden
parts), ``fast`` (the static scorer and the fast policy), ``ply`` (what one-ply decisions share),
``lookahead`` (the heuristics' decision), ``v1`` (their first versions' scoring), ``search``,
``random_player``, and ``dispatch`` (``choose_action``, the one entry point).
"""

from __future__ import annotations

from simlab.games.pendulum.codes import OPT_LEVEL
from simlab.games.pendulum.players.dispatch import choose_action
from simlab.games.pendulum.players.evaluation import (
    evaluate,
    evaluate_after,
    potentials,
    prepare,
    prepare_after,
    static_value,
)
from simlab.games.pendulum.players.fast import fast_action, fast_score
from simlab.games.pendulum.players.heuristics import heuristic_weights
from simlab.games.pendulum.players.lookahead import heuristic_action, score_actions_fast
from simlab.games.pendulum.players.redeal import determinize, determinize_top
from simlab.games.pendulum.players.registry import (
    BUILTIN_PLAYERS,
    DEFAULT_PARAMS,
    KIND_BALANCER,
    KIND_BALANCER_V1,
    KIND_PRODUCER,
    KIND_PRODUCER_V1,
    KIND_RANDOM,
    KIND_SEARCH,
    KIND_VOTER,
    KIND_VOTER_V1,
    N_PARAMS,
)
from simlab.games.pendulum.players.v1 import score_actions
from simlab.games.pendulum.players.values import _automa_votes_estimate
from simlab.games.pendulum.players.weights import N_CTX, N_W, NEG

__all__ = [
    "BUILTIN_PLAYERS", "DEFAULT_PARAMS", "KIND_BALANCER", "KIND_BALANCER_V1", "KIND_PRODUCER", "KIND_PRODUCER_V1",
    "KIND_RANDOM", "KIND_SEARCH", "KIND_VOTER", "KIND_VOTER_V1", "NEG", "N_CTX", "N_PARAMS", "N_W",
    "OPT_LEVEL", "_automa_votes_estimate", "choose_action", "determinize", "determinize_top", "evaluate",
    "evaluate_after", "fast_action", "fast_score", "heuristic_action", "heuristic_weights", "potentials", "prepare",
    "prepare_after", "score_actions", "score_actions_fast", "static_value",
]
