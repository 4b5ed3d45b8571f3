"""Row edits of a game's CSV data files, applied to the file text before it is loaded.

An experiment spec can change single values of a data file without copying it (``edit`` in
``[data]`` or a ``[[variants]]`` table, see ``docs/experiments.md``)::

    edit = [{ file = "buyers", where = { region_id = "USA", kind = "red" }, add = { price_cap = -1 } }]

Every row whose ``where`` columns all equal the given values gets the ``set`` values and the
``add`` increments (integer columns), or is deleted with ``remove = true`` (a card taken out of
the deck: ``{ file = "cards", where = { id = 32 }, remove = true }``). Values compare as text
(``2`` matches the cell ``2``).
An edit that names an unknown column or matches no row is an error: :class:`DataEditError`
carries the spec field the edit came from, and its message names the file and the row sought.
This module knows nothing about any game; a game's ``variants`` module applies the edits to
its files and loads the result.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from simlab.core.errors import SimlabError
from simlab.core.hints import did_you_mean

EDIT_KEYS = ("file", "where", "set", "add", "remove")


@dataclass(frozen=True)
class RowEdit:
    """One edit: in data file ``file``, the rows matching ``where`` get ``set`` and ``add``.

    ``origin`` is the spec field the edit came from (``data.edit[0]``, ``variants[2].edit[1]``),
    used in error messages.
    """

    file: str
    where: dict[str, Any] = field(default_factory=dict)
    set: dict[str, Any] = field(default_factory=dict)
    add: dict[str, int] = field(default_factory=dict)
    origin: str = "edit"
    remove: bool = False

    def as_dict(self) -> dict[str, Any]:
        """The edit as the spec writes it (for manifests)."""
        out: dict[str, Any] = {"file": self.file, "where": dict(self.where)}
        if self.set:
            out["set"] = dict(self.set)
        if self.add:
            out["add"] = dict(self.add)
        if self.remove:
            out["remove"] = True
        return out


class DataEditError(SimlabError):
    """An edit that cannot be applied; ``field`` is the spec field it came from."""

    def __init__(self, edit_field: str, what: str) -> None:
        self.field = edit_field
        self.what = what
        super().__init__(f"{edit_field}: {what}")


def cell_text(value: Any) -> str:
    """How a TOML value is written into (and compared with) a CSV cell."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def parse_edits(items: Any, where: str) -> list[RowEdit]:
    """Validate the shape of a spec's ``edit`` list; ``where`` is its field name (``variants[1].edit``).

    Raises :class:`DataEditError` naming the offending field. Whether the file, columns and
    rows exist is checked when the edits are applied (:func:`apply_edits`).
    """
    if not isinstance(items, list):
        raise DataEditError(where, f"expected a list of tables {{file, where, set, add}}, got {items!r}")
    out = []
    for i, item in enumerate(items):
        name = f"{where}[{i}]"
        if not isinstance(item, dict):
            raise DataEditError(name, f"expected a table {{file, where, set, add}}, got {item!r}")
        for key in item:
            if key not in EDIT_KEYS:
                raise DataEditError(f"{name}.{key}", f"unknown key (allowed: {', '.join(EDIT_KEYS)})"
                                                     f"{did_you_mean(key, EDIT_KEYS)}")
        file = item.get("file")
        if not isinstance(file, str) or not file:
            raise DataEditError(f"{name}.file", "required: the data file to edit (e.g. \"buyers\")")
        tables = {}
        for key in ("where", "set", "add"):
            value = item.get(key, {})
            if not isinstance(value, dict):
                raise DataEditError(f"{name}.{key}", f"expected a table of column = value, got {value!r}")
            for col, v in value.items():
                if isinstance(v, dict | list):
                    raise DataEditError(f"{name}.{key}.{col}", f"expected a single value, got {v!r}")
                if key == "add" and (isinstance(v, bool) or not isinstance(v, int)):
                    raise DataEditError(f"{name}.add.{col}", f"expected an integer increment, got {v!r}")
            tables[key] = dict(value)
        if not tables["where"]:
            raise DataEditError(f"{name}.where", "required: the column values that pick the rows to edit")
        remove = item.get("remove", False)
        if not isinstance(remove, bool):
            raise DataEditError(f"{name}.remove", f"expected true or false, got {remove!r}")
        if remove and (tables["set"] or tables["add"]):
            raise DataEditError(f"{name}.remove", "a removed row takes no 'set' or 'add'")
        if not tables["set"] and not tables["add"] and not remove:
            raise DataEditError(name, "give 'set' (new values), 'add' (integer increments) or 'remove = true'")
        both = sorted(set(tables["set"]) & set(tables["add"]))
        if both:
            raise DataEditError(f"{name}.add.{both[0]}", "is in both 'set' and 'add'")
        out.append(RowEdit(file, tables["where"], tables["set"], tables["add"], name, remove))
    return out


def _describe(where: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {cell_text(v)}" for k, v in where.items())


def apply_edits(text: str, file_label: str, edits: Iterable[RowEdit]) -> str:
    """The CSV ``text`` of ``file_label`` with ``edits`` applied in order (later edits see earlier ones;
    a removed row is gone for the edits after it).

    The header and unedited rows keep their values; the text is rewritten with ``\\n`` line
    ends. Raises :class:`DataEditError` (the edit's spec field, the file, and the column or the
    row sought) when a column is not in the header, no row matches, or ``add`` meets a cell
    that is not an integer.
    """
    edits = list(edits)
    if not edits:
        return text
    reader = csv.reader(io.StringIO(text))
    rows = [r for r in reader]
    if not rows:
        raise DataEditError(edits[0].origin, f"{file_label}: the file is empty")
    header = [h.strip() for h in rows[0]]
    col_index = {h: i for i, h in enumerate(header)}
    body = rows[1:]
    for edit in edits:
        for part in ("where", "set", "add"):
            for col in getattr(edit, part):
                if col not in col_index:
                    raise DataEditError(f"{edit.origin}.{part}.{col}",
                                        f"{file_label}: no column '{col}' (columns: {', '.join(header)})"
                                        f"{did_you_mean(col, header)}")
        wanted = {col_index[c]: cell_text(v) for c, v in edit.where.items()}
        matched = 0
        kept = []
        for line, row in enumerate(body, start=2):
            if not any(cell.strip() for cell in row):
                kept.append(row)
                continue
            cells = [c.strip() for c in row] + [""] * (len(header) - len(row))
            if any(cells[i] != v for i, v in wanted.items()):
                kept.append(row)
                continue
            matched += 1
            if edit.remove:
                continue
            kept.append(row)
            row.extend([""] * (len(header) - len(row)))
            for col, value in edit.set.items():
                row[col_index[col]] = cell_text(value)
            for col, inc in edit.add.items():
                old = row[col_index[col]].strip()
                try:
                    row[col_index[col]] = str(int(old) + inc)
                except ValueError:
                    raise DataEditError(f"{edit.origin}.add.{col}",
                                        f"{file_label}:{line}: '{old}' is not an integer, cannot add {inc}") from None
        if matched == 0:
            raise DataEditError(edit.origin, f"{file_label}: no row with {_describe(edit.where)}")
        body = kept
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(rows[0])
    writer.writerows(body)
    return out.getvalue()


def edits_by_file(edits: Sequence[RowEdit], known: Iterable[str]) -> dict[str, list[RowEdit]]:
    """Group edits by file, checking every file is one of ``known`` (raises :class:`DataEditError`)."""
    known = list(known)
    out: dict[str, list[RowEdit]] = {}
    for edit in edits:
        if edit.file not in known:
            raise DataEditError(f"{edit.origin}.file", f"no data file '{edit.file}' (files: {', '.join(known)})"
                                                       f"{did_you_mean(edit.file, known)}")
        out.setdefault(edit.file, []).append(edit)
    return out
