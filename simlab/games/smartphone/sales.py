"""Sales (S43-S47): which buyer a company may sell to.
"""

from __future__ import annotations

from numba import njit

from simlab.core.jit import kernel
from simlab.games.smartphone.codes import (
    BY_CAP,
    BY_KIND,
    BY_REGION,
    BY_TECH,
    E_4G_OUTSIDE,
    RED,
    RG_BUYERS,
    RG_FIRST_BUYER,
)
from simlab.games.smartphone.tablets import (
    has,
)

# ---------------------------------------------------------------- sales (S43-S47)


@njit(cache=True, inline="always")
def can_sell(s, T, p: int, b: int) -> bool:
    """Whether seat p may put a good on buyer b now (S43-S45, 4G back)."""
    if s.buyer_owner[b] >= 0:
        return False
    r = T.buyers[b, BY_REGION]
    if s.retailer[r] >= 0:
        return False
    if s.own_offices[p, r] == 0 and (s.used_outside[p] or not has(s, T, p, E_4G_OUTSIDE)):
        return False
    if T.buyers[b, BY_KIND] == RED:
        return s.price[p] <= T.buyers[b, BY_CAP]
    return s.researched[p, T.buyers[b, BY_TECH]] == 1


@kernel
def any_sale(s, T, p: int) -> bool:
    """Whether seat p can put a good on any buyer now (region by region, like ``can_sell``)."""
    outside = s.used_outside[p] == 0 and has(s, T, p, E_4G_OUTSIDE)
    for r in range(T.region.shape[0]):
        if s.retailer[r] >= 0 or (s.own_offices[p, r] == 0 and not outside):
            continue
        first = T.region[r, RG_FIRST_BUYER]
        for k in range(T.region[r, RG_BUYERS]):
            b = first + k
            if s.buyer_owner[b] >= 0:
                continue
            if T.buyers[b, BY_KIND] == RED:
                if s.price[p] <= T.buyers[b, BY_CAP]:
                    return True
            elif s.researched[p, T.buyers[b, BY_TECH]] == 1:
                return True
    return False


