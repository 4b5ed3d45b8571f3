"""The seat's random stream: the shared counter-based generator, compiled here so numba inlines it."""

from __future__ import annotations

from simlab.core import kernels
from simlab.core.kernels import bind

next_u64 = bind(kernels.next_u64)  # the shared helper, compiled here so numba inlines it
