"""A player from a file is called by its class name, not its path (issue 23, "Names and numbers people copy").

Its label is the class with the spec's parameters (``Hoarder``, ``Hoarder(risk=2)``), in the line-up, the
stored ``player`` column (``stored_name``), logs and batch tables alike; a label (``LABEL=SPEC``) still wins, and
two different files that would share a name must be told apart by labels.
"""

from __future__ import annotations

import textwrap

import pytest

from simlab.core.driver import play_game
from simlab.core.errors import PlayerError
from simlab.core.game import get_game
from simlab.core.player import resolve_player, resolve_players, stored_name
from simlab.core.trace import game_trace
from simlab.play import play_batch

PLAYER = textwrap.dedent(
    """\
    from simlab import Player


    class Hoarder(Player):
        def __init__(self, risk=1):
            self.risk = risk

        def choose(self, obs, legal):
            return legal[-1]
    """
)


@pytest.fixture
def player_file(tmp_path):
    path = tmp_path / "deep" / "folder" / "players" / "hoarder.py"
    path.parent.mkdir(parents=True)
    path.write_text(PLAYER)
    return path


def test_file_player_label_is_its_class(player_file):
    """The resolved label and the stored column's name are the class (with its parameters), never the path."""
    game = get_game("sentient")
    for spec, name in ((f"{player_file}:Hoarder", "Hoarder"), (f"{player_file}:Hoarder(risk=2)", "Hoarder(risk=2)"),
                       (f"h={player_file}:Hoarder", "h")):
        assert resolve_player(game, spec).label == name
        assert stored_name(spec) == name


def test_two_files_with_one_class_name_need_labels(player_file, tmp_path):
    """Labels stay unique: a second file with a class of the same name is refused with a hint to label them."""
    other = tmp_path / "other" / "hoarder.py"
    other.parent.mkdir()
    other.write_text(PLAYER)
    game = get_game("sentient")
    with pytest.raises(PlayerError, match=r"two different players.*LABEL=SPEC"):
        resolve_players(game, [f"{player_file}:Hoarder", f"{other}:Hoarder", "greedy"])
    players = resolve_players(game, [f"a={player_file}:Hoarder", f"b={other}:Hoarder", "greedy"])
    assert [p.label for p in players] == ["a", "b", "greedy"]


def test_batch_table_and_log_show_the_class(player_file):
    """The batch result's player column and a game's readable log name the class, with no part of the path."""
    spec = f"{player_file}:Hoarder"
    result = play_batch("sentient", players=[spec, "greedy", "greedy"], games=4, seed=1)
    assert set(result.seats["player"].to_list()) == {"Hoarder", "greedy"}
    game = get_game("sentient")
    players = resolve_players(game, [spec, "greedy", "greedy"])
    rules = game.ruleset(3, {}, None)
    record = play_game(game, rules, players, 7, record_events=True)
    lines = game.log_lines(game_trace(game, rules, record, [p.label for p in players], 0))
    text = "\n".join(lines)
    assert "Hoarder" in text and "players/hoarder" not in text and "folder" not in text
