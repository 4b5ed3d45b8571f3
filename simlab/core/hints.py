""""Did you mean …" hints for misspelt names (players, options, fields, spec keys)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable


def closest(word: object, candidates: Iterable[object], n: int = 3) -> list[str]:
    """The candidates closest to ``word``: difflib's best match (ratio 0.6 or more, case ignored), else
    up to ``n`` candidates that hold ``word`` as one of their ``_``/``-``-separated parts
    (``vp`` -> ``printed_vp``, ``vp_kind``)."""
    names = list(dict.fromkeys(str(c) for c in candidates))
    text = str(word).strip()
    if not text:
        return []
    lowered = {name.lower(): name for name in names}
    found = difflib.get_close_matches(text.lower(), list(lowered), n=1, cutoff=0.6)
    if found:
        return [lowered[found[0]]]
    parts = [name for name in names if text.lower() in re.split(r"[_\-\s]+", name.lower())]
    return parts[:n]


def did_you_mean(word: object, candidates: Iterable[object]) -> str:
    """``"; did you mean 'x'?"`` (or ``'x' or 'y'``) for the closest candidates, ``""`` when none is close."""
    found = [f"'{f}'" for f in closest(word, candidates)]
    if not found:
        return ""
    listed = found[0] if len(found) == 1 else ", ".join(found[:-1]) + " or " + found[-1]
    return f"; did you mean {listed}?"
