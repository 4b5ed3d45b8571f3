"""Knobs: the data fields a tune may change, their printed values, and candidates as row edits.

A knob picks rows of one data file with the same ``where`` table data edits use and gives the
values one field may take: ``range = [lo, hi]`` (integers, ``step`` 1 by default), ``values``
(a list of integers or strings, or of tables of field = value when a change needs several
fields at once, such as a buyer's kind and its price cap), or ``add = [lo, hi]`` (an integer
increment of the field on every matched row). A *candidate* assigns some knobs a value; the
others keep the printed data. Candidates become :class:`~simlab.core.dataedits.RowEdit` s in
the syntax a spec's ``edit`` lists take, so the answer is a ready variant.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from simlab.core.dataedits import RowEdit, cell_text
from simlab.core.errors import SimlabError
from simlab.core.hints import did_you_mean

KNOB_KEYS = ("name", "file", "where", "field", "range", "step", "values", "add")


class KnobError(SimlabError):
    """A knob that cannot be used; ``field`` names the spec field (``tune.knobs[2].range``)."""

    def __init__(self, field_name: str, what: str) -> None:
        self.field = field_name
        self.what = what
        super().__init__(f"{field_name}: {what}")


@dataclass(frozen=True)
class Knob:
    """One tunable: the rows ``where`` of data file ``file``, and the values its field(s) may take.

    ``choices`` are the candidate values: integers or strings for one ``field``, or tables
    ``{field: value}``; for an ``add`` knob they are integer increments. ``printed`` is the
    printed value of each matched row (a table of the knob's fields per row).
    """

    name: str
    file: str
    where: dict[str, Any]
    fields: tuple[str, ...]
    choices: tuple[Any, ...]
    mode: str  # "set" or "add"
    printed: tuple[dict[str, str], ...] = field(default_factory=tuple)
    integer: bool = True

    @property
    def rows(self) -> int:
        """How many data rows the knob changes."""
        return len(self.printed)

    def edit(self, value: Any) -> RowEdit:
        """The row edit that gives the knob ``value``."""
        if self.mode == "add":
            return RowEdit(self.file, dict(self.where), add={self.fields[0]: int(value)}, origin=f"tune.{self.name}")
        return RowEdit(self.file, dict(self.where), set=self.as_table(value), origin=f"tune.{self.name}")

    def as_table(self, value: Any) -> dict[str, Any]:
        """``value`` as a table ``{field: value}``."""
        return dict(value) if isinstance(value, Mapping) else {self.fields[0]: value}

    def cost(self, value: Any) -> tuple[int, float]:
        """(changes, distance from the printed data) when the knob takes ``value``.

        A change is one data row whose knob fields take a new value: a price cap, or a buyer's
        kind with its cap and technology (a table of values), counts once per row. The distance of
        an integer field is ``|new − printed|``; any other changed field counts 1.
        """
        changes, distance = 0, 0.0
        for row in self.printed:
            if self.mode == "add":
                if int(value) != 0:
                    changes += 1
                    distance += abs(int(value))
                continue
            changed = False
            for col, new in self.as_table(value).items():
                old, new_text = row.get(col, ""), cell_text(new)
                if old == new_text:
                    continue
                changed = True
                try:
                    distance += abs(int(new_text) - int(old))
                except ValueError:
                    distance += 1.0
            changes += changed
        return changes, distance

    def describe(self, value: Any) -> str:
        """The change in words: ``buyers (region_id = INDIA, position = 0): price_cap 3 → 5``."""
        rows = ", ".join(f"{k} = {cell_text(v)}" for k, v in self.where.items())
        if self.mode == "add":
            olds = sorted({r.get(self.fields[0], "") for r in self.printed})
            sign = "+" if int(value) >= 0 else "−"
            return (f"{self.file} ({rows}): {self.fields[0]} {sign}{abs(int(value))} "
                    f"(printed {'/'.join(olds)}, {self.rows} row{'s' if self.rows != 1 else ''})")
        parts = []
        for col, new in self.as_table(value).items():
            olds = sorted({r.get(col, "") for r in self.printed})
            if olds == [cell_text(new)]:
                continue  # a field of the table that keeps its printed value
            old = "/".join(o if o else "(empty)" for o in olds)
            parts.append(f"{col} {old} → {cell_text(new) or '(empty)'}")
        suffix = f" ({self.rows} rows)" if self.rows > 1 else ""
        return f"{self.file} ({rows}): {', '.join(parts)}{suffix}"

    def label(self, value: Any) -> str:
        """A short text label of a choice (how the optimiser names it)."""
        if isinstance(value, Mapping):
            return ",".join(f"{k}={cell_text(v)}" for k, v in value.items())
        return cell_text(value)


def _rows(text: str) -> tuple[list[str], list[list[str]]]:
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return [], []
    header = [h.strip() for h in rows[0]]
    body = [[c.strip() for c in r] + [""] * (len(header) - len(r)) for r in rows[1:] if any(c.strip() for c in r)]
    return header, body


def _int_choices(value: Any, where: str, step: Any) -> tuple[int, ...]:
    if (not isinstance(value, list) or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in value)):
        raise KnobError(where, f"expected [low, high] integers, got {value!r}")
    lo, hi = value
    if lo > hi:
        raise KnobError(where, f"low {lo} is above high {hi}")
    if isinstance(step, bool) or not isinstance(step, int) or step < 1:
        raise KnobError(where.rsplit(".", 1)[0] + ".step", f"expected a positive integer, got {step!r}")
    out = tuple(range(lo, hi + 1, step))
    if len(out) < 2:
        raise KnobError(where, f"{value!r} leaves fewer than two values to choose from")
    return out


def parse_knob(item: Any, where: str, texts: Mapping[str, str], stems: Sequence[str]) -> Knob:
    """Validate one ``[[tune.knobs]]`` table against the data files' text (``texts`` by stem, as the
    spec's base plays them) and read the printed values of its rows."""
    if not isinstance(item, dict):
        raise KnobError(where, f"expected a table {{file, where, field, range|values|add}}, got {item!r}")
    for key in item:
        if key not in KNOB_KEYS:
            raise KnobError(f"{where}.{key}", f"unknown key (allowed: {', '.join(KNOB_KEYS)})"
                                              f"{did_you_mean(key, KNOB_KEYS)}")
    file = item.get("file")
    if not isinstance(file, str) or not file:
        raise KnobError(f"{where}.file", "required: the data file (e.g. \"buyers\")")
    if file not in stems:
        raise KnobError(f"{where}.file", f"no data file '{file}' (files: {', '.join(stems)})"
                                         f"{did_you_mean(file, list(stems))}")
    sel = item.get("where")
    if not isinstance(sel, dict) or not sel:
        raise KnobError(f"{where}.where", "required: a table of column = value picking the rows")
    header, body = _rows(texts.get(file, ""))
    for col, v in sel.items():
        if col not in header:
            raise KnobError(f"{where}.where.{col}", f"{file}: no column '{col}' (columns: {', '.join(header)})"
                                                    f"{did_you_mean(col, header)}")
        if isinstance(v, dict | list):
            raise KnobError(f"{where}.where.{col}", f"expected a single value, got {v!r}")
    index = {h: i for i, h in enumerate(header)}
    wanted = {index[c]: cell_text(v) for c, v in sel.items()}
    matched = [r for r in body if all(r[i] == v for i, v in wanted.items())]
    if not matched:
        shown = ", ".join(f"{k} = {cell_text(v)}" for k, v in sel.items())
        raise KnobError(f"{where}.where", f"{file}: no row with {shown}")
    kinds = [k for k in ("range", "values", "add") if k in item]
    if len(kinds) != 1:
        raise KnobError(where, "give exactly one of 'range' ([low, high] integers), 'values' (a list) or 'add' "
                               "([low, high] integer increments)")
    kind = kinds[0]
    fld = item.get("field")
    mode = "add" if kind == "add" else "set"
    if kind == "values" and isinstance(item["values"], list) and item["values"] \
            and all(isinstance(v, dict) for v in item["values"]):
        if fld is not None:
            raise KnobError(f"{where}.field", "values given as tables name their fields; leave out 'field'")
        choices: tuple[Any, ...] = tuple(dict(v) for v in item["values"])
        fields = tuple(dict.fromkeys(k for v in choices for k in v))
        for i, v in enumerate(choices):
            for col, x in v.items():
                if isinstance(x, dict | list):
                    raise KnobError(f"{where}.values[{i}].{col}", f"expected a single value, got {x!r}")
            if set(v) != set(fields):
                raise KnobError(f"{where}.values[{i}]", f"every table must set the same fields ({', '.join(fields)})")
    else:
        if not isinstance(fld, str) or not fld:
            raise KnobError(f"{where}.field", "required: the column to vary (e.g. \"price_cap\")")
        fields = (fld,)
        if kind == "values":
            vals = item["values"]
            if not isinstance(vals, list) or len(vals) < 1:
                raise KnobError(f"{where}.values", f"expected a non-empty list of values, got {vals!r}")
            for i, v in enumerate(vals):
                if isinstance(v, dict | list | float | bool):
                    raise KnobError(f"{where}.values[{i}]", f"expected an integer or a string, got {v!r}")
            if len({cell_text(v) for v in vals}) != len(vals):
                raise KnobError(f"{where}.values", "lists a value twice")
            choices = tuple(vals)
        else:
            choices = _int_choices(item[kind], f"{where}.{kind}", item.get("step", 1))
            if kind == "add" and 0 not in choices:
                choices = tuple(sorted({*choices, 0}))
    for col in fields:
        if col not in header:
            raise KnobError(f"{where}.field" if fld else f"{where}.values", f"{file}: no column '{col}' "
                            f"(columns: {', '.join(header)}){did_you_mean(col, header)}")
        if col in sel:
            raise KnobError(f"{where}.field", f"'{col}' also picks the rows in 'where'; vary another column")
    printed = tuple({col: r[index[col]] for col in fields} for r in matched)
    if mode == "add":
        for r in printed:
            try:
                int(r[fields[0]])
            except ValueError:
                raise KnobError(f"{where}.add", f"{file}: '{r[fields[0]]}' in column {fields[0]} is not an "
                                                "integer") from None
    integer = all(isinstance(c, int) and not isinstance(c, bool) for c in choices)
    name = item.get("name")
    if name is None:
        name = f"{file}[{','.join(f'{k}={cell_text(v)}' for k, v in sel.items())}].{'+'.join(fields)}"
    elif not isinstance(name, str) or not name:
        raise KnobError(f"{where}.name", f"expected a non-empty string, got {name!r}")
    return Knob(name, file, dict(sel), fields, choices, mode, printed, integer)


def candidate_edits(knobs: Sequence[Knob], values: Mapping[str, Any]) -> list[RowEdit]:
    """The row edits of a candidate (knob name -> value), in knob order; knobs left at the printed data
    give no edit."""
    out = []
    for knob in knobs:
        if knob.name in values and knob.cost(values[knob.name])[0] > 0:
            out.append(knob.edit(values[knob.name]))
    return out


def candidate_cost(knobs: Sequence[Knob], values: Mapping[str, Any]) -> tuple[int, float]:
    """(changes, distance) of a candidate (see :meth:`Knob.cost`)."""
    cells, distance = 0, 0.0
    for knob in knobs:
        if knob.name in values:
            c, d = knob.cost(values[knob.name])
            cells += c
            distance += d
    return cells, distance


def describe_candidate(knobs: Sequence[Knob], values: Mapping[str, Any]) -> list[str]:
    """The candidate's changes in words, one line per changed knob (empty: the printed data)."""
    return [k.describe(values[k.name]) for k in knobs if k.name in values and k.cost(values[k.name])[0] > 0]
