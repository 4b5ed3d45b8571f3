"""One compiled information-set Monte Carlo tree search (ISMCTS) for every game.

The search is single-observer ISMCTS (Cowling, Powley and Whitehouse, *Information Set Monte
Carlo Tree Search*, 2012) with availability counts, progressive bias from an optional prior,
and cut-off rollouts scored by the game's evaluation:

1. every iteration *determinises* the position: a copy of the true state in which what the
   searching seat cannot know (a deck's order, another seat's hidden tiles, every future draw)
   is resampled from the search's own random stream;
2. it descends the one tree of the searching seat's information set: at a node, the children
   whose action is legal in this determinisation are *available* (their availability count
   goes up); an available action without a child is expanded (the one with the highest prior,
   ties at random), otherwise the child with the best

       mean reward + exploration * sqrt(ln(availability) / visits) + prior_weight * prior / (visits + 1)

   is followed (each node's reward is that of the seat that made its move, so every seat plays
   for itself in 2–5 player games); a node below the root visited fewer than ``expand_after``
   times is a leaf: the descent stops there (an expansion threshold, as in Fuego and AlphaGo: a
   node earns the cost of listing its actions, looking up its children and computing its prior
   only once it has been reached often enough to use them);
3. from the new node (or that leaf) the game's fast rollout policy plays on for at most ``rollout_depth``
   decisions (a negative depth plays to the end), and the game's evaluation gives every seat a
   value in [0, 1] (the win, ties shared, once the game is over; an estimate otherwise);
4. the values go back up the path. After the budget, the most visited root child is played.

The budget is counted in iterations, so a search is deterministic: the same position, the
same key and the same parameters give the same action, on any machine. The tree lives in a
node pool of ``iterations + 1`` nodes allocated once per decision (every iteration adds at most
one node), so no game or budget can grow it past ``NODE_BYTES * (iterations + 1)`` bytes.

A game plugs in by writing seven small numba functions (its *search hooks*) and registering
them for its state record with :func:`register_search_hooks`; its compiled ``choose`` kernel
then calls :func:`ismcts_action`. The hooks are bound by numba's overload mechanism, keyed by
the state record's type, so the search is compiled once per game, inlines nothing it need not,
and is cached like any kernel (a dispatcher passed as an argument would make every caller
uncacheable). Nothing here names a game. ``args`` is a tuple the game builds for its own hooks
(its rule arrays, scratch room): the search only passes it on. The hooks, with ``g_arr`` a
one-element state array:

* ``determinise(g_arr, seat, key, args)``: ``g_arr[0]`` holds a copy of the true position;
  resample what ``seat`` may not know and re-key every random stream from ``key`` (so no
  iteration sees the true future);
* ``legal_actions(g_arr, legal, args) -> n``: the legal actions (0 once the game is over);
* ``apply(g_arr, action, args)``: play ``action`` for the seat to act;
* ``actor(g_arr) -> seat``: the seat to act;
* ``rollout(g_arr, depth, args)``: play on with the game's fast policy for at most ``depth``
  decisions (all of them if ``depth < 0``), drawing from the copy's own streams;
* ``evaluate(g_arr, values, args)``: ``values[seat]`` in [0, 1] for every seat;
* ``prior(g_arr, legal, n, out, args)``: a weight in [0, 1] for each of ``legal[:n]``, 1 for the
  most promising (it need not sum to 1: it orders the expansions and scales the progressive
  bias); optional: every action alike when the game has none. A game whose prior reads only what the
  seat to act knows registers it with ``observable_prior=True``: the root's prior is then computed
  once per decision instead of at every expansion of the root (the same values, so the same search).

The root is the searching seat's own information set, so its legal actions are the same in every
determinisation (a search that could pick an action illegal in the true position would be wrong): the
root's legal actions and which of them have a child are kept for the whole decision, not listed and
looked up again at every iteration. At every node UCB scores only the available children, in the order of
the node's legal actions (ties go to the first).

Parameters (the first entries of a search player's parameter vector, shown by ``simlab
players GAME``): ``iterations``, ``exploration``, ``rollout_depth``, ``prior_weight``,
``widening`` (progressive widening, for games with hundreds of legal actions: a node gets a new
child, best prior first, only while it has fewer than ``widening * sqrt(visits + 1)``) and
``expand_after`` (the expansion threshold above; 1: a node gets children from its second visit on).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import from_dtype, njit, types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from simlab.core.game import BuiltinPlayer
from simlab.core.jit import kernel
from simlab.core.jit_link import KernelCompiler
from simlab.core.rng import below, derive_key, u64_at

P_ITERATIONS = 0
P_EXPLORATION = 1
P_ROLLOUT_DEPTH = 2
P_PRIOR_WEIGHT = 3
P_WIDENING = 4
P_EXPAND_AFTER = 5
N_SEARCH_PARAMS = 6  # a game's own search parameters follow these

PARAM_HELP = {
    "iterations": "determinised descents per decision (the budget; the tree holds at most iterations + 1 nodes)",
    "exploration": "UCB exploration constant (rewards are win shares in [0, 1])",
    "rollout_depth": "decisions a rollout plays with the fast policy before the evaluation scores the position "
                     "(negative: to the end of the game)",
    "prior_weight": "weight of the prior (progressive bias), 0 for plain UCB",
    "widening": "progressive widening: a node visited v times has at most widening * sqrt(v + 1) children, "
                "added best prior first (0: every legal action gets a child before any is revisited)",
    "expand_after": "visits a node below the root needs before it gets children (1: from its second visit on; "
                    "more: a rarely visited node is rolled out from instead of listed, looked up and expanded)",
}

# Shared parameters a game may leave out of its search player's defaults, with the value that plays the search as it
# was before the parameter existed.
OPTIONAL_DEFAULTS = {"expand_after": 1.0}

# Bytes one tree node takes: parent, first child, next sibling, mover, child count and its place on a path (int32
# each), action (int64), visits, availability, reward sum, sum of squared rewards, prior and the logarithm of an
# availability count (float64 each).
NODE_BYTES = 6 * 4 + 8 + 6 * 8

# Statistics a profiled search writes (``stats`` argument): iterations, nodes, CPU cycles in the
# tree (selection, expansion, determinisation, back-up) and in rollouts and evaluations, decisions.
ST_ITERATIONS = 0
ST_NODES = 1
ST_TREE_S = 2
ST_ROLLOUT_S = 3
ST_DECISIONS = 4
N_STATS = 5
# After the counters, a ``stats`` array with room for them gets the root's children (``simlab analyse``): their
# number, then per child (action, visits, sum of the searching seat's values, sum of their squares).
ROOT_FIELDS = 4


def root_stats_size(max_actions: int) -> int:
    """The length of a ``stats`` array that receives the root's children as well as the counters."""
    return N_STATS + 1 + ROOT_FIELDS * int(max_actions)


def root_children(stats: np.ndarray) -> list[tuple[int, int, float, float]]:
    """The root's children a search wrote into ``stats``: (action, visits, mean value, standard deviation) each,
    the value being the searching seat's (win share at the end of a playout, or the game's estimate at a cut-off)."""
    out = []
    for j in range(int(stats[N_STATS])):
        action, n, total, squares = stats[N_STATS + 1 + ROOT_FIELDS * j: N_STATS + 1 + ROOT_FIELDS * (j + 1)]
        mean = total / n if n else float("nan")
        var = max(squares / n - mean * mean, 0.0) * n / (n - 1) if n > 1 else float("nan")
        out.append((int(action), int(n), float(mean), float(np.sqrt(var))))
    return out


def search_player(name: str, kind: int, defaults: dict[str, float], description: str,
                  extra_help: dict[str, str] | None = None) -> BuiltinPlayer:
    """A game's ISMCTS player entry: the shared parameters first (in order), then the game's own.

    ``defaults`` must name the shared parameters first, in order; a shared parameter added after a game was
    written (``OPTIONAL_DEFAULTS``: ``expand_after``) may be left out and takes the value that plays the search
    as it was. Any further entries are the game's own (documented in ``extra_help``) and follow them in the
    parameter vector.
    """
    shared = list(PARAM_HELP)
    expected = [p for p in shared if p in defaults or p not in OPTIONAL_DEFAULTS]  # what must lead, in order
    if list(defaults)[:len(expected)] != expected:
        raise ValueError(f"search player {name}: the first parameters must be {shared} "
                         f"({', '.join(OPTIONAL_DEFAULTS)} may be left out), got {list(defaults)}")
    params = {p: defaults.get(p, OPTIONAL_DEFAULTS.get(p)) for p in shared}
    params.update({p: v for p, v in defaults.items() if p not in PARAM_HELP})
    help_ = dict(PARAM_HELP)
    help_.update(extra_help or {})
    return BuiltinPlayer(name, kind, params, description, help_, slow=True)


def pool_bytes(iterations: int) -> int:
    """The tree's memory bound for a budget of ``iterations`` (bytes)."""
    return NODE_BYTES * (int(iterations) + 1)


@kernel
def uniform_prior(g_arr, legal, n, out, args) -> None:
    """The prior of a game without one: every legal action alike."""
    for i in range(n):
        out[i] = 1.0


# ---------------------------------------------------------------- the hooks, bound per game

# The hooks below are names for numba to resolve, not functions to run: compiled code that calls one gets
# the game's kernel for its state type (``register_search_hooks``); Python has nothing to call.
_STUB = "a search hook is resolved by numba inside compiled code (register_search_hooks); it has no Python body"


def hook_determinise(g_arr, seat, key, args):
    """Resample what ``seat`` may not know in ``g_arr[0]`` (the game's hook)."""
    raise TypeError(_STUB)


def hook_legal(g_arr, out, args):
    """The legal actions into ``out``; how many (the game's hook)."""
    raise TypeError(_STUB)


def hook_apply(g_arr, action, args):
    """Play ``action`` (the game's hook)."""
    raise TypeError(_STUB)


def hook_actor(g_arr):
    """The seat to act (the game's hook)."""
    raise TypeError(_STUB)


def hook_rollout(g_arr, depth, args):
    """Play on with the fast policy (the game's hook)."""
    raise TypeError(_STUB)


def hook_evaluate(g_arr, values, args):
    """Every seat's value in [0, 1] (the game's hook)."""
    raise TypeError(_STUB)


def hook_prior(g_arr, legal, n, out, args):
    """A prior over the legal actions (the game's hook, or every action alike)."""
    raise TypeError(_STUB)


def hook_prior_observable(g_arr):
    """Whether the game's prior reads only what the seat to act knows (a constant per game)."""
    raise TypeError(_STUB)


_REGISTERED: dict[Any, str] = {}
# A hook's overload is compiled like a kernel (simlab.core.jit_link): it calls the game's big kernels instead of
# linking a copy of them, and the search kernel that links the hook records them with its cached code.
_HOOK_JIT = {"pipeline_class": KernelCompiler}


def register_search_hooks(state_dtype: np.dtype, owner: str, *, determinise: Any, legal_actions: Any,
                          apply: Any, actor: Any, rollout: Any, evaluate: Any, prior: Any = None,
                          observable_prior: bool = False) -> None:
    """Bind a game's search hooks (numba functions) to the search for states of ``state_dtype``.

    ``owner`` names the registering module (a second registration for the same state type from
    the same module, e.g. on a reload, is ignored; from another module it is an error).
    ``observable_prior``: the prior reads only what the seat to act knows, so the root's prior is
    the same in every determinisation and is computed once per decision (the game's tests check it).
    """
    record = from_dtype(state_dtype)
    if record in _REGISTERED:
        if _REGISTERED[record] != owner:
            raise ValueError(f"search hooks for this state type are already registered by {_REGISTERED[record]}")
        return
    _REGISTERED[record] = owner
    prior = prior if prior is not None else uniform_prior
    observable = bool(observable_prior) or prior is uniform_prior

    def mine(g_arr) -> bool:
        return getattr(g_arr, "dtype", None) == record

    # Each overload's parameters are named as its stub's (numba requires it); it applies only to
    # states of this game's record type, so every game's hooks live side by side.
    @overload(hook_determinise, jit_options=_HOOK_JIT)
    def _determinise(g_arr, seat, key, args):
        if mine(g_arr):
            return lambda g_arr, seat, key, args: determinise(g_arr, seat, key, args)
        return None

    @overload(hook_legal, jit_options=_HOOK_JIT)
    def _legal(g_arr, out, args):
        if mine(g_arr):
            return lambda g_arr, out, args: legal_actions(g_arr, out, args)
        return None

    @overload(hook_apply, jit_options=_HOOK_JIT)
    def _apply(g_arr, action, args):
        if mine(g_arr):
            return lambda g_arr, action, args: apply(g_arr, action, args)
        return None

    @overload(hook_actor, jit_options=_HOOK_JIT)
    def _actor(g_arr):
        if mine(g_arr):
            return lambda g_arr: actor(g_arr)
        return None

    @overload(hook_rollout, jit_options=_HOOK_JIT)
    def _rollout(g_arr, depth, args):
        if mine(g_arr):
            return lambda g_arr, depth, args: rollout(g_arr, depth, args)
        return None

    @overload(hook_evaluate, jit_options=_HOOK_JIT)
    def _evaluate(g_arr, values, args):
        if mine(g_arr):
            return lambda g_arr, values, args: evaluate(g_arr, values, args)
        return None

    @overload(hook_prior, jit_options=_HOOK_JIT)
    def _prior(g_arr, legal, n, out, args):
        if mine(g_arr):
            return lambda g_arr, legal, n, out, args: prior(g_arr, legal, n, out, args)
        return None

    @overload(hook_prior_observable, jit_options=_HOOK_JIT)
    def _prior_observable(g_arr):
        if mine(g_arr):
            return lambda g_arr: observable
        return None


@intrinsic
def _cycle_counter(typingctx):
    """The CPU's cycle counter (LLVM ``readcyclecounter``): a clock a compiled, cached kernel can read
    (``objmode`` timing would make every caller uncacheable). Only ratios of it are reported."""

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.readcyclecounter")
        return builder.call(fn, [])

    return types.uint64(), codegen


@kernel
def _now() -> float:
    return float(_cycle_counter())


@kernel
def _table_size(max_actions: int) -> int:
    size = 16
    while size < 2 * max_actions:
        size *= 2
    return size


_HASH_MUL = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing of action codes
_HASH_SHIFT = np.uint64(40)


@njit(cache=True, inline="always")
def _slot(code: np.int64, mask: int) -> int:
    return int((np.uint64(code) * _HASH_MUL) >> _HASH_SHIFT) & mask


@kernel
def ismcts_action(root_arr, seat, n_players, max_actions, args, params, key, stats) -> np.int64:
    """The action ISMCTS picks for ``seat`` in ``root_arr[0]`` (see the module docstring).

    ``key`` (uint64) is the search's own random stream, drawn by the game from the seat's
    stream; ``params`` starts with the shared parameters; ``stats`` is a float64 array of
    ``N_STATS`` entries (counted, and timed in CPU cycles, only when it has them; pass an
    empty array to skip it).
    """
    iterations = max(1, int(params[P_ITERATIONS]))
    c = params[P_EXPLORATION]
    depth = int(params[P_ROLLOUT_DEPTH])
    w = params[P_PRIOR_WEIGHT]
    widening = params[P_WIDENING]
    expand_after = params[P_EXPAND_AFTER]
    use_prior = w > 0.0 or widening > 0.0
    timed = stats.shape[0] >= N_STATS
    keep_root = stats.shape[0] >= N_STATS + 1 + ROOT_FIELDS * max_actions

    cap = iterations + 1
    parent = np.empty(cap, dtype=np.int32)
    first_child = np.empty(cap, dtype=np.int32)
    sibling = np.empty(cap, dtype=np.int32)
    mover = np.empty(cap, dtype=np.int32)
    action = np.empty(cap, dtype=np.int64)
    visits = np.zeros(cap)
    avail = np.zeros(cap)
    reward = np.zeros(cap)
    reward2 = np.zeros(cap)  # squares of the rewards (root children only, for ``simlab analyse``)
    pri = np.zeros(cap)
    n_children = np.zeros(cap, dtype=np.int32)
    parent[0] = -1
    first_child[0] = -1
    sibling[0] = -1
    mover[0] = -1
    action[0] = -1
    n_nodes = 1

    g_arr = root_arr.copy()
    legal = np.empty(max_actions, dtype=np.int64)
    prior_buf = np.empty(max_actions)
    values = np.zeros(n_players)
    path = np.empty(cap, dtype=np.int32)
    size = _table_size(max_actions)
    mask = size - 1
    table_code = np.empty(size, dtype=np.int64)
    table_used = np.zeros(size, dtype=np.int64)  # the stamp of the node visit that filled a slot
    table_index = np.empty(size, dtype=np.int64)
    child_of = np.empty(max_actions, dtype=np.int32)  # per legal action: its child, -1 if none
    # log_of[k] = log(k), filled one entry per iteration: at iteration ``it`` no availability count exceeds it + 1
    # (a node starts at 1 and gains at most 1 an iteration). Scalar calls, as the UCB formula made them before.
    log_of = np.empty(cap + 1)
    log_of[0] = np.log(0.0)
    kids = np.empty(max_actions, dtype=np.int32)  # the node's available children, in the order of its legal actions
    # The root's legal actions, their children and prior, kept for the decision (see the module docstring).
    root_legal = np.empty(max_actions, dtype=np.int64)
    root_child = np.full(max_actions, -1, dtype=np.int32)
    root_prior = np.empty(max_actions)
    root_kids = np.empty(max_actions, dtype=np.int32)  # the root's children, in the order of its legal actions
    root_kids_at = np.empty(max_actions, dtype=np.int64)  # ... and the index of each one's action in root_legal
    n_root_kids = 0
    root_n = -1
    root_who = -1
    root_prior_ready = False
    keep_root_prior = hook_prior_observable(g_arr)
    stamp = 0
    rng_key = derive_key(key, np.uint64(0x5EA2C4))
    rng_ctr = 0

    tree_s = 0.0
    rollout_s = 0.0
    t0 = _now() if timed else 0.0
    for it in range(iterations):
        log_of[it + 1] = np.log(float(it + 1))
        g_arr[0] = root_arr[0]
        hook_determinise(g_arr, seat, derive_key(key, np.uint64(it)), args)
        node = 0
        length = 0
        path[length] = 0
        length += 1
        while True:
            at_root = node == 0
            if not at_root and visits[node] < expand_after:
                break  # a node below the root gets children only once it has been visited expand_after times
            if at_root:
                if root_n < 0:
                    root_n = hook_legal(g_arr, root_legal, args)
                    root_who = hook_actor(g_arr) if root_n > 0 else -1
                n = root_n
                lg = root_legal
                co = root_child
                pb = root_prior if keep_root_prior else prior_buf
            else:
                n = hook_legal(g_arr, legal, args)
                lg = legal
                co = child_of
                pb = prior_buf
            if n == 0:
                break
            if at_root:
                # Every root child is available in every determinisation.
                who = root_who
                for j in range(n_root_kids):
                    avail[root_kids[j]] += 1.0
                ks = root_kids
                n_kids = n_root_kids
                n_untried = n - n_root_kids
            else:
                who = hook_actor(g_arr)
                # Which legal actions have a child: the node's children go into a small hash table
                # (action code -> child), then every legal action looks itself up (mostly one probe).
                stamp += 1
                ch = first_child[node]
                while ch >= 0:
                    h = _slot(action[ch], mask)
                    while table_used[h] == stamp:
                        h = (h + 1) & mask
                    table_used[h] = stamp
                    table_code[h] = action[ch]
                    table_index[h] = ch
                    ch = sibling[ch]
                n_untried = 0
                n_kids = 0
                for i in range(n):
                    found = -1
                    h = _slot(lg[i], mask)
                    while table_used[h] == stamp:
                        if table_code[h] == lg[i]:
                            found = table_index[h]
                            break
                        h = (h + 1) & mask
                    co[i] = found
                    if found >= 0:
                        avail[found] += 1.0
                        kids[n_kids] = found
                        n_kids += 1
                    else:
                        n_untried += 1
                ks = kids
            may_widen = widening <= 0.0 or n_children[node] < widening * np.sqrt(visits[node] + 1.0)
            if n_untried > 0 and (may_widen or n_untried == n):
                # Expand the untried action with the highest prior (ties at random).
                if use_prior:
                    if not (at_root and keep_root_prior and root_prior_ready):
                        hook_prior(g_arr, lg, n, pb, args)
                        root_prior_ready = root_prior_ready or (at_root and keep_root_prior)
                else:
                    for i in range(n):
                        pb[i] = 0.0
                pick = -1
                best = -np.inf
                ties = 0
                for i in range(n):
                    if co[i] >= 0:
                        continue
                    if pb[i] > best:
                        best = pb[i]
                        pick = i
                        ties = 1
                    elif pb[i] == best:
                        ties += 1
                        if below(u64_at(rng_key, np.uint64(rng_ctr)), ties) == 0:
                            pick = i
                        rng_ctr += 1
                new = n_nodes
                n_nodes += 1
                parent[new] = node
                first_child[new] = -1
                sibling[new] = first_child[node]
                first_child[node] = new
                n_children[node] += 1
                mover[new] = who
                action[new] = lg[pick]
                avail[new] = 1.0
                pri[new] = pb[pick]
                if at_root:
                    co[pick] = new
                    j = n_root_kids  # keep the root's children in the order of its legal actions
                    while j > 0 and root_kids_at[j - 1] > pick:
                        root_kids[j] = root_kids[j - 1]
                        root_kids_at[j] = root_kids_at[j - 1]
                        j -= 1
                    root_kids[j] = new
                    root_kids_at[j] = pick
                    n_root_kids += 1
                hook_apply(g_arr, lg[pick], args)
                node = new
                path[length] = node
                length += 1
                break
            # Follow the available child the best by UCB with progressive bias (the first best in the order of the
            # legal actions).
            pick_child = -1
            best = -np.inf
            for j in range(n_kids):
                ch = ks[j]
                log_avail = log_of[int(avail[ch])]
                score = reward[ch] / visits[ch] + c * np.sqrt(log_avail / visits[ch])
                if w > 0.0:
                    score += w * pri[ch] / (visits[ch] + 1.0)
                if score > best:
                    best = score
                    pick_child = ch
            hook_apply(g_arr, action[pick_child], args)
            node = pick_child
            path[length] = node
            length += 1
        if timed:
            t1 = _now()
            tree_s += t1 - t0
            t0 = t1
        if hook_legal(g_arr, legal, args) > 0:
            hook_rollout(g_arr, depth, args)
        hook_evaluate(g_arr, values, args)
        if timed:
            t1 = _now()
            rollout_s += t1 - t0
            t0 = t1
        for k in range(length):
            v = path[k]
            visits[v] += 1.0
            if mover[v] >= 0:
                reward[v] += values[mover[v]]
                if k == 1:
                    reward2[v] += values[mover[v]] * values[mover[v]]

    # The most visited root child (ties: the better mean, then the first made).
    best_child = -1
    ch = first_child[0]
    while ch >= 0:
        if best_child < 0 or visits[ch] > visits[best_child] or (
                visits[ch] == visits[best_child] and reward[ch] > reward[best_child]):
            best_child = ch
        ch = sibling[ch]
    if timed:
        stats[ST_ITERATIONS] += iterations
        stats[ST_NODES] += n_nodes
        stats[ST_TREE_S] += tree_s + (_now() - t0)
        stats[ST_ROLLOUT_S] += rollout_s
        stats[ST_DECISIONS] += 1
    if keep_root:
        m = 0
        ch = first_child[0]
        while ch >= 0:
            at = N_STATS + 1 + ROOT_FIELDS * m
            stats[at] = action[ch]
            stats[at + 1] = visits[ch]
            stats[at + 2] = reward[ch]
            stats[at + 3] = reward2[ch]
            m += 1
            ch = sibling[ch]
        stats[N_STATS] = m
    return action[best_child]


@kernel
def win_values(winner, n_players: int, values) -> None:
    """Terminal values: each winning seat gets 1 / (number of winners), the others 0."""
    nw = 0
    for p in range(n_players):
        if winner[p]:
            nw += 1
    for p in range(n_players):
        values[p] = (1.0 / nw) if (winner[p] and nw > 0) else 0.0


@kernel
def finished_values(winner, score, n_players: int, spread: float, margin_weight: float, values) -> None:
    """A finished game's values: the win (ties shared) blended with ``margin_weight`` of
    ``margin_values(score, spread)``, so a narrow loss counts a little more than a heavy one."""
    win_values(winner, n_players, values)
    margins = np.empty(n_players)
    margin_values(score, n_players, spread, margins)
    for p in range(n_players):
        values[p] = (1.0 - margin_weight) * values[p] + margin_weight * margins[p]


@kernel
def favour(legal, n, pick, others: float, out) -> None:
    """A prior that favours one move: 1 for ``pick`` (e.g. the best heuristic's choice), ``others`` for
    every other legal move."""
    for i in range(n):
        out[i] = 1.0 if legal[i] == pick else others


@kernel
def graded(n, scale: float, out) -> None:
    """A prior from a heuristic's values of the legal moves (``out[:n]``, in place): 1 for the best, falling
    linearly to 0 for a move ``scale`` worse or more."""
    top = -np.inf
    for i in range(n):
        if out[i] > top:
            top = out[i]
    for i in range(n):
        out[i] = max(0.0, 1.0 + (out[i] - top) / scale)


@kernel
def margin_values(score, n_players: int, spread: float, values) -> None:
    """Estimated win chances of a position that is not over, from per-seat scores: a softmax of
    ``score / spread`` (the larger ``spread``, the less a lead counts), summing to 1."""
    top = -np.inf
    for p in range(n_players):
        if score[p] > top:
            top = score[p]
    total = 0.0
    for p in range(n_players):
        values[p] = np.exp((score[p] - top) / spread)
        total += values[p]
    for p in range(n_players):
        values[p] /= total
