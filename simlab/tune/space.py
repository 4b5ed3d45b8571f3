"""The allowed candidates of a tune: every change its knobs can make within the change budget.

A candidate gives some knobs a value that changes the data (a knob left at its printed value is
no change); it is *allowed* when its changes stay within ``max_changes`` (data rows) and
``max_distance``. :class:`Space` counts the allowed candidates exactly (a small dynamic programme
over the knobs, whatever the size of the space), lists them when there are few enough, and draws
untried ones for the search (:mod:`simlab.tune.search`):

- when the sampler proposes a candidate already tried, or one over the budget, the search plays
  an untried allowed candidate instead: a *neighbour* of the proposal when there is one (one knob
  dropped, added or set to another value), else one drawn at random, else (a small space) the
  first untried one in the listing; the choice is seeded by the tune seed and the trial number;
- when the whole space is no larger than the trial budget, the search lists it: every allowed
  candidate once, no sampler;
- when every allowed candidate has been tried, the search stops and says so.

:func:`unusable_knobs` finds, when the spec is read, a knob that no value can change within the
budget (a knob matching 3 rows with ``max_changes = 2``), and values of a knob that can never fit.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from simlab.tune.knobs import Knob

LIST_LIMIT = 50_000  # a space of at most this many allowed candidates is listed (exhaustive search, exact exhaustion)
DRAWS = 400  # random draws tried for an untried allowed candidate before the listing (or giving up)


@dataclass(frozen=True)
class Option:
    """One value of a knob that changes the data: ``cells`` rows changed at ``distance``."""

    value: Any
    label: str
    cells: int
    distance: float


def knob_options(knob: Knob) -> list[Option]:
    """The knob's values that change the data (its printed value, or an ``add`` of 0, is no change), in the
    knob's order, each label once."""
    out, seen = [], set()
    for value in knob.choices:
        cells, distance = knob.cost(value)
        label = knob.label(value)
        if cells > 0 and label not in seen:
            seen.add(label)
            out.append(Option(value, label, cells, distance))
    return out


def _fits(cells: int, distance: float, max_changes: int, max_distance: float | None) -> bool:
    return cells <= max_changes and (max_distance is None or distance <= max_distance + 1e-9)


def unusable_knobs(knobs: Sequence[Knob], max_changes: int,
                   max_distance: float | None) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """Knobs no value of which fits the change budget on its own, and knobs some values of which never fit:
    two lists of (knob index, why)."""
    never, partly = [], []
    for i, knob in enumerate(knobs):
        options = knob_options(knob)
        bad = [o for o in options if not _fits(o.cells, o.distance, max_changes, max_distance)]
        if not options or not bad:
            continue
        why = []
        over_rows = [o for o in bad if o.cells > max_changes]
        if over_rows:
            why.append(f"it changes {over_rows[0].cells} rows > max_changes {max_changes}")
        over_distance = [o for o in bad if o.cells <= max_changes]
        if over_distance:
            why.append(f"distance {min(o.distance for o in over_distance):g} or more > max_distance "
                       f"{max_distance:g}")
        if len(bad) == len(options):
            never.append((i, "; ".join(why)))
        else:
            partly.append((i, f"values {', '.join(o.label for o in bad)} can never be played: " + "; ".join(why)))
    return never, partly


class Space:
    """The allowed candidates of a tune's knobs under its change budget."""

    def __init__(self, knobs: Sequence[Knob], max_changes: int, max_distance: float | None) -> None:
        self.knobs = list(knobs)
        self.max_changes = max_changes
        self.max_distance = max_distance
        self.options = [knob_options(k) for k in self.knobs]
        self.size = self._count()
        self._listing: list[dict[str, Any]] | None = None

    # ------------------------------------------------------------------ counting and listing
    def _count(self) -> int:
        """How many allowed candidates there are, the printed data (no change) included."""
        states: dict[tuple[int, float], int] = {(0, 0.0): 1}
        for options in self.options:
            nxt = dict(states)
            for (cells, distance), n in states.items():
                for o in options:
                    key = (cells + o.cells, round(distance + o.distance, 9))
                    if _fits(key[0], key[1], self.max_changes, self.max_distance):
                        nxt[key] = nxt.get(key, 0) + n
            states = nxt
        return sum(states.values())

    @property
    def listable(self) -> bool:
        """Whether the space is small enough to list (:data:`LIST_LIMIT`)."""
        return self.size <= LIST_LIMIT

    def listing(self) -> list[dict[str, Any]]:
        """Every allowed candidate once: the printed data first, then by number of knobs changed, in knob
        and value order. Only for a :attr:`listable` space."""
        if self._listing is None:
            if not self.listable:
                raise ValueError(f"{self.size:,} allowed candidates are too many to list")
            found = list(self._walk(0, 0, 0.0, {}))
            found.sort(key=len)  # stable: knob and value order within a number of knobs
            self._listing = found
        return self._listing

    def _walk(self, i: int, cells: int, distance: float, chosen: dict[str, Any]) -> Iterator[dict[str, Any]]:
        if i == len(self.knobs):
            yield dict(chosen)
            return
        yield from self._walk(i + 1, cells, distance, chosen)
        name = self.knobs[i].name
        for o in self.options[i]:
            if _fits(cells + o.cells, distance + o.distance, self.max_changes, self.max_distance):
                chosen[name] = o.value
                yield from self._walk(i + 1, cells + o.cells, distance + o.distance, chosen)
                del chosen[name]

    # ------------------------------------------------------------------ candidates
    def changed(self, candidate: dict[str, Any]) -> dict[str, Any]:
        """The candidate without the knobs it leaves at the printed data."""
        return {k.name: candidate[k.name] for k in self.knobs if k.name in candidate
                and k.cost(candidate[k.name])[0] > 0}

    def cost(self, candidate: dict[str, Any]) -> tuple[int, float]:
        """(rows changed, distance) of a candidate."""
        cells, distance = 0, 0.0
        for k in self.knobs:
            if k.name in candidate:
                c, d = k.cost(candidate[k.name])
                cells, distance = cells + c, distance + d
        return cells, distance

    def allowed(self, candidate: dict[str, Any]) -> bool:
        """Whether the candidate keeps to the change budget."""
        return _fits(*self.cost(candidate), self.max_changes, self.max_distance)

    def neighbours(self, candidate: dict[str, Any]) -> list[dict[str, Any]]:
        """The candidates one step from ``candidate``: a changed knob dropped or set to another value, or an
        unchanged knob changed (allowed or not; in knob and value order)."""
        base = self.changed(candidate)
        out = []
        for knob, options in zip(self.knobs, self.options, strict=True):
            if knob.name in base:
                out.append({k: v for k, v in base.items() if k != knob.name})
                current = knob.label(base[knob.name])
                out += [{**base, knob.name: o.value} for o in options if o.label != current]
            else:
                out += [{**base, knob.name: o.value} for o in options]
        return out

    def draw(self, rng: np.random.Generator) -> dict[str, Any]:
        """A random candidate: 1 to ``max_changes`` knobs (at most all), each at one of its changing values."""
        usable = [i for i, o in enumerate(self.options) if o]
        if not usable:
            return {}
        k = int(rng.integers(1, min(self.max_changes, len(usable)) + 1))
        picks = sorted(int(i) for i in rng.choice(len(usable), size=k, replace=False))
        out = {}
        for p in picks:
            i = usable[p]
            out[self.knobs[i].name] = self.options[i][int(rng.integers(len(self.options[i])))].value
        return out

    def untried(self, proposal: dict[str, Any], tried: set[str], key: Any,
                rng: np.random.Generator) -> dict[str, Any] | None:
        """An allowed candidate whose ``key(candidate)`` is not in ``tried``: a neighbour of ``proposal`` at
        random, else a random draw, else the first untried one in the listing; None when there is none (a
        listed space exhausted) or none was found (a space too large to list, all draws tried)."""
        near = [c for c in self.neighbours(proposal) if self.allowed(c) and key(c) not in tried]
        if near:
            return near[int(rng.integers(len(near)))]
        for _ in range(DRAWS):
            c = self.draw(rng)
            if self.allowed(c) and key(c) not in tried:
                return c
        if self.listable:
            return next((c for c in self.listing() if key(c) not in tried), None)
        return None


def params_of(knobs: Sequence[Knob], candidate: dict[str, Any], int_range: Any) -> dict[str, Any]:
    """The Optuna parameters that :func:`simlab.tune.search.suggest` reads back as ``candidate`` (``int_range``
    tells a knob sampled as an integer)."""
    names = [k.name for k in knobs if k.name in candidate]
    params: dict[str, Any] = {"changes": len(names)}
    for i, name in enumerate(names):
        knob = next(k for k in knobs if k.name == name)
        params[f"change{i}"] = name
        value = candidate[name]
        params[f"value:{name}"] = int(value) if int_range(knob) is not None else knob.label(value)
    return params

