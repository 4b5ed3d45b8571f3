"""How Pendulum names things in the trace, the log and the board: agents, spaces, cards, stratagems,
characters, achievements and reward symbols (docs/trace.md, "Pendulum events")."""

from __future__ import annotations

from typing import Any

import numpy as np

from simlab.games.pendulum.codes import (
    AG_AUTOMA1,
    AG_AUTOMA2,
    AG_NEUTRAL,
    DEST_MAT,
    W_GONE,
    W_MAT,
    W_RESERVE,
)
from simlab.games.pendulum.tables import (
    C_DEFAULT,
    C_GRANDE,
)

PART_NAMES = ("top_frame", "bottom_box")


def agent_name(a: int, solo: bool) -> str | None:
    """``P1``.. for a seat (``human`` in solo), ``neutral``, ``automa1``, ``automa2``; None for -1."""
    a = int(a)
    if a == AG_NEUTRAL:
        return "neutral"
    if a == AG_AUTOMA1:
        return "automa1"
    if a == AG_AUTOMA2:
        return "automa2"
    if 0 <= a < 5:
        return "human" if solo else f"P{a + 1}"
    return None


def actor_name(a: int, solo: bool) -> str:
    """An event's ``actor``: an agent name, or ``system``."""
    return agent_name(a, solo) or "system"


def seat_tag(p: int) -> str:
    """``s0``.. (the board's short code of a seat in worker codes such as ``s0G1``: seats count from 0, as in
    specs and result tables)."""
    return f"s{int(p)}"


def _tables(rules: Any) -> np.void:
    return rules.tables[0]


def _helper(rules: Any, name: str, i: int, fallback: str) -> Any:
    fn = getattr(rules, name, None)
    if fn is None:
        return fallback
    try:
        return fn(int(i))
    except (IndexError, KeyError, ValueError):
        return fallback


def space_id(rules: Any, d: int) -> str | None:
    """A space's id (``1-3p:green:top:1``), ``mat`` (-1), ``reserve`` (-2), ``gone`` (-3)."""
    d = int(d)
    if d in (W_MAT, DEST_MAT):
        return "mat"
    if d == W_RESERVE:
        return "reserve"
    if d == W_GONE:
        return "gone"
    if d < 0 or d >= int(_tables(rules)["n_spaces"]):
        return None
    return _helper(rules, "space_id", d, f"space{d}")


def council_id(rules: Any, c: int) -> str | None:
    """A council card's printed id (``7``, ``F3``, ``GRANDE``, ``DEFAULT``); None for -1."""
    c = int(c)
    if c < 0:
        return None
    fallback = "GRANDE" if c == C_GRANDE else "DEFAULT" if c == C_DEFAULT else f"F{c - 24}" if c >= 25 else str(c + 1)
    return str(_helper(rules, "council_id", c, fallback))


def province_id(rules: Any, i: int) -> Any:
    """A province card's number; None for -1."""
    i = int(i)
    return None if i < 0 else _helper(rules, "province_id", i, i + 1)


def acard_id(rules: Any, i: int) -> Any:
    """An Automa card's id; None for -1."""
    i = int(i)
    return None if i < 0 else _helper(rules, "acard_id", i, i + 1)


def strat_name(rules: Any, i: int) -> str | None:
    """A stratagem's name; None for -1."""
    i = int(i)
    return None if i < 0 else str(_helper(rules, "strat_name", i, f"stratagem {i}"))


def character_name(rules: Any, row: int) -> str | None:
    """A character row's persona (``Bolk, The Champion``); None for -1."""
    row = int(row)
    return None if row < 0 else str(_helper(rules, "character_name", row, f"character {row}"))


def achievement_id(rules: Any, i: int) -> Any:
    """An achievement card's number; None for -1."""
    i = int(i)
    if i < 0:
        return None
    fn = getattr(rules, "achievement_id", None) or getattr(rules, "ach_id", None)
    try:
        return fn(i) if fn is not None else i + 1
    except (IndexError, KeyError, ValueError):
        return i + 1


def symbol_name(rules: Any, i: int) -> Any:
    """An Automa reward symbol's name; None for -1."""
    i = int(i)
    if i < 0:
        return None
    fn = getattr(rules, "symbol_name", None)
    if fn is not None:
        try:
            return fn(i)
        except (IndexError, KeyError, ValueError):
            return i
    syms = getattr(getattr(rules, "data", None), "symbols", None)
    try:
        row = syms[i]
        return getattr(row, "symbol", row if isinstance(row, str) else i)
    except (TypeError, IndexError, KeyError):
        return i


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _names(table: tuple[str, ...], v: int) -> Any:
    return table[v] if 0 <= v < len(table) else (None if v < 0 else v)


def _bits(mask: int) -> list[int]:
    return [k for k in range(31) if mask >> k & 1]
