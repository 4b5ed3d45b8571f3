"""Loading Pendulum's characters and cards: ``characters.csv``, ``stratagems.csv``, ``council_rewards.csv``,
``achievements.csv`` and ``provinces.csv`` (NOTES Part V).

The 10 personas (track offsets, start resources, production slots), their 40 stratagems, the council cards (25
standard, 5 finals, the grande card and the default; ``COUNCIL_IDS`` is their table order), the achievements and
the provinces.
"""

from __future__ import annotations

from pathlib import Path

from simlab.core.errors import DataError
from simlab.games.pendulum.codes import (
    SLOT_NAMES,
    TRACK_NAMES,
)
from simlab.games.pendulum.data_fields import (
    _effect,
    _enum,
    _int,
    _rows,
    _source,
    _text,
)
from simlab.games.pendulum.data_records import (
    Achievement,
    Character,
    Config,
    CouncilCard,
    Province,
    Stratagem,
)
from simlab.games.pendulum.tables import (
    EF_LEGENDARY,
    EF_PROD,
    EF_SPECIAL,
    EF_VP_POW,
    N_COUNCIL,
    N_STANDARD,
    SPECIAL_NAMES,
)

CHAR_SIDES = ("basic", "advanced")
LONGEST = (*TRACK_NAMES, "all equal")
COUNCIL_DECKS = ("standard", "final", "fixed")
COUNCIL_KINDS = ("immediate", "stratagem", "permanent", "final", "grande", "default")
#: ids of the council cards in council-table order (index = row of ``tables.co``).
COUNCIL_IDS = (*(str(i) for i in range(1, N_STANDARD + 1)), "F1", "F2", "F3", "F4", "F5", "GRANDE", "DEFAULT")
assert len(COUNCIL_IDS) == N_COUNCIL


CHAR_COLUMNS = ("character", "persona", "side", "longest_track", *(f"start_{k}" for k in TRACK_NAMES),
                *(f"steps_{k}" for k in TRACK_NAMES), "start_military", "start_culture", "start_gold", "start_votes",
                *(f"prod_{m}" for m in SLOT_NAMES), "source")


def load_characters(path: Path, config: Config) -> list[Character]:
    """Read ``characters.csv``: every character has one basic and one advanced persona; start
    offset + steps to the parchment = config.toml base.track.parchment_first on every track."""
    file = str(path)
    chars: list[Character] = []
    seen: dict[tuple[str, str], int] = {}
    sides: dict[tuple[str, str], int] = {}
    for line, row in _rows(path, CHAR_COLUMNS):
        name = _text(file, line, row, "character")
        persona = _text(file, line, row, "persona")
        if (name, persona) in seen:
            raise DataError(file, line, "persona", f"'{name}, {persona}' repeats line {seen[name, persona]}")
        seen[name, persona] = line
        side = _enum(file, line, row, "side", CHAR_SIDES) or ""
        if (name, side) in sides:
            raise DataError(file, line, "side", f"{name} already has a {side} persona (line {sides[name, side]})")
        sides[name, side] = line
        longest = _enum(file, line, row, "longest_track", LONGEST) or ""
        starts = tuple(_int(file, line, row, f"start_{k}", config.track_first, config.parchment_first - 1)
                       for k in TRACK_NAMES)
        steps = []
        for k, st in zip(TRACK_NAMES, starts, strict=True):
            n = _int(file, line, row, f"steps_{k}", 1, config.track_last)
            if st + n != config.parchment_first:
                raise DataError(file, line, f"steps_{k}", f"start {st} + steps {n} = {st + n}, but the parchment "
                                f"starts at {config.parchment_first}")
            steps.append(n)
        res = tuple(_int(file, line, row, f"start_{r}", 0, config.resource_cap)
                    for r in ("military", "culture", "gold"))
        votes = _int(file, line, row, "start_votes", 0, 99)
        prod = tuple(_effect(file, line, row, f"prod_{m}") for m in SLOT_NAMES)
        for m, e in zip(SLOT_NAMES, prod, strict=True):
            if len(e.alts) != 1:
                raise DataError(file, line, f"prod_{m}", f"a production slot cannot have alternatives ('{e.text}')")
            if e.has(EF_PROD):
                raise DataError(file, line, f"prod_{m}", f"a production slot cannot produce a slot ('{e.text}')")
        chars.append(Character(name, persona, side, longest, starts, tuple(steps), res, votes, prod,  # type: ignore[arg-type]
                               _source(file, line, row), row.get("notes", ""), line))
    for (name, side), line in sides.items():
        other = "advanced" if side == "basic" else "basic"
        if (name, other) not in sides:
            raise DataError(file, line, "side", f"{name} has no {other} persona")
    if not chars:
        raise DataError(file, None, None, "no characters")
    if len(chars) > 10:
        raise DataError(file, chars[10].line, "character", f"{len(chars)} personas; at most 10")
    return chars


STRAT_COLUMNS = ("character", "persona", "card_no", "cost", "cost_text", "effect", "effect_text", "source")


def load_stratagems(path: Path, config: Config, chars: list[Character]) -> list[Stratagem]:
    """Read ``stratagems.csv``: every persona of characters.csv has its cards 1..N in one block."""
    file = str(path)
    personas = {(c.character, c.persona) for c in chars}
    strats: list[Stratagem] = []
    blocks: dict[tuple[str, str], list[Stratagem]] = {}
    last_key: tuple[str, str] | None = None
    for line, row in _rows(path, STRAT_COLUMNS):
        key = (_text(file, line, row, "character"), _text(file, line, row, "persona"))
        if key not in personas:
            raise DataError(file, line, "persona", f"'{key[0]}, {key[1]}' is not a persona of characters.csv")
        if key != last_key and key in blocks:
            raise DataError(file, line, "persona", f"the cards of '{key[0]}, {key[1]}' must be consecutive rows")
        last_key = key
        block = blocks.setdefault(key, [])
        no = _int(file, line, row, "card_no", 1, config.strats_per_character)
        if no != len(block) + 1:
            raise DataError(file, line, "card_no", f"{no}, expected {len(block) + 1} (cards numbered 1..N in order)")
        cost = _effect(file, line, row, "cost")
        if len(cost.alts) != 1:
            raise DataError(file, line, "cost", f"a cost cannot have alternatives ('{cost.text}')")
        effect = _effect(file, line, row, "effect")
        if effect.is_none:
            raise DataError(file, line, "effect", "a stratagem needs an effect")
        if len(effect.alts) > 1 and not effect.choice:
            raise DataError(file, line, "effect", f"write alternatives as 'choice:a|b' ('{effect.text}')")
        s = Stratagem(key[0], key[1], no, cost, row["cost_text"], effect, row["effect_text"],
                      _source(file, line, row), row.get("notes", ""), line)
        block.append(s)
        strats.append(s)
    for c in chars:
        n = len(blocks.get((c.character, c.persona), []))
        if n != config.strats_per_character:
            raise DataError(file, None, "persona", f"'{c.name}' has {n} stratagems; config.toml "
                            f"base.stratagems_per_character says {config.strats_per_character}")
    return strats


COUNCIL_COLUMNS = ("card_id", "deck", "kind", "cost", "cost_text", "effect", "effect_text", "source")


def _council_deck_kind(card_id: str) -> tuple[str, tuple[str, ...]]:
    if card_id.isdigit():
        return "standard", ("immediate", "stratagem", "permanent")
    if card_id.startswith("F"):
        return "final", ("final",)
    return "fixed", (card_id.lower(),)


def load_council(path: Path, config: Config) -> list[CouncilCard]:
    """Read ``council_rewards.csv``: exactly the cards 1..25, F1..F5, GRANDE and DEFAULT, each
    with the deck and kind its id implies; returned in ``COUNCIL_IDS`` order."""
    file = str(path)
    cards: dict[str, CouncilCard] = {}
    for line, row in _rows(path, COUNCIL_COLUMNS):
        cid = _text(file, line, row, "card_id")
        if cid not in COUNCIL_IDS:
            raise DataError(file, line, "card_id", f"'{cid}' is not a council card id (1..25, F1..F5, GRANDE, DEFAULT)")
        if cid in cards:
            raise DataError(file, line, "card_id", f"'{cid}' repeats line {cards[cid].line}")
        deck = _enum(file, line, row, "deck", COUNCIL_DECKS) or ""
        want_deck, kinds = _council_deck_kind(cid)
        if deck != want_deck:
            raise DataError(file, line, "deck", f"'{deck}': card {cid} belongs to the {want_deck} deck")
        kind = _enum(file, line, row, "kind", COUNCIL_KINDS) or ""
        if kind not in kinds:
            raise DataError(file, line, "kind", f"'{kind}' is not allowed for card {cid} (allowed: {', '.join(kinds)})")
        cost = _effect(file, line, row, "cost")
        if len(cost.alts) != 1:
            raise DataError(file, line, "cost", f"a cost cannot have alternatives ('{cost.text}')")
        effect = _effect(file, line, row, "effect")
        if effect.is_none:
            raise DataError(file, line, "effect", "a council card needs an effect")
        if kind == "grande" and effect.alts[0][EF_SPECIAL] != SPECIAL_NAMES.index("grande"):
            raise DataError(file, line, "effect", f"'{effect.text}': the grande card's effect is special:grande")
        cards[cid] = CouncilCard(cid, deck, kind, cost, row["cost_text"], effect, row["effect_text"],
                                 _source(file, line, row), row.get("notes", ""), line)
    missing = [c for c in COUNCIL_IDS if c not in cards]
    if missing:
        raise DataError(file, None, "card_id", f"missing council cards: {', '.join(missing)}")
    for cid in ("F1", "F2", "F3", "F4"):
        if _final_track(cards[cid]) is None:
            raise DataError(file, cards[cid].line, "effect", f"'{cards[cid].effect.text}': final card {cid} must give "
                            "VP on one track or on all three")
    if not cards["F5"].effect.has(EF_LEGENDARY):
        raise DataError(file, cards["F5"].line, "effect", f"'{cards['F5'].effect.text}': F5 is the legendary card")
    return [cards[c] for c in COUNCIL_IDS]


def _final_track(card: CouncilCard) -> int | None:
    """The track a final card serves (0..2, 3 for all three), None if it gives no track VP."""
    if len(card.effect.alts) != 1:
        return None
    vec = card.effect.alts[0]
    tracks = [k for k in range(3) if vec[EF_VP_POW + k]]
    if len(tracks) == 3:
        return 3
    if len(tracks) == 1:
        return tracks[0]
    return None


def final_track(card: CouncilCard) -> int:
    """``CO_TRACK`` of a council card: the track of F2/F3/F4, 3 for F1 (all tracks), -1 otherwise."""
    if card.kind != "final":
        return -1
    k = _final_track(card)
    return -1 if k is None else k


ACH_COLUMNS = ("card_id", "requirement", "ribbon_reward", "ribbon_text", "source")
PROV_COLUMNS = ("card_no", "kind", *(f"yield_{m}" for m in SLOT_NAMES), "source")


def load_achievements(path: Path) -> list[Achievement]:
    """Read ``achievements.csv`` (ids unique, requirements without alternatives, at most 16 cards)."""
    file = str(path)
    out: list[Achievement] = []
    seen: dict[int, int] = {}
    for line, row in _rows(path, ACH_COLUMNS):
        cid = _int(file, line, row, "card_id", 1, 99)
        if cid in seen:
            raise DataError(file, line, "card_id", f"{cid} repeats line {seen[cid]}")
        seen[cid] = line
        req = _effect(file, line, row, "requirement")
        if len(req.alts) != 1:
            raise DataError(file, line, "requirement", f"a requirement cannot have alternatives ('{req.text}')")
        ribbon = _effect(file, line, row, "ribbon_reward")
        if ribbon.is_none:
            raise DataError(file, line, "ribbon_reward", "an achievement needs a ribbon reward")
        out.append(Achievement(cid, req, ribbon, row["ribbon_text"], _source(file, line, row), row.get("notes", ""),
                               line))
    if not 2 <= len(out) <= 16:
        raise DataError(file, None, "card_id", f"{len(out)} achievements; 2..16 are supported")
    return out


def load_provinces(path: Path, config: Config) -> list[Province]:
    """Read ``provinces.csv``: one production edge per mat slot colour, no alternatives, at most 64 cards."""
    file = str(path)
    out: list[Province] = []
    seen: dict[int, int] = {}
    for line, row in _rows(path, PROV_COLUMNS):
        no = _int(file, line, row, "card_no", 1, 999)
        if no in seen:
            raise DataError(file, line, "card_no", f"{no} repeats line {seen[no]}")
        seen[no] = line
        kind = _text(file, line, row, "kind")
        yields = tuple(_effect(file, line, row, f"yield_{m}") for m in SLOT_NAMES)
        for m, e in zip(SLOT_NAMES, yields, strict=True):
            if len(e.alts) != 1:
                raise DataError(file, line, f"yield_{m}", f"a province edge cannot have alternatives ('{e.text}')")
            if e.has(EF_PROD):
                raise DataError(file, line, f"yield_{m}", f"a province edge cannot produce a slot ('{e.text}')")
        out.append(Province(no, kind, yields, _source(file, line, row), row.get("notes", ""), line))  # type: ignore[arg-type]
    if not config.display_size <= len(out) <= 64:
        raise DataError(file, None, "card_no", f"{len(out)} provinces; {config.display_size}..64 are supported")
    return out
