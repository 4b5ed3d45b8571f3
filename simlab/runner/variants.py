"""The data side of an experiment spec: ``[data]``, ``[[variants]]`` and ``[ablation]``, the same for every game.

A game declares its data files (``Game.data_files``) and, if it has one, its ablation
(``Game.ablation``); see :mod:`simlab.core.datavariants`. A spec then writes:

- ``[data]``: replacement files by stem (``cards = "my_cards.csv"``) and ``edit = [...]`` row
  edits, the base every variant starts from;
- ``[[variants]]``: ``name``, ``options``, ``data = {stem = path}`` and ``edit = [...]``, added to
  the base;
- ``[ablation]``: the game's component key (``cards = "all"`` or a list of ids), ``change`` (one
  of the game's changes, the first by default) and ``delta``: one variant per component.

Every variant is loaded while the spec is validated, so a bad file, column or row fails before
anything runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simlab.core import datavariants
from simlab.core.dataedits import DataEditError, RowEdit, parse_edits
from simlab.core.errors import SimlabError
from simlab.core.hints import did_you_mean

# Keys of the card overrides specs used before data edits, with the syntax that replaced them.
_OLD_SYNTAX = {
    "set": 'edit = [{ file = "cards", where = { id = 32 }, set = { printed_vp = 2 } }]',
    "remove": 'edit = [{ file = "cards", where = { id = 32 }, set = { in_deck = 0 } }]',
}
_VARIANT_KEYS = {"name", "options", "data", "edit"}


@dataclass
class Variant:
    """A data/option variant; every variant is played on the same seeds.

    ``files``: replacement data files by stem; ``edits``: row edits of the data files;
    ``ablation``: for an ablation variant, ``{"component", "id", "change", "delta"}``.
    """

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    edits: list[RowEdit] = field(default_factory=list)
    ablation: dict[str, Any] | None = None

    def manifest_entry(self) -> dict[str, Any]:
        """What the manifest records of the variant (the data hash is added by the runner)."""
        out: dict[str, Any] = {"files": dict(self.files), "edit": [e.as_dict() for e in self.edits],
                               "options": dict(self.options)}
        if self.ablation is not None:
            out["ablation"] = dict(self.ablation)
        return out


class VariantSpecError(SimlabError):
    """A data/variant/ablation field that cannot be used; ``field`` names it."""

    def __init__(self, field_name: str, what: str) -> None:
        self.field = field_name
        self.what = what
        super().__init__(f"{field_name}: {what}")


def variant_data(game: Any, variant: Variant) -> Any:
    """The data set a variant plays with (None: the game's bundled data)."""
    if not variant.files and not variant.edits:
        return None
    files = game.data_files()
    if files is None:
        raise SimlabError(f"{game.name} has no replaceable or editable data files")
    return datavariants.variant_data(files, variant.files, variant.edits)


def variant_data_hash(game: Any, variant: Variant) -> str:
    """A hash of every data file's text as the variant plays it ('' for a game without data files)."""
    files = game.data_files()
    return datavariants.data_hash(files, variant.files, variant.edits) if files is not None else ""


def resolve_data_paths(raw: dict[str, Any], base: Path) -> None:
    """Make the replacement file paths of ``[data]`` and every variant's ``data`` relative to ``base``
    (the spec's folder), in place."""
    tables = [raw.get("data", {})]
    variants = raw.get("variants", [])
    if isinstance(variants, list):
        tables += [v.get("data", {}) for v in variants if isinstance(v, dict)]
    for table in tables:
        if isinstance(table, dict):
            for key, value in table.items():
                if key != "edit" and isinstance(value, str) and not Path(value).is_absolute():
                    table[key] = str((base / value).resolve())


def _check_keys(table: dict, where: str, allowed: set[str]) -> None:
    for key in table:
        if key in _OLD_SYNTAX:
            raise VariantSpecError(f"{where}{key}", f"card overrides are row edits now: {_OLD_SYNTAX[key]}")
        if key not in allowed:
            raise VariantSpecError(f"{where}{key}", f"unknown key (allowed: {', '.join(sorted(allowed))})"
                                                    f"{did_you_mean(key, sorted(allowed))}")


def _files(table: Any, where: str, game: Any) -> dict[str, str]:
    """Replacement data files ``{stem: path}`` of a ``[data]`` table or a variant's ``data``."""
    if not isinstance(table, dict):
        raise VariantSpecError(where, f"expected a table of data file = path, got {table!r}")
    declared = game.data_files()
    out = {}
    for key, value in table.items():
        if key == "edit":
            continue
        if declared is None:
            raise VariantSpecError(f"{where}.{key}", f"{game.name} has no replaceable data files")
        if key not in declared.names:
            raise VariantSpecError(f"{where}.{key}", f"unknown data file (files: {', '.join(declared.stems)})"
                                                     f"{did_you_mean(key, declared.stems)}")
        if not isinstance(value, str):
            raise VariantSpecError(f"{where}.{key}", f"expected a file path, got {value!r}")
        if Path(value).is_dir():
            raise VariantSpecError(f"{where}.{key}", f"{value}: is a directory, not a file")
        if not Path(value).is_file():
            raise VariantSpecError(f"{where}.{key}", f"{value}: file not found")
        out[key] = value
    return out


def _edits(items: Any, where: str, game: Any) -> list[RowEdit]:
    if items is None:
        return []
    if game.data_files() is None:
        raise VariantSpecError(where, f"{game.name} has no editable data files")
    try:
        return parse_edits(items, where)
    except DataEditError as exc:
        raise VariantSpecError(exc.field, exc.what) from None


def _check_options(game: Any, options: dict[str, Any], where: str) -> None:
    from simlab.core.options import resolve_options

    try:
        resolve_options(game.option_table(), options)
    except SimlabError as exc:
        raise VariantSpecError(where, str(exc)) from None


def parse_variants(raw: dict[str, Any], game: Any) -> list[Variant]:
    """The base variant (``[data]``), the ``[[variants]]`` and the ablation's variants, validated and loaded.

    Raises :class:`VariantSpecError` naming the field.
    """
    data = raw.get("data", {})
    if not isinstance(data, dict):
        raise VariantSpecError("data", f"expected a table, got {data!r}")
    declared = game.data_files()
    _check_keys(data, "data.", set(declared.stems if declared else ()) | {"edit"})
    base = Variant("base", {}, _files(data, "data", game), _edits(data.get("edit"), "data.edit", game))
    variants = [base]
    names = {"base"}
    items = raw.get("variants", [])
    if not isinstance(items, list):
        raise VariantSpecError("variants", f"expected a list of tables, got {items!r}")
    for i, item in enumerate(items):
        where = f"variants[{i}]"
        if not isinstance(item, dict):
            raise VariantSpecError(where, f"expected a table, got {item!r}")
        _check_keys(item, f"{where}.", _VARIANT_KEYS)
        name = item.get("name", f"variant{i + 1}")
        if not isinstance(name, str):
            raise VariantSpecError(f"{where}.name", f"expected a string, got {name!r}")
        if name in names:
            raise VariantSpecError(f"{where}.name", f"duplicate variant name '{name}'")
        names.add(name)
        options = item.get("options", {})
        if not isinstance(options, dict):
            raise VariantSpecError(f"{where}.options", f"expected a table, got {options!r}")
        _check_options(game, {**raw.get("options", {}), **options}, f"{where}.options")
        files = _files(item.get("data", {}), f"{where}.data", game)
        edits = _edits(item.get("edit"), f"{where}.edit", game)
        variants.append(Variant(name, options, {**base.files, **files}, base.edits + edits))
    variants.extend(_ablation_variants(raw.get("ablation"), game, base, names))
    for v in variants:  # load the data now, so that a bad file or value fails before anything runs
        try:
            variant_data(game, v)
        except DataEditError as exc:
            raise VariantSpecError(exc.field, exc.what) from None
        except SimlabError as exc:
            raise VariantSpecError("data" if v.name == "base" else f"variants.{v.name}", str(exc)) from None
    return variants


def _ablation_variants(table: Any, game: Any, base: Variant, names: set[str]) -> list[Variant]:
    """One variant per component the game's ablation declares, each the base plus the change's row edits."""
    if table is None:
        return []
    if not isinstance(table, dict):
        raise VariantSpecError("ablation", f"expected a table, got {table!r}")
    hook = game.ablation()
    if hook is None:
        raise VariantSpecError("ablation", f"{game.name} declares no components to ablate")
    for key in table:
        if key not in (hook.component, "change", "delta"):
            raise VariantSpecError(f"ablation.{key}",
                                   f"unknown key (allowed: {hook.component}, change, delta)")
    change_name = table.get("change", hook.changes[0].name)
    try:
        change = hook.change(change_name) if isinstance(change_name, str) else None
    except SimlabError as exc:
        raise VariantSpecError("ablation.change", str(exc)) from None
    if change is None:
        raise VariantSpecError("ablation.change", f"expected a string, got {change_name!r}")
    delta = table.get("delta", 1)
    if isinstance(delta, bool) or not isinstance(delta, int):
        raise VariantSpecError("ablation.delta", f"expected an integer, got {delta!r}")
    data = variant_data(game, base) or game.default_data()
    known = hook.ids(data)
    wanted = table.get(hook.component, "all")
    if wanted == "all":
        ids = list(known)
    elif isinstance(wanted, list):
        ids = wanted
        for i, cid in enumerate(ids):
            if cid not in known:
                raise VariantSpecError(f"ablation.{hook.component}[{i}]", f"no component with id {cid!r}")
    else:
        raise VariantSpecError(f"ablation.{hook.component}", f"expected \"all\" or a list of ids, got {wanted!r}")
    out = []
    for cid in ids:
        edits = change.edits(data, cid, delta)
        if edits is None:
            continue  # the change does not apply to this component (e.g. no printed VP)
        name = change.variant_name(data, cid, delta)
        if name in names:
            raise VariantSpecError("ablation", f"variant name '{name}' is already used")
        names.add(name)
        out.append(Variant(name, {}, dict(base.files), base.edits + edits,
                           {"component": hook.component, "id": cid, "change": change.name, "delta": delta}))
    return out
