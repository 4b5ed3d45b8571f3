"""The game contract, checked for every registered game (``simlab.core.game.all_games``).

A new game passes this suite without new shared code: every test here reads only the
``Game`` API (and the ``Player`` API for Python players), never a game's own modules.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from simlab.core.driver import play_game
from simlab.core.game import Game, all_games
from simlab.core.player import resolve_players
from simlab.core.trace import game_trace
from simlab.play import play_batch

GAMES = all_games()
IDS = [g.name for g in GAMES]
SEEDS = [11, 12, 13]
MAX_DECISIONS = 100_000  # a random playout that has not ended by then never will


def _player_counts(game: Game) -> list[int]:
    return sorted({game.min_players, game.max_players})


def _fast(game: Game, name: str) -> str:
    """A player spec for built-in ``name`` with its search budget (if any) cut to the minimum."""
    params = game.builtin_players()[name].params
    small = {k: 2 for k in params if k in ("iterations", "playouts")}
    if not small:
        return name
    return f"{name}({', '.join(f'{k}={v}' for k, v in small.items())})"


RANDOM_PYTHON = """
from simlab import Player


class RandomPython(Player):
    \"\"\"Picks uniformly among the legal actions, checking the observation API on the way.\"\"\"

    def choose(self, obs, legal):
        assert list(legal) == sorted(legal) and len(legal) > 0
        assert list(obs.legal) == list(legal)
        assert obs.seat >= 0
        assert isinstance(obs.describe(legal[0]), str) and isinstance(obs.render(), str)
        return legal[int(self.rng.integers(len(legal)))]
"""


def _random_lineup(game: Game, n: int) -> list[str]:
    return ["random"] * n


@pytest.fixture(params=GAMES, ids=IDS)
def game(request) -> Game:
    return request.param


def test_registered_games_are_complete(game):
    """Every game names itself, its player counts, its options and at least random + one heuristic."""
    assert game.name and game.title and game.summary
    assert 1 <= game.min_players <= game.max_players
    assert game.max_actions >= 1
    players = game.builtin_players()
    assert "random" in players and len(players) >= 2
    for name, player in players.items():
        assert player.name == name and player.description
        assert set(player.param_help) <= set(player.params)
    for name, retired in game.retired_players.items():  # a retired name is gone and points to a current player
        assert name not in players and retired.replacement in players and retired.reason
    assert isinstance(game.option_table(), dict)


def test_same_seed_same_game(game):
    """Determinism: the same seed and players give the identical trace, final state and result rows."""
    for n in _player_counts(game):
        rules = game.ruleset(n)
        players = resolve_players(game, _random_lineup(game, n))
        seed = game.game_seed(7, n)
        a = play_game(game, rules, players, seed, record_events=True)
        b = play_game(game, rules, players, seed, record_events=True)
        assert a.state.tobytes() == b.state.tobytes()
        assert a.events == b.events and a.seats == b.seats and a.game == b.game
        c = play_game(game, rules, players, game.game_seed(7, n + 100), record_events=True)
        assert c.events != a.events


def test_legal_actions_sorted_nonempty_and_random_playouts_end(game):
    """Until the game ends there is always a legal action, the list is strictly ascending and bounded by
    ``max_actions``; random play always reaches the end, and the end is the empty list."""
    for n in _player_counts(game):
        rules = game.ruleset(n)
        for seed in SEEDS:
            rng = np.random.default_rng(seed)
            state, legal = game.new_game(rules, game.game_seed(seed, 0), game.new_log(0))
            decisions = 0
            while len(legal):
                assert not game.is_over(state)
                assert len(legal) <= game.max_actions
                assert np.all(np.diff(legal) > 0), "legal actions must be strictly ascending"
                assert 0 <= game.current_player(state) < n
                legal = game.step(rules, state, int(legal[rng.integers(len(legal))]), game.new_log(0))
                decisions += 1
                assert decisions < MAX_DECISIONS
            assert game.is_over(state)


def test_compiled_batch_equals_python_driver(game):
    """Game i of the compiled batch loop is the driver's game with the same seed, row for row."""
    names = list(game.builtin_players())
    for n in _player_counts(game):
        lineup = [_fast(game, names[i % len(names)]) for i in range(n)]
        res = play_batch(game, lineup, games=6, seed=42)
        assert res.compiled
        rules = game.ruleset(n)
        players = resolve_players(game, lineup)
        cols = game.batch_columns(rules)
        seats = res.seats.sort(["game", "seat"])
        for i, seed in enumerate(res.games.sort("game")["seed"].to_list()):
            rec = play_game(game, rules, players, int(seed))
            rows = seats.filter(pl.col("game") == i)
            for col in cols["seats"]:
                got = rows[col].to_list()
                want = [row[col] for row in rec.seats]
                assert got == want, (n, i, col)
            grow = res.games.filter(pl.col("game") == i).row(0, named=True)
            for col in cols["games"]:
                assert grow[col] == rec.game[col], (n, i, col)


def test_every_builtin_player_makes_only_legal_moves(game):
    """The driver checks every built-in player's action against the legal list (an illegal one raises)."""
    for name in game.builtin_players():
        for n in _player_counts(game):
            lineup = [_fast(game, name)] + ["random"] * (n - 1)
            rules = game.ruleset(n)
            rec = play_game(game, rules, resolve_players(game, lineup), game.game_seed(3, n))
            assert rec.decisions > 0
            assert game.is_over(rec.state)


def test_python_players_see_legal_actions_and_play_to_the_end(game, tmp_path):
    """A Python player gets an observation with ``legal``, ``describe`` and ``render``; its game ends."""
    path = tmp_path / "rp.py"
    path.write_text(RANDOM_PYTHON)
    n = game.min_players
    lineup = [f"{path}:RandomPython"] + ["random"] * (n - 1)
    rules = game.ruleset(n)
    rec = play_game(game, rules, resolve_players(game, lineup), game.game_seed(5, 0))
    assert game.is_over(rec.state)
    assert rec.decisions > 0


def test_observations_hide_chance_and_other_seats_streams(game):
    """What a seat sees reveals no random stream but (at most) its own: neither chance streams (the order of
    a deck, future dice) nor another seat's stream can be recovered from ``obs.state``."""
    for n in _player_counts(game):
        rules = game.ruleset(n)
        state, legal = game.new_game(rules, game.game_seed(9, n), game.new_log(0))
        rng = np.random.default_rng(n)
        checked = 0
        while len(legal) and checked < 40:
            obs = game.observation(rules, state, legal.tolist())
            seen = obs.state
            true_keys = state[0]["rng_key"]
            shown = [i for i in range(len(true_keys)) if true_keys[i] != 0 and seen["rng_key"][i] == true_keys[i]]
            assert len(shown) <= 1, f"observation reveals random streams {shown}"
            assert obs.seat == game.current_player(state)
            legal = game.step(rules, state, int(legal[rng.integers(len(legal))]), game.new_log(0))
            checked += 1


def test_a_game_replays_from_its_seed_and_actions(game):
    """The game is a function of its seed and its actions: replaying the recorded actions from the seed gives
    the same events, final state and result rows; the trace starts with ``game_start`` and ends with ``final``,
    whose ranks and winners match the seats table."""
    n = game.max_players
    rules = game.ruleset(n)
    names = list(game.builtin_players())
    lineup = [_fast(game, names[(i + 1) % len(names)]) for i in range(n)]
    players = resolve_players(game, lineup)
    actions: list[int] = []
    seed = game.game_seed(21, 0)
    rec = play_game(game, rules, players, seed, record_events=True,
                    on_step=lambda state, seat, action: actions.append(action))
    log = game.new_log(game.trace_capacity)
    state, legal = game.new_game(rules, seed, log)
    for action in actions:
        assert action in legal.tolist()
        legal = game.step(rules, state, action, log)
    assert len(legal) == 0 and game.is_over(state)
    # the seats' own random streams advanced only in the original (its players drew from them)
    assert game.result_arrays(rules, state)["seats"].tolist() == rec.arrays["seats"].tolist()
    assert game.result_arrays(rules, state)["games"].tolist() == rec.arrays["games"].tolist()
    assert game.trace_events(rules, log) == rec.events
    trace = game_trace(game, rules, rec, lineup, 0)
    assert trace[0]["event"] == "game_start" and trace[-1]["event"] == "final"
    final = trace[-1]
    assert sorted(final["winners"]) == [seat for seat, row in enumerate(rec.seats) if row["winner"]]
    assert [s["rank"] for s in final["seats"]] == [row["rank"] for row in rec.seats]
    assert game.log_lines(trace)


def test_stored_columns_match_the_declared_schema(game):
    """The tidy tables carry the common columns, then exactly the game's declared columns; categorical
    columns are stored as the declared names; every seat has score, rank, winner and win_share."""
    n = game.min_players
    res = play_batch(game, ["random"] * n, games=5, seed=1)
    rules = game.ruleset(n)
    cols = game.batch_columns(rules)
    common_games = ["game", "deal", "seed", "experiment_seed", "variant", "lineup", "rotation", "n_players"]
    assert res.games.columns[: len(common_games)] == common_games
    assert set(cols["games"]) <= set(res.games.columns)
    for col in ("game", "seat", "player", "score", "rank", "winner", "win_share"):
        assert col in res.seats.columns
    assert set(cols["seats"]) <= set(res.seats.columns)
    for table, columns in game.categorical_columns().items():
        frame = res.games if table == "games" else res.seats
        if table not in ("games", "seats"):
            continue
        for col, names in columns.items():
            assert set(frame[col].cast(pl.Utf8).to_list()) <= set(names)
    _check_ranks_and_shares(res.seats)
    # exactly the common columns and the declared ones, nothing else
    assert res.games.columns == common_games + cols["games"]
    common_seats = ["game", "seat", "player", "variant", "lineup", "rotation"]
    assert set(res.seats.columns) == set(common_seats + cols["seats"] + ["win_share"])
    assert res.seats["winner"].dtype == pl.Boolean


def _check_ranks_and_shares(seats: pl.DataFrame) -> None:
    """Ranks, winners and win shares agree. A seat wins exactly when it is ranked 1; a game's win shares
    add up to 1 when some seat won, and to 0 when none did, which only a rival that is not a seat (a solo
    seat beaten by an Automa, whose results are game columns) or a rule under which nobody wins (Pendulum
    when no seat holds its legendary VP) can cause; such a game's best seat is ranked 2 or lower."""
    assert (seats["rank"] >= 1).all()
    assert (seats["winner"] == (seats["rank"] == 1)).all(), "winner must be rank == 1"
    per_game = seats.group_by("game").agg(pl.col("win_share").sum().alias("shares"),
                                          pl.col("winner").any().alias("won"), pl.col("rank").min().alias("best"))
    assert np.allclose(per_game["shares"].to_numpy(), per_game["won"].cast(pl.Float64).to_numpy())
    assert (per_game["won"] == (per_game["best"] == 1)).all()


def test_ranks_winners_and_win_shares_at_every_player_count(game):
    """At every player count (solo included) the seats' ranks, winners and win shares agree (see
    ``_check_ranks_and_shares``)."""
    for n in _player_counts(game):
        res = play_batch(game, ["random"] * n, games=40, seed=4)
        assert res.seats.height == 40 * n
        _check_ranks_and_shares(res.seats)


def test_event_tables_are_declared_and_recorded(game):
    """Every event table a game declares can be recorded, with a ``seat`` column, in batch and driver alike."""
    tables = game.event_tables()
    for name in tables:
        assert tables[name]
        n = game.min_players
        res = play_batch(game, ["random"] * n, games=3, seed=2, record=[name])
        frame = res.events[name]
        assert {"game", "seat", "player", "variant"} <= set(frame.columns)
        assert frame.height > 0


def test_declarations_for_the_shared_layers(game):
    """What bench, ladder, report and the data variants read from a game is declared and consistent: the bench
    mixes use every built-in player at legal table sizes, the ladder names built-in players, the report notebook
    exists, the declared columns exist, and the data files load."""
    from pathlib import Path

    players = game.builtin_players()
    used = {spec.split("(")[0] for mix in game.bench_mixes for spec in mix}
    assert used == set(players), "bench mixes should time every built-in player"
    assert all(game.min_players <= len(mix) <= game.max_players for mix in game.bench_mixes)
    assert set(game.ladder_players) <= set(players)
    if game.report_notebook:
        assert (Path(__file__).resolve().parents[2] / "notebooks" / game.report_notebook).is_file()
    rules = game.ruleset(game.min_players)
    cols = game.batch_columns(rules)
    assert game.bool_columns <= set(cols["games"]) | set(cols["seats"]) | {c for t in game.event_tables()
                                                                             for c in cols[t]}
    assert set(game.position_columns or ()) <= set(cols["seats"])
    files = game.data_files()
    if files is not None:
        from simlab.core.datavariants import variant_data

        assert all((files.directory / name).is_file() for name in files.names.values())
        assert variant_data(files) is not None
    ablation = game.ablation()
    if ablation is not None:
        assert files is not None and ablation.changes
        assert ablation.ids(game.default_data())


def test_every_game_plays_the_shared_search(game):
    """Every game plugs into the one compiled ISMCTS (simlab/core/search.py): a search player whose
    parameters start with the shared ones, a profiling kernel for ``simlab bench``, a budget spent in
    full on a legal action within the node bound, and the same seed giving the same games."""
    from simlab.core.search import N_STATS, PARAM_HELP, ST_ITERATIONS, ST_NODES

    kernels = game.kernels
    name = kernels.search_player
    info = game.builtin_players()[name]
    assert list(info.params)[: len(PARAM_HELP)] == list(PARAM_HELP) and info.slow
    assert kernels.search_profile is not None
    n = game.min_players
    rules = game.ruleset(n)
    params = resolve_players(game, [f"{name}(iterations=16)"] * n)[0].params
    state, legal = game.new_game(rules, game.game_seed(5, n), game.new_log(0))
    while len(legal) == 1:
        legal = game.step(rules, state, int(legal[0]), game.new_log(0))
    buf = np.empty(kernels.max_actions, dtype=np.int64)
    buf[: len(legal)] = legal
    stats = np.zeros(N_STATS)
    action = kernels.search_profile(params, state.copy(), buf, len(legal), *game.kernel_args(rules), stats)
    assert int(action) in set(legal.tolist())
    assert stats[ST_ITERATIONS] == 16 and 1 < stats[ST_NODES] <= 17
    lineup = [f"{name}(iterations=4)"] + ["random"] * (n - 1)
    first, again = (play_batch(game, lineup, 2, seed=21) for _ in range(2))
    assert first.games.equals(again.games) and first.seats.equals(again.seats)


def test_every_step_of_a_game_is_drawn_as_svg_from_every_view(game):
    """The replay page's contract (``Game.render_svg``): every step of a random game, from the referee's view and
    each seat's (``hide`` first), is one well-formed ``<svg>`` with a viewBox; the steps' log lines make the
    game's whole log. At the fewest players (and two, for a solo game): each game's own board tests cover the
    other counts, and a five-player Pendulum game alone is 3,600 boards."""
    from xml.etree import ElementTree

    from simlab.replay.steps import record_replay

    for n in sorted({game.min_players, min(max(game.min_players, 2), game.max_players)}):
        rules = game.ruleset(n)
        lineup = _random_lineup(game, n)
        replay = record_replay(game, rules, resolve_players(game, lineup), game.game_seed(11, n), lineup)
        assert [line for s in replay.steps for line in s.log] == game.log_lines(replay.events)
        for step in replay.steps:
            assert len(step.boards) == n + 1
            for view, svg in enumerate(step.boards):
                root = ElementTree.fromstring(svg)
                assert root.tag.endswith("svg") and root.get("viewBox"), (game.name, n, step.index, view)
