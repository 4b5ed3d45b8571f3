"""A worked Smartphone Inc. player: plans by the VP its goods can earn at the price the plan sets.

    simlab batch smartphone --players examples/smartphone_planner.py:Planner,greedy,random --games 100
"""

from simlab import Player
from simlab.games.smartphone.data import TECHNOLOGIES
from simlab.games.smartphone.rules import A_ARR, A_DONE, A_PICK


class Planner(Player):
    """Planning: every arrangement (and every upgrade placement) is judged by ``obs.plan_preview``: goods it
    can sell at the plan's price to the free buyers in regions where it has an office, plus markers and
    upgrades, plus a little for an early priority. Other decisions: always use a marker, an office or a
    sale when one is legal (never stop early), preferring the first-listed option."""

    def __init__(self, research: float = 1.5, logistics: float = 2.0, upgrade: float = 2.0, early: float = 0.3):
        self.research, self.logistics, self.upgrade, self.early = research, logistics, upgrade, early

    def buyers_at(self, obs, price):
        """Free buyers in this seat's office regions that would buy at ``price``."""
        researched = obs.state["researched"][obs.seat]
        n = 0
        for region in obs.regions():
            if obs.seat not in region.offices or region.retailer is not None:
                continue
            for b in region.buyers:
                if b.owner >= 0:
                    continue
                if (b.kind == "red" and price <= b.cap) or (
                        b.kind == "purple" and researched[TECHNOLOGIES.index(b.technology)]):
                    n += 1
        return n

    def value(self, obs, pv, buyers):
        """What a plan preview is worth: sales at its price, markers, upgrades, less a late priority."""
        sold = min(pv.goods, buyers[pv.price])
        v = sold * pv.price + self.research * pv.research + self.logistics * pv.logistics
        v += self.upgrade * pv.upgrades - self.early * pv.price
        return v

    def choose(self, obs, legal):
        if obs.decision in ("arrange", "place_upgrade"):
            buyers = {price: self.buyers_at(obs, price) for price in range(21)}
            options = [a for a in legal if A_ARR <= a < A_PICK or a == A_DONE]
            return max(options, key=lambda a: (self.value(obs, obs.plan_preview(a), buyers)
                                               + (0.01 if a == A_DONE else 0) + 1e-6 * self.rng.random()))
        doing = [a for a in legal if a != A_DONE]
        return doing[0] if doing else legal[0]

