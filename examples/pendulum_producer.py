"""A worked Pendulum player: production first, then VP on its worst track, and the legendary VP whenever the
achievement allows it, all through the observation helpers (``action_preview``, ``open_spaces``,
``my_workers``, ``my_tracks``, ``achievement``, ``production``).

    simlab play pendulum --players examples/pendulum_producer.py:Producer --automa A --seed 1
    simlab batch pendulum --players examples/pendulum_producer.py:Producer --automa A --games 50
"""

from simlab import Player
from simlab.games.pendulum.codes import (
    A_ACTION,
    A_CLAIM,
    A_CONQUER,
    A_COUNCIL,
    A_LIFT,
    A_MOVE,
    A_PASS,
    A_PICKUP,
    N_DEST,
)

TRACKS = ("power", "prestige", "popularity")
RESOURCES = ("military", "culture", "gold")
LATER = {"conquer": 4.0, "vp_any": 2.0, "wild_gain": 0.7, "retrieve": 0.5, "grande_swap": 2.0}  # what follows


class Producer(Player):
    """Values a bundle of gains (``worth``) by the tracks' distances to the parchment (a VP on the worst track
    counts most), resources (the first cubes most, and those the achievement asks for much more while the
    legendary token lies on it; in round 4 without the legendary, the 10 cubes of the final card F5), votes
    (more when the achievement or F5 needs them: F5 goes to whoever leads the council), provinces, workers.

    Real-time phase: claims the legendary VP at once, then takes the worker action, stratagem or ribbon whose
    ``action_preview`` is worth most; moves a free worker to the open space whose rewards (production: what
    ``production`` says the slot yields now) are worth most; passes when nothing is worth ``pass_below``. It
    never flips a timer (the schedule flips them at the end of the step, and in solo a flip of yours can set
    the Automas off). Pending decisions and council cards: the best preview; a conquered province goes
    under the brown slot (its edge there is VP)."""

    def __init__(self, pass_below: float = 0.3, move_gain: float = 0.5, legendary: float = 40.0, vote: float = 2.0,
                 keep: float = 3.0):
        self.pass_below, self.move_gain, self.legendary = pass_below, move_gain, legendary
        self.vote, self.keep = vote, keep  # a vote; each cube (or vote) the achievement asks for, on top

    # ---- what things are worth
    def worth(self, obs, bundle):
        """The value of gains (positive amounts) or losses (negative) by name: tracks, resources, votes..."""
        tracks, ach = obs.my_tracks(), obs.achievement()
        wanted = ach["legendary_on_card"] and not ach["have_legendary"] and ach["claims_left"] > 0
        held = {r: c for r, c in zip(RESOURCES, obs.state["res"][obs.seat], strict=True)}
        # round 4 without the legendary: the final card F5 sells it for 10 cubes to whoever leads the votes
        f5 = int(obs.state["round"]) == 4 and not ach["have_legendary"]
        v = 0.0
        for name, n in bundle.items():
            if name in TRACKS:
                v += n * (1.0 + 0.3 * tracks[name]["to_parchment"] if tracks[name]["to_end"] > 0 else 0.0)
            elif name in RESOURCES:
                v += n * (1.0 if held[name] + min(n, 0) < 4 else 0.35)
                if (wanted and name in ach["requirement"]) or (f5 and sum(held.values()) + min(n, 0) < 10):
                    v += self.keep * n  # keep what the achievement (or F5) asks for
            elif name == "votes":
                v += n * (self.vote + (self.keep if (wanted and "votes" in ach["short"]) or f5 else 0.0))
            elif name == "legendary":
                v += n * self.legendary
            elif name in ("provinces", "workers"):
                v += 3.0 * n
        return v

    def token_worth(self, obs, text):
        """A reward in the data's token text (``vp:power:1+votes:2``, ``prod:red``...) as a bundle's worth."""
        v = 0.0
        for item in text.split("+"):
            parts = item.split(":")
            if parts[0] == "vp" and parts[1] == "any":
                v += int(parts[2]) * max(self.worth(obs, {k: 1}) for k in TRACKS)
            elif parts[0] == "vp":
                v += self.worth(obs, {parts[1]: int(parts[2])})
            elif parts[0] in (*RESOURCES, "votes"):
                v += self.worth(obs, {parts[0]: int(parts[1])})
            elif parts[0] == "wild":
                v += 0.7 * int(parts[1])
            elif parts[0] == "prod":  # the mat slot's yield and its provinces' edges
                v += sum(self.token_worth(obs, y) for y in obs.production(parts[1]))
            elif parts[0] == "conquer":
                v += LATER["conquer"]
        return v

    def space_worth(self, obs, space):
        """An open space's best reward less its cost (a quarter of it when the cost is not held now)."""
        cost = {}
        for item in space.cost.split("+"):
            parts = item.split(":")
            if parts[0] in RESOURCES:
                cost[parts[0]] = int(parts[1])
        held = dict(zip(RESOURCES, obs.state["res"][obs.seat], strict=True))
        value = max(self.token_worth(obs, r) for r in space.rewards) - self.worth(obs, cost)
        return value if all(held[r] >= n for r, n in cost.items()) else 0.25 * value

    def preview_worth(self, obs, a):
        """What action ``a`` brings, by the rules' own answer (``action_preview``): net change plus what the
        decisions that follow are likely worth; a stratagem card taken at council by what its effect gains."""
        pv = obs.action_preview(a)
        v = self.worth(obs, pv["change"]) + sum(LATER.get(x, 0.0) for x in pv["then"])
        if A_COUNCIL <= a < A_COUNCIL + 32 and not pv["change"] and not pv["then"] and pv["effect"]:
            v += 0.7 * self.token_worth(obs, pv["effect"])  # a stratagem to hand, max-3, the default VP
        return v

    # ---- decisions
    def best_move(self, obs, legal):
        """(value gained, action) of the best worker move: the open space worth most for the worker kind."""
        workers = {w["worker"]: w for w in obs.my_workers()}
        spaces = {s.index: s for s in obs.open_spaces()}
        best = (0.0, None)
        for a in legal:
            if A_LIFT <= a < A_MOVE:  # solo: out of a bottom box; the re-placement comes next
                w = workers[a - A_LIFT]
                here = 0.0
                there = max((self.space_worth(obs, s) for s in spaces.values()
                             if (s.for_grande if w["grande"] else s.for_common)), default=0.0)
            elif A_MOVE <= a < A_ACTION:
                w, d = divmod(a - A_MOVE, N_DEST)
                w = workers[w]
                if d not in spaces:
                    continue  # the mat
                here = 0.0
                if w["state"] == "waiting" and w["space"] in spaces:
                    here = self.space_worth(obs, spaces[w["space"]])
                elif w["state"] == "waiting":
                    here = self.space_worth(obs, obs.space(w["space"]))
                there = self.space_worth(obs, spaces[d])
            else:
                continue
            gain = there - here - self.move_gain
            if gain > best[0]:
                best = (gain, a)
        return best

    def conquer_choice(self, obs, legal):
        """A province from the display (or the deck) under the slot it feeds best: brown (VP) first."""
        return min((a for a in legal if A_CONQUER <= a < A_COUNCIL), key=lambda a: ((a - A_CONQUER) % 4,
                                                                                     (a - A_CONQUER) // 4))

    def choose(self, obs, legal):
        phase = obs.phase
        if A_CLAIM in legal:
            return A_CLAIM  # the legendary VP
        if phase == "pending" and obs.pending == "conquer":
            return self.conquer_choice(obs, legal)
        if phase in ("start", "replace", "step5"):
            gain, move = self.best_move(obs, legal)
            if move is not None:
                return move
            return A_PASS if A_PASS in legal else max(legal, key=lambda a: self.rng.random())
        if phase in ("pending", "council", "trim"):
            return max(legal, key=lambda a: self.preview_worth(obs, a) + 1e-6 * self.rng.random())
        # real time: worker actions, stratagems, claims (the ribbon), pick up; then moves; else pass
        options = [a for a in legal if A_ACTION <= a < A_CONQUER or a in (A_CLAIM + 1, A_PICKUP)]
        value, act = max(((self.preview_worth(obs, a), a) for a in options), default=(0.0, None))
        gain, move = self.best_move(obs, legal)
        if act is not None and value >= self.pass_below and value >= gain:
            return act
        if move is not None:
            return move
        return A_PASS
