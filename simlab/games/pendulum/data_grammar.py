"""Pendulum's token grammar: costs, rewards, requirements and yields as effect vectors (NOTES V.1).

``parse_effect`` turns a cell such as ``2 military + 1 vp:power | 3 gold`` into an :class:`Effect` (one vector of
``tables.EF_*`` columns per ``|`` alternative); ``effect_vector_text`` writes a vector back. Every problem is one
line, ``file:row: column: what is wrong``.
"""

from __future__ import annotations

from dataclasses import dataclass

from simlab.core.errors import DataError
from simlab.games.pendulum.codes import (
    SLOT_NAMES,
    TRACK_NAMES,
)
from simlab.games.pendulum.tables import (
    EF_CONQUER,
    EF_FIELDS,
    EF_LEGENDARY,
    EF_PROD,
    EF_RECRUIT,
    EF_RETRIEVE,
    EF_SPECIAL,
    EF_VP_ANY,
    EF_VP_POW,
    MAX_ALT,
    SPECIAL_NAMES,
)

RESOURCE_TOKENS = ("military", "culture", "gold", "wild", "votes")
VP_TOKENS = (*TRACK_NAMES, "any")
COUNT_TOKENS = {"conquer": EF_CONQUER, "retrieve": EF_RETRIEVE, "recruit": EF_RECRUIT}
MAX_AMOUNT = 99


@dataclass(frozen=True)
class Effect:
    """A cost, reward, requirement or yield: one vector of ``EF_FIELDS`` amounts per alternative.

    ``text`` is the token text as written (``none`` for nothing); ``alt_texts`` the text of each
    alternative (without a ``choice:`` prefix). ``choice`` marks a ``choice:`` effect.
    """

    text: str
    alts: tuple[tuple[int, ...], ...]
    alt_texts: tuple[str, ...]
    choice: bool = False

    @property
    def is_none(self) -> bool:
        """Whether the effect is ``none``."""
        return self.text == "none"

    def alt(self, i: int) -> Effect:
        """Alternative ``i`` as an effect of its own (for the two rewards of a double frame)."""
        return Effect(self.alt_texts[i], (self.alts[i],), (self.alt_texts[i],))

    def has(self, column: int) -> bool:
        """Whether any alternative has a non-zero amount in ``column`` (an ``EF_*`` index)."""
        return any(v[column] for v in self.alts)


NONE_EFFECT = Effect("none", ((0,) * EF_FIELDS,), ("none",))


def _amount(file: str, line: int | None, col: str, item: str, text: str, value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise DataError(file, line, col, f"'{value}' in '{item}' is not an integer (in '{text}')") from None
    if not 1 <= n <= MAX_AMOUNT:
        raise DataError(file, line, col, f"amount {n} in '{item}' is outside 1..{MAX_AMOUNT} (in '{text}')")
    return n


def _parse_item(file: str, line: int | None, col: str, item: str, text: str, vec: list[int]) -> None:
    parts = item.split(":")
    head = parts[0]
    bad = f"'{item}' is malformed (in '{text}')"
    if head in RESOURCE_TOKENS:
        if len(parts) != 2:
            raise DataError(file, line, col, bad)
        vec[RESOURCE_TOKENS.index(head)] += _amount(file, line, col, item, text, parts[1])
    elif head == "vp":
        if len(parts) != 3:
            raise DataError(file, line, col, bad)
        if parts[1] not in VP_TOKENS:
            raise DataError(file, line, col, f"unknown track '{parts[1]}' in '{item}' (known: {', '.join(VP_TOKENS)})")
        column = EF_VP_ANY if parts[1] == "any" else EF_VP_POW + TRACK_NAMES.index(parts[1])
        vec[column] += _amount(file, line, col, item, text, parts[2])
    elif head == "legendary":
        if len(parts) != 2 or parts[1] != "1":
            raise DataError(file, line, col, f"'{item}' must be legendary:1 (in '{text}')")
        vec[EF_LEGENDARY] = 1
    elif head == "prod":
        if len(parts) != 2:
            raise DataError(file, line, col, bad)
        if parts[1] not in SLOT_NAMES:
            raise DataError(file, line, col,
                            f"unknown mat slot '{parts[1]}' in '{item}' (known: {', '.join(SLOT_NAMES)})")
        bit = 1 << SLOT_NAMES.index(parts[1])
        if vec[EF_PROD] & bit:
            raise DataError(file, line, col, f"'{item}' appears twice (in '{text}')")
        vec[EF_PROD] |= bit
    elif head in COUNT_TOKENS:
        if len(parts) != 2:
            raise DataError(file, line, col, bad)
        vec[COUNT_TOKENS[head]] += _amount(file, line, col, item, text, parts[1])
    elif head == "special":
        if len(parts) != 2:
            raise DataError(file, line, col, bad)
        if parts[1] not in SPECIAL_NAMES[1:]:
            raise DataError(file, line, col, f"unknown special '{parts[1]}' (known: {', '.join(SPECIAL_NAMES[1:])})")
        if vec[EF_SPECIAL]:
            raise DataError(file, line, col, f"two specials in one alternative (in '{text}')")
        vec[EF_SPECIAL] = SPECIAL_NAMES.index(parts[1])
    elif head == "none":
        raise DataError(file, line, col, f"'none' must stand alone (in '{text}')")
    else:
        raise DataError(file, line, col, f"unknown token '{item}' (in '{text}'; see NOTES V.1)")


def parse_effect(text: str, file: str = "<effect>", line: int | None = None, col: str = "effect") -> Effect:
    """Parse the token grammar of NOTES V.1 into an :class:`Effect` (one-line DataError otherwise).

    ``+`` joins items of one alternative, ``|`` separates alternatives (also after ``choice:``),
    ``none`` is nothing. Items: ``military|culture|gold|wild|votes:N``, ``vp:<track|any>:N``,
    ``legendary:1``, ``prod:<slot>``, ``conquer|retrieve|recruit:N``, ``special:<name>``.
    """
    t = text.strip()
    if t == "":
        raise DataError(file, line, col, "value is empty (write 'none' for nothing)")
    if t == "none":
        return NONE_EFFECT
    choice = t.startswith("choice:")
    body = t[len("choice:"):] if choice else t
    if "choice:" in body:
        raise DataError(file, line, col, f"'choice:' may only start the value (in '{t}')")
    alt_texts = tuple(a.strip() for a in body.split("|"))
    if len(alt_texts) > MAX_ALT:
        raise DataError(file, line, col, f"{len(alt_texts)} alternatives; at most {MAX_ALT} (in '{t}')")
    if choice and len(alt_texts) < 2:
        raise DataError(file, line, col, f"'choice:' needs at least 2 alternatives separated by '|' (in '{t}')")
    alts = []
    for alt in alt_texts:
        if alt == "":
            raise DataError(file, line, col, f"an empty alternative (in '{t}')")
        vec = [0] * EF_FIELDS
        for item in alt.split("+"):
            item = item.strip()
            if item == "":
                raise DataError(file, line, col, f"an empty item (in '{t}')")
            _parse_item(file, line, col, item, t, vec)
        alts.append(tuple(vec))
    return Effect(t, tuple(alts), alt_texts, choice)


def effect_vector_text(vec: tuple[int, ...] | list[int]) -> str:
    """Token text of one effect vector (the inverse of parsing one alternative; ``none`` for zeros)."""
    items = []
    for r, name in enumerate(RESOURCE_TOKENS):
        if vec[r]:
            items.append(f"{name}:{vec[r]}")
    for k, name in enumerate(TRACK_NAMES):
        if vec[EF_VP_POW + k]:
            items.append(f"vp:{name}:{vec[EF_VP_POW + k]}")
    if vec[EF_VP_ANY]:
        items.append(f"vp:any:{vec[EF_VP_ANY]}")
    if vec[EF_LEGENDARY]:
        items.append("legendary:1")
    for m, name in enumerate(SLOT_NAMES):
        if vec[EF_PROD] & (1 << m):
            items.append(f"prod:{name}")
    for name, column in COUNT_TOKENS.items():
        if vec[column]:
            items.append(f"{name}:{vec[column]}")
    if vec[EF_SPECIAL]:
        items.append(f"special:{SPECIAL_NAMES[vec[EF_SPECIAL]]}")
    return "+".join(items) or "none"
