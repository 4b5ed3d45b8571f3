"""Counter-based random numbers (simlab.core.rng): seeds, streams and the range mappings."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from simlab.core.rng import below, derive_key, game_seed, game_seeds, stream_keys, u64_at, unit


@njit(cache=True)
def _below_counts(key, n, draws):
    """Histogram of ``below(u64_at(key, i), n)`` for i < draws, plus the out-of-range count."""
    counts = np.zeros(n, dtype=np.int64)
    bad = 0
    for i in range(draws):
        v = below(u64_at(np.uint64(key), np.uint64(i)), n)
        if 0 <= v < n:
            counts[v] += 1
        else:
            bad += 1
    return counts, bad


@njit(cache=True)
def _below_at(x, n):
    return below(np.uint64(x), n)


@njit(cache=True)
def _units(key, draws):
    out = np.empty(draws, dtype=np.float64)
    for i in range(draws):
        out[i] = unit(u64_at(np.uint64(key), np.uint64(i)))
    return out


@njit(cache=True)
def _stream(key, draws):
    out = np.empty(draws, dtype=np.uint64)
    for i in range(draws):
        out[i] = u64_at(np.uint64(key), np.uint64(i))
    return out


def test_game_seeds_deterministic():
    """The same experiment seed gives the same game seeds, every call."""
    a = game_seeds(42, 0, 1000)
    b = game_seeds(42, 0, 1000)
    assert a.dtype == np.uint64
    assert a.shape == (1000,)
    np.testing.assert_array_equal(a, b)


def test_game_seeds_distinct():
    """Seeds within an experiment and across experiment seeds do not collide."""
    a = game_seeds(42, 0, 5000)
    assert len(np.unique(a)) == len(a)
    b = game_seeds(43, 0, 5000)
    assert len(np.intersect1d(a, b)) == 0
    assert not np.array_equal(game_seeds(0, 0, 10), game_seeds(1, 0, 10))


def test_game_seed_matches_game_seeds():
    """game_seed(seed, i) is element i of game_seeds(seed, 0, n)."""
    seeds = game_seeds(7, 0, 50)
    for i in (0, 1, 2, 17, 49):
        assert int(game_seed(7, i)) == int(seeds[i])


@pytest.mark.parametrize("first", [0, 1, 13, 100])
def test_game_seeds_slices(first):
    """game_seeds(seed, first, n) is the slice [first:first+n] of the whole run: shards agree."""
    whole = game_seeds(3, 0, 200)
    part = game_seeds(3, first, 40)
    np.testing.assert_array_equal(part, whole[first : first + 40])


def test_game_seeds_empty():
    assert game_seeds(3, 0, 0).shape == (0,)


def test_stream_keys_differ_per_stream():
    """Every stream of a game gets its own key, and keys depend on the game seed."""
    seed = np.uint64(int(game_seed(5, 0)))
    keys = stream_keys(seed, 16)
    assert keys.dtype == np.uint64
    assert len(set(keys.tolist())) == 16
    for i in range(16):
        assert int(keys[i]) == int(derive_key(seed, np.uint64(i)))
    other = stream_keys(np.uint64(int(game_seed(5, 1))), 16)
    assert not set(keys.tolist()) & set(other.tolist())
    # a prefix of the streams is the same whatever the number asked for
    np.testing.assert_array_equal(stream_keys(seed, 4), keys[:4])


def test_streams_are_not_shifted_copies():
    """Two streams' first values share nothing (no overlap from a counter offset)."""
    keys = stream_keys(np.uint64(12345), 4)
    values = [set(_stream(k, 256).tolist()) for k in keys]
    for i in range(4):
        for j in range(i + 1, 4):
            assert not values[i] & values[j]


@pytest.mark.parametrize("n", [1, 2, 5, 6, 7, 54, 1000])
def test_below_in_range(n):
    counts, bad = _below_counts(np.uint64(99), n, 20_000)
    assert bad == 0
    assert counts.sum() == 20_000


def test_below_extremes():
    """The smallest and largest 64-bit inputs map to 0 and n-1."""
    top = np.uint64(0xFFFFFFFFFFFFFFFF)
    for n in (1, 2, 6, 1000):
        assert _below_at(np.uint64(0), n) == 0
        assert _below_at(top, n) == n - 1


@pytest.mark.parametrize("n", [2, 6, 10, 37])
def test_below_roughly_uniform(n):
    """Chi-square goodness of fit against the uniform distribution (fixed seed, generous bound)."""
    draws = 60_000
    counts, _ = _below_counts(np.uint64(20240607), n, draws)
    expected = draws / n
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    # df = n - 1; mean df, sd sqrt(2 df): allow mean + 6 sd
    df = n - 1
    assert chi2 < df + 6 * np.sqrt(2 * df), (chi2, counts)


def test_unit_in_unit_interval():
    u = _units(np.uint64(3), 50_000)
    assert u.min() >= 0.0
    assert u.max() < 1.0
    assert abs(u.mean() - 0.5) < 0.01
