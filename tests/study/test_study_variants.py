"""Data variants for any game: replacement data files and row edits in a spec, applied by the game's hooks.

The runner side is tested with Smartphone Inc. (its buyers) and Sentient (its cards), through the
same mechanism (``simlab.core.datavariants``, ``simlab.runner.variants``).
"""

from __future__ import annotations

import pytest

import simlab.games.smartphone.variants as sp_variants
from simlab.core import datavariants
from simlab.core.dataedits import DataEditError, RowEdit, apply_edits, parse_edits
from simlab.core.errors import DataError, SimlabError
from simlab.core.game import get_game
from simlab.games.smartphone.data import DATA_DIR, load_data
from simlab.runner.spec import SpecError, load_spec, parse_spec, variant_data
from simlab.runner.variants import variant_data_hash

SP_DATA = sp_variants.DATA
CSV = "region_id,position,kind,price_cap,notes\nUSA,0,red,4,\nUSA,1,red,5,\"a, b\"\nUSA,2,purple,,x\n"


def _caps(data, region):
    return {pos: cap for pos, (kind, cap, _tech) in enumerate(data.region(region).buyers) if kind == "red"}


# ---------------------------------------------------------------- the edits themselves


def test_edits_set_and_add_every_matching_row():
    edits = parse_edits([{"file": "buyers", "where": {"region_id": "USA", "kind": "red"}, "add": {"price_cap": -1}},
                         {"file": "buyers", "where": {"region_id": "USA", "position": 2}, "set": {"price_cap": 3}}],
                        "edit")
    out = apply_edits(CSV, "buyers.csv", edits)
    assert out.splitlines() == ["region_id,position,kind,price_cap,notes", "USA,0,red,3,", 'USA,1,red,4,"a, b"',
                                "USA,2,purple,3,x"]
    assert apply_edits(CSV, "buyers.csv", []) == CSV


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ({"file": "buyers", "where": {"region_id": "USA", "position": 9}, "set": {"price_cap": 5}},
         "edit[0]: buyers.csv: no row with region_id = USA, position = 9"),
        ({"file": "buyers", "where": {"region_id": "USA"}, "set": {"cap": 5}},
         "edit[0].set.cap: buyers.csv: no column 'cap' (columns: region_id, position, kind, price_cap, notes)"),
        ({"file": "buyers", "where": {"region": "USA"}, "set": {"price_cap": 5}},
         "edit[0].where.region: buyers.csv: no column 'region'"),
        ({"file": "buyers", "where": {"position": 2}, "add": {"price_cap": 1}},
         "edit[0].add.price_cap: buyers.csv:4: '' is not an integer, cannot add 1"),
    ],
)
def test_edit_errors_name_the_field_the_file_and_the_row(edit, message):
    with pytest.raises(DataEditError) as info:
        apply_edits(CSV, "buyers.csv", parse_edits([edit], "edit"))
    assert str(info.value).startswith(message)


@pytest.mark.parametrize(
    ("items", "message"),
    [
        ({"file": "buyers"}, "edit: expected a list"),
        ([{"where": {"a": 1}, "set": {"b": 2}}], "edit[0].file: required"),
        ([{"file": "buyers", "set": {"b": 2}}], "edit[0].where: required"),
        ([{"file": "buyers", "where": {"a": 1}}], "edit[0]: give 'set'"),
        ([{"file": "buyers", "where": {"a": 1}, "add": {"b": "x"}}], "edit[0].add.b: expected an integer"),
        ([{"file": "buyers", "where": {"a": 1}, "set": {"b": 1}, "when": 2}], "edit[0].when: unknown key"),
        ([{"file": "buyers", "where": {"a": [1]}, "set": {"b": 1}}], "edit[0].where.a: expected a single value"),
    ],
)
def test_edit_shape_errors(items, message):
    with pytest.raises(DataEditError) as info:
        parse_edits(items, "edit")
    assert str(info.value).startswith(message)


# ---------------------------------------------------------------- Smartphone Inc.'s hooks


def test_smartphone_edits_reach_the_loaded_data():
    edits = parse_edits([{"file": "buyers", "where": {"region_id": "USA", "kind": "red"}, "add": {"price_cap": -1}}],
                        "edit")
    base, edited = load_data(), datavariants.variant_data(SP_DATA, {}, edits)
    assert _caps(edited, "USA") == {p: c - 1 for p, c in _caps(base, "USA").items()}
    assert _caps(edited, "LATAM") == _caps(base, "LATAM")
    assert edited.files["buyers"].endswith("(edited)")
    texts, edited_texts = datavariants.data_texts(SP_DATA), datavariants.data_texts(SP_DATA, {}, edits)
    assert edited_texts["buyers"] != texts["buyers"]
    assert edited_texts["regions"] == texts["regions"]


def test_smartphone_replacement_file_and_data_directory(tmp_path):
    text = (DATA_DIR / "buyers.csv").read_text().replace("USA,0,red,4,", "USA,0,red,2,")
    (tmp_path / "buyers.csv").write_text(text)
    data = datavariants.variant_data(SP_DATA, {"buyers": tmp_path / "buyers.csv"})
    assert _caps(data, "USA")[0] == 2
    assert load_data(DATA_DIR).buyer_array.tolist() == load_data().buyer_array.tolist()
    with pytest.raises(SimlabError, match="no smartphone data file 'byers'"):
        datavariants.variant_data(SP_DATA, {"byers": tmp_path / "buyers.csv"})


def test_smartphone_load_error_after_edits_names_the_original_file():
    edits = parse_edits([{"file": "buyers", "where": {"region_id": "USA", "position": 1}, "set": {"kind": "blue"}}],
                        "variants[0].edit")
    with pytest.raises(DataError) as info:
        datavariants.variant_data(SP_DATA, None, edits)
    assert str(info.value).startswith(f"{DATA_DIR / 'buyers.csv'} (after edits):")
    assert "kind: 'blue' is not a known buyer kind" in str(info.value)
    with pytest.raises(DataEditError, match=r"variants\[0\].edit\[0\]: constants.toml: edits apply to CSV"):
        edit = RowEdit("constants", {"a": 1}, {"b": 2}, origin="variants[0].edit[0]")
        datavariants.variant_data(SP_DATA, None, [edit])


# ---------------------------------------------------------------- the runner, with a stand-in game


@pytest.fixture
def standin():
    """The game whose data files the runner-side tests edit."""
    return get_game("smartphone")


SPEC = """
game = "smartphone"
games = 10
[players]
seats = ["greedy", "random"]
[data]
edit = [{ file = "buyers", where = { region_id = "LATAM", position = 2 }, set = { price_cap = 7 } }]
"""


def _spec(tmp_path, variants: str) -> str:
    path = tmp_path / "exp" / "x.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(SPEC + variants)
    return str(path)


def test_spec_files_are_relative_to_the_spec_and_variants_add_to_the_base(tmp_path, standin):
    text = (DATA_DIR / "buyers.csv").read_text().replace("USA,0,red,4,", "USA,0,red,2,")
    (tmp_path / "exp" / "data").mkdir(parents=True)
    (tmp_path / "exp" / "data" / "buyers.csv").write_text(text)
    spec = load_spec(_spec(tmp_path, """
[[variants]]
name = "own_buyers"
data = { buyers = "data/buyers.csv" }

[[variants]]
name = "usa_minus1"
edit = [{ file = "buyers", where = { region_id = "USA", kind = "red" }, add = { price_cap = -1 } }]
"""))
    _base, own, minus = spec.variants
    assert own.files == {"buyers": str((tmp_path / "exp" / "data" / "buyers.csv").resolve())}
    assert [e.origin for e in minus.edits] == ["data.edit[0]", "variants[1].edit[0]"]
    assert standin.data_files() is SP_DATA
    caps = {v.name: (_caps(variant_data(standin, v), "USA"), _caps(variant_data(standin, v), "LATAM"))
            for v in spec.variants}
    assert caps["base"] == ({0: 4, 1: 5, 2: 5}, {0: 3, 1: 5, 2: 7})
    assert caps["own_buyers"] == ({0: 2, 1: 5, 2: 5}, {0: 3, 1: 5, 2: 7})
    assert caps["usa_minus1"] == ({0: 3, 1: 4, 2: 4}, {0: 3, 1: 5, 2: 7})
    # the spec as the workers see it (raw dict, absolute paths) parses the same
    again = parse_spec(spec.raw, spec.source)
    assert again.variants[1].files == own.files


@pytest.mark.parametrize(
    ("variants", "message"),
    [
        ('[[variants]]\nname = "v"\nedit = [{ file = "buyers", where = { region_id = "USA", position = 9 }, '
         'set = { price_cap = 5 } }]', "variants[0].edit[0]: buyers.csv: no row with region_id = USA, position = 9"),
        ('[[variants]]\nname = "v"\nedit = [{ file = "buyers", where = { region_id = "USA" }, set = { cap = 5 } }]',
         "variants[0].edit[0].set.cap: buyers.csv: no column 'cap'"),
        ('[[variants]]\nname = "v"\nedit = [{ file = "byers", where = { region_id = "USA" }, set = { cap = 5 } }]',
         "variants[0].edit[0].file: no data file 'byers'"),
        ('[[variants]]\nname = "v"\nedit = [{ file = "buyers", where = { region_id = "USA" } }]',
         "variants[0].edit[0]: give 'set'"),
        ('[[variants]]\nname = "v"\ndata = { byers = "b.csv" }', "variants[0].data.byers: unknown data file"),
        ('[[variants]]\nname = "v"\ndata = { buyers = "missing.csv" }', "missing.csv: file not found"),
        ('[[variants]]\nname = "v"\nset = [{ card = 1, field = "printed_vp", value = 2 }]',
         "variants[0].set: card overrides are row edits now"),
        ('[[variants]]\nname = "bad_kind"\nedit = [{ file = "buyers", where = { region_id = "USA", position = 1 }, '
         'set = { kind = "blue" } }]', "variants.bad_kind: "),
    ],
)
def test_spec_data_errors_name_the_field_file_and_row(tmp_path, standin, variants, message):
    path = _spec(tmp_path, variants)
    with pytest.raises(SpecError) as info:
        load_spec(path)
    text = str(info.value)
    assert text.startswith(f"{path}: ") and message in text and "\n" not in text
    if "bad_kind" in variants:
        assert "buyers.csv (after edits):7: kind: 'blue' is not a known buyer kind" in text


def test_sentient_cards_are_edited_the_same_way():
    """Sentient's card overrides are row edits of cards.csv; the old ``set`` syntax names the new one."""
    raw = {"game": "sentient", "players": {"seats": ["greedy", "random"]},
           "data": {"edit": [{"file": "cards", "where": {"id": 32}, "set": {"printed_vp": 5}}]}}
    spec = parse_spec(raw, "x.toml")
    assert variant_data(get_game("sentient"), spec.variants[0]).card_by_id(32).printed_vp == 5
    raw["data"] = {"set": [{"card": 32, "field": "printed_vp", "value": 5}]}
    with pytest.raises(SpecError, match=r"x\.toml: data\.set: card overrides are row edits now: edit = "):
        parse_spec(raw, "x.toml")


def test_manifest_data_hash_follows_the_edited_texts(standin):
    raw = {"game": "smartphone", "players": {"seats": ["greedy", "random"]},
           "variants": [{"name": "same", "options": {}},
                        {"name": "usa", "edit": [{"file": "buyers", "where": {"region_id": "USA", "position": 0},
                                                  "add": {"price_cap": 1}}]}]}
    spec = parse_spec(raw, "x.toml")
    hashes = [variant_data_hash(standin, v) for v in spec.variants]
    assert hashes[0] == hashes[1] != hashes[2]
