"""The weights each one-ply heuristic (track_balancer, producer, voter and their ``_v1`` versions) plays
with, from its parameter vector."""

from __future__ import annotations

from simlab.core.jit import kernel
from simlab.games.pendulum.players.registry import KIND_BALANCER, KIND_BALANCER_V1, KIND_PRODUCER, KIND_VOTER, V1_OFFSET
from simlab.games.pendulum.players.weights import (
    W_ACH,
    W_FREE,
    W_FUT,
    W_GLORY,
    W_GRANDE,
    W_HAND,
    W_INSIDE,
    W_LEG,
    W_MARKER,
    W_MAX3,
    W_NOW,
    W_PARCH,
    W_PASS,
    W_PROV,
    W_RANK,
    W_RES,
    W_RETRIEVE,
    W_STUCK,
    W_TRACK,
    W_TRIGGER,
    W_VOTE,
    W_WAIT,
    W_WORKER,
    W_WORST,
)


@kernel
def heuristic_weights(kind: int, params, w) -> None:
    """Fill the evaluation weights ``w`` (length N_W) of heuristic ``kind`` from its parameters."""
    w[W_TRACK] = 1.0
    w[W_WORST] = 1.0
    w[W_INSIDE] = 0.3
    w[W_LEG] = 40.0
    w[W_RES] = 0.3
    w[W_VOTE] = 0.8
    w[W_RANK] = 0.5
    w[W_PROV] = 0.4
    w[W_FUT] = 1.0
    w[W_WORKER] = 3.0
    w[W_GRANDE] = 0.6
    w[W_HAND] = 0.6
    w[W_MAX3] = 0.3
    w[W_ACH] = 0.6
    w[W_PARCH] = 0.75
    w[W_MARKER] = 1.0
    w[W_GLORY] = 0.3
    w[W_WAIT] = 0.5
    w[W_NOW] = 0.6
    w[W_FREE] = 0.3
    w[W_STUCK] = 0.15
    w[W_PASS] = 0.05
    w[W_RETRIEVE] = 0.3
    w[W_TRIGGER] = 0.6
    if kind >= KIND_BALANCER_V1:
        kind -= V1_OFFSET
    if kind == KIND_BALANCER:
        w[W_WORST] = params[0]
        w[W_TRACK] = params[1]
        w[W_LEG] = params[2]
        w[W_RES] = params[3]
        w[W_VOTE] = params[4]
        w[W_PROV] = params[5]
        w[W_WORKER] = params[6]
        w[W_PASS] = params[7]
    elif kind == KIND_PRODUCER:
        w[W_PROV] = params[0]
        w[W_FUT] = params[1]
        w[W_RES] = params[2]
        w[W_WORST] = params[3]
        w[W_TRACK] = params[4]
        w[W_LEG] = params[5]
        w[W_WORKER] = params[6]
        w[W_PASS] = params[7]
    elif kind == KIND_VOTER:
        w[W_VOTE] = params[0]
        w[W_RANK] = params[1]
        w[W_ACH] = params[2]
        w[W_WORST] = params[3]
        w[W_TRACK] = params[4]
        w[W_LEG] = params[5]
        w[W_RES] = params[6]
        w[W_PASS] = params[7]
        w[W_FUT] = 0.8
