"""Helpers shared by the Sentient tests: rulesets, hand-made positions, kernel calls.

Card *indices* (rows of cards.csv, what the kernels use) differ from printed card *ids*;
every helper that takes a card says which one it expects.
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path
from typing import Any

import numpy as np

from simlab.core.game import get_game
from simlab.games.sentient import rules as rk
from simlab.games.sentient.data import TYPES
from simlab.games.sentient.state import AGENTS, ASSISTANTS, N_COLUMNS, N_SLOTS

GAME = get_game("sentient")
HERE = Path(__file__).resolve().parent
EXAMPLES: dict[str, Any] = tomllib.loads((HERE / "examples.toml").read_text(encoding="utf-8"))
N_CARDS = len(GAME.default_data().cards)


@functools.cache
def _ruleset(n_players: int, frozen: tuple[tuple[str, Any], ...]) -> Any:
    return GAME.ruleset(n_players, options=dict(frozen))


def ruleset(n_players: int = 3, **options: Any) -> Any:
    """A (cached) ruleset for ``n_players`` with these option values (names as in options.toml)."""
    return _ruleset(n_players, tuple(sorted(options.items())))


def card_index(rules: Any, card_id: int) -> int:
    """Kernel card index of the card with printed id ``card_id``."""
    for i, c in enumerate(rules.data.cards):
        if c.id == card_id:
            return i
    raise LookupError(card_id)


def find_cards(rules: Any, condition: str | None = None, *, left: str | None = None, right: str | None = None,
               param: int | None = None, ctype: str | None = None) -> list[int]:
    """Indices of every card matching the given printed fields."""
    out = []
    for i, c in enumerate(rules.data.cards):
        if condition is not None and c.condition != condition:
            continue
        if left is not None and c.left != left:
            continue
        if right is not None and c.right != right:
            continue
        if param is not None and c.param != param:
            continue
        if ctype is not None and c.type != ctype:
            continue
        out.append(i)
    return out


def find_card(rules: Any, condition: str | None = None, **kw: Any) -> int:
    """Index of the first card matching the given printed fields."""
    found = find_cards(rules, condition, **kw)
    if not found:
        raise LookupError(f"no card with condition={condition} {kw}")
    return found[0]


def new_state(rules: Any, seed: int = 1, capacity: int = 4096) -> tuple[np.ndarray, np.ndarray]:
    """A freshly set-up game (state array, event log)."""
    log = GAME.new_log(capacity)
    state, _ = GAME.new_game(rules, seed, log)
    return state, log


def clear_log(log: np.ndarray) -> None:
    """Forget the events recorded so far."""
    log[0, 0] = 0
    log[0, 1] = 0


def clear_round(state: np.ndarray) -> None:
    """Reset every seat's pieces, network and influence to a fresh round (dice and factory kept)."""
    s = state[0]
    n = int(s["n_players"])
    for p in range(n):
        s["agents"][p] = AGENTS
        s["assistants"][p] = ASSISTANTS
        s["passed"][p] = 0
        s["pass_seq"][p] = -1
        s["col_agents"][p, :] = 0
        s["col_assistants"][p, :] = 0
        s["slot_card"][p, :] = -1
        s["slot_block"][p, :] = 0
    s["n_passed"] = 0


def finish_round(state: np.ndarray, pass_order: list[int] | None = None) -> None:
    """Mark every seat as done for the round: no agents, passed in ``pass_order`` (default: turn order)."""
    s = state[0]
    n = int(s["n_players"])
    seq = list(pass_order) if pass_order is not None else [int(x) for x in s["order"][:n]]
    for t, p in enumerate(seq):
        s["agents"][p] = 0
        s["passed"][p] = 1
        s["pass_seq"][t] = p
    s["n_passed"] = n


def seat_to_move(state: np.ndarray) -> int:
    """The seat whose turn it is."""
    return GAME.current_player(state)


def put_on_move(state: np.ndarray, seat: int) -> None:
    """Make ``seat`` the player to move (by moving the turn pointer in the stack)."""
    s = state[0]
    order = [int(x) for x in s["order"][: int(s["n_players"])]]
    s["turn"] = order.index(seat)


def legal(rules: Any, state: np.ndarray) -> np.ndarray:
    """The current player's legal actions, from the kernel."""
    out = np.empty(rk.N_ACTIONS, dtype=np.int64)
    n = rk.legal_actions(state[0], rules.cards, rules.opts, out)
    return out[:n].copy()


def decoded_buys(actions: np.ndarray) -> set[tuple[int, int, int, int, int]]:
    """(column, slot, block_left, block_right, influence) of every buy among ``actions``."""
    return {tuple(int(v) for v in rk.decode_buy(int(a))) for a in actions if a >= rk.ACT_BUY0}


def buy(col: int, slot: int, block_left: int = 0, block_right: int = 0, influence: int = 0) -> int:
    """The action code of a buy."""
    return int(rk.encode_buy(col, slot, block_left, block_right, influence))


def step(rules: Any, state: np.ndarray, action: int, log: np.ndarray, check_legal: bool = True) -> np.ndarray:
    """Play ``action`` (asserting first that it is legal) and return the next legal actions."""
    if check_legal:
        assert int(action) in set(legal(rules, state).tolist()), f"action {action} is not legal here"
    return GAME.step(rules, state, int(action), log)


def events(rules: Any, log: np.ndarray, kind: str | None = None) -> list[dict[str, Any]]:
    """Trace events recorded in ``log`` (only those of ``kind`` when given)."""
    evs = GAME.trace_events(rules, log)
    return [e for e in evs if kind is None or e["event"] == kind]


def card_multiset(state: np.ndarray) -> list[int]:
    """Every card index the state holds: deck, discard, factory and every seat's owned cards."""
    s = state[0]
    n = int(s["n_players"])
    cards = list(s["deck"][: int(s["deck_n"])]) + list(s["discard"][: int(s["discard_n"])])
    cards += [c for c in s["factory"] if c >= 0]
    for p in range(n):
        cards += list(s["owned"][p, : int(s["owned_n"][p])])
    return [int(c) for c in cards]


def popcount_blocks(state: np.ndarray, p: int) -> int:
    """Assistants seat p has on card corners this round."""
    return int(sum(bin(int(b) & 3).count("1") for b in state[0]["slot_block"][p]))


def type_index(name: str) -> int:
    return TYPES.index(name)


__all__ = [
    "AGENTS",
    "ASSISTANTS",
    "EXAMPLES",
    "GAME",
    "N_CARDS",
    "N_COLUMNS",
    "N_SLOTS",
    "TYPES",
    "rk",
]
