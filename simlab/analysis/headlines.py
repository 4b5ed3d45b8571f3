"""Headlines that hold: a finding is headlined only if it survives the page's stated procedure.

A report's headline findings are of two kinds:

- **estimates**: a number with its interval ("the Automas end on space 22.1 on average
  (95% CI 21.8 to 22.4)"). They claim nothing beyond the interval and need no test.
- **claims**: a statement that something differs from a null ("card 38's takers' edge changes
  between 2 and 4 players", "module X helps its holder win"). A claim is a test in a *family*
  of tests (all the cards, all the modules, all the personas × player counts, ...) and is
  headlined only if it survives the multiple-comparison procedure the page states over that
  whole family: **Holm** (family-wise error rate, any dependence) or **Benjamini–Hochberg**
  (false discovery rate) at 5%, on p-values whose standard errors account for the dependence
  between the estimates (deal-clustered; a difference of two estimates measured on the same
  deals is computed per deal, :func:`clustered_difference`, not as two independent intervals).

API (import from ``simlab.analysis.headlines``):

- :func:`survivors` — a table of findings (``estimate``, ``lo``/``hi`` or ``se``, ``p``,
  ``family``) → the same table with ``family_size``, ``p_adjusted`` and ``survives`` under the
  stated procedure, adjusted within each family;
- :func:`p_from_interval` — the two-sided p-value of 0 from a symmetric 95% interval (when a
  table has an interval but no p-value);
- :func:`clustered_difference` — the difference of a mean between two groups of rows (e.g. 4
  minus 2 players) with a deal-clustered standard error that keeps the covariance of the two
  groups when they share deals (per-deal pairing);
- :func:`format_share_with_bound` / :func:`zero_upper_bound` / :func:`format_share` — a share
  as ``"0.115 [0.10, 0.13]"``, and a zero cell as ``"0 (≤ 0.0013)"`` (never a bare 0);
- :class:`Headlines` — the page's headline list: ``estimate(text)`` adds a descriptive
  finding, ``claim(text, row)`` adds a claim only if its row survives; ``write(report_dir)``
  writes ``findings.json`` (the list of sentences ``simlab report`` shows) and
  ``headlines.json`` (each sentence with its kind, family, p-values and procedure, so tests and
  readers can check that every claim survived).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from scipy import stats

from simlab.analysis.multiple import adjust_pvalues

LEVEL = 0.05
MAX_TAKEAWAY = 3   # sentences that open a page
MAX_HEADLINES = 5  # headline findings shown at the top of a page
PROCEDURES = {"holm": "Holm", "bh": "Benjamini–Hochberg"}


def procedure_name(procedure: str) -> str:
    """The procedure as a page states it: ``"Holm"`` or ``"Benjamini–Hochberg"``."""
    if procedure not in PROCEDURES:
        raise ValueError(f"procedure must be one of {', '.join(PROCEDURES)}, not {procedure!r}")
    return PROCEDURES[procedure]


def format_p(p: float, digits: int = 3, floor: float | None = None) -> str:
    """A p-value for a sentence, with its relation: ``"= 0.0232"``, or ``"< 1e-300"`` where it underflowed to 0
    (a p-value is never exactly 0).

    With ``floor`` (e.g. ``1e-4``), a p-value below it reads ``"< 0.0001"``: what a takeaway or a
    headline says instead of ``"= 2.23e-124"`` (the record keeps the exact value).
    """
    if p is None or not math.isfinite(float(p)):
        return "= n/a"
    if floor is not None and float(p) < floor:
        return f"< {floor:.10f}".rstrip("0").rstrip(".") if floor >= 1e-6 else f"< {floor:g}"
    if float(p) <= 0.0:
        return "< 1e-300"
    return f"= {float(p):.{digits}g}"


FEW_DEALS = 100  # a page resting on fewer deals says so at the top (:func:`few_deals_caution`)


def deals_for_precision(deals: int, half_width: float, target: float) -> int:
    """Deals needed for a 95% half-width of ``target`` when ``deals`` gave ``half_width``.

    A deal-clustered interval narrows with the square root of the number of deals, so
    ``deals · (half_width / target)²``, rounded up (at least ``deals``).
    """
    if not deals > 0 or not target > 0:
        raise ValueError(f"deals_for_precision: deals and target must be positive, not {deals}, {target}")
    if not math.isfinite(half_width) or half_width <= target:
        return int(deals)
    return math.ceil(deals * (half_width / target) ** 2)


def few_deals_caution(deals: int, half_width: float, target: float, what: str, unit: str = "") -> str | None:
    """The caution a page built on fewer than :data:`FEW_DEALS` deals shows at the top, else None.

    ``half_width`` is the 95% half-width of the page's headline number (``what``, e.g. "the top
    card's value") on this run and ``target`` the precision its headline is read at (e.g. ±0.01
    for a win rate printed to three decimals); ``unit`` follows the numbers ("VP"). The caution
    says how many deals would give that precision (:func:`deals_for_precision`).
    """
    if deals >= FEW_DEALS:
        return None
    need = deals_for_precision(deals, half_width, target)
    u = f" {unit}" if unit else ""
    return (f"This page rests on {deals:,} deals (fewer than {FEW_DEALS}): {what} is known to ±{half_width:.2g}{u} "
            f"(95%); about {need:,} deals would give the ±{target:g}{u} its headline is read at.")


def p_from_interval(estimate: Any, lo: Any, hi: Any, dof: Any = None, level: float = 0.95) -> np.ndarray:
    """Two-sided p-value of ``estimate == 0`` from a symmetric ``level`` interval ``[lo, hi]``.

    ``se = (hi − lo) / (2 q)`` with ``q`` the t quantile on ``dof`` degrees of freedom (normal
    when ``dof`` is None). Only for intervals of the form estimate ± q·se (t or Wald); for a
    Wilson or bootstrap interval use the p-value of the test the interval came from.
    """
    est = np.asarray(estimate, dtype=np.float64)
    width = np.asarray(hi, dtype=np.float64) - np.asarray(lo, dtype=np.float64)
    if dof is None:
        q = stats.norm.ppf(0.5 + level / 2)
        dist = stats.norm
        args: tuple = ()
    else:
        d = np.asarray(dof, dtype=np.float64)
        q = stats.t.ppf(0.5 + level / 2, d)
        dist = stats.t
        args = (d,)
    with np.errstate(divide="ignore", invalid="ignore"):
        se = width / (2 * q)
        z = np.abs(est) / se
    p = 2 * dist.sf(z, *args)
    return np.where(se > 0, p, np.where(est == 0, 1.0, 0.0))


def survivors(findings: pl.DataFrame, procedure: str = "holm", level: float = LEVEL, p: str = "p",
              family: str | None = "family") -> pl.DataFrame:
    """The findings with the page's multiple-comparison procedure applied within each family.

    ``findings`` has one row per test: a p-value column ``p`` (two-sided, computed with the
    dependence accounted for: deal-clustered, paired where two estimates share deals) and a
    ``family`` column naming the family it is adjusted in (None: one family, the whole table).
    Every test of the family must be a row, including those that will not be headlined: the
    family is what the page says was tested, not what looked interesting. ``procedure`` is
    ``"holm"`` (family-wise error rate) or ``"bh"`` (Benjamini–Hochberg, false discovery rate),
    at ``level``.

    Returns ``findings`` with ``family_size`` (non-missing p-values in the family),
    ``p_adjusted`` and ``survives`` (``p_adjusted <= level``; False for a missing p-value) added.
    """
    procedure_name(procedure)
    if p not in findings.columns:
        raise ValueError(f"findings: no p-value column {p!r}")
    if family is not None and family not in findings.columns:
        raise ValueError(f"findings: no family column {family!r}")
    pv = findings[p].cast(pl.Float64).fill_null(np.nan).to_numpy()
    groups = (np.zeros(findings.height, dtype=np.int64) if family is None
              else findings[family].cast(pl.Utf8).fill_null("").to_numpy())
    adj = np.full(findings.height, np.nan)
    size = np.zeros(findings.height, dtype=np.int64)
    for g in np.unique(groups):
        idx = np.flatnonzero(groups == g)
        adj[idx] = adjust_pvalues(pv[idx], procedure)
        size[idx] = int(np.sum(~np.isnan(pv[idx])))
    survive = np.where(np.isnan(adj), False, adj <= level)
    return findings.with_columns(pl.Series("family_size", size), pl.Series("p_adjusted", adj),
                                 pl.Series("survives", survive))


def clustered_difference(frame: pl.DataFrame, group: str, value: str, a: Any, b: Any, by: Sequence[str] = (),
                         cluster: str = "deal", level: float = 0.95) -> pl.DataFrame:
    """Mean of ``value`` in group ``b`` minus in group ``a`` (e.g. 4 minus 2 players), clustered by deal.

    Each group's mean is over its rows; the standard error of the difference is the CR1 sandwich
    over clusters of the *difference* of the two groups' residual sums,
    ``se² = G/(G−1) · Σ_c (R_c^b / N_b − R_c^a / N_a)²`` (``R_c`` a group's sum of residuals in
    cluster ``c``, ``N`` its rows, ``G`` the clusters seen in either group). When the two groups
    share deals this keeps their covariance (it is the per-deal paired difference); when they
    share none it is the independent two-sample variance. A t-interval on ``G − 1`` degrees of
    freedom and the p-value of no difference. Returns ``by``, ``n_a``, ``n_b``, ``clusters``,
    ``shared`` (clusters in both groups), ``a``, ``b``, ``diff``, ``se``, ``diff_lo``,
    ``diff_hi``, ``p``.
    """
    by = list(by)
    for c in (*by, group, value, cluster):
        if c not in frame.columns:
            raise ValueError(f"clustered_difference: no column {c!r}")
    f = frame.filter(pl.col(group).is_in([a, b])).with_columns(
        (pl.col(group) == b).alias("_is_b"), pl.col(value).cast(pl.Float64).alias("_v"))
    if not by:
        f = f.with_columns(pl.lit(0).alias("_all"))
        keys = ["_all"]
    else:
        keys = by
    means = f.group_by([*keys, "_is_b"]).agg(pl.col("_v").mean().alias("_m"), pl.len().alias("_n"))
    per = (f.join(means, on=[*keys, "_is_b"], how="left")
           .group_by([*keys, cluster, "_is_b"]).agg((pl.col("_v") - pl.col("_m")).sum().alias("_r"),
                                                    pl.col("_n").first()))
    per = per.with_columns(pl.when(pl.col("_is_b")).then(pl.col("_r") / pl.col("_n"))
                           .otherwise(-pl.col("_r") / pl.col("_n")).alias("_u"))
    by_cluster = per.group_by([*keys, cluster]).agg(pl.col("_u").sum(), pl.col("_is_b").n_unique().alias("_both"))
    var = by_cluster.group_by(keys).agg(pl.len().alias("clusters"), (pl.col("_both") == 2).sum().alias("shared"),
                                        (pl.col("_u") ** 2).sum().alias("_s2"))
    wide = (means.filter(~pl.col("_is_b")).select(*keys, pl.col("_m").alias("a"), pl.col("_n").alias("n_a"))
            .join(means.filter(pl.col("_is_b")).select(*keys, pl.col("_m").alias("b"), pl.col("_n").alias("n_b")),
                  on=keys, how="inner")
            .join(var, on=keys, how="left"))
    g = wide["clusters"].cast(pl.Float64).to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        se = np.where(g > 1, np.sqrt(g / (g - 1) * wide["_s2"].to_numpy()), np.nan)
    diff = (wide["b"] - wide["a"]).to_numpy()
    dof = np.where(g > 1, g - 1, np.nan)
    q = stats.t.ppf(0.5 + level / 2, np.where(g > 1, dof, 1.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        pval = 2 * stats.t.sf(np.abs(diff / se), np.where(g > 1, dof, 1.0))
    pval = np.where(se > 0, pval, np.where(diff == 0, 1.0, 0.0))
    out = wide.with_columns(pl.Series("diff", diff), pl.Series("se", se), pl.Series("diff_lo", diff - q * se),
                            pl.Series("diff_hi", diff + q * se), pl.Series("p", np.where(g > 1, pval, np.nan)))
    cols = [*by, "n_a", "n_b", "clusters", "shared", "a", "b", "diff", "se", "diff_lo", "diff_hi", "p"]
    return out.select(cols).sort(by) if by else out.select(cols)


# ------------------------------------------------------------------ shares and zero cells


def zero_upper_bound(n: float, level: float = 0.95) -> float:
    """Upper end of the exact (Clopper–Pearson) two-sided ``level`` interval of a share seen 0 times in ``n``.

    ``1 − ((1 − level) / 2)^(1/n)`` (0.0012 for n = 3,000). For games clustered in deals pass
    the number of **deals** as ``n``: if a game of a deal has the event with probability ``p``,
    a deal shows it at least once with probability ≥ ``p`` whatever the dependence between its
    games, so ``(1 − p)^deals`` bounds the chance of seeing none and the bound is valid
    (conservative when deals hold several games).
    """
    if not n > 0:
        raise ValueError(f"zero_upper_bound: n must be positive, not {n}")
    return float(1 - ((1 - level) / 2) ** (1 / n))


def clopper_pearson(k: float, n: float, level: float = 0.95) -> tuple[float, float]:
    """Exact (Clopper–Pearson) two-sided ``level`` interval of ``k`` successes in ``n`` trials."""
    if not n > 0 or k < 0 or k > n:
        raise ValueError(f"clopper_pearson: need 0 <= k <= n and n > 0, not k={k}, n={n}")
    alpha = 1 - level
    lo = 0.0 if k == 0 else float(stats.beta.ppf(alpha / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(stats.beta.ppf(1 - alpha / 2, k + 1, n - k))
    return lo, hi


def significant_decimals(x: float, sig: int = 2) -> int:
    """Decimals that show ``x`` (> 0) with ``sig`` significant digits."""
    return max(0, sig - 1 - math.floor(math.log10(x)))


def format_share(share: float, lo: float, hi: float, digits: int = 3, bound_digits: int = 2) -> str:
    """``"0.115 [0.10, 0.13]"``: a share with its interval; a zero share as ``"0 (≤ hi)"``.

    Shares below 0.01 get the decimals that show the upper bound to two significant digits
    (``"0.0003 [0.0001, 0.0019]"``), so a small share is never printed as 0.000.
    """
    if share == 0:
        return f"0 (≤ {hi:.{significant_decimals(hi)}f})" if hi > 0 else "0 (≤ 0)"
    if hi < 0.01 or share < 0.01:
        d = max(significant_decimals(hi), significant_decimals(share, 1))
        return f"{share:.{d}f} [{lo:.{d}f}, {hi:.{d}f}]"
    return f"{share:.{digits}f} [{lo:.{bound_digits}f}, {hi:.{bound_digits}f}]"


def format_share_with_bound(k: float, n: float, lo: float | None = None, hi: float | None = None,
                            deals: float | None = None, level: float = 0.95) -> str:
    """A share ``k / n`` for a table or a sentence: ``"0.115 [0.10, 0.13]"``, or ``"0 (≤ 0.0013)"`` when ``k = 0``.

    The interval is ``[lo, hi]`` when given (e.g. the page's deal-clustered Wilson interval),
    else the exact Clopper–Pearson interval of ``k`` in ``n``. A zero cell shows its upper bound,
    never a bare 0: the given ``hi`` if any, else :func:`zero_upper_bound` of ``deals`` (the
    deal-clustered bound: each deal counts once, valid whatever the dependence of a deal's
    games) when given, else of ``n`` (exact Clopper–Pearson, for independent games).
    """
    if not n > 0:
        raise ValueError(f"format_share_with_bound: n must be positive, not {n}")
    share = k / n
    if k == 0:
        return format_share(0.0, 0.0, hi if hi is not None else zero_upper_bound(deals or n, level))
    if lo is None or hi is None:
        lo, hi = clopper_pearson(k, n, level)
    return format_share(share, lo, hi)


# ------------------------------------------------------------------ the headline list


@dataclass
class Headline:
    """One headline sentence and what it rests on (``kind``: "estimate" or "claim")."""

    text: str
    kind: str
    family: str | None = None
    procedure: str | None = None
    family_size: int | None = None
    p: float | None = None
    p_adjusted: float | None = None
    survives: bool | None = None


@dataclass
class Headlines:
    """A page's headline findings; claims enter only if they survive the stated procedure."""

    items: list[Headline] = field(default_factory=list)
    takeaway: list[str] = field(default_factory=list)
    cautions: list[str] = field(default_factory=list)

    def say(self, sentence: str) -> None:
        """Add a sentence to the page's takeaway: at most three plain sentences that answer its question.

        The takeaway opens the page, before the headline findings; each sentence carries its key
        numbers with their intervals.
        """
        if len(self.takeaway) >= MAX_TAKEAWAY:
            raise ValueError(f"a takeaway has at most {MAX_TAKEAWAY} sentences; already: {self.takeaway}")
        self.takeaway.append(sentence)

    def caution(self, text: str) -> None:
        """Add a caution shown at the top of the page (e.g. a run on too few deals for its headline's precision)."""
        self.cautions.append(text)

    def estimate(self, text: str) -> None:
        """Add a descriptive finding (a number with its interval, no claim of a difference)."""
        self.items.append(Headline(text=text, kind="estimate"))

    def claim(self, text: str, row: Mapping[str, Any], procedure: str, family: str | None = None) -> bool:
        """Add ``text`` if ``row`` (a row of :func:`survivors` output) survives; returns whether it was added.

        ``procedure`` is the one the page states (and ``survivors`` applied); ``family`` names the
        family for the record (default: the row's ``family``).
        """
        procedure_name(procedure)
        for key in ("p", "p_adjusted", "survives", "family_size"):
            if key not in row:
                raise ValueError(f"claim: the row has no {key!r} (pass a row of survivors(...))")
        if not row["survives"]:
            return False
        self.items.append(Headline(text=text, kind="claim", family=family or row.get("family"),
                                   procedure=procedure, family_size=int(row["family_size"]), p=float(row["p"]),
                                   p_adjusted=float(row["p_adjusted"]), survives=True))
        return True

    def texts(self) -> list[str]:
        """The sentences, in order."""
        return [h.text for h in self.items]

    def top(self) -> list[str]:
        """The headline findings the page opens with: the first :data:`MAX_HEADLINES` (order them by importance)."""
        return self.texts()[:MAX_HEADLINES]

    def write(self, report_dir: str | Path) -> None:
        """Write ``findings.json`` and ``headlines.json`` (each finding with its record).

        ``findings.json`` is ``{"takeaway": [...], "headlines": [...], "more": [...], "cautions": [...]}``:
        the takeaway sentences, the first five findings (shown at the top of the page), the rest
        (shown in the notebook's sections) and the cautions.
        """
        out = Path(report_dir)
        out.mkdir(parents=True, exist_ok=True)
        texts = self.texts()
        findings = {"takeaway": self.takeaway, "headlines": texts[:MAX_HEADLINES], "more": texts[MAX_HEADLINES:],
                    "cautions": self.cautions}
        (out / "findings.json").write_text(json.dumps(findings, indent=1, ensure_ascii=False))
        (out / "headlines.json").write_text(json.dumps([asdict(h) for h in self.items], indent=1))


def read_findings(report_dir: str | Path) -> dict[str, list[str]]:
    """A report folder's ``findings.json`` as ``{"takeaway", "headlines", "more", "cautions"}`` (empty lists if absent).

    A plain list (the format before takeaways) is read as its first five findings as headlines
    and the rest as ``more``.
    """
    path = Path(report_dir) / "findings.json"
    data: Any = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    if isinstance(data, list):
        data = {"headlines": data[:MAX_HEADLINES], "more": data[MAX_HEADLINES:]}
    return {key: [str(x) for x in data.get(key, [])] for key in ("takeaway", "headlines", "more", "cautions")}
