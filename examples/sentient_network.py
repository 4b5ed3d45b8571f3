"""A worked Sentient player: builds its network by the VP each take adds, and buys the robots its investors pay for.

    simlab batch sentient --players examples/sentient_network.py:NetworkBuilder,greedy,random --games 200
"""

from simlab import Player


class NetworkBuilder(Player):
    """Scores every take by what it adds to the network this round (``obs.score_change``), plus what the card
    is worth at the end through the investors it holds of the card's type, less the assistants it spends;
    sends spare assistants for influence in the last take of a round; passes when nothing is worth
    ``pass_below``."""

    def __init__(self, investor_weight: float = 1.0, assistant_cost: float = 0.6, pass_below: float = 1.0):
        self.investor_weight = investor_weight
        self.assistant_cost = assistant_cost
        self.pass_below = pass_below

    def choose(self, obs, legal):
        held = obs.investors()  # investor tokens by type: each multiplies the cards of its type at the end
        agents_left = int(obs.state["agents"][obs.seat])
        change = {}  # the network VP does not depend on influence: one kernel step per (column, slot, blocks)

        def value(a):
            d = obs.decode(a)
            if d.is_pass:
                return self.pass_below
            key = (d.column, d.slot, d.block_left, d.block_right)
            if key not in change:
                change[key] = obs.score_change(a)
            card = obs.card(obs.factory[d.column])
            v = change[key] + self.investor_weight * held[card.type]
            v -= self.assistant_cost * (d.block_left + d.block_right)
            if agents_left > 1:  # keep assistants for later takes; spend them on influence with the last agent
                v -= self.assistant_cost * d.influence
            else:
                v += 0.1 * d.influence
            return v + 1e-6 * self.rng.random()  # random tie-break from the seat's own stream

        return max(legal, key=value)
