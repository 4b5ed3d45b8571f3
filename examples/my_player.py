from simlab import Player


class InfoLover(Player):
    """Buys information robots when it can, passes only when it must."""

    def choose(self, obs, legal):
        buys = [a for a in legal if not obs.decode(a).is_pass]
        if not buys:
            return legal[0]  # the pass is all that is left
        def value(a):
            d = obs.decode(a)
            return (obs.card(obs.factory[d.column]).type == "information", -d.influence, self.rng.random())
        return max(buys, key=value)
