"""Solo Race's rules kernels.

The rules: racers start on space 0 of a track of ``goal`` spaces. A round is every seat's
turn in seat order, then (solo only) the Automa's. On its turn a seat rolls two dice from its
dice stream and chooses, before seeing them, how to move: ``walk`` 2 spaces, ``roll`` the
first die's value, or ``gamble`` on the sum of both dice (nothing at all when either shows a
1: a bust). A racer landing on a special space (``data/spaces.csv``) moves on or back by its
shift, once. Positions stay within 0..goal. The game ends at the end of the round in which a
racer reaches the goal, or after ``max_rounds`` rounds. A seat's score is its space.

The Automa (solo games only) is part of the rules, not a player: each round it rolls one die
from its own stream and moves that many spaces, one more when the die shows ``automa_level``
or less, and it obeys the special spaces. It competes for the ranks: the seat's rank is 1
when it is ahead of the Automa, 2 when not; a tie goes to the Automa (``automa_ties =
"automa"``, the default) or to the seat (``"seat"``).

Calling conventions: see :mod:`simlab.core.compiled`. Every kernel takes the ruleset's
``board`` (shift per space) and ``opts`` (option values, ``OPT_*``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.core.kernels import log_event, next_u64, rank_seats
from simlab.core.kernels import new_log as _new_log
from simlab.core.rng import below, derive_key
from simlab_solo_race.state import MAX_PLAYERS, N_MOVES, N_STREAMS, STREAM_AUTOMA, STREAM_DICE0

# ---- actions (a seat's three moves; always all legal)
ACT_WALK, ACT_ROLL, ACT_GAMBLE = range(N_MOVES)
N_ACTIONS = N_MOVES
MOVE_NAMES = ("walk", "roll", "gamble")
WALK_STEPS = 2

# ---- options, as the int64 array the kernels read
OPT_GOAL, OPT_MAX_ROUNDS, OPT_AUTOMA_LEVEL, OPT_SEAT_WINS_TIES = range(4)
N_OPTS = 4

# ---- event log rows: column 0 is the kind, the rest as listed
EV_ROUND = 1  # round
EV_MOVE = 2  # seat, move, die 1, die 2, from, landed, to
EV_AUTOMA = 3  # die, steps, from, landed, to
LOG_WIDTH = 8


def option_array(options: dict) -> np.ndarray:
    """The resolved options as the kernels' ``opts`` array."""
    opts = np.zeros(N_OPTS, dtype=np.int64)
    opts[OPT_GOAL] = options["goal"]
    opts[OPT_MAX_ROUNDS] = options["max_rounds"]
    opts[OPT_AUTOMA_LEVEL] = options["automa_level"]
    opts[OPT_SEAT_WINS_TIES] = options["automa_ties"] == "seat"
    return opts


@njit(cache=True)
def new_log(capacity: int) -> np.ndarray:
    """An event log for ``capacity`` events (0 records nothing)."""
    return _new_log(capacity, LOG_WIDTH)


@njit(cache=True)
def die(s, stream: int) -> int:
    """A six-sided die from the state's stream ``stream``."""
    return 1 + below(next_u64(s, stream), 6)


@njit(cache=True)
def landing(board, goal: int, start: int, steps: int) -> tuple[int, int]:
    """(space reached, space after its shift) moving ``steps`` from ``start``; both within 0..goal."""
    landed = min(start + steps, goal)
    to = min(max(landed + board[landed], 0), goal)
    return landed, to


# ---------------------------------------------------------------- setup and turns


@njit(cache=True)
def setup(s, seed: np.uint64, n_players: int, board, opts, log) -> None:
    """A new game from its 64-bit seed: every racer on space 0, seat 0 to act in round 1."""
    s.seed = seed
    s.n_players = n_players
    s.round = 1
    s.over = 0
    s.actor = 0
    for k in range(N_STREAMS):
        s.rng_key[k] = derive_key(seed, np.uint64(k))
        s.rng_ctr[k] = 0
    for p in range(MAX_PLAYERS):
        s.pos[p] = 0
        s.busts[p] = 0
        s.shift_sum[p] = 0
        s.score[p] = 0
        s.rank[p] = 0
        s.winner[p] = 0
        for m in range(N_MOVES):
            s.moves[p, m] = 0
    s.automa = 1 if n_players == 1 else 0
    s.automa_pos = 0
    s.automa_rank = 0
    s.automa_won = 0
    row = log_event(log, EV_ROUND)
    if row >= 0:
        log[row, 1] = 1


@njit(cache=True)
def legal_actions(s, out) -> int:
    """The seat's legal moves, ascending (all three, every turn)."""
    for a in range(N_ACTIONS):
        out[a] = a
    return N_ACTIONS


@njit(cache=True)
def apply_action(s, action: int, board, opts, log) -> None:
    """The seat to act makes ``action``; the round ends after the last seat."""
    p = s.actor
    goal = opts[OPT_GOAL]
    d1 = die(s, STREAM_DICE0 + p)  # both dice every turn, whatever the move (common random numbers)
    d2 = die(s, STREAM_DICE0 + p)
    if action == ACT_WALK:
        steps = WALK_STEPS
    elif action == ACT_ROLL:
        steps = d1
    else:
        steps = 0 if d1 == 1 or d2 == 1 else d1 + d2
        if steps == 0:
            s.busts[p] += 1
    start = s.pos[p]
    landed, to = landing(board, goal, start, steps)
    s.pos[p] = to
    s.moves[p, action] += 1
    s.shift_sum[p] += to - landed
    row = log_event(log, EV_MOVE)
    if row >= 0:
        log[row, 1] = p
        log[row, 2] = action
        log[row, 3] = d1
        log[row, 4] = d2
        log[row, 5] = start
        log[row, 6] = landed
        log[row, 7] = to
    if p + 1 < s.n_players:
        s.actor = p + 1
    else:
        end_round(s, board, opts, log)


@njit(cache=True)
def automa_turn(s, board, opts, log) -> None:
    """The Automa's move: one die from its own stream, +1 when the die is at most ``automa_level``."""
    d = die(s, STREAM_AUTOMA)
    steps = d + (1 if d <= opts[OPT_AUTOMA_LEVEL] else 0)
    start = s.automa_pos
    landed, to = landing(board, opts[OPT_GOAL], start, steps)
    s.automa_pos = to
    row = log_event(log, EV_AUTOMA)
    if row >= 0:
        log[row, 1] = d
        log[row, 2] = steps
        log[row, 3] = start
        log[row, 4] = landed
        log[row, 5] = to


@njit(cache=True)
def end_round(s, board, opts, log) -> None:
    """After the last seat: the Automa moves (solo), then the game ends or the next round starts."""
    if s.automa:
        automa_turn(s, board, opts, log)
    goal = opts[OPT_GOAL]
    done = s.round >= opts[OPT_MAX_ROUNDS]
    if s.automa == 1 and s.automa_pos >= goal:
        done = True
    for p in range(s.n_players):
        if s.pos[p] >= goal:
            done = True
    if done:
        final_scoring(s, opts)
        return
    s.round += 1
    s.actor = 0
    row = log_event(log, EV_ROUND)
    if row >= 0:
        log[row, 1] = s.round


@njit(cache=True)
def final_scoring(s, opts) -> None:
    """Scores, ranks and winners. In solo games the Automa is one more row of the ranking keys.

    Keys: the space reached, then (solo) the tie-break of ``automa_ties``. The seats' ranks and
    winners go to the seats' results; the Automa's to ``automa_rank`` and ``automa_won``.
    """
    n = s.n_players
    rows = n + s.automa
    keys = np.zeros((rows, 2), dtype=np.int64)
    rank = np.zeros(rows, dtype=np.int64)
    winner = np.zeros(rows, dtype=np.int64)
    for p in range(n):
        s.score[p] = s.pos[p]
        keys[p, 0] = s.pos[p]
        keys[p, 1] = opts[OPT_SEAT_WINS_TIES]
    if s.automa:
        keys[n, 0] = s.automa_pos
        keys[n, 1] = 1 - opts[OPT_SEAT_WINS_TIES]
    rank_seats(keys, rows, rank, winner)
    for p in range(n):
        s.rank[p] = rank[p]
        s.winner[p] = winner[p]
    if s.automa:
        s.automa_rank = rank[n]
        s.automa_won = winner[n]
    s.over = 1


# ---------------------------------------------------------------- entry points for Python
# Python cannot hand a record to a kernel cheaply, so these take the one-element state array.


@njit(cache=True)
def py_setup(s_arr, seed: np.uint64, n_players: int, board, opts, log, legal) -> int:
    """Set up a game; return the number of legal actions written to ``legal``."""
    s = s_arr[0]
    setup(s, seed, n_players, board, opts, log)
    return legal_actions(s, legal)


@njit(cache=True)
def py_step(s_arr, action: int, board, opts, log, legal) -> int:
    """Apply ``action``; return the next seat's legal actions count (0 once the game is over)."""
    s = s_arr[0]
    apply_action(s, action, board, opts, log)
    if s.over:
        return 0
    return legal_actions(s, legal)
