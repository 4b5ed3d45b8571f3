"""Sentient data files (simlab/games/sentient/data.py; NOTES.md sections 0, 3 and 4)."""

from __future__ import annotations

import collections
import csv
from pathlib import Path

import pytest
from sentient_helpers import EXAMPLES, GAME, card_index, ruleset

from simlab.core.errors import DataError, OptionError
from simlab.games.sentient import rules as rk
from simlab.games.sentient.data import CONDITIONS, DATA_DIR, TYPES, load_data

CARDS_CSV = DATA_DIR / "cards.csv"


def _read_rows() -> tuple[list[str], list[dict[str, str]]]:
    with CARDS_CSV.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        return list(reader.fieldnames or []), list(reader)


def _write(tmp_path: Path, fields: list[str], rows: list[dict[str, str]], name: str = "cards.csv") -> Path:
    path = tmp_path / name
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields, lineterminator="\n", extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return path


def _line_of(rows: list[dict[str, str]], card_id: int) -> int:
    """File line of a card's row (header is line 1; the bundled file has one line per row)."""
    return 2 + next(i for i, r in enumerate(rows) if int(r["id"]) == card_id)


# ---------------------------------------------------------------- the bundled data


def test_bundled_cards():
    """R1, NOTES 4.1: 60 robot cards, 12 of each type, unique ids, every condition code used, symbols +/-/=,
    no (=,=) card; fixed-VP cards carry a printed VP, information cards a target 1-6."""
    data = GAME.default_data()
    assert len(data.cards) == 60
    assert collections.Counter(c.type for c in data.cards) == {t: 12 for t in TYPES}
    assert len({c.id for c in data.cards}) == 60
    assert {c.condition for c in data.cards} == {code for code, _, _ in CONDITIONS}
    for c in data.cards:
        assert c.left in "+-=" and c.right in "+-="
        assert (c.left, c.right) != ("=", "=")
        if c.vp_kind == "fixed":
            assert c.printed_vp is not None and 2 <= c.printed_vp <= 7
        if c.condition == "INF_TARGET":
            assert c.param in range(1, 7)
    assert data.card_array.shape[0] == 60


def test_bundled_cards_match_research_copy():
    """NOTES 0: the bundled cards.csv is the researched card list, plus the simulator's ``in_deck`` column
    (1 for every card: the printed deck)."""
    import csv

    research = Path(__file__).resolve().parents[4] / "shared" / "research" / "sentient" / "cards.csv"
    if not research.exists():
        pytest.skip("research folder not available")
    bundled = list(csv.DictReader(CARDS_CSV.open(encoding="utf-8")))
    researched = list(csv.DictReader(research.open(encoding="utf-8")))
    assert [r["in_deck"] for r in bundled] == ["1"] * len(bundled)
    assert [{k: v for k, v in r.items() if k != "in_deck"} for r in bundled] == researched


def test_bundled_investors():
    """R6, R8: three round stacks of the five investor types, and one starting investor per type."""
    data = GAME.default_data()
    assert len(data.round_investors) == 3
    for stack in data.round_investors:
        assert sorted(stack) == sorted(TYPES)
    assert sorted(data.starting_investors) == sorted(TYPES)


def test_bundled_options():
    """NOTES 2: one option per open point, with the recommended defaults."""
    options = GAME.option_table()
    assert {o.open_point for o in options.values()} == {f"O{i}" for i in range(1, 11)}
    defaults = {name: o.default for name, o in options.items()}
    assert defaults == {
        "agent_tiebreak_scope": "adjacent_columns_total",
        "runner_up_min_influence": 1,
        "service_floor": "all",
        "investor_layout": "shuffled_face_up",
        "factory_leftovers": "discard",
        "sweep_order": "discard_then_draw",
        "reshuffle_timing": "when_drawing_from_empty_deck",
        "same_column_multiple_agents": True,
        "two_player_rules": "none",
        "sweep_on_voluntary_pass": "mandatory",
    }


def test_loading_a_copy_of_the_bundled_file(tmp_path):
    """A valid cards file given by path loads to the same cards."""
    fields, rows = _read_rows()
    path = _write(tmp_path, fields, rows)
    data = load_data(path)
    assert data.cards == GAME.default_data().cards
    assert data.cards_file == str(path)


# ---------------------------------------------------------------- broken files


def _set(card_id: int, column: str, value: str):
    def mutate(rows):
        for r in rows:
            if int(r["id"]) == card_id:
                r[column] = value
        return card_id

    return mutate


BROKEN = {
    "unknown type": (_set(4, "type", "robotic"), "type"),
    "unknown condition": (_set(9, "condition_code", "INF_TWICE"), "condition_code"),
    "condition/type mismatch": (_set(19, "type", "transport"), "condition_code"),
    "vp kind mismatch": (_set(40, "vp_kind", "formula"), "vp_kind"),
    "bad left symbol": (_set(29, "left_symbol", "*"), "left_symbol"),
    "bad right symbol": (_set(50, "right_symbol", "++"), "right_symbol"),
    "non-integer VP": (_set(32, "printed_vp", "four"), "printed_vp"),
    "missing fixed VP": (_set(45, "printed_vp", ""), "printed_vp"),
    "VP on a formula card": (_set(14, "printed_vp", "3"), "printed_vp"),
    "information without target": (_set(6, "param", ""), "param"),
    "target out of range": (_set(6, "param", "7"), "param"),
    "non-integer id": (_set(55, "id", "55a"), "id"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_card_row(tmp_path, case):
    """data.py: a broken card row raises DataError reading '<file>:<line>: <column>: what is wrong'."""
    mutate, column = BROKEN[case]
    fields, rows = _read_rows()
    card_id = mutate(rows)
    line = 2 + next(i for i, r in enumerate(rows) if r["id"] in (str(card_id), "55a"))
    path = _write(tmp_path, fields, rows)
    with pytest.raises(DataError) as err:
        load_data(path)
    assert str(err.value).startswith(f"{path}:{line}: {column}: "), str(err.value)
    assert (err.value.file, err.value.row, err.value.column) == (str(path), line, column)


def test_duplicate_id(tmp_path):
    """data.py: a second card with an id already used is reported on its own line."""
    fields, rows = _read_rows()
    line = _line_of(rows, 41)
    _set(41, "id", "7")(rows)
    path = _write(tmp_path, fields, rows)
    with pytest.raises(DataError) as err:
        load_data(path)
    assert str(err.value).startswith(f"{path}:{line}: id: "), str(err.value)
    assert "7" in str(err.value)


def test_duplicate_id_line_after_blank_line(tmp_path):
    """data.py contract ('file:row: column'): the duplicate's real line, even after a blank line."""
    fields, rows = _read_rows()
    _set(41, "id", "7")(rows)
    path = _write(tmp_path, fields, rows)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines.insert(5, "\n")  # blank line 6; card 41 moves from line 42 to line 43
    path.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_data(path)
    assert str(err.value).startswith(f"{path}:43: id: "), str(err.value)


def test_duplicate_id_line_after_blank_line_reported(tmp_path):
    """Companion of the xfail above: other errors after a blank line do give the real line."""
    fields, rows = _read_rows()
    _set(41, "type", "robotic")(rows)
    path = _write(tmp_path, fields, rows)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines.insert(5, "\n")
    path.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_data(path)
    assert str(err.value).startswith(f"{path}:43: type: ")


@pytest.mark.parametrize("column", ["right_symbol", "printed_vp", "condition_code", "id"])
def test_missing_column(tmp_path, column):
    """data.py: a required column missing from the header is reported on line 1."""
    fields, rows = _read_rows()
    fields = [f for f in fields if f != column]
    path = _write(tmp_path, fields, rows)
    with pytest.raises(DataError) as err:
        load_data(path)
    assert str(err.value).startswith(f"{path}:1: {column}: "), str(err.value)


def test_missing_file(tmp_path):
    """data.py: a cards file that does not exist is a DataError naming it."""
    path = tmp_path / "nope.csv"
    with pytest.raises(DataError) as err:
        load_data(path)
    assert str(err.value).startswith(str(path))


def test_too_few_cards_for_the_player_count(tmp_path):
    """NOTES 1.12: players own 12 cards each and the factory holds 4, so a deck too small for the player count
    is refused when the ruleset is built."""
    fields, rows = _read_rows()
    path = _write(tmp_path, fields, rows[:45])
    data = load_data(path)
    assert len(data.cards) == 45
    GAME.ruleset(2, data=data)
    GAME.ruleset(3, data=data)
    with pytest.raises(DataError, match="45 cards; 4 players with these options need 52"):
        GAME.ruleset(4, data=data)


# ---------------------------------------------------------------- options


def test_unknown_option_name():
    """options.toml: an unknown option name raises OptionError naming it."""
    with pytest.raises(OptionError, match="unknown option 'service_flor'"):
        GAME.ruleset(3, options={"service_flor": "all"})


@pytest.mark.parametrize(("name", "value"), [
    ("service_floor", "none"),
    ("runner_up_min_influence", 2),
    ("same_column_multiple_agents", "yes"),
    ("sweep_order", "draw"),
])
def test_option_value_not_allowed(name, value):
    """options.toml: a value outside an option's allowed list raises OptionError."""
    with pytest.raises(OptionError, match=name):
        GAME.ruleset(3, options={name: value})


def test_options_reach_the_kernels():
    """Each option value is encoded into the option array the kernels read."""
    assert ruleset(3).opts.tolist() == [0, 1, 1, 0, 0, 0, 0, 1, 0]
    changed = ruleset(
        3,
        agent_tiebreak_scope="skip",
        runner_up_min_influence=0,
        service_floor="sum_minus_6_only",
        investor_layout="type_order_face_up",
        factory_leftovers="remove_from_game",
        sweep_order="draw_then_discard",
        reshuffle_timing="as_soon_as_deck_empty",
        same_column_multiple_agents=False,
        sweep_on_voluntary_pass="optional",
    )
    assert changed.opts.tolist() == [1, 0, 0, 1, 1, 1, 1, 0, 1]


# ---------------------------------------------------------------- changing card values


def test_with_card_values_changes_points():
    """data.with_card_values: changing card 32's printed VP (L>R transport, 4 VP) to 5 changes its points;
    the original data set is unchanged."""
    data = GAME.default_data()
    changed = data.with_card_values({32: {"printed_vp": 5}})
    assert changed.card_by_id(32).printed_vp == 5
    assert data.card_by_id(32).printed_vp == 4
    i = card_index(ruleset(3), 32)
    assert rk.card_points(changed.card_array, i, 4, 2, True) == 5
    assert rk.card_points(data.card_array, i, 4, 2, True) == 4
    assert rk.card_points(changed.card_array, i, 2, 4, True) == 0
    rules = GAME.ruleset(3, data=changed)
    assert rk.points(rules.cards, i, 4, 2) == 5
    assert rk.points(ruleset(3).cards, i, 4, 2) == 4
    # the rulebook scoring example now totals 15 (NOTES 4.4: only cards 19, 59, 7, 32 matter there)
    ex = EXAMPLES["scoring_example"]
    dice = ex["dice"]
    pts = [rk.points(rules.cards, card_index(rules, cid), dice[k], dice[k + 1])
           for k, cid in enumerate(ex["cards_in_slots"])]
    assert sum(pts) == ex["expected_total"] + 1


def test_with_card_values_symbols_and_condition():
    """data.with_card_values: symbols and conditions can be changed too, and are validated."""
    data = GAME.default_data()
    changed = data.with_card_values({32: {"left_symbol": "=", "condition_code": "TRN_LT"}})
    card = changed.card_by_id(32)
    assert (card.left, card.condition) == ("=", "TRN_LT")
    i = card_index(ruleset(3), 32)
    assert rk.card_points(changed.card_array, i, 2, 4, True) == 4
    with pytest.raises(DataError):
        data.with_card_values({32: {"printed_vp": "x"}})
    with pytest.raises(DataError):
        data.with_card_values({32: {"left_symbol": "?"}})
    with pytest.raises(DataError):
        data.with_card_values({999: {"printed_vp": 5}})
    with pytest.raises(DataError):
        data.with_card_values({32: {"colour": "red"}})
