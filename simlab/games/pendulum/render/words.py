"""Pendulum's components in words: effects, action spaces, stratagems, council cards, provinces, Automa
cards, achievements and workers (what menus and the board print)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simlab.games.pendulum.codes import (
    AREA_NAMES,
    DEST_MAT,
    RESOURCE_NAMES,
    ROW_NAMES,
    SLOT_NAMES,
    TRACK_NAMES,
    W_GONE,
    W_MAT,
    W_RESERVE,
)
from simlab.games.pendulum.render.names import (
    PART_NAMES,
    _helper,
    _plural,
    _tables,
    acard_id,
    achievement_id,
    council_id,
    province_id,
    space_id,
    strat_name,
    symbol_name,
)
from simlab.games.pendulum.tables import (
    AC_DISCARD,
    AC_FLIP,
    AC_MOVE,
    AC_SYMBOL,
    AC_VOTES,
    AC_VP,
    CO_COST,
    CO_EFFECT,
    CO_KIND,
    COUNCIL_KINDS,
    EF_CONQUER,
    EF_LEGENDARY,
    EF_PROD,
    EF_RECRUIT,
    EF_RETRIEVE,
    EF_SPECIAL,
    EF_VOTES,
    EF_VP_ANY,
    EF_WILD,
    FLIP_NAMES,
    FRAME_NAMES,
    SP_AREA,
    SP_COST,
    SP_FRAME,
    SP_NALT,
    SP_POS,
    SP_REWARD0,
    SP_ROW,
    SPECIAL_NAMES,
    ST_COST,
    ST_EFFECT,
)


def alt_words(t: np.void, e: int, alt: int, cost: bool = False) -> str:
    """One alternative of effect ``e`` in words (``+2 military, +1 power VP``; a cost without the ``+``)."""
    row = t["eff"][int(e), int(alt)]
    sign = "" if cost else "+"
    parts: list[str] = []
    for r, name in enumerate(RESOURCE_NAMES):
        if row[r]:
            parts.append(f"{sign}{int(row[r])} {name}")
    if row[EF_WILD]:
        parts.append(f"{sign}{int(row[EF_WILD])} wild")
    if row[EF_VOTES]:
        parts.append(f"{sign}{_plural(int(row[EF_VOTES]), 'vote')}")
    for k, name in enumerate(TRACK_NAMES):
        if row[5 + k]:
            parts.append(f"{sign}{int(row[5 + k])} {name} VP")
    if row[EF_VP_ANY]:
        parts.append(f"{sign}{int(row[EF_VP_ANY])} VP of your choice")
    if row[EF_LEGENDARY]:
        parts.append("the legendary VP")
    if row[EF_PROD]:
        slots = [SLOT_NAMES[m] for m in range(4) if int(row[EF_PROD]) >> m & 1]
        parts.append(" + ".join(f"{m} production" for m in slots))
    if row[EF_CONQUER]:
        parts.append(f"conquer {int(row[EF_CONQUER])}")
    if row[EF_RETRIEVE]:
        parts.append(f"retrieve {int(row[EF_RETRIEVE])} worker")
    if row[EF_RECRUIT]:
        parts.append(f"recruit {int(row[EF_RECRUIT])} worker")
    sp = int(row[EF_SPECIAL])
    if sp:
        parts.append(SPECIAL_NAMES[sp] if 0 <= sp < len(SPECIAL_NAMES) else f"special {sp}")
    return ", ".join(parts) if parts else ("free" if cost else "nothing")


def effect_words(rules: Any, e: int, cost: bool = False) -> str:
    """Effect ``e`` in words: every alternative, joined by `` | ``."""
    e = int(e)
    t = _tables(rules)
    if e <= 0:
        return "free" if cost else "nothing"
    n = max(1, int(t["eff_nalt"][e]))
    return " | ".join(alt_words(t, e, a, cost) for a in range(n))


def effect_text(rules: Any, e: int) -> str | None:
    """Effect ``e`` as token text (NOTES V.1), from the ruleset; None for -1."""
    e = int(e)
    if e < 0:
        return None
    return str(_helper(rules, "effect_text", e, effect_words(rules, e)))


def space_words(rules: Any, d: int, with_cost: bool = True) -> str:
    """``green top 1 (double): +1 power VP, +2 votes | +2 popularity VP [cost 2 gold]``."""
    d = int(d)
    if d in (W_MAT, DEST_MAT):
        return "the mat"
    if d < 0:
        return space_id(rules, d) or "nowhere"
    t = _tables(rules)
    if d >= int(t["n_spaces"]):
        raise IndexError(f"space {d} is not on this board side")
    sp = t["sp"][d]
    frame = int(sp[SP_FRAME])
    head = f"{AREA_NAMES[int(sp[SP_AREA])]} {ROW_NAMES[int(sp[SP_ROW])]} {int(sp[SP_POS])} ({FRAME_NAMES[frame]})"
    rewards = " | ".join(effect_words(rules, int(sp[SP_REWARD0 + k])) for k in range(max(1, int(sp[SP_NALT]))))
    text = f"{head}: {rewards}"
    cost = int(sp[SP_COST])
    if with_cost and cost > 0:
        text += f" [cost {effect_words(rules, cost, cost=True)}]"
    return text


def space_short(rules: Any, d: int) -> str:
    """``green top 1``; ``the mat``."""
    d = int(d)
    if d in (W_MAT, DEST_MAT):
        return "the mat"
    if d < 0:
        return space_id(rules, d) or "nowhere"
    sp = _tables(rules)["sp"][d]
    return f"{AREA_NAMES[int(sp[SP_AREA])]} {ROW_NAMES[int(sp[SP_ROW])]} {int(sp[SP_POS])}"


def strat_words(rules: Any, i: int) -> str:
    """``Bolk, The Champion #2 (+1 wild)``: a stratagem's name, effect and cost."""
    t = _tables(rules)
    if not 0 <= int(i) < int(t["n_strats"]):
        raise IndexError(f"stratagem {i} is not in this ruleset")
    st = t["st"][int(i)]
    text = f"{strat_name(rules, i)} ({effect_words(rules, int(st[ST_EFFECT]))}"
    if int(st[ST_COST]) > 0:
        text += f"; cost {effect_words(rules, int(st[ST_COST]), cost=True)}"
    return text + ")"


def council_words(rules: Any, c: int) -> str:
    """``council card 7 (immediate): conquer 1 [cost 2 gold]``."""
    t = _tables(rules)
    co = t["co"][int(c)]
    kind = int(co[CO_KIND])
    text = f"council card {council_id(rules, c)} ({COUNCIL_KINDS[kind] if 0 <= kind < len(COUNCIL_KINDS) else kind}): "
    text += effect_words(rules, int(co[CO_EFFECT]))
    if int(co[CO_COST]) > 0:
        text += f" [cost {effect_words(rules, int(co[CO_COST]), cost=True)}]"
    return text


def province_words(rules: Any, card: int) -> str:
    """``province 12 (brown: +1 power VP; red: +2 military; blue: +3 culture; yellow: +1 gold)``."""
    card = int(card)
    if card < 0:
        return "empty"
    t = _tables(rules)
    edges = "; ".join(f"{SLOT_NAMES[m]}: {effect_words(rules, int(t['prov'][card, m]))}" for m in range(4))
    return f"province {province_id(rules, card)} ({edges})"


def acard_words(rules: Any, i: int) -> str:
    """An Automa card in words: its left side (move, flip, discard) and right side (VP, votes, symbol)."""
    t = _tables(rules)
    ac = t["acard"][int(i)]
    left = []
    if int(ac[AC_MOVE]) >= 0:
        left.append(f"move in {AREA_NAMES[int(ac[AC_MOVE])]}")
    if int(ac[AC_FLIP]):
        left.append(f"flip {FLIP_NAMES[int(ac[AC_FLIP])]}")
    if int(ac[AC_DISCARD]):
        left.append(f"discard province #{int(ac[AC_DISCARD])}")
    return (f"Automa card {acard_id(rules, i)} ({', '.join(left) or 'blank'}; {int(ac[AC_VP])} VP, "
            f"{int(ac[AC_VOTES]):+d} votes, symbol {symbol_name(rules, int(ac[AC_SYMBOL]))})")


def achievement_words(rules: Any, i: int) -> str:
    t = _tables(rules)
    i = int(i)
    if i < 0:
        return "none"
    return (f"achievement {achievement_id(rules, i)} (hold {effect_words(rules, int(t['ach'][i, 0]), cost=True)}; "
            f"ribbon {effect_words(rules, int(t['ach'][i, 1]))})")


def worker_words(rules: Any, rec: np.void, p: int, w: int) -> str:
    """``W2 (common, on green top 1, bottom box)``."""
    if not (0 <= w < rec["w_place"].shape[1] and 0 <= p < rec["w_place"].shape[0]):
        return f"W{w + 1}"
    place = int(rec["w_place"][p, w])
    kind = "grande" if rec["w_grande"][p, w] else "common"
    if place == W_MAT:
        where = "on the mat"
    elif place == W_RESERVE:
        where = "in reserve"
    elif place == W_GONE:
        where = "out of the game"
    else:
        where = f"on {space_short(rules, place)}, {PART_NAMES[int(rec['w_part'][p, w])].replace('_', ' ')}"
    return f"W{w + 1} ({kind}, {where})"
