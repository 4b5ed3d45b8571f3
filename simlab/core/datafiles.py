"""Reading a game's CSV data files with errors of the form ``file:line: column: what is wrong``."""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

from simlab.core.errors import DataError


def read_csv_rows(path: Path, required: tuple[str, ...],
                  extra_ok: Callable[[str], bool] | None = None) -> list[tuple[int, dict[str, str]]]:
    """Rows of a CSV file with their 1-based line numbers (the header is line 1).

    Every ``required`` column must be in the header; with ``extra_ok`` any other column must
    satisfy it (otherwise extra columns are allowed). Values are stripped; blank lines skipped.
    """
    name = str(path)
    if not path.exists():
        raise DataError(name, None, None, "file not found")
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        header = reader.fieldnames or []
        for col in required:
            if col not in header:
                raise DataError(name, 1, col, "required column is missing from the header")
        if extra_ok is not None:
            for col in header:
                if col not in required and not extra_ok(col):
                    raise DataError(name, 1, col, "unknown column")
        rows = []
        for row in reader:
            if None in row:
                raise DataError(name, reader.line_num, None, "more fields than the header has")
            rows.append((reader.line_num, {k: (v or "").strip() for k, v in row.items()}))
    return rows


def int_field(file: str, line: int, row: dict[str, str], col: str, lo: int, hi: int,
              optional: bool = False) -> int | None:
    """The integer in ``row[col]``, checked to lie in lo..hi (None for an empty optional value)."""
    text = row.get(col, "")
    if text == "":
        if optional:
            return None
        raise DataError(file, line, col, "value is empty")
    try:
        value = int(text)
    except ValueError:
        raise DataError(file, line, col, f"'{text}' is not an integer") from None
    if not lo <= value <= hi:
        raise DataError(file, line, col, f"{value} is outside {lo}..{hi}")
    return value
