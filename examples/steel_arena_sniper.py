"""A worked Steel Arena player: keeps its distance, turns to face the nearest enemy and shoots what is in
its line of fire, all through the observation helpers (``targets``, ``preview``, ``robot``, ``cell``).

    simlab play steel_arena --players examples/steel_arena_sniper.py:Sniper,brawler --seed 1
    simlab batch steel_arena --players examples/steel_arena_sniper.py:Sniper,random --games 50
"""

from simlab import Player
from simlab.games.steel_arena.codes import A_ACT, A_NONE, A_PICK, A_PLACE, PARAM_SPAN, SLOT_C_ATTACK
from simlab.games.steel_arena.state import PH_DISCARD, PH_HEAT, PH_LIMIT, PH_WATER

SINGLE = ("direct", "arc", "melee")  # deliveries that strike one chosen target


def distance(a, b):
    """Hex distance between two axial cells."""
    return (abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[0] + a[1] - b[0] - b[1])) // 2


class Sniper(Player):
    """Active phase: the attack that does most damage to enemy robots (cells from ``obs.targets``), else the
    move or rotation whose ``obs.preview`` puts the nearest enemy on its line of fire about ``keep`` cells
    away, off the enemies' lines of fire and on a module tile to pick up; cools (or stops after a speed
    module) when nothing beats staying put. After ``stall`` turns per seat it collects rather than fights
    (only an empty generation-3 stack ends a game where no shot gets through); once the stack is empty it
    ends the game by leaving its empty cell when it leads, and stays put when it trails.

    Owner decisions: heat goes to modules that shed it at once, then to the least valuable; water cools
    the most valuable overheated module; discards and the module limit give up the least valuable one."""

    def __init__(self, keep: int = 2, pickup: float = 1.5, exposed: float = 1.0, wear: float = 2.0, stall: int = 40):
        self.keep, self.pickup, self.exposed, self.wear, self.stall = keep, pickup, exposed, wear, stall

    # ---- what things are worth
    def worth(self, tile, mods):
        """How much this robot wants to keep a module (``mods``: its modules): attacks by damage, the last of
        a type most."""
        v = {"attack": 2.0 + tile.damage + 0.5 * tile.heat + tile.splash + (tile.attack_delivery != "melee"),
             "defence": 1.0 + tile.armour_value, "move": 1.0 + 0.3 * tile.move_max,
             "rotate": 1.5 + 0.2 * tile.rotate_max}[tile.type]
        v += 0.5 * tile.speed + 0.3 * tile.autocool - 1.0 * tile.oneshot
        return v + 2.0 * (sum(m["type"] == tile.type for m in mods) == 1)

    def line(self, obs, qr, facing):
        """The cells straight ahead of ``qr`` up to the edge (``obs.line_of_fire`` from any spot)."""
        c, cells = obs.rules.cell_index(*qr), []
        while (c := int(obs.rules.nbr[c, facing])) >= 0:
            cells.append(obs.rules.cell_qr(c))
        return cells

    def free_ahead(self, obs, qr, facing):
        """The cell in front of ``qr`` if a robot could step onto it (no robot, no obstacle), else None."""
        ahead = self.line(obs, qr, facing)[:1]
        cell = obs.cell(*ahead[0]) if ahead else None
        if cell is None or cell.robot is not None or (cell.tile and obs.rules.data.tile(cell.tile).obstacle):
            return None
        return cell

    def attack_value(self, obs, a, me, who, foes):
        """Damage (and heat) dealt to enemy robots minus what hits this robot or a team-mate."""
        code = a - A_ACT
        slot, param = code // PARAM_SPAN // 2, code % PARAM_SPAN
        if slot == SLOT_C_ATTACK:  # the central module's attack, by the board's side
            robot = obs.rules.data.robots[obs.seat % len(obs.rules.data.robots)]
            side = robot.a if me["side"] == "A" else robot.b
            delivery, dmg, heat, splash = side.attack_delivery, side.attack_damage, 0, 0
        else:
            t = obs.rules.data.tile(me["modules"][slot]["module"])
            delivery, dmg, heat, splash = t.attack_delivery, t.damage, t.heat, t.splash
        if delivery in SINGLE and (param // 16) % 2 == 1:
            return 0.0  # aimed at the cell itself (terrain, a module tile, nothing), not a robot there
        cells = obs.targets(a)
        hit = [(who.get(qr), dmg + 0.7 * heat) for qr in cells]
        if splash and cells:
            hit += [(p, splash) for qr, p in who.items() if distance(qr, cells[0]) == 1]
        return sum(v if p in foes else -v for p, v in hit if p is not None) + 0.05 * ((param // 2) % 8)

    def position_value(self, obs, where, foes, pickup, aim):
        """How good every robot's cell and facing (``obs.preview``'s answer) is for this robot."""
        me = where[obs.seat]
        others = [where[p] for p in foes if where[p]["cell"] is not None]
        if me["cell"] is None or not others:
            return 0.0
        mine = self.line(obs, me["cell"], me["facing"])
        near = min(others, key=lambda f: distance(me["cell"], f["cell"]))
        v = -abs(distance(me["cell"], near["cell"]) - self.keep)
        v += aim * (tuple(near["cell"]) in mine) + 0.5 * sum(tuple(f["cell"]) in mine for f in others)
        v -= self.exposed * sum(tuple(me["cell"]) in self.line(obs, f["cell"], f["facing"]) for f in others)
        cell = obs.cell(*me["cell"])
        if cell.type in ("attack", "move", "rotate", "defence"):
            v += pickup  # a module tile: taken at the end of the turn
        elif cell.tile is not None and obs.rules.data.tile(cell.tile).explosive:
            v -= 3.0
        return v

    def act(self, obs, legal):
        st = obs.state
        n = int(st["n_players"])
        robots = {p: obs.robot(p) for p in range(n)}
        me = robots[obs.seat]
        foes = {p for p in range(n) if p != obs.seat and st["placed"][p] and not st["destroyed"][p]
                and not (st["team"] and st["team_of"][p] == st["team_of"][obs.seat])}
        who = {tuple(r["cell"]): p for p, r in robots.items() if r["cell"] is not None and not st["destroyed"][p]}
        now = {p: {"cell": r["cell"], "facing": r["facing"]} for p, r in robots.items()}
        # the game ends only when the generation-3 stack runs out, and pickups drain it: in a long game
        # (robots whose armour stops every shot) stop fighting and collect
        long_game = int(st["turn"]) > self.stall * n
        pickup, aim = (3 * self.pickup, 0.0) if long_game else (self.pickup, 2.0)
        base = self.position_value(obs, now, foes, pickup, aim)
        # with the generation-3 stack empty, leaving this empty cell ends the game at the refill (E4):
        # worth it when ahead in trophies (the team's in team mode), to be avoided when behind
        score = [sum(int(st["n_trophies"][q]) for q in range(n) if q == p or (st["team"] and st["team_of"][q]
                     == st["team_of"][p])) for p in range(n)]
        lead = score[obs.seat] - max(score[p] for p in foes) if foes else 0
        ending = int(st["stack_n"]) == 0 and obs.cell(*me["cell"]).type is None and lead != 0
        best, best_value = None, 0.0
        for a in legal:
            if a < A_ACT:
                continue
            slot = (a - A_ACT) // PARAM_SPAN // 2
            kind = "attack" if slot == SLOT_C_ATTACK else None if slot > SLOT_C_ATTACK else me["modules"][slot]["type"]
            if kind == "attack":
                v = self.attack_value(obs, a, me, who, foes)
                v = (v - 2.5 if long_game else 3.0 + v) if v > 0 else v - 1.0
            else:
                where = obs.preview(a)
                v = self.position_value(obs, where, foes, pickup, aim) - base
                mine = where[obs.seat]
                if ending and mine["cell"] != me["cell"]:
                    v += 10.0 if lead > 0 else -10.0
                elif mine["cell"] == me["cell"] and (ahead := self.free_ahead(obs, mine["cell"], mine["facing"])):
                    if ending and lead > 0:
                        v += 5.0  # turn towards a free cell to leave by next turn
                    elif long_game and ahead.type in ("attack", "move", "rotate", "defence"):
                        v += pickup / 2  # turn towards a module tile to collect next turn
                if (a - A_ACT) // PARAM_SPAN % 2:
                    v -= self.wear  # the wear rule destroys the module
            v += 1e-6 * self.rng.random()
            if v > best_value:
                best, best_value = a, v
        if best is not None:
            return best
        return next((a for a in legal if a < A_ACT), legal[0])  # cool all, or stop after a speed module

    def place_value(self, obs, a):
        """A start cell with a module to take (attacks best), facing the longest line of fire."""
        c, facing = divmod(a - A_PLACE, 6)
        qr = obs.rules.cell_qr(c)
        kind = obs.cell(*qr).type
        return {"attack": 3, "defence": 2, "move": 1, "rotate": 1}.get(kind, 0) + 0.5 * len(self.line(obs, qr, facing))

    def choose(self, obs, legal):
        if legal[0] >= A_PLACE and legal[-1] < A_PICK:  # set-up: an edge cell and a facing
            return max(legal, key=lambda a: self.place_value(obs, a) + 1e-6 * self.rng.random())
        if obs.my_turn_phase in ("active", "continue"):
            return self.act(obs, legal)
        mods = obs.robot()["modules"]
        tiles = {a: obs.rules.data.tile(mods[a - A_PICK]["module"]) for a in legal if A_PICK <= a < A_PICK + len(mods)}
        phase = int(obs.state["phase"])
        if not tiles:
            return next((a for a in legal if a != A_NONE), legal[0])  # only the central module (or nothing) left
        if phase == PH_HEAT:  # a token on a passive or auto-cool module comes off at once (NOTES II.9)
            return min(tiles, key=lambda a: (not (tiles[a].passive or tiles[a].autocool), self.worth(tiles[a], mods)))
        if phase == PH_WATER:
            return max(tiles, key=lambda a: self.worth(tiles[a], mods))
        if phase in (PH_DISCARD, PH_LIMIT):
            return min(tiles, key=lambda a: self.worth(tiles[a], mods))
        return legal[0]
