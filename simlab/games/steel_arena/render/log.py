"""The readable Steel Arena log: one line per meaningful event, a heading per turn, the final table."""

from __future__ import annotations

from typing import Any

from simlab.games.steel_arena.render.names import _cell_text, _facing_text, robot_name


def _designs(events: list[dict[str, Any]]) -> tuple[dict[str, dict[str, Any]], bool]:
    for e in events:
        if e.get("event") == "game_start":
            return {d["tile_id"]: d for d in e.get("designs", [])}, e.get("mode") == "expert"
    return {}, False


def log_lines(events: list[dict[str, Any]]) -> list[str]:
    """The readable game log: one line per meaningful event (snapshots and bookkeeping skipped).

    In basic mode it names hidden tiles only by type (picked-up, refilled, discarded and
    heat-absorbing modules), since a person may be playing while it scrolls; modules are named
    when they act (activation, armour). The JSON trace names everything.
    """
    designs, expert = _designs(events)

    def name(inst: str | None) -> str:
        if inst is None:
            return "nothing"
        if inst == "CENTRAL":
            return "the central module"
        d = designs.get(inst.split("#")[0])
        return f"{d['tile_id']} ({d['name_en']})" if d else inst

    def hidden(inst: str | None, kind: str | None = None) -> str:
        if expert or inst in (None, "CENTRAL"):
            return name(inst)
        d = designs.get(inst.split("#")[0]) if inst else None
        t = (d or {}).get("type", kind or "?")
        return f"a{'n' if t[0] in 'aeiou' else ''} {t} module"

    out: list[str] = []
    players: list[str] = []
    for e in events:
        kind = e.get("event")
        who = e.get("robot") or ""
        if kind == "game_start":
            players = e["players"]
            out.append(f"Steel Arena - game {e['game']} (game seed {e['seed']}), {len(players)} players, "
                       f"{e['mode']} mode{', teams ' + str(e['teams']) if e['team'] else ''}")
            for p, pl in enumerate(players):
                out.append(f"  {robot_name(p)} (seat {p}): {pl}")
        elif kind == "setup":
            fp = e.get("first_player")
            out.append(f"  field laid: {len(e['field'])} tiles; generation-3 stack: {len(e['gen3_stack'])} tiles"
                       + (f"; first player {robot_name(fp)} ({e['first_player_reason']})" if fp is not None else ""))
        elif kind == "place_robot":
            out.append(f"  {who} places its robot at {_cell_text(e['cell'])} facing {_facing_text(e['facing'])}")
        elif kind == "take_start_tile":
            got = hidden(e["tile"]) if e["tile"] else "nothing (no module there)"
            out.append(f"  {who} takes {got} from its start cell")
        elif kind == "turn_start":
            rb = next((r for r in e["snapshot"]["robots"] if r["seat"] == e["seat"]), None)
            pos = f" at {_cell_text(rb['cell'])} facing {_facing_text(rb['facing'])}, side {rb['side']}" if rb else ""
            out.append("")
            out.append(f"--- turn {e['turn']}: {who}{pos} ---")
        elif kind == "cool_all":
            out.append(f"  {who} cools all modules ({e['tokens_removed']} token(s) removed)")
        elif kind == "activate":
            mod = name(e["module"]) if e["module"] != "CENTRAL" else f"the central module ({e['property']})"
            via = {"first": "", "speed": " after a speed module", "wear_a": " by the wear rule (a)",
                   "wear_b": " by the wear rule (b)"}.get(e["via"], f" via {e['via']}")
            out.append(f"  {who} activates {mod}{via}: {_params_text(e['property'], e['params'])}")
        elif kind == "activate_end":
            extra = [x for x, f in (("destroyed by wear", e["destroyed_by_wear"]),
                                    ("one-shot: to the box", e["oneshot_to_box"])) if f]
            if extra:
                out.append(f"    {name(e['module'])}: {', '.join(extra)}")
        elif kind == "rotate":
            why = "" if e["cause"] == "module" else f" (whirled by {robot_name(e['by'])})" if e["by"] is not None \
                else " (whirled)"
            out.append(f"    {who} turns {_facing_text(e['facing_before'])} -> {_facing_text(e['facing_after'])}{why}")
        elif kind == "step":
            how = {"move": "moves", "shove": "is shoved", "push": "is pushed"}.get(e["cause"], e["cause"])
            if e["jump"]:
                how = "jumps"
            out.append(f"    {who} {how} {_cell_text(e['from'])} -> {_cell_text(e['to'])}")
        elif kind == "stopped_short":
            out.append(f"    {who} stops short (blocked at {_cell_text(e['blocking_cell'])})")
        elif kind == "hit":
            out.append("    " + _hit_text(e, name))
        elif kind == "explosion":
            out.append(f"    {name(e['tile'])} at {_cell_text(e['cell'])} explodes ({e['cause']})")
        elif kind == "water_destroyed":
            out.append(f"    water at {_cell_text(e['cell'])} evaporates")
        elif kind == "water_cool":
            out.append(f"    {who} cools {hidden(e['module']) if e['module'] else 'nothing'} (water)")
        elif kind == "heat_absorb":
            out.append(f"    {who} absorbs 1 heat with {hidden(e['module'])}" + (" (token shed)" if e["shed"] else ""))
        elif kind == "heat_damage":
            out.append(f"    {who} takes {e['units']} damage from heat not absorbed "
                       f"(pending {e['pending_damage_after']})")
        elif kind == "discard":
            dest = f"trophy for {e['destination']}" if e["destination"] != "box" else f"to the box ({e['reason']})"
            mod = "its central module" if e["module"] == "CENTRAL" else hidden(e["module"], e.get("tile_type"))
            out.append(f"  {who} discards {mod} -> {dest}")
        elif kind == "destroyed":
            out.append(f"  {who} is destroyed")
        elif kind == "pickup":
            if e["tile"] not in ("terrain", "empty"):
                out.append(f"  {who} picks up {hidden(e['tile'])} at {_cell_text(e['cell'])}")
        elif kind == "module_limit_discard":
            out.append(f"  {who} discards {hidden(e['module'])} for the module limit (own trophy)")
        elif kind == "side_switch":
            out.append(f"  {who} turns to side {e['side_after']} ({e['modules_incl_central']} modules incl. central)")
        elif kind == "refill":
            out.append(f"  refill: {', '.join(_cell_text(c['cell']) for c in e['cells'])}; "
                       f"stack {e['stack_after']} left")
        elif kind == "stack_exhausted":
            out.append(f"  the generation-3 stack is empty: {_cell_text(e['cell'])} cannot be filled")
        elif kind == "game_end":
            out.append(f"  game over: {e['reason']}")
        elif kind == "log_truncated":
            out.append("  (the event log was full: later events are missing)")
        elif kind == "final":
            out.append("")
            out.append("=== Final ===")
            out.append(f"  reason: {e['reason']} after {e['turns']} turns; "
                       f"tie-break steps: {' > '.join(e['tie_break'])}")
            width = max([24, *(len(pl) for pl in players)])  # a label is shown whole: it is what a spec takes
            out.append(f"  robot  {'player':<{width}}  trophies  modules  side  rank")
            for s in e["seats"]:
                pl = players[s["seat"]] if s["seat"] < len(players) else ""
                mods = s["modules_left"]
                out.append(f"  {s['robot']:<5}  {pl:<{width}}  {s['trophies']:>8}  {mods:>7}  {s['side']:>4}  "
                           f"{s['rank']:>4}" + ("  destroyed" if s["destroyed"] else ""))
            if "team_totals" in e:
                out.append(f"  team 0 (seats 0+2), team 1 (seats 1+3): trophies {e['team_totals']['trophies']}, "
                           f"modules {e['team_totals']['modules']}")
            w = e["winners"]
            out.append(("  draw between " if e["draw"] else "  winner: ") + ", ".join(robot_name(p) for p in w))
    return out


def _params_text(prop: str, pr: dict[str, Any]) -> str:
    if prop == "rotate":
        text = f"rotate {pr['sectors']} {pr['sense']}"
        if "facing_after" in pr:
            text += f" ({pr['facing_before']} -> {pr['facing_after']})"
        return text
    if prop == "move":
        text = f"{pr['move_kind'].replace('_', '-')} {pr['distance']}"
        if pr["move_kind"] == "side_forward":
            text += f" {pr['variant']}"
        if "to" in pr:
            text += f" to {_cell_text(pr['to'])}"
        return text
    if prop == "attack":
        d = pr["delivery"]
        if d in ("beam", "sweep"):
            text = f"{d} " + ", ".join(_cell_text(c) for c in pr.get("cells", []))
        elif "target_cell" in pr:
            tgt = pr.get("target_robot") if pr["target"] == "robot" else "the cell"
            text = f"{d} at {tgt or 'the cell'} on {_cell_text(pr['target_cell'])}"
        else:
            text = f"{d} at target {pr['target_index']}"
        if pr.get("push"):
            text += f", push {pr['push']}"
        if pr.get("whirl") and pr["whirl"]["sectors"]:
            text += f", whirl {pr['whirl']['sectors']} {pr['whirl']['sense']}"
        if pr.get("effect_order") == "effect_first" and (pr.get("push") or (pr.get("whirl") or {}).get("sectors")):
            text += " (effect first)"
        return text
    return ""


def _hit_text(e: dict[str, Any], name: Any) -> str:
    tk = e["target_kind"]
    target = e["robot"] if tk == "robot" else {"terrain": "terrain", "module_tile": "a module tile",
                                               "empty": "the empty cell"}.get(tk, tk)
    src = e["source"]
    by = f" ({e['hit_kind']})" if e["hit_kind"] != "primary" else ""
    if src["kind"] == "terrain":
        by = f" ({e['hit_kind']}: explosion at {_cell_text(src['cell'])})"
    what = []
    if e["damage"]:
        what.append(f"{e['damage']} damage")
    if e["heat"]:
        what.append(f"{e['heat']} heat")
    text = f"hit {target} at {_cell_text(e['cell'])}{by}: {' + '.join(what) or 'nothing'}"
    if tk == "robot":
        reds = [f"{name(r['module']) if r['module'] else 'cover'} -{r['amount']}" for r in e["reductions"]]
        if reds:
            text += f" ({', '.join(reds)})"
        text += f" -> {e['damage_after']} damage"
        if e["heat"]:
            text += f", {e['heat_after']} heat"
        if e.get("sector"):
            text += f" [from the {e['sector'].replace('_', ' ')}]"
        text += f"; pending {e['pending_damage_after']}"
    return text
