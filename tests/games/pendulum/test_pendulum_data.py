"""Pendulum data files, their loader and the ruleset tables (simlab/games/pendulum/data.py, ruleset.py;
NOTES.md Parts II, III, V)."""

from __future__ import annotations

import csv
import shutil
import tomllib
from pathlib import Path

import numpy as np
import pytest

from simlab.core.datavariants import variant_data
from simlab.core.errors import DataError, OptionError
from simlab.core.options import resolve_options
from simlab.games.pendulum import codes as c
from simlab.games.pendulum import tables as tb
from simlab.games.pendulum.data import COUNCIL_IDS, DATA_DIR, FILE_NAMES, load_data, parse_effect
from simlab.games.pendulum.ruleset import RULE_ARGS, build_ruleset
from simlab.games.pendulum.variants import DATA

HERE = Path(__file__).parent


@pytest.fixture(scope="module")
def data():
    return load_data()


@pytest.fixture(scope="module")
def solo(data):
    return build_ruleset(1, data, {})


# ---------------------------------------------------------------- helpers


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    target.mkdir(parents=True)
    for name in FILE_NAMES.values():
        shutil.copyfile(DATA_DIR / name, target / name)
    return target


def _read(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        return list(reader.fieldnames or []), list(reader)


def _write(path: Path, fields: list[str], rows: list[dict[str, str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def _rows(name: str) -> list[dict[str, str]]:
    return _read(DATA_DIR / name)[1]


def _line(name: str, col: str, value: str) -> int:
    """File line of the first bundled row whose ``col`` is ``value`` (the header is line 1)."""
    return 2 + next(i for i, r in enumerate(_rows(name)) if r[col] == value)


def _edit(folder: Path, name: str, line: int, changes: dict[str, str]) -> None:
    fields, rows = _read(folder / name)
    rows[line - 2].update(changes)
    _write(folder / name, fields, rows)


def _replace(folder: Path, name: str, old: str, new: str) -> None:
    text = (folder / name).read_text(encoding="utf-8")
    assert old in text, old
    (folder / name).write_text(text.replace(old, new, 1), encoding="utf-8")


def _error(folder: Path) -> DataError:
    with pytest.raises(DataError) as info:
        load_data(data_dir=folder)
    assert "\n" not in str(info.value)
    return info.value


def _assert_at(exc: DataError, folder: Path, name: str, line: int | None, column: str | None, *words: str) -> None:
    where = f"{folder / name}:{line}" if line is not None else f"{folder / name}"
    if column:
        where += f": {column}"
    assert str(exc).startswith(f"{where}: "), str(exc)
    for word in words:
        assert word in str(exc), (word, str(exc))


# ---------------------------------------------------------------- the bundled data


def test_bundled_data_loads(data):
    assert len(data.spaces) == 36
    assert len(data.spaces_of("1-3p")) == 16 and len(data.spaces_of("4-5p")) == 20
    assert len(data.characters) == 10 and len(data.stratagems) == 40
    assert [cc.card_id for cc in data.council] == list(COUNCIL_IDS)
    assert len(data.achievements) == 10 and len(data.provinces) == 56
    assert len(data.schedule) == 11 and len(data.automa_cards) == 32
    assert [lv.level for lv in data.levels] == list(tb.LEVELS)
    assert len(data.scoring) == 24 and len(data.track) == 75 and len(data.symbols) == 10
    assert set(data.files) == set(FILE_NAMES)
    assert data.config.timer_seconds == (180, 120, 45)
    assert data.config.reading_order == ("R1", "R2", "R3", "DEFAULT", "GRANDE", "R4", "R5")


def test_sources_and_notes_are_kept(data):
    assert {ac.source for ac in data.automa_cards} == {"reconstructed"}
    assert all(ac.notes for ac in data.automa_cards)
    assert data.levels[3].source == "rulebook" and data.levels[3].name_en == "Automa the Threatening"
    assert {t.source for t in data.track} == {"reconstructed"}
    assert data.council[0].source == "public-source" and "Boardspace" in data.council[0].notes
    assert data.schedule[5].purple_flip_no == 2 and "legendary" in data.schedule[5].notes


def test_booklet_scoring_anchors(data):
    # NOTES IV.2.1: level D, round 2 = +5 VP / +5 votes; round 3 = +10 VP / +9 votes
    assert data.scoring["D", 2] == (5, 5)
    assert data.scoring["D", 3] == (10, 9)


def test_examples_copy_is_present():
    raw = tomllib.loads((HERE / "examples.toml").read_text(encoding="utf-8"))
    ids = [ex["id"] for ex in raw["example"]]
    assert "council_vp_automa1_round2_level_D" in ids and len(ids) == len(set(ids))


# ---------------------------------------------------------------- the token grammar


def test_parse_effect_items():
    e = parse_effect("military:2+culture:3+gold:1+wild:4+votes:5")
    assert e.alts == ((2, 3, 1, 4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),)
    e = parse_effect("vp:power:1+vp:prestige:2+vp:popularity:3+vp:any:4+legendary:1")
    v = e.alts[0]
    assert (v[tb.EF_VP_POW], v[tb.EF_VP_PRE], v[tb.EF_VP_POP], v[tb.EF_VP_ANY], v[tb.EF_LEGENDARY]) == (1, 2, 3, 4, 1)
    e = parse_effect("prod:red+prod:yellow+conquer:1+retrieve:2+recruit:1")
    v = e.alts[0]
    assert v[tb.EF_PROD] == (1 << c.M_RED) | (1 << c.M_YELLOW)
    assert (v[tb.EF_CONQUER], v[tb.EF_RETRIEVE], v[tb.EF_RECRUIT]) == (1, 2, 1)
    assert parse_effect("special:swap_vp").alts[0][tb.EF_SPECIAL] == tb.SP_SWAP_VP
    assert parse_effect("none").is_none and parse_effect("none").alts == ((0,) * tb.EF_FIELDS,)


def test_parse_effect_alternatives():
    e = parse_effect("prod:blue|vp:popularity:1+vp:prestige:1+votes:1")
    assert len(e.alts) == 2 and not e.choice
    assert e.alt_texts == ("prod:blue", "vp:popularity:1+vp:prestige:1+votes:1")
    assert e.alts[0][tb.EF_PROD] == 1 << c.M_BLUE and e.alts[1][tb.EF_VOTES] == 1
    ch = parse_effect("choice:vp:power:2|vp:prestige:2|vp:popularity:2")
    assert ch.choice and len(ch.alts) == 3
    assert [a[tb.EF_VP_POW + k] for k, a in enumerate(ch.alts)] == [2, 2, 2]


@pytest.mark.parametrize(("text", "words"), [
    ("silver:2", ("unknown token 'silver:2'",)),
    ("vp:glory:1", ("unknown track 'glory'",)),
    ("prod:green", ("unknown mat slot 'green'",)),
    ("special:fly", ("unknown special 'fly'",)),
    ("gold:x", ("'x'", "not an integer")),
    ("gold:0", ("outside 1..99",)),
    ("gold:2+none", ("'none' must stand alone",)),
    ("a|b|c|d", ("4 alternatives",)),
    ("choice:gold:1", ("at least 2 alternatives",)),
    ("gold:1+choice:gold:1|gold:2", ("may only start",)),
    ("gold:1++gold:2", ("empty item",)),
    ("prod:red+prod:red", ("appears twice",)),
    ("legendary:2", ("legendary:1",)),
    ("", ("value is empty",)),
])
def test_parse_effect_errors(text, words):
    with pytest.raises(DataError) as info:
        parse_effect(text, "f.csv", 7, "cost")
    message = str(info.value)
    assert message.startswith("f.csv:7: cost: ") and "\n" not in message
    for w in words:
        assert w in message, message


# ---------------------------------------------------------------- ruleset tables against the CSVs


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_spaces_table(data, n):
    rules = build_ruleset(n, data, {})
    t = rules.t
    side = "1-3p" if n <= 3 else "4-5p"
    rows = [r for r in _rows("action_spaces.csv") if r["board_side"] == side]
    assert int(t["n_spaces"]) == len(rows) == rules.n_spaces
    for d, r in enumerate(rows):
        sp = t["sp"][d]
        assert rules.space_id(d) == r["space_id"] and rules.space_index(r["space_id"]) == d
        assert c.TIMER_NAMES[sp[tb.SP_AREA]] == r["area"]
        assert c.ROW_NAMES[sp[tb.SP_ROW]] == r["row"]
        assert sp[tb.SP_POS] == int(r["pos_lr"])
        assert tb.FRAME_NAMES[sp[tb.SP_FRAME]] == r["frame"]
        alts = r["rewards"].split("|")
        assert sp[tb.SP_NALT] == len(alts)
        assert rules.effect_text(sp[tb.SP_REWARD0]) == alts[0]
        assert rules.effect_text(sp[tb.SP_REWARD1]) == (alts[1] if len(alts) > 1 else "none")
        assert rules.effect_text(sp[tb.SP_COST]) == r["cost"]
        assert sp[tb.SP_COMMON_BLOCKED] == (r["common_blocked"] == "yes")
        size = r["automa_space_size"]
        assert sp[tb.SP_AUTOMA_LARGE] == (-1 if size == "" else int(size == "large"))
        assert sp[tb.SP_NEUTRAL] == (n == 2 and r["neutral_2p"] != "")
        assert sp[tb.SP_HAS_PROD] == ("prod:" in r["rewards"])
    assert not t["sp"][len(rows):].any()
    assert rules.space_id(c.W_MAT) == "mat" and rules.space_id(c.DEST_MAT) == "mat"
    with pytest.raises(ValueError, match="not a space"):
        rules.space_index("4-5p:green:top:2" if n <= 3 else "1-3p:green:top:1")


def test_neutral_spaces_two_players(data):
    rules = build_ruleset(2, data, {})
    spaces = [rules.space_id(int(d)) for d in rules.t["neutral_spaces"]]
    assert sorted(spaces) == sorted(data.config.neutral_spaces)
    for n in (1, 3, 4, 5):
        assert list(build_ruleset(n, data, {}).t["neutral_spaces"]) == [-1] * 4


def test_priv_bonus_by_player_count(data):
    for n in (1, 2, 3):
        assert list(build_ruleset(n, data, {}).t["priv_bonus"]) == [2, 1, 0, 0, 0]
    for n in (4, 5):
        assert list(build_ruleset(n, data, {}).t["priv_bonus"]) == [2, 1, 1, 0, 0]


def test_mirror_rows(data):
    plain = build_ruleset(1, data, {})
    mirrored = build_ruleset(1, data, {"mirror_rows": True})
    for d in range(plain.n_spaces):
        a, b = plain.t["sp"][d], mirrored.t["sp"][d]
        if a[tb.SP_AREA] == c.T_BLACK:
            assert b[tb.SP_POS] == a[tb.SP_POS]
        else:
            assert b[tb.SP_POS] == 1 - a[tb.SP_POS]
    assert mirrored.t["opts"][c.OPT_MIRROR_ROWS] == 1
    # on the 4-5p side the rows are not mirrored (NOTES II.6 is about the 1-3p board)
    four = build_ruleset(4, data, {"mirror_rows": True})
    assert np.array_equal(four.t["sp"], build_ruleset(4, data, {}).t["sp"])


def test_characters_table(solo):
    t = solo.t
    rows = _rows("characters.csv")
    assert int(t["n_chars"]) == len(rows)
    groups: list[str] = []
    for i, r in enumerate(rows):
        ch = t["ch"][i]
        assert solo.character_name(i) == f"{r['character']}, {r['persona']}"
        assert list(ch[tb.CH_START_POW:tb.CH_START_POP + 1]) == [int(r[f"start_{k}"]) for k in c.TRACK_NAMES]
        assert list(ch[tb.CH_STEPS_POW:tb.CH_STEPS_POP + 1]) == [int(r[f"steps_{k}"]) for k in c.TRACK_NAMES]
        assert list(ch[tb.CH_START_MIL:tb.CH_START_GOLD + 1]) == [
            int(r["start_military"]), int(r["start_culture"]), int(r["start_gold"])]
        assert ch[tb.CH_START_VOTES] == int(r["start_votes"])
        for m, slot in enumerate(c.SLOT_NAMES):
            assert solo.effect_text(ch[tb.CH_PROD0 + m]) == r[f"prod_{slot}"]
        assert ch[tb.CH_ADVANCED] == (r["side"] == "advanced")
        if r["character"] not in groups:
            groups.append(r["character"])
        assert ch[tb.CH_GROUP] == groups.index(r["character"])
        first = t["st"][ch[tb.CH_STRAT0]]
        assert first[tb.ST_OWNER] == i
        assert solo.strat_name(ch[tb.CH_STRAT0]) == f"{r['character']}, {r['persona']} #1"
    assert solo.character_row("Mesoat, The Pacifist") == 9


def test_stratagem_table(solo):
    t = solo.t
    rows = _rows("stratagems.csv")
    council = [r for r in _rows("council_rewards.csv") if r["kind"] == "stratagem"]
    assert int(t["n_strats"]) == len(rows) + len(council) == 55
    for i, r in enumerate(rows):
        st = t["st"][i]
        assert solo.character_name(st[tb.ST_OWNER]) == f"{r['character']}, {r['persona']}"
        assert solo.effect_text(st[tb.ST_COST]) == r["cost"]
        assert solo.effect_text(st[tb.ST_EFFECT]) == r["effect"]
        assert st[tb.ST_COUNCIL] == -1
        want = (tb.NEED_RETRIEVABLE if "retrieve:" in r["effect"] else tb.NEED_RECRUIT if "recruit:" in r["effect"]
                else tb.NEED_WORKER_ACTION if r["effect"] in ("special:adjacent_action", "special:double_action")
                else tb.NEED_NONE)
        assert st[tb.ST_NEEDS] == want, r
    for k, r in enumerate(council):
        i = len(rows) + k
        st = t["st"][i]
        assert st[tb.ST_OWNER] == -1 and solo.council_id(st[tb.ST_COUNCIL]) == r["card_id"]
        assert solo.strat_name(i) == f"council {r['card_id']}"
        assert t["co"][st[tb.ST_COUNCIL]][tb.CO_STRAT] == i
        assert solo.effect_text(st[tb.ST_EFFECT]) == r["effect"]
    free = solo.strat_index("council 19")
    assert t["st"][free][tb.ST_NEEDS] == tb.NEED_WORKER_ACTION
    assert t["st"][solo.strat_index("council 15")][tb.ST_NEEDS] == tb.NEED_RETRIEVABLE


def test_council_table(solo):
    t = solo.t
    rows = {r["card_id"]: r for r in _rows("council_rewards.csv")}
    for ci, cid in enumerate(COUNCIL_IDS):
        r, co = rows[cid], t["co"][ci]
        assert solo.council_id(ci) == cid and solo.council_index(cid) == ci
        assert co[tb.CO_DECK] == ("standard", "final", "fixed").index(r["deck"])
        assert tb.COUNCIL_KINDS[co[tb.CO_KIND]] == r["kind"]
        assert solo.effect_text(co[tb.CO_COST]) == r["cost"]
        assert solo.effect_text(co[tb.CO_EFFECT]) == r["effect"]
        assert (co[tb.CO_STRAT] >= 0) == (r["kind"] == "stratagem")
    track = {cid: int(t["co"][solo.council_index(cid)][tb.CO_TRACK]) for cid in ("F1", "F2", "F3", "F4", "F5", "7")}
    assert track == {"F1": 3, "F2": c.K_POPULARITY, "F3": c.K_POWER, "F4": c.K_PRESTIGE, "F5": -1, "7": -1}
    assert solo.council_index("GRANDE") == tb.C_GRANDE and solo.council_index("DEFAULT") == tb.C_DEFAULT
    assert solo.council_index(12) == 11
    with pytest.raises(ValueError, match="not a council card"):
        solo.council_index("F6")


def test_council_card_6_kind(data):
    base = build_ruleset(3, data, {})
    imm = build_ruleset(3, data, {"council_card_6_kind": "immediate"})
    six = base.council_index("6")
    assert base.t["co"][six][tb.CO_KIND] == tb.CK_STRATAGEM and base.t["co"][six][tb.CO_STRAT] >= 0
    assert imm.t["co"][six][tb.CO_KIND] == tb.CK_IMMEDIATE and imm.t["co"][six][tb.CO_STRAT] == -1
    assert int(imm.t["n_strats"]) == int(base.t["n_strats"]) - 1
    assert "council 6" not in [imm.strat_name(i) for i in range(int(imm.t["n_strats"]))]
    assert imm.t["opts"][c.OPT_CARD6_IMMEDIATE] == 1 and base.t["opts"][c.OPT_CARD6_IMMEDIATE] == 0


def test_warmonger_blue_production(data):
    row = data.character_row("Bolk", "The Warmonger")
    for text in ("military:3+gold:2", "military:3+gold:1", "military:3+gold:3"):
        rules = build_ruleset(1, data, {"warmonger_blue_production": text})
        e = int(rules.t["ch"][row][tb.CH_PROD0 + c.M_BLUE])
        assert rules.effect_text(e) == text
        assert rules.t["eff"][e, 0, tb.EF_GOLD] == int(text[-1]) and rules.t["eff"][e, 0, tb.EF_MIL] == 3
    # the Champion's blue slot is untouched
    champion = data.character_row("Bolk", "The Champion")
    rules = build_ruleset(1, data, {"warmonger_blue_production": "military:3+gold:3"})
    assert rules.effect_text(rules.t["ch"][champion][tb.CH_PROD0 + c.M_BLUE]) == "culture:5"


def test_effects_table(solo):
    t = solo.t
    assert solo.effect_text(0) == "none" and t["eff_nalt"][0] == 1 and not t["eff"][0].any()
    n = int(t["n_eff"])
    assert 1 < n <= tb.MAX_EFFECTS
    for e in range(n):
        parsed = parse_effect(solo.effect_text(e))
        assert t["eff_nalt"][e] == len(parsed.alts)
        for a, vec in enumerate(parsed.alts):
            assert tuple(t["eff"][e, a]) == vec
    assert not t["eff"][n:].any() and not t["eff_nalt"][n:].any()
    alch = solo.strat_index("Licinia, The Alchemist #1")
    assert t["eff_nalt"][t["st"][alch][tb.ST_EFFECT]] == 3


def test_achievements_and_provinces(solo):
    t = solo.t
    ach = _rows("achievements.csv")
    assert int(t["n_ach"]) == len(ach)
    for i, r in enumerate(ach):
        assert solo.achievement_id(i) == int(r["card_id"])
        assert solo.effect_text(t["ach"][i][0]) == r["requirement"]
        assert solo.effect_text(t["ach"][i][1]) == r["ribbon_reward"]
    prov = _rows("provinces.csv")
    assert int(t["n_prov"]) == len(prov)
    for i, r in enumerate(prov):
        assert solo.province_id(i) == int(r["card_no"])
        for m, slot in enumerate(c.SLOT_NAMES):
            assert solo.effect_text(t["prov"][i][m]) == r[f"yield_{slot}"]


def test_automa_tables(solo):
    t = solo.t
    syms = [r["symbol"] for r in _rows("automa_reward_symbols.csv")]
    for i, r in enumerate(_rows("automa_cards.csv")):
        ac = t["acard"][i]
        assert solo.acard_id(i) == int(r["card_id"]) and solo.acard_index(int(r["card_id"])) == i
        assert ac[tb.AC_MOVE] == (-1 if r["move_area"] == "none" else c.TIMER_NAMES.index(r["move_area"]))
        assert tb.FLIP_NAMES[ac[tb.AC_FLIP]] == r["flip_combo"]
        assert ac[tb.AC_DISCARD] == int(r["province_discard_slot"])
        assert (ac[tb.AC_VP], ac[tb.AC_VOTES]) == (int(r["vp"]), int(r["votes"]))
        assert syms[ac[tb.AC_SYMBOL]] == r["reward_symbol"]
    assert int(t["n_sym"]) == len(syms)
    for k, r in enumerate(_rows("automa_reward_symbols.csv")):
        assert solo.symbol_name(k) == r["symbol"]
        want = {solo.council_index(x) for x in r["matches_council_cards"].split(";")}
        assert set(np.nonzero(t["sym_match"][k])[0].tolist()) == want
    assert syms[int(t["sym_grande"])] == "grande"
    # every standard card and the grande card is matched by exactly one symbol (NOTES IV.1.4)
    per_card = t["sym_match"][:len(syms)].sum(axis=0)
    assert per_card[:tb.N_STANDARD].tolist() == [1] * tb.N_STANDARD and per_card[tb.C_GRANDE] == 1
    for r in _rows("automa_scoring.csv"):
        li = tb.LEVELS.index(r["level"])
        assert tuple(t["scoring"][li, int(r["round"]) - 1]) == (int(r["vp_bonus"]), int(r["votes_bonus"]))
    assert list(t["lvl_adv"]) == [0, 0, 0, 1, 1, 1]


def test_track_and_schedule_tables(solo):
    t = solo.t
    rows = _rows("automa_track.csv")
    assert int(t["n_track"]) == len(rows) == 75
    for i, r in enumerate(rows):
        tr = t["trk"][i]
        assert tb.TRACK_KINDS[tr[tb.TR_KIND]] == r["kind"]
        assert tr[tb.TR_LABEL] == int(r["distance_label"] or 0)
        assert tr[tb.TR_DIST] == int(r["distance_to_parchment"])
        assert tr[tb.TR_PIDX] == int(r["parchment_index"] or 0)
        assert tr[tb.TR_GIDX] == int(r["glory_index"] or 0)
    assert t["trk"][31][tb.TR_PIDX] == 1 and t["trk"][54][tb.TR_PIDX] == 24 and t["trk"][74][tb.TR_GIDX] == 20
    assert t["trk"][0][tb.TR_LABEL] == -16 and t["trk"][29][tb.TR_LABEL] == -1
    sched = _rows("timer_schedule.csv")
    assert int(t["n_sched"]) == len(sched) == 11
    for k, r in enumerate(sched):
        mask = sum(1 << c.TIMER_NAMES.index(x) for x in r["due_timers"].split(";"))
        assert tuple(t["sched"][k][:3]) == (int(r["virtual_time_s"]), mask, int(r["purple_flip_no"] or 0))
    assert list(t["timer_s"]) == [180, 120, 45]


def test_tables_record(solo):
    assert RULE_ARGS == ("tables",)
    assert solo.tables.shape == (1,) and solo.tables.dtype == tb.TABLES_DTYPE
    assert solo.args == (solo.tables,)
    assert solo.level_letter() == "B" and solo.board_side == "1-3p"
    assert build_ruleset(4, solo.data, {}).board_side == "4-5p"


def test_player_count_is_checked(data):
    for n in (0, 6):
        with pytest.raises(OptionError, match="1 \\(solo\\) to 5"):
            build_ruleset(n, data, {})


# ---------------------------------------------------------------- options


def test_options_cover_every_open_point(data):
    opts = data.options
    for name, default in (("time_model", "schedule"), ("auto_flip_order", "green,black,purple"),
                          ("automa_level", "B"), ("council_card_6_kind", "stratagem"),
                          ("warmonger_blue_production", "military:3+gold:2"), ("character_side", "basic"),
                          ("advanced_variant", "none"), ("parchment_counting", "occupied"),
                          ("council_reading_order", "R1,R2,R3,DEFAULT,GRANDE,R4,R5"),
                          ("human_action_median_s", 2.5), ("simultaneity_window_s", 1.0)):
        assert opts[name].default == default, name
    points = {o.open_point for o in opts.values()}
    for k in range(1, 22):
        if k == 19 or k == 21:
            continue
        assert f"II.{k}" in points, k
    assert "II.19" in points and "II.21" in points
    for name in ("human_action_median_s", "human_action_sigma", "human_flip_delay_median_s",
                 "human_flip_delay_sigma", "automa_card_resolution_s", "simultaneity_window_s"):
        assert 2 <= len(opts[name].allowed) <= 6 and opts[name].default in opts[name].allowed
    assert all(o.description for o in opts.values())


def test_option_validation(data):
    with pytest.raises(OptionError, match="unknown option 'automa_levle'"):
        build_ruleset(1, data, {"automa_levle": "C"})
    with pytest.raises(OptionError, match="'G' is not allowed"):
        build_ruleset(1, data, {"automa_level": "G"})
    with pytest.raises(OptionError, match="not allowed"):
        build_ruleset(1, data, {"auto_flip_order": "green,green,purple"})
    with pytest.raises(OptionError, match="not allowed"):
        build_ruleset(1, data, {"human_action_median_s": 3.3})
    full = resolve_options(data.options, {"automa_level": "E"})
    assert build_ruleset(1, data, full).options == full


def test_default_opts_array(solo):
    o = solo.t["opts"]
    assert len(o) == c.N_OPTS and o.dtype == np.int64
    assert o[c.OPT_TIME_MODEL] == c.TM_SCHEDULE and o[c.OPT_LEVEL] == 1 and o[c.OPT_SOLO] == 1
    assert (o[c.OPT_ROUNDS], o[c.OPT_RES_CAP], o[c.OPT_MAX_WORKERS], o[c.OPT_ACTION_GOLD]) == (4, 10, 4, 2)
    assert (o[c.OPT_CONQUER_MILITARY], o[c.OPT_PICKUP_CULTURE], o[c.OPT_PROV_LIMIT], o[c.OPT_PROV_LIMIT_MAX3]) == (
        4, 5, 2, 3)
    assert (o[c.OPT_TRACK_LAST], o[c.OPT_PARCHMENT_FIRST], o[c.OPT_NEUTRAL_VOTES]) == (21, 14, 3)
    assert (o[c.OPT_AUTOMA_PARCHMENT_FIRST], o[c.OPT_AUTOMA_PARCHMENT_LAST], o[c.OPT_AUTOMA_GLORY_LAST],
            o[c.OPT_VOTES_CAP]) == (31, 54, 74, 20)
    assert (o[c.OPT_HUMAN_MS], o[c.OPT_HUMAN_SIGMA_PM], o[c.OPT_FLIP_MS], o[c.OPT_FLIP_SIGMA_PM],
            o[c.OPT_AUTOMA_CARD_MS], o[c.OPT_SIMUL_MS]) == (2500, 500, 1500, 600, 4000, 1000)
    assert list(o[c.OPT_TRACK_ORDER0:c.OPT_TRACK_ORDER0 + 3]) == [c.K_POWER, c.K_PRESTIGE, c.K_POPULARITY]
    assert list(o[c.OPT_FINAL_PREF0:c.OPT_FINAL_PREF0 + 5]) == [c.FP_WORST, c.FP_ALL, c.FP_SECOND, c.FP_THIRD,
                                                                c.FP_DEFAULT]
    assert list(o[c.OPT_AUTO_ORDER0:c.OPT_AUTO_ORDER0 + 3]) == [c.T_GREEN, c.T_BLACK, c.T_PURPLE]
    assert list(o[c.OPT_READ_ORDER0:c.OPT_READ_ORDER0 + 7]) == [0, 1, 2, c.CS_DEFAULT, c.CS_GRANDE, 3, 4]
    assert o[c.OPT_RECHOOSE] == 1 and o[c.OPT_ADVANCED] == 0 and o[c.OPT_CHARACTER_SIDE] == 0
    for k in (c.OPT_AUTO_FLIP_AS_HUMAN, c.OPT_DELAYED_FLIPS, c.OPT_OMEN, c.OPT_SETUP_SAME_CARD, c.OPT_MIRROR_ROWS,
              c.OPT_FLIP_AFTER_COUNCIL, c.OPT_PARCHMENT_BEYOND_ENTRY, c.OPT_OUTSIDE_PRIVILEGE_ONLY,
              c.OPT_CARD6_IMMEDIATE, c.OPT_WARMONGER_CONVERT):
        assert o[k] == 0, k
    assert build_ruleset(3, solo.data, {}).t["opts"][c.OPT_SOLO] == 0


def test_non_default_opts_array(data):
    rules = build_ruleset(1, data, {
        "time_model": "timed", "auto_flip_order": "purple,black,green", "auto_flips_count_as_human_flips": True,
        "allow_delayed_flips": True, "automa_level": "E", "omen_variant": True, "setup_reveal": "same_card",
        "mirror_rows": True, "track_order_on_mat": "popularity,power,prestige", "parchment_counting": "beyond_entry",
        "outside_parchment_tiebreak": "privilege_only", "warmonger_exchange": "convert_any_1to1",
        "character_side": "random", "human_action_median_s": 4.0, "human_action_sigma": 0.0,
        "human_flip_delay_median_s": 0.5, "human_flip_delay_sigma": 1.0, "automa_card_resolution_s": 8.0,
        "simultaneity_window_s": 0.5,
        "final_council_preference": "worst_track_card,second_worst_track_card,third_worst_track_card,"
                                    "all_tracks_card,default_vp",
        "council_reading_order": "R1,R2,R3,R4,R5,GRANDE,DEFAULT",
    })
    o = rules.t["opts"]
    assert o[c.OPT_TIME_MODEL] == c.TM_TIMED and o[c.OPT_LEVEL] == 4 and rules.level_letter() == "E"
    for k in (c.OPT_AUTO_FLIP_AS_HUMAN, c.OPT_DELAYED_FLIPS, c.OPT_OMEN, c.OPT_SETUP_SAME_CARD, c.OPT_MIRROR_ROWS,
              c.OPT_PARCHMENT_BEYOND_ENTRY, c.OPT_OUTSIDE_PRIVILEGE_ONLY, c.OPT_WARMONGER_CONVERT):
        assert o[k] == 1, k
    assert list(o[c.OPT_AUTO_ORDER0:c.OPT_AUTO_ORDER0 + 3]) == [c.T_PURPLE, c.T_BLACK, c.T_GREEN]
    assert list(o[c.OPT_TRACK_ORDER0:c.OPT_TRACK_ORDER0 + 3]) == [c.K_POPULARITY, c.K_POWER, c.K_PRESTIGE]
    assert list(o[c.OPT_FINAL_PREF0:c.OPT_FINAL_PREF0 + 5]) == [c.FP_WORST, c.FP_SECOND, c.FP_THIRD, c.FP_ALL,
                                                                c.FP_DEFAULT]
    assert list(o[c.OPT_READ_ORDER0:c.OPT_READ_ORDER0 + 7]) == [0, 1, 2, 3, 4, c.CS_GRANDE, c.CS_DEFAULT]
    assert (o[c.OPT_HUMAN_MS], o[c.OPT_HUMAN_SIGMA_PM], o[c.OPT_FLIP_MS], o[c.OPT_FLIP_SIGMA_PM],
            o[c.OPT_AUTOMA_CARD_MS], o[c.OPT_SIMUL_MS]) == (4000, 0, 500, 1000, 8000, 500)
    assert o[c.OPT_CHARACTER_SIDE] == 2
    # level E imposes the advanced variant on the solo human (NOTES I.12.12)
    assert o[c.OPT_ADVANCED] == 1


def test_advanced_variant_option(data):
    for n, opts, want in ((1, {"automa_level": "C"}, 0), (1, {"automa_level": "D"}, 1),
                          (1, {"automa_level": "A", "advanced_variant": "all"}, 1),
                          (3, {"automa_level": "F"}, 0), (4, {"advanced_variant": "all"}, 1)):
        assert build_ruleset(n, data, opts).t["opts"][c.OPT_ADVANCED] == want, (n, opts)
    assert build_ruleset(1, data, {"character_side": "advanced"}).t["opts"][c.OPT_CHARACTER_SIDE] == 1


# ---------------------------------------------------------------- data variants


def test_variants_replace_a_file(tmp_path):
    assert DATA.game == "pendulum" and set(DATA.stems) == set(FILE_NAMES)
    folder = _copy(tmp_path)
    _replace(folder, "automa_cards.csv", "\n12,green,none,0,2,-1,production,", "\n12,green,none,0,1,-1,production,")
    data = variant_data(DATA, {"automa_cards": folder / "automa_cards.csv"})
    card = next(ac for ac in data.automa_cards if ac.card_id == 12)
    assert card.vp == 1
    assert variant_data(DATA).automa_cards[11].vp == 2


def test_loader_replaces_single_files(tmp_path):
    folder = _copy(tmp_path)
    data = load_data(achievements=folder / "achievements.csv")
    assert data.files["achievements"] == str(folder / "achievements.csv")
    with pytest.raises(TypeError, match="unknown data files"):
        load_data(nonsense="x.csv")


# ---------------------------------------------------------------- bad input: one line naming file, row, field


def test_missing_file_and_column(tmp_path):
    folder = _copy(tmp_path)
    (folder / "provinces.csv").unlink()
    _assert_at(_error(folder), folder, "provinces.csv", None, None, "file not found")
    folder = _copy(tmp_path / "b")
    fields, rows = _read(folder / "characters.csv")
    fields.remove("steps_power")
    for r in rows:
        del r["steps_power"]
    _write(folder / "characters.csv", fields, rows)
    _assert_at(_error(folder), folder, "characters.csv", 1, "steps_power", "missing")


def test_unknown_token_in_rewards(tmp_path):
    folder = _copy(tmp_path)
    line = _line("action_spaces.csv", "space_id", "1-3p:black:top:1")
    _edit(folder, "action_spaces.csv", line, {"rewards": "votes:1+silver:1"})
    _assert_at(_error(folder), folder, "action_spaces.csv", line, "rewards", "unknown token 'silver:1'")


def test_unknown_special_in_stratagem(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder, "stratagems.csv", 7, {"effect": "special:teleport"})
    _assert_at(_error(folder), folder, "stratagems.csv", 7, "effect", "unknown special 'teleport'")


def test_bad_cost_in_council(tmp_path):
    folder = _copy(tmp_path)
    line = _line("council_rewards.csv", "card_id", "F2")
    _edit(folder, "council_rewards.csv", line, {"cost": "gold:five"})
    _assert_at(_error(folder), folder, "council_rewards.csv", line, "cost", "'five'", "not an integer")


def test_double_frame_needs_two_rewards(tmp_path):
    folder = _copy(tmp_path)
    line = _line("action_spaces.csv", "space_id", "1-3p:green:top:0")
    _edit(folder, "action_spaces.csv", line, {"rewards": "vp:popularity:2"})
    _assert_at(_error(folder), folder, "action_spaces.csv", line, "rewards", "double frame needs 2")


def test_space_id_must_match_columns(tmp_path):
    folder = _copy(tmp_path)
    line = _line("action_spaces.csv", "space_id", "4-5p:green:top:1")
    _edit(folder, "action_spaces.csv", line, {"pos_lr": "2"})
    _assert_at(_error(folder), folder, "action_spaces.csv", line, "space_id", "does not read 4-5p:green:top:2")


def test_space_cost_must_agree_with_config(tmp_path):
    folder = _copy(tmp_path)
    line = _line("action_spaces.csv", "space_id", "4-5p:purple:top:0")
    _edit(folder, "action_spaces.csv", line, {"cost": "gold:3"})
    _assert_at(_error(folder), folder, "action_spaces.csv", line, "cost", "cost gold:2")
    folder = _copy(tmp_path / "b")
    line = _line("action_spaces.csv", "space_id", "1-3p:black:top:2")
    _edit(folder, "action_spaces.csv", line, {"cost": "military:3"})
    _assert_at(_error(folder), folder, "action_spaces.csv", line, "cost", "military:4")


def test_neutral_spaces_cross_checked(tmp_path):
    folder = _copy(tmp_path)
    _replace(folder, "config.toml", '"1-3p:green:top:1", ', '"1-3p:green:top:7", ')
    _assert_at(_error(folder), folder, "config.toml", None, "base.two_player.neutral_worker_spaces",
               "'1-3p:green:top:7' is not a space_id")
    folder = _copy(tmp_path / "b")
    line = _line("action_spaces.csv", "space_id", "1-3p:green:top:1")
    _edit(folder, "action_spaces.csv", line, {"neutral_2p": ""})
    _assert_at(_error(folder), folder, "action_spaces.csv", line, "neutral_2p", "is not marked")


def test_character_steps_must_reach_parchment(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder, "characters.csv", 3, {"steps_prestige": "6"})
    _assert_at(_error(folder), folder, "characters.csv", 3, "steps_prestige", "parchment starts at 14")
    folder = _copy(tmp_path / "b")
    _edit(folder, "characters.csv", 2, {"start_power": "x"})
    _assert_at(_error(folder), folder, "characters.csv", 2, "start_power", "not an integer")


def test_stratagem_persona_must_exist(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder, "stratagems.csv", 5, {"persona": "The Pirate"})
    _assert_at(_error(folder), folder, "stratagems.csv", 5, "persona", "not a persona of characters.csv")
    folder = _copy(tmp_path / "b")
    _edit(folder, "stratagems.csv", 4, {"card_no": "4"})
    _assert_at(_error(folder), folder, "stratagems.csv", 4, "card_no", "expected 3")


def test_council_ids_and_kinds(tmp_path):
    folder = _copy(tmp_path)
    line = _line("council_rewards.csv", "card_id", "F3")
    _edit(folder, "council_rewards.csv", line, {"kind": "immediate"})
    _assert_at(_error(folder), folder, "council_rewards.csv", line, "kind", "not allowed for card F3")
    folder = _copy(tmp_path / "b")
    line = _line("council_rewards.csv", "card_id", "25")
    _edit(folder, "council_rewards.csv", line, {"card_id": "24"})
    _assert_at(_error(folder), folder, "council_rewards.csv", line, "card_id", "'24' repeats")


def test_symbols_refer_to_council_cards(tmp_path):
    folder = _copy(tmp_path)
    line = _line("automa_reward_symbols.csv", "symbol", "votes")
    _edit(folder, "automa_reward_symbols.csv", line, {"matches_council_cards": "11;26"})
    _assert_at(_error(folder), folder, "automa_reward_symbols.csv", line, "matches_council_cards",
               "'26' is not a council card id")


def test_automa_card_fields(tmp_path):
    folder = _copy(tmp_path)
    line = _line("automa_cards.csv", "card_id", "2")
    _edit(folder, "automa_cards.csv", line, {"province_discard_slot": "2"})
    _assert_at(_error(folder), folder, "automa_cards.csv", line, "province_discard_slot", "only cards with no move")
    folder = _copy(tmp_path / "b")
    _edit(folder, "automa_cards.csv", line, {"reward_symbol": "dragon"})
    _assert_at(_error(folder), folder, "automa_cards.csv", line, "reward_symbol", "'dragon' is not allowed")
    folder = _copy(tmp_path / "c")
    _edit(folder, "automa_cards.csv", line, {"votes": "12"})
    _assert_at(_error(folder), folder, "automa_cards.csv", line, "votes", "outside -9..9")
    folder = _copy(tmp_path / "d")
    _edit(folder, "automa_cards.csv", line, {"flip_combo": "green>black"})
    _assert_at(_error(folder), folder, "automa_cards.csv", line, "flip_combo", "not allowed")


def test_automa_levels_and_scoring(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder, "automa_levels.csv", 3, {"level": "D"})
    _assert_at(_error(folder), folder, "automa_levels.csv", 3, "level", "expected the levels")
    folder = _copy(tmp_path / "b")
    fields, rows = _read(folder / "automa_scoring.csv")
    _write(folder / "automa_scoring.csv", fields, [r for r in rows if (r["level"], r["round"]) != ("C", "3")])
    _assert_at(_error(folder), folder, "automa_scoring.csv", None, "round", "no row for level C round 3")


def test_track_geometry(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder, "automa_track.csv", 2 + 31, {"kind": "normal"})
    _assert_at(_error(folder), folder, "automa_track.csv", 33, "kind", "makes space 31 parchment")
    folder = _copy(tmp_path / "b")
    _edit(folder, "automa_track.csv", 2 + 40, {"parchment_index": "11"})
    _assert_at(_error(folder), folder, "automa_track.csv", 42, "parchment_index", "expected 10")
    folder = _copy(tmp_path / "c")
    _edit(folder, "automa_track.csv", 2 + 5, {"distance_label": "-12"})
    _assert_at(_error(folder), folder, "automa_track.csv", 7, "distance_label", "distance_to_parchment is 13")
    folder = _copy(tmp_path / "d")
    _edit(folder, "automa_track.csv", 2 + 5, {"distance_label": ""})
    _assert_at(_error(folder), folder, "automa_track.csv", 7, "distance_label", "both unlabelled")
    folder = _copy(tmp_path / "e")
    _replace(folder, "config.toml", "parchment_first = 31", "parchment_first = 29")
    _assert_at(_error(folder), folder, "automa_track.csv", 3, "distance_to_parchment", "expected 14")


def test_schedule_against_timer_durations(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder, "timer_schedule.csv", 2 + 3, {"virtual_time_s": "125"})
    _assert_at(_error(folder), folder, "timer_schedule.csv", 5, "virtual_time_s", "runs out at 120 s")
    folder = _copy(tmp_path / "b")
    _edit(folder, "timer_schedule.csv", 2 + 5, {"due_timers": "black"})
    _assert_at(_error(folder), folder, "timer_schedule.csv", 7, "due_timers", "are purple;black")
    folder = _copy(tmp_path / "c")
    _edit(folder, "timer_schedule.csv", 2 + 5, {"purple_flip_no": "3"})
    _assert_at(_error(folder), folder, "timer_schedule.csv", 7, "purple_flip_no", "purple flip 2")
    folder = _copy(tmp_path / "d")
    _replace(folder, "config.toml", "green = 120", "green = 100")
    _assert_at(_error(folder), folder, "timer_schedule.csv", 5, "virtual_time_s", "runs out at 100 s")


def test_config_errors(tmp_path):
    folder = _copy(tmp_path)
    _replace(folder, "config.toml", "rounds = 4\n", "")
    _assert_at(_error(folder), folder, "config.toml", None, "base.rounds", "key is missing")
    folder = _copy(tmp_path / "b")
    _replace(folder, "config.toml", "[base.track]", "[base.track")
    _assert_at(_error(folder), folder, "config.toml", None, None, "not valid TOML")


def test_options_file_errors(tmp_path):
    folder = _copy(tmp_path)
    _replace(folder, "options.toml", "[options.omen_variant]", "[options.omen_variantx]")
    _assert_at(_error(folder), folder, "options.toml", None, "options.omen_variant", "option is missing")
    folder = _copy(tmp_path / "b")
    _replace(folder, "options.toml", '"green,black,purple", "green,purple,black"', '"green,black,purple", "green,pink"')
    _assert_at(_error(folder), folder, "options.toml", None, "options.auto_flip_order", "'green,pink'")
    folder = _copy(tmp_path / "c")
    _replace(folder, "options.toml", '"military:3+gold:1"', '"military:3+gold:1|gold:9"')
    _assert_at(_error(folder), folder, "options.toml", None, "options.warmonger_blue_production",
               "without alternatives")
    folder = _copy(tmp_path / "d")
    _replace(folder, "options.toml", 'allowed = [2.5, 1.0,', 'allowed = [2.5, -1.0,')
    _assert_at(_error(folder), folder, "options.toml", None, "options.human_action_median_s", "not a number")
