"""Statistics with uncertainty over stored results: seats, matchups, cards, game metrics, SPRT.

Every function takes the stored tables (polars DataFrames or LazyFrames, as
``simlab.results.load(run)`` returns them) and returns a polars DataFrame whose intervals
are explicit ``*_lo`` / ``*_hi`` columns (95%), and says in its docstring how the number
was measured:

- ``seats``: :func:`seat_win_rates`, :func:`seat_fairness_test`, :func:`seat_score_differences`,
  :func:`seat_variant_effects` (each also for another position column, e.g. a start colour)
- ``matchups``: :func:`pairwise_win_rates`, :func:`ratings`, :func:`matchup_heatmap`
- ``cards``: :func:`card_value_observational`, :func:`card_value_ablation`,
  :func:`card_values_causal`, :func:`card_score_regression`
- ``multiple``: :func:`adjust_pvalues` (Holm, Benjamini–Hochberg)
- ``metrics``: :func:`game_metrics`
- ``summary``: :func:`summary_table` (win rate per player, seat or position; what ``simlab run`` prints)
- ``intervals``: :func:`wilson_interval`
- ``sequential``: :func:`sprt`, :func:`sprt_scores`, :func:`sprt_mle`, :func:`power_games`,
  :func:`detectable_difference`, :func:`games_for_difference`

The names are imported lazily, so that the runner's workers, which only need
``intervals`` and ``sequential``, do not load polars, scipy or matplotlib through this package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "seat_win_rates": "seats",
    "seat_fairness_test": "seats",
    "seat_score_differences": "seats",
    "seat_variant_effects": "seats",
    "pairwise_win_rates": "matchups",
    "ratings": "matchups",
    "matchup_heatmap": "matchups",
    "card_value_observational": "cards",
    "card_value_ablation": "cards",
    "card_values_causal": "cards",
    "card_score_regression": "cards",
    "adjust_pvalues": "multiple",
    "game_metrics": "metrics",
    "summary_table": "summary",
    "wilson_interval": "intervals",
    "sprt": "sequential",
    "sprt_mle": "sequential",
    "sprt_scores": "sequential",
    "SprtResult": "sequential",
    "elo_to_score": "sequential",
    "games_for_difference": "sequential",
    "power_games": "sequential",
    "detectable_difference": "sequential",
}

__all__ = [
    "SprtResult",
    "adjust_pvalues",
    "card_score_regression",
    "card_value_ablation",
    "card_value_observational",
    "card_values_causal",
    "detectable_difference",
    "elo_to_score",
    "game_metrics",
    "games_for_difference",
    "matchup_heatmap",
    "pairwise_win_rates",
    "power_games",
    "ratings",
    "seat_fairness_test",
    "seat_score_differences",
    "seat_variant_effects",
    "seat_win_rates",
    "sprt",
    "sprt_mle",
    "sprt_scores",
    "summary_table",
    "wilson_interval",
]

if TYPE_CHECKING:
    from simlab.analysis.cards import (
        card_score_regression,
        card_value_ablation,
        card_value_observational,
        card_values_causal,
    )
    from simlab.analysis.intervals import wilson_interval
    from simlab.analysis.matchups import matchup_heatmap, pairwise_win_rates, ratings
    from simlab.analysis.metrics import game_metrics
    from simlab.analysis.multiple import adjust_pvalues
    from simlab.analysis.seats import seat_fairness_test, seat_score_differences, seat_variant_effects, seat_win_rates
    from simlab.analysis.sequential import (
        SprtResult,
        detectable_difference,
        elo_to_score,
        games_for_difference,
        power_games,
        sprt,
        sprt_mle,
        sprt_scores,
    )
    from simlab.analysis.summary import summary_table


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'simlab.analysis' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"simlab.analysis.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
