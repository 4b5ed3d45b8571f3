"""Sentient's Python face: the Game contract over the compiled kernels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from simlab.core.compiled import CompiledGame, EventTable, Kernels, Observation
from simlab.core.datavariants import Ablation, DataFiles
from simlab.core.errors import DataError
from simlab.core.game import RetiredPlayer
from simlab.games.sentient import render, variants
from simlab.games.sentient.batch import play_games, py_results
from simlab.games.sentient.columns import GAME_COLUMNS, SEAT_COLUMNS, TAKE_COLUMNS, TAKES_PER_SEAT
from simlab.games.sentient.data import TYPES, SentientData, load_data
from simlab.games.sentient.dispatch import py_choose
from simlab.games.sentient.players import BUILTIN_PLAYERS
from simlab.games.sentient.rules import (
    ACT_PASS,
    ACT_PASS_NO_SWEEP,
    LOG_WIDTH,
    N_ACTIONS,
    PTS0,
    card_table,
    decode_buy,
    option_array,
    py_setup,
    py_step,
)
from simlab.games.sentient.search_hooks import search_action
from simlab.games.sentient.state import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    N_COLUMNS,
    N_ROUNDS,
    N_SLOTS,
    STATE_DTYPE,
    STREAM_SEAT0,
)


def cards_needed(n_players: int, options: dict[str, Any]) -> int:
    """Fewest cards with which a draw can never find both deck and discard pile empty.

    Players own 12 each at the end; the factory holds 3 cards while the 4th is refilled; with
    ``remove_from_game`` the 4 leftovers of rounds 1 and 2 leave the game; with
    ``draw_then_discard`` a sweep holds the 4 old cards while drawing 4 new ones.
    """
    needed = 12 * n_players + 4
    if options["factory_leftovers"] == "remove_from_game":
        needed += 8
    if options["sweep_order"] == "draw_then_discard":
        needed += 4
    return needed


@dataclass
class SentientRules:
    """A ruleset: data, resolved options and the arrays the kernels read."""

    n_players: int
    data: SentientData
    options: dict[str, Any]
    opts: np.ndarray
    cards: np.ndarray
    inv: np.ndarray

    @property
    def card_ids(self) -> np.ndarray:
        """Printed card id of each card index."""
        return self.cards[:, 0]


@dataclass(frozen=True)
class Buy:
    """A decoded buy: factory column, network slot, blocked corners, influence assistants."""

    column: int
    slot: int
    block_left: bool
    block_right: bool
    influence: int
    is_pass: bool = False
    sweep: bool = False


def decode_action(action: int) -> Buy:
    """The parts of an action code (a pass comes back with ``is_pass`` set)."""
    if action in (ACT_PASS, ACT_PASS_NO_SWEEP):
        return Buy(-1, -1, False, False, 0, is_pass=True, sweep=action == ACT_PASS)
    col, slot, bl, br, infl = decode_buy(action)
    return Buy(col, slot, bool(bl), bool(br), infl)


@dataclass(frozen=True)
class NetworkSlot:
    """One slot of a seat's network: the robot card between two dice, and what it scores now.

    ``card`` is a card index (-1: empty slot); ``left``/``right`` are the current values of the
    dice on either side (slot k lies between dice k and k+1); ``blocked_left``/``blocked_right``
    say whether an assistant blocked that calibration symbol when the card was bought;
    ``points`` is what the card would score if the round ended now (0 for an empty slot).
    """

    slot: int
    card: int
    left: int
    right: int
    blocked_left: bool
    blocked_right: bool
    points: int


def network(rules: SentientRules, rec: np.void, seat: int) -> list[NetworkSlot]:
    """Seat ``seat``'s four network slots in state record ``rec``, left to right (see :class:`NetworkSlot`)."""
    dice = rec["dice"][seat]
    out = []
    for k in range(N_SLOTS):
        c = int(rec["slot_card"][seat, k])
        block = int(rec["slot_block"][seat, k])
        left, right = int(dice[k]), int(dice[k + 1])
        pts = int(rules.cards[c, PTS0 + left * 7 + right]) if c >= 0 else 0
        out.append(NetworkSlot(k, c, left, right, bool(block & 1), bool(block & 2), pts))
    return out


class SentientObservation(Observation):
    """What a Python player sees on its turn.

    Attributes: ``seat``, ``round``, ``legal`` (action codes), ``state`` (a copy of the state
    record as this seat may know it: the deck's remaining cards sorted, so only which cards are
    left shows, not their order; every random stream's key zeroed, so neither future dice,
    reshuffles and investor layouts nor another seat's draws can be foreseen), ``rules``.
    Everything else in Sentient is open information (factory, dice, networks, pieces,
    investors, the discard pile, every seat's bought cards). The ``ismcts`` player's
    determinisation uses no more: it reshuffles the deck and re-keys every stream.

    Helpers: ``decode(a)``, ``describe(a)``, ``render()``, ``menu()`` (the legal actions as a tree
    of choices: pass, or a card, then a slot, then blocks, then influence), ``card(index)`` (the
    printed card of a card index), ``dice``, ``factory``, ``network()``, ``network_points()``,
    ``investors()``, ``factory_investors``, ``influence()``, ``points(card, left, right)`` and
    ``score_change(a)``. Helpers that take ``seat`` default to this player's seat.
    """

    rules: SentientRules

    def _seat(self, seat: int | None) -> int:
        return self.seat if seat is None else int(seat)

    @property
    def round(self) -> int:
        """The round, 1-3."""
        return int(self._state[0]["round"])

    @property
    def n_players(self) -> int:
        """Seats in the game."""
        return int(self._state[0]["n_players"])

    @property
    def dice(self) -> list[int]:
        """This seat's five dice, left to right."""
        return [int(x) for x in self._state[0]["dice"][self.seat]]

    @property
    def factory(self) -> list[int]:
        """Card index in each factory column (-1 if empty)."""
        return [int(x) for x in self._state[0]["factory"]]

    @property
    def factory_investors(self) -> list[str]:
        """The investor type at each position I0-I4 (position i lies beside columns i-1 and i)."""
        return [TYPES[int(t)] for t in self._state[0]["investors"]]

    def card(self, index: int) -> Any:
        """The printed card (data.Card) of a card index."""
        return self.rules.data.cards[index]

    def decode(self, action: int) -> Buy:
        """The parts of an action code."""
        return decode_action(action)

    def points(self, card: int, left: int, right: int) -> int:
        """What card index ``card`` scores between dice ``left`` and ``right`` (1-6) under this ruleset's options.

        The kernels' own table lookup (``rules.points``): the service floor option is applied.
        """
        if not (1 <= left <= 6 and 1 <= right <= 6):
            raise ValueError(f"dice values must be 1-6, not ({left}, {right})")
        return int(self.rules.cards[card, PTS0 + left * 7 + right])

    def network(self, seat: int | None = None) -> list[NetworkSlot]:
        """The seat's four network slots, left to right, with their cards, dice and current points."""
        return network(self.rules, self._state[0], self._seat(seat))

    def network_points(self, seat: int | None = None) -> int:
        """What the seat's network would score if the round ended now (its cards against the current dice)."""
        return sum(s.points for s in self.network(seat))

    def investors(self, seat: int | None = None) -> dict[str, int]:
        """Investor tokens the seat holds, by type (its starting investor included)."""
        held = self._state[0]["investors_held"][self._seat(seat)]
        return {t: int(held[i]) for i, t in enumerate(TYPES)}

    def robots(self, seat: int | None = None) -> dict[str, int]:
        """Robot cards the seat has bought so far (all rounds), by type: what its investors multiply at the end."""
        count = self._state[0]["type_count"][self._seat(seat)]
        return {t: int(count[i]) for i, t in enumerate(TYPES)}

    def influence(self, seat: int | None = None) -> list[int]:
        """The seat's influence (agents + assistants in the neighbouring columns) at each investor position I0-I4."""
        rec = self._state[0]
        p = self._seat(seat)
        per_col = rec["col_agents"][p].astype(int) + rec["col_assistants"][p].astype(int)
        return [int(per_col[max(i - 1, 0): min(i, N_COLUMNS - 1) + 1].sum()) for i in range(N_COLUMNS + 1)]

    def score_change(self, action: int) -> int:
        """The change in this seat's card VP for the round that ``action`` brings.

        Cards score at the end of the round against the final dice, so the "score" here is what
        the seat's network would score if the round ended now: a buy adds the card and moves the
        dice on either side, changing the card's own points and its neighbours'; a pass changes
        nothing. Computed by applying ``action`` with the game's own step kernel on a copy of
        the seat's view (when the action ends the round, the VP it scored is read).
        """
        p = self.seat
        before = self.network_points(p)
        copy = self._game.hide(self._state, p)
        self._game.step(self.rules, copy, int(action), self._game.new_log(0))
        rec = copy[0]
        r = self.round
        if int(rec["round"]) != r:  # the action ended the round: its cards were scored
            return int(rec["round_vp"][p, r - 1]) - before
        return sum(s.points for s in network(self.rules, rec, p)) - before


class SentientGame(CompiledGame):
    """Sentient (Renegade, 2017): robots calibrate dice networks; investors reward majorities."""

    name = "sentient"
    title = "Sentient"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    summary = "dice networks calibrated by robot cards; investor majorities (2-4 players, 3 rounds)"
    kernels = Kernels(
        state_dtype=STATE_DTYPE,
        max_actions=N_ACTIONS,
        log_width=LOG_WIDTH,
        rule_args=("cards", "inv", "opts"),
        setup=py_setup,
        step=py_step,
        choose=py_choose,
        search_profile=search_action,
        batch=play_games,
        results=py_results,
        game_columns=GAME_COLUMNS,
        seat_columns=SEAT_COLUMNS,
        events=(
            EventTable("takes", "one row per card bought: seat, round, turn, card, type, column, slot, blocks, "
                                "influence assistants, points it scored", TAKE_COLUMNS, TAKES_PER_SEAT),
        ),
    )
    renderer = render
    players = BUILTIN_PLAYERS
    observation_class = SentientObservation
    bench_mixes = (
        ("random",) * 4, ("greedy",) * 4, ("investor",) * 4, ("specialist",) * 4,
        ("greedy", "investor", "specialist", "random"), ("greedy",) * 2, ("greedy",) * 3,
        ("ismcts", "greedy", "greedy", "greedy"),
    )
    ladder_players = ("random", "greedy", "investor", "specialist", "ismcts")
    report_notebook = "sentient_strategies.ipynb"
    retired_players = {"mc": RetiredPlayer(  # noqa: RUF012 - a class-level declaration, never mutated
        "ismcts", "as strong at equal time per decision (docs/players.md)", since="issue 25")}
    bool_columns = frozenset({"first_in_round1", "block_left", "block_right"})
    standard_columns = {"first_player": "first_in_round1", "turns": "turns",  # noqa: RUF012
                        "round_vp": ("round1_card_vp", "round2_card_vp", "round3_card_vp")}

    # ---- content and rules
    def load_default_data(self) -> SentientData:
        return load_data()

    def default_data(self) -> SentientData:
        """The bundled data set (loaded once)."""
        return super().default_data()

    def build_rules(self, n_players: int, data: SentientData, options: dict[str, Any]) -> SentientRules:
        opts = option_array(options)
        cards = card_table(data.card_array, opts)
        inv = -np.ones((4, 8), dtype=np.int8)
        inv[:3, :5] = data.round_investor_array
        start = data.starting_investor_array[:8]
        inv[3, : len(start)] = start
        needed = cards_needed(n_players, options)
        if data.deck_size < needed:
            raise DataError(
                data.cards_file, None, None,
                f"{data.deck_size} cards; {n_players} players with these options need {needed} "
                "(or the factory could run dry)",
            )
        return SentientRules(n_players, data, options, opts, cards, inv)

    def hide(self, state: np.ndarray, seat: int) -> np.ndarray:
        """A copy of the state with the deck order and the random streams' keys hidden."""
        copy = state.copy()
        rec = copy[0]
        n = int(rec["deck_n"])
        rec["deck"][:n] = np.sort(rec["deck"][:n])
        rec["rng_key"][:] = 0
        return copy

    def render_svg(self, rules: SentientRules, state: np.ndarray, seat: int | None = None) -> str:
        """The position as an SVG board (see simlab/games/sentient/svg.py)."""
        from simlab.games.sentient.svg import board_svg
        return board_svg(rules, state[0], seat)

    def current_player(self, state: np.ndarray) -> int:
        rec = state[0]
        return int(rec["order"][rec["turn"]])

    def categorical_columns(self, rules: SentientRules | None = None) -> dict[str, dict[str, list[str]]]:
        return {"seats": {"start_investor": list(TYPES)}, "takes": {"type": list(TYPES)}}

    def data_files(self) -> DataFiles:
        return variants.DATA

    def ablation(self) -> Ablation:
        return variants.ABLATION

    def describe_turn(self, rules: SentientRules, state: np.ndarray) -> str:
        rec = state[0]
        return f"round {int(rec['round'])}, turn {int(rec['n_turns']) + 1}"


assert N_ROUNDS == 3 and len(TYPES) == 5 and STREAM_SEAT0 == 4
