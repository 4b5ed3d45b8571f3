"""Balance findings under heuristic play and under strong play, side by side, with a verdict per finding.

A *companion* spec (``[companion]`` in an experiment spec) re-plays the questions of a published
study with search players, on the study's own seed so that its deals are the study's first deals.
This module compares the two stored runs measure by measure:

- the **balance measures** both runs have: the win rate of each seat and of each start position per
  player count, and the first player's win rate per player count, each against its fair share
  1/n; and the win rate of a heuristic player under the study against the strong player that
  replaces it (``players``: e.g. the study's best heuristic against the search), per variant;
- each estimate with its 95% deal-bootstrap interval (percentile), and the difference strong −
  heuristic with its interval and p-value (:mod:`simlab.compare`'s deal bootstrap: **paired by deal**
  over the union of the deals when the runs share deal seeds, independent otherwise);
- **the page's multiple-comparison rule**: Holm at 5% within each family of the page (the
  heuristic estimates against fair, the strong estimates against fair, and the differences), each
  family being every balance row shown;
- a **verdict** per row (:func:`verdict`): ``holds``, ``no edge under either``, ``changes``, ``not
  confirmed`` or ``new under strong play``.

Nothing here names a game: which measures exist comes from the runs' tables and the game contract.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simlab.analysis.headlines import format_p
from simlab.analysis.multiple import adjust_pvalues
from simlab.analysis.paired import ratios, simultaneous_differences, two_sided_p
from simlab.compare import deal_sums_of, measures, resampled, seat_frame
from simlab.core.errors import SimlabError
from simlab.runner.spec import Companion

DRAWS = 2000
LEVEL = 0.95
ALPHA = 0.05

HOLDS = "holds"
HOLDS_NO_EDGE = "no edge under either"
CHANGES = "changes"
NOT_CONFIRMED = "not confirmed"
NEW = "new under strong play"
SAME = "no detectable change"
VERDICTS = (HOLDS, HOLDS_NO_EDGE, CHANGES, NOT_CONFIRMED, NEW, SAME)
_PLAYERS_RE = re.compile(r"\((\d+) players\)$|^(\d+) players$")


def fair_share(of: str) -> float | None:
    """1/n for a row of a seat, a position or the first player at n players; None for a player's row."""
    if of.startswith("player "):
        return None
    match = _PLAYERS_RE.search(of)
    if not match:
        return None
    n = int(match.group(1) or match.group(2))
    return 1.0 / n if n > 1 else None


def verdict(has_fair: bool, edge_heuristic: bool, edge_strong: bool, same_side: bool, differs: bool) -> str:
    """The verdict on one finding (each flag already adjusted by the page's Holm rule).

    - ``changes``: strong play moves the estimate (the paired difference survives Holm);
    - for a share with a fair value: ``holds`` (an edge under both, on the same side of fair),
      ``no edge under either`` (no detectable edge under either play), ``not confirmed`` (an edge under the
      heuristics that strong play does not show, without a detectable change: too few strong games
      to tell), ``new under strong play`` (an edge only under strong play, without a detectable change);
    - for a player's win rate (no fair value): ``no detectable change`` unless it ``changes``.
    """
    if differs:
        return CHANGES
    if not has_fair:
        return SAME
    if edge_heuristic and edge_strong:
        return HOLDS if same_side else CHANGES
    if not edge_heuristic and not edge_strong:
        return HOLDS_NO_EDGE
    return NOT_CONFIRMED if edge_heuristic else NEW


def _holm(p: np.ndarray) -> np.ndarray:
    ok = np.isfinite(p)
    out = np.full(p.shape, np.nan)
    if ok.any():
        out[ok] = adjust_pvalues(p[ok], "holm")
    return out


def _balance_keys(long_a: pl.DataFrame, long_b: pl.DataFrame, players: dict[str, str]) -> list[tuple[str, str, str]]:
    """(measure, of in A, of in B) of the balance rows both runs have."""
    keys_a = set(long_a.select("measure", "of").unique().iter_rows())
    keys_b = set(long_b.select("measure", "of").unique().iter_rows())
    rows = []
    for measure, of in sorted(keys_a & keys_b):
        balance = measure == "first player win rate" or (measure == "win rate" and not of.startswith("player "))
        if balance and fair_share(of) is not None:  # a seat of a solo game is no balance question
            rows.append((measure, of, of))
    for heuristic, strong in players.items():
        key_a, key_b = ("win rate", f"player {heuristic}"), ("win rate", f"player {strong}")
        if key_a in keys_a and key_b in keys_b:
            rows.append(("win rate", key_a[1], key_b[1]))
    return rows


def side_by_side(heuristic_run: str | Path, strong_run: str | Path, companion: Companion,
                 draws: int = DRAWS, seed: int = 0) -> pl.DataFrame:
    """The balance rows of both runs, per variant of the strong run, with intervals, tests and verdicts.

    Columns: ``variant``, ``variant_label`` (the variant with its options, empty for a run of one
    variant), ``measure``, ``of`` (the study's row; for a player, ``player H → S``),
    ``fair`` (1/n or null), ``heuristic`` (+ ``_lo``, ``_hi``), ``strong`` (+ ``_lo``, ``_hi``),
    ``diff`` (strong − heuristic, + ``_lo``, ``_hi``, ``diff_p``), ``paired`` (shared deal seeds),
    ``shared_deals``, ``deals_heuristic``, ``deals_strong``, the Holm-adjusted p-values
    ``heuristic_p_holm`` / ``strong_p_holm`` (against fair) and ``diff_p_holm``, and ``verdict``.
    """
    from simlab.results import manifest, resolve_run

    path_a, path_b = resolve_run(heuristic_run), resolve_run(strong_run)
    variants_b = [str(v) for v in manifest(path_b).get("variants") or []]
    labels = variant_labels(manifest(path_b))
    variants_a = {str(v) for v in manifest(path_a).get("variants") or []}
    rows: list[dict[str, Any]] = []
    for k, variant in enumerate(variants_b):
        variant_a = companion.variants.get(variant, variant)
        if variant_a not in variants_a:
            raise SimlabError(f"companion: the study's run {path_a} has no variant {variant_a!r} to compare with "
                              f"{variant!r} (it has {', '.join(sorted(variants_a))}); map it in companion.variants")
        seats_a, games_a, game_a = seat_frame(path_a, variant_a, "A")
        seats_b, games_b, game_b = seat_frame(path_b, variant, "B")
        if game_a != game_b:
            raise SimlabError(f"companion: the study {path_a} is a {game_a} run and {path_b} a {game_b} run")
        found = _variant_rows(measures(seats_a, games_a, game_a), measures(seats_b, games_b, game_b),
                              companion.players, variant, draws, seed + 104_729 * k)
        rows.extend({**r, "variant_label": labels.get(variant, variant) if len(variants_b) > 1 else ""}
                    for r in found)
    if not rows:
        raise SimlabError(f"companion: {path_a} and {path_b} have no balance measure in common (seat, start position, "
                          "first player, or a player mapped in companion.players)")
    table = pl.DataFrame(rows)
    holm = {name: _holm(table[name].fill_null(np.nan).to_numpy()) for name in ("heuristic_p", "strong_p", "diff_p")}
    table = table.with_columns(pl.Series("heuristic_p_holm", holm["heuristic_p"]),
                               pl.Series("strong_p_holm", holm["strong_p"]), pl.Series("diff_p_holm", holm["diff_p"]))
    verdicts = []
    for r in table.iter_rows(named=True):
        fair = r["fair"]
        edge_a = fair is not None and bool(np.nan_to_num(r["heuristic_p_holm"], nan=1.0) <= ALPHA)
        edge_b = fair is not None and bool(np.nan_to_num(r["strong_p_holm"], nan=1.0) <= ALPHA)
        same = fair is not None and (r["heuristic"] - fair) * (r["strong"] - fair) > 0
        verdicts.append(verdict(fair is not None, edge_a, edge_b, same,
                                bool(np.nan_to_num(r["diff_p_holm"], nan=1.0) <= ALPHA)))
    return table.with_columns(pl.Series("verdict", verdicts, dtype=pl.Utf8))


def _variant_rows(long_a: pl.DataFrame, long_b: pl.DataFrame, players: dict[str, str], variant: str,
                  draws: int, seed: int) -> list[dict[str, Any]]:
    keys = _balance_keys(long_a, long_b, players)
    if not keys:
        return []
    sa = deal_sums_of(long_a, [(m, a) for m, a, _ in keys])
    sb = deal_sums_of(long_b, [(m, b) for m, _, b in keys])
    shared = np.intersect1d(sa.deals, sb.deals)
    point_a, point_b = ratios(sa), ratios(sb)
    if shared.size:
        union = np.union1d(sa.deals, sb.deals)
        reps_a, reps_b = resampled(sa.on(union), draws, seed), resampled(sb.on(union), draws, seed)
    else:
        reps_a, reps_b = resampled(sa, draws, seed), resampled(sb, draws, seed + 1)
    tail = (1 - LEVEL) / 2
    out = []
    for k, (measure, of_a, of_b) in enumerate(keys):
        fair = fair_share(of_a)
        a, b = float(point_a[k]), float(point_b[k])
        diff, lo, hi = simultaneous_differences(point_b[k:k + 1], point_a[k:k + 1], reps_b[:, k:k + 1],
                                                reps_a[:, k:k + 1], LEVEL)[0]
        a_lo, a_hi = (float(q) for q in np.nanquantile(reps_a[:, k], [tail, 1 - tail]))
        b_lo, b_hi = (float(q) for q in np.nanquantile(reps_b[:, k], [tail, 1 - tail]))
        out.append({
            "variant": variant, "measure": measure,
            "of": of_a if of_a == of_b else f"{of_a} → {of_b.removeprefix('player ')}",
            "fair": fair, "heuristic": a, "heuristic_lo": a_lo, "heuristic_hi": a_hi,
            "strong": b, "strong_lo": b_lo, "strong_hi": b_hi, "diff": diff, "diff_lo": lo, "diff_hi": hi,
            "diff_p": two_sided_p(diff, reps_b[:, k] - reps_a[:, k]),
            "heuristic_p": two_sided_p(a - fair, reps_a[:, k] - fair) if fair is not None else None,
            "strong_p": two_sided_p(b - fair, reps_b[:, k] - fair) if fair is not None else None,
            "paired": bool(shared.size), "shared_deals": int(shared.size),
            "deals_heuristic": int(sa.deals.size), "deals_strong": int(sb.deals.size)})
    return out


def variant_labels(man: dict[str, Any]) -> dict[str, str]:
    """Each variant of a run named with the options it sets, e.g. ``A (automa_level A)``; a variant
    that leaves an option others set at the game's default is named with that default."""
    from simlab.core.game import get_game

    options = {v: dict((man.get("data") or {}).get(v, {}).get("options") or {}) for v in man.get("variants") or []}
    keys = sorted({k for o in options.values() for k in o})
    try:
        defaults = {k: o.default for k, o in get_game(str(man.get("game"))).option_table().items()}
    except Exception:  # a game no longer registered: the options the variants set
        defaults = {}
    out = {}
    for variant, set_here in options.items():
        parts = [f"{k} {set_here[k]}" if k in set_here else f"{k} {defaults[k]}, the default"
                 for k in keys if k in set_here or k in defaults]
        out[variant] = f"{variant} ({'; '.join(parts)})" if parts else variant
    return out


def describe(row: dict[str, Any]) -> str:
    """One sentence for one row: both estimates, the paired difference and the verdict."""
    what = row["of"] if row["measure"] == "win rate" else f"the first player at {row['of']}"
    if row.get("variant_label"):
        what = f"{row['variant_label']}: {what}"
    fair = f" (fair {row['fair']:.3f})" if row["fair"] is not None else ""
    how = "paired by deal" if row["paired"] else "independent runs"
    return (f"{what}{fair}: {row['heuristic']:.3f} [{row['heuristic_lo']:.3f}, {row['heuristic_hi']:.3f}] under the "
            f"heuristics, {row['strong']:.3f} [{row['strong_lo']:.3f}, {row['strong_hi']:.3f}] under strong play; "
            f"difference {row['diff']:+.3f} [{row['diff_lo']:+.3f}, {row['diff_hi']:+.3f}] ({how}, Holm p "
            f"{format_p(min(1.0, row['diff_p_holm']), floor=1e-3).removeprefix('= ')}): **{row['verdict']}**")


def companion_of(run: str | Path) -> Companion:
    """The ``[companion]`` section of a stored run's spec (a :class:`SimlabError` if it has none)."""
    from simlab.results import manifest, resolve_run
    from simlab.runner.spec import parse_companion

    path = resolve_run(run)
    raw = (manifest(path).get("spec") or {}).get("companion")
    if raw is None:
        raise SimlabError(f"{path}: its spec has no [companion] section naming the heuristic study it re-plays")
    return parse_companion(raw, str(path))


def study_run(run: str | Path) -> Path:
    """The stored run of the heuristic study a companion run re-plays: the newest complete run of
    ``experiments/<study>.toml`` (as it is now) in the companion run's project."""
    from simlab.results import manifest, resolve_run
    from simlab.runner.project import run_project
    from simlab.runner.run import latest_run_dir
    from simlab.runner.spec import load_spec

    path = resolve_run(run).resolve()
    companion = companion_of(path)
    project = run_project(path, manifest(path))
    spec_file = project / "experiments" / f"{companion.study}.toml"
    if not spec_file.is_file():
        raise SimlabError(f"{path}: companion.study names {companion.study!r}, but {spec_file} does not exist")
    found = latest_run_dir(load_spec(spec_file), project / "results")
    if found is None or manifest(found).get("status") != "complete":
        raise SimlabError(f"no complete stored run of {spec_file} to compare with: run `simlab run {spec_file}` first")
    return found
