"""Where the game was won: every decision of a seat valued by the shared search from that seat's information set.

For each decision (of one seat, or of every seat) with a choice, the game's ISMCTS player (``simlab.core.search``,
the strong-play search) searches the position the seat faced, determinising only what the seat could not know,
with a budget of ``budget`` iterations. Every root child is an alternative: its value is the mean of the seat's
playout values (its win share at the end of a playout, ties shared; the game's estimate where a playout is cut
off), with a 95% normal interval over its playouts (a child with fewer than two playouts has no interval). The
search's choice is its most visited child; the move played *lost* the difference between the choice's value and
its own. The decisions that turned the game are those with the largest losses (at most ``TURNED``, each at least
``TURNED_LOSS``), a stated rule a page repeats.

The search draws its key from the seat's own random stream in that position, so the same game, seat and budget
give the same analysis on any machine; it is cached beside the run (``RUN/analysis/``) and read back when the
game, variant, seat and budget match and so does the search key: a hash of the search's whole parameter vector
(every named parameter, not only the budget) and of the code it runs (the game's package and the shared core), so
a change to either analyses the game again.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simlab.core.compiled import CompiledGame
from simlab.core.errors import SimlabError
from simlab.core.game import Game
from simlab.core.player import resolve_player
from simlab.core.search import root_children, root_stats_size
from simlab.core.version import __version__
from simlab.replay.steps import Replay
from simlab.runner.inputs import CORE_DIR, code_hash, game_code_hash

TURNED = 3  # at most this many decisions are marked "the game turned here"
TURNED_LOSS = 0.05  # ... each losing at least this much win share against the search's choice
SHOWN = 8  # the page lists a decision's best alternatives, this many (plus the move played when it is not among them)
Z95 = 1.959963984540054


@dataclass
class Alternative:
    """One legal move at a decision: the search's value for it (the seat's win share) and its playouts."""

    action: int
    text: str
    visits: int
    value: float | None
    lo: float | None
    hi: float | None
    played: bool
    chosen_by_search: bool


@dataclass
class Decision:
    """One analysed decision: the alternatives (best value first) and what the move played lost."""

    step: int
    seat: int
    alternatives: list[Alternative]
    loss: float | None  # the search's choice's value minus the played move's (None: the played move went unvisited)


@dataclass
class Analysis:
    """The analysed decisions of one game, the decisions that turned it, and how they were valued."""

    game: str
    seed: int
    seat: int | None
    budget: int
    decisions: list[Decision]
    turned: list[int] = field(default_factory=list)
    version: str = __version__
    search: str = ""  # the search key (:func:`search_key`) the values were found with

    @property
    def method(self) -> str:
        """How the values were found, in words (the page and the table say it)."""
        return (f"ISMCTS from the seat's own view, {self.budget} iterations per decision; a value is the seat's "
                f"win share in the search's playouts, with a 95% interval over them")

    def for_page(self) -> dict[str, Any]:
        """The analysis as the replay page reads it (values per step, the turned steps)."""
        return {"method": self.method, "turned": self.turned, "decisions": {
            str(d.step): {"seat": d.seat, "loss": d.loss, "method": self.method, "n": len(d.alternatives),
                          "untried": sum(a.visits == 0 for a in d.alternatives), "alternatives": [
                {"action": a.text, "value": a.value, "lo": a.lo, "hi": a.hi, "visits": a.visits, "played": a.played}
                for i, a in enumerate(d.alternatives) if i < SHOWN or a.played]}
            for d in self.decisions}}

    def to_json(self) -> dict[str, Any]:
        """Everything, for the cache file."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Analysis:
        """Read back :meth:`to_json`."""
        decisions = [Decision(d["step"], d["seat"], [Alternative(**a) for a in d["alternatives"]], d["loss"])
                     for d in data["decisions"]]
        return cls(data["game"], data["seed"], data["seat"], data["budget"], decisions, data["turned"],
                   data["version"], data.get("search", ""))


def default_budget(game: Game) -> int:
    """The game's search player's default iterations (the analysis budget unless one is given)."""
    if not isinstance(game, CompiledGame) or game.kernels.search_profile is None:
        raise SimlabError(f"{game.name} has no shared search to analyse its decisions with")
    return int(game.builtin_players()[game.kernels.search_player].params["iterations"])


def search_params(game: Game, budget: int) -> np.ndarray:
    """The parameter vector of the game's search player at ``budget`` iterations (its other parameters at their
    defaults), as the analysis runs it."""
    if budget < 1:
        raise SimlabError(f"--budget {budget}: must be at least 1 iteration")
    return resolve_player(game, f"{game.kernels.search_player}(iterations={budget})").params


def search_key(game: Game, budget: int) -> str:
    """The first 16 hex digits of a SHA-256 over the search's parameter vector at ``budget`` and the code it runs
    (the game's package and the shared core): a cached analysis is reused only under the same key."""
    digest = hashlib.sha256(np.ascontiguousarray(search_params(game, budget), dtype=np.float64).tobytes())
    code = game_code_hash(game)  # a game without a package folder: the shared core alone
    digest.update((code[1] if code is not None else code_hash([CORE_DIR])).encode())
    return digest.hexdigest()[:16]


def _legal_before(game: Game, rules: Any, replay: Replay) -> list[np.ndarray]:
    """The legal actions at each step's decision (index i: decision i, step i + 1): step 0's from the set-up,
    then each from applying the previous decision to the position it was made in."""
    log = game.new_log(0)
    out = [game.new_game(rules, replay.seed, log)[1].copy()]
    for step in replay.steps[1:-1]:
        out.append(game.step(rules, step.before.copy(), step.action, log).copy())
    return out


def analyse_decision(game: CompiledGame, rules: Any, before: np.ndarray, legal: np.ndarray, played: int,
                     params: np.ndarray) -> list[Alternative]:
    """The alternatives of one decision, valued by one search from the seat's view (best value first)."""
    k = game.kernels
    buf = np.empty(k.max_actions, dtype=np.int64)
    buf[:len(legal)] = legal
    stats = np.zeros(root_stats_size(k.max_actions))
    choice = int(k.search_profile(params, before.copy(), buf, len(legal), *game.kernel_args(rules), stats))
    found = {a: (n, mean, sd) for a, n, mean, sd in root_children(stats)}
    out = []
    for a in legal.tolist():
        n, mean, sd = found.get(a, (0, float("nan"), float("nan")))
        half = Z95 * sd / math.sqrt(n) if n > 1 and math.isfinite(sd) else None
        out.append(Alternative(
            int(a), game.describe_action(rules, before, a), int(n), None if n == 0 else mean,
            None if half is None else max(0.0, mean - half), None if half is None else min(1.0, mean + half),
            a == played, a == choice))
    out.sort(key=lambda alt: (alt.value is None, -(alt.value or 0.0), -alt.visits))
    return out


def analyse_replay(game: Game, rules: Any, replay: Replay, seat: int | None = None, budget: int | None = None,
                   progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Value every decision of ``seat`` (every seat's if None) in ``replay`` with the game's search."""
    budget = default_budget(game) if budget is None else budget  # also: the game has the shared search
    if seat is not None and not 0 <= seat < replay.n_seats:
        raise SimlabError(f"--seat {seat}: the game has seats 0-{replay.n_seats - 1}")
    params = search_params(game, budget)
    legal = _legal_before(game, rules, replay)
    todo = [s for s in replay.steps[1:] if (seat is None or s.seat == seat) and len(legal[s.index - 1]) > 1]
    decisions = []
    for done, step in enumerate(todo):
        alts = analyse_decision(game, rules, step.before, legal[step.index - 1], step.action, params)
        chosen = next(a for a in alts if a.chosen_by_search)
        mine = next(a for a in alts if a.played)
        loss = None if mine.value is None or chosen.value is None else max(0.0, chosen.value - mine.value)
        decisions.append(Decision(step.index, step.seat, alts, loss))
        if progress is not None:
            progress(done + 1, len(todo))
    ranked = sorted((d for d in decisions if d.loss is not None and d.loss >= TURNED_LOSS),
                    key=lambda d: (-d.loss, d.step))
    turned = sorted(d.step for d in ranked[:TURNED])
    return Analysis(replay.game, replay.seed, seat, budget, decisions, turned, search=search_key(game, budget))


def cache_path(run: Path, game_index: int, variant: str, seat: int | None, budget: int) -> Path:
    """Where the analysis of one stored game is cached, beside the run."""
    who = "all" if seat is None else str(seat)
    return run / "analysis" / f"game-{game_index}-{variant}-seat-{who}-budget-{budget}.json"


def cached(path: Path, game: str, seed: int, key: str) -> Analysis | None:
    """The cached analysis at ``path`` when it is an analysis of this game made under the search key ``key``
    (:func:`search_key`: the same parameters and code), else None."""
    try:
        found = Analysis.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return found if (found.version, found.game, found.seed, found.search) == (__version__, game, seed, key) else None


def store(path: Path, analysis: Analysis) -> None:
    """Write the analysis beside the run (atomically: a reader never sees half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_suffix(".part")
    part.write_text(json.dumps(analysis.to_json(), allow_nan=True), encoding="utf-8")
    part.replace(path)
