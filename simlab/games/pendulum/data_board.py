"""Loading Pendulum's board: ``config.toml``, ``action_spaces.csv`` and ``timer_schedule.csv`` (NOTES Part V).

``load_config`` reads the fixed parameters; ``load_spaces`` both board sides, one row per action space (rewards,
cost, frame, blocking), with the geometry and the 2-player neutral checked; ``load_schedule`` the schedule model's
steps.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from simlab.core.datafiles import int_field, read_text_file
from simlab.core.errors import DataError
from simlab.games.pendulum.codes import (
    COUNCIL_SLOT_NAMES,
    MAX_SPACES,
    TIMER_NAMES,
)
from simlab.games.pendulum.data_fields import (
    YES_NO,
    _effect,
    _enum,
    _flag,
    _int,
    _rows,
    _source,
    _text,
)
from simlab.games.pendulum.data_grammar import (
    effect_vector_text,
)
from simlab.games.pendulum.data_records import (
    Config,
    ScheduleStep,
    Space,
)
from simlab.games.pendulum.tables import (
    EF_CONQUER,
    N_AUTOMA_CARDS,
    N_STANDARD,
)

AUTOMA_SIZES = ("small", "large")
BOARD_SIDES = ("1-3p", "4-5p")
FRAMES = ("single", "double", "open")


def load_config(path: Path) -> Config:
    """Read ``config.toml``: every parameter the rules use, checked for type and range."""
    file = str(path)
    try:
        raw = tomllib.loads(read_text_file(path))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(file, None, None, f"not valid TOML: {exc}") from None

    def table(name: str) -> dict[str, Any]:
        value: Any = raw
        for part in name.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if not isinstance(value, dict):
            raise DataError(file, None, name, "table is missing")
        return value

    def num(tab: str, key: str, lo: int, hi: int) -> int:
        t = table(tab)
        value = t.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            what = f"{value!r} is not an integer" if key in t else "key is missing"
            raise DataError(file, None, f"{tab}.{key}", what)
        if not lo <= value <= hi:
            raise DataError(file, None, f"{tab}.{key}", f"{value} is outside {lo}..{hi}")
        return value

    def ints(tab: str, key: str, n_lo: int, n_hi: int, lo: int, hi: int) -> tuple[int, ...]:
        value = table(tab).get(key)
        if (not isinstance(value, list) or not n_lo <= len(value) <= n_hi
                or not all(isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi for v in value)):
            raise DataError(file, None, f"{tab}.{key}", f"must be a list of {n_lo}..{n_hi} integers in {lo}..{hi}")
        return tuple(value)

    def names(tab: str, key: str) -> tuple[str, ...]:
        value = table(tab).get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise DataError(file, None, f"{tab}.{key}", "must be a list of names")
        return tuple(value)

    secs = table("base").get("timer_seconds")
    if not isinstance(secs, dict) or set(secs) != set(TIMER_NAMES) or not all(
            isinstance(secs[t], int) and not isinstance(secs[t], bool) and 1 <= secs[t] <= 3600 for t in TIMER_NAMES):
        raise DataError(file, None, "base.timer_seconds", f"must give {', '.join(TIMER_NAMES)} in 1..3600 seconds")
    first = num("base.track", "first_space", 0, 0)
    parchment = num("base.track", "parchment_first", 1, 99)
    last = num("base.track", "last_space", parchment, 99)
    reading = names("base.council_board", "reading_order")
    if sorted(reading) != sorted(COUNCIL_SLOT_NAMES):
        raise DataError(file, None, "base.council_board.reading_order",
                        f"must order the slots {', '.join(COUNCIL_SLOT_NAMES)} exactly once each")
    small = ints("base", "privilege_bonus_vp_3_or_fewer_players", 1, 3, 0, 9)
    large = ints("base", "privilege_bonus_vp_4_or_more_players", 1, 5, 0, 9)
    a_first = num("automa.track", "parchment_first", 1, 200)
    a_last = num("automa.track", "parchment_last", a_first, 200)
    g_first = num("automa.track", "glory_first", a_last + 1, 200)
    if g_first != a_last + 1:
        raise DataError(file, None, "automa.track.glory_first", f"{g_first} must follow parchment_last {a_last}")
    g_last = num("automa.track", "glory_last", g_first, 200)
    spaces = num("automa.track", "spaces", 2, 200)
    if spaces != g_last + 1:
        raise DataError(file, None, "automa.track.spaces", f"{spaces}, but glory_last {g_last} means {g_last + 1}")
    num("automa.track", "start_space", 0, 0)
    markers = num("base", "time_markers", 1, 9)
    return Config(
        rounds=num("base", "rounds", 1, 4),
        timer_seconds=(secs["purple"], secs["green"], secs["black"]),
        time_markers=markers,
        resource_cap=num("base", "resource_cap_per_type", 1, 99),
        max_workers=num("base", "max_workers_in_play", 2, 4),
        action_gold=num("base", "green_purple_action_gold_cost", 0, 99),
        conquer_military=num("base", "conquer_province_military_cost", 0, 99),
        pickup_culture=num("base", "pick_up_stratagems_culture_cost", 0, 99),
        display_size=num("base", "province_display_size", 4, 4),
        prov_limit=num("base", "province_limit_per_slot", 1, 8),
        prov_limit_max3=num("base", "province_limit_with_max3", 1, 8),
        strats_per_character=num("base", "stratagems_per_character", 1, 7),
        council_offered=num("base", "council_rewards_offered", 5, 5),
        council_standard=num("base", "council_standard_cards", N_STANDARD, N_STANDARD),
        council_removed=num("base", "council_standard_cards_removed_at_setup", 0, N_STANDARD),
        final_cards=num("base", "final_council_cards", 5, 5),
        priv_bonus_small=small,
        priv_bonus_large=large,
        track_first=first,
        parchment_first=parchment,
        track_last=last,
        reading_order=reading,
        neutral_votes=num("base.two_player", "neutral_votes_each_council", 0, 99),
        neutral_spaces=names("base.two_player", "neutral_worker_spaces"),
        legendary_from_round_small=num("base.three_or_fewer_players", "legendary_available_from_round", 1, 4),
        automa_count=num("automa", "automa_count", 2, 2),
        automa_workers=num("automa", "automa_large_workers", 6, 6),
        automa_cards=num("automa", "automa_cards", N_AUTOMA_CARDS, N_AUTOMA_CARDS),
        votes_cap=num("automa", "votes_cap", 0, 99),
        automa_priv_bonus=ints("automa", "privilege_bonus_vp", 3, 3, 0, 9),
        no_match_vp=num("automa", "no_matching_reward_vp", 0, 9),
        legendary_lost_after_flip=num("automa", "legendary_lost_after_purple_flip", 1, markers),
        automa_track_spaces=spaces,
        automa_parchment_first=a_first,
        automa_parchment_last=a_last,
        automa_glory_first=g_first,
        automa_glory_last=g_last,
        automa_label_step=num("automa.track", "distance_label_step", 1, 9),
        raw=raw,
        path=file,
    )


SPACE_COLUMNS = ("space_id", "board_side", "area", "row", "pos_lr", "frame", "rewards", "rewards_text", "cost",
                 "common_blocked", "automa_space_size", "neutral_2p", "source")


def load_spaces(path: Path, config: Config) -> list[Space]:
    """Read ``action_spaces.csv``: ids, geometry (two rows per area, positions 0..n-1), frames
    against their rewards, costs against config.toml, blocking and Automa sizes."""
    file = str(path)
    spaces: list[Space] = []
    seen: dict[str, int] = {}
    for line, row in _rows(path, SPACE_COLUMNS):
        sid = _text(file, line, row, "space_id")
        side = _enum(file, line, row, "board_side", BOARD_SIDES) or ""
        area = _enum(file, line, row, "area", TIMER_NAMES) or ""
        rname = _enum(file, line, row, "row", ("top", "bottom")) or ""
        pos = _int(file, line, row, "pos_lr", 0, MAX_SPACES - 1)
        if sid != f"{side}:{area}:{rname}:{pos}":
            raise DataError(file, line, "space_id", f"'{sid}' does not read {side}:{area}:{rname}:{pos}")
        if sid in seen:
            raise DataError(file, line, "space_id", f"'{sid}' repeats line {seen[sid]}")
        seen[sid] = line
        frame = _enum(file, line, row, "frame", FRAMES) or ""
        rewards = _effect(file, line, row, "rewards")
        cost = _effect(file, line, row, "cost")
        if rewards.is_none:
            raise DataError(file, line, "rewards", "an action space needs a reward")
        if rewards.choice:
            raise DataError(file, line, "rewards", "write a double frame's rewards as 'a|b', not 'choice:'")
        want = 2 if frame == "double" else 1
        if len(rewards.alts) != want:
            raise DataError(file, line, "rewards", f"a {frame} frame needs {want} reward alternative(s), "
                            f"found {len(rewards.alts)} in '{rewards.text}'")
        if len(cost.alts) != 1:
            raise DataError(file, line, "cost", f"a cost cannot have alternatives ('{cost.text}')")
        if (area == "black") != (frame == "open"):
            raise DataError(file, line, "frame", f"'{frame}': black spaces are open, green/purple spaces are not")
        blocked = _flag(file, line, row, "common_blocked", YES_NO)
        if blocked == (area == "black"):
            raise DataError(file, line, "common_blocked", f"'{row['common_blocked']}': commons are blocked in green "
                            "and purple top frames, never in black")
        size = _enum(file, line, row, "automa_space_size", AUTOMA_SIZES, optional=True)
        if side == "1-3p" and area != "black":
            expect = "large" if frame == "double" else "small"
            if size != expect:
                raise DataError(file, line, "automa_space_size", f"'{size or ''}': a {frame} frame on the 1-3p "
                                f"side is {expect} for the Automa")
        elif size is not None:
            raise DataError(file, line, "automa_space_size", f"must be blank outside green/purple of the 1-3p side "
                            f"(found '{size}')")
        neutral = row["neutral_2p"] != ""
        # costs must agree with config.toml (the rules read the CSV cost)
        vec = cost.alts[0]
        if area != "black" and (vec[0] or vec[1] or any(vec[3:]) or vec[2] != config.action_gold):
            raise DataError(file, line, "cost", f"'{cost.text}': green and purple actions cost "
                            f"gold:{config.action_gold} (config.toml base.green_purple_action_gold_cost)")
        if area == "black":
            conquers = rewards.has(EF_CONQUER)
            expect_cost = f"military:{config.conquer_military}" if conquers else "none"
            if cost.text != expect_cost and effect_vector_text(vec) != expect_cost:
                raise DataError(file, line, "cost", f"'{cost.text}': a black {'conquer ' if conquers else ''}space "
                                f"costs {expect_cost} (config.toml base.conquer_province_military_cost)")
        spaces.append(Space(sid, side, area, rname, pos, frame, rewards, row["rewards_text"], cost, blocked, size,
                            neutral, _source(file, line, row), row.get("notes", ""), line))
    _check_geometry(file, spaces)
    _check_neutral(file, spaces, config)
    return spaces


def _check_geometry(file: str, spaces: list[Space]) -> None:
    for side in BOARD_SIDES:
        on_side = [s for s in spaces if s.board_side == side]
        if not on_side:
            raise DataError(file, None, "board_side", f"no spaces for the {side} side")
        if len(on_side) > MAX_SPACES:
            raise DataError(file, on_side[MAX_SPACES].line, "board_side",
                            f"{len(on_side)} spaces on the {side} side; at most {MAX_SPACES}")
        for area in TIMER_NAMES:
            counts = []
            for rname in ("top", "bottom"):
                cell = [s for s in on_side if s.area == area and s.row == rname]
                if not cell:
                    raise DataError(file, None, "row", f"the {side} side has no {area} {rname} row")
                positions = sorted(s.pos_lr for s in cell)
                if positions != list(range(len(cell))):
                    raise DataError(file, cell[-1].line, "pos_lr", f"positions of the {side} {area} {rname} row are "
                                    f"{positions}, not 0..{len(cell) - 1}")
                counts.append(len(cell))
                if side == "1-3p" and area != "black":
                    sizes = sorted(s.automa_space_size or "" for s in cell)
                    if sizes != ["large", "small"]:
                        raise DataError(file, cell[-1].line, "automa_space_size", f"the 1-3p {area} {rname} row needs "
                                        f"one large and one small space (found {', '.join(sizes)})")
            if counts[0] != counts[1]:
                raise DataError(file, None, "row", f"the {side} {area} rows have {counts[0]} and {counts[1]} spaces")


def _check_neutral(file: str, spaces: list[Space], config: Config) -> None:
    by_id = {s.space_id: s for s in spaces}
    for sid in config.neutral_spaces:
        s = by_id.get(sid)
        if s is None:
            raise DataError(config.path, None, "base.two_player.neutral_worker_spaces",
                            f"'{sid}' is not a space_id of {file}")
        if s.board_side != "1-3p" or s.area == "black" or s.frame != "single":
            raise DataError(config.path, None, "base.two_player.neutral_worker_spaces",
                            f"'{sid}' is not a single green/purple space of the 1-3p side")
    for s in spaces:
        if s.neutral_2p != (s.space_id in config.neutral_spaces):
            raise DataError(file, s.line, "neutral_2p", f"'{s.space_id}' {'is' if s.neutral_2p else 'is not'} marked "
                            "for the 2-player neutral, unlike config.toml base.two_player.neutral_worker_spaces")


SCHED_COLUMNS = ("step", "virtual_time_s", "due_timers", "purple_flip_no", "source")


def load_schedule(path: Path, config: Config) -> list[ScheduleStep]:
    """Read ``timer_schedule.csv`` and check it against the sand durations: step 0 flips all three
    timers at 0 s; every later step lies at the next run-out, lists exactly the timers that run out
    then, and counts purple flips; the last step's purple flip knocks the last time marker."""
    file = str(path)
    steps: list[ScheduleStep] = []
    for line, row in _rows(path, SCHED_COLUMNS):
        k = _int(file, line, row, "step", 0, 11)
        if k != len(steps):
            raise DataError(file, line, "step", f"{k}, expected {len(steps)} (steps numbered from 0 in order)")
        time_s = _int(file, line, row, "virtual_time_s", 0, 100000)
        due = tuple(x.strip() for x in row["due_timers"].split(";") if x.strip())
        if not due:
            raise DataError(file, line, "due_timers", "value is empty")
        for t in due:
            if t not in TIMER_NAMES:
                raise DataError(file, line, "due_timers", f"'{t}' is not a timer (allowed: {', '.join(TIMER_NAMES)})")
        if len(set(due)) != len(due):
            raise DataError(file, line, "due_timers", f"'{row['due_timers']}' names a timer twice")
        pno = int_field(file, line, row, "purple_flip_no", 1, 9, optional=True) or 0
        steps.append(ScheduleStep(k, time_s, due, pno, row.get("notes", ""), _source(file, line, row), line))
    if not steps:
        raise DataError(file, None, "step", "no steps")
    runs_out = [0, 0, 0]
    flips = 0
    for i, st in enumerate(steps):
        if i == 0:
            expect_time, expect_due = 0, set(TIMER_NAMES)
        else:
            expect_time = min(runs_out)
            expect_due = {TIMER_NAMES[t] for t in range(3) if runs_out[t] == expect_time}
        if st.time_s != expect_time:
            raise DataError(file, st.line, "virtual_time_s", f"{st.time_s}, but the next sand runs out at "
                            f"{expect_time} s (timers {', '.join(map(str, config.timer_seconds))} s)")
        if set(st.due) != expect_due:
            raise DataError(file, st.line, "due_timers", f"'{';'.join(st.due)}', but at {expect_time} s the timers "
                            f"running out are {';'.join(t for t in TIMER_NAMES if t in expect_due)}")
        for t in st.due:
            ti = TIMER_NAMES.index(t)
            runs_out[ti] = st.time_s + config.timer_seconds[ti]
        if "purple" in st.due:
            flips += 1
            if st.purple_flip_no != flips:
                raise DataError(file, st.line, "purple_flip_no", f"{st.purple_flip_no or 'blank'}, but this is purple "
                                f"flip {flips}")
        elif st.purple_flip_no:
            raise DataError(file, st.line, "purple_flip_no", "must be blank when purple is not due")
    if flips != config.time_markers or "purple" not in steps[-1].due:
        raise DataError(file, steps[-1].line, "purple_flip_no", f"the last step must be purple flip "
                        f"{config.time_markers} (it knocks the last time marker and calls council)")
    if len(steps) > 12:
        raise DataError(file, steps[12].line, "step", f"{len(steps)} steps; at most 12")
    return steps
