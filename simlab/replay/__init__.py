"""Watch a game: every step's board from every view (:mod:`simlab.replay.steps`) on one self-contained page
(:mod:`simlab.replay.page`), from a stored run or a trace (:mod:`simlab.replay.sources`)."""
