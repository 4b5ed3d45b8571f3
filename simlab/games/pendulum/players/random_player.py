"""The random player: uniform over the legal actions, passing with probability ``pass_prob``."""

from __future__ import annotations

from simlab.core.jit import kernel
from simlab.core.rng import below, unit
from simlab.games.pendulum.codes import (
    A_PASS,
)
from simlab.games.pendulum.players.rng import next_u64
from simlab.games.pendulum.state import STREAM_SEAT0


@kernel
def random_action(params, s_arr, legal, n_legal: int) -> int:
    """Uniform over the legal actions; the pass with probability ``params[0]`` where it is legal."""
    s = s_arr[0]
    if n_legal == 1:
        return legal[0]
    stream = STREAM_SEAT0 + s.actor
    if legal[0] == A_PASS and unit(next_u64(s, stream)) < params[0]:
        return A_PASS
    return legal[below(next_u64(s, stream), n_legal)]
