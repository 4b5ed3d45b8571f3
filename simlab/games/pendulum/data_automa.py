"""Loading Pendulum's Automa module: ``automa_cards.csv``, ``automa_levels.csv``, ``automa_scoring.csv``,
``automa_track.csv`` and ``automa_reward_symbols.csv`` (mostly reconstructed, NOTES Part IV).
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from simlab.core.datafiles import int_field
from simlab.core.errors import DataError
from simlab.games.pendulum.data_cards import (
    COUNCIL_IDS,
)
from simlab.games.pendulum.data_fields import (
    BOOLEANS,
    _enum,
    _flag,
    _int,
    _rows,
    _source,
    _text,
)
from simlab.games.pendulum.data_records import (
    AutomaCard,
    AutomaLevel,
    Config,
    RewardSymbol,
    TrackSpace,
)
from simlab.games.pendulum.tables import (
    FLIP_NAMES,
    LEVELS,
    TRACK_KINDS,
)

MOVE_AREAS = ("none", "purple", "green")




ACARD_COLUMNS = ("card_id", "move_area", "flip_combo", "province_discard_slot", "vp", "votes", "reward_symbol",
                 "left_side_text", "source")


LEVEL_COLUMNS = ("level", "level_ru", "name_ru", "name_en", "advanced_rules", "glory_spaces_usable",
                 "recommended_first", "source")


SCORING_COLUMNS = ("level", "round", "vp_bonus", "votes_bonus", "source")
TRACK_COLUMNS = ("space", "row", "col", "kind", "distance_label", "distance_to_parchment", "parchment_index",
                 "glory_index", "advanced_only", "source")


SYMBOL_COLUMNS = ("symbol", "meaning", "matches_council_cards", "source")


def load_symbols(path: Path) -> list[RewardSymbol]:
    """Read ``automa_reward_symbols.csv``: unique symbols whose matches are council card ids."""
    file = str(path)
    out: list[RewardSymbol] = []
    seen: dict[str, int] = {}
    for line, row in _rows(path, SYMBOL_COLUMNS):
        sym = _text(file, line, row, "symbol")
        if sym in seen:
            raise DataError(file, line, "symbol", f"'{sym}' repeats line {seen[sym]}")
        seen[sym] = line
        matches = tuple(x.strip() for x in row["matches_council_cards"].split(";") if x.strip())
        if not matches:
            raise DataError(file, line, "matches_council_cards", "value is empty")
        for cid in matches:
            if cid not in COUNCIL_IDS:
                raise DataError(file, line, "matches_council_cards", f"'{cid}' is not a council card id of "
                                "council_rewards.csv")
        if len(set(matches)) != len(matches):
            raise DataError(file, line, "matches_council_cards", "a card is listed twice")
        out.append(RewardSymbol(sym, row["meaning"], matches, _source(file, line, row), row.get("notes", ""), line))
    if not out or len(out) > 12:
        raise DataError(file, None, "symbol", f"{len(out)} symbols; 1..12 are supported")
    if sum("GRANDE" in s.matches for s in out) > 1:
        raise DataError(file, None, "matches_council_cards", "more than one symbol matches GRANDE")
    return out


def load_automa_cards(path: Path, config: Config, symbols: list[RewardSymbol]) -> list[AutomaCard]:
    """Read ``automa_cards.csv`` (NOTES I.12.3): a province discard only on cards with no move and
    no flip, symbols of automa_reward_symbols.csv, ids unique, as many cards as config.toml says."""
    file = str(path)
    names = tuple(s.symbol for s in symbols)
    out: list[AutomaCard] = []
    seen: dict[int, int] = {}
    for line, row in _rows(path, ACARD_COLUMNS):
        cid = _int(file, line, row, "card_id", 1, 999)
        if cid in seen:
            raise DataError(file, line, "card_id", f"{cid} repeats line {seen[cid]}")
        seen[cid] = line
        move = _enum(file, line, row, "move_area", MOVE_AREAS) or ""
        flip = _enum(file, line, row, "flip_combo", FLIP_NAMES) or ""
        slot = _int(file, line, row, "province_discard_slot", 0, config.display_size)
        if slot and (move != "none" or flip != "none"):
            raise DataError(file, line, "province_discard_slot", f"{slot}: only cards with no move and no flip "
                            "show a province discard")
        vp = _int(file, line, row, "vp", 0, 9)
        votes = _int(file, line, row, "votes", -9, 9)
        sym = _enum(file, line, row, "reward_symbol", names) or ""
        out.append(AutomaCard(cid, move, flip, slot, vp, votes, sym, row["left_side_text"], _source(file, line, row),
                              row.get("notes", ""), line))
    if len(out) != config.automa_cards:
        raise DataError(file, None, "card_id", f"{len(out)} cards; config.toml automa.automa_cards says "
                        f"{config.automa_cards}")
    for area in ("purple", "green"):
        if not any(c.move_area == area for c in out):
            raise DataError(file, None, "move_area", f"no card moves in {area} (the setup reveal needs some)")
    return out


def load_levels(path: Path) -> list[AutomaLevel]:
    """Read ``automa_levels.csv``: exactly the levels A..F, in that order; glory spaces usable iff advanced."""
    file = str(path)
    out: list[AutomaLevel] = []
    for line, row in _rows(path, LEVEL_COLUMNS):
        lvl = _enum(file, line, row, "level", LEVELS) or ""
        if len(out) >= len(LEVELS) or lvl != LEVELS[len(out)]:
            raise DataError(file, line, "level", f"'{lvl}', expected the levels {', '.join(LEVELS)} in order")
        adv = _flag(file, line, row, "advanced_rules", BOOLEANS)
        glory = _flag(file, line, row, "glory_spaces_usable", BOOLEANS)
        if glory != adv:
            raise DataError(file, line, "glory_spaces_usable", "green spaces are usable exactly when the advanced "
                            "rules are")
        out.append(AutomaLevel(lvl, row["level_ru"], row["name_ru"], _text(file, line, row, "name_en"), adv, glory,
                               _flag(file, line, row, "recommended_first", BOOLEANS), _source(file, line, row),
                               row.get("notes", ""), line))
    if len(out) != len(LEVELS):
        raise DataError(file, None, "level", f"{len(out)} levels; expected {', '.join(LEVELS)}")
    return out


def load_scoring(path: Path, config: Config) -> dict[tuple[str, int], tuple[int, int]]:
    """Read ``automa_scoring.csv``: one row per level A..F and round 1..rounds."""
    file = str(path)
    out: dict[tuple[str, int], tuple[int, int]] = {}
    lines: dict[tuple[str, int], int] = {}
    for line, row in _rows(path, SCORING_COLUMNS):
        lvl = _enum(file, line, row, "level", LEVELS) or ""
        rnd = _int(file, line, row, "round", 1, config.rounds)
        if (lvl, rnd) in out:
            raise DataError(file, line, "round", f"level {lvl} round {rnd} repeats line {lines[lvl, rnd]}")
        lines[lvl, rnd] = line
        _source(file, line, row)
        out[lvl, rnd] = (_int(file, line, row, "vp_bonus", -99, 99), _int(file, line, row, "votes_bonus", -99, 99))
    for lvl in LEVELS:
        for rnd in range(1, config.rounds + 1):
            if (lvl, rnd) not in out:
                raise DataError(file, None, "round", f"no row for level {lvl} round {rnd}")
    return out


def load_track(path: Path, config: Config) -> list[TrackSpace]:
    """Read ``automa_track.csv`` and check its geometry: spaces 0..n-1 in rows of equal width, a
    start space, normal spaces, then parchment and glory spaces where config.toml [automa.track]
    puts them; parchment/glory indices count from 1; a label is the negative distance and every
    unlabelled space follows a labelled one; the distance falls by one every label step."""
    file = str(path)
    out: list[TrackSpace] = []
    for line, row in _rows(path, TRACK_COLUMNS):
        sp = _int(file, line, row, "space", 0, 199)
        if sp != len(out):
            raise DataError(file, line, "space", f"{sp}, expected {len(out)} (spaces numbered from 0 in order)")
        r = _int(file, line, row, "row", 1, 99)
        c = _int(file, line, row, "col", 1, 99)
        kind = _enum(file, line, row, "kind", TRACK_KINDS) or ""
        if sp == 0:
            expect = "start"
        elif sp < config.automa_parchment_first:
            expect = "normal"
        elif sp <= config.automa_parchment_last:
            expect = "parchment"
        else:
            expect = "glory"
        if kind != expect:
            raise DataError(file, line, "kind", f"'{kind}', but config.toml [automa.track] makes space {sp} {expect}")
        label = int_field(file, line, row, "distance_label", -99, -1, optional=True)
        dist = _int(file, line, row, "distance_to_parchment", 0, 99)
        pidx = int_field(file, line, row, "parchment_index", 1, 199, optional=True)
        gidx = int_field(file, line, row, "glory_index", 1, 199, optional=True)
        adv = _flag(file, line, row, "advanced_only", BOOLEANS)
        inside = kind in ("parchment", "glory")
        if inside:
            if dist != 0:
                raise DataError(file, line, "distance_to_parchment", f"{dist}, but space {sp} is {kind}")
            if label is not None:
                raise DataError(file, line, "distance_label", f"must be blank on a {kind} space")
        else:
            if dist < 1:
                raise DataError(file, line, "distance_to_parchment", f"{dist}: space {sp} is outside the parchment")
            if label is not None and -label != dist:
                raise DataError(file, line, "distance_label", f"{label}, but distance_to_parchment is {dist}")
            expect_dist = -(-(config.automa_parchment_first - sp) // config.automa_label_step)
            if sp > 0 and dist != expect_dist:
                raise DataError(file, line, "distance_to_parchment", f"{dist}, expected {expect_dist} "
                                f"(ceil((parchment_first - space) / distance_label_step))")
        want_p = sp - config.automa_parchment_first + 1 if kind == "parchment" else None
        if pidx != want_p:
            raise DataError(file, line, "parchment_index", f"{pidx if pidx is not None else 'blank'}, expected "
                            f"{want_p if want_p is not None else 'blank'}")
        want_g = sp - config.automa_glory_first + 1 if kind == "glory" else None
        if gidx != want_g:
            raise DataError(file, line, "glory_index", f"{gidx if gidx is not None else 'blank'}, expected "
                            f"{want_g if want_g is not None else 'blank'}")
        if adv != (kind == "glory"):
            raise DataError(file, line, "advanced_only", "true exactly on glory spaces")
        out.append(TrackSpace(sp, r, c, kind, label, dist, pidx, gidx, adv, _source(file, line, row),
                              row.get("notes", ""), line))
    if len(out) != config.automa_track_spaces:
        raise DataError(file, None, "space", f"{len(out)} spaces; config.toml automa.track.spaces says "
                        f"{config.automa_track_spaces}")
    if len(out) > 80:
        raise DataError(file, out[80].line, "space", f"{len(out)} spaces; at most 80")
    if out[0].distance_label is None:
        raise DataError(file, out[0].line, "distance_label", "the start space needs a printed distance")
    for prev, cur in pairwise(out):
        if cur.kind == "normal" and cur.distance_label is None and prev.distance_label is None:
            raise DataError(file, cur.line, "distance_label", f"spaces {prev.space} and {cur.space} are both "
                            "unlabelled (a distance is read from the space reached or the one before)")
    width = sum(1 for s in out if s.row == 1)
    for s in out:
        if (s.row - 1) * width + (s.col - 1) != s.space:
            raise DataError(file, s.line, "col", f"row {s.row} col {s.col} is not space {s.space} in rows of {width}")
    return out
