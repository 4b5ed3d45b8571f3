"""Tables for reading: every report notebook shows its polars frames through these helpers.

An estimate and its 95% interval share one cell ("0.521 [0.517, 0.525]"), rounded to what the
interval can tell apart; headers are words, not column names; integers get thousands separators,
p-values three decimals ("< 0.001" below that), booleans yes/no; nothing is truncated. The
rendering is great_tables (polars' ``DataFrame.style``); the cell text is built here so that it
can be tested without a browser.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import polars as pl

CI = "[95% CI]"

# readable headers for the analysis package's column names (anything else: underscores become spaces)
LABELS: dict[str, str] = {
    "n_players": "players",
    "win_rate": "win rate",
    "win_share": "win share",
    "fair_share": "fair share 1/n",
    "effective_games": "effective games",
    "excludes_fair": "excludes 1/n",
    "elo": "rating (Elo scale)",
    "rating": "rating (logit)",
    "p_value": "p",
    "p_holm": "p (Holm)",
    "p_bh": "p (BH)",
    "dof": "df",
    "statistic": "test statistic",
    "score_diff": "score vs others",
    "max_seat_deviation": "largest seat gap from 1/n",
    "max_deviation": "largest gap from 1/n",
    "first_player_win_rate": "round-1 opener's win rate",
    "first_player_advantage": "first-player advantage",
    "first_player_p_value": "first-player p",
    "seat_fairness_p": "seat fairness p",
    "tie_rate": "share of tied games",
    "score_spread": "score spread (VP)",
    "margin": "margin of victory (VP)",
    "lead_changes": "lead changes",
    "turns": "turns",
    "take_rate": "take rate",
    "mean_points": "VP when taken",
    "win_diff": "takers' win edge",
    "win_rate_taker": "takers' win rate",
    "win_rate_others": "others' win rate",
    "games_held": "games held",
    "times_taken": "times taken",
    "games_taken": "games taken",
    "value": "value (VP)",
    "win_value": "value (win share)",
    "score_p_holm": "p (Holm)",
    "score_p_bh": "p (BH)",
    "coef": "coefficient (VP)",
}


def label(name: str, labels: Mapping[str, str] | None = None) -> str:
    """The header shown for column ``name``: ``labels`` first, then :data:`LABELS`, else underscores as spaces."""
    if labels and name in labels:
        return labels[name]
    return LABELS.get(name, name.replace("_", " "))


def digits_for(lo: Iterable[float | None], hi: Iterable[float | None], most: int = 4) -> int | None:
    """Decimals that show a column's intervals: one significant digit of the narrowest half-width.

    0.004 -> 3 decimals, 0.03 -> 2, 0.11 -> 2 (two digits when the first is a 1), 30 -> 0; at most
    ``most``; None when no interval has a width.
    """
    halves = sorted(abs(h - lo_) / 2 for lo_, h in zip(lo, hi, strict=True)
                    if lo_ is not None and h is not None and math.isfinite(lo_) and math.isfinite(h) and h != lo_)
    if not halves:
        return None
    half = halves[0]
    exponent = math.floor(math.log10(half))
    leading_one = half / 10**exponent < 2  # 0.011 -> 0.011 [two digits], 0.04 -> 0.04
    return max(0, min(most, -exponent + leading_one))


def number(x: float | None, digits: int = 3, signed: bool = False) -> str:
    """``x`` rounded to ``digits`` decimals with thousands separators ('–' when missing or not finite)."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    text = f"{x:{'+' if signed else ''},.{digits}f}"
    if text.lstrip("+-").strip("0.,") == "":  # no -0.000 or +0.000
        text = f"{0:.{digits}f}"
    return text.replace("-", "−")


def estimate_cell(x: float | None, lo: float | None, hi: float | None, digits: int = 3, signed: bool = False) -> str:
    """One cell: "0.521 [0.517, 0.525]" (``signed`` writes +/− on every number)."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    if lo is None or hi is None:
        return number(x, digits, signed)
    return f"{number(x, digits, signed)} [{number(lo, digits, signed)}, {number(hi, digits, signed)}]"


def pvalue(p: float | None) -> str:
    """A p-value: three decimals, "< 0.001" below that."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "–"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def is_pvalue(name: str) -> bool:
    """Whether a column holds p-values (``p``, ``p_*``, ``*_p``, ``*p_value``, ``*_p_holm``, ``*_p_bh``)."""
    return (name == "p" or name.startswith("p_") or name.endswith("_p") or name.endswith("p_value")
            or name.endswith("_p_holm") or name.endswith("_p_bh"))


def estimate_columns(df: pl.DataFrame) -> dict[str, tuple[str, str]]:
    """Every ``x`` with ``x_lo`` and ``x_hi`` columns (and ``win_rate`` with bare ``lo``/``hi``): x -> (lo, hi)."""
    out = {c: (f"{c}_lo", f"{c}_hi") for c in df.columns if f"{c}_lo" in df.columns and f"{c}_hi" in df.columns}
    if "lo" in df.columns and "hi" in df.columns:
        x = "win_rate" if "win_rate" in df.columns else next((c for c in df.columns if df[c].dtype.is_float()), None)
        if x is not None and x not in out:
            out[x] = ("lo", "hi")
    return out


def _magnitude_digits(values: Iterable[float | None]) -> int:
    """Decimals for numbers without an interval: 0 from 1000 up, 1 from 10, else 3."""
    big = max((abs(v) for v in values if v is not None and math.isfinite(v)), default=0.0)
    return 0 if big >= 1000 else 1 if big >= 10 else 3


def _column_digits(df: pl.DataFrame, x: str, lo: str, hi: str) -> int:
    d = digits_for(df[lo].to_list(), df[hi].to_list())
    return _magnitude_digits(df[x].to_list()) if d is None else d


def _plain(series: pl.Series, digits: int | None) -> list[str]:
    dtype = series.dtype
    if dtype == pl.Boolean:
        return ["–" if v is None else ("yes" if v else "no") for v in series.to_list()]
    if dtype.is_integer():
        return ["–" if v is None else f"{v:,}" for v in series.to_list()]
    if dtype.is_float():
        if is_pvalue(series.name):
            return [pvalue(v) for v in series.to_list()]
        if digits is None:
            digits = _magnitude_digits(series.to_list())
        return [number(v, digits) for v in series.to_list()]
    return ["–" if v is None else str(v) for v in series.cast(pl.Utf8).to_list()]


def formatted(df: pl.DataFrame, estimates: Sequence[str] | Mapping[str, tuple[str, str]] | None = None, *,
              digits: Mapping[str, int] | None = None, signed: Iterable[str] = (), hide: Iterable[str] = (),
              labels: Mapping[str, str] | None = None, keep_single_variant: bool = False) -> pl.DataFrame:
    """``df`` as text columns with readable headers: the frame :func:`estimate_table` renders.

    ``estimates`` names the columns shown as "x [lo, hi]" (a list uses ``x_lo``/``x_hi``; a mapping
    gives the bounds' columns; None finds every such triple); their bounds are dropped. ``digits``
    fixes a column's decimals (default: :func:`digits_for` its intervals); ``signed`` columns show
    +/−; ``hide`` drops columns; a ``variant`` column with a single value is dropped unless
    ``keep_single_variant``.
    """
    if isinstance(df, pl.LazyFrame):
        df = df.collect()
    found = estimate_columns(df)
    if estimates is None:
        est = found
    elif isinstance(estimates, Mapping):
        est = dict(estimates)
    else:
        est = {x: found.get(x, (f"{x}_lo", f"{x}_hi")) for x in estimates}
    for x, (lo, hi) in est.items():
        missing = [c for c in (x, lo, hi) if c not in df.columns]
        if missing:
            raise ValueError(f"estimate {x}: no column {', '.join(missing)}")
    digits = dict(digits or {})
    signed = set(signed)
    drop = set(hide) | {c for lo_hi in est.values() for c in lo_hi}
    if not keep_single_variant and "variant" in df.columns and df["variant"].n_unique() <= 1:
        drop.add("variant")
    columns: dict[str, list[str]] = {}
    for c in df.columns:
        if c in drop:
            continue
        head = label(c, labels)
        if c in est:
            lo, hi = est[c]
            d = digits.get(c, _column_digits(df, c, lo, hi))
            triples = zip(df[c].to_list(), df[lo].to_list(), df[hi].to_list(), strict=True)
            columns[f"{head} {CI}"] = [estimate_cell(x, a, b, d, c in signed) for x, a, b in triples]
        else:
            cells = _plain(df[c], digits.get(c))
            if c in signed:
                cells = [s if s.startswith(("−", "–")) or s == number(0, digits.get(c, 3)) else "+" + s
                         for s in cells]
            columns[head] = cells
    return pl.DataFrame(columns, schema={k: pl.Utf8 for k in columns})


def estimate_table(df: pl.DataFrame, estimates: Sequence[str] | Mapping[str, tuple[str, str]] | None = None, *,
                   title: str | None = None, note: str | None = None, **options: Any) -> Any:
    """A great_tables table of ``df`` for a report: see :func:`formatted` for the options.

    ``title`` is shown above, ``note`` (e.g. how the intervals were measured) below. Text columns
    are left-aligned, numbers right-aligned. Returns a ``great_tables.GT`` (it displays itself in
    a notebook).
    """
    if isinstance(df, pl.LazyFrame):
        df = df.collect()
    source = df
    text = formatted(df, estimates, **options)
    numeric = []
    for c in source.columns:
        heads = [h for h in text.columns if h == label(c, options.get("labels")) or
                 h == f"{label(c, options.get('labels'))} {CI}"]
        if heads and (source[c].dtype.is_numeric() or source[c].dtype == pl.Boolean):
            numeric.extend(heads)
    gt = text.style.tab_options(table_font_size="13px", column_labels_font_weight="bold",
                                data_row_padding="3px", table_margin_left="0", table_margin_right="auto")
    if numeric:
        gt = gt.cols_align("right", columns=numeric)
    others = [c for c in text.columns if c not in numeric]
    if others:
        gt = gt.cols_align("left", columns=others)
    if title:
        gt = gt.tab_header(title=title)
    if note:
        gt = gt.tab_source_note(note)
    return gt


def wide_estimates(df: pl.DataFrame, by: str = "n_players", estimates: Sequence[str] | None = None, *,
                   extra: Sequence[str] = (), tail: Sequence[str] = (), signed: Iterable[str] = (),
                   column: str = "{} players",
                   labels: Mapping[str, str] | None = None, digits: Mapping[str, int] | None = None) -> pl.DataFrame:
    """A wide table turned on its side: one row per measure, one column per value of ``by``.

    Each measure's cells are "x [lo, hi]" (``estimates``, default every triple) or a plain number
    (``extra`` first, e.g. counts; ``tail`` last, e.g. p-values). Used for tables with more measures than fit across a
    page (game metrics).
    """
    if isinstance(df, pl.LazyFrame):
        df = df.collect()
    est = list(estimates) if estimates is not None else list(estimate_columns(df))
    signed = set(signed)
    digits = dict(digits or {})
    keys = df[by].to_list()
    rows: dict[str, list[str]] = {"measure": []}
    heads = [column.format(k) for k in keys]
    for h in heads:
        rows[h] = []
    for c in [*extra, *est, *tail]:
        if c not in df.columns:
            continue
        if c in est and c not in extra and c not in tail:
            lo, hi = f"{c}_lo", f"{c}_hi"
            d = digits.get(c, _column_digits(df, c, lo, hi))
            cells = [estimate_cell(x, a, b, d, c in signed)
                     for x, a, b in zip(df[c].to_list(), df[lo].to_list(), df[hi].to_list(), strict=True)]
            rows["measure"].append(f"{label(c, labels)} {CI}")
        else:
            cells = _plain(df[c], digits.get(c))
            rows["measure"].append(label(c, labels))
        for h, cell in zip(heads, cells, strict=True):
            rows[h].append(cell)
    return pl.DataFrame(rows, schema={k: pl.Utf8 for k in rows})


def rests_on(games: pl.DataFrame, what: str = "") -> Any:
    """One line for the page: how many games and deals the numbers rest on, at which player counts.

    Returns an ``IPython.display.Markdown`` ("This page rests on 20,000 games in 5,000 deals (4 players)").
    """
    from IPython.display import Markdown

    return Markdown(rests_on_text(games, what))


def rests_on_text(games: pl.DataFrame, what: str = "") -> str:
    """The text of :func:`rests_on`."""
    if isinstance(games, pl.LazyFrame):
        games = games.collect()
    n = games.height
    parts = [f"**This page rests on {n:,} games"]
    if "deal" in games.columns:
        keys = [k for k in ("variant", "deal") if k in games.columns]
        deals = games.select(keys).unique().height if "variant" not in keys else \
            games.group_by("variant").agg(pl.col("deal").n_unique()).get_column("deal").max()
        parts.append(f" in {deals:,} deals")
    parts.append("**")
    if "n_players" in games.columns:
        counts = sorted(games["n_players"].unique().to_list())
        parts.append(f" ({', '.join(str(c) for c in counts)} player{'s' if counts != [1] else ''})")
    if what:
        parts.append(f"; {what}")
    return "".join(parts) + "."
