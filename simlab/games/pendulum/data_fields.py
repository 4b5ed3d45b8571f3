"""Reading one field of a Pendulum data row: checked enums, flags, integers, texts, effects and sources.

Each reader names the file, the row and the column in its one-line error (``file:row: column: what is wrong``).
"""

from __future__ import annotations

from pathlib import Path

from simlab.core.datafiles import int_field, read_csv_rows
from simlab.core.errors import DataError
from simlab.games.pendulum.data_grammar import (
    Effect,
    parse_effect,
)

SOURCES = ("rulebook", "public-source", "reconstructed")
BOOLEANS = {"true": True, "false": False}
YES_NO = {"yes": True, "no": False}
OPTIONAL_COLUMNS = ("notes", "source")


def _rows(path: Path, required: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    return read_csv_rows(path, required)


def _enum(file: str, line: int, row: dict[str, str], col: str, allowed: tuple[str, ...],
          optional: bool = False) -> str | None:
    text = row[col]
    if text == "":
        if optional:
            return None
        raise DataError(file, line, col, f"value is empty (allowed: {', '.join(allowed)})")
    if text not in allowed:
        raise DataError(file, line, col, f"'{text}' is not allowed (allowed: {', '.join(allowed)})")
    return text


def _flag(file: str, line: int, row: dict[str, str], col: str, words: dict[str, bool]) -> bool:
    text = row[col]
    if text not in words:
        raise DataError(file, line, col, f"'{text}' is not a flag (allowed: {', '.join(words)})")
    return words[text]


def _text(file: str, line: int, row: dict[str, str], col: str) -> str:
    if row[col] == "":
        raise DataError(file, line, col, "value is empty")
    return row[col]


def _int(file: str, line: int, row: dict[str, str], col: str, lo: int, hi: int) -> int:
    value = int_field(file, line, row, col, lo, hi)
    assert value is not None
    return value


def _effect(file: str, line: int, row: dict[str, str], col: str) -> Effect:
    return parse_effect(row[col], file, line, col)


def _source(file: str, line: int, row: dict[str, str]) -> str:
    return _enum(file, line, row, "source", SOURCES) or ""
