"""The Sentient state record: one numpy structured scalar holds a whole game.

Layout (P = seat 0..3, C = factory column 0..3, S = network slot 0..3, D = die 0..4):

    game      n_players  round(1..3, 4 = over)  over  turn (index into order)  n_turns
    turn      order[P]        current round's marker stack, top (first) first; first_seat
                              is the seat that opened round 1
    order     pass_seq[P]     seats in the order they passed this round; n_passed
    per seat  passed[P] agents[P] assistants[P]          pieces left this round
    network   dice[P, D]      current die faces 1..6; round_dice[P, D] the roll
              slot_card[P, S] card index or -1; slot_block[P, S] bit 0 left, bit 1 right
    factory   factory[C]      card index or -1;  investors[I] type of investor I0..I4
              col_agents[P, C] col_assistants[P, C]   influence pieces per column
    cards     deck[] deck_n (top is deck[deck_n-1]); discard[] discard_n; removed_n
              owned[P, 12] owned_n[P] (every card a seat bought, all rounds, in buying order)
              owned_slot/_block/_influence/_column/_turn/_points[P, 12]: how each was bought
              and what it scored (the takes event table is read from these)
    scoring   type_count[P, T] investors_held[P, T] start_investor[P]
              card_vp[P] round_vp[P, 3] second_vp[P] investor_vp[P] total[P] rank[P] winner[P]
    scratch   scratch[8] work[2, P]: room for kernels that would otherwise allocate
    chance    rng_key[K] rng_ctr[K]: K = 4 chance streams + one per seat (see STREAM_*)

Card indices are rows of the card array (``data.SentientData.card_array``), not printed ids.
Copying a game (for search players) is copying this one record.
"""

from __future__ import annotations

import numpy as np

MAX_PLAYERS = 4
MIN_PLAYERS = 2
N_COLUMNS = 4
N_SLOTS = 4
N_DICE = 5
N_INVESTORS = 5
N_TYPES = 5
N_ROUNDS = 3
CARDS_PER_ROUND = 4
MAX_OWNED = N_ROUNDS * CARDS_PER_ROUND
AGENTS = 4
ASSISTANTS = 5
MAX_CARDS = 128

# Random streams: the chance streams are split by purpose, so that the initial deck order
# and every dice roll depend only on the game seed, never on what the players do.
STREAM_SETUP = 0  # deck shuffle, starting investors, first turn order
STREAM_DICE = 1  # dice rolls at every round start
STREAM_LAYOUT = 2  # investor layout at every round start
STREAM_RESHUFFLE = 3  # reshuffles of the discard pile (their timing depends on play)
STREAM_SEAT0 = 4  # seat p draws from stream STREAM_SEAT0 + p
N_STREAMS = STREAM_SEAT0 + MAX_PLAYERS

STATE_DTYPE = np.dtype(
    [
        ("seed", np.uint64),
        ("n_players", np.int8),
        ("round", np.int8),
        ("over", np.int8),
        ("turn", np.int8),
        ("n_turns", np.int16),
        ("n_reshuffles", np.int16),
        ("n_sweeps", np.int16),
        ("first_seat", np.int8),
        ("order", np.int8, (MAX_PLAYERS,)),
        ("pass_seq", np.int8, (MAX_PLAYERS,)),
        ("n_passed", np.int8),
        ("passed", np.int8, (MAX_PLAYERS,)),
        ("agents", np.int8, (MAX_PLAYERS,)),
        ("assistants", np.int8, (MAX_PLAYERS,)),
        ("dice", np.int8, (MAX_PLAYERS, N_DICE)),
        ("round_dice", np.int8, (MAX_PLAYERS, N_DICE)),
        ("slot_card", np.int16, (MAX_PLAYERS, N_SLOTS)),
        ("slot_block", np.int8, (MAX_PLAYERS, N_SLOTS)),
        ("factory", np.int16, (N_COLUMNS,)),
        ("investors", np.int8, (N_INVESTORS,)),
        ("col_agents", np.int8, (MAX_PLAYERS, N_COLUMNS)),
        ("col_assistants", np.int8, (MAX_PLAYERS, N_COLUMNS)),
        ("n_cards", np.int16),
        ("deck", np.int16, (MAX_CARDS,)),
        ("deck_n", np.int16),
        ("discard", np.int16, (MAX_CARDS,)),
        ("discard_n", np.int16),
        ("removed_n", np.int16),
        ("owned", np.int16, (MAX_PLAYERS, MAX_OWNED)),
        ("owned_n", np.int16, (MAX_PLAYERS,)),
        ("owned_slot", np.int8, (MAX_PLAYERS, MAX_OWNED)),
        ("owned_block", np.int8, (MAX_PLAYERS, MAX_OWNED)),
        ("owned_influence", np.int8, (MAX_PLAYERS, MAX_OWNED)),
        ("owned_column", np.int8, (MAX_PLAYERS, MAX_OWNED)),
        ("owned_turn", np.int16, (MAX_PLAYERS, MAX_OWNED)),
        ("owned_points", np.int16, (MAX_PLAYERS, MAX_OWNED)),
        ("type_count", np.int16, (MAX_PLAYERS, N_TYPES)),
        ("investors_held", np.int8, (MAX_PLAYERS, N_TYPES)),
        ("start_investor", np.int8, (MAX_PLAYERS,)),
        ("card_vp", np.int16, (MAX_PLAYERS,)),
        ("round_vp", np.int16, (MAX_PLAYERS, N_ROUNDS)),
        ("second_vp", np.int16, (MAX_PLAYERS,)),
        ("investor_vp", np.int16, (MAX_PLAYERS,)),
        ("total", np.int16, (MAX_PLAYERS,)),
        ("rank", np.int8, (MAX_PLAYERS,)),
        ("winner", np.int8, (MAX_PLAYERS,)),
        ("scratch", np.int8, (8,)),
        ("work", np.int32, (2, MAX_PLAYERS)),
        ("rng_key", np.uint64, (N_STREAMS,)),
        ("rng_ctr", np.uint64, (N_STREAMS,)),
    ]
)

