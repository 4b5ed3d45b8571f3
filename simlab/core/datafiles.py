"""Reading a game's CSV data files with errors of the form ``file:line: column: what is wrong``.

Every data file is read by :func:`read_text_file`: UTF-8, with or without the byte-order mark
spreadsheet programs write; anything else is one line naming the file and the first bad byte.
"""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Callable, Mapping
from pathlib import Path

from simlab.core.errors import DataError


def data_file_paths(bundled: Path, file_names: Mapping[str, str], data_dir: str | Path | None = None,
                    files: Mapping[str, str | Path] | None = None) -> dict[str, Path]:
    """The path of each data file (by stem) a game's ``load_data`` reads.

    Files come from ``data_dir`` (the game's ``bundled`` folder by default); ``files`` replaces
    single files by stem. An unknown stem is a TypeError, as for an unknown keyword argument.
    """
    files = dict(files or {})
    unknown = sorted(set(files) - set(file_names))
    if unknown:
        raise TypeError(f"load_data() got unknown data files {', '.join(unknown)} (known: {', '.join(file_names)})")
    base = Path(data_dir) if data_dir is not None else bundled
    return {stem: Path(files[stem]) if files.get(stem) else base / name for stem, name in file_names.items()}


def read_text_file(path: str | Path) -> str:
    """The text of a UTF-8 file (a leading byte-order mark dropped).

    Raises DataError (one line naming the file) for a missing file, a directory, an
    unreadable file or bytes that are not UTF-8 (``not UTF-8 text (byte 0xe9 at offset 196)``).
    """
    p = Path(path)
    name = str(path)
    if p.is_dir():
        raise DataError(name, None, None, "is a directory, not a file")
    if not p.exists():
        raise DataError(name, None, None, "file not found")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise DataError(name, None, None, f"cannot read: {exc.strerror or exc}") from None
    start = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        return data[start:].decode("utf-8")
    except UnicodeDecodeError as exc:
        offset = start + exc.start
        raise DataError(name, None, None, f"not UTF-8 text (byte 0x{data[offset]:02x} at offset {offset})") from None


def read_csv_rows(path: Path, required: tuple[str, ...],
                  extra_ok: Callable[[str], bool] | None = None) -> list[tuple[int, dict[str, str]]]:
    """Rows of a CSV file with their 1-based line numbers (the header is line 1).

    Every ``required`` column must be in the header; with ``extra_ok`` any other column must
    satisfy it (otherwise extra columns are allowed). Values are stripped; blank lines skipped.
    """
    name = str(path)
    text = read_text_file(path)
    with io.StringIO(text, newline="") as fh:
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
