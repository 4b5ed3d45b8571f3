"""Rule options: the open points of a rulebook, loaded from the game's ``options.toml``."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simlab.core.errors import DataError, OptionError
from simlab.core.hints import did_you_mean


@dataclass(frozen=True)
class Option:
    """One rule option: its name, default, allowed values and the open point it settles.

    An option whose default is a ``[low, high]`` pair of integers and that lists no allowed
    values is a free range (``free_range``): any pair of integers with low <= high is allowed.
    """

    name: str
    default: Any
    allowed: tuple[Any, ...]
    description: str
    open_point: str = ""
    free_range: bool = False


def _is_int_range(value: Any) -> bool:
    return (isinstance(value, list | tuple) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value) and value[0] <= value[1])


def load_options(path: Path) -> dict[str, Option]:
    """Read ``[options.NAME]`` tables (default, allowed, description) from a TOML file."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(str(path), None, None, f"not valid TOML: {exc}") from exc
    options: dict[str, Option] = {}
    for name, table in raw.get("options", {}).items():
        for key in ("default", "description"):
            if key not in table:
                raise DataError(str(path), None, f"options.{name}", f"missing key '{key}'")
        if "allowed" not in table:
            if not _is_int_range(table["default"]):
                raise DataError(str(path), None, f"options.{name}", "missing key 'allowed'")
            options[name] = Option(name, list(table["default"]), (), table["description"],
                                   table.get("open_point", ""), free_range=True)
            continue
        allowed = tuple(table["allowed"])
        if table["default"] not in allowed:
            raise DataError(str(path), None, f"options.{name}", "default is not among the allowed values")
        options[name] = Option(name, table["default"], allowed, table["description"], table.get("open_point", ""))
    return options


def resolve_options(available: dict[str, Option], chosen: dict[str, Any] | None) -> dict[str, Any]:
    """Defaults overlaid with ``chosen``; unknown names and disallowed values raise OptionError."""
    values = {name: opt.default for name, opt in available.items()}
    for name, value in (chosen or {}).items():
        if name not in available:
            known = ", ".join(sorted(available))
            raise OptionError(f"unknown option '{name}' (known: {known}){did_you_mean(name, available)}")
        if available[name].free_range:
            if not _is_int_range(value):
                raise OptionError(f"option '{name}': {value!r} is not a [low, high] pair of integers with low <= high")
            values[name] = list(value)
            continue
        if value not in available[name].allowed:
            allowed = ", ".join(repr(v) for v in available[name].allowed)
            texts = [v for v in available[name].allowed if isinstance(v, str)]
            hint = did_you_mean(value, texts) if isinstance(value, str) else ""
            raise OptionError(f"option '{name}': {value!r} is not allowed (allowed: {allowed}){hint}")
        values[name] = value
    return values
