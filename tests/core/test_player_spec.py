"""Player specs (simlab.core.player): parsing, resolving, labels; the CLI's spec and option splitting."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

from simlab.cli import parse_option_pairs, split_specs
from simlab.core.errors import PlayerError, SimlabError
from simlab.core.game import get_game
from simlab.core.player import (
    PlayerSpec,
    ResolvedPlayer,
    parse_player_spec,
    resolve_player,
    resolve_players,
)

GAME = get_game("sentient")

# ---------------------------------------------------------------- parse_player_spec


def test_parse_plain_name():
    spec = parse_player_spec("greedy")
    assert spec == PlayerSpec("greedy", "builtin", "greedy", {}, path=None, game=None)


def test_parse_name_with_params():
    spec = parse_player_spec("greedy(pass_below=2)")
    assert spec.source == "builtin"
    assert spec.name == "greedy"
    assert spec.params == {"pass_below": 2}
    assert spec.game is None
    assert spec.text == "greedy(pass_below=2)"


def test_parse_name_with_several_params_and_spaces():
    spec = parse_player_spec("  investor( card_weight=0.5 , pass_below = 3 )  ")
    assert spec.name == "investor"
    assert spec.params == {"card_weight": 0.5, "pass_below": 3}
    assert spec.text == "investor( card_weight=0.5 , pass_below = 3 )"


def test_parse_game_qualified():
    spec = parse_player_spec("sentient:investor")
    assert spec.source == "builtin"
    assert spec.name == "investor"
    assert spec.game == "sentient"
    assert spec.path is None


def test_parse_game_qualified_with_params():
    spec = parse_player_spec("sentient:greedy(block=0)")
    assert (spec.source, spec.game, spec.name, spec.params) == ("builtin", "sentient", "greedy", {"block": 0})


def test_parse_file_with_directory():
    spec = parse_player_spec("path/to/x.py:Cls")
    assert spec.source == "file"
    assert spec.path == "path/to/x.py"
    assert spec.name == "Cls"
    assert spec.params == {}
    assert spec.game is None


def test_parse_file_with_kwargs():
    spec = parse_player_spec('x.py:Cls(a=1, b="s")')
    assert spec.source == "file"
    assert spec.path == "x.py"
    assert spec.name == "Cls"
    assert spec.params == {"a": 1, "b": "s"}


def test_parse_file_literal_kwargs():
    """File players may take any Python literal (lists, None, booleans, negative numbers)."""
    spec = parse_player_spec("bots/b.py:Bot(depth=-3, names=['a', 'b'], flag=True, none=None, t=(1, 2))")
    assert spec.params == {"depth": -3, "names": ["a", "b"], "flag": True, "none": None, "t": (1, 2)}


def test_parse_human():
    spec = parse_player_spec("human")
    assert spec.source == "builtin"  # a name: the game's compiled players first, then the registered Python players
    assert spec.name == "human"
    assert spec.params == {}


def test_human_is_a_registered_python_player():
    """``human`` comes from the ``simlab.players`` entry-point group, like a third-party package's players."""
    from simlab.core.game import get_game
    from simlab.core.player import python_players, resolve_player
    from simlab.players.human import HumanPlayer

    assert python_players()["human"] is HumanPlayer
    resolved = resolve_player(get_game("sentient"), "human(menu=0)")
    assert resolved.interactive and not resolved.compiled
    assert isinstance(resolved.make(), HumanPlayer)


def test_players_from_an_entry_point(monkeypatch):
    """A package's Python player, registered under ``simlab.players``, is found by name for every game; a
    broken entry point is skipped with a warning."""
    from importlib.metadata import EntryPoint

    import simlab.core.player as player_mod
    from simlab.core.game import get_game

    points = [EntryPoint("firstlegal", "simlab.bench:_FirstLegal", "simlab.players"),
              EntryPoint("broken", "no_such_module_xyz:Bot", "simlab.players")]
    monkeypatch.setattr(player_mod, "entry_points", lambda group: points if group == "simlab.players" else [])
    monkeypatch.setattr(player_mod, "_DISCOVERED", False)
    monkeypatch.setattr(player_mod, "_PYTHON_PLAYERS", {})
    with pytest.warns(UserWarning, match="player entry point 'broken'"):
        found = player_mod.python_players()
    assert set(found) == {"firstlegal"}
    for name in ("sentient", "smartphone"):
        rec = player_mod.resolve_player(get_game(name), "firstlegal")
        assert not rec.compiled and not rec.interactive


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("greedy(2)", "name=value"),
        ("greedy(pass_below=)", "cannot read the parameters"),
        ("greedy(x=foo)", "not a literal value"),
        ("greedy(pass_below=2", "not a player spec"),
        ("(pass_below=2)", "not a player spec"),
        ("", "not a player spec"),
        ("greedy(x=1+)", "cannot read the parameters"),
        ("greedy(x=__import__('os'))", "not a literal value"),
    ],
)
def test_parse_malformed(text, fragment):
    """Malformed specs raise PlayerError with one line that names the spec."""
    with pytest.raises(PlayerError) as err:
        parse_player_spec(text)
    msg = str(err.value)
    assert fragment in msg
    assert f"'{text}'" in msg
    assert "\n" not in msg


@pytest.mark.parametrize("text", ["greedy(a=1) + f(b=2)", "greedy(pass_below=1), x(block=0)"])
def test_parse_malformed_non_call_expression(text):
    with pytest.raises(PlayerError):
        parse_player_spec(text)


@pytest.mark.parametrize("text", ["greedy(block=0)(pass_below=2)", "greedy(pass_below=1, pass_below=3)"])
def test_parse_ambiguous_parameters_rejected(text):
    with pytest.raises(PlayerError):
        parse_player_spec(text)


# ---------------------------------------------------------------- resolve_player


def test_resolve_builtin_defaults():
    p = resolve_player(GAME, "greedy")
    info = GAME.builtin_players()["greedy"]
    assert p.compiled
    assert p.kind == info.kind
    assert p.label == "greedy"
    assert p.params is not None and p.params.dtype == np.float64
    np.testing.assert_array_equal(p.params[: len(info.params)], list(info.params.values()))
    assert not p.interactive


def test_resolve_overrides_param_and_label():
    p = resolve_player(GAME, "greedy(pass_below=2.5)")
    names = list(GAME.builtin_players()["greedy"].params)
    assert p.params is not None
    assert p.params[names.index("pass_below")] == 2.5
    assert p.params[names.index("block")] == GAME.builtin_players()["greedy"].params["block"]
    assert p.label == "greedy(pass_below=2.5)"


def test_label_includes_every_overridden_param():
    p = resolve_player(GAME, "investor(pass_below=1, card_weight=0.5)")
    assert p.label.startswith("investor(")
    assert "pass_below=1" in p.label
    assert "card_weight=0.5" in p.label


def test_resolve_game_qualified_same_as_plain():
    a = resolve_player(GAME, "sentient:investor")
    b = resolve_player(GAME, "investor")
    assert a.label == b.label == "investor"
    assert a.kind == b.kind
    assert a.params is not None and b.params is not None
    np.testing.assert_array_equal(a.params, b.params)


def test_resolve_passes_resolved_through():
    rp = ResolvedPlayer("x", False, factory=object)
    assert resolve_player(GAME, rp) is rp


def test_resolve_accepts_parsed_spec():
    p = resolve_player(GAME, parse_player_spec("greedy(block=0)"))
    assert p.compiled and p.label == "greedy(block=0)"


def test_resolve_human():
    p = resolve_player(GAME, "human")
    assert not p.compiled
    assert p.interactive
    assert p.label == "human"
    from simlab.players.human import HumanPlayer

    assert isinstance(p.make(), HumanPlayer)


def test_resolve_file_player(tmp_path):
    path = tmp_path / "fileplayer_spec.py"
    path.write_text(
        textwrap.dedent(
            """\
            class Cls:
                def __init__(self, a=0, b=""):
                    self.a, self.b = a, b

                def choose(self, obs, legal):
                    return legal[0]
            """
        ),
        encoding="utf-8",
    )
    spec = f'{path}:Cls(a=1, b="s")'
    p = resolve_player(GAME, spec)
    assert not p.compiled
    assert p.label == 'Cls(a=1, b="s")' and p.spec == spec  # called by its class, not its path (issue 23)
    inst = p.make()
    assert (inst.a, inst.b) == (1, "s")
    assert p.make() is not inst  # a fresh instance each time


def test_resolve_file_player_bad_kwargs(tmp_path):
    """Keyword arguments the class does not take fail at resolve time, naming the spec."""
    path = tmp_path / "fileplayer_kwargs.py"
    path.write_text("class Cls:\n    def choose(self, obs, legal):\n        return legal[0]\n", encoding="utf-8")
    spec = f"{path}:Cls(depth=3)"
    with pytest.raises(PlayerError, match="cannot create Cls") as err:
        resolve_player(GAME, spec)
    assert spec in str(err.value)


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("greedy(speed=2)", "unknown parameter 'speed'"),
        ("random(pass_below=1)", "unknown parameter 'pass_below' (parameters: none)"),
        ("greedy(pass_below='x')", "parameter 'pass_below' must be a number"),
        ("greedy(block=True)", "parameter 'block' must be a number"),
        ("greedy(block=None)", "parameter 'block' must be a number"),
        ("greedy(block=[1])", "parameter 'block' must be a number"),
        ("othergame:greedy", "belongs to game 'othergame', not 'sentient'"),
        ("nobody", "unknown player 'nobody' for sentient"),
    ],
)
def test_resolve_errors(spec, fragment):
    with pytest.raises(PlayerError) as err:
        resolve_player(GAME, spec)
    msg = str(err.value)
    assert fragment in msg
    assert "\n" not in msg


def test_retired_player_names_its_replacement(monkeypatch):
    """A name the game declares retired gets the replacement and the reason in one line, not the list of players."""
    from simlab.core.game import RetiredPlayer

    monkeypatch.setattr(GAME, "retired_players", {"oldie": RetiredPlayer("greedy", "it plays the same, faster")})
    with pytest.raises(PlayerError) as err:
        resolve_player(GAME, "oldie(depth=2)")
    assert str(err.value) == ("unknown player 'oldie' for sentient: 'oldie' was retired: use 'greedy', "
                              "it plays the same, faster")
    monkeypatch.setattr(GAME, "retired_players", {"oldie": RetiredPlayer("greedy", "it plays the same", "v2")})
    with pytest.raises(PlayerError, match=r"'oldie' was retired \(v2\): use 'greedy', it plays the same$"):
        resolve_player(GAME, "oldie")


def test_unknown_parameter_lists_known_parameters():
    with pytest.raises(PlayerError) as err:
        resolve_player(GAME, "greedy(speed=2)")
    assert "pass_below" in str(err.value) and "block" in str(err.value)


@pytest.mark.parametrize("n", [1, 5])
def test_resolve_players_wrong_count(n):
    with pytest.raises(PlayerError, match=f"sentient takes 2-4 players; {n} were given"):
        resolve_players(GAME, ["greedy"] * n)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_resolve_players_one_per_seat(n):
    specs = ["greedy", "investor(pass_below=1)", "random", "sentient:specialist"][:n]
    out = resolve_players(GAME, specs)
    assert [p.label for p in out] == ["greedy", "investor(pass_below=1)", "random", "specialist"][:n]


def test_player_error_is_simlab_error():
    assert issubclass(PlayerError, SimlabError)


# ---------------------------------------------------------------- CLI helpers


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a,b(x=1,y=2),c", ["a", "b(x=1,y=2)", "c"]),
        ("greedy", ["greedy"]),
        (" a , b ", ["a", "b"]),
        ("a,b,", ["a", "b"]),
        ("f.py:C(xs=(1,2),n=3),greedy(pass_below=2)", ["f.py:C(xs=(1,2),n=3)", "greedy(pass_below=2)"]),
        ("", []),
    ],
)
def test_split_specs(text, expected):
    assert split_specs(text) == expected


def test_parse_option_pairs():
    opts = parse_option_pairs(
        ["runner_up_min_influence=2", "same_column_multiple_agents=false", "service_floor=all",
         'sweep_order="draw_then_discard"', " weight = 1.5 ", "expr=a=b"]
    )
    assert opts == {
        "runner_up_min_influence": 2,
        "same_column_multiple_agents": False,
        "service_floor": "all",
        "sweep_order": "draw_then_discard",
        "weight": 1.5,
        "expr": "a=b",
    }
    assert parse_option_pairs(None) == {}
    assert parse_option_pairs([]) == {}


def test_parse_option_pairs_needs_equals():
    with pytest.raises(SimlabError, match="--option service_floor: expected name=value"):
        parse_option_pairs(["service_floor"])
