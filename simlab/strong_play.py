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

from simlab.analysis.headlines import format_p, significant_decimals, zero_upper_bound
from simlab.analysis.multiple import adjust_pvalues
from simlab.analysis.paired import DealSums, ratios, simultaneous_differences, two_sided_p
from simlab.compare import deal_sums_of, measures, paired_replicates, seat_frame
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
    ablated = set(_ablations(manifest(path_b)).values())  # compared by component_values_side_by_side
    variants_b = [str(v) for v in manifest(path_b).get("variants") or [] if str(v) not in ablated]
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
    point_a, point_b = ratios(sa), ratios(sb)
    reps_a, reps_b, shared = paired_replicates(sa, sb, draws, seed)
    tail = (1 - LEVEL) / 2
    out = []
    for k, (measure, of_a, of_b) in enumerate(keys):
        fair = fair_share(of_a)
        a, b = float(point_a[k]), float(point_b[k])
        diff, lo, hi = simultaneous_differences(point_b[k:k + 1], point_a[k:k + 1], reps_b[:, k:k + 1],
                                                reps_a[:, k:k + 1], LEVEL)[0]
        a_lo, a_hi, a_flat = _share_interval(sa, reps_a, k, tail)
        b_lo, b_hi, b_flat = _share_interval(sb, reps_b, k, tail)
        if a_flat or b_flat:  # a share never (or always) seen: the bootstrap cannot see its uncertainty either
            lo, hi = min(lo, b_lo - a_hi), max(hi, b_hi - a_lo)
        out.append({
            "variant": variant, "measure": measure,
            "of": of_a if of_a == of_b else f"{of_a} → {of_b.removeprefix('player ')}",
            "fair": fair, "heuristic": a, "heuristic_lo": a_lo, "heuristic_hi": a_hi,
            "strong": b, "strong_lo": b_lo, "strong_hi": b_hi, "diff": diff, "diff_lo": lo, "diff_hi": hi,
            "diff_p": two_sided_p(diff, reps_b[:, k] - reps_a[:, k]),
            "heuristic_p": two_sided_p(a - fair, reps_a[:, k] - fair) if fair is not None else None,
            "strong_p": two_sided_p(b - fair, reps_b[:, k] - fair) if fair is not None else None,
            "paired": bool(shared), "shared_deals": shared,
            "deals_heuristic": int(sa.deals.size), "deals_strong": int(sb.deals.size)})
    return out


def _share_interval(sums: DealSums, reps: np.ndarray, k: int, tail: float) -> tuple[float, float, bool]:
    """The 95% interval of share ``k``: the deal bootstrap's percentiles, except for a share that no deal shows
    (or every deal shows every time), where every resample is 0 (or 1) and the bootstrap collapses to a point:
    then the exact bound with each deal counted once (:func:`zero_upper_bound`, valid whatever the dependence
    of a deal's games). The flag says the bound replaced the bootstrap."""
    num, den = sums.num[:, k], sums.den[:, k]
    deals = int((den > 0).sum())
    if deals and not num.any():
        return 0.0, zero_upper_bound(deals, LEVEL), True
    if deals and np.all(num[den > 0] == den[den > 0]):
        return 1.0 - zero_upper_bound(deals, LEVEL), 1.0, True
    lo, hi = (float(q) for q in np.nanquantile(reps[:, k], [tail, 1 - tail]))
    return lo, hi, False


def _num(x: float, lo: float, hi: float, signed: bool = False) -> tuple[str, str, str]:
    """``x``, ``lo`` and ``hi`` with three decimals, or with the decimals that show a small interval's
    larger end to two significant digits (a share of 0.0004 is never printed as 0.000)."""
    top = max(abs(lo), abs(hi))
    d = max(3, significant_decimals(top)) if 0 < top < 0.01 else 3
    sign = "+" if signed else ""
    return f"{x:{sign}.{d}f}", f"{lo:{sign}.{d}f}", f"{hi:{sign}.{d}f}"


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
    h, h_lo, h_hi = _num(row["heuristic"], row["heuristic_lo"], row["heuristic_hi"])
    s, s_lo, s_hi = _num(row["strong"], row["strong_lo"], row["strong_hi"])
    d, d_lo, d_hi = _num(row["diff"], row["diff_lo"], row["diff_hi"], signed=True)
    return (f"{what}{fair}: {h} [{h_lo}, {h_hi}] under the heuristics, {s} [{s_lo}, {s_hi}] under strong play; "
            f"difference {d} [{d_lo}, {d_hi}] ({how}, Holm p "
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


def ablated_components(run: str | Path) -> list[str]:
    """The variants of a stored run that ablate a component (remove or change it), in the manifest's order."""
    from simlab.results import manifest, resolve_run

    return list(_ablations(manifest(resolve_run(run))).values())


def _ablations(man: dict[str, Any]) -> dict[tuple[str, str], str]:
    """(component id, change) -> variant name, for the run's ablation variants."""
    out = {}
    for variant, entry in (man.get("data") or {}).items():
        ab = (entry or {}).get("ablation")
        if ab:
            out[(str(ab["id"]), str(ab.get("change", "remove")))] = variant
    return out


def _holder_sums(path: Path, variants: dict[tuple[str, str], str], holders: tuple[str, str],
                 counts: set[int] | None) -> tuple[dict[tuple[str, str], pl.DataFrame], set[int]]:
    """Per ablated component: per deal seed, the sums of the holder's change (variant − base) in win share and
    score and the number of games (columns ``seed``, ``win``, ``score``, ``games``); and the player counts played."""
    from simlab.results import load

    table, column = holders
    tables = load(path)
    if table not in tables:
        raise SimlabError(f"{path}: no {table!r} table to find who held each component (record = [\"{table}\"])")
    games = tables["games"].select(pl.col("variant").cast(pl.Utf8), "game", "seed", "n_players").collect()
    seats = tables["seats"].select(pl.col("variant").cast(pl.Utf8), "game", "seat",
                                   pl.col("win_share").cast(pl.Float64), pl.col("score").cast(pl.Float64)).collect()
    held = tables[table].select(pl.col("variant").cast(pl.Utf8), "game", pl.col("seat").cast(pl.Int8),
                                pl.col(column).cast(pl.Utf8).alias("_id")).collect()
    played = set(games["n_players"].unique().to_list())
    keep = games.filter(pl.col("n_players").is_in(sorted(counts))) if counts else games
    base = (seats.filter(pl.col("variant") == "base").drop("variant")
            .join(keep.filter(pl.col("variant") == "base").select("game", "seed"), on="game"))
    out = {}
    for (component, _change), variant in variants.items():
        var = seats.filter(pl.col("variant") == variant).drop("variant")
        in_var = held.filter((pl.col("variant") == variant) & (pl.col("_id") == component)).select("game", "seat")
        in_base = (held.filter((pl.col("variant") == "base") & (pl.col("_id") == component)).select("game", "seat")
                   .join(in_var.select("game").unique(), on="game", how="anti"))
        rows = (pl.concat([in_var, in_base]).unique()
                .join(base, on=["game", "seat"]).join(var, on=["game", "seat"], suffix="_v")
                .group_by("game").agg(pl.first("seed"), (pl.col("win_share_v") - pl.col("win_share")).mean().alias("w"),
                                      (pl.col("score_v") - pl.col("score")).mean().alias("s")))
        out[(component, _change)] = rows.group_by("seed").agg(pl.col("w").sum().alias("win"),
                                                               pl.col("s").sum().alias("score"),
                                                               pl.len().cast(pl.Float64).alias("games"))
    return out, played


def _component_sums(per: dict[tuple[str, str], pl.DataFrame], keys: list[tuple[str, str]]) -> DealSums:
    """Deals x 2K sums: the K components' win changes, then their score changes (denominator: games held)."""
    frames = [per[k].with_columns(pl.lit(i).alias("_k")) for i, k in enumerate(keys)]
    long = pl.concat(frames) if frames else pl.DataFrame()
    deals = np.sort(long["seed"].unique().to_numpy()) if long.height else np.zeros(0, dtype=np.uint64)
    row = np.searchsorted(deals, long["seed"].to_numpy()) if long.height else np.zeros(0, dtype=np.int64)
    k = long["_k"].to_numpy() if long.height else np.zeros(0, dtype=np.int64)
    num = np.zeros((deals.size, 2 * len(keys)))
    den = np.zeros((deals.size, 2 * len(keys)))
    if long.height:
        np.add.at(num, (row, k), long["win"].to_numpy())
        np.add.at(num, (row, k + len(keys)), long["score"].to_numpy())
        np.add.at(den, (row, k), long["games"].to_numpy())
        np.add.at(den, (row, k + len(keys)), long["games"].to_numpy())
    return DealSums(deals, num, den)


def component_values_side_by_side(heuristic_run: str | Path, strong_run: str | Path, draws: int = DRAWS,
                                  seed: int = 0) -> pl.DataFrame:
    """What each ablated component is worth to its holder under the heuristics and under strong play.

    For every component the strong run ablates (matched with the study's variant that makes the same
    change to the same component), at the player counts the strong run played: the holder's value in
    win share (the headline; a removal's value is minus the holder's change) and in score, each with its
    95% deal-bootstrap interval, and the difference strong − heuristic paired by deal (the same deal
    weights over the union of both runs' deal seeds). The holder is the seat that held the component in
    the changed game, else in the base game (``Ablation.holders`` names the table that records it).
    Holm at 5% within each family (values against 0 under each play, the differences), over the
    components; ``verdict`` as :func:`verdict` with 0 as the fair value.
    """
    from simlab.core.game import get_game
    from simlab.results import manifest, resolve_run

    path_a, path_b = resolve_run(heuristic_run), resolve_run(strong_run)
    man_a, man_b = manifest(path_a), manifest(path_b)
    ablation = get_game(str(man_b.get("game"))).ablation()
    if ablation is None or ablation.holders is None:
        raise SimlabError(f"{man_b.get('game')} records no holder of an ablated component (Ablation.holders)")
    wanted, have = _ablations(man_b), _ablations(man_a)
    missing = sorted(set(wanted) - set(have))
    if missing:
        raise SimlabError(f"companion: the study's run {path_a} has no variant that ablates {missing[0][0]} "
                          f"({missing[0][1]}) as {wanted[missing[0]]} does")
    keys = sorted(wanted)
    per_b, counts = _holder_sums(path_b, wanted, ablation.holders, None)
    per_a, _ = _holder_sums(path_a, {k: have[k] for k in keys}, ablation.holders, counts)
    sa, sb = _component_sums(per_a, keys), _component_sums(per_b, keys)
    for sums, run, where in ((sa, path_a, f"at {', '.join(map(str, sorted(counts)))} players"), (sb, path_b, "")):
        if not sums.deals.size:
            raise SimlabError(f"companion: the run {run} has no game {where} where a seat held an ablated component: "
                              "nothing to compare")
    reps_a, reps_b, shared = paired_replicates(sa, sb, draws, seed)
    point_a, point_b = ratios(sa), ratios(sb)
    tail = (1 - LEVEL) / 2
    rows = []
    n = len(keys)
    for i, (component, change) in enumerate(keys):
        sign = -1.0 if change == "remove" else 1.0
        row: dict[str, Any] = {"component": component, "change": change, "variant": wanted[(component, change)],
                               "games_heuristic": float(sa.den[:, i].sum()), "games_strong": float(sb.den[:, i].sum()),
                               "paired": bool(shared), "shared_deals": shared}
        for name, j in (("win", i), ("score", i + n)):
            a, b = sign * float(point_a[j]), sign * float(point_b[j])
            ra, rb = sign * reps_a[:, j], sign * reps_b[:, j]
            diff, lo, hi = simultaneous_differences(np.array([b]), np.array([a]), rb[:, None], ra[:, None], LEVEL)[0]
            a_lo, a_hi = (float(q) for q in np.nanquantile(ra, [tail, 1 - tail]))
            b_lo, b_hi = (float(q) for q in np.nanquantile(rb, [tail, 1 - tail]))
            row.update({f"{name}_heuristic": a, f"{name}_heuristic_lo": a_lo, f"{name}_heuristic_hi": a_hi,
                        f"{name}_strong": b, f"{name}_strong_lo": b_lo, f"{name}_strong_hi": b_hi,
                        f"{name}_diff": diff, f"{name}_diff_lo": lo, f"{name}_diff_hi": hi,
                        f"{name}_diff_p": two_sided_p(diff, rb - ra),
                        f"{name}_heuristic_p": two_sided_p(a, ra), f"{name}_strong_p": two_sided_p(b, rb)})
        rows.append(row)
    table = pl.DataFrame(rows)
    for col in ("win_heuristic_p", "win_strong_p", "win_diff_p", "score_diff_p"):
        table = table.with_columns(pl.Series(f"{col}_holm", _holm(table[col].fill_null(np.nan).to_numpy())))
    verdicts = []
    for r in table.iter_rows(named=True):
        edge_a = bool(np.nan_to_num(r["win_heuristic_p_holm"], nan=1.0) <= ALPHA)
        edge_b = bool(np.nan_to_num(r["win_strong_p_holm"], nan=1.0) <= ALPHA)
        verdicts.append(verdict(True, edge_a, edge_b, r["win_heuristic"] * r["win_strong"] > 0,
                                bool(np.nan_to_num(r["win_diff_p_holm"], nan=1.0) <= ALPHA)))
    return table.with_columns(pl.Series("verdict", verdicts, dtype=pl.Utf8))


def describe_component(row: dict[str, Any], noun: str = "component") -> str:
    """One sentence for one component: its value to its holder under both plays, the difference, the verdict."""
    how = "paired by deal" if row["paired"] else "independent runs"
    what = f"{noun} {row['component']}" + ("" if row["change"] == "remove" else f" ({row['change']})")
    return (f"{what}: worth {row['win_heuristic']:+.3f} [{row['win_heuristic_lo']:+.3f}, "
            f"{row['win_heuristic_hi']:+.3f}] in win share ({row['score_heuristic']:+.2f} in score) to its holder "
            "under the heuristics, "
            f"{row['win_strong']:+.3f} [{row['win_strong_lo']:+.3f}, {row['win_strong_hi']:+.3f}] "
            f"({row['score_strong']:+.2f}) under strong play; difference {row['win_diff']:+.3f} "
            f"[{row['win_diff_lo']:+.3f}, {row['win_diff_hi']:+.3f}] ({how}, Holm p "
            f"{format_p(min(1.0, row['win_diff_p_holm']), floor=1e-3).removeprefix('= ')}): **{row['verdict']}**")
