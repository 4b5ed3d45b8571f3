"""simlab.core.datavariants and dataedits: replacement files, row edits (set, add, remove), data hashes."""

from __future__ import annotations

from pathlib import Path

import pytest

from simlab.core.dataedits import DataEditError, RowEdit, parse_edits
from simlab.core.datavariants import DataFiles, data_hash, data_texts, variant_data
from simlab.core.errors import DataError, SimlabError


def _load(paths: dict[str, Path]) -> dict[str, list[list[str]]]:
    out = {}
    for stem, path in paths.items():
        rows = [line.split(",") for line in path.read_text(encoding="utf-8-sig").splitlines() if line]
        for i, row in enumerate(rows[1:], start=2):
            if not row[1].lstrip("-").isdigit():
                raise DataError(str(path), i, "value", f"'{row[1]}' is not an integer")
        out[stem] = rows
    return out


@pytest.fixture
def files(tmp_path) -> DataFiles:
    (tmp_path / "items.csv").write_text("id,value\n1,10\n2,20\n3,30\n", encoding="utf-8")
    (tmp_path / "other.csv").write_text("id,value\n7,70\n", encoding="utf-8")
    return DataFiles(tmp_path, {"items": "items.csv", "other": "other.csv"}, _load, "toy")


def test_bundled_replaced_and_edited(files, tmp_path):
    assert variant_data(files)["items"][1:] == [["1", "10"], ["2", "20"], ["3", "30"]]
    (tmp_path / "mine.csv").write_text("id,value\n9,90\n", encoding="utf-8")
    assert variant_data(files, {"items": tmp_path / "mine.csv"})["items"][1:] == [["9", "90"]]
    edits = parse_edits([{"file": "items", "where": {"id": 2}, "set": {"value": 25}},
                         {"file": "items", "where": {"id": 3}, "add": {"value": -5}},
                         {"file": "items", "where": {"id": 1}, "remove": True}], "edit")
    assert variant_data(files, None, edits)["items"][1:] == [["2", "25"], ["3", "25"]]
    assert variant_data(files, None, edits)["other"] == variant_data(files)["other"]


def test_remove_then_edit_the_same_row_is_an_error(files):
    edits = parse_edits([{"file": "items", "where": {"id": 1}, "remove": True},
                         {"file": "items", "where": {"id": 1}, "set": {"value": 5}}], "variants[0].edit")
    with pytest.raises(DataEditError, match=r"variants\[0\].edit\[1\]: items.csv: no row with id = 1"):
        variant_data(files, None, edits)


@pytest.mark.parametrize(("item", "message"), [
    ({"file": "items", "where": {"id": 1}, "remove": "yes"}, r"edit\[0\].remove: expected true or false"),
    ({"file": "items", "where": {"id": 1}, "remove": True, "set": {"value": 1}}, r"edit\[0\].remove: a removed row"),
    ({"file": "items", "where": {"id": 1}}, r"edit\[0\]: give 'set'"),
])
def test_bad_edits_name_their_field(item, message):
    with pytest.raises(DataEditError, match=message):
        parse_edits([item], "edit")


def test_unknown_file_names_the_game_and_the_files(files):
    with pytest.raises(SimlabError, match=r"no toy data file 'itmes' \(files: items, other\)"):
        variant_data(files, {"itmes": "x.csv"})
    with pytest.raises(DataEditError, match=r"edit\[0\].file: no data file 'itmes'"):
        variant_data(files, None, [RowEdit("itmes", {"id": 1}, {"value": 1}, origin="edit[0]")])


def test_load_error_after_edits_names_the_original_file(files, tmp_path):
    edits = [RowEdit("items", {"id": 2}, {"value": "many"}, origin="edit[0]")]
    with pytest.raises(DataError, match=r"items.csv \(after edits\):3: value: 'many' is not an integer"):
        variant_data(files, None, edits)


def test_data_hash_follows_the_played_texts(files, tmp_path):
    base = data_hash(files)
    edited = data_hash(files, None, [RowEdit("items", {"id": 2}, {"value": 21})])
    assert base != edited
    assert data_hash(files) == base
    (tmp_path / "copy.csv").write_text((tmp_path / "items.csv").read_text(), encoding="utf-8")
    assert data_hash(files, {"items": tmp_path / "copy.csv"}) == base  # same text, same hash
    assert data_texts(files, None, [RowEdit("items", {"id": 1}, remove=True)])["items"] == "id,value\n2,20\n3,30\n"


def test_byte_order_mark_is_ignored(files, tmp_path):
    (tmp_path / "bom.csv").write_bytes("\ufeffid,value\n1,10\n2,20\n3,30\n".encode())
    assert data_hash(files, {"items": tmp_path / "bom.csv"}) == data_hash(files)
