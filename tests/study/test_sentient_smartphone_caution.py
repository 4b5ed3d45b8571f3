"""The helpers the Sentient and Smartphone pages use for their numbers (issue 23, "Numbers that confuse"):
a p-value in a sentence never reads like "2.23e-124", and a page on few deals says how many would give
its headline's precision."""

from __future__ import annotations

import pytest

from simlab.analysis.headlines import FEW_DEALS, deals_for_precision, few_deals_caution, format_p


def test_a_tiny_p_value_reads_below_the_floor():
    assert format_p(2.23e-124, floor=1e-4) == "< 0.0001"
    assert format_p(0.0232, floor=1e-4) == "= 0.0232"
    assert format_p(2.23e-124) == "= 2.23e-124"  # without a floor: unchanged (tables, records)


def test_deals_for_precision_grows_with_the_square_of_the_ratio():
    # a deal-clustered half-width falls with sqrt(deals): 3x narrower needs 9x the deals
    assert deals_for_precision(40, 0.03, 0.01) == 360
    assert deals_for_precision(40, 0.005, 0.01) == 40  # already precise enough
    with pytest.raises(ValueError):
        deals_for_precision(0, 0.03, 0.01)


def test_few_deals_caution_only_below_the_threshold():
    text = few_deals_caution(40, 0.03, 0.01, "the best colour's win rate")
    assert text is not None and "40 deals" in text and "about 360 deals" in text and "±0.01" in text
    assert few_deals_caution(FEW_DEALS, 0.03, 0.01, "x") is None
