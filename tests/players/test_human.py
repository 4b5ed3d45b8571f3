"""The ``human`` player (simlab.players.human) with scripted input and captured output."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

import pytest

from simlab.core.driver import play_game
from simlab.core.errors import PlayerError, SimlabError
from simlab.core.game import get_game
from simlab.core.player import resolve_players
from simlab.players.human import HumanPlayer, HumanQuitError

GAME = get_game("sentient")
HINT = "please type a number from 1 to"
MAX_PROMPTS = 500


def scripted(answers: Iterable[str], then: str | None = "1") -> tuple[Callable[[str], str], list[str]]:
    """An input function giving ``answers`` in turn, then ``then`` forever (EOF when None); and its prompts."""
    queue = list(answers)
    prompts: list[str] = []

    def input_fn(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > MAX_PROMPTS:  # a re-asking loop would otherwise hang the test run
            raise RuntimeError("the human player asked too many times")
        if queue:
            return queue.pop(0)
        if then is None:
            raise EOFError
        return then

    return input_fn, prompts


def first_position(seed: int = 1, n: int = 2):
    """The first decision of a fresh game: (observation, legal actions)."""
    rules = GAME.ruleset(n)
    state, legal = GAME.new_game(rules, GAME.game_seed(seed, 0), GAME.new_log(0))
    legal_list = legal.tolist()
    return GAME.observation(rules, state, legal_list), legal_list


def make(answers: Iterable[str], then: str | None = "1") -> tuple[HumanPlayer, list[str], list[str]]:
    input_fn, prompts = scripted(answers, then)
    out: list[str] = []
    return HumanPlayer(input_fn=input_fn, print_fn=out.append, menu=False), out, prompts


def label(obs, a: int) -> str:
    """How the flat list shows action ``a``: its description and the VP it changes now."""
    return f"{obs.describe(a)}  ({obs.score_change(a):+d} VP now)"


def listed(lines: list[str]) -> list[tuple[int, str]]:
    """(number, description) of the numbered action lines among ``lines``."""
    found = []
    for line in lines:
        m = re.match(r"^\s+(\d+)\. (.*)$", line)
        if m:
            found.append((int(m.group(1)), m.group(2)))
    return found


# ---------------------------------------------------------------- one decision


def test_valid_number_returns_that_action():
    obs, legal = first_position()
    for k in (1, 2, len(legal)):
        h, _, _ = make([str(k)])
        assert h.choose(obs, legal) == legal[k - 1]


def test_number_with_spaces_accepted():
    obs, legal = first_position()
    h, _, _ = make(["  3 "])
    assert h.choose(obs, legal) == legal[2]


def test_lists_every_action_numbered():
    obs, legal = first_position()
    h, out, prompts = make(["1"])
    h.choose(obs, legal)
    items = listed(out)
    assert [k for k, _ in items] == list(range(1, len(legal) + 1))
    assert [d for _, d in items] == [label(obs, a) for a in legal]
    assert prompts and f"seat {obs.seat}" in prompts[0]


@pytest.mark.parametrize("bad", ["", "abc", "0", "999", "-1", "1.5", "1 2", "#3"])
def test_bad_input_is_asked_again(bad):
    obs, legal = first_position()
    h, out, prompts = make([bad, "2"])
    assert h.choose(obs, legal) == legal[1]
    assert len(prompts) == 2
    hints = [line for line in out if line.startswith(HINT)]
    assert hints == [f"{HINT} {len(legal)}, /text to filter, ? or q"]


def test_many_bad_inputs_then_valid():
    obs, legal = first_position()
    bad = ["", "abc", "0", "999", str(len(legal) + 1), "x1"]
    h, out, prompts = make([*bad, "1"])
    assert h.choose(obs, legal) == legal[0]
    assert len(prompts) == len(bad) + 1
    assert sum(line.startswith(HINT) for line in out) == len(bad)


def test_superscript_digit_is_asked_again():
    obs, legal = first_position()
    h, out, _ = make(["²", "1"])
    assert h.choose(obs, legal) == legal[0]
    assert any(line.startswith(HINT) for line in out)


def test_filter_slot():
    """'/slot 2' lists only the takes into slot 2, under their numbers in the full list."""
    obs, legal = first_position()
    expected = [(i + 1, label(obs, a)) for i, a in enumerate(legal) if "slot 2" in obs.describe(a).lower()]
    assert 0 < len(expected) < len(legal), "the first position should offer takes into slot 2 and others"
    pick = expected[-1][0]
    h, out, _ = make(["/slot 2", str(pick)])
    action = h.choose(obs, legal)
    items = listed(out)
    assert items[: len(legal)] == [(i + 1, label(obs, a)) for i, a in enumerate(legal)]
    assert items[len(legal) :] == expected
    assert action == legal[pick - 1]
    assert "into slot 2" in obs.describe(action)


def test_filter_is_case_insensitive_and_no_match_shows_all():
    obs, legal = first_position()
    h, out, _ = make(["/SLOT 0", "/zzz", "1"])
    h.choose(obs, legal)
    assert "nothing matches 'zzz'" in out
    items = listed(out)
    n_slot0 = sum("slot 0" in obs.describe(a) for a in legal)
    # full list, filtered list, full list again after the failed filter
    assert len(items) == len(legal) + n_slot0 + len(legal)


def test_filter_pass():
    obs, legal = first_position()
    h, out, _ = make(["/pass", "1"])
    h.choose(obs, legal)
    after = listed(out)[len(legal) :]
    assert after and all("pass" in d for _, d in after)


def test_question_mark_renders_again():
    obs, legal = first_position()
    board = obs.render()
    h, out, _ = make(["?", "?", "1"])
    h.choose(obs, legal)
    assert out.count(board) == 3  # once at the start, once per '?'


def test_rendered_board_mentions_round_factory_and_dice():
    obs, legal = first_position(seed=4, n=3)
    h, out, _ = make(["1"])
    h.choose(obs, legal)
    board = next(line for line in out if line.startswith("Round"))
    assert board.startswith("Round 1")
    assert "Factory" in board
    for col in range(4):
        assert f"C{col} " in board
    seat_lines = board.splitlines()
    me = next(i for i, line in enumerate(seat_lines) if line.startswith(f"Seat {obs.seat} (you)"))
    dice_line = seat_lines[me + 1]
    assert re.findall(r"\[(\d)\]", dice_line) == [str(d) for d in obs.dice]


@pytest.mark.parametrize("word", ["q", "quit", "exit", " q "])
def test_quit(word):
    obs, legal = first_position()
    h, _, _ = make([word])
    with pytest.raises(HumanQuitError, match="stopped by the human player"):
        h.choose(obs, legal)


def test_quit_after_bad_input():
    obs, legal = first_position()
    h, out, _ = make(["abc", "q"])
    with pytest.raises(HumanQuitError):
        h.choose(obs, legal)
    assert any(line.startswith(HINT) for line in out)


def test_eof_quits_with_clear_message():
    obs, legal = first_position()
    h, _, _ = make([], then=None)
    with pytest.raises(HumanQuitError, match="input closed") as err:
        h.choose(obs, legal)
    assert isinstance(err.value, SimlabError)
    assert "\n" not in str(err.value)


def test_keyboard_interrupt_quits():
    obs, legal = first_position()

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    with pytest.raises(HumanQuitError, match="stopped by the human player"):
        HumanPlayer(input_fn=interrupt, print_fn=lambda s: None).choose(obs, legal)


def test_quit_error_is_simlab_error():
    assert issubclass(HumanQuitError, SimlabError)


# ---------------------------------------------------------------- whole games through the driver


def _play(human: HumanPlayer, lineup=("human", "greedy"), seed: int = 3):
    players = resolve_players(GAME, list(lineup))
    rules = GAME.ruleset(len(players))
    instances = [human if p.label == "human" else None for p in players]
    return play_game(GAME, rules, players, GAME.game_seed(seed, 0), instances=instances)


def test_human_plays_a_whole_game():
    bad = ["", "abc", "0", "999", "/slot 2", "?", "/zzz"]
    h, out, prompts = make(bad, then="1")
    rec = _play(h)
    assert rec.state[0]["over"] == 1
    assert rec.decisions == 30
    # 15 decisions for the human, plus one extra prompt per bad/unused answer
    assert len(prompts) == 15 + len(bad)
    assert sum(line.startswith(HINT) for line in out) == 4
    rounds = {int(m.group(1)) for line in out if (m := re.match(r"Round (\d)", line))}
    assert rounds == {1, 2, 3}


def test_human_choices_reach_the_game():
    """The action a number names is the action played: always answering the last number plays legal[-1]."""
    out: list[str] = []

    def last_number(prompt: str) -> str:
        return str(max(k for k, _ in listed(out)[-1:]))

    h = HumanPlayer(input_fn=last_number, print_fn=out.append, menu=False)
    offered: list[list[int]] = []
    inner = h.choose

    def choose(obs, legal_list):
        offered.append(list(legal_list))
        return inner(obs, legal_list)

    h.choose = choose  # type: ignore[method-assign]
    seen: list[tuple[int, int]] = []
    players = resolve_players(GAME, ["greedy", "human"])
    play_game(GAME, GAME.ruleset(2), players, GAME.game_seed(8, 0), instances=[None, h],
              on_step=lambda st, seat, action: seen.append((seat, action)))
    human_actions = [a for seat, a in seen if seat == 1]
    assert len(human_actions) == len(offered) == 15
    assert human_actions == [legal_list[-1] for legal_list in offered]


def test_human_eof_in_a_game_stops_it():
    h, _, _ = make(["1", "1"], then=None)
    with pytest.raises(SimlabError, match="input closed"):
        _play(h)


def test_human_quit_in_a_game_raises_quit_error():
    h, _, _ = make(["q"])
    with pytest.raises(HumanQuitError):
        _play(h)


def test_human_quit_in_a_game_is_a_simlab_error():
    """Whatever its class, a quit ends the game with a one-line SimlabError the CLI prints cleanly."""
    h, _, _ = make(["q"])
    with pytest.raises(SimlabError) as err:
        _play(h)
    assert "stopped by the human player" in str(err.value)
    assert "\n" not in str(err.value)
    assert not isinstance(err.value, PlayerError) or isinstance(err.value.__cause__, HumanQuitError)


# ---------------------------------------------------------------- the step-by-step menu


def _leaves(menu):
    out = []
    for _, choice in menu:
        out.extend(_leaves(choice) if isinstance(choice, list) else [choice])
    return out


def test_menu_covers_exactly_the_legal_actions():
    """Every legal action is reachable in the menu, once, and nothing else is."""
    for seed in range(5):
        obs, legal = first_position(seed, n=3)
        leaves = _leaves(obs.menu())
        assert sorted(leaves) == sorted(legal)
        assert len(leaves) == len(set(leaves))


def test_menu_steps_and_back():
    """Card, then slot, then blocks, then influence; 'b' goes back a step; the path's action is returned."""
    obs, legal = first_position(2, n=3)
    menu = obs.menu()
    col_index = next(i for i, (label, choice) in enumerate(menu) if isinstance(choice, list))
    slot_menu = menu[col_index][1]
    block_menu = slot_menu[0][1]
    choice = block_menu[0][1]
    expected = choice[-1][1] if isinstance(choice, list) else choice
    answers = [str(col_index + 1), "b", str(col_index + 1), "1", "1"] + ([str(len(choice))] if isinstance(choice, list)
                                                                       else [])
    if len(slot_menu) == 1:
        answers.remove("1")
    input_fn, prompts = scripted(answers, None)
    out: list[str] = []
    action = HumanPlayer(input_fn=input_fn, print_fn=out.append).choose(obs, legal)
    assert action == expected
    assert any("b back" in p for p in prompts)
    assert any("into slot" in line for line in out) and any("no block" in line for line in out)


def test_menu_bad_answers_are_asked_again():
    obs, legal = first_position(3, n=2)
    input_fn, _ = scripted(["", "abc", "0", "99", "b", "1"], None)
    out: list[str] = []
    action = HumanPlayer(input_fn=input_fn, print_fn=out.append).choose(obs, legal)
    assert action == legal[0]  # the first entry of the top menu is the pass
    assert sum("please type a number" in line for line in out) == 5  # 'b' at the top is not an answer either


# ---------------------------------------------------------------- readability (issue 12)


def test_sentient_menu_vp_is_the_observations_score_change():
    """Each leaf of the menu says '(+N VP now)' with N = obs.score_change(action)."""
    for seed in range(4):
        obs, _ = first_position(seed, n=2)

        def walk(menu, obs=obs):
            for label, choice in menu:
                if isinstance(choice, list):
                    assert "VP now" in label
                    walk(choice, obs)
                else:
                    m = re.search(r"\(([+-]\d+) VP now\)$", label)
                    assert m, label
                    assert int(m.group(1)) == obs.score_change(choice)

        walk(obs.menu())


def test_legend_shown_once_and_on_h():
    obs, legal = first_position()
    input_fn, prompts = scripted(["h", "1"])
    out: list[str] = []
    h = HumanPlayer(input_fn=input_fn, print_fn=out.append, menu=False)
    h.choose(obs, legal)
    h.choose(obs, legal)
    legends = [line for line in out if line.startswith("How to read the board")]
    assert len(legends) == 2  # the first decision, and 'h'; not the second decision
    assert "h legend" in prompts[0]


def test_flush_runs_before_every_prompt():
    obs, legal = first_position()
    calls: list[int] = []
    input_fn, prompts = scripted(["abc", "1"], None)
    h = HumanPlayer(input_fn=input_fn, print_fn=lambda s: None, menu=False, flush=lambda: calls.append(len(prompts)))
    h.choose(obs, legal)
    assert calls == [0, 1]  # before each of the two prompts, never after an answer was read


def test_quit_exit_status_and_message():
    obs, legal = first_position()
    h, _, _ = make(["q"])
    with pytest.raises(HumanQuitError) as err:
        h.choose(obs, legal)
    assert err.value.exit_code == 0 and str(err.value) == "game stopped by the human player"
    assert "error" not in str(err.value).lower()

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    with pytest.raises(HumanQuitError) as err:
        HumanPlayer(input_fn=interrupt, print_fn=lambda s: None).choose(obs, legal)
    assert err.value.exit_code == 130


SMARTPHONE = get_game("smartphone")


def _smartphone_positions(decisions: set[str], seeds=range(3), limit: int = 40):
    """Observations of Smartphone decisions named in ``decisions`` from games of greedy-like first choices."""
    import numpy as np

    found = []
    for seed in seeds:
        rules = SMARTPHONE.ruleset(2)
        state, legal = SMARTPHONE.new_game(rules, SMARTPHONE.game_seed(seed, 0), SMARTPHONE.new_log(0))
        rng = np.random.default_rng(seed)
        while len(legal) and len(found) < limit:
            obs = SMARTPHONE.observation(rules, state.copy(), legal.tolist())  # a copy: the game goes on
            if obs.decision in decisions:
                found.append((obs, legal.tolist()))
            nonzero = [a for a in legal.tolist() if a != 0] or legal.tolist()
            legal = SMARTPHONE.step(rules, state, int(rng.choice(nonzero)), SMARTPHONE.new_log(0))
    return found


def test_smartphone_losing_stop_is_last_and_confirmed():
    positions = _smartphone_positions({"research", "logistics"})
    assert positions
    confirmed = 0
    for obs, legal in positions:
        menu = obs.menu()
        assert sorted(_leaves(menu)) == sorted(legal)
        assert "lose" not in menu[0][0] or len(menu) == 1
        label, choice = menu[-1]
        if isinstance(choice, list):  # markers to lose: a one-entry confirmation
            confirmed += 1
            assert "asks to confirm" in label and len(choice) == 1 and choice[0][1] == 0
            assert choice[0][0].startswith("yes, stop")
    assert confirmed


def test_smartphone_confirmation_needs_a_second_answer_and_b_goes_back():
    obs, legal = next((o, lg) for o, lg in _smartphone_positions({"research"}) if isinstance(o.menu()[-1][1], list))
    n = len(obs.menu())
    input_fn, prompts = scripted([str(n), "b", str(n), "1"], None)
    out: list[str] = []
    action = HumanPlayer(input_fn=input_fn, print_fn=out.append).choose(obs, legal)
    assert action == 0 and len(prompts) == 4
    assert any("yes, stop researching and lose" in line for line in out)


def test_smartphone_board_shows_buyers_grid_labels_and_effects_in_words():
    """The map lists each buyer by its buyers.csv position (from 0, as specs take it; issue 23)."""
    obs, _ = next(iter(_smartphone_positions({"arrange"}, seeds=[1], limit=1)))
    board = obs.render()
    for b in obs.buyers():
        region = next(r for r in obs.regions() if r.id == b.region)
        if region.retailer is None:
            what = f"red<={b.cap}" if b.kind == "red" else f"purple {b.technology}"
            assert f"{b.index}:{what} [--]" in board
    assert "GPS_DOUBLE_GOODS_SYMBOL" not in board and "each goods symbol makes 2 goods" in board
    sub = obs.menu()[0][1]
    assert re.search(r"row\\col +0 +1 +2", sub[0][0])
    from simlab.games.smartphone.render import legend

    text = legend(obs.rules)
    for abbrev in ("gd", "-$", "+$", "up", "rs", "lg", "..", "red<=4", "purple GPS", "[s1]", "[--]"):
        assert abbrev in text
