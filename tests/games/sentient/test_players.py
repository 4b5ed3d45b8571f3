"""Players: specs, Python player files, the legality check, built-in players (simlab.core.player, driver)."""

from __future__ import annotations

import textwrap

import polars as pl
import pytest
from sentient_helpers import GAME, legal, new_state, ruleset

import simlab
from simlab.core.driver import play_game
from simlab.core.errors import IllegalActionError, PlayerError
from simlab.core.player import resolve_players

# ---------------------------------------------------------------- bad specs


def test_unknown_player_name():
    """A spec naming no built-in player raises PlayerError listing the known players."""
    with pytest.raises(PlayerError, match="unknown player 'grredy'") as err:
        resolve_players(GAME, ["grredy", "random"])
    assert "greedy" in str(err.value)


def test_bad_player_parameters():
    """Unknown parameters, non-numeric values and positional arguments raise PlayerError."""
    with pytest.raises(PlayerError, match="unknown parameter 'speed'"):
        resolve_players(GAME, ["greedy(speed=2)", "random"])
    with pytest.raises(PlayerError, match="must be a number"):
        resolve_players(GAME, ["greedy(pass_below='x')", "random"])
    with pytest.raises(PlayerError):
        resolve_players(GAME, ["greedy(2)", "random"])
    with pytest.raises(PlayerError, match="belongs to game"):
        resolve_players(GAME, ["chess:greedy", "random"])


@pytest.mark.parametrize("n", [1, 5])
def test_wrong_player_count(n):
    """R2: Sentient takes 2-4 players."""
    with pytest.raises(PlayerError, match="2-4 players"):
        resolve_players(GAME, ["random"] * n)


def _player_file(tmp_path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return str(path)


def test_player_file_syntax_error(tmp_path):
    """A player file that is not valid Python raises PlayerError naming the file and line."""
    path = _player_file(tmp_path, "broken_syntax.py", """\
        class Bot:
            def choose(self, obs, legal)
                return legal[0]
        """)
    with pytest.raises(PlayerError) as err:
        resolve_players(GAME, [f"{path}:Bot", "random"])
    assert path in str(err.value)
    assert "syntax error" in str(err.value)


def test_player_file_missing_class(tmp_path):
    """A player file without the named class raises PlayerError naming the file and the class."""
    path = _player_file(tmp_path, "no_class.py", """\
        class Other:
            def choose(self, obs, legal):
                return legal[0]
        """)
    with pytest.raises(PlayerError) as err:
        resolve_players(GAME, [f"{path}:Bot", "random"])
    assert path in str(err.value) and "Bot" in str(err.value)


def test_player_file_class_without_choose(tmp_path):
    """A class without choose(obs, legal) raises PlayerError naming the file."""
    path = _player_file(tmp_path, "no_choose.py", """\
        class Bot:
            def pick(self, obs, legal):
                return legal[0]
        """)
    with pytest.raises(PlayerError) as err:
        resolve_players(GAME, [f"{path}:Bot", "random"])
    assert path in str(err.value) and "choose" in str(err.value)


def test_player_file_import_error(tmp_path):
    """A player file that fails while importing raises PlayerError naming the file."""
    path = _player_file(tmp_path, "import_fails.py", """\
        raise RuntimeError("boom")
        """)
    with pytest.raises(PlayerError) as err:
        resolve_players(GAME, [f"{path}:Bot", "random"])
    assert path in str(err.value) and "boom" in str(err.value)


def test_player_file_not_found(tmp_path):
    """A spec naming a missing file raises PlayerError naming it."""
    path = str(tmp_path / "missing.py")
    with pytest.raises(PlayerError, match="not found"):
        resolve_players(GAME, [f"{path}:Bot", "random"])


# ---------------------------------------------------------------- Python players in games


def test_illegal_action_names_player_seat_and_seed(tmp_path):
    """Driver: a Python player returning an illegal action stops the game with IllegalActionError naming the
    player, the seat and the game seed."""
    path = _player_file(tmp_path, "cheater.py", """\
        class Cheater:
            def choose(self, obs, legal):
                return max(legal) + 1
        """)
    spec = f"{path}:Cheater"
    players = resolve_players(GAME, ["greedy", spec, "random"])
    seed = GAME.game_seed(17, 0)
    with pytest.raises(IllegalActionError) as err:
        play_game(GAME, ruleset(3), players, seed)
    msg = str(err.value)
    assert spec in msg
    assert "seat 1" in msg
    assert str(seed) in msg


def test_non_integer_action_is_illegal(tmp_path):
    """Driver: an action that is not an int (e.g. a string or bool) is illegal too."""
    path = _player_file(tmp_path, "stringy.py", """\
        class Stringy:
            def choose(self, obs, legal):
                return str(legal[0])
        """)
    players = resolve_players(GAME, [f"{path}:Stringy", "random"])
    with pytest.raises(IllegalActionError, match="seat 0"):
        play_game(GAME, ruleset(2), players, 5)


def test_player_exception_is_reported(tmp_path):
    """Driver: an exception inside choose() becomes a PlayerError naming the player, seat and seed."""
    path = _player_file(tmp_path, "crashy.py", """\
        class Crashy:
            def choose(self, obs, legal):
                raise ValueError("no idea")
        """)
    spec = f"{path}:Crashy"
    players = resolve_players(GAME, ["random", spec])
    with pytest.raises(PlayerError) as err:
        play_game(GAME, ruleset(2), players, 99)
    msg = str(err.value)
    assert spec in msg and "seat 1" in msg and "99" in msg and "no idea" in msg


LEGAL_PLAYER = """\
    from simlab import Player


    class Careful(Player):
        def __init__(self, prefer_pass=False):
            self.prefer_pass = prefer_pass
            self.turns = 0

        def choose(self, obs, legal):
            self.turns += 1
            assert obs.seat == self.seat
            assert len(obs.dice) == 5 and len(obs.factory) == 4
            assert isinstance(obs.describe(legal[0]), str)
            if self.prefer_pass and 0 in legal:
                return 0
            return legal[int(self.rng.integers(len(legal)))]
    """


def test_legal_python_player_plays_full_game(tmp_path):
    """A Python player that returns legal actions plays whole games: 15 turns, 12 cards (R14, R18)."""
    path = _player_file(tmp_path, "careful.py", LEGAL_PLAYER)
    for spec in (f"{path}:Careful", f"{path}:Careful(prefer_pass=True)"):
        players = resolve_players(GAME, [spec, "greedy", "random"])
        rec = play_game(GAME, ruleset(3), players, GAME.game_seed(4, 1), record_events=True)
        s = rec.state[0]
        assert s["over"] == 1
        assert rec.decisions == 45
        assert s["owned_n"][:3].tolist() == [12, 12, 12]
        assert sum(1 for e in rec.events if e["event"] == "take" and e["seat"] == 0) == 12


def test_python_player_in_play_batch(tmp_path):
    """play_batch with a Python player goes through the driver and gives the driver's games."""
    path = _player_file(tmp_path, "careful2.py", LEGAL_PLAYER)
    lineup = ["investor", f"{path}:Careful"]
    res = simlab.play_batch("sentient", players=lineup, games=5, seed=12)
    assert not res.compiled
    players = resolve_players(GAME, lineup)
    for i in range(5):
        rec = play_game(GAME, ruleset(2), players, GAME.game_seed(12, i))
        assert res.seats.filter(pl.col("game") == i)["score"].to_list() == [r["score"] for r in rec.seats]


# ---------------------------------------------------------------- built-in players


def _check_legal_play(lineup, seeds, options=None):
    """Play games through the driver and assert that every action was legal for the seat to move."""
    rules = ruleset(len(lineup), **(options or {}))
    players = resolve_players(GAME, lineup)
    for seed in seeds:
        state0, _ = new_state(rules, seed=seed, capacity=0)
        pending = {"seat": GAME.current_player(state0), "legal": set(legal(rules, state0).tolist())}
        used = set()

        def on_step(state, seat, action, pending=pending, used=used):
            assert seat == pending["seat"]
            assert action in pending["legal"], (lineup[seat], seat, action)
            used.add(lineup[seat])
            if not state[0]["over"]:
                pending["seat"] = GAME.current_player(state)
                pending["legal"] = set(legal(rules, state).tolist())

        rec = play_game(GAME, rules, players, seed, on_step=on_step)
        assert rec.state[0]["over"] == 1
        assert rec.decisions == 15 * len(lineup)
        assert used == set(lineup)


@pytest.mark.parametrize("name", ["random", "greedy", "investor", "specialist", "greedy(pass_below=3, block=0)"])
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"same_column_multiple_agents": False, "sweep_on_voluntary_pass": "optional"},
        {"factory_leftovers": "remove_from_game", "service_floor": "sum_minus_6_only"},
    ],
)
def test_builtin_players_play_only_legal_actions(name, options):
    """Built-in compiled players choose only legal actions and finish their games (R16-R23, O5, O8, O10)."""
    _check_legal_play([name, "random", name, name], [GAME.game_seed(3, i) for i in range(6)], options)


def test_search_player_plays_only_legal_actions():
    """The shared search (few iterations, each rollout player) chooses only legal actions (R16-R18)."""
    _check_legal_play(["ismcts(iterations=20)", "greedy", "greedy"], [0, 1, 2, 11])
    _check_legal_play(["ismcts(iterations=12, rollout=2)", "random", "greedy"], [3, 4, 11])
    _check_legal_play(["ismcts(iterations=12, rollout=0)", "investor"], [5, 6])


def test_retired_mc_player_names_its_replacement():
    """``mc`` was retired (issue 25): asking for it says what replaces it, in one line."""
    with pytest.raises(PlayerError) as err:
        resolve_players(GAME, ["mc(iterations=20)", "greedy"])
    assert str(err.value) == ("unknown player 'mc' for sentient: 'mc' was retired (issue 25): use 'ismcts', "
                              "as strong at equal time per decision (docs/players.md)")


def test_kind_numbers_stay_fixed():
    """Retiring a player leaves every other player's kind (and so its games) as it was: ``mc`` was kind 4."""
    kinds = {name: p.kind for name, p in GAME.builtin_players().items()}
    assert kinds == {"random": 0, "greedy": 1, "investor": 2, "specialist": 3, "ismcts": 5}


def test_builtin_players_in_batch():
    """Every built-in player runs in the compiled batch loop: all games end with 12 cards each (15 turns)."""
    res = simlab.play_batch("sentient", players=["random", "greedy", "investor", "specialist"], games=100, seed=4)
    assert res.compiled
    assert res.games["turns"].to_list() == [60] * 100
    cards = res.seats.select(pl.sum_horizontal(pl.col("^cards_.*$")).alias("n"))["n"]
    assert cards.to_list() == [12] * 400
    assert (res.games["n_winners"] >= 1).all()
    assert res.seats.group_by("game").agg(pl.col("win_share").sum())["win_share"].round(9).to_list() == [1.0] * 100


# ---------------------------------------------------------------- a ladder check (fixed seeds, wide margins)


def _rotated(strong: str, weak: str, n_players: int, games_per_seat: int, seed: int) -> tuple[float, float]:
    """Win share and mean score of ``weak`` when one seat (rotated through all seats) plays it."""
    wins = 0.0
    score = 0.0
    for k in range(n_players):
        lineup = [strong] * n_players
        lineup[k] = weak
        res = simlab.play_batch("sentient", players=lineup, games=games_per_seat, seed=seed + k)
        mine = res.seats.filter(pl.col("seat") == k)
        wins += mine["win_share"].sum()
        score += mine["score"].sum()
    n = n_players * games_per_seat
    return wins / n, score / n


def test_greedy_beats_random():
    """Ladder: over 400 seat-rotated 4-player games, a random player among three greedy ones almost never wins
    (win rate < 0.05), and one greedy player among three random ones almost always wins (> 0.9)."""
    random_share, random_score = _rotated("greedy", "random", 4, 100, 1000)
    assert random_share < 0.05
    greedy_share, greedy_score = _rotated("random", "greedy", 4, 100, 2000)
    assert greedy_share > 0.9
    assert greedy_score > random_score + 10


@pytest.mark.parametrize("name", ["investor", "specialist"])
def test_heuristics_beat_random(name):
    """Ladder: the investor and specialist heuristics also leave a random player almost no wins."""
    share, _ = _rotated(name, "random", 4, 50, 3000)
    assert share < 0.05
