"""The readable Pendulum log: one sentence per trace event, a heading per phase, the final table.

Every event kind of ``codes.EVENT_NAMES`` has a writer in :data:`WRITERS` (``deck_order`` and
``clock`` are bookkeeping and skipped), so no event is printed as a dump of its fields. A seat is
called by its player's label, as the line-up and the stored ``player`` column call it (the
``game_start`` event's ``seats[].spec``); where two seats share a label, the seat number follows
(``producer (seat 2)``). Seats are numbered from 0, as in specs and result tables; display slots
from 1 at the top, as ``automa_cards.csv``'s ``province_discard_slot`` counts them; workers W1..W4.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simlab.games.pendulum.codes import A_RES, A_TRACK, RESOURCE_NAMES, TRACK_NAMES
from simlab.games.pendulum.render.actions import decode_action

_SKIP = {"deck_order", "clock"}
_HEADER_KEYS = {"event", "type", "seq", "round", "phase", "state_phase", "schedule_step", "t", "actor",
                "cause_seq"}

FLIPPER_WORDS = {"round_start": "round start", "human": "by the player", "automa": "by an Automa card",
                 "auto": "automatically at the end of the step", "overdue": "by itself, overdue"}
TRIGGER_WORDS = {"bottom_box": "a worker left a bottom box", "human_flip": "the player flipped with purple run out",
                 "council_step5": "council step 5", "omen": "Omen", "council_vp": "council VP", "setup": "set-up"}
REASON_WORDS = {"flipped": "flipped", "not_run_out": "not run out, no flip",
                "council_called": "council called, no flip", "council_step5": "council step 5, no flip"}
SYMBOL_RESULT_WORDS = {"match": "takes", "grande_owned": "grande already owned, skips", "grande_down": "grande "
                       "card face down, skips", "no_match": "no match", "final_legendary_card": "final council, the "
                       "legendary card:", "final_preference": "final council, by preference:",
                       "final_default": "final council, the default card:"}
PENDING_WORDS = {"wild_gain": "wild gain", "wild_pay": "wild cost", "vp_any": "VP of its choice",
                 "conquer": "conquest", "retrieve": "worker to retrieve", "glory": "VP past a track's end",
                 "grande_swap": "worker to swap for the grande", "return_stratagem": "stratagem to take back",
                 "swap_vp": "VP to move", "timed_place": "timed-row placement", "adjacent": "adjacent action",
                 "choice": "reward of a double frame"}

Who = Callable[[Any], str]


def seat_names(start: dict[str, Any] | None) -> dict[str, str]:
    """Trace agent -> how the log calls it: a seat by its player's label (``label (seat N)`` where two seats share
    a label); ``automa1``, ``automa2`` and ``neutral`` as they are."""
    seats = (start or {}).get("seats") or []
    labels = [str(s.get("spec") or s.get("player")) for s in seats]
    shared = {label for label in labels if labels.count(label) > 1}
    return {str(s["player"]): (label if label not in shared else f"{label} (seat {s['seat']})")
            for s, label in zip(seats, labels, strict=True)}


def _who_of(names: dict[str, str]) -> Who:
    def who(agent: Any) -> str:
        if agent is None:
            return "nobody"
        return names.get(str(agent), str(agent))
    return who


def _plain(v: Any) -> str:
    return "none" if v is None else str(v)


def _w(e: dict[str, Any]) -> str:
    return f"W{int(e.get('worker', -1)) + 1}{' (grande)' if e.get('is_grande') else ''}"


def _part(e: dict[str, Any], key: str) -> str:
    return f" ({e[key].replace('_', ' ')})" if e.get(key) else ""


def _delta(e: dict[str, Any]) -> str:
    parts = []
    for r in (*RESOURCE_NAMES, "votes"):
        b, a = e.get(f"{r}_before"), e.get(f"{r}_after")
        if isinstance(b, int) and isinstance(a, int) and a != b:
            parts.append(f"{r} {b}->{a}")
    return ", ".join(parts)


def _listed(e: dict[str, Any], keys: list[str]) -> list[Any]:
    return [e[k] for k in keys if e.get(k) is not None]


def _source(src: Any) -> str:
    s = str(src)
    return f"display slot {s[len('display'):]}" if s.startswith("display") else "the top of the deck"


# ---------------------------------------------------------------- set-up and time


def _setup(e: dict[str, Any], who: Who) -> str:
    chars = [f"{who(f'P{k + 1}' if not e.get('is_solo') else 'human')} {e[f'seat{k}_character']}"
             for k in range(5) if e.get(f"seat{k}_character")]
    adv = e.get("advanced_seat_mask") or []
    extra = f"; advanced variant: {', '.join(who(a) for a in adv)}" if adv else ""
    omen = "; Omen variant" if e.get("is_omen") else ""
    level = f"level {e['level']}, " if e.get("level") else ""
    return (f"set-up ({level}{e.get('time_model')} time model, {e.get('character_side')} character sides): "
            f"{'; '.join(chars)}{extra}{omen}; {e.get('n_priv')} agents on the privilege track")


def _automa_setup(e: dict[str, Any], who: Who) -> str:
    same = " (one card for both)" if e.get("is_same_card") else ""
    spaces = ", ".join(str(e[f"w{k}_space"]) for k in range(6) if e.get(f"w{k}_space"))
    return (f"Automa set-up: purple card {e.get('purple_acard')} (moves {e.get('purple_card_move_timer') or 'none'}), "
            f"green card {e.get('green_acard')} (moves {e.get('green_card_move_timer') or 'none'}){same}; "
            f"Automa workers on {spaces}; Automa deck {e.get('deck_n')} cards, discard {e.get('disc_n')}")


def _timer_flip(e: dict[str, Any], who: Who) -> str:
    extra = []
    if e.get("timer") == "purple":
        extra.append(f"purple flip {e.get('purple_flip_no')}, time markers left {e.get('markers_left')}")
    if e.get("is_marker_to_automa"):
        extra.append(f"a time marker goes to the Automa board ({e.get('markers_automa')} there)")
    if e.get("is_legendary_removed"):
        extra.append("legendary token removed")
    if e.get("is_council_called"):
        extra.append("COUNCIL CALLED")
    tail = f"; {'; '.join(extra)}" if extra else ""
    by = FLIPPER_WORDS.get(str(e.get("flipper")), str(e.get("flipper")))
    return (f"flips {e.get('timer')} ({by}) {e.get('before_row')} -> {e.get('after_row')} row, "
            f"runs out at {e.get('runs_out_s')} s{tail}")


def _schedule_step(e: dict[str, Any], who: Who) -> str:
    auto = f"; flipped automatically before it: {', '.join(e['auto_flip_mask'])}" if e.get("auto_flip_mask") else ""
    return f"schedule step {e.get('step')}: due {', '.join(e.get('sched_due_mask') or []) or 'nothing'}{auto}"


def _conflict(e: dict[str, Any], who: Who) -> str:
    return (f"{who(e.get('seat'))} takes {e.get('action_name')} ahead of {who(e.get('overtaken_seat'))} (ready at "
            f"{e.get('ready_s')} s and {e.get('overtaken_ready_s')} s: within {e.get('window_s')} s of each other, "
            "privilege decides)")


def _pass(e: dict[str, Any], who: Who) -> str:
    return f"passes ({e.get('passes')} of {e.get('n_seats')} in a row)"


def _legendary_removed(e: dict[str, Any], who: Who) -> str:
    by = who(e["seat"]) if e.get("seat") else FLIPPER_WORDS.get(str(e.get("by_flipper")), e.get("by_flipper"))
    return f"the legendary token leaves the achievement card (purple flip {e.get('purple_flip_no')}, flipped {by})"


def _council_called(e: dict[str, Any], who: Who) -> str:
    by = f"by {who(e['seat'])}" if e.get("seat") else FLIPPER_WORDS.get(str(e.get("by_flipper")), e.get("by_flipper"))
    return (f"COUNCIL CALLED at purple flip {e.get('purple_flip_no')} (flipped {by}); "
            f"{e.get('markers_automa')} time markers on the Automa board")


# ---------------------------------------------------------------- workers


def _human_setup(e: dict[str, Any], who: Who) -> str:
    return f"places {_w(e)} on {e.get('space')}"


def _worker_move(e: dict[str, Any], who: Who) -> str:
    return f"moves {_w(e)} {e.get('from_space') or 'mat'}{_part(e, 'from_part')} -> {e.get('to_space')}"


def _worker_lift(e: dict[str, Any], who: Who) -> str:
    why = TRIGGER_WORDS.get(str(e.get("trigger")), e.get("trigger"))
    return f"lifts {_w(e)} out of the bottom box of {e.get('from_space')}: the Automa acts ({why})"


def _worker_place(e: dict[str, Any], who: Who) -> str:
    return f"places the lifted {_w(e)} on {e.get('to_space')}"


def _worker_action(e: dict[str, Any], who: Who) -> str:
    times = " twice" if (e.get("times") or 1) > 1 else ""
    mods = f" [{', '.join(m.replace('_', ' ') for m in e['modifier_mask'])}]" if e.get("modifier_mask") else ""
    return f"{_w(e)} acts{times} on {e.get('space')}: {e.get('reward_effect')} (cost {e.get('cost_effect')}){mods}"


def _worker_retrieved(e: dict[str, Any], who: Who) -> str:
    auto = ": the Automa acts first (a worker left a bottom box)" if e.get("triggers_automa") else ""
    return f"retrieves {_w(e)} from {e.get('from_space')}{_part(e, 'from_part')} to the mat{auto}"


def _worker_recruited(e: dict[str, Any], who: Who) -> str:
    return f"recruits {_w(e)} from the reserve onto the mat ({e.get('in_play')} workers in play)"


def _grande_swap(e: dict[str, Any], who: Who) -> str:
    return (f"takes the second grande: {_w(e)} leaves the game, the grande stands on {e.get('space')}"
            f"{_part(e, 'part')}")


# ---------------------------------------------------------------- resources, cards and provinces


def _gain_pay(e: dict[str, Any], who: Who) -> str:
    verb = "gains" if e["event"] == "gain" else "pays"
    delta = _delta(e)
    if not delta:
        delta = "cubes chosen next" if "wild" in str(e.get("effect")) else "no cubes or votes (VP and the rest follow)"
    lost = f", {e['lost']} lost to the cap" if e.get("lost") else ""
    return f"{verb} {e.get('effect')}: {delta}{lost}"


def _production(e: dict[str, Any], who: Who) -> str:
    provs = [f"province {e[f'p{k}_province']} ({e.get(f'p{k}_effect')})" for k in range(6)
             if e.get(f"p{k}_province") is not None]
    under = f"; under it {', '.join(provs)}" if provs else ""
    more = " (continued)" if e.get("first") else ""
    return f"produces at the {e.get('slot')} slot{more}: mat {e.get('mat_effect')}{under}"


def _stratagem_played(e: dict[str, Any], who: Who) -> str:
    return f"plays {e.get('strat')}: {e.get('effect')} (cost {e.get('cost_effect')})"


def _stratagems_picked_up(e: dict[str, Any], who: Who) -> str:
    back = _listed(e, [f"ret{k}_strat" for k in range(13)])
    return (f"picks up stratagems (pays {e.get('culture_paid')} culture, {e.get('culture_before')}->"
            f"{e.get('culture_after')}): {', '.join(map(str, back)) or 'nothing'} back to hand")


def _achievement_claimed(e: dict[str, Any], who: Who) -> str:
    held = ", ".join(f"{e.get(r)} {r}" for r in (*RESOURCE_NAMES, "votes"))
    req = "requirement waived" if e.get("is_waived") else f"needs {e.get('requirement_effect')}, holds {held}"
    what = "takes the legendary token" if e.get("is_legendary") else f"takes the ribbon {e.get('ribbon_effect')}"
    return f"claims achievement {e.get('achievement_row')} ({req}; claim {e.get('claim_no')} this round): {what}"


def _province_conquered(e: dict[str, Any], who: Who) -> str:
    return (f"conquers province {e.get('province')} from {_source(e.get('source'))} under the {e.get('mat_slot')} "
            f"slot (edge {e.get('edge_effect')}; {e.get('n_under_slot')} there now; deck {e.get('deck_left')})")


def _display_refilled(e: dict[str, Any], who: Who) -> str:
    pos = e.get("display_pos")
    slot = pos + 1 if isinstance(pos, int) else pos
    return f"refills display slot {slot} with province {e.get('province')} (deck {e.get('deck_left')})"


def _choice(e: dict[str, Any], who: Who) -> str:
    pending = PENDING_WORDS.get(str(e.get("pending")), str(e.get("pending")).replace("_", " "))
    auto = " (forced)" if e.get("is_auto") else ""
    if e.get("action") is None:
        return f"has no option for the {pending}: dropped"
    a = decode_action(int(e["action"]))
    before, after = e.get("before"), e.get("after")
    moved = f", {before}->{after}" if isinstance(before, int) and before >= 0 and before != after else ""
    lost = f", {e['lost']} lost" if e.get("lost") else ""
    if a["kind"] == A_RES and e.get("pending") in ("wild_gain", "wild_pay"):
        r = RESOURCE_NAMES[a["resource"]]
        what = f"{'pays' if e['pending'] == 'wild_pay' else 'takes'} 1 {r}{moved}{lost}"
    elif a["kind"] == A_RES:
        what = f"takes reward {a['resource'] + 1}"
    elif a["kind"] == A_TRACK:
        what = f"+1 {TRACK_NAMES[a['track']]} VP{moved}{lost}"
    else:
        what = str(e.get("action_name"))
    return f"{pending}{auto}: {what}"


def _track(e: dict[str, Any], who: Who) -> str:
    lost = f", {e['lost']} lost" if e.get("lost") else ""
    glory = f", glory {e.get('glory_before')}->{e.get('glory_after')}" \
        if e.get("glory_after") != e.get("glory_before") else ""
    whose = "" if e.get("player") == e.get("actor") else f"{who(e.get('player'))}: "
    track = "score space" if e.get("track") == "automa_score" else str(e.get("track"))
    return f"{whose}{track} {e.get('before')} -> {e.get('after')}{lost}{glory}"


# ---------------------------------------------------------------- the Automa


def _automa_draw(e: dict[str, Any], who: Who) -> str:
    kept = f", kept by {who(e['player'])} for council" if e.get("player") else ""
    shuffled = " (deck reshuffled)" if e.get("is_reshuffled") else ""
    pos = e.get("discard_pos")
    discard = f"discard display slot {pos}" if pos else "no discard"
    why = TRIGGER_WORDS.get(str(e.get("trigger")), e.get("trigger"))
    return (f"Automa card {e.get('acard')} drawn ({why}){shuffled}: move {e.get('move_timer') or 'none'}, "
            f"flip {e.get('flip_combo')}, {discard}, {e.get('vp')} VP, {e.get('votes')} votes, "
            f"symbol {e.get('symbol')}{kept}")


def _automa_move(e: dict[str, Any], who: Who) -> str:
    return f"Automa worker {e.get('from_space')} -> {e.get('to_space')}"


def _automa_flip(e: dict[str, Any], who: Who) -> str:
    reason = REASON_WORDS.get(str(e.get("reason")), e.get("reason"))
    return f"Automa flip {e.get('flip_combo')}: {e.get('flipped_timer') or 'nothing'} ({reason})"


def _automa_province_discard(e: dict[str, Any], who: Who) -> str:
    if e.get("is_ignored"):
        return f"Automa province discard from display slot {e.get('discard_pos')} ignored (council step 5)"
    if e.get("province") is None:
        return f"Automa province discard: display slot {e.get('discard_pos')} is empty"
    return f"Automa discards province {e.get('province')} from display slot {e.get('discard_pos')}"


def _automa_symbol(e: dict[str, Any], who: Who) -> str:
    result = str(e.get("result"))
    words = SYMBOL_RESULT_WORDS.get(result, result.replace("_", " "))
    card = f" council card {e['card']}" if e.get("card") is not None else ""
    if e.get("acard") is None:  # the fourth council: one row
        return f"{who(e.get('player'))}: {words}{card or ' no card'}"
    return (f"{who(e.get('player'))} reads symbol {e.get('symbol')} on its card {e.get('acard')} "
            f"(card {int(e.get('pos') or 0) + 1} from the left): {words}{card}")


def _council_automa_vp(e: dict[str, Any], who: Who) -> str:
    cards = ", ".join(str(c) for c in _listed(e, ["c0_acard", "c1_acard", "c2_acard"]))
    vps = "+".join(str(e.get(f"vp{k}")) for k in range(3))
    votes = "+".join(str(e.get(f"votes{k}")) for k in range(3))
    return (f"{who(e.get('player'))} scores its council cards {cards}: {vps} VP, scoring bonus {e.get('vp_bonus'):+d}, "
            f"{e.get('markers')} time markers: {e.get('gained')} VP, score space {e.get('score_before')} -> "
            f"{e.get('score_after')}; votes {votes}, bonus {e.get('votes_bonus'):+d}") \
        if isinstance(e.get("vp_bonus"), int) and isinstance(e.get("votes_bonus"), int) else \
        f"{who(e.get('player'))} scores its council cards {cards}: {e.get('gained')} VP"


# ---------------------------------------------------------------- the council


def _council_votes(e: dict[str, Any], who: Who) -> str:
    tied = ", tied" if e.get("is_tied") else ""
    return (f"{who(e.get('player'))} has {e.get('votes')} votes: privilege position {e.get('pos_before')} -> "
            f"{e.get('pos_after')} (0 = first){tied}")


def _council_reward(e: dict[str, Any], who: Who) -> str:
    where = f"privilege position {e.get('rank')}, +{e.get('bonus_vp')} VP"
    if e.get("card") is not None:
        kept = f", kept as stratagem {e['stratagem_strat']}" if e.get("stratagem_strat") else ""
        return f"{who(e.get('seat'))} takes council card {e['card']} ({where}){kept}"
    how = str(e.get("automa_how") or "none").replace("_", " ")
    score = f", score space {e['automa_score']}" if isinstance(e.get("automa_score"), int) and \
        e["automa_score"] >= 0 else ""
    return f"{who(e.get('seat'))} takes no card ({where}; {how}): {e.get('fallback_vp')} VP instead{score}"


def _province_limit(e: dict[str, Any], who: Who) -> str:
    auto = " (automatic: all alike)" if e.get("is_automatic") else ""
    return (f"{who(e.get('seat'))} keeps at most {e.get('limit')} provinces under the {e.get('slot')} slot: "
            f"province {e.get('removed_province')} leaves the game ({e.get('before')} -> {e.get('after')}){auto}")


def _round_setup(e: dict[str, Any], who: Who) -> str:
    offer = ", ".join(str(c) for c in _listed(e, [f"offer{k}_card" for k in range(5)]))
    display = ", ".join(str(c) for c in _listed(e, [f"display{k}_province" for k in range(4)]))
    token = " (legendary token on it)" if e.get("is_legendary_on_card") else ""
    final = "final " if e.get("is_final_offer") else ""
    return (f"next round: {final}council offer {offer}; province display {display} (slot 1 first); achievement "
            f"{e.get('old_achievement')} -> {e.get('new_achievement')}{token}; {e.get('markers_left')} time markers "
            f"in purple ({e.get('markers_back_from_automa')} back from the Automa board); "
            f"{e.get('provinces_removed')} provinces removed")


def _game_end(e: dict[str, Any], who: Who) -> str:
    decided = e.get("decided_by")
    why = f", decided by {str(decided).replace('_', ' ')}" if decided not in (None, "none") else ""
    return (f"{who(e.get('seat'))}: rank {e.get('rank')}{', WINNER' if e.get('is_winner') else ''} "
            f"({str(e.get('end_branch')).replace('_', ' ')}{why})")


def _log_truncated(e: dict[str, Any], who: Who) -> str:
    return "the event log is full: later events are missing"


WRITERS: dict[str, Callable[[dict[str, Any], Who], str]] = {
    "setup": _setup, "automa_setup": _automa_setup, "human_setup": _human_setup, "timer_flip": _timer_flip,
    "schedule_step": _schedule_step, "worker_move": _worker_move, "worker_lift": _worker_lift,
    "worker_place": _worker_place, "worker_action": _worker_action, "gain": _gain_pay, "pay": _gain_pay,
    "production": _production, "stratagem_played": _stratagem_played,
    "stratagems_picked_up": _stratagems_picked_up, "achievement_claimed": _achievement_claimed,
    "province_conquered": _province_conquered, "display_refilled": _display_refilled, "pass": _pass,
    "automa_draw": _automa_draw, "automa_move": _automa_move, "automa_flip": _automa_flip,
    "automa_province_discard": _automa_province_discard, "council_called": _council_called,
    "council_automa_vp": _council_automa_vp, "council_votes": _council_votes, "council_reward": _council_reward,
    "automa_symbol": _automa_symbol, "province_limit": _province_limit, "round_setup": _round_setup,
    "track": _track, "game_end": _game_end, "worker_retrieved": _worker_retrieved,
    "worker_recruited": _worker_recruited, "grande_swap": _grande_swap, "choice": _choice, "conflict": _conflict,
    "legendary_removed": _legendary_removed, "log_truncated": _log_truncated,
}


def _fields_text(e: dict[str, Any]) -> str:
    """An event of a kind no writer knows (a newer rules module's), field by field: never a built-in kind."""
    parts = []
    for k, v in e.items():
        if k in _HEADER_KEYS or v is None:
            continue
        if isinstance(v, bool):
            if v:
                parts.append(k)
            continue
        if isinstance(v, list):
            v = "[" + ", ".join(str(x) for x in v) + "]"
        parts.append(f"{k} {v}")
    return ", ".join(parts)


def event_text(e: dict[str, Any], who: Who | None = None) -> str:
    """One event in words, without its time and actor (``moves W2 mat -> 1-3p:green:top:1``)."""
    who = who or _who_of({})
    writer = WRITERS.get(str(e.get("event")))
    if writer is not None:
        return writer(e, who)
    body = _fields_text(e)
    return str(e["event"]).replace("_", " ") + (f" ({body})" if body else "")


def event_line(e: dict[str, Any], who: Who | None = None) -> str:
    """One event in words: ``  [t=45.0s step 1] producer: moves W2 mat -> 1-3p:green:top:1`` (``who`` names the
    agents; by default as the trace does)."""
    who = who or _who_of({})
    actor = e.get("actor") or "system"
    when = f"t={e['t']:.1f}s" if isinstance(e.get("t"), (int, float)) else ""
    step = e.get("schedule_step")
    where = f"{when} step {step}" if step is not None else when
    name = who(actor) if actor != "system" else "system"
    text = event_text(e, who)
    for lead in (f"{name}: ", f"{name} "):  # "producer: producer: rank 3" reads "producer: rank 3"
        if text.startswith(lead) and not text[len(lead):].startswith(("(", "-")):
            text = text[len(lead):]
            break
    return f"  [{where}] {name}: {text}"


def _final_lines(e: dict[str, Any], who: Who) -> list[str]:
    out = ["", "=== Final ===", f"  end rule: {str(e.get('end_branch')).replace('_', ' ')}"]
    rows = [(who(s["player"]), s) for s in e["seats"]]
    width = max([6, *(len(name) for name, _ in rows), *(len(a["automa"]) for a in e.get("automas", []))])
    out.append(f"  {'player':<{width}}  tracks (power/prestige/popularity)  glory  legendary  parchment  rank")
    for name, s in rows:
        tr = "/".join(str(s["tracks"][k]) for k in TRACK_NAMES)
        gl = "/".join(str(s["glory"][k]) for k in TRACK_NAMES)
        parch = s["parchment_total"] if s["reached_parchment"] else f"-{s['worst_track_distance']}"
        out.append(f"  {name:<{width}}  {tr:<35}  {gl:<5}  {'yes' if s['legendary'] else 'no':<9}  "
                   f"{parch!s:<9}  {s['rank']}")
    for a in e.get("automas", []):
        out.append(f"  {a['automa']:<{width}}  score space {a['space']} ({a['kind']}), reached parchment "
                   f"{'yes' if a['reached_parchment'] else 'no'}, label {a['distance_label_read']}, "
                   f"rank {a['rank']}")
    by_seat = {s["seat"]: name for name, s in rows}
    names = [by_seat.get(w, str(w)) for w in e["winners"]]
    if e.get("automa_won"):
        names.append(e["automa_won"])
    out.append("  winner: " + (", ".join(names) if names else "nobody"))
    return out


def log_lines(events: list[dict[str, Any]]) -> list[str]:
    """The readable game log: one line per event (deck orders and clock bookkeeping skipped), a heading at the
    set-up, each round's start, council called and the council, and the final table. The headings come from
    the events themselves, so a log built part by part (``simlab play`` with a person playing) shows each once.
    Seats are called by their players' labels (:func:`seat_names`, from the ``game_start`` event)."""
    out: list[str] = []
    start = next((e for e in events if e.get("event") == "game_start"), None)
    who = _who_of(seat_names(start))
    prev: dict[str, Any] | None = None
    for e in events:
        kind = e.get("event")
        if kind == "game_start":
            solo = e.get("solo")
            what = "solo against two Automas, level " + str(e.get("level")) if solo else f"{e['n_players']} players"
            out.append(f"Pendulum - game {e['game']} (game seed {e['seed']}), {what}, {e.get('time_model')} time")
            for s in e.get("seats", []):
                adv = ", advanced" if s.get("advanced_rules") else ""
                out.append(f"  seat {s['seat']}: {s.get('spec') or s['player']} - {s.get('character')}{adv}")
            continue
        if kind == "final":
            out.extend(_final_lines(e, who))
            continue
        if kind in _SKIP:
            continue
        heading = None
        if kind == "setup":
            heading = "set-up"
        elif kind == "timer_flip" and e.get("flipper") == "round_start" and not (
                prev is not None and prev.get("event") == "timer_flip" and prev.get("flipper") == "round_start"):
            heading = f"round {e.get('round')}: real time"
        elif kind == "council_called":
            heading = f"round {e.get('round')}: council called"
        elif kind in ("council_automa_vp", "council_votes") and prev is not None and prev.get("phase") != "council":
            heading = f"round {e.get('round')}: council"
        if heading:
            out.append("")
            out.append(f"--- {heading} ---")
        prev = e
        out.append(event_line(e, who))
    return out
