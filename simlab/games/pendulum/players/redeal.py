"""Re-dealing what a seat cannot see (deck orders, the council cards still to come) in a copy of the state."""

from __future__ import annotations

import numpy as np

from simlab.core.jit import kernel
from simlab.core.rng import below, derive_key
from simlab.games.pendulum.players.rng import next_u64
from simlab.games.pendulum.state import N_STREAMS, STREAM_SEAT0
from simlab.games.pendulum.tables import (
    N_STANDARD,
    ST_COUNCIL,
)


@kernel
def rekey(g, seed: np.uint64) -> None:
    """Give every random stream of the copy ``g`` a fresh key derived from ``seed``."""
    for k in range(N_STREAMS):
        g.rng_key[k] = derive_key(seed, np.uint64(k))
        g.rng_ctr[k] = 0


@kernel
def _bit_sort(arr, n: int) -> bool:
    """Sort ``arr[:n]`` ascending through a 128-bit set when its values are distinct and in 0..127 (every
    deck of the game: card ids); False (``arr`` untouched) otherwise."""
    lo = np.uint64(0)
    hi = np.uint64(0)
    one = np.uint64(1)
    for i in range(n):
        x = arr[i]
        if x < 0 or x >= 128:
            return False
        if x < 64:
            bit = one << np.uint64(x)
            if lo & bit:
                return False
            lo |= bit
        else:
            bit = one << np.uint64(x - 64)
            if hi & bit:
                return False
            hi |= bit
    k = 0
    x = 0
    while lo:
        if lo & one:
            arr[k] = x
            k += 1
        lo >>= one
        x += 1
    x = 64
    while hi:
        if hi & one:
            arr[k] = x
            k += 1
        hi >>= one
        x += 1
    return True


@kernel
def _sort_shuffle(g, arr, n: int, stream: int, depth: int) -> None:
    """Sort ``arr[:n]`` (forgetting its order), then Fisher-Yates it with g's stream from the top
    (``arr[n - 1]``) down: only the top ``depth`` cards, which come out as the full shuffle deals them, the
    stream's counter then skipping the draws of the rest (the cards below keep a valid order)."""
    if not _bit_sort(arr, n):
        for i in range(1, n):  # insertion sort: n <= 64
            x = arr[i]
            j = i - 1
            while j >= 0 and arr[j] > x:
                arr[j + 1] = arr[j]
                j -= 1
            arr[j + 1] = x
    for i in range(n - 1, 0, -1):
        if i < n - depth:
            g.rng_ctr[stream] += np.uint64(i)  # the i draws the rest of the shuffle would take
            break
        j = below(next_u64(g, stream), i + 1)
        x = arr[i]
        arr[i] = arr[j]
        arr[j] = x


# How deep in a deck a played-out copy of the heuristics may draw (a conquest and its refill, the next
# achievement, the Automa's cards for a trigger or two, a council's offer of five): ``determinize_top`` deals
# only the top DEAL_DEPTH cards of each deck.
DEAL_DEPTH = 8
_EVERY_CARD = 64  # at least every deck's capacity


@kernel
def determinize(g, t, p: int, seed: np.uint64) -> None:
    """Re-deal, in the copy ``g``, what seat p cannot see, from streams keyed by ``seed``.

    Every random stream is re-keyed (the chance streams' futures are unknown to the seat); the order of
    the province, achievement and Automa decks is forgotten (their contents follow from what is public)
    and shuffled anew; the standard council cards still in the deck are drawn anew from those the seat has
    not seen on offer or owned (neither in the offer nor a stratagem of any seat: 10 of the unseen cards
    left the game unseen at setup; the cards of earlier offers that nobody kept count as unseen, an
    approximation: the state keeps no record of them). Reads nothing that ``PendulumGame.hide`` hides:
    the result is the same from the true state and from the seat's view."""
    determinize_top(g, t, p, seed, _EVERY_CARD)


@kernel
def determinize_top(g, t, p: int, seed: np.uint64, depth: int) -> None:
    """``determinize`` dealing only the top ``depth`` cards of each deck: those cards, and every stream
    afterwards, are what ``determinize`` deals (a shuffle from the top down, whose skipped draws the stream's
    counter passes over); the cards below keep a valid order that is not re-shuffled. What a one-ply copy
    draws lies in the top few cards (DEAL_DEPTH)."""
    rekey(g, seed)
    stream = STREAM_SEAT0 + p
    _sort_shuffle(g, g.pdeck, g.pdeck_n, stream, depth)
    _sort_shuffle(g, g.adeck, g.adeck_n, stream, depth)
    _sort_shuffle(g, g.a_deck, g.a_deck_n, stream, depth)
    n = g.cdeck_n
    if n > 0:
        seen = np.uint64(0)  # a set of card ids (N_STANDARD <= 64)
        one = np.uint64(1)
        for i in range(5):
            if 0 <= g.offer[i] < N_STANDARD:
                seen |= one << np.uint64(g.offer[i])
        for i in range(t.n_strats):
            c = t.st[i, ST_COUNCIL]
            if 0 <= c < N_STANDARD and not (seen >> np.uint64(c)) & one:
                for q in range(g.n_players):
                    if g.strat[q, i] != 0:
                        seen |= one << np.uint64(c)
        pool = np.empty(N_STANDARD, dtype=np.int32)
        k = 0
        for c in range(N_STANDARD):
            if not (seen >> np.uint64(c)) & one:
                pool[k] = c
                k += 1
        for i in range(k - 1, 0, -1):
            if n <= k and i < n - depth:  # the deck's top (cdeck[n - 1] down) is the pool's top: dealt
                g.rng_ctr[stream] += np.uint64(i)
                break
            j = below(next_u64(g, stream), i + 1)
            x = pool[i]
            pool[i] = pool[j]
            pool[j] = x
        for i in range(n):
            g.cdeck[i] = pool[i % k] if k > 0 else 0
