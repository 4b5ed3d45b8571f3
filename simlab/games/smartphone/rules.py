"""Smartphone Inc.'s rules as compiled kernels over the state record (see ``state.py``).

Every kernel takes the state record ``s`` (``arr[0]``), the table record ``T`` (``tables[0]``, see ``tables.py``)
and, where events happen, an event log ``log``. Rule numbers S1... and open points O1... are
those of the research notes (``NOTES.md``); the rulebook is the authority.

A game is a sequence of decisions (``state.pending``, the ``D_*`` codes) taken by ``state.actor``;
everything between decisions (pricing, production, priority, income, set-up) runs inside
``advance``. Simultaneous planning (phase 1) is asked seat by seat; a seat never sees another
seat's plan for the round (observations hide it, compiled players do not read it).

Actions are integers (``A_*`` bases plus an argument), legal lists sorted ascending:

    A_DONE                       stop placing upgrades / markers / selling (where allowed)
    A_ARR + i                    lay the tablets as arrangement i (arrangements.py)
    A_PLACE + (h*MAX_SLOTS+k)*2+o  lay hand upgrade h on slot k, halves in order o (0: a on slot pos a)
    A_PICK + j                   take the upgrade in display position j (phase 4)
    A_RESEARCH + t               put one progress marker on technology t (phase 5)
    A_LOGISTICS + r              put one progress marker on region r (phase 6)
    A_WIFI + r / A_GAMEPAD + r   the free office of WI-FI face / GAMEPAD back
    A_NFC + n                    sell n goods directly (NFC face)
    A_SELL + b                   put one good on buyer b (phase 7)
    A_RB_RESEARCH + t            a retailer RESEARCH bonus marker on technology t
    A_RB_PRICE + d               the retailer PRICE bonus: d = 0 lower, 1 raise
    A_RB_SECOND + r              the retailer SECOND_OFFICE bonus office
    A_MOVE_FROM + r / A_MOVE_TO + r  the retailer MOVE_OFFICE bonus

The event log is an int32 array (capacity + 1, LOG_WIDTH); ``log[0, 0]`` counts events written
to rows 1.., ``log[0, 1]`` is set when events were dropped. A one-row log records nothing.
"""

from __future__ import annotations

import numpy as np

from simlab.core.jit import kernel
from simlab.core.kernels import shuffle
from simlab.core.rng import derive_key
from simlab.games.smartphone.apply import *  # noqa: F403  (rules.py is the whole rules API in one place)
from simlab.games.smartphone.apply import apply_action
from simlab.games.smartphone.board_setup import *  # noqa: F403
from simlab.games.smartphone.board_setup import (
    build_deck,
    choose_tech_sides,
    place_retailers,
    reset_board,
    seat_players,
)
from simlab.games.smartphone.codes import *  # noqa: F403
from simlab.games.smartphone.codes import BONUS_NONE
from simlab.games.smartphone.decisions import *  # noqa: F403
from simlab.games.smartphone.decisions import advance
from simlab.games.smartphone.events import *  # noqa: F403
from simlab.games.smartphone.legal import *  # noqa: F403
from simlab.games.smartphone.legal import legal_actions
from simlab.games.smartphone.offices import *  # noqa: F403
from simlab.games.smartphone.research import *  # noqa: F403
from simlab.games.smartphone.rounds import *  # noqa: F403
from simlab.games.smartphone.rounds import start_round
from simlab.games.smartphone.sales import *  # noqa: F403
from simlab.games.smartphone.state import D_NONE, N_STREAMS, STREAM_SETUP
from simlab.games.smartphone.tables import OPT_COLOUR_RANDOM, OPT_TOKEN_SUPPLY
from simlab.games.smartphone.tablets import *  # noqa: F403

# ---------------------------------------------------------------- a game's start


@kernel
def setup(s, seed, n_players: int, T, log) -> None:
    """Set up a game from its 64-bit seed (S5-S10), then run to the first decision.

    ``s`` must be a freshly zeroed record (``np.zeros(1, STATE_DTYPE)[0]``). The set-up stream is
    drawn in this order: colours, retailers, technology sides, the upgrade deck.
    """
    s.seed = seed
    s.n_players = n_players
    for k in range(N_STREAMS):
        s.rng_key[k] = derive_key(np.uint64(seed), np.uint64(k))
        s.rng_ctr[k] = 0
    s.round = 1
    s.phase = 1
    s.over = 0
    s.n_steps = 0
    s.pending = D_NONE
    s.rb_kind = BONUS_NONE
    s.rb_left = 0
    s.move_from = -1
    s.tokens_left = T.opts[OPT_TOKEN_SUPPLY]
    n_colours = T.start.shape[0]
    cols = np.arange(n_colours)
    if T.opts[OPT_COLOUR_RANDOM]:
        shuffle(s, STREAM_SETUP, cols, n_colours)
    reset_board(s, T)
    seat_players(s, T, cols, log)
    place_retailers(s, T, log)
    choose_tech_sides(s, T, log)
    build_deck(s, T)
    start_round(s, T, log)
    advance(s, T, log)


# ---------------------------------------------------------------- Python entry points


@kernel
def py_setup(state, seed, n_players: int, tables, log, legal) -> int:
    """Set up ``state[0]`` with ``tables[0]``; writes the first legal actions, returns how many."""
    s = state[0]
    T = tables[0]
    setup(s, np.uint64(seed), n_players, T, log)
    return legal_actions(s, T, legal)


@kernel
def py_step(state, action: int, tables, log, legal) -> int:
    """Apply ``action`` to ``state[0]``; writes the next legal actions, returns how many."""
    s = state[0]
    T = tables[0]
    apply_action(s, T, action, log)
    if s.over:
        return 0
    return legal_actions(s, T, legal)
