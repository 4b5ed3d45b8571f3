"""The evaluation's vocabulary: indices of the weight vector (``W_*``), of the per-position context
(``C_*``) and the constants of the position value."""

from __future__ import annotations

# ---------------------------------------------------------------- evaluation weights

(W_TRACK, W_WORST, W_INSIDE, W_LEG, W_RES, W_VOTE, W_RANK, W_PROV, W_FUT, W_WORKER, W_GRANDE, W_HAND, W_MAX3,
 W_ACH, W_PARCH, W_MARKER, W_GLORY, W_WAIT, W_NOW, W_FREE, W_STUCK, W_PASS, W_RETRIEVE, W_TRIGGER) = range(24)
N_W = 24
D0 = 8.0  # the quadratic track term's scale: -W_WORST * d * d / D0
WIN_SCORE = 1000.0  # a finished game, won or lost, in the evaluation
NEG = -1e18

# Resources are worth more while few are held: the first RES_FIRST[r] cubes of resource r are worth
# RES_HIGH[r] times W_RES each (gold pays the green and purple actions, military the conquest, culture the
# pick-up and the achievements), every further cube W_RES.
RES_FIRST = (4, 3, 4)
RES_HIGH = (2.5, 1.5, 4.0)

# Context slots (``ctx``, float64): values computed once per evaluated position.
C_VP0 = 0  # +k: value of one more VP on track k
C_VPANY = 3  # the best track's value
C_CONQ = 4  # the best province a conquer could bring now
C_FUT = 5  # expected productions still to come of a kept province's slot
C_BESTC = 6  # best waiting value a free common could reach
C_BESTG = 7  # ... a free grande
C_WORKER = 8  # value of one more worker in play now
C_RANKV = 9  # value of the council bonus the votes point at
C_CAP0 = 10  # +r: the seat's cap on resource r
C_HI0 = 13  # +r: value of each of the first RES_FIRST[r] cubes
N_CTX = 16
