"""No file of the project names a path of the machine it was written on (issue 24).

The research notes and rulebooks sit beside the project (``../shared/research/…``, ``../shared/rules/…``)
and are cited that way; a path such as ``/work/…`` or ``/root/…`` means nothing in another clone. The code,
tests, docs, notebooks, experiment specs and the README are read as text; this file is the one exception
(it has to name the patterns).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("simlab", "tests", "docs", "notebooks", "experiments")
FILES = ("README.md",)
SKIP_PARTS = {"__pycache__", ".ipynb_checkpoints"}
SKIP_SUFFIXES = {".pyc", ".nbi", ".nbc", ".png", ".jpg", ".jpeg", ".gif", ".parquet", ".db", ".so"}
MACHINE_PATH = re.compile(r"(?<![\w.~-])/(?:work|root)/")  # a path from the root, not ".../x/work/..."


def _files() -> list[Path]:
    found = [ROOT / name for name in FILES if (ROOT / name).is_file()]
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and not SKIP_PARTS & set(path.parts) and path.suffix.lower() not in SKIP_SUFFIXES:
                found.append(path)
    return [p for p in found if p.resolve() != Path(__file__).resolve()]


def machine_paths(text: str) -> list[int]:
    """The line numbers (from 1) of ``text`` that name a machine path."""
    return [i for i, line in enumerate(text.splitlines(), 1) if MACHINE_PATH.search(line)]


def test_no_file_names_a_machine_path():
    found = []
    for path in _files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # a binary file: nothing a reader follows
            continue
        found += [f"{path.relative_to(ROOT)}:{line}" for line in machine_paths(text)]
    assert not found, "machine paths (cite ../shared/... or a path relative to the project):\n" + "\n".join(found)


def test_the_pattern_sees_a_machine_path():
    """Not vacuous: an absolute machine path is found; a relative citation or a URL's folder is not."""
    assert machine_paths("see /work/shared/research/pendulum/NOTES.md\nok") == [1]
    assert machine_paths("x\n(`/root/notes.md`)") == [2]
    assert machine_paths("see ../shared/research/pendulum/NOTES.md, https://example.org/a/work/b, ~/work/x") == []
